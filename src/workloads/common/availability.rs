//! The one definition of a pod's readiness and availability for every workload kind, and
//! the wake-up a planner owes when availability only waits on the clock.
//!
//! Invariants:
//! - `available` implies `ready`; a pod mid in-place update (`InPlaceUpdateReady` present
//!   and not True) is never ready.
//! - A pod that is ready but not yet available for `minReadySeconds` becomes available by
//!   time alone, with no event: [`next_available_in`] names that moment, and every planner
//!   that counts availability asks for a wake-up then (a missing one stalls the workload
//!   until an unrelated event arrives).
//! - A pod is stuck on the scheduler ([`unschedulable_for`]) only while Pending, unbound
//!   and marked `Unschedulable`, counted from its creation (WorkloadSpread's and
//!   UnitedDeployment's adaptive strategies).
use std::time::Duration;

use k8s_openapi::api::core::v1::Pod;
use k8s_openapi::jiff::{SignedDuration, Timestamp};

use crate::runtime::inplace::state::{READINESS_GATE, pod_condition as condition};
use crate::runtime::lifecycle;

/// Slack added to a wake-up for minReadySeconds, so the clock has surely passed the moment.
pub const WAKE_SLACK: Duration = Duration::from_millis(200);

/// Active: not terminating and not finished.
pub fn is_active(pod: &Pod) -> bool {
    let phase = pod.status.as_ref().and_then(|s| s.phase.as_deref());
    pod.metadata.deletion_timestamp.is_none() && !matches!(phase, Some("Succeeded") | Some("Failed"))
}

/// Running, Ready, and not in the middle of an in-place update.
pub fn is_ready(pod: &Pod) -> bool {
    let running = pod.status.as_ref().and_then(|s| s.phase.as_deref()) == Some("Running");
    let ready = condition(pod, "Ready").is_some_and(|c| c.status == "True");
    let in_place_ok = condition(pod, READINESS_GATE).is_none_or(|c| c.status == "True");
    running && ready && in_place_ok
}

/// Running and Ready (whatever an in-place update's readiness gate says).
pub fn running_ready(pod: &Pod) -> bool {
    let running = pod.status.as_ref().and_then(|s| s.phase.as_deref()) == Some("Running");
    running && condition(pod, "Ready").is_some_and(|c| c.status == "True")
}

/// When the pod's Ready condition last changed.
pub fn ready_since(pod: &Pod) -> Option<Timestamp> {
    condition(pod, "Ready")
        .and_then(|c| c.last_transition_time.as_ref())
        .map(|t| t.0)
}

/// Ready for at least `min_ready_seconds`, with lifecycle state unset or Normal: the one
/// definition of "available", used by the status counters and the pod orders alike.
pub fn is_available(pod: &Pod, min_ready_seconds: i64, now: Timestamp) -> bool {
    let normal = lifecycle::allows_available(pod);
    let since = ready_since(pod);
    let long_enough =
        since.is_none_or(|s| now.duration_since(s) >= SignedDuration::from_secs(min_ready_seconds));
    normal && is_ready(pod) && long_enough
}

/// How long until the first of `pods` that is ready but not yet available for
/// `min_ready_seconds` becomes available (plus [`WAKE_SLACK`]); None when no pod waits on
/// the clock. Example: minReadySeconds 10, a pod Ready since 12:00:03, now 12:00:05 ->
/// 5 s + slack.
pub fn next_available_in<'p>(
    pods: impl IntoIterator<Item = &'p Pod>,
    min_ready_seconds: i64,
    now: Timestamp,
) -> Option<Duration> {
    if min_ready_seconds <= 0 {
        return None;
    }
    pods.into_iter()
        .filter(|p| p.metadata.deletion_timestamp.is_none() && is_ready(p) && lifecycle::allows_available(p))
        .filter(|p| !is_available(p, min_ready_seconds, now))
        .filter_map(ready_since)
        .map(|since| {
            let left = SignedDuration::from_secs(min_ready_seconds) - now.duration_since(since);
            Duration::try_from(left).unwrap_or(Duration::ZERO) + WAKE_SLACK
        })
        .min()
}

/// How long until `pod` has been unschedulable for `critical` since its creation (Some(0):
/// it has), or None when it is not waiting on the scheduler: Pending, unbound, not
/// terminating, its `PodScheduled` condition False with reason `Unschedulable`.
pub fn unschedulable_for(pod: &Pod, critical: Duration, now: Timestamp) -> Option<Duration> {
    let status = pod.status.as_ref()?;
    let bound = pod
        .spec
        .as_ref()
        .and_then(|s| s.node_name.as_deref())
        .is_some_and(|n| !n.is_empty());
    if pod.metadata.deletion_timestamp.is_some() || status.phase.as_deref() != Some("Pending") || bound {
        return None;
    }
    let waiting = status.conditions.iter().flatten().any(|c| {
        c.type_ == "PodScheduled" && c.status == "False" && c.reason.as_deref() == Some("Unschedulable")
    });
    if !waiting {
        return None;
    }
    let created = pod.metadata.creation_timestamp.as_ref()?.0;
    let due = created.checked_add(critical).ok()?;
    let left = due.duration_since(now);
    Some(if left.is_positive() {
        left.unsigned_abs()
    } else {
        Duration::ZERO
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn pod(ready_since: &str, lifecycle: Option<&str>) -> Pod {
        let labels = match lifecycle {
            Some(state) => json!({ "lifecycle.apps.kruise.io/state": state }),
            None => json!({}),
        };
        serde_json::from_value(json!({
            "metadata": { "name": "p", "labels": labels },
            "status": { "phase": "Running", "conditions": [
                { "type": "Ready", "status": "True", "lastTransitionTime": ready_since } ] },
        }))
        .expect("pod")
    }

    fn at(t: &str) -> Timestamp {
        t.parse().expect("time")
    }

    #[test]
    fn a_ready_pod_waiting_on_min_ready_seconds_names_when_it_becomes_available() {
        let p = pod("2026-12-04T12:00:03Z", None);
        let now = at("2026-12-04T12:00:05Z");
        assert!(!is_available(&p, 10, now));
        assert_eq!(
            next_available_in([&p], 10, now),
            Some(Duration::from_secs(8) + WAKE_SLACK)
        );
        assert_eq!(
            next_available_in([&p], 0, now),
            None,
            "no minReadySeconds, no wait"
        );
        let later = at("2026-12-04T12:00:20Z");
        assert!(is_available(&p, 10, later));
        assert_eq!(next_available_in([&p], 10, later), None, "already available");
    }

    #[test]
    fn a_pod_held_by_its_lifecycle_is_not_waiting_on_the_clock() {
        let p = pod("2026-12-04T12:00:03Z", Some("PreparingNormal"));
        let now = at("2026-12-04T12:00:05Z");
        assert!(!is_available(&p, 10, now));
        // Its lifecycle changes by a write (an event), not by time.
        assert_eq!(next_available_in([&p], 10, now), None);
    }
}
