//! Conformance of the simulated kubelet on bare pods, against the real control plane:
//! start, readiness gates both ways, in-place image restart, completion, deletion,
//! per-pod delays, PVC binding; and of the plane's namespaces (their `default`
//! ServiceAccount and `kube-root-ca.crt`, which OpenKruise's e2e framework waits for).
//! Each test would fail if its rule broke.
mod support;

use std::time::{Duration, Instant};

use k8s_openapi::api::core::v1::{Node, PersistentVolume, PersistentVolumeClaim, Pod};
use kube::api::{Api, DeleteParams, Patch, PatchParams, PostParams};
use kubectl_kruise::testenv::kubelet::plan::image_id;
use kubectl_kruise::testenv::{SIM_ANNOTATION_PREFIX, SIMULATED_NODE_LABEL};
use serde_json::json;
use support::{TestNamespace, object, wait_for};

const WAIT: Duration = Duration::from_secs(60);

fn pod(name: &str, image: &str) -> serde_json::Value {
    json!({
        "apiVersion": "v1", "kind": "Pod",
        "metadata": { "name": name },
        "spec": { "containers": [ { "name": "app", "image": image } ] },
    })
}

fn condition<'p>(pod: &'p Pod, kind: &str) -> Option<&'p str> {
    pod.status
        .as_ref()?
        .conditions
        .as_ref()?
        .iter()
        .find(|c| c.type_ == kind)
        .map(|c| c.status.as_str())
}

fn phase(pod: &Pod) -> &str {
    pod.status.as_ref().and_then(|s| s.phase.as_deref()).unwrap_or("")
}

async fn wait_pod(api: &Api<Pod>, name: &str, what: &str, check: impl Fn(&Pod) -> bool) -> Pod {
    wait_for(&format!("pod {name}: {what}"), WAIT, || async {
        let p = api.get(name).await.map_err(|e| e.to_string())?;
        if check(&p) {
            Ok(p)
        } else {
            Err(format!("phase {:?}, status {:?}", phase(&p), p.status))
        }
    })
    .await
}

fn running_ready(p: &Pod) -> bool {
    phase(p) == "Running" && condition(p, "Ready") == Some("True")
}

#[tokio::test]
async fn a_bound_pod_starts_running_and_ready_with_an_image_id_from_its_image() {
    let ns = TestNamespace::create("kubelet-start").await;
    let pods: Api<Pod> = ns.api();
    pods.create(&PostParams::default(), &object(pod("p", "nginx:1.25")))
        .await
        .expect("create pod");
    let p = wait_pod(&pods, "p", "Running and Ready", running_ready).await;

    let node_name = p
        .spec
        .as_ref()
        .and_then(|s| s.node_name.clone())
        .expect("scheduled onto a node");
    let node = Api::<Node>::all(ns.client.clone())
        .get(&node_name)
        .await
        .expect("node exists");
    assert_eq!(
        node.metadata
            .labels
            .as_ref()
            .and_then(|l| l.get(SIMULATED_NODE_LABEL))
            .map(String::as_str),
        Some("true")
    );
    let status = p.status.clone().expect("status");
    assert!(
        status
            .pod_ip
            .as_deref()
            .is_some_and(|ip| ip.starts_with("10.244.")),
        "pod IP {:?}",
        status.pod_ip
    );
    assert!(status.host_ip.is_some());
    let c = &status.container_statuses.clone().expect("container statuses")[0];
    assert_eq!(c.image, "nginx:1.25");
    assert_eq!(c.image_id, image_id("nginx:1.25"));
    assert!(c.ready && c.started == Some(true) && c.restart_count == 0);
    assert!(
        c.container_id
            .as_deref()
            .is_some_and(|id| id.starts_with("sim://"))
    );
    for kind in ["Initialized", "ContainersReady", "PodScheduled"] {
        assert_eq!(condition(&p, kind), Some("True"), "{kind}");
    }
}

#[tokio::test]
async fn readiness_follows_the_gate_condition_both_ways_and_the_kubelet_never_writes_it() {
    let ns = TestNamespace::create("kubelet-gates").await;
    let pods: Api<Pod> = ns.api();
    let mut p = pod("gated", "nginx:1");
    p["spec"]["readinessGates"] = json!([ { "conditionType": "example.com/Warm" } ]);
    pods.create(&PostParams::default(), &object(p))
        .await
        .expect("create pod");
    let running = wait_pod(&pods, "gated", "Running", |p| phase(p) == "Running").await;
    assert_eq!(
        condition(&running, "Ready"),
        Some("False"),
        "a gated pod starts not Ready"
    );
    // Give the kubelet time to (wrongly) act on the gate; it must not write it.
    tokio::time::sleep(Duration::from_millis(500)).await;
    let still = pods.get("gated").await.expect("get");
    assert_eq!(
        condition(&still, "example.com/Warm"),
        None,
        "the kubelet wrote a gate condition"
    );
    assert_eq!(condition(&still, "Ready"), Some("False"));

    let set_gate = |status: &str| {
        json!({ "status": { "conditions": [ { "type": "example.com/Warm", "status": status,
            "lastTransitionTime": "2026-01-01T00:00:00Z" } ] } })
    };
    pods.patch_status(
        "gated",
        &PatchParams::default(),
        &Patch::Strategic(set_gate("True")),
    )
    .await
    .expect("gate True");
    wait_pod(&pods, "gated", "Ready after the gate is True", |p| {
        condition(p, "Ready") == Some("True")
    })
    .await;
    pods.patch_status(
        "gated",
        &PatchParams::default(),
        &Patch::Strategic(set_gate("False")),
    )
    .await
    .expect("gate False");
    let p = wait_pod(&pods, "gated", "not Ready after the gate is False", |p| {
        condition(p, "Ready") == Some("False")
    })
    .await;
    assert_eq!(
        condition(&p, "example.com/Warm"),
        Some("False"),
        "the gate condition written by us survives"
    );
}

#[tokio::test]
async fn an_image_patch_restarts_the_container_in_place_with_a_new_image_id() {
    let ns = TestNamespace::create("kubelet-inplace").await;
    let pods: Api<Pod> = ns.api();
    let mut p = pod("web", "nginx:1");
    p["spec"]["containers"]
        .as_array_mut()
        .expect("array")
        .push(json!({ "name": "side", "image": "busybox:1" }));
    pods.create(&PostParams::default(), &object(p))
        .await
        .expect("create pod");
    let before = wait_pod(&pods, "web", "Running and Ready", running_ready).await;
    let old = before
        .status
        .clone()
        .and_then(|s| s.container_statuses)
        .expect("statuses");

    let patch = json!({ "spec": { "containers": [ { "name": "app", "image": "nginx:2" } ] } });
    pods.patch("web", &PatchParams::default(), &Patch::Strategic(patch))
        .await
        .expect("patch image");
    let after = wait_pod(&pods, "web", "app reports nginx:2", |p| {
        p.status
            .as_ref()
            .and_then(|s| s.container_statuses.as_ref())
            .is_some_and(|cs| cs.iter().any(|c| c.name == "app" && c.image == "nginx:2"))
    })
    .await;
    assert_eq!(after.metadata.uid, before.metadata.uid, "same pod, not recreated");
    assert_eq!(
        after.status.as_ref().and_then(|s| s.pod_ip.clone()),
        before.status.as_ref().and_then(|s| s.pod_ip.clone())
    );
    let new = after.status.and_then(|s| s.container_statuses).expect("statuses");
    let find = |list: &[k8s_openapi::api::core::v1::ContainerStatus], name: &str| {
        list.iter()
            .find(|c| c.name == name)
            .cloned()
            .expect("container status")
    };
    let (app_old, app_new) = (find(&old, "app"), find(&new, "app"));
    assert_eq!(app_new.image_id, image_id("nginx:2"));
    assert_ne!(app_new.image_id, app_old.image_id);
    assert_eq!(app_new.restart_count, app_old.restart_count + 1);
    assert_ne!(app_new.container_id, app_old.container_id);
    let last = app_new
        .last_state
        .and_then(|s| s.terminated)
        .expect("lastState.terminated");
    assert_eq!(last.container_id, app_old.container_id);
    let (side_old, side_new) = (find(&old, "side"), find(&new, "side"));
    assert_eq!(
        (side_new.restart_count, side_new.container_id),
        (side_old.restart_count, side_old.container_id),
        "unchanged container untouched"
    );
}

#[tokio::test]
async fn never_restarting_pods_complete_succeeded_or_failed_by_annotation() {
    let ns = TestNamespace::create("kubelet-complete").await;
    let pods: Api<Pod> = ns.api();
    let mut ok = pod("ok", "job:1");
    ok["spec"]["restartPolicy"] = json!("Never");
    let mut bad = pod("bad", "job:1");
    bad["spec"]["restartPolicy"] = json!("Never");
    bad["metadata"]["annotations"] = json!({ format!("{SIM_ANNOTATION_PREFIX}exit-code"): "2" });
    // Under OnFailure the same exit restarts the container instead.
    let mut flaky = pod("flaky", "job:1");
    flaky["spec"]["restartPolicy"] = json!("OnFailure");
    flaky["metadata"]["annotations"] = json!({ format!("{SIM_ANNOTATION_PREFIX}exit-code"): "2" });
    pods.create(&PostParams::default(), &object(flaky))
        .await
        .expect("create flaky");
    pods.create(&PostParams::default(), &object(ok))
        .await
        .expect("create ok");
    pods.create(&PostParams::default(), &object(bad))
        .await
        .expect("create bad");
    let ok = wait_pod(&pods, "ok", "Succeeded", |p| phase(p) == "Succeeded").await;
    let bad = wait_pod(&pods, "bad", "Failed", |p| phase(p) == "Failed").await;
    let code = |p: &Pod| {
        p.status
            .as_ref()
            .and_then(|s| s.container_statuses.as_ref())
            .and_then(|c| c[0].state.clone())
            .and_then(|s| s.terminated)
            .map(|t| t.exit_code)
    };
    assert_eq!(code(&ok), Some(0));
    assert_eq!(code(&bad), Some(2));
    assert_eq!(condition(&ok, "Ready"), Some("False"));
    let restarted = |p: &Pod| {
        phase(p) == "Running"
            && p.status
                .as_ref()
                .and_then(|s| s.container_statuses.as_ref())
                .is_some_and(|c| c[0].restart_count >= 2)
    };
    wait_pod(&pods, "flaky", "Running after two restarts", restarted).await;
}

#[tokio::test]
async fn graceful_deletion_finishes_at_once() {
    let ns = TestNamespace::create("kubelet-delete").await;
    let pods: Api<Pod> = ns.api();
    pods.create(&PostParams::default(), &object(pod("gone", "nginx:1")))
        .await
        .expect("create pod");
    wait_pod(&pods, "gone", "Running and Ready", running_ready).await;
    pods.delete("gone", &DeleteParams::default())
        .await
        .expect("delete with the default 30s grace");
    wait_for(
        "pod gone to disappear well before its 30s grace period",
        Duration::from_secs(10),
        || async {
            match pods.get_opt("gone").await.map_err(|e| e.to_string())? {
                None => Ok(()),
                Some(p) => Err(format!(
                    "still there, deletionTimestamp {:?}",
                    p.metadata.deletion_timestamp
                )),
            }
        },
    )
    .await;
}

#[tokio::test]
async fn a_start_delay_annotation_holds_the_pod_pending() {
    let ns = TestNamespace::create("kubelet-delay").await;
    let pods: Api<Pod> = ns.api();
    let mut slow = pod("slow", "nginx:1");
    slow["metadata"]["annotations"] = json!({ format!("{SIM_ANNOTATION_PREFIX}image-pull-delay"): "3s" });
    let created = Instant::now();
    pods.create(&PostParams::default(), &object(slow))
        .await
        .expect("create pod");
    wait_for("pod slow to be bound", WAIT, || async {
        let p = pods.get("slow").await.map_err(|e| e.to_string())?;
        p.spec
            .and_then(|s| s.node_name)
            .map(|_| ())
            .ok_or_else(|| "unbound".to_string())
    })
    .await;
    tokio::time::sleep(Duration::from_millis(1000).saturating_sub(created.elapsed())).await;
    assert_eq!(
        phase(&pods.get("slow").await.expect("get")),
        "Pending",
        "started before its image-pull delay"
    );
    wait_pod(&pods, "slow", "Running after the delay", running_ready).await;
    assert!(
        created.elapsed() >= Duration::from_secs(3),
        "started after {:?}, before the 3s delay",
        created.elapsed()
    );
}

#[tokio::test]
async fn a_claim_gets_one_pre_bound_volume_that_goes_when_the_claim_goes() {
    let ns = TestNamespace::create("kubelet-pvc").await;
    let claims: Api<PersistentVolumeClaim> = ns.api();
    let claim = json!({
        "apiVersion": "v1", "kind": "PersistentVolumeClaim", "metadata": { "name": "data" },
        "spec": { "accessModes": ["ReadWriteOnce"], "resources": { "requests": { "storage": "2Gi" } } },
    });
    claims
        .create(&PostParams::default(), &object(claim))
        .await
        .expect("create claim");
    let bound = wait_for("claim data to be Bound", WAIT, || async {
        let c = claims.get("data").await.map_err(|e| e.to_string())?;
        let phase = c
            .status
            .as_ref()
            .and_then(|s| s.phase.clone())
            .unwrap_or_default();
        if phase == "Bound" { Ok(c) } else { Err(phase) }
    })
    .await;
    let volume_name = bound.spec.and_then(|s| s.volume_name).expect("volumeName");
    let volumes: Api<PersistentVolume> = Api::all(ns.client.clone());
    let volume = volumes.get(&volume_name).await.expect("volume exists");
    let claim_ref = volume.spec.and_then(|s| s.claim_ref).expect("claimRef");
    assert_eq!(
        (claim_ref.namespace.as_deref(), claim_ref.name.as_deref()),
        (Some(ns.name.as_str()), Some("data"))
    );

    let pods: Api<Pod> = ns.api();
    let mut p = pod("user", "nginx:1");
    p["spec"]["volumes"] = json!([ { "name": "data", "persistentVolumeClaim": { "claimName": "data" } } ]);
    p["spec"]["containers"][0]["volumeMounts"] = json!([ { "name": "data", "mountPath": "/data" } ]);
    pods.create(&PostParams::default(), &object(p))
        .await
        .expect("create pod with claim");
    wait_pod(&pods, "user", "Running and Ready with its claim", running_ready).await;

    pods.delete("user", &DeleteParams::default())
        .await
        .expect("delete pod");
    claims
        .delete("data", &DeleteParams::default())
        .await
        .expect("delete claim");
    wait_for("the volume to be removed after its claim", WAIT, || async {
        match volumes.get_opt(&volume_name).await.map_err(|e| e.to_string())? {
            None => Ok(()),
            Some(v) => Err(format!("phase {:?}", v.status.and_then(|s| s.phase))),
        }
    })
    .await;
}

fn waiting(p: &Pod, container: &str) -> Option<String> {
    let statuses = p.status.as_ref()?.container_statuses.as_ref()?;
    let status = statuses.iter().find(|c| c.name == container)?;
    status.state.as_ref()?.waiting.as_ref()?.reason.clone()
}

#[tokio::test]
async fn failing_pulls_and_crashes_are_shown_as_a_kubelet_would_and_undo_recovers() {
    let ns = TestNamespace::create("kubelet-fail").await;
    let pods: Api<Pod> = ns.api();
    let mut p = pod("web", "nginx:1");
    p["metadata"]["annotations"] = json!({
        format!("{SIM_ANNOTATION_PREFIX}pull-fails"): "nginx:broken",
        format!("{SIM_ANNOTATION_PREFIX}crash-images"): "nginx:crash",
    });
    pods.create(&PostParams::default(), &object(p.clone()))
        .await
        .expect("create pod");
    let before = wait_pod(&pods, "web", "Running and Ready", running_ready).await;
    let set = |image: &str| {
        let patch = json!({ "spec": { "containers": [ { "name": "app", "image": image } ] } });
        let pods = pods.clone();
        async move {
            pods.patch("web", &PatchParams::default(), &Patch::Strategic(patch))
                .await
                .expect("patch image")
        }
    };

    set("nginx:broken").await;
    let broken = wait_pod(&pods, "web", "ImagePullBackOff", |p| {
        waiting(p, "app").as_deref() == Some("ImagePullBackOff") && condition(p, "Ready") == Some("False")
    })
    .await;
    let app = &broken
        .status
        .as_ref()
        .and_then(|s| s.container_statuses.clone())
        .expect("statuses")[0];
    assert_eq!(app.image, "nginx:1", "the old image is still what runs");
    assert_eq!(app.image_id, image_id("nginx:1"));

    set("nginx:crash").await;
    let crashed = wait_pod(&pods, "web", "CrashLoopBackOff", |p| {
        waiting(p, "app").as_deref() == Some("CrashLoopBackOff")
    })
    .await;
    let app = &crashed
        .status
        .as_ref()
        .and_then(|s| s.container_statuses.clone())
        .expect("statuses")[0];
    assert_eq!((app.image.as_str(), app.restart_count), ("nginx:crash", 1));
    tokio::time::sleep(Duration::from_secs(2)).await;
    let still = pods.get("web").await.expect("get pod");
    assert_eq!(
        still.status.and_then(|s| s.container_statuses).expect("statuses")[0].restart_count,
        1,
        "restarted once, not in a loop of writes"
    );

    set("nginx:1").await;
    let back = wait_pod(&pods, "web", "Running and Ready on nginx:1", |p| {
        running_ready(p) && waiting(p, "app").is_none()
    })
    .await;
    assert_eq!(back.metadata.uid, before.metadata.uid, "same pod throughout");

    p["metadata"]["name"] = json!("fresh");
    p["spec"]["containers"][0]["image"] = json!("nginx:broken");
    pods.create(&PostParams::default(), &object(p))
        .await
        .expect("create pod");
    wait_pod(&pods, "fresh", "Pending in ImagePullBackOff", |p| {
        phase(p) == "Pending" && waiting(p, "app").as_deref() == Some("ImagePullBackOff")
    })
    .await;
}

#[tokio::test]
async fn a_hanging_in_place_restart_never_finishes() {
    let ns = TestNamespace::create("kubelet-hang").await;
    let pods: Api<Pod> = ns.api();
    let mut p = pod("web", "nginx:1");
    p["metadata"]["annotations"] = json!({ format!("{SIM_ANNOTATION_PREFIX}restart-hangs"): "true" });
    pods.create(&PostParams::default(), &object(p))
        .await
        .expect("create pod");
    wait_pod(&pods, "web", "Running and Ready", running_ready).await;
    let patch = json!({ "spec": { "containers": [ { "name": "app", "image": "nginx:2" } ] } });
    pods.patch("web", &PatchParams::default(), &Patch::Strategic(patch))
        .await
        .expect("patch image");
    tokio::time::sleep(Duration::from_secs(3)).await;
    let p = pods.get("web").await.expect("get pod");
    let app = &p.status.and_then(|s| s.container_statuses).expect("statuses")[0];
    assert_eq!((app.image.as_str(), app.restart_count), ("nginx:1", 0));
}

#[tokio::test]
async fn a_new_namespace_gets_its_default_service_account_and_root_ca() {
    use k8s_openapi::api::core::v1::{ConfigMap, ServiceAccount};
    let ns = TestNamespace::create("plane-ns").await;
    let accounts: Api<ServiceAccount> = ns.api();
    let maps: Api<ConfigMap> = ns.api();
    wait_for("the default ServiceAccount", WAIT, || async {
        accounts.get("default").await.map_err(|e| e.to_string())
    })
    .await;
    let ca = wait_for("kube-root-ca.crt", WAIT, || async {
        maps.get("kube-root-ca.crt").await.map_err(|e| e.to_string())
    })
    .await;
    let pem = ca.data.and_then(|d| d.get("ca.crt").cloned()).unwrap_or_default();
    assert!(pem.contains("BEGIN CERTIFICATE"), "{pem}");
}

#[tokio::test]
async fn a_pod_placed_on_a_node_whose_host_port_is_taken_fails_as_kubelet_admission() {
    let ns = TestNamespace::create("kubelet-hostport").await;
    let pods: Api<Pod> = ns.api();
    let mut first = pod("holder", "nginx:1.25");
    first["spec"]["containers"][0]["ports"] =
        serde_json::json!([{ "containerPort": 21017, "hostPort": 21017 }]);
    pods.create(&PostParams::default(), &object(first.clone()))
        .await
        .expect("create holder");
    let holder = wait_pod(&pods, "holder", "Running and Ready", running_ready).await;
    let node = holder
        .spec
        .as_ref()
        .and_then(|s| s.node_name.clone())
        .expect("scheduled");
    // Placed directly (no scheduler to avoid the conflict): refused by the node.
    let mut second = first;
    second["metadata"]["name"] = serde_json::json!("taker");
    second["spec"]["nodeName"] = serde_json::json!(node);
    pods.create(&PostParams::default(), &object(second))
        .await
        .expect("create taker");
    let taker = wait_pod(&pods, "taker", "Failed", |p| phase(p) == "Failed").await;
    assert_eq!(taker.status.and_then(|s| s.reason).as_deref(), Some("NodePorts"));
}
