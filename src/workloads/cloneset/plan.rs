//! The CloneSet planner (reference §3.5): a pure function from a [`Snapshot`] (the set, its
//! pods, PVCs and revisions, the clock) to a [`Plan`] (typed actions, the status to store,
//! the next wake-up). The executor in [`super::executor`] is the only code that writes.
//!
//! ```text
//! snapshot ─> claim pods (release mismatches) ─> PVC cleanup (reuse off)
//!          ─> scale (§3.6)  ── wrote? ──yes──> stop
//!                   │no
//!          ─> update (§3.7: refresh, then in place / recreate)
//!          ─> status (§3.8), podsToDelete pruning, history truncation
//! ```
//!
//! Invariants (property-tested in `plan_tests.rs`): the partition is respected; an update
//! step never makes more than maxUnavailable pods unavailable; scaling never goes above
//! `replicas + maxSurge`; pods named in podsToDelete are the ones deleted.
use std::collections::{BTreeMap, BTreeSet};
use std::time::Duration;

use k8s_openapi::api::core::v1::{PersistentVolumeClaim, Pod, PodTemplateSpec};
use k8s_openapi::jiff::Timestamp;
use kube::ResourceExt;
use kube::core::{Selector, SelectorExt};
use serde_json::json;

use super::numbers::{self, InvalidIntOrPercent};
use super::pods::{self, INSTANCE_ID_LABEL};
use super::status;
use crate::api::cloneset::{CloneSet, CloneSetStatus, CloneSetUpdateStrategyType};
use crate::api::common::Lifecycle;

pub use crate::runtime::history::Revision;

/// Everything the planner looks at.
#[derive(Debug, Clone)]
pub struct Snapshot<'a> {
    pub set: &'a CloneSet,
    /// Pods with a controller ownerRef to the set (any apps.kruise.io version).
    pub pods: Vec<&'a Pod>,
    /// PVCs with a controller ownerRef to the set, not terminating.
    pub claims: Vec<&'a PersistentVolumeClaim>,
    pub update: Revision<'a>,
    pub current: Revision<'a>,
    /// Every known revision's template by name, for in-place decisions.
    pub templates: &'a BTreeMap<String, PodTemplateSpec>,
    pub collision_count: i32,
    /// Labels of the nodes the pods run on (for topology-spread ranks when scaling in).
    pub node_labels: &'a BTreeMap<String, BTreeMap<String, String>>,
    pub now: Timestamp,
}

pub use crate::runtime::actions::{Action, Problem, Why};

#[derive(Debug, Clone, Default, PartialEq)]
pub struct Plan {
    pub actions: Vec<Action>,
    /// Warnings: `ScaleUpLimited`, `FailedUpdate` (InPlaceOnly refusals), bad numbers.
    pub problems: Vec<Problem>,
    /// The status to write, if it differs from the stored one.
    pub status: Option<CloneSetStatus>,
    /// The new `scaleStrategy.podsToDelete`, if names of vanished pods must be pruned.
    pub pods_to_delete: Option<Vec<String>>,
    /// Wake up after this long even without a change (grace periods, minReadySeconds, deadline).
    pub requeue_after: Option<Duration>,
    /// True when the update phase ran (so a cleared `FailedUpdate` can be dropped).
    pub update_ran: bool,
}

impl Plan {
    pub(super) fn wake(&mut self, after: Duration) {
        self.requeue_after = Some(self.requeue_after.map_or(after, |d| d.min(after)));
    }
}

/// The numbers of §3.6, resolved once.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Numbers {
    pub replicas: i64,
    pub partition: i64,
    pub max_surge: i64,
    pub max_unavailable: i64,
    pub scale_max_unavailable: Option<i64>,
    pub paused: bool,
    pub min_ready_seconds: i64,
}

impl Numbers {
    pub fn of(set: &CloneSet) -> Result<Self, InvalidIntOrPercent> {
        let spec = &set.spec;
        let replicas = i64::from(spec.replicas.unwrap_or(1).max(0));
        let strategy = spec.update_strategy.clone().unwrap_or_default();
        let paused = strategy.paused.unwrap_or(false);
        let partition = numbers::partition(strategy.partition.as_ref(), replicas)?;
        let max_surge = numbers::max_surge(strategy.max_surge.as_ref(), replicas, paused)?;
        let max_unavailable =
            numbers::max_unavailable(strategy.max_unavailable.as_ref(), replicas, max_surge)?;
        let scale_max_unavailable = numbers::scale_max_unavailable(
            spec.scale_strategy
                .as_ref()
                .and_then(|s| s.max_unavailable.as_ref()),
            replicas,
        )?;
        Ok(Numbers {
            replicas,
            partition,
            max_surge,
            max_unavailable,
            scale_max_unavailable,
            paused,
            min_ready_seconds: i64::from(spec.min_ready_seconds.unwrap_or(0).max(0)),
        })
    }
}

/// Active: not terminating and not finished.
pub fn is_active(pod: &Pod) -> bool {
    let phase = pod.status.as_ref().and_then(|s| s.phase.as_deref());
    pod.metadata.deletion_timestamp.is_none() && !matches!(phase, Some("Succeeded") | Some("Failed"))
}

pub use crate::runtime::inplace::step::rfc3339;

pub(super) fn lifecycle_of(set: &CloneSet) -> Lifecycle {
    set.spec.lifecycle.clone().unwrap_or_default()
}

pub(super) fn pods_to_delete(set: &CloneSet) -> Vec<String> {
    set.spec
        .scale_strategy
        .as_ref()
        .and_then(|s| s.pods_to_delete.clone())
        .unwrap_or_default()
}

pub(super) fn update_policy(set: &CloneSet) -> CloneSetUpdateStrategyType {
    set.spec
        .update_strategy
        .as_ref()
        .and_then(|s| s.type_)
        .unwrap_or(CloneSetUpdateStrategyType::ReCreate)
}

pub(super) use crate::runtime::inplace::step::label_patch;

/// The set's numbers, or why nothing can be planned for it (the `InvalidSpec` message,
/// naming the set and the field). `rollout status` asks the same.
pub fn checked_numbers(set: &CloneSet) -> Result<Numbers, String> {
    if let Some(message) = crate::workloads::too_many_replicas("CloneSet", &set.name_any(), set.spec.replicas)
    {
        return Err(message);
    }
    Numbers::of(set).map_err(|error| format!("CloneSet {}: spec.{error}", set.name_any()))
}

/// Plans one reconcile of a CloneSet that is not being deleted.
pub fn plan(snapshot: &Snapshot<'_>) -> Plan {
    let mut plan = Plan::default();
    let set = snapshot.set;
    let numbers = match checked_numbers(set) {
        Ok(n) => n,
        Err(message) => {
            plan.problems.push(Problem {
                reason: "InvalidSpec",
                message,
            });
            return plan;
        }
    };
    let selector = Selector::try_from(set.spec.selector.clone()).ok();
    let mut active: Vec<&Pod> = Vec::new();
    for pod in &snapshot.pods {
        let matches = selector.as_ref().is_some_and(|s| s.matches(pod.labels()));
        if !matches {
            let uid = set.uid().unwrap_or_default();
            plan.actions.push(Action::PatchPod {
                name: pod.name_any(),
                patch: json!({ "metadata": { "ownerReferences": [{ "$patch": "delete", "uid": uid }] } }),
                why: Why::Release,
            });
        } else if is_active(pod) {
            active.push(pod);
        }
    }
    claims_cleanup(snapshot, &active, &mut plan);

    // One set of diffs for both phases: they read the same snapshot.
    let diffs = super::plan_scale::diffs_of(snapshot, &numbers, &active);
    let scaled = super::plan_scale::plan_scale(snapshot, &numbers, &diffs, &active, &mut plan);
    if !scaled {
        plan.update_ran = true;
        super::plan_update::plan_update(snapshot, &numbers, &diffs, &active, &mut plan);
    }

    let names: BTreeSet<String> = active.iter().map(|p| p.name_any()).collect();
    let listed = pods_to_delete(set);
    if listed.iter().any(|n| !names.contains(n)) {
        plan.pods_to_delete = Some(listed.into_iter().filter(|n| names.contains(n)).collect());
    }
    super::plan_status::plan_status(snapshot, &numbers, &active, &mut plan);
    plan
}

/// `scaleStrategy.disablePVCReuse`.
pub(super) fn reuse_disabled(set: &CloneSet) -> bool {
    set.spec
        .scale_strategy
        .as_ref()
        .and_then(|s| s.disable_pvc_reuse)
        .unwrap_or(false)
}

/// With PVC reuse disabled, PVCs whose instance has no active pod are deleted (upstream moves
/// the owner to a terminating pod of that id instead; here they wait until that pod is gone).
fn claims_cleanup(snapshot: &Snapshot<'_>, active: &[&Pod], plan: &mut Plan) {
    if !reuse_disabled(snapshot.set) {
        return;
    }
    let set_name = snapshot.set.name_any();
    let ids_in_use: BTreeSet<&str> = snapshot.pods.iter().map(|p| pods::id_of(p, &set_name)).collect();
    let active_ids: BTreeSet<&str> = active.iter().map(|p| pods::id_of(p, &set_name)).collect();
    for claim in &snapshot.claims {
        let Some(id) = claim.labels().get(INSTANCE_ID_LABEL) else {
            continue;
        };
        if !active_ids.contains(id.as_str()) && !ids_in_use.contains(id.as_str()) {
            plan.actions.push(Action::DeleteClaim {
                name: claim.name_any(),
            });
        }
    }
}

pub(super) fn at_update_revision(snapshot: &Snapshot<'_>, pod: &Pod) -> bool {
    status::is_at_revision(pod, snapshot.update.name)
}

#[cfg(test)]
#[path = "plan_tests.rs"]
mod tests;
