//! What one round of a UnitedDeployment's controller would write to its subset workloads
//! were `ud` applied as given: the round's own [`plan`] on `ud`, its revisions and its
//! subset workloads with their pods, each write turned into the workload before and after
//! it (the round's merge patch applied; a create has no before, a delete no after). `diff`
//! hands each changed workload to its own kind's preview. Pure.
//!
//! Invariants: the update revision is the one the controller would use (the revision that
//! already holds the template, or the name it would create); only the round's writes to
//! subset workloads are read from the plan; a refused spec is an error naming the field.
use k8s_openapi::api::core::v1::Pod;
use k8s_openapi::jiff::Timestamp;
use serde_json::Value;

use super::plan::{Child, Snapshot, plan};
use super::render::ChildKind;
use super::revisions;
use crate::api::uniteddeployment::{SUBSET_NAME_LABEL, UnitedDeployment};
use crate::runtime::actions::{Action, ChildAction};
use crate::runtime::revision::{KnownRevision, RevisionStep};
use crate::workloads::facts::ChildChange;

/// The subset workload kind of `object` (by its apiVersion and kind), if it is one.
fn kind_of(object: &Value) -> Option<ChildKind> {
    ChildKind::all()
        .into_iter()
        .find(|k| object["apiVersion"] == k.api_version() && object["kind"] == k.kind())
}

/// The writes one round of `ud` makes to its subset workloads (`children`, each with its
/// pods), given its `revisions`, as each workload before and after.
pub fn subset_changes(
    ud: &UnitedDeployment,
    revisions: &[KnownRevision],
    children: &[(Value, Vec<Pod>)],
    now: Timestamp,
) -> Result<Vec<ChildChange>, String> {
    let update = match revisions::step(ud, revisions) {
        RevisionStep::Current { name }
        | RevisionStep::Reuse { name, .. }
        | RevisionStep::Create { name, .. } => name,
    };
    let current = revisions::current(ud, revisions, &update);
    let planned = plan(&Snapshot {
        ud,
        update_revision: &update,
        current_revision: &current,
        collision_count: ud.status.as_ref().and_then(|s| s.collision_count).unwrap_or(0),
        children: children
            .iter()
            .filter_map(|(object, pods)| {
                Some(Child {
                    kind: kind_of(object)?,
                    object: object.clone(),
                    pods: pods.iter().collect(),
                })
            })
            .collect(),
        now,
    });
    if let Some(refused) = planned.refused {
        return Err(refused);
    }
    let named = |name: &str| {
        children
            .iter()
            .map(|(object, _)| object)
            .find(|o| o["metadata"]["name"] == name)
    };
    let subset_of = |object: &Value| {
        object["metadata"]["labels"][SUBSET_NAME_LABEL]
            .as_str()
            .unwrap_or_default()
            .to_string()
    };
    let mut changes = Vec::new();
    for action in planned.actions {
        let Action::Child(child) = action else {
            continue;
        };
        let (before, after) = match child {
            ChildAction::Patch { name, patch, .. } => {
                let Some(before) = named(&name) else { continue };
                let mut after = before.clone();
                json_patch::merge(&mut after, &patch);
                (Some(before.clone()), Some(after))
            }
            ChildAction::Create { object, .. } => (None, serde_json::to_value(*object).ok()),
            ChildAction::Delete { name, .. } => (named(&name).cloned(), None),
        };
        let subset = before
            .as_ref()
            .or(after.as_ref())
            .map(subset_of)
            .unwrap_or_default();
        changes.push(ChildChange {
            subset,
            before,
            after,
        });
    }
    changes.sort_by(|a, b| a.subset.cmp(&b.subset));
    Ok(changes)
}
