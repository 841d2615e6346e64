//! Decode fuzzing of every kind: random values (wrong types, nulls, huge and negative
//! numbers, odd strings, nested junk) written at random places of real manifests, or keys
//! removed. Whatever the shape, reading it as a [`Decoded`] never panics and never fails
//! while the metadata reads; a shape the typed reader refuses names the bad field.
use proptest::prelude::*;
use serde_json::{Value, json};

use super::{Decoded, decode};
use crate::api::{
    broadcastjob::BroadcastJob, cloneset::CloneSet, cronjob::AdvancedCronJob, daemonset::DaemonSet,
    sidecarset::SidecarSet, statefulset::v1beta1::StatefulSet, uniteddeployment::UnitedDeployment,
    workloadspread::WorkloadSpread,
};

const FIXTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/");

fn fixture(file: &str, kind: &str) -> Value {
    let path = format!("{FIXTURES}{file}");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("reading {path}: {e}"));
    let docs: Vec<Value> =
        serde_saphyr::from_multiple(&text).unwrap_or_else(|e| panic!("parsing {path}: {e}"));
    docs.into_iter()
        .find(|d| d["kind"] == kind)
        .unwrap_or_else(|| panic!("no {kind} in {path}"))
}

fn template() -> Value {
    json!({ "metadata": { "labels": { "app": "x" } },
        "spec": { "containers": [ { "name": "app", "image": "nginx:1" } ] } })
}

/// One real manifest per kind (the handbook's where it has one).
fn samples() -> Vec<(&'static str, Value)> {
    vec![
        ("CloneSet", fixture("cloneset-guestbook.yaml", "CloneSet")),
        (
            "StatefulSet",
            fixture("advanced-statefulset-sample.yaml", "StatefulSet"),
        ),
        ("BroadcastJob", fixture("broadcastjob-ttl.yaml", "BroadcastJob")),
        ("SidecarSet", fixture("sidecarset-test.yaml", "SidecarSet")),
        (
            "UnitedDeployment",
            fixture("uniteddeployment-sample.yaml", "UnitedDeployment"),
        ),
        (
            "DaemonSet",
            json!({ "apiVersion": "apps.kruise.io/v1alpha1", "kind": "DaemonSet",
            "metadata": { "name": "ds" },
            "spec": { "selector": { "matchLabels": { "app": "x" } }, "template": template(),
                "updateStrategy": { "type": "RollingUpdate", "rollingUpdate": {
                    "type": "InPlaceIfPossible", "maxUnavailable": "10%", "partition": 1 } } } }),
        ),
        (
            "AdvancedCronJob",
            json!({ "apiVersion": "apps.kruise.io/v1alpha1", "kind": "AdvancedCronJob",
            "metadata": { "name": "cron" },
            "spec": { "schedule": "*/5 * * * *", "concurrencyPolicy": "Forbid",
                "template": { "broadcastJobTemplate": { "spec": { "template": template(),
                    "completionPolicy": { "type": "Always", "ttlSecondsAfterFinished": 30 } } } } } }),
        ),
        (
            "WorkloadSpread",
            json!({ "apiVersion": "apps.kruise.io/v1alpha1", "kind": "WorkloadSpread",
            "metadata": { "name": "ws" },
            "spec": { "targetRef": { "apiVersion": "apps.kruise.io/v1alpha1", "kind": "CloneSet", "name": "web" },
                "subsets": [ { "name": "a", "maxReplicas": 3, "requiredNodeSelectorTerm": {
                    "matchExpressions": [ { "key": "zone", "operator": "In", "values": ["a"] } ] } },
                    { "name": "b", "maxReplicas": "50%" } ] } }),
        ),
    ]
}

fn odd_value() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        prop_oneof![
            Just(i64::MIN),
            Just(-1i64),
            Just(0),
            Just(i64::from(i32::MAX) + 1),
            Just(i64::MAX)
        ]
        .prop_map(|n| json!(n)),
        Just(json!(1.5)),
        Just(json!(-1e300)),
        prop_oneof![
            Just(""),
            Just("50%"),
            Just("-10%"),
            Just("%"),
            Just("abc"),
            Just("*/x * *"),
            Just("\u{0}\u{ffff}")
        ]
        .prop_map(|s| json!(s)),
        Just(json!([])),
        Just(json!([null, 1, "a", {}])),
        Just(json!({})),
        Just(json!({ "unknown": { "deeper": [1] } })),
    ]
}

/// Every JSON pointer in `value` below the root.
fn pointers(value: &Value, at: String, out: &mut Vec<String>) {
    match value {
        Value::Object(map) => {
            for (k, v) in map {
                let p = format!("{at}/{}", k.replace('~', "~0").replace('/', "~1"));
                out.push(p.clone());
                pointers(v, p, out);
            }
        }
        Value::Array(items) => {
            for (i, v) in items.iter().enumerate() {
                let p = format!("{at}/{i}");
                out.push(p.clone());
                pointers(v, p, out);
            }
        }
        _ => {}
    }
}

/// Applies each (selector, value) edit: replace the chosen node, or drop it when the value
/// is an odd `[]` roll of the dice on an object member.
fn mutate(doc: &mut Value, edits: &[(usize, Value, bool)]) {
    for (selector, value, remove) in edits {
        let mut all = Vec::new();
        pointers(doc, String::new(), &mut all);
        // metadata must stay readable (the API server guarantees it): edits go elsewhere.
        all.retain(|p| !p.starts_with("/metadata") && p != "/apiVersion" && p != "/kind");
        if all.is_empty() {
            return;
        }
        let pointer = &all[selector % all.len()];
        let (parent, key) = pointer.rsplit_once('/').unwrap_or(("", pointer));
        if *remove && let Some(Value::Object(map)) = doc.pointer_mut(parent) {
            map.remove(&key.replace("~1", "/").replace("~0", "~"));
        } else if let Some(node) = doc.pointer_mut(pointer) {
            *node = value.clone();
        }
    }
}

fn read_as(kind: &str, value: &mut Value) -> Option<String> {
    fn field<K: serde::de::DeserializeOwned>(value: &mut Value) -> Option<String> {
        let decoded: Decoded<K> = decode(value).expect("readable metadata always decodes");
        decoded.object.err().map(|u| u.field.clone())
    }
    match kind {
        "CloneSet" => field::<CloneSet>(value),
        "StatefulSet" => field::<StatefulSet>(value),
        "BroadcastJob" => field::<BroadcastJob>(value),
        "SidecarSet" => field::<SidecarSet>(value),
        "UnitedDeployment" => field::<UnitedDeployment>(value),
        "DaemonSet" => field::<DaemonSet>(value),
        "AdvancedCronJob" => field::<AdvancedCronJob>(value),
        "WorkloadSpread" => field::<WorkloadSpread>(value),
        other => panic!("no reader for {other}"),
    }
}

#[test]
fn every_sample_reads() {
    for (kind, mut doc) in samples() {
        assert_eq!(read_as(kind, &mut doc), None, "{kind} sample does not read");
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    #[test]
    fn no_shape_of_any_kind_panics_and_a_refused_one_names_its_field(
        which in 0usize..8,
        edits in prop::collection::vec((any::<usize>(), odd_value(), prop::bool::weighted(0.2)), 1..6),
    ) {
        let (kind, mut doc) = samples().swap_remove(which);
        mutate(&mut doc, &edits);
        if let Some(field) = read_as(kind, &mut doc) {
            // The path names a field under the object (never an empty path), except when
            // a whole top-level part such as `spec` was replaced.
            prop_assert!(!field.is_empty(), "{kind}: refused without a path");
            prop_assert!(field != ".", "{kind}: refused at the root");
        }
    }
}
