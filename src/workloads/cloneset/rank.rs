//! The "rank" term of the CloneSet scale-down order (upstream's `Ranker`s): between the
//! deletion cost and the Ready time, a pod with a higher rank is deleted first. Ranks
//! spread deletions over the topology. Pure: works on [`PodFacts`], the pods' node names
//! and the labels of those nodes.
//!
//! - Without topology spread constraints on the template, pods that share a node with
//!   other pods of the set are ranked: on a node with `k` pods, sorted most deletable
//!   first, they get `k-1, k-2, ..., 1, 0`, so the pod best worth keeping gets 0, as
//!   does every pod alone on its node or not bound to one.
//! - With constraints, each constraint's `topologyKey` splits the bound pods into groups
//!   by their node's value of that label; in a group of `g` pods, sorted most deletable
//!   first, they get `g, g-1, ..., 1`, times `ln(G + 2)` where `G` is the number of
//!   groups; a pod's rank is the sum over the constraints. A pod whose node is unknown,
//!   or lacks the key, gets nothing from that constraint.
//!
//! "Most deletable first" within a group is the deletion order without the availability
//! criterion (upstream sorts groups without it): unbound; Pending < Unknown < Running;
//! not Ready; lower deletion cost; then, only when grouping by a key other than
//! `kubernetes.io/hostname`, the higher same-node rank; Ready more recently (both Ready;
//! a missing time first); more restarts; created more recently (a missing time first).
//! Exact ties keep the order the group was gathered in (a constraint's group lists its
//! nodes by their first pod, each node's pods in input order), which is how upstream's
//! sort behaves on groups of up to 12 pods (larger groups it orders arbitrarily).
//!
//! Invariants: one rank per input pod, in input order; every rank is finite and `>= 0`;
//! within one node (no constraints) or one group of one constraint, the values handed out
//! are distinct and ordered as the group's deletion order.
//!
//! Worked example, constraint on `zone`, nodes `n1` (zone `x`) with pods `a` (Pending)
//! and `b` (Running), `n2` (zone `y`) with pod `c`. Groups: `x = [a, b]`, `y = [c]`, so
//! `G = 2` and the weight is `ln 4`. Ranks: `a = 2 ln 4`, `b = ln 4`, `c = ln 4`. Without
//! the constraint: `a = 1`, `b = 0`, `c = 0`.
//!
//! The pods passed in are those being chosen among: upstream ranks the not-yet-updated
//! and the updated pods separately when it picks which to delete.
use std::cmp::{Ordering, Reverse};
use std::collections::BTreeMap;

use k8s_openapi::api::core::v1::TopologySpreadConstraint;

use super::order::PodFacts;

/// The topology key naming a single node; grouping by it skips the same-node rank.
pub const HOSTNAME_TOPOLOGY_KEY: &str = "kubernetes.io/hostname";

/// A pod as its rank needs it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RankInput<'a> {
    pub facts: &'a PodFacts,
    /// `spec.nodeName`; `None` or empty when the pod is not bound to a node.
    pub node_name: Option<&'a str>,
}

impl RankInput<'_> {
    fn node(&self) -> Option<&str> {
        self.node_name.filter(|name| !name.is_empty())
    }
}

/// The rank of each of `pods`, in input order (see the module doc). `node_labels` gives
/// a node's labels by name, `None` for a node that cannot be found; it is only asked
/// when `constraints` is not empty. Only the constraints' `topologyKey` is used.
pub fn ranks<'n>(
    pods: &[RankInput<'_>],
    constraints: &[TopologySpreadConstraint],
    node_labels: impl Fn(&str) -> Option<&'n BTreeMap<String, String>>,
) -> Vec<f64> {
    let same_node = same_node_ranks(pods);
    if constraints.is_empty() {
        return same_node;
    }

    // The known nodes hosting the pods, in order of their first pod, with their pods.
    let mut hosts: Vec<(&str, &BTreeMap<String, String>, Vec<usize>)> = Vec::new();
    for (index, pod) in pods.iter().enumerate() {
        let Some(node) = pod.node() else { continue };
        if let Some(host) = hosts.iter_mut().find(|(name, _, _)| *name == node) {
            host.2.push(index);
        } else if let Some(labels) = node_labels(node) {
            hosts.push((node, labels, vec![index]));
        }
    }

    let mut ranks = vec![0.0; pods.len()];
    for constraint in constraints {
        let key = constraint.topology_key.as_str();
        let mut groups: Vec<(&str, Vec<usize>)> = Vec::new();
        for (_, labels, hosted) in &hosts {
            let Some(value) = labels.get(key) else { continue };
            match groups.iter_mut().find(|(seen, _)| *seen == value.as_str()) {
                Some((_, members)) => members.extend_from_slice(hosted),
                None => groups.push((value.as_str(), hosted.clone())),
            }
        }
        let weight = ((groups.len() + 2) as f64).ln();
        let inner_ranks = (key != HOSTNAME_TOPOLOGY_KEY).then_some(same_node.as_slice());
        for (_, mut members) in groups {
            members.sort_by(|&a, &b| more_deletable_first(pods, inner_ranks, a, b));
            let size = members.len();
            for (position, &index) in members.iter().enumerate() {
                ranks[index] += (size - position) as f64 * weight;
            }
        }
    }
    ranks
}

/// `k-1, ..., 1, 0` over the `k` pods of each node, most deletable first.
fn same_node_ranks(pods: &[RankInput<'_>]) -> Vec<f64> {
    let mut by_node: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
    for (index, pod) in pods.iter().enumerate() {
        if let Some(node) = pod.node() {
            by_node.entry(node).or_default().push(index);
        }
    }
    let mut ranks = vec![0.0; pods.len()];
    for mut members in by_node.into_values() {
        members.sort_by(|&a, &b| more_deletable_first(pods, None, a, b));
        let highest = members.len().saturating_sub(1);
        for (position, &index) in members.iter().enumerate() {
            ranks[index] = highest.saturating_sub(position) as f64;
        }
    }
    ranks
}

/// Orders two pods of a group, the more deletable first; `inner_ranks` (higher first)
/// sits between the deletion cost and the Ready time when given.
fn more_deletable_first(pods: &[RankInput<'_>], inner_ranks: Option<&[f64]>, a: usize, b: usize) -> Ordering {
    let (pa, pb) = (pods[a].facts, pods[b].facts);
    let (bound_a, bound_b) = (pods[a].node().is_some(), pods[b].node().is_some());
    let inner = |index: usize| inner_ranks.and_then(|r| r.get(index)).copied().unwrap_or(0.0);
    // A missing time counts as the most recent one.
    let recent_first = |t: Option<_>| (t.is_some(), Reverse(t));
    bound_a
        .cmp(&bound_b)
        .then(pa.phase_rank.cmp(&pb.phase_rank))
        .then(pa.ready.cmp(&pb.ready))
        .then(pa.deletion_cost.cmp(&pb.deletion_cost))
        .then_with(|| inner(b).total_cmp(&inner(a)))
        .then_with(|| match pa.ready && pb.ready {
            true => recent_first(pa.ready_since).cmp(&recent_first(pb.ready_since)),
            false => Ordering::Equal,
        })
        .then(pb.restarts.cmp(&pa.restarts))
        .then_with(|| recent_first(pa.created).cmp(&recent_first(pb.created)))
}

#[cfg(test)]
#[path = "rank_tests.rs"]
mod tests;
