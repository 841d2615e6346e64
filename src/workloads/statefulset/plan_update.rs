//! The rolling update of an Advanced StatefulSet (upstream's `rollingUpdateStatefulsetPods`).
//! Pure.
//!
//! 1. (Done before, in the replica pass: the shared refresh; a refresh write skips this
//!    phase.)
//! 2. Unavailable: replicas not Running+Ready for minReadySeconds with lifecycle Normal,
//!    terminating, mid in-place update, or missing (no pod yet: deleted by an earlier round
//!    and not recreated, or created this round).
//! 3. Specified deletes (`apps.kruise.io/specified-delete`), highest ordinal first, within
//!    the budget (an unavailable one always goes).
//! 4. Candidates: ordered, the ordinals from the highest down to position `partition`;
//!    unordered, updated and terminating pods first (they use the budget), then the others
//!    by priority (else highest ordinal first), cut to `replicas - partition`.
//! 5. Each candidate not at the update revision: stop when the budget is used and it is
//!    available; else update it in place (policy permitting) or delete it (it is recreated
//!    at the update revision next round).
//!
//! Invariant (property-tested): a round never makes more than `maxUnavailable` replicas
//! unavailable, counting those already unavailable; an unavailable pod can always be updated.
use std::collections::{BTreeMap, BTreeSet};

use k8s_openapi::api::core::v1::Pod;
use kube::ResourceExt;

use super::round::{Numbers, Plan, Snapshot, delete_pod, healthy, lifecycle_of, step_context};
use crate::runtime::actions::{Action, Problem};
use crate::runtime::inplace::state::{self, InPlaceUpdateState};
use crate::runtime::inplace::step::{self, Steps, Update};
use crate::runtime::revision::is_at_revision;
use crate::workloads::common::SPECIFIED_DELETE_LABEL;
use crate::workloads::common::order::{PodFacts, sort_for_update};

/// Is the pod's in-place update (if any) finished?
fn in_place_done(pod: &Pod) -> bool {
    if state::in_grace_period(pod) {
        return false;
    }
    InPlaceUpdateState::of(pod)
        .and_then(Result::ok)
        .is_none_or(|s| state::is_update_complete(pod, &s))
}

pub fn plan_update(snapshot: &Snapshot<'_>, n: &Numbers, replicas: &BTreeMap<i32, &Pod>, plan: &mut Plan) {
    let hooks = lifecycle_of(snapshot.set);
    let ctx = step_context(snapshot, n, &hooks);
    let pods: Vec<&Pod> = replicas.values().copied().collect();

    let available = |p: &Pod| healthy(p, n, snapshot.now) && in_place_done(p);
    // A replica with no pod (deleted and not yet recreated, or being created this round)
    // is as unavailable as a terminating one: its ordinal's name stands for it.
    let set_name = snapshot.set.name_any();
    let missing = n
        .valid
        .iter()
        .filter(|o| !replicas.contains_key(o))
        .map(|o| super::identity::pod_name(&set_name, *o));
    let mut unavailable: BTreeSet<String> = pods
        .iter()
        .filter(|p| !available(p))
        .map(|p| p.name_any())
        .chain(missing)
        .collect();

    // Specified deletes, highest ordinal first, not limited by the partition.
    for pod in pods
        .iter()
        .rev()
        .filter(|p| p.labels().contains_key(SPECIFIED_DELETE_LABEL))
    {
        if pod.metadata.deletion_timestamp.is_some() {
            continue;
        }
        let name = pod.name_any();
        if !unavailable.contains(&name) && unavailable.len() >= n.max_unavailable {
            continue;
        }
        delete_pod(snapshot, pod, Vec::new(), plan);
        unavailable.insert(name);
    }

    for pod in candidates(snapshot, n, replicas) {
        if is_at_revision(pod, snapshot.update.name) || pod.metadata.deletion_timestamp.is_some() {
            continue;
        }
        let name = pod.name_any();
        let is_unavailable = unavailable.contains(&name);
        if !is_unavailable && unavailable.len() >= n.max_unavailable {
            break;
        }
        if plan
            .actions
            .iter()
            .any(|a| matches!(a, Action::DeletePod { name: d, .. } if *d == name))
        {
            continue;
        }
        let mut steps = Steps::default();
        match step::update_pod(
            &ctx,
            pod,
            snapshot.update.name,
            snapshot.update.template,
            n.policy,
            &mut steps,
        ) {
            Update::Recreate => delete_pod(snapshot, pod, Vec::new(), plan),
            Update::Refused { reason } => {
                plan.problems.push(Problem {
                    reason: "FailedUpdatePod",
                    message: format!(
                        "pod {name} cannot be updated in place to revision {}: {reason}; podUpdatePolicy is InPlaceOnly, so it is left as it is",
                        snapshot.update.name
                    ),
                });
                continue;
            }
            Update::Planned => {}
            Update::Held => continue,
        }
        plan.absorb(steps);
        unavailable.insert(name);
    }
}

/// The pods the partition lets through, in update order (step 4).
pub(crate) fn candidates<'p>(
    snapshot: &Snapshot<'_>,
    n: &Numbers,
    replicas: &BTreeMap<i32, &'p Pod>,
) -> Vec<&'p Pod> {
    let through = usize::try_from(n.replicas - n.partition).unwrap_or(0);
    match n.mode {
        super::ordinals::UpdateMode::Unordered => {
            let (first, rest): (Vec<&Pod>, Vec<&Pod>) = replicas.values().rev().copied().partition(|p| {
                is_at_revision(p, snapshot.update.name) || p.metadata.deletion_timestamp.is_some()
            });
            let priority = snapshot
                .set
                .spec
                .update_strategy
                .as_ref()
                .and_then(|s| s.rolling_update.as_ref())
                .and_then(|r| r.unordered_update.as_ref())
                .and_then(|u| u.priority_strategy.as_ref());
            let rest = match priority {
                Some(priority) => {
                    // Ties keep the highest-ordinal-first order (the sort is stable).
                    let mut facts: Vec<PodFacts> = rest
                        .iter()
                        .map(|p| PodFacts::from_resource(p, n.min_ready_seconds, snapshot.now))
                        .collect();
                    for f in &mut facts {
                        // Only the priority decides here, not readiness or age.
                        f.scheduled = true;
                        f.phase_rank = 0;
                        f.ready = false;
                        f.ready_since = None;
                        f.restarts = 0;
                        f.created = None;
                    }
                    sort_for_update(&mut facts, Some(priority));
                    facts
                        .iter()
                        .filter_map(|f| rest.iter().copied().find(|p| p.name_any() == f.name))
                        .collect()
                }
                None => rest,
            };
            first.into_iter().chain(rest).take(through).collect()
        }
        _ => {
            let partition = usize::try_from(n.partition).unwrap_or(0);
            n.valid
                .iter()
                .skip(partition)
                .rev()
                .filter_map(|o| replicas.get(o).copied())
                .collect()
        }
    }
}
