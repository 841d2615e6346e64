//! A UnitedDeployment's status, pure: the sums over its subset workloads, the revisions,
//! the per-subset entries and the conditions.
//!
//! Invariants:
//! - `replicas` and `readyReplicas` sum the subset workloads' own status; `updatedReplicas`
//!   counts their active pods labelled with the update revision, `updatedReadyReplicas`
//!   those also ready.
//! - `currentRevision` moves to the update revision once `updatedReadyReplicas` reaches
//!   `replicas`; both API versions' names of the update revision are written.
//! - Every topology subset has one `subsetStatuses` entry (its allocation, ready pods,
//!   partition and, under the Adaptive strategy, its `Schedulable` condition).
//! - A condition's transition time changes only when its status does; `SubsetProvisioned`
//!   and `SubsetUpdated` are set True by a round that created, deleted or updated a subset
//!   workload and otherwise kept.
//! - Reservation mode: `replicas` leaves the reserved pods out, `reservedPods` counts them
//!   (in total and per subset), and `labelSelector` selects only unreserved pods.
//! - None is returned when nothing differs from the stored status (no write).
use std::collections::BTreeMap;

use k8s_openapi::jiff::Timestamp;
use kube::core::Selector;

use super::adaptive::Scheduling;
use super::conditions::{condition, set_condition};
use super::render::SubsetRead;
use crate::api::uniteddeployment::{
    UnitedDeployment, UnitedDeploymentStatus, UnitedDeploymentSubsetStatus, UpdateStatus,
};

pub const UPDATED: &str = "UnitedDeploymentUpdated";
pub const PROVISIONED: &str = "SubsetProvisioned";
pub const SUBSET_UPDATED: &str = "SubsetUpdated";
/// The `labelSelector` suffix in reservation mode: the scale subresource counts only the
/// pods that are not reserved (`super::reserve::RESERVED_LABEL`).
pub const SELECTOR_SUFFIX: &str = ",apps.kruise.io/united-deployment-reserved-pod=false";

/// The pods of the subset workloads, counted.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Counted {
    pub replicas: i32,
    pub ready: i32,
    pub updated: i32,
    pub updated_ready: i32,
}

/// What the status is computed from.
pub struct Input<'a> {
    pub ud: &'a UnitedDeployment,
    pub update_revision: &'a str,
    pub current_revision: &'a str,
    pub collision_count: i32,
    pub allocation: &'a BTreeMap<String, i32>,
    pub partitions: &'a BTreeMap<String, i32>,
    pub reads: &'a BTreeMap<&'a str, SubsetRead>,
    pub scheduling: &'a BTreeMap<&'a str, Scheduling>,
    /// Reservation mode: the reserved pods per subset (None: not in reservation mode).
    pub reserved: Option<&'a BTreeMap<&'a str, i32>>,
    pub counted: Counted,
    /// This round creates or deletes a subset workload.
    pub provisioned: bool,
    /// This round updates a subset workload.
    pub updated: bool,
    pub now: Timestamp,
}

/// The status this round computes, when it differs from the stored one.
pub fn status(input: &Input) -> Option<UnitedDeploymentStatus> {
    let ud = input.ud;
    let stored = ud.status.clone().unwrap_or_default();
    let counted = input.counted;
    let update = input.update_revision.to_owned();
    let current = if input.current_revision != update && counted.updated_ready >= counted.replicas {
        update.clone()
    } else {
        input.current_revision.to_owned()
    };
    let mut conditions = stored.conditions.clone().unwrap_or_default();
    let updated = if current == update {
        condition(
            UPDATED,
            "True",
            "UnitedDeploymentRevisionUpdated",
            &format!("updated to revision {update}"),
        )
    } else {
        condition(
            UPDATED,
            "False",
            "UnitedDeploymentRevisionUpdating",
            &format!("updating to revision {update}"),
        )
    };
    let flipped = conditions
        .iter()
        .find(|c| c.type_ == UPDATED)
        .is_none_or(|c| c.status != updated.status);
    if flipped {
        set_condition(&mut conditions, updated, input.now);
    }
    if input.provisioned {
        set_condition(&mut conditions, condition(PROVISIONED, "True", "", ""), input.now);
    }
    if input.updated {
        set_condition(
            &mut conditions,
            condition(SUBSET_UPDATED, "True", "", ""),
            input.now,
        );
    }
    let subset_statuses = input
        .allocation
        .iter()
        .map(|(name, replicas)| UnitedDeploymentSubsetStatus {
            name: Some(name.clone()),
            replicas: Some(*replicas),
            ready_replicas: Some(input.reads.get(name.as_str()).map_or(0, |r| r.ready_replicas)),
            partition: Some(input.partitions.get(name).copied().unwrap_or(0)),
            reserved_pods: input.reserved.map(|r| r.get(name.as_str()).copied().unwrap_or(0)),
            conditions: input
                .scheduling
                .get(name.as_str())
                .and_then(|s| s.condition.clone())
                .map(|c| vec![c]),
        })
        .collect();
    let reserved: Option<i32> = input.reserved.map(|r| r.values().sum());
    let suffix = if reserved.is_some() { SELECTOR_SUFFIX } else { "" };
    let proposed = UnitedDeploymentStatus {
        observed_generation: ud.metadata.generation,
        replicas: counted.replicas - reserved.unwrap_or(0),
        ready_replicas: Some(counted.ready),
        updated_replicas: counted.updated,
        updated_ready_replicas: Some(counted.updated_ready),
        reserved_pods: reserved,
        collision_count: Some(input.collision_count),
        current_revision: current,
        subset_replicas: Some(input.allocation.clone()),
        subset_statuses: Some(subset_statuses),
        conditions: Some(conditions),
        update_status: Some(UpdateStatus {
            updated_revision: Some(update.clone()),
            current_partitions: Some(input.partitions.clone()),
        }),
        updated_revision: Some(update),
        label_selector: Selector::try_from(ud.spec.selector.clone())
            .ok()
            .map(|s| format!("{s}{suffix}")),
    };
    (ud.status.as_ref() != Some(&proposed)).then_some(proposed)
}
