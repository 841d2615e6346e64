use crate::runtime::inplace::state::READINESS_GATE;
use serde_json::{Value, json};

use super::*;

fn pod(name: &str, revision: &str, ready: bool, extra: Value) -> Pod {
    let mut conditions = vec![
        json!({ "type": "Ready", "status": if ready { "True" } else { "False" },
        "lastTransitionTime": "2026-12-02T00:00:00Z" }),
    ];
    if let Some(c) = extra.get("inPlace") {
        conditions.push(json!({ "type": READINESS_GATE, "status": c }));
    }
    let mut labels = json!({ REVISION_LABEL: revision });
    if let Some(state) = extra.get("lifecycle") {
        labels[LIFECYCLE_STATE_LABEL] = state.clone();
    }
    serde_json::from_value(json!({
        "metadata": { "name": name, "labels": labels },
        "spec": { "containers": [ { "name": "a" } ] },
        "status": { "phase": "Running", "conditions": conditions },
    }))
    .expect("valid pod")
}

fn input<'a>(current: Option<&'a str>) -> StatusInput<'a> {
    StatusInput {
        spec_replicas: 4,
        partition: 1,
        min_ready_seconds: 0,
        update_revision: "web-v2hash",
        current_revision: current,
        now: "2026-12-02T00:01:00Z".parse().expect("time"),
    }
}

#[test]
fn counters_split_by_revision_readiness_and_availability() {
    let pods = [
        pod("a", "web-v2hash", true, json!({})),
        pod("b", "v2hash", true, json!({ "inPlace": "False" })),
        pod("c", "web-v1hash", true, json!({ "lifecycle": "PreparingDelete" })),
        pod("d", "web-v1hash", false, json!({})),
    ];
    let c = counters(&pods, &input(Some("web-v1hash")));
    assert_eq!((c.replicas, c.ready_replicas, c.available_replicas), (4, 2, 1));
    assert_eq!(
        (
            c.updated_replicas,
            c.updated_ready_replicas,
            c.updated_available_replicas
        ),
        (2, 1, 1)
    );
    assert_eq!(c.expected_updated_replicas, 3);
    assert_eq!(c.current_revision, "web-v1hash", "not all pods updated yet");
}

#[test]
fn the_current_revision_moves_once_every_pod_is_updated_ready_or_not() {
    let pods: Vec<Pod> = (0..4)
        .map(|i| pod(&format!("p{i}"), "web-v2hash", i % 2 == 0, json!({})))
        .collect();
    assert_eq!(
        counters(&pods, &input(Some("web-v1hash"))).current_revision,
        "web-v2hash"
    );
    assert_eq!(
        counters(&pods[..3], &input(Some("web-v1hash"))).current_revision,
        "web-v1hash",
        "3 of 4"
    );
    assert_eq!(
        counters(&[], &input(None)).current_revision,
        "web-v2hash",
        "a new CloneSet starts at the update revision"
    );
}

#[test]
fn min_ready_seconds_delays_availability_only() {
    let pods = [pod("a", "web-v2hash", true, json!({}))];
    let mut i = input(None);
    i.min_ready_seconds = 120;
    let c = counters(&pods, &i);
    assert_eq!((c.ready_replicas, c.available_replicas), (1, 0));
}

#[test]
fn short_and_full_revision_labels_both_match() {
    assert!(is_at_revision(
        &pod("a", "web-v2hash", true, json!({})),
        "web-v2hash"
    ));
    assert!(is_at_revision(&pod("a", "v2hash", true, json!({})), "web-v2hash"));
    assert!(!is_at_revision(
        &pod("a", "web-v1hash", true, json!({})),
        "web-v2hash"
    ));
}
