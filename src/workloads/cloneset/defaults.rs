//! The defaults OpenKruise's mutating webhook writes into a CloneSet (its `SetDefaults*`, spec level),
//! so `kubectl get -o yaml` shows what the controller will do. Pure: an object as JSON in,
//! the defaulted object out (the webhook answers with the JSON patch between them).
//!
//! Invariant: a field the user set is never changed, only absent ones are filled; the
//! planner reads the same defaults when a field is absent.
use serde_json::{Value, json};

use super::numbers::DEFAULT_MAX_UNAVAILABLE;
use crate::workloads::common::defaults::{fill, fill_history_limit, text};

/// A CloneSet's defaults, in the spelling of the object: `v1beta1` (its `apiVersion`, or
/// an update strategy already nested) gets `type: RollingUpdate` and the knobs under
/// `rollingUpdate`; `v1alpha1` gets them flat, its `type` being the pod update policy.
pub fn defaulted(object: &Value) -> Value {
    let mut out = object.clone();
    fill(&mut out, &["spec", "replicas"], json!(1));
    fill_history_limit(&mut out);
    let nested = object["apiVersion"]
        .as_str()
        .is_some_and(|v| v.ends_with("/v1beta1"))
        || crate::api::cloneset::strategy_is_nested(&object["spec"]["updateStrategy"]);
    let (knobs, policy): (&[&str], &str) = if nested {
        fill(
            &mut out,
            &["spec", "updateStrategy", "type"],
            json!("RollingUpdate"),
        );
        if text(&out, &["spec", "updateStrategy", "type"]) != Some("RollingUpdate") {
            return out;
        }
        (&["spec", "updateStrategy", "rollingUpdate"], "podUpdatePolicy")
    } else {
        (&["spec", "updateStrategy"], "type")
    };
    let at = |leaf: &'static str| [knobs, &[leaf]].concat();
    fill(&mut out, &at(policy), json!("ReCreate"));
    if matches!(text(&out, &at(policy)), Some("InPlaceIfPossible" | "InPlaceOnly")) {
        fill(&mut out, &at("inPlaceUpdateStrategy"), json!({}));
    }
    fill(&mut out, &at("partition"), json!(0));
    fill(&mut out, &at("maxUnavailable"), json!(DEFAULT_MAX_UNAVAILABLE));
    fill(&mut out, &at("maxSurge"), json!(0));
    out
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn a_bare_cloneset_gets_upstreams_defaults_and_a_set_field_is_kept() {
        let bare = json!({ "apiVersion": "apps.kruise.io/v1alpha1", "kind": "CloneSet",
            "spec": { "selector": {}, "template": {} } });
        let out = defaulted(&bare);
        assert_eq!(out["spec"]["replicas"], 1);
        assert_eq!(out["spec"]["revisionHistoryLimit"], 10);
        assert_eq!(
            out["spec"]["updateStrategy"],
            json!({ "type": "ReCreate", "partition": 0, "maxUnavailable": "20%", "maxSurge": 0 })
        );
        let set = json!({ "spec": { "replicas": 0, "updateStrategy": {
            "type": "InPlaceIfPossible", "maxUnavailable": 2, "partition": "50%" } } });
        let out = defaulted(&set);
        assert_eq!(out["spec"]["replicas"], 0, "a set zero stays");
        assert_eq!(out["spec"]["updateStrategy"]["maxUnavailable"], 2);
        assert_eq!(out["spec"]["updateStrategy"]["partition"], "50%");
        assert_eq!(out["spec"]["updateStrategy"]["inPlaceUpdateStrategy"], json!({}));
        assert_eq!(defaulted(&out), out, "defaulting twice changes nothing");
    }

    #[test]
    fn a_v1beta1_cloneset_gets_its_defaults_nested_and_on_delete_gets_none() {
        let bare = json!({ "apiVersion": "apps.kruise.io/v1beta1", "kind": "CloneSet",
            "spec": { "updateStrategy": { "rollingUpdate": { "podUpdatePolicy": "InPlaceIfPossible" } } } });
        let out = defaulted(&bare);
        assert_eq!(
            out["spec"]["updateStrategy"],
            json!({ "type": "RollingUpdate", "rollingUpdate": { "podUpdatePolicy": "InPlaceIfPossible",
                "inPlaceUpdateStrategy": {}, "partition": 0, "maxUnavailable": "20%", "maxSurge": 0 } })
        );
        let on_delete = json!({ "apiVersion": "apps.kruise.io/v1beta1", "kind": "CloneSet",
            "spec": { "updateStrategy": { "type": "OnDelete" } } });
        assert_eq!(
            defaulted(&on_delete)["spec"]["updateStrategy"],
            json!({ "type": "OnDelete" })
        );
    }
}
