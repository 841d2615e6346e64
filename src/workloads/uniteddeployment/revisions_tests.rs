use serde_json::{Value, json};

use super::*;

/// A UnitedDeployment `web` with a CloneSet template running `image`; `extra` is merged into
/// its spec.
fn ud(image: &str, extra: Value) -> UnitedDeployment {
    let mut doc = json!({ "apiVersion": "apps.kruise.io/v1alpha1", "kind": "UnitedDeployment",
        "metadata": { "name": "web", "namespace": "ns", "uid": "uid-1" },
        "spec": { "replicas": 4, "selector": { "matchLabels": { "app": "web" } },
            "template": { "cloneSetTemplate": { "metadata": { "labels": { "app": "web" } },
                "spec": { "selector": { "matchLabels": { "app": "web" } },
                    "template": { "metadata": { "labels": { "app": "web" } },
                        "spec": { "containers": [{ "name": "app", "image": image }] } } } } },
            "topology": { "subsets": [{ "name": "a" }, { "name": "b" }] } } });
    if let (Some(spec), Some(extra)) = (doc["spec"].as_object_mut(), extra.as_object()) {
        spec.extend(extra.clone());
    }
    serde_json::from_value(doc).expect("a UnitedDeployment")
}

fn known(name: &str, revision: i64, ud: &UnitedDeployment) -> KnownRevision {
    KnownRevision {
        name: name.into(),
        revision,
        created: format!("2026-01-01T00:00:0{revision}Z"),
        data: payload(ud),
    }
}

fn created(step: RevisionStep) -> (String, i64) {
    match step {
        RevisionStep::Create { name, revision, .. } => (name, revision),
        other => panic!("expected a new revision, got {other:?}"),
    }
}

#[test]
fn the_payload_is_the_whole_template_replaced() {
    let payload = payload(&ud("nginx:1", json!({})));
    let template = &payload["spec"]["template"];
    assert_eq!(template["$patch"], "replace");
    assert_eq!(
        template["cloneSetTemplate"]["spec"]["template"]["spec"]["containers"][0]["image"],
        "nginx:1"
    );
}

#[test]
fn only_the_template_cuts_a_revision() {
    let first = ud("nginx:1", json!({}));
    let (name, revision) = created(step(&first, &[]));
    assert!(name.starts_with("web-"), "{name}");
    assert_eq!(revision, 1);
    let existing = [known(&name, 1, &first)];
    let rescaled = ud(
        "nginx:1",
        json!({ "replicas": 9, "updateStrategy": { "manualUpdate": { "partitions": { "a": 2 } } },
            "topology": { "subsets": [{ "name": "a" }, { "name": "c" }] } }),
    );
    assert_eq!(
        step(&rescaled, &existing),
        RevisionStep::Current { name: name.clone() }
    );
    let (second, revision) = created(step(&ud("nginx:2", json!({})), &existing));
    assert_ne!(second, name);
    assert_eq!(revision, 2);
}

#[test]
fn going_back_to_an_older_template_reuses_its_revision() {
    let (old, new) = (ud("nginx:1", json!({})), ud("nginx:2", json!({})));
    let existing = [known("web-old", 1, &old), known("web-new", 2, &new)];
    assert_eq!(
        step(&old, &existing),
        RevisionStep::Reuse {
            name: "web-old".into(),
            revision: 3
        }
    );
}

#[test]
fn a_collision_count_changes_the_name() {
    let mut collided = ud("nginx:1", json!({}));
    let (plain, _) = created(step(&collided, &[]));
    collided.status = Some(crate::api::uniteddeployment::UnitedDeploymentStatus {
        collision_count: Some(1),
        ..Default::default()
    });
    let (bumped, _) = created(step(&collided, &[]));
    assert_ne!(plain, bumped);
}

#[test]
fn labels_are_the_template_labels_and_the_hash() {
    let labels = labels(&ud("nginx:1", json!({})), "abc");
    assert_eq!(labels.get("app").map(String::as_str), Some("web"));
    assert_eq!(labels.get(HASH_LABEL).map(String::as_str), Some("abc"));
}

#[test]
fn the_current_revision_is_the_recorded_one_while_it_exists() {
    let mut set = ud("nginx:1", json!({}));
    let existing = [known("web-a", 1, &set), known("web-b", 2, &set)];
    assert_eq!(current(&set, &existing, "web-b"), "web-b");
    set.status = Some(crate::api::uniteddeployment::UnitedDeploymentStatus {
        current_revision: "web-a".into(),
        ..Default::default()
    });
    assert_eq!(current(&set, &existing, "web-b"), "web-a");
    assert_eq!(current(&set, &existing[1..], "web-b"), "web-b");
}

#[test]
fn truncation_keeps_the_limit_and_never_the_current_or_update_revision() {
    let set = ud("nginx:1", json!({ "revisionHistoryLimit": 2 }));
    let existing: Vec<KnownRevision> = (1..=5).map(|i| known(&format!("web-{i}"), i, &set)).collect();
    assert_eq!(
        to_truncate(&set, &existing, "web-1", "web-5"),
        ["web-2", "web-3", "web-4"]
    );
    assert!(to_truncate(&set, &existing[..2], "web-1", "web-2").is_empty());
}
