//! `/validate-deletion`: OpenKruise's deletion protection. An object labelled
//! `policy.kruise.io/delete-protection: Always` cannot be deleted; one labelled `Cascading`
//! cannot be deleted while deleting it would take something with it: a namespace's active
//! pods and bound PersistentVolumeClaims, a CRD's custom resources, a workload's pods (its
//! `spec.replicas`, or for a kind without replicas the pods its status counts). The API
//! server sends only labelled objects (the webhook's object selector), so an unlabelled
//! delete costs nothing.
//!
//! Invariants:
//! - A refusal names the object, the label and its value, and what would be lost (with
//!   counts); an `Always` one says to remove the label.
//! - The label's other values protect nothing (as upstream); an object already being
//!   deleted is not judged again.
//! - What cannot be counted (a list fails) refuses, naming why (as upstream).
//! - Fails open like every webhook here: a stopped `run` protects nothing.
use axum::Json;
use axum::extract::State;
use k8s_openapi::api::core::v1::{PersistentVolumeClaim, Pod};
use k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition;
use kube::api::{Api, DynamicObject, ListParams};
use kube::core::admission::{AdmissionResponse, AdmissionReview, Operation};
use serde_json::Value;

use super::shared::Shared;

/// The label.
pub const LABEL: &str = "policy.kruise.io/delete-protection";

/// What the label asks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Protection {
    /// Never deleted while labelled.
    Always,
    /// Not deleted while it would take something with it.
    Cascading,
}

impl Protection {
    fn word(self) -> &'static str {
        match self {
            Protection::Always => "Always",
            Protection::Cascading => "Cascading",
        }
    }
}

/// The protection `object`'s label asks (None: none, or a value upstream ignores).
pub fn protection(object: &Value) -> Option<Protection> {
    match object["metadata"]["labels"][LABEL].as_str()? {
        "Always" => Some(Protection::Always),
        "Cascading" => Some(Protection::Cascading),
        _ => None,
    }
}

/// What deleting a workload would take with it: its replicas, else the pods its status
/// counts (a DaemonSet's scheduled pods, a job's active ones).
pub fn workload_pods(object: &Value) -> i64 {
    let spec = &object["spec"];
    let status = &object["status"];
    if let Some(replicas) = spec["replicas"].as_i64() {
        return replicas;
    }
    let counted = [
        &status["currentNumberScheduled"],
        &status["numberMisscheduled"],
        &status["active"],
    ];
    counted
        .iter()
        .map(|v| {
            v.as_i64()
                .or_else(|| v.as_array().map(|a| a.len() as i64))
                .unwrap_or(0)
        })
        .sum()
}

/// Why deleting `what` (`Namespace shop`, `CloneSet shop/web`) must be refused under
/// `protection`, `lost` being what it would take with it (count, what); None: allowed.
pub fn refusal(what: &str, protection: Protection, lost: &[(i64, &str)]) -> Option<String> {
    let label = format!("{LABEL}={}", protection.word());
    match protection {
        Protection::Always => Some(format!(
            "{what} is protected by {label}: remove the label to delete it"
        )),
        Protection::Cascading => {
            let lost: Vec<String> = lost
                .iter()
                .filter(|(n, _)| *n > 0)
                .map(|(n, thing)| format!("{n} {thing}"))
                .collect();
            (!lost.is_empty()).then(|| {
                format!(
                    "{what} is protected by {label}: deleting it would delete {}; remove them or the label first",
                    lost.join(" and ")
                )
            })
        }
    }
}

/// What deleting `object` (of `group`/`kind`) would take with it, counted through `client`.
async fn lost(
    client: &kube::Client,
    group: &str,
    kind: &str,
    object: &Value,
) -> Result<Vec<(i64, &'static str)>, String> {
    let name = object["metadata"]["name"].as_str().unwrap_or_default();
    match (group, kind) {
        ("", "Namespace") => {
            let pods: Api<Pod> = Api::namespaced(client.clone(), name);
            let pods = pods
                .list(&ListParams::default())
                .await
                .map_err(|e| format!("listing the pods of namespace {name}: {e}"))?;
            let active = pods
                .items
                .iter()
                .filter(|p| crate::workloads::common::availability::is_active(p))
                .count();
            let claims: Api<PersistentVolumeClaim> = Api::namespaced(client.clone(), name);
            let claims = claims
                .list(&ListParams::default())
                .await
                .map_err(|e| format!("listing the PersistentVolumeClaims of namespace {name}: {e}"))?;
            let bound = claims
                .items
                .iter()
                .filter(|c| c.metadata.deletion_timestamp.is_none())
                .filter(|c| c.status.as_ref().and_then(|s| s.phase.as_deref()) == Some("Bound"))
                .count();
            Ok(vec![
                (active as i64, "active pods"),
                (bound as i64, "bound PersistentVolumeClaims"),
            ])
        }
        ("apiextensions.k8s.io", "CustomResourceDefinition") => {
            let crd: CustomResourceDefinition = serde_json::from_value(object.clone())
                .map_err(|e| format!("reading CustomResourceDefinition {name}: {e}"))?;
            let resource = crate::api::versions::served_resources(&crd)
                .next()
                .ok_or_else(|| format!("{name} serves no version to count its custom resources by"))?;
            let api: Api<DynamicObject> = Api::all_with(client.clone(), &resource);
            let all = api
                .list_metadata(&ListParams::default())
                .await
                .map_err(|e| format!("listing the custom resources of {name}: {e}"))?;
            let live = all
                .items
                .iter()
                .filter(|o| o.metadata.deletion_timestamp.is_none())
                .count();
            Ok(vec![(live as i64, "custom resources")])
        }
        _ => Ok(vec![(workload_pods(object), "pods")]),
    }
}

/// `/validate-deletion`.
pub async fn validate_deletion(
    State(shared): State<Shared>,
    Json(review): Json<AdmissionReview<DynamicObject>>,
) -> Json<AdmissionReview<DynamicObject>> {
    let request = match super::review::request(review) {
        Ok(request) => request,
        Err(answer) => return Json(*answer),
    };
    let response = AdmissionResponse::from(&request);
    let object = request
        .old_object
        .as_ref()
        .and_then(|o| serde_json::to_value(o).ok())
        .unwrap_or_default();
    let Some(protection) = protection(&object).filter(|_| request.operation == Operation::Delete) else {
        return Json(response.into_review());
    };
    if !object["metadata"]["deletionTimestamp"].is_null() {
        return Json(response.into_review());
    }
    let (group, kind) = (request.kind.group.as_str(), request.kind.kind.as_str());
    let what = match request.namespace.as_deref().filter(|n| !n.is_empty()) {
        Some(namespace) => format!("{kind} {namespace}/{}", request.name),
        None => format!("{kind} {}", request.name),
    };
    let lost = match (protection, shared.pods.as_ref()) {
        (Protection::Always, _) => Ok(Vec::new()),
        (Protection::Cascading, Some(hooks)) => lost(&hooks.client, group, kind, &object).await,
        (Protection::Cascading, None) => Ok(vec![(workload_pods(&object), "pods")]),
    };
    let verdict = match lost {
        Ok(lost) => refusal(&what, protection, &lost),
        Err(why) => Some(format!(
            "{what} is protected by {LABEL}={}: what deleting it would delete cannot be counted ({why})",
            protection.word()
        )),
    };
    let (response, result) = match verdict {
        None => (response, "allowed"),
        Some(message) => (response.deny(message), "denied"),
    };
    shared.metrics.admission("DELETE", kind, result);
    Json(response.into_review())
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn only_always_and_cascading_protect() {
        let labelled = |value: &str| json!({ "metadata": { "labels": { LABEL: value } } });
        assert_eq!(protection(&labelled("Always")), Some(Protection::Always));
        assert_eq!(protection(&labelled("Cascading")), Some(Protection::Cascading));
        assert_eq!(protection(&labelled("always")), None);
        assert_eq!(protection(&json!({ "metadata": {} })), None);
    }

    #[test]
    fn a_refusal_names_the_object_the_label_and_what_would_be_lost() {
        let always = refusal("CloneSet shop/web", Protection::Always, &[]).unwrap_or_default();
        assert!(
            always.contains("CloneSet shop/web")
                && always.contains("policy.kruise.io/delete-protection=Always")
        );
        let cascading = refusal(
            "Namespace shop",
            Protection::Cascading,
            &[(3, "active pods"), (0, "bound PersistentVolumeClaims")],
        )
        .unwrap_or_default();
        assert!(
            cascading.contains("=Cascading: deleting it would delete 3 active pods;"),
            "{cascading}"
        );
        assert_eq!(
            refusal("Namespace shop", Protection::Cascading, &[(0, "active pods")]),
            None
        );
    }

    #[test]
    fn a_workload_loses_its_replicas_or_the_pods_its_status_counts() {
        assert_eq!(workload_pods(&json!({ "spec": { "replicas": 3 } })), 3);
        assert_eq!(workload_pods(&json!({ "spec": { "replicas": 0 } })), 0);
        assert_eq!(
            workload_pods(&json!({ "spec": {}, "status": { "currentNumberScheduled": 4 } })),
            4
        );
        assert_eq!(
            workload_pods(&json!({ "spec": {}, "status": { "active": [{ "name": "a" }] } })),
            1
        );
        assert_eq!(workload_pods(&json!({ "spec": {} })), 0);
    }
}
