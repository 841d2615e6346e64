//! What an Advanced StatefulSet updates next through a partition, and deletes in a
//! scale-in, by its own planner's order (`set partition`, `rollout step` and `diff` show
//! it before they write). Pure.
//!
//! Invariant: the names are the planner's update candidates with the partition set to
//! `partition` (highest ordinal first, or by priority for an unordered update), without
//! the pods already updated, whatever the update budget. The scale-in names are the
//! condemned pods (an ordinal no longer valid: scaled away or reserved), highest first.
use std::collections::BTreeMap;

use k8s_openapi::api::core::v1::Pod;
use k8s_openapi::jiff::Timestamp;
use kube::ResourceExt;

use super::plan::{Numbers, Revision, Snapshot};
use super::{ordinals, plan_update};
use crate::api::statefulset::v1beta1::StatefulSet;
use crate::runtime::revision::is_at_revision;
use crate::workloads::common::int_or_percent::InvalidIntOrPercent;

/// The pods of `set` (any state) that update towards `update` once the partition is
/// `partition`, in the order its planner takes them; a bad number in the spec is an error.
pub fn update_order(
    set: &StatefulSet,
    update: &str,
    pods: &[Pod],
    partition: i64,
    now: Timestamp,
) -> Result<Vec<String>, InvalidIntOrPercent> {
    let mut set = set.clone();
    let rolling = set
        .spec
        .update_strategy
        .get_or_insert_default()
        .rolling_update
        .get_or_insert_default();
    rolling.partition = Some(i32::try_from(partition).unwrap_or(0));
    let reserved = ordinals::ReservedOrdinals::of(&set).unwrap_or_default();
    let n = Numbers::of(&set, &reserved)?;
    let split = ordinals::split(pods, &set.name_any(), &n.valid);
    let templates = BTreeMap::new();
    let revision = Revision {
        name: update,
        template: &set.spec.template,
    };
    let snapshot = Snapshot {
        set: &set,
        pods: split.replicas.values().copied().collect(),
        orphans: Vec::new(),
        claims: &Default::default(),
        update: revision,
        current: revision,
        templates: &templates,
        collision_count: 0,
        now,
    };
    Ok(plan_update::candidates(&snapshot, &n, &split.replicas)
        .into_iter()
        .filter(|p| !is_at_revision(p, update))
        .map(|p| p.name_any())
        .collect())
}

/// The pods of `set` its scale-in deletes: those whose ordinal is no longer valid (scaled
/// away or reserved), highest ordinal first, as its planner deletes them; a bad number in
/// the spec is an error.
pub fn scale_in_order(set: &StatefulSet, pods: &[Pod]) -> Result<Vec<String>, InvalidIntOrPercent> {
    let reserved = ordinals::ReservedOrdinals::of(set).unwrap_or_default();
    let n = Numbers::of(set, &reserved)?;
    Ok(ordinals::split(pods, &set.name_any(), &n.valid)
        .condemned
        .into_iter()
        .map(|p| p.name_any())
        .collect())
}
