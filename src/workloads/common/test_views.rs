//! What the planners' table tests read off a plan, said once: a spec built from a base and
//! a test's extra fields, the nodes pods are created on, the pods and children deleted.
use k8s_openapi::api::core::v1::Pod;
use serde_json::Value;

use crate::runtime::actions::{Action, ChildAction};

/// `base` with each top-level field of `extra` set (a test's spec over the default one).
pub fn merged(mut base: Value, extra: Value) -> Value {
    if let (Some(base), Some(extra)) = (base.as_object_mut(), extra.as_object()) {
        for (k, v) in extra {
            base.insert(k.clone(), v.clone());
        }
    }
    base
}

/// The pods `actions` create.
pub fn created_pods(actions: &[Action]) -> Vec<&Pod> {
    actions
        .iter()
        .filter_map(|a| match a {
            Action::CreatePod { pod, .. } => Some(pod.as_ref()),
            _ => None,
        })
        .collect()
}

/// The nodes the pods `actions` create are pinned to.
pub fn created_on(actions: &[Action]) -> Vec<String> {
    created_pods(actions)
        .into_iter()
        .filter_map(|p| crate::workloads::common::node_fit::node_of(p).map(str::to_owned))
        .collect()
}

/// The names of the pods `actions` delete.
pub fn deleted_pods(actions: &[Action]) -> Vec<String> {
    actions
        .iter()
        .filter_map(|a| match a {
            Action::DeletePod { name, .. } => Some(name.clone()),
            _ => None,
        })
        .collect()
}

/// The names of the children (not pods) `actions` delete.
pub fn deleted_children(actions: &[Action]) -> Vec<String> {
    actions
        .iter()
        .filter_map(|a| match a {
            Action::Child(ChildAction::Delete { name, .. }) => Some(name.clone()),
            _ => None,
        })
        .collect()
}
