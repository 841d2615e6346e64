use k8s_openapi::api::core::v1::{Node, PodSpec};
use serde_json::json;

use super::*;
use crate::workloads::common::node_fit::{Fit, NOT_FIT, fit};

fn node(name: &str, labels: serde_json::Value, taints: serde_json::Value) -> Node {
    serde_json::from_value(json!({ "metadata": { "name": name, "labels": labels },
        "spec": { "taints": taints } }))
    .expect("node")
}

fn spec(value: serde_json::Value) -> PodSpec {
    let mut doc = json!({ "containers": [{ "name": "c", "image": "i" }] });
    doc.as_object_mut()
        .expect("object")
        .extend(value.as_object().expect("object").clone());
    serde_json::from_value(doc).expect("pod spec")
}

const RUN: Fit = Fit {
    should_run: true,
    should_continue: true,
};
const KEEP_ONLY: Fit = Fit {
    should_run: false,
    should_continue: true,
};

#[test]
fn node_selector_affinity_and_taints_decide_as_upstream() {
    let plain = node("n1", json!({ "zone": "a", "gen": "5" }), json!([]));
    let cases = [
        ("nothing asked", json!({}), &plain, RUN),
        (
            "selector matches",
            json!({ "nodeSelector": { "zone": "a" } }),
            &plain,
            RUN,
        ),
        (
            "selector misses",
            json!({ "nodeSelector": { "zone": "b" } }),
            &plain,
            NOT_FIT,
        ),
        ("other nodeName", json!({ "nodeName": "n2" }), &plain, NOT_FIT),
        ("own nodeName", json!({ "nodeName": "n1" }), &plain, RUN),
        (
            "affinity In",
            json!({ "affinity": { "nodeAffinity": { "requiredDuringSchedulingIgnoredDuringExecution": {
                "nodeSelectorTerms": [{ "matchExpressions": [{ "key": "zone", "operator": "In", "values": ["a"] }] }] } } } }),
            &plain,
            RUN,
        ),
        (
            "affinity Gt fails, second term by name holds",
            json!({ "affinity": { "nodeAffinity": { "requiredDuringSchedulingIgnoredDuringExecution": {
                "nodeSelectorTerms": [
                    { "matchExpressions": [{ "key": "gen", "operator": "Gt", "values": ["7"] }] },
                    { "matchFields": [{ "key": "metadata.name", "operator": "In", "values": ["n1"] }] }] } } } }),
            &plain,
            RUN,
        ),
        (
            "an empty term matches nothing",
            json!({ "affinity": { "nodeAffinity": { "requiredDuringSchedulingIgnoredDuringExecution": {
                "nodeSelectorTerms": [{}] } } } }),
            &plain,
            NOT_FIT,
        ),
    ];
    for (what, value, node, want) in cases {
        assert_eq!(fit(&with_daemon_tolerations(&spec(value)), node), want, "{what}");
    }
}

#[test]
fn taints_stop_new_pods_and_only_no_execute_evicts() {
    let daemon = with_daemon_tolerations(&spec(json!({})));
    let no_schedule = node(
        "n",
        json!({}),
        json!([{ "key": "dedicated", "value": "db", "effect": "NoSchedule" }]),
    );
    let no_execute = node(
        "n",
        json!({}),
        json!([{ "key": "dedicated", "effect": "NoExecute" }]),
    );
    let prefer = node(
        "n",
        json!({}),
        json!([{ "key": "dedicated", "effect": "PreferNoSchedule" }]),
    );
    assert_eq!(fit(&daemon, &no_schedule), KEEP_ONLY);
    assert_eq!(fit(&daemon, &no_execute), NOT_FIT);
    assert_eq!(fit(&daemon, &prefer), RUN);
    // The daemon defaults tolerate the node-lifecycle taints but not not-ready:NoSchedule.
    let unschedulable = node(
        "n",
        json!({}),
        json!([{ "key": "node.kubernetes.io/unschedulable", "effect": "NoSchedule" }]),
    );
    let not_ready = node(
        "n",
        json!({}),
        json!([{ "key": "node.kubernetes.io/not-ready", "effect": "NoSchedule" }]),
    );
    let unreachable = node(
        "n",
        json!({}),
        json!([{ "key": "node.kubernetes.io/unreachable", "effect": "NoExecute" }]),
    );
    assert_eq!(fit(&daemon, &unschedulable), RUN);
    assert_eq!(fit(&daemon, &not_ready), KEEP_ONLY);
    assert_eq!(fit(&daemon, &unreachable), RUN);
    let tolerating = with_daemon_tolerations(&spec(json!({ "tolerations": [
        { "key": "dedicated", "operator": "Equal", "value": "db", "effect": "NoSchedule" }] })));
    assert_eq!(fit(&tolerating, &no_schedule), RUN);
    let everything = with_daemon_tolerations(&spec(json!({ "tolerations": [{ "operator": "Exists" }] })));
    assert_eq!(fit(&everything, &no_execute), RUN);
}

#[test]
fn daemon_tolerations_are_added_once_and_network_only_with_host_network() {
    let once = with_daemon_tolerations(&with_daemon_tolerations(&spec(json!({}))));
    assert_eq!(once.tolerations.as_ref().map(Vec::len), Some(6));
    let host = with_daemon_tolerations(&spec(json!({ "hostNetwork": true })));
    assert_eq!(host.tolerations.as_ref().map(Vec::len), Some(7));
}
