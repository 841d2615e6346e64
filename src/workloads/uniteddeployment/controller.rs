//! The UnitedDeployment on the shared reconcile driver ([`crate::runtime::driver`]): its
//! subset workloads of all four kinds are watched as its children (StatefulSets of both
//! groups, CloneSets, Deployments, with the Deployments' ReplicaSets to find their pods),
//! its revisions come from [`super::revision_sync`], and the pure [`super::plan`] decides.
//!
//! ```text
//! UnitedDeployment event ─┐
//! subset workload event   ├─> driver: revisions ─> plan (pure) ─> create / patch / delete
//! adaptive timers         ┘   subset workloads ─> status
//! ```
//!
//! Invariants: children are found by their controller owner reference (by uid, no scans),
//! pods by theirs (a Deployment's through its ReplicaSets); an object our types cannot read
//! counts as missing; pods are not watched (the workloads' status events wake it, the
//! adaptive checks ask for timed wake-ups), as upstream.
use std::sync::Arc;

use k8s_openapi::api::apps::v1::{Deployment, ReplicaSet, StatefulSet};
use k8s_openapi::api::core::v1::Pod;
use k8s_openapi::jiff::Timestamp;
use kube::{Resource, ResourceExt};

use super::plan::{Child, Snapshot, plan};
use super::render::ChildKind;
use super::revision_sync::UnitedDeploymentRevisions;
use crate::api::cloneset::CloneSet;
use crate::api::statefulset::v1beta1::StatefulSet as AdvancedStatefulSet;
use crate::api::uniteddeployment::{UnitedDeployment, UnitedDeploymentStatus};
use crate::runtime::context::pods_controlled_by;
use crate::runtime::controller::{Context, Error, Serve};
use crate::runtime::decoded::Decoded;
use crate::runtime::driver::Planned;
use crate::runtime::rbac::{KRUISE, Rule, rule};

pub const CONTROLLER: &str = "UnitedDeployment";

/// A subset workload as found in the caches: its kind, its JSON and its pods.
type Found = (ChildKind, serde_json::Value, Vec<Arc<Pod>>);

/// The cached children of kind `C` controlled by `uid`.
fn controlled<C>(ctx: &Context, uid: &str) -> Vec<Arc<C>>
where
    C: Resource<DynamicType = ()> + Clone + Send + Sync + 'static,
{
    ctx.children
        .get::<C>()
        .map(|w| w.controlled_by(uid))
        .unwrap_or_default()
}

fn found<C: Resource + serde::Serialize>(kind: ChildKind, object: &C, pods: Vec<Arc<Pod>>) -> Found {
    (kind, serde_json::to_value(object).unwrap_or_default(), pods)
}

fn own_pods<C: Resource>(ctx: &Context, object: &C) -> Vec<Arc<Pod>> {
    pods_controlled_by(ctx, object.meta().uid.as_deref().unwrap_or_default())
}

/// What it needs beyond the shared runtime's permissions and the shared groups below.
const OWN_RULES: &[Rule] = &[
    rule(KRUISE, &["uniteddeployments"], &["list", "watch"]),
    rule(KRUISE, &["uniteddeployments/status"], &["patch"]),
    rule(KRUISE, &["uniteddeployments/finalizers"], &["update"]),
    // Its subset workloads, of every kind it supports.
    rule(
        "apps",
        &["statefulsets", "deployments"],
        &["list", "watch", "create", "patch", "delete"],
    ),
    rule(
        KRUISE,
        &["statefulsets", "clonesets"],
        &["list", "watch", "create", "patch", "delete"],
    ),
    rule("apps", &["replicasets"], &["list", "watch"]),
    rule("", &["pods"], &["patch", "delete"]),
    rule("apps", &["controllerrevisions"], &["create", "patch", "delete"]),
];

/// Every workload of the four kinds `ud` controls, with its pods.
fn children(ctx: &Context, ud: &UnitedDeployment) -> Vec<Found> {
    let uid = ud.uid().unwrap_or_default();
    let mut all = Vec::new();
    for set in controlled::<StatefulSet>(ctx, &uid) {
        all.push(found(
            ChildKind::StatefulSet,
            set.as_ref(),
            own_pods(ctx, set.as_ref()),
        ));
    }
    for cached in controlled::<Decoded<AdvancedStatefulSet>>(ctx, &uid) {
        if let Ok(set) = &cached.object {
            all.push(found(
                ChildKind::AdvancedStatefulSet,
                set.as_ref(),
                own_pods(ctx, set.as_ref()),
            ));
        }
    }
    for cached in controlled::<Decoded<CloneSet>>(ctx, &uid) {
        if let Ok(set) = &cached.object {
            all.push(found(
                ChildKind::CloneSet,
                set.as_ref(),
                own_pods(ctx, set.as_ref()),
            ));
        }
    }
    for deployment in controlled::<Deployment>(ctx, &uid) {
        let pods = controlled::<ReplicaSet>(ctx, &deployment.uid().unwrap_or_default())
            .iter()
            .flat_map(|rs| own_pods(ctx, rs.as_ref()))
            .collect();
        all.push(found(ChildKind::Deployment, deployment.as_ref(), pods));
    }
    all
}

impl crate::runtime::driver::Reconciled for UnitedDeployment {
    const CONTROLLER: &'static str = CONTROLLER;
    const DRIVES: &'static str = "UnitedDeployment";
    const CRD: &'static str = "uniteddeployments.apps.kruise.io";
    const RULES: &'static [&'static [Rule]] = &[OWN_RULES];
    type Revisions = UnitedDeploymentRevisions;
    type Status = UnitedDeploymentStatus;

    /// Its subset workloads, of every kind it supports (and the Deployments' ReplicaSets).
    fn triggers<F>(serve: &Serve<F>) -> crate::runtime::triggers::Triggers<Self> {
        let (client, scope) = (&serve.client, serve.namespace.as_deref());
        crate::runtime::triggers::Triggers::new()
            .children::<StatefulSet>(client, scope, |_, _| false)
            .children::<Decoded<AdvancedStatefulSet>>(client, scope, |_, _| false)
            .children::<Decoded<CloneSet>>(client, scope, |_, _| false)
            .children::<Deployment>(client, scope, |_, _| false)
            .children::<ReplicaSet>(client, scope, |_, _| false)
    }

    fn plan(
        &self,
        ctx: &Context,
        history: &crate::runtime::history::History,
        now: Timestamp,
    ) -> Planned<UnitedDeploymentStatus> {
        let found = children(ctx, self);
        let children = found
            .iter()
            .map(|(kind, object, pods)| Child {
                kind: *kind,
                object: object.clone(),
                pods: pods.iter().map(AsRef::as_ref).collect(),
            })
            .collect();
        plan(&Snapshot {
            ud: self,
            update_revision: &history.update,
            current_revision: &history.current,
            collision_count: history.collision_count,
            children,
            now,
        })
    }

    /// A failed subset write shows as `SubsetProvisioned` (create, delete) or
    /// `SubsetUpdated` (patch) False with reason `Error`.
    fn with_failure(
        &self,
        planned: Option<UnitedDeploymentStatus>,
        error: &Error,
    ) -> Option<UnitedDeploymentStatus> {
        use super::conditions::{condition, set_condition};
        use super::status::{PROVISIONED, SUBSET_UPDATED};
        use crate::runtime::context::FailedWrite;
        let type_ = match error.failed_write() {
            Some(FailedWrite::Create | FailedWrite::Delete) => PROVISIONED,
            Some(FailedWrite::Update) => SUBSET_UPDATED,
            None => return planned,
        };
        let mut status = planned.or_else(|| self.status.clone()).unwrap_or_default();
        let conditions = status.conditions.get_or_insert_with(Vec::new);
        set_condition(
            conditions,
            condition(type_, "False", "Error", &error.to_string()),
            Timestamp::now(),
        );
        Some(status)
    }
}

/// A UnitedDeployment wants no orphan pod and owns no claim.
impl crate::runtime::controller::Interest for UnitedDeployment {}
