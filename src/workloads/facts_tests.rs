//! The kinds' facts: what a partition lets through, per kind.
use serde_json::{Value, json};

use crate::api::KruiseKind;
use crate::workloads::registry::facts;

#[test]
fn the_partition_lets_through_replicas_minus_partition_or_more_when_more_are_updated() {
    let asts = |partition: i64, updated: i64| {
        json!({ "spec": { "replicas": 5, "updateStrategy": { "rollingUpdate": { "partition": partition } } },
            "status": { "updatedReplicas": updated } })
    };
    assert_eq!(facts(KruiseKind::StatefulSet).expected_updated(&asts(3, 1)), 2);
    assert_eq!(facts(KruiseKind::StatefulSet).expected_updated(&asts(3, 4)), 4);
    let cs = json!({ "spec": { "replicas": 5 }, "status": { "expectedUpdatedReplicas": 2, "updatedReplicas": 1 } });
    assert_eq!(facts(KruiseKind::CloneSet).expected_updated(&cs), 2);
    assert_eq!(
        facts(KruiseKind::BroadcastJob).expected_updated(&json!({ "spec": { "replicas": 3 } })),
        3,
        "a kind with no partition expects every replica"
    );
    let ads = |rolling: Value| {
        json!({ "spec": { "updateStrategy": { "rollingUpdate": rolling } },
            "status": { "desiredNumberScheduled": 10, "updatedNumberScheduled": 1 } })
    };
    assert_eq!(
        facts(KruiseKind::DaemonSet).expected_updated(&ads(json!({ "partition": 4 }))),
        6
    );
    assert_eq!(
        facts(KruiseKind::DaemonSet).expected_updated(&ads(json!({ "partition": "25%" }))),
        8
    );
    assert_eq!(
        facts(KruiseKind::DaemonSet)
            .expected_updated(&ads(json!({ "selector": { "matchLabels": { "a": "b" } } }))),
        1
    );
    assert_eq!(facts(KruiseKind::DaemonSet).numbers(&ads(json!({}))).replicas, 10);
    let sidecars = |strategy: Value| {
        json!({ "spec": { "updateStrategy": strategy },
            "status": { "matchedPods": 5, "updatedPods": 1, "readyPods": 5 } })
    };
    assert_eq!(
        facts(KruiseKind::SidecarSet).expected_updated(&sidecars(json!({}))),
        5
    );
    assert_eq!(
        facts(KruiseKind::SidecarSet).expected_updated(&sidecars(json!({ "partition": 2 }))),
        3
    );
    assert_eq!(
        facts(KruiseKind::SidecarSet).expected_updated(&sidecars(json!({ "partition": "50%" }))),
        2,
        "a percent of the matched pods, rounded up"
    );
    assert_eq!(
        facts(KruiseKind::SidecarSet).expected_updated(&sidecars(json!({ "type": "NotUpdate" }))),
        1
    );
}
