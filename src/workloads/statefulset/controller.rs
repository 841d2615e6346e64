//! The Advanced StatefulSet on the shared reconcile driver ([`crate::runtime::driver`]):
//! what its snapshot holds and how a failed write shows in its status. It has no reconcile,
//! event or status-write code of its own.
//!
//! ```text
//! StatefulSet event ─┐
//! owned Pod event    ├─> driver: expectations ─> history ─> plan (this snapshot, pure planner)
//! its PVC event      ┘           ─> executor ─> events ─> status ─> truncation
//! ```
//!
//! The set is read through `v1beta1`, the superset of both served versions (the stored
//! objects are the same; see `crate::api::statefulset`). Pods and PVCs belong to a set by
//! their controller owner reference (kind `StatefulSet` of apps.kruise.io, so the built-in
//! kind's pods are never touched); orphans at its ordinal names and claims named for its
//! ordinals wake it too ([`crate::runtime::controller::Interest`]).
use std::collections::BTreeSet;
use std::sync::Arc;

use k8s_openapi::jiff::Timestamp;
use kube::ResourceExt;

use super::plan::{self, Snapshot};
use crate::api::statefulset::v1beta1::{StatefulSet, StatefulSetStatus};
use crate::runtime::controller::{Context, Error};
use crate::runtime::rbac::{self, KRUISE, Rule, rule};

pub const CONTROLLER: &str = "StatefulSet";

crate::impl_workload!(StatefulSet, CONTROLLER);

/// What it needs beyond the shared runtime's permissions and the shared groups below.
const OWN_RULES: &[Rule] = &[
    rule(KRUISE, &["statefulsets"], &["list", "watch"]),
    rule(KRUISE, &["statefulsets/status"], &["patch"]),
    rule(KRUISE, &["statefulsets/finalizers"], &["update"]),
];

/// The Advanced StatefulSet as the shared reconcile driver runs it: its snapshot (owned
/// pods, orphans at its ordinal names, the claims of its ordinals) and its planner; a
/// failed write shows as the round's `FailedCreatePod` / `FailedUpdatePod` condition.
impl crate::runtime::driver::Reconciled for StatefulSet {
    const CONTROLLER: &'static str = CONTROLLER;
    const DRIVES: &'static str = "Advanced StatefulSet";
    const CRD: &'static str = "statefulsets.apps.kruise.io";
    const RULES: &'static [&'static [Rule]] = &[OWN_RULES, rbac::IN_PLACE_POD_OWNER, rbac::CLAIM_OWNER];
    type Revisions = crate::runtime::driver::TemplateRevisions;
    type Status = StatefulSetStatus;

    fn plan(
        &self,
        ctx: &Context,
        history: &crate::runtime::history::History,
        now: Timestamp,
    ) -> crate::runtime::driver::Planned<StatefulSetStatus> {
        let set = self;
        let namespace = set.namespace().unwrap_or_default();
        let owned_pods = crate::runtime::context::owned_pods(ctx, set, CONTROLLER);
        // Orphans (no controller at all) at this set's own ordinal names: the planner adopts
        // those whose labels match (a set re-created after `--cascade=orphan`). Hash lookups
        // by name, one per replica, never a scan of every cached pod.
        let orphans = orphan_candidates(ctx, set, &namespace);
        let claims = existing_claims(ctx, set, &namespace);
        let snapshot = Snapshot {
            set,
            pods: owned_pods.iter().map(AsRef::as_ref).collect(),
            orphans: orphans.iter().map(AsRef::as_ref).collect(),
            claims: &claims,
            update: history.update_revision(),
            current: history.current_revision(),
            templates: &history.templates,
            collision_count: history.collision_count,
            now,
        };
        let mut planned = plan::plan(&snapshot);
        planned.pod_revisions = crate::runtime::driver::pod_revisions(snapshot.pods.iter().copied());
        planned
    }

    /// Every pod there, ready and available, and the ordinals the partition lets through
    /// updated.
    fn status_at_rest(&self, status: &StatefulSetStatus) -> bool {
        let want = self.spec.replicas.unwrap_or(1);
        let partition = self
            .spec
            .update_strategy
            .as_ref()
            .and_then(|s| s.rolling_update.as_ref())
            .and_then(|r| r.partition)
            .unwrap_or(0);
        let expected = (want - partition.max(0)).max(0);
        status.replicas == want
            && status.ready_replicas == want
            && status.available_replicas == want
            && status.updated_replicas >= expected
    }

    fn status_count_reached(&self, status: &StatefulSetStatus) -> bool {
        let want = self.spec.replicas.unwrap_or(1);
        status.replicas == want && self.status.as_ref().is_none_or(|s| s.replicas != want)
    }

    /// The round's failure condition replaces the conditions (they are rebuilt by every
    /// status write, as upstream does).
    fn with_failure(&self, planned: Option<StatefulSetStatus>, error: &Error) -> Option<StatefulSetStatus> {
        let Some(condition) = failure_condition(error) else {
            return planned;
        };
        let mut status = planned.or_else(|| self.status.clone())?;
        status.conditions = Some(vec![condition]);
        Some(status)
    }
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
            ctx.watches.pod(namespace, &name)
        })
        .filter(|p| !p.owner_references().iter().any(|o| o.controller == Some(true)))
        .collect()
}

/// The condition a failed write of this round leaves in the status
/// (`FailedCreatePod` / `FailedUpdatePod`, present only in the round the write failed).
fn failure_condition(error: &Error) -> Option<crate::api::common::Condition> {
    use crate::runtime::context::FailedWrite;
    let kind = match error.failed_write()? {
        FailedWrite::Create => "FailedCreatePod",
        FailedWrite::Delete | FailedWrite::Update => "FailedUpdatePod",
    };
    Some(crate::api::common::Condition {
        type_: kind.to_string(),
        status: "True".to_string(),
        last_transition_time: Some(k8s_openapi::apimachinery::pkg::apis::meta::v1::Time(
            Timestamp::now(),
        )),
        reason: Some(error.reason().to_string()),
        message: Some(error.to_string()),
        observed_generation: None,
    })
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
