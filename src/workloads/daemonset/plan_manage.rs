//! manage (upstream's `manage`): one pod per node that should run one, none where none may stay.
//! Pure.
//!
//! Per node, in name order:
//! - should run and no pod at all (a terminating one counts) → create one, from the
//!   current template (with `partitionedScaling`, at most `desired - nodes at the current
//!   revision - partition` creations, on the smallest node names);
//! - may keep running → delete Failed pods (with a per-node backoff the controller keeps:
//!   a node still in it is left alone this round) and pods the preDelete hook released; of the
//!   rest keep one (without surge: the oldest; with surge: the oldest new and the oldest old
//!   pod, and the old one goes once the new one is available, or at once when it is not
//!   Ready);
//! - may not keep running → delete every pod not already going.
//!
//! Pods of a node that no longer exists are deleted, bound or not (upstream leaves bound
//! ones to the pod garbage collector, which waits about a minute). Creates and deletes are capped at `burstReplicas` each.
//! Invariant: never two creations for one node in a round, and never a creation on a node
//! that still has a pod unless surging.
use std::time::Duration;

use k8s_openapi::api::core::v1::Pod;
use kube::ResourceExt;

use super::pods;
use super::round::{
    NodeEntry, Numbers, Plan, Snapshot, delete_pod, hash, is_available, is_new, preparing_delete,
};
use crate::runtime::actions::{Action, Problem};
use crate::runtime::lifecycle;
use crate::workloads::common::availability;

/// What manage decided, before the caps.
#[derive(Debug, Default)]
struct Decided<'a> {
    create_on: Vec<&'a str>,
    delete: Vec<&'a Pod>,
}

/// Plans manage; true when it planned a write (the update phase then waits for a round).
pub fn plan_manage(
    snapshot: &Snapshot<'_>,
    n: &Numbers,
    entries: &[NodeEntry<'_>],
    lost: &[&Pod],
    plan: &mut Plan,
) -> bool {
    let mut decided = Decided::default();
    for entry in entries {
        per_node(snapshot, n, entry, &mut decided, plan);
    }
    decided
        .delete
        .extend(lost.iter().filter(|p| p.metadata.deletion_timestamp.is_none()));
    limit_by_partition(snapshot, n, entries, &mut decided.create_on);
    let before = plan.actions.len();
    create_pods(snapshot, n, &decided.create_on, plan);
    for pod in decided.delete.into_iter().take(n.burst) {
        delete_pod(snapshot, pod, None, plan);
    }
    plan.actions.len() > before
}

fn per_node<'a>(
    snapshot: &Snapshot<'_>,
    n: &Numbers,
    entry: &NodeEntry<'a>,
    decided: &mut Decided<'a>,
    plan: &mut Plan,
) {
    if entry.fit.should_run && entry.pods.is_empty() {
        decided.create_on.push(entry.name);
        return;
    }
    if !entry.fit.should_continue {
        decided.delete.extend(entry.live());
        return;
    }
    let failed = |p: &Pod| p.status.as_ref().and_then(|s| s.phase.as_deref()) == Some("Failed");
    let live = entry.live();
    if live.iter().any(|p| failed(p)) {
        // Failed pods go with a per-node backoff (1 s doubling to 15 min): a node that
        // fails every pod is not churned at pod-start speed.
        if let Some(left) = snapshot.failed_backoff.get(entry.name) {
            plan.wake(*left);
            return;
        }
        plan.backoff_failures.push(entry.name.to_string());
        for pod in live.iter().filter(|p| failed(p)) {
            plan.problems.push(Problem {
                reason: "FailedDaemonPod",
                message: format!(
                    "found failed daemon pod {} on node {}, will try to delete it",
                    pod.name_any(),
                    entry.name
                ),
            });
        }
    }
    let hook = snapshot
        .set
        .spec
        .lifecycle
        .as_ref()
        .and_then(|l| l.pre_delete.as_ref());
    let mut running: Vec<&Pod> = Vec::new();
    for pod in live {
        let released = preparing_delete(pod) && !lifecycle::is_hooked(pod, hook);
        if failed(pod) || released {
            decided.delete.push(pod);
        } else if !preparing_delete(pod) {
            running.push(pod);
        }
    }
    if n.max_surge == 0 {
        decided.delete.extend(running.iter().skip(1).copied());
        return;
    }
    let (new, old): (Vec<&Pod>, Vec<&Pod>) = running.iter().partition(|p| is_new(snapshot, p));
    match (new.first(), old.first()) {
        (None, None) if entry.fit.should_run => decided.create_on.push(entry.name),
        (Some(new_pod), Some(old_pod)) => {
            decided
                .delete
                .extend(new.iter().skip(1).chain(old.iter().skip(1)).copied());
            if !availability::is_ready(old_pod) || is_available(snapshot, n, new_pod) {
                decided.delete.push(old_pod);
            } else if availability::is_ready(new_pod) && n.min_ready_seconds > 0 {
                plan.wake(Duration::from_secs(n.min_ready_seconds.unsigned_abs()));
            }
        }
        (Some(_), None) => decided.delete.extend(new.iter().skip(1).copied()),
        (None, Some(_)) => decided.delete.extend(old.iter().skip(1).copied()),
        (None, None) => {}
    }
}

/// With `partitionedScaling` and a partition, creations stop at `desired - nodes at the
/// current revision - partition`, on the smallest node names (the list is in name order).
fn limit_by_partition(
    snapshot: &Snapshot<'_>,
    n: &Numbers,
    entries: &[NodeEntry<'_>],
    create_on: &mut Vec<&str>,
) {
    if !n.partitioned_scaling || n.partition == 0 || n.on_delete {
        return;
    }
    let at_current = entries
        .iter()
        .filter(|e| e.live().iter().any(|p| is_new(snapshot, p)))
        .count() as i64;
    let allowed = (n.desired - at_current - n.partition).max(0);
    create_on.truncate(usize::try_from(allowed).unwrap_or(0));
}

/// Creates pods on `nodes` (at most `burst`), from the current template.
pub(super) fn create_pods(snapshot: &Snapshot<'_>, n: &Numbers, nodes: &[&str], plan: &mut Plan) {
    let set = snapshot.set;
    let mut taken = pods::ids_in_use(&set.name_any(), snapshot.pods.iter().copied());
    for node in nodes.iter().take(n.burst) {
        let id = pods::fresh_id(&taken);
        taken.insert(id.clone());
        let pod = pods::new_pod(
            set,
            snapshot.update.template,
            hash(snapshot),
            node,
            &id,
            n.in_place,
        );
        plan.actions.push(Action::CreatePod {
            pod: Box::new(pod),
            claims: Vec::new(),
        });
    }
}
