//! The WorkloadSpread's pod hook: a pod created is placed in a subset of the spread that
//! selects it, and a pod deleted or evicted gives its subset the room back; both answer
//! from a cache of the WorkloadSpreads in the run's scope and write the spread's status
//! ([`super::webhook`]). Its validation reads its peers from that cache and its target
//! from the API server.
//!
//! Invariants: a dry run places nothing (placing writes the spread's status); a failed
//! read or write of the spread refuses the pod, naming what failed, as upstream.
use std::sync::Arc;

use futures::future::BoxFuture;
use k8s_openapi::api::core::v1::Pod;
use serde_json::Value;

use super::webhook::{Spreads, place_pod, release_pod, target_of};
use crate::api::workloadspread::WorkloadSpread;
use crate::runtime::decoded::Decoded;
use crate::runtime::watches;
use crate::workloads::pod_hooks::{Declined, HookSetup, PodHook, Stage};

/// The placement hook: its cache and the client it writes the spreads' status with.
pub struct Placement {
    client: kube::Client,
    spreads: Spreads,
}

/// The hook, its watch started.
pub fn watched(setup: &HookSetup<'_>) -> Arc<dyn PodHook> {
    let (store, drive) = watches::plain(
        watches::scoped::<Decoded<WorkloadSpread>>(setup.client, setup.namespace),
        "workloadspreads",
    );
    tokio::spawn(drive);
    Arc::new(Placement {
        client: setup.client.clone(),
        spreads: Spreads::new(store, setup.configuration.clone()),
    })
}

impl PodHook for Placement {
    fn stage(&self) -> Stage {
        Stage::Place
    }

    fn listed(&self) -> BoxFuture<'static, ()> {
        let store = self.spreads.store.clone();
        Box::pin(async move {
            let _ = store.wait_until_ready().await;
        })
    }

    fn at_create<'a>(
        &'a self,
        pod: &'a Value,
        writes: bool,
    ) -> BoxFuture<'a, Result<Option<Value>, Declined>> {
        Box::pin(async move {
            match writes {
                true => place_pod(&self.client, &self.spreads, pod)
                    .await
                    .map_err(Declined::Refused),
                false => Ok(None),
            }
        })
    }

    fn at_removal<'a>(&'a self, pod: &'a Pod) -> BoxFuture<'a, Result<(), String>> {
        Box::pin(release_pod(&self.client, &self.spreads, pod))
    }

    fn stored(&self, namespace: &str) -> Vec<Value> {
        self.spreads
            .store
            .state()
            .iter()
            .filter(|d| d.meta.namespace.as_deref() == Some(namespace))
            .filter_map(|d| d.object.as_deref().ok())
            .filter_map(|s| serde_json::to_value(s).ok())
            .collect()
    }

    fn target<'a>(&'a self, namespace: &'a str, reference: &'a Value) -> BoxFuture<'a, Option<Value>> {
        Box::pin(target_of(
            &self.client,
            &self.spreads.configuration,
            namespace,
            reference,
        ))
    }
}
