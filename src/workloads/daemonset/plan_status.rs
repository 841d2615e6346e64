//! The status of an Advanced DaemonSet (upstream's `updateDaemonSetStatus`), a pure
//! function of its nodes and pods.
//!
//! Invariants: only nodes that should run a pod count towards `desired`, `current`,
//! `ready`, `available` and `updated`, each through the node's first pod (bound, then
//! oldest, then by name; it may be terminating or old); a node with pods that should not
//! run one is misscheduled; the hash is written under both names (`daemonSetHash` for
//! `v1alpha1` readers, `updateRevision` for `v1beta1` ones); other conditions are left as
//! stored, and [`NO_NODE_FITS`] is there exactly while nodes exist and none fits the
//! template (saying why, per reason); the status is planned only when it differs from the
//! stored one.
use std::collections::BTreeMap;

use super::nodes;
use super::round::{NodeEntry, Numbers, Plan, Snapshot, hash, is_available, is_new};
use crate::api::common::Condition;
use crate::api::daemonset::DaemonSetStatus;
use crate::runtime::actions::Problem;
use crate::workloads::common::availability::{self, is_ready};
use crate::workloads::common::node_fit;

/// The condition type that says no node can run the set's pods.
pub const NO_NODE_FITS: &str = "NoNodeFits";

/// Why no node fits (None: some node does, or there are no nodes): the reasons, each with
/// its number of nodes. Example: "none of the 3 nodes can run its pods: 2 nodeSelector or
/// required node affinity does not match, 1 taint dedicated=db:NoSchedule not tolerated".
fn no_node_fits(snapshot: &Snapshot<'_>, entries: &[NodeEntry<'_>]) -> Option<String> {
    if entries.is_empty() || entries.iter().any(|e| e.fit.should_run) {
        return None;
    }
    let spec = nodes::daemon_spec(snapshot.set);
    let mut reasons: BTreeMap<String, usize> = BTreeMap::new();
    for entry in entries {
        let why = node_fit::why_not(&spec, entry.node).unwrap_or_else(|| "does not fit".into());
        *reasons.entry(why).or_default() += 1;
    }
    let listed: Vec<String> = reasons
        .iter()
        .map(|(why, count)| format!("{count} {why}"))
        .collect();
    Some(format!(
        "none of the {} nodes can run its pods: {}",
        entries.len(),
        listed.join(", ")
    ))
}

pub fn plan_status(snapshot: &Snapshot<'_>, n: &Numbers, entries: &[NodeEntry<'_>], plan: &mut Plan) {
    let set = snapshot.set;
    let stored = set.status.clone().unwrap_or_default();
    let mut conditions: Vec<Condition> = stored
        .conditions
        .clone()
        .unwrap_or_default()
        .into_iter()
        .filter(|c| c.type_ != NO_NODE_FITS)
        .collect();
    if let Some(message) = no_node_fits(snapshot, entries) {
        let kept = stored
            .conditions
            .iter()
            .flatten()
            .find(|c| c.type_ == NO_NODE_FITS);
        conditions.push(Condition {
            type_: NO_NODE_FITS.into(),
            status: "True".into(),
            last_transition_time: kept.and_then(|c| c.last_transition_time.clone()).or(Some(
                k8s_openapi::apimachinery::pkg::apis::meta::v1::Time(snapshot.now),
            )),
            reason: Some("NoNodeFits".into()),
            message: Some(message.clone()),
            observed_generation: None,
        });
        plan.problems.push(Problem {
            reason: "NoNodeFits",
            message: format!("DaemonSet {}: {message}", kube::ResourceExt::name_any(set)),
        });
    }
    let mut s = DaemonSetStatus {
        observed_generation: set.metadata.generation,
        collision_count: Some(snapshot.collision_count),
        conditions: (!conditions.is_empty()).then_some(conditions),
        daemon_set_hash: Some(hash(snapshot).to_string()),
        update_revision: Some(hash(snapshot).to_string()),
        ..DaemonSetStatus::default()
    };
    let (mut available, mut ready_pods) = (0, Vec::new());
    for entry in entries {
        if !entry.fit.should_run {
            s.number_misscheduled += i32::from(!entry.pods.is_empty());
            continue;
        }
        s.desired_number_scheduled += 1;
        let Some(pod) = entry.pods.first() else { continue };
        s.current_number_scheduled += 1;
        if is_ready(pod) {
            s.number_ready += 1;
            ready_pods.push(*pod);
            available += i32::from(is_available(snapshot, n, pod));
        }
        s.updated_number_scheduled += i32::from(is_new(snapshot, pod));
    }
    s.number_available = Some(available);
    s.number_unavailable = Some(s.desired_number_scheduled - available);
    if let Some(after) = availability::next_available_in(ready_pods, n.min_ready_seconds, snapshot.now) {
        plan.wake(after);
    }
    if set.status.as_ref() != Some(&s) {
        plan.status = Some(s);
    }
}
