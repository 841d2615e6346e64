//! The CloneSet planner (upstream's `syncCloneSet`): a pure function from a [`Snapshot`]
//! (the set, its pods, PVCs and revisions, the clock) to a [`Plan`] (typed actions, the
//! status to store, the next wake-up). The executor in [`super::executor`] is the only code
//! that writes.
//!
//! ```text
//! snapshot ─> claim pods (release mismatches) ─> PVC cleanup (reuse off)
//!          ─> scale (plan_scale)  ── wrote? ──yes──> stop
//!                   │no
//!          ─> update (plan_update: refresh, then in place / recreate)
//!          ─> status (plan_status), podsToDelete pruning, history truncation
//! ```
//!
//! Invariants (property-tested in `plan_tests.rs`): the partition is respected; an update
//! step never makes more than maxUnavailable pods unavailable; scaling never goes above
//! `replicas + maxSurge`; pods named in podsToDelete are the ones deleted.
use std::collections::BTreeSet;

use k8s_openapi::api::core::v1::Pod;
use kube::ResourceExt;
use kube::core::{Selector, SelectorExt};
use serde_json::json;

use super::pods::{self, INSTANCE_ID_LABEL};
pub use super::round::{
    Action, Numbers, Plan, Problem, Revision, Snapshot, Why, checked_numbers, is_active, rfc3339,
};
use super::round::{pods_to_delete, reuse_disabled};

/// Plans one reconcile of a CloneSet that is not being deleted.
pub fn plan(snapshot: &Snapshot<'_>) -> Plan {
    plan_phases(snapshot).0
}

/// [`plan`], and whether its update phase ran (the scale phase wrote nothing).
pub(super) fn plan_phases(snapshot: &Snapshot<'_>) -> (Plan, bool) {
    let mut plan = Plan::default();
    let set = snapshot.set;
    let numbers = match checked_numbers(set) {
        Ok(n) => n,
        Err(message) => return (plan.refuse(message), false),
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

    // The diffs of both phases read the same snapshot; only PreparingUpdateAsUpdate makes
    // them differ (as upstream, the scale phase then counts a PreparingUpdate pod as
    // updated, the update phase by its revision).
    use super::plan_scale::Phase;
    let scale_diffs = super::plan_scale::diffs_of(snapshot, &numbers, &active, Phase::Scale);
    let scaled = super::plan_scale::plan_scale(snapshot, &numbers, &scale_diffs, &active, &mut plan);
    if !scaled {
        let diffs = if snapshot.features.preparing_update_as_update {
            super::plan_scale::diffs_of(snapshot, &numbers, &active, Phase::Update)
        } else {
            scale_diffs
        };
        super::plan_update::plan_update(snapshot, &numbers, &diffs, &active, &mut plan);
    }

    let names: BTreeSet<String> = active.iter().map(|p| p.name_any()).collect();
    let listed = pods_to_delete(set);
    if listed.iter().any(|n| !names.contains(n)) {
        let kept: Vec<String> = listed.into_iter().filter(|n| names.contains(n)).collect();
        plan.spec_patch = Some(json!({ "spec": { "scaleStrategy": { "podsToDelete": kept } } }));
    }
    super::plan_status::plan_status(snapshot, &numbers, &active, !scaled, &mut plan);
    (plan, !scaled)
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

#[cfg(test)]
#[path = "plan_tests.rs"]
mod tests;
