//! The Advanced DaemonSet on the shared reconcile driver ([`crate::runtime::driver`]): what
//! its snapshot holds (its pods and every node) and which node changes wake it. It has no
//! reconcile, event or status-write code of its own.
//!
//! ```text
//! DaemonSet event ─┐
//! owned Pod event  ├─> driver: expectations ─> history ─> plan (pure) ─> executor ─> status
//! Node change      ┘   (a node wakes the sets it fits or used to fit, or whose
//!                       rollingUpdate.selector it matches, now or before the change)
//! ```
//!
//! Pods belong to a set by their controller owner reference (kind `DaemonSet` of
//! apps.kruise.io in any served version, so the built-in kind's pods are never touched).
//! A pod with no controller whose labels the selector matches wakes the set and is adopted.

use k8s_openapi::api::core::v1::{Node, PodTemplateSpec};
use k8s_openapi::jiff::Timestamp;
use kube::ResourceExt;
use kube::core::{Selector, SelectorExt};

use super::nodes;
use super::plan::{self, Snapshot};
use crate::api::daemonset::{DaemonSet, DaemonSetStatus};
use crate::runtime::controller::{Context, Serve};
use crate::runtime::rbac::{self, KRUISE, Rule, rule};
use crate::workloads::common::node_fit;

pub const CONTROLLER: &str = "DaemonSet";

/// What it needs beyond the shared runtime's permissions and the shared groups below.
const OWN_RULES: &[Rule] = &[
    rule(KRUISE, &["daemonsets"], &["list", "watch"]),
    rule(KRUISE, &["daemonsets/status"], &["patch"]),
    rule(KRUISE, &["daemonsets/finalizers"], &["update"]),
];

impl crate::runtime::history::Workload for DaemonSet {
    const KIND: &'static str = CONTROLLER;
    fn template(&self) -> &PodTemplateSpec {
        &self.spec.template
    }
    fn collision_count(&self) -> i32 {
        self.status.as_ref().and_then(|s| s.collision_count).unwrap_or(0)
    }
    /// A DaemonSet has no current revision: every pod is judged against the update one.
    fn current_revision(&self) -> Option<&str> {
        None
    }
    fn revision_history_limit(&self) -> i32 {
        self.spec
            .revision_history_limit
            .unwrap_or(crate::runtime::history::DEFAULT_REVISION_HISTORY_LIMIT)
    }
    fn status_with_collision_count(&self, count: i32) -> serde_json::Value {
        let mut status = self.status.clone().unwrap_or_default();
        status.collision_count = Some(count);
        serde_json::to_value(status).unwrap_or_default()
    }
}

impl crate::runtime::driver::Reconciled for DaemonSet {
    const CONTROLLER: &'static str = CONTROLLER;
    const DRIVES: &'static str = "Advanced DaemonSet";
    const CRD: &'static str = "daemonsets.apps.kruise.io";
    const RULES: &'static [&'static [Rule]] = &[OWN_RULES, rbac::IN_PLACE_POD_OWNER];
    type Revisions = crate::runtime::driver::TemplateRevisions;
    type Status = DaemonSetStatus;

    /// Node changes that matter to its pods' fitness.
    fn triggers<F>(_serve: &Serve<F>) -> crate::runtime::triggers::Triggers<Self> {
        crate::runtime::triggers::Triggers::new().nodes(interested)
    }

    fn plan(
        &self,
        ctx: &Context,
        history: &crate::runtime::history::History,
        now: Timestamp,
    ) -> crate::runtime::driver::Planned<DaemonSetStatus> {
        let pods = crate::runtime::context::owned_pods(ctx, self, CONTROLLER);
        // Pods with no controller in the set's namespace (an index lookup, not a scan): the
        // planner adopts those its selector matches, as after `--cascade=orphan`.
        let namespace = self.namespace().unwrap_or_default();
        let orphans = crate::runtime::context::uncontrolled_pods(ctx, &namespace);
        let all_nodes = ctx.watches.nodes.state();
        let clock = std::time::Instant::now();
        let failed_backoff: std::collections::BTreeMap<String, std::time::Duration> = pods
            .iter()
            .filter(|p| p.status.as_ref().and_then(|s| s.phase.as_deref()) == Some("Failed"))
            .filter_map(|p| node_fit::node_of(p))
            .filter_map(|node| {
                let left = ctx
                    .backoffs
                    .remaining(&crate::runtime::backoff::key(&self.metadata, node), clock)?;
                Some((node.to_string(), left))
            })
            .collect();
        let snapshot = Snapshot {
            set: self,
            pods: pods.iter().map(AsRef::as_ref).collect(),
            orphans: orphans.iter().map(AsRef::as_ref).collect(),
            nodes: all_nodes.iter().map(AsRef::as_ref).collect(),
            update: history.update_revision(),
            templates: &history.templates,
            collision_count: history.collision_count,
            now,
            failed_backoff: &failed_backoff,
        };
        let mut planned = plan::plan(&snapshot);
        planned.pod_revisions = crate::runtime::driver::pod_revisions(snapshot.pods.iter().copied());
        planned
    }

    /// A pod on every node that should run one, ready and available, none misplaced, and
    /// all updated (with a partition or a node selector in the rolling update: at rest as
    /// soon as the rest holds, so those are never held).
    fn status_at_rest(&self, status: &DaemonSetStatus) -> bool {
        let desired = status.desired_number_scheduled;
        let limited = self
            .spec
            .update_strategy
            .as_ref()
            .and_then(|s| s.rolling_update.as_ref())
            .is_some_and(|r| r.partition.is_some() || r.selector.is_some());
        status.current_number_scheduled == desired
            && status.number_ready == desired
            && status.number_available.unwrap_or(status.number_ready) == desired
            && status.number_misscheduled == 0
            && (limited || status.updated_number_scheduled == desired)
    }

    fn status_count_reached(&self, status: &DaemonSetStatus) -> bool {
        let reached = |s: &DaemonSetStatus| s.current_number_scheduled == s.desired_number_scheduled;
        reached(status) && !self.status.as_ref().is_some_and(reached)
    }
}

/// Which uncontrolled pods wake a set: those its selector matches (it adopts them). It
/// owns no claim.
impl crate::runtime::controller::Interest for DaemonSet {
    fn wants_orphan(&self, pod: &k8s_openapi::api::core::v1::Pod) -> bool {
        Selector::try_from(self.spec.selector.clone()).is_ok_and(|s| s.matches(pod.labels()))
    }
}

/// Does a change of `node` matter to `set`: the set's pods may run or stay there, or its
/// `rollingUpdate.selector` picks it? Judged on the node before and after the change.
pub fn interested(set: &DaemonSet, node: &Node) -> bool {
    let spec = nodes::daemon_spec(set);
    let fit = node_fit::fit(&spec, node);
    let picked = set
        .spec
        .update_strategy
        .as_ref()
        .and_then(|s| s.rolling_update.as_ref())
        .and_then(|r| r.selector.clone())
        .and_then(|s| Selector::try_from(s).ok())
        .is_some_and(|s| s.matches(node.labels()));
    fit.should_run || fit.should_continue || picked
}
