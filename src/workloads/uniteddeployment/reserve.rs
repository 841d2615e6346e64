//! The reservation mode of adaptive scheduling (`adaptive.reserveUnschedulablePods`,
//! Deployment and CloneSet templates only): pods that cannot run where their subset put
//! them are kept (reserved) while temporary substitutes run in other subsets, and the
//! substitutes go once the reserved pods are really healthy. Pure.
//!
//! Per pod of an existing subset, with its `apps.kruise.io/united-deployment-reserved-pod`
//! label:
//! - the subset is marked `Schedulable=False` and the pod has no label yet (it was created
//!   while the subset was marked): reserved at once;
//! - labelled reserved: released once Running, at the update revision and Ready for
//!   `unschedulableDuration`; until then reserved;
//! - not reserved, at the update revision: reserved once Pending and unschedulable for
//!   `rescheduleCriticalSeconds` since its creation;
//! - not reserved, at an older revision: reserved (and counted as an update-timeout pod)
//!   once the UnitedDeployment has been `UnitedDeploymentUpdated=False` for
//!   `rescheduleCriticalSeconds`.
//!
//! A pod whose reserved state changes, or that has no label, gets the label written. A
//! subset with reserved pods is unschedulable (`False`, reason `reschedule`, "reserved pods
//! found"), else schedulable (`True`, "no reserved pods"). After the allocation, a subset
//! that was marked, is schedulable now and grows is marked again ("subset just recovered
//! scaled up"), so its new pods start reserved and the substitutes stay until they run.
//!
//! Invariants: every decision names when to look again; the condition keeps its transition
//! time while its status stays (set by the caller through `conditions::kept_time`).
use std::time::Duration;

use k8s_openapi::api::core::v1::Pod;
use k8s_openapi::jiff::Timestamp;

use super::conditions::condition;
use crate::api::common::Condition;
use crate::workloads::common::availability::{is_ready, ready_since, unschedulable_for};

/// The pod label of the reservation mode.
pub const RESERVED_LABEL: &str = "apps.kruise.io/united-deployment-reserved-pod";

/// One subset's reservation this round.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Reservation {
    /// No reserved pod.
    pub schedulable: bool,
    /// Its `Schedulable` condition was False before this round.
    pub marked: bool,
    pub reserved: i32,
    /// Old-revision pods reserved because the update took too long.
    pub update_timeout: i32,
    /// `(pod, reserved)` for the pods whose label to write.
    pub labels: Vec<(String, bool)>,
    /// Its `Schedulable` condition (time set by the caller).
    pub condition: Option<Condition>,
    pub recheck: Option<Duration>,
}

/// What the reservation rules read besides the pods.
#[derive(Debug, Clone, Copy)]
pub struct Rules<'a> {
    pub update_revision: &'a str,
    /// The UnitedDeployment's `UnitedDeploymentUpdated` condition.
    pub updated: Option<&'a Condition>,
    pub critical: Duration,
    pub hold: Duration,
    pub now: Timestamp,
}

fn label(pod: &Pod) -> Option<bool> {
    let value = pod.metadata.labels.as_ref()?.get(RESERVED_LABEL)?;
    Some(value == "true")
}

fn revision(pod: &Pod) -> &str {
    pod.metadata
        .labels
        .as_ref()
        .and_then(|l| l.get(super::render::REVISION_LABEL))
        .map(String::as_str)
        .unwrap_or_default()
}

/// How long until `since + wait` (None once it has passed).
fn left(since: Timestamp, wait: Duration, now: Timestamp) -> Option<Duration> {
    let due = since.checked_add(wait).ok()?;
    let left = due.duration_since(now);
    left.is_positive().then(|| left.unsigned_abs())
}

/// Whether `pod` is reserved now, whether it timed out on an update, and when to look again.
fn judged(pod: &Pod, rules: &Rules) -> (bool, bool, Option<Duration>) {
    if label(pod) == Some(true) {
        let running = pod.status.as_ref().and_then(|s| s.phase.as_deref()) == Some("Running");
        if running && revision(pod) == rules.update_revision && is_ready(pod) {
            let since = ready_since(pod).unwrap_or(rules.now);
            return match left(since, rules.hold, rules.now) {
                None => (false, false, None),
                Some(wait) => (true, false, Some(wait)),
            };
        }
        return (true, false, Some(rules.hold));
    }
    if pod.metadata.deletion_timestamp.is_some() {
        return (false, false, None);
    }
    if revision(pod) == rules.update_revision {
        return match unschedulable_for(pod, rules.critical, rules.now) {
            Some(Duration::ZERO) => (true, false, Some(rules.hold)),
            Some(wait) => (false, false, Some(wait)),
            None => (false, false, None),
        };
    }
    let updating = rules.updated.filter(|c| c.status == "False");
    let Some(since) = updating
        .and_then(|c| c.last_transition_time.as_ref())
        .map(|t| t.0)
    else {
        return (false, false, None);
    };
    match left(since, rules.critical, rules.now) {
        None => (true, true, Some(rules.hold)),
        Some(wait) => (false, false, Some(wait)),
    }
}

/// The reservation of an existing subset holding `pods`, whose condition was `previous`.
pub fn subset(previous: Option<&Condition>, pods: &[&Pod], rules: &Rules) -> Reservation {
    let marked = previous.is_some_and(|c| c.status == "False");
    let mut out = Reservation {
        marked,
        ..Reservation::default()
    };
    let mut recheck = |wait: Option<Duration>| {
        if let Some(wait) = wait {
            out.recheck = Some(out.recheck.map_or(wait, |r: Duration| r.min(wait)));
        }
    };
    let mut labels = Vec::new();
    let (mut reserved, mut update_timeout) = (0, 0);
    for pod in pods {
        let name = pod.metadata.name.clone().unwrap_or_default();
        let had = label(pod);
        if marked && had.is_none() {
            reserved += 1;
            labels.push((name, true));
            recheck(Some(rules.hold));
            continue;
        }
        let (now_reserved, timed_out, wait) = judged(pod, rules);
        recheck(wait);
        reserved += i32::from(now_reserved);
        update_timeout += i32::from(timed_out);
        if had != Some(now_reserved) {
            labels.push((name, now_reserved));
        }
    }
    out.reserved = reserved;
    out.update_timeout = update_timeout;
    out.labels = labels;
    out.schedulable = reserved == 0;
    out.condition = Some(if reserved > 0 {
        condition(
            super::adaptive::CONDITION,
            "False",
            "reschedule",
            "reserved pods found",
        )
    } else {
        condition(
            super::adaptive::CONDITION,
            "True",
            "reschedule",
            "no reserved pods",
        )
    });
    out
}

/// A subset that just recovered and is given more replicas than it has: marked again.
pub fn after_allocation(reservation: &mut Reservation, current: i32, allocated: i32) {
    if reservation.schedulable && reservation.marked && allocated > current {
        reservation.condition = Some(condition(
            super::adaptive::CONDITION,
            "False",
            "reschedule",
            "subset just recovered scaled up",
        ));
    }
}

/// The maxUnavailable an unschedulable subset's workload gets on update:
/// `replicas - ready + update-timeout pods` (never below 0).
pub fn max_unavailable(replicas: i32, ready: i32, update_timeout: i32) -> i32 {
    (replicas - ready + update_timeout).max(0)
}

#[cfg(test)]
#[path = "reserve_tests.rs"]
mod tests;
