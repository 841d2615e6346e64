//! Writes what [`super::revisions`] decides: a UnitedDeployment's ControllerRevisions live
//! in its namespace, controlled by it (the garbage collector removes them with it), found
//! in the shared revision cache by owner uid (no list per round).
//!
//! Invariants: a revision is created only when none of the UnitedDeployment's holds its
//! template; a name clash with other content bumps `status.collisionCount` and the round
//! comes back; the history handed to the planner names the update revision and the
//! current one ([`super::revisions::current`]).
use std::collections::BTreeSet;

use k8s_openapi::api::apps::v1::ControllerRevision;
use k8s_openapi::apimachinery::pkg::runtime::RawExtension;
use kube::api::{Api, Patch};
use kube::{Resource, ResourceExt};
use serde_json::json;

use super::revisions;
use crate::api::uniteddeployment::UnitedDeployment;
use crate::runtime::context::{Context, Error, owned_by};
use crate::runtime::history::{self, History, known, params};
use crate::runtime::revision::{KnownRevision, RevisionStep, short_hash};

const KIND: &str = "UnitedDeployment";

/// The UnitedDeployment's revision history (see the module documentation).
pub struct UnitedDeploymentRevisions;

/// The UnitedDeployment's cached revisions.
fn owned(ctx: &Context, ud: &UnitedDeployment) -> Vec<KnownRevision> {
    owned_by(&ctx.watches.revisions, &ctx.watches.revision_owners, ud, KIND)
        .iter()
        .map(|r| known(r))
        .collect()
}

fn new_revision(
    ud: &UnitedDeployment,
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
    object.metadata.namespace = ud.namespace();
    object.metadata.labels = Some(revisions::labels(ud, short_hash(name)));
    object.metadata.owner_references = ud.controller_owner_ref(&()).map(|o| vec![o]);
    object
}

async fn bump_collision_count(ctx: &Context, ud: &UnitedDeployment) -> Result<(), Error> {
    let count = ud.status.as_ref().and_then(|s| s.collision_count).unwrap_or(0);
    let api: Api<UnitedDeployment> = Api::namespaced(ctx.client.clone(), &ud.namespace().unwrap_or_default());
    api.patch_status(
        &ud.name_any(),
        &params(),
        &Patch::Merge(json!({ "status": { "collisionCount": count + 1 } })),
    )
    .await
    .map_err(|source| Error::PatchStatus {
        kind: KIND,
        name: ud.name_any(),
        source,
    })?;
    Ok(())
}

fn revisions_api(ctx: &Context, ud: &UnitedDeployment) -> Api<ControllerRevision> {
    Api::namespaced(ctx.client.clone(), &ud.namespace().unwrap_or_default())
}

impl crate::runtime::driver::Revisions<UnitedDeployment> for UnitedDeploymentRevisions {
    async fn sync(ctx: &Context, ud: &UnitedDeployment) -> Result<Option<History>, Error> {
        let known = owned(ctx, ud);
        let api = revisions_api(ctx, ud);
        let update = match revisions::step(ud, &known) {
            RevisionStep::Current { name } => name,
            RevisionStep::Reuse { name, revision } => {
                history::renumber(&api, &name, revision).await?;
                name
            }
            RevisionStep::Create { name, revision, data } => {
                if !history::create_new(&api, &new_revision(ud, &name, revision, data)).await? {
                    bump_collision_count(ctx, ud).await?;
                }
                // The next round finds it in the cache.
                return Ok(None);
            }
        };
        Ok(Some(History {
            current: revisions::current(ud, &known, &update),
            update,
            collision_count: ud.status.as_ref().and_then(|s| s.collision_count).unwrap_or(0),
            known,
            ..History::default()
        }))
    }

    async fn truncate(
        ctx: &Context,
        ud: &UnitedDeployment,
        history: &History,
        _pod_revisions: &BTreeSet<String>,
    ) -> Result<(), Error> {
        let known = owned(ctx, ud);
        let doomed = revisions::to_truncate(ud, &known, &history.current, &history.update);
        history::delete(&revisions_api(ctx, ud), doomed).await
    }
}
