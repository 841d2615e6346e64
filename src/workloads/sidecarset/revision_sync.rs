//! Writes what [`super::revisions`] decides: a SidecarSet's ControllerRevisions live in the
//! run's system namespace ([`Context::system_namespace`]), controlled by the SidecarSet (so
//! the garbage collector removes them with it), found in the shared revision cache by owner
//! uid (no list per round).
//!
//! Invariants: a revision is created only when none of the set's holds its current spec; a
//! name clash with other content bumps `status.collisionCount` and the round comes back;
//! the custom-version label of the newest revision follows the set's; the history handed to
//! the planner names the newest revision as both `update` and `current`; a run scoped to a
//! namespace writes revisions only for the SidecarSets it drives.
use std::collections::BTreeSet;

use k8s_openapi::api::apps::v1::ControllerRevision;
use k8s_openapi::apimachinery::pkg::runtime::RawExtension;
use kube::api::{Api, Patch};
use kube::{Resource, ResourceExt};
use serde_json::json;

use super::revisions;
use crate::api::sidecarset::{CUSTOM_VERSION_LABEL, SidecarSet};
use crate::runtime::context::{Context, Error, owned_by};
use crate::runtime::history::{self, History, known, params, write_error};
use crate::runtime::revision::{KnownRevision, RevisionStep};

const KIND: &str = "SidecarSet";

/// The SidecarSet's revision history (see the module documentation).
pub struct SidecarSetRevisions;

/// The set's cached revisions with their custom versions.
fn owned(ctx: &Context, set: &SidecarSet) -> Vec<(KnownRevision, Option<String>)> {
    owned_by(&ctx.watches.revisions, &ctx.watches.revision_owners, set, KIND)
        .iter()
        .filter(|r| r.namespace().as_deref() == Some(ctx.system_namespace.as_str()))
        .map(|r| (known(r), r.labels().get(CUSTOM_VERSION_LABEL).cloned()))
        .collect()
}

fn new_revision(
    ctx: &Context,
    set: &SidecarSet,
    name: &str,
    revision: i64,
    data: serde_json::Value,
) -> ControllerRevision {
    let mut object = ControllerRevision {
        data: RawExtension(data),
        revision: Some(revision),
        ..ControllerRevision::default()
    };
    object.metadata.name = Some(name.into());
    object.metadata.namespace = Some(ctx.system_namespace.clone());
    object.metadata.labels = Some(revisions::labels(set));
    object.metadata.annotations = set.meta().annotations.clone();
    object.metadata.owner_references = set.controller_owner_ref(&()).map(|o| vec![o]);
    object
}

async fn bump_collision_count(ctx: &Context, set: &SidecarSet) -> Result<(), Error> {
    let mut status = serde_json::to_value(set.status.clone().unwrap_or_default()).unwrap_or_default();
    let count = set.status.as_ref().and_then(|s| s.collision_count).unwrap_or(0);
    status["collisionCount"] = json!(count + 1);
    Api::<SidecarSet>::all(ctx.client.clone())
        .patch_status(
            &set.name_any(),
            &params(),
            &Patch::Merge(json!({ "status": status })),
        )
        .await
        .map_err(|source| Error::PatchStatus {
            kind: KIND,
            name: set.name_any(),
            source,
        })?;
    Ok(())
}

impl crate::runtime::driver::Revisions<SidecarSet> for SidecarSetRevisions {
    async fn sync(ctx: &Context, set: &SidecarSet) -> Result<Option<History>, Error> {
        if ctx.scope.is_some() && super::matching::scoped_to(set) != ctx.scope.as_deref() {
            // Another run's (see the controller): no history written from here.
            return Ok(Some(History::default()));
        }
        let existing = owned(ctx, set);
        let known: Vec<KnownRevision> = existing.iter().map(|(r, _)| r.clone()).collect();
        let api: Api<ControllerRevision> = Api::namespaced(ctx.client.clone(), &ctx.system_namespace);
        let latest = match revisions::step(set, &known) {
            RevisionStep::Current { name } => name,
            RevisionStep::Reuse { name, revision } => {
                history::renumber(&api, &name, revision).await?;
                name
            }
            RevisionStep::Create { name, revision, data } => {
                let object = new_revision(ctx, set, &name, revision, data);
                if !history::create_new(&api, &object).await? {
                    bump_collision_count(ctx, set).await?;
                }
                // The next round finds it in the cache.
                return Ok(None);
            }
        };
        let wanted = revisions::custom_version(set);
        let labelled = existing
            .iter()
            .find(|(r, _)| r.name == latest)
            .and_then(|(_, v)| v.as_deref());
        if labelled != wanted {
            let patch = json!({ "metadata": { "labels": { CUSTOM_VERSION_LABEL: wanted } } });
            api.patch(&latest, &params(), &Patch::Merge(patch))
                .await
                .map_err(write_error(&latest))?;
        }
        Ok(Some(History {
            update: latest.clone(),
            current: latest,
            collision_count: set.status.as_ref().and_then(|s| s.collision_count).unwrap_or(0),
            known,
            ..History::default()
        }))
    }

    async fn truncate(
        ctx: &Context,
        set: &SidecarSet,
        history: &History,
        pod_revisions: &BTreeSet<String>,
    ) -> Result<(), Error> {
        let existing = owned(ctx, set);
        let doomed = revisions::to_truncate(set, &existing, &history.update, pod_revisions);
        let api: Api<ControllerRevision> = Api::namespaced(ctx.client.clone(), &ctx.system_namespace);
        history::delete(&api, doomed).await
    }
}
