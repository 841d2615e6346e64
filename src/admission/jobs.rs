//! What upstream's webhook refuses in a BroadcastJob and an AdvancedCronJob that the
//! CRDs' CEL rules cannot express: the name's alphabet, the job labels preset in a
//! template, the plainest faults of a pod template (no containers, a bad or repeated
//! container name, no image), a schedule or a time zone that cannot be read, and a change
//! of an AdvancedCronJob's child template. Pure.
//!
//! Invariant: every refusal names the object and the field (`spec.schedule: field 5 (day
//! of week) "7": ...`).
use serde_json::Value;

use crate::workloads::common::names::dns_label;

use crate::api::broadcastjob::{JOB_NAME_LABEL, JOB_UID_LABEL};
use crate::workloads::cronjob::schedule;

/// Upstream's name rule for both kinds: `^[a-zA-Z0-9-]+$`, at most 63 characters.
fn name_refusal(kind: &str, name: &str) -> Option<String> {
    let ok =
        !name.is_empty() && name.len() <= 63 && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '-');
    (!ok).then(|| {
        format!("{kind} {name}: metadata.name must be at most 63 letters, digits and '-' (a {kind}'s pods and children are named after it)")
    })
}

/// Labels a BroadcastJob sets on its pods itself, preset in `labels` at `path`.
fn preset_job_labels(kind: &str, name: &str, labels: &Value, path: &str) -> Option<String> {
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
fn template_refusal(kind: &str, name: &str, template: &Value, path: &str) -> Option<String> {
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
pub fn broadcastjob(object: &Value) -> Option<String> {
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

/// Why an AdvancedCronJob must be refused (None: it may be stored); `old` is the stored
/// object on an update (the Job and BroadcastJob templates may not change).
pub fn advancedcronjob(object: &Value, old: Option<&Value>) -> Option<String> {
    let name = object["metadata"]["name"].as_str().unwrap_or_default();
    let kind = "AdvancedCronJob";
    if let Some(refusal) = name_refusal(kind, name) {
        return Some(refusal);
    }
    let spec = &object["spec"];
    let zone = spec["timeZone"].as_str();
    if let Some(zone) = zone
        && let Err(e) = schedule::check_time_zone(zone)
    {
        return Some(format!("{kind} {name}: {e}"));
    }
    if let Err(e) = schedule::parse(spec["schedule"].as_str().unwrap_or_default(), zone) {
        return Some(format!("{kind} {name}: {e}"));
    }
    if let Some(refusal) = preset_job_labels(
        kind,
        name,
        &spec["template"]["broadcastJobTemplate"]["spec"]["template"]["metadata"]["labels"],
        "spec.template.broadcastJobTemplate.spec.template.metadata.labels",
    ) {
        return Some(refusal);
    }
    for template in ["jobTemplate", "broadcastJobTemplate"] {
        let pod = &spec["template"][template]["spec"]["template"];
        if spec["template"][template].is_object()
            && let Some(refusal) = template_refusal(
                kind,
                name,
                pod,
                &format!("spec.template.{template}.spec.template"),
            )
        {
            return Some(refusal);
        }
    }
    let old = old?;
    ["jobTemplate", "broadcastJobTemplate"].iter().find_map(|template| {
        (old["spec"]["template"][template] != spec["template"][template]).then(|| {
            format!("{kind} {name}: spec.template.{template} may not change (upstream keeps it immutable); create a new AdvancedCronJob instead")
        })
    })
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn acj(name: &str, schedule: &str, zone: Option<&str>) -> Value {
        let mut spec = json!({ "schedule": schedule, "template": { "jobTemplate": { "spec": {
            "template": { "spec": { "containers": [{ "name": "c", "image": "busybox" }] } } } } } });
        if let Some(zone) = zone {
            spec["timeZone"] = json!(zone);
        }
        json!({ "metadata": { "name": name }, "spec": spec })
    }

    #[test]
    fn a_cron_job_with_a_bad_schedule_zone_or_name_is_refused_naming_the_field() {
        assert_eq!(
            advancedcronjob(&acj("nightly", "0 2 * * *", Some("Europe/Berlin")), None),
            None
        );
        let e = advancedcronjob(&acj("nightly", "0 2 * * 7", None), None).expect("refused");
        assert!(
            e.starts_with("AdvancedCronJob nightly: spec.schedule: field 5 (day of week)"),
            "{e}"
        );
        let e = advancedcronjob(&acj("nightly", "0 2 * * *", Some("Local")), None).expect("refused");
        assert!(e.contains("spec.timeZone"), "{e}");
        let e = advancedcronjob(&acj("nightly", "TZ=UTC 0 2 * * *", Some("UTC")), None).expect("refused");
        assert!(e.contains("spec.schedule"), "{e}");
        let e = advancedcronjob(&acj("night.ly", "0 2 * * *", None), None).expect("refused");
        assert!(e.contains("metadata.name"), "{e}");
    }

    #[test]
    fn a_cron_job_s_child_template_may_not_change_but_its_schedule_may() {
        let old = acj("nightly", "0 2 * * *", None);
        let mut rescheduled = old.clone();
        rescheduled["spec"]["schedule"] = json!("0 3 * * *");
        assert_eq!(advancedcronjob(&rescheduled, Some(&old)), None);
        let mut changed = old.clone();
        changed["spec"]["template"]["jobTemplate"]["spec"]["parallelism"] = json!(2);
        let e = advancedcronjob(&changed, Some(&old)).expect("refused");
        assert!(e.contains("spec.template.jobTemplate"), "{e}");
    }

    #[test]
    fn a_pod_template_without_containers_or_with_a_repeated_name_is_refused() {
        let job = |containers: Value| {
            json!({ "metadata": { "name": "warm" },
                "spec": { "template": { "spec": { "restartPolicy": "Never", "containers": containers } } } })
        };
        assert_eq!(
            broadcastjob(&job(json!([{ "name": "a", "image": "busybox" }]))),
            None
        );
        let e = broadcastjob(&job(json!([]))).expect("refused");
        assert!(e.contains("spec.template.spec.containers: at least one"), "{e}");
        let twice = json!([{ "name": "a", "image": "x" }, { "name": "a", "image": "y" }]);
        let e = broadcastjob(&job(twice)).expect("refused");
        assert!(e.contains("spec.template.spec.containers[1].name"), "{e}");
        let e = broadcastjob(&job(json!([{ "name": "A_b", "image": "x" }]))).expect("refused");
        assert!(e.contains("containers[0].name"), "{e}");
        let e = broadcastjob(&job(json!([{ "name": "a" }]))).expect("refused");
        assert!(e.contains("containers[0].image: is required"), "{e}");
        let mut cron = acj("nightly", "0 2 * * *", None);
        cron["spec"]["template"]["jobTemplate"]["spec"]["template"] = json!({ "spec": { "containers": [] } });
        let e = advancedcronjob(&cron, None).expect("refused");
        assert!(
            e.contains("spec.template.jobTemplate.spec.template.spec.containers"),
            "{e}"
        );
    }

    #[test]
    fn a_broadcastjob_may_not_preset_its_own_labels() {
        let job = |labels: Value| {
            json!({ "metadata": { "name": "warm" },
            "spec": { "template": { "metadata": { "labels": labels },
                "spec": { "containers": [{ "name": "c", "image": "busybox" }] } } } })
        };
        assert_eq!(broadcastjob(&job(json!({ "app": "warm" }))), None);
        let e = broadcastjob(&job(json!({ "broadcastjob-name": "other" }))).expect("refused");
        assert!(
            e.contains("spec.template.metadata.labels.broadcastjob-name"),
            "{e}"
        );
        assert_eq!(
            broadcastjob(&job(json!({ "broadcastjob-name": "" }))),
            None,
            "empty is allowed"
        );
    }
}
