//! The in-place update state kept on the pod (`apps.kruise.io/inplace-update-state`), in
//! OpenKruise's wire format, and completion detection by the containers' images and
//! imageIDs alone (the node agent's runtime metadata is not read).
//!
//! Invariants: field names match upstream, so pods updated by OpenKruise's controller are
//! understood and vice versa; `lastContainerStatuses` is serialised even when empty (as
//! upstream does, `null`); an update is complete only when no grace period is pending,
//! no further container batch is queued, and every recorded container either reports a
//! new imageID or already reports the expected image.
use std::collections::BTreeMap;

use k8s_openapi::api::core::v1::Pod;
use serde::{Deserialize, Serialize};

pub const STATE_ANNOTATION: &str = "apps.kruise.io/inplace-update-state";
pub const GRACE_ANNOTATION: &str = "apps.kruise.io/inplace-update-grace";
/// Pre-1.0 names, read as a fallback.
pub const LEGACY_STATE_ANNOTATION: &str = "inplace-update-state";
pub const LEGACY_GRACE_ANNOTATION: &str = "inplace-update-grace";
pub const READINESS_GATE: &str = "InPlaceUpdateReady";

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct RecordedStatus {
    #[serde(rename = "imageID", default)]
    pub image_id: String,
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct InPlaceUpdateState {
    pub revision: String,
    pub update_timestamp: String,
    /// Serialised even when absent (upstream writes `null`).
    pub last_container_statuses: Option<BTreeMap<String, RecordedStatus>>,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub update_env_from_metadata: bool,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub update_resources: bool,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub update_images: bool,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub next_container_images: BTreeMap<String, String>,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub next_container_ref_metadata: BTreeMap<String, serde_json::Value>,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub next_container_resources: BTreeMap<String, serde_json::Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pre_check_before_next: Option<serde_json::Value>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub container_batches_record: Vec<serde_json::Value>,
}

/// The pod's condition of type `kind`, if any.
pub fn pod_condition<'p>(pod: &'p Pod, kind: &str) -> Option<&'p k8s_openapi::api::core::v1::PodCondition> {
    pod.status
        .as_ref()?
        .conditions
        .as_ref()?
        .iter()
        .find(|c| c.type_ == kind)
}

fn annotation<'p>(pod: &'p Pod, key: &str, legacy: &str) -> Option<&'p String> {
    let annotations = pod.metadata.annotations.as_ref()?;
    annotations.get(key).or_else(|| annotations.get(legacy))
}

impl InPlaceUpdateState {
    /// The pod's state, if it has one; an unreadable annotation counts as none (it is
    /// rewritten by the next update), and the caller may log `Err` for the event.
    pub fn of(pod: &Pod) -> Option<Result<Self, serde_json::Error>> {
        annotation(pod, STATE_ANNOTATION, LEGACY_STATE_ANNOTATION).map(|text| serde_json::from_str(text))
    }

    pub fn to_annotation(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }
}

/// True while a grace period is pending (the spec is not applied yet).
pub fn in_grace_period(pod: &Pod) -> bool {
    annotation(pod, GRACE_ANNOTATION, LEGACY_GRACE_ANNOTATION).is_some()
}

/// The image the kubelet reports for `image`: Docker's `:latest` when no tag is given.
fn expected_image(image: &str) -> String {
    let last = image.rsplit('/').next().unwrap_or(image);
    if last.contains(':') || last.contains('@') {
        image.to_string()
    } else {
        format!("{image}:latest")
    }
}

/// Is the in-place update recorded in `state` finished on `pod`? (no container batch left,
/// and every changed container reports a new imageID or the expected image)
pub fn is_update_complete(pod: &Pod, state: &InPlaceUpdateState) -> bool {
    state.next_container_images.is_empty() && is_batch_complete(pod, state)
}

/// Do the containers the last batch required ready (`preCheckBeforeNext`) report ready?
pub fn required_containers_ready(pod: &Pod, state: &InPlaceUpdateState) -> bool {
    let required = state
        .pre_check_before_next
        .as_ref()
        .and_then(|p| p.get("containersRequiredReady"))
        .and_then(|list| list.as_array());
    let statuses = pod.status.as_ref().and_then(|s| s.container_statuses.as_deref());
    required.into_iter().flatten().all(|name| {
        statuses
            .unwrap_or_default()
            .iter()
            .any(|s| name.as_str() == Some(s.name.as_str()) && s.ready)
    })
}

/// Do the containers changed so far run their new images (no grace period pending)?
pub fn is_batch_complete(pod: &Pod, state: &InPlaceUpdateState) -> bool {
    if in_grace_period(pod) {
        return false;
    }
    let Some(recorded) = state.last_container_statuses.as_ref() else {
        return true;
    };
    let spec: BTreeMap<&str, String> = pod
        .spec
        .iter()
        .flat_map(|s| &s.containers)
        .map(|c| {
            (
                c.name.as_str(),
                expected_image(c.image.as_deref().unwrap_or_default()),
            )
        })
        .collect();
    let statuses = pod.status.as_ref().and_then(|s| s.container_statuses.as_ref());
    recorded.iter().all(|(name, before)| {
        let Some(now) = statuses.and_then(|list| list.iter().find(|s| &s.name == name)) else {
            return false;
        };
        let same_id = now.image_id == before.image_id;
        let shows_new_image = spec
            .get(name.as_str())
            .is_some_and(|want| expected_image(&now.image) == *want);
        !same_id || shows_new_image
    })
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn pod(value: serde_json::Value) -> Pod {
        serde_json::from_value(value).expect("valid pod")
    }

    fn updating_pod(status_image: &str, status_id: &str, annotations: serde_json::Value) -> Pod {
        pod(json!({
            "metadata": { "name": "p", "annotations": annotations },
            "spec": { "containers": [ { "name": "app", "image": "nginx:2" } ] },
            "status": { "containerStatuses": [ { "name": "app", "image": status_image, "imageID": status_id,
                "ready": true, "restartCount": 1 } ] },
        }))
    }

    fn state() -> InPlaceUpdateState {
        let mut recorded = BTreeMap::new();
        recorded.insert(
            "app".to_string(),
            RecordedStatus {
                image_id: "id-1".into(),
            },
        );
        InPlaceUpdateState {
            revision: "web-2".into(),
            update_timestamp: "2026-12-02T00:00:00Z".into(),
            last_container_statuses: Some(recorded),
            update_images: true,
            ..Default::default()
        }
    }

    #[test]
    fn the_state_reads_and_writes_openkruise_wire_format() {
        let text = r#"{"revision":"web-2","updateTimestamp":"2026-12-02T00:00:00Z","lastContainerStatuses":{"app":{"imageID":"id-1"}},"updateImages":true}"#;
        let parsed: InPlaceUpdateState = serde_json::from_str(text).expect("parses upstream JSON");
        assert_eq!(parsed, state());
        assert_eq!(parsed.to_annotation(), text);
        let empty = InPlaceUpdateState {
            revision: "r".into(),
            ..Default::default()
        };
        assert!(empty.to_annotation().contains(r#""lastContainerStatuses":null"#));
    }

    #[test]
    fn the_legacy_annotation_is_read_as_a_fallback() {
        let p = updating_pod(
            "nginx:1",
            "id-1",
            json!({ LEGACY_STATE_ANNOTATION: state().to_annotation() }),
        );
        assert_eq!(InPlaceUpdateState::of(&p).and_then(Result::ok), Some(state()));
    }

    #[test]
    fn an_update_is_complete_when_the_image_id_changed() {
        assert!(is_update_complete(
            &updating_pod("nginx:2", "id-2", json!({})),
            &state()
        ));
    }

    #[test]
    fn an_update_is_complete_when_the_status_already_shows_the_new_image() {
        // Same digest under a new tag: the imageID does not change.
        assert!(is_update_complete(
            &updating_pod("nginx:2", "id-1", json!({})),
            &state()
        ));
    }

    #[test]
    fn an_update_is_pending_while_the_old_image_still_runs() {
        assert!(!is_update_complete(
            &updating_pod("nginx:1", "id-1", json!({})),
            &state()
        ));
    }

    #[test]
    fn an_update_is_pending_during_a_grace_period_or_with_a_queued_batch() {
        let grace = updating_pod("nginx:2", "id-2", json!({ GRACE_ANNOTATION: "{}" }));
        assert!(!is_update_complete(&grace, &state()));
        let mut queued = state();
        queued.next_container_images.insert("side".into(), "s:2".into());
        assert!(!is_update_complete(
            &updating_pod("nginx:2", "id-2", json!({})),
            &queued
        ));
    }

    #[test]
    fn a_recorded_container_without_status_is_not_complete() {
        let mut s = state();
        s.last_container_statuses
            .as_mut()
            .map(|m| m.insert("gone".into(), RecordedStatus::default()));
        assert!(!is_update_complete(
            &updating_pod("nginx:2", "id-2", json!({})),
            &s
        ));
    }

    #[test]
    fn an_untagged_image_is_expected_as_latest() {
        assert_eq!(expected_image("nginx"), "nginx:latest");
        assert_eq!(
            expected_image("registry:5000/team/app"),
            "registry:5000/team/app:latest"
        );
        assert_eq!(expected_image("app@sha256:abc"), "app@sha256:abc");
    }
}
