//! Table tests for placing a new pod into a subset.
use serde_json::json;

use super::*;

fn now() -> Timestamp {
    "2026-12-04T12:00:00Z".parse().expect("time")
}

fn spread(kind: &str, subsets: Value, status: Value) -> WorkloadSpread {
    serde_json::from_value(
        json!({ "apiVersion": "apps.kruise.io/v1alpha1", "kind": "WorkloadSpread",
        "metadata": { "name": "spread", "namespace": "shop" },
        "spec": { "targetRef": { "apiVersion": "apps.kruise.io/v1alpha1", "kind": kind, "name": "web" },
            "subsets": subsets },
        "status": status }),
    )
    .expect("workloadspread")
}

fn zones() -> Value {
    json!([
        { "name": "zone-a", "maxReplicas": 2,
          "requiredNodeSelectorTerm": { "matchExpressions": [
              { "key": "topology.kubernetes.io/zone", "operator": "In", "values": ["a"] }] } },
        { "name": "zone-b", "maxReplicas": 2, "tolerations": [{ "key": "spot", "operator": "Exists" }] },
        { "name": "zone-c", "patch": { "metadata": { "labels": { "zone": "c" } } } },
    ])
}

fn pod(name: Option<&str>, owner: &str, labels: Value) -> Pod {
    serde_json::from_value(json!({ "metadata": { "name": name, "namespace": "shop", "labels": labels,
            "ownerReferences": [{ "apiVersion": "apps/v1", "kind": owner, "name": "web-rs", "uid": "u", "controller": true }] },
        "spec": { "containers": [{ "name": "app", "image": "nginx" }] } }))
    .expect("pod")
}

fn missing(p: &Placement, version: &str) -> Vec<i32> {
    p.status
        .as_ref()
        .expect("a status write")
        .versioned_subset_statuses
        .as_ref()
        .expect("versions")[version]
        .iter()
        .map(|s| s.missing_replicas)
        .collect()
}

#[test]
fn pods_fill_the_subsets_in_order_and_each_limited_one_is_recorded() {
    let ws = spread("CloneSet", zones(), json!({}));
    let first = place(
        &ws,
        &pod(Some("web-1"), "CloneSet", json!({})),
        0,
        now(),
        String::new,
    );
    assert_eq!(first.subset.as_deref(), Some("zone-a"));
    assert_eq!(missing(&first, VERSION_IGNORED), [1, 2, -1]);
    let mut ws = ws;
    ws.status = first.status.clone();
    let again = place(
        &ws,
        &pod(Some("web-1"), "CloneSet", json!({})),
        0,
        now(),
        String::new,
    );
    assert_eq!(
        (again.subset.as_deref(), again.status),
        (Some("zone-a"), None),
        "a retried create keeps its subset"
    );
    let second = place(
        &ws,
        &pod(Some("web-2"), "CloneSet", json!({})),
        0,
        now(),
        String::new,
    );
    assert_eq!(missing(&second, VERSION_IGNORED), [0, 2, -1]);
    ws.status = second.status;
    let third = place(&ws, &pod(None, "CloneSet", json!({})), 0, now(), || {
        "uid-3".into()
    });
    assert_eq!(third.subset.as_deref(), Some("zone-b"));
    assert_eq!(third.generated_uid.as_deref(), Some("uid-3"));
    let list = &third
        .status
        .as_ref()
        .expect("status")
        .versioned_subset_statuses
        .as_ref()
        .expect("v")[VERSION_IGNORED];
    assert!(
        list[1]
            .creating_pods
            .as_ref()
            .expect("creating")
            .contains_key("uid-3")
    );
    ws.status = third.status;
    for name in ["web-4", "web-5"] {
        let p = place(
            &ws,
            &pod(Some(name), "CloneSet", json!({})),
            0,
            now(),
            String::new,
        );
        ws.status = p.status.clone().or(ws.status.clone());
    }
    let unlimited = place(
        &ws,
        &pod(Some("web-6"), "CloneSet", json!({})),
        0,
        now(),
        String::new,
    );
    assert_eq!(
        (unlimited.subset.as_deref(), unlimited.status),
        (Some("zone-c"), None),
        "unlimited: no write"
    );
}

#[test]
fn percents_versions_unschedulable_subsets_and_no_room() {
    let ws = spread(
        "Deployment",
        json!([{ "name": "a", "maxReplicas": "50%" }, { "name": "b", "maxReplicas": "50%" }]),
        json!({ "versionedSubsetStatuses": { "old": [
            { "name": "a", "replicas": 3, "missingReplicas": 0 }, { "name": "b", "replicas": 3, "missingReplicas": 0 }] } }),
    );
    let new = pod(Some("web-x"), "ReplicaSet", json!({ "pod-template-hash": "new" }));
    let placed = place(&ws, &new, 5, now(), String::new);
    assert_eq!(placed.subset.as_deref(), Some("a"));
    assert_eq!(
        missing(&placed, "new"),
        [2, 3],
        "50% of 5 rounds up to 3, one taken"
    );
    let old = pod(Some("web-y"), "ReplicaSet", json!({ "pod-template-hash": "old" }));
    let full = place(&ws, &old, 5, now(), String::new);
    assert_eq!(
        (full.subset, full.status),
        (None, None),
        "no room: admitted unplaced"
    );
    let blocked = spread(
        "CloneSet",
        json!([{ "name": "a", "maxReplicas": 2 }, { "name": "b" }]),
        json!({ "versionedSubsetStatuses": { "versionIgnored": [
            { "name": "a", "replicas": 0, "missingReplicas": 2,
              "conditions": [{ "type": "Schedulable", "status": "False", "reason": "PodUnschedulable",
                  "lastTransitionTime": "2026-12-04T11:00:00Z", "message": "" }] },
            { "name": "b", "replicas": 0, "missingReplicas": -1 }] } }),
    );
    let moved = place(
        &blocked,
        &pod(Some("web-1"), "CloneSet", json!({})),
        0,
        now(),
        String::new,
    );
    assert_eq!(
        moved.subset.as_deref(),
        Some("b"),
        "an unschedulable subset is skipped"
    );
}

#[test]
fn a_statefulset_is_placed_by_ordinal_and_one_unlimited_subset_takes_all() {
    let ws = spread(
        "StatefulSet",
        json!([{ "name": "a", "maxReplicas": 2 }, { "name": "b", "maxReplicas": 2 }, { "name": "c" }]),
        json!({}),
    );
    let subset = |name: &str| {
        place(
            &ws,
            &pod(Some(name), "StatefulSet", json!({})),
            0,
            now(),
            String::new,
        )
    };
    assert_eq!(subset("db-1").subset.as_deref(), Some("a"));
    assert_eq!(subset("db-2").subset.as_deref(), Some("b"));
    assert_eq!(subset("db-7").subset.as_deref(), Some("c"));
    assert_eq!(subset("db-1").status, None);
    let one = spread("CloneSet", json!([{ "name": "all" }]), json!({}));
    let placed = place(
        &one,
        &pod(Some("web-1"), "CloneSet", json!({})),
        0,
        now(),
        String::new,
    );
    assert_eq!((placed.subset.as_deref(), placed.status), (Some("all"), None));
}

#[test]
fn injection_ands_the_required_term_appends_tolerations_and_applies_the_patch() {
    let ws = spread("CloneSet", zones(), json!({}));
    let pod = json!({ "metadata": { "name": "web-1", "labels": { "app": "web" } },
        "spec": { "containers": [{ "name": "app", "image": "nginx" }],
            "affinity": { "nodeAffinity": { "requiredDuringSchedulingIgnoredDuringExecution": { "nodeSelectorTerms": [
                { "matchExpressions": [{ "key": "disk", "operator": "In", "values": ["ssd"] }] },
                { "matchExpressions": [{ "key": "disk", "operator": "In", "values": ["nvme"] }] }] } } } } });
    let a = inject(&ws, &pod, "zone-a", None).expect("injected");
    let terms = &a["spec"]["affinity"]["nodeAffinity"]["requiredDuringSchedulingIgnoredDuringExecution"]["nodeSelectorTerms"];
    for term in terms.as_array().expect("terms") {
        assert_eq!(
            term["matchExpressions"][1]["key"], "topology.kubernetes.io/zone",
            "{term}"
        );
    }
    assert_eq!(
        a["metadata"]["annotations"][MATCHED_WORKLOADSPREAD_ANNOTATION],
        r#"{"name":"spread","subset":"zone-a"}"#
    );
    let b = inject(&ws, &pod, "zone-b", Some("uid-1")).expect("injected");
    assert_eq!(
        b["spec"]["tolerations"],
        json!([{ "key": "spot", "operator": "Exists" }])
    );
    assert!(
        b["metadata"]["annotations"][MATCHED_WORKLOADSPREAD_ANNOTATION]
            .as_str()
            .expect("annotation")
            .contains(r#""uid":"uid-1""#)
    );
    let c = inject(&ws, &pod, "zone-c", None).expect("injected");
    assert_eq!(c["metadata"]["labels"], json!({ "app": "web", "zone": "c" }));
}
