//! The update phase of the CloneSet planner (upstream's `Update`). Pure.
//!
//! 1. Refresh every pod (the shared [`crate::runtime::inplace::step::refresh`]): finish or
//!    drop grace periods, move lifecycle states on, add a missing `pod-template-hash`, and
//!    set `InPlaceUpdateReady=True` on pods whose in-place update completed (or that never
//!    had one). Any refresh write ends the phase.
//! 2. Unless paused: take the pods on the wrong side of the partition, order them
//!    (default order, priority, scatter, PreparingUpdate first), keep what the unavailable
//!    budget allows, and update each in place (policy and template diff permitting) or
//!    recreate it: delete it now when no surge pod or preDelete hook must come first,
//!    else mark it `specified-delete` for the scale phase of a later round. Either way the
//!    scale phase creates the replacement at the update revision.
//!
//! Invariant: a pod is never updated while it is in a grace period, PreparingDelete, or
//! marked for deletion; under `InPlaceOnly` a pod that cannot go in place is left alone and
//! a `FailedUpdate` problem names it and the first difference.
use k8s_openapi::api::core::v1::Pod;
use kube::ResourceExt;

use super::diffs::Diffs;
use super::order::{PodFacts, sort_for_update};
use super::pods::{self, POD_TEMPLATE_HASH_LABEL, SPECIFIED_DELETE_LABEL};
use super::round::{
    Action, Numbers, Plan, Problem, Snapshot, Why, at_update_revision, label_patch, lifecycle_of,
    pods_to_delete,
};
use super::status;
use super::update_limit::{SetCounts, update_batch};
use crate::api::common::{Lifecycle, PodUpdatePolicy};
use crate::runtime::inplace::state;
use crate::runtime::inplace::step::{self, StepContext, Steps, Update};
use crate::runtime::lifecycle;

pub fn plan_update(snapshot: &Snapshot<'_>, numbers: &Numbers, d: &Diffs, active: &[&Pod], plan: &mut Plan) {
    if refresh(snapshot, active, plan) {
        return;
    }
    if numbers.paused {
        return;
    }
    if d.update_num == 0 {
        return;
    }
    let forward = d.update_num > 0;
    let target = if forward {
        snapshot.update
    } else {
        snapshot.current
    };
    let ordered = candidates_in_order(snapshot, numbers, active, forward);
    let at_target = |p: &Pod| status::is_at_revision(p, target.name);
    let unavailable: Vec<&&Pod> = active
        .iter()
        .filter(|p| !status::is_available(p, numbers.min_ready_seconds, snapshot.now))
        .collect();
    let counts = SetCounts {
        unavailable: unavailable.len() as i64,
        unavailable_at_target: unavailable.iter().filter(|p| at_target(p)).count() as i64,
    };
    let flags: Vec<bool> = ordered
        .iter()
        .map(|p| status::is_available(p, numbers.min_ready_seconds, snapshot.now))
        .collect();
    let batch = update_batch(&flags, d.update_num, d.update_max_unavailable, counts);
    for pod in ordered.into_iter().take(batch) {
        update_pod(snapshot, numbers, pod, target, plan);
    }
}

/// The pods an update towards the update revision (`forward`) or back to the current one
/// would take, in the order it takes them: not at the target, not PreparingDelete, not in a
/// grace period (unless Updated), not marked for deletion, then in update order. The planner
/// takes a batch from the front; `set partition` previews the same list.
pub fn candidates_in_order<'p>(
    snapshot: &Snapshot<'_>,
    numbers: &Numbers,
    active: &[&'p Pod],
    forward: bool,
) -> Vec<&'p Pod> {
    let listed = pods_to_delete(snapshot.set);
    let candidates: Vec<&Pod> = active
        .iter()
        .copied()
        .filter(|p| at_update_revision(snapshot, p) != forward)
        .filter(|p| lifecycle::state(p) != lifecycle::PREPARING_DELETE)
        .filter(|p| !state::in_grace_period(p) || lifecycle::state(p) == lifecycle::UPDATED)
        .filter(|p| !pods::is_specified_delete(p, &listed))
        .collect();
    update_order(snapshot, numbers, active, &candidates)
}

/// Candidates in update order (upstream's `SortUpdateIndexes`): the default pod order,
/// then priority, then scatter, then PreparingUpdate pods first.
fn update_order<'p>(
    snapshot: &Snapshot<'_>,
    numbers: &Numbers,
    active: &[&Pod],
    candidates: &[&'p Pod],
) -> Vec<&'p Pod> {
    let strategy = snapshot.set.spec.update();
    let strategy = Some(&strategy);
    let mut facts: Vec<PodFacts> = candidates
        .iter()
        .map(|p| PodFacts::from_resource(p, numbers.min_ready_seconds, snapshot.now))
        .collect();
    sort_for_update(&mut facts, strategy.and_then(|s| s.priority_strategy.as_ref()));
    let mut names: Vec<String> = facts.into_iter().map(|f| f.name).collect();
    if let Some(terms) = strategy
        .and_then(|s| s.scatter_strategy.as_ref())
        .filter(|t| !t.is_empty())
    {
        names = crate::workloads::common::scatter::order(names, active, terms);
    }
    let find = |name: &str| candidates.iter().copied().find(|p| p.name_any() == name);
    let mut ordered: Vec<&Pod> = names.iter().filter_map(|n| find(n)).collect();
    // Pods already in PreparingUpdate go first (stable).
    ordered.sort_by_key(|p| lifecycle::state(p) != lifecycle::PREPARING_UPDATE);
    ordered
}

/// The shared per-pod step's view of this set.
fn step_context<'a>(snapshot: &'a Snapshot<'a>, hooks: &'a Lifecycle) -> StepContext<'a> {
    let grace_seconds = snapshot
        .set
        .spec
        .update()
        .in_place_update_strategy
        .and_then(|s| s.grace_period_seconds)
        .unwrap_or(0);
    StepContext {
        hooks,
        templates: snapshot.templates,
        update_revision: snapshot.update.name,
        grace_seconds,
        now: snapshot.now,
        hash_label: Some(POD_TEMPLATE_HASH_LABEL),
    }
}

/// Refresh every pod before any update: grace periods, lifecycle states, the missing
/// `pod-template-hash`, the `InPlaceUpdateReady` gate. True when it planned a write.
fn refresh(snapshot: &Snapshot<'_>, active: &[&Pod], plan: &mut Plan) -> bool {
    let hooks = lifecycle_of(snapshot.set);
    let steps = step::refresh(&step_context(snapshot, &hooks), active);
    let wrote = !steps.actions.is_empty();
    plan.absorb(steps);
    wrote
}

/// Plans the update of one pod to `target`: in place through the shared step, recreated,
/// or refused under InPlaceOnly. A pod to recreate is deleted at once when nothing has to
/// happen before its delete; otherwise it is marked `specified-delete` and the scale phase
/// of a later round deletes it (see [`recreate`]).
fn update_pod(
    snapshot: &Snapshot<'_>,
    numbers: &Numbers,
    pod: &Pod,
    target: super::round::Revision<'_>,
    plan: &mut Plan,
) {
    let hooks = lifecycle_of(snapshot.set);
    let ctx = step_context(snapshot, &hooks);
    let policy = snapshot.set.spec.pod_update_policy();
    let mut steps = Steps::default();
    let name = pod.name_any();
    // RecreatePodWhenChangeVCTInCloneSetGate: a pod whose claims no longer match the claim
    // templates is recreated (with new claims), unless the policy is InPlaceOnly.
    let outdated_claims = snapshot.features.recreate_pod_when_claim_templates_change
        && policy != PodUpdatePolicy::InPlaceOnly
        && super::claims::outdated(snapshot.set, &snapshot.claims, pod);
    let decided = if outdated_claims {
        Update::Recreate
    } else {
        step::update_pod(&ctx, pod, target.name, target.template, policy, &mut steps)
    };
    match decided {
        Update::Recreate => plan.actions.push(recreate(snapshot, numbers, &hooks, pod)),
        Update::Refused { reason } => plan.problems.push(Problem {
            reason: "FailedUpdate",
            message: format!(
                "pod {name} cannot be updated in place to revision {}: {reason}; updateStrategy.type is InPlaceOnly, so it is left as it is",
                target.name
            ),
        }),
        Update::Planned | Update::Held => {}
    }
    plan.absorb(steps);
}

/// The write that starts recreating `pod`. Upstream always marks it `specified-delete`, so
/// the scale phase deletes it within its budget; that costs a pod write and a round. The
/// mark is needed only when something must come first: a surge pod (maxSurge > 0: the
/// scale phase creates the replacement before the delete) or a preDelete hook (the pod
/// goes through PreparingDelete). Otherwise the pod is deleted now: the update batch has
/// already counted it against maxUnavailable, the scale phase of the next round creates
/// its replacement at the update revision, and a crash before the delete plans it again.
fn recreate(snapshot: &Snapshot<'_>, numbers: &Numbers, hooks: &Lifecycle, pod: &Pod) -> Action {
    if numbers.max_surge == 0 && !lifecycle::is_hooked(pod, hooks.pre_delete.as_ref()) {
        return super::plan_scale::delete_action(snapshot, pod, Some(Why::RecreatePod));
    }
    Action::PatchPod {
        name: pod.name_any(),
        patch: label_patch(pod, &[(SPECIFIED_DELETE_LABEL, Some("true"))], &[]),
        why: Why::UpdatePodReCreate,
    }
}
