//! What every reconcile of every workload controller shares: the [`Context`] (client,
//! watches, expectations, events, metrics), the [`Error`] of a reconcile (each names the
//! object and the write that failed), who owns what ([`controller_of`], [`owned_by`]) and
//! the one status write.
//!
//! Invariant: every error names the object it was writing, so an event or a log line
//! says which pod, claim, revision or workload failed. This module depends on no other
//! part of the reconcile machinery (the executor, the decoder and the serving loop all
//! depend on it), so there is no import loop among them.
use std::sync::{Arc, Mutex};

use k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta;
use kube::runtime::reflector::{ObjectRef, Store};
use kube::{Client, Resource};

use crate::runtime::children::Children;
use crate::runtime::events::Events;
use crate::runtime::expectations::{Cached, Expectations, ObjectKind, Watched};
use crate::runtime::metrics::Metrics;
use crate::runtime::owner_index::OwnerIndex;
use crate::runtime::watches::Watches;

pub const FIELD_MANAGER: &str = "kubectl-kruise";

#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error("creating pod {name}: {source}")]
    CreatePod { name: String, source: kube::Error },
    #[error("creating PVC {name}: {source}")]
    CreateClaim { name: String, source: kube::Error },
    #[error("deleting pod {name}: {source}")]
    DeletePod { name: String, source: kube::Error },
    #[error("deleting PVC {name}: {source}")]
    DeleteClaim { name: String, source: kube::Error },
    #[error("patching pod {name}: {source}")]
    PatchPod { name: String, source: kube::Error },
    #[error("patching the status of pod {name}: {source}")]
    PatchPodStatus { name: String, source: kube::Error },
    #[error("{} {kind} {name}: {source}", verb.doing())]
    WriteChild {
        verb: ChildVerb,
        kind: String,
        name: String,
        source: kube::Error,
    },
    #[error("writing revision {name}: {source}")]
    WriteRevision { name: String, source: kube::Error },
    #[error("writing the status of {kind} {name}: {source}")]
    PatchStatus {
        kind: &'static str,
        name: String,
        source: kube::Error,
    },
    /// The kind's own spec write (a CloneSet pruning `scaleStrategy.podsToDelete`).
    #[error("patching the spec of {kind} {name}: {source}")]
    PatchSpec {
        kind: &'static str,
        name: String,
        source: kube::Error,
    },
    #[error("{0}")]
    Internal(String),
}

impl Error {
    /// A short stable reason, for events and metrics.
    pub fn reason(&self) -> &'static str {
        match self {
            Error::CreatePod { .. } => "CreatePod",
            Error::CreateClaim { .. } => "CreateClaim",
            Error::DeletePod { .. } => "DeletePod",
            Error::DeleteClaim { .. } => "DeleteClaim",
            Error::PatchPod { .. } => "PatchPod",
            Error::PatchPodStatus { .. } => "PatchPodStatus",
            Error::WriteChild { verb, .. } => verb.reason(),
            Error::WriteRevision { .. } => "WriteRevision",
            Error::PatchStatus { .. } => "PatchStatus",
            Error::PatchSpec { .. } => "PatchSpec",
            Error::Internal(_) => "Internal",
        }
    }
}

/// What was done to a child that is not a pod.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum ChildVerb {
    Create,
    Delete,
    Patch,
}

impl ChildVerb {
    fn doing(self) -> &'static str {
        match self {
            ChildVerb::Create => "creating",
            ChildVerb::Delete => "deleting",
            ChildVerb::Patch => "patching",
        }
    }

    /// The error and metrics reason.
    pub fn reason(self) -> &'static str {
        match self {
            ChildVerb::Create => "CreateChild",
            ChildVerb::Delete => "DeleteChild",
            ChildVerb::Patch => "PatchChild",
        }
    }

    /// The event reason of a successful write (Kubernetes' own controllers' words).
    pub fn event(self) -> &'static str {
        match self {
            ChildVerb::Create => "SuccessfulCreate",
            ChildVerb::Delete => "SuccessfulDelete",
            ChildVerb::Patch => "SuccessfulUpdate",
        }
    }

    /// The past tense, for event notes.
    pub fn done(self) -> &'static str {
        match self {
            ChildVerb::Create => "created",
            ChildVerb::Delete => "deleted",
            ChildVerb::Patch => "updated",
        }
    }
}

/// Which kind of pod or claim write failed, for the failure condition each kind names
/// (CloneSet: FailedScale / FailedUpdate; Advanced StatefulSet: FailedCreatePod /
/// FailedUpdatePod).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FailedWrite {
    Create,
    Delete,
    Update,
}

impl Error {
    /// The kind of pod or claim write that failed; None for any other error.
    pub fn failed_write(&self) -> Option<FailedWrite> {
        match self {
            Error::CreatePod { .. } | Error::CreateClaim { .. } => Some(FailedWrite::Create),
            Error::DeletePod { .. } | Error::DeleteClaim { .. } => Some(FailedWrite::Delete),
            Error::PatchPod { .. } | Error::PatchPodStatus { .. } => Some(FailedWrite::Update),
            Error::WriteChild { verb, .. } => Some(match verb {
                ChildVerb::Create => FailedWrite::Create,
                ChildVerb::Delete => FailedWrite::Delete,
                ChildVerb::Patch => FailedWrite::Update,
            }),
            _ => None,
        }
    }
}

/// How a controller of ours takes a pod down.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TakeDown {
    /// An in-place update (asked before its first write, the readiness gate, which no pod
    /// webhook sees).
    UpdateInPlace,
    /// A delete: a scale-in, a recreation (asked before it, so a budget holds even where
    /// no pod webhook runs, `run --webhooks=false`).
    Delete,
}

/// What a controller asks before it takes a pod down: Err holds it, saying why (a
/// PodUnavailableBudget with no room). Provided by the run (the budgets live above the
/// runtime).
pub type BeforeTakeDown = for<'a> fn(
    &'a kube::Client,
    &'a crate::runtime::cached_pod::CachedPod,
    TakeDown,
) -> futures::future::BoxFuture<'a, Result<(), String>>;

/// What every reconcile shares.
pub struct Context {
    pub client: Client,
    pub watches: Watches,
    pub expectations: Arc<Expectations>,
    pub events: Events,
    pub metrics: Arc<Metrics>,
    /// The caches of the controller's children that are not pods or claims.
    pub children: Children,
    /// Failures in a row per object (`namespace/name`) and the retry they wait for.
    pub failures: Mutex<std::collections::HashMap<String, Failures>>,
    /// The problem messages last announced per object, so a problem that persists is one
    /// event, not one per reconcile (events are API writes too).
    pub announced: Mutex<std::collections::HashMap<String, std::collections::BTreeSet<String>>>,
    /// Objects woken and not yet reconciled, and the reconciles running (the workqueue
    /// figures and the stall check).
    pub queue: Arc<crate::runtime::workqueue::WorkQueue>,
    /// Backoffs a kind keeps across reconciles (a DaemonSet's per-node Failed-pod backoff).
    pub backoffs: crate::runtime::backoff::Backoffs,
    /// Per object (`namespace/name`): its uid and the resourceVersion our last write of
    /// its own status returned. Nothing is planned from a cached copy older than that (a
    /// BroadcastJob's phase, an AdvancedCronJob's lastScheduleTime live in the status).
    pub own_writes: OwnWrites,
    /// When each object's status was last written: a counters-only change waits out the
    /// window (see [`crate::runtime::coalesce`]).
    pub status_window: crate::runtime::coalesce::StatusWindow,
    /// The namespace the run is scoped to (`run -n NS`); None: all namespaces.
    pub scope: Option<String>,
    /// Where objects of cluster-scoped kinds keep their namespaced children (a
    /// SidecarSet's ControllerRevisions): the run's namespace, else the one it runs in, else `kruise-system`.
    pub system_namespace: String,
    /// OpenKruise's feature gates the planners read (`run --feature-gates`).
    pub features: crate::runtime::features::Features,
    /// What `run` read of OpenKruise's `kruise-configuration` at start (the WorkloadSpread
    /// custom-workload whitelist).
    pub configuration: crate::runtime::configuration::Configuration,
    /// Asked before each in-place update and pod delete (a PodUnavailableBudget's
    /// judgement); None: nothing.
    pub before_take_down: Option<BeforeTakeDown>,
}

/// One object's failures in a row: how many, when its retry is due, and the generation
/// that failed (the object's own events do not cut the wait short; a spec change does).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Failures {
    pub count: u32,
    pub retry_at: std::time::Instant,
    pub generation: Option<i64>,
}

/// The versions of the objects' own status writes (see [`Context::own_writes`]).
#[derive(Debug, Default)]
pub struct OwnWrites(Mutex<std::collections::HashMap<String, (String, u64)>>);

impl OwnWrites {
    /// Records that the write of `key` (uid `uid`) returned `version`.
    pub fn wrote(&self, key: &str, uid: &str, version: u64) {
        let mut all = self.0.lock().unwrap_or_else(|e| e.into_inner());
        all.insert(key.to_string(), (uid.to_string(), version));
    }

    /// Whether the cached copy of `key` (uid, resourceVersion) is older than our last
    /// write of it; a copy that caught up (or another object of that name) clears the entry.
    pub fn behind(&self, key: &str, uid: &str, cached: u64) -> bool {
        let mut all = self.0.lock().unwrap_or_else(|e| e.into_inner());
        match all.get(key) {
            Some((written_uid, version)) if written_uid == uid && cached < *version => true,
            Some(_) => {
                all.remove(key);
                false
            }
            None => false,
        }
    }

    /// Forgets `key` (the object is being deleted).
    pub fn forget(&self, key: &str) {
        self.0.lock().unwrap_or_else(|e| e.into_inner()).remove(key);
    }
}

/// `(name, uid)` of the object's controller when it is a `kind` of apps.kruise.io (any
/// served version).
pub fn controller_of(meta: &ObjectMeta, kind: &str) -> Option<(String, String)> {
    controller_in(meta, "apps.kruise.io", kind)
}

/// `(name, uid)` of the object's controller when it is a `kind` of API group `group` (any
/// served version; the core group is `""`).
pub fn controller_in(meta: &ObjectMeta, group: &str, kind: &str) -> Option<(String, String)> {
    meta.owner_references.iter().flatten().find_map(|o| {
        let owner_group = o.api_version.rsplit_once('/').map_or("", |(g, _)| g);
        (o.controller == Some(true) && o.kind == kind && owner_group == group)
            .then(|| (o.name.clone(), o.uid.clone()))
    })
}

impl Context {
    /// Forgets everything kept about the object `owner` (it was deleted): its expectations, failures, backoff, announced problems, own status
    /// writes and its place in the queue-depth count.
    pub fn forget_object(&self, owner: &str) {
        self.expectations.forget_owner(owner);
        self.own_writes.forget(owner);
        self.status_window.forget(owner);
        self.failures
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(owner);
        self.announced
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(owner);
        self.queue.forget(owner);
    }

    /// Whether `namespace` is being deleted: the namespace cache shows it, or the API server
    /// refused a create there for it within the last seconds (before the cache shows it).
    pub fn namespace_terminating(&self, namespace: &str) -> bool {
        self.watches.terminating(namespace) || self.metrics.api.terminating(namespace)
    }

    /// How long `owner` (at `generation`) must still wait out the backoff of its last
    /// failure; a new generation (a spec change) waits for nothing.
    pub fn backing_off(
        &self,
        owner: &str,
        generation: Option<i64>,
        now: std::time::Instant,
    ) -> Option<std::time::Duration> {
        let failures = self.failures.lock().unwrap_or_else(|e| e.into_inner());
        let f = failures.get(owner)?;
        (f.generation == generation)
            .then(|| f.retry_at.checked_duration_since(now))
            .flatten()
            .filter(|d| !d.is_zero())
    }

    /// How many of `owner`'s earlier writes the caches do not show yet (hash lookups in the
    /// stores, not scans: a big rollout has hundreds of expectations).
    pub fn pending_writes(&self, owner: &str) -> usize {
        let now = k8s_openapi::jiff::Timestamp::now();
        let lookup = |object: &Watched| -> Option<Cached> {
            match &object.kind {
                ObjectKind::Pod => self
                    .watches
                    .pods
                    .get(&ObjectRef::new(&object.name).within(&object.namespace))
                    .map(|p| Cached::of(p.meta(), now)),
                ObjectKind::Claim => self
                    .watches
                    .claims
                    .get(&ObjectRef::new(&object.name).within(&object.namespace))
                    .map(|c| Cached::of(&c.metadata, now)),
                ObjectKind::Child(key) => self.children.find(key, &object.namespace, &object.name),
            }
        };
        self.expectations.pending(owner, &lookup)
    }
}

/// The cached objects whose controller is `owner`, a `kind` of apps.kruise.io (looked up
/// by owner uid in `index`, not scanned).
pub fn owned_by<K, O>(store: &Store<K>, index: &OwnerIndex, owner: &O, kind: &str) -> Vec<Arc<K>>
where
    K: Resource<DynamicType = ()> + Clone,
    O: Resource,
{
    let Some(uid) = owner.meta().uid.clone() else {
        return Vec::new();
    };
    index
        .controlled(store, &uid)
        .into_iter()
        .filter(|o| controller_of(o.meta(), kind).is_some_and(|(_, u)| u == uid))
        .collect()
}

/// The cached pods whose controller has `uid` (looked up by owner uid, not scanned),
/// assembled from their records.
pub fn pods_controlled_by(ctx: &Context, uid: &str) -> Vec<Arc<k8s_openapi::api::core::v1::Pod>> {
    crate::runtime::cached_pod::pods(&ctx.watches.pod_owners.controlled(&ctx.watches.pods, uid))
}

/// The cached pods whose controller is `owner`, a `kind` of apps.kruise.io, assembled (a
/// snapshot's pods).
pub fn owned_pods<O: Resource>(
    ctx: &Context,
    owner: &O,
    kind: &str,
) -> Vec<Arc<k8s_openapi::api::core::v1::Pod>> {
    crate::runtime::cached_pod::pods(&owned_by(&ctx.watches.pods, &ctx.watches.pod_owners, owner, kind))
}

/// The cached pods in `namespace` that have no controller, assembled from their records.
pub fn uncontrolled_pods(ctx: &Context, namespace: &str) -> Vec<Arc<k8s_openapi::api::core::v1::Pod>> {
    crate::runtime::cached_pod::pods(&uncontrolled_in(
        &ctx.watches.pods,
        &ctx.watches.pod_owners,
        namespace,
    ))
}

/// The cached objects in `namespace` that have no controller owner (looked up in `index`,
/// not scanned): the orphans a kind that adopts by selector may take.
pub fn uncontrolled_in<K>(store: &Store<K>, index: &OwnerIndex, namespace: &str) -> Vec<Arc<K>>
where
    K: Resource<DynamicType = ()> + Clone,
{
    index
        .uncontrolled(namespace)
        .into_iter()
        .filter_map(|(ns, name)| store.get(&ObjectRef::new(&name).within(&ns)))
        .filter(|o| {
            !o.meta()
                .owner_references
                .iter()
                .flatten()
                .any(|r| r.controller == Some(true))
        })
        .collect()
}

/// `namespace/name` of an object: the key of its expectations and queue entry.
pub fn key<K: Resource>(object: &K) -> String {
    format!(
        "{}/{}",
        object.meta().namespace.clone().unwrap_or_default(),
        object.meta().name.clone().unwrap_or_default()
    )
}

impl Context {
    /// Which of `messages` are new for `owner` since the last call; the remembered set
    /// becomes `messages`, so a problem that goes away and comes back is announced again.
    pub fn new_problems<'m>(&self, owner: &str, messages: &'m [String]) -> Vec<&'m String> {
        let mut all = self.announced.lock().unwrap_or_else(|e| e.into_inner());
        fresh_problems(&mut all, owner, messages)
    }
}

/// The bookkeeping of [`Context::new_problems`] (pure).
pub fn fresh_problems<'m>(
    announced: &mut std::collections::HashMap<String, std::collections::BTreeSet<String>>,
    owner: &str,
    messages: &'m [String],
) -> Vec<&'m String> {
    let before = announced.remove(owner).unwrap_or_default();
    let fresh = messages.iter().filter(|m| !before.contains(*m)).collect();
    if !messages.is_empty() {
        announced.insert(owner.to_string(), messages.iter().cloned().collect());
    }
    fresh
}

/// Merge-patches `status` into the status subresource of `object` (a `kind`).
pub async fn write_status<K, S>(
    ctx: &Context,
    object: &K,
    kind: &'static str,
    status: &S,
) -> Result<(), Error>
where
    K: Resource<DynamicType = ()> + Clone + serde::de::DeserializeOwned + std::fmt::Debug,
    K::Scope: crate::runtime::scope::Scoped,
    S: serde::Serialize,
{
    write_status_at(ctx, object, kind, status, None).await
}

/// [`write_status`]; with `resource_version`, only onto that version of the object (a
/// Conflict otherwise).
pub async fn write_status_at<K, S>(
    ctx: &Context,
    object: &K,
    kind: &'static str,
    status: &S,
    resource_version: Option<&str>,
) -> Result<(), Error>
where
    K: Resource<DynamicType = ()> + Clone + serde::de::DeserializeOwned + std::fmt::Debug,
    K::Scope: crate::runtime::scope::Scoped,
    S: serde::Serialize,
{
    let name = object.meta().name.clone().unwrap_or_default();
    let api: kube::Api<K> = crate::runtime::scope::api_of(&ctx.client, object);
    let params = kube::api::PatchParams {
        field_manager: Some(FIELD_MANAGER.into()),
        ..kube::api::PatchParams::default()
    };
    let mut patch = serde_json::json!({ "status": status });
    if let Some(version) = resource_version {
        patch["metadata"] = serde_json::json!({ "resourceVersion": version });
    }
    let written = api
        .patch_status(&name, &params, &kube::api::Patch::Merge(&patch))
        .await
        .map_err(|source| Error::PatchStatus { kind, name, source })?;
    ctx.own_writes.wrote(
        &key(object),
        object.meta().uid.as_deref().unwrap_or_default(),
        crate::runtime::expectations::resource_version(written.meta().resource_version.as_deref()),
    );
    Ok(())
}

#[cfg(test)]
mod own_writes_tests {
    use super::OwnWrites;

    #[test]
    fn a_copy_older_than_our_write_is_behind_until_it_catches_up() {
        let writes = OwnWrites::default();
        assert!(!writes.behind("ns/a", "u1", 5), "nothing written");
        writes.wrote("ns/a", "u1", 10);
        assert!(writes.behind("ns/a", "u1", 9));
        assert!(!writes.behind("ns/a", "u2", 9), "another object of that name");
        writes.wrote("ns/a", "u1", 10);
        assert!(!writes.behind("ns/a", "u1", 10), "caught up");
        assert!(!writes.behind("ns/a", "u1", 9), "the entry is gone once seen");
    }
}

#[cfg(test)]
mod announce_tests {
    use super::fresh_problems;

    #[test]
    fn a_problem_is_announced_once_while_it_lasts_and_again_when_it_comes_back() {
        let mut announced = std::collections::HashMap::new();
        let gate = vec!["missing gate".to_string()];
        assert_eq!(fresh_problems(&mut announced, "ns/web", &gate).len(), 1);
        assert!(
            fresh_problems(&mut announced, "ns/web", &gate).is_empty(),
            "same problem: no new event"
        );
        assert_eq!(
            fresh_problems(&mut announced, "ns/other", &gate).len(),
            1,
            "per object"
        );
        assert!(fresh_problems(&mut announced, "ns/web", &[]).is_empty());
        assert_eq!(
            fresh_problems(&mut announced, "ns/web", &gate).len(),
            1,
            "it came back"
        );
    }
}
