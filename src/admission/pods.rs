//! `/mutate-pod` and `/validate-pod`: the kinds' pod hooks ([`PodHook`], each kind's own,
//! from the registry) at pod create, delete, eviction and update. The pod webhooks fail open
//! (`failurePolicy: Ignore`): a pod created while `run` is down is created without what
//! the hooks would have changed, and the kinds' controllers say so in status and events.
//!
//! Invariants:
//! - The hooks answer from their own caches, never fetched per request. A pod that comes
//!   before those caches have their first lists (a configuration left by an earlier run on
//!   the same address) waits for them [`CACHES_WAIT`] at most, then is allowed unchanged
//!   with a warning: never decided from empty caches.
//! - At create the hooks run in their [`Stage`] order, each on the pod as the previous ones
//!   left it; the answer is the patch from the pod as sent to the pod as they left it. A
//!   hook's refusal refuses the pod (code 422, naming the object and the field); a hook
//!   that skips the pod leaves it unchanged by that hook, with a warning.
//! - A dry run writes nothing: hooks that write (a placement) change nothing, removals
//!   are not recorded, and a budget judges without recording.
//!
//! [`PodHook`]: crate::workloads::pod_hooks::PodHook
//! [`Stage`]: crate::workloads::pod_hooks::Stage
use axum::Json;
use axum::extract::State;
use k8s_openapi::api::core::v1::Pod;
use kube::core::DynamicObject;
use kube::core::admission::{AdmissionResponse, AdmissionReview, Operation};

use super::shared::{PodHooks, Shared};
use crate::workloads::pod_hooks::{Declined, Disruption};

/// How long a pod hook waits for the webhooks' caches' first lists: within the API server's
/// timeout for the call ([`super::registration::TIMEOUT_SECONDS`], 3 s).
pub const CACHES_WAIT: std::time::Duration = std::time::Duration::from_secs(2);

/// The pod as the hooks leave it, in order, with what they skipped; Err: a hook refused it.
async fn run_hooks(
    hooks: &PodHooks,
    original: &serde_json::Value,
    writes: bool,
) -> Result<(serde_json::Value, Vec<String>), String> {
    let mut pod = original.clone();
    let mut skipped = Vec::new();
    for hook in hooks.in_order() {
        match hook.at_create(&pod, writes).await {
            Ok(Some(changed)) => pod = changed,
            Ok(None) => {}
            Err(Declined::Skipped(error)) => skipped.push(error),
            Err(Declined::Refused(message)) => return Err(message),
        }
    }
    Ok((pod, skipped))
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
    let Some(hooks) = shared
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
        let message =
            "kubectl-kruise did not place the pod or inject sidecars: its caches have no first list yet";
        tracing::warn!(pod = %request.name, "{message}; the pod is created unchanged");
        let mut answer = response;
        answer.warnings = Some(vec![message.to_string()]);
        shared.metrics.admission("CREATE", "Pod", "error");
        return Json(answer.into_review());
    }
    // Each kind's hook on the pod as the previous ones left it (in stage order); a dry
    // run writes nothing.
    let writes = !(request.dry_run || request.sub_resource.is_some());
    let (response, result) = match run_hooks(hooks, &original, writes).await {
        Err(message) => {
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
            if !skipped.is_empty() {
                for error in &skipped {
                    tracing::warn!(%error, "a pod hook skipped the pod; it is created without that change");
                }
                answer.0.warnings = Some(skipped.iter().map(|e| format!("kubectl-kruise {e}")).collect());
                answer.1 = "error";
            }
            answer
        }
    };
    shared.metrics.admission("CREATE", "Pod", result);
    Json(response.into_review())
}

/// `/validate-pod`: a pod deleted (DELETE), evicted (CREATE of `pods/eviction`) or changed
/// (UPDATE) is judged by each hook (a PodUnavailableBudget refuses what exceeds it), then a
/// pod deleted or evicted is told to each hook (a WorkloadSpread's subset gets its room
/// back). It never refuses by itself; a hook's refusal or failed read or write does, as
/// upstream. Dry runs are judged and write nothing.
pub async fn validate_pod(
    State(shared): State<Shared>,
    Json(review): Json<AdmissionReview<DynamicObject>>,
) -> Json<AdmissionReview<DynamicObject>> {
    let request = match super::review::request(review) {
        Ok(request) => request,
        Err(answer) => return Json(*answer),
    };
    let response = AdmissionResponse::from(&request);
    let Some(hooks) = shared.pods.as_ref() else {
        return Json(response.into_review());
    };
    let eviction =
        request.operation == Operation::Create && request.sub_resource.as_deref() == Some("eviction");
    let deletion = request.operation == Operation::Delete && request.sub_resource.is_none();
    let update = request.operation == Operation::Update && request.sub_resource.is_none();
    if !(eviction || deletion || update) {
        return Json(response.into_review());
    }
    // The hooks answer from caches: wait for their first lists (bounded).
    let _ = shared.health.serving_within(CACHES_WAIT).await;
    let namespace = request.namespace.clone().unwrap_or_else(|| "default".into());
    let typed = |object: Option<&DynamicObject>| -> Option<Pod> {
        object
            .and_then(|o| serde_json::to_value(o).ok())
            .and_then(|v| serde_json::from_value(v).ok())
    };
    let (operation, kind) = match (eviction, update) {
        (true, _) => ("CREATE", "Eviction"),
        (_, true) => ("UPDATE", "Pod"),
        _ => ("DELETE", "Pod"),
    };
    let pod: Option<Pod> = if eviction {
        let api: kube::Api<Pod> = kube::Api::namespaced(hooks.client.clone(), &namespace);
        match api.get_opt(&request.name).await {
            Ok(pod) => pod,
            Err(error) => {
                let message = format!("reading pod {namespace}/{}: {error}", request.name);
                shared.metrics.admission(operation, kind, "denied");
                return Json(response.deny(message).into_review());
            }
        }
    } else {
        typed(request.old_object.as_ref())
    };
    let Some(pod) = pod else {
        return Json(response.into_review());
    };
    let changed = if update {
        typed(request.object.as_ref())
    } else {
        None
    };
    let disruption = match (&changed, eviction) {
        (Some(new), _) => Disruption::Update(new),
        (None, true) => Disruption::Evict,
        (None, false) if deletion => Disruption::Delete,
        (None, false) => return Json(response.into_review()),
    };
    let writes = !request.dry_run;
    let mut verdict = Ok(());
    for hook in hooks.in_order() {
        verdict = hook.judge(&pod, disruption, writes).await;
        if verdict.is_err() {
            break;
        }
    }
    if verdict.is_ok() && writes && !update {
        for hook in hooks.in_order() {
            verdict = hook.at_removal(&pod).await;
            if verdict.is_err() {
                break;
            }
        }
    }
    let (response, result) = match verdict {
        Ok(()) => (response, "allowed"),
        Err(message) => (response.deny(message), "denied"),
    };
    shared.metrics.admission(operation, kind, result);
    Json(response.into_review())
}
