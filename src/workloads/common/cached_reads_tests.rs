//! The pod cache keeps only the fields controllers read (`runtime::cached_pod`): every
//! shared reader of a pod (readiness, availability, scheduling, in-place state, lifecycle)
//! answers the same on a cached pod as on the whole pod the API server sent.
use std::time::Duration;

use k8s_openapi::api::core::v1::Pod;
use k8s_openapi::jiff::Timestamp;
use serde_json::{Value, json};

use crate::runtime::cached_pod::CachedPod;
use crate::runtime::{inplace, lifecycle};
use crate::workloads::common::availability;

/// A pod with much a controller never reads, in `phase`, with `conditions` and `extra`
/// metadata merged in.
fn whole(phase: &str, conditions: Value, extra: Value) -> Value {
    let mut pod = json!({
        "metadata": {
            "name": "web-0", "namespace": "ns", "uid": "u1", "resourceVersion": "9",
            "creationTimestamp": "2026-12-04T10:00:00Z",
            "labels": { "app": "web", "lifecycle.apps.kruise.io/state": "Normal" },
            "annotations": {
                "apps.kruise.io/inplace-update-state":
                    "{\"revision\":\"web-2\",\"updateTimestamp\":\"2026-12-04T10:02:00Z\",\"lastContainerStatuses\":{\"web\":{\"imageID\":\"sha256:1\"}}}",
                "apps.kruise.io/inplace-update-grace": "{\"revision\":\"web-2\",\"containerImages\":{\"web\":\"web:2\"},\"graceSeconds\":30}"
            },
            "managedFields": [{ "manager": "kubelet", "operation": "Update", "fieldsType": "FieldsV1",
                "fieldsV1": { "f:status": { "f:phase": {} } } }]
        },
        "spec": {
            "containers": [{ "name": "web", "image": "web:2",
                "ports": [{ "containerPort": 80 }],
                "readinessProbe": { "httpGet": { "path": "/", "port": 80 } },
                "volumeMounts": [{ "name": "data", "mountPath": "/data" }],
                "securityContext": { "runAsUser": 1000 } }],
            "initContainers": [{ "name": "init", "image": "init:1", "command": ["true"] }],
            "nodeName": "node-1",
            "readinessGates": [{ "conditionType": "InPlaceUpdateReady" }],
            "volumes": [{ "name": "data", "emptyDir": {} }]
        },
        "status": {
            "phase": phase,
            "podIP": "10.0.0.9", "hostIP": "192.168.0.1", "startTime": "2026-12-04T10:00:01Z",
            "conditions": conditions,
            "containerStatuses": [{ "name": "web", "image": "web:2", "imageID": "sha256:2",
                "ready": true, "restartCount": 2, "started": true,
                "state": { "running": { "startedAt": "2026-12-04T10:02:05Z" } } }],
            "initContainerStatuses": [{ "name": "init", "image": "init:1", "imageID": "sha256:0",
                "ready": false, "restartCount": 0,
                "state": { "terminated": { "exitCode": 0, "reason": "Completed" } } }]
        }
    });
    if let (Some(meta), Value::Object(extra)) = (pod["metadata"].as_object_mut(), extra) {
        meta.extend(extra);
    }
    pod
}

fn pods() -> Vec<Value> {
    let ready = json!([
        { "type": "PodScheduled", "status": "True" },
        { "type": "InPlaceUpdateReady", "status": "True" },
        { "type": "ContainersReady", "status": "True" },
        { "type": "Ready", "status": "True", "lastTransitionTime": "2026-12-04T10:02:10Z" }
    ]);
    vec![
        whole("Running", ready.clone(), json!({})),
        whole(
            "Running",
            json!([
                { "type": "InPlaceUpdateReady", "status": "False", "reason": "StartInPlaceUpdate" },
                { "type": "Ready", "status": "False" }
            ]),
            json!({}),
        ),
        whole(
            "Pending",
            json!([{ "type": "PodScheduled", "status": "False", "reason": "Unschedulable",
                "lastTransitionTime": "2026-12-04T10:00:02Z" }]),
            json!({}),
        ),
        whole(
            "Running",
            ready,
            json!({ "deletionTimestamp": "2026-12-04T10:05:00Z", "finalizers": ["f"] }),
        ),
        whole("Failed", json!([]), json!({})),
    ]
}

/// What the shared readers say of `pod`.
fn readings(pod: &Pod) -> Vec<String> {
    let now: Timestamp = "2026-12-04T10:03:00Z".parse().expect("time");
    let mut said = vec![
        format!("active {}", availability::is_active(pod)),
        format!("ready {}", availability::is_ready(pod)),
        format!("running ready {}", availability::running_ready(pod)),
        format!("ready since {:?}", availability::ready_since(pod)),
        format!(
            "unschedulable {:?}",
            availability::unschedulable_for(pod, Duration::from_secs(30), now)
        ),
        format!("grace {}", inplace::state::in_grace_period(pod)),
        format!("lifecycle {}", lifecycle::state(pod)),
        format!("lifecycle allows {}", lifecycle::allows_available(pod)),
    ];
    for seconds in [0, 30, 3600] {
        said.push(format!(
            "available {seconds} {}",
            availability::is_available(pod, seconds, now)
        ));
    }
    for kind in ["Ready", "InPlaceUpdateReady", "ContainersReady", "PodScheduled"] {
        said.push(format!("{kind} {:?}", inplace::state::pod_condition(pod, kind)));
    }
    said
}

#[test]
fn every_shared_reader_answers_the_same_on_a_cached_pod() {
    for json in pods() {
        let whole: Pod = serde_json::from_value(json.clone()).expect("test input");
        let read: CachedPod = serde_json::from_value(json).expect("test input");
        let name = format!("{:?}", whole.status.as_ref().and_then(|s| s.phase.clone()));
        assert_eq!(readings(&read.pod()), readings(&whole), "{name}");
        assert_eq!(
            readings(&CachedPod::new(whole.clone()).pod()),
            readings(&whole),
            "{name}"
        );
    }
}
