//! What a kind does in the pod webhooks, so that the admission server calls hooks and names
//! no kind: a kind whose objects change pods as they are created (a WorkloadSpread places a
//! pod in a subset, a SidecarSet injects its containers) or that must hear of a pod going
//! away (a WorkloadSpread gives its subset the room back) has a [`PodHook`], built by its
//! registry line ([`super::facts::HasFacts::POD_HOOK`]).
//!
//! Invariants:
//! - A hook answers from caches it watches itself, started when it is built; [`PodHook::listed`]
//!   resolves once each has its first list, and the webhook waits for that (bounded) before
//!   it asks any hook.
//! - Hooks run at pod create in [`Stage`] order, each on the pod as the previous ones left it;
//!   a refusal stops the chain, a skip goes on with the pod unchanged and a warning.
//! - A hook writes nothing when the request is a dry run (`writes` false).
//! - A pod deleted, evicted or changed is judged by every hook ([`PodHook::judge`]) before
//!   any hook hears of its removal: a refusal stops the chain.
use std::sync::Arc;

use futures::future::BoxFuture;
use k8s_openapi::api::core::v1::Pod;
use serde_json::Value;

use crate::runtime::configuration::Configuration;

/// Why a hook did not change a pod it meant to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Declined {
    /// The pod is refused, naming the object and the field (as upstream).
    Refused(String),
    /// The pod is created without this hook's change, with a warning (it or an object of the
    /// kind cannot be read).
    Skipped(String),
}

/// When a hook runs at pod create. Upstream places a pod in its WorkloadSpread subset
/// before it injects sidecars: the subset's patch may add what a SidecarSet selects.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Stage {
    /// Where the pod goes (labels, affinity, tolerations of a subset).
    Place,
    /// What the pod carries (containers, volumes).
    Inject,
}

/// What a hook is built with.
pub struct HookSetup<'a> {
    pub client: &'a kube::Client,
    /// The namespace the run is scoped to (None: all).
    pub namespace: Option<&'a str>,
    /// Where cluster-scoped kinds keep namespaced children (a SidecarSet's revisions).
    pub system_namespace: &'a str,
    /// What `run` read of OpenKruise's `kruise-configuration` at start.
    pub configuration: &'a Configuration,
}

/// Builds a kind's hook and starts its watches (on the tasks it spawns, for as long as the
/// process runs).
pub type WatchHook = fn(&HookSetup<'_>) -> Arc<dyn PodHook>;

/// A kind's hook, with its kind (None: a kind of this project's tests).
pub type KindHook = (Option<crate::api::KruiseKind>, Arc<dyn PodHook>);

/// An operation on a stored pod that may take it down, as the validating pod webhook
/// hears of it.
#[derive(Debug, Clone, Copy)]
pub enum Disruption<'a> {
    /// The pod deleted.
    Delete,
    /// The pod evicted.
    Evict,
    /// The pod changed (not its status): the pod as it would become.
    Update(&'a Pod),
}

/// A kind's part in the pod webhooks. Object safe: the futures are boxed.
pub trait PodHook: Send + Sync {
    /// When it runs at pod create.
    fn stage(&self) -> Stage;

    /// Resolves once every cache it answers from has its first list.
    fn listed(&self) -> BoxFuture<'static, ()>;

    /// The pod (JSON, as sent, or as earlier hooks left it) as this hook changes it at
    /// create; None: unchanged. `writes` false (a dry run): nothing may be written.
    fn at_create<'a>(
        &'a self,
        pod: &'a Value,
        writes: bool,
    ) -> BoxFuture<'a, Result<Option<Value>, Declined>>;

    /// May `disruption` of `pod` (as stored) go ahead? Err refuses it, naming what refused
    /// (a budget). Asked before [`PodHook::at_removal`]; `writes` false (a dry run): judged,
    /// nothing written.
    fn judge<'a>(
        &'a self,
        _pod: &'a Pod,
        _disruption: Disruption<'a>,
        _writes: bool,
    ) -> BoxFuture<'a, Result<(), String>> {
        Box::pin(async { Ok(()) })
    }

    /// A pod is deleted or evicted (every hook allowed it): Err refuses that, naming what
    /// failed. Not asked on a dry run.
    fn at_removal<'a>(&'a self, _pod: &'a Pod) -> BoxFuture<'a, Result<(), String>> {
        Box::pin(async { Ok(()) })
    }

    /// The stored objects of its kind in scope of an object in `namespace`, as JSON (for a
    /// kind judged among its peers, [`super::facts::KindFacts::judged_in_context`]).
    fn stored(&self, _namespace: &str) -> Vec<Value> {
        Vec::new()
    }

    /// The workload `reference` (a `targetRef` as JSON) names in `namespace`, as JSON, for a
    /// kind whose refusal reads its target; None when there is none or it cannot be read.
    fn target<'a>(&'a self, _namespace: &'a str, _reference: &'a Value) -> BoxFuture<'a, Option<Value>> {
        Box::pin(async { None })
    }
}
