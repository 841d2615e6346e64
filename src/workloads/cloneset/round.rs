//! What one planning round of a CloneSet works with, shared by the phases ([`super::plan`]
//! orchestrates; [`super::plan_scale`], [`super::plan_update`] and [`super::plan_status`]
//! are phases): the [`Snapshot`] it reads, the [`Plan`] it builds, the set's [`Numbers`],
//! and small readings of the set every phase shares. Pure; the phases import this, never
//! their orchestrator, so the planner has no import circle.
use std::collections::BTreeMap;

use k8s_openapi::api::core::v1::{PersistentVolumeClaim, Pod, PodTemplateSpec};
use k8s_openapi::jiff::Timestamp;
use kube::ResourceExt;

use super::numbers::{self, InvalidIntOrPercent};
use super::status;
use crate::api::cloneset::{CloneSet, CloneSetStatus, CloneSetUpdateStrategyType};
use crate::api::common::Lifecycle;
use crate::workloads::common::refusals;

pub use crate::runtime::history::Revision;

/// Everything the planner looks at.
#[derive(Debug, Clone)]
pub struct Snapshot<'a> {
    pub set: &'a CloneSet,
    /// Pods with a controller ownerRef to the set (any apps.kruise.io version).
    pub pods: Vec<&'a Pod>,
    /// PVCs with a controller ownerRef to the set, not terminating.
    pub claims: Vec<&'a PersistentVolumeClaim>,
    pub update: Revision<'a>,
    pub current: Revision<'a>,
    /// Every known revision's template by name, for in-place decisions.
    pub templates: &'a BTreeMap<String, PodTemplateSpec>,
    pub collision_count: i32,
    /// Labels of the nodes the pods run on (for topology-spread ranks when scaling in).
    pub node_labels: &'a BTreeMap<String, BTreeMap<String, String>>,
    pub now: Timestamp,
    /// OpenKruise's feature gates that change the plan.
    pub features: crate::runtime::features::Features,
}

pub use crate::runtime::actions::{Action, Problem, Why};

/// What a round plans: the driver's [`Planned`](crate::runtime::driver::Planned) of this
/// kind's status; pruning `scaleStrategy.podsToDelete` of vanished names is its spec patch.
pub type Plan = crate::runtime::driver::Planned<CloneSetStatus>;

/// The set's int-or-percent fields as absolute numbers, resolved once.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Numbers {
    pub replicas: i64,
    pub partition: i64,
    pub max_surge: i64,
    pub max_unavailable: i64,
    pub scale_max_unavailable: Option<i64>,
    pub paused: bool,
    pub min_ready_seconds: i64,
}

impl Numbers {
    pub fn of(set: &CloneSet) -> Result<Self, InvalidIntOrPercent> {
        let spec = &set.spec;
        let replicas = i64::from(spec.replicas.unwrap_or(1).max(0));
        let strategy = spec.update();
        // `OnDelete`: no pod is updated by the controller (only replaced when deleted).
        let paused =
            strategy.paused.unwrap_or(false) || strategy.type_ == Some(CloneSetUpdateStrategyType::OnDelete);
        let partition = numbers::partition(strategy.partition.as_ref(), replicas)?;
        let max_surge = numbers::max_surge(strategy.max_surge.as_ref(), replicas, paused)?;
        let max_unavailable =
            numbers::max_unavailable(strategy.max_unavailable.as_ref(), replicas, max_surge)?;
        let scale_max_unavailable = numbers::scale_max_unavailable(
            spec.scale_strategy
                .as_ref()
                .and_then(|s| s.max_unavailable.as_ref()),
            replicas,
        )?;
        Ok(Numbers {
            replicas,
            partition,
            max_surge,
            max_unavailable,
            scale_max_unavailable,
            paused,
            min_ready_seconds: i64::from(spec.min_ready_seconds.unwrap_or(0).max(0)),
        })
    }
}

pub use crate::workloads::common::availability::is_active;

pub use crate::runtime::inplace::step::rfc3339;

pub(super) fn lifecycle_of(set: &CloneSet) -> Lifecycle {
    set.spec.lifecycle.clone().unwrap_or_default()
}

pub(super) fn pods_to_delete(set: &CloneSet) -> Vec<String> {
    set.spec
        .scale_strategy
        .as_ref()
        .and_then(|s| s.pods_to_delete.clone())
        .unwrap_or_default()
}

pub(super) use crate::runtime::inplace::step::label_patch;

/// The set's numbers, or why nothing can be planned for it (the `InvalidSpec` message,
/// naming the set and the field: too many replicas, a selector that does not select the
/// template, a template upstream refuses, bad numbers). `rollout status` asks the same.
pub fn checked_numbers(set: &CloneSet) -> Result<Numbers, String> {
    let name = set.name_any();
    let spec = &set.spec;
    if let Some(message) =
        refusals::workload("CloneSet", &name, spec.replicas, &spec.selector, &spec.template)
    {
        return Err(message);
    }
    Numbers::of(set).map_err(|error| format!("CloneSet {}: spec.{error}", set.name_any()))
}

/// `scaleStrategy.disablePVCReuse` / `enablePVCReuse`, resolved by the API type.
pub(super) fn reuse_disabled(set: &CloneSet) -> bool {
    !set.spec.reuses_pvcs()
}

pub(super) fn at_update_revision(snapshot: &Snapshot<'_>, pod: &Pod) -> bool {
    status::is_at_revision(pod, snapshot.update.name)
}
