//! The WorkloadSpread on the shared reconcile driver ([`crate::runtime::driver`]): the
//! target workload and its pods are read from caches (the workload kinds it may target are
//! watched: Deployments with their ReplicaSets, StatefulSets of both groups, Jobs,
//! CloneSets, and the custom workloads of OpenKruise's whitelist, see
//! [`crate::runtime::configuration`]), then the pure [`super::plan`] decides.
//!
//! ```text
//! WorkloadSpread event ─┐
//! target workload event ├─> driver ─> plan (pure) ─> adoption / cost patches, stuck-pod
//! its pods' events      ┘              deletes ─> status (under its resourceVersion)
//! ```
//!
//! Invariants: pods are found through their controller (by owner uid, no scans): a
//! Deployment's through its ReplicaSets; the status is written only onto the version it
//! was planned from, since the pod webhook writes the same status; a spec the admission
//! rules refuse gets the `InvalidSpec` condition and nothing else.
use std::collections::HashMap;
use std::sync::Arc;

use k8s_openapi::api::apps::v1::{Deployment, ReplicaSet, StatefulSet};
use k8s_openapi::api::batch::v1::Job;
use k8s_openapi::api::core::v1::{Node, Pod};
use k8s_openapi::jiff::Timestamp;
use kube::{Resource, ResourceExt};

use super::plan::{Snapshot, Target, plan};
use super::{deleting, target};
use crate::api::cloneset::CloneSet;
use crate::api::statefulset::v1beta1::StatefulSet as AdvancedStatefulSet;
use crate::api::workloadspread::{WorkloadSpread, WorkloadSpreadStatus};
use crate::runtime::controller::{Context, Serve};
use crate::runtime::decoded::Decoded;
use crate::runtime::driver::Planned;
use crate::runtime::rbac::{KRUISE, Rule, rule};
use crate::workloads::common::targets::find;

pub const CONTROLLER: &str = "WorkloadSpread";

/// What it needs beyond the shared runtime's permissions and the shared groups below.
const OWN_RULES: &[Rule] = &[
    rule(KRUISE, &["workloadspreads"], &["list", "watch"]),
    rule(KRUISE, &["workloadspreads/status"], &["patch"]),
    // Every kind a WorkloadSpread can target (read only).
    rule(
        "apps",
        &["deployments", "replicasets", "statefulsets"],
        &["list", "watch"],
    ),
    rule("batch", &["jobs"], &["list", "watch"]),
    rule(KRUISE, &["clonesets", "statefulsets"], &["list", "watch"]),
    // The subset and deletion-cost annotations; pods stuck in a subset go.
    rule("", &["pods"], &["patch", "delete"]),
];

impl crate::runtime::driver::Reconciled for WorkloadSpread {
    const CONTROLLER: &'static str = CONTROLLER;
    const DRIVES: &'static str = "WorkloadSpread";
    const CRD: &'static str = "workloadspreads.apps.kruise.io";
    const RULES: &'static [&'static [Rule]] = &[OWN_RULES];
    const GUARDED_STATUS: bool = true;
    type Revisions = crate::runtime::driver::NoRevisions;
    type Status = WorkloadSpreadStatus;

    /// The workloads it targets (and their ReplicaSets), of every kind it supports, and the
    /// custom workloads of OpenKruise's whitelist that the API server serves.
    fn triggers<F>(serve: &Serve<F>) -> crate::runtime::triggers::Triggers<Self> {
        let (client, scope) = (&serve.client, serve.namespace.as_deref());
        let triggers = crate::runtime::triggers::Triggers::new()
            .followed::<Deployment>(client, scope, targets)
            .followed::<ReplicaSet>(client, scope, targets)
            .followed::<StatefulSet>(client, scope, targets)
            .followed::<Job>(client, scope, targets)
            .followed::<Decoded<CloneSet>>(client, scope, targets)
            .followed::<Decoded<AdvancedStatefulSet>>(client, scope, targets);
        serve
            .configuration
            .custom_workloads
            .iter()
            .filter_map(|w| w.resource.as_ref())
            .fold(triggers, |triggers, resource| {
                let (group, kind) = (resource.group.clone(), resource.kind.clone());
                triggers.dynamic(client, scope, resource, move |ws, object| {
                    targets_custom(ws, &group, &kind, object)
                })
            })
    }

    fn plan(
        &self,
        ctx: &Context,
        _history: &crate::runtime::history::History,
        now: Timestamp,
    ) -> Planned<WorkloadSpreadStatus> {
        let value = serde_json::to_value(self).unwrap_or_default();
        if let Some(message) = super::validation::refusal_among(&value, None, &[], None, &ctx.configuration) {
            return Planned {
                refused: Some(message),
                ..Planned::default()
            };
        }
        let namespace = self.namespace().unwrap_or_default();
        let found = find(ctx, &namespace, &self.spec.target_ref);
        let pods: Vec<Arc<Pod>> = found
            .as_ref()
            .map(|f| f.pods.clone())
            .unwrap_or_default()
            .into_iter()
            .filter(|p| target::selects(self, p, false))
            .collect();
        let mut refs: Vec<&Pod> = pods.iter().map(AsRef::as_ref).collect();
        refs.sort_by_key(|p| p.name_any());
        let nodes = ctx.watches.nodes.state();
        let by_name: HashMap<String, &Node> = nodes.iter().map(|n| (n.name_any(), n.as_ref())).collect();
        let node = |name: &str| by_name.get(name).copied();
        let target = match &found {
            None => Target::Missing,
            Some(f) => Target::Found {
                total: target::total(self, &f.object, &ctx.configuration),
                latest_version: f.latest_version.clone(),
            },
        };
        plan(&Snapshot {
            ws: self,
            target,
            pods: refs,
            node: &node,
            now,
        })
    }
}

/// A pod event wakes the WorkloadSpread its annotation names, and the one whose target
/// controls it (a Deployment's pods: by their ReplicaSet's name).
impl crate::runtime::controller::Interest for WorkloadSpread {
    fn wants_orphan(&self, pod: &Pod) -> bool {
        if deleting::matched(pod).is_some_and(|(name, _)| name == self.name_any()) {
            return true;
        }
        let wanted = &self.spec.target_ref;
        target::controller(pod.owner_references()).is_some_and(|o| {
            target::is_target(o, wanted)
                || (wanted.kind == "Deployment"
                    && o.kind == "ReplicaSet"
                    && o.name
                        .strip_prefix(wanted.name.as_str())
                        .is_some_and(|rest| rest.starts_with('-')))
        })
    }

    fn follows_controlled_pods() -> bool {
        true
    }
}

/// Whether `object` is the workload `ws` targets (or, for a ReplicaSet, of it).
fn targets<C: Resource<DynamicType = ()>>(ws: &WorkloadSpread, object: &C) -> bool {
    let wanted = &ws.spec.target_ref;
    let group = C::group(&());
    let kind = C::kind(&());
    let own = kind == wanted.kind.as_str()
        && group == target::group_of(&wanted.api_version)
        && object.meta().name.as_deref() == Some(wanted.name.as_str());
    own || target::controller(object.meta().owner_references.as_deref().unwrap_or_default())
        .is_some_and(|o| target::is_target(o, wanted))
}

/// Whether `object`, a custom workload of `group`/`kind`, is the one `ws` targets.
fn targets_custom(ws: &WorkloadSpread, group: &str, kind: &str, object: &kube::core::DynamicObject) -> bool {
    let wanted = &ws.spec.target_ref;
    kind == wanted.kind
        && group == target::group_of(&wanted.api_version)
        && object.metadata.name.as_deref() == Some(wanted.name.as_str())
}
