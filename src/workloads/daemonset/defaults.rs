//! The defaults OpenKruise's mutating webhook writes into an Advanced DaemonSet (its `SetDefaults*`, spec level),
//! so `kubectl get -o yaml` shows what the controller will do. Pure: an object as JSON in,
//! the defaulted object out (the webhook answers with the JSON patch between them).
//!
//! Invariant: a field the user set is never changed, only absent ones are filled; the
//! planner reads the same defaults when a field is absent.
use serde_json::{Value, json};

use crate::workloads::common::defaults::{fill, fill_history_limit, text};

/// An Advanced DaemonSet's defaults, as upstream's webhook writes them: burstReplicas,
/// revisionHistoryLimit, the update type and, under RollingUpdate,
/// `rollingUpdateType: Standard` and one unavailable node when neither maxUnavailable nor
/// maxSurge is set; the deprecated `Surging` becomes `Standard` with one surge pod and
/// none unavailable where unset.
pub fn defaulted(object: &Value) -> Value {
    let mut out = object.clone();
    fill(&mut out, &["spec", "burstReplicas"], json!(250));
    fill_history_limit(&mut out);
    fill(
        &mut out,
        &["spec", "updateStrategy", "type"],
        json!("RollingUpdate"),
    );
    if text(&out, &["spec", "updateStrategy", "type"]) != Some("RollingUpdate") {
        return out;
    }
    let rolling = ["spec", "updateStrategy", "rollingUpdate"];
    let at = |leaf: &'static str| [&rolling[..], &[leaf]].concat();
    let unset =
        |out: &Value, leaf: &'static str| out["spec"]["updateStrategy"]["rollingUpdate"][leaf].is_null();
    if text(&out, &at("rollingUpdateType")) == Some("Surging") {
        fill(&mut out, &at("maxSurge"), json!(1));
        fill(&mut out, &at("maxUnavailable"), json!(0));
        out["spec"]["updateStrategy"]["rollingUpdate"]["rollingUpdateType"] = json!("Standard");
    }
    fill(&mut out, &at("rollingUpdateType"), json!("Standard"));
    if unset(&out, "maxUnavailable") && unset(&out, "maxSurge") {
        fill(&mut out, &at("maxUnavailable"), json!(1));
        fill(&mut out, &at("maxSurge"), json!(0));
    }
    out
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn a_daemonset_gets_one_unavailable_node_only_when_neither_budget_is_set() {
        let bare = json!({ "kind": "DaemonSet", "spec": { "template": { "spec": { "containers": [] } } } });
        let out = defaulted(&bare);
        assert_eq!(out["spec"]["burstReplicas"], 250);
        assert_eq!(
            out["spec"]["updateStrategy"],
            json!({ "type": "RollingUpdate", "rollingUpdate": { "rollingUpdateType": "Standard",
                "maxUnavailable": 1, "maxSurge": 0 } })
        );
        assert_eq!(
            out["spec"]["template"], bare["spec"]["template"],
            "the template is left alone"
        );
        let surge = json!({ "spec": { "updateStrategy": { "rollingUpdate": { "maxSurge": "10%" } } } });
        assert_eq!(
            defaulted(&surge)["spec"]["updateStrategy"]["rollingUpdate"],
            json!({ "maxSurge": "10%", "rollingUpdateType": "Standard" })
        );
        let surging =
            json!({ "spec": { "updateStrategy": { "rollingUpdate": { "rollingUpdateType": "Surging" } } } });
        assert_eq!(
            defaulted(&surging)["spec"]["updateStrategy"]["rollingUpdate"],
            json!({ "rollingUpdateType": "Standard", "maxSurge": 1, "maxUnavailable": 0 })
        );
    }
}
