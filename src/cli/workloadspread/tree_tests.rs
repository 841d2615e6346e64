use serde_json::{Value, json};

use super::*;
use crate::api::workloadspread::MATCHED_WORKLOADSPREAD_ANNOTATION;
use crate::cli::glyphs::{ASCII, UNICODE};

fn spread(subsets: Value, status: Value) -> WorkloadSpread {
    serde_json::from_value(json!({
        "apiVersion": "apps.kruise.io/v1alpha1", "kind": "WorkloadSpread",
        "metadata": { "name": "spread", "namespace": "shop" },
        "spec": {
            "targetRef": { "apiVersion": "apps.kruise.io/v1alpha1", "kind": "CloneSet", "name": "web" },
            "subsets": subsets,
        },
        "status": status,
    }))
    .expect("workloadspread")
}

/// A pod of the CloneSet `web`; `placed`: the WorkloadSpread and subset its annotation
/// names; `state`: `ready` (Running and Ready) or a phase (not Ready); `node`: empty when
/// unscheduled.
fn pod(name: &str, placed: Option<(&str, &str)>, state: &str, node: &str) -> Pod {
    let mut annotations = json!({});
    if let Some((ws, subset)) = placed {
        let value = json!({ "name": ws, "subset": subset }).to_string();
        annotations[MATCHED_WORKLOADSPREAD_ANNOTATION] = json!(value);
    }
    let (phase, ready) = match state {
        "ready" => ("Running", "True"),
        phase => (phase, "False"),
    };
    let node = (!node.is_empty()).then_some(node);
    serde_json::from_value(json!({
        "metadata": { "name": name, "namespace": "shop", "annotations": annotations,
            "ownerReferences": [{ "apiVersion": "apps.kruise.io/v1alpha1", "kind": "CloneSet",
                "name": "web", "uid": "u1", "controller": true }] },
        "spec": { "containers": [{ "name": "app", "image": "nginx" }], "nodeName": node },
        "status": { "phase": phase, "conditions": [{ "type": "Ready", "status": ready }] },
    }))
    .expect("pod")
}

fn three_zones() -> WorkloadSpread {
    spread(
        json!([
            { "name": "zone-a", "maxReplicas": 2 },
            { "name": "zone-b", "maxReplicas": "30%" },
            { "name": "zone-c" },
        ]),
        json!({ "subsetStatuses": [
            { "name": "zone-a", "replicas": 2, "missingReplicas": 0 },
            { "name": "zone-b", "replicas": 1, "missingReplicas": 1,
              "conditions": [{ "type": "Schedulable", "status": "False", "reason": "PodUnschedulable" }] },
            { "name": "zone-c", "replicas": 2, "missingReplicas": -1 },
        ] }),
    )
}

#[test]
fn subsets_in_spec_order_with_their_pods_then_the_pods_in_no_subset() {
    let pods = [
        pod("web-def34", Some(("spread", "zone-a")), "ready", "node-a2"),
        pod("web-abc12", Some(("spread", "zone-a")), "ready", "node-a1"),
        pod("web-ghi56", Some(("spread", "zone-b")), "Pending", ""),
        pod("web-mno90", Some(("spread", "zone-c")), "Running", "node-c1"),
        pod("web-pqr12", Some(("spread", "zone-c")), "ready", "node-c2"),
        pod("web-jkl78", None, "ready", "node-x"),
    ];
    assert_eq!(
        render(&three_zones(), Some(6), &pods, UNICODE),
        "workloadspread/spread  (CloneSet web, 6 replicas)
├─ subset zone-a  max 2  actual 2  missing 0
│  ├─ ✔ web-abc12  ready      node-a1
│  └─ ✔ web-def34  ready      node-a2
├─ subset zone-b  max 2  actual 1  missing 1  unschedulable (PodUnschedulable)
│  └─ ◌ web-ghi56  Pending
├─ subset zone-c  max unlimited  actual 2
│  ├─ ◌ web-mno90  not ready  node-c1
│  └─ ✔ web-pqr12  ready      node-c2
└─ in no subset (created while the webhook was down, or fitting no subset)  1 pod
   └─ ⚠ web-jkl78  Running    node-x
"
    );
}

#[test]
fn ascii_glyphs_and_no_last_group_when_every_pod_is_placed() {
    let pods = [
        pod("web-a", Some(("spread", "zone-a")), "ready", "n1"),
        pod("web-b", Some(("spread", "zone-c")), "Failed", "n2"),
    ];
    assert_eq!(
        render(&three_zones(), Some(6), &pods, ASCII),
        "workloadspread/spread  (CloneSet web, 6 replicas)
|- subset zone-a  max 2  actual 2  missing 0
|  `- ok web-a  ready   n1
|- subset zone-b  max 2  actual 1  missing 1  unschedulable (PodUnschedulable)
`- subset zone-c  max unlimited  actual 2
   `- x web-b  Failed  n2
"
    );
}

#[test]
fn other_spreads_and_unknown_subsets_go_to_no_subset_and_counts_come_from_pods_without_status() {
    let ws = spread(
        json!([{ "name": "zone-a", "maxReplicas": "50%" }, { "name": "zone-b" }]),
        json!(null),
    );
    let pods = [
        pod("web-a", Some(("spread", "zone-a")), "ready", ""),
        pod("web-b", Some(("other", "zone-a")), "ready", ""),
        pod("web-c", Some(("spread", "gone")), "Pending", ""),
    ];
    assert_eq!(
        render(&ws, None, &pods, ASCII),
        "workloadspread/spread  (CloneSet web, not found)
|- subset zone-a  max 0  actual 1  missing 0
|  `- ok web-a  ready
|- subset zone-b  max unlimited  actual 0
`- in no subset (created while the webhook was down, or fitting no subset)  2 pods
   |- ! web-b  Running
   `- ! web-c  Pending
"
    );
    let title = &groups(&ws, Some(3), &pods[..1], ASCII)[0].title;
    assert_eq!(title, "subset zone-a  max 2  actual 1  missing 1");
}

#[test]
fn in_flight_pods_are_noted_on_the_subset_line() {
    let ws = spread(
        json!([{ "name": "zone-a", "maxReplicas": 3 }]),
        json!({ "subsetStatuses": [{ "name": "zone-a", "replicas": 1, "missingReplicas": 1,
            "creatingPods": { "web-x": "2026-12-04T00:00:00Z" },
            "deletingPods": { "web-y": "2026-12-04T00:00:00Z", "web-z": "2026-12-04T00:00:00Z" } }] }),
    );
    assert_eq!(
        groups(&ws, Some(3), &[], ASCII)[0].title,
        "subset zone-a  max 3  actual 1  missing 1  creating 1  deleting 2"
    );
}

fn owned(name: &str, owner: Value) -> Pod {
    serde_json::from_value(json!({ "metadata": { "name": name, "ownerReferences": [owner] } })).expect("pod")
}

#[test]
fn target_pods_follow_the_controller_chain_ignoring_the_version() {
    let target = TargetReference {
        api_version: "apps/v1".into(),
        kind: "Deployment".into(),
        name: "web".into(),
    };
    let controller = |api: &str, kind: &str, name: &str| json!({ "apiVersion": api, "kind": kind, "name": name, "uid": "u", "controller": true });
    let replicasets: Vec<ReplicaSet> = vec![
        serde_json::from_value(json!({ "metadata": { "name": "web-5d8f",
            "ownerReferences": [controller("apps/v1", "Deployment", "web")] } }))
        .expect("rs"),
        serde_json::from_value(json!({ "metadata": { "name": "api-7c9e",
            "ownerReferences": [controller("apps/v1", "Deployment", "api")] } }))
        .expect("rs"),
    ];
    let mut not_controller = controller("apps/v1beta2", "Deployment", "web");
    not_controller["controller"] = json!(false);
    let pods = vec![
        owned("through-rs", controller("apps/v1", "ReplicaSet", "web-5d8f")),
        owned(
            "direct-other-version",
            controller("apps/v1beta2", "Deployment", "web"),
        ),
        owned("other-rs", controller("apps/v1", "ReplicaSet", "api-7c9e")),
        owned(
            "other-group",
            controller("apps.kruise.io/v1alpha1", "Deployment", "web"),
        ),
        owned("not-controller", not_controller),
    ];
    let kept: Vec<String> = target_pods(&target, pods, &replicasets)
        .iter()
        .map(|p| p.name_any())
        .collect();
    assert_eq!(kept, ["through-rs", "direct-other-version"]);
}
