use k8s_openapi::api::core::v1::Pod;
use serde_json::{Value, json};

use super::*;
use crate::api::uniteddeployment::SUBSET_NAME_LABEL;
use crate::runtime::actions::Why;
use crate::workloads::uniteddeployment::render::REVISION_LABEL;
use crate::workloads::uniteddeployment::reserve;

const REV: &str = "web-rev2";
const NOW: i64 = 1_800_000_000;

fn now() -> Timestamp {
    Timestamp::from_second(NOW).expect("a time")
}

fn template(kind: &str, image: &str) -> Value {
    json!({ (kind): { "metadata": { "labels": { "app": "web" } },
        "spec": { "selector": { "matchLabels": { "app": "web" } },
            "template": { "metadata": { "labels": { "app": "web" } },
                "spec": { "containers": [{ "name": "app", "image": image }] } } } } })
}

/// A UnitedDeployment `web` of `replicas` over `subsets` with a CloneSet template; `extra`
/// is merged into its spec.
fn ud(replicas: i32, subsets: Value, extra: Value) -> UnitedDeployment {
    let mut doc = json!({ "apiVersion": "apps.kruise.io/v1alpha1", "kind": "UnitedDeployment",
        "metadata": { "name": "web", "namespace": "ns", "uid": "ud-uid", "generation": 1 },
        "spec": { "replicas": replicas, "selector": { "matchLabels": { "app": "web" } },
            "template": template("cloneSetTemplate", "nginx:2"),
            "topology": { "subsets": subsets } } });
    if let (Some(spec), Some(extra)) = (doc["spec"].as_object_mut(), extra.as_object()) {
        spec.extend(extra.clone());
    }
    serde_json::from_value(doc).expect("a UnitedDeployment")
}

fn three() -> Value {
    json!([{ "name": "a" }, { "name": "b" }, { "name": "c" }])
}

fn subset<'u>(ud: &'u UnitedDeployment, name: &str) -> &'u Subset {
    ud.spec.subsets().iter().find(|s| s.name == name).expect("subset")
}

/// Subset `name`'s workload as rendered at `revision`, stored (name, uid, status) with every
/// replica ready.
fn stored(ud: &UnitedDeployment, name: &str, revision: &str, replicas: i32, partition: i32) -> Value {
    let mut object = render(ud, subset(ud, name), revision, replicas, partition, None).expect("rendered");
    object["metadata"]["name"] = json!(format!("web-{name}-x"));
    object["metadata"]["namespace"] = json!("ns");
    object["metadata"]["uid"] = json!(format!("uid-{name}"));
    object["metadata"]["generation"] = json!(1);
    object["metadata"]["creationTimestamp"] = json!("2026-01-01T00:00:00Z");
    object["status"] = json!({ "observedGeneration": 1, "replicas": replicas,
        "readyReplicas": replicas, "updatedReplicas": replicas });
    object
}

fn child(kind: ChildKind, object: Value) -> Child<'static> {
    Child {
        kind,
        object,
        pods: Vec::new(),
    }
}

fn snapshot<'a>(ud: &'a UnitedDeployment, children: Vec<Child<'a>>) -> Snapshot<'a> {
    Snapshot {
        ud,
        update_revision: REV,
        current_revision: REV,
        collision_count: 0,
        children,
        now: now(),
    }
}

/// (verb, kind, subset or name) of every child write.
fn writes(planned: &Planned<UnitedDeploymentStatus>) -> Vec<(String, String, String)> {
    planned
        .actions
        .iter()
        .map(|a| match a {
            Action::Child(ChildAction::Create { resource, object }) => (
                "create".into(),
                resource.kind.clone(),
                object.metadata.labels.as_ref().expect("labels")[SUBSET_NAME_LABEL].clone(),
            ),
            Action::Child(ChildAction::Patch { resource, name, .. }) => {
                ("patch".into(), resource.kind.clone(), name.clone())
            }
            Action::Child(ChildAction::Delete { resource, name, .. }) => {
                ("delete".into(), resource.kind.clone(), name.clone())
            }
            other => panic!("unexpected {other:?}"),
        })
        .collect()
}

fn created_replicas(planned: &Planned<UnitedDeploymentStatus>) -> Vec<(String, i64)> {
    planned
        .actions
        .iter()
        .filter_map(|a| match a {
            Action::Child(ChildAction::Create { object, .. }) => Some((
                object.metadata.labels.as_ref()?[SUBSET_NAME_LABEL].clone(),
                object.data["spec"]["replicas"].as_i64()?,
            )),
            _ => None,
        })
        .collect()
}

fn w(verb: &str, kind: &str, what: &str) -> (String, String, String) {
    (verb.into(), kind.into(), what.into())
}

#[test]
fn a_new_united_deployment_creates_one_workload_per_subset_as_allocated() {
    let set = ud(
        6,
        json!([{ "name": "a", "replicas": 1 }, { "name": "b" }, { "name": "c", "replicas": "50%" }]),
        json!({}),
    );
    let planned = plan(&snapshot(&set, Vec::new()));
    assert_eq!(
        created_replicas(&planned),
        [("a".into(), 1), ("b".into(), 2), ("c".into(), 3)]
    );
    let status = planned.status.expect("a status");
    assert_eq!(status.subset_replicas.expect("subsetReplicas")["c"], 3);
    assert_eq!(status.updated_revision.as_deref(), Some(REV));
    assert!(
        status
            .conditions
            .expect("conditions")
            .iter()
            .any(|c| c.type_ == status::PROVISIONED && c.status == "True")
    );
}

#[test]
fn a_settled_united_deployment_writes_no_workload() {
    let set = ud(6, three(), json!({}));
    let children = ["a", "b", "c"]
        .iter()
        .map(|s| child(ChildKind::CloneSet, stored(&set, s, REV, 2, 0)))
        .collect();
    let planned = plan(&snapshot(&set, children));
    assert!(planned.actions.is_empty(), "{:?}", writes(&planned));
}

#[test]
fn a_new_revision_replicas_or_partition_patch_only_what_changed() {
    let set = ud(
        6,
        three(),
        json!({ "updateStrategy": { "manualUpdate": { "partitions": { "b": 1, "c": 9 } } } }),
    );
    let children = vec![
        child(ChildKind::CloneSet, stored(&set, "a", "web-rev1", 2, 0)),
        child(ChildKind::CloneSet, stored(&set, "b", REV, 2, 0)),
        child(ChildKind::CloneSet, stored(&set, "c", REV, 2, 2)),
    ];
    let planned = plan(&snapshot(&set, children));
    assert_eq!(
        writes(&planned),
        [
            w("patch", "CloneSet", "web-a-x"),
            w("patch", "CloneSet", "web-b-x")
        ]
    );
    let Action::Child(ChildAction::Patch { patch, .. }) = &planned.actions[0] else {
        unreachable!()
    };
    assert_eq!(patch["metadata"]["labels"][REVISION_LABEL], REV);
    assert_eq!(
        patch["spec"]["template"]["metadata"]["labels"][REVISION_LABEL],
        REV
    );
    assert!(patch.get("status").is_none());
    let Action::Child(ChildAction::Patch { patch, .. }) = &planned.actions[1] else {
        unreachable!()
    };
    assert_eq!(
        patch,
        &json!({ "spec": { "updateStrategy": { "partition": 1 } } })
    );
    // c's partition 9 is capped at its 2 replicas.
    let status = planned.status.expect("a status");
    assert_eq!(
        status
            .update_status
            .and_then(|u| u.current_partitions)
            .expect("partitions")["c"],
        2
    );
}

#[test]
fn workloads_of_gone_subsets_and_duplicates_are_deleted_and_unlabelled_ones_left() {
    let set = ud(4, json!([{ "name": "a" }, { "name": "b" }]), json!({}));
    let mut duplicate = stored(&set, "a", REV, 2, 0);
    duplicate["metadata"]["name"] = json!("web-a-newer");
    duplicate["metadata"]["creationTimestamp"] = json!("2026-02-01T00:00:00Z");
    let gone = ud(4, json!([{ "name": "z" }]), json!({}));
    let mut unlabelled = stored(&set, "b", REV, 2, 0);
    unlabelled["metadata"]["labels"]
        .as_object_mut()
        .expect("labels")
        .remove(SUBSET_NAME_LABEL);
    unlabelled["metadata"]["name"] = json!("stray");
    let children = vec![
        child(ChildKind::CloneSet, duplicate),
        child(ChildKind::CloneSet, stored(&set, "a", REV, 2, 0)),
        child(ChildKind::CloneSet, stored(&set, "b", REV, 2, 0)),
        child(ChildKind::CloneSet, stored(&gone, "z", REV, 2, 0)),
        child(ChildKind::CloneSet, unlabelled),
    ];
    let planned = plan(&snapshot(&set, children));
    assert_eq!(
        writes(&planned),
        [
            w("delete", "CloneSet", "web-z-x"),
            w("delete", "CloneSet", "web-a-newer")
        ]
    );
}

#[test]
fn a_template_kind_switch_deletes_an_old_workload_once_its_replacement_is_ready() {
    let old = {
        let mut set = ud(4, json!([{ "name": "a" }, { "name": "b" }]), json!({}));
        set.spec.template = serde_json::from_value(template("deploymentTemplate", "nginx:2")).ok();
        set
    };
    let set = ud(4, json!([{ "name": "a" }, { "name": "b" }]), json!({}));
    let mut waiting = stored(&set, "b", REV, 2, 0);
    waiting["status"]["readyReplicas"] = json!(1);
    let children = vec![
        child(ChildKind::Deployment, stored(&old, "a", REV, 2, 0)),
        child(ChildKind::Deployment, stored(&old, "b", REV, 2, 0)),
        child(ChildKind::CloneSet, stored(&set, "a", REV, 2, 0)),
        child(ChildKind::CloneSet, waiting),
    ];
    let planned = plan(&snapshot(&set, children));
    assert_eq!(writes(&planned), [w("delete", "Deployment", "web-a-x")]);

    // Before any CloneSet exists, both are created and no Deployment goes.
    let children = vec![
        child(ChildKind::Deployment, stored(&old, "a", REV, 2, 0)),
        child(ChildKind::Deployment, stored(&old, "b", REV, 2, 0)),
    ];
    let planned = plan(&snapshot(&set, children));
    assert_eq!(
        writes(&planned),
        [w("create", "CloneSet", "a"), w("create", "CloneSet", "b")]
    );
}

#[test]
fn a_refused_spec_writes_nothing_else() {
    let mut set = ud(4, three(), json!({}));
    set.spec.template = None;
    let planned = plan(&snapshot(&set, Vec::new()));
    assert!(planned.refused.is_some());
    assert!(planned.actions.is_empty() && planned.status.is_none());
}

fn pod(revision: &str, ready: bool) -> Pod {
    serde_json::from_value(
        json!({ "metadata": { "name": "p", "labels": { REVISION_LABEL: revision } },
        "status": { "phase": "Running",
            "conditions": [{ "type": "Ready", "status": if ready { "True" } else { "False" } }] } }),
    )
    .expect("a pod")
}

#[test]
fn the_status_counts_pods_at_the_update_revision_and_moves_the_current_revision() {
    let set = ud(4, json!([{ "name": "a" }, { "name": "b" }]), json!({}));
    let pods = [
        pod(REV, true),
        pod(REV, false),
        pod("web-rev1", true),
        pod(REV, true),
    ];
    let children = vec![
        Child {
            kind: ChildKind::CloneSet,
            object: stored(&set, "a", REV, 2, 0),
            pods: vec![&pods[0], &pods[1]],
        },
        Child {
            kind: ChildKind::CloneSet,
            object: stored(&set, "b", REV, 2, 0),
            pods: vec![&pods[2], &pods[3]],
        },
    ];
    let mut shot = snapshot(&set, children);
    shot.current_revision = "web-rev1";
    let status = plan(&shot).status.expect("a status");
    assert_eq!((status.replicas, status.ready_replicas), (4, Some(4)));
    assert_eq!(
        (status.updated_replicas, status.updated_ready_replicas),
        (3, Some(2))
    );
    assert_eq!(status.current_revision, "web-rev1");
    let updated = status
        .conditions
        .expect("conditions")
        .into_iter()
        .find(|c| c.type_ == status::UPDATED)
        .expect("UnitedDeploymentUpdated");
    assert_eq!(updated.status, "False");
}

fn stuck_pod(name: &str, age: i64) -> Pod {
    serde_json::from_value(json!({ "metadata": { "name": name,
            "labels": { REVISION_LABEL: REV, (reserve::RESERVED_LABEL): "false" },
            "creationTimestamp": Timestamp::from_second(NOW - age).expect("a time").to_string() },
        "status": { "phase": "Pending", "conditions": [{ "type": "PodScheduled", "status": "False",
            "reason": "Unschedulable" }] } }))
    .expect("a pod")
}

#[test]
fn reservation_keeps_a_stuck_pod_and_places_a_substitute_in_the_next_subset() {
    let set = ud(
        2,
        json!([{ "name": "a" }, { "name": "b" }]),
        json!({ "topology": { "subsets": [{ "name": "a" }, { "name": "b" }],
            "scheduleStrategy": { "type": "Adaptive", "adaptive": {
                "rescheduleCriticalSeconds": 30, "reserveUnschedulablePods": true } } } }),
    );
    let mut a = stored(&set, "a", REV, 2, 0);
    a["status"]["readyReplicas"] = json!(1);
    let pods = [pod(REV, true), stuck_pod("stuck", 60)];
    let children = vec![Child {
        kind: ChildKind::CloneSet,
        object: a,
        pods: vec![&pods[0], &pods[1]],
    }];
    let planned = plan(&snapshot(&set, children));
    // The labels first: the stuck pod reserved, the running one labelled not reserved.
    let labels: Vec<(String, Value)> = planned.actions[..2]
        .iter()
        .map(|a| match a {
            Action::PatchPod { name, patch, why } => {
                assert_eq!(*why, Why::Reserve);
                (
                    name.clone(),
                    patch["metadata"]["labels"][reserve::RESERVED_LABEL].clone(),
                )
            }
            other => panic!("a label patch, not {other:?}"),
        })
        .collect();
    assert_eq!(
        labels,
        [
            ("p".to_string(), json!("false")),
            ("stuck".to_string(), json!("true"))
        ]
    );
    // a keeps its 2 (one reserved), b gets the substitute; a may lose its pod not ready.
    let Action::Child(ChildAction::Patch { patch, .. }) = &planned.actions[2] else {
        panic!("a's workload: {:?}", planned.actions)
    };
    assert_eq!(
        patch,
        &json!({ "spec": { "updateStrategy": { "maxUnavailable": 1 } } })
    );
    assert_eq!(created_replicas(&planned), [("b".into(), 1)]);
    let status = planned.status.expect("a status");
    assert_eq!((status.replicas, status.reserved_pods), (1, Some(1)));
    assert!(
        status
            .label_selector
            .as_deref()
            .is_some_and(|s| s.ends_with(status::SELECTOR_SUFFIX)),
        "{:?}",
        status.label_selector
    );
    let a = &status.subset_statuses.expect("subsets")[0];
    assert_eq!(a.reserved_pods, Some(1));
    let schedulable = &a.conditions.as_ref().expect("conditions")[0];
    assert_eq!(
        (schedulable.status.as_str(), schedulable.message.as_deref()),
        ("False", Some("reserved pods found"))
    );
}

fn named_pod(name: &str, revision: &str, ready: bool) -> Pod {
    let mut pod = pod(revision, ready);
    pod.metadata.name = Some(name.into());
    pod.metadata.uid = Some(format!("uid-{name}"));
    pod
}

#[test]
fn a_statefulset_update_deletes_its_old_pods_past_the_partition_that_are_not_ready() {
    let mut set = ud(
        3,
        json!([{ "name": "a" }]),
        json!({ "updateStrategy": { "manualUpdate": { "partitions": { "a": 1 } } } }),
    );
    set.spec.template = serde_json::from_value(template("statefulSetTemplate", "nginx:2")).ok();
    let pods = [
        named_pod("web-a-x-0", "web-rev1", false),
        named_pod("web-a-x-1", "web-rev1", false),
        named_pod("web-a-x-2", "web-rev1", true),
        named_pod("web-a-x-3", REV, false),
    ];
    let children = vec![Child {
        kind: ChildKind::StatefulSet,
        object: stored(&set, "a", "web-rev1", 3, 1),
        pods: pods.iter().collect(),
    }];
    let planned = plan(&snapshot(&set, children));
    assert_eq!(
        writes_and_deletes(&planned),
        ["patch web-a-x", "delete pod web-a-x-1"],
        "below the partition, ready or already new: kept"
    );
}

fn writes_and_deletes(planned: &Planned<UnitedDeploymentStatus>) -> Vec<String> {
    planned
        .actions
        .iter()
        .map(|a| match a {
            Action::Child(ChildAction::Patch { name, .. }) => format!("patch {name}"),
            Action::DeletePod { name, .. } => format!("delete pod {name}"),
            other => format!("{other:?}"),
        })
        .collect()
}

#[test]
fn the_diff_preview_is_the_rounds_subset_writes_applied_to_the_stored_workloads() {
    let new = ud(6, three(), json!({}));
    let revision = match super::super::revisions::step(&new, &[]) {
        crate::runtime::revision::RevisionStep::Create { name, .. } => name,
        other => panic!("a first revision is created: {other:?}"),
    };
    // Stored at an older revision with 2 replicas each: every subset takes the template.
    let children: Vec<(Value, Vec<Pod>)> = ["a", "b", "c"]
        .iter()
        .map(|name| (stored(&new, name, "web-old", 2, 0), Vec::new()))
        .collect();
    let changes = super::super::preview::subset_changes(&new, &[], &children, now()).expect("changes");
    let subsets: Vec<&str> = changes.iter().map(|c| c.subset.as_str()).collect();
    assert_eq!(subsets, ["a", "b", "c"]);
    for (change, (stored, _)) in changes.iter().zip(&children) {
        assert_eq!(change.before.as_ref(), Some(stored));
        let after = change.after.as_ref().expect("patched");
        assert_eq!(after["metadata"]["labels"][REVISION_LABEL], json!(revision));
        assert_eq!(
            after["spec"]["template"]["metadata"]["labels"][REVISION_LABEL],
            json!(revision)
        );
        assert_eq!(
            after["metadata"]["name"], stored["metadata"]["name"],
            "the same workload"
        );
    }
    // Stored at that revision already: the round writes nothing, the preview is empty.
    let settled: Vec<(Value, Vec<Pod>)> = ["a", "b", "c"]
        .iter()
        .map(|name| (stored(&new, name, &revision, 2, 0), Vec::new()))
        .collect();
    let none = super::super::preview::subset_changes(&new, &[], &settled, now()).expect("changes");
    assert_eq!(none, Vec::new());
}
