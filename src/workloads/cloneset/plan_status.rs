//! The status the CloneSet planner wants stored (upstream's `calculateStatus`). Pure.
//!
//! Invariants: the status is proposed only when it differs from the stored one (the
//! Progressing condition keeps its timestamps while its status and reason hold, so an
//! unchanged rollout proposes nothing); `FailedUpdate` is present exactly while the last
//! update phase had to leave a pod alone (InPlaceOnly), and names the pod and why.
use k8s_openapi::api::core::v1::Pod;
use k8s_openapi::apimachinery::pkg::apis::meta::v1::Time;
use kube::core::Selector;

use super::progressing::{PROGRESSING, ProgressInput, progressing};
use super::round::{Numbers, Plan, Snapshot};
use super::status::{StatusInput, counters};
use crate::api::cloneset::{CloneSetCondition, CloneSetStatus};
use crate::workloads::common::availability;

pub const FAILED_UPDATE: &str = "FailedUpdate";
/// The condition of a round whose pod create or delete failed (set by the driver through
/// `with_failure`; each round's plan starts without it, so it goes once a round succeeds).
pub const FAILED_SCALE: &str = "FailedScale";

pub fn plan_status(
    snapshot: &Snapshot<'_>,
    numbers: &Numbers,
    active: &[&Pod],
    update_ran: bool,
    plan: &mut Plan,
) {
    let set = snapshot.set;
    let stored = set.status.clone().unwrap_or_default();
    let c = counters(
        active.iter().copied(),
        &StatusInput {
            spec_replicas: numbers.replicas as i32,
            partition: numbers.partition as i32,
            min_ready_seconds: numbers.min_ready_seconds,
            update_revision: snapshot.update.name,
            current_revision: stored.current_revision.as_deref(),
            now: snapshot.now,
        },
    );
    let mut conditions: Vec<CloneSetCondition> = stored.conditions.clone().unwrap_or_default();
    let stored_progressing = conditions.iter().find(|c| c.type_ == PROGRESSING).cloned();
    let (progress, deadline) = progressing(&ProgressInput {
        progress_deadline_seconds: set.spec.progress_deadline_seconds,
        // Only `paused` pauses the progress; `OnDelete` updates no pod itself but its
        // rollout is progressing (as upstream: users replace the pods).
        paused: set.spec.update().paused.unwrap_or(false),
        spec_replicas: numbers.replicas as i32,
        update_revision: snapshot.update.name,
        counters: &c,
        stored: stored_progressing.as_ref(),
        now: snapshot.now,
    });
    conditions.retain(|c| c.type_ != PROGRESSING);
    conditions.extend(progress);
    // An `InvalidSpec` left from an unreadable or refused spec is dropped by the driver, for
    // every kind.
    conditions.retain(|c| c.type_ != FAILED_SCALE);
    if let Some(after) = deadline {
        plan.wake(after);
    }
    let refused = plan.problems.iter().find(|p| p.reason == FAILED_UPDATE);
    match refused {
        Some(problem) => {
            let keep = conditions
                .iter()
                .find(|c| c.type_ == FAILED_UPDATE)
                .is_some_and(|c| c.message.as_deref() == Some(problem.message.as_str()));
            if !keep {
                conditions.retain(|c| c.type_ != FAILED_UPDATE);
                conditions.push(CloneSetCondition {
                    type_: FAILED_UPDATE.into(),
                    status: "True".into(),
                    last_update_time: Some(Time(snapshot.now)),
                    last_transition_time: Some(Time(snapshot.now)),
                    reason: Some("InPlaceOnly".into()),
                    message: Some(problem.message.clone()),
                });
            }
        }
        None if update_ran => conditions.retain(|c| c.type_ != FAILED_UPDATE),
        None => {}
    }
    // Ready pods not yet available: look again when minReadySeconds has passed.
    if let Some(after) =
        availability::next_available_in(active.iter().copied(), numbers.min_ready_seconds, snapshot.now)
    {
        plan.wake(after);
    }
    let label_selector = Selector::try_from(set.spec.selector.clone())
        .ok()
        .map(|s| s.to_string());
    let proposed = CloneSetStatus {
        observed_generation: set.metadata.generation,
        replicas: c.replicas,
        ready_replicas: c.ready_replicas,
        available_replicas: c.available_replicas,
        updated_replicas: c.updated_replicas,
        updated_ready_replicas: c.updated_ready_replicas,
        updated_available_replicas: Some(c.updated_available_replicas),
        expected_updated_replicas: Some(c.expected_updated_replicas),
        update_revision: Some(snapshot.update.name.to_string()),
        current_revision: Some(c.current_revision),
        collision_count: Some(snapshot.collision_count),
        conditions: (!conditions.is_empty()).then_some(conditions),
        label_selector,
    };
    if proposed != stored {
        plan.status = Some(proposed);
    }
}
