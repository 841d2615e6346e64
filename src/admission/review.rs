//! The admission endpoints: `/mutate` writes the defaults of [`super::defaults`] back as a
//! JSON patch; `/validate` refuses what the CRDs' CEL rules cannot express
//! ([`validate_object`], pure). Each call is counted (`kruise_admission_total`).
//!
//! Invariants: a request this server cannot read is answered (allowed, with a warning),
//! never left hanging, so a malformed call costs the API server nothing but the call; a
//! refusal names the object and the field, with code 422 as upstream's webhook answers;
//! only kinds this module knows are ever changed or refused (the configurations only send
//! those).
use axum::Json;
use axum::extract::State;
use kube::core::DynamicObject;
use kube::core::admission::{AdmissionRequest, AdmissionResponse, AdmissionReview, Operation};
use kube::core::response::Status;
use serde_json::Value;

use super::defaults;
use super::shared::Shared;
use crate::api::KruiseKind;
use crate::workloads::facts::{ConfigurationEntry, KindFacts, Peers};

type Review = AdmissionReview<DynamicObject>;

fn operation(op: &Operation) -> &'static str {
    match op {
        Operation::Create => "CREATE",
        Operation::Update => "UPDATE",
        Operation::Delete => "DELETE",
        Operation::Connect => "CONNECT",
    }
}

/// The request, or the answer for one that cannot be read (allowed, with a warning).
pub(super) fn request(review: Review) -> Result<AdmissionRequest<DynamicObject>, Box<Review>> {
    review
        .try_into()
        .map_err(|error: kube::core::admission::ConvertAdmissionReviewError| {
            let mut response = AdmissionResponse::invalid(error.to_string());
            response.allowed = true;
            response.warnings = Some(vec![format!(
                "kubectl-kruise could not read the request: {error}"
            )]);
            Box::new(response.into_review())
        })
}

/// What one call decided: the answer and its result (`kruise_admission_total`'s label).
type Decision = (AdmissionResponse, &'static str);

/// Reads the call, lets `decide` answer it from the kind and the object, counts it.
fn answer(
    shared: &Shared,
    review: Review,
    decide: impl FnOnce(&str, Option<Value>, Option<Value>, AdmissionResponse) -> Decision,
) -> Json<Review> {
    let request = match request(review) {
        Ok(request) => request,
        Err(answer) => return Json(*answer),
    };
    let kind = request.kind.kind.clone();
    let object = request.object.as_ref().and_then(|o| serde_json::to_value(o).ok());
    let old = request
        .old_object
        .as_ref()
        .and_then(|o| serde_json::to_value(o).ok());
    let (response, result) = decide(&kind, object, old, AdmissionResponse::from(&request));
    shared
        .metrics
        .admission(operation(&request.operation), &kind, result);
    Json(response.into_review())
}

/// `/mutate`: the defaults of the object's kind, as a JSON patch.
pub async fn mutate(State(shared): State<Shared>, Json(review): Json<Review>) -> Json<Review> {
    answer(&shared, review, defaults_patch)
}

fn defaults_patch(
    kind: &str,
    object: Option<Value>,
    old: Option<Value>,
    response: AdmissionResponse,
) -> Decision {
    let Some(before) = object else {
        return (response, "allowed");
    };
    // As upstream: the template is defaulted on create, and on update only when it changed.
    let template_changed = old
        .as_ref()
        .is_none_or(|old| old["spec"]["template"] != before["spec"]["template"]);
    let Some(after) = defaults::of(kind, &before, old.as_ref(), template_changed) else {
        return (response, "allowed");
    };
    let patch = json_patch::diff(&before, &after);
    if patch.0.is_empty() {
        return (response, "allowed");
    }
    match response.clone().with_patch(patch) {
        Ok(patched) => (patched, "patched"),
        Err(error) => {
            tracing::warn!(%error, "could not encode a defaults patch; allowing unchanged");
            (response, "error")
        }
    }
}

/// Why an object of `kind` must be refused, judged alone (None: it may be stored; a kind
/// not ours is not judged here). Pure.
pub fn validate_object(kind: &str, object: &Value) -> Option<String> {
    facts(kind)?.refusal(object, None, &Peers::default())
}

/// Why an update of an object of `kind` to `object` from `old` must be refused, judged
/// alone (None: it may be stored): what [`validate_object`] refuses, and fields upstream
/// keeps immutable.
pub fn validate_update(kind: &str, object: &Value, old: &Value) -> Option<String> {
    facts(kind)?.refusal(object, Some(old), &Peers::default())
}

fn facts(kind: &str) -> Option<&'static dyn KindFacts> {
    KruiseKind::named(kind).map(crate::workloads::registry::facts)
}

/// `/validate`: refuses what [`validate_object`] refuses, with code 422, and what the
/// kind's facts judge against what the webhook gathers for it ([`peers`]).
pub async fn validate(State(shared): State<Shared>, Json(review): Json<Review>) -> Json<Review> {
    let peers = peers(&shared, &review).await;
    answer(&shared, review, |kind, object, old, response| {
        let refused = object.and_then(|value| facts(kind)?.refusal(&value, old.as_ref(), &peers));
        match refused {
            None => (response, "allowed"),
            Some(message) => deny(response, &message),
        }
    })
}

/// What the kind of the object under review asks to be judged with: the other objects of
/// its kind (from its pod hook's cache, when the pod webhooks run), the workload it targets, and an
/// entry of OpenKruise's `kruise-configuration` (read only then, from the API server).
async fn peers<'a>(shared: &'a Shared, review: &Review) -> Peers<'a> {
    let mut peers = Peers {
        configuration: Some(&shared.configuration),
        features: Some(&shared.features),
        ..Peers::default()
    };
    let (Some(request), Some(pods)) = (review.request.as_ref(), shared.pods.as_ref()) else {
        return peers;
    };
    // Most kinds are judged alone: their object is not even read here.
    let Some(kind) = KruiseKind::named(&request.kind.kind)
        .filter(|k| crate::workloads::registry::facts(*k).judged_in_context())
    else {
        return peers;
    };
    let Some(object) = request.object.as_ref().and_then(|o| serde_json::to_value(o).ok()) else {
        return peers;
    };
    let facts = crate::workloads::registry::facts(kind);
    let namespace = request.namespace.clone().unwrap_or_default();
    // Its peers and its target come from its pod hook (its cache, its reader).
    if let Some(hook) = pods.of(kind) {
        peers.others = hook.stored(&namespace);
        if let Some(reference) = facts.target_ref(&object) {
            peers.target = hook.target(&namespace, reference).await;
        }
    }
    if let Some(key) = facts.configuration_key(&object, shared.scope.as_deref()) {
        peers.entry = Some(configuration_entry(shared, &pods.client, key).await);
    }
    peers
}

/// The entry `key` of OpenKruise's `kruise-configuration` in the run's system namespace.
async fn configuration_entry(shared: &Shared, client: &kube::Client, key: &str) -> ConfigurationEntry {
    use crate::runtime::configuration::CONFIGMAP;
    let at = format!("ConfigMap {}/{CONFIGMAP}", shared.system_namespace);
    let maps: kube::Api<k8s_openapi::api::core::v1::ConfigMap> =
        kube::Api::namespaced(client.clone(), &shared.system_namespace);
    let text = match maps.get_opt(CONFIGMAP).await {
        Ok(map) => Ok(map.and_then(|m| m.data).and_then(|mut d| d.remove(key))),
        Err(e) => Err(e.to_string()),
    };
    ConfigurationEntry { at, text }
}

fn deny(response: AdmissionResponse, message: &str) -> Decision {
    let mut denied = response.deny(message);
    denied.result = Status::failure(message, "Invalid").with_code(422);
    (denied, "denied")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn cloneset(selector: Value, labels: Value) -> Value {
        json!({ "apiVersion": "apps.kruise.io/v1alpha1", "kind": "CloneSet",
            "metadata": { "name": "web" },
            "spec": { "selector": selector,
                "template": { "metadata": { "labels": labels },
                    "spec": { "containers": [{ "name": "app", "image": "nginx" }] } } } })
    }

    #[test]
    fn a_selector_that_misses_the_template_is_refused_naming_the_field() {
        let ok = cloneset(
            json!({ "matchLabels": { "app": "web" } }),
            json!({ "app": "web" }),
        );
        assert_eq!(validate_object("CloneSet", &ok), None);
        let expressions = cloneset(
            json!({ "matchExpressions": [{ "key": "app", "operator": "In", "values": ["api"] }] }),
            json!({ "app": "web" }),
        );
        let message = validate_object("CloneSet", &expressions).expect("refused");
        assert!(message.starts_with("CloneSet web: spec.selector"), "{message}");
        let mut asts = ok.clone();
        asts["apiVersion"] = json!("apps.kruise.io/v1beta1");
        asts["kind"] = json!("StatefulSet");
        asts["spec"]["template"]["spec"]["restartPolicy"] = json!("OnFailure");
        let message = validate_object("StatefulSet", &asts).expect("refused");
        assert!(message.contains("spec.template.spec.restartPolicy"), "{message}");
        assert_eq!(
            validate_object("NodeImage", &asts),
            None,
            "kinds without a controller are not judged here"
        );
    }

    #[test]
    fn a_daemonset_with_both_budgets_is_refused_naming_the_field() {
        let ds = json!({ "apiVersion": "apps.kruise.io/v1alpha1", "kind": "DaemonSet",
            "metadata": { "name": "agent" },
            "spec": { "selector": { "matchLabels": { "app": "a" } },
                "template": { "metadata": { "labels": { "app": "a" } }, "spec": { "containers": [] } },
                "updateStrategy": { "rollingUpdate": { "maxUnavailable": 1, "maxSurge": 1 } } } });
        let message = validate_object("DaemonSet", &ds).expect("refused");
        assert!(
            message.contains("DaemonSet agent: spec.updateStrategy.rollingUpdate.maxUnavailable"),
            "{message}"
        );
        let mut ok = ds.clone();
        ok["spec"]["updateStrategy"]["rollingUpdate"] = json!({ "maxUnavailable": 1 });
        assert_eq!(validate_object("DaemonSet", &ok), None);
    }

    #[test]
    fn an_unreadable_object_is_refused_naming_the_bad_field() {
        let mut bad = cloneset(
            json!({ "matchLabels": { "app": "web" } }),
            json!({ "app": "web" }),
        );
        bad["spec"]["replicas"] = json!("three");
        let message = validate_object("CloneSet", &bad).expect("refused");
        assert!(message.contains("spec.replicas"), "{message}");
    }
}
