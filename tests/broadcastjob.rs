//! The BroadcastJob controller end to end: `kubectl kruise run -n NS` on the
//! real control plane, on simulated nodes each test creates for itself (the jobs select
//! them by a nodeSelector); the simulated kubelet runs each pod to completion, failing it
//! when the pod asks (`exit-code`), restarting it under OnFailure. The behaviour expected is
//! OpenKruise's: <https://openkruise.io/docs/user-manuals/broadcastjob>.
mod support;

use std::collections::{BTreeMap, BTreeSet};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use futures::StreamExt;
use k8s_openapi::api::core::v1::Pod;
use kube::ResourceExt;
use kube::api::{Api, DynamicObject, ListParams, PostParams};
use kube::runtime::{WatchStreamExt, watcher};
use serde_json::{Value, json};
use support::controller::RunningController;
use support::nodes::TestNodes;
use support::{TestNamespace, kruise_api, wait_for};

const LONG: Duration = Duration::from_secs(90);
const SIM: &str = "sim.kubectl-kruise.io/";

/// A BroadcastJob on the test's nodes; `extra` is merged into its spec, `annotations`
/// go on its pods (the simulated kubelet's knobs, without the prefix).
fn job(ns: &TestNamespace, name: &str, extra: Value, annotations: Value) -> DynamicObject {
    let pod_annotations: serde_json::Map<String, Value> = annotations
        .as_object()
        .into_iter()
        .flatten()
        .map(|(k, v)| (format!("{SIM}{k}"), v.clone()))
        .collect();
    let spec = support::merged(
        json!({
            "template": { "metadata": { "labels": { "app": name }, "annotations": pod_annotations },
                "spec": { "nodeSelector": { "ds-test": ns.name }, "tolerations": [support::nodes::toleration()], "restartPolicy": "Never",
                    "containers": [{ "name": "main", "image": "busybox" }] } } }),
        extra,
    );
    support::object(
        json!({ "apiVersion": "apps.kruise.io/v1alpha1", "kind": "BroadcastJob",
        "metadata": { "name": name }, "spec": spec }),
    )
}

async fn pods_of(ns: &TestNamespace, job: &str) -> Vec<Pod> {
    ns.api::<Pod>()
        .list(&ListParams::default().labels(&format!("broadcastjob-name={job}")))
        .await
        .expect("pods")
        .items
}

fn node_of(pod: &Pod) -> String {
    kubectl_kruise::workloads::common::node_fit::node_of(pod)
        .unwrap_or_default()
        .to_string()
}

fn phase(pod: &Pod) -> &str {
    pod.status.as_ref().and_then(|s| s.phase.as_deref()).unwrap_or("")
}

/// Waits until the job's status `phase` is `want`; returns the status.
async fn phase_is(api: &Api<DynamicObject>, name: &str, want: &str, controller: &RunningController) -> Value {
    wait_for(&format!("BroadcastJob {name} {want}"), LONG, || async {
        let job = api.get(name).await.map_err(|e| e.to_string())?;
        let status = job.data["status"].clone();
        if status["phase"] == want {
            Ok(status)
        } else {
            Err(format!("{status}\n{}", controller.log_tail()))
        }
    })
    .await
}

/// The most pods of `job` running at once (not Succeeded, not Failed, not gone), as an
/// independent watch sees them.
struct RunningWatcher {
    max: Arc<Mutex<usize>>,
    task: tokio::task::JoinHandle<()>,
}

impl RunningWatcher {
    fn start(ns: &TestNamespace, job: &str) -> Self {
        let api: Api<Pod> = ns.api();
        let config = watcher::Config::default().labels(&format!("broadcastjob-name={job}"));
        let max = Arc::new(Mutex::new(0));
        let shared = max.clone();
        let task = tokio::spawn(async move {
            let mut running: BTreeSet<String> = BTreeSet::new();
            let mut stream = std::pin::pin!(watcher(api, config).default_backoff());
            while let Some(event) = stream.next().await {
                let (pod, gone) = match event {
                    Ok(watcher::Event::Apply(p) | watcher::Event::InitApply(p)) => (p, false),
                    Ok(watcher::Event::Delete(p)) => (p, true),
                    _ => continue,
                };
                let finished = matches!(phase(&pod), "Succeeded" | "Failed");
                if gone || finished {
                    running.remove(&pod.name_any());
                } else {
                    running.insert(pod.name_any());
                }
                let mut m = shared.lock().expect("max");
                *m = (*m).max(running.len());
            }
        });
        Self { max, task }
    }

    fn max(&self) -> usize {
        *self.max.lock().expect("max")
    }
}

impl Drop for RunningWatcher {
    fn drop(&mut self) {
        self.task.abort();
    }
}

#[tokio::test]
async fn a_job_runs_one_pod_per_node_to_completion_within_its_parallelism() {
    let ns = TestNamespace::create("bcj-complete").await;
    let nodes = TestNodes::create(&ns, 6).await;
    let controller = RunningController::start(&ns);
    let api = kruise_api(&ns, "BroadcastJob", "v1alpha1");
    let watcher = RunningWatcher::start(&ns, "warm");
    api.create(
        &PostParams::default(),
        &job(
            &ns,
            "warm",
            json!({ "parallelism": 2 }),
            json!({ "completion-delay": "2s" }),
        ),
    )
    .await
    .expect("BroadcastJob warm");
    // `rollout status` waits for the job: exit 0 once it completed.
    let (code, out, err) =
        support::kruise_in(&ns, &["rollout", "status", "bcj/warm", "--timeout", "90s"]).await;
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.lines()
            .last()
            .is_some_and(|l| l.starts_with("bcj/warm completed: 6/6 succeeded")),
        "{out}"
    );
    let status = phase_is(&api, "warm", "completed", &controller).await;
    assert_eq!(
        (
            &status["desired"],
            &status["succeeded"],
            &status["failed"],
            &status["active"]
        ),
        (&json!(6), &json!(6), &json!(0), &json!(0)),
        "{status}"
    );
    let conditions = status["conditions"].as_array().expect("conditions");
    assert_eq!(conditions.last().map(|c| &c["type"]), Some(&json!("Complete")));
    let pods = pods_of(&ns, "warm").await;
    let per_node: BTreeMap<String, usize> = pods.iter().fold(BTreeMap::new(), |mut m, p| {
        *m.entry(node_of(p)).or_default() += 1;
        m
    });
    assert_eq!(per_node.len(), 6, "{per_node:?}");
    assert!(per_node.values().all(|n| *n == 1), "{per_node:?}");
    assert!(
        watcher.max() <= 2,
        "at most parallelism 2 pods ran at once: {}",
        watcher.max()
    );
    let (code, tree, err) = support::kruise_in(&ns, &["get", "bcj/warm", "--tree"]).await;
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        tree.lines().filter(|l| l.contains("Succeeded")).count(),
        6,
        "{tree}"
    );
    assert_eq!(controller.stop(), 0);
    nodes.remove_all(6).await;
}

#[tokio::test]
async fn fail_fast_fails_the_job_and_pause_stops_creating() {
    let ns = TestNamespace::create("bcj-failure").await;
    let nodes = TestNodes::create(&ns, 3).await;
    let controller = RunningController::start(&ns);
    let api = kruise_api(&ns, "BroadcastJob", "v1alpha1");
    let failing = json!({ "exit-code": "1", "completion-delay": "1s" });
    api.create(
        &PostParams::default(),
        &job(&ns, "fast", json!({ "parallelism": 1 }), failing.clone()),
    )
    .await
    .expect("BroadcastJob fast");
    api.create(
        &PostParams::default(),
        &job(
            &ns,
            "careful",
            json!({ "parallelism": 1, "failurePolicy": { "type": "Pause" } }),
            failing,
        ),
    )
    .await
    .expect("BroadcastJob careful");

    let (code, out, err) =
        support::kruise_in(&ns, &["rollout", "status", "bcj/fast", "--timeout", "90s"]).await;
    assert_eq!(code, 3, "a failed job fails the status: {out}{err}");
    let status = phase_is(&api, "fast", "failed", &controller).await;
    let failed = status["conditions"]
        .as_array()
        .and_then(|c| c.last().cloned())
        .expect("a condition");
    assert_eq!(
        (&failed["type"], &failed["status"]),
        (&json!("Failed"), &json!("True"))
    );
    assert!(status["completionTime"].is_string(), "{status}");
    phase_is(&api, "careful", "paused", &controller).await;
    // Neither starts another pod: FailFast stopped, Pause holds while the failed pod is there.
    tokio::time::sleep(Duration::from_secs(3)).await;
    assert_eq!(
        pods_of(&ns, "fast").await.len(),
        1,
        "FailFast started nothing more"
    );
    assert_eq!(
        pods_of(&ns, "careful").await.len(),
        1,
        "Pause started nothing more"
    );
    assert_eq!(controller.stop(), 0);
    nodes.remove_all(3).await;
}

#[tokio::test]
async fn restart_limit_counts_the_restarts_of_an_on_failure_pod() {
    let ns = TestNamespace::create("bcj-restarts").await;
    let nodes = TestNodes::create(&ns, 1).await;
    let controller = RunningController::start(&ns);
    let api = kruise_api(&ns, "BroadcastJob", "v1alpha1");
    let mut manifest = job(
        &ns,
        "flaky",
        json!({ "failurePolicy": { "type": "FailFast", "restartLimit": 2 } }),
        json!({ "exit-code": "1", "completion-delay": "500ms" }),
    );
    manifest.data["spec"]["template"]["spec"]["restartPolicy"] = json!("OnFailure");
    api.create(&PostParams::default(), &manifest)
        .await
        .expect("BroadcastJob flaky");
    let status = phase_is(&api, "flaky", "failed", &controller).await;
    let restarts: Vec<i32> = pods_of(&ns, "flaky")
        .await
        .iter()
        .filter_map(|p| {
            p.status
                .as_ref()?
                .container_statuses
                .as_ref()?
                .first()
                .map(|c| c.restart_count)
        })
        .collect();
    assert!(
        restarts.iter().all(|r| *r >= 3),
        "failed only past 2 restarts: {restarts:?}\n{status}\n{:?}",
        pods_of(&ns, "flaky")
            .await
            .iter()
            .map(|p| serde_json::to_string(&p.status).unwrap_or_default())
            .collect::<Vec<_>>()
    );
    assert_eq!(controller.stop(), 0);
    nodes.remove_all(1).await;
}

#[tokio::test]
async fn a_never_job_gives_a_joining_node_its_pod_and_never_completes() {
    let ns = TestNamespace::create("bcj-never").await;
    let nodes = TestNodes::create(&ns, 2).await;
    let controller = RunningController::start(&ns);
    let api = kruise_api(&ns, "BroadcastJob", "v1alpha1");
    api.create(
        &PostParams::default(),
        &job(
            &ns,
            "agent",
            json!({ "completionPolicy": { "type": "Never" } }),
            json!({}),
        ),
    )
    .await
    .expect("BroadcastJob agent");
    let succeeded = |want: usize| {
        let ns = &ns;
        async move {
            wait_for(&format!("{want} pods succeeded"), LONG, || async {
                let pods = pods_of(ns, "agent").await;
                let done = pods.iter().filter(|p| phase(p) == "Succeeded").count();
                if done == want && pods.len() == want {
                    Ok(pods)
                } else {
                    Err(format!("{done} of {} succeeded", pods.len()))
                }
            })
            .await
        }
    };
    succeeded(2).await;
    nodes.add(2).await;
    let pods = succeeded(3).await;
    assert!(
        pods.iter().any(|p| node_of(p) == nodes.name(2)),
        "the new node got its pod"
    );
    let job = api.get("agent").await.expect("job");
    assert_eq!(
        job.data["status"]["phase"], "running",
        "a Never job does not complete"
    );
    assert_eq!(job.data["status"]["desired"], 3);
    assert_eq!(controller.stop(), 0);
    nodes.remove_all(3).await;
}

#[tokio::test]
async fn the_handbook_ttl_job_completes_and_is_deleted_with_its_pods() {
    let ns = TestNamespace::create("bcj-ttl").await;
    let controller = RunningController::start(&ns);
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/broadcastjob-ttl.yaml");
    let doc = support::manifests::documents(&path).remove(0);
    support::manifests::apply(&ns, &doc)
        .await
        .expect("apply the handbook job");
    let api = kruise_api(&ns, "BroadcastJob", "v1alpha1");
    let status = phase_is(&api, "broadcastjob-ttl", "completed", &controller).await;
    assert!(status["succeeded"].as_i64().unwrap_or(0) >= 1, "{status}");
    wait_for("the job gone 30 s after it finished", LONG, || async {
        let gone = matches!(api.get("broadcastjob-ttl").await, Err(kube::Error::Api(e)) if e.code == 404);
        let pods = pods_of(&ns, "broadcastjob-ttl").await;
        let live = pods
            .iter()
            .filter(|p| p.metadata.deletion_timestamp.is_none())
            .count();
        if gone && live == 0 {
            Ok(())
        } else {
            Err(format!("gone {gone}, {live} pods left"))
        }
    })
    .await;
    assert_eq!(controller.stop(), 0);
}

#[tokio::test]
async fn rollout_pause_and_resume_drive_a_job_and_status_reports_the_pause() {
    let ns = TestNamespace::create("bcj-pause").await;
    let nodes = TestNodes::create(&ns, 2).await;
    let controller = RunningController::start(&ns);
    let api = kruise_api(&ns, "BroadcastJob", "v1alpha1");
    api.create(
        &PostParams::default(),
        &job(&ns, "held", json!({ "paused": true }), json!({})),
    )
    .await
    .expect("BroadcastJob held");
    phase_is(&api, "held", "paused", &controller).await;
    let (code, out, _) = support::kruise_in(
        &ns,
        &["rollout", "status", "bcj/held", "--watch=false", "--exit-status"],
    )
    .await;
    assert_eq!(code, 5, "paused: {out}");
    assert!(
        pods_of(&ns, "held").await.is_empty(),
        "a paused job starts nothing"
    );
    let (code, out, err) = support::kruise_in(&ns, &["rollout", "resume", "bcj/held"]).await;
    assert_eq!(code, 0, "{out}{err}");
    let (code, out, err) =
        support::kruise_in(&ns, &["rollout", "status", "bcj/held", "--timeout", "60s"]).await;
    assert_eq!(code, 0, "{out}{err}");
    let (code, out, err) = support::kruise_in(&ns, &["rollout", "undo", "bcj/held"]).await;
    assert_ne!(code, 0);
    assert!(err.contains("is a job"), "{out}{err}");
    assert_eq!(controller.stop(), 0);
    nodes.remove_all(2).await;
}
