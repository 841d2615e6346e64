use serde_json::json;

use super::*;
use crate::workloads::podunavailablebudget::budget::tests::{budget, now, pod};

fn counted(allowed: i32) -> serde_json::Value {
    json!({ "observedGeneration": 3, "unavailableAllowed": allowed, "currentAvailable": 8 + allowed,
            "desiredAvailable": 8, "totalReplicas": 10 })
}

#[test]
fn an_allowed_operation_records_the_pod_and_takes_one_unit() {
    let b = budget(json!({ "maxUnavailable": 2 }), counted(2));
    let Verdict::Record(next) = judge(&b, &pod("a", true, json!({})), PubOperation::Delete, now()) else {
        panic!("allowed")
    };
    assert_eq!(next.unavailable_allowed, 1);
    assert!(next.disrupted_pods.as_ref().is_some_and(|m| m.contains_key("a")));
    assert_eq!(next.unavailable_pods, None);
    let Verdict::Record(next) = judge(&b, &pod("a", true, json!({})), PubOperation::Update, now()) else {
        panic!("allowed")
    };
    assert!(
        next.unavailable_pods
            .as_ref()
            .is_some_and(|m| m.contains_key("a"))
    );
}

#[test]
fn the_last_unit_is_taken_once() {
    let b = budget(json!({ "maxUnavailable": 1 }), counted(1));
    let Verdict::Record(next) = judge(&b, &pod("a", true, json!({})), PubOperation::Evict, now()) else {
        panic!("allowed")
    };
    let mut after = b.clone();
    after.status = Some(*next);
    let Verdict::Refused(message) = judge(&after, &pod("b", true, json!({})), PubOperation::Evict, now())
    else {
        panic!("refused")
    };
    assert!(message.contains("PodUnavailableBudget shop/web"), "{message}");
    assert!(message.contains("EVICT of pod b"), "{message}");
    assert!(message.contains("unavailableAllowed 0"), "{message}");
    assert_eq!(
        judge(&after, &pod("a", true, json!({})), PubOperation::Delete, now()),
        Verdict::Unprotected("the budget records the pod already")
    );
}

#[test]
fn what_the_budget_does_not_judge() {
    let full = budget(json!({ "maxUnavailable": 1 }), counted(0));
    let unprotected =
        |b: &PodUnavailableBudget, p: &Pod, op| matches!(judge(b, p, op, now()), Verdict::Unprotected(_));
    let forced = pod(
        "a",
        true,
        json!({ "annotations": { "pub.kruise.io/no-protect": "true" } }),
    );
    assert!(unprotected(&full, &forced, PubOperation::Delete));
    assert!(
        unprotected(&full, &pod("a", false, json!({})), PubOperation::Delete),
        "unready"
    );
    let drained = pod(
        "a",
        true,
        json!({ "labels": { "app": "web", "unavailable-pod.kruise.io/x": "1" } }),
    );
    assert!(unprotected(&full, &drained, PubOperation::Delete));
    let uncounted = budget(json!({ "maxUnavailable": 1 }), json!({}));
    assert!(
        unprotected(&uncounted, &pod("a", true, json!({})), PubOperation::Delete),
        "desired 0"
    );
    let evict_only = budget(
        json!({ "maxUnavailable": 1, "protectOperations": ["EVICT"] }),
        counted(0),
    );
    assert!(unprotected(
        &evict_only,
        &pod("a", true, json!({})),
        PubOperation::Delete
    ));
    assert!(!unprotected(
        &evict_only,
        &pod("a", true, json!({})),
        PubOperation::Evict
    ));
    let ignoring = budget(
        json!({ "maxUnavailable": 1, "ignoredPodSelector": { "matchLabels": { "canary": "true" } } }),
        counted(0),
    );
    let canary = pod("a", true, json!({ "labels": { "app": "web", "canary": "true" } }));
    assert!(unprotected(&ignoring, &canary, PubOperation::Delete));
    assert!(!unprotected(
        &ignoring,
        &pod("a", true, json!({})),
        PubOperation::Delete
    ));
}

#[test]
fn too_many_recorded_pods_refuse_everything() {
    let many: serde_json::Map<String, serde_json::Value> = (0..=MAX_RECORDED)
        .map(|i| (format!("p{i}"), json!("2026-12-07T11:59:59Z")))
        .collect();
    let mut status = counted(5);
    status["disruptedPods"] = serde_json::Value::Object(many);
    let b = budget(json!({ "maxUnavailable": 5 }), status);
    assert!(matches!(
        judge(&b, &pod("a", true, json!({})), PubOperation::Delete, now()),
        Verdict::Refused(m) if m.contains("more than 2000")
    ));
}
