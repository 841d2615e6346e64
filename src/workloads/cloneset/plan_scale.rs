//! The scale phase of the CloneSet planner (upstream's `Scale`). Pure.
//!
//! Steps, stopping after the first one that plans a write:
//! 1. move PreparingDelete pods back when replicas grew;
//! 2. create pods (capped by scaleStrategy.maxUnavailable; old revision first, for the
//!    partition), reusing the ids of PVCs whose pod vanished;
//! 3. delete PreparingDelete pods whose preDelete hook was released;
//! 4. specified deletes (podsToDelete, the specified-delete label): unready pods always,
//!    ready ones within the delete budget;
//! 5. scale in: old pods first, most deletable first, ready ones within the budget.
//!
//! Invariant: the budget for deleting READY pods is `maxUnavailable + (active − replicas) −
//! unavailable`, so a scale-in or specified delete never takes more than maxUnavailable
//! pods out of service, surge pods included.
use std::collections::BTreeSet;

use k8s_openapi::api::core::v1::Pod;
use kube::ResourceExt;

use super::diffs::{ClassCounts, DiffInput, Diffs, diffs};
use super::order::{PodFacts, sort_for_deletion};
use super::pods::{self, INSTANCE_ID_LABEL};
use super::rank::RankInput;
use super::round::{
    Action, Numbers, Plan, Problem, Snapshot, Why, at_update_revision, label_patch, lifecycle_of,
    pods_to_delete, rfc3339,
};
use super::status;
use crate::runtime::lifecycle;

fn counts(
    pods: &[&Pod],
    numbers: &Numbers,
    listed: &[String],
    now: k8s_openapi::jiff::Timestamp,
) -> ClassCounts {
    let mut c = ClassCounts::default();
    for pod in pods {
        c.total += 1;
        if lifecycle::state(pod) == lifecycle::PREPARING_DELETE {
            c.pre_deleting += 1;
        } else if pods::is_specified_delete(pod, listed) {
            c.to_delete += 1;
        } else if !status::is_available(pod, numbers.min_ready_seconds, now) {
            c.unavailable += 1;
        }
    }
    c
}

/// Which phase a diff is for (see [`diffs_of`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Phase {
    Scale,
    Update,
}

/// The scale and update diffs for this snapshot, for `phase`.
pub fn diffs_of(snapshot: &Snapshot<'_>, numbers: &Numbers, active: &[&Pod], phase: Phase) -> Diffs {
    let listed = pods_to_delete(snapshot.set);
    // With PreparingUpdateAsUpdate, scaling counts a pod a hook holds before its update as
    // updated; the update phase still has to move it.
    let as_updated = |p: &Pod| {
        at_update_revision(snapshot, p)
            || (phase == Phase::Scale
                && snapshot.features.preparing_update_as_update
                && lifecycle::state(p) == lifecycle::PREPARING_UPDATE)
    };
    let (updated, old): (Vec<&Pod>, Vec<&Pod>) = active.iter().partition(|p| as_updated(p));
    let exclude = snapshot
        .set
        .spec
        .excludes_preparing_delete(snapshot.set.metadata.labels.as_ref());
    diffs(&DiffInput {
        replicas: numbers.replicas,
        partition: numbers.partition,
        max_surge: numbers.max_surge,
        max_unavailable: numbers.max_unavailable,
        scale_max_unavailable: numbers.scale_max_unavailable,
        updated: counts(&updated, numbers, &listed, snapshot.now),
        old: counts(&old, numbers, &listed, snapshot.now),
        allow_rollback: snapshot.features.cloneset_partition_rollback
            && snapshot.update.name != snapshot.current.name,
        exclude_preparing_delete: exclude,
    })
}

/// Plans the scale phase; true when it planned a write (the update phase then waits).
pub fn plan_scale(
    snapshot: &Snapshot<'_>,
    numbers: &Numbers,
    d: &Diffs,
    active: &[&Pod],
    plan: &mut Plan,
) -> bool {
    let set = snapshot.set;
    let hooks = lifecycle_of(set);
    let now = rfc3339(snapshot.now);
    let listed = pods_to_delete(set);

    // 1. Replicas grew while pods wait in PreparingDelete: bring some back.
    let pre_deleting: Vec<&&Pod> = active
        .iter()
        .filter(|p| {
            lifecycle::state(p) == lifecycle::PREPARING_DELETE && !pods::is_specified_delete(p, &listed)
        })
        .collect();
    let working = active.len() as i64 - pre_deleting.len() as i64;
    let marks_not_ready = [hooks.pre_delete.as_ref(), hooks.in_place_update.as_ref()]
        .iter()
        .any(|h| h.is_some_and(|h| h.mark_pod_not_ready == Some(true)));
    if !pre_deleting.is_empty() && working < numbers.replicas && !marks_not_ready {
        let back = lifecycle::PREPARING_NORMAL;
        for pod in pre_deleting.iter().take((numbers.replicas - working) as usize) {
            plan.actions.push(Action::PatchPod {
                name: pod.name_any(),
                patch: label_patch(
                    pod,
                    &[(lifecycle::STATE_LABEL, Some(back))],
                    &[(lifecycle::TIMESTAMP_ANNOTATION, Some(&now))],
                ),
                why: Why::Lifecycle,
            });
        }
        return true;
    }

    // 2. Scale up.
    if d.scale_up_limit > 0 {
        if d.scale_up_limit < d.scale_up {
            plan.problems.push(Problem {
                reason: "ScaleUpLimited",
                message: format!(
                    "scaleStrategy.maxUnavailable limits creating pods to {} of {} for now",
                    d.scale_up_limit, d.scale_up
                ),
            });
        }
        create_pods(snapshot, d, plan);
        return true;
    }

    // 3. PreparingDelete pods whose hook let go.
    let released: Vec<&&Pod> = active
        .iter()
        .filter(|p| {
            lifecycle::state(p) == lifecycle::PREPARING_DELETE
                && !lifecycle::is_hooked(p, hooks.pre_delete.as_ref())
        })
        .collect();
    if !released.is_empty() {
        for pod in released {
            plan.actions.push(delete_action(snapshot, pod, None));
        }
        return true;
    }

    let mut ready_budget = d.delete_ready_limit;
    // 4. Specified deletes.
    let specified: Vec<&&Pod> = active
        .iter()
        .filter(|p| {
            lifecycle::state(p) != lifecycle::PREPARING_DELETE && pods::is_specified_delete(p, &listed)
        })
        .collect();
    let mut wrote = false;
    for pod in &specified {
        if status::is_available(pod, 0, snapshot.now) {
            if ready_budget <= 0 {
                continue;
            }
            ready_budget -= 1;
        }
        plan.actions.push(delete_or_prepare(snapshot, pod, &now));
        wrote = true;
    }
    if wrote {
        return true;
    }
    if !specified.is_empty()
        || active
            .iter()
            .any(|p| lifecycle::state(p) == lifecycle::PREPARING_DELETE)
    {
        // Something is still waiting to go; scale-in would double count it.
        return false;
    }

    // 5. Scale in.
    for name in scale_in_choice(snapshot, numbers, d, active) {
        let Some(pod) = active.iter().find(|p| p.name_any() == name) else {
            continue;
        };
        if status::is_available(pod, 0, snapshot.now) {
            if ready_budget <= 0 {
                continue;
            }
            ready_budget -= 1;
        }
        plan.actions.push(delete_or_prepare(snapshot, pod, &now));
        wrote = true;
    }
    wrote
}

/// The `d.scale_down` pods of `active` a scale-in deletes, in order: old pods first (as
/// many as `d.scale_down_old`), then updated ones, each group most deletable first (the
/// deletion order with the topology ranks); old ones again when the updated run out. The
/// ready ones among them then go within the delete budget, a round at a time.
pub(super) fn scale_in_choice(
    snapshot: &Snapshot<'_>,
    numbers: &Numbers,
    d: &Diffs,
    active: &[&Pod],
) -> Vec<String> {
    if d.scale_down <= 0 {
        return Vec::new();
    }
    let constraints = snapshot
        .set
        .spec
        .template
        .spec
        .as_ref()
        .and_then(|s| s.topology_spread_constraints.clone())
        .unwrap_or_default();
    let sorted_names = |pods: Vec<&&Pod>| -> Vec<String> {
        let mut facts: Vec<PodFacts> = pods
            .iter()
            .map(|p| PodFacts::from_resource(p, numbers.min_ready_seconds, snapshot.now))
            .collect();
        let inputs: Vec<RankInput<'_>> = facts
            .iter()
            .zip(&pods)
            .map(|(f, p)| RankInput {
                facts: f,
                node_name: p.spec.as_ref().and_then(|s| s.node_name.as_deref()),
            })
            .collect();
        let ranks = super::rank::ranks(&inputs, &constraints, |node| snapshot.node_labels.get(node));
        for (f, r) in facts.iter_mut().zip(ranks) {
            // Ranks are sums of small integers times logarithms: 1e6 keeps their order.
            f.rank = (r * 1e6).round() as i64;
        }
        sort_for_deletion(&mut facts);
        facts.into_iter().map(|p| p.name).collect()
    };
    let (updated, old): (Vec<&&Pod>, Vec<&&Pod>) =
        active.iter().partition(|p| at_update_revision(snapshot, p));
    let old_sorted = sorted_names(old);
    let new_sorted = sorted_names(updated);
    let from_old = d.scale_down_old.min(d.scale_down).max(0) as usize;
    let mut chosen: Vec<String> = old_sorted.iter().take(from_old).cloned().collect();
    let rest = d.scale_down as usize - chosen.len();
    let mut more: Vec<String> = new_sorted.iter().take(rest).cloned().collect();
    if more.len() < rest {
        // Not enough new pods: the remainder comes from old ones.
        let extra = rest - more.len();
        more.extend(old_sorted.iter().skip(from_old).take(extra).cloned());
    }
    chosen.extend(more);
    chosen
}

/// Delete now, or move to PreparingDelete while the preDelete hook holds the pod.
fn delete_or_prepare(snapshot: &Snapshot<'_>, pod: &Pod, now: &str) -> Action {
    let hooks = lifecycle_of(snapshot.set);
    if lifecycle::is_hooked(pod, hooks.pre_delete.as_ref()) {
        return Action::PatchPod {
            name: pod.name_any(),
            patch: label_patch(
                pod,
                &[(lifecycle::STATE_LABEL, Some(lifecycle::PREPARING_DELETE))],
                &[(lifecycle::TIMESTAMP_ANNOTATION, Some(now))],
            ),
            why: Why::Lifecycle,
        };
    }
    delete_action(snapshot, pod, None)
}

/// Delete `pod` with its PVCs (its id is not reused); `why` names a delete with its own event.
pub(super) fn delete_action(snapshot: &Snapshot<'_>, pod: &Pod, why: Option<Why>) -> Action {
    let set_name = snapshot.set.name_any();
    let name = pod.name_any();
    let id = pods::id_of(pod, &set_name).to_string();
    let claims = snapshot
        .claims
        .iter()
        .filter(|c| c.labels().get(INSTANCE_ID_LABEL) == Some(&id))
        .map(|c| c.name_any())
        .collect();
    Action::DeletePod {
        uid: pod.uid().unwrap_or_default(),
        name,
        claims,
        why,
    }
}

/// Pods to create: ids of orphaned PVCs first (their pod vanished), then fresh ids; the
/// first `scale_up_old` from the current revision, the rest from the update revision.
fn create_pods(snapshot: &Snapshot<'_>, d: &Diffs, plan: &mut Plan) {
    let set = snapshot.set;
    let set_name = set.name_any();
    let mut taken: BTreeSet<String> = snapshot
        .pods
        .iter()
        .map(|p| pods::id_of(p, &set_name).to_string())
        .collect();
    let active_ids: BTreeSet<String> = snapshot
        .pods
        .iter()
        .filter(|p| super::round::is_active(p))
        .map(|p| pods::id_of(p, &set_name).to_string())
        .collect();
    // An id whose old pod is still terminating is kept for it: creating now would either
    // clash with that name or strand its PVCs, so that slot waits a moment.
    let terminating: BTreeSet<String> = snapshot
        .pods
        .iter()
        .filter(|p| p.metadata.deletion_timestamp.is_some())
        .map(|p| pods::id_of(p, &set_name).to_string())
        .collect();
    // Without reuse, an orphaned claim is being deleted (by the cleanup of this very round):
    // a pod given its id would wait on that claim forever ("is being deleted", then "not
    // found"), so every new pod gets a fresh id and fresh claims.
    let reuse = !super::round::reuse_disabled(set);
    let orphaned: BTreeSet<String> = snapshot
        .claims
        .iter()
        .filter(|_| reuse)
        .filter_map(|c| c.labels().get(INSTANCE_ID_LABEL).cloned())
        .filter(|id| !active_ids.contains(id))
        .collect();
    let waiting = orphaned.iter().filter(|id| terminating.contains(*id)).count() as i64;
    if waiting > 0 {
        plan.wake(std::time::Duration::from_millis(500));
    }
    let mut free: Vec<String> = orphaned.into_iter().filter(|id| !taken.contains(id)).collect();
    taken.extend(
        snapshot
            .claims
            .iter()
            .filter_map(|c| c.labels().get(INSTANCE_ID_LABEL).cloned()),
    );
    let now = rfc3339(snapshot.now);
    for i in 0..(d.scale_up_limit - waiting).max(0) {
        let id = if free.is_empty() {
            pods::random_id(&taken)
        } else {
            free.remove(0)
        };
        taken.insert(id.clone());
        let revision = if i < d.scale_up_old.min(d.scale_up_limit) {
            snapshot.current
        } else {
            snapshot.update
        };
        let pod = pods::new_pod(set, revision.template, revision.name, &id, &now);
        let existing: BTreeSet<String> = snapshot.claims.iter().map(|c| c.name_any()).collect();
        let claims = pods::new_claims(set, &id)
            .into_iter()
            .filter(|c| !existing.contains(&c.name_any()))
            .collect();
        plan.actions.push(Action::CreatePod {
            pod: Box::new(pod),
            claims,
        });
    }
}
