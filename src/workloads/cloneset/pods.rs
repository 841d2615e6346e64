//! CloneSet pods and PVCs: names, instance ids, and the objects created.
//! Pure.
//!
//! ```text
//! CloneSet web ──owns──> Pod web-x7k2p            (label apps.kruise.io/cloneset-instance-id=x7k2p)
//!              └─owns──> PVC data-web-x7k2p       (same id; mounted as volume "data")
//! ```
//!
//! Invariants:
//! - A pod's name, its id label and its claims' names share one id, so a pod recreated with
//!   a free id (one whose PVCs outlived their pod) mounts the same volumes again.
//! - Every created pod carries the `InPlaceUpdateReady` readiness gate, the revision labels
//!   (`controller-revision-hash` full name, `pod-template-hash` short hash) and a
//!   controller ownerRef to the CloneSet.
use std::collections::BTreeMap;

use k8s_openapi::api::core::v1::{
    PersistentVolumeClaim, PersistentVolumeClaimVolumeSource, Pod, PodReadinessGate, PodTemplateSpec, Volume,
};
use k8s_openapi::apimachinery::pkg::apis::meta::v1::OwnerReference;
use kube::{Resource, ResourceExt};

use super::status::REVISION_LABEL;
use crate::api::cloneset::CloneSet;
use crate::runtime::inplace::state::READINESS_GATE;
use crate::runtime::lifecycle;

pub const INSTANCE_ID_LABEL: &str = "apps.kruise.io/cloneset-instance-id";
pub const POD_TEMPLATE_HASH_LABEL: &str = "pod-template-hash";
pub use crate::workloads::common::SPECIFIED_DELETE_LABEL;

pub use crate::runtime::revision::short_hash;

/// The pod's instance id, from its label, else from its name.
pub fn instance_id<'p>(
    pod_name: &'p str,
    labels: Option<&'p BTreeMap<String, String>>,
    set: &str,
) -> &'p str {
    labels
        .and_then(|l| l.get(INSTANCE_ID_LABEL))
        .map(String::as_str)
        .or_else(|| pod_name.strip_prefix(set).and_then(|s| s.strip_prefix('-')))
        .unwrap_or(pod_name)
}

/// The instance id of a pod of set `set`.
pub fn id_of<'p>(pod: &'p Pod, set: &str) -> &'p str {
    instance_id(
        pod.metadata.name.as_deref().unwrap_or_default(),
        pod.metadata.labels.as_ref(),
        set,
    )
}

pub use crate::workloads::common::pod_names::random_id;

/// `<claim template>-<cloneset>-<id>`.
pub fn claim_name(template: &str, set: &str, id: &str) -> String {
    format!("{template}-{set}-{id}")
}

/// The controller reference upstream writes (`metav1.NewControllerRef`): controller and
/// blockOwnerDeletion, so a foreground deletion of the set waits for its pods and claims.
fn controller_ref(set: &CloneSet) -> OwnerReference {
    // The CloneSet always has a uid here: it was read from the API server.
    OwnerReference {
        block_owner_deletion: Some(true),
        ..set.controller_owner_ref(&()).unwrap_or_default()
    }
}

/// The pod for instance `id`, from the template of `revision`.
pub fn new_pod(set: &CloneSet, template: &PodTemplateSpec, revision: &str, id: &str, now: &str) -> Pod {
    let name = set.name_any();
    let meta = template.metadata.clone().unwrap_or_default();
    let mut pod = Pod {
        metadata: meta,
        spec: template.spec.clone(),
        status: None,
    };
    pod.metadata.name = Some(format!("{name}-{id}"));
    pod.metadata.generate_name = Some(format!("{name}-"));
    pod.metadata.namespace = set.namespace();
    pod.metadata.owner_references = Some(vec![controller_ref(set)]);
    let labels = pod.metadata.labels.get_or_insert_with(BTreeMap::new);
    labels.insert(REVISION_LABEL.into(), revision.into());
    labels.insert(POD_TEMPLATE_HASH_LABEL.into(), short_hash(revision).into());
    labels.insert(INSTANCE_ID_LABEL.into(), id.into());
    // Created in PreparingNormal, as upstream: it turns Normal once scheduled (and, with a
    // preNormal hook, once every hook is on), so a pod no node takes stays PreparingNormal
    // where users and OpenKruise's e2e look for it. One more write per new pod.
    labels.insert(lifecycle::STATE_LABEL.into(), lifecycle::PREPARING_NORMAL.into());
    pod.metadata
        .annotations
        .get_or_insert_with(BTreeMap::new)
        .insert(lifecycle::TIMESTAMP_ANNOTATION.into(), now.into());
    if let Some(spec) = pod.spec.as_mut() {
        let gates = spec.readiness_gates.get_or_insert_with(Vec::new);
        if !gates.iter().any(|g| g.condition_type == READINESS_GATE) {
            gates.push(PodReadinessGate {
                condition_type: READINESS_GATE.into(),
            });
        }
        for claim in set.spec.volume_claim_templates.iter().flatten() {
            let claim_template = claim.name_any();
            let volumes = spec.volumes.get_or_insert_with(Vec::new);
            volumes.retain(|v| v.name != claim_template);
            volumes.push(Volume {
                name: claim_template.clone(),
                persistent_volume_claim: Some(PersistentVolumeClaimVolumeSource {
                    claim_name: claim_name(&claim_template, &name, id),
                    read_only: None,
                }),
                ..Volume::default()
            });
        }
    }
    pod
}

/// The PVCs of instance `id`, one per claim template.
pub fn new_claims(set: &CloneSet, id: &str) -> Vec<PersistentVolumeClaim> {
    let name = set.name_any();
    set.spec
        .volume_claim_templates
        .iter()
        .flatten()
        .map(|template| {
            let mut claim = template.clone();
            claim.status = None;
            let template_name = template.name_any();
            claim.metadata = Default::default();
            claim.metadata.name = Some(claim_name(&template_name, &name, id));
            claim.metadata.namespace = set.namespace();
            let mut labels = template.metadata.labels.clone().unwrap_or_default();
            labels.extend(set.spec.selector.match_labels.clone().unwrap_or_default());
            labels.insert(INSTANCE_ID_LABEL.into(), id.into());
            claim.metadata.labels = Some(labels);
            claim.metadata.annotations = template.metadata.annotations.clone();
            claim.metadata.owner_references = Some(vec![controller_ref(set)]);
            claim
        })
        .collect()
}

/// Is the pod marked for deletion by label or by `scaleStrategy.podsToDelete`?
pub fn is_specified_delete(pod: &Pod, pods_to_delete: &[String]) -> bool {
    pod.labels().contains_key(SPECIFIED_DELETE_LABEL) || pods_to_delete.iter().any(|n| *n == pod.name_any())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn guestbook() -> CloneSet {
        serde_json::from_value(serde_json::json!({
            "apiVersion": "apps.kruise.io/v1alpha1",
            "kind": "CloneSet",
            "metadata": { "name": "guestbook", "namespace": "ns", "uid": "u1" },
            "spec": {
                "selector": { "matchLabels": { "app": "guestbook" } },
                "template": {
                    "metadata": { "labels": { "app": "guestbook" } },
                    "spec": { "containers": [{ "name": "app", "image": "guestbook:v1" }] },
                },
                "volumeClaimTemplates": [{ "metadata": { "name": "data" }, "spec": { "accessModes": ["ReadWriteOnce"] } }],
            },
        }))
        .expect("cloneset")
    }

    #[test]
    fn a_new_pod_carries_id_revision_gate_and_claim_volumes() {
        let set = guestbook();
        let pod = new_pod(
            &set,
            &set.spec.template,
            "guestbook-b976d4544",
            "x7k2p",
            "2026-01-01T00:00:00Z",
        );
        assert_eq!(pod.name_any(), "guestbook-x7k2p");
        let labels = pod.labels();
        assert_eq!(labels[REVISION_LABEL], "guestbook-b976d4544");
        assert_eq!(labels[POD_TEMPLATE_HASH_LABEL], "b976d4544");
        assert_eq!(labels[INSTANCE_ID_LABEL], "x7k2p");
        assert_eq!(labels[lifecycle::STATE_LABEL], lifecycle::PREPARING_NORMAL);
        let spec = pod.spec.as_ref().expect("spec");
        assert!(
            spec.readiness_gates
                .iter()
                .flatten()
                .any(|g| g.condition_type == READINESS_GATE)
        );
        let owner = &pod.owner_references()[0];
        assert_eq!(owner.kind, "CloneSet");
        assert_eq!(
            (owner.controller, owner.block_owner_deletion),
            (Some(true), Some(true))
        );
        let volume = spec
            .volumes
            .iter()
            .flatten()
            .find(|v| v.name == "data")
            .expect("claim volume");
        assert_eq!(
            volume
                .persistent_volume_claim
                .as_ref()
                .map(|c| c.claim_name.as_str()),
            Some("data-guestbook-x7k2p")
        );
        let claims = new_claims(&set, "x7k2p");
        assert_eq!(claims[0].name_any(), "data-guestbook-x7k2p");
        assert_eq!(claims[0].labels()[INSTANCE_ID_LABEL], "x7k2p");
    }

    #[test]
    fn the_id_comes_from_the_label_or_else_the_name() {
        assert_eq!(instance_id("web-abcde", None, "web"), "abcde");
        let labels = BTreeMap::from([(INSTANCE_ID_LABEL.to_string(), "zzzzz".to_string())]);
        assert_eq!(instance_id("web-abcde", Some(&labels), "web"), "zzzzz");
    }
}
