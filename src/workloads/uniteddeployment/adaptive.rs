//! Adaptive scheduling bookkeeping (the default mode): whether a subset can take pods this
//! round, its `Schedulable` condition, and when to look again. Pure.
//!
//! With `scheduleStrategy.type: Adaptive`, per existing subset:
//! - marked `Schedulable=False` less than `unschedulableDuration` (default 300 s) ago: still
//!   unschedulable, look again when the time is up; once it is up: `True`, reason `recover`;
//! - short of ready pods, with a pod Pending, unbound and `Unschedulable` for
//!   `rescheduleCriticalSeconds` (default 30 s) since its creation: unschedulable,
//!   `False` reason `reschedule`, look again after `unschedulableDuration`; a pod still
//!   short of that time asks for a look when it reaches it.
//!
//! Invariants: without the Adaptive strategy every subset is schedulable and its
//! condition is left as it is; a condition's transition time is kept while its status
//! stays; an unschedulable subset always names when it is looked at again.
//! The reservation mode (`reserveUnschedulablePods`, [`reserving`]) has its own rules in
//! [`super::reserve`].
use std::time::Duration;

use k8s_openapi::api::core::v1::Pod;
use k8s_openapi::jiff::Timestamp;

use super::conditions::{condition, kept_time};
use crate::api::common::Condition;
use crate::api::uniteddeployment::{UnitedDeployment, UnitedDeploymentScheduleStrategyType};
use crate::workloads::common::availability::unschedulable_for;

pub const CONDITION: &str = "Schedulable";
const DEFAULT_CRITICAL_SECONDS: i32 = 30;
const DEFAULT_UNSCHEDULABLE_SECONDS: i32 = 300;

/// One subset's scheduling this round.
#[derive(Debug, Clone, PartialEq)]
pub struct Scheduling {
    pub schedulable: bool,
    /// Its `Schedulable` condition (None: none kept).
    pub condition: Option<Condition>,
    /// Look again after this long.
    pub recheck: Option<Duration>,
}

/// The adaptive timings of `ud` (None: not Adaptive): the critical time and how long a
/// subset stays unschedulable.
pub fn timings(ud: &UnitedDeployment) -> Option<(Duration, Duration)> {
    let strategy = ud.spec.schedule_strategy()?;
    if strategy.type_ != Some(UnitedDeploymentScheduleStrategyType::Adaptive) {
        return None;
    }
    let adaptive = strategy.adaptive.as_ref();
    let seconds =
        |value: Option<i32>, default: i32| Duration::from_secs(value.unwrap_or(default).max(0) as u64);
    Some((
        seconds(
            adaptive.and_then(|a| a.reschedule_critical_seconds),
            DEFAULT_CRITICAL_SECONDS,
        ),
        seconds(
            adaptive.and_then(|a| a.unschedulable_duration),
            DEFAULT_UNSCHEDULABLE_SECONDS,
        ),
    ))
}

/// Whether `ud` runs the reservation mode (Adaptive with `reserveUnschedulablePods`).
pub fn reserving(ud: &UnitedDeployment) -> bool {
    let adaptive = ud.spec.schedule_strategy().and_then(|s| s.adaptive.as_ref());
    timings(ud).is_some() && adaptive.and_then(|a| a.reserve_unschedulable_pods) == Some(true)
}

/// The scheduling of an existing subset with `replicas` wanted and `ready` ready, holding
/// `pods`, whose condition was `previous`.
pub fn existing(
    ud: &UnitedDeployment,
    previous: Option<&Condition>,
    replicas: i32,
    ready: i32,
    pods: &[&Pod],
    now: Timestamp,
) -> Scheduling {
    let Some((critical, hold)) = timings(ud) else {
        return Scheduling {
            schedulable: true,
            condition: previous.cloned(),
            recheck: None,
        };
    };
    if let Some(marked) = previous.filter(|p| p.status == "False") {
        let since = marked.last_transition_time.as_ref().map_or(now, |t| t.0);
        let left = since
            .checked_add(hold)
            .ok()
            .map(|due| due.duration_since(now))
            .filter(|left| left.is_positive());
        if let Some(left) = left {
            return Scheduling {
                schedulable: false,
                condition: Some(marked.clone()),
                recheck: Some(left.unsigned_abs()),
            };
        }
    }
    let mut recheck: Option<Duration> = None;
    let mut stuck = 0;
    if ready < replicas {
        for pod in pods {
            match unschedulable_for(pod, critical, now) {
                Some(Duration::ZERO) => stuck += 1,
                Some(left) => recheck = Some(recheck.map_or(left, |r| r.min(left))),
                None => {}
            }
        }
    }
    if stuck > 0 {
        let message = format!("{stuck} pod(s) unschedulable for {}s", critical.as_secs());
        return Scheduling {
            schedulable: false,
            condition: Some(kept_time(
                previous,
                condition(CONDITION, "False", "reschedule", &message),
                now,
            )),
            recheck: Some(hold),
        };
    }
    let recovered = previous.is_some_and(|p| p.status == "False");
    let condition = match previous {
        Some(p) if !recovered => p.clone(),
        _ if recovered => kept_time(
            previous,
            condition(CONDITION, "True", "recover", "unschedulable time is up"),
            now,
        ),
        _ => kept_time(None, condition(CONDITION, "True", "", ""), now),
    };
    Scheduling {
        schedulable: true,
        condition: Some(condition),
        recheck,
    }
}

#[cfg(test)]
#[path = "adaptive_tests.rs"]
mod tests;
