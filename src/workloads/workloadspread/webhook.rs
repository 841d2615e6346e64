//! The WorkloadSpread side of pod admission: a new pod is placed
//! into a subset and injected with it ([`place_pod`], called by `/mutate-pod` before the
//! SidecarSet injection, as upstream orders them); a pod deleted or evicted gives its
//! subset its room back ([`release_pod`], `/validate-pod`). The decisions are the pure
//! [`crate::workloads::workloadspread::place`] and [`crate::workloads::workloadspread::deleting`];
//! this module finds the WorkloadSpread, reads what they need and writes the status.
//!
//! ```text
//! pod CREATE ─> owner chain reaches a spread's target? ─> lock(spread) ─> place (pure)
//!            ─> status write under resourceVersion (conflict: re-read, place again) ─> inject
//! pod DELETE / eviction ─> annotated for a spread? ─> lock(spread) ─> record (pure) ─> write
//! ```
//!
//! Invariants:
//! - The status writes of one WorkloadSpread are serialised in this process (one lock per
//!   spread), each under the resourceVersion it was planned from; on a conflict the spread
//!   is read again from the API server and the pod placed again. A write's answer is kept
//!   and used while the cache is older, so back-to-back creates do not conflict on our own
//!   writes. Only `status.versionedSubsetStatuses` is written.
//! - A pod is placed by at most one WorkloadSpread: the first of its namespace (by name)
//!   that is not being deleted, whose target the pod's controller chain reaches (a
//!   ReplicaSet's Deployment is read from the API server) and whose filter selects it.
//! - Dry-run requests write nothing and place nothing.
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use k8s_openapi::api::apps::v1::ReplicaSet;
use k8s_openapi::api::core::v1::Pod;
use k8s_openapi::jiff::Timestamp;
use kube::api::{Api, Patch, PatchParams};
use kube::core::{ApiResource, DynamicObject, GroupVersionKind};
use kube::runtime::reflector::Store;
use kube::{Client, ResourceExt};
use serde_json::{Value, json};

use super::{deleting, place, target};
use crate::api::workloadspread::{WorkloadSpread, WorkloadSpreadStatus};
use crate::runtime::configuration::Configuration;
use crate::runtime::decoded::Decoded;
use crate::runtime::expectations::freshest;
use crate::workloads::common::availability::is_active;

/// Attempts at a status write before the request fails.
const ATTEMPTS: usize = 5;

type LastWritten = Arc<tokio::sync::Mutex<Option<WorkloadSpread>>>;

/// The WorkloadSpread cache of the pod webhooks and the per-spread write locks.
#[derive(Clone)]
pub struct Spreads {
    pub store: Store<Decoded<WorkloadSpread>>,
    /// The custom workload kinds a spread may target (read when `run` starts).
    pub configuration: Configuration,
    locks: Arc<Mutex<HashMap<String, LastWritten>>>,
}

impl Spreads {
    pub fn new(store: Store<Decoded<WorkloadSpread>>, configuration: Configuration) -> Self {
        Self {
            store,
            configuration,
            locks: Arc::default(),
        }
    }

    /// The readable, live WorkloadSpreads of `namespace`, by name.
    fn in_namespace(&self, namespace: &str) -> Vec<Arc<WorkloadSpread>> {
        crate::runtime::decoded::live_in(&self.store, namespace)
    }

    fn lock_of(&self, ws: &WorkloadSpread) -> LastWritten {
        let key = format!("{}/{}", ws.namespace().unwrap_or_default(), ws.name_any());
        let mut locks = self.locks.lock().unwrap_or_else(|e| e.into_inner());
        locks.entry(key).or_default().clone()
    }
}

/// Plans a status change of `ws` with `plan` and writes it, serialised per spread and
/// retried from a fresh read on a conflict; returns what the last plan returned.
async fn under_lock<T>(
    client: &Client,
    spreads: &Spreads,
    ws: &WorkloadSpread,
    mut plan: impl FnMut(&WorkloadSpread) -> (T, Option<WorkloadSpreadStatus>),
) -> Result<T, String> {
    let lock = spreads.lock_of(ws);
    let mut last = lock.lock().await;
    let namespace = ws.namespace().unwrap_or_default();
    let api: Api<WorkloadSpread> = Api::namespaced(client.clone(), &namespace);
    let mut current = freshest(ws, last.as_ref());
    for _ in 0..ATTEMPTS {
        let (out, status) = plan(&current);
        let Some(status) = status else {
            return Ok(out);
        };
        let patch = json!({
            "metadata": { "resourceVersion": current.resource_version() },
            "status": { "versionedSubsetStatuses": status.versioned_subset_statuses },
        });
        let params = PatchParams {
            field_manager: Some(crate::runtime::context::FIELD_MANAGER.into()),
            ..PatchParams::default()
        };
        match api
            .patch_status(&current.name_any(), &params, &Patch::Merge(&patch))
            .await
        {
            Ok(written) => {
                *last = Some(written);
                return Ok(out);
            }
            Err(kube::Error::Api(s)) if s.is_conflict() => {
                current = api
                    .get(&current.name_any())
                    .await
                    .map_err(|e| format!("reading WorkloadSpread {namespace}/{}: {e}", ws.name_any()))?;
            }
            Err(e) => {
                return Err(format!(
                    "writing the status of WorkloadSpread {namespace}/{}: {e}",
                    ws.name_any()
                ));
            }
        }
    }
    Err(format!(
        "WorkloadSpread {namespace}/{}: its status changed under {ATTEMPTS} writes in a row",
        ws.name_any()
    ))
}

/// The API of a workload kind a WorkloadSpread may target (a custom one through the API
/// resource discovery found for it).
fn workload_api(
    client: &Client,
    configuration: &Configuration,
    namespace: &str,
    api_version: &str,
    kind: &str,
) -> Option<Api<DynamicObject>> {
    let (group, version) = match api_version.rsplit_once('/') {
        Some((g, v)) => (g, v),
        None => ("", api_version),
    };
    let resource = if target::supported(group, kind) {
        let plural = format!("{}s", kind.to_ascii_lowercase());
        ApiResource::from_gvk_with_plural(&GroupVersionKind::gvk(group, version, kind), &plural)
    } else {
        configuration.custom(group, kind)?.resource.clone()?
    };
    Some(Api::namespaced_with(client.clone(), namespace, &resource))
}

/// The workload `reference` (a `targetRef` as JSON) names in `namespace`, as JSON; None
/// when it is not a supported kind, does not exist or cannot be read.
pub async fn target_of(
    client: &Client,
    configuration: &Configuration,
    namespace: &str,
    reference: &Value,
) -> Option<Value> {
    let field = |k: &str| reference[k].as_str().unwrap_or_default();
    let api = workload_api(
        client,
        configuration,
        namespace,
        field("apiVersion"),
        field("kind"),
    )?;
    let name = field("name");
    if name.is_empty() {
        return None;
    }
    let object = api.get_opt(name).await.ok().flatten()?;
    serde_json::to_value(object).ok()
}

/// The target's replica total, read only when a subset counts in percent.
async fn total_of(
    client: &Client,
    configuration: &Configuration,
    ws: &WorkloadSpread,
) -> Result<i64, String> {
    if !target::needs_total(ws) {
        return Ok(0);
    }
    let namespace = ws.namespace().unwrap_or_default();
    let reference = &ws.spec.target_ref;
    let Some(api) = workload_api(
        client,
        configuration,
        &namespace,
        &reference.api_version,
        &reference.kind,
    ) else {
        return Ok(0);
    };
    match api.get_opt(&reference.name).await {
        Ok(Some(object)) => Ok(target::total(
            ws,
            &serde_json::to_value(&object).unwrap_or_default(),
            configuration,
        )),
        Ok(None) => Ok(0),
        Err(e) => Err(format!(
            "reading {} {namespace}/{} (the target of WorkloadSpread {}): {e}",
            reference.kind,
            reference.name,
            ws.name_any()
        )),
    }
}

/// Whether the controller chain of `pod` reaches the target of `ws` (a ReplicaSet's own
/// controller is read, for a Deployment target).
async fn reaches(
    client: &Client,
    namespace: &str,
    pod: &Pod,
    ws: &WorkloadSpread,
    replicasets: &mut HashMap<String, Option<ReplicaSet>>,
) -> Result<bool, String> {
    let Some(owner) = target::controller(pod.owner_references()) else {
        return Ok(false);
    };
    let wanted = &ws.spec.target_ref;
    if target::is_target(owner, wanted) {
        return Ok(true);
    }
    let through_replicaset = owner.kind == "ReplicaSet"
        && target::group_of(&owner.api_version) == "apps"
        && wanted.kind == "Deployment"
        && target::group_of(&wanted.api_version) == "apps";
    if !through_replicaset {
        return Ok(false);
    }
    if !replicasets.contains_key(&owner.name) {
        let api: Api<ReplicaSet> = Api::namespaced(client.clone(), namespace);
        let found = api
            .get_opt(&owner.name)
            .await
            .map_err(|e| format!("reading ReplicaSet {namespace}/{}: {e}", owner.name))?;
        replicasets.insert(owner.name.clone(), found);
    }
    match replicasets.get(&owner.name).and_then(Option::as_ref) {
        // As upstream: a pod whose ReplicaSet cannot be found is refused.
        None => Err(format!(
            "ReplicaSet {namespace}/{} (the controller of the pod) not found",
            owner.name
        )),
        Some(rs) => {
            Ok(target::controller(rs.owner_references()).is_some_and(|o| target::is_target(o, wanted)))
        }
    }
}

/// Whether a pod's owner kind is one a WorkloadSpread can spread.
fn spreadable_owner(pod: &Pod, configuration: &Configuration) -> bool {
    target::controller(pod.owner_references())
        .is_some_and(|o| target::spreadable(configuration, target::group_of(&o.api_version), &o.kind))
}

/// The pod (JSON, as sent) placed into a subset and injected; None: no WorkloadSpread
/// places it (it is admitted unchanged). Err: refused, naming what failed.
pub async fn place_pod(
    client: &Client,
    spreads: &Spreads,
    pod_value: &Value,
) -> Result<Option<Value>, String> {
    let Ok(pod) = serde_json::from_value::<Pod>(pod_value.clone()) else {
        return Ok(None);
    };
    if !is_active(&pod) || !spreadable_owner(&pod, &spreads.configuration) {
        return Ok(None);
    }
    let namespace = pod.namespace().unwrap_or_else(|| "default".into());
    let candidates = spreads.in_namespace(&namespace);
    let mut replicasets = HashMap::new();
    let mut chosen = None;
    for ws in candidates {
        if target::selects(&ws, &pod, true)
            && reaches(client, &namespace, &pod, &ws, &mut replicasets).await?
        {
            chosen = Some(ws);
            break;
        }
    }
    let Some(ws) = chosen else {
        return Ok(None);
    };
    let total = total_of(client, &spreads.configuration, &ws).await?;
    let now = Timestamp::now();
    let placement = under_lock(client, spreads, &ws, |current| {
        let placement = place::place(current, &pod, total, now, || uuid::Uuid::new_v4().to_string());
        let status = placement.status.clone();
        (placement, status)
    })
    .await?;
    let Some(subset) = placement.subset else {
        return Ok(Some(place::mark_unplaced(&ws, pod_value)));
    };
    place::inject(&ws, pod_value, &subset, placement.generated_uid.as_deref()).map(Some)
}

/// Records the deletion of `pod` (being deleted or evicted) in the WorkloadSpread its
/// annotation names, giving the subset its room back. Never refuses by itself; a failed
/// read or write does (as upstream).
pub async fn release_pod(client: &Client, spreads: &Spreads, pod: &Pod) -> Result<(), String> {
    let Some((name, _)) = deleting::matched(pod) else {
        return Ok(());
    };
    if !is_active(pod) || target::controller(pod.owner_references()).is_none() {
        return Ok(());
    }
    let namespace = pod.namespace().unwrap_or_else(|| "default".into());
    let Some(ws) = spreads
        .in_namespace(&namespace)
        .into_iter()
        .find(|w| w.name_any() == name)
    else {
        return Ok(());
    };
    let total = total_of(client, &spreads.configuration, &ws).await?;
    let now = Timestamp::now();
    under_lock(client, spreads, &ws, |current| {
        ((), deleting::record_deletion(current, pod, total, now))
    })
    .await
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ws(rv: &str, uid: &str) -> WorkloadSpread {
        serde_json::from_value(
            json!({ "apiVersion": "apps.kruise.io/v1alpha1", "kind": "WorkloadSpread",
            "metadata": { "name": "spread", "namespace": "shop", "resourceVersion": rv, "uid": uid },
            "spec": { "targetRef": { "apiVersion": "apps/v1", "kind": "Deployment", "name": "web" },
                "subsets": [{ "name": "a" }] } }),
        )
        .expect("ws")
    }

    #[test]
    fn our_last_write_is_used_while_the_cache_is_older() {
        let cached = ws("10", "u1");
        assert_eq!(
            freshest(&cached, Some(&ws("12", "u1")))
                .resource_version()
                .as_deref(),
            Some("12")
        );
        assert_eq!(
            freshest(&ws("13", "u1"), Some(&ws("12", "u1")))
                .resource_version()
                .as_deref(),
            Some("13")
        );
        assert_eq!(
            freshest(&cached, Some(&ws("99", "u2")))
                .resource_version()
                .as_deref(),
            Some("10"),
            "a spread of the same name recreated"
        );
    }
}
