use std::time::Duration;

use k8s_openapi::api::core::v1::Pod;
use k8s_openapi::jiff::Timestamp;
use serde_json::{Value, json};

use super::*;

pub(crate) const NOW: &str = "2026-12-07T12:00:00Z";

pub(crate) fn now() -> Timestamp {
    NOW.parse().expect("a time")
}

/// A running pod named `name`, Ready or not, with `extra` metadata fields.
pub(crate) fn pod(name: &str, ready: bool, extra: Value) -> Pod {
    let mut value = json!({
        "metadata": { "name": name, "namespace": "shop", "labels": { "app": "web" } },
        "spec": { "containers": [{ "name": "main", "image": "nginx:1.25" }] },
        "status": { "phase": "Running",
                    "conditions": [{ "type": "Ready", "status": if ready { "True" } else { "False" } }],
                    "containerStatuses": [{ "name": "main", "image": "nginx:1.25", "imageID": "sha256:aaa",
                                            "ready": ready, "restartCount": 0 }] }
    });
    if let (Some(meta), Some(extra)) = (value["metadata"].as_object_mut(), extra.as_object()) {
        for (k, v) in extra {
            meta.insert(k.clone(), v.clone());
        }
    }
    serde_json::from_value(value).expect("a pod")
}

/// A budget with `spec` and `status`.
pub(crate) fn budget(spec: Value, status: Value) -> PodUnavailableBudget {
    serde_json::from_value(json!({
        "apiVersion": "policy.kruise.io/v1alpha1", "kind": "PodUnavailableBudget",
        "metadata": { "name": "web", "namespace": "shop", "generation": 3 },
        "spec": spec, "status": status
    }))
    .expect("a budget")
}

#[test]
fn desired_available_follows_upstream_rounding() {
    let cases = [
        (json!({ "maxUnavailable": 1 }), 10, 9),
        (json!({ "maxUnavailable": "25%" }), 10, 7), // ceil(2.5) = 3 may go
        (json!({ "maxUnavailable": "100%" }), 10, 0),
        (json!({ "maxUnavailable": 12 }), 10, 0), // never below 0
        (json!({ "minAvailable": 4 }), 10, 4),
        (json!({ "minAvailable": 12 }), 10, 12),   // an integer as is
        (json!({ "minAvailable": "25%" }), 10, 3), // ceil(2.5)
        (json!({ "minAvailable": 0 }), 10, 0),
        (json!({ "maxUnavailable": "50%", "minAvailable": 9 }), 10, 5), // maxUnavailable wins
        (json!({}), 10, 0),
    ];
    for (spec, expected, desired) in cases {
        assert_eq!(
            desired_available(&budget(spec.clone(), json!({})), expected),
            Ok(desired),
            "{spec}"
        );
    }
    let bad = desired_available(&budget(json!({ "maxUnavailable": "many" }), json!({})), 10);
    assert!(bad.is_err_and(|e| e.contains("spec.maxUnavailable")));
}

#[test]
fn current_counts_ready_consistent_unrecorded_active_pods() {
    let pods = [
        pod("a", true, json!({})),
        pod("b", false, json!({})),
        pod(
            "c",
            true,
            json!({ "labels": { "unavailable-pod.kruise.io/drain": "true" } }),
        ),
        pod("d", true, json!({ "deletionTimestamp": "2026-12-07T11:59:59Z" })),
        pod("e", true, json!({})),
    ];
    let refs: Vec<&Pod> = pods.iter().collect();
    let recorded = json!({ "disruptedPods": { "e": "2026-12-07T11:59:55Z" } });
    let counted = count(&budget(json!({ "maxUnavailable": 1 }), recorded), &refs, 5, now()).expect("counted");
    assert_eq!(counted.status.current_available, 1, "only a");
    assert_eq!(counted.status.desired_available, 4);
    assert_eq!(counted.status.unavailable_allowed, 0, "never negative");
    assert_eq!(counted.status.total_replicas, 5);
    assert_eq!(counted.status.observed_generation, 3);
    assert_eq!(
        counted.recheck_in,
        Some(Duration::from_secs(15)),
        "e's disruption expires at 12:00:15"
    );
}

#[test]
fn records_expire_and_are_forgotten_when_their_pod_is_gone() {
    let pods = [
        pod("a", true, json!({})),
        pod("b", true, json!({})),
        pod("c", true, json!({})),
    ];
    let refs: Vec<&Pod> = pods.iter().collect();
    let status = json!({
        "disruptedPods": { "a": "2026-12-07T11:59:30Z", "b": "2026-12-07T11:59:50Z", "gone": "2026-12-07T11:59:59Z" },
        "unavailablePods": { "c": "2026-12-07T11:59:45Z" }
    });
    let counted = count(&budget(json!({ "minAvailable": 1 }), status), &refs, 3, now()).expect("counted");
    let disrupted: Vec<&String> = counted
        .status
        .disrupted_pods
        .iter()
        .flatten()
        .map(|(k, _)| k)
        .collect();
    assert_eq!(disrupted, ["b"], "a timed out (20 s), gone is gone");
    assert_eq!(counted.status.unavailable_pods, None, "c's 10 s are over");
    assert_eq!(counted.not_deleted, [NotDeleted { pod: "a".into() }]);
    assert_eq!(counted.status.current_available, 2, "a and c count again");
    assert_eq!(counted.status.unavailable_allowed, 1);
    assert_eq!(counted.recheck_in, Some(Duration::from_secs(10)), "b at 12:00:10");
}

#[test]
fn an_unfinished_in_place_update_is_inconsistent() {
    let state = json!({ "revision": "web-2", "updateTimestamp": "2026-12-07T11:59:00Z",
                        "lastContainerStatuses": { "main": { "imageID": "sha256:aaa" } } });
    let mid = pod(
        "a",
        true,
        json!({ "annotations": { "apps.kruise.io/inplace-update-state": state.to_string() } }),
    );
    let mut spec_changed = mid.clone();
    spec_changed.spec.as_mut().expect("spec").containers[0].image = Some("nginx:1.26".into());
    assert!(
        consistent(&mid),
        "the recorded imageID is the image the spec names"
    );
    assert!(
        !consistent(&spec_changed),
        "still the old imageID, the spec names 1.26"
    );
    let mut done = spec_changed.clone();
    let status = &mut done
        .status
        .as_mut()
        .expect("status")
        .container_statuses
        .as_mut()
        .expect("statuses")[0];
    status.image = "nginx:1.26".into();
    status.image_id = "sha256:bbb".into();
    assert!(consistent(&done));
}

#[test]
fn a_digest_image_is_consistent_only_on_its_digest() {
    let mut pinned = pod("a", true, json!({}));
    pinned.spec.as_mut().expect("spec").containers[0].image = Some("nginx@sha256:ccc".into());
    assert!(!consistent(&pinned));
    pinned
        .status
        .as_mut()
        .expect("status")
        .container_statuses
        .as_mut()
        .expect("statuses")[0]
        .image_id = "docker.io/library/nginx@sha256:ccc".into();
    assert!(consistent(&pinned));
}

#[test]
fn a_sidecar_left_on_its_recorded_image_is_inconsistent() {
    let state = json!({ "log": { "revision": "r2", "updateTimestamp": "2026-12-07T11:59:00Z",
                                 "lastContainerStatuses": { "log": { "imageID": "sha256:old" } } } });
    let mut value = serde_json::to_value(pod(
        "a",
        true,
        json!({ "annotations": { "kruise.io/sidecarset-injected-list": "log",
                                 "kruise.io/sidecarset-inplace-update-state": state.to_string() } }),
    ))
    .expect("json");
    value["spec"]["containers"]
        .as_array_mut()
        .expect("containers")
        .push(json!({ "name": "log", "image": "logger:2", "env": [{ "name": "IS_INJECTED", "value": "true" }] }));
    value["status"]["containerStatuses"]
        .as_array_mut()
        .expect("statuses")
        .push(json!({ "name": "log", "image": "logger:1", "imageID": "sha256:old", "ready": true, "restartCount": 0 }));
    let stale: Pod = serde_json::from_value(value.clone()).expect("a pod");
    assert!(!consistent(&stale));
    value["status"]["containerStatuses"][1] = json!({ "name": "log", "image": "logger:2", "imageID": "sha256:new", "ready": true, "restartCount": 0 });
    let upgraded: Pod = serde_json::from_value(value).expect("a pod");
    assert!(consistent(&upgraded));
}
