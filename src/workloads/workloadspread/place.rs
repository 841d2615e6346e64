//! A new pod's subset (OpenKruise's pod webhook on create): which subset of a WorkloadSpread a pod goes to, the
//! status change that records it (so concurrent creates do not overfill a subset), and the
//! pod as injected. Pure: the caller reads the WorkloadSpread (and the workload's replica
//! total when a subset's `maxReplicas` is a percent), writes the status under its
//! resourceVersion and retries from a fresh read on a conflict.
//!
//! Invariants:
//! - A StatefulSet target places by ordinal (subsets in order, each holding `maxReplicas`
//!   ordinals, unschedulable subsets skipped) and writes no status.
//! - One subset without `maxReplicas` takes every pod, no status write.
//! - Otherwise the pod's version list (`versionedSubsetStatuses`, initialised from the spec)
//!   decides: a pod already recorded (creating or deleting) keeps its subset, unchanged
//!   status; else the first schedulable subset with room (`missingReplicas` > 0, or -1 for
//!   unlimited) is taken, and for a limited one the pod is recorded in `creatingPods` and
//!   `missingReplicas` decremented. No subset with room: the pod is admitted unplaced.
//! - Injection: tolerations appended, preferred terms appended, the required term set or
//!   ANDed into every existing term, the subset `patch` strategic-merged onto the pod (a
//!   changed `priorityClassName` clears `priority`), then the annotation naming the
//!   WorkloadSpread and subset (and the generated uid of a pod without a name yet).
use k8s_openapi::api::core::v1::Pod;
use k8s_openapi::apimachinery::pkg::apis::meta::v1::Time;
use k8s_openapi::jiff::Timestamp;
use kube::ResourceExt;
use serde_json::{Value, json};

use crate::api::workloadspread::{
    MATCHED_WORKLOADSPREAD_ANNOTATION, WorkloadSpread, WorkloadSpreadSubset, WorkloadSpreadSubsetStatus,
};
use crate::runtime::strategic_merge;
use crate::workloads::common::int_or_percent::{self, Amount};

/// The version of pods whose workload keeps no versions apart (all but Deployment and
/// ReplicaSet targets).
pub use crate::workloads::common::targets::VERSION_IGNORED;

/// The kinds whose pods are counted per version (a rollout's old and new pods apart).
fn versioned_kind(kind: &str) -> bool {
    matches!(kind, "Deployment" | "ReplicaSet")
}

/// The version `pod` counts under: its `pod-template-hash`, else the hash part of its
/// `controller-revision-hash`, when its controller is a Deployment or ReplicaSet.
pub fn pod_version(pod: &Pod) -> String {
    let owner_kind = pod
        .owner_references()
        .iter()
        .find(|o| o.controller == Some(true))
        .map(|o| o.kind.as_str())
        .unwrap_or_default();
    if !versioned_kind(owner_kind) {
        return VERSION_IGNORED.into();
    }
    let labels = pod.labels();
    if let Some(hash) = labels.get("pod-template-hash") {
        return hash.clone();
    }
    labels
        .get("controller-revision-hash")
        .map(|h| h.rsplit('-').next().unwrap_or(h).to_string())
        .unwrap_or_else(|| VERSION_IGNORED.into())
}

/// A subset's capacity against `total`: -1 without `maxReplicas`, a percent rounded up.
pub fn capacity(subset: &WorkloadSpreadSubset, total: i64) -> i32 {
    match subset
        .max_replicas
        .as_ref()
        .map(|m| int_or_percent::parse("maxReplicas", m))
    {
        None => -1,
        Some(Ok(Amount::Int(n))) => i32::try_from(n).unwrap_or(i32::MAX),
        Some(Ok(Amount::Percent(p))) => {
            let share = int_or_percent::percent_of(total, p, int_or_percent::Rounding::Up);
            i32::try_from(share).unwrap_or(i32::MAX)
        }
        // Refused by validation; a set stored anyway holds nothing.
        Some(Err(_)) => 0,
    }
}

/// The subset statuses of a version no pod has been placed under yet.
pub fn initial_statuses(ws: &WorkloadSpread, total: i64) -> Vec<WorkloadSpreadSubsetStatus> {
    ws.spec
        .subsets
        .iter()
        .map(|s| WorkloadSpreadSubsetStatus {
            name: s.name.clone(),
            missing_replicas: capacity(s, total),
            ..WorkloadSpreadSubsetStatus::default()
        })
        .collect()
}

fn unschedulable(conditions: Option<&Vec<crate::api::common::Condition>>) -> bool {
    conditions
        .into_iter()
        .flatten()
        .any(|c| c.type_ == "Schedulable" && c.status == "False")
}

/// The subset's `Schedulable=False` in the overall status.
fn subset_unschedulable(ws: &WorkloadSpread, name: &str) -> bool {
    ws.status
        .as_ref()
        .and_then(|s| s.subset_statuses.as_ref())
        .into_iter()
        .flatten()
        .find(|s| s.name == name)
        .is_some_and(|s| unschedulable(s.conditions.as_ref()))
}

/// The ordinal at the end of a StatefulSet pod's name (`web-3` -> 3).
fn ordinal(pod: &Pod) -> Option<i64> {
    pod.metadata.name.as_deref()?.rsplit_once('-')?.1.parse().ok()
}

/// Where a new pod goes.
#[derive(Debug, Clone, PartialEq)]
pub struct Placement {
    /// The subset, or None: admitted unplaced (no subset has room).
    pub subset: Option<String>,
    /// The status to write first (the pod recorded in `creatingPods`), if any.
    pub status: Option<crate::api::workloadspread::WorkloadSpreadStatus>,
    /// The key a pod without a name yet is recorded under (it goes into the annotation).
    pub generated_uid: Option<String>,
}

/// Places `pod` (being created) in `ws`; `total` is the workload's replica total (used only
/// when a subset is a percent), `uid` a fresh uid for a pod without a name.
pub fn place(
    ws: &WorkloadSpread,
    pod: &Pod,
    total: i64,
    now: Timestamp,
    uid: impl FnOnce() -> String,
) -> Placement {
    let unplaced = |subset: Option<String>| Placement {
        subset,
        status: None,
        generated_uid: None,
    };
    let subsets = &ws.spec.subsets;
    if ws.spec.target_ref.kind == "StatefulSet" {
        let Some(ordinal) = ordinal(pod) else {
            return unplaced(None);
        };
        let mut threshold: i64 = 0;
        for subset in subsets.iter().filter(|s| !subset_unschedulable(ws, &s.name)) {
            let limit = match capacity(subset, total) {
                -1 => i64::from(i32::MAX),
                n => i64::from(n),
            };
            threshold += limit;
            if ordinal < threshold {
                return unplaced(Some(subset.name.clone()));
            }
        }
        return unplaced(None);
    }
    if let [only] = subsets.as_slice()
        && only.max_replicas.is_none()
    {
        return unplaced(Some(only.name.clone()));
    }
    let version = pod_version(pod);
    let mut status = ws.status.clone().unwrap_or_default();
    let versions = status.versioned_subset_statuses.get_or_insert_default();
    let list = versions.entry(version).or_default();
    if list.is_empty() {
        *list = initial_statuses(ws, total);
    }
    let name = pod.metadata.name.clone().filter(|n| !n.is_empty());
    if let Some(name) = &name {
        let recorded = list.iter().find(|s| {
            s.creating_pods.as_ref().is_some_and(|m| m.contains_key(name))
                || s.deleting_pods.as_ref().is_some_and(|m| m.contains_key(name))
        });
        if let Some(subset) = recorded {
            return unplaced(Some(subset.name.clone()));
        }
    }
    let Some(subset) = list.iter_mut().find(|s| {
        !unschedulable(s.conditions.as_ref()) && (s.missing_replicas > 0 || s.missing_replicas == -1)
    }) else {
        return unplaced(None);
    };
    if subset.missing_replicas == -1 {
        return unplaced(Some(subset.name.clone()));
    }
    let (key, generated_uid) = match name {
        Some(name) => (name, None),
        None => {
            let id = uid();
            (id.clone(), Some(id))
        }
    };
    let time = Time(Timestamp::from_second(now.as_second()).unwrap_or(now));
    subset.creating_pods.get_or_insert_default().insert(key, time);
    subset.missing_replicas -= 1;
    Placement {
        subset: Some(subset.name.clone()),
        status: Some(status),
        generated_uid,
    }
}

/// The required node-selector terms with the subset's ANDed in (or set when there are none).
fn with_required(pod: &mut Value, term: &Value) {
    let required =
        &mut pod["spec"]["affinity"]["nodeAffinity"]["requiredDuringSchedulingIgnoredDuringExecution"];
    let terms = required["nodeSelectorTerms"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    if terms.is_empty() {
        required["nodeSelectorTerms"] = json!([term]);
        return;
    }
    let merged: Vec<Value> = terms
        .into_iter()
        .map(|mut t| {
            for key in ["matchExpressions", "matchFields"] {
                let add = term[key].as_array().cloned().unwrap_or_default();
                if add.is_empty() {
                    continue;
                }
                let mut list = t[key].as_array().cloned().unwrap_or_default();
                list.extend(add);
                t[key] = Value::Array(list);
            }
            t
        })
        .collect();
    required["nodeSelectorTerms"] = Value::Array(merged);
}

fn append(list: &mut Value, items: Vec<Value>) {
    if items.is_empty() {
        return;
    }
    let mut all = list.as_array().cloned().unwrap_or_default();
    all.extend(items);
    *list = Value::Array(all);
}

/// `pod` (as JSON) injected with the subset `name` of `ws`; Err when the subset's patch
/// cannot apply (the pod is then refused, naming the subset).
/// This project's annotation on a pod the webhook judged for a WorkloadSpread (its value)
/// and placed in no subset, every subset it could go to being full. OpenKruise writes
/// nothing then; the mark keeps the controller from adopting the pod into a full subset
/// afterwards (see [`super::adopt`]).
pub const UNPLACED_ANNOTATION: &str = "workloadspread.kubectl-kruise.io/unplaced";

/// `pod` (JSON, as sent) marked as judged by `ws` and placed in no subset.
pub fn mark_unplaced(ws: &WorkloadSpread, pod: &Value) -> Value {
    let mut out = pod.clone();
    if !out["metadata"]["annotations"].is_object() {
        out["metadata"]["annotations"] = json!({});
    }
    out["metadata"]["annotations"][UNPLACED_ANNOTATION] = json!(ws.name_any());
    out
}

pub fn inject(
    ws: &WorkloadSpread,
    pod: &Value,
    name: &str,
    generated_uid: Option<&str>,
) -> Result<Value, String> {
    let Some(subset) = ws.spec.subsets.iter().find(|s| s.name == name) else {
        return Ok(pod.clone());
    };
    let mut out = pod.clone();
    let items = |v: Option<Value>| v.and_then(|v| v.as_array().cloned()).unwrap_or_default();
    append(
        &mut out["spec"]["tolerations"],
        items(serde_json::to_value(&subset.tolerations).ok()),
    );
    if !out["spec"]["affinity"]["nodeAffinity"].is_object() {
        out["spec"]["affinity"]["nodeAffinity"] = json!({});
    }
    let preferred = subset
        .preferred_node_selector_terms
        .as_ref()
        .or(subset.preferred_node_selector.as_ref());
    append(
        &mut out["spec"]["affinity"]["nodeAffinity"]["preferredDuringSchedulingIgnoredDuringExecution"],
        items(serde_json::to_value(preferred).ok()),
    );
    let required = subset
        .required_node_selector_term
        .as_ref()
        .or(subset.required_node_selector.as_ref());
    if let Some(term) = required.and_then(|t| serde_json::to_value(t).ok()) {
        with_required(&mut out, &term);
    }
    if let Some(patch) = subset.patch.as_ref().filter(|p| !p.is_null()) {
        if !patch.is_object() {
            return Err(format!(
                "WorkloadSpread {}: spec.subsets[{name}].patch is not an object",
                ws.name_any()
            ));
        }
        let class = out["spec"]["priorityClassName"].clone();
        out = strategic_merge::apply(&out, patch);
        if out["spec"]["priorityClassName"] != class
            && let Some(spec) = out["spec"].as_object_mut()
        {
            // The API server's priority admission sets the priority again for the new class.
            spec.remove("priority");
        }
    }
    let mut marker = json!({ "name": ws.name_any(), "subset": name });
    if let Some(uid) = generated_uid {
        marker["uid"] = json!(uid);
    }
    out["metadata"]["annotations"][MATCHED_WORKLOADSPREAD_ANNOTATION] = json!(marker.to_string());
    Ok(out)
}

#[cfg(test)]
#[path = "place_tests.rs"]
mod tests;
