//! What one planning round of an Advanced StatefulSet works with, shared by the phases
//! ([`super::plan`] orchestrates; [`super::plan_update`] and [`super::plan_status`] are
//! phases): the [`Snapshot`] it reads, the [`Plan`] it builds, the set's [`Numbers`], and
//! the small decisions every phase shares (is a pod healthy, how a pod is deleted, the
//! in-place step's view of the set). Pure; the phases import this, never each other's
//! orchestrator, so the planner has no import circle.
use std::collections::{BTreeMap, BTreeSet};

use k8s_openapi::api::core::v1::{Pod, PodTemplateSpec};
use k8s_openapi::jiff::Timestamp;
use kube::ResourceExt;

use super::ordinals::{self, ReservedOrdinals, UpdateMode};
use crate::api::common::{IntOrString, Lifecycle, PodUpdatePolicy};
use crate::api::statefulset::v1beta1::{StatefulSet, StatefulSetStatus};
use crate::api::statefulset::{PodManagementPolicy, StatefulSetUpdateStrategyType};
use crate::runtime::inplace::step::StepContext;
use crate::workloads::common::availability::is_available;
use crate::workloads::common::int_or_percent::{self as numbers, Amount, InvalidIntOrPercent};
use crate::workloads::common::refusals;

pub use crate::runtime::history::Revision;

/// Everything the planner looks at.
#[derive(Debug, Clone)]
pub struct Snapshot<'a> {
    pub set: &'a StatefulSet,
    /// Pods whose controller is the set.
    pub pods: Vec<&'a Pod>,
    /// Pods of the namespace with no controller at all (adoption candidates).
    pub orphans: Vec<&'a Pod>,
    /// Names of the claims of the set's replicas that exist (terminating ones included).
    pub claims: &'a BTreeSet<String>,
    pub update: Revision<'a>,
    pub current: Revision<'a>,
    /// Every known revision's template by name.
    pub templates: &'a BTreeMap<String, PodTemplateSpec>,
    pub collision_count: i32,
    pub now: Timestamp,
}

/// What a round plans: the driver's [`Planned`](crate::runtime::driver::Planned) of this
/// kind's status.
pub type Plan = crate::runtime::driver::Planned<StatefulSetStatus>;

/// The set's numbers, resolved once.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Numbers {
    pub replicas: i32,
    /// The ordinals the replicas have, ascending.
    pub valid: Vec<i32>,
    pub partition: i32,
    pub max_unavailable: usize,
    /// `scaleStrategy.maxUnavailable` (Parallel only).
    pub scale_max_unavailable: Option<usize>,
    pub parallel: bool,
    pub mode: UpdateMode,
    pub rolling: bool,
    pub paused: bool,
    pub policy: PodUpdatePolicy,
    pub min_ready_seconds: i64,
    pub grace_seconds: i32,
}

/// An int-or-percent budget: percent of `replicas` rounded down, at least 1.
fn budget(
    field: &'static str,
    value: Option<&IntOrString>,
    replicas: i32,
) -> Result<usize, InvalidIntOrPercent> {
    let Some(value) = value else { return Ok(1) };
    let n = match numbers::parse(field, value)? {
        Amount::Int(n) => n,
        Amount::Percent(p) => numbers::percent_of(i64::from(replicas.max(0)), p, numbers::Rounding::Down),
    };
    Ok(usize::try_from(n.max(1)).unwrap_or(1))
}

impl Numbers {
    pub fn of(set: &StatefulSet, reserved: &ReservedOrdinals) -> Result<Self, InvalidIntOrPercent> {
        let spec = &set.spec;
        let replicas = spec.replicas.unwrap_or(1).max(0);
        let strategy = spec.update_strategy.clone().unwrap_or_default();
        let rolling_update = strategy.rolling_update.clone().unwrap_or_default();
        let parallel = spec.pod_management_policy == Some(PodManagementPolicy::Parallel);
        let max_unavailable = budget(
            "updateStrategy.rollingUpdate.maxUnavailable",
            rolling_update.max_unavailable.as_ref(),
            replicas,
        )?;
        let scale_max_unavailable = match spec
            .scale_strategy
            .as_ref()
            .and_then(|s| s.max_unavailable.as_ref())
        {
            Some(v) if parallel => Some(budget("scaleStrategy.maxUnavailable", Some(v), replicas)?),
            _ => None,
        };
        Ok(Numbers {
            replicas,
            valid: ordinals::valid_ordinals(ordinals::start_ordinal(set), replicas, reserved),
            partition: rolling_update.partition.unwrap_or(0).clamp(0, replicas),
            // Upstream admission refuses anything but 1 without Parallel.
            max_unavailable: if parallel { max_unavailable } else { 1 },
            scale_max_unavailable,
            parallel,
            mode: UpdateMode::of(set),
            rolling: strategy.type_ != Some(StatefulSetUpdateStrategyType::OnDelete),
            paused: rolling_update.paused.unwrap_or(false),
            policy: rolling_update
                .pod_update_policy
                .unwrap_or(PodUpdatePolicy::ReCreate),
            min_ready_seconds: i64::from(rolling_update.min_ready_seconds.unwrap_or(0).max(0)),
            grace_seconds: rolling_update
                .in_place_update_strategy
                .as_ref()
                .and_then(|s| s.grace_period_seconds)
                .unwrap_or(0),
        })
    }
}

pub(super) fn lifecycle_of(set: &StatefulSet) -> Lifecycle {
    set.spec.lifecycle.clone().unwrap_or_default()
}

/// Running and Ready for minReadySeconds, lifecycle Normal: what OrderedReady waits for.
pub(super) fn healthy(pod: &Pod, n: &Numbers, now: Timestamp) -> bool {
    pod.metadata.deletion_timestamp.is_none() && is_available(pod, n.min_ready_seconds, now)
}

pub(super) fn is_pending(pod: &Pod) -> bool {
    let phase = pod.status.as_ref().and_then(|s| s.phase.as_deref());
    matches!(phase, None | Some("Pending" | ""))
}

pub(super) fn finished(pod: &Pod) -> bool {
    let phase = pod.status.as_ref().and_then(|s| s.phase.as_deref());
    matches!(phase, Some("Succeeded") | Some("Failed"))
}

/// The set's numbers, or why nothing can be planned for it (the `InvalidSpec` message,
/// naming the set and the field: too many replicas, a selector that does not select the
/// template, a template upstream refuses, bad numbers). `rollout status` asks the same.
pub fn checked_numbers(set: &StatefulSet, reserved: &ReservedOrdinals) -> Result<Numbers, String> {
    let name = set.name_any();
    let spec = &set.spec;
    if let Some(message) = refusals::workload(
        "StatefulSet",
        &name,
        spec.replicas,
        &spec.selector,
        &spec.template,
    ) {
        return Err(message);
    }
    Numbers::of(set, reserved).map_err(|error| format!("StatefulSet {}: spec.{error}", set.name_any()))
}

/// Deletes `pod` (with `claims`), or first moves it to PreparingDelete while the preDelete
/// hook holds it; a pod in PreparingDelete waits until the hook lets go.
pub(super) fn delete_pod(snapshot: &Snapshot<'_>, pod: &Pod, claims: Vec<String>, plan: &mut Plan) {
    let hooks = lifecycle_of(snapshot.set);
    let action = crate::runtime::inplace::step::delete_or_hold(
        pod,
        hooks.pre_delete.as_ref(),
        snapshot.now,
        claims,
        None,
    );
    plan.actions.extend(action);
}

/// The shared per-pod step's view of this set.
pub(super) fn step_context<'a>(
    snapshot: &'a Snapshot<'a>,
    n: &Numbers,
    hooks: &'a crate::api::common::Lifecycle,
) -> StepContext<'a> {
    StepContext {
        hooks,
        templates: snapshot.templates,
        update_revision: snapshot.update.name,
        grace_seconds: n.grace_seconds,
        now: snapshot.now,
        hash_label: None,
    }
}
