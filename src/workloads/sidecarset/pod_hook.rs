//! The SidecarSet's pod hook: injection at pod create, from caches of the SidecarSets, the
//! Namespaces (a set's `namespaceSelector`) and the SidecarSets' ControllerRevisions in the
//! run's system namespace (a pinned revision), never fetched per request.
//!
//! Invariants: an unreadable SidecarSet injects nothing; a pod this hook cannot read is
//! skipped (created unchanged, with a warning); a matching set that cannot inject it
//! refuses it, naming the set and the field ([`super::webhook`]).
use std::sync::Arc;

use futures::future::BoxFuture;
use k8s_openapi::api::apps::v1::ControllerRevision;
use k8s_openapi::api::core::v1::Namespace;
use k8s_openapi::jiff::Timestamp;
use kube::runtime::reflector::{ObjectRef, Store};
use serde_json::Value;

use super::pinned;
use super::webhook::{Inputs, injection_patch};
use crate::api::sidecarset::SidecarSet;
use crate::runtime::decoded::Decoded;
use crate::runtime::watches;
use crate::workloads::pod_hooks::{Declined, HookSetup, PodHook, Stage};

/// The caches injection reads.
pub struct Injection {
    sidecarsets: Store<Decoded<SidecarSet>>,
    namespaces: Store<Namespace>,
    revisions: Store<ControllerRevision>,
}

/// The hook, its watches started.
pub fn watched(setup: &HookSetup<'_>) -> Arc<dyn PodHook> {
    let (sidecarsets, drive_sets) = watches::plain(kube::Api::all(setup.client.clone()), "sidecarsets");
    let (namespaces, drive_namespaces) = watches::plain(kube::Api::all(setup.client.clone()), "namespaces");
    let (revisions, drive_revisions) = watches::plain_labelled(
        kube::Api::namespaced(setup.client.clone(), setup.system_namespace),
        super::revisions::NAME_LABEL,
        "sidecarset revisions",
    );
    tokio::spawn(drive_sets);
    tokio::spawn(drive_namespaces);
    tokio::spawn(drive_revisions);
    Arc::new(Injection {
        sidecarsets,
        namespaces,
        revisions,
    })
}

impl Injection {
    /// The patch that injects `pod` (None: no set injects it).
    fn patch(&self, pod: &Value) -> Result<Option<json_patch::Patch>, Declined> {
        let sets: Vec<Arc<SidecarSet>> = self
            .sidecarsets
            .state()
            .iter()
            .filter_map(|d| d.object.as_ref().ok().cloned())
            .collect();
        if sets.is_empty() {
            return Ok(None);
        }
        let namespace = pod["metadata"]["namespace"]
            .as_str()
            .filter(|n| !n.is_empty())
            .unwrap_or("default")
            .to_string();
        let labels = self
            .namespaces
            .get(&ObjectRef::new(&namespace))
            .and_then(|n| n.metadata.labels.clone());
        let refs: Vec<&SidecarSet> = sets.iter().map(AsRef::as_ref).collect();
        // Revisions are copied out of the cache only when some SidecarSet pins one (most
        // pod creates never need them).
        let pins = refs.iter().any(|s| {
            s.spec
                .injection_strategy
                .as_ref()
                .is_some_and(|i| i.revision.is_some())
        });
        let revisions: Vec<pinned::StoredRevision> = match pins {
            true => self
                .revisions
                .state()
                .iter()
                .map(|r| pinned::StoredRevision::of(r))
                .collect(),
            false => Vec::new(),
        };
        let now = Timestamp::now();
        let roll = {
            use std::hash::BuildHasher as _;
            (std::collections::hash_map::RandomState::new().hash_one(now.as_nanosecond()) % 100) as u32
        };
        let inputs = Inputs {
            sets: &refs,
            namespace_labels: labels.as_ref(),
            revisions: &revisions,
            roll,
            now,
        };
        injection_patch(pod, &inputs)
    }
}

impl PodHook for Injection {
    fn stage(&self) -> Stage {
        Stage::Inject
    }

    fn listed(&self) -> BoxFuture<'static, ()> {
        let (sets, namespaces, revisions) = (
            self.sidecarsets.clone(),
            self.namespaces.clone(),
            self.revisions.clone(),
        );
        Box::pin(async move {
            let _ = sets.wait_until_ready().await;
            let _ = namespaces.wait_until_ready().await;
            let _ = revisions.wait_until_ready().await;
        })
    }

    fn at_create<'a>(
        &'a self,
        pod: &'a Value,
        _writes: bool,
    ) -> BoxFuture<'a, Result<Option<Value>, Declined>> {
        Box::pin(async move {
            let not_injected = |declined| match declined {
                Declined::Skipped(e) => Declined::Skipped(format!("did not inject sidecars: {e}")),
                refused => refused,
            };
            let Some(patch) = self.patch(pod).map_err(not_injected)? else {
                return Ok(None);
            };
            let mut injected = pod.clone();
            // A patch computed on the pod always applies.
            json_patch::patch(&mut injected, &patch).map_err(|e| {
                Declined::Skipped(format!("did not inject sidecars: the patch did not apply: {e}"))
            })?;
            Ok(Some(injected))
        })
    }

    fn stored(&self, _namespace: &str) -> Vec<Value> {
        // Cluster-scoped: every SidecarSet is a peer.
        self.sidecarsets
            .state()
            .iter()
            .filter_map(|s| s.object.as_deref().ok())
            .filter_map(|s| serde_json::to_value(s).ok())
            .collect()
    }
}
