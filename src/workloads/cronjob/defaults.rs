//! The defaults OpenKruise's mutating webhook writes into an AdvancedCronJob (its `SetDefaults*`, spec level),
//! so `kubectl get -o yaml` shows what the controller will do. Pure: an object as JSON in,
//! the defaulted object out (the webhook answers with the JSON patch between them).
//!
//! Invariant: a field the user set is never changed, only absent ones are filled; the
//! planner reads the same defaults when a field is absent.
use serde_json::{Value, json};

use crate::workloads::common::defaults::{fill, text};

/// An AdvancedCronJob's defaults: concurrency policy `Allow` (`Replace` for an image-list
/// pull job: running two at once is useless), not paused, 3 successful and 1 failed job
/// kept; an image-list pull job template gets its completion and pull policies.
pub fn defaulted(object: &Value) -> Value {
    let mut out = object.clone();
    let pull = ["spec", "template", "imageListPullJobTemplate", "spec"];
    let at = |leaf: &[&'static str]| [&pull[..], leaf].concat();
    let pulls = out["spec"]["template"]["imageListPullJobTemplate"].is_object();
    if pulls && text(&out, &at(&["completionPolicy", "type"])).is_none() {
        fill(&mut out, &at(&["completionPolicy", "type"]), json!("Always"));
        fill(&mut out, &at(&["pullPolicy", "timeoutSeconds"]), json!(600));
        fill(&mut out, &at(&["pullPolicy", "backoffLimit"]), json!(3));
        fill(&mut out, &at(&["imagePullPolicy"]), json!("IfNotPresent"));
    }
    let concurrency = if pulls { "Replace" } else { "Allow" };
    fill(&mut out, &["spec", "concurrencyPolicy"], json!(concurrency));
    fill(&mut out, &["spec", "paused"], json!(false));
    fill(&mut out, &["spec", "successfulJobsHistoryLimit"], json!(3));
    fill(&mut out, &["spec", "failedJobsHistoryLimit"], json!(1));
    out
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn a_bare_advancedcronjob_gets_upstreams_defaults_and_its_child_template_is_left_alone() {
        let bare = json!({ "apiVersion": "apps.kruise.io/v1alpha1", "kind": "AdvancedCronJob",
            "spec": { "schedule": "*/1 * * * *", "template": { "broadcastJobTemplate": { "spec": {
                "template": { "spec": { "containers": [{ "name": "c", "image": "busybox" }] } } } } } } });
        let out = defaulted(&bare);
        assert_eq!(out["spec"]["concurrencyPolicy"], "Allow");
        assert_eq!(out["spec"]["paused"], false);
        assert_eq!(out["spec"]["successfulJobsHistoryLimit"], 3);
        assert_eq!(out["spec"]["failedJobsHistoryLimit"], 1);
        assert_eq!(
            out["spec"]["template"], bare["spec"]["template"],
            "no restartPolicy: Always"
        );
        let pulls = json!({ "spec": { "schedule": "0 * * * *", "concurrencyPolicy": "Forbid",
            "template": { "imageListPullJobTemplate": { "spec": { "images": ["nginx"] } } } } });
        let out = defaulted(&pulls);
        assert_eq!(out["spec"]["concurrencyPolicy"], "Forbid", "kept");
        let spec = &out["spec"]["template"]["imageListPullJobTemplate"]["spec"];
        assert_eq!(spec["completionPolicy"], json!({ "type": "Always" }));
        assert_eq!(
            spec["pullPolicy"],
            json!({ "timeoutSeconds": 600, "backoffLimit": 3 })
        );
        assert_eq!(spec["imagePullPolicy"], "IfNotPresent");
        let unset = json!({ "spec": { "template": { "imageListPullJobTemplate": { "spec": {} } } } });
        assert_eq!(defaulted(&unset)["spec"]["concurrencyPolicy"], "Replace");
    }
}
