//! What a CloneSet updates next through a partition, by its own planner's order (`set
//! partition` and `rollout step` show it before they write). Pure.
//!
//! Invariant: the names are the front of the planner's update candidates (scatter,
//! priority, PreparingUpdate first, the candidate filters), as many as the partition lets
//! through (`old pods - partition`), whatever the update budget.
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
    let Ok(numbers) = checked_numbers(set) else {
        return Vec::new();
    };
    let active: Vec<&Pod> = pods.iter().copied().filter(|p| is_active(p)).collect();
    let templates = BTreeMap::new();
    let revision = Revision {
        name: update,
        template: &set.spec.template,
    };
    let snapshot = Snapshot {
        set,
        pods: active.clone(),
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
    let old = active.iter().filter(|p| !is_at_revision(p, update)).count() as i64;
    let moving = usize::try_from((old - partition).max(0)).unwrap_or(0);
    super::plan_update::candidates_in_order(&snapshot, &numbers, &active, true)
        .into_iter()
        .take(moving)
        .map(|p| p.name_any())
        .collect()
}
