//! `/mutate-pod`: SidecarSet injection at pod creation. The pod webhook
//! fails open (`failurePolicy: Ignore`): a pod created while `run` is down is created
//! without its sidecars, and the SidecarSet's status and events say so (the controller).
//!
//! Invariants:
//! - The SidecarSets, Namespaces and their ControllerRevisions are read from caches
//!   (watches started with the server), never fetched per request. A pod that comes before
//!   those caches have their first lists (a configuration left by an earlier run on the
//!   same address) waits for them [`CACHES_WAIT`] at most, then is allowed unchanged with a
//!   warning: never decided from empty caches.
//! - A SidecarSet is injected with the hash annotations its controller writes for it,
//!   computed here when it has not written them yet (a pod injected with none would never
//!   count as updated).
//! - An unreadable SidecarSet injects nothing; a pod this handler cannot read is allowed
//!   unchanged with a warning.
//! - As upstream, a pod is refused, naming the SidecarSet and the field, when a matching
//!   SidecarSet cannot inject it: it pins a revision (`injectionStrategy.revision`) that
//!   does not exist, its `resourcesPolicy` finds no target container or an expression
//!   fails, or a `patchPodMetadata` merge meets an annotation that is not JSON.
use std::sync::Arc;

use axum::Json;
use axum::extract::State;
use k8s_openapi::api::core::v1::Pod;
use k8s_openapi::jiff::Timestamp;
use kube::core::DynamicObject;
use kube::core::admission::{AdmissionResponse, AdmissionReview, Operation};
use kube::runtime::reflector::ObjectRef;
use serde_json::Value;

use super::shared::{PodInjection, Shared};
use crate::api::sidecarset::SidecarSet;
use crate::workloads::sidecarset::pinned;
use crate::workloads::sidecarset::webhook::{Inputs, NotInjected, injection_patch};

fn decide(
    injection: &PodInjection,
    review_object: Option<Value>,
) -> Result<Option<json_patch::Patch>, NotInjected> {
    let Some(pod) = review_object else {
        return Ok(None);
    };
    let sets: Vec<Arc<SidecarSet>> = injection
        .sidecarsets
        .state()
        .iter()
        .filter_map(|d| d.object.as_ref().ok().cloned())
        .collect();
    if sets.is_empty() {
        return Ok(None);
    }
    let namespace = pod["metadata"]["namespace"]
        .as_str()
        .filter(|n| !n.is_empty())
        .unwrap_or("default")
        .to_string();
    let labels = injection
        .namespaces
        .get(&ObjectRef::new(&namespace))
        .and_then(|n| n.metadata.labels.clone());
    let refs: Vec<&SidecarSet> = sets.iter().map(AsRef::as_ref).collect();
    // Revisions are copied out of the cache only when some SidecarSet pins one (most pod
    // creates never need them).
    let pins = refs.iter().any(|s| {
        s.spec
            .injection_strategy
            .as_ref()
            .is_some_and(|i| i.revision.is_some())
    });
    let revisions: Vec<pinned::StoredRevision> = if pins {
        injection
            .revisions
            .state()
            .iter()
            .map(|r| pinned::StoredRevision::of(r))
            .collect()
    } else {
        Vec::new()
    };
    let now = Timestamp::now();
    let roll = {
        use std::hash::BuildHasher as _;
        (std::collections::hash_map::RandomState::new().hash_one(now.as_nanosecond()) % 100) as u32
    };
    let inputs = Inputs {
        sets: &refs,
        namespace_labels: labels.as_ref(),
        revisions: &revisions,
        roll,
        now,
    };
    injection_patch(&pod, &inputs)
}

/// How long a pod hook waits for the webhooks' caches' first lists: within the API server's
/// timeout for the call ([`super::registration::TIMEOUT_SECONDS`], 3 s).
pub const CACHES_WAIT: std::time::Duration = std::time::Duration::from_secs(2);

/// `pod` with `patch` applied (a patch computed on it always applies).
fn with_patch(mut pod: Value, patch: Option<json_patch::Patch>) -> Value {
    if let Some(patch) = patch
        && let Err(error) = json_patch::patch(&mut pod, &patch)
    {
        tracing::warn!(%error, "an injection patch did not apply to the pod it was made for");
    }
    pod
}

/// `/mutate-pod`.
pub async fn mutate_pod(
    State(shared): State<Shared>,
    Json(review): Json<AdmissionReview<DynamicObject>>,
) -> Json<AdmissionReview<DynamicObject>> {
    let request = match super::review::request(review) {
        Ok(request) => request,
        Err(answer) => return Json(*answer),
    };
    let response = AdmissionResponse::from(&request);
    let Some(injection) = shared
        .pods
        .as_ref()
        .filter(|_| request.operation == Operation::Create)
    else {
        return Json(response.into_review());
    };
    let Some(original) = request.object.as_ref().and_then(|o| serde_json::to_value(o).ok()) else {
        return Json(response.into_review());
    };
    if !shared.health.serving_within(CACHES_WAIT).await {
        let message = "kubectl-kruise did not inject sidecars: its caches have no first list yet";
        tracing::warn!(pod = %request.name, "{message}; the pod is created without its sidecars");
        let mut answer = response;
        answer.warnings = Some(vec![message.to_string()]);
        shared.metrics.admission("CREATE", "Pod", "error");
        return Json(answer.into_review());
    }
    // The WorkloadSpread first (its subset's patch may add what a SidecarSet selects), as
    // upstream orders them; a dry run places nothing (placing writes the spread's status).
    let spread = match request.dry_run || request.sub_resource.is_some() {
        true => Ok(None),
        false => {
            crate::workloads::workloadspread::webhook::place_pod(
                &injection.client,
                &injection.spreads,
                &original,
            )
            .await
        }
    };
    // A pod the SidecarSets cannot read still gets its subset (the spread counted it).
    let decided = spread.map_err(NotInjected::Refused).and_then(|placed| {
        let pod = placed.unwrap_or_else(|| original.clone());
        match decide(injection, Some(pod.clone())) {
            Ok(patch) => Ok((with_patch(pod, patch), None)),
            Err(NotInjected::Skipped(error)) => Ok((pod, Some(error))),
            Err(refused) => Err(refused),
        }
    });
    let (response, result) = match decided {
        Err(NotInjected::Refused(message) | NotInjected::Skipped(message)) => {
            let mut denied = response.deny(&message);
            denied.result = kube::core::response::Status::failure(&message, "Invalid").with_code(422);
            (denied, "denied")
        }
        Ok((pod, skipped)) => {
            let patch = json_patch::diff(&original, &pod);
            let mut answer = if patch.0.is_empty() {
                (response, "allowed")
            } else {
                match response.clone().with_patch(patch) {
                    Ok(patched) => (patched, "patched"),
                    Err(_) => (response, "error"),
                }
            };
            if let Some(error) = skipped {
                tracing::warn!(%error, "sidecar injection failed; the pod is created without its sidecars");
                answer.0.warnings = Some(vec![format!("kubectl-kruise did not inject sidecars: {error}")]);
                answer.1 = "error";
            }
            answer
        }
    };
    shared.metrics.admission("CREATE", "Pod", result);
    Json(response.into_review())
}

/// `/validate-pod`: a pod deleted (DELETE) or evicted (CREATE of `pods/eviction`) gives its
/// WorkloadSpread subset its room back. It never refuses by itself; a failed read or write
/// of the spread does, as upstream. Dry runs write nothing.
pub async fn validate_pod(
    State(shared): State<Shared>,
    Json(review): Json<AdmissionReview<DynamicObject>>,
) -> Json<AdmissionReview<DynamicObject>> {
    let request = match super::review::request(review) {
        Ok(request) => request,
        Err(answer) => return Json(*answer),
    };
    let response = AdmissionResponse::from(&request);
    let Some(injection) = shared.pods.as_ref().filter(|_| !request.dry_run) else {
        return Json(response.into_review());
    };
    // The spreads are read from a cache: a release waits for its first list (bounded).
    let _ = shared.health.serving_within(CACHES_WAIT).await;
    let eviction =
        request.operation == Operation::Create && request.sub_resource.as_deref() == Some("eviction");
    let deletion = request.operation == Operation::Delete && request.sub_resource.is_none();
    let namespace = request.namespace.clone().unwrap_or_else(|| "default".into());
    let pod: Option<Pod> = if deletion {
        request
            .old_object
            .as_ref()
            .and_then(|o| serde_json::to_value(o).ok())
            .and_then(|v| serde_json::from_value(v).ok())
    } else if eviction {
        let api: kube::Api<Pod> = kube::Api::namespaced(injection.client.clone(), &namespace);
        match api.get_opt(&request.name).await {
            Ok(pod) => pod,
            Err(error) => {
                let message = format!("reading pod {namespace}/{}: {error}", request.name);
                shared.metrics.admission("CREATE", "Eviction", "denied");
                return Json(response.deny(message).into_review());
            }
        }
    } else {
        None
    };
    let (operation, kind) = if eviction {
        ("CREATE", "Eviction")
    } else {
        ("DELETE", "Pod")
    };
    let Some(pod) = pod else {
        return Json(response.into_review());
    };
    let (response, result) = match crate::workloads::workloadspread::webhook::release_pod(
        &injection.client,
        &injection.spreads,
        &pod,
    )
    .await
    {
        Ok(()) => (response, "allowed"),
        Err(message) => (response.deny(message), "denied"),
    };
    shared.metrics.admission(operation, kind, result);
    Json(response.into_review())
}
