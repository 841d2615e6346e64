//! The mutating webhook's dispatch: each kind's defaults (OpenKruise's `SetDefaults*`,
//! spec level) are what its facts say (`KindFacts::defaulted`, in
//! `workloads::<kind>::facts`; a WorkloadSpread gets its renamed fields under both names,
//! what upstream's conversion webhook does). Pure: an object as
//! JSON in, the defaulted object out; the webhook answers with the JSON patch between them.
//!
//! Invariants: a field the user set is never changed, only absent ones are filled; the
//! planners read the same defaults when a field is absent (an object created while no
//! webhook ran is planned the same way); the pod template (where the kind's facts ask for it, see [`of`]) gets
//! OpenKruise's template defaults ([`template_defaults`]) on create and when an update
//! changed it, so a template stored through us hashes to the revision name OpenKruise would compute, and the
//! controllers hash every template defaulted anyway (a template stored while no webhook
//! ran gets the same revision).
use serde_json::Value;

use crate::api::KruiseKind;
use crate::runtime::template_defaults;

/// The defaults of `kind`, if it has any here; the pod template too when `template` (on
/// create, and on an update that changed it, as upstream) when the kind's facts ask for
/// it (never a DaemonSet's, whose webhook upstream leaves the template alone, nor a job's).
/// `old`: the stored object on an update.
pub fn of(kind: &str, object: &Value, old: Option<&Value>, template: bool) -> Option<Value> {
    let facts = crate::workloads::registry::facts(KruiseKind::named(kind)?);
    let mut out = facts.defaulted(object, old)?;
    if template && facts.defaults_template() && out["spec"]["template"].is_object() {
        out["spec"]["template"] = template_defaults::defaulted(&out["spec"]["template"]);
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn the_template_is_defaulted_only_when_asked() {
        let set = json!({ "kind": "CloneSet", "spec": { "template": {
            "spec": { "containers": [{ "name": "app", "image": "web:1" }] } } } });
        let with = of("CloneSet", &set, None, true).expect("a kind with defaults");
        assert_eq!(
            with["spec"]["template"]["spec"]["containers"][0]["imagePullPolicy"],
            "Always"
        );
        let without = of("CloneSet", &set, None, false).expect("a kind with defaults");
        assert_eq!(without["spec"]["template"], set["spec"]["template"]);
        assert!(of("UnknownKind", &set, None, true).is_none());
    }
    /// The dispatch leaves these kinds' pod templates as written even when asked for the
    /// template defaults: a job's (no `restartPolicy: Always`) and a DaemonSet's (as
    /// upstream's webhook). Each kind's own defaults are tested beside them.
    #[test]
    fn a_job_s_or_a_daemonset_s_template_is_left_as_written() {
        let template = json!({ "spec": { "containers": [{ "name": "c", "image": "busybox" }] } });
        let cases = [
            ("BroadcastJob", json!({ "spec": { "template": template } })),
            ("DaemonSet", json!({ "spec": { "template": template } })),
            (
                "AdvancedCronJob",
                json!({ "spec": { "schedule": "*/1 * * * *",
                    "template": { "broadcastJobTemplate": { "spec": { "template": template } } } } }),
            ),
        ];
        for (kind, object) in cases {
            let out = of(kind, &object, None, true).expect("a kind with defaults");
            assert_eq!(out["spec"]["template"], object["spec"]["template"], "{kind}");
        }
    }
}
