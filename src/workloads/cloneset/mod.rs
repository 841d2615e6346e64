//! The CloneSet controller (<https://openkruise.io/docs/user-manuals/cloneset>), a
//! description on the shared reconcile driver ([`crate::runtime::driver`]): its snapshot,
//! its planner, and the podsToDelete pruning as its own spec write. It has no reconcile,
//! event or status-write code of its own.
//!
//! ```text
//! CloneSet event ─┐
//! owned Pod event ├─> driver: expectations ─> revisions ─> plan (this snapshot, pure planner)
//! owned PVC event ┘           ─> executor ─> events ─> podsToDelete, status ─> truncation
//! ```
//!
//! Pure parts: [`numbers`] (int-or-percent fields), [`diffs`] (scale/update arithmetic),
//! [`order`] (deletion and update orders, shared), [`update_limit`] (update batch), [`pods`]
//! (the pods and PVCs created), [`plan`] with [`plan_scale`], [`plan_update`] and
//! [`plan_status`] over what a round works with ([`round`]), [`status`] counters and the
//! [`progressing`] condition.
//!
//! Invariants (the driver's): a reconcile plans only when every expectation of the set is
//! met (or timed out); the status is written only when it changed; a reconcile requeues on
//! a timer only when it waits on time (grace period, minReadySeconds, progress deadline).
pub mod claims;
pub mod defaults;
pub mod diffs;
pub mod facts;
pub mod numbers;
pub use crate::workloads::common::order;
pub mod plan;
pub mod plan_scale;
pub mod plan_status;
pub mod plan_update;
pub mod pods;
pub mod preview;
pub mod progressing;
pub mod rank;
pub mod round;
pub mod status;
pub mod update_limit;

use std::collections::BTreeMap;
use std::sync::Arc;

use k8s_openapi::api::core::v1::{PersistentVolumeClaim, Pod};
use k8s_openapi::jiff::Timestamp;
use kube::runtime::reflector::Store;
use kube::{Resource, ResourceExt};

use crate::api::cloneset::CloneSet;
use crate::runtime::history as revisions;
use crate::runtime::owner_index::OwnerIndex;
use crate::runtime::rbac::{self, KRUISE, Rule, rule};
use plan::Snapshot;

pub const CONTROLLER: &str = "CloneSet";
pub use crate::runtime::controller::{Context, Error, FIELD_MANAGER, Serve};

crate::impl_workload!(CloneSet, CONTROLLER);

/// A CloneSet hears of the pods and claims it controls (and those it expects) only.
impl crate::runtime::controller::Interest for CloneSet {}

/// `namespace/name` of a set.
pub fn key(set: &CloneSet) -> String {
    format!("{}/{}", set.namespace().unwrap_or_default(), set.name_any())
}

/// The cached objects whose controller is `set` (looked up by owner uid, not scanned).
fn owned_by<K>(store: &Store<K>, index: &OwnerIndex, set: &CloneSet) -> Vec<Arc<K>>
where
    K: Resource<DynamicType = ()> + Clone,
{
    crate::runtime::controller::owned_by(store, index, set, CONTROLLER)
}

/// What it needs beyond the shared runtime's permissions and the shared groups below.
const OWN_RULES: &[Rule] = &[
    rule(KRUISE, &["clonesets"], &["list", "watch", "patch"]),
    rule(KRUISE, &["clonesets/status"], &["patch"]),
    // Pods and claims block their owner's deletion (OwnerReferencesPermissionEnforcement).
    rule(KRUISE, &["clonesets/finalizers"], &["update"]),
];

/// The CloneSet as the shared reconcile driver runs it: its snapshot (owned pods, owned
/// claims not terminating, node labels when a topology spread needs them) and its planner;
/// the podsToDelete pruning is its own spec write.
impl crate::runtime::driver::Reconciled for CloneSet {
    const CONTROLLER: &'static str = CONTROLLER;
    const DRIVES: &'static str = "CloneSet";
    const CRD: &'static str = "clonesets.apps.kruise.io";
    const RULES: &'static [&'static [Rule]] = &[OWN_RULES, rbac::IN_PLACE_POD_OWNER, rbac::CLAIM_OWNER];
    type Revisions = crate::runtime::driver::TemplateRevisions;
    type Status = crate::api::cloneset::CloneSetStatus;

    fn plan(
        &self,
        ctx: &Context,
        history: &revisions::History,
        now: Timestamp,
    ) -> crate::runtime::driver::Planned<Self::Status> {
        let set = self;
        let owned_pods = crate::runtime::context::owned_pods(ctx, set, CONTROLLER);
        let owned_claims = owned_by(&ctx.watches.claims, &ctx.watches.claim_owners, set);
        let pods: Vec<&Pod> = owned_pods.iter().map(AsRef::as_ref).collect();
        let claims: Vec<&PersistentVolumeClaim> = owned_claims
            .iter()
            .map(AsRef::as_ref)
            .filter(|c: &&PersistentVolumeClaim| c.metadata.deletion_timestamp.is_none())
            .collect();
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
        let pod_revisions = crate::runtime::driver::pod_revisions(pods.iter().copied());
        let snapshot = Snapshot {
            set,
            pods,
            claims,
            update: history.update_revision(),
            current: history.current_revision(),
            templates: &history.templates,
            collision_count: history.collision_count,
            node_labels: &node_labels,
            now,
            features: ctx.features,
        };
        let mut planned = plan::plan(&snapshot);
        planned.pod_revisions = pod_revisions;
        planned
    }

    /// Every pod there, ready and available, and the pods the partition lets through updated.
    fn status_at_rest(&self, status: &Self::Status) -> bool {
        let want = self.spec.replicas.unwrap_or(1);
        let expected = status.expected_updated_replicas.unwrap_or(want);
        let updated_available = status
            .updated_available_replicas
            .unwrap_or(status.updated_ready_replicas);
        status.replicas == want
            && status.ready_replicas == want
            && status.available_replicas == want
            && status.updated_replicas >= expected
            && status.updated_ready_replicas >= expected
            && updated_available >= expected
    }

    fn status_count_reached(&self, status: &Self::Status) -> bool {
        let want = self.spec.replicas.unwrap_or(1);
        status.replicas == want && self.status.as_ref().is_none_or(|s| s.replicas != want)
    }

    /// A failed pod create or delete is the round's `FailedScale` condition, a failed pod
    /// write its `FailedUpdate` (as upstream's syncCloneSet records them), with the error
    /// naming the pod.
    fn with_failure(&self, planned: Option<Self::Status>, error: &Error) -> Option<Self::Status> {
        use crate::runtime::context::FailedWrite;
        let kind = match error.failed_write() {
            Some(FailedWrite::Create | FailedWrite::Delete) => plan_status::FAILED_SCALE,
            Some(FailedWrite::Update) => plan_status::FAILED_UPDATE,
            None => return planned,
        };
        let mut status = planned.or_else(|| self.status.clone())?;
        let now = k8s_openapi::apimachinery::pkg::apis::meta::v1::Time(Timestamp::now());
        // A failure that goes on keeps the moment it began.
        let since = self
            .status
            .iter()
            .flat_map(|s| s.conditions.iter().flatten())
            .find(|c| c.type_ == kind && c.status == "True")
            .and_then(|c| c.last_transition_time.clone())
            .unwrap_or_else(|| now.clone());
        let conditions = status.conditions.get_or_insert_default();
        conditions.retain(|c| c.type_ != kind);
        conditions.push(crate::api::cloneset::CloneSetCondition {
            type_: kind.to_string(),
            status: "True".into(),
            last_update_time: Some(now),
            last_transition_time: Some(since),
            reason: Some(error.reason().to_string()),
            message: Some(error.to_string()),
        });
        Some(status)
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::api::cloneset::CloneSetStatus;
    use crate::runtime::driver::Reconciled;

    fn set(replicas: i32, stored: Option<i32>) -> CloneSet {
        let mut set: CloneSet = serde_json::from_value(json!({
            "apiVersion": "apps.kruise.io/v1alpha1", "kind": "CloneSet", "metadata": { "name": "web" },
            "spec": { "replicas": replicas, "selector": { "matchLabels": { "app": "web" } },
                "template": { "metadata": { "labels": { "app": "web" } },
                    "spec": { "containers": [{ "name": "app", "image": "nginx" }] } } } }))
        .expect("set");
        set.status = stored.map(|replicas| CloneSetStatus {
            replicas,
            ..Default::default()
        });
        set
    }

    #[test]
    fn the_pod_count_reaching_the_spec_is_written_at_once_and_only_then() {
        let status = |replicas| CloneSetStatus {
            replicas,
            ..Default::default()
        };
        // (spec, stored, planned) -> written at once
        let table = [
            (3, None, 3, true),
            (3, Some(0), 3, true),
            (3, Some(2), 3, true),
            (3, Some(3), 3, false),
            (3, Some(0), 2, false),
            (0, Some(3), 0, true),
        ];
        for (want, stored, planned, at_once) in table {
            assert_eq!(
                set(want, stored).status_count_reached(&status(planned)),
                at_once,
                "spec {want}, stored {stored:?}, planned {planned}"
            );
        }
    }
}
