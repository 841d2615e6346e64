//! The pod an Advanced DaemonSet creates on a node (upstream's `NewPod`). Pure but for the
//! random name.
//!
//! Invariants: the pod is the template's with `controller-revision-hash=<hash>` (and
//! `pod-template-generation` when the set carries the deprecated generation annotation), the
//! daemon tolerations, the `InPlaceUpdateReady` readiness gate when the set updates in place,
//! a controller reference with `blockOwnerDeletion`, and its required node affinity replaced
//! by the node's name so that the scheduler binds it there.
use std::collections::{BTreeMap, BTreeSet};

use k8s_openapi::api::core::v1::{Pod, PodReadinessGate, PodTemplateSpec};
use k8s_openapi::apimachinery::pkg::apis::meta::v1::OwnerReference;
use kube::{Resource, ResourceExt};

use super::nodes;
use crate::api::daemonset::DaemonSet;
use crate::runtime::inplace::state::READINESS_GATE;
use crate::runtime::revision::REVISION_LABEL;
use crate::workloads::common::node_fit;

/// The set annotation an `apps/v1` manifest may leave behind.
pub const TEMPLATE_GENERATION_ANNOTATION: &str = "deprecated.daemonset.template.generation";
/// The pod label that carries it.
pub const TEMPLATE_GENERATION_LABEL: &str = "pod-template-generation";

/// The set as its pods' controller (with `blockOwnerDeletion`, as the built-in kinds set it).
pub(super) fn controller_ref(set: &DaemonSet) -> OwnerReference {
    OwnerReference {
        block_owner_deletion: Some(true),
        ..set.controller_owner_ref(&()).unwrap_or_default()
    }
}

/// The pod for `node`, from `template` at `hash`, named `<set>-<id>`.
pub fn new_pod(
    set: &DaemonSet,
    template: &PodTemplateSpec,
    hash: &str,
    node: &str,
    id: &str,
    in_place: bool,
) -> Pod {
    let name = set.name_any();
    let mut pod = Pod {
        metadata: template.metadata.clone().unwrap_or_default(),
        spec: template.spec.clone(),
        status: None,
    };
    pod.metadata.name = Some(format!("{name}-{id}"));
    pod.metadata.generate_name = Some(format!("{name}-"));
    pod.metadata.namespace = set.namespace();
    pod.metadata.owner_references = Some(vec![controller_ref(set)]);
    let labels = pod.metadata.labels.get_or_insert_with(BTreeMap::new);
    labels.insert(REVISION_LABEL.into(), hash.into());
    if let Some(generation) = set.annotations().get(TEMPLATE_GENERATION_ANNOTATION) {
        labels.insert(TEMPLATE_GENERATION_LABEL.into(), generation.clone());
    }
    let mut spec = nodes::with_daemon_tolerations(&pod.spec.unwrap_or_default());
    node_fit::pin_to_node(&mut spec, node);
    if in_place {
        let gates = spec.readiness_gates.get_or_insert_with(Vec::new);
        if !gates.iter().any(|g| g.condition_type == READINESS_GATE) {
            gates.push(PodReadinessGate {
                condition_type: READINESS_GATE.into(),
            });
        }
    }
    pod.spec = Some(spec);
    pod
}

/// A fresh id for a pod name, not in `taken` (the ids of the set's pods).
pub fn fresh_id(taken: &BTreeSet<String>) -> String {
    crate::workloads::common::pod_names::random_id(taken)
}

/// The ids in use: the part of each pod name after `<set>-`.
pub fn ids_in_use<'a>(set: &str, pods: impl Iterator<Item = &'a Pod>) -> BTreeSet<String> {
    let prefix = format!("{set}-");
    pods.filter_map(|p| {
        p.metadata
            .name
            .as_deref()?
            .strip_prefix(&prefix)
            .map(str::to_owned)
    })
    .collect()
}
