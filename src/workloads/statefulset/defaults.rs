//! The defaults OpenKruise's mutating webhook writes into an Advanced StatefulSet (its `SetDefaults*`, spec level),
//! so `kubectl get -o yaml` shows what the controller will do. Pure: an object as JSON in,
//! the defaulted object out (the webhook answers with the JSON patch between them).
//!
//! Invariant: a field the user set is never changed, only absent ones are filled; the
//! planner reads the same defaults when a field is absent.
use serde_json::{Value, json};

use crate::workloads::common::defaults::{fill, fill_history_limit, text};

/// An Advanced StatefulSet's defaults (both versions: the stored schema is v1beta1's).
pub fn defaulted(object: &Value) -> Value {
    let mut out = object.clone();
    fill(&mut out, &["spec", "replicas"], json!(1));
    fill_history_limit(&mut out);
    fill(&mut out, &["spec", "podManagementPolicy"], json!("OrderedReady"));
    fill(
        &mut out,
        &["spec", "updateStrategy", "type"],
        json!("RollingUpdate"),
    );
    if text(&out, &["spec", "updateStrategy", "type"]) == Some("RollingUpdate") {
        let rolling = ["spec", "updateStrategy", "rollingUpdate"];
        fill(&mut out, &[&rolling[..], &["partition"]].concat(), json!(0));
        fill(&mut out, &[&rolling[..], &["maxUnavailable"]].concat(), json!(1));
        fill(
            &mut out,
            &[&rolling[..], &["podUpdatePolicy"]].concat(),
            json!("ReCreate"),
        );
        fill(&mut out, &[&rolling[..], &["minReadySeconds"]].concat(), json!(0));
    }
    if out["apiVersion"] == "apps.kruise.io/v1beta1" {
        let retention = ["spec", "persistentVolumeClaimRetentionPolicy"];
        fill(
            &mut out,
            &[&retention[..], &["whenDeleted"]].concat(),
            json!("Retain"),
        );
        fill(
            &mut out,
            &[&retention[..], &["whenScaled"]].concat(),
            json!("Retain"),
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn an_advanced_statefulset_gets_a_rolling_update_block_only_under_rolling_update() {
        let bare = json!({ "apiVersion": "apps.kruise.io/v1beta1", "spec": {} });
        let out = defaulted(&bare);
        assert_eq!(out["spec"]["podManagementPolicy"], "OrderedReady");
        assert_eq!(
            out["spec"]["updateStrategy"],
            json!({ "type": "RollingUpdate", "rollingUpdate": {
                "partition": 0, "maxUnavailable": 1, "podUpdatePolicy": "ReCreate", "minReadySeconds": 0 } })
        );
        assert_eq!(
            out["spec"]["persistentVolumeClaimRetentionPolicy"],
            json!({ "whenDeleted": "Retain", "whenScaled": "Retain" })
        );
        let on_delete = json!({ "apiVersion": "apps.kruise.io/v1alpha1",
            "spec": { "updateStrategy": { "type": "OnDelete" } } });
        let out = defaulted(&on_delete);
        assert!(out["spec"]["updateStrategy"].get("rollingUpdate").is_none());
        assert!(
            out["spec"].get("persistentVolumeClaimRetentionPolicy").is_none(),
            "v1alpha1 has none"
        );
        assert_eq!(defaulted(&out), out);
    }
}
