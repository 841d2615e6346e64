//! Property tests: no object shape the API server can store makes a planner panic. Each case
//! starts from a valid CloneSet or Advanced StatefulSet, writes random values (negative
//! and huge numbers, malformed percentages and ranges, wrong types, nulls) at the fields
//! the planners read, and plans every shape that still decodes, with pods in every state.
//! A bad value must end up as a problem (an event), never as a panic.
use std::collections::BTreeMap;

use k8s_openapi::api::core::v1::{Pod, PodTemplateSpec};
use proptest::prelude::*;
use serde_json::{Value, json};

use crate::api::cloneset::CloneSet;
use crate::api::statefulset::v1beta1::StatefulSet;
use crate::runtime::history::Revision;

pub(super) const NOW: &str = "2026-12-03T12:00:00Z";

pub(super) fn template(image: &str) -> Value {
    json!({ "metadata": { "labels": { "app": "web" } },
        "spec": { "readinessGates": [{ "conditionType": "InPlaceUpdateReady" }],
            "containers": [{ "name": "app", "image": image }] } })
}

/// Scalars and small values that break naive parsing.
pub(super) fn odd_value() -> impl Strategy<Value = Value> {
    // Mostly the right JSON types with wrong values (what gets past decoding to a planner),
    // sometimes the wrong type altogether.
    prop_oneof![
        2 => Just(Value::Null),
        1 => any::<bool>().prop_map(Value::Bool),
        8 => prop_oneof![Just(i64::from(i32::MIN)), Just(-1i64), Just(0), Just(1), Just(3), Just(i64::from(i32::MAX)), Just(i64::MAX)]
            .prop_map(|n| json!(n)),
        8 => prop_oneof![
            Just("50%"),
            Just("100%"),
            Just("-10%"),
            Just("101%"),
            Just("%"),
            Just("abc"),
            Just("1-"),
            Just("5-2"),
            Just("0-2000000000"),
            Just("9223372036854775807%"),
            Just(""),
            Just("Parallel"),
            Just("OrderedReady"),
            Just("OnDelete"),
            Just("InPlaceOnly"),
            Just("Delete"),
        ]
        .prop_map(|s| json!(s)),
        1 => Just(json!([1, "2-3", -4, "x"])),
        1 => Just(json!({})),
    ]
}

/// `a/b/c` -> sets `value` there, creating objects on the way (a non-object is replaced).
pub(super) fn set_path(root: &mut Value, path: &str, value: Value) {
    let mut at = root;
    let parts: Vec<&str> = path.split('/').collect();
    for (i, part) in parts.iter().enumerate() {
        if !at.is_object() {
            *at = json!({});
        }
        let Some(obj) = at.as_object_mut() else { return };
        if i + 1 == parts.len() {
            obj.insert((*part).to_string(), value);
            return;
        }
        at = obj.entry((*part).to_string()).or_insert_with(|| json!({}));
    }
}

pub(super) fn pod(i: usize, revision: &str, state: u8) -> Pod {
    let (phase, ready, deleting) = match state % 5 {
        0 => ("Running", "True", false),
        1 => ("Running", "False", false),
        2 => ("Pending", "False", false),
        3 => ("Failed", "False", false),
        _ => ("Running", "True", true),
    };
    let mut value = json!({
        "metadata": { "name": format!("web-{i}"), "namespace": "ns", "uid": format!("u{i}"),
            "resourceVersion": "3",
            "labels": { "app": "web", "controller-revision-hash": revision },
            "ownerReferences": [{ "apiVersion": "apps.kruise.io/v1beta1", "kind": "X", "name": "web",
                "uid": "set", "controller": true }] },
        "spec": { "nodeName": "n", "containers": [{ "name": "app", "image": "nginx:1" }] },
        "status": { "phase": phase, "conditions": [{ "type": "Ready", "status": ready }] },
    });
    if deleting {
        value["metadata"]["deletionTimestamp"] = json!(NOW);
    }
    serde_json::from_value(value).unwrap_or_default()
}

pub(super) fn templates() -> BTreeMap<String, PodTemplateSpec> {
    ["web-old", "web-new"]
        .iter()
        .zip(["nginx:1", "nginx:2"])
        .filter_map(|(n, i)| Some((n.to_string(), serde_json::from_value(template(i)).ok()?)))
        .collect()
}

const CLONESET_PATHS: &[&str] = &[
    "spec/replicas",
    "spec/minReadySeconds",
    "spec/updateStrategy/partition",
    "spec/updateStrategy/maxUnavailable",
    "spec/updateStrategy/maxSurge",
    "spec/updateStrategy/type",
    "spec/updateStrategy/paused",
    "spec/scaleStrategy/maxUnavailable",
    "spec/scaleStrategy/podsToDelete",
    "spec/updateStrategy/inPlaceUpdateStrategy/gracePeriodSeconds",
    "spec/lifecycle/preDelete/labelsHandler",
];

const ASTS_PATHS: &[&str] = &[
    "spec/replicas",
    "spec/podManagementPolicy",
    "spec/reserveOrdinals",
    "spec/ordinals/start",
    "spec/updateStrategy/type",
    "spec/updateStrategy/rollingUpdate/partition",
    "spec/updateStrategy/rollingUpdate/maxUnavailable",
    "spec/updateStrategy/rollingUpdate/podUpdatePolicy",
    "spec/updateStrategy/rollingUpdate/minReadySeconds",
    "spec/updateStrategy/rollingUpdate/paused",
    "spec/scaleStrategy/maxUnavailable",
    "spec/persistentVolumeClaimRetentionPolicy/whenScaled",
];

fn mutations(paths: &'static [&'static str]) -> impl Strategy<Value = Vec<(usize, Value)>> {
    proptest::collection::vec((0..paths.len(), odd_value()), 1..3)
}

pub(super) fn pods_strategy() -> impl Strategy<Value = Vec<(bool, u8)>> {
    proptest::collection::vec((any::<bool>(), any::<u8>()), 0..8)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn no_cloneset_shape_makes_the_planner_panic(changes in mutations(CLONESET_PATHS), states in pods_strategy()) {
        let mut value = json!({ "apiVersion": "apps.kruise.io/v1alpha1", "kind": "CloneSet",
            "metadata": { "name": "web", "namespace": "ns", "uid": "set", "generation": 2 },
            "spec": { "replicas": 3, "selector": { "matchLabels": { "app": "web" } }, "template": template("nginx:2") } });
        for (path, v) in changes {
            set_path(&mut value, CLONESET_PATHS[path], v);
        }
        let Ok(set) = serde_json::from_value::<CloneSet>(value) else { return Ok(()) };
        let pods: Vec<Pod> = states.iter().enumerate()
            .map(|(i, (new, s))| pod(i, if *new { "web-new" } else { "web-old" }, *s)).collect();
        let t = templates();
        let snapshot = crate::workloads::cloneset::plan::Snapshot {
            set: &set,
            pods: pods.iter().collect(),
            claims: Vec::new(),
            update: Revision { name: "web-new", template: &t["web-new"] },
            current: Revision { name: "web-old", template: &t["web-old"] },
            templates: &t,
            collision_count: 0,
            node_labels: &BTreeMap::new(),
            now: NOW.parse().expect("time"),
            features: Default::default(),
        };
        let _ = crate::workloads::cloneset::plan::plan(&snapshot);
    }

    #[test]
    fn no_advanced_statefulset_shape_makes_the_planner_panic(changes in mutations(ASTS_PATHS), states in pods_strategy()) {
        let mut value = json!({ "apiVersion": "apps.kruise.io/v1beta1", "kind": "StatefulSet",
            "metadata": { "name": "web", "namespace": "ns", "uid": "set", "generation": 2 },
            "spec": { "replicas": 3, "selector": { "matchLabels": { "app": "web" } }, "template": template("nginx:2") } });
        for (path, v) in changes {
            set_path(&mut value, ASTS_PATHS[path], v);
        }
        let Ok(set) = serde_json::from_value::<StatefulSet>(value) else { return Ok(()) };
        let pods: Vec<Pod> = states.iter().enumerate()
            .map(|(i, (new, s))| pod(i, if *new { "web-new" } else { "web-old" }, *s)).collect();
        let t = templates();
        let snapshot = crate::workloads::statefulset::plan::Snapshot {
            set: &set,
            pods: pods.iter().collect(),
            orphans: Vec::new(),
            claims: &Default::default(),
            update: Revision { name: "web-new", template: &t["web-new"] },
            current: Revision { name: "web-old", template: &t["web-old"] },
            templates: &t,
            collision_count: 0,
            now: NOW.parse().expect("time"),
        };
        let _ = crate::workloads::statefulset::plan::plan(&snapshot);
    }
}

#[test]
fn huge_replicas_are_refused_with_the_field_named_instead_of_planned() {
    let mut value = json!({ "apiVersion": "apps.kruise.io/v1beta1", "kind": "StatefulSet",
        "metadata": { "name": "web", "namespace": "ns", "uid": "set", "generation": 2 },
        "spec": { "replicas": 3, "selector": { "matchLabels": { "app": "web" } }, "template": template("nginx:2") } });
    set_path(&mut value, "spec/replicas", json!(i32::MAX));
    set_path(&mut value, "spec/podManagementPolicy", json!("Parallel"));
    let set: StatefulSet = serde_json::from_value(value).expect("decodes");
    let t = templates();
    let snapshot = crate::workloads::statefulset::plan::Snapshot {
        set: &set,
        pods: Vec::new(),
        orphans: Vec::new(),
        claims: &Default::default(),
        update: Revision {
            name: "web-new",
            template: &t["web-new"],
        },
        current: Revision {
            name: "web-old",
            template: &t["web-old"],
        },
        templates: &t,
        collision_count: 0,
        now: NOW.parse().expect("time"),
    };
    let started = std::time::Instant::now();
    let plan = crate::workloads::statefulset::plan::plan(&snapshot);
    assert!(plan.actions.is_empty(), "nothing planned");
    assert!(
        plan.problems
            .iter()
            .any(|p| p.message.contains("spec.replicas 2147483647")),
        "{:?}",
        plan.problems
    );
    assert!(
        started.elapsed() < std::time::Duration::from_secs(1),
        "{:?}",
        started.elapsed()
    );
}

#[test]
fn most_mutated_shapes_still_decode_so_the_planners_are_exercised() {
    use proptest::strategy::ValueTree;
    let mut runner = proptest::test_runner::TestRunner::deterministic();
    let mut decoded = 0;
    for _ in 0..200 {
        let changes = mutations(ASTS_PATHS)
            .new_tree(&mut runner)
            .expect("tree")
            .current();
        let mut value = json!({ "apiVersion": "apps.kruise.io/v1beta1", "kind": "StatefulSet",
            "metadata": { "name": "web" },
            "spec": { "replicas": 3, "selector": { "matchLabels": { "app": "web" } }, "template": template("nginx:2") } });
        for (path, v) in changes {
            set_path(&mut value, ASTS_PATHS[path], v);
        }
        decoded += usize::from(serde_json::from_value::<StatefulSet>(value).is_ok());
    }
    assert!(decoded >= 50, "only {decoded} of 200 shapes decoded");
}
