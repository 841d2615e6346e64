//! What a CloneSet updates next through a partition, and deletes in a scale-in, by its own
//! planner's order (`set partition`, `rollout step` and `diff` show it before they write). Pure.
//!
//! Invariants: the update names are the front of the planner's update candidates (scatter,
//! priority, PreparingUpdate first, the candidate filters), as many as the partition lets
//! through (`old pods - partition`), whatever the update budget. The scale-in names are
//! the planner's own choice (`plan_scale::scale_in_choice`), whatever the delete budget.
use std::collections::BTreeMap;

use k8s_openapi::api::core::v1::Pod;
use k8s_openapi::jiff::Timestamp;
use kube::ResourceExt;

use super::plan::{Revision, Snapshot, checked_numbers, is_active};
use crate::api::cloneset::CloneSet;
use crate::runtime::revision::is_at_revision;

/// The pods of `set` (any state) that start updating towards `update` once the partition is
/// `partition`, in the order its planner takes them.
pub fn update_order(
    set: &CloneSet,
    update: &str,
    pods: &[&Pod],
    partition: i64,
    now: Timestamp,
) -> Vec<String> {
    let active: Vec<&Pod> = pods.iter().copied().filter(|p| is_active(p)).collect();
    with_snapshot(set, update, &active, now, |snapshot, numbers| {
        let old = active.iter().filter(|p| !is_at_revision(p, update)).count() as i64;
        let moving = usize::try_from((old - partition).max(0)).unwrap_or(0);
        super::plan_update::candidates_in_order(snapshot, numbers, &active, true)
            .into_iter()
            .take(moving)
            .map(|p| p.name_any())
            .collect()
    })
    .unwrap_or_default()
}

/// The pods of `set` that its scale-in deletes to come down to `spec.replicas`, in the
/// order its planner takes them: the pods named for deletion first, then its scale-in
/// choice among the others (old revision first, most deletable first).
pub fn scale_in_order(set: &CloneSet, update: &str, pods: &[&Pod], now: Timestamp) -> Vec<String> {
    let listed = super::round::pods_to_delete(set);
    let (specified, active): (Vec<&Pod>, Vec<&Pod>) = pods
        .iter()
        .copied()
        .filter(|p| is_active(p))
        .partition(|p| super::pods::is_specified_delete(p, &listed));
    let mut order: Vec<String> = specified.iter().map(|p| p.name_any()).collect();
    order.sort();
    order.extend(
        with_snapshot(set, update, &active, now, |snapshot, numbers| {
            let d = super::plan_scale::diffs_of(snapshot, numbers, &active, super::plan_scale::Phase::Scale);
            super::plan_scale::scale_in_choice(snapshot, numbers, &d, &active)
        })
        .unwrap_or_default(),
    );
    order
}

/// Runs `f` on a planner snapshot of `set` with its `active` pods, one revision `update`
/// for both current and update (None when the spec's numbers do not read).
fn with_snapshot<R>(
    set: &CloneSet,
    update: &str,
    active: &[&Pod],
    now: Timestamp,
    f: impl FnOnce(&Snapshot<'_>, &super::round::Numbers) -> R,
) -> Option<R> {
    let numbers = checked_numbers(set).ok()?;
    let templates = BTreeMap::new();
    let revision = Revision {
        name: update,
        template: &set.spec.template,
    };
    let snapshot = Snapshot {
        set,
        pods: active.to_vec(),
        claims: Vec::new(),
        update: revision,
        current: revision,
        templates: &templates,
        collision_count: 0,
        node_labels: &BTreeMap::new(),
        now,
        // A preview does not know the run's gates: upstream's defaults.
        features: Default::default(),
    };
    Some(f(&snapshot, &numbers))
}
