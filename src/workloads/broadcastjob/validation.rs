//! What upstream's webhook refuses in a BroadcastJob that the CRD's CEL rules cannot
//! express: the name's alphabet, the job labels preset in a template, the plainest faults
//! of a pod template (no containers, a bad or repeated container name, no image). The
//! AdvancedCronJob's validation uses the same rules for its templates. Pure.
//!
//! Invariant: every refusal names the object and the field (`spec.schedule: field 5 (day
//! of week) "7": ...`).
use serde_json::Value;

use crate::api::broadcastjob::{JOB_NAME_LABEL, JOB_UID_LABEL};
use crate::workloads::common::names::dns_label;

/// Upstream's name rule for both kinds: `^[a-zA-Z0-9-]+$`, at most 63 characters.
pub(crate) fn name_refusal(kind: &str, name: &str) -> Option<String> {
    let ok =
        !name.is_empty() && name.len() <= 63 && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '-');
    (!ok).then(|| {
        format!("{kind} {name}: metadata.name must be at most 63 letters, digits and '-' (a {kind}'s pods and children are named after it)")
    })
}

/// Labels a BroadcastJob sets on its pods itself, preset in `labels` at `path`.
pub(crate) fn preset_job_labels(kind: &str, name: &str, labels: &Value, path: &str) -> Option<String> {
    [JOB_NAME_LABEL, JOB_UID_LABEL].iter().find_map(|key| {
        let value = labels[*key].as_str().unwrap_or_default();
        (!value.is_empty()).then(|| {
            format!("{kind} {name}: {path}.{key} is set by the controller; remove it from the template")
        })
    })
}

/// What Kubernetes' pod validation would refuse in the pod template at `path` and that
/// the CRD schema (schemaless there) cannot see: no containers, a container without a
/// valid name or without an image, a name used twice. Not the whole of it: the rest is
/// refused when a pod is created (the job's `FailedCreate` event names it).
pub(crate) fn template_refusal(kind: &str, name: &str, template: &Value, path: &str) -> Option<String> {
    let refuse = |field: String, why: &str| Some(format!("{kind} {name}: {path}.{field}: {why}"));
    let spec = &template["spec"];
    let containers = spec["containers"]
        .as_array()
        .map(Vec::as_slice)
        .unwrap_or_default();
    if containers.is_empty() {
        return refuse("spec.containers".into(), "at least one container is required");
    }
    let mut seen = std::collections::BTreeSet::new();
    let lists = [
        ("initContainers", spec["initContainers"].as_array()),
        ("containers", spec["containers"].as_array()),
    ];
    for (list, items) in lists {
        for (i, container) in items.into_iter().flatten().enumerate() {
            let container_name = container["name"].as_str().unwrap_or_default();
            if !dns_label(container_name) {
                return refuse(
                    format!("spec.{list}[{i}].name"),
                    "must be a lowercase DNS label (letters, digits, '-')",
                );
            }
            if !seen.insert(container_name.to_string()) {
                return refuse(
                    format!("spec.{list}[{i}].name"),
                    &format!("{container_name:?} is used twice"),
                );
            }
            if container["image"].as_str().is_none_or(str::is_empty) {
                return refuse(format!("spec.{list}[{i}].image"), "is required");
            }
        }
    }
    None
}

/// Why a BroadcastJob must be refused (None: it may be stored).
pub fn refusal(object: &Value) -> Option<String> {
    let name = object["metadata"]["name"].as_str().unwrap_or_default();
    name_refusal("BroadcastJob", name)
        .or_else(|| {
            preset_job_labels(
                "BroadcastJob",
                name,
                &object["spec"]["template"]["metadata"]["labels"],
                "spec.template.metadata.labels",
            )
        })
        .or_else(|| template_refusal("BroadcastJob", name, &object["spec"]["template"], "spec.template"))
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn a_pod_template_without_containers_or_with_a_repeated_name_is_refused() {
        let job = |containers: Value| {
            json!({ "metadata": { "name": "warm" },
                "spec": { "template": { "spec": { "restartPolicy": "Never", "containers": containers } } } })
        };
        assert_eq!(refusal(&job(json!([{ "name": "a", "image": "busybox" }]))), None);
        let e = refusal(&job(json!([]))).expect("refused");
        assert!(e.contains("spec.template.spec.containers: at least one"), "{e}");
        let twice = json!([{ "name": "a", "image": "x" }, { "name": "a", "image": "y" }]);
        let e = refusal(&job(twice)).expect("refused");
        assert!(e.contains("spec.template.spec.containers[1].name"), "{e}");
        let e = refusal(&job(json!([{ "name": "A_b", "image": "x" }]))).expect("refused");
        assert!(e.contains("containers[0].name"), "{e}");
        let e = refusal(&job(json!([{ "name": "a" }]))).expect("refused");
        assert!(e.contains("containers[0].image: is required"), "{e}");
    }

    #[test]
    fn a_broadcastjob_may_not_preset_its_own_labels() {
        let job = |labels: Value| {
            json!({ "metadata": { "name": "warm" },
            "spec": { "template": { "metadata": { "labels": labels },
                "spec": { "containers": [{ "name": "c", "image": "busybox" }] } } } })
        };
        assert_eq!(refusal(&job(json!({ "app": "warm" }))), None);
        let e = refusal(&job(json!({ "broadcastjob-name": "other" }))).expect("refused");
        assert!(
            e.contains("spec.template.metadata.labels.broadcastjob-name"),
            "{e}"
        );
        assert_eq!(
            refusal(&job(json!({ "broadcastjob-name": "" }))),
            None,
            "empty is allowed"
        );
    }
}
