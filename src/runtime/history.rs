//! A workload's ControllerRevisions, for every kind that keeps a revision history
//! (CloneSet, Advanced StatefulSet, Advanced DaemonSet, SidecarSet, UnitedDeployment): find
//! or create the update revision, bump an older one on rollback, resolve the current
//! revision, truncate history.
//! The decisions are in [`crate::runtime::revision`]; this module performs them.
//!
//! Invariants: a revision is created only when no owned revision holds the template
//! (compared semantically, so revisions written by upstream OpenKruise are reused); a
//! name clash with different content bumps `status.collisionCount` and tries again next
//! round; truncation never deletes the current or update revision, nor one a pod runs.
use std::collections::{BTreeMap, BTreeSet};

use k8s_openapi::api::apps::v1::ControllerRevision;
use k8s_openapi::api::core::v1::PodTemplateSpec;
use k8s_openapi::apimachinery::pkg::runtime::RawExtension;
use kube::api::{Api, DeleteParams, Patch, PatchParams, PostParams};
use kube::{Resource, ResourceExt};
use serde_json::{Value, json};

use crate::runtime::context::{Context, Error, FIELD_MANAGER, controller_of};
use crate::runtime::revision::{
    KnownRevision, RevisionStep, plan_update_revision, revisions_to_truncate, same_template,
};

pub const HASH_LABEL: &str = "controller.kubernetes.io/hash";

/// `spec.revisionHistoryLimit` when none is set (the webhook writes it).
pub const DEFAULT_REVISION_HISTORY_LIMIT: i32 = 10;

/// What the history needs of a workload.
pub trait Workload:
    Resource<DynamicType = (), Scope = k8s_openapi::NamespaceResourceScope>
    + Clone
    + serde::de::DeserializeOwned
    + serde::Serialize
    + std::fmt::Debug
{
    /// The kind, as owner references and messages name it.
    const KIND: &'static str;
    fn template(&self) -> &PodTemplateSpec;
    /// `status.collisionCount`.
    fn collision_count(&self) -> i32;
    /// `status.currentRevision`.
    fn current_revision(&self) -> Option<&str>;
    /// `spec.revisionHistoryLimit` (default 10).
    fn revision_history_limit(&self) -> i32;
    /// The whole status (defaults where there is none yet) with `collisionCount` set.
    fn status_with_collision_count(&self, count: i32) -> Value;
}

/// Implements [`Workload`] for a kind whose spec has `template` and
/// `revision_history_limit` and whose status has `collision_count` and `current_revision`
/// (CloneSet, Advanced StatefulSet).
#[macro_export]
macro_rules! impl_workload {
    ($kind:ty, $name:expr) => {
        impl $crate::runtime::history::Workload for $kind {
            const KIND: &'static str = $name;
            fn template(&self) -> &k8s_openapi::api::core::v1::PodTemplateSpec {
                &self.spec.template
            }
            fn collision_count(&self) -> i32 {
                self.status
                    .as_ref()
                    .and_then(|s| s.collision_count)
                    .unwrap_or(0)
            }
            fn current_revision(&self) -> Option<&str> {
                self.status
                    .as_ref()
                    .and_then(|s| s.current_revision.as_deref())
            }
            fn revision_history_limit(&self) -> i32 {
                self.spec
                    .revision_history_limit
                    .unwrap_or($crate::runtime::history::DEFAULT_REVISION_HISTORY_LIMIT)
            }
            fn status_with_collision_count(&self, count: i32) -> serde_json::Value {
                let mut status = self.status.clone().unwrap_or_default();
                status.collision_count = Some(count);
                serde_json::to_value(status).unwrap_or_default()
            }
        }
    };
}

fn owned_by<W: Workload>(meta: &k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta, set: &W) -> bool {
    let uid = set.meta().uid.as_deref();
    controller_of(meta, W::KIND).is_some_and(|(_, u)| Some(u.as_str()) == uid)
}

/// A revision a planner can build pods from.
#[derive(Debug, Clone, Copy)]
pub struct Revision<'a> {
    pub name: &'a str,
    pub template: &'a PodTemplateSpec,
}

/// The revisions one reconcile works with (empty for a kind without a history).
#[derive(Debug, Clone, Default)]
pub struct History {
    pub update: String,
    pub current: String,
    pub templates: BTreeMap<String, PodTemplateSpec>,
    pub collision_count: i32,
    pub known: Vec<KnownRevision>,
}

impl History {
    /// The update revision with its template, as planners take it.
    pub fn update_revision(&self) -> Revision<'_> {
        self.revision(&self.update)
    }

    /// The current revision with its template.
    pub fn current_revision(&self) -> Revision<'_> {
        self.revision(&self.current)
    }

    /// Invariant: `sync` returns a history whose update and current revisions both have a
    /// template (it refuses to plan otherwise).
    fn revision<'h>(&'h self, name: &'h str) -> Revision<'h> {
        Revision {
            name,
            template: &self.templates[name],
        }
    }
}

/// The revision's template, defaulted as every new revision's is, so that two revisions'
/// templates differ only where a user changed them (a revision written before templates
/// were defaulted would otherwise differ from a new one in every pull policy and make an
/// in-place update a recreation).
fn template_of(data: &Value) -> Option<PodTemplateSpec> {
    let mut template = crate::runtime::template_defaults::defaulted(data.get("spec")?.get("template")?);
    if let Some(obj) = template.as_object_mut() {
        obj.remove("$patch");
    }
    serde_json::from_value(template).ok()
}

/// What the revision planner needs of a stored ControllerRevision.
pub fn known(revision: &ControllerRevision) -> KnownRevision {
    KnownRevision {
        name: revision.name_any(),
        revision: revision.revision.unwrap_or(0),
        created: revision
            .metadata
            .creation_timestamp
            .as_ref()
            .map(|t| t.0.to_string())
            .unwrap_or_default(),
        data: revision.data.0.clone(),
    }
}

/// Patch parameters of every revision write (and a kind's collision-count bump).
pub fn params() -> PatchParams {
    PatchParams {
        field_manager: Some(FIELD_MANAGER.into()),
        ..PatchParams::default()
    }
}

/// A failed write of the revision `name`.
pub fn write_error(name: &str) -> impl FnOnce(kube::Error) -> Error + '_ {
    move |source| Error::WriteRevision {
        name: name.to_string(),
        source,
    }
}

/// Gives the older revision `name` the number `revision`: a rollback to its content
/// reuses it rather than writing the same content again ([`RevisionStep::Reuse`]).
pub async fn renumber(api: &Api<ControllerRevision>, name: &str, revision: i64) -> Result<(), Error> {
    api.patch(name, &params(), &Patch::Merge(json!({ "revision": revision })))
        .await
        .map_err(write_error(name))?;
    Ok(())
}

/// Creates `revision`; false when its name is taken (by other content: a revision of
/// ours with this content would have been in the cache), so the caller bumps its
/// collision count and plans again under another name.
pub async fn create_new(api: &Api<ControllerRevision>, revision: &ControllerRevision) -> Result<bool, Error> {
    match api.create(&PostParams::default(), revision).await {
        Ok(_) => Ok(true),
        Err(kube::Error::Api(s)) if s.is_already_exists() => Ok(false),
        Err(source) => Err(write_error(&revision.name_any())(source)),
    }
}

/// Deletes the revisions `names`; one already gone is not an error.
pub async fn delete(api: &Api<ControllerRevision>, names: Vec<String>) -> Result<(), Error> {
    for name in names {
        match api.delete(&name, &DeleteParams::default()).await {
            Ok(_) => {}
            Err(kube::Error::Api(s)) if s.is_not_found() => {}
            Err(source) => return Err(write_error(&name)(source)),
        }
    }
    Ok(())
}

/// The set's history, after writing the update revision if needed. `None`: the revision
/// name collided; `status.collisionCount` was bumped and the caller should come back.
pub async fn sync<W: Workload>(ctx: &Context, set: &W) -> Result<Option<History>, Error> {
    let namespace = set.namespace().unwrap_or_default();
    // By owner uid in the index, not a scan of every cached revision.
    let owned: Vec<KnownRevision> =
        crate::runtime::context::owned_by(&ctx.watches.revisions, &ctx.watches.revision_owners, set, W::KIND)
            .iter()
            .map(|r| known(r))
            .collect();
    let collision_count = set.collision_count();
    let api: Api<ControllerRevision> = Api::namespaced(ctx.client.clone(), &namespace);
    let mut all = owned.clone();
    let update = match plan_update_revision(&set.name_any(), set.template(), &owned, collision_count) {
        RevisionStep::Current { name } => name,
        RevisionStep::Reuse { name, revision } => {
            renumber(&api, &name, revision).await?;
            if let Some(r) = all.iter_mut().find(|r| r.name == name) {
                r.revision = revision;
            }
            name
        }
        RevisionStep::Create { name, revision, data } => {
            let object = new_revision(set, &name, revision, data.clone());
            match api.create(&PostParams::default(), &object).await {
                Ok(created) => all.push(known(&created)),
                Err(kube::Error::Api(s)) if s.is_already_exists() => {
                    let existing = api.get(&name).await.map_err(write_error(&name))?;
                    let ours = owned_by(&existing.metadata, set);
                    let same = same_template(&existing.data.0, &data);
                    let orphan = !existing
                        .metadata
                        .owner_references
                        .iter()
                        .flatten()
                        .any(|o| o.controller == Some(true));
                    if same && orphan {
                        // A revision left by a set of the same name deleted with
                        // `--cascade=orphan`: adopted, as upstream does, not a collision.
                        let adopted = adopt(&api, set, &existing).await?;
                        all.push(known(&adopted));
                    } else if !(ours && same) {
                        bump_collision_count(ctx, set, collision_count).await?;
                        return Ok(None);
                    } else {
                        all.push(known(&existing));
                    }
                }
                Err(source) => return Err(Error::WriteRevision { name, source }),
            }
            name
        }
    };
    let templates: BTreeMap<String, PodTemplateSpec> = all
        .iter()
        .filter_map(|r| template_of(&r.data).map(|t| (r.name.clone(), t)))
        .collect();
    if !templates.contains_key(&update) {
        return Err(Error::Internal(format!(
            "revision {update} of {} {} holds no readable pod template",
            W::KIND,
            set.name_any()
        )));
    }
    let current = set
        .current_revision()
        .map(str::to_string)
        .filter(|c| templates.contains_key(c))
        .unwrap_or_else(|| update.clone());
    Ok(Some(History {
        update,
        current,
        templates,
        collision_count,
        known: all,
    }))
}

fn new_revision<W: Workload>(set: &W, name: &str, revision: i64, data: Value) -> ControllerRevision {
    let mut labels = set
        .template()
        .metadata
        .as_ref()
        .and_then(|m| m.labels.clone())
        .unwrap_or_default();
    labels.insert(
        HASH_LABEL.into(),
        crate::runtime::revision::short_hash(name).into(),
    );
    let mut object = ControllerRevision {
        data: RawExtension(data),
        revision: Some(revision),
        ..ControllerRevision::default()
    };
    object.metadata.name = Some(name.into());
    object.metadata.namespace = set.namespace();
    object.metadata.labels = Some(labels);
    object.metadata.annotations = set.meta().annotations.clone();
    object.metadata.owner_references = set.controller_owner_ref(&()).map(|o| vec![o]);
    object
}

/// Takes an orphaned revision: the set becomes its controller (under its resourceVersion,
/// so a concurrent adopter wins cleanly).
async fn adopt<W: Workload>(
    api: &Api<ControllerRevision>,
    set: &W,
    existing: &ControllerRevision,
) -> Result<ControllerRevision, Error> {
    let patch = json!({ "metadata": {
        "resourceVersion": existing.metadata.resource_version,
        "ownerReferences": set.controller_owner_ref(&()).map(|o| vec![o]),
    } });
    api.patch(&existing.name_any(), &params(), &Patch::Merge(&patch))
        .await
        .map_err(write_error(&existing.name_any()))
}

async fn bump_collision_count<W: Workload>(ctx: &Context, set: &W, count: i32) -> Result<(), Error> {
    let api: Api<W> = Api::namespaced(ctx.client.clone(), &set.namespace().unwrap_or_default());
    // The whole status: a set that has none yet would be refused a status holding only
    // collisionCount (its counters are required).
    api.patch_status(
        &set.name_any(),
        &params(),
        &Patch::Merge(json!({ "status": set.status_with_collision_count(count + 1) })),
    )
    .await
    .map_err(|source| Error::PatchStatus {
        kind: W::KIND,
        name: set.name_any(),
        source,
    })?;
    Ok(())
}

/// Deletes revisions beyond `revisionHistoryLimit` (default 10).
pub async fn truncate<W: Workload>(
    ctx: &Context,
    set: &W,
    history: &History,
    pod_revisions: &BTreeSet<String>,
) -> Result<(), Error> {
    let limit = set.revision_history_limit().max(0) as usize;
    let keep = [history.current.as_str(), history.update.as_str()];
    let doomed = revisions_to_truncate(&history.known, &keep, pod_revisions, limit + keep.len());
    if doomed.is_empty() {
        return Ok(());
    }
    let api: Api<ControllerRevision> =
        Api::namespaced(ctx.client.clone(), &set.namespace().unwrap_or_default());
    delete(&api, doomed).await
}
