//! Whether a pod spec fits a node (upstream's `nodeShouldRunDaemonPod` predicates, shared
//! by every kind that places pods on nodes itself: Advanced DaemonSet, BroadcastJob, and
//! WorkloadSpread's subset matching), and how a pod is tied to its node. Pure.
//!
//! Invariants:
//! - [`fit`]: `should_run` needs a matching `nodeName`, required node affinity (with
//!   `nodeSelector`) and every NoSchedule/NoExecute taint tolerated; `should_continue` only
//!   fails on the first two or on an untolerated NoExecute taint. Readiness,
//!   `unschedulable` and resources are not looked at (the node-lifecycle taints carry
//!   them), and PreferNoSchedule taints are ignored.
//! - A created pod is pinned by replacing its required node-affinity terms with one
//!   `matchFields metadata.name In [node]` term ([`pin_to_node`]), so the scheduler binds
//!   it; [`node_of`] reads the node back from `spec.nodeName` or that term.
use std::collections::BTreeMap;

use k8s_openapi::api::core::v1::{
    Affinity, Node, NodeAffinity, NodeSelector, NodeSelectorRequirement, NodeSelectorTerm, Pod, PodSpec,
    Taint, Toleration,
};

/// Whether the node should get a pod, and whether a pod already there may stay.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Fit {
    pub should_run: bool,
    pub should_continue: bool,
}

pub(crate) const NOT_FIT: Fit = Fit {
    should_run: false,
    should_continue: false,
};

/// Does `toleration` tolerate `taint`?
pub fn tolerates(toleration: &Toleration, taint: &Taint) -> bool {
    let effect_ok = toleration
        .effect
        .as_deref()
        .is_none_or(|e| e.is_empty() || e == taint.effect);
    let key = toleration.key.as_deref().unwrap_or("");
    let exists = toleration.operator.as_deref() == Some("Exists");
    let key_ok = (key.is_empty() && exists) || key == taint.key;
    let value_ok =
        exists || toleration.value.as_deref().unwrap_or("") == taint.value.as_deref().unwrap_or("");
    effect_ok && key_ok && value_ok
}

/// Does `requirement` hold for `value` (absent: the key is missing)?
fn requirement_holds(requirement: &NodeSelectorRequirement, value: Option<&str>) -> bool {
    let values = requirement.values.as_deref().unwrap_or_default();
    let as_int = |v: &str| v.parse::<i64>().ok();
    match requirement.operator.as_str() {
        "In" => value.is_some_and(|v| values.iter().any(|x| x == v)),
        "NotIn" => value.is_none_or(|v| !values.iter().any(|x| x == v)),
        "Exists" => value.is_some(),
        "DoesNotExist" => value.is_none(),
        "Gt" | "Lt" => {
            let (Some(have), [limit]) = (value.and_then(as_int), values) else {
                return false;
            };
            let Some(limit) = as_int(limit) else { return false };
            if requirement.operator == "Gt" {
                have > limit
            } else {
                have < limit
            }
        }
        _ => false,
    }
}

/// A node-selector term matches when all its expressions and fields hold; an empty term
/// matches nothing (as the scheduler decides).
pub fn term_matches(term: &NodeSelectorTerm, labels: &BTreeMap<String, String>, name: &str) -> bool {
    let expressions = term.match_expressions.as_deref().unwrap_or_default();
    let fields = term.match_fields.as_deref().unwrap_or_default();
    if expressions.is_empty() && fields.is_empty() {
        return false;
    }
    expressions
        .iter()
        .all(|r| requirement_holds(r, labels.get(&r.key).map(String::as_str)))
        && fields.iter().all(|r| {
            let value = (r.key == "metadata.name").then_some(name);
            requirement_holds(r, value)
        })
}

/// `nodeSelector` and the required node-affinity terms (any one term) match the node.
fn affinity_matches(spec: &PodSpec, node: &Node) -> bool {
    let empty = BTreeMap::new();
    let labels = node.metadata.labels.as_ref().unwrap_or(&empty);
    let name = node.metadata.name.as_deref().unwrap_or("");
    let selector_ok = spec
        .node_selector
        .iter()
        .flatten()
        .all(|(k, v)| labels.get(k) == Some(v));
    let required = spec
        .affinity
        .as_ref()
        .and_then(|a| a.node_affinity.as_ref())
        .and_then(|a| a.required_during_scheduling_ignored_during_execution.as_ref());
    let affinity_ok = required.is_none_or(|r| {
        r.node_selector_terms
            .iter()
            .any(|t| term_matches(t, labels, name))
    });
    selector_ok && affinity_ok
}

/// How `node` fits a pod with `spec` (the template's, with the daemon tolerations).
pub fn fit(spec: &PodSpec, node: &Node) -> Fit {
    let name = node.metadata.name.as_deref().unwrap_or("");
    if spec
        .node_name
        .as_deref()
        .is_some_and(|n| !n.is_empty() && n != name)
    {
        return NOT_FIT;
    }
    if !affinity_matches(spec, node) {
        return NOT_FIT;
    }
    let tolerations = spec.tolerations.as_deref().unwrap_or_default();
    let untolerated: Vec<&Taint> = node
        .spec
        .as_ref()
        .and_then(|s| s.taints.as_deref())
        .unwrap_or_default()
        .iter()
        .filter(|t| t.effect == "NoSchedule" || t.effect == "NoExecute")
        .filter(|t| !tolerations.iter().any(|tol| tolerates(tol, t)))
        .collect();
    Fit {
        should_run: untolerated.is_empty(),
        should_continue: !untolerated.iter().any(|t| t.effect == "NoExecute"),
    }
}

/// Why a pod with `spec` may not start on `node` (None: it may), for messages.
pub fn why_not(spec: &PodSpec, node: &Node) -> Option<String> {
    let name = node.metadata.name.as_deref().unwrap_or("");
    if spec
        .node_name
        .as_deref()
        .is_some_and(|n| !n.is_empty() && n != name)
    {
        return Some("spec.nodeName names another node".into());
    }
    if !affinity_matches(spec, node) {
        return Some("nodeSelector or required node affinity does not match".into());
    }
    let tolerations = spec.tolerations.as_deref().unwrap_or_default();
    node.spec
        .as_ref()
        .and_then(|s| s.taints.as_deref())
        .unwrap_or_default()
        .iter()
        .filter(|t| t.effect == "NoSchedule" || t.effect == "NoExecute")
        .find(|t| !tolerations.iter().any(|tol| tolerates(tol, t)))
        .map(|t| {
            format!(
                "taint {}={}:{} not tolerated",
                t.key,
                t.value.as_deref().unwrap_or(""),
                t.effect
            )
        })
}

/// The node a pod belongs to: `spec.nodeName`, else the single-value
/// `matchFields metadata.name In [node]` term a pinned pod carries.
pub fn node_of(pod: &Pod) -> Option<&str> {
    let spec = pod.spec.as_ref()?;
    if let Some(name) = spec.node_name.as_deref().filter(|n| !n.is_empty()) {
        return Some(name);
    }
    let terms = &spec
        .affinity
        .as_ref()?
        .node_affinity
        .as_ref()?
        .required_during_scheduling_ignored_during_execution
        .as_ref()?
        .node_selector_terms;
    let [term] = terms.as_slice() else { return None };
    let [field] = term.match_fields.as_deref()? else {
        return None;
    };
    match (
        field.key.as_str(),
        field.operator.as_str(),
        field.values.as_deref(),
    ) {
        ("metadata.name", "In", Some([node])) => Some(node.as_str()),
        _ => None,
    }
}

/// Pins `spec` to `node`: the required node-affinity terms become one
/// `matchFields metadata.name In [node]` term (preferred terms are kept).
pub fn pin_to_node(spec: &mut PodSpec, node: &str) {
    let affinity = spec.affinity.get_or_insert_with(Affinity::default);
    let node_affinity = affinity.node_affinity.get_or_insert_with(NodeAffinity::default);
    node_affinity.required_during_scheduling_ignored_during_execution = Some(NodeSelector {
        node_selector_terms: vec![NodeSelectorTerm {
            match_fields: Some(vec![NodeSelectorRequirement {
                key: "metadata.name".into(),
                operator: "In".into(),
                values: Some(vec![node.into()]),
            }]),
            match_expressions: None,
        }],
    });
}

#[cfg(test)]
#[path = "node_fit_tests.rs"]
mod tests;
