use serde_json::json;

use super::*;

fn pod(value: Value) -> Pod {
    serde_json::from_value(value).expect("pod")
}

fn running_pod() -> Pod {
    pod(json!({
        "metadata": { "name": "web-a", "resourceVersion": "41", "labels": { "controller-revision-hash": "web-1" } },
        "spec": {
            "containers": [{ "name": "app", "image": "nginx:1" }],
            "readinessGates": [{ "conditionType": "InPlaceUpdateReady" }],
        },
        "status": {
            "phase": "Running",
            "conditions": [
                { "type": "Ready", "status": "True" },
                { "type": "ContainersReady", "status": "True" },
                { "type": "InPlaceUpdateReady", "status": "True" },
            ],
            "containerStatuses": [{ "name": "app", "image": "nginx:1", "imageID": "id-1", "ready": true, "restartCount": 0 }],
        },
    }))
}

#[test]
fn write_1_flips_the_gate_and_ready_together() {
    let patch = gate_false(&running_pod(), "2026-01-01T00:00:00Z").expect("has a gate");
    let conditions = patch["status"]["conditions"].as_array().expect("list");
    assert_eq!(conditions.len(), 2);
    assert_eq!(conditions[0]["type"], "InPlaceUpdateReady");
    assert_eq!(conditions[0]["status"], "False");
    assert_eq!(conditions[0]["reason"], "StartInPlaceUpdate");
    assert_eq!(conditions[1]["type"], "Ready");
    assert_eq!(conditions[1]["status"], "False");
}

#[test]
fn a_pod_without_the_gate_gets_no_status_write() {
    let mut p = running_pod();
    p.spec.as_mut().expect("spec").readiness_gates = None;
    assert_eq!(gate_false(&p, "now"), None);
    assert!(!needs_gate_true(&p));
}

#[test]
fn write_2_sets_revision_state_and_images_under_the_cached_resource_version() {
    let images = BTreeMap::from([("app".to_string(), "nginx:2".to_string())]);
    let metadata = MetadataChanges::default();
    let update = InPlaceUpdate {
        target_revision: "web-2",
        images: &images,
        metadata: &metadata,
        grace_seconds: 0,
        extra_labels: BTreeMap::from([("pod-template-hash".to_string(), Some("2".to_string()))]),
        extra_annotations: BTreeMap::new(),
    };
    let patch = update_pod(&running_pod(), &update, "2026-01-01T00:00:00Z");
    assert_eq!(patch["metadata"]["resourceVersion"], "41");
    assert_eq!(patch["metadata"]["labels"]["controller-revision-hash"], "web-2");
    assert_eq!(patch["metadata"]["labels"]["pod-template-hash"], "2");
    assert_eq!(
        patch["spec"]["containers"],
        json!([{ "name": "app", "image": "nginx:2" }])
    );
    let state: InPlaceUpdateState = serde_json::from_str(
        patch["metadata"]["annotations"][STATE_ANNOTATION]
            .as_str()
            .expect("state"),
    )
    .expect("state json");
    assert_eq!(state.revision, "web-2");
    assert!(state.update_images);
    assert_eq!(
        state.last_container_statuses.expect("recorded")["app"].image_id,
        "id-1"
    );
    assert_eq!(
        state.container_batches_record,
        [json!({ "timestamp": "2026-01-01T00:00:00Z", "containers": ["app"] })],
        "the applied batch is recorded, as upstream does"
    );
    assert_eq!(patch["metadata"]["annotations"][GRACE_ANNOTATION], Value::Null);
}

#[test]
fn with_a_grace_period_write_2_defers_the_images() {
    let images = BTreeMap::from([("app".to_string(), "nginx:2".to_string())]);
    let metadata = MetadataChanges::default();
    let update = InPlaceUpdate {
        target_revision: "web-2",
        images: &images,
        metadata: &metadata,
        grace_seconds: 30,
        extra_labels: BTreeMap::new(),
        extra_annotations: BTreeMap::new(),
    };
    let patch = update_pod(&running_pod(), &update, "now");
    assert!(patch.get("spec").is_none());
    let grace: GraceSpec = serde_json::from_str(
        patch["metadata"]["annotations"][GRACE_ANNOTATION]
            .as_str()
            .expect("grace"),
    )
    .expect("grace json");
    assert_eq!(grace.grace_seconds, 30);
    assert_eq!(grace.container_images, images);
    let state = patch["metadata"]["annotations"][STATE_ANNOTATION]
        .as_str()
        .expect("state");
    let raw: Value = serde_json::from_str(state).expect("state json");
    assert_eq!(
        raw["lastContainerStatuses"],
        Value::Null,
        "nothing is recorded before the images are applied: {raw}"
    );
    assert!(raw.get("containerBatchesRecord").is_none(), "{raw}");
}

#[test]
fn a_grace_period_waits_then_applies_or_is_dropped_when_the_revision_moved() {
    let mut p = running_pod();
    let grace = r#"{"revision":"web-2","containerImages":{"app":"nginx:2"},"graceSeconds":30}"#;
    p.metadata.annotations = Some(BTreeMap::from([(
        GRACE_ANNOTATION.to_string(),
        grace.to_string(),
    )]));
    let now = "2026-01-01T00:00:30Z";
    assert_eq!(grace_step(&p, Some("web-2"), 10, now), Some(GraceStep::Wait(20)));
    let Some(GraceStep::Apply(apply)) = grace_step(&p, Some("web-2"), 30, now) else {
        panic!("expected apply")
    };
    assert_eq!(apply["spec"]["containers"][0]["image"], "nginx:2");
    let state: InPlaceUpdateState = serde_json::from_str(
        apply["metadata"]["annotations"][STATE_ANNOTATION]
            .as_str()
            .expect("state rewritten when the images are applied"),
    )
    .expect("state json");
    assert_eq!(
        state.last_container_statuses.expect("recorded")["app"].image_id,
        "id-1"
    );
    assert_eq!(
        state.container_batches_record,
        [json!({ "timestamp": now, "containers": ["app"] })]
    );
    assert!(matches!(
        grace_step(&p, Some("web-3"), 0, now),
        Some(GraceStep::Drop(_))
    ));
    assert_eq!(grace_step(&running_pod(), Some("web-2"), 0, now), None);
}

#[test]
fn the_gate_needs_writing_until_it_is_plainly_true() {
    assert!(!needs_gate_true(&running_pod()));
    let mut p = running_pod();
    fn conditions(p: &mut Pod) -> &mut Vec<k8s_openapi::api::core::v1::PodCondition> {
        p.status
            .as_mut()
            .and_then(|s| s.conditions.as_mut())
            .expect("conditions")
    }
    conditions(&mut p)[2].status = "False".into();
    assert!(needs_gate_true(&p));
    conditions(&mut p).truncate(2);
    assert!(needs_gate_true(&p));
}

/// Spec image of redis, and its status (image, imageID, ready).
fn two_container_pod(redis_spec: &str, redis_status: (&str, &str, bool)) -> Pod {
    pod(json!({
        "metadata": { "name": "web-a", "resourceVersion": "50", "labels": { "controller-revision-hash": "web-1" } },
        "spec": {
            "containers": [
                { "name": "nginx", "image": "nginx:1" },
                { "name": "redis", "image": redis_spec, "env": [{ "name": "KRUISE_CONTAINER_PRIORITY", "value": "10" }] },
            ],
        },
        "status": {
            "phase": "Running",
            "containerStatuses": [
                { "name": "nginx", "image": "nginx:1", "imageID": "n-1", "ready": true, "restartCount": 0 },
                { "name": "redis", "image": redis_status.0, "imageID": redis_status.1, "ready": redis_status.2, "restartCount": 0 },
            ],
        },
    }))
}

fn state_of(patch: &Value) -> InPlaceUpdateState {
    serde_json::from_str(
        patch["metadata"]["annotations"][STATE_ANNOTATION]
            .as_str()
            .expect("state"),
    )
    .expect("json")
}

#[test]
fn containers_with_launch_priority_are_updated_in_batches_highest_first() {
    let images = BTreeMap::from([
        ("nginx".to_string(), "nginx:2".to_string()),
        ("redis".to_string(), "busybox:1".to_string()),
    ]);
    let metadata = MetadataChanges::default();
    let update = InPlaceUpdate {
        target_revision: "web-2",
        images: &images,
        metadata: &metadata,
        grace_seconds: 0,
        extra_labels: BTreeMap::new(),
        extra_annotations: BTreeMap::new(),
    };
    let before = two_container_pod("redis:1", ("redis:1", "r-1", true));
    let first = update_pod(&before, &update, "2026-01-01T00:00:00Z");
    assert_eq!(
        first["spec"]["containers"],
        json!([{ "name": "redis", "image": "busybox:1" }])
    );
    let state = state_of(&first);
    assert_eq!(
        state.next_container_images,
        BTreeMap::from([("nginx".to_string(), "nginx:2".to_string())])
    );
    assert_eq!(
        state.pre_check_before_next,
        Some(json!({ "containersRequiredReady": ["redis"] }))
    );
    assert_eq!(state.container_batches_record.len(), 1);
    assert_eq!(state.container_batches_record[0]["containers"], json!(["redis"]));
    assert!(!super::super::state::is_update_complete(&before, &state));

    // Redis still runs the old image, then runs the new one but is not ready: no next batch.
    let written = two_container_pod("busybox:1", ("redis:1", "r-1", true));
    assert_eq!(next_batch(&written, &state, "t"), None);
    let restarted = two_container_pod("busybox:1", ("busybox:1", "r-2", false));
    assert_eq!(next_batch(&restarted, &state, "t"), None);

    // Redis ready on its new image: nginx goes next, and both batches are recorded.
    let ready = two_container_pod("busybox:1", ("busybox:1", "r-2", true));
    let second = next_batch(&ready, &state, "2026-01-01T00:00:20Z").expect("next batch");
    assert_eq!(second["metadata"]["resourceVersion"], "50");
    assert_eq!(
        second["spec"]["containers"],
        json!([{ "name": "nginx", "image": "nginx:2" }])
    );
    let state = state_of(&second);
    assert!(state.next_container_images.is_empty());
    assert_eq!(state.pre_check_before_next, None);
    let batches: Vec<&Value> = state
        .container_batches_record
        .iter()
        .map(|b| &b["containers"])
        .collect();
    assert_eq!(batches, vec![&json!(["redis"]), &json!(["nginx"])]);
    let recorded = state.last_container_statuses.expect("recorded");
    assert_eq!(recorded["redis"].image_id, "r-1");
    assert_eq!(recorded["nginx"].image_id, "n-1");
}
