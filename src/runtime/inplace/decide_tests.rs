use proptest::prelude::*;
use serde_json::{Value, json};

use super::*;

fn template(value: Value) -> PodTemplateSpec {
    serde_json::from_value(value).expect("valid template")
}

fn base() -> Value {
    json!({
        "metadata": { "labels": { "app": "web" }, "annotations": { "note": "a" } },
        "spec": { "containers": [
            { "name": "app", "image": "nginx:1", "env": [ { "name": "ZONE",
                "valueFrom": { "fieldRef": { "fieldPath": "metadata.labels['zone']" } } } ] },
            { "name": "side", "image": "busybox:1" } ] },
    })
}

fn changed(edit: impl FnOnce(&mut Value)) -> PodTemplateSpec {
    let mut v = base();
    edit(&mut v);
    template(v)
}

#[test]
fn equal_templates_need_nothing() {
    assert_eq!(decide(&template(base()), &template(base())), Decision::Unchanged);
}

#[test]
fn an_image_change_is_in_place_for_that_container_only() {
    let new = changed(|v| v["spec"]["containers"][1]["image"] = json!("busybox:2"));
    let Decision::InPlace { images, metadata } = decide(&template(base()), &new) else {
        panic!("not in place")
    };
    assert_eq!(
        images.into_iter().collect::<Vec<_>>(),
        vec![("side".to_string(), "busybox:2".to_string())]
    );
    assert!(metadata.is_empty());
}

#[test]
fn label_and_annotation_changes_are_in_place_and_name_added_changed_and_removed_keys() {
    let new = changed(|v| {
        v["metadata"]["labels"] = json!({ "app": "web", "tier": "front" });
        v["metadata"]["annotations"] = json!({});
    });
    let decision = decide(&template(base()), &new);
    assert!(!decision.restarts_containers());
    let Decision::InPlace { images, metadata } = decision else {
        panic!("not in place")
    };
    assert!(images.is_empty());
    assert_eq!(metadata.labels_set.get("tier").map(String::as_str), Some("front"));
    assert_eq!(metadata.annotations_removed, vec!["note".to_string()]);
}

#[test]
fn recreate_cases_name_what_changed() {
    let cases: Vec<(&str, PodTemplateSpec, &str)> = vec![
        (
            "env",
            changed(|v| v["spec"]["containers"][1]["env"] = json!([ { "name": "A", "value": "1" } ])),
            "container side",
        ),
        (
            "command",
            changed(|v| v["spec"]["containers"][0]["command"] = json!(["run"])),
            "container app",
        ),
        (
            "added container",
            changed(|v| {
                v["spec"]["containers"]
                    .as_array_mut()
                    .map(|c| c.push(json!({ "name": "x", "image": "x:1" })))
                    .unwrap_or_default()
            }),
            "containers changed",
        ),
        (
            "reordered",
            changed(|v| {
                v["spec"]["containers"]
                    .as_array_mut()
                    .map(|c| c.reverse())
                    .unwrap_or_default()
            }),
            "containers changed",
        ),
        (
            "init container image",
            changed(|v| v["spec"]["initContainers"] = json!([ { "name": "i", "image": "i:2" } ])),
            "spec.initContainers",
        ),
        (
            "volumes",
            changed(|v| v["spec"]["volumes"] = json!([ { "name": "d", "emptyDir": {} } ])),
            "spec.volumes",
        ),
        (
            "env-referenced label",
            changed(|v| v["metadata"]["labels"]["zone"] = json!("b")),
            "reads metadata.labels['zone']",
        ),
        (
            "env-referenced label, image of another container",
            changed(|v| {
                v["metadata"]["labels"]["zone"] = json!("b");
                v["spec"]["containers"][1]["image"] = json!("busybox:2");
            }),
            "container app reads metadata.labels['zone']",
        ),
    ];
    for (what, new, words) in cases {
        match decide(&template(base()), &new) {
            Decision::Recreate { reason } => assert!(
                reason.contains(words),
                "{what}: reason {reason:?} lacks {words:?}"
            ),
            other => panic!("{what}: expected a recreate, got {other:?}"),
        }
    }
}

/// The kubelet restarts a container whose image changes and reads its env anew then: the
/// label it references may change with it in place (OpenKruise's e2e "in-place update both
/// image and env from label").
#[test]
fn an_env_referenced_label_changes_in_place_with_the_image_of_its_container() {
    let new = changed(|v| {
        v["metadata"]["labels"]["zone"] = json!("b");
        v["spec"]["containers"][0]["image"] = json!("nginx:2");
    });
    match decide(&template(base()), &new) {
        Decision::InPlace { images, metadata } => {
            assert_eq!(
                images,
                BTreeMap::from([("app".to_string(), "nginx:2".to_string())])
            );
            assert_eq!(metadata.labels_set.get("zone").map(String::as_str), Some("b"));
        }
        other => panic!("expected in place, got {other:?}"),
    }
}

proptest! {
    /// Any set of image changes is in place, and reports exactly the changed containers.
    #[test]
    fn image_only_changes_are_always_in_place(tags in proptest::collection::vec(0u8..3, 2)) {
        let new = changed(|v| for (i, tag) in tags.iter().enumerate() {
            if *tag > 0 { v["spec"]["containers"][i]["image"] = json!(format!("img{i}:{tag}")); }
        });
        let want: Vec<String> = ["app", "side"].iter().zip(&tags).filter(|(_, t)| **t > 0).map(|(n, _)| n.to_string()).collect();
        match decide(&template(base()), &new) {
            Decision::Unchanged => prop_assert!(want.is_empty()),
            Decision::InPlace { images, .. } => prop_assert_eq!(images.keys().cloned().collect::<Vec<_>>(), want),
            Decision::Recreate { reason } => prop_assert!(false, "recreate for image-only change: {}", reason),
        }
    }

    /// A change to any other container field is never in place, whatever images do too.
    #[test]
    fn a_non_image_container_change_is_never_in_place(field in "(workingDir|command|args|ports)", also_image in any::<bool>()) {
        let new = changed(|v| {
            let value = match field.as_str() {
                "workingDir" => json!("/srv"),
                "ports" => json!([ { "containerPort": 80 } ]),
                _ => json!(["x"]),
            };
            v["spec"]["containers"][1][field.as_str()] = value;
            if also_image { v["spec"]["containers"][0]["image"] = json!("nginx:9"); }
        });
        let is_recreate = matches!(decide(&template(base()), &new), Decision::Recreate { .. });
        prop_assert!(is_recreate);
    }
}

#[test]
fn a_restart_request_always_recreates() {
    let old = template(base());
    let new =
        changed(|t| t["metadata"]["annotations"][RESTARTED_AT_ANNOTATION] = json!("2026-12-02T21:00:00Z"));
    assert!(matches!(decide(&old, &new), Decision::Recreate { reason } if reason.contains("restart")));
}
