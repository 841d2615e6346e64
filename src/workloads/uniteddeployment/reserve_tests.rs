use k8s_openapi::apimachinery::pkg::apis::meta::v1::Time;
use serde_json::{Value, json};

use super::*;

const NOW: i64 = 1_800_000_000;
const REV: &str = "web-2";

fn at(second: i64) -> Timestamp {
    Timestamp::from_second(second).expect("a time")
}

fn rules(updated: Option<&Condition>) -> Rules<'_> {
    Rules {
        update_revision: REV,
        updated,
        critical: Duration::from_secs(30),
        hold: Duration::from_secs(300),
        now: at(NOW),
    }
}

/// A pod `name` at `revision`, created `age` s ago, with the reserved label `label`.
fn pod(name: &str, revision: &str, age: i64, label: Option<&str>, status: Value) -> Pod {
    let mut labels = json!({ (crate::workloads::uniteddeployment::render::REVISION_LABEL): revision });
    if let Some(label) = label {
        labels[RESERVED_LABEL] = json!(label);
    }
    serde_json::from_value(json!({ "metadata": { "name": name, "labels": labels,
            "creationTimestamp": at(NOW - age).to_string() },
        "status": status }))
    .expect("a pod")
}

fn pending() -> Value {
    json!({ "phase": "Pending", "conditions": [{ "type": "PodScheduled", "status": "False",
        "reason": "Unschedulable" }] })
}

fn ready_for(seconds: i64) -> Value {
    json!({ "phase": "Running", "conditions": [{ "type": "Ready", "status": "True",
        "lastTransitionTime": at(NOW - seconds).to_string() }] })
}

fn marked() -> Condition {
    Condition {
        last_transition_time: Some(Time(at(NOW - 10))),
        ..condition(super::super::adaptive::CONDITION, "False", "reschedule", "")
    }
}

#[test]
fn a_pod_stuck_on_the_scheduler_past_the_critical_time_is_reserved_and_labelled() {
    let stuck = pod("a", REV, 31, Some("false"), pending());
    let young = pod("b", REV, 10, None, pending());
    let out = subset(None, &[&stuck, &young], &rules(None));
    assert_eq!((out.reserved, out.schedulable), (1, false));
    assert_eq!(out.labels, [("a".to_string(), true), ("b".to_string(), false)]);
    assert_eq!(out.recheck, Some(Duration::from_secs(20)));
    let condition = out.condition.expect("a condition");
    assert_eq!(condition.status, "False");
    assert_eq!(condition.message.as_deref(), Some("reserved pods found"));
}

#[test]
fn pods_created_in_a_marked_subset_start_reserved() {
    let new = pod("a", REV, 1, None, json!({ "phase": "Running" }));
    let out = subset(Some(&marked()), &[&new], &rules(None));
    assert_eq!(out.reserved, 1);
    assert_eq!(out.labels, [("a".to_string(), true)]);
}

#[test]
fn a_reserved_pod_is_released_once_ready_for_the_unschedulable_duration() {
    let recent = pod("a", REV, 400, Some("true"), ready_for(100));
    let out = subset(None, &[&recent], &rules(None));
    assert_eq!(out.reserved, 1);
    assert!(out.labels.is_empty(), "already labelled reserved");
    assert_eq!(out.recheck, Some(Duration::from_secs(200)));

    let settled = pod("a", REV, 400, Some("true"), ready_for(301));
    let out = subset(None, &[&settled], &rules(None));
    assert_eq!((out.reserved, out.schedulable), (0, true));
    assert_eq!(out.labels, [("a".to_string(), false)]);
    assert_eq!(out.condition.expect("a condition").status, "True");
}

#[test]
fn old_pods_are_reserved_once_the_update_has_taken_too_long() {
    let old = pod("a", "web-1", 1000, Some("false"), ready_for(1000));
    let updating = |ago: i64| Condition {
        last_transition_time: Some(Time(at(NOW - ago))),
        ..condition(
            super::super::status::UPDATED,
            "False",
            "UnitedDeploymentRevisionUpdating",
            "",
        )
    };
    let fresh = updating(10);
    let out = subset(None, &[&old], &rules(Some(&fresh)));
    assert_eq!((out.reserved, out.update_timeout), (0, 0));
    assert_eq!(out.recheck, Some(Duration::from_secs(20)));
    let long = updating(31);
    let out = subset(None, &[&old], &rules(Some(&long)));
    assert_eq!((out.reserved, out.update_timeout), (1, 1));
    // Updated (True): old pods held by a partition are not reserved.
    let done = Condition {
        status: "True".into(),
        ..long
    };
    assert_eq!(subset(None, &[&old], &rules(Some(&done))).reserved, 0);
}

#[test]
fn a_recovered_subset_that_grows_is_marked_again() {
    let ok = pod("a", REV, 1000, Some("false"), ready_for(1000));
    let mut out = subset(Some(&marked()), &[&ok], &rules(None));
    assert!(out.schedulable && out.marked);
    after_allocation(&mut out, 1, 1);
    assert_eq!(out.condition.as_ref().expect("a condition").status, "True");
    after_allocation(&mut out, 1, 3);
    let condition = out.condition.expect("a condition");
    assert_eq!(condition.status, "False");
    assert_eq!(
        condition.message.as_deref(),
        Some("subset just recovered scaled up")
    );
}

#[test]
fn an_unschedulable_subset_may_lose_what_is_not_ready_plus_timed_out_updates() {
    assert_eq!(max_unavailable(4, 1, 2), 5);
    assert_eq!(max_unavailable(2, 4, 0), 0);
}
