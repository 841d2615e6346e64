//! `rollout status` end to end on the real control plane: the live view on a
//! pseudo-terminal (screen frames asserted through a VT100 emulator), the machine outputs,
//! `--revision`, `--until paused` and fail fast (exit 3) on failing pods and stuck
//! in-place updates, for CloneSet and the built-in Deployment.
mod support;

use std::collections::BTreeMap;

use k8s_openapi::api::apps::v1::Deployment;
use kube::api::{Patch, PatchParams, PostParams};
use serde_json::{Value, json};
use support::clonesets::*;
use support::controller::RunningController;
use support::{CLI, TestNamespace, kubeconfig};

/// A CloneSet `name` of `replicas` pods updated in place one at a time, each image change
/// taking `pull` in the simulated kubelet; `annotations` are added to its pod template.
async fn in_place_set(ns: &TestNamespace, name: &str, replicas: i32, pull: &str, annotations: Value) {
    let mut set = cloneset(
        name,
        replicas,
        json!({ "type": "InPlaceIfPossible", "maxUnavailable": 1 }),
        json!({}),
    );
    let meta = set.spec.template.metadata.as_mut().expect("template metadata");
    let mut map = BTreeMap::from([(
        "sim.kubectl-kruise.io/image-pull-delay".to_string(),
        pull.to_string(),
    )]);
    for (k, v) in annotations.as_object().into_iter().flatten() {
        map.insert(k.clone(), v.as_str().unwrap_or_default().to_string());
    }
    meta.annotations = Some(map);
    create(ns, &set).await;
}

fn status_on_terminal(namespace: &str, target: &str, rows: u16) -> support::terminal::Session {
    let command = format!(
        "{CLI} rollout status {target} --timeout 90s -n {namespace} --kubeconfig {}",
        kubeconfig().display()
    );
    support::terminal::run(&command, rows, 110, &[])
}

#[tokio::test]
async fn on_a_terminal_status_draws_each_pod_live_and_leaves_one_summary_line() {
    let ns = TestNamespace::create("status-live").await;
    let controller = RunningController::start(&ns);
    in_place_set(&ns, "live", 4, "1s", json!({})).await;
    wait_settled(&ns, "live", 4, 4, &controller).await;

    set_image(&ns, "live", "nginx:1.26").await;
    let session = tokio::task::spawn_blocking({
        let ns_name = ns.name.clone();
        move || status_on_terminal(&ns_name, "cloneset/live", 24)
    })
    .await
    .expect("join");
    assert_eq!(session.code, 0, "{}", session.text());
    let frames = session.frames(64);
    let live = frames
        .iter()
        .find(|f| {
            f.contains("updated ready")
                && f.lines()
                    .any(|l| l.contains("◌ live-") && l.contains("updating in place"))
        })
        .unwrap_or_else(|| panic!("no frame shows a pod updating in place:\n{}", session.text()));
    let raw = session.text();
    assert!(
        frames
            .iter()
            .any(|f| f.contains('█') && f.contains("updated ready")),
        "no bar:\n{live}\n{:?}",
        &raw[..raw.len().min(1500)]
    );
    assert!(live.contains("◌ Waiting for cloneset/live"), "{live}");
    assert!(
        frames
            .iter()
            .any(|f| f.contains("• live-") && f.contains("old revision")),
        "no frame shows an old pod"
    );
    assert!(
        frames
            .iter()
            .any(|f| f.contains("✔ live-") && f.contains("ready")),
        "no frame shows an updated ready pod"
    );
    let screen = session.screen();
    let left: Vec<&str> = screen.lines().filter(|l| !l.trim().is_empty()).collect();
    assert_eq!(left.len(), 1, "one summary line is left behind:\n{screen}");
    assert!(
        left[0].starts_with("✔ cloneset/live successfully rolled out (revision 2 live-"),
        "{screen}"
    );

    // A terminal 6 rows high: 2 lines of header, 2 pods and `+2 more`.
    set_image(&ns, "live", "nginx:1.27").await;
    let session = tokio::task::spawn_blocking({
        let ns_name = ns.name.clone();
        move || status_on_terminal(&ns_name, "cloneset/live", 6)
    })
    .await
    .expect("join");
    assert_eq!(session.code, 0, "{}", session.text());
    let frames = session.frames(64);
    let trimmed = frames
        .iter()
        .find(|f| f.contains("+2 more"))
        .unwrap_or_else(|| panic!("no trimmed frame:\n{frames:#?}"));
    assert!(trimmed.lines().count() <= 6, "{trimmed}");
}

fn status(ns: &TestNamespace, args: &[&str]) -> (i32, String, String) {
    status_in(&ns.name, args)
}

fn status_in(namespace: &str, args: &[&str]) -> (i32, String, String) {
    let mut all = vec!["rollout", "status"];
    all.extend_from_slice(args);
    all.extend_from_slice(&["-n", namespace]);
    support::kruise(kubeconfig(), &all)
}

async fn status_async(ns: &TestNamespace, args: &[&str]) -> (i32, String, String) {
    let name = ns.name.clone();
    let args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
    tokio::task::spawn_blocking(move || {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        status_in(&name, &args)
    })
    .await
    .expect("join")
}

#[tokio::test]
async fn jsonl_json_revision_and_until_paused() {
    let ns = TestNamespace::create("status-machine").await;
    let controller = RunningController::start(&ns);
    in_place_set(&ns, "mach", 3, "500ms", json!({})).await;
    wait_settled(&ns, "mach", 3, 3, &controller).await;

    set_image(&ns, "mach", "nginx:1.26").await;
    let (code, out, err) = status_async(&ns, &["cloneset/mach", "-o", "jsonl", "--timeout", "60s"]).await;
    assert_eq!(code, 0, "{out}{err}");
    let lines: Vec<Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("not JSON ({e}): {l}")))
        .collect();
    assert!(lines.len() >= 2, "one object per change:\n{out}");
    for l in &lines {
        for field in ["time", "kind", "name", "phase", "revision", "counts", "pods"] {
            assert!(!l[field].is_null(), "no {field} in {l}");
        }
    }
    assert!(lines.iter().any(|l| l["phase"] == "progressing"), "{out}");
    let last = lines.last().expect("a line");
    assert_eq!(last["phase"], "complete");
    assert_eq!(last["revisionNumber"], 2);
    assert_eq!(last["pods"].as_array().map(Vec::len), Some(3));
    assert!(
        last["pods"]
            .as_array()
            .into_iter()
            .flatten()
            .all(|p| p["state"] == "ready")
    );

    let (code, out, _) = status(&ns, &["cloneset/mach", "-o", "json", "--watch=false"]);
    assert_eq!(code, 0);
    let doc: Value = serde_json::from_str(&out).expect("one JSON document");
    assert_eq!(
        (doc["phase"].as_str(), doc["counts"]["updatedReady"].as_i64()),
        (Some("complete"), Some(3))
    );

    let (code, _, err) = status(&ns, &["cloneset/mach", "--revision", "1"]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("cloneset/mach is now at revision 2"), "{err}");

    merge_patch(
        &ns,
        "mach",
        json!({ "spec": { "updateStrategy": { "paused": true } } }),
    )
    .await;
    set_image(&ns, "mach", "nginx:1.27").await;
    let (code, out, err) =
        status_async(&ns, &["cloneset/mach", "--until", "paused", "--timeout", "30s"]).await;
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("cloneset/mach paused at 0/3 updated"), "{out}");
}

#[tokio::test]
async fn fail_fast_names_the_pod_the_container_and_the_reason() {
    let ns = TestNamespace::create("status-fail").await;
    let controller = RunningController::start(&ns);
    let annotations = json!({
        "sim.kubectl-kruise.io/pull-fails": "nginx:broken",
        "sim.kubectl-kruise.io/crash-images": "nginx:crash",
    });
    in_place_set(&ns, "bad", 2, "200ms", annotations).await;
    wait_settled(&ns, "bad", 2, 2, &controller).await;

    set_image(&ns, "bad", "nginx:broken").await;
    let (code, out, err) = status_async(&ns, &["cloneset/bad", "--timeout", "60s"]).await;
    assert_eq!(code, 3, "{out}{err}");
    assert!(
        err.contains("cloneset/bad is failing: pod bad-") && err.contains("container app: ImagePullBackOff"),
        "{err}"
    );
    let (code, out, _) = status_async(&ns, &["cloneset/bad", "--no-fail-fast", "--timeout", "3s"]).await;
    assert_eq!(code, 4, "--no-fail-fast waits instead:\n{out}");

    set_image(&ns, "bad", "nginx:crash").await;
    let (code, _, err) = status_async(&ns, &["cloneset/bad", "--timeout", "60s"]).await;
    assert_eq!(code, 3, "{err}");
    assert!(err.contains("container app: CrashLoopBackOff"), "{err}");
    drop(controller);
}

#[tokio::test]
async fn an_in_place_update_stuck_past_stuck_after_fails() {
    let ns = TestNamespace::create("status-stuck").await;
    let controller = RunningController::start(&ns);
    in_place_set(
        &ns,
        "hang",
        1,
        "200ms",
        json!({ "sim.kubectl-kruise.io/restart-hangs": "true" }),
    )
    .await;
    wait_settled(&ns, "hang", 1, 1, &controller).await;
    set_image(&ns, "hang", "nginx:1.26").await;
    let (code, out, err) =
        status_async(&ns, &["cloneset/hang", "--stuck-after", "3s", "--timeout", "60s"]).await;
    assert_eq!(code, 3, "{out}{err}");
    assert!(
        err.contains("pod hang-") && err.contains("container app: in-place update not finished after"),
        "{err}"
    );
}

#[tokio::test]
async fn a_deployment_rollout_is_followed_as_jsonl_and_its_revision_pinned() {
    let ns = TestNamespace::create("status-deploy").await;
    let deploy: Deployment = support::object(json!({
        "apiVersion": "apps/v1", "kind": "Deployment",
        "metadata": { "name": "front" },
        "spec": {
            "replicas": 3,
            "selector": { "matchLabels": { "app": "front" } },
            "template": {
                "metadata": { "labels": { "app": "front" },
                    "annotations": { "sim.kubectl-kruise.io/start-delay": "500ms" } },
                "spec": { "containers": [{ "name": "app", "image": "nginx:1.25" }] },
            },
        },
    }));
    let api = ns.api::<Deployment>();
    api.create(&PostParams::default(), &deploy)
        .await
        .expect("create Deployment");
    let (code, out, err) = status_async(&ns, &["deploy/front", "--timeout", "60s"]).await;
    assert_eq!(code, 0, "{out}{err}");
    let patch = json!({ "spec": { "template": { "spec": { "containers": [{ "name": "app", "image": "nginx:1.26" }] } } } });
    api.patch("front", &PatchParams::default(), &Patch::Strategic(&patch))
        .await
        .expect("image change");
    let (code, out, err) = status_async(
        &ns,
        &[
            "deploy/front",
            "-o",
            "jsonl",
            "--revision",
            "2",
            "--timeout",
            "60s",
        ],
    )
    .await;
    assert_eq!(code, 0, "{out}{err}");
    let last: Value = serde_json::from_str(out.lines().last().unwrap_or_default()).expect("json line");
    assert_eq!(
        (last["kind"].as_str(), last["phase"].as_str()),
        (Some("deployment"), Some("complete"))
    );
    assert_eq!(last["revisionNumber"], 2);
    assert!(
        last["line"]
            .as_str()
            .unwrap_or_default()
            .contains("deployment/front successfully rolled out (revision 2"),
        "{last}"
    );
    let (code, _, err) = status(&ns, &["deploy/front", "--revision", "1"]);
    assert_eq!(code, 1, "{err}");
}
