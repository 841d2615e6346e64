use std::time::Duration;

use k8s_openapi::api::core::v1::Pod;
use serde_json::{Value, json};

use super::*;

/// A pod builder for the table tests.
struct TestPod(Value);

impl TestPod {
    fn bound() -> Self {
        TestPod(json!({
            "metadata": { "name": "p", "namespace": "ns", "uid": "u-1" },
            "spec": { "nodeName": "sim-node-0", "containers": [ { "name": "app", "image": "nginx:1" } ] },
            "status": { "phase": "Pending" },
        }))
    }
    fn unbound() -> Self {
        let mut p = Self::bound();
        p.0["spec"].as_object_mut().map(|s| s.remove("nodeName"));
        p
    }
    fn with(mut self, pointer: &str, value: Value) -> Self {
        let (parent, key) = pointer.rsplit_once('/').unwrap_or(("", pointer));
        let mut target = &mut self.0;
        for part in parent.split('/').filter(|p| !p.is_empty()) {
            target = match part.parse::<usize>() {
                Ok(i) => &mut target[i],
                Err(_) => &mut target[part],
            };
        }
        match key.parse::<usize>() {
            Ok(i) => target[i] = value,
            Err(_) => target[key] = value,
        }
        self
    }
    fn running(self) -> Self {
        let image = self.0["spec"]["containers"][0]["image"].clone();
        self.with("/status/phase", json!("Running"))
            .with("/status/conditions", json!([ { "type": "Ready", "status": "True" } ]))
            .with(
            "/status/containerStatuses",
            json!([ { "name": "app", "image": image, "imageID": "x", "ready": true, "restartCount": 0,
                      "containerID": "sim://old", "state": { "running": { "startedAt": "2026-01-01T00:00:00Z" } } } ]),
        )
    }
    fn gate(self, kind: &str) -> Self {
        self.with("/spec/readinessGates", json!([ { "conditionType": kind } ]))
    }
    fn conditions(self, list: Value) -> Self {
        self.with("/status/conditions", list)
    }
    fn annotate(self, key: &str, value: &str) -> Self {
        self.with(
            "/metadata/annotations",
            json!({ format!("{SIM_ANNOTATION_PREFIX}{key}"): value }),
        )
    }
    fn pod(&self) -> Pod {
        serde_json::from_value(self.0.clone()).expect("test pod is a valid Pod")
    }
}

const NO_IMAGES: &Images = &Images {
    same_digest: BTreeMap::new(),
    exit_without_command: std::collections::BTreeSet::new(),
    missing: std::collections::BTreeSet::new(),
};

const NO_PORTS: &std::collections::BTreeSet<(String, i32)> = &std::collections::BTreeSet::new();

fn ctx(waited: Duration) -> Context<'static> {
    Context {
        now: "2026-12-02T00:00:00Z".parse().expect("valid timestamp"),
        waited,
        host_ip: "127.0.1.1",
        pod_ip: "10.244.0.1",
        defaults: Defaults::default(),
        images: NO_IMAGES,
        host_ports_taken: NO_PORTS,
    }
}

fn patch(step: Step) -> Value {
    match step {
        Step::PatchStatus(v) => v,
        other => panic!("expected a status patch, got {other:?}"),
    }
}

fn ready_of(patch: &Value) -> Option<&str> {
    patch["status"]["conditions"]
        .as_array()?
        .iter()
        .find(|c| c["type"] == "Ready")?["status"]
        .as_str()
}

#[test]
fn an_unbound_pod_is_left_alone() {
    assert_eq!(
        plan(&TestPod::unbound().pod(), &ctx(Duration::ZERO)),
        Step::Nothing
    );
}

#[test]
fn a_bound_pod_starts_running_with_ready_containers_and_derived_image_ids() {
    let p = patch(plan(&TestPod::bound().pod(), &ctx(Duration::ZERO)));
    assert_eq!(p["status"]["phase"], "Running");
    assert_eq!(p["status"]["podIP"], "10.244.0.1");
    assert_eq!(p["status"]["hostIP"], "127.0.1.1");
    let c = &p["status"]["containerStatuses"][0];
    assert_eq!(c["image"], "nginx:1");
    assert_eq!(c["imageID"], image_id("nginx:1"));
    assert!(
        c["imageID"]
            .as_str()
            .is_some_and(|id| id.starts_with("sim://nginx:1@sha256:") && id.len() > 70)
    );
    assert_eq!(
        (c["ready"].clone(), c["restartCount"].clone()),
        (json!(true), json!(0))
    );
    assert_eq!(ready_of(&p), Some("True"));
}

#[test]
fn a_pod_with_readiness_gates_starts_not_ready() {
    let p = patch(plan(
        &TestPod::bound().gate("InPlaceUpdateReady").pod(),
        &ctx(Duration::ZERO),
    ));
    assert_eq!(ready_of(&p), Some("False"));
}

#[test]
fn start_waits_for_start_and_image_pull_delays_added() {
    let pod = TestPod::bound().annotate("start-delay", "2s").pod();
    let pod_json = serde_json::to_value(&pod).expect("serializable");
    let mut both = TestPod(pod_json);
    both.0["metadata"]["annotations"][format!("{SIM_ANNOTATION_PREFIX}image-pull-delay")] = json!("1500ms");
    let pod = both.pod();
    assert_eq!(
        plan(&pod, &ctx(Duration::from_secs(1))),
        Step::Wait {
            key: WaitKey::Start,
            remaining: Duration::from_millis(2500)
        }
    );
    assert!(matches!(
        plan(&pod, &ctx(Duration::from_millis(3500))),
        Step::PatchStatus(_)
    ));
}

#[test]
fn gates_met_turns_ready_true_and_unmet_turns_it_false() {
    let base = TestPod::bound().gate("InPlaceUpdateReady").running();
    let met = base.conditions(json!([ { "type": "InPlaceUpdateReady", "status": "True" },
                                       { "type": "Ready", "status": "False" } ]));
    assert_eq!(
        ready_of(&patch(plan(&met.pod(), &ctx(Duration::ZERO)))),
        Some("True")
    );

    let unmet = TestPod::bound()
        .gate("InPlaceUpdateReady")
        .running()
        .conditions(json!([
        { "type": "InPlaceUpdateReady", "status": "False" }, { "type": "Ready", "status": "True" } ]));
    assert_eq!(
        ready_of(&patch(plan(&unmet.pod(), &ctx(Duration::ZERO)))),
        Some("False")
    );

    let missing = TestPod::bound()
        .gate("InPlaceUpdateReady")
        .running()
        .conditions(json!([
        { "type": "Ready", "status": "True" } ]));
    assert_eq!(
        ready_of(&patch(plan(&missing.pod(), &ctx(Duration::ZERO)))),
        Some("False")
    );
}

#[test]
fn the_kubelet_never_writes_a_readiness_gate_condition() {
    let pod = TestPod::bound()
        .gate("InPlaceUpdateReady")
        .running()
        .conditions(json!([
        { "type": "Ready", "status": "True" } ]));
    let p = patch(plan(&pod.pod(), &ctx(Duration::ZERO)));
    let kinds: Vec<&str> = p["status"]["conditions"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|c| c["type"].as_str())
        .collect();
    assert_eq!(kinds, vec!["Ready"]);
}

#[test]
fn a_ready_pod_in_sync_needs_nothing() {
    let pod = TestPod::bound()
        .running()
        .conditions(json!([ { "type": "Ready", "status": "True" } ]));
    assert_eq!(plan(&pod.pod(), &ctx(Duration::ZERO)), Step::Nothing);
}

#[test]
fn an_image_change_restarts_only_that_container_in_place() {
    let pod = TestPod::bound()
        .with("/spec/containers", json!([ { "name": "app", "image": "nginx:2" }, { "name": "side", "image": "s:1" } ]))
        .with("/status/phase", json!("Running"))
        .with("/status/containerStatuses", json!([
            { "name": "app", "image": "nginx:1", "imageID": image_id("nginx:1"), "ready": true, "restartCount": 0,
              "containerID": "sim://a0", "state": { "running": { "startedAt": "2026-01-01T00:00:00Z" } } },
            { "name": "side", "image": "s:1", "imageID": image_id("s:1"), "ready": true, "restartCount": 0,
              "containerID": "sim://s0", "state": { "running": { "startedAt": "2026-01-01T00:00:00Z" } } } ]))
        .pod();
    let mut images = std::collections::BTreeMap::new();
    images.insert("app".to_string(), "nginx:2".to_string());
    images.insert("side".to_string(), "s:1".to_string());
    assert_eq!(wait_key(&pod), Some(WaitKey::Restart(images)));
    let p = patch(plan(&pod, &ctx(Duration::ZERO)));
    let list = &p["status"]["containerStatuses"];
    assert_eq!(list[0]["image"], "nginx:2");
    assert_eq!(list[0]["imageID"], image_id("nginx:2"));
    assert_eq!(list[0]["restartCount"], 1);
    assert_ne!(list[0]["containerID"], "sim://a0");
    assert_eq!(list[0]["lastState"]["terminated"]["containerID"], "sim://a0");
    assert_eq!(list[1]["imageID"], image_id("s:1"));
    assert_eq!(list[1]["restartCount"], 0);
    assert_eq!(list[1]["containerID"], "sim://s0");
}

#[test]
fn an_image_change_waits_for_the_image_pull_delay() {
    let pod = TestPod::bound()
        .running()
        .with("/spec/containers/0/image", json!("nginx:2"));
    let pod = TestPod(serde_json::to_value(pod.pod()).expect("serializable"))
        .annotate("image-pull-delay", "3s")
        .pod();
    assert!(
        matches!(plan(&pod, &ctx(Duration::from_secs(1))), Step::Wait { remaining, .. } if remaining == Duration::from_secs(2))
    );
}

#[test]
fn a_never_restarting_pod_succeeds_after_the_completion_delay() {
    let pod = TestPod::bound()
        .with("/spec/restartPolicy", json!("Never"))
        .running()
        .pod();
    assert_eq!(wait_key(&pod), Some(WaitKey::Completion(0)));
    assert!(matches!(
        plan(&pod, &ctx(Duration::from_millis(100))),
        Step::Wait { .. }
    ));
    let p = patch(plan(&pod, &ctx(Duration::from_secs(1))));
    assert_eq!(p["status"]["phase"], "Succeeded");
    assert_eq!(
        p["status"]["containerStatuses"][0]["state"]["terminated"]["exitCode"],
        0
    );
    assert_eq!(ready_of(&p), Some("False"));
}

#[test]
fn a_non_zero_exit_code_annotation_fails_the_pod() {
    let pod = TestPod::bound()
        .with("/spec/restartPolicy", json!("Never"))
        .running()
        .annotate("exit-code", "3");
    let p = patch(plan(&pod.pod(), &ctx(Duration::from_secs(5))));
    assert_eq!(p["status"]["phase"], "Failed");
    assert_eq!(
        p["status"]["containerStatuses"][0]["state"]["terminated"]["exitCode"],
        3
    );
}

#[test]
fn under_on_failure_a_non_zero_exit_restarts_the_container_and_it_runs_again() {
    let pod = TestPod::bound()
        .with("/spec/restartPolicy", json!("OnFailure"))
        .running()
        .annotate("exit-code", "3");
    let p = patch(plan(&pod.pod(), &ctx(Duration::from_secs(5))));
    assert!(p["status"].get("phase").is_none(), "still Running: {p}");
    let status = &p["status"]["containerStatuses"][0];
    assert_eq!(status["restartCount"], 1);
    assert_eq!(status["lastState"]["terminated"]["exitCode"], 3);
    assert!(status["state"]["running"].is_object());
    // The restart starts a new wait: the next exit comes one completion delay later.
    let restarted = pod
        .with("/status/containerStatuses/0/restartCount", json!(1))
        .pod();
    assert_eq!(wait_key(&restarted), Some(WaitKey::Completion(1)));
}

#[test]
fn a_finished_pod_is_left_alone() {
    let pod = TestPod::bound().with("/status/phase", json!("Succeeded"));
    assert_eq!(plan(&pod.pod(), &ctx(Duration::from_secs(5))), Step::Nothing);
}

#[test]
fn a_deleting_pod_is_deleted_once_with_grace_zero() {
    let deleting = TestPod::bound()
        .running()
        .with("/metadata/deletionTimestamp", json!("2026-12-02T00:00:00Z"));
    assert_eq!(plan(&deleting.pod(), &ctx(Duration::ZERO)), Step::Delete);
    let forced = deleting.with("/metadata/deletionGracePeriodSeconds", json!(0));
    assert_eq!(plan(&forced.pod(), &ctx(Duration::ZERO)), Step::Nothing);
}

/// Applies a status patch the way the API server's strategic merge does for these
/// fields: whole container status list, conditions merged by type.
fn applied(pod: &Pod, p: &Value) -> Pod {
    let mut v = serde_json::to_value(pod).expect("serializable");
    let status = &p["status"];
    for (k, val) in status.as_object().expect("status object") {
        if k == "conditions" {
            let mut list = v["status"]["conditions"].as_array().cloned().unwrap_or_default();
            for c in val.as_array().expect("list") {
                list.retain(|o| o["type"] != c["type"]);
                list.push(c.clone());
            }
            v["status"]["conditions"] = json!(list);
        } else {
            v["status"][k] = val.clone();
        }
    }
    serde_json::from_value(v).expect("still a Pod")
}

fn waiting_reason(p: &Value, i: usize) -> &str {
    p["status"]["containerStatuses"][i]["state"]["waiting"]["reason"]
        .as_str()
        .unwrap_or("")
}

#[test]
fn a_pod_whose_image_fails_to_pull_stays_pending_in_image_pull_back_off_once() {
    let pod = TestPod::bound()
        .with("/spec/containers/0/image", json!("nginx:broken"))
        .annotate("pull-fails", "other:1, nginx:broken")
        .pod();
    let p = patch(plan(&pod, &ctx(Duration::ZERO)));
    assert_eq!(p["status"]["phase"], "Pending");
    assert_eq!(waiting_reason(&p, 0), "ImagePullBackOff");
    assert_eq!(ready_of(&p), Some("False"));
    let after = applied(&pod, &p);
    assert_eq!(
        plan(&after, &ctx(Duration::from_secs(60))),
        Step::Nothing,
        "idempotent"
    );
}

#[test]
fn an_in_place_change_to_an_image_that_fails_to_pull_keeps_the_old_image_and_id() {
    let base = TestPod::bound().running().annotate("pull-fails", "nginx:broken");
    let pod = base.with("/spec/containers/0/image", json!("nginx:broken")).pod();
    let p = patch(plan(&pod, &ctx(Duration::ZERO)));
    let c = &p["status"]["containerStatuses"][0];
    assert_eq!(
        (c["image"].as_str(), c["imageID"].as_str()),
        (Some("nginx:1"), Some("x"))
    );
    assert_eq!(waiting_reason(&p, 0), "ImagePullBackOff");
    assert_eq!(c["restartCount"], 0);
    assert_eq!(ready_of(&p), Some("False"));
    let after = applied(&pod, &p);
    assert_eq!(wait_key(&after), None, "nothing more to restart for this image");
    assert_eq!(
        plan(&after, &ctx(Duration::from_secs(60))),
        Step::Nothing,
        "idempotent"
    );

    // Undo to the old image: the container is retried and runs again.
    let mut undone = serde_json::to_value(&after).expect("serializable");
    undone["spec"]["containers"][0]["image"] = json!("nginx:1");
    let undone: Pod = serde_json::from_value(undone).expect("pod");
    let p = patch(plan(&undone, &ctx(Duration::ZERO)));
    let c = &p["status"]["containerStatuses"][0];
    assert_eq!(c["image"], "nginx:1");
    assert!(c["state"]["running"].is_object(), "{c}");
    assert_eq!(p["status"]["conditions"][0]["type"], "ContainersReady");
}

#[test]
fn a_crashing_image_shows_the_new_image_in_crash_loop_back_off_and_restarts_once() {
    let pod = TestPod::bound()
        .running()
        .annotate("crash-images", "nginx:crash")
        .with("/spec/containers/0/image", json!("nginx:crash"))
        .pod();
    let p = patch(plan(&pod, &ctx(Duration::ZERO)));
    let c = &p["status"]["containerStatuses"][0];
    assert_eq!(c["image"], "nginx:crash");
    assert_eq!(c["imageID"], image_id("nginx:crash"));
    assert_eq!(c["restartCount"], 1);
    assert_eq!(waiting_reason(&p, 0), "CrashLoopBackOff");
    assert_eq!(ready_of(&p), Some("False"));
    let after = applied(&pod, &p);
    assert_eq!(
        plan(&after, &ctx(Duration::from_secs(60))),
        Step::Nothing,
        "restarted once"
    );

    let fresh = TestPod::bound()
        .with("/spec/containers/0/image", json!("nginx:crash"))
        .annotate("crash-images", "nginx:crash")
        .pod();
    let p = patch(plan(&fresh, &ctx(Duration::ZERO)));
    assert_eq!(p["status"]["phase"], "Running");
    assert_eq!(waiting_reason(&p, 0), "CrashLoopBackOff");
    assert_eq!(ready_of(&p), Some("False"));
}

#[test]
fn a_hanging_restart_never_finishes_but_gates_still_apply() {
    let pod = TestPod::bound()
        .running()
        .gate("InPlaceUpdateReady")
        .conditions(json!([ { "type": "Ready", "status": "True" }, { "type": "InPlaceUpdateReady", "status": "False" } ]))
        .annotate("restart-hangs", "true")
        .with("/spec/containers/0/image", json!("nginx:2"))
        .pod();
    let p = patch(plan(&pod, &ctx(Duration::from_secs(60))));
    assert_eq!(ready_of(&p), Some("False"));
    assert!(p["status"].get("containerStatuses").is_none(), "{p}");
    let after = applied(&pod, &p);
    assert_eq!(plan(&after, &ctx(Duration::from_secs(600))), Step::Nothing);
}

#[test]
fn a_container_with_a_post_start_sleep_is_ready_only_after_the_hook() {
    let hooked = TestPod::bound().with(
        "/spec/containers/0/lifecycle",
        json!({ "postStart": { "exec": { "command": ["sleep", "10"] } } }),
    );
    let started = patch(plan(&hooked.pod(), &ctx(Duration::ZERO)));
    assert_eq!(started["status"]["containerStatuses"][0]["ready"], json!(false));
    assert_eq!(ready_of(&started), Some("False"));

    // Running since 00:00:00, the hook sleeps 10 s: at 00:00:05 the kubelet waits 6 s more.
    let running = hooked
        .running()
        .with("/status/containerStatuses/0/ready", json!(false))
        .with(
            "/status/conditions",
            json!([ { "type": "Ready", "status": "False" } ]),
        );
    let mut at = ctx(Duration::ZERO);
    at.now = "2026-01-01T00:00:05Z".parse().expect("timestamp");
    assert_eq!(
        plan(&running.pod(), &at),
        Step::Wait {
            key: WaitKey::PostStart,
            remaining: Duration::from_secs(6)
        }
    );
    at.now = "2026-01-01T00:00:11Z".parse().expect("timestamp");
    let ready = patch(plan(&running.pod(), &at));
    assert_eq!(ready["status"]["containerStatuses"][0]["ready"], json!(true));

    // `sh -c "sleep 3"` is the same hook; any other hook takes no time.
    let shell = TestPod::bound().with(
        "/spec/containers/0/lifecycle",
        json!({ "postStart": { "exec": { "command": ["/bin/sh", "-c", "sleep 3"] } } }),
    );
    assert_eq!(post_start_delay(&shell.pod(), "app"), Duration::from_secs(3));
    let other = TestPod::bound().with(
        "/spec/containers/0/lifecycle",
        json!({ "postStart": { "exec": { "command": ["touch", "/tmp/x"] } } }),
    );
    assert_eq!(post_start_delay(&other.pod(), "app"), Duration::ZERO);
}

#[test]
fn the_simulated_registry_knows_shared_digests_and_images_that_exit_without_a_command() {
    let images = Images {
        same_digest: BTreeMap::from([("nginx:mainline".to_string(), "nginx:alpine".to_string())]),
        exit_without_command: ["busybox:1".to_string()].into(),
        missing: ["invalid.io/alpine:3".to_string()].into(),
    };
    let mut at = ctx(Duration::ZERO);
    at.images = &images;
    assert_eq!(images.id("nginx:mainline"), image_id("nginx:alpine"));
    assert_eq!(images.id("nginx:1"), image_id("nginx:1"));

    // Without a command busybox exits: it crashes on start, and on an in-place change to it.
    let bare = TestPod::bound().with("/spec/containers/0/image", json!("busybox:1"));
    let started = patch(plan(&bare.pod(), &at));
    assert_eq!(
        started["status"]["containerStatuses"][0]["state"]["waiting"]["reason"],
        "CrashLoopBackOff"
    );
    let changed = TestPod::bound()
        .running()
        .with("/spec/containers/0/image", json!("busybox:1"));
    let restarted = patch(plan(&changed.pod(), &at));
    let status = &restarted["status"]["containerStatuses"][0];
    assert_eq!(status["state"]["waiting"]["reason"], "CrashLoopBackOff");
    assert!(status["lastState"]["terminated"].is_object());

    // A missing image fails to pull, on start as with the pull-fails annotation.
    let missing = TestPod::bound().with("/spec/containers/0/image", json!("invalid.io/alpine:3"));
    let pending = patch(plan(&missing.pod(), &at));
    assert_eq!(pending["status"]["phase"], "Pending");
    assert_eq!(
        pending["status"]["containerStatuses"][0]["state"]["waiting"]["reason"],
        "ImagePullBackOff"
    );

    // With a command it runs.
    let commanded = bare.with("/spec/containers/0/command", json!(["sleep", "999"]));
    let started = patch(plan(&commanded.pod(), &at));
    assert_eq!(started["status"]["containerStatuses"][0]["ready"], json!(true));
}

#[test]
fn a_pod_whose_host_port_the_node_already_gives_out_is_rejected() {
    let taken: std::collections::BTreeSet<(String, i32)> = [("TCP".to_string(), 21017)].into();
    let mut at = ctx(Duration::ZERO);
    at.host_ports_taken = &taken;
    let wants = TestPod::bound().with(
        "/spec/containers/0/ports",
        json!([{ "containerPort": 21017, "hostPort": 21017 }]),
    );
    let rejected = patch(plan(&wants.pod(), &at));
    assert_eq!(rejected["status"]["phase"], "Failed");
    assert_eq!(rejected["status"]["reason"], "NodePorts");
    // Another port, or the same port over UDP, starts.
    let other = TestPod::bound().with(
        "/spec/containers/0/ports",
        json!([{ "containerPort": 80, "hostPort": 21018 }, { "containerPort": 53, "hostPort": 21017, "protocol": "UDP" }]),
    );
    assert_eq!(patch(plan(&other.pod(), &at))["status"]["phase"], "Running");
}
