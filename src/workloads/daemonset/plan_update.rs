//! The rolling update of an Advanced DaemonSet (upstream's `rollingUpdate`). Pure.
//!
//! 1. Order the nodes (descending names) as updated, updating (no old pod left), then the
//!    nodes `rollingUpdate.selector` picks (with a selector, only those) or the rest, and
//!    keep the first `nodes - partition`: the others stay on their old revision.
//! 2. Without surge, count the kept nodes without an available pod against maxUnavailable;
//!    an old pod that is not available is replaced regardless, the others while the budget
//!    lasts. Each one goes in place (InPlaceIfPossible, the pod has the readiness gate,
//!    only in-place-able fields changed) or is deleted (manage creates its replacement
//!    once the node is empty).
//! 3. With surge, a new pod starts beside the old one on at most maxSurge nodes at once
//!    (at once where the old pod is not available), and manage deletes the old pod once
//!    the new one is available.
//!
//! Invariant (property-tested): without surge, an update round never leaves more than
//! maxUnavailable kept nodes without an available pod (an old pod already down counts:
//! stricter than upstream, which leaves it out of the budget), except for pods that were
//! unavailable already.
use k8s_openapi::api::core::v1::Pod;
use kube::core::{Selector, SelectorExt};

use super::round::{
    NodeEntry, Numbers, Plan, Snapshot, delete_pod, is_available, is_new, lifecycle_of, preparing_delete,
};
use crate::api::common::PodUpdatePolicy;
use crate::runtime::actions::Why;
use crate::runtime::inplace::step::{self, StepContext, Steps, Update};
use crate::runtime::revision::short_hash;

/// A kept node's pods, split.
struct Split<'a> {
    name: &'a str,
    new: Vec<&'a Pod>,
    old: Vec<&'a Pod>,
}

/// The node entries taking part in the update, in update order (step 1).
fn kept<'a>(snapshot: &Snapshot<'a>, n: &Numbers, entries: &[NodeEntry<'a>]) -> Vec<Split<'a>> {
    let rolling = snapshot
        .set
        .spec
        .update_strategy
        .as_ref()
        .and_then(|s| s.rolling_update.as_ref());
    let selector = rolling
        .and_then(|r| r.selector.clone())
        .and_then(|s| Selector::try_from(s).ok());
    let in_play: Vec<&NodeEntry<'a>> = entries
        .iter()
        .filter(|e| e.fit.should_run || !e.pods.is_empty())
        .collect();
    let total = in_play.len() as i64;
    let (mut updated, mut updating, mut selected, mut rest) = (vec![], vec![], vec![], vec![]);
    for entry in in_play.into_iter().rev() {
        let live = entry.live();
        let (new, old): (Vec<&Pod>, Vec<&Pod>) = live.iter().partition(|p| is_new(snapshot, p));
        let split = Split {
            name: entry.name,
            new,
            old,
        };
        let empty = std::collections::BTreeMap::new();
        let labels = entry.node.metadata.labels.as_ref().unwrap_or(&empty);
        if !split.new.is_empty() || split.old.len() > 1 {
            updated.push(split);
        } else if split.old.first().is_none_or(|p| preparing_delete(p)) {
            updating.push(split);
        } else if selector.as_ref().is_some_and(|s| s.matches(labels)) {
            selected.push(split);
        } else {
            rest.push(split);
        }
    }
    let mut order = updated;
    order.extend(updating);
    order.extend(if selector.is_some() { selected } else { rest });
    order.truncate(usize::try_from((total - n.partition).max(0)).unwrap_or(0));
    order
}

/// The old pods (with their nodes) that the partition `partition` lets through, in update
/// order, whatever the budget: what `set partition` and `rollout step` preview.
pub fn next_to_update(snapshot: &Snapshot<'_>, partition: i64) -> Vec<(String, String)> {
    let (entries, _) = super::round::entries(snapshot);
    let desired = entries.iter().filter(|e| e.fit.should_run).count() as i64;
    let Ok(mut n) = super::round::checked_numbers(snapshot.set, desired) else {
        return Vec::new();
    };
    n.partition = partition.clamp(0, desired);
    kept(snapshot, &n, &entries)
        .into_iter()
        .filter_map(|node| {
            let pod = node.old.first()?;
            Some((kube::ResourceExt::name_any(*pod), node.name.to_string()))
        })
        .collect()
}

/// Plans the update phase.
pub fn plan_update(snapshot: &Snapshot<'_>, n: &Numbers, entries: &[NodeEntry<'_>], plan: &mut Plan) {
    if n.paused || n.on_delete {
        return;
    }
    let order = kept(snapshot, n, entries);
    if n.max_surge > 0 {
        surge(snapshot, n, &order, plan);
    } else {
        // Nodes the partition or the selector holds that have no available pod are down
        // too, and count against the budget (upstream counts only the kept nodes).
        let held_down = entries
            .iter()
            .filter(|e| e.fit.should_run && !order.iter().any(|k| k.name == e.name))
            .filter(|e| !e.live().iter().any(|p| is_available(snapshot, n, p)))
            .count() as i64;
        no_surge(snapshot, n, &order, held_down, plan);
    }
}

fn no_surge(snapshot: &Snapshot<'_>, n: &Numbers, order: &[Split<'_>], held_down: i64, plan: &mut Plan) {
    let usable = |p: Option<&&Pod>| p.is_some_and(|p| !preparing_delete(p));
    let mut unavailable = held_down;
    let (mut must, mut candidates): (Vec<&Pod>, Vec<&Pod>) = (vec![], vec![]);
    for node in order {
        if node.new.len() > 1 || node.old.len() > 1 {
            unavailable += 1;
            continue;
        }
        let (new, old) = (node.new.first(), node.old.first());
        if usable(new) == usable(old) {
            unavailable += 1;
        } else if let Some(new) = new {
            unavailable += i64::from(!is_available(snapshot, n, new)) + i64::from(preparing_delete(new));
        } else if let Some(old) = old {
            if is_available(snapshot, n, old) {
                candidates.push(old);
            } else {
                must.push(old);
            }
        }
    }
    // An old pod that is not available is replaced regardless (it is down already), and it
    // counts against the budget: OpenKruise (and Kubernetes) leave it out, so the candidates
    // taken beside it could put more nodes than maxUnavailable down at once.
    let down = unavailable + must.len() as i64;
    let room = usize::try_from((n.max_unavailable - down).max(0)).unwrap_or(0);
    let chosen = must
        .into_iter()
        .chain(candidates.into_iter().take(room))
        .take(n.burst);
    for pod in chosen {
        update_pod(snapshot, n, pod, plan);
    }
}

/// In place when the set and the pod allow it, else deleted (manage recreates it).
fn update_pod(snapshot: &Snapshot<'_>, n: &Numbers, pod: &Pod, plan: &mut Plan) {
    if n.in_place && has_gate(pod) {
        let hooks = lifecycle_of(snapshot.set);
        let ctx = step_context(snapshot, &hooks);
        let mut steps = Steps::default();
        let hash = short_hash(snapshot.update.name);
        let outcome = step::update_pod(
            &ctx,
            pod,
            hash,
            snapshot.update.template,
            PodUpdatePolicy::InPlaceIfPossible,
            &mut steps,
        );
        plan.absorb(steps);
        if !matches!(outcome, Update::Recreate) {
            return;
        }
    }
    delete_pod(snapshot, pod, Some(Why::RecreatePod), plan);
}

fn surge<'a>(snapshot: &Snapshot<'a>, n: &Numbers, order: &[Split<'a>], plan: &mut Plan) {
    let mut in_progress = 0i64;
    let (mut now, mut candidates): (Vec<&str>, Vec<&str>) = (vec![], vec![]);
    for node in order {
        if node.new.len() > 1 || node.old.len() > 1 {
            in_progress += 1;
            continue;
        }
        let Some(old) = node.old.first().filter(|p| !preparing_delete(p)) else {
            continue;
        };
        match node.new.first() {
            None if !is_available(snapshot, n, old) => now.push(node.name),
            None => candidates.push(node.name),
            Some(new) if !is_available(snapshot, n, new) || preparing_delete(new) => in_progress += 1,
            // manage deletes the old pod once the new one is available.
            Some(_) => {}
        }
    }
    let room = usize::try_from((n.max_surge - in_progress).max(0)).unwrap_or(0);
    now.extend(candidates.into_iter().take(room));
    super::plan_manage::create_pods(snapshot, n, &now, plan);
}

fn has_gate(pod: &Pod) -> bool {
    pod.spec
        .as_ref()
        .and_then(|s| s.readiness_gates.as_ref())
        .is_some_and(|g| {
            g.iter()
                .any(|g| g.condition_type == crate::runtime::inplace::state::READINESS_GATE)
        })
}

/// The shared per-pod step's view of this set (no grace period: DaemonSets have none).
pub(super) fn step_context<'a>(
    snapshot: &'a Snapshot<'a>,
    hooks: &'a crate::api::common::Lifecycle,
) -> StepContext<'a> {
    StepContext {
        hooks,
        templates: snapshot.templates,
        update_revision: snapshot.update.name,
        grace_seconds: 0,
        now: snapshot.now,
        hash_label: None,
    }
}
