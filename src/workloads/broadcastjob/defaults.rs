//! The defaults OpenKruise's mutating webhook writes into a BroadcastJob (its `SetDefaults*`, spec level),
//! so `kubectl get -o yaml` shows what the controller will do. Pure: an object as JSON in,
//! the defaulted object out (the webhook answers with the JSON patch between them).
//!
//! Invariant: a field the user set is never changed, only absent ones are filled; the
//! planner reads the same defaults when a field is absent.
use serde_json::{Value, json};

use crate::workloads::common::defaults::fill;

/// A BroadcastJob's defaults: completion policy `Always`, parallelism unlimited (2^31-1,
/// as upstream spells it), failure policy `FailFast`.
pub fn defaulted(object: &Value) -> Value {
    let mut out = object.clone();
    fill(&mut out, &["spec", "completionPolicy", "type"], json!("Always"));
    fill(&mut out, &["spec", "parallelism"], json!(i32::MAX));
    fill(&mut out, &["spec", "failurePolicy", "type"], json!("FailFast"));
    out
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn a_bare_broadcastjob_gets_upstreams_policies_and_parallelism_and_a_set_field_is_kept() {
        let bare = json!({ "apiVersion": "apps.kruise.io/v1alpha1", "kind": "BroadcastJob",
            "spec": { "template": { "spec": { "containers": [{ "name": "c", "image": "busybox" }] } } } });
        let out = defaulted(&bare);
        assert_eq!(
            out["spec"]["template"], bare["spec"]["template"],
            "no restartPolicy: Always"
        );
        assert_eq!(out["spec"]["completionPolicy"], json!({ "type": "Always" }));
        assert_eq!(out["spec"]["parallelism"], json!(2147483647));
        assert_eq!(out["spec"]["failurePolicy"], json!({ "type": "FailFast" }));
        let mut set = bare.clone();
        set["spec"]["parallelism"] = json!("50%");
        set["spec"]["completionPolicy"] = json!({ "type": "Never" });
        set["spec"]["failurePolicy"] = json!({ "type": "Continue", "restartLimit": 2 });
        let out = defaulted(&set);
        assert_eq!(out["spec"]["parallelism"], "50%");
        assert_eq!(out["spec"]["completionPolicy"], json!({ "type": "Never" }));
        assert_eq!(
            out["spec"]["failurePolicy"],
            json!({ "type": "Continue", "restartLimit": 2 })
        );
    }
}
