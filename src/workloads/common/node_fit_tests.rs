use k8s_openapi::api::core::v1::{Pod, PodSpec};
use serde_json::json;

use super::*;

fn spec(value: serde_json::Value) -> PodSpec {
    let mut doc = json!({ "containers": [{ "name": "c", "image": "i" }] });
    doc.as_object_mut()
        .expect("object")
        .extend(value.as_object().expect("object").clone());
    serde_json::from_value(doc).expect("pod spec")
}

#[test]
fn a_pinned_pod_names_its_node_and_keeps_preferred_terms() {
    let mut pinned = spec(json!({ "affinity": { "nodeAffinity": {
        "requiredDuringSchedulingIgnoredDuringExecution": { "nodeSelectorTerms": [
            { "matchExpressions": [{ "key": "zone", "operator": "In", "values": ["a"] }] }] },
        "preferredDuringSchedulingIgnoredDuringExecution": [{ "weight": 1, "preference": {
            "matchExpressions": [{ "key": "ssd", "operator": "Exists" }] } }] } } }));
    pin_to_node(&mut pinned, "n7");
    let pod = Pod {
        spec: Some(pinned.clone()),
        ..Pod::default()
    };
    assert_eq!(node_of(&pod), Some("n7"));
    let affinity = pinned
        .affinity
        .and_then(|a| a.node_affinity)
        .expect("node affinity");
    assert!(
        affinity
            .preferred_during_scheduling_ignored_during_execution
            .is_some()
    );
    let bound = Pod {
        spec: Some(spec(json!({ "nodeName": "n3" }))),
        ..Pod::default()
    };
    assert_eq!(node_of(&bound), Some("n3"));
    assert_eq!(node_of(&Pod::default()), None);
}
