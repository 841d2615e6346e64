//! One round of a SidecarSet, pure: from the set and the pods its selector picks (in the
//! namespaces it covers) to the driver's [`Planned`]: the hash annotations to write (its
//! spec patch), the in-place sidecar upgrades ([`super::plan_update`]), the status
//! ([`super::status`]) and the revisions its pods run.
//!
//! Invariant: a round whose hash annotations are stale upgrades nothing (the annotations
//! are written first, and their event starts the next round); its status already counts
//! against the new hashes, so `observedGeneration` never comes with the old counts.
use k8s_openapi::api::core::v1::Pod;
use k8s_openapi::jiff::Timestamp;
use kube::ResourceExt;

use super::{hash, plan_update, revisions, status};
use crate::api::sidecarset::{SidecarSet, SidecarSetStatus};
use crate::runtime::actions::Problem;
use crate::runtime::driver::Planned;

/// Everything a round reads.
#[derive(Debug, Clone)]
pub struct Snapshot<'a> {
    pub set: &'a SidecarSet,
    /// The pods the set's selector picks in the namespaces it covers, any state.
    pub selected: Vec<&'a Pod>,
    /// The revision the history just synced (what an upgrade records on the pods it changes).
    pub latest_revision: &'a str,
    pub collision_count: i32,
    pub now: Timestamp,
}

/// Plans one round of a SidecarSet.
pub fn plan(snapshot: &Snapshot<'_>) -> Planned<SidecarSetStatus> {
    // The set as this round sees it: its latest revision just synced.
    let (mut set, spec_patch) = hash::with_fresh_annotations(snapshot.set);
    let status = set.status.get_or_insert_default();
    status.latest_revision = Some(snapshot.latest_revision.to_string()).filter(|r| !r.is_empty());
    status.collision_count = Some(snapshot.collision_count);
    let set = &set;
    let (matched, missing) = status::split(set, &snapshot.selected);
    // Pods are upgraded to hashes the set already carries: the patch's event plans again.
    let upgrade = match spec_patch {
        None => plan_update::plan_update(set, &matched, snapshot.now),
        Some(_) => plan_update::Upgrade::default(),
    };
    let pod_revisions = revisions::named_in_pods(set, &matched);
    let mut planned = status::plan(&status::Snapshot {
        set,
        matched,
        missing,
    });
    if !upgrade.not_upgradable.is_empty() {
        planned.problems.push(Problem {
            reason: "NotUpgradablePods",
            message: format!(
                "SidecarSet {}: pods {} have sidecars that differ in more than their images; they are not upgraded in place (recreate them)",
                snapshot.set.name_any(),
                upgrade.not_upgradable.join(", ")
            ),
        });
    }
    // An upgrade's pod writes wake the set; the kubelet's restart too (pod events).
    planned.actions = upgrade.actions;
    planned.spec_patch = spec_patch;
    planned.pod_revisions = pod_revisions;
    planned
}
