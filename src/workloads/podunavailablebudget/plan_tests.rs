use std::time::Duration;

use k8s_openapi::api::core::v1::Pod;
use serde_json::json;

use super::*;
use crate::workloads::podunavailablebudget::budget::tests::{budget, now, pod};

fn named(name: &str) -> Pod {
    pod(
        name,
        true,
        json!({ "annotations": { RELATED_PUB_ANNOTATION: "web", OLD_RELATED_PUB_ANNOTATION: "web" } }),
    )
}

fn patched(planned: &Planned<PodUnavailableBudgetStatus>) -> Vec<&str> {
    planned
        .actions
        .iter()
        .filter_map(|a| match a {
            Action::PatchPod {
                name,
                why: Why::RelatedBudget,
                ..
            } => Some(name.as_str()),
            _ => None,
        })
        .collect()
}

#[test]
fn the_budget_is_named_once_on_each_active_pod_it_counts() {
    let b = budget(
        json!({ "selector": { "matchLabels": { "app": "web" } }, "maxUnavailable": 1 }),
        json!({}),
    );
    let pods = [
        named("a"),
        pod("b", true, json!({})),
        pod(
            "c",
            true,
            json!({ "annotations": { OLD_RELATED_PUB_ANNOTATION: "web" } }),
        ),
        pod("d", true, json!({ "deletionTimestamp": "2026-12-07T11:59:00Z" })),
    ];
    let planned = plan(&Snapshot {
        budget: &b,
        pods: pods.iter().collect(),
        expected: 3,
        now: now(),
    });
    assert_eq!(patched(&planned), ["b", "c"]);
    let status = planned.status.expect("a status");
    assert_eq!(
        (
            status.current_available,
            status.desired_available,
            status.unavailable_allowed
        ),
        (3, 2, 1)
    );
    assert_eq!(related(&pods[2]), Some("web"));
}

#[test]
fn an_unchanged_status_is_not_written_and_a_record_brings_the_round_back() {
    let spec = json!({ "selector": { "matchLabels": { "app": "web" } }, "maxUnavailable": 1 });
    let stored = json!({ "observedGeneration": 3, "unavailableAllowed": 0, "currentAvailable": 1,
                         "desiredAvailable": 1, "totalReplicas": 2,
                         "disruptedPods": { "b": "2026-12-07T11:59:58Z" } });
    let b = budget(spec, stored);
    let pods = [named("a"), named("b")];
    let planned = plan(&Snapshot {
        budget: &b,
        pods: pods.iter().collect(),
        expected: 2,
        now: now(),
    });
    assert_eq!(planned.status, None);
    assert!(planned.actions.is_empty());
    assert_eq!(planned.requeue_after, Some(Duration::from_secs(18)));
}

#[test]
fn a_refused_spec_is_planned_no_further() {
    let b = budget(json!({ "maxUnavailable": 1 }), json!({}));
    let pods = [pod("a", true, json!({}))];
    let planned = plan(&Snapshot {
        budget: &b,
        pods: pods.iter().collect(),
        expected: 1,
        now: now(),
    });
    assert!(
        planned
            .refused
            .is_some_and(|m| m.contains("spec.selector, spec.targetRef"))
    );
    assert!(planned.actions.is_empty());
}

#[test]
fn no_pods_is_said_once() {
    let b = budget(
        json!({ "selector": { "matchLabels": { "app": "web" } }, "maxUnavailable": 1 }),
        json!({}),
    );
    let planned = plan(&Snapshot {
        budget: &b,
        pods: vec![],
        expected: 0,
        now: now(),
    });
    assert_eq!(planned.notices.len(), 1);
    let mut counted = b.clone();
    counted.status = planned.status.clone();
    let again = plan(&Snapshot {
        budget: &counted,
        pods: vec![],
        expected: 0,
        now: now(),
    });
    assert!(again.notices.is_empty() && again.status.is_none());
}
