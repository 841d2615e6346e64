//! The identity of one Advanced StatefulSet ordinal: its pod, its claims, and who owns the
//! claims under the PVC retention policy. Pure.
//!
//! ```text
//! StatefulSet web (serviceName web-svc) ──controls──> Pod web-2
//!     │                                                 hostname web-2, subdomain web-svc
//!     │                                                 labels statefulset.kubernetes.io/pod-name=web-2
//!     │                                                        apps.kubernetes.io/pod-index=2
//!     │                                                 volume "data" ──> PVC data-web-2
//!     └──(retention policy)──owns?──> PVC data-web-2 <──owns?── Pod web-2 (once scaled away)
//! ```
//!
//! Invariants:
//! - Everything is derived from the set's name and the ordinal, so a pod recreated for an
//!   ordinal has the same name, hostname and claim names as the one it replaces and mounts
//!   the same PVCs.
//! - Created pods carry a controller ownerRef to the set (`apps.kruise.io/v1beta1`,
//!   `blockOwnerDeletion`), the revision label with the FULL revision name, the two identity
//!   labels, and a lifecycle state.
//! - On a live pod only labels can be patched, so [`identity_drift`] restores labels only.
use std::collections::BTreeMap;

use k8s_openapi::api::core::v1::{
    PersistentVolumeClaim, PersistentVolumeClaimVolumeSource, Pod, PodTemplateSpec, Volume,
};
use k8s_openapi::apimachinery::pkg::apis::meta::v1::{ObjectMeta, OwnerReference};
use kube::{Resource, ResourceExt};
use serde_json::{Map, Value, json};

use crate::api::statefulset::v1beta1::{
    PersistentVolumeClaimRetentionPolicy, PersistentVolumeClaimRetentionPolicyType, StatefulSet,
};
use crate::runtime::lifecycle;
use crate::runtime::revision::REVISION_LABEL;

/// The pod's own name, as a label (lets a Service select exactly one replica).
pub const POD_NAME_LABEL: &str = "statefulset.kubernetes.io/pod-name";
/// The pod's ordinal, as a label (gate PodIndexLabel, on by default upstream).
pub const POD_INDEX_LABEL: &str = "apps.kubernetes.io/pod-index";

/// `<set>-<ordinal>`.
pub fn pod_name(set: &str, ordinal: i32) -> String {
    format!("{set}-{ordinal}")
}

/// `<claim template>-<set>-<ordinal>`.
pub fn claim_name(claim_template: &str, set: &str, ordinal: i32) -> String {
    format!("{claim_template}-{set}-{ordinal}")
}

/// The controller ownerRef pointing at the set. The uid is empty only for a set that was
/// never stored (tests); the API server would reject such a reference.
pub fn set_owner_ref(set: &StatefulSet) -> OwnerReference {
    OwnerReference {
        api_version: StatefulSet::api_version(&()).into_owned(),
        kind: StatefulSet::kind(&()).into_owned(),
        name: set.name_any(),
        uid: set.metadata.uid.clone().unwrap_or_default(),
        controller: Some(true),
        block_owner_deletion: Some(true),
    }
}

/// A plain (non-controller) ownerRef pointing at the pod, as put on the claims of a
/// scaled-away pod; `None` for a pod without name or uid (not yet created).
pub fn pod_owner_ref(pod: &Pod) -> Option<OwnerReference> {
    Some(OwnerReference {
        api_version: Pod::api_version(&()).into_owned(),
        kind: Pod::kind(&()).into_owned(),
        name: pod.metadata.name.clone()?,
        uid: pod.metadata.uid.clone()?,
        controller: None,
        block_owner_deletion: None,
    })
}

/// The pod for `ordinal`, built from `template` (the template of revision `revision_name`).
///
/// `now` (RFC 3339) stamps the lifecycle state, as CloneSet's pods are stamped. The state is
/// `Normal`, or `PreparingNormal` while a configured preNormal hook does not yet hold the
/// pod with ALL its labels and finalizers (the template may already carry them all).
/// No readiness gate is added: an Advanced StatefulSet that updates in place must list
/// `InPlaceUpdateReady` in its template (admission checks it).
pub fn new_pod(
    set: &StatefulSet,
    ordinal: i32,
    revision_name: &str,
    template: &PodTemplateSpec,
    now: &str,
) -> Pod {
    let set_name = set.name_any();
    let name = pod_name(&set_name, ordinal);
    let from = template.metadata.as_ref();
    let mut pod = Pod {
        metadata: ObjectMeta {
            name: Some(name.clone()),
            namespace: set.namespace(),
            labels: from.and_then(|m| m.labels.clone()),
            annotations: from.and_then(|m| m.annotations.clone()),
            finalizers: from.and_then(|m| m.finalizers.clone()),
            owner_references: Some(vec![set_owner_ref(set)]),
            ..ObjectMeta::default()
        },
        spec: template.spec.clone(),
        status: None,
    };
    let pre_normal = set.spec.lifecycle.as_ref().and_then(|l| l.pre_normal.as_ref());
    let state = if lifecycle::is_configured(pre_normal) && !lifecycle::is_all_hooked(&pod, pre_normal) {
        lifecycle::PREPARING_NORMAL
    } else {
        lifecycle::NORMAL
    };
    let labels = pod.metadata.labels.get_or_insert_with(BTreeMap::new);
    labels.insert(REVISION_LABEL.into(), revision_name.into());
    labels.insert(POD_NAME_LABEL.into(), name.clone());
    labels.insert(POD_INDEX_LABEL.into(), ordinal.to_string());
    labels.insert(lifecycle::STATE_LABEL.into(), state.into());
    pod.metadata
        .annotations
        .get_or_insert_with(BTreeMap::new)
        .insert(lifecycle::TIMESTAMP_ANNOTATION.into(), now.into());
    let spec = pod.spec.get_or_insert_with(Default::default);
    spec.hostname = Some(name);
    spec.subdomain = set.spec.service_name.clone().filter(|s| !s.is_empty());
    for claim in set.spec.volume_claim_templates.iter().flatten() {
        let volume = claim_volume(&claim.name_any(), &set_name, ordinal);
        let volumes = spec.volumes.get_or_insert_with(Vec::new);
        // A template volume of the same name is replaced where it stands.
        match volumes.iter_mut().find(|v| v.name == volume.name) {
            Some(existing) => *existing = volume,
            None => volumes.push(volume),
        }
    }
    pod
}

fn claim_volume(claim_template: &str, set: &str, ordinal: i32) -> Volume {
    Volume {
        name: claim_template.into(),
        persistent_volume_claim: Some(PersistentVolumeClaimVolumeSource {
            claim_name: claim_name(claim_template, set, ordinal),
            read_only: None,
        }),
        ..Volume::default()
    }
}

/// The PVCs of `ordinal`, one per claim template: the template's spec, labels and
/// annotations, plus the selector's matchLabels (they win on a clash); owner refs as the
/// retention policy wants them for an ordinal in range (created before its pod, so no pod
/// reference yet).
pub fn new_claims(set: &StatefulSet, ordinal: i32) -> Vec<PersistentVolumeClaim> {
    let set_name = set.name_any();
    let owners = claim_owner_refs(
        set.spec.persistent_volume_claim_retention_policy.as_ref(),
        set_owner_ref(set),
        None,
        true,
    );
    let selector = set.spec.selector.match_labels.clone().unwrap_or_default();
    set.spec
        .volume_claim_templates
        .iter()
        .flatten()
        .map(|template| {
            let mut labels = template.metadata.labels.clone().unwrap_or_default();
            labels.extend(selector.clone());
            PersistentVolumeClaim {
                metadata: ObjectMeta {
                    name: Some(claim_name(&template.name_any(), &set_name, ordinal)),
                    namespace: set.namespace(),
                    labels: Some(labels),
                    annotations: template.metadata.annotations.clone(),
                    owner_references: (!owners.is_empty()).then(|| owners.clone()),
                    ..ObjectMeta::default()
                },
                spec: template.spec.clone(),
                status: None,
            }
        })
        .collect()
}

/// The owner refs the retention policy wants on a claim; absent fields
/// mean `Retain`. `ordinal_in_range` = the ordinal is one of the valid ordinals; `pod_ref`
/// = the claim's pod, when it exists.
///
/// | whenDeleted | whenScaled | in range | out of range (condemned) |
/// |-------------|------------|----------|--------------------------|
/// | Retain      | Retain     | none     | none                     |
/// | Delete      | Retain     | set      | set                      |
/// | Retain      | Delete     | none     | pod                      |
/// | Delete      | Delete     | set      | pod                      |
///
/// Out of range without a pod (it is already gone) the pod entry is simply missing, except
/// that Delete/Delete keeps the set so deleting the set still removes the claim. Owner refs
/// of other owners on the claim are the caller's to keep; this is only the managed part.
pub fn claim_owner_refs(
    policy: Option<&PersistentVolumeClaimRetentionPolicy>,
    set_ref: OwnerReference,
    pod_ref: Option<OwnerReference>,
    ordinal_in_range: bool,
) -> Vec<OwnerReference> {
    use PersistentVolumeClaimRetentionPolicyType::Delete;
    let when_deleted = policy.and_then(|p| p.when_deleted) == Some(Delete);
    let when_scaled = policy.and_then(|p| p.when_scaled) == Some(Delete);
    match (when_deleted, when_scaled, ordinal_in_range, pod_ref) {
        (false, false, _, _) => vec![],
        (true, false, _, _) | (true, true, true, _) | (true, true, false, None) => vec![set_ref],
        (false, true, true, _) | (false, true, false, None) => vec![],
        (_, true, false, Some(pod)) => vec![pod],
    }
}

/// A strategic-merge patch restoring the identity labels of the pod at `ordinal`, or `None`
/// when nothing drifted. Hostname and subdomain are immutable on a live pod and are not
/// checked; a pod whose name is not the ordinal's is not this ordinal's pod and is left to
/// the caller (see `ordinals::parse_ordinal`).
///
/// Example: `web-2` with `apps.kubernetes.io/pod-index` removed and the pod-name label
/// intact → `{"metadata":{"labels":{"apps.kubernetes.io/pod-index":"2"}}}`.
pub fn identity_drift(set: &StatefulSet, ordinal: i32, pod: &Pod) -> Option<Value> {
    let wanted = [
        (POD_NAME_LABEL, pod_name(&set.name_any(), ordinal)),
        (POD_INDEX_LABEL, ordinal.to_string()),
    ];
    let labels = pod.metadata.labels.as_ref();
    let drifted: Map<String, Value> = wanted
        .into_iter()
        .filter(|(key, value)| labels.and_then(|l| l.get(*key)) != Some(value))
        .map(|(key, value)| (key.to_string(), Value::String(value)))
        .collect();
    (!drifted.is_empty()).then(|| json!({ "metadata": { "labels": drifted } }))
}

#[cfg(test)]
#[path = "identity_tests.rs"]
mod tests;
