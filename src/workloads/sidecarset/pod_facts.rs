//! What a SidecarSet reads on a pod it selects, shared by its status ([`super::status`]),
//! its upgrade ([`super::plan_update`]) and the CLI views: whether it injected the pod,
//! whether the pod runs its latest sidecars, whether they have started with the images the
//! pod's spec names (judged by the imageIDs recorded at the upgrade), and whether the pod is
//! ready. Pure.
//!
//! Invariants: a hot-upgrade sidecar counts as both halves and the working-half entry;
//! "started" compares a container's status with the imageID it ran before the upgrade
//! (a digest image compares digests); a pod with a hot-upgrade flip pending is not ready.
use std::collections::BTreeMap;

use k8s_openapi::api::core::v1::{ContainerStatus, Pod};
use k8s_openapi::apimachinery::pkg::apis::meta::v1::Time;
use kube::ResourceExt;
use serde::{Deserialize, Serialize};

use super::hot;
use super::inject::{HASH_ANNOTATION, INJECTED_LIST_ANNOTATION, read_hashes};
use crate::api::sidecarset::{SidecarSet, is_native_sidecar};
pub use crate::workloads::common::availability::running_ready;

/// Did `set` inject `pod` (its name listed, every sidecar present)?
pub fn injected(set: &SidecarSet, pod: &Pod) -> bool {
    let name = set.name_any();
    let listed = pod
        .annotations()
        .get(INJECTED_LIST_ANNOTATION)
        .is_some_and(|l| l.split(',').any(|n| n == name));
    let spec = pod.spec.as_ref();
    let has = |container: &str, init: bool| {
        let list = if init {
            spec.and_then(|s| s.init_containers.as_ref())
        } else {
            spec.map(|s| &s.containers)
        };
        list.is_some_and(|l| l.iter().any(|c| c.name == container))
    };
    let working = super::hot::working(pod);
    let present = |c: &crate::api::sidecarset::SidecarContainer, init: bool| {
        if super::hot::is_hot(c) {
            let (one, two) = super::hot::halves(&c.container.name);
            has(&one, init) && has(&two, init) && working.contains_key(&c.container.name)
        } else {
            has(&c.container.name, init)
        }
    };
    listed
        && set.spec.containers.iter().flatten().all(|c| present(c, false))
        && set
            .spec
            .init_containers
            .iter()
            .flatten()
            .filter(|c| is_native_sidecar(&c.container))
            .all(|c| present(c, true))
}

/// Is `pod` at the set's current hash?
pub fn updated(set: &SidecarSet, pod: &Pod) -> bool {
    let Some(hash) = set.annotations().get(HASH_ANNOTATION) else {
        return false;
    };
    read_hashes(pod.annotations().get(HASH_ANNOTATION))
        .ok()
        .and_then(|h| h.get(&set.name_any()).map(|e| &e.hash == hash))
        .unwrap_or(false)
}

pub const INPLACE_STATE_ANNOTATION: &str = "kruise.io/sidecarset-inplace-update-state";

/// One SidecarSet's in-place state on a pod.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct InPlaceState {
    pub revision: String,
    pub update_timestamp: Time,
    pub last_container_statuses: BTreeMap<String, LastStatus>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct LastStatus {
    #[serde(rename = "imageID")]
    pub image_id: String,
}

pub fn states(pod: &Pod) -> BTreeMap<String, InPlaceState> {
    pod.annotations()
        .get(INPLACE_STATE_ANNOTATION)
        .and_then(|s| serde_json::from_str(s).ok())
        .unwrap_or_default()
}

pub fn status_of<'p>(pod: &'p Pod, container: &str) -> Option<&'p ContainerStatus> {
    pod.status
        .as_ref()?
        .container_statuses
        .as_ref()?
        .iter()
        .find(|s| s.name == container)
}

pub fn spec_image<'p>(pod: &'p Pod, container: &str) -> Option<&'p str> {
    pod.spec
        .as_ref()?
        .containers
        .iter()
        .find(|c| c.name == container)?
        .image
        .as_deref()
}

/// Have the set's sidecars of `pod` (both halves of a hot one) started with the images its
/// spec names?
pub fn consistent(set: &SidecarSet, pod: &Pod) -> bool {
    consistent_in(set, pod, &hot::pod_names(set))
}

/// Have the containers `names` of `pod` started with the images its spec names?
pub fn consistent_in(set: &SidecarSet, pod: &Pod, names: &[String]) -> bool {
    let spec_count = pod.spec.as_ref().map_or(0, |s| s.containers.len());
    let status_count = pod
        .status
        .as_ref()
        .and_then(|s| s.container_statuses.as_ref())
        .map_or(0, Vec::len);
    if spec_count != status_count {
        return false;
    }
    let recorded = states(pod).remove(&set.name_any());
    names.iter().all(|name| {
        let name = name.as_str();
        let (Some(status), Some(want)) = (status_of(pod, name), spec_image(pod, name)) else {
            return false;
        };
        if want.contains("@sha256:") {
            return status.image_id.ends_with(want.rsplit('@').next().unwrap_or(want));
        }
        if status.image == want {
            return true;
        }
        recorded
            .as_ref()
            .and_then(|r| r.last_container_statuses.get(name))
            .is_none_or(|before| before.image_id != status.image_id)
    })
}

/// Running and Ready, every idle hot-upgrade half on its empty image (a flip pending is
/// not ready).
pub fn ready(set: &SidecarSet, pod: &Pod) -> bool {
    hot::idle_halves(set, pod)
        .iter()
        .all(|(half, empty)| spec_image(pod, half) == Some(empty.as_str()))
        && running_ready(pod)
}

/// Ready and consistent: what `readyPods` counts and the budget spares.
pub fn available(set: &SidecarSet, pod: &Pod) -> bool {
    ready(set, pod) && consistent(set, pod)
}
