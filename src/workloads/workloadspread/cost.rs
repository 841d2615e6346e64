//! Deletion costs (OpenKruise's `updateDeletionCost`): the `controller.kubernetes.io/pod-deletion-cost` a
//! WorkloadSpread writes on its pods so that the workload's own scale-in (a ReplicaSet, a
//! Deployment, a CloneSet) removes pods from the subsets over their share first. Pure.
//!
//! With `n` subsets and a subset at index `i`: the latest version's pods use `i`, older
//! versions' pods `n-1-i` (old pods in early subsets go first, new pods in late ones); a
//! subset within its `maxReplicas` (or without one) gives all its active pods `100*(n-i)`;
//! one over it gives its `active - max` most deletable pods (unscheduled, Pending <
//! Unknown < Running, not ready, ready for less time, more restarts, newer) `-100*(i+1)`
//! and the rest `100*(n-i)`; pods of no subset go before all of them with `-100*(n+1)`,
//! as upstream writes on them all, except a pod that has no cost while every subset pod's
//! is positive: it goes first as it is (0), and gets no write. So while every subset is
//! within its share, pods the webhook left unplaced keep no cost (as OpenKruise's e2e
//! expects), and the scale-in order is upstream's.
//!
//! Invariants: a cost is written only where it differs from the pod's; "0" is never
//! written to a pod that has no cost yet; every pod of no subset ends below every subset
//! pod.
use k8s_openapi::api::core::v1::Pod;
use k8s_openapi::jiff::Timestamp;

use crate::workloads::common::order::{DELETION_COST_ANNOTATION, PodFacts, sort_for_deletion};

/// One subset's active pods of one version, with what the cost needs to know.
pub struct SubsetPods<'a> {
    /// Index of the subset among `n`.
    pub index: usize,
    /// Its capacity against the workload's total (-1: unlimited).
    pub capacity: i32,
    pub pods: Vec<&'a Pod>,
}

fn positive(n: usize, i: usize) -> i64 {
    100 * (n as i64 - i as i64)
}

fn negative(i: usize) -> i64 {
    -100 * (i as i64 + 1)
}

/// The cost of each pod of `subset` (pod name, cost); `latest`: the pods are of the
/// workload's latest version.
pub fn subset_costs(subset: &SubsetPods<'_>, n: usize, latest: bool, now: Timestamp) -> Vec<(String, i64)> {
    let i = if latest {
        subset.index
    } else {
        n.saturating_sub(1).saturating_sub(subset.index)
    };
    let name = |p: &Pod| p.metadata.name.clone().unwrap_or_default();
    let active = subset.pods.len() as i64;
    let over = if subset.capacity < 0 {
        0
    } else {
        (active - i64::from(subset.capacity)).max(0)
    };
    if over == 0 {
        return subset.pods.iter().map(|p| (name(p), positive(n, i))).collect();
    }
    let mut facts: Vec<PodFacts> = subset
        .pods
        .iter()
        .map(|p| PodFacts {
            // The order is the pods' own, not the costs being computed.
            deletion_cost: 0,
            rank: 0,
            ..PodFacts::from_resource(p, 0, now)
        })
        .collect();
    // Ties in the deletion order go by name, not by the order the pods were grouped in (an
    // adopted pod joins its subset last in the round that adopts it, by name later on).
    facts.sort_by(|a, b| a.name.cmp(&b.name));
    sort_for_deletion(&mut facts);
    facts
        .into_iter()
        .enumerate()
        .map(|(k, f)| {
            let cost = if (k as i64) < over {
                negative(i)
            } else {
                positive(n, i)
            };
            (f.name, cost)
        })
        .collect()
}

/// The cost of a pod in no subset.
pub fn unplaced_cost(n: usize) -> i64 {
    -100 * (n as i64 + 1)
}

/// The costs to give `outside` pods (of no subset): [`unplaced_cost`], except for a pod
/// without a cost when `floor`, the lowest cost of a subset pod, is positive or there is
/// none (it is below every subset pod already).
pub fn unplaced_costs(outside: &[&Pod], n: usize, floor: Option<i64>) -> Vec<(String, i64)> {
    let first_already = floor.is_none_or(|f| f > 0);
    outside
        .iter()
        .filter(|p| {
            let bare = p
                .metadata
                .annotations
                .as_ref()
                .is_none_or(|a| !a.contains_key(DELETION_COST_ANNOTATION));
            !(bare && first_already)
        })
        .map(|p| (p.metadata.name.clone().unwrap_or_default(), unplaced_cost(n)))
        .collect()
}

/// The annotation value to write on `pod` for `cost`, if it must change.
pub fn to_write(pod: &Pod, cost: i64) -> Option<String> {
    let have = pod
        .metadata
        .annotations
        .as_ref()
        .and_then(|a| a.get(DELETION_COST_ANNOTATION));
    match have {
        Some(v) if v.parse::<i64>().ok() == Some(cost) => None,
        None if cost == 0 => None,
        _ => Some(cost.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn now() -> Timestamp {
        "2026-12-04T12:00:00Z".parse().expect("time")
    }

    fn pod(name: &str, ready: bool, created: &str) -> Pod {
        serde_json::from_value(json!({ "metadata": { "name": name, "creationTimestamp": created },
            "spec": { "nodeName": "n1", "containers": [] },
            "status": { "phase": "Running", "conditions": [{ "type": "Ready", "status": if ready { "True" } else { "False" },
                "lastTransitionTime": "2026-12-04T10:00:00Z" }] } }))
        .expect("pod")
    }

    #[test]
    fn a_subset_over_its_share_offers_its_most_deletable_pods_first() {
        let pods = [
            pod("a-old", true, "2026-12-04T09:00:00Z"),
            pod("a-new", true, "2026-12-04T11:00:00Z"),
            pod("a-down", false, "2026-12-04T08:00:00Z"),
        ];
        let subset = SubsetPods {
            index: 0,
            capacity: 2,
            pods: pods.iter().collect(),
        };
        let costs = subset_costs(&subset, 3, true, now());
        assert_eq!(
            costs[0],
            ("a-down".to_string(), -100),
            "the not-ready pod goes first"
        );
        assert!(costs[1..].iter().all(|(_, c)| *c == 300), "{costs:?}");
        let within = SubsetPods {
            index: 2,
            capacity: -1,
            pods: pods.iter().collect(),
        };
        assert!(
            subset_costs(&within, 3, true, now())
                .iter()
                .all(|(_, c)| *c == 100)
        );
        let old_version = SubsetPods {
            index: 0,
            capacity: -1,
            pods: pods.iter().collect(),
        };
        assert!(
            subset_costs(&old_version, 3, false, now())
                .iter()
                .all(|(_, c)| *c == 100),
            "an old version's pods in the first subset go first"
        );
        assert_eq!(unplaced_cost(3), -400);
    }

    /// OpenKruise's e2e: pods left unplaced keep no cost while every subset is within its
    /// share ("only one subset, zone-a=2"); the pods of a removed subset get the cost of no
    /// subset ("then deletion subset-b").
    #[test]
    fn pods_of_no_subset_go_first_and_a_bare_one_keeps_no_cost_while_all_subset_costs_are_positive() {
        let bare = pod("bare", true, "2026-12-04T09:00:00Z");
        let mut stale = bare.clone();
        stale.metadata.name = Some("stale".into());
        stale.metadata.annotations = Some([(DELETION_COST_ANNOTATION.to_string(), "100".to_string())].into());
        let outside = [&bare, &stale];
        let names = |costs: Vec<(String, i64)>| {
            costs
                .into_iter()
                .map(|(n, c)| format!("{n}={c}"))
                .collect::<Vec<_>>()
        };
        assert_eq!(names(unplaced_costs(&outside, 1, Some(100))), ["stale=-200"]);
        assert_eq!(names(unplaced_costs(&outside, 1, None)), ["stale=-200"]);
        assert_eq!(
            names(unplaced_costs(&outside, 1, Some(-100))),
            ["bare=-200", "stale=-200"],
            "below a subset's pod over its share"
        );
    }

    #[test]
    fn a_cost_is_written_only_when_it_changes_and_zero_never_onto_a_bare_pod() {
        let bare = pod("p", true, "2026-12-04T09:00:00Z");
        assert_eq!(to_write(&bare, 0), None);
        assert_eq!(to_write(&bare, 100).as_deref(), Some("100"));
        let mut costed = bare.clone();
        costed.metadata.annotations =
            Some([(DELETION_COST_ANNOTATION.to_string(), "100".to_string())].into());
        assert_eq!(to_write(&costed, 100), None);
        assert_eq!(to_write(&costed, 0).as_deref(), Some("0"));
    }
}
