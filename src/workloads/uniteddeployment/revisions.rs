//! A UnitedDeployment's revisions, decided here and written by [`super::revision_sync`].
//! Pure.
//!
//! Invariants:
//! - Only `spec.template` feeds a revision: the payload is
//!   `{"spec": {"template": <spec.template>, "$patch": "replace"}}`, so topology, replicas
//!   and partitions never cut one. Two payloads hold the same template when they are equal
//!   once nulls and empty objects are dropped ([`normalized`]).
//! - The name is `<ud>-<hash>` (the shared FNV hash of the payload and the collision
//!   count). Our payload is serialised with sorted keys, not in Go's field order, so the
//!   names differ from OpenKruise's (nothing compares them across the two).
//! - Labels: the chosen template's labels (every kind's; upstream leaves out a CloneSet
//!   template's) plus `controller.kubernetes.io/hash`.
//! - The current revision is `status.currentRevision` when such a revision exists, else
//!   the update revision.
//! - Truncation keeps at most `revisionHistoryLimit` (default 10), deleting the oldest
//!   first and never the current or update revision.
use std::collections::{BTreeMap, BTreeSet};

use serde_json::{Value, json};

use super::render::{ChildKind, template_kind};
use crate::api::uniteddeployment::UnitedDeployment;
use crate::runtime::history::{DEFAULT_REVISION_HISTORY_LIMIT, HASH_LABEL};
use crate::runtime::revision::{
    KnownRevision, RevisionStep, normalized, plan_revision, revisions_to_truncate,
};

/// The revision payload of `ud`'s template.
pub fn payload(ud: &UnitedDeployment) -> Value {
    let mut template = serde_json::to_value(&ud.spec.template).unwrap_or_default();
    if let Some(map) = template.as_object_mut() {
        map.insert("$patch".into(), "replace".into());
    } else {
        template = json!({ "$patch": "replace" });
    }
    json!({ "spec": { "template": template } })
}

/// The labels of `ud`'s revision named by `hash`.
pub fn labels(ud: &UnitedDeployment, hash: &str) -> BTreeMap<String, String> {
    let template = ud.spec.template.as_ref();
    let meta = template.and_then(|t| match template_kind(ud)? {
        ChildKind::StatefulSet => t.stateful_set_template.as_ref()?.metadata.as_ref(),
        ChildKind::AdvancedStatefulSet => t.advanced_stateful_set_template.as_ref()?.metadata.as_ref(),
        ChildKind::CloneSet => t.clone_set_template.as_ref()?.metadata.as_ref(),
        ChildKind::Deployment => t.deployment_template.as_ref()?.metadata.as_ref(),
    });
    let mut labels = meta.and_then(|m| m.labels.clone()).unwrap_or_default();
    labels.insert(HASH_LABEL.into(), hash.into());
    labels
}

/// Which revision holds `ud`'s template: the newest, an older one (a rollback) or a new one.
pub fn step(ud: &UnitedDeployment, existing: &[KnownRevision]) -> RevisionStep {
    let name = ud.metadata.name.clone().unwrap_or_default();
    let collisions = ud.status.as_ref().and_then(|s| s.collision_count).unwrap_or(0);
    plan_revision(&name, payload(ud), existing, collisions, normalized)
}

/// The current revision: `status.currentRevision` when one of `existing` has that name,
/// else `update`.
pub fn current(ud: &UnitedDeployment, existing: &[KnownRevision], update: &str) -> String {
    ud.status
        .as_ref()
        .map(|s| s.current_revision.as_str())
        .filter(|name| existing.iter().any(|r| r.name == *name))
        .unwrap_or(update)
        .to_owned()
}

/// The revisions to delete so that at most `revisionHistoryLimit` remain, oldest first,
/// never `current` nor `update`.
pub fn to_truncate(
    ud: &UnitedDeployment,
    existing: &[KnownRevision],
    current: &str,
    update: &str,
) -> Vec<String> {
    let limit = ud
        .spec
        .revision_history_limit
        .unwrap_or(DEFAULT_REVISION_HISTORY_LIMIT)
        .max(0) as usize;
    revisions_to_truncate(existing, &[current, update], &BTreeSet::new(), limit)
}

#[cfg(test)]
#[path = "revisions_tests.rs"]
mod tests;
