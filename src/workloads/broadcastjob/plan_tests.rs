//! Table and property tests for the BroadcastJob planner.
use std::collections::BTreeSet;

use k8s_openapi::api::core::v1::{Node, Pod};
use k8s_openapi::jiff::Timestamp;
use proptest::prelude::*;
use serde_json::{Value, json};

use super::*;
use crate::runtime::actions::Action;
use crate::workloads::common::test_views::{self, merged};

fn now() -> Timestamp {
    "2026-12-04T12:00:00Z".parse().expect("time")
}

/// A job; `extra` is merged into its spec, `status` is its stored status.
fn job(extra: Value, status: Value) -> BroadcastJob {
    let spec = merged(
        json!({
            "template": { "metadata": { "labels": { "app": "warm" } },
                "spec": { "restartPolicy": "Never", "containers": [{ "name": "c", "image": "busybox" }] } },
        }),
        extra,
    );
    serde_json::from_value(json!({
        "apiVersion": "apps.kruise.io/v1alpha1", "kind": "BroadcastJob",
        "metadata": { "name": "warm", "namespace": "ns", "uid": "job-uid" },
        "spec": spec, "status": status,
    }))
    .expect("job")
}

fn node(i: usize, spec: Value) -> Node {
    serde_json::from_value(json!({
        "metadata": { "name": format!("node-{i}") }, "spec": spec,
        "status": { "allocatable": { "pods": "110", "cpu": "4", "memory": "8Gi" } },
    }))
    .expect("node")
}

/// The job's pod on node `i` in `phase`, with `restarts` and its restart policy.
fn pod(i: usize, phase: &str) -> Pod {
    serde_json::from_value(json!({
        "metadata": { "name": format!("warm-p{i}"), "namespace": "ns", "uid": format!("uid-{i}"),
            "creationTimestamp": "2026-12-04T11:00:00Z",
            "labels": { "app": "warm", "broadcastjob-name": "warm", "broadcastjob-controller-uid": "job-uid" } },
        "spec": { "nodeName": format!("node-{i}"), "restartPolicy": "Never",
            "containers": [{ "name": "c", "image": "busybox" }] },
        "status": { "phase": phase, "containerStatuses": [{ "name": "c", "image": "busybox",
            "imageID": "x", "ready": phase == "Running", "restartCount": 0 }] },
    }))
    .expect("pod")
}

fn run(job: &BroadcastJob, nodes: &[Node], pods: &[Pod]) -> Plan {
    plan(&Snapshot {
        job,
        pods: pods.iter().collect(),
        nodes: nodes.iter().collect(),
        now: now(),
    })
}

fn nodes(n: usize) -> Vec<Node> {
    (0..n).map(|i| node(i, json!({}))).collect()
}

fn created_on(plan: &Plan) -> Vec<String> {
    test_views::created_on(&plan.actions)
}

fn deleted(plan: &Plan) -> Vec<String> {
    test_views::deleted_pods(&plan.actions)
}

fn status(plan: &Plan) -> &BroadcastJobStatus {
    plan.status.as_ref().expect("a status")
}

fn condition(plan: &Plan) -> Option<(String, String)> {
    status(plan)
        .conditions
        .iter()
        .flatten()
        .last()
        .map(|c| (c.type_.clone(), c.message.clone().unwrap_or_default()))
}

#[test]
fn a_new_job_starts_one_pod_on_every_fitting_node_pinned_and_labelled() {
    let mut all = nodes(3);
    all.push(node(
        3,
        json!({ "taints": [{ "key": "k", "effect": "NoSchedule" }] }),
    ));
    let plan = run(&job(json!({}), json!({})), &all, &[]);
    assert_eq!(created_on(&plan), ["node-0", "node-1", "node-2"]);
    let s = status(&plan);
    assert_eq!(
        (s.desired, s.active, s.phase.as_deref()),
        (Some(3), Some(3), Some(RUNNING))
    );
    assert_eq!(s.start_time.as_ref().map(|t| t.0), Some(now()));
    let Action::CreatePod { pod, .. } = &plan.actions[0] else {
        panic!("a create")
    };
    let labels = pod.labels();
    assert_eq!(labels.get("broadcastjob-name").map(String::as_str), Some("warm"));
    assert_eq!(
        labels.get("broadcastjob-controller-uid").map(String::as_str),
        Some("job-uid")
    );
    assert_eq!(labels.get("app").map(String::as_str), Some("warm"));
    assert!(pod.name_any().starts_with("warm-"));
    let owner = &pod.owner_references()[0];
    assert_eq!((owner.uid.as_str(), owner.controller), ("job-uid", Some(true)));
}

#[test]
fn parallelism_bounds_active_pods_and_a_percentage_rounds_up() {
    let plan = run(&job(json!({ "parallelism": 2 }), json!({})), &nodes(5), &[]);
    assert_eq!(created_on(&plan), ["node-0", "node-1"]);
    let busy = [pod(0, "Running"), pod(1, "Succeeded")];
    let plan = run(&job(json!({ "parallelism": 2 }), json!({})), &nodes(5), &busy);
    assert_eq!(created_on(&plan), ["node-2"], "one running: one more may start");
    let plan = run(&job(json!({ "parallelism": "30%" }), json!({})), &nodes(5), &[]);
    assert_eq!(created_on(&plan).len(), 2, "30% of 5 rounds up to 2");
}

#[test]
fn every_node_done_completes_the_job_once_and_its_ttl_deletes_it_later() {
    let done = [pod(0, "Succeeded"), pod(1, "Succeeded")];
    let spec = json!({ "completionPolicy": { "ttlSecondsAfterFinished": 30 } });
    let plan = run(&job(spec.clone(), json!({})), &nodes(2), &done);
    assert!(plan.actions.is_empty());
    assert_eq!(status(&plan).phase.as_deref(), Some(COMPLETED));
    assert_eq!(
        condition(&plan),
        Some((
            "Complete".into(),
            "Job completed, 2 pods succeeded, 0 pods failed".into()
        ))
    );
    assert_eq!(plan.notices[0].reason, "JobComplete");
    assert_eq!(plan.requeue_after, Some(Duration::from_secs(31)));

    let finished = serde_json::to_value(status(&plan)).expect("status");
    let mut later = finished.clone();
    later["completionTime"] = json!("2026-12-04T11:59:50Z");
    let waiting = run(&job(spec.clone(), later), &nodes(3), &done);
    assert_eq!(waiting.requeue_after, Some(Duration::from_secs(20)));
    assert!(
        waiting.status.is_none() && waiting.actions.is_empty(),
        "a new node is ignored"
    );
    let mut expired = finished;
    expired["completionTime"] = json!("2026-12-04T11:59:00Z");
    assert!(run(&job(spec, expired), &nodes(2), &done).delete_object);
}

#[test]
fn fail_fast_fails_the_job_and_stops_the_running_pods() {
    let pods = [pod(0, "Failed"), pod(1, "Running"), pod(2, "Succeeded")];
    let plan = run(&job(json!({}), json!({})), &nodes(4), &pods);
    assert_eq!(deleted(&plan), ["warm-p1"]);
    assert!(created_on(&plan).is_empty(), "nothing new on node-3");
    let s = status(&plan);
    assert_eq!(
        (s.phase.as_deref(), s.active, s.failed, s.succeeded),
        (Some(FAILED), Some(0), Some(2), Some(1))
    );
    assert_eq!(condition(&plan).map(|c| c.0).as_deref(), Some("Failed"));
    assert_eq!(plan.problems[0].reason, "failed pod is found");
    // A failed job stays failed and creates nothing more.
    let again = run(
        &job(json!({}), serde_json::to_value(s).expect("json")),
        &nodes(4),
        &pods,
    );
    assert!(again.actions.is_empty());
}

#[test]
fn pause_policy_pauses_and_continue_policy_completes_with_failures() {
    let pods = [pod(0, "Failed"), pod(1, "Succeeded")];
    let paused = run(
        &job(json!({ "failurePolicy": { "type": "Pause" } }), json!({})),
        &nodes(3),
        &pods,
    );
    assert!(paused.actions.is_empty(), "no pod for node-2");
    assert_eq!(status(&paused).phase.as_deref(), Some(PAUSED));
    assert_eq!(paused.problems[0].reason, "Paused");
    let go_on = run(
        &job(json!({ "failurePolicy": { "type": "Continue" } }), json!({})),
        &nodes(2),
        &pods,
    );
    assert_eq!(status(&go_on).phase.as_deref(), Some(COMPLETED));
}

#[test]
fn restart_limit_counts_restarts_of_on_failure_pods_per_pod() {
    let mut flaky = pod(0, "Running");
    flaky.spec.as_mut().expect("spec").restart_policy = Some("OnFailure".into());
    flaky
        .status
        .as_mut()
        .expect("status")
        .container_statuses
        .as_mut()
        .expect("statuses")[0]
        .restart_count = 2;
    let limit = |n: i32| json!({ "failurePolicy": { "type": "FailFast", "restartLimit": n } });
    let within = run(&job(limit(2), json!({})), &nodes(1), std::slice::from_ref(&flaky));
    assert_eq!(status(&within).active, Some(1));
    let over = run(&job(limit(1), json!({})), &nodes(1), std::slice::from_ref(&flaky));
    assert_eq!(status(&over).phase.as_deref(), Some(FAILED));
    assert_eq!(
        deleted(&over),
        ["warm-p0"],
        "a pod over its limit goes when the job fails"
    );
}

#[test]
fn paused_creates_nothing_and_resuming_says_continue() {
    let plan = run(&job(json!({ "paused": true }), json!({})), &nodes(2), &[]);
    assert!(plan.actions.is_empty());
    assert_eq!(status(&plan).phase.as_deref(), Some(PAUSED));
    let stored = serde_json::to_value(status(&plan)).expect("json");
    let resumed = run(&job(json!({}), stored), &nodes(2), &[]);
    assert_eq!(created_on(&resumed).len(), 2);
    assert_eq!(resumed.notices[0].reason, "Continue");
    assert_eq!(status(&resumed).phase.as_deref(), Some(RUNNING));
}

#[test]
fn the_deadline_fails_the_job_and_wakes_it_when_due() {
    let spec = json!({ "completionPolicy": { "activeDeadlineSeconds": 60 } });
    let fresh = run(
        &job(spec.clone(), json!({ "startTime": "2026-12-04T11:59:30Z" })),
        &nodes(1),
        &[pod(0, "Running")],
    );
    assert_eq!(fresh.requeue_after, Some(Duration::from_secs(30)));
    let late = run(
        &job(spec, json!({ "startTime": "2026-12-04T11:58:00Z" })),
        &nodes(1),
        &[pod(0, "Running")],
    );
    assert_eq!(late.problems[0].reason, "DeadlineExceeded");
    assert_eq!(deleted(&late), ["warm-p0"]);
}

#[test]
fn a_deadline_past_the_last_writable_time_is_refused_naming_the_field() {
    for deadline in [i64::MAX, i64::MIN] {
        let spec = json!({ "completionPolicy": { "activeDeadlineSeconds": deadline } });
        let plan = run(
            &job(spec, json!({ "startTime": "2026-12-04T11:59:30Z" })),
            &nodes(2),
            &[pod(0, "Running")],
        );
        let refused = plan.refused.expect("refused");
        assert!(
            refused.contains("spec.completionPolicy.activeDeadlineSeconds"),
            "{refused}"
        );
        assert!(plan.actions.is_empty() && plan.status.is_none());
    }
}

#[test]
fn a_completion_time_whose_ttl_ends_past_the_last_writable_time_never_expires() {
    let spec = json!({ "completionPolicy": { "ttlSecondsAfterFinished": 30 } });
    let status = json!({ "phase": "completed", "completionTime": "9999-12-30T22:00:00Z",
        "conditions": [{ "type": "Complete", "status": "True" }] });
    let plan = run(&job(spec, status), &nodes(1), &[pod(0, "Succeeded")]);
    assert!(!plan.delete_object && plan.requeue_after.is_none() && plan.actions.is_empty());
}

#[test]
fn a_parallelism_percentage_too_large_to_scale_allows_every_node() {
    let spec = json!({ "parallelism": "9223372036854775807%" });
    let plan = run(&job(spec, json!({})), &nodes(3), &[]);
    assert_eq!(created_on(&plan), ["node-0", "node-1", "node-2"]);
}

#[test]
fn a_never_job_never_completes_and_serves_a_new_node() {
    let spec = json!({ "completionPolicy": { "type": "Never" } });
    let pods = [pod(0, "Succeeded"), pod(1, "Succeeded")];
    let plan = run(&job(spec, json!({})), &nodes(3), &pods);
    assert_eq!(created_on(&plan), ["node-2"]);
    assert_ne!(status(&plan).phase.as_deref(), Some(COMPLETED));
}

#[test]
fn a_node_that_stops_fitting_loses_its_pod_and_leaves_desired() {
    let tainted = node(0, json!({ "taints": [{ "key": "k", "effect": "NoExecute" }] }));
    let plan = run(
        &job(json!({}), json!({})),
        &[tainted, node(1, json!({}))],
        &[pod(0, "Running"), pod(1, "Running")],
    );
    assert_eq!(deleted(&plan), ["warm-p0"]);
    let s = status(&plan);
    assert_eq!((s.desired, s.active, s.failed), (Some(1), Some(1), Some(1)));
}

proptest! {
    /// Never more than `parallelism` pods active after a round (when there were not more
    /// before), never a pod created on a node that has one, never two on one node.
    #[test]
    fn parallelism_and_one_pod_per_node_hold(
        node_count in 1usize..12,
        limit in 1i32..6,
        phases in proptest::collection::vec(0u8..5, 12),
    ) {
        let all = nodes(node_count);
        let pods: Vec<Pod> = (0..node_count)
            .filter_map(|i| match phases[i] {
                0 => None,
                1 => Some(pod(i, "Running")),
                2 => Some(pod(i, "Succeeded")),
                3 => Some(pod(i, "Pending")),
                _ => None,
            })
            .collect();
        let j = job(json!({ "parallelism": limit }), json!({}));
        let plan = run(&j, &all, &pods);
        let active_before = pods.iter().filter(|p| matches!(phase_of(p), "Running" | "Pending")).count() as i64;
        let created = created_on(&plan);
        let with_pod: BTreeSet<String> = pods.iter().filter_map(|p| crate::workloads::common::node_fit::node_of(p).map(str::to_owned)).collect();
        prop_assert!(created.iter().all(|n| !with_pod.contains(n)));
        let unique: BTreeSet<&String> = created.iter().collect();
        prop_assert_eq!(unique.len(), created.len());
        let after = active_before + created.len() as i64;
        prop_assert!(after <= i64::from(limit).max(active_before), "{} active after, limit {}", after, limit);
        if let Some(s) = &plan.status {
            prop_assert_eq!(s.active.map(i64::from), Some(after));
        }
    }
}
