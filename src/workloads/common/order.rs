//! The orders a workload picks pods in (OpenKruise's CloneSet deletion order and update
//! order with priority, which Advanced StatefulSet's unordered update shares). Pure: sorts
//! [`PodFacts`], the distilled fields of a pod.
//!
//! Deletion order, most deletable first: unscheduled; Pending < Unknown < Running;
//! unavailable; not Ready; lower `controller.kubernetes.io/pod-deletion-cost`; Ready more
//! recently; more restarts; created more recently.
//! Not yet applied: the topology/node-sharing "rank" term between cost and Ready time,
//! and the scatter strategy on the update order (they come with the CloneSet controller).
//!
//! Update order: unscheduled < scheduled, Pending < Unknown < Running, not Ready < Ready,
//! Ready for less time first, more restarts first, newer first; then, stably, the
//! priority strategy: by weight (sum of matching terms, higher first) or by ordered keys
//! (the first key present gives the level, earlier keys first, a larger integer suffix of
//! the value first; pods with none of the keys come FIRST, as upstream).
use std::cmp::Reverse;
use std::collections::BTreeMap;

use k8s_openapi::api::core::v1::Pod;
use k8s_openapi::jiff::Timestamp;
use kube::core::{Selector, SelectorExt};

use super::availability as status;
use crate::api::UpdatePriorityStrategy;

pub const DELETION_COST_ANNOTATION: &str = "controller.kubernetes.io/pod-deletion-cost";

/// What ordering needs of a pod.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PodFacts {
    pub name: String,
    pub labels: BTreeMap<String, String>,
    pub scheduled: bool,
    /// Pending 0, Unknown 1, Running 2 (others 0, as upstream's table).
    pub phase_rank: u8,
    pub ready: bool,
    pub available: bool,
    /// When the Ready condition last changed (None if never Ready).
    pub ready_since: Option<Timestamp>,
    pub restarts: i32,
    pub deletion_cost: i64,
    pub created: Option<Timestamp>,
    /// The deletion rank (see [`super::rank`]) scaled to an integer; higher goes first.
    pub rank: i64,
}

impl PodFacts {
    /// A scheduled, running, ready and available pod with no cost or rank (tests build the
    /// cases they need from it).
    #[cfg(test)]
    pub fn sample(name: &str) -> Self {
        PodFacts {
            name: name.into(),
            labels: BTreeMap::new(),
            scheduled: true,
            phase_rank: 2,
            ready: true,
            available: true,
            ready_since: Some("2026-12-01T00:00:00Z".parse().expect("time")),
            restarts: 0,
            deletion_cost: 0,
            created: Some("2026-11-01T00:00:00Z".parse().expect("time")),
            rank: 0,
        }
    }

    pub fn from_resource(pod: &Pod, min_ready_seconds: i64, now: Timestamp) -> Self {
        let status = pod.status.as_ref();
        let conditions = status.and_then(|s| s.conditions.as_ref());
        let ready = conditions.is_some_and(|cs| cs.iter().any(|c| c.type_ == "Ready" && c.status == "True"));
        let phase_rank = match status.and_then(|s| s.phase.as_deref()) {
            Some("Unknown") => 1,
            Some("Running") => 2,
            _ => 0,
        };
        let restarts = status
            .and_then(|s| s.container_statuses.as_ref())
            .and_then(|cs| cs.iter().map(|c| c.restart_count).max())
            .unwrap_or(0);
        let deletion_cost = pod
            .metadata
            .annotations
            .as_ref()
            .and_then(|a| a.get(DELETION_COST_ANNOTATION))
            .map_or(0, |v| deletion_cost(v));
        PodFacts {
            name: pod.metadata.name.clone().unwrap_or_default(),
            labels: pod.metadata.labels.clone().unwrap_or_default(),
            scheduled: pod
                .spec
                .as_ref()
                .and_then(|s| s.node_name.as_deref())
                .is_some_and(|n| !n.is_empty()),
            phase_rank,
            ready,
            available: status::is_available(pod, min_ready_seconds, now),
            ready_since: status::ready_since(pod),
            restarts,
            deletion_cost,
            created: pod.metadata.creation_timestamp.as_ref().map(|t| t.0),
            rank: 0,
        }
    }
}

/// `controller.kubernetes.io/pod-deletion-cost` as Kubernetes reads it: a plain 32-bit
/// integer (no sign `+`, no leading zeros), anything else counts as 0.
fn deletion_cost(value: &str) -> i64 {
    let digits = value.strip_prefix('-').unwrap_or(value);
    let plain = !digits.is_empty()
        && digits.bytes().all(|b| b.is_ascii_digit())
        && (digits == "0" || !digits.starts_with('0'));
    if !plain {
        return 0;
    }
    value.parse::<i32>().map_or(0, i64::from)
}

/// Sorts `pods` most deletable first. A missing ready or creation time counts as the most
/// recent (so that pod goes first), and ready times are compared only between ready pods,
/// as upstream does.
pub fn sort_for_deletion(pods: &mut [PodFacts]) {
    pods.sort_by_key(|p| {
        let ready_since = if p.ready {
            p.ready_since.unwrap_or(Timestamp::MAX)
        } else {
            Timestamp::MAX
        };
        (
            p.scheduled,
            p.phase_rank,
            p.available,
            p.ready,
            p.deletion_cost,
            Reverse(p.rank),
            Reverse(ready_since),
            Reverse(p.restarts),
            Reverse(p.created.unwrap_or(Timestamp::MAX)),
        )
    });
}

/// Sorts `pods` in the order they are updated.
pub fn sort_for_update(pods: &mut [PodFacts], priority: Option<&UpdatePriorityStrategy>) {
    pods.sort_by_key(|p| {
        (
            p.scheduled,
            p.phase_rank,
            p.ready,
            Reverse(p.ready_since),
            Reverse(p.restarts),
            Reverse(p.created),
        )
    });
    let Some(priority) = priority else { return };
    if let Some(terms) = priority.weight_priority.as_ref().filter(|t| !t.is_empty()) {
        let selectors: Vec<(i64, Option<Selector>)> = terms
            .iter()
            .map(|t| {
                (
                    i64::from(t.weight),
                    Selector::try_from(t.match_selector.clone()).ok(),
                )
            })
            .collect();
        let weight = |p: &PodFacts| -> i64 {
            selectors
                .iter()
                .filter(|(_, s)| s.as_ref().is_some_and(|s| s.matches(&p.labels)))
                .map(|(w, _)| w)
                .sum()
        };
        pods.sort_by_key(|p| Reverse(weight(p)));
    } else if let Some(terms) = priority.order_priority.as_ref().filter(|t| !t.is_empty()) {
        let level = |p: &PodFacts| -> (i64, Reverse<i64>) {
            for (i, term) in terms.iter().enumerate() {
                if let Some(value) = p.labels.get(&term.ordered_key) {
                    return (i as i64, Reverse(integer_suffix(value)));
                }
            }
            (-1, Reverse(0))
        };
        pods.sort_by_key(level);
    }
}

/// The trailing digits of a label value as a number (`v12` -> 12; none -> 0).
fn integer_suffix(value: &str) -> i64 {
    let digits: String = value.chars().rev().take_while(|c| c.is_ascii_digit()).collect();
    digits.chars().rev().collect::<String>().parse().unwrap_or(0)
}

#[cfg(test)]
#[path = "order_tests.rs"]
mod tests;
