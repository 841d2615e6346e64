//! The Advanced DaemonSet planner (upstream's `syncDaemonSet`): a pure function from a
//! [`Snapshot`] (the set, its pods, every node, its revisions, the clock) to a [`Plan`].
//!
//! ```text
//! snapshot ─> refused? ─> adopt orphans its selector matches ── any? ──yes──> (round ends)
//!          ─> release pods its selector no longer matches
//!          ─> manage (plan_manage: create / delete per node) ── wrote? ──yes──> status
//!                   │no
//!          ─> refresh (in-place states, readiness gate) ── wrote? ──yes──> status
//!                   │no
//!          ─> rolling update (plan_update), unless paused or OnDelete ─> status (plan_status)
//! ```
//!
//! Invariants (tested in `plan_tests.rs`): never two pods created for one node; the
//! partition keeps its nodes on the old revision; without surge an update round leaves at
//! most maxUnavailable nodes without an available pod (pods already unavailable aside).
use k8s_openapi::api::core::v1::Pod;
use kube::ResourceExt;
use kube::core::{Selector, SelectorExt};
use serde_json::json;

pub use super::round::{Numbers, Plan, Revision, Snapshot, checked_numbers};
use super::round::{entries, lifecycle_of};
use crate::runtime::actions::{Action, Why};
use crate::runtime::inplace::step;

/// Plans one reconcile of an Advanced DaemonSet that is not being deleted.
pub fn plan(snapshot: &Snapshot<'_>) -> Plan {
    let mut plan = Plan::default();
    let set = snapshot.set;
    // Pods the selector no longer matches are released and play no further part.
    let selector = Selector::try_from(set.spec.selector.clone()).ok();
    let (kept, released): (Vec<&Pod>, Vec<&Pod>) = snapshot
        .pods
        .iter()
        .partition(|p| selector.as_ref().is_some_and(|s| s.matches(p.labels())));
    let scoped = Snapshot {
        pods: kept.clone(),
        ..snapshot.clone()
    };
    let (entries, lost) = entries(&scoped);
    let desired = entries.iter().filter(|e| e.fit.should_run).count() as i64;
    let numbers = match checked_numbers(set, desired) {
        Ok(n) => n,
        Err(message) => return plan.refuse(message),
    };
    if adopt(snapshot, selector.as_ref(), &mut plan) {
        // The next round plans with the pods as they are owned now: a node whose orphan is
        // being adopted must not get a second pod in the meantime.
        return plan;
    }
    for pod in &released {
        plan.actions.push(Action::PatchPod {
            name: pod.name_any(),
            patch: json!({ "metadata": { "ownerReferences": [{ "$patch": "delete", "uid": set.uid().unwrap_or_default() }] } }),
            why: Why::Release,
        });
    }
    let wrote = super::plan_manage::plan_manage(&scoped, &numbers, &entries, &lost, &mut plan);
    if !wrote && !refresh(&scoped, &kept, &mut plan) {
        super::plan_update::plan_update(&scoped, &numbers, &entries, &mut plan);
    }
    super::plan_status::plan_status(&scoped, &numbers, &entries, &mut plan);
    plan
}

/// Claim rules as the built-in controllers': a pod in the set's namespace
/// with no controller, not being deleted, whose labels the selector matches is adopted,
/// whatever its node (the manage phase then deletes it if its node should not run one).
/// True when it planned an adoption.
fn adopt(snapshot: &Snapshot<'_>, selector: Option<&Selector>, plan: &mut Plan) -> bool {
    let Some(selector) = selector else {
        return false;
    };
    let before = plan.actions.len();
    for pod in &snapshot.orphans {
        if pod.metadata.deletion_timestamp.is_none() && selector.matches(pod.labels()) {
            plan.actions.push(Action::PatchPod {
                name: pod.name_any(),
                patch: json!({ "metadata": {
                    "resourceVersion": pod.metadata.resource_version,
                    "ownerReferences": [super::pods::controller_ref(snapshot.set)],
                } }),
                why: Why::Adopt,
            });
        }
    }
    plan.actions.len() > before
}

/// The shared refresh over the set's live pods (grace periods, lifecycle, readiness gate).
/// True when it planned a write.
fn refresh(snapshot: &Snapshot<'_>, pods: &[&Pod], plan: &mut Plan) -> bool {
    let live: Vec<&Pod> = pods
        .iter()
        .copied()
        .filter(|p| p.metadata.deletion_timestamp.is_none())
        .collect();
    let hooks = lifecycle_of(snapshot.set);
    let steps = step::refresh(&super::plan_update::step_context(snapshot, &hooks), &live);
    let wrote = !steps.actions.is_empty();
    plan.absorb(steps);
    wrote
}

#[cfg(test)]
#[path = "plan_tests.rs"]
mod tests;
