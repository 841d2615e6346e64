//! A pod's sidecars at its creation: from the pod and the SidecarSets that inject into it
//! ([`super::matching::injecting`]) to the pod as the API server should store it. Pure but
//! for the clock it is given.
//!
//! Invariants:
//! - Per SidecarSet, in name order: its `patchPodMetadata`; its init containers (all, at
//!   creation) and `imagePullSecrets`; its containers in spec order. Each sidecar gets the
//!   app containers' volume mounts when `shareVolumePolicy` is enabled (app containers that
//!   carry `IS_INJECTED=true` are not app containers), the env a shared `subPathExpr` needs,
//!   its `transferEnv`, the SidecarSet volumes it mounts (others in the pool are never
//!   injected), its own mounts first then shared ones at unused paths, env
//!   `IS_INJECTED=true` after its own, then transferred env (the first of a name wins), and
//!   the app containers' volumeDevices when `shareVolumeDevicePolicy` is enabled.
//! - Merge: a pod container (or init container) of the same name is replaced where it is;
//!   `BeforeAppContainer` sidecars go in front in injection order, the others after (init
//!   containers sorted by name first); volumes and image pull secrets are appended by
//!   name, the pod's own winning.
//! - Annotations: `kruise.io/sidecarset-hash` and `...-hash-without-image` (JSON keyed by
//!   SidecarSet name, other SidecarSets' entries kept, the legacy `{name: hash}` form
//!   read), `kruise.io/sidecarset-injected-list` (sorted union).
//! - A sidecar with a `resourcesPolicy` gets the resources it derives from the pod's own
//!   containers ([`super::resources`]); a policy that cannot be met refuses the pod.
//! - A `HotUpgrade` sidecar (and a native-sidecar init container) becomes its two halves
//!   with their annotations ([`super::hot`]). Which revision is injected is decided before
//!   ([`super::pinned`]).
use std::collections::{BTreeMap, BTreeSet};

use k8s_openapi::api::core::v1::{
    Container, EnvVar, LocalObjectReference, Pod, Volume, VolumeDevice, VolumeMount,
};
use k8s_openapi::apimachinery::pkg::apis::meta::v1::Time;
use k8s_openapi::jiff::Timestamp;
use kube::ResourceExt;
use serde::{Deserialize, Serialize};

use super::hot;
use crate::api::sidecarset::{
    PodInjectPolicy, ShareVolumePolicyType, SidecarContainer, SidecarSet, SidecarSetPatchPodMetadata,
    SidecarSetPatchPolicy, TransferEnvVar,
};

pub const HASH_ANNOTATION: &str = "kruise.io/sidecarset-hash";
pub const HASH_WITHOUT_IMAGE_ANNOTATION: &str = "kruise.io/sidecarset-hash-without-image";
pub const INJECTED_LIST_ANNOTATION: &str = "kruise.io/sidecarset-injected-list";
/// The env every injected container carries.
pub const INJECTED_ENV: &str = "IS_INJECTED";

/// One SidecarSet's entry in a pod's hash annotations (field order as upstream writes it).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct HashEntry {
    pub update_timestamp: Time,
    pub hash: String,
    pub sidecar_set_name: String,
    pub sidecar_list: Vec<String>,
    #[serde(
        default,
        rename = "controllerRevision",
        skip_serializing_if = "String::is_empty"
    )]
    pub controller_revision: String,
}

/// A pod's hash annotation read: the current form, or the legacy `{name: hash}` one.
pub fn read_hashes(value: Option<&String>) -> Result<BTreeMap<String, HashEntry>, String> {
    let Some(text) = value.filter(|t| !t.is_empty()) else {
        return Ok(BTreeMap::new());
    };
    if let Ok(entries) = serde_json::from_str::<BTreeMap<String, HashEntry>>(text) {
        return Ok(entries);
    }
    let legacy: BTreeMap<String, String> =
        serde_json::from_str(text).map_err(|e| format!("cannot read {text:?}: {e}"))?;
    Ok(legacy
        .into_iter()
        .map(|(name, hash)| {
            let entry = HashEntry {
                update_timestamp: Time(Timestamp::UNIX_EPOCH),
                hash,
                sidecar_set_name: name.clone(),
                sidecar_list: Vec::new(),
                controller_revision: String::new(),
            };
            (name, entry)
        })
        .collect())
}

fn is_injected(container: &Container) -> bool {
    container
        .env
        .iter()
        .flatten()
        .any(|e| e.name == INJECTED_ENV && e.value.as_deref() == Some("true"))
}

pub use crate::api::sidecarset::is_native_sidecar;

fn enabled(policy: Option<&crate::api::sidecarset::ShareVolumePolicy>) -> bool {
    policy.and_then(|p| p.type_) == Some(ShareVolumePolicyType::Enabled)
}

/// First occurrence of a name wins (upstream's MergeEnvVar).
fn merge_env(mut original: Vec<EnvVar>, additional: Vec<EnvVar>) -> Vec<EnvVar> {
    let mut seen: BTreeSet<String> = original.iter().map(|e| e.name.clone()).collect();
    for env in additional {
        if seen.insert(env.name.clone()) {
            original.push(env);
        }
    }
    original
}

/// `$(NAME)` references of a `subPathExpr`.
fn sub_path_names(expr: &str) -> Vec<String> {
    let mut names = Vec::new();
    let mut rest = expr;
    while let Some(start) = rest.find("$(") {
        let after = &rest[start + 2..];
        let Some(end) = after.find(')') else { break };
        let name = &after[..end];
        let valid = name
            .chars()
            .next()
            .is_some_and(|c| c == '-' || c == '.' || c == '_' || c.is_ascii_alphabetic())
            && name
                .chars()
                .all(|c| c == '-' || c == '.' || c == '_' || c.is_ascii_alphanumeric());
        if valid {
            names.push(name.to_string());
        }
        rest = &after[end + 1..];
    }
    names
}

/// The app containers' mounts a sharing sidecar gets, and the env their `subPathExpr`s name.
fn shared_mounts(sidecar: &SidecarContainer, pod: &Pod) -> (Vec<VolumeMount>, Vec<EnvVar>) {
    if !enabled(sidecar.share_volume_policy.as_ref()) {
        return (Vec::new(), Vec::new());
    }
    let (mut mounts, mut env) = (Vec::new(), Vec::new());
    for app in pod
        .spec
        .iter()
        .flat_map(|s| &s.containers)
        .filter(|c| !is_injected(c))
    {
        for mount in app.volume_mounts.iter().flatten() {
            mounts.push(mount.clone());
            for name in sub_path_names(mount.sub_path_expr.as_deref().unwrap_or_default()) {
                if let Some(var) = app.env.iter().flatten().find(|e| e.name == name) {
                    env.push(var.clone());
                }
            }
        }
    }
    (mounts, env)
}

fn shared_devices(sidecar: &SidecarContainer, pod: &Pod) -> Vec<VolumeDevice> {
    if !enabled(sidecar.share_volume_device_policy.as_ref()) {
        return Vec::new();
    }
    pod.spec
        .iter()
        .flat_map(|s| &s.containers)
        .filter(|c| !is_injected(c))
        .flat_map(|c| c.volume_devices.iter().flatten().cloned())
        .collect()
}

/// `metadata.labels['k']` / `metadata.annotations['k']` of the pod.
fn field_of(pod: &Pod, path: &str) -> Option<String> {
    let (map, rest) = if let Some(rest) = path.strip_prefix("metadata.labels[") {
        (pod.labels(), rest)
    } else {
        (pod.annotations(), path.strip_prefix("metadata.annotations[")?)
    };
    let key = rest.strip_suffix(']')?.trim_matches(|c| c == '\'' || c == '"');
    map.get(key).cloned()
}

/// The env `transferEnv` copies from the pod's containers (missing names are skipped).
fn transferred_env(rules: &[TransferEnvVar], pod: &Pod) -> Vec<EnvVar> {
    let containers = pod.spec.iter().flat_map(|s| &s.containers);
    let by_key: BTreeMap<(String, String), EnvVar> = containers
        .flat_map(|c| {
            c.env
                .iter()
                .flatten()
                .map(move |e| ((c.name.clone(), e.name.clone()), e.clone()))
        })
        .collect();
    let mut out = Vec::new();
    for rule in rules {
        let mut names: BTreeSet<String> = rule.env_names.iter().flatten().cloned().collect();
        if let Some(name) = rule.env_name.as_ref().filter(|n| !n.is_empty()) {
            names.insert(name.clone());
        }
        let source = match rule
            .source_container_name_from
            .as_ref()
            .and_then(|f| f.field_ref.as_ref())
        {
            Some(field) => match field_of(pod, &field.field_path) {
                Some(name) => name,
                None => continue,
            },
            None => rule.source_container_name.clone().unwrap_or_default(),
        };
        for name in names {
            if let Some(var) = by_key.get(&(source.clone(), name)) {
                out.push(var.clone());
            }
        }
    }
    out
}

/// Own mounts first, then shared ones at a path no mount or device uses yet.
fn merge_mounts(container: &Container, additional: Vec<VolumeMount>) -> Vec<VolumeMount> {
    let mut out: Vec<VolumeMount> = container.volume_mounts.clone().unwrap_or_default();
    let mut used: BTreeSet<String> = out.iter().map(|m| m.mount_path.clone()).collect();
    used.extend(
        container
            .volume_devices
            .iter()
            .flatten()
            .map(|d| d.device_path.clone()),
    );
    for mount in additional {
        if used.insert(mount.mount_path.clone()) {
            out.push(mount);
        }
    }
    out
}

fn merge_devices(container: &Container, additional: Vec<VolumeDevice>) -> Vec<VolumeDevice> {
    let mut out: Vec<VolumeDevice> = container.volume_devices.clone().unwrap_or_default();
    let mut used: BTreeSet<String> = out.iter().map(|d| d.device_path.clone()).collect();
    used.extend(
        container
            .volume_mounts
            .iter()
            .flatten()
            .map(|m| m.mount_path.clone()),
    );
    for device in additional {
        if used.insert(device.device_path.clone()) {
            out.push(device);
        }
    }
    out
}

fn none_if_empty<T>(list: Vec<T>) -> Option<Vec<T>> {
    (!list.is_empty()).then_some(list)
}

/// One sidecar as injected into `pod`, with the SidecarSet volumes it references.
fn build(
    sidecar: &SidecarContainer,
    pod: &Pod,
    pool: &BTreeMap<String, Volume>,
    volumes: &mut Vec<Volume>,
) -> Container {
    let (mounts, mount_env) = shared_mounts(sidecar, pod);
    let transfer = merge_env(
        transferred_env(sidecar.transfer_env.as_deref().unwrap_or_default(), pod),
        mount_env,
    );
    let mut container = sidecar.container.clone();
    let referenced = container
        .volume_mounts
        .iter()
        .flatten()
        .map(|m| &m.name)
        .chain(container.volume_devices.iter().flatten().map(|d| &d.name));
    for name in referenced {
        if let Some(volume) = pool.get(name) {
            volumes.push(volume.clone());
        }
    }
    container.volume_mounts = none_if_empty(merge_mounts(&container, mounts));
    let mut env = container.env.take().unwrap_or_default();
    env.push(EnvVar {
        name: INJECTED_ENV.into(),
        value: Some("true".into()),
        value_from: None,
    });
    container.env = Some(merge_env(env, transfer));
    let devices = shared_devices(sidecar, pod);
    container.volume_devices = none_if_empty(merge_devices(&container, devices));
    container
}

/// `built`'s resources from its `resourcesPolicy`, if it has one (at creation only).
fn with_resources(
    built: &mut Container,
    sidecar: &SidecarContainer,
    pod: &Pod,
    defined: &[&str],
) -> Result<(), String> {
    let (Some(policy), Some(spec)) = (&sidecar.resources_policy, &pod.spec) else {
        return Ok(());
    };
    built.resources = Some(super::resources::sidecar_resources(
        policy,
        spec,
        defined,
        &built.name,
    )?);
    Ok(())
}

/// The pod's `patchPodMetadata` annotations applied (Retain, Overwrite, MergePatchJson).
pub fn patch_metadata(
    annotations: &mut BTreeMap<String, String>,
    patches: &[SidecarSetPatchPodMetadata],
) -> Result<(), String> {
    for patch in patches {
        for (key, value) in patch.annotations.iter().flatten() {
            match patch.patch_policy.unwrap_or(SidecarSetPatchPolicy::Retain) {
                SidecarSetPatchPolicy::Retain => {
                    annotations.entry(key.clone()).or_insert_with(|| value.clone());
                }
                SidecarSetPatchPolicy::Overwrite => {
                    annotations.insert(key.clone(), value.clone());
                }
                SidecarSetPatchPolicy::MergePatchJson => {
                    let merged = match annotations.get(key).filter(|v| !v.is_empty()) {
                        Some(origin) => {
                            let mut doc: serde_json::Value = serde_json::from_str(origin)
                                .map_err(|e| format!("annotation {key} is not JSON: {e}"))?;
                            let patch: serde_json::Value = serde_json::from_str(value)
                                .map_err(|e| format!("patchPodMetadata {key} is not JSON: {e}"))?;
                            json_patch::merge(&mut doc, &patch);
                            doc.to_string()
                        }
                        None => value.clone(),
                    };
                    annotations.insert(key.clone(), merged);
                }
            }
        }
    }
    Ok(())
}

/// Containers after the merge: same names replaced in place, Before in front, the rest after.
fn merge_containers(mut pod: Vec<Container>, injected: Vec<(Container, bool)>) -> Vec<Container> {
    let mut before = Vec::new();
    let mut after = Vec::new();
    for (container, in_front) in injected {
        if let Some(existing) = pod.iter_mut().find(|c| c.name == container.name) {
            *existing = container;
        } else if in_front {
            before.push(container);
        } else {
            after.push(container);
        }
    }
    before.extend(pod);
    before.extend(after);
    before
}

/// What one SidecarSet's hash entries say: its hash annotations and latest revision.
fn entries(set: &SidecarSet, sidecars: Vec<String>, now: Timestamp) -> (HashEntry, HashEntry) {
    let annotation = |key: &str| set.annotations().get(key).cloned().unwrap_or_default();
    let entry = |hash: String, revision: String| HashEntry {
        update_timestamp: Time(Timestamp::from_second(now.as_second()).unwrap_or(now)),
        hash,
        sidecar_set_name: set.name_any(),
        sidecar_list: sidecars.clone(),
        controller_revision: revision,
    };
    let latest = set
        .status
        .as_ref()
        .and_then(|s| s.latest_revision.clone())
        .unwrap_or_default();
    (
        entry(annotation(HASH_ANNOTATION), latest),
        entry(annotation(HASH_WITHOUT_IMAGE_ANNOTATION), String::new()),
    )
}

/// `pod` with the sidecars of `sets` (the ones [`super::matching::injecting`] chose, in
/// name order) injected; None when none of them has anything to inject.
pub fn inject(pod: &Pod, sets: &[&SidecarSet], now: Timestamp) -> Result<Option<Pod>, String> {
    if sets.is_empty() {
        return Ok(None);
    }
    let mut out = pod.clone();
    let mut annotations = out.metadata.annotations.take().unwrap_or_default();
    for set in sets {
        patch_metadata(
            &mut annotations,
            set.spec.patch_pod_metadata.as_deref().unwrap_or_default(),
        )
        .map_err(|e| format!("SidecarSet {}: {e}", set.name_any()))?;
    }
    let mut hashes = read_hashes(annotations.get(HASH_ANNOTATION))?;
    let mut without_image = read_hashes(annotations.get(HASH_WITHOUT_IMAGE_ANNOTATION))?;
    let mut names: BTreeSet<String> = annotations
        .get(INJECTED_LIST_ANNOTATION)
        .map(|l| {
            l.split(',')
                .filter(|n| !n.is_empty())
                .map(str::to_owned)
                .collect()
        })
        .unwrap_or_default();
    let (mut containers, mut init_containers) = (Vec::new(), Vec::new());
    let mut working = hot::working(pod);
    // Every container name a matched SidecarSet defines: never a resourcesPolicy target.
    let defined: Vec<&str> = sets
        .iter()
        .flat_map(|s| {
            s.spec
                .containers
                .iter()
                .flatten()
                .chain(s.spec.init_containers.iter().flatten())
        })
        .map(|c| c.container.name.as_str())
        .collect();
    let (mut volumes, mut secrets): (Vec<Volume>, Vec<LocalObjectReference>) = (Vec::new(), Vec::new());
    for set in sets {
        names.insert(set.name_any());
        let pool: BTreeMap<String, Volume> = set
            .spec
            .volumes
            .iter()
            .flatten()
            .map(|v| (v.name.clone(), v.clone()))
            .collect();
        let mut sidecars: BTreeSet<String> = BTreeSet::new();
        let mut injected_any = false;
        for init in set.spec.init_containers.iter().flatten() {
            let native = is_native_sidecar(&init.container);
            if native {
                sidecars.insert(init.container.name.clone());
            }
            let in_front = init.pod_inject_policy == Some(PodInjectPolicy::BeforeAppContainer);
            let mut built = build(init, pod, &pool, &mut volumes);
            with_resources(&mut built, init, pod, &defined)
                .map_err(|e| format!("SidecarSet {}: {e}", set.name_any()))?;
            if native && hot::is_hot(init) {
                for half in hot::pair(built, init, &mut working, &mut annotations) {
                    init_containers.push((half, in_front));
                }
            } else {
                init_containers.push((built, in_front));
            }
            injected_any = true;
        }
        secrets.extend(set.spec.image_pull_secrets.iter().flatten().cloned());
        for sidecar in set.spec.containers.iter().flatten() {
            sidecars.insert(sidecar.container.name.clone());
            // The SidecarSet's default (its webhook writes it): in front of the app.
            let in_front = sidecar.pod_inject_policy != Some(PodInjectPolicy::AfterAppContainer);
            let mut built = build(sidecar, pod, &pool, &mut volumes);
            with_resources(&mut built, sidecar, pod, &defined)
                .map_err(|e| format!("SidecarSet {}: {e}", set.name_any()))?;
            if hot::is_hot(sidecar) {
                for half in hot::pair(built, sidecar, &mut working, &mut annotations) {
                    containers.push((half, in_front));
                }
            } else {
                containers.push((built, in_front));
            }
            injected_any = true;
        }
        if injected_any {
            let (entry, bare) = entries(set, sidecars.into_iter().collect(), now);
            hashes.insert(set.name_any(), entry);
            without_image.insert(set.name_any(), bare);
        }
    }
    if containers.is_empty() && init_containers.is_empty() {
        return Ok(None);
    }
    let spec = out.spec.get_or_insert_with(Default::default);
    init_containers.sort_by(|a, b| a.0.name.cmp(&b.0.name));
    let pod_init = spec.init_containers.take().unwrap_or_default();
    spec.init_containers = none_if_empty(merge_containers(pod_init, init_containers));
    spec.containers = merge_containers(std::mem::take(&mut spec.containers), containers);
    let mut all_volumes = spec.volumes.take().unwrap_or_default();
    for volume in volumes {
        if !all_volumes.iter().any(|v| v.name == volume.name) {
            all_volumes.push(volume);
        }
    }
    spec.volumes = none_if_empty(all_volumes);
    let mut all_secrets: Vec<LocalObjectReference> = Vec::new();
    for secret in spec
        .image_pull_secrets
        .take()
        .unwrap_or_default()
        .into_iter()
        .chain(secrets)
    {
        if !all_secrets.iter().any(|s| s.name == secret.name) {
            all_secrets.push(secret);
        }
    }
    spec.image_pull_secrets = none_if_empty(all_secrets);
    let json = |m: &BTreeMap<String, HashEntry>| serde_json::to_string(m).unwrap_or_default();
    annotations.insert(HASH_ANNOTATION.into(), json(&hashes));
    annotations.insert(HASH_WITHOUT_IMAGE_ANNOTATION.into(), json(&without_image));
    annotations.insert(
        INJECTED_LIST_ANNOTATION.into(),
        names.into_iter().collect::<Vec<_>>().join(","),
    );
    out.metadata.annotations = Some(annotations);
    Ok(Some(out))
}

#[cfg(test)]
#[path = "inject_tests.rs"]
mod tests;
