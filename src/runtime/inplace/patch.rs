//! The writes of an in-place update, as pure patch builders, in the order and wire format
//! of upstream's `pkg/util/inplaceupdate`
//! (<https://github.com/openkruise/kruise/tree/v1.9.0/pkg/util/inplaceupdate>). The
//! executor sends them; nothing here talks to the API server.
//!
//! Write order for one pod (the protocol's minimum, 3 writes, when no hook or grace is set):
//! ```text
//! 1. pods/status  InPlaceUpdateReady=False (and Ready=False)   -> endpoints drop the pod
//! 2. pods         revision label, state annotation, new images  -> kubelet restarts containers
//! 3. pods/status  InPlaceUpdateReady=True, once complete        -> kubelet marks it Ready
//! ```
//! With a grace period, write 2 carries the grace annotation instead of the images, and a
//! fourth write applies the images once the grace period is over. Containers with launch
//! priorities change in batches ([`super::priority`]): write 2 carries the first batch,
//! and each later batch is one more pod write ([`next_batch`]) once the one before is ready.
//!
//! Invariants:
//! - Status writes are strategic-merge patches of single conditions (merge key `type`), so
//!   the kubelet's own conditions are never overwritten with stale copies.
//! - The pod write carries the cached `resourceVersion`: a stale cache gets a conflict, never
//!   a lost update; it is retried from a fresh cache on the next reconcile.
//! - A metadata-only change (no image) restarts nothing, so it does not flip readiness.
use super::state::pod_condition as condition;
use std::collections::BTreeMap;

use k8s_openapi::api::core::v1::Pod;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};

use super::decide::MetadataChanges;
use super::priority;
use super::state::{
    GRACE_ANNOTATION, InPlaceUpdateState, LEGACY_GRACE_ANNOTATION, LEGACY_STATE_ANNOTATION, READINESS_GATE,
    RecordedStatus, STATE_ANNOTATION,
};
use crate::runtime::revision::REVISION_LABEL;

/// The pending spec while a grace period runs (`apps.kruise.io/inplace-update-grace`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct GraceSpec {
    pub revision: String,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub container_images: BTreeMap<String, String>,
    #[serde(default)]
    pub grace_seconds: i32,
}

impl GraceSpec {
    pub fn of(pod: &Pod) -> Option<Self> {
        let annotations = pod.metadata.annotations.as_ref()?;
        let text = annotations
            .get(GRACE_ANNOTATION)
            .or_else(|| annotations.get(LEGACY_GRACE_ANNOTATION))?;
        serde_json::from_str(text).ok()
    }
}

fn has_gate(pod: &Pod) -> bool {
    pod.spec
        .as_ref()
        .and_then(|s| s.readiness_gates.as_ref())
        .is_some_and(|g| g.iter().any(|g| g.condition_type == READINESS_GATE))
}

fn containers_ready(pod: &Pod) -> bool {
    condition(pod, "ContainersReady").is_some_and(|c| c.status == "True")
}

/// Write 1: `InPlaceUpdateReady=False`, and `Ready=False` when it is True now (the kubelet
/// would flip it on its next sync; doing it here drops the pod from endpoints at once).
/// None when the pod has no readiness gate (nothing to flip).
pub fn gate_false(pod: &Pod, now: &str) -> Option<Value> {
    if !has_gate(pod) {
        return None;
    }
    let mut conditions = vec![json!({
        "type": READINESS_GATE,
        "status": "False",
        "reason": "StartInPlaceUpdate",
        "lastTransitionTime": now,
    })];
    if condition(pod, "Ready").is_none_or(|c| c.status == "True") && containers_ready(pod) {
        conditions.push(json!({
            "type": "Ready",
            "status": "False",
            "reason": "ReadinessGatesNotReady",
            "message": format!("the status of pod readiness gate \"{READINESS_GATE}\" is not \"True\", but False"),
            "lastTransitionTime": now,
        }));
    }
    Some(json!({ "status": { "conditions": conditions } }))
}

/// Does the pod need write 3 (its gate is missing or not plainly True)?
pub fn needs_gate_true(pod: &Pod) -> bool {
    has_gate(pod)
        && condition(pod, READINESS_GATE).is_none_or(|c| {
            c.status != "True"
                || c.reason.as_deref().is_some_and(|r| !r.is_empty())
                || c.message.as_deref().is_some_and(|m| !m.is_empty())
        })
}

/// Write 3: `InPlaceUpdateReady=True`.
pub fn gate_true(now: &str) -> Value {
    json!({ "status": { "conditions": [{
        "type": READINESS_GATE,
        "status": "True",
        "reason": null,
        "message": null,
        "lastTransitionTime": now,
    }] } })
}

/// What write 2 changes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InPlaceUpdate<'a> {
    pub target_revision: &'a str,
    pub images: &'a BTreeMap<String, String>,
    pub metadata: &'a MetadataChanges,
    pub grace_seconds: i32,
    /// Workload labels to set (value) or remove (None), e.g. `pod-template-hash`.
    pub extra_labels: BTreeMap<String, Option<String>>,
    pub extra_annotations: BTreeMap<String, Option<String>>,
}

fn image_ids(pod: &Pod, containers: impl Iterator<Item = String>) -> BTreeMap<String, RecordedStatus> {
    let statuses = pod.status.as_ref().and_then(|s| s.container_statuses.as_ref());
    containers
        .map(|name| {
            let image_id = statuses
                .and_then(|list| list.iter().find(|s| s.name == name))
                .map(|s| s.image_id.clone())
                .unwrap_or_default();
            (name, RecordedStatus { image_id })
        })
        .collect()
}

/// Applies the first batch of `images` (by launch priority, see [`priority`]) to `state`
/// and returns the images to write into the pod now: the imageIDs those containers run
/// now are recorded (beside any recorded by an earlier batch), the rest is queued in
/// `nextContainerImages` behind a ready check of this batch, and `{timestamp, containers}`
/// is appended to `containerBatchesRecord`.
fn applied(
    state: &mut InPlaceUpdateState,
    pod: &Pod,
    images: &BTreeMap<String, String>,
    now: &str,
) -> BTreeMap<String, String> {
    let (first, later) = priority::first_batch(pod, images.keys());
    let (batch, next): (BTreeMap<String, String>, BTreeMap<String, String>) = images
        .iter()
        .map(|(k, v)| (k.clone(), v.clone()))
        .partition(|(name, _)| first.contains(name));
    let recorded = image_ids(pod, batch.keys().cloned());
    match state.last_container_statuses.as_mut() {
        Some(before) => before.extend(recorded),
        None => state.last_container_statuses = Some(recorded),
    }
    state.pre_check_before_next =
        (!later.is_empty()).then(|| json!({ "containersRequiredReady": first.iter().collect::<Vec<_>>() }));
    state.next_container_images = next;
    if !batch.is_empty() {
        let containers: Vec<&String> = batch.keys().collect();
        state
            .container_batches_record
            .push(json!({ "timestamp": now, "containers": containers }));
    }
    batch
}

/// The write that starts the next container batch of `pod`'s in-place update: once the
/// batch before it runs its new images and its containers are ready. None otherwise.
pub fn next_batch(pod: &Pod, state: &InPlaceUpdateState, now: &str) -> Option<Value> {
    if state.next_container_images.is_empty()
        || !super::state::is_batch_complete(pod, state)
        || !super::state::required_containers_ready(pod, state)
    {
        return None;
    }
    let mut next = state.clone();
    let images = std::mem::take(&mut next.next_container_images);
    let batch = applied(&mut next, pod, &images, now);
    Some(json!({
        "metadata": {
            "resourceVersion": pod.metadata.resource_version,
            "annotations": { STATE_ANNOTATION: next.to_annotation() },
        },
        "spec": { "containers": containers_patch(&batch) },
    }))
}

fn containers_patch(images: &BTreeMap<String, String>) -> Value {
    Value::Array(
        images
            .iter()
            .map(|(name, image)| json!({ "name": name, "image": image }))
            .collect(),
    )
}

fn set_map(map: &mut Map<String, Value>, key: &str, value: Option<String>) {
    map.insert(key.to_string(), value.map_or(Value::Null, Value::String));
}

/// Write 2: the strategic-merge patch of the pod.
pub fn update_pod(pod: &Pod, update: &InPlaceUpdate<'_>, now: &str) -> Value {
    let mut labels = Map::new();
    let mut annotations = Map::new();
    set_map(&mut labels, REVISION_LABEL, Some(update.target_revision.into()));
    for (k, v) in &update.metadata.labels_set {
        set_map(&mut labels, k, Some(v.clone()));
    }
    for k in &update.metadata.labels_removed {
        set_map(&mut labels, k, None);
    }
    for (k, v) in &update.extra_labels {
        set_map(&mut labels, k, v.clone());
    }
    for (k, v) in &update.metadata.annotations_set {
        set_map(&mut annotations, k, Some(v.clone()));
    }
    for k in &update.metadata.annotations_removed {
        set_map(&mut annotations, k, None);
    }
    for (k, v) in &update.extra_annotations {
        set_map(&mut annotations, k, v.clone());
    }
    let graced = update.grace_seconds > 0 && !update.images.is_empty();
    let mut batch = BTreeMap::new();
    let mut state = InPlaceUpdateState {
        revision: update.target_revision.into(),
        update_timestamp: now.into(),
        update_images: !update.images.is_empty(),
        ..InPlaceUpdateState::default()
    };
    if !graced {
        // The spec is applied now: record what runs and this batch (upstream records both
        // when it applies, so a pod in a grace period shows `lastContainerStatuses: null`).
        batch = applied(&mut state, pod, update.images, now);
    }
    set_map(&mut annotations, STATE_ANNOTATION, Some(state.to_annotation()));
    let has_legacy = pod
        .metadata
        .annotations
        .as_ref()
        .is_some_and(|a| a.contains_key(LEGACY_STATE_ANNOTATION));
    if has_legacy {
        set_map(&mut annotations, LEGACY_STATE_ANNOTATION, None);
    }
    let mut patch = json!({
        "metadata": {
            "resourceVersion": pod.metadata.resource_version,
            "labels": labels,
        }
    });
    if graced {
        let grace = GraceSpec {
            revision: update.target_revision.into(),
            container_images: update.images.clone(),
            grace_seconds: update.grace_seconds,
        };
        set_map(
            &mut annotations,
            GRACE_ANNOTATION,
            Some(serde_json::to_string(&grace).unwrap_or_default()),
        );
    } else {
        set_map(&mut annotations, GRACE_ANNOTATION, None);
        if !batch.is_empty() {
            patch["spec"] = json!({ "containers": containers_patch(&batch) });
        }
    }
    patch["metadata"]["annotations"] = Value::Object(annotations);
    patch
}

/// What to do with a pod in a grace period (`gracePeriodSeconds`): it already carries
/// the new revision label but keeps its old images until the period is over.
#[derive(Debug, Clone, PartialEq)]
pub enum GraceStep {
    /// The revision moved on: drop the annotation; the update path runs again.
    Drop(Value),
    /// Wait this many whole seconds.
    Wait(u64),
    /// The period is over: apply the images.
    Apply(Value),
}

/// The grace step for `pod`, if it is in a grace period. `elapsed` is the seconds since the
/// state's `updateTimestamp`.
pub fn grace_step(pod: &Pod, revision_label: Option<&str>, elapsed: i64, now: &str) -> Option<GraceStep> {
    let grace = GraceSpec::of(pod)?;
    let rv = json!(pod.metadata.resource_version);
    let drop_annotations = json!({ GRACE_ANNOTATION: null, LEGACY_GRACE_ANNOTATION: null });
    if revision_label != Some(grace.revision.as_str()) {
        return Some(GraceStep::Drop(
            json!({ "metadata": { "resourceVersion": rv, "annotations": drop_annotations } }),
        ));
    }
    let left = i64::from(grace.grace_seconds) - elapsed;
    if left > 0 {
        return Some(GraceStep::Wait(left.unsigned_abs()));
    }
    let mut state = InPlaceUpdateState::of(pod)
        .and_then(Result::ok)
        .unwrap_or_else(|| InPlaceUpdateState {
            revision: grace.revision.clone(),
            update_timestamp: now.into(),
            update_images: true,
            ..InPlaceUpdateState::default()
        });
    let batch = applied(&mut state, pod, &grace.container_images, now);
    let mut annotations = drop_annotations;
    annotations[STATE_ANNOTATION] = Value::String(state.to_annotation());
    Some(GraceStep::Apply(json!({
        "metadata": { "resourceVersion": rv, "annotations": annotations },
        "spec": { "containers": containers_patch(&batch) },
    })))
}

#[cfg(test)]
#[path = "patch_tests.rs"]
mod tests;
