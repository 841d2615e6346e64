//! What an Advanced DaemonSet updates next through a partition, by its own planner's order
//! (`set partition` and `rollout step` show it before they write). Pure.
//!
//! Invariant: the pods (with their nodes) are those the planner's update would take with
//! the partition at `partition`, in its order, whatever the update budget.
use std::collections::BTreeMap;

use k8s_openapi::api::core::v1::{Node, Pod};
use k8s_openapi::jiff::Timestamp;

use super::plan::{Revision, Snapshot};
use crate::api::daemonset::DaemonSet;

/// The pods of `set` (any state, with their nodes) that update towards `update` once the
/// partition is `partition`, in the order its planner takes them.
pub fn update_order(
    set: &DaemonSet,
    update: &str,
    pods: &[&Pod],
    nodes: &[&Node],
    partition: i64,
    now: Timestamp,
) -> Vec<(String, String)> {
    let templates = BTreeMap::new();
    let snapshot = Snapshot {
        set,
        pods: pods.to_vec(),
        orphans: Vec::new(),
        nodes: nodes.to_vec(),
        update: Revision {
            name: update,
            template: &set.spec.template,
        },
        templates: &templates,
        collision_count: 0,
        now,
        failed_backoff: &BTreeMap::new(),
    };
    super::plan_update::next_to_update(&snapshot, partition)
}
