//! The CloneSet controller (reference §3).
//!
//! ```text
//! CloneSet event ─┐
//! owned Pod event ├─> reconcile: expectations met? ─> revisions ─> plan (pure) ─> executor
//! owned PVC event ┘                                                  └─> status, podsToDelete, history
//! ```
//!
//! Pure parts: [`numbers`] (int-or-percent fields), [`diffs`] (scale/update arithmetic),
//! [`order`] (deletion and update orders), [`update_limit`] (update batch), [`pods`] (the
//! pods and PVCs created), [`plan`] with [`plan_scale`], [`plan_update`] and
//! [`plan_status`], [`status`] counters and the [`progressing`] condition. Writes:
//! the shared [`crate::runtime::executor`] (pods, PVCs) and [`crate::runtime::history`]
//! (ControllerRevisions); this module wires the
//! controller and writes the CloneSet itself (status, podsToDelete pruning).
//!
//! Invariants: a reconcile plans only when every expectation of the set is met (or timed
//! out); the CloneSet's status is written only when it changed; a reconcile requeues on a
//! timer only when it waits on time (grace period, minReadySeconds, progress deadline).
pub mod diffs;
pub mod numbers;
pub use crate::workloads::common::order;
pub mod plan;
pub mod plan_scale;
pub mod plan_status;
pub mod plan_update;
pub mod pods;
pub mod progressing;
pub mod rank;
pub mod scatter;
pub mod status;
pub mod update_limit;

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Duration;

use k8s_openapi::api::core::v1::{PersistentVolumeClaim, Pod};
use k8s_openapi::jiff::Timestamp;
use kube::api::{Api, Patch, PatchParams};
use kube::runtime::controller::Action as Requeue;
use kube::runtime::reflector::Store;
use kube::{Resource, ResourceExt};
use serde_json::json;

use crate::api::cloneset::CloneSet;
use crate::api::common::UpdateScatterTerm;
use crate::runtime::executor;
use crate::runtime::expectations::RECHECK;
use crate::runtime::history as revisions;
use crate::runtime::owner_index::OwnerIndex;
use plan::{Problem, Snapshot};

pub const CONTROLLER: &str = "CloneSet";
pub use crate::runtime::controller::{Context, Error, FIELD_MANAGER, Serve};

crate::impl_workload!(CloneSet, CONTROLLER);

/// A CloneSet hears of the pods and claims it controls (and those it expects) only.
impl crate::runtime::controller::Interest for CloneSet {}

/// `namespace/name` of a set.
pub fn key(set: &CloneSet) -> String {
    format!("{}/{}", set.namespace().unwrap_or_default(), set.name_any())
}

/// The scatter order of update candidates (`names` in their current order; `all` is every
/// active pod of the set, whose labels set the density of each term).
pub(crate) fn scatter_order(names: Vec<String>, all: &[&Pod], terms: &[UpdateScatterTerm]) -> Vec<String> {
    let empty = BTreeMap::new();
    let labels: Vec<&BTreeMap<String, String>> = all
        .iter()
        .map(|p| p.metadata.labels.as_ref().unwrap_or(&empty))
        .collect();
    let index: Vec<usize> = names
        .iter()
        .filter_map(|n| {
            all.iter()
                .position(|p| p.metadata.name.as_deref() == Some(n.as_str()))
        })
        .collect();
    if index.len() != names.len() {
        // Every candidate is an active pod; anything else keeps the order as it is.
        return names;
    }
    scatter::scatter(&index, &labels, terms)
        .into_iter()
        .filter_map(|i| all.get(i).and_then(|p| p.metadata.name.clone()))
        .collect()
}

/// The cached objects whose controller is `set` (looked up by owner uid, not scanned).
fn owned_by<K>(store: &Store<K>, index: &OwnerIndex, set: &CloneSet) -> Vec<Arc<K>>
where
    K: Resource<DynamicType = ()> + Clone,
{
    crate::runtime::controller::owned_by(store, index, set, CONTROLLER)
}

async fn reconcile(set: Arc<CloneSet>, ctx: Arc<Context>) -> Result<Requeue, Error> {
    let (set, ctx) = (set.as_ref(), ctx.as_ref());
    let owner = key(set);
    if set.meta().deletion_timestamp.is_some() {
        ctx.expectations.forget_owner(&owner);
        return Ok(Requeue::await_change());
    }
    let namespace = set.namespace();
    let pending = ctx.pending_writes(&owner, &namespace.clone().unwrap_or_default());
    if pending > 0 {
        tracing::debug!(
            cloneset = owner,
            pending,
            "waiting for the cache to show earlier writes"
        );
        return Ok(Requeue::requeue(RECHECK));
    }
    let owned_pods = owned_by(&ctx.watches.pods, &ctx.watches.pod_owners, set);
    let owned_claims = owned_by(&ctx.watches.claims, &ctx.watches.claim_owners, set);
    let pods: Vec<&Pod> = owned_pods.iter().map(AsRef::as_ref).collect();
    let claims: Vec<&PersistentVolumeClaim> = owned_claims
        .iter()
        .map(AsRef::as_ref)
        .filter(|c: &&PersistentVolumeClaim| c.metadata.deletion_timestamp.is_none())
        .collect();

    let history = match revisions::sync(ctx, set).await? {
        Some(history) => history,
        // A collision or a fresh revision: the next round sees it in the cache.
        None => return Ok(Requeue::requeue(Duration::from_millis(200))),
    };
    let now = Timestamp::now();
    let spreads = set.spec.template.spec.as_ref().is_some_and(|s| {
        s.topology_spread_constraints
            .as_ref()
            .is_some_and(|c| !c.is_empty())
    });
    let node_labels: BTreeMap<String, BTreeMap<String, String>> = if spreads {
        ctx.watches
            .nodes
            .state()
            .iter()
            .map(|n| (n.name_any(), n.labels().clone()))
            .collect()
    } else {
        BTreeMap::new()
    };
    let snapshot = Snapshot {
        set,
        pods,
        claims,
        update: plan::Revision {
            name: &history.update,
            template: &history.templates[&history.update],
        },
        current: plan::Revision {
            name: &history.current,
            template: &history.templates[&history.current],
        },
        templates: &history.templates,
        collision_count: history.collision_count,
        node_labels: &node_labels,
        now,
    };
    let plan = plan::plan(&snapshot);
    let pod_revisions = snapshot
        .pods
        .iter()
        .filter_map(|p| p.labels().get(status::REVISION_LABEL).cloned())
        .collect();
    drop(snapshot);

    let reference = set.object_ref(&());
    let outcome = executor::execute(
        ctx,
        &namespace.clone().unwrap_or_default(),
        &owner,
        plan.actions.clone(),
    )
    .await;
    record_events(ctx, &reference, &history.update, &outcome, &plan.problems, set).await;

    let api: Api<CloneSet> = Api::namespaced(ctx.client.clone(), &namespace.clone().unwrap_or_default());
    let params = PatchParams {
        field_manager: Some(FIELD_MANAGER.into()),
        ..PatchParams::default()
    };
    // Prune first: the prune carries the cached resourceVersion, which the status write
    // would make stale; the status write itself needs no precondition.
    if let Some(list) = &plan.pods_to_delete {
        let patch = json!({
            "metadata": { "resourceVersion": set.resource_version() },
            "spec": { "scaleStrategy": { "podsToDelete": list } },
        });
        match api.patch(&set.name_any(), &params, &Patch::Merge(&patch)).await {
            Ok(_) => {}
            Err(kube::Error::Api(s)) if s.is_conflict() => {}
            Err(source) => {
                return Err(Error::PrunePodsToDelete {
                    name: set.name_any(),
                    source,
                });
            }
        }
    }
    if let Some(status) = &plan.status {
        let mut value = serde_json::to_value(status).unwrap_or_default();
        if status.conditions.is_none() {
            // A merge patch keeps what it does not mention: an emptied list is cleared.
            value["conditions"] = serde_json::Value::Null;
        }
        crate::runtime::controller::write_status(ctx, set, CONTROLLER, &value).await?;
    }
    revisions::truncate(ctx, set, &history, &pod_revisions).await?;
    crate::runtime::controller::requeue(outcome, plan.requeue_after)
}

/// One event per kind of write per reconcile, naming the pods (not one per pod: events are
/// API writes too, and a 200-pod batch would cost 200 of them).
async fn record_events(
    ctx: &Context,
    reference: &k8s_openapi::api::core::v1::ObjectReference,
    update_revision: &str,
    outcome: &executor::Outcome,
    problems: &[Problem],
    set: &CloneSet,
) {
    crate::runtime::controller::publish_outcome(ctx, reference, update_revision, outcome).await;
    let stored_messages: Vec<&str> = set
        .status
        .iter()
        .flat_map(|s| s.conditions.iter().flatten())
        .filter_map(|c| c.message.as_deref())
        .collect();
    for problem in problems {
        // A refusal repeats every reconcile; it is announced once, when it first appears.
        if problem.reason == plan_status::FAILED_UPDATE && stored_messages.contains(&problem.message.as_str())
        {
            continue;
        }
        ctx.events
            .publish(reference, true, problem.reason, problem.message.clone())
            .await;
    }
}

/// Runs the CloneSet controller until `shutdown` resolves (in-flight reconciles finish).
pub async fn run<F>(serve: Serve<F>)
where
    F: std::future::Future<Output = ()> + Send + Sync + 'static,
{
    crate::runtime::controller::serve::<CloneSet, _, _, _>(CONTROLLER, "clonesets", serve, reconcile).await;
}
