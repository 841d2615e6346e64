//! The PodUnavailableBudget on the shared reconcile driver ([`crate::runtime::driver`]):
//! the pods it counts are found in the caches (a `targetRef`'s through its workload, see
//! [`crate::workloads::common::targets`]; a selector's by a scan of the namespace's cached
//! pods), with the replica total they should reach, then the pure [`super::plan`] decides.
//!
//! ```text
//! budget event ──────────┐
//! its pods' events       ├─> driver ─> plan (pure) ─> related-pub annotations ─> status
//! its workloads' events  ┘                             (under its resourceVersion)
//! ```
//!
//! Invariants: only active pods are counted; the replica total is the budget's own
//! (`protectTotalReplicas`, or its `v1alpha1` annotation) when it states one, else the
//! target's `spec.replicas` (a target missing or being deleted: no pods, 0), else, for a
//! selector, the sum of the `spec.replicas` of the distinct workloads controlling its pods
//! (a ReplicaSet's Deployment counts once, for all its ReplicaSets); the status is written
//! only onto the version it was planned from, since the pod webhook writes it too.
use std::collections::BTreeMap;
use std::sync::Arc;

use k8s_openapi::api::apps::v1::{Deployment, ReplicaSet, StatefulSet};
use k8s_openapi::api::core::v1::Pod;
use k8s_openapi::apimachinery::pkg::apis::meta::v1::OwnerReference;
use k8s_openapi::jiff::Timestamp;
use kube::core::{Selector, SelectorExt};
use kube::{Resource, ResourceExt};

use super::plan::{Snapshot, plan, related};
use crate::api::cloneset::CloneSet;
use crate::api::podunavailablebudget::{PodUnavailableBudget, PodUnavailableBudgetStatus, TargetReference};
use crate::api::statefulset::v1beta1::StatefulSet as AdvancedStatefulSet;
use crate::api::uniteddeployment::UnitedDeployment;
use crate::runtime::controller::{Context, Serve};
use crate::runtime::decoded::Decoded;
use crate::runtime::driver::Planned;
use crate::runtime::rbac::{KRUISE, KRUISE_POLICY, Rule, rule};
use crate::workloads::common::availability::is_active;
use crate::workloads::common::targets::{cached, find, group_of, is_target};

pub const CONTROLLER: &str = "PodUnavailableBudget";

/// What it needs beyond the shared runtime's permissions.
const OWN_RULES: &[Rule] = &[
    rule(KRUISE_POLICY, &["podunavailablebudgets"], &["list", "watch"]),
    rule(KRUISE_POLICY, &["podunavailablebudgets/status"], &["patch"]),
    // Every kind a budget can target or count the replicas of (read only).
    rule(
        "apps",
        &["deployments", "replicasets", "statefulsets"],
        &["list", "watch"],
    ),
    rule(
        KRUISE,
        &["clonesets", "statefulsets", "uniteddeployments"],
        &["list", "watch"],
    ),
    // The related-pub annotations.
    rule("", &["pods"], &["patch"]),
];

/// The replicas a workload (as JSON) asks for (absent: 1, as the API server defaults it).
fn replicas(object: &serde_json::Value) -> i32 {
    let deleting = !object["metadata"]["deletionTimestamp"].is_null();
    let wanted = object["spec"]["replicas"].as_i64().unwrap_or(1);
    if deleting {
        0
    } else {
        i32::try_from(wanted).unwrap_or(i32::MAX)
    }
}

/// The workload `owner` (a pod's controller) scales with, keyed by its uid, and its
/// replicas: a ReplicaSet's Deployment when it has one.
fn scale_of(ctx: &Context, namespace: &str, owner: &OwnerReference) -> Option<(String, i32)> {
    if group_of(&owner.api_version) == "apps" && owner.kind == "ReplicaSet" {
        let rs: Arc<ReplicaSet> = cached(ctx, namespace, &owner.name)?;
        let deployment = rs
            .owner_references()
            .iter()
            .find(|o| o.controller == Some(true) && o.kind == "Deployment")
            .and_then(|o| cached::<Deployment>(ctx, namespace, &o.name));
        if let Some(deployment) = deployment {
            let value = serde_json::to_value(deployment.as_ref()).ok()?;
            return Some((deployment.uid().unwrap_or_default(), replicas(&value)));
        }
    }
    let reference = TargetReference {
        api_version: owner.api_version.clone(),
        kind: owner.kind.clone(),
        name: owner.name.clone(),
    };
    let found = find(ctx, namespace, &reference)?;
    Some((owner.uid.clone(), replicas(&found.object)))
}

/// The sum of the replicas of the distinct workloads controlling `pods`.
fn expected_of(ctx: &Context, namespace: &str, pods: &[Arc<Pod>]) -> i32 {
    let mut scales: BTreeMap<String, i32> = BTreeMap::new();
    let mut asked: Vec<&str> = Vec::new();
    for pod in pods {
        let Some(owner) = pod.owner_references().iter().find(|o| o.controller == Some(true)) else {
            continue;
        };
        if asked.contains(&owner.uid.as_str()) {
            continue;
        }
        asked.push(owner.uid.as_str());
        if let Some((uid, count)) = scale_of(ctx, namespace, owner) {
            scales.insert(uid, count);
        }
    }
    scales.values().fold(0i32, |sum, n| sum.saturating_add(*n))
}

/// The active pods `budget` counts and the total they should reach.
fn counted(budget: &PodUnavailableBudget, ctx: &Context) -> (Vec<Arc<Pod>>, i32) {
    let namespace = budget.namespace().unwrap_or_default();
    let (pods, expected) = if let Some(target) = &budget.spec.target_ref {
        match find(ctx, &namespace, target).map(|found| (replicas(&found.object), found.pods)) {
            Some((expected, pods)) if expected > 0 => (pods, expected),
            _ => (Vec::new(), 0),
        }
    } else {
        let Some(selector) = budget
            .spec
            .selector
            .clone()
            .and_then(|s| Selector::try_from(s).ok())
            .filter(|s| !s.selects_all())
        else {
            return (Vec::new(), 0);
        };
        // Chosen by their labels (a record keeps them apart from its `meta()`), then
        // assembled: only the pods the selector selects.
        let records: Vec<_> = ctx
            .watches
            .pods
            .state()
            .into_iter()
            .filter(|p| p.meta().namespace.as_deref() == Some(namespace.as_str()))
            .filter(|p| selector.matches(&p.labels()))
            .collect();
        let pods = crate::runtime::cached_pod::pods(&records);
        let expected = expected_of(ctx, &namespace, &pods);
        (pods, expected)
    };
    let active: Vec<Arc<Pod>> = pods.into_iter().filter(|p| is_active(p)).collect();
    (active, budget.stated_total().unwrap_or(expected))
}

impl crate::runtime::driver::Reconciled for PodUnavailableBudget {
    const CONTROLLER: &'static str = CONTROLLER;
    const DRIVES: &'static str = "PodUnavailableBudget";
    const CRD: &'static str = "podunavailablebudgets.policy.kruise.io";
    const RULES: &'static [&'static [Rule]] = &[OWN_RULES];
    const GUARDED_STATUS: bool = true;
    type Revisions = crate::runtime::driver::NoRevisions;
    type Status = PodUnavailableBudgetStatus;

    /// The workloads it may target or count the replicas of.
    fn triggers<F>(serve: &Serve<F>) -> crate::runtime::triggers::Triggers<Self> {
        let (client, scope) = (&serve.client, serve.namespace.as_deref());
        crate::runtime::triggers::Triggers::new()
            .followed::<Deployment>(client, scope, concerns)
            .followed::<ReplicaSet>(client, scope, concerns)
            .followed::<StatefulSet>(client, scope, concerns)
            .followed::<Decoded<CloneSet>>(client, scope, concerns)
            .followed::<Decoded<AdvancedStatefulSet>>(client, scope, concerns)
            .followed::<Decoded<UnitedDeployment>>(client, scope, concerns)
    }

    fn plan(
        &self,
        ctx: &Context,
        _history: &crate::runtime::history::History,
        now: Timestamp,
    ) -> Planned<PodUnavailableBudgetStatus> {
        let (pods, expected) = counted(self, ctx);
        let mut refs: Vec<&Pod> = pods.iter().map(AsRef::as_ref).collect();
        refs.sort_by_key(|p| p.name_any());
        plan(&Snapshot {
            budget: self,
            pods: refs,
            expected,
            now,
        })
    }
}

/// A pod event wakes the budget its annotation names, the one whose selector selects it, and
/// the one whose target controls it (a Deployment's pods: by their ReplicaSet's name and
/// their `pod-template-hash`).
impl crate::runtime::controller::Interest for PodUnavailableBudget {
    fn wants_orphan(&self, pod: &Pod) -> bool {
        if pod.namespace() != self.namespace() {
            return false;
        }
        if related(pod) == Some(self.name_any().as_str()) {
            return true;
        }
        super::pod_hook::counts(self, pod)
    }

    fn follows_controlled_pods() -> bool {
        true
    }
}

/// Whether a workload event concerns `budget`: its target or what the target controls
/// (a Deployment's ReplicaSets, a UnitedDeployment's subsets), or, for a selector budget,
/// any workload of its namespace (its replica total may change).
fn concerns<C: Resource<DynamicType = ()>>(budget: &PodUnavailableBudget, object: &C) -> bool {
    let meta = object.meta();
    if meta.namespace != budget.metadata.namespace {
        return false;
    }
    let Some(target) = &budget.spec.target_ref else {
        return budget.spec.selector.is_some();
    };
    let own = C::kind(&()) == target.kind.as_str()
        && C::group(&()) == group_of(&target.api_version)
        && meta.name.as_deref() == Some(target.name.as_str());
    own || meta
        .owner_references
        .iter()
        .flatten()
        .any(|o| o.controller == Some(true) && is_target(o, target))
}
