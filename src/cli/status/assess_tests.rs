use serde_json::json;

use super::*;
use crate::api::KruiseKind;

fn clone(generation: i64, observed: i64, updated: i64, ready: i64, paused: bool) -> Value {
    json!({
        "metadata": { "generation": generation },
        "spec": {
            "replicas": 4, "updateStrategy": { "paused": paused },
            "selector": { "matchLabels": { "app": "web" } },
                "template": { "metadata": { "labels": { "app": "web" } } },
        },
        "status": {
            "observedGeneration": observed, "replicas": 4, "readyReplicas": 4,
            "updatedReplicas": updated, "updatedReadyReplicas": ready,
            "updatedAvailableReplicas": ready, "expectedUpdatedReplicas": 4,
            "updateRevision": "web-2",
        },
    })
}

fn now() -> Timestamp {
    "2026-12-02T12:00:00Z".parse().expect("time")
}

/// A pod at `revision`; `extra` is merged into its status.
fn pod(name: &str, revision: &str, conditions: Value, containers: Value) -> Pod {
    serde_json::from_value(json!({
        "metadata": { "name": name, "labels": { "controller-revision-hash": revision } },
        "spec": { "nodeName": "node-1", "containers": [{ "name": "app", "image": "nginx:2" }] },
        "status": { "conditions": conditions, "containerStatuses": containers },
    }))
    .expect("pod")
}

fn running(image: &str) -> Value {
    json!([{ "name": "app", "image": image, "imageID": "", "ready": true, "restartCount": 0,
        "state": { "running": {} } }])
}

fn waiting(reason: &str) -> Value {
    json!([{ "name": "app", "image": "nginx:1", "imageID": "", "ready": false, "restartCount": 0,
        "state": { "waiting": { "reason": reason } } }])
}

fn observed<'a>(object: &'a Value, pods: &'a [Pod]) -> Observed<'a> {
    Observed {
        kind: Kind::Kruise(KruiseKind::CloneSet),
        name: "web",
        object,
        pods,
        update_hash: Some("web-2"),
        revision_number: Some(2),
        now: now(),
        stuck_after: Some(Duration::from_secs(300)),
        budgets: &[],
    }
}

#[test]
fn a_cloneset_is_complete_only_when_updated_pods_are_ready_and_the_generation_observed() {
    let o = clone(2, 1, 4, 4, false);
    assert_eq!(assess(&observed(&o, &[])).phase, Phase::Progressing);
    let o = clone(2, 2, 4, 3, false);
    assert_eq!(assess(&observed(&o, &[])).phase, Phase::Progressing);
    let o = clone(2, 2, 4, 4, false);
    let report = assess(&observed(&o, &[]));
    assert_eq!(report.phase, Phase::Complete);
    assert!(
        report
            .line
            .contains("successfully rolled out (revision 2 web-2, 4/4 ready"),
        "{}",
        report.line
    );
}

#[test]
fn paused_says_how_to_resume() {
    let o = clone(2, 2, 1, 1, true);
    let report = assess(&observed(&o, &[]));
    assert_eq!(report.phase, Phase::Paused);
    assert!(
        report
            .line
            .contains("resume with: kubectl kruise rollout resume cloneset/web"),
        "{}",
        report.line
    );
}

#[test]
fn a_failing_updated_pod_is_named_but_an_old_one_does_not_fail_the_rollout() {
    let o = clone(2, 2, 1, 1, false);
    let bad = [pod("web-a", "web-2", json!([]), waiting("ImagePullBackOff"))];
    let report = assess(&observed(&o, &bad));
    assert_eq!(report.phase, Phase::Failed);
    assert!(
        report.line.contains("pod web-a container app: ImagePullBackOff"),
        "{}",
        report.line
    );
    assert_eq!(report.pods[0].state, PodState::Failing);
    let old = [pod("web-a", "web-1", json!([]), waiting("CrashLoopBackOff"))];
    assert_eq!(assess(&observed(&o, &old)).phase, Phase::Progressing);
    let mut off = observed(&o, &bad);
    off.stuck_after = None;
    assert_eq!(assess(&off).phase, Phase::Progressing, "--no-fail-fast");
}

#[test]
fn an_in_place_update_past_stuck_after_fails_naming_the_container() {
    let o = clone(2, 2, 1, 0, false);
    let gate =
        |at: &str| json!([{ "type": "InPlaceUpdateReady", "status": "False", "lastTransitionTime": at }]);
    let young = [pod(
        "web-a",
        "web-2",
        gate("2026-12-02T11:58:00Z"),
        running("nginx:1"),
    )];
    let report = assess(&observed(&o, &young));
    assert_eq!(report.phase, Phase::Progressing);
    assert_eq!(report.pods[0].state, PodState::UpdatingInPlace);
    assert_eq!(report.pods[0].detail, "app 1 -> 2 (120s)");
    assert!(report.line.contains("1 updating in place"), "{}", report.line);
    let old = [pod(
        "web-a",
        "web-2",
        gate("2026-12-02T11:50:00Z"),
        running("nginx:1"),
    )];
    let report = assess(&observed(&o, &old));
    assert_eq!(report.phase, Phase::Failed);
    assert!(
        report
            .line
            .contains("pod web-a container app: in-place update not finished after 600s"),
        "{}",
        report.line
    );
}

#[test]
fn pod_rows_say_old_starting_waiting_for_gate_and_ready_updated_first() {
    let o = clone(2, 2, 3, 1, false);
    let ready =
        json!([{ "type": "Ready", "status": "True" }, { "type": "ContainersReady", "status": "True" }]);
    let gated =
        json!([{ "type": "Ready", "status": "False" }, { "type": "ContainersReady", "status": "True" }]);
    let pods = [
        pod("web-a", "web-1", ready.clone(), running("nginx:1")),
        pod("web-b", "web-2", ready, running("nginx:2")),
        pod("web-c", "web-2", gated, running("nginx:2")),
        pod("web-d", "web-2", json!([]), json!([])),
    ];
    let report = assess(&observed(&o, &pods));
    let states: Vec<(&str, PodState)> = report.pods.iter().map(|p| (p.name.as_str(), p.state)).collect();
    assert_eq!(
        states,
        [
            ("web-b", PodState::Ready),
            ("web-c", PodState::WaitingForGate),
            ("web-d", PodState::Starting),
            ("web-a", PodState::Old),
        ]
    );
}

#[test]
fn a_partition_is_shown_in_absolute_numbers_with_the_raw_value() {
    let mut o = clone(2, 2, 2, 2, false);
    o["spec"]["updateStrategy"]["partition"] = json!("50%");
    o["status"]["expectedUpdatedReplicas"] = json!(2);
    let report = assess(&observed(&o, &[]));
    assert_eq!(report.phase, Phase::Complete);
    assert!(
        report.line.ends_with("4/4 ready, partition holds 2 (50%))"),
        "{}",
        report.line
    );
    assert_eq!(report.counts.partition, 2);
}

#[test]
fn a_deployment_completes_when_every_replica_is_updated_and_available() {
    let object = |updated: i64, available: i64, total: i64| {
        json!({
            "metadata": { "generation": 3 },
            "spec": { "replicas": 3 },
            "status": { "observedGeneration": 3, "replicas": total, "updatedReplicas": updated,
                "readyReplicas": available, "availableReplicas": available },
        })
    };
    let run = |o: &Value| {
        assess(&Observed {
            kind: Kind::Deployment,
            name: "front",
            object: o,
            pods: &[],
            update_hash: Some("abc"),
            revision_number: Some(3),
            now: now(),
            stuck_after: Some(Duration::from_secs(300)),
            budgets: &[],
        })
    };
    assert_eq!(run(&object(3, 2, 4)).phase, Phase::Progressing);
    assert_eq!(
        run(&object(3, 3, 4)).phase,
        Phase::Progressing,
        "an old pod is left"
    );
    let done = run(&object(3, 3, 3));
    assert_eq!(done.phase, Phase::Complete);
    assert!(
        done.line
            .starts_with("deployment/front successfully rolled out (revision 3 abc, 3/3 ready")
    );
}

#[test]
fn a_partition_holds_only_old_pods_so_extra_updated_pods_must_be_ready() {
    // A new set with partition 2: every pod is at the update revision already.
    let mut o = clone(1, 1, 4, 2, false);
    o["spec"]["updateStrategy"]["partition"] = json!(2);
    o["status"]["expectedUpdatedReplicas"] = json!(2);
    let report = assess(&observed(&o, &[]));
    assert_eq!(report.phase, Phase::Progressing, "{}", report.line);
    assert_eq!((report.counts.expected_updated, report.counts.partition), (4, 0));
    o["status"]["updatedReadyReplicas"] = json!(4);
    o["status"]["updatedAvailableReplicas"] = json!(4);
    let report = assess(&observed(&o, &[]));
    assert_eq!(report.phase, Phase::Complete);
    assert!(!report.line.contains("partition"), "{}", report.line);
}

#[test]
fn a_failure_left_from_an_earlier_image_does_not_fail_the_rollout() {
    let o = clone(2, 2, 1, 1, false);
    let with = |image: &str, reason: &str, message: &str| {
        let containers = json!([{ "name": "app", "image": image, "imageID": "", "ready": false,
            "restartCount": 0, "state": { "waiting": { "reason": reason, "message": message } } }]);
        [pod("web-a", "web-2", json!([]), containers)]
    };
    let phase = |pods: &[Pod]| assess(&observed(&o, pods)).phase;
    let stale_pull = with(
        "nginx:1",
        "ImagePullBackOff",
        "Back-off pulling image \"nginx:broken\"",
    );
    assert_eq!(phase(&stale_pull), Phase::Progressing, "spec is nginx:2 now");
    let pull = with(
        "nginx:1",
        "ImagePullBackOff",
        "Back-off pulling image \"docker.io/library/nginx:2\"",
    );
    assert_eq!(phase(&pull), Phase::Failed, "normalised names are the same image");
    let stale_crash = with("nginx:crash", "CrashLoopBackOff", "back-off");
    assert_eq!(phase(&stale_crash), Phase::Progressing);
    let crash = with("docker.io/library/nginx:2", "CrashLoopBackOff", "back-off");
    assert_eq!(phase(&crash), Phase::Failed);
}

#[test]
fn an_image_change_reads_short_and_a_grace_period_says_so() {
    assert_eq!(
        image_change("g", "openkruise/guestbook:v1", "openkruise/guestbook:v2"),
        "g v1 -> v2"
    );
    assert_eq!(
        image_change("app", "nginx:1", "nginx@sha256:ab"),
        "app 1 -> sha256:ab"
    );
    assert_eq!(
        image_change("app", "nginx:1", "httpd:2"),
        "app: nginx:1 -> httpd:2"
    );
    assert_eq!(
        image_change("app", "reg:5000/app:1", "reg:5000/app"),
        "app: reg:5000/app:1 -> reg:5000/app"
    );

    let o = clone(2, 2, 1, 0, false);
    let gate = json!([{ "type": "InPlaceUpdateReady", "status": "False",
        "lastTransitionTime": "2026-12-02T11:59:57Z" }]);
    let mut p = pod("web-a", "web-2", gate, running("nginx:1"));
    p.spec.as_mut().expect("spec").containers[0].image = Some("nginx:1".into());
    p.metadata.annotations = Some(
        [(
            "apps.kruise.io/inplace-update-grace".to_string(),
            r#"{"revision":"web-2","containerImages":{"app":"nginx:2"},"graceSeconds":10}"#.to_string(),
        )]
        .into(),
    );
    let report = assess(&observed(&o, &[p]));
    assert_eq!(report.pods[0].state, PodState::UpdatingInPlace);
    assert!(
        report.pods[0].detail.starts_with("app 1 -> 2, grace ") && report.pods[0].detail.ends_with("/10s"),
        "{}",
        report.pods[0].detail
    );
}

#[test]
fn an_unreadable_cloneset_fails_at_once_naming_the_field_or_is_waited_for_without_fail_fast() {
    let mut o = clone(2, 1, 0, 0, false);
    o["spec"]["replicas"] = json!("three");
    let report = assess(&observed(&o, &[]));
    assert_eq!(report.phase, Phase::Failed);
    assert!(
        report
            .line
            .starts_with("cloneset/web cannot be read: spec.replicas: invalid type"),
        "{}",
        report.line
    );
    let patient = Observed {
        stuck_after: None,
        ..observed(&o, &[])
    };
    let report = assess(&patient);
    assert_eq!(report.phase, Phase::Progressing);
    assert!(
        report
            .line
            .starts_with("Waiting for cloneset/web cannot be read: spec.replicas"),
        "{}",
        report.line
    );
}

#[test]
fn a_cloneset_the_planner_refuses_fails_with_its_invalid_spec_message() {
    let mut o = clone(2, 1, 0, 0, false);
    o["metadata"]["name"] = json!("web");
    o["spec"]["updateStrategy"]["partition"] = json!("half");
    let report = assess(&observed(&o, &[]));
    assert_eq!(report.phase, Phase::Failed);
    assert!(
        report
            .line
            .starts_with("CloneSet web: spec.updateStrategy.partition")
            && report.line.contains("half"),
        "{}",
        report.line
    );
}

#[test]
fn a_budget_that_allows_no_more_unavailable_pods_is_named_while_pods_wait() {
    let o = clone(2, 2, 1, 1, false);
    let named = |name: &str, revision: &str| pod(name, revision, json!([]), running("nginx:2"));
    let budget = |allowed| Budget {
        name: "shop".into(),
        unavailable_allowed: allowed,
        current_available: 3,
        desired_available: 3,
        pods: vec!["web-a".into(), "web-b".into()],
    };
    let pods = [named("web-a", "web-2"), named("web-b", "web-1")];
    let held = [budget(0)];
    let mut seen = observed(&o, &pods);
    seen.budgets = &held;
    let report = assess(&seen);
    assert_eq!(report.phase, Phase::Progressing);
    assert!(
        report.line.contains(
            ", PodUnavailableBudget shop allows no more unavailable pods (3 available, 3 desired)..."
        ),
        "{}",
        report.line
    );
    assert_eq!(report.held_by, ["shop"]);
    let json = serde_json::to_value(&report).expect("json");
    assert_eq!(json["heldBy"], json!(["shop"]));
    // Room in the budget, or no pod left waiting: not named.
    let room = [budget(1)];
    seen.budgets = &room;
    assert!(assess(&seen).held_by.is_empty());
    let updated = [named("web-a", "web-2")];
    let mut done_waiting = observed(&o, &updated);
    done_waiting.budgets = &held;
    let report = assess(&done_waiting);
    assert!(report.held_by.is_empty(), "{}", report.line);
    assert!(
        serde_json::to_value(&report)
            .expect("json")
            .get("heldBy")
            .is_none()
    );
}
