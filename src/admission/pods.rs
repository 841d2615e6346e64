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
use std::borrow::Cow;
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
use crate::workloads::sidecarset::{hash, inject, matching, pinned};

/// Why a pod is not injected.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NotInjected {
    /// The pod is refused (a pinned revision that cannot be found, as upstream).
    Refused(String),
    /// The pod is created without the sidecars, with a warning (it or a SidecarSet cannot
    /// be read).
    Skipped(String),
}

/// What the pod webhook reads besides the pod.
pub struct Inputs<'a> {
    pub sets: &'a [&'a SidecarSet],
    pub namespace_labels: Option<&'a std::collections::BTreeMap<String, String>>,
    /// The SidecarSets' cached ControllerRevisions (for a pinned revision).
    pub revisions: &'a [pinned::StoredRevision],
    /// A number in 0..100 drawn for this pod (a `Partial` pin's percent).
    pub roll: u32,
    pub now: Timestamp,
}

/// The set to inject as it stands once its controller wrote its hash annotations: a set
/// created a moment ago (or just changed) may not have them yet, and a pod injected with
/// none (or the old ones) would never count as updated, nor be upgradable in place. A
/// pinned revision's set is injected as stored.
fn current_hashes(set: Cow<'_, SidecarSet>) -> Cow<'_, SidecarSet> {
    match set {
        Cow::Borrowed(current) => Cow::Owned(hash::with_fresh_annotations(current).0),
        pinned => pinned,
    }
}

/// The JSON patch that injects `pod` (None: nothing to inject). Pure.
pub fn injection_patch(
    pod_value: &Value,
    inputs: &Inputs<'_>,
) -> Result<Option<json_patch::Patch>, NotInjected> {
    let skipped = |e: String| NotInjected::Skipped(e);
    let pod: Pod = serde_json::from_value(pod_value.clone())
        .map_err(|e| skipped(format!("the pod cannot be read: {e}")))?;
    let chosen = matching::injecting(inputs.sets, &pod, inputs.namespace_labels);
    let versions = chosen
        .iter()
        .map(|set| pinned::to_inject(set, &pod, inputs.revisions, inputs.roll).map(current_hashes))
        .collect::<Result<Vec<_>, _>>()
        .map_err(NotInjected::Refused)?;
    let chosen: Vec<&SidecarSet> = versions.iter().map(AsRef::as_ref).collect();
    // A SidecarSet that cannot inject refuses the pod, as upstream (the message names it).
    let Some(injected) = inject::inject(&pod, &chosen, inputs.now).map_err(NotInjected::Refused)? else {
        return Ok(None);
    };
    let after = serde_json::to_value(&injected).map_err(|e| skipped(e.to_string()))?;
    // Only what injection changed: the pod as sent, with the new fields.
    let mut target = pod_value.clone();
    for key in ["metadata", "spec"] {
        let diff = crate::runtime::merge_patch::diff(
            &serde_json::to_value(&pod).unwrap_or(Value::Null)[key],
            &after[key],
        );
        json_patch::merge(&mut target[key], &diff);
    }
    let patch = json_patch::diff(pod_value, &target);
    Ok((!patch.0.is_empty()).then_some(patch))
}

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
        false => super::spread::place_pod(&injection.client, &injection.spreads, &original).await,
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
    let (response, result) =
        match super::spread::release_pod(&injection.client, &injection.spreads, &pod).await {
            Ok(()) => (response, "allowed"),
            Err(message) => (response.deny(message), "denied"),
        };
    shared.metrics.admission(operation, kind, result);
    Json(response.into_review())
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn inputs<'a>(sets: &'a [&'a SidecarSet]) -> Inputs<'a> {
        Inputs {
            sets,
            namespace_labels: None,
            revisions: &[],
            roll: 0,
            now: "2026-12-04T12:00:00Z".parse().expect("t"),
        }
    }

    #[test]
    fn the_patch_adds_the_sidecar_and_leaves_what_the_pod_had() {
        let set: SidecarSet = serde_json::from_value(
            json!({ "apiVersion": "apps.kruise.io/v1alpha1", "kind": "SidecarSet",
            "metadata": { "name": "log", "annotations": { "kruise.io/sidecarset-hash": "h" } },
            "spec": { "selector": { "matchLabels": { "app": "web" } },
                "containers": [{ "name": "log", "image": "fluentbit:1" }] } }),
        )
        .expect("set");
        // As the API server sends it: fields our types would not write back stay untouched.
        let pod = json!({ "apiVersion": "v1", "kind": "Pod",
            "metadata": { "generateName": "web-", "namespace": "shop", "labels": { "app": "web" } },
            "spec": { "containers": [{ "name": "app", "image": "nginx", "resources": {} }] } });
        let sets = [&set];
        let inputs = inputs(&sets);
        let patch = injection_patch(&pod, &inputs).expect("ok").expect("a patch");
        let mut patched = pod.clone();
        json_patch::patch(&mut patched, &patch).expect("applies");
        let names: Vec<&str> = patched["spec"]["containers"]
            .as_array()
            .expect("containers")
            .iter()
            .filter_map(|c| c["name"].as_str())
            .collect();
        assert_eq!(names, ["log", "app"]);
        assert_eq!(
            patched["spec"]["containers"][1]["resources"],
            json!({}),
            "kept as sent"
        );
        assert_eq!(
            patched["metadata"]["annotations"]["kruise.io/sidecarset-injected-list"],
            "log"
        );
        let other = json!({ "apiVersion": "v1", "kind": "Pod",
            "metadata": { "namespace": "shop", "labels": { "app": "api" } },
            "spec": { "containers": [{ "name": "app", "image": "nginx" }] } });
        assert!(injection_patch(&other, &inputs).expect("ok").is_none());
    }

    #[test]
    fn a_set_its_controller_has_not_hashed_yet_injects_the_hashes_it_will_write() {
        let set: SidecarSet = serde_json::from_value(
            json!({ "apiVersion": "apps.kruise.io/v1alpha1", "kind": "SidecarSet",
            "metadata": { "name": "mesh" },
            "spec": { "selector": { "matchLabels": { "app": "web" } },
                "containers": [{ "name": "mesh", "image": "envoy:1" }] } }),
        )
        .expect("set");
        let pod = json!({ "apiVersion": "v1", "kind": "Pod",
            "metadata": { "namespace": "shop", "labels": { "app": "web" } },
            "spec": { "containers": [{ "name": "app", "image": "nginx" }] } });
        let sets = [&set];
        let inputs = inputs(&sets);
        let patch = injection_patch(&pod, &inputs).expect("ok").expect("a patch");
        let mut patched = pod.clone();
        json_patch::patch(&mut patched, &patch).expect("applies");
        let entry = |key: &str| -> String {
            let text = patched["metadata"]["annotations"][key].as_str().expect(key);
            let hashes: Value = serde_json::from_str(text).expect("JSON");
            hashes["mesh"]["hash"].as_str().expect("hash").to_string()
        };
        let (with, without) = hash::hashes(&set);
        assert_eq!(entry(inject::HASH_ANNOTATION), with);
        assert_eq!(entry(inject::HASH_WITHOUT_IMAGE_ANNOTATION), without);
    }
}
