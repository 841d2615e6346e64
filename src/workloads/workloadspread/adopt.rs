//! Adoption (as OpenKruise's controller groups the pods of a WorkloadSpread): the subset an already scheduled pod belongs to when
//! no webhook placed it for this WorkloadSpread (no annotation, another WorkloadSpread's,
//! or one without a subset), and the write that records it. Pure: the caller reads the
//! nodes, counts the pods already annotated per subset, sends the patches.
//!
//! Invariants:
//! - Only a pod with `spec.nodeName` whose node is known is adopted; one of no qualifying
//!   subset is not (the caller counts it in no subset). A pod annotated for this
//!   WorkloadSpread (with a subset) is never re-adopted.
//! - A subset qualifies when the node's taints, all effects, are each tolerated by the
//!   pod's tolerations plus the subset's, and, when the subset has a required term, the
//!   node matches one of the pod's required node-affinity terms with the subset term ANDed
//!   into each (the subset term alone when the pod has none). `nodeSelector` is not looked
//!   at.
//! - Its score: matching preferred weights × 100, + 10 when the subset `patch` changes
//!   nothing of the pod but its annotations, + 1 while the subset has quota left. The
//!   highest score wins, the earlier subset on a tie; quota only breaks ties, so a pod goes
//!   to the only subset its node qualifies for even over that subset's capacity (as
//!   upstream). Except a pod the webhook judged for this WorkloadSpread and placed in no
//!   subset because they were full ([`UNPLACED_ANNOTATION`]): it is adopted only into a
//!   subset with room, so a full subset never grows by the pods it turned away.
//! - Quota: the capacity (unlimited counts as `i32::MAX`) minus the pods already annotated
//!   for the subset, minus one per pod adopted into it, in the candidates' order. Upstream
//!   keeps it per pod version: call once per version with that version's pods.
//! - The write is a strategic-merge patch of `metadata`: the subset patch's whole
//!   `metadata` object (unless the WorkloadSpread's [`IGNORE_PATCH_EXISTING_PODS_METADATA`]
//!   is `true`, any case) with the matched annotation set in its `annotations`; the
//!   annotation value is the one injection writes.
use std::collections::BTreeMap;

use k8s_openapi::api::core::v1::{Node, NodeSelectorTerm, Pod, PreferredSchedulingTerm, Toleration};
use kube::ResourceExt;
use serde_json::{Map, Value, json};

use super::deleting::matched;
use super::place::{UNPLACED_ANNOTATION, capacity};
use crate::api::workloadspread::{MATCHED_WORKLOADSPREAD_ANNOTATION, WorkloadSpread, WorkloadSpreadSubset};
use crate::runtime::strategic_merge;
use crate::workloads::common::node_fit::{term_matches, tolerates};

/// WorkloadSpread annotation: `true` keeps the subset patch's metadata off adopted pods.
pub const IGNORE_PATCH_EXISTING_PODS_METADATA: &str =
    "workloadspread.kruise.io/ignore-patch-existing-pods-metadata";

/// The quota of a subset without `maxReplicas`.
const UNLIMITED: i64 = i32::MAX as i64;

/// A pod adopted into a subset, and the patch that records it.
#[derive(Debug, Clone, PartialEq)]
pub struct Adoption {
    pub pod: String,
    pub subset: String,
    /// Strategic-merge patch for the pod.
    pub patch: Value,
}

/// The subset's required term (`v1alpha1` name first, as injection reads it).
fn required_term(subset: &WorkloadSpreadSubset) -> Option<&NodeSelectorTerm> {
    subset
        .required_node_selector_term
        .as_ref()
        .or(subset.required_node_selector.as_ref())
}

/// The subset's preferred terms (`v1alpha1` name first, as injection reads it).
fn preferred_terms(subset: &WorkloadSpreadSubset) -> &[PreferredSchedulingTerm] {
    subset
        .preferred_node_selector_terms
        .as_deref()
        .or(subset.preferred_node_selector.as_deref())
        .unwrap_or_default()
}

fn node_labels(node: &Node) -> BTreeMap<String, String> {
    node.metadata.labels.clone().unwrap_or_default()
}

fn node_name(node: &Node) -> &str {
    node.metadata.name.as_deref().unwrap_or("")
}

/// Every taint of `node`, whatever its effect, tolerated by the pod's or the subset's
/// tolerations.
fn taints_tolerated(pod: &Pod, node: &Node, subset: &WorkloadSpreadSubset) -> bool {
    let own = pod
        .spec
        .as_ref()
        .and_then(|s| s.tolerations.as_deref())
        .unwrap_or_default();
    let extra = subset.tolerations.as_deref().unwrap_or_default();
    let all: Vec<&Toleration> = own.iter().chain(extra).collect();
    node.spec
        .as_ref()
        .and_then(|s| s.taints.as_deref())
        .unwrap_or_default()
        .iter()
        .all(|taint| all.iter().any(|t| tolerates(t, taint)))
}

/// `term` with the subset term's expressions and fields appended.
fn and_term(term: &NodeSelectorTerm, subset_term: &NodeSelectorTerm) -> NodeSelectorTerm {
    let join = |a: &Option<Vec<_>>, b: &Option<Vec<_>>| {
        let mut list = a.clone().unwrap_or_default();
        list.extend(b.iter().flatten().cloned());
        (!list.is_empty()).then_some(list)
    };
    NodeSelectorTerm {
        match_expressions: join(&term.match_expressions, &subset_term.match_expressions),
        match_fields: join(&term.match_fields, &subset_term.match_fields),
    }
}

/// The node satisfies the pod's required terms ANDed with the subset's (no subset term:
/// nothing to check).
fn required_holds(pod: &Pod, node: &Node, subset: &WorkloadSpreadSubset) -> bool {
    let Some(subset_term) = required_term(subset) else {
        return true;
    };
    let pod_terms = pod
        .spec
        .as_ref()
        .and_then(|s| s.affinity.as_ref())
        .and_then(|a| a.node_affinity.as_ref())
        .and_then(|a| a.required_during_scheduling_ignored_during_execution.as_ref())
        .map(|r| r.node_selector_terms.as_slice())
        .unwrap_or_default();
    let terms: Vec<NodeSelectorTerm> = if pod_terms.is_empty() {
        vec![subset_term.clone()]
    } else {
        pod_terms.iter().map(|t| and_term(t, subset_term)).collect()
    };
    let labels = node_labels(node);
    terms.iter().any(|t| term_matches(t, &labels, node_name(node)))
}

/// Can `pod`, running on `node`, belong to `subset`?
pub fn qualifies(pod: &Pod, node: &Node, subset: &WorkloadSpreadSubset) -> bool {
    taints_tolerated(pod, node, subset) && required_holds(pod, node, subset)
}

/// The sum of the weights of the subset's preferred terms `node` matches.
fn preferred_weight(node: &Node, subset: &WorkloadSpreadSubset) -> i64 {
    let labels = node_labels(node);
    preferred_terms(subset)
        .iter()
        .filter(|t| term_matches(&t.preference, &labels, node_name(node)))
        .map(|t| i64::from(t.weight))
        .sum()
}

/// The subset's `patch` (not null), if any.
fn subset_patch(subset: &WorkloadSpreadSubset) -> Option<&Value> {
    subset.patch.as_ref().filter(|p| !p.is_null())
}

/// The subset has a patch, and it changes nothing of `pod` but (maybe) its annotations.
/// A patch that does not give a pod back counts as a change. A cached pod holds only the
/// fields controllers read (`runtime::cached_pod`): a patch that sets a field outside
/// them counts as a change too.
fn patch_is_no_op(pod: &Pod, subset: &WorkloadSpreadSubset) -> bool {
    let Some(patch) = subset_patch(subset) else {
        return false;
    };
    let Ok(before) = serde_json::to_value(pod) else {
        return false;
    };
    let Ok(mut after) = serde_json::from_value::<Pod>(strategic_merge::apply(&before, patch)) else {
        return false;
    };
    after.metadata.annotations = pod.metadata.annotations.clone();
    &after == pod
}

/// The score of `subset` for `pod` on `node` (None: it does not qualify); `has_quota`:
/// the subset has room left.
pub fn score(pod: &Pod, node: &Node, subset: &WorkloadSpreadSubset, has_quota: bool) -> Option<i64> {
    if !qualifies(pod, node, subset) {
        return None;
    }
    let patch = if patch_is_no_op(pod, subset) { 10 } else { 0 };
    Some(preferred_weight(node, subset) * 100 + patch + i64::from(has_quota))
}

/// Each subset's quota (in spec order) against the workload's `total`, less the pods
/// `already` annotated for it.
pub fn quotas(ws: &WorkloadSpread, already: &BTreeMap<String, i32>, total: i64) -> Vec<i64> {
    ws.spec
        .subsets
        .iter()
        .map(|s| {
            let cap = match capacity(s, total) {
                -1 => UNLIMITED,
                n => i64::from(n),
            };
            cap - i64::from(already.get(&s.name).copied().unwrap_or(0))
        })
        .collect()
}

/// The index of the subset `pod` on `node` goes to, given each subset's `quota` (spec
/// order, as [`quotas`]); None when none qualifies. `only_with_room`: a subset without
/// quota left does not qualify.
pub fn best_subset(
    ws: &WorkloadSpread,
    pod: &Pod,
    node: &Node,
    quota: &[i64],
    only_with_room: bool,
) -> Option<usize> {
    let mut best: Option<(usize, i64)> = None;
    for (i, subset) in ws.spec.subsets.iter().enumerate() {
        let room = quota.get(i).is_some_and(|q| *q > 0);
        if only_with_room && !room {
            continue;
        }
        let Some(s) = score(pod, node, subset, room) else {
            continue;
        };
        if best.is_none_or(|(_, top)| s > top) {
            best = Some((i, s));
        }
    }
    best.map(|(i, _)| i)
}

/// The annotation value naming `ws` and `subset`, as injection writes it.
pub fn marker(ws: &WorkloadSpread, subset: &str) -> String {
    json!({ "name": ws.name_any(), "subset": subset }).to_string()
}

/// The subset patch's `metadata` object, unless the WorkloadSpread opts out.
fn patch_metadata(ws: &WorkloadSpread, subset: &WorkloadSpreadSubset) -> Map<String, Value> {
    let ignore = ws
        .annotations()
        .get(IGNORE_PATCH_EXISTING_PODS_METADATA)
        .is_some_and(|v| v.eq_ignore_ascii_case("true"));
    if ignore {
        return Map::new();
    }
    subset_patch(subset)
        .and_then(|p| p.get("metadata"))
        .and_then(Value::as_object)
        .cloned()
        .unwrap_or_default()
}

/// The patch that records a pod's adoption into `subset`.
pub fn metadata_patch(ws: &WorkloadSpread, subset: &WorkloadSpreadSubset) -> Value {
    let mut metadata = patch_metadata(ws, subset);
    let value = json!(marker(ws, &subset.name));
    match metadata.get_mut("annotations").and_then(Value::as_object_mut) {
        Some(annotations) => {
            annotations.insert(MATCHED_WORKLOADSPREAD_ANNOTATION.into(), value);
        }
        None => {
            metadata.insert(
                "annotations".into(),
                json!({ MATCHED_WORKLOADSPREAD_ANNOTATION: value }),
            );
        }
    }
    json!({ "metadata": metadata })
}

/// The pod is annotated for this WorkloadSpread with a subset (never adopted again).
fn placed_here(ws: &WorkloadSpread, pod: &Pod) -> bool {
    matched(pod).is_some_and(|(name, subset)| name == ws.name_any() && !subset.is_empty())
}

/// The adoptions among `candidates` (in their order): `already` holds the pods already
/// annotated per subset, `node` looks a node up by name, `total` is the workload's replica
/// total (for a percent `maxReplicas`).
pub fn adopt<'a>(
    ws: &WorkloadSpread,
    already: &BTreeMap<String, i32>,
    candidates: &[&Pod],
    node: impl Fn(&str) -> Option<&'a Node>,
    total: i64,
) -> Vec<Adoption> {
    let mut quota = quotas(ws, already, total);
    let mut out = Vec::new();
    let name = ws.name_any();
    for pod in candidates.iter().copied().filter(|p| !placed_here(ws, p)) {
        let Some(node_name) = pod
            .spec
            .as_ref()
            .and_then(|s| s.node_name.as_deref())
            .filter(|n| !n.is_empty())
        else {
            continue;
        };
        let Some(found) = node(node_name) else {
            continue;
        };
        let turned_away = pod.annotations().get(UNPLACED_ANNOTATION) == Some(&name);
        let Some(i) = best_subset(ws, pod, found, &quota, turned_away) else {
            continue;
        };
        let Some(subset) = ws.spec.subsets.get(i) else {
            continue;
        };
        if let Some(q) = quota.get_mut(i) {
            *q -= 1;
        }
        out.push(Adoption {
            pod: pod.name_any(),
            subset: subset.name.clone(),
            patch: metadata_patch(ws, subset),
        });
    }
    out
}

#[cfg(test)]
#[path = "adopt_tests.rs"]
mod tests;
