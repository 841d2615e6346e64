//! The conditions of a UnitedDeployment and of its subsets, built one way: a condition is
//! named by type, status, reason and message ([`condition`]) and gets its transition time
//! from the stored one ([`kept_time`], [`set_condition`]). Pure.
//!
//! Invariant: the transition time is kept while the status stays (reason and message may
//! change), else it is `now`, to the second.
use k8s_openapi::apimachinery::pkg::apis::meta::v1::Time;
use k8s_openapi::jiff::Timestamp;

use crate::api::common::Condition;

fn second(now: Timestamp) -> Time {
    Time(Timestamp::from_second(now.as_second()).unwrap_or(now))
}

/// `wanted` with `previous`'s transition time while the status stays, else `now`.
pub fn kept_time(previous: Option<&Condition>, wanted: Condition, now: Timestamp) -> Condition {
    let transition = previous
        .filter(|c| c.status == wanted.status)
        .and_then(|c| c.last_transition_time.clone())
        .unwrap_or_else(|| second(now));
    Condition {
        last_transition_time: Some(transition),
        ..wanted
    }
}

/// `wanted` (type, status, reason, message) in `conditions`, keeping the stored
/// condition's transition time while its status stays.
pub fn set_condition(conditions: &mut Vec<Condition>, wanted: Condition, now: Timestamp) {
    let previous = conditions.iter().position(|c| c.type_ == wanted.type_);
    let condition = kept_time(previous.map(|i| &conditions[i]), wanted, now);
    match previous {
        Some(i) => conditions[i] = condition,
        None => conditions.push(condition),
    }
}

/// A condition without its time (set by [`set_condition`]).
pub fn condition(type_: &str, status: &str, reason: &str, message: &str) -> Condition {
    Condition {
        type_: type_.into(),
        status: status.into(),
        last_transition_time: None,
        reason: (!reason.is_empty()).then(|| reason.into()),
        message: (!message.is_empty()).then(|| message.into()),
        observed_generation: None,
    }
}
