use k8s_openapi::api::core::v1::Pod;
use k8s_openapi::apimachinery::pkg::apis::meta::v1::Time;
use serde_json::json;

use super::*;

const NOW: i64 = 1_800_000_000;

fn at(second: i64) -> Timestamp {
    Timestamp::from_second(second).expect("a time")
}

fn ud(adaptive: bool) -> UnitedDeployment {
    let strategy = if adaptive {
        json!({ "type": "Adaptive", "adaptive": { "rescheduleCriticalSeconds": 30, "unschedulableDuration": 300 } })
    } else {
        json!({})
    };
    serde_json::from_value(
        json!({ "apiVersion": "apps.kruise.io/v1alpha1", "kind": "UnitedDeployment",
        "metadata": { "name": "web", "namespace": "ns" },
        "spec": { "replicas": 4, "selector": { "matchLabels": { "app": "web" } },
            "topology": { "subsets": [{ "name": "a" }, { "name": "b" }], "scheduleStrategy": strategy } } }),
    )
    .expect("a UnitedDeployment")
}

/// A pod the scheduler could not place, created `age` seconds before NOW.
fn stuck(age: i64) -> Pod {
    serde_json::from_value(json!({ "metadata": { "name": format!("p{age}"),
            "creationTimestamp": at(NOW - age).to_string() },
        "status": { "phase": "Pending", "conditions": [{ "type": "PodScheduled", "status": "False",
            "reason": "Unschedulable" }] } }))
    .expect("a pod")
}

fn marked(status: &str, seconds_ago: i64) -> Condition {
    Condition {
        type_: CONDITION.into(),
        status: status.into(),
        last_transition_time: Some(Time(at(NOW - seconds_ago))),
        reason: Some("reschedule".into()),
        message: None,
        observed_generation: None,
    }
}

#[test]
fn without_the_adaptive_strategy_every_subset_is_schedulable() {
    let pod = stuck(600);
    let out = existing(&ud(false), None, 2, 0, &[&pod], at(NOW));
    assert!(out.schedulable);
    assert_eq!((out.condition, out.recheck), (None, None));
}

#[test]
fn a_pod_unschedulable_past_the_critical_time_marks_the_subset() {
    let pod = stuck(31);
    let out = existing(&ud(true), None, 2, 1, &[&pod], at(NOW));
    assert!(!out.schedulable);
    let condition = out.condition.expect("a condition");
    assert_eq!(
        (condition.status.as_str(), condition.reason.as_deref()),
        ("False", Some("reschedule"))
    );
    assert_eq!(out.recheck, Some(Duration::from_secs(300)));
}

#[test]
fn a_younger_pod_asks_for_a_look_when_it_reaches_the_critical_time() {
    let pod = stuck(10);
    let out = existing(&ud(true), None, 2, 1, &[&pod], at(NOW));
    assert!(out.schedulable);
    assert_eq!(out.recheck, Some(Duration::from_secs(20)));
}

#[test]
fn a_subset_with_every_pod_ready_is_not_marked() {
    let pod = stuck(600);
    let out = existing(&ud(true), None, 2, 2, &[&pod], at(NOW));
    assert!(out.schedulable);
}

#[test]
fn a_marked_subset_stays_unschedulable_for_the_duration_then_recovers() {
    let set = ud(true);
    let held = existing(&set, Some(&marked("False", 100)), 2, 0, &[], at(NOW));
    assert!(!held.schedulable);
    assert_eq!(held.recheck, Some(Duration::from_secs(200)));
    assert_eq!(held.condition, Some(marked("False", 100)));

    let back = existing(&set, Some(&marked("False", 300)), 2, 0, &[], at(NOW));
    assert!(back.schedulable);
    let condition = back.condition.expect("a condition");
    assert_eq!(
        (condition.status.as_str(), condition.reason.as_deref()),
        ("True", Some("recover"))
    );
    assert_eq!(condition.last_transition_time, Some(Time(at(NOW))));
}

#[test]
fn a_schedulable_subset_keeps_its_condition_unchanged() {
    let out = existing(&ud(true), Some(&marked("True", 1000)), 2, 2, &[], at(NOW));
    assert_eq!(out.condition, Some(marked("True", 1000)));
}
