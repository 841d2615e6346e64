//! The update phase of the CloneSet planner (reference §3.7, §1.5-1.9). Pure.
//!
//! 1. Refresh every pod: finish or drop grace periods, move lifecycle states on, add a
//!    missing `pod-template-hash`, and set `InPlaceUpdateReady=True` on pods whose in-place
//!    update completed (or that never had one). Any refresh write ends the phase.
//! 2. Unless paused: take the pods on the wrong side of the partition, order them
//!    (default order, priority, scatter, PreparingUpdate first), keep what the unavailable
//!    budget allows, and update each in place (policy and template diff permitting) or
//!    mark it for recreation (the scale phase of a later round replaces it).
//!
//! Invariant: a pod is never updated while it is in a grace period, PreparingDelete, or
//! marked for deletion; under `InPlaceOnly` a pod that cannot go in place is left alone and
//! a `FailedUpdate` problem names it and the first difference.
use k8s_openapi::api::core::v1::Pod;
use k8s_openapi::jiff::Timestamp;
use kube::ResourceExt;
use serde_json::json;

use super::order::{PodFacts, sort_for_update};
use super::plan::{
    Action, Numbers, Plan, Problem, Snapshot, Why, at_update_revision, label_patch, lifecycle_of,
    pod_template, pods_to_delete, rfc3339, update_policy,
};
use super::plan_scale::diffs_of;
use super::pods::{self, POD_TEMPLATE_HASH_LABEL, SPECIFIED_DELETE_LABEL};
use super::status::{self, REVISION_LABEL};
use super::update_limit::{SetCounts, update_batch};
use crate::api::cloneset::CloneSetUpdateStrategyType;
use crate::runtime::inplace::patch::{self, GraceStep, InPlaceUpdate};
use crate::runtime::inplace::state::{self, InPlaceUpdateState};
use crate::runtime::inplace::{Decision, decide};
use crate::runtime::lifecycle;

pub fn plan_update(snapshot: &Snapshot<'_>, numbers: &Numbers, active: &[&Pod], plan: &mut Plan) {
    if refresh(snapshot, active, plan) {
        return;
    }
    if numbers.paused {
        return;
    }
    let d = diffs_of(snapshot, numbers, active);
    if d.update_num == 0 {
        return;
    }
    let forward = d.update_num > 0;
    let target = if forward {
        snapshot.update
    } else {
        snapshot.current
    };
    let listed = pods_to_delete(snapshot.set);
    let candidates: Vec<&Pod> = active
        .iter()
        .copied()
        .filter(|p| at_update_revision(snapshot, p) != forward)
        .filter(|p| lifecycle::state(p) != lifecycle::PREPARING_DELETE)
        .filter(|p| !state::in_grace_period(p) || lifecycle::state(p) == lifecycle::UPDATED)
        .filter(|p| !pods::is_specified_delete(p, &listed))
        .collect();
    let ordered = update_order(snapshot, numbers, active, &candidates);
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
        update_pod(snapshot, pod, target, plan);
    }
}

/// Candidates in update order (reference §3.7 step 5).
fn update_order<'p>(
    snapshot: &Snapshot<'_>,
    numbers: &Numbers,
    active: &[&Pod],
    candidates: &[&'p Pod],
) -> Vec<&'p Pod> {
    let strategy = snapshot.set.spec.update_strategy.as_ref();
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
        names = super::scatter_order(names, active, terms);
    }
    let find = |name: &str| candidates.iter().copied().find(|p| p.name_any() == name);
    let mut ordered: Vec<&Pod> = names.iter().filter_map(|n| find(n)).collect();
    // Pods already in PreparingUpdate go first (stable).
    ordered.sort_by_key(|p| lifecycle::state(p) != lifecycle::PREPARING_UPDATE);
    ordered
}

fn seconds_since(timestamp: &str, now: Timestamp) -> i64 {
    timestamp
        .parse::<Timestamp>()
        .map_or(i64::MAX, |t| now.duration_since(t).as_secs())
}

/// Refresh (§1.8, §1.9, §3.7 step 1). True when it planned a write.
fn refresh(snapshot: &Snapshot<'_>, active: &[&Pod], plan: &mut Plan) -> bool {
    let hooks = lifecycle_of(snapshot.set);
    let now = rfc3339(snapshot.now);
    let before = plan.actions.len();
    for pod in active {
        let name = pod.name_any();
        let inplace_state = InPlaceUpdateState::of(pod).and_then(Result::ok);
        if state::in_grace_period(pod) {
            let elapsed = inplace_state
                .as_ref()
                .map_or(i64::MAX, |s| seconds_since(&s.update_timestamp, snapshot.now));
            match patch::grace_step(pod, pod.labels().get(REVISION_LABEL).map(String::as_str), elapsed) {
                Some(GraceStep::Wait(seconds)) => plan.wake(std::time::Duration::from_secs(seconds)),
                Some(GraceStep::Drop(p) | GraceStep::Apply(p)) => plan.actions.push(Action::PatchPod {
                    name,
                    patch: p,
                    why: Why::Grace,
                }),
                None => {}
            }
            continue;
        }
        if inplace_state
            .as_ref()
            .is_some_and(|s| !state::is_update_complete(pod, s))
        {
            continue;
        }
        let mut labels: Vec<(&str, Option<&str>)> = Vec::new();
        let next = next_lifecycle_state(snapshot, pod, &hooks);
        if let Some(next) = next {
            labels.push((lifecycle::STATE_LABEL, Some(next)));
        }
        let hash = pod
            .labels()
            .get(REVISION_LABEL)
            .map(|r| pods::short_hash(r).to_string());
        let missing_hash = !pod.labels().contains_key(POD_TEMPLATE_HASH_LABEL);
        if missing_hash && let Some(hash) = hash.as_deref() {
            labels.push((POD_TEMPLATE_HASH_LABEL, Some(hash)));
        }
        if !labels.is_empty() {
            let annotations: Vec<(&str, Option<&str>)> = if next.is_some() {
                vec![(lifecycle::TIMESTAMP_ANNOTATION, Some(&now))]
            } else {
                Vec::new()
            };
            plan.actions.push(Action::PatchPod {
                name: name.clone(),
                patch: label_patch(pod, &labels, &annotations),
                why: if next.is_some() {
                    Why::Lifecycle
                } else {
                    Why::TemplateHash
                },
            });
        }
        if patch::needs_gate_true(pod) {
            plan.actions.push(Action::PatchPodStatus {
                name,
                patch: patch::gate_true(&now),
                why: Why::ReadinessGate,
            });
        }
    }
    plan.actions.len() > before
}

/// The lifecycle state a settled pod moves to, if any (§1.9).
fn next_lifecycle_state(
    snapshot: &Snapshot<'_>,
    pod: &Pod,
    hooks: &crate::api::common::Lifecycle,
) -> Option<&'static str> {
    let update_hook = hooks.in_place_update.as_ref();
    let settled = if lifecycle::is_configured(update_hook) && !lifecycle::is_all_hooked(pod, update_hook) {
        lifecycle::UPDATED
    } else {
        lifecycle::NORMAL
    };
    match lifecycle::state(pod) {
        lifecycle::PREPARING_NORMAL => {
            let pre_normal = hooks.pre_normal.as_ref();
            let ready_to_go = if lifecycle::is_configured(pre_normal) {
                lifecycle::is_all_hooked(pod, pre_normal)
            } else {
                pod.spec
                    .as_ref()
                    .and_then(|s| s.node_name.as_deref())
                    .is_some_and(|n| !n.is_empty())
            };
            ready_to_go.then_some(lifecycle::NORMAL)
        }
        lifecycle::UPDATING => Some(settled),
        lifecycle::UPDATED => lifecycle::is_all_hooked(pod, update_hook).then_some(lifecycle::NORMAL),
        lifecycle::PREPARING_UPDATE if at_update_revision(snapshot, pod) => Some(settled),
        _ => None,
    }
}

/// Plans the update of one pod to `target`.
fn update_pod(snapshot: &Snapshot<'_>, pod: &Pod, target: super::plan::Revision<'_>, plan: &mut Plan) {
    let set = snapshot.set;
    let name = pod.name_any();
    let now = rfc3339(snapshot.now);
    let policy = update_policy(set);
    let decision = match pod_template(snapshot, pod) {
        Some(from) => decide(from, target.template),
        None => Decision::Recreate {
            reason: "the pod's revision is no longer in the history".into(),
        },
    };
    let (images, metadata) = match (&decision, policy) {
        (_, CloneSetUpdateStrategyType::ReCreate)
        | (Decision::Recreate { .. }, CloneSetUpdateStrategyType::InPlaceIfPossible) => {
            plan.actions.push(Action::PatchPod {
                name,
                patch: label_patch(pod, &[(SPECIFIED_DELETE_LABEL, Some("true"))], &[]),
                why: Why::UpdatePodReCreate,
            });
            return;
        }
        (Decision::Recreate { reason }, CloneSetUpdateStrategyType::InPlaceOnly) => {
            plan.problems.push(Problem {
                reason: "FailedUpdate",
                message: format!(
                    "pod {name} cannot be updated in place to revision {}: {reason}; updateStrategy.type is InPlaceOnly, so it is left as it is",
                    target.name
                ),
            });
            return;
        }
        (Decision::InPlace { images, metadata }, _) => (images.clone(), metadata.clone()),
        (Decision::Unchanged, _) => (Default::default(), Default::default()),
    };

    // The inPlaceUpdate hook (§1.9).
    let hooks = lifecycle_of(set);
    let hook = hooks.in_place_update.as_ref();
    match lifecycle::state(pod) {
        "" | lifecycle::PREPARING_NORMAL | lifecycle::NORMAL if lifecycle::is_hooked(pod, hook) => {
            plan.actions.push(Action::PatchPod {
                name,
                patch: label_patch(
                    pod,
                    &[(lifecycle::STATE_LABEL, Some(lifecycle::PREPARING_UPDATE))],
                    &[(lifecycle::TIMESTAMP_ANNOTATION, Some(&now))],
                ),
                why: Why::Lifecycle,
            });
            return;
        }
        lifecycle::UPDATED if lifecycle::is_configured(hook) => {
            let mut patch = label_patch(
                pod,
                &[(lifecycle::STATE_LABEL, Some(lifecycle::PREPARING_UPDATE))],
                &[(lifecycle::TIMESTAMP_ANNOTATION, Some(&now))],
            );
            if let Some(h) = hook {
                for (k, v) in h.labels_handler.iter().flatten() {
                    patch["metadata"]["labels"][k] = json!(v);
                }
                if let Some(f) = h.finalizers_handler.as_ref() {
                    patch["metadata"]["finalizers"] = json!(f);
                }
            }
            plan.actions.push(Action::PatchPod {
                name,
                patch,
                why: Why::Lifecycle,
            });
            return;
        }
        lifecycle::PREPARING_UPDATE if lifecycle::is_hooked(pod, hook) => return,
        ""
        | lifecycle::PREPARING_NORMAL
        | lifecycle::NORMAL
        | lifecycle::PREPARING_UPDATE
        | lifecycle::UPDATING
        | lifecycle::UPDATED => {}
        _ => return,
    }

    if !images.is_empty()
        && let Some(p) = patch::gate_false(pod, &now)
    {
        plan.actions.push(Action::PatchPodStatus {
            name: name.clone(),
            patch: p,
            why: Why::UpdatePodInPlace,
        });
    }
    let mut extra_labels = std::collections::BTreeMap::from([(
        POD_TEMPLATE_HASH_LABEL.to_string(),
        Some(pods::short_hash(target.name).to_string()),
    )]);
    let mut extra_annotations = std::collections::BTreeMap::new();
    // The Updating state costs a write to leave again, so it is only entered when a hook
    // wants to see it (upstream always enters it).
    if lifecycle::is_configured(hook) {
        extra_labels.insert(
            lifecycle::STATE_LABEL.to_string(),
            Some(lifecycle::UPDATING.to_string()),
        );
        extra_annotations.insert(lifecycle::TIMESTAMP_ANNOTATION.to_string(), Some(now.clone()));
    }
    let grace_seconds = set
        .spec
        .update_strategy
        .as_ref()
        .and_then(|s| s.in_place_update_strategy.as_ref())
        .and_then(|s| s.grace_period_seconds)
        .unwrap_or(0);
    let update = InPlaceUpdate {
        target_revision: target.name,
        images: &images,
        metadata: &metadata,
        grace_seconds,
        extra_labels,
        extra_annotations,
    };
    plan.actions.push(Action::PatchPod {
        name,
        patch: patch::update_pod(pod, &update, &now),
        why: Why::UpdatePodInPlace,
    });
    if grace_seconds > 0 && !images.is_empty() {
        plan.wake(std::time::Duration::from_secs(
            grace_seconds.unsigned_abs().into(),
        ));
    }
}
