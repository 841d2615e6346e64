//! What upstream's webhook refuses in an AdvancedCronJob that the CRD's CEL rules cannot
//! express: the name's alphabet, a schedule or a time zone that cannot be read, the job
//! labels preset in a BroadcastJob template, the plainest faults of either pod template
//! (the BroadcastJob's rules), and a change of its child template. Pure.
//!
//! Invariant: every refusal names the object and the field (`spec.schedule: field 5 (day
//! of week) "7": ...`).
use serde_json::Value;

use super::schedule;
use crate::workloads::broadcastjob::validation::{name_refusal, preset_job_labels, template_refusal};

/// Why an AdvancedCronJob must be refused (None: it may be stored); `old` is the stored
/// object on an update (the Job and BroadcastJob templates may not change).
pub fn refusal(object: &Value, old: Option<&Value>) -> Option<String> {
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
            refusal(&acj("nightly", "0 2 * * *", Some("Europe/Berlin")), None),
            None
        );
        let e = refusal(&acj("nightly", "0 2 * * 7", None), None).expect("refused");
        assert!(
            e.starts_with("AdvancedCronJob nightly: spec.schedule: field 5 (day of week)"),
            "{e}"
        );
        let e = refusal(&acj("nightly", "0 2 * * *", Some("Local")), None).expect("refused");
        assert!(e.contains("spec.timeZone"), "{e}");
        let e = refusal(&acj("nightly", "TZ=UTC 0 2 * * *", Some("UTC")), None).expect("refused");
        assert!(e.contains("spec.schedule"), "{e}");
        let e = refusal(&acj("night.ly", "0 2 * * *", None), None).expect("refused");
        assert!(e.contains("metadata.name"), "{e}");
    }

    #[test]
    fn a_cron_job_s_child_template_may_not_change_but_its_schedule_may() {
        let old = acj("nightly", "0 2 * * *", None);
        let mut rescheduled = old.clone();
        rescheduled["spec"]["schedule"] = json!("0 3 * * *");
        assert_eq!(refusal(&rescheduled, Some(&old)), None);
        let mut changed = old.clone();
        changed["spec"]["template"]["jobTemplate"]["spec"]["parallelism"] = json!(2);
        let e = refusal(&changed, Some(&old)).expect("refused");
        assert!(e.contains("spec.template.jobTemplate"), "{e}");
    }

    #[test]
    fn a_child_pod_template_without_containers_is_refused_naming_its_path() {
        let mut cron = acj("nightly", "0 2 * * *", None);
        cron["spec"]["template"]["jobTemplate"]["spec"]["template"] = json!({ "spec": { "containers": [] } });
        let e = refusal(&cron, None).expect("refused");
        assert!(
            e.contains("spec.template.jobTemplate.spec.template.spec.containers"),
            "{e}"
        );
    }
}
