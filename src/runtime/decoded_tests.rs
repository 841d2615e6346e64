use serde_json::{Value, json};

use super::*;
use crate::api::cloneset::CloneSet;

fn cloneset(spec_template_spec: Value) -> Value {
    json!({
        "apiVersion": "apps.kruise.io/v1alpha1", "kind": "CloneSet",
        "metadata": { "name": "web", "namespace": "ns", "uid": "u1",
            "managedFields": [ { "manager": "kubectl" } ] },
        "spec": { "replicas": 2, "selector": { "matchLabels": { "app": "web" } },
            "template": { "metadata": { "labels": { "app": "web" } }, "spec": spec_template_spec } },
    })
}

#[test]
fn a_readable_object_is_read_without_its_managed_fields() {
    let mut value = cloneset(json!({ "containers": [ { "name": "a", "image": "nginx:1" } ] }));
    let decoded: Decoded<CloneSet> = decode(&mut value).expect("metadata reads");
    let set = decoded.object.expect("readable");
    assert_eq!(set.meta().managed_fields, None);
    assert_eq!(decoded.meta.name.as_deref(), Some("web"));
    assert_eq!(decoded.meta.managed_fields, None);
}

#[test]
fn an_unreadable_object_keeps_its_metadata_and_names_the_bad_field() {
    // The template is schemaless in the CRD, so the API server stores this.
    let mut value = cloneset(json!({ "containers": [ { "name": "a", "image": "nginx:1",
        "ports": [ { "containerPort": "http" } ] } ] }));
    value["status"] = json!({ "replicas": 2, "readyReplicas": 2 });
    let decoded: Decoded<CloneSet> =
        serde_json::from_value(value).expect("never fails on a readable metadata");
    assert_eq!(decoded.meta.uid.as_deref(), Some("u1"));
    let unreadable = decoded.object.expect_err("unreadable");
    assert_eq!(
        unreadable.field,
        "spec.template.spec.containers[0].ports[0].containerPort"
    );
    assert!(unreadable.error.contains("invalid type"), "{}", unreadable.error);
    assert!(
        unreadable
            .message()
            .starts_with("cannot read spec.template.spec.containers[0].ports[0].containerPort: ")
    );
    assert_eq!(
        unreadable.status,
        Some(json!({ "replicas": 2, "readyReplicas": 2 }))
    );
}

#[test]
fn unreadable_metadata_is_the_only_failure() {
    let mut value = cloneset(json!({}));
    value["metadata"]["labels"] = json!("not a map");
    assert!(decode::<CloneSet>(&mut value).is_err());
}

#[test]
fn a_list_with_one_unreadable_object_still_reads_the_others() {
    let good = cloneset(json!({ "containers": [ { "name": "a", "image": "nginx:1" } ] }));
    let bad = cloneset(json!({ "containers": "oops" }));
    let list: Vec<Decoded<CloneSet>> = serde_json::from_value(json!([good, bad])).expect("the list reads");
    assert!(list[0].object.is_ok());
    assert_eq!(
        list[1].object.as_ref().expect_err("bad").field,
        "spec.template.spec.containers"
    );
}

fn unreadable(status: Option<Value>) -> Unreadable {
    Unreadable {
        field: "spec.template.spec.containers".into(),
        error: "invalid type: string \"oops\", expected a sequence".into(),
        status,
    }
}

#[test]
fn the_status_of_an_unreadable_object_keeps_what_was_stored_and_adds_the_condition() {
    let blank = json!({ "replicas": 0, "readyReplicas": 0 });
    let stored = json!({ "replicas": 3, "updateRevision": "web-1",
        "conditions": [ { "type": "FailedScale", "status": "True" },
                        { "type": "InvalidSpec", "status": "True", "message": "old" } ] });
    let status = unreadable_status(&unreadable(Some(stored)), blank.clone(), "2026-12-03T00:00:00Z");
    assert_eq!(status["replicas"], 3);
    assert_eq!(status["readyReplicas"], 0);
    assert_eq!(status["updateRevision"], "web-1");
    let conditions = status["conditions"].as_array().expect("conditions");
    assert_eq!(conditions.len(), 2);
    assert_eq!(conditions[0]["type"], "FailedScale");
    assert_eq!(conditions[1]["type"], INVALID_SPEC);
    assert_eq!(conditions[1]["reason"], UNREADABLE);
    assert!(
        conditions[1]["message"]
            .as_str()
            .expect("message")
            .contains("spec.template.spec.containers")
    );

    let missing = unreadable_status(&unreadable(None), blank, "2026-12-03T00:00:00Z");
    assert_eq!(missing["replicas"], 0);
    assert_eq!(missing["conditions"].as_array().map(Vec::len), Some(1));
}

#[test]
fn the_same_problem_keeps_its_transition_time() {
    let first = unreadable_status(&unreadable(None), json!({}), "2026-12-03T00:00:00Z");
    let again = unreadable_status(
        &unreadable(Some(first.clone())),
        json!({}),
        "2026-12-03T01:00:00Z",
    );
    assert_eq!(first, again);
}

#[test]
fn a_missing_required_field_is_named_with_its_parent() {
    assert_eq!(field_of(".", "missing field `spec`"), "spec");
    assert_eq!(
        field_of("spec.template", "missing field `spec`"),
        "spec.template.spec"
    );
    assert_eq!(
        field_of("spec.replicas", "invalid type: string \"x\", expected i32"),
        "spec.replicas"
    );
}
