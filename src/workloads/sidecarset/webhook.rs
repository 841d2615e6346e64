//! The SidecarSet's part of the pod webhook, pure: which SidecarSets inject a new pod (by
//! selector and namespace), at which version (a pinned revision, or the set as its
//! controller hashes it now), and the JSON patch that injects them. The admission server
//! (`/mutate-pod`) reads the caches and answers with this patch.
//!
//! Invariants: a set is injected with the hash annotations its controller writes for it,
//! computed here when it has not written them yet; a matching set that cannot inject the
//! pod refuses it, naming the set and the field (as upstream); the patch holds only what
//! injection changed.
use std::borrow::Cow;

use k8s_openapi::api::core::v1::Pod;
use k8s_openapi::jiff::Timestamp;
use serde_json::Value;

use super::{hash, inject, matching, pinned};
use crate::api::sidecarset::SidecarSet;
use crate::workloads::pod_hooks::Declined;

/// What the pod webhook reads besides the pod.
pub struct Inputs<'a> {
    pub sets: &'a [&'a SidecarSet],
    pub namespace_labels: Option<&'a std::collections::BTreeMap<String, String>>,
    /// The SidecarSets' cached ControllerRevisions (for a pinned revision).
    pub revisions: &'a [pinned::StoredRevision],
    /// A number in 0..100 drawn for this pod (a `Partial` pin's percent).
    pub roll: u32,
    pub now: Timestamp,
}

/// The set to inject as it stands once its controller wrote its hash annotations: a set
/// created a moment ago (or just changed) may not have them yet, and a pod injected with
/// none (or the old ones) would never count as updated, nor be upgradable in place. A
/// pinned revision's set is injected as stored.
fn current_hashes(set: Cow<'_, SidecarSet>) -> Cow<'_, SidecarSet> {
    match set {
        Cow::Borrowed(current) => Cow::Owned(hash::with_fresh_annotations(current).0),
        pinned => pinned,
    }
}

/// The JSON patch that injects `pod` (None: nothing to inject). Pure.
pub fn injection_patch(
    pod_value: &Value,
    inputs: &Inputs<'_>,
) -> Result<Option<json_patch::Patch>, Declined> {
    let skipped = |e: String| Declined::Skipped(e);
    let pod: Pod = serde_json::from_value(pod_value.clone())
        .map_err(|e| skipped(format!("the pod cannot be read: {e}")))?;
    let chosen = matching::injecting(inputs.sets, &pod, inputs.namespace_labels);
    let versions = chosen
        .iter()
        .map(|set| pinned::to_inject(set, &pod, inputs.revisions, inputs.roll).map(current_hashes))
        .collect::<Result<Vec<_>, _>>()
        .map_err(Declined::Refused)?;
    let chosen: Vec<&SidecarSet> = versions.iter().map(AsRef::as_ref).collect();
    // A SidecarSet that cannot inject refuses the pod, as upstream (the message names it).
    let Some(injected) = inject::inject(&pod, &chosen, inputs.now).map_err(Declined::Refused)? else {
        return Ok(None);
    };
    let after = serde_json::to_value(&injected).map_err(|e| skipped(e.to_string()))?;
    // Only what injection changed: the pod as sent, with the new fields.
    let mut target = pod_value.clone();
    for key in ["metadata", "spec"] {
        let diff = crate::runtime::merge_patch::diff(
            &serde_json::to_value(&pod).unwrap_or(Value::Null)[key],
            &after[key],
        );
        json_patch::merge(&mut target[key], &diff);
    }
    let patch = json_patch::diff(pod_value, &target);
    Ok((!patch.0.is_empty()).then_some(patch))
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn inputs<'a>(sets: &'a [&'a SidecarSet]) -> Inputs<'a> {
        Inputs {
            sets,
            namespace_labels: None,
            revisions: &[],
            roll: 0,
            now: "2026-12-04T12:00:00Z".parse().expect("t"),
        }
    }

    #[test]
    fn the_patch_adds_the_sidecar_and_leaves_what_the_pod_had() {
        let set: SidecarSet = serde_json::from_value(
            json!({ "apiVersion": "apps.kruise.io/v1alpha1", "kind": "SidecarSet",
            "metadata": { "name": "log", "annotations": { "kruise.io/sidecarset-hash": "h" } },
            "spec": { "selector": { "matchLabels": { "app": "web" } },
                "containers": [{ "name": "log", "image": "fluentbit:1" }] } }),
        )
        .expect("set");
        // As the API server sends it: fields our types would not write back stay untouched.
        let pod = json!({ "apiVersion": "v1", "kind": "Pod",
            "metadata": { "generateName": "web-", "namespace": "shop", "labels": { "app": "web" } },
            "spec": { "containers": [{ "name": "app", "image": "nginx", "resources": {} }] } });
        let sets = [&set];
        let inputs = inputs(&sets);
        let patch = injection_patch(&pod, &inputs).expect("ok").expect("a patch");
        let mut patched = pod.clone();
        json_patch::patch(&mut patched, &patch).expect("applies");
        let names: Vec<&str> = patched["spec"]["containers"]
            .as_array()
            .expect("containers")
            .iter()
            .filter_map(|c| c["name"].as_str())
            .collect();
        assert_eq!(names, ["log", "app"]);
        assert_eq!(
            patched["spec"]["containers"][1]["resources"],
            json!({}),
            "kept as sent"
        );
        assert_eq!(
            patched["metadata"]["annotations"]["kruise.io/sidecarset-injected-list"],
            "log"
        );
        let other = json!({ "apiVersion": "v1", "kind": "Pod",
            "metadata": { "namespace": "shop", "labels": { "app": "api" } },
            "spec": { "containers": [{ "name": "app", "image": "nginx" }] } });
        assert!(injection_patch(&other, &inputs).expect("ok").is_none());
    }

    #[test]
    fn a_set_its_controller_has_not_hashed_yet_injects_the_hashes_it_will_write() {
        let set: SidecarSet = serde_json::from_value(
            json!({ "apiVersion": "apps.kruise.io/v1alpha1", "kind": "SidecarSet",
            "metadata": { "name": "mesh" },
            "spec": { "selector": { "matchLabels": { "app": "web" } },
                "containers": [{ "name": "mesh", "image": "envoy:1" }] } }),
        )
        .expect("set");
        let pod = json!({ "apiVersion": "v1", "kind": "Pod",
            "metadata": { "namespace": "shop", "labels": { "app": "web" } },
            "spec": { "containers": [{ "name": "app", "image": "nginx" }] } });
        let sets = [&set];
        let inputs = inputs(&sets);
        let patch = injection_patch(&pod, &inputs).expect("ok").expect("a patch");
        let mut patched = pod.clone();
        json_patch::patch(&mut patched, &patch).expect("applies");
        let entry = |key: &str| -> String {
            let text = patched["metadata"]["annotations"][key].as_str().expect(key);
            let hashes: Value = serde_json::from_str(text).expect("JSON");
            hashes["mesh"]["hash"].as_str().expect("hash").to_string()
        };
        let (with, without) = hash::hashes(&set);
        assert_eq!(entry(inject::HASH_ANNOTATION), with);
        assert_eq!(entry(inject::HASH_WITHOUT_IMAGE_ANNOTATION), without);
    }
}
