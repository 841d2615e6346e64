use serde_json::json;

use super::*;

fn facts(name: &str) -> PodFacts {
    PodFacts::sample(name)
}

fn names(pods: &[PodFacts]) -> Vec<&str> {
    pods.iter().map(|p| p.name.as_str()).collect()
}

fn with(name: &str, edit: impl FnOnce(&mut PodFacts)) -> PodFacts {
    let mut p = facts(name);
    edit(&mut p);
    p
}

#[test]
fn deletion_takes_unscheduled_pending_unavailable_and_cheap_pods_first() {
    let mut pods = vec![
        facts("healthy"),
        with("cheap", |p| p.deletion_cost = -5),
        with("unavailable", |p| p.available = false),
        with("pending", |p| p.phase_rank = 0),
        with("unscheduled", |p| p.scheduled = false),
        with("costly", |p| p.deletion_cost = 100),
    ];
    sort_for_deletion(&mut pods);
    assert_eq!(
        names(&pods),
        vec![
            "unscheduled",
            "pending",
            "unavailable",
            "cheap",
            "healthy",
            "costly"
        ]
    );
}

#[test]
fn deletion_ties_prefer_recently_ready_then_restarts_then_newer() {
    let mut pods = vec![
        facts("old"),
        with("newer", |p| {
            p.created = Some("2026-11-20T00:00:00Z".parse().expect("time"))
        }),
        with("restarted", |p| p.restarts = 3),
        with("recently-ready", |p| {
            p.ready_since = Some("2026-12-02T00:00:00Z".parse().expect("time"))
        }),
    ];
    sort_for_deletion(&mut pods);
    assert_eq!(names(&pods), vec!["recently-ready", "restarted", "newer", "old"]);
}

#[test]
fn weight_priority_updates_the_heaviest_pods_first_and_keeps_the_default_order_within_a_weight() {
    let strategy: UpdatePriorityStrategy = serde_json::from_value(json!({ "weightPriority": [
        { "weight": 50, "matchSelector": { "matchLabels": { "tier": "canary" } } },
        { "weight": 30, "matchSelector": { "matchExpressions": [ { "key": "zone", "operator": "In", "values": ["a"] } ] } },
    ] }))
    .expect("valid strategy");
    let label = |name: &str, pairs: &[(&str, &str)]| {
        with(name, |p| {
            p.labels = pairs
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect()
        })
    };
    let mut pods = vec![
        label("plain", &[]),
        label("zone-a", &[("zone", "a")]),
        label("canary-zone-a", &[("tier", "canary"), ("zone", "a")]),
        with("not-ready", |p| p.ready = false),
        label("canary", &[("tier", "canary")]),
    ];
    sort_for_update(&mut pods, Some(&strategy));
    assert_eq!(
        names(&pods),
        vec!["canary-zone-a", "canary", "zone-a", "not-ready", "plain"]
    );
}

#[test]
fn order_priority_puts_pods_without_keys_first_then_by_key_and_larger_suffix() {
    let strategy: UpdatePriorityStrategy = serde_json::from_value(
        json!({ "orderPriority": [ { "orderedKey": "batch" }, { "orderedKey": "wave" } ] }),
    )
    .expect("valid strategy");
    let label = |name: &str, key: &str, value: &str| {
        with(name, |p| {
            p.labels.insert(key.into(), value.into());
        })
    };
    let mut pods = vec![
        label("wave-9", "wave", "w9"),
        label("batch-1", "batch", "b1"),
        facts("none"),
        label("batch-12", "batch", "b12"),
    ];
    sort_for_update(&mut pods, Some(&strategy));
    assert_eq!(names(&pods), vec!["none", "batch-12", "batch-1", "wave-9"]);
}

#[test]
fn facts_are_read_from_a_pod() {
    let pod: Pod = serde_json::from_value(json!({
        "metadata": { "name": "p", "creationTimestamp": "2026-12-01T00:00:00Z",
            "annotations": { DELETION_COST_ANNOTATION: "7" } },
        "spec": { "nodeName": "n", "containers": [ { "name": "a" } ] },
        "status": { "phase": "Running",
            "conditions": [ { "type": "Ready", "status": "True", "lastTransitionTime": "2026-12-02T00:00:00Z" } ],
            "containerStatuses": [ { "name": "a", "image": "", "imageID": "", "ready": true, "restartCount": 2 } ] },
    }))
    .expect("valid pod");
    let now: Timestamp = "2026-12-02T00:00:05Z".parse().expect("time");
    let f = PodFacts::from_resource(&pod, 10, now);
    assert!(
        f.scheduled && f.ready && !f.available,
        "ready 5s < minReadySeconds 10: {f:?}"
    );
    assert_eq!((f.phase_rank, f.restarts, f.deletion_cost), (2, 2, 7));
    assert!(PodFacts::from_resource(&pod, 5, now).available);
}

#[test]
fn a_deletion_cost_counts_only_as_a_plain_32_bit_integer() {
    for (text, cost) in [
        ("10", 10),
        ("-5", -5),
        ("0", 0),
        ("+3", 0),
        ("007", 0),
        ("x", 0),
        ("99999999999", 0),
    ] {
        assert_eq!(deletion_cost(text), cost, "{text}");
    }
}

#[test]
fn a_higher_rank_is_deleted_first_after_the_deletion_cost() {
    let mut pods = vec![
        with("low", |p| p.rank = 1),
        with("high", |p| p.rank = 5),
        with("cheap", |p| {
            p.rank = 0;
            p.deletion_cost = -1;
        }),
    ];
    sort_for_deletion(&mut pods);
    assert_eq!(names(&pods), ["cheap", "high", "low"]);
}

#[test]
fn a_pod_without_a_creation_time_counts_as_the_newest() {
    let mut pods = vec![facts("old"), with("unknown", |p| p.created = None)];
    sort_for_deletion(&mut pods);
    assert_eq!(names(&pods), ["unknown", "old"]);
}
