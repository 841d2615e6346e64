//! The status of an Advanced DaemonSet (reference §1.9), a pure function of its nodes and
//! pods.
//!
//! Invariants: only nodes that should run a pod count towards `desired`, `current`,
//! `ready`, `available` and `updated`, each through the node's first pod (bound, then
//! oldest, then by name; it may be terminating or old); a node with pods that should not
//! run one is misscheduled; the hash is written under both names (`daemonSetHash` for
//! `v1alpha1` readers, `updateRevision` for `v1beta1` ones); conditions are left as
//! stored; the status is planned only when it differs from the stored one.
use super::round::{NodeEntry, Numbers, Plan, Snapshot, hash, is_available, is_new};
use crate::api::daemonset::DaemonSetStatus;
use crate::workloads::common::availability::{self, is_ready};

pub fn plan_status(snapshot: &Snapshot<'_>, n: &Numbers, entries: &[NodeEntry<'_>], plan: &mut Plan) {
    let set = snapshot.set;
    let stored = set.status.clone().unwrap_or_default();
    let mut s = DaemonSetStatus {
        observed_generation: set.metadata.generation,
        collision_count: Some(snapshot.collision_count),
        conditions: stored.conditions.clone(),
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
