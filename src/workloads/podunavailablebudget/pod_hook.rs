//! The PodUnavailableBudget's pod hook: a pod created is annotated with the budget that
//! counts it (`pub.kruise.io/related-pub`, and the older `kruise.io/related-pub`); a pod
//! deleted, evicted or changed is judged by the budget its annotation names ([`judge`]),
//! and allowing it records the pod in the budget's status first. Both answer from a cache
//! of the budgets in the run's scope.
//!
//! Invariants:
//! - A pod no budget names is never refused (as upstream: the annotation is the link; the
//!   controller writes it on the pods created while no `run` served the webhook).
//! - An update is judged only when it can make the pod unavailable: its spec changes, or
//!   it gains an unavailable label (`unavailable-pod.kruise.io/*`).
//! - Recording is a status write under the resourceVersion judged from, serialised per
//!   budget in this process and judged again from a fresh read on a conflict (a few
//!   times, then refused naming the budget); our own last write stands in for the cache
//!   until the watch catches up. A dry run is judged and writes nothing.
//! - A budget that cannot be read or written refuses, naming it (as upstream).
//!
//! [`judge`]: super::protect::judge
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use futures::future::BoxFuture;
use k8s_openapi::api::core::v1::Pod;
use kube::core::{Selector, SelectorExt};
use kube::runtime::reflector::Store;
use kube::{Client, ResourceExt};
use serde_json::Value;

use super::budget::labelled_unavailable;
use super::plan::{naming_patch, related};
use crate::api::podunavailablebudget::{PodUnavailableBudget, PubOperation};
use crate::runtime::decoded::Decoded;
use crate::runtime::expectations::freshest;
use crate::runtime::watches;
use crate::workloads::common::availability::is_active;
use crate::workloads::common::targets::is_target;
use crate::workloads::pod_hooks::{Declined, Disruption, HookSetup, PodHook, Stage};

type LastWritten = Arc<tokio::sync::Mutex<Option<PodUnavailableBudget>>>;

/// The budget hook: its cache, the client it writes the budgets' status with, and the
/// per-budget write locks.
pub struct Budgets {
    client: Client,
    store: Store<Decoded<PodUnavailableBudget>>,
    locks: Mutex<HashMap<String, LastWritten>>,
}

/// The hook, its watch started.
pub fn watched(setup: &HookSetup<'_>) -> Arc<dyn PodHook> {
    let (store, drive) = watches::plain(
        watches::scoped::<Decoded<PodUnavailableBudget>>(setup.client, setup.namespace),
        "podunavailablebudgets",
    );
    tokio::spawn(drive);
    Arc::new(Budgets {
        client: setup.client.clone(),
        store,
        locks: Mutex::default(),
    })
}

impl Budgets {
    /// The readable, live budgets of `namespace`, by name.
    fn in_namespace(&self, namespace: &str) -> Vec<Arc<PodUnavailableBudget>> {
        crate::runtime::decoded::live_in(&self.store, namespace)
    }

    fn lock_of(&self, budget: &PodUnavailableBudget) -> LastWritten {
        let key = format!("{}/{}", budget.namespace().unwrap_or_default(), budget.name_any());
        let mut locks = self.locks.lock().unwrap_or_else(|e| e.into_inner());
        locks.entry(key).or_default().clone()
    }

    /// Judges `operation` of `pod` under `budget`, recording it when allowed and `writes`
    /// (serialised per budget; our last write stands in for an older cache).
    async fn guard(
        &self,
        budget: &PodUnavailableBudget,
        pod: &Pod,
        operation: PubOperation,
        writes: bool,
    ) -> Result<(), String> {
        let lock = self.lock_of(budget);
        let mut last = lock.lock().await;
        let current = freshest(budget, last.as_ref());
        if let Some(written) = super::guard::guard(&self.client, current, pod, operation, writes).await? {
            *last = Some(written);
        }
        Ok(())
    }
}

/// Whether `budget` counts `pod` (by its selector, or by its target controlling the pod: a
/// Deployment's pods by their ReplicaSet's name and `pod-template-hash`).
pub fn counts(budget: &PodUnavailableBudget, pod: &Pod) -> bool {
    if let Some(selector) = &budget.spec.selector {
        return Selector::try_from(selector.clone())
            .is_ok_and(|s| !s.selects_all() && s.matches(pod.labels()));
    }
    let Some(target) = &budget.spec.target_ref else {
        return false;
    };
    let hash = pod.labels().get("pod-template-hash");
    pod.owner_references()
        .iter()
        .filter(|o| o.controller == Some(true))
        .any(|o| {
            is_target(o, target)
                || (target.kind == "Deployment"
                    && o.kind == "ReplicaSet"
                    && hash.is_some_and(|h| o.name == format!("{}-{h}", target.name)))
        })
}

/// Whether changing `old` into `new` can make the pod unavailable.
fn disrupts(old: &Pod, new: &Pod) -> bool {
    old.spec != new.spec || (!labelled_unavailable(old) && labelled_unavailable(new))
}

impl PodHook for Budgets {
    /// After a WorkloadSpread placed the pod (its subset may add the labels a budget
    /// selects).
    fn stage(&self) -> Stage {
        Stage::Inject
    }

    fn listed(&self) -> BoxFuture<'static, ()> {
        let store = self.store.clone();
        Box::pin(async move {
            let _ = store.wait_until_ready().await;
        })
    }

    fn at_create<'a>(
        &'a self,
        pod: &'a Value,
        _writes: bool,
    ) -> BoxFuture<'a, Result<Option<Value>, Declined>> {
        Box::pin(async move {
            let Ok(typed) = serde_json::from_value::<Pod>(pod.clone()) else {
                return Ok(None);
            };
            if !is_active(&typed) {
                return Ok(None);
            }
            let namespace = typed.namespace().unwrap_or_else(|| "default".into());
            let Some(budget) = self
                .in_namespace(&namespace)
                .into_iter()
                .find(|b| counts(b, &typed))
            else {
                return Ok(None);
            };
            let mut named = pod.clone();
            json_patch::merge(&mut named, &naming_patch(&budget.name_any()));
            Ok(Some(named))
        })
    }

    fn judge<'a>(
        &'a self,
        pod: &'a Pod,
        disruption: Disruption<'a>,
        writes: bool,
    ) -> BoxFuture<'a, Result<(), String>> {
        Box::pin(async move {
            let operation = match disruption {
                Disruption::Delete => PubOperation::Delete,
                Disruption::Evict => PubOperation::Evict,
                Disruption::Update(new) if disrupts(pod, new) => PubOperation::Update,
                Disruption::Update(_) => return Ok(()),
            };
            let Some(name) = related(pod) else {
                return Ok(());
            };
            let namespace = pod.namespace().unwrap_or_else(|| "default".into());
            let Some(budget) = self
                .in_namespace(&namespace)
                .into_iter()
                .find(|b| b.name_any() == name)
            else {
                return Ok(());
            };
            self.guard(&budget, pod, operation, writes).await
        })
    }

    fn stored(&self, namespace: &str) -> Vec<Value> {
        self.in_namespace(namespace)
            .iter()
            .filter_map(|b| serde_json::to_value(b.as_ref()).ok())
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn pod(value: Value) -> Pod {
        serde_json::from_value(value).expect("a pod")
    }

    fn budget(spec: Value) -> PodUnavailableBudget {
        serde_json::from_value(json!({ "metadata": { "name": "web", "namespace": "shop" }, "spec": spec }))
            .expect("a budget")
    }

    #[test]
    fn a_budget_counts_the_pods_of_its_target_and_selector() {
        let owned = |kind: &str, name: &str| {
            pod(
                json!({ "metadata": { "name": "p", "labels": { "app": "web", "pod-template-hash": "5d9f" },
                "ownerReferences": [{ "apiVersion": "apps/v1", "kind": kind, "name": name, "uid": "u", "controller": true }] } }),
            )
        };
        let deployment =
            budget(json!({ "targetRef": { "apiVersion": "apps/v1", "kind": "Deployment", "name": "web" } }));
        assert!(counts(&deployment, &owned("ReplicaSet", "web-5d9f")));
        assert!(!counts(&deployment, &owned("ReplicaSet", "web-0000")));
        let statefulset =
            budget(json!({ "targetRef": { "apiVersion": "apps/v1", "kind": "StatefulSet", "name": "web" } }));
        assert!(counts(&statefulset, &owned("StatefulSet", "web")));
        assert!(!counts(&statefulset, &owned("StatefulSet", "db")));
        let labels = budget(json!({ "selector": { "matchLabels": { "app": "web" } } }));
        assert!(counts(&labels, &owned("StatefulSet", "db")));
    }

    #[test]
    fn only_a_spec_change_or_an_unavailable_label_disrupts() {
        let old = pod(
            json!({ "metadata": { "name": "p" }, "spec": { "containers": [{ "name": "a", "image": "x:1" }] } }),
        );
        let mut relabelled = old.clone();
        relabelled.metadata.labels = Some([("team".to_string(), "a".to_string())].into());
        assert!(!disrupts(&old, &relabelled));
        let mut drained = old.clone();
        drained.metadata.labels =
            Some([("unavailable-pod.kruise.io/drain".to_string(), "1".to_string())].into());
        assert!(disrupts(&old, &drained));
        let mut updated = old.clone();
        updated.spec.as_mut().expect("spec").containers[0].image = Some("x:2".into());
        assert!(disrupts(&old, &updated));
    }
}
