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
use k8s_openapi::api::core::v1::PodTemplateSpec;
use k8s_openapi::apimachinery::pkg::apis::meta::v1::LabelSelector;
use kube::core::DynamicObject;
use kube::core::admission::{AdmissionRequest, AdmissionResponse, AdmissionReview, Operation};
use kube::core::response::Status;
use serde::de::DeserializeOwned;
use serde_json::Value;

use super::defaults;
use super::shared::Shared;
use crate::api::KruiseKind;
use crate::api::cloneset::CloneSet;
use crate::api::daemonset::DaemonSet;
use crate::api::sidecarset::SidecarSet;
use crate::api::statefulset::v1beta1::StatefulSet;
use crate::api::workloadspread::WorkloadSpread;
use crate::runtime::decoded::read;
use crate::workloads::common::refusals;
use crate::workloads::daemonset::round::Numbers;

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

/// Why an object of `kind` must be refused (None: it may be stored; a kind not ours is
/// not judged here). Pure.
pub fn validate_object(kind: &str, object: &Value) -> Option<String> {
    let kruise = KruiseKind::named(kind)?;
    match kruise {
        KruiseKind::CloneSet => judged::<CloneSet>(kind, object, |s| (&s.spec.selector, &s.spec.template)),
        // Both versions are read by the v1beta1 shape (a superset of v1alpha1).
        KruiseKind::StatefulSet => {
            judged::<StatefulSet>(kind, object, |s| (&s.spec.selector, &s.spec.template))
        }
        // Its update-strategy rules do not depend on the nodes (0 stands for them).
        KruiseKind::DaemonSet => judged::<DaemonSet>(kind, object, |s| (&s.spec.selector, &s.spec.template))
            .or_else(|| {
                read::<DaemonSet>(object)
                    .ok()
                    .and_then(|s| Numbers::of(&s, 0).err())
            }),
        KruiseKind::BroadcastJob => crate::workloads::broadcastjob::validation::refusal(object),
        KruiseKind::AdvancedCronJob => crate::workloads::cronjob::validation::refusal(object, None),
        // Alone: the conflicts with other SidecarSets are judged by `/validate`, which
        // has them cached.
        KruiseKind::SidecarSet => crate::workloads::sidecarset::validation::refusal(object, None, &[]),
        // Alone too: `/validate` adds the namespace's other spreads and the target.
        KruiseKind::WorkloadSpread => {
            crate::workloads::workloadspread::validation::refusal(object, None, &[], None)
        }
        KruiseKind::UnitedDeployment => crate::workloads::uniteddeployment::validation::refusal(object, None),
    }
}

/// Why an update of an object of `kind` to `object` from `old` must be refused (None: it
/// may be stored): what [`validate_object`] refuses, and fields upstream keeps immutable.
pub fn validate_update(kind: &str, object: &Value, old: &Value) -> Option<String> {
    match KruiseKind::named(kind)? {
        KruiseKind::AdvancedCronJob => crate::workloads::cronjob::validation::refusal(object, Some(old)),
        KruiseKind::WorkloadSpread => {
            crate::workloads::workloadspread::validation::refusal(object, Some(old), &[], None)
        }
        KruiseKind::UnitedDeployment => {
            crate::workloads::uniteddeployment::validation::refusal(object, Some(old))
        }
        // Nothing immutable beyond what a create is judged by.
        KruiseKind::CloneSet
        | KruiseKind::StatefulSet
        | KruiseKind::DaemonSet
        | KruiseKind::BroadcastJob
        | KruiseKind::SidecarSet => validate_object(kind, object),
    }
}

/// Reads `object` as a `K` (an unreadable one is refused naming the field) and judges its
/// selector and template as the planners do.
fn judged<K: DeserializeOwned>(
    kind: &str,
    object: &Value,
    parts: impl Fn(&K) -> (&LabelSelector, &PodTemplateSpec),
) -> Option<String> {
    let name = object["metadata"]["name"].as_str().unwrap_or_default();
    match read::<K>(object) {
        Err(error) => Some(format!("{kind} {name}: {error}")),
        Ok(read) => {
            let (selector, template) = parts(&read);
            let labels = template.metadata.as_ref().and_then(|m| m.labels.as_ref());
            refusals::selector(kind, name, selector, labels)
                .or_else(|| refusals::template(kind, name, template))
        }
    }
}

/// `/validate`: refuses what [`validate_object`] refuses, with code 422; a SidecarSet
/// also when it conflicts with another one (from the pod webhook's cache, when it runs).
pub async fn validate(State(shared): State<Shared>, Json(review): Json<Review>) -> Json<Review> {
    // The other SidecarSets are copied out of the cache only to judge a SidecarSet.
    let sidecarsets = |kind: &str| -> Vec<SidecarSet> {
        match (kind, shared.pods.as_ref()) {
            ("SidecarSet", Some(p)) => p
                .sidecarsets
                .state()
                .iter()
                .filter_map(|s| s.object.as_deref().ok().cloned())
                .collect(),
            _ => Vec::new(),
        }
    };
    let spread = spread_context(&shared, &review).await;
    let whitelist = whitelist_fault(&shared, &review).await;
    answer(&shared, review, |kind, object, old, response| {
        if let Some(message) = whitelist.clone().filter(|_| kind == "SidecarSet") {
            return deny(response, &message);
        }
        refusal(
            kind,
            object,
            old,
            response,
            &sidecarsets(kind),
            &spread,
            &shared.configuration,
        )
    })
}

/// A SidecarSet that patches pod metadata, judged against OpenKruise's whitelist in its
/// `kruise-configuration` ConfigMap (read only then, from the API server).
async fn whitelist_fault(shared: &Shared, review: &Review) -> Option<String> {
    use super::configuration::{CONFIGMAP, PATCH_METADATA_WHITELIST_KEY, patch_metadata_fault};
    let request = review.request.as_ref().filter(|r| r.kind.kind == "SidecarSet")?;
    let object = request
        .object
        .as_ref()
        .and_then(|o| serde_json::to_value(o).ok())?;
    let set: SidecarSet = serde_json::from_value(object).ok()?;
    if set.spec.patch_pod_metadata.as_ref().is_none_or(|p| p.is_empty()) {
        return None;
    }
    // A run scoped to a namespace judges by its whitelist only the SidecarSets scoped to it
    // (the others are any run's: every run's webhook sees cluster-scoped objects).
    if let Some(scope) = shared.scope.as_deref()
        && crate::workloads::sidecarset::matching::scoped_to(&set) != Some(scope)
    {
        return None;
    }
    let client = shared.pods.as_ref()?.client.clone();
    let at = format!("ConfigMap {}/{CONFIGMAP}", shared.system_namespace);
    let maps: kube::Api<k8s_openapi::api::core::v1::ConfigMap> =
        kube::Api::namespaced(client, &shared.system_namespace);
    let text = match maps.get_opt(CONFIGMAP).await {
        Ok(map) => map
            .and_then(|m| m.data)
            .and_then(|mut d| d.remove(PATCH_METADATA_WHITELIST_KEY)),
        Err(e) => {
            let name = set.metadata.name.as_deref().unwrap_or_default();
            return Some(format!("SidecarSet {name}: {at} cannot be read: {e}"));
        }
    };
    patch_metadata_fault(
        &set,
        text.as_deref(),
        &at,
        shared.features.patch_pod_metadata_defaults_allowed,
    )
}

fn deny(response: AdmissionResponse, message: &str) -> Decision {
    let mut denied = response.deny(message);
    denied.result = Status::failure(message, "Invalid").with_code(422);
    (denied, "denied")
}

/// What judging a WorkloadSpread needs besides itself: the other spreads of its namespace
/// (from the pod webhook's cache, when it runs) and its target, when it exists.
#[derive(Default)]
struct SpreadContext {
    others: Vec<WorkloadSpread>,
    target: Option<Value>,
}

async fn spread_context(shared: &Shared, review: &Review) -> SpreadContext {
    let Some(request) = review
        .request
        .as_ref()
        .filter(|r| r.kind.kind == "WorkloadSpread")
    else {
        return SpreadContext::default();
    };
    let Some(object) = request.object.as_ref().and_then(|o| serde_json::to_value(o).ok()) else {
        return SpreadContext::default();
    };
    let namespace = request.namespace.clone().unwrap_or_default();
    let Some(pods) = shared.pods.as_ref() else {
        return SpreadContext::default();
    };
    let others = pods
        .spreads
        .store
        .state()
        .iter()
        .filter(|d| d.meta.namespace.as_deref() == Some(namespace.as_str()))
        .filter_map(|d| d.object.as_deref().ok().cloned())
        .collect();
    let target = crate::workloads::workloadspread::webhook::target_of(
        &pods.client,
        &shared.configuration,
        &namespace,
        &object["spec"]["targetRef"],
    )
    .await;
    SpreadContext { others, target }
}

fn refusal(
    kind: &str,
    object: Option<Value>,
    old: Option<Value>,
    response: AdmissionResponse,
    sidecarsets: &[SidecarSet],
    spread: &SpreadContext,
    configuration: &crate::runtime::configuration::Configuration,
) -> Decision {
    let refused = object.and_then(|value| match (kind, &old) {
        ("SidecarSet", old) => {
            crate::workloads::sidecarset::validation::refusal(&value, old.as_ref(), sidecarsets)
        }
        ("WorkloadSpread", old) => crate::workloads::workloadspread::validation::refusal_among(
            &value,
            old.as_ref(),
            &spread.others,
            spread.target.as_ref(),
            configuration,
        ),
        (_, Some(old)) => validate_update(kind, &value, old),
        (_, None) => validate_object(kind, &value),
    });
    match refused {
        None => (response, "allowed"),
        Some(message) => deny(response, &message),
    }
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
