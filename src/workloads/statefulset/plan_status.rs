//! The status of an Advanced StatefulSet, a pure function of its pods.
//!
//! Invariants: `replicas` counts every pod with a phase (terminating ones included);
//! `current*`/`updated*` count non-terminating pods at that revision; `currentRevision`
//! moves to the update revision once every replica is updated and ready (RollingUpdate);
//! conditions are rebuilt every write (only the controller knows a round's write failures);
//! the status is planned only when it differs from the stored one; a ready pod that is not
//! yet available for minReadySeconds wakes the set when it will be (nothing else would).
use k8s_openapi::api::core::v1::Pod;
use kube::core::Selector;

use super::round::{Numbers, Plan, Snapshot};
use crate::api::statefulset::v1beta1::StatefulSetStatus;
use crate::runtime::revision::is_at_revision;
use crate::workloads::common::availability::{self, is_available, is_ready};

pub fn plan_status(snapshot: &Snapshot<'_>, n: &Numbers, pods: &[Pod], plan: &mut Plan) {
    let set = snapshot.set;
    let stored = set.status.clone().unwrap_or_default();
    let mut s = StatefulSetStatus {
        observed_generation: set.metadata.generation,
        current_revision: stored.current_revision.clone(),
        update_revision: Some(snapshot.update.name.to_string()),
        collision_count: Some(snapshot.collision_count),
        // Rebuilt by every status write: the controller adds this round's failure, if any.
        conditions: None,
        label_selector: Selector::try_from(set.spec.selector.clone())
            .ok()
            .map(|s| s.to_string())
            .filter(|s| !s.is_empty()),
        ..StatefulSetStatus::default()
    };
    let (mut updated_ready, mut updated_available) = (0, 0);
    for pod in pods {
        let has_phase = pod
            .status
            .as_ref()
            .and_then(|st| st.phase.as_deref())
            .is_some_and(|p| !p.is_empty());
        if has_phase {
            s.replicas += 1;
        }
        let ready = is_ready(pod);
        let available = is_available(pod, n.min_ready_seconds, snapshot.now);
        s.ready_replicas += i32::from(ready);
        s.available_replicas += i32::from(available);
        if pod.metadata.deletion_timestamp.is_some() {
            continue;
        }
        if is_at_revision(pod, snapshot.current.name) {
            s.current_replicas += 1;
        }
        if is_at_revision(pod, snapshot.update.name) {
            s.updated_replicas += 1;
            updated_ready += i32::from(ready);
            updated_available += i32::from(available);
        }
    }
    s.updated_ready_replicas = Some(updated_ready);
    s.updated_available_replicas = Some(updated_available);
    if s.current_revision.is_none() {
        s.current_revision = Some(snapshot.current.name.to_string());
    }
    if n.rolling
        && s.updated_replicas == n.replicas
        && s.ready_replicas == n.replicas
        && s.replicas == n.replicas
    {
        s.current_revision = Some(snapshot.update.name.to_string());
        s.current_replicas = s.updated_replicas;
    }
    // availableReplicas grows by time alone: look again when the next pod gets there.
    if let Some(after) = availability::next_available_in(pods, n.min_ready_seconds, snapshot.now) {
        plan.wake(after);
    }
    if set.status.as_ref() != Some(&s) {
        plan.status = Some(s);
    }
}
