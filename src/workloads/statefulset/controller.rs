//! The Advanced StatefulSet controller: wires the pure planner to the shared runtime.
//!
//! ```text
//! StatefulSet event ─┐
//! owned Pod event    ├─> reconcile: expectations met? ─> history ─> plan (pure) ─> executor
//! owned PVC event    ┘                                                └─> status, truncation
//! ```
//!
//! The set is read through `v1beta1`, the superset of both served versions (the stored
//! objects are the same; see `crate::api::statefulset`). Pods and PVCs belong to a set by
//! their controller owner reference (kind `StatefulSet` of apps.kruise.io, so the built-in
//! kind's pods are never touched).
//!
//! Invariants: a reconcile plans only when every expectation of the set is met (or timed
//! out); the status is written only when it changed; nothing is written for a set being
//! deleted (the garbage collector removes its pods, and its PVCs only when the retention
//! policy made the set their owner).
use std::collections::BTreeSet;
use std::sync::Arc;
use std::time::Duration;

use k8s_openapi::jiff::Timestamp;
use kube::runtime::controller::Action as Requeue;
use kube::{Resource, ResourceExt};

use super::plan::{self, Revision, Snapshot};
use crate::api::statefulset::v1beta1::StatefulSet;
use crate::runtime::controller::{
    Context, Error, Serve, key, owned_by, publish_outcome, requeue, write_status,
};
use crate::runtime::executor;
use crate::runtime::expectations::RECHECK;
use crate::runtime::history;
use crate::runtime::revision::REVISION_LABEL;

pub const CONTROLLER: &str = "StatefulSet";

crate::impl_workload!(StatefulSet, CONTROLLER);

async fn reconcile(set: Arc<StatefulSet>, ctx: Arc<Context>) -> Result<Requeue, Error> {
    let (set, ctx) = (set.as_ref(), ctx.as_ref());
    let owner = key(set);
    if set.meta().deletion_timestamp.is_some() {
        ctx.expectations.forget_owner(&owner);
        return Ok(Requeue::await_change());
    }
    let namespace = set.namespace().unwrap_or_default();
    let pending = ctx.pending_writes(&owner, &namespace);
    if pending > 0 {
        tracing::debug!(
            statefulset = owner,
            pending,
            "waiting for the cache to show earlier writes"
        );
        return Ok(Requeue::requeue(RECHECK));
    }
    let owned_pods = owned_by(&ctx.watches.pods, &ctx.watches.pod_owners, set, CONTROLLER);
    let history = match history::sync(ctx, set).await? {
        Some(history) => history,
        None => return Ok(Requeue::requeue(Duration::from_millis(200))),
    };
    // Orphans (no controller at all) at this set's own ordinal names: the planner adopts
    // those whose labels match (a set re-created after `--cascade=orphan`). Hash lookups
    // by name, one per replica, never a scan of every cached pod.
    let orphans: Vec<Arc<k8s_openapi::api::core::v1::Pod>> = orphan_candidates(ctx, set, &namespace);
    let claims = existing_claims(ctx, set, &namespace);
    let snapshot = Snapshot {
        set,
        pods: owned_pods.iter().map(AsRef::as_ref).collect(),
        orphans: orphans.iter().map(AsRef::as_ref).collect(),
        claims: &claims,
        update: Revision {
            name: &history.update,
            template: &history.templates[&history.update],
        },
        current: Revision {
            name: &history.current,
            template: &history.templates[&history.current],
        },
        templates: &history.templates,
        collision_count: history.collision_count,
        now: Timestamp::now(),
    };
    let plan = plan::plan(&snapshot);
    let pod_revisions: BTreeSet<String> = snapshot
        .pods
        .iter()
        .filter_map(|p| p.labels().get(REVISION_LABEL).cloned())
        .collect();
    drop(snapshot);

    let reference = set.object_ref(&());
    let outcome = executor::execute(ctx, &namespace, &owner, plan.actions.clone()).await;
    record_events(ctx, &reference, &history.update, &outcome, &plan.problems).await;
    let mut status = plan.status.clone().or_else(|| set.status.clone());
    if let Some(condition) = outcome.first_error.as_ref().and_then(failure_condition)
        && let Some(s) = status.as_mut()
    {
        s.conditions = Some(vec![condition]);
    } else if plan.status.is_none() {
        // Nothing new to say (a set without a status yet gets its first one from the planner).
        status = None;
    }
    if let Some(status) = &status {
        let mut value = serde_json::to_value(status).unwrap_or_default();
        if status.conditions.is_none() {
            // A merge patch keeps what it does not mention: clear last round's failure.
            value["conditions"] = serde_json::Value::Null;
        }
        write_status(ctx, set, CONTROLLER, &value).await?;
    }
    history::truncate(ctx, set, &history, &pod_revisions).await?;
    requeue(outcome, plan.requeue_after)
}

/// Which objects a pod or claim event wakes, besides the set that controls it.
impl crate::runtime::controller::Interest for StatefulSet {
    /// An orphan at one of the set's ordinal names whose labels match: the planner adopts it.
    fn wants_orphan(&self, pod: &k8s_openapi::api::core::v1::Pod) -> bool {
        use kube::core::{Selector, SelectorExt};
        super::ordinals::parse_ordinal(&self.name_any(), &pod.name_any()).is_some()
            && Selector::try_from(self.spec.selector.clone()).is_ok_and(|s| s.matches(pod.labels()))
    }

    /// A claim named `<template>-<set>-<ordinal>`: under the Retain policy it has no owner
    /// reference, yet a Pending pod of the set may be waiting for it to be made again.
    fn wants_claim(&self, claim: &k8s_openapi::api::core::v1::PersistentVolumeClaim) -> bool {
        let (set, name) = (self.name_any(), claim.name_any());
        self.spec.volume_claim_templates.iter().flatten().any(|t| {
            name.strip_prefix(&t.name_any())
                .and_then(|rest| rest.strip_prefix('-'))
                .is_some_and(|rest| super::ordinals::parse_ordinal(&set, rest).is_some())
        })
    }
}

/// The set's valid ordinals, read leniently (a bad reserveOrdinals list is ignored, as the
/// planner does; a huge replicas is capped) for the cache lookups by name.
fn valid_ordinals(set: &StatefulSet) -> Vec<i32> {
    use super::ordinals;
    let replicas = set
        .spec
        .replicas
        .unwrap_or(1)
        .clamp(0, crate::workloads::MAX_REPLICAS);
    let reserved =
        ordinals::ReservedOrdinals::lenient(set.spec.reserve_ordinals.as_deref().unwrap_or_default());
    ordinals::valid_ordinals(ordinals::start_ordinal(set), replicas, &reserved)
}

/// The names of the claims of the set's valid ordinals that the cache holds.
fn existing_claims(ctx: &Context, set: &StatefulSet, namespace: &str) -> BTreeSet<String> {
    use super::identity;
    let templates = set.spec.volume_claim_templates.as_deref().unwrap_or_default();
    if templates.is_empty() {
        return BTreeSet::new();
    }
    let set_name = set.name_any();
    valid_ordinals(set)
        .into_iter()
        .flat_map(|o| {
            let set_name = &set_name;
            templates
                .iter()
                .map(move |t| identity::claim_name(&t.name_any(), set_name, o))
        })
        .filter(|name| {
            ctx.watches
                .claims
                .get(&kube::runtime::reflector::ObjectRef::new(name).within(namespace))
                .is_some()
        })
        .collect()
}

/// The cached pods named like the set's valid ordinals that have no controller.
fn orphan_candidates(
    ctx: &Context,
    set: &StatefulSet,
    namespace: &str,
) -> Vec<Arc<k8s_openapi::api::core::v1::Pod>> {
    use super::identity;
    valid_ordinals(set)
        .into_iter()
        .filter_map(|o| {
            let name = identity::pod_name(&set.name_any(), o);
            ctx.watches
                .pods
                .get(&kube::runtime::reflector::ObjectRef::new(&name).within(namespace))
        })
        .filter(|p| !p.owner_references().iter().any(|o| o.controller == Some(true)))
        .collect()
}

/// The condition a failed write of this round leaves in the status (reference §4.7:
/// `FailedCreatePod` / `FailedUpdatePod`, present only in the round the write failed).
fn failure_condition(error: &Error) -> Option<crate::api::common::Condition> {
    let kind = match error {
        Error::CreatePod { .. } | Error::CreateClaim { .. } => "FailedCreatePod",
        Error::PatchPod { .. } | Error::PatchPodStatus { .. } | Error::DeletePod { .. } => "FailedUpdatePod",
        _ => return None,
    };
    Some(crate::api::common::Condition {
        type_: kind.to_string(),
        status: "True".to_string(),
        last_transition_time: Some(k8s_openapi::apimachinery::pkg::apis::meta::v1::Time(
            Timestamp::now(),
        )),
        reason: Some(error.reason().to_string()),
        message: Some(error.to_string()),
    })
}

/// One event per kind of write per reconcile, naming the pods.
async fn record_events(
    ctx: &Context,
    reference: &k8s_openapi::api::core::v1::ObjectReference,
    update_revision: &str,
    outcome: &executor::Outcome,
    problems: &[crate::runtime::actions::Problem],
) {
    publish_outcome(ctx, reference, update_revision, outcome).await;
    let owner = format!(
        "{}/{}",
        reference.namespace.clone().unwrap_or_default(),
        reference.name.clone().unwrap_or_default()
    );
    let messages: Vec<String> = problems.iter().map(|p| p.message.clone()).collect();
    let fresh = ctx.new_problems(&owner, &messages);
    for problem in problems.iter().filter(|p| fresh.contains(&&p.message)) {
        ctx.events
            .publish(reference, true, problem.reason, problem.message.clone())
            .await;
    }
}

/// Runs the Advanced StatefulSet controller until `shutdown` resolves.
pub async fn run<F>(serve: Serve<F>)
where
    F: std::future::Future<Output = ()> + Send + Sync + 'static,
{
    crate::runtime::controller::serve::<StatefulSet, _, _, _>(
        CONTROLLER,
        "statefulsets.apps.kruise.io",
        serve,
        reconcile,
    )
    .await;
}

#[cfg(test)]
mod tests {
    use super::*;

    fn api_error() -> kube::Error {
        kube::Error::Api(Box::new(
            kube::core::Status::failure("quota exceeded", "Forbidden").with_code(403),
        ))
    }

    #[test]
    fn a_failed_create_or_update_becomes_its_condition_naming_the_pod() {
        let create = Error::CreatePod {
            name: "web-3".into(),
            source: api_error(),
        };
        let c = failure_condition(&create).expect("condition");
        assert_eq!((c.type_.as_str(), c.status.as_str()), ("FailedCreatePod", "True"));
        assert!(c.message.unwrap_or_default().contains("web-3"));
        let update = Error::PatchPod {
            name: "web-1".into(),
            source: api_error(),
        };
        assert_eq!(
            failure_condition(&update).map(|c| c.type_),
            Some("FailedUpdatePod".to_string())
        );
        assert!(failure_condition(&Error::Internal("x".into())).is_none());
    }
}
