//! The adaptive strategy (OpenKruise's `rescheduleSubset`): with `scheduleStrategy.type:
//! Adaptive` and `rescheduleCriticalSeconds`, a subset whose pods stay unschedulable is
//! marked `Schedulable=False` (the webhook then skips it) and those pods are deleted so the
//! workload recreates them in the next subset; five minutes after the mark, a subset with no
//! such pod is `Schedulable` again (event `RecoverSchedulable`). The last subset is always
//! `Schedulable`. Pure.
//!
//! Invariants: a pod counts as unschedulable once it is Pending, unbound, its `PodScheduled`
//! condition False with reason `Unschedulable`, and older than the critical time; the
//! condition's transition time is kept while its status and reason stay; the round comes
//! back when a pod reaches the critical time or a mark its five minutes.
use std::time::Duration;

use k8s_openapi::api::core::v1::Pod;
use k8s_openapi::apimachinery::pkg::apis::meta::v1::Time;
use k8s_openapi::jiff::Timestamp;
use kube::ResourceExt;

use crate::api::common::Condition;
use crate::workloads::common::availability::unschedulable_for;

pub const CONDITION: &str = "Schedulable";
/// How long a subset stays unschedulable before it is tried again.
pub const RECOVER_AFTER: Duration = Duration::from_secs(300);

/// A subset's `Schedulable` condition this round, the pods to delete, and when to look again.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Outcome {
    pub condition: Option<Condition>,
    pub unschedulable: Vec<String>,
    pub recheck: Option<Duration>,
    /// It turned schedulable again this round (the `RecoverSchedulable` event).
    pub recovered: bool,
}

fn time(now: Timestamp) -> Time {
    Time(Timestamp::from_second(now.as_second()).unwrap_or(now))
}

/// `wanted`, keeping `previous`'s transition time when status and reason are the same
/// (status the same, reason another: the time is kept too, as upstream).
fn kept(previous: Option<&Condition>, status: &str, reason: &str, now: Timestamp) -> Condition {
    let transition = match previous {
        Some(p) if p.status == status => p.last_transition_time.clone(),
        _ => Some(time(now)),
    };
    Condition {
        type_: CONDITION.into(),
        status: status.into(),
        last_transition_time: transition.or_else(|| Some(time(now))),
        reason: Some(reason.into()),
        message: previous
            .filter(|p| p.status == status && p.reason.as_deref() == Some(reason))
            .and_then(|p| p.message.clone()),
        observed_generation: None,
    }
}

/// The condition of a subset other than the last one, holding `pods`.
pub fn subset(pods: &[&Pod], previous: Option<&Condition>, critical: Duration, now: Timestamp) -> Outcome {
    let mut out = Outcome::default();
    let mut recheck = |d: Duration| out.recheck = Some(out.recheck.map_or(d, |r| r.min(d)));
    for pod in pods {
        match unschedulable_for(pod, critical, now) {
            Some(Duration::ZERO) => out.unschedulable.push(pod.name_any()),
            Some(left) => recheck(left),
            None => {}
        }
    }
    if !out.unschedulable.is_empty() {
        out.condition = Some(kept(previous, "False", "PodUnschedulable", now));
        return out;
    }
    let Some(previous) = previous else {
        out.condition = Some(kept(None, "True", "Sufficient", now));
        return out;
    };
    if previous.status != "False" {
        out.condition = Some(previous.clone());
        return out;
    }
    let since = previous.last_transition_time.as_ref().map_or(now, |t| t.0);
    let left = since
        .checked_add(RECOVER_AFTER)
        .map(|due| due.duration_since(now))
        .ok();
    match left.filter(|l| l.is_positive()) {
        Some(l) => {
            recheck(l.unsigned_abs());
            out.condition = Some(previous.clone());
        }
        None => {
            out.recovered = true;
            out.condition = Some(kept(Some(previous), "True", "Sufficient", now));
        }
    }
    out
}

/// The last subset's condition: always schedulable.
pub fn last(previous: Option<&Condition>, now: Timestamp) -> Condition {
    match previous {
        Some(p) if p.status == "True" => p.clone(),
        _ => kept(previous, "True", "Sufficient", now),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn at(t: &str) -> Timestamp {
        t.parse().expect("time")
    }

    fn pending(name: &str, created: &str) -> Pod {
        serde_json::from_value(
            json!({ "metadata": { "name": name, "creationTimestamp": created },
            "spec": { "containers": [] },
            "status": { "phase": "Pending", "conditions": [
                { "type": "PodScheduled", "status": "False", "reason": "Unschedulable" }] } }),
        )
        .expect("pod")
    }

    #[test]
    fn stuck_pods_mark_the_subset_and_go_and_it_recovers_after_five_minutes() {
        let now = at("2026-12-04T12:01:00Z");
        let critical = Duration::from_secs(30);
        let (old, young) = (
            pending("web-1", "2026-12-04T12:00:00Z"),
            pending("web-2", "2026-12-04T12:00:50Z"),
        );
        let out = subset(&[&old, &young], None, critical, now);
        assert_eq!(out.unschedulable, ["web-1"]);
        let marked = out.condition.expect("condition");
        assert_eq!(
            (marked.status.as_str(), marked.reason.as_deref()),
            ("False", Some("PodUnschedulable"))
        );
        assert_eq!(
            out.recheck,
            Some(Duration::from_secs(20)),
            "web-2 reaches 30 s in 20 s"
        );

        let later = at("2026-12-04T12:03:00Z");
        let waiting = subset(&[], Some(&marked), critical, later);
        assert_eq!(waiting.condition.as_ref(), Some(&marked), "still marked");
        assert_eq!(waiting.recheck, Some(Duration::from_secs(180)));
        let recovered = subset(&[], Some(&marked), critical, at("2026-12-04T12:06:01Z"));
        assert!(recovered.recovered);
        assert_eq!(recovered.condition.map(|c| c.status), Some("True".to_string()));

        let fresh = subset(&[], None, critical, now).condition.expect("condition");
        assert_eq!(
            (fresh.status.as_str(), fresh.reason.as_deref()),
            ("True", Some("Sufficient"))
        );
        assert_eq!(
            last(Some(&marked), now).status,
            "True",
            "the last subset is always schedulable"
        );
    }
}
