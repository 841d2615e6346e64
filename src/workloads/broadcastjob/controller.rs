//! The BroadcastJob on the shared reconcile driver ([`crate::runtime::driver`]): its
//! snapshot (its labelled pods, every node) and which node changes wake it. It has no
//! reconcile, event or status-write code of its own; a finished job past its TTL is
//! deleted by the driver ([`crate::runtime::driver::Planned::delete_object`]).
//!
//! ```text
//! BroadcastJob event ─┐
//! owned Pod event     ├─> driver: expectations ─> plan (pure) ─> executor ─> events ─> status
//! Node change         ┘   (a node wakes the jobs whose pod would fit it, now or before)
//! ```
//!
//! Pods belong to a job by their controller owner reference (its uid) and the two job
//! labels, as upstream lists them.
use k8s_openapi::api::core::v1::{Node, PodSpec};
use k8s_openapi::jiff::Timestamp;

use super::plan::{self, Snapshot};
use super::{fitness, pods};
use crate::api::broadcastjob::{BroadcastJob, BroadcastJobStatus};
use crate::runtime::controller::{Context, Serve};
use crate::runtime::rbac::{KRUISE, Rule, rule};

/// What it needs beyond the shared runtime's permissions and the shared groups below.
const OWN_RULES: &[Rule] = &[
    // delete: a finished job past its ttlSecondsAfterFinished.
    rule(KRUISE, &["broadcastjobs"], &["list", "watch", "delete"]),
    rule(KRUISE, &["broadcastjobs/status"], &["patch"]),
    rule(KRUISE, &["broadcastjobs/finalizers"], &["update"]),
    rule("", &["pods"], &["create", "delete"]),
];

pub const CONTROLLER: &str = "BroadcastJob";

impl crate::runtime::driver::Reconciled for BroadcastJob {
    const CONTROLLER: &'static str = CONTROLLER;
    const DRIVES: &'static str = "BroadcastJob";
    const CRD: &'static str = "broadcastjobs.apps.kruise.io";
    const RULES: &'static [&'static [Rule]] = &[OWN_RULES];
    type Revisions = crate::runtime::driver::NoRevisions;
    type Status = BroadcastJobStatus;

    /// Node changes that matter to its pods' fitness.
    fn triggers<F>(_serve: &Serve<F>) -> crate::runtime::triggers::Triggers<Self> {
        crate::runtime::triggers::Triggers::new().nodes(interested)
    }

    fn plan(
        &self,
        ctx: &Context,
        _history: &crate::runtime::history::History,
        now: Timestamp,
    ) -> crate::runtime::driver::Planned<BroadcastJobStatus> {
        let owned = crate::runtime::context::owned_pods(ctx, self, CONTROLLER);
        let all_nodes = ctx.watches.nodes.state();
        let snapshot = Snapshot {
            job: self,
            pods: owned
                .iter()
                .map(AsRef::as_ref)
                .filter(|p| pods::is_labelled(self, p))
                .collect(),
            nodes: all_nodes.iter().map(AsRef::as_ref).collect(),
            now,
        };
        plan::plan(&snapshot)
    }
}

/// A BroadcastJob wants no orphan and owns no claim.
impl crate::runtime::controller::Interest for BroadcastJob {}

/// Does a change of `node` matter to `job`: would its pod fit there (judged on the node
/// before and after the change)?
pub fn interested(job: &BroadcastJob, node: &Node) -> bool {
    let spec: PodSpec = job.spec.template.spec.clone().unwrap_or_default();
    fitness::fits(&spec, node)
}
