//! What a SidecarSet's in-place upgrade would do were a manifest applied: the set as its
//! controller would see it (its hashes computed afresh), the pods it injected among the
//! pods it selects, and its own upgrade candidates ([`plan_update::candidates`]) in its
//! order, with those its partition holds and those it cannot upgrade in place. Pure.
//!
//! Invariants: a pod is named at most once; the order is the planner's, whatever the
//! budget; pods are named `namespace/name` (a SidecarSet covers namespaces).
use std::collections::BTreeMap;

use k8s_openapi::api::core::v1::{Namespace, Pod};
use k8s_openapi::jiff::Timestamp;
use kube::ResourceExt;

use super::{hash, matching, plan_update, pod_facts, status};
use crate::api::sidecarset::SidecarSet;
use crate::workloads::facts::MatchedUpgrade;

fn id(pod: &Pod) -> String {
    format!("{}/{}", matching::pod_namespace(pod), pod.name_any())
}

/// The upgrade `set` (as applied) would make among `pods`, given the `namespaces`' labels.
pub fn upgrade(set: &SidecarSet, pods: &[Pod], namespaces: &[Namespace], now: Timestamp) -> MatchedUpgrade {
    let (set, _) = hash::with_fresh_annotations(set);
    let labels: BTreeMap<String, BTreeMap<String, String>> = namespaces
        .iter()
        .map(|n| (n.name_any(), n.labels().clone()))
        .collect();
    let selected: Vec<&Pod> = pods
        .iter()
        .filter(|p| matching::selects_pod(&set, *p, labels.get(&matching::pod_namespace(*p))))
        .collect();
    let (matched, _) = status::split(&set, &selected);
    let images = set
        .spec
        .containers
        .iter()
        .flatten()
        .map(|c| {
            format!(
                "{}={}",
                c.container.name,
                c.container.image.as_deref().unwrap_or_default()
            )
        })
        .collect::<Vec<_>>()
        .join(", ");
    let Some(candidates) = plan_update::candidates(&set, &matched, now) else {
        return MatchedUpgrade {
            images,
            ..MatchedUpgrade::default()
        };
    };
    MatchedUpgrade {
        order: candidates
            .order
            .iter()
            .map(|p| (id(p), pod_facts::ready(&set, p)))
            .collect(),
        held: candidates.held.iter().map(|p| id(p)).collect(),
        not_upgradable: candidates.not_upgradable.iter().map(|p| id(p)).collect(),
        budget: candidates.budget,
        unavailable: candidates.unavailable,
        images,
    }
}
