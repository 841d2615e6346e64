//! The CloneSet `Progressing` condition (upstream's `calculateProgressingStatus`), a pure
//! function of the counters, the stored condition and the clock.
//!
//! Rules, first match wins: Available; Paused; partition reached and available; deadline
//! exceeded (sticky until one of the first three holds); otherwise progressing. The
//! deadline counts from the moment the reason became `CloneSetUpdated`: a condition
//! keeps both timestamps when status and reason stay, and its transition time when only
//! the reason changes. With no `progressDeadlineSeconds` (or MaxInt32) there is no
//! condition at all. The deadline test is made only against a stored `CloneSetUpdated`
//! condition, so a rollout that starts after a long Available spell is not timed out at
//! once.
use std::time::Duration;

use k8s_openapi::apimachinery::pkg::apis::meta::v1::Time;
use k8s_openapi::jiff::{SignedDuration, Timestamp};

use super::status::Counters;
use crate::api::cloneset::CloneSetCondition;

pub const PROGRESSING: &str = "Progressing";
pub const REASON_AVAILABLE: &str = "CloneSetAvailable";
pub const REASON_PAUSED: &str = "CloneSetPaused";
pub const REASON_PARTITION_AVAILABLE: &str = "ProgressPartitionAvailable";
pub const REASON_DEADLINE_EXCEEDED: &str = "ProgressDeadlineExceeded";
pub const REASON_UPDATED: &str = "CloneSetUpdated";

#[derive(Debug, Clone)]
pub struct ProgressInput<'a> {
    pub progress_deadline_seconds: Option<i32>,
    pub paused: bool,
    pub spec_replicas: i32,
    pub update_revision: &'a str,
    pub counters: &'a Counters,
    pub stored: Option<&'a CloneSetCondition>,
    pub now: Timestamp,
}

/// The condition to store (None: remove it) and when to look again for the deadline.
pub fn progressing(input: &ProgressInput<'_>) -> (Option<CloneSetCondition>, Option<Duration>) {
    let deadline = match input.progress_deadline_seconds {
        Some(s) if s != i32::MAX && s >= 0 => i64::from(s),
        _ => return (None, None),
    };
    let c = input.counters;
    let stored_reason = input.stored.and_then(|s| s.reason.as_deref());
    let stored_update = input
        .stored
        .and_then(|s| s.last_update_time.as_ref())
        .map(|t| t.0);
    let available = c.current_revision == input.update_revision
        && c.replicas == input.spec_replicas
        && c.updated_replicas == input.spec_replicas
        && c.updated_available_replicas == input.spec_replicas;
    let partition_available = c.expected_updated_replicas < input.spec_replicas
        && c.expected_updated_replicas <= c.updated_available_replicas;
    let deadline_passed = stored_reason == Some(REASON_UPDATED)
        && stored_update.is_some_and(|t| input.now.duration_since(t) > SignedDuration::from_secs(deadline));
    let (status, reason, message) = if available {
        ("True", REASON_AVAILABLE, "CloneSet is available".to_string())
    } else if input.paused {
        ("True", REASON_PAUSED, "CloneSet is paused".to_string())
    } else if partition_available {
        (
            "True",
            REASON_PARTITION_AVAILABLE,
            "CloneSet has been paused due to partition ready".to_string(),
        )
    } else if stored_reason == Some(REASON_DEADLINE_EXCEEDED) || deadline_passed {
        let message = format!(
            "CloneSet revision {} has timed out progressing",
            input.update_revision
        );
        ("False", REASON_DEADLINE_EXCEEDED, message)
    } else {
        ("True", REASON_UPDATED, "CloneSet is progressing".to_string())
    };
    let condition = with_timestamps(input.stored, status, reason, message, input.now);
    let requeue = (reason == REASON_UPDATED)
        .then(|| condition.last_update_time.as_ref().map(|t| t.0))
        .flatten()
        .map(|since| {
            let left = SignedDuration::from_secs(deadline) - input.now.duration_since(since);
            Duration::try_from(left).unwrap_or(Duration::ZERO) + Duration::from_secs(1)
        });
    (Some(condition), requeue)
}

fn with_timestamps(
    stored: Option<&CloneSetCondition>,
    status: &str,
    reason: &str,
    message: String,
    now: Timestamp,
) -> CloneSetCondition {
    let now = Some(Time(now));
    let (update, transition) = match stored {
        Some(s) if s.status == status && s.reason.as_deref() == Some(reason) => {
            (s.last_update_time.clone(), s.last_transition_time.clone())
        }
        Some(s) if s.status == status => (now.clone(), s.last_transition_time.clone()),
        _ => (now.clone(), now),
    };
    CloneSetCondition {
        type_: PROGRESSING.into(),
        status: status.into(),
        last_update_time: update,
        last_transition_time: transition,
        reason: Some(reason.into()),
        message: Some(message),
    }
}

#[cfg(test)]
#[path = "progressing_tests.rs"]
mod tests;
