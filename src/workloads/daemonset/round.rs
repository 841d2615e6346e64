//! What one planning round of an Advanced DaemonSet works with, shared by its phases
//! ([`super::plan`] orchestrates; [`super::plan_manage`], [`super::plan_update`] and
//! [`super::plan_status`] are phases): the [`Snapshot`], the [`Plan`], the set's
//! [`Numbers`], each node's [`NodeEntry`], and the small decisions every phase shares (is a
//! pod new, how pods on one node are ordered, how a pod is deleted). Pure.
use std::collections::BTreeMap;
use std::time::Duration;

use k8s_openapi::api::core::v1::{Node, Pod, PodTemplateSpec};
use k8s_openapi::jiff::Timestamp;
use kube::ResourceExt;

use super::nodes;
use crate::api::common::{IntOrString, Lifecycle};
use crate::api::daemonset::{DaemonSet, DaemonSetStatus, DaemonSetUpdateStrategyType, RollingUpdateType};
use crate::runtime::actions::Why;
use crate::runtime::lifecycle;
use crate::runtime::revision::short_hash;
use crate::workloads::common::availability;
use crate::workloads::common::int_or_percent::{self as numbers, Amount, InvalidIntOrPercent};
use crate::workloads::common::node_fit::{self, Fit};
use crate::workloads::common::refusals;

pub use crate::runtime::history::Revision;

/// Everything the planner looks at.
#[derive(Debug, Clone)]
pub struct Snapshot<'a> {
    pub set: &'a DaemonSet,
    /// Pods whose controller is the set (terminating ones included).
    pub pods: Vec<&'a Pod>,
    /// Pods in the set's namespace with no controller at all (the planner adopts those its
    /// selector matches).
    pub orphans: Vec<&'a Pod>,
    /// Every node, in any order.
    pub nodes: Vec<&'a Node>,
    /// The revision of the current template; its hash is the pods' `controller-revision-hash`.
    pub update: Revision<'a>,
    /// Every known revision's template by name.
    pub templates: &'a BTreeMap<String, PodTemplateSpec>,
    pub collision_count: i32,
    pub now: Timestamp,
    /// Nodes whose Failed pods must not be deleted yet, with the time left (the per-node
    /// backoff the controller keeps across rounds).
    pub failed_backoff: &'a BTreeMap<String, Duration>,
}

/// What a round plans: the driver's [`Planned`](crate::runtime::driver::Planned) of this kind's status; the nodes whose
/// Failed pods it deletes are its `backoff_failures` (their backoff doubles).
pub type Plan = crate::runtime::driver::Planned<DaemonSetStatus>;

/// One node as the round sees it: how it fits the template, and the set's pods on it.
#[derive(Debug, Clone)]
pub struct NodeEntry<'a> {
    pub name: &'a str,
    pub node: &'a Node,
    pub fit: Fit,
    /// The set's pods on this node, oldest first ([`oldest_first`]), terminating included.
    pub pods: Vec<&'a Pod>,
}

impl<'a> NodeEntry<'a> {
    /// The pods not being deleted.
    pub fn live(&self) -> Vec<&'a Pod> {
        self.pods
            .iter()
            .copied()
            .filter(|p| p.metadata.deletion_timestamp.is_none())
            .collect()
    }
}

/// The set's numbers, resolved once per round against `desired` (the nodes that should run
/// a pod).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Numbers {
    pub desired: i64,
    pub max_unavailable: i64,
    pub max_surge: i64,
    /// Nodes kept on their old revision.
    pub partition: i64,
    /// Creates, deletes and in-place updates per round, each.
    pub burst: usize,
    pub paused: bool,
    pub on_delete: bool,
    pub in_place: bool,
    pub partitioned_scaling: bool,
    pub min_ready_seconds: i64,
}

fn scale(
    field: &'static str,
    value: Option<&IntOrString>,
    base: i64,
    up: bool,
) -> Result<i64, InvalidIntOrPercent> {
    let Some(value) = value else { return Ok(0) };
    Ok(match numbers::parse(field, value)? {
        Amount::Int(n) => n,
        Amount::Percent(p) if up => numbers::percent_of(base, p, numbers::Rounding::Up),
        Amount::Percent(p) => numbers::percent_of(base, p, numbers::Rounding::Down),
    })
}

/// Is the value zero (unset counts as zero)?
fn is_zero(value: Option<&IntOrString>) -> bool {
    match value {
        None => true,
        Some(IntOrString::Int(n)) => *n == 0,
        Some(IntOrString::String(s)) => s == "0" || s == "0%",
    }
}

impl Numbers {
    /// The numbers, or why the spec cannot be planned (upstream's validation rules that the
    /// CRD cannot express, naming the field).
    pub fn of(set: &DaemonSet, desired: i64) -> Result<Self, String> {
        let name = set.name_any();
        let spec = &set.spec;
        let strategy = spec.update_strategy.clone().unwrap_or_default();
        let rolling = strategy.rolling_update.clone().unwrap_or_default();
        let field = |e: InvalidIntOrPercent| format!("DaemonSet {name}: spec.{e}");
        let (mu, ms) = (rolling.max_unavailable.as_ref(), rolling.max_surge.as_ref());
        let in_place = rolling.type_ == Some(RollingUpdateType::InPlaceIfPossible);
        let refuse = |what: &str| {
            Err(format!(
                "DaemonSet {name}: spec.updateStrategy.rollingUpdate.{what}"
            ))
        };
        if !is_zero(mu) && !is_zero(ms) {
            return refuse("maxUnavailable and maxSurge must not both be set");
        }
        if in_place && !is_zero(ms) {
            return refuse("maxSurge must be 0 when rollingUpdateType is InPlaceIfPossible");
        }
        if spec
            .lifecycle
            .as_ref()
            .is_some_and(|l| l.in_place_update.is_some())
        {
            return Err(format!(
                "DaemonSet {name}: spec.lifecycle.inPlaceUpdate is not supported by DaemonSet"
            ));
        }
        for (what, value) in [
            ("maxUnavailable", mu),
            ("maxSurge", ms),
            ("partition", rolling.partition.as_ref()),
        ] {
            if let Some(IntOrString::String(s)) = value
                && s.strip_suffix('%')
                    .and_then(|p| p.parse::<i64>().ok())
                    .is_some_and(|p| p > 100)
            {
                return refuse(&format!("{what} {s} is above 100%"));
            }
        }
        let mut max_unavailable =
            scale("updateStrategy.rollingUpdate.maxUnavailable", mu, desired, true).map_err(field)?;
        let max_surge = scale("updateStrategy.rollingUpdate.maxSurge", ms, desired, true).map_err(field)?;
        // Defaults: 1 unavailable when neither is set (the webhook writes it); also when
        // both resolve to 0 on a set with nodes.
        if max_unavailable == 0 && max_surge == 0 && (desired > 0 || (mu.is_none() && ms.is_none())) {
            max_unavailable = 1;
        }
        let partition = scale(
            "updateStrategy.rollingUpdate.partition",
            rolling.partition.as_ref(),
            desired,
            false,
        )
        .map_err(field)?;
        let burst = match spec.burst_replicas.as_ref() {
            None => 250,
            Some(value) => scale("burstReplicas", Some(value), desired, false).map_err(field)?,
        };
        Ok(Numbers {
            desired,
            max_unavailable: max_unavailable.max(0),
            max_surge: max_surge.max(0),
            partition: partition.clamp(0, desired.max(0)),
            burst: usize::try_from(burst.max(1)).unwrap_or(1),
            paused: rolling.paused == Some(true),
            on_delete: strategy.type_ == Some(DaemonSetUpdateStrategyType::OnDelete),
            in_place,
            partitioned_scaling: set.partitioned_scaling(),
            min_ready_seconds: i64::from(spec.min_ready_seconds.unwrap_or(0).max(0)),
        })
    }
}

/// Why nothing can be planned for this set (the `InvalidSpec` message), or its numbers.
/// `rollout status` asks the same.
pub fn checked_numbers(set: &DaemonSet, desired: i64) -> Result<Numbers, String> {
    let spec = &set.spec;
    if let Some(message) =
        refusals::workload("DaemonSet", &set.name_any(), None, &spec.selector, &spec.template)
    {
        return Err(message);
    }
    Numbers::of(set, desired)
}

/// Bound pods first, then the older, then by name (upstream's order of a node's pods).
pub fn oldest_first(pods: &mut [&Pod]) {
    pods.sort_by(|a, b| {
        let unbound = |p: &Pod| {
            p.spec
                .as_ref()
                .and_then(|s| s.node_name.as_deref())
                .is_none_or(str::is_empty)
        };
        unbound(a)
            .cmp(&unbound(b))
            .then_with(|| a.metadata.creation_timestamp.cmp(&b.metadata.creation_timestamp))
            .then_with(|| a.name_any().cmp(&b.name_any()))
    });
}

/// The nodes, by name, each with its fit and the set's pods on it; nodes without either are
/// left out. Pods on nodes that do not exist are in the second list.
pub fn entries<'a>(snapshot: &Snapshot<'a>) -> (Vec<NodeEntry<'a>>, Vec<&'a Pod>) {
    let spec = nodes::daemon_spec(snapshot.set);
    let mut by_node: BTreeMap<&str, Vec<&Pod>> = BTreeMap::new();
    for pod in &snapshot.pods {
        if let Some(node) = node_fit::node_of(pod) {
            by_node.entry(node).or_default().push(pod);
        }
    }
    let mut list: Vec<NodeEntry<'a>> = snapshot
        .nodes
        .iter()
        .filter_map(|node| {
            let name = node.metadata.name.as_deref()?;
            let mut pods = by_node.remove(name).unwrap_or_default();
            oldest_first(&mut pods);
            Some(NodeEntry {
                name,
                node,
                fit: node_fit::fit(&spec, node),
                pods,
            })
        })
        .collect();
    list.sort_by(|a, b| a.name.cmp(b.name));
    let lost = by_node.into_values().flatten().collect();
    (list, lost)
}

/// Is the pod at the set's current revision?
pub fn is_new(snapshot: &Snapshot<'_>, pod: &Pod) -> bool {
    crate::runtime::revision::is_at_revision(pod, snapshot.update.name)
}

/// The hash the set's pods carry in `controller-revision-hash` (upstream: the hash, not the
/// revision's full name).
pub fn hash<'a>(snapshot: &Snapshot<'a>) -> &'a str {
    short_hash(snapshot.update.name)
}

pub fn is_available(snapshot: &Snapshot<'_>, n: &Numbers, pod: &Pod) -> bool {
    pod.metadata.deletion_timestamp.is_none()
        && availability::is_available(pod, n.min_ready_seconds, snapshot.now)
}

pub fn preparing_delete(pod: &Pod) -> bool {
    lifecycle::state(pod) == lifecycle::PREPARING_DELETE
}

pub(super) fn lifecycle_of(set: &DaemonSet) -> Lifecycle {
    set.spec.lifecycle.clone().unwrap_or_default()
}

/// Deletes `pod`, or first moves it to PreparingDelete while the preDelete hook holds it;
/// a pod in PreparingDelete waits until the hook lets go.
pub(super) fn delete_pod(snapshot: &Snapshot<'_>, pod: &Pod, why: Option<Why>, plan: &mut Plan) {
    let hooks = lifecycle_of(snapshot.set);
    let action = crate::runtime::inplace::step::delete_or_hold(
        pod,
        hooks.pre_delete.as_ref(),
        snapshot.now,
        Vec::new(),
        why,
    );
    plan.actions.extend(action);
}
