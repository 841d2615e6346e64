//! CloneSet status counters (upstream's `calculateStatus`), a pure function of the active pods.
//!
//! Invariants: `updated* <= ` their all-pods counterparts; `available` implies `ready`;
//! `currentRevision` moves to the update revision only once every one of `spec.replicas`
//! pods is updated (readiness not required); a pod mid in-place update
//! (`InPlaceUpdateReady` present and not True) is never counted ready.
//! The `Progressing` condition is computed in [`super::progressing`].
use k8s_openapi::api::core::v1::Pod;
use k8s_openapi::jiff::Timestamp;

pub use crate::runtime::lifecycle::STATE_LABEL as LIFECYCLE_STATE_LABEL;
pub use crate::runtime::revision::REVISION_LABEL;

pub use crate::runtime::revision::is_at_revision;

pub use crate::workloads::common::availability::{is_available, is_ready, ready_since};

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Counters {
    pub replicas: i32,
    pub ready_replicas: i32,
    pub available_replicas: i32,
    pub updated_replicas: i32,
    pub updated_ready_replicas: i32,
    pub updated_available_replicas: i32,
    pub expected_updated_replicas: i32,
    pub current_revision: String,
}

/// Inputs besides the pods.
#[derive(Debug, Clone)]
pub struct StatusInput<'a> {
    pub spec_replicas: i32,
    /// Resolved partition (see `numbers::partition`).
    pub partition: i32,
    pub min_ready_seconds: i64,
    pub update_revision: &'a str,
    /// `status.currentRevision` as stored (None on a new CloneSet).
    pub current_revision: Option<&'a str>,
    pub now: Timestamp,
}

/// Counters over the ACTIVE pods (not terminating, not Succeeded/Failed).
pub fn counters<'p>(active_pods: impl IntoIterator<Item = &'p Pod>, input: &StatusInput<'_>) -> Counters {
    let mut c = Counters::default();
    for pod in active_pods {
        let (ready, available) = (
            is_ready(pod),
            is_available(pod, input.min_ready_seconds, input.now),
        );
        c.replicas += 1;
        c.ready_replicas += i32::from(ready);
        c.available_replicas += i32::from(available);
        if is_at_revision(pod, input.update_revision) {
            c.updated_replicas += 1;
            c.updated_ready_replicas += i32::from(ready);
            c.updated_available_replicas += i32::from(available);
        }
    }
    c.expected_updated_replicas = (input.spec_replicas - input.partition).max(0);
    let all_updated = c.updated_replicas == c.replicas && c.replicas == input.spec_replicas;
    c.current_revision = match input.current_revision {
        Some(current) if !all_updated => current.to_string(),
        _ => input.update_revision.to_string(),
    };
    c
}

#[cfg(test)]
#[path = "status_tests.rs"]
mod tests;
