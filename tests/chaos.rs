//! The chaos suite, each test on a control plane of its own (its API server is restarted,
//! its audit log read): rollouts of 20 to 60 pods (in place, a SidecarSet's sidecars too, and recreating) while the
//! controller is killed with SIGKILL at random points and restarted, the API server
//! restarted once mid-rollout (a CloneSet and an Advanced StatefulSet also under a
//! PodUnavailableBudget tighter than their own maxUnavailable), two `run` processes at
//! once, and a WorkloadSpread's placement under random scaling (its own checks, below). An independent watcher checks on every pod change:
//! - available pods >= replicas - maxUnavailable (tolerance 0);
//! - live pods <= replicas + maxSurge;
//! - no two live pods in one slot (ordinal / instance id);
//!
//! and at the end: the rollout converged, every pod is the one it was (same UID: updated in
//! place, none lost or duplicated) or, for a recreating rollout, every pod is new and there
//! are exactly replicas of them, every claim is the one it was and none is orphaned. A
//! failure prints the seed (`KRUISE_CHAOS_SEED` replays it) and the watcher's timeline. The
//! counts go to `target/tmp/chaos-summary.txt`, which `tests/run` prints.
mod support;

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use k8s_openapi::api::coordination::v1::Lease;
use k8s_openapi::api::core::v1::{PersistentVolumeClaim, Pod};
use kube::ResourceExt;
use kube::api::{Api, DynamicObject, ListParams, Patch, PatchParams, PostParams};
use serde_json::{Value, json};
use support::chaos::{Bounds, Dice, InvariantWatcher, Slot, audited_writes, summarize};
use support::controller::RunningController;
use support::{PrivateControlPlane, TestNamespace, wait_for};

/// Chaos tests run one at a time: each has a control plane of its own on 2 cores.
static ONE_AT_A_TIME: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

const CONVERGE: Duration = Duration::from_secs(180);

struct Workload {
    api: Api<DynamicObject>,
    name: String,
    /// The replica count the workload is asked for now.
    replicas: AtomicUsize,
    slot: Slot,
    /// The `app` label of its pods.
    app: String,
    /// Where its (first) image is, as a JSON pointer.
    image_path: &'static str,
}

impl Workload {
    /// The workload of `doc`; a DaemonSet's replicas are `nodes`. A SidecarSet rolls the
    /// pods of another workload: the `chaos/pods` annotation says how many, its selector's
    /// `app` label which, and its sidecar goes in front (the pods' first container).
    fn new(ns: &TestNamespace, doc: &Value, nodes: usize) -> Self {
        let api_version = doc["apiVersion"].as_str().expect("apiVersion");
        let kind = doc["kind"].as_str().expect("kind");
        let plural = format!("{}s", kind.to_lowercase());
        let name: String = doc["metadata"]["name"].as_str().expect("name").into();
        if kind == "SidecarSet" {
            let pods = doc["metadata"]["annotations"]["chaos/pods"]
                .as_str()
                .expect("chaos/pods");
            return Workload {
                api: support::cluster_api(ns, api_version, kind, &plural),
                name,
                replicas: AtomicUsize::new(pods.parse().expect("pod count")),
                slot: Slot::InstanceId,
                app: doc["spec"]["selector"]["matchLabels"]["app"]
                    .as_str()
                    .expect("app")
                    .into(),
                image_path: "/spec/containers/0/image",
            };
        }
        let replicas = doc["spec"]["replicas"].as_u64().map_or(nodes, |r| r as usize);
        Workload {
            api: support::dynamic_api(ns, api_version, kind, &plural),
            app: name.clone(),
            name,
            replicas: AtomicUsize::new(replicas),
            slot: match kind {
                "CloneSet" => Slot::InstanceId,
                "DaemonSet" => Slot::Node,
                _ => Slot::Ordinal,
            },
            image_path: "/spec/template/spec/containers/0/image",
        }
    }

    async fn set_image(&self, image: &str) {
        let patch: json_patch::Patch = serde_json::from_value(json!([
            { "op": "replace", "path": self.image_path, "value": image }
        ]))
        .expect("patch");
        self.api
            .patch(&self.name, &PatchParams::default(), &Patch::<()>::Json(patch))
            .await
            .expect("image patch");
    }

    async fn scale(&self, replicas: usize) {
        self.replicas.store(replicas, Ordering::SeqCst);
        self.api
            .patch(
                &self.name,
                &PatchParams::default(),
                &Patch::Merge(&json!({ "spec": { "replicas": replicas } })),
            )
            .await
            .expect("scale");
    }

    fn replicas(&self) -> usize {
        self.replicas.load(Ordering::SeqCst)
    }

    /// `Ok(pod name -> uid)` when the status and the pods agree the rollout to `image` is done.
    async fn converged(&self, ns: &TestNamespace, image: &str) -> Result<BTreeMap<String, String>, String> {
        let set = self.api.get(&self.name).await.map_err(|e| e.to_string())?;
        let status = &set.data["status"];
        let observed = status["observedGeneration"].as_i64() == set.metadata.generation;
        let updated = status["updatedReplicas"]
            .as_u64()
            .or(status["updatedNumberScheduled"].as_u64())
            .or(status["updatedPods"].as_u64())
            == Some(self.replicas() as u64);
        let pods: Api<Pod> = ns.api();
        let list = pods
            .list(&ListParams::default().labels(&format!("app={}", self.app)))
            .await
            .map_err(|e| e.to_string())?
            .items;
        let done = list.iter().all(|p| {
            let v = support::controller::PodView::of(p);
            v.ready && v.image == image && p.metadata.deletion_timestamp.is_none()
        });
        if observed && updated && done && list.len() == self.replicas() {
            Ok(list
                .iter()
                .map(|p| (p.name_any(), p.uid().unwrap_or_default()))
                .collect())
        } else {
            Err(format!(
                "observed {observed}, status {status}, {} pods, all ready on {image}: {done}",
                list.len()
            ))
        }
    }

    async fn wait_converged(&self, ns: &TestNamespace, image: &str, log: &str) -> BTreeMap<String, String> {
        let what = format!("{} to converge on {image}{log}", self.name);
        wait_for(&what, CONVERGE, || self.converged(ns, image)).await
    }
}

fn cloneset(name: &str, replicas: usize, max_unavailable: usize, policy: &str) -> Value {
    json!({
        "apiVersion": "apps.kruise.io/v1alpha1", "kind": "CloneSet",
        "metadata": { "name": name },
        "spec": {
            "replicas": replicas,
            "selector": { "matchLabels": { "app": name } },
            "template": {
                "metadata": { "labels": { "app": name }, "annotations": {
                    "sim.kubectl-kruise.io/start-delay": "300ms",
                    "sim.kubectl-kruise.io/image-pull-delay": "1s" } },
                "spec": { "containers": [ { "name": "app", "image": "nginx:1" } ] },
            },
            "updateStrategy": { "type": policy, "maxUnavailable": max_unavailable, "maxSurge": 0 },
        },
    })
}

fn advanced_statefulset(name: &str, replicas: usize, max_unavailable: usize) -> Value {
    advanced_statefulset_with(name, replicas, max_unavailable, "InPlaceIfPossible")
}

fn advanced_statefulset_with(name: &str, replicas: usize, max_unavailable: usize, policy: &str) -> Value {
    json!({
        "apiVersion": "apps.kruise.io/v1beta1", "kind": "StatefulSet",
        "metadata": { "name": name },
        "spec": {
            "replicas": replicas,
            "serviceName": name,
            "podManagementPolicy": "Parallel",
            "selector": { "matchLabels": { "app": name } },
            "template": {
                "metadata": { "labels": { "app": name }, "annotations": {
                    "sim.kubectl-kruise.io/image-pull-delay": "1s" } },
                "spec": {
                    "readinessGates": [ { "conditionType": "InPlaceUpdateReady" } ],
                    "containers": [ { "name": "app", "image": "nginx:1",
                        "volumeMounts": [ { "name": "data", "mountPath": "/data" } ] } ],
                },
            },
            "updateStrategy": { "type": "RollingUpdate", "rollingUpdate": {
                "maxUnavailable": max_unavailable, "podUpdatePolicy": policy } },
            "volumeClaimTemplates": [ { "metadata": { "name": "data" }, "spec": {
                "accessModes": ["ReadWriteOnce"], "resources": { "requests": { "storage": "1Gi" } } } } ],
        },
    })
}

async fn claims(ns: &TestNamespace) -> BTreeMap<String, String> {
    let api: Api<PersistentVolumeClaim> = ns.api();
    api.list(&ListParams::default())
        .await
        .expect("list claims")
        .items
        .into_iter()
        .filter(|c| c.metadata.deletion_timestamp.is_none())
        .map(|c| (c.name_any(), c.uid().unwrap_or_default()))
        .collect()
}

async fn private(tag: &str) -> (PrivateControlPlane, TestNamespace) {
    let plane = PrivateControlPlane::start_with(tag, &["--audit"]);
    let ns = TestNamespace::create_on(plane.client().await, &plane.kubeconfig, tag).await;
    (plane, ns)
}

/// What a kill loop did.
#[derive(Default)]
struct Tally {
    kills: usize,
    rollouts: usize,
    apiserver_restarts: usize,
}

/// Kills the controller `kills` times at random points (each one `run` lived 0.3-3 s),
/// starting a new rollout whenever the last one finished so every kill lands in one;
/// restarts the API server once half way, under a controller that is NOT killed then and
/// must finish that rollout by itself. Returns the image the last rollout goes to.
async fn kill_loop(
    plane: &PrivateControlPlane,
    ns: &TestNamespace,
    workload: &Workload,
    dice: &mut Dice,
    kills: usize,
    tally: &mut Tally,
) -> String {
    let mut version = 2;
    let mut image = format!("nginx:{version}");
    workload.set_image(&image).await;
    tally.rollouts += 1;
    let once = ["--leader-elect=false"];
    while tally.kills < kills {
        if workload.converged(ns, &image).await.is_ok() {
            version += 1;
            image = format!("nginx:{version}");
            workload.set_image(&image).await;
            tally.rollouts += 1;
        }
        let controller = RunningController::start_with(ns, &once);
        if tally.kills == kills / 2 && tally.apiserver_restarts == 0 {
            tokio::time::sleep(dice.millis(300, 1500)).await;
            let (code, _, err) = support::kruise(
                &plane.kubeconfig,
                &[
                    "testenv",
                    "restart-apiserver",
                    "--run-dir",
                    &plane.run_dir.display().to_string(),
                ],
            );
            assert_eq!(code, 0, "restart-apiserver: {err}");
            tally.apiserver_restarts += 1;
            let log = format!(
                "\nafter the API server restart; controller log:\n{}",
                controller.log_tail()
            );
            workload.wait_converged(ns, &image, &log).await;
            continue;
        }
        tokio::time::sleep(dice.millis(300, 3000)).await;
        controller.kill();
        tally.kills += 1;
    }
    image
}

fn assert_no_violations(watcher: &InvariantWatcher, seed: u64) {
    let violations = watcher.violations();
    assert!(
        violations.is_empty(),
        "{} invariant violations (seed {seed}, replay with KRUISE_CHAOS_SEED={seed}):\n{}\n-- timeline tail --\n{}",
        violations.len(),
        violations[..violations.len().min(20)].join("\n"),
        watcher.timeline_tail(200)
    );
}

/// What the pods are once the rollouts converged.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Pods {
    /// Every pod is the one it was (same name and UID: updated in place).
    Kept,
    /// Every pod is new (recreated), and there are exactly `replicas` of them.
    Replaced,
}

/// For a DaemonSet: simulated nodes until its template fits `bounds.replicas` of them
/// (nodes labelled `chaos=<ns>`, which its nodeSelector asks for); returns how many.
async fn add_nodes(ns: &TestNamespace, doc: &Value) -> usize {
    let Some(count) = doc["metadata"]["annotations"]["chaos/nodes"].as_str() else {
        return 0;
    };
    let count: usize = count.parse().expect("node count");
    let nodes: Api<k8s_openapi::api::core::v1::Node> = Api::all(ns.client.clone());
    for i in 0..count {
        let node = support::object(json!({ "apiVersion": "v1", "kind": "Node",
            "metadata": { "name": format!("chaos-node-{i}"), "labels": {
                "kubectl-kruise.io/simulated": "true", "chaos": "daemon",
                "kubernetes.io/hostname": format!("chaos-node-{i}") } },
            "spec": {} }));
        nodes
            .create(&PostParams::default(), &node)
            .await
            .expect("chaos node");
    }
    count
}

async fn survive_kills(tag: &str, doc: Value, bounds: Bounds, kills: usize, pods: Pods) {
    survive_kills_with(tag, doc, None, None, bounds, kills, pods).await;
}

/// A PodUnavailableBudget over `doc`'s workload allowing `max_unavailable`, created once
/// its pods are up; returns when its status counts them all.
async fn budget_over(ns: &TestNamespace, doc: &Value, replicas: usize, max_unavailable: usize) {
    let budgets = support::dynamic_api(
        ns,
        "policy.kruise.io/v1alpha1",
        "PodUnavailableBudget",
        "podunavailablebudgets",
    );
    let target =
        json!({ "apiVersion": doc["apiVersion"], "kind": doc["kind"], "name": doc["metadata"]["name"] });
    let budget = json!({ "apiVersion": "policy.kruise.io/v1alpha1", "kind": "PodUnavailableBudget",
        "metadata": { "name": "budget" },
        "spec": { "targetRef": target, "maxUnavailable": max_unavailable } });
    budgets
        .create(&PostParams::default(), &support::object(budget))
        .await
        .expect("create the budget");
    wait_for("the budget to count every pod", CONVERGE, || async {
        let status = budgets.get("budget").await.map_err(|e| e.to_string())?.data["status"].clone();
        let counted = status["currentAvailable"].as_u64() == Some(replicas as u64)
            && status["unavailableAllowed"].as_u64() == Some(max_unavailable as u64);
        if counted { Ok(()) } else { Err(status.to_string()) }
    })
    .await;
}

/// [`survive_kills`], where `doc` rolls the pods of `pods_from` (created after it, once the
/// webhooks are registered): a SidecarSet and the workload it injects into; and with a
/// PodUnavailableBudget over the workload allowing `budget` unavailable pods (the bounds'
/// `max_unavailable` is then the budget's, below the workload's own).
async fn survive_kills_with(
    tag: &str,
    mut doc: Value,
    pods_from: Option<Value>,
    budget: Option<usize>,
    bounds: Bounds,
    kills: usize,
    pods: Pods,
) {
    let _one = ONE_AT_A_TIME.lock().await;
    let started = Instant::now();
    let mut dice = Dice::new();
    let seed = dice.seed();
    let (plane, ns) = private(tag).await;
    if doc["kind"] == "SidecarSet" {
        // Cluster-scoped: a run scoped to the namespace drives it only when it is too.
        doc["spec"]["namespace"] = json!(ns.name);
    }
    let nodes = add_nodes(&ns, &doc).await;
    let workload = Workload::new(&ns, &doc, nodes);
    let watcher = InvariantWatcher::start(&ns, bounds, workload.slot);
    let controller = RunningController::start_with(&ns, &["--leader-elect=false"]);
    let doc_of_workload = doc.clone();
    workload
        .api
        .create(&PostParams::default(), &support::object(doc))
        .await
        .expect("create the workload");
    if let Some(owner) = pods_from {
        support::webhooks::answering(&ns).await;
        let api_version = owner["apiVersion"].as_str().expect("apiVersion");
        let kind = owner["kind"].as_str().expect("kind");
        support::dynamic_api(&ns, api_version, kind, &format!("{}s", kind.to_lowercase()))
            .create(&PostParams::default(), &support::object(owner))
            .await
            .expect("create the pods' owner");
    }
    let before = workload.wait_converged(&ns, "nginx:1", "").await;
    if let Some(max_unavailable) = budget {
        budget_over(&ns, &doc_of_workload, bounds.replicas, max_unavailable).await;
    }
    let claims_before = claims(&ns).await;
    drop(controller);
    watcher.arm();

    let mut tally = Tally::default();
    let image = kill_loop(&plane, &ns, &workload, &mut dice, kills, &mut tally).await;
    let last = RunningController::start_with(&ns, &["--leader-elect=false"]);
    let log = format!(" (seed {seed}); controller log:\n{}", last.log_tail());
    let after = workload.wait_converged(&ns, &image, &log).await;
    assert_no_violations(&watcher, seed);
    match pods {
        Pods::Kept => assert_eq!(
            before, after,
            "every pod kept its name and UID (updated in place, none lost)"
        ),
        Pods::Replaced => {
            let old: Vec<&String> = before.values().collect();
            assert!(
                after.len() == bounds.replicas && after.values().all(|uid| !old.contains(&uid)),
                "every pod recreated, {} of them: before {before:?}, after {after:?}",
                bounds.replicas
            );
        }
    }
    let claims_after = claims(&ns).await;
    assert_eq!(
        claims_before, claims_after,
        "every claim kept, none orphaned or added"
    );
    summarize(&format!(
        "chaos {tag}: {} pods, seed {seed}: {} rollouts, kills survived {}, API server restarts {}, \
invariant checks {}, violations 0, {} claims kept, {:.0}s",
        bounds.replicas,
        tally.rollouts,
        tally.kills,
        tally.apiserver_restarts,
        watcher.checks(),
        claims_after.len(),
        started.elapsed().as_secs_f64()
    ));
}

/// An Advanced DaemonSet over 50 simulated nodes, updated in place one budget at a time:
/// never two pods on a node, never more than maxUnavailable nodes without an available pod.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn chaos_advanced_daemonset_in_place_survives_sigkill_loops_and_an_apiserver_restart() {
    let bounds = Bounds {
        replicas: 50,
        max_unavailable: 5,
        max_surge: 0,
        max_not_ready: None,
    };
    let doc = json!({
        "apiVersion": "apps.kruise.io/v1alpha1", "kind": "DaemonSet",
        "metadata": { "name": "agent", "annotations": { "chaos/nodes": "50" } },
        "spec": { "selector": { "matchLabels": { "app": "agent" } },
            "template": { "metadata": { "labels": { "app": "agent" } },
                "spec": { "nodeSelector": { "chaos": "daemon" },
                    "containers": [{ "name": "main", "image": "nginx:1" }] } },
            "updateStrategy": { "type": "RollingUpdate", "rollingUpdate": {
                "rollingUpdateType": "InPlaceIfPossible", "maxUnavailable": 5 } } },
    });
    survive_kills("chaos-ads", doc, bounds, 8, Pods::Kept).await;
}

/// A SidecarSet upgrading the sidecar of a 30-pod CloneSet in place, 3 pods at a time:
/// never more than 3 of them unavailable, every pod kept (same UID), the app untouched.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn chaos_sidecarset_in_place_survives_sigkill_loops_and_an_apiserver_restart() {
    let bounds = Bounds {
        replicas: 30,
        max_unavailable: 3,
        max_surge: 0,
        max_not_ready: None,
    };
    let doc = json!({
        "apiVersion": "apps.kruise.io/v1alpha1", "kind": "SidecarSet",
        "metadata": { "name": "mesh", "annotations": { "chaos/pods": "30" } },
        "spec": { "selector": { "matchLabels": { "app": "web" } },
            "containers": [{ "name": "mesh", "image": "nginx:1" }],
            "updateStrategy": { "maxUnavailable": 3 } },
    });
    let mut pods_from = cloneset("web", 30, 3, "InPlaceIfPossible");
    pods_from["spec"]["template"]["spec"]["containers"][0]["image"] = json!("app:1");
    survive_kills_with("chaos-scs", doc, Some(pods_from), None, bounds, 8, Pods::Kept).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn chaos_cloneset_in_place_survives_sigkill_loops_and_an_apiserver_restart() {
    let bounds = Bounds {
        replicas: 60,
        max_unavailable: 6,
        max_surge: 0,
        max_not_ready: None,
    };
    let doc = cloneset("web", 60, 6, "InPlaceIfPossible");
    survive_kills("chaos-cs", doc, bounds, 10, Pods::Kept).await;
}

/// A recreating rollout deletes each pod in the update phase itself (no surge, no hook):
/// a kill between that delete and the replacement's create must neither exceed
/// maxUnavailable nor lose or duplicate a pod.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn chaos_cloneset_recreate_survives_sigkill_loops_and_an_apiserver_restart() {
    let bounds = Bounds {
        replicas: 50,
        max_unavailable: 5,
        max_surge: 0,
        max_not_ready: None,
    };
    let doc = cloneset("web", 50, 5, "ReCreate");
    survive_kills("chaos-cs-recreate", doc, bounds, 8, Pods::Replaced).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn chaos_advanced_statefulset_in_place_survives_sigkill_loops_and_an_apiserver_restart() {
    let bounds = Bounds {
        replicas: 50,
        max_unavailable: 5,
        max_surge: 0,
        max_not_ready: None,
    };
    survive_kills(
        "chaos-asts",
        advanced_statefulset("db", 50, 5),
        bounds,
        10,
        Pods::Kept,
    )
    .await;
}

/// An Advanced StatefulSet that would update 8 pods in place at once, under a
/// PodUnavailableBudget that allows 3: its controller asks the budget before each pod goes
/// down (the budget's status records the pod first), so kills at any point never take a
/// fourth pod down. (A budget counts an updated pod unavailable for 10 s, as upstream's:
/// each wave takes that long, hence 20 pods.)
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn chaos_advanced_statefulset_under_a_budget_survives_sigkill_loops_and_an_apiserver_restart() {
    let bounds = Bounds {
        replicas: 20,
        max_unavailable: 3,
        max_surge: 0,
        max_not_ready: None,
    };
    survive_kills_with(
        "chaos-asts-pub",
        advanced_statefulset("db", 20, 8),
        None,
        Some(3),
        bounds,
        8,
        Pods::Kept,
    )
    .await;
}

/// The same for a CloneSet (its in-place updates, no claims).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn chaos_cloneset_under_a_budget_survives_sigkill_loops_and_an_apiserver_restart() {
    let bounds = Bounds {
        replicas: 20,
        max_unavailable: 3,
        max_surge: 0,
        max_not_ready: None,
    };
    let doc = cloneset("web", 20, 8, "InPlaceIfPossible");
    survive_kills_with("chaos-cs-pub", doc, None, Some(3), bounds, 8, Pods::Kept).await;
}

/// A recreating Advanced StatefulSet rollout deletes pods and makes them again under the
/// same names: a pod deleted and not yet recreated counts against maxUnavailable (the
/// watcher counts available pods against the replicas), and every claim stays.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn chaos_advanced_statefulset_recreate_survives_sigkill_loops_and_an_apiserver_restart() {
    let bounds = Bounds {
        replicas: 40,
        max_unavailable: 4,
        max_surge: 0,
        max_not_ready: None,
    };
    survive_kills(
        "chaos-asts-recreate",
        advanced_statefulset_with("db", 40, 4, "ReCreate"),
        bounds,
        8,
        Pods::Replaced,
    )
    .await;
}

/// Parallel scaling with `scaleStrategy.maxUnavailable`: the set moves between 8 and 30
/// replicas while the controller is SIGKILLed at random points; a restarted controller has
/// no expectations and must count the pods already starting. Never more than 3 live pods
/// not Ready at once, and the set converges on the last count.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn chaos_parallel_asts_scaling_keeps_within_scale_max_unavailable_under_sigkill_loops() {
    let _one = ONE_AT_A_TIME.lock().await;
    let started = Instant::now();
    let mut dice = Dice::new();
    let seed = dice.seed();
    let (_plane, ns) = private("chaos-asts-scale").await;
    let mut doc = advanced_statefulset("sc", 8, 1);
    doc["spec"]["scaleStrategy"] = json!({ "maxUnavailable": 3 });
    doc["spec"]["template"]["metadata"]["annotations"] = json!({ "sim.kubectl-kruise.io/start-delay": "300ms", "sim.kubectl-kruise.io/image-pull-delay": "1s" });
    let workload = Workload::new(&ns, &doc, 0);
    let bounds = Bounds {
        replicas: 0,
        max_unavailable: 0,
        max_surge: 30,
        max_not_ready: Some(3),
    };
    let watcher = InvariantWatcher::start(&ns, bounds, workload.slot);
    let controller = RunningController::start_with(&ns, &["--leader-elect=false"]);
    workload
        .api
        .create(&PostParams::default(), &support::object(doc))
        .await
        .expect("create the workload");
    workload.wait_converged(&ns, "nginx:1", "").await;
    drop(controller);
    watcher.arm();
    let (mut kills, mut moves) = (0, 0);
    let once = ["--leader-elect=false"];
    while kills < 8 {
        if workload.converged(&ns, "nginx:1").await.is_ok() {
            let next = if workload.replicas() == 8 { 30 } else { 8 };
            workload.scale(next).await;
            moves += 1;
        }
        let controller = RunningController::start_with(&ns, &once);
        tokio::time::sleep(dice.millis(300, 3000)).await;
        controller.kill();
        kills += 1;
    }
    let last = RunningController::start_with(&ns, &once);
    let log = format!(" (seed {seed}); controller log:\n{}", last.log_tail());
    workload.wait_converged(&ns, "nginx:1", &log).await;
    assert_no_violations(&watcher, seed);
    summarize(&format!(
        "chaos chaos-asts-scale: 8 <-> 30 pods, seed {seed}: {moves} scalings, kills survived {kills}, \
invariant checks {}, violations 0, {:.0}s",
        watcher.checks(),
        started.elapsed().as_secs_f64()
    ));
}

/// The pid in a lease holder identity `host/pid-nanos`.
fn holder_pid(lease: &Lease) -> Option<u32> {
    let holder = lease.spec.as_ref()?.holder_identity.as_deref()?;
    holder.rsplit_once('/')?.1.split_once('-')?.0.parse().ok()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn chaos_two_runs_at_once_have_one_writer_at_any_time() {
    let _one = ONE_AT_A_TIME.lock().await;
    let started = Instant::now();
    let mut dice = Dice::new();
    let seed = dice.seed();
    let (plane, ns) = private("chaos-two").await;
    let doc = cloneset("web", 50, 5, "InPlaceIfPossible");
    let workload = Workload::new(&ns, &doc, 0);
    let bounds = Bounds {
        replicas: 50,
        max_unavailable: 5,
        max_surge: 0,
        max_not_ready: None,
    };
    let watcher = InvariantWatcher::start(&ns, bounds, workload.slot);
    let lease_flags = ["--leader-elect-lease-duration", "3s"];
    let mut runs = vec![
        RunningController::start_with(&ns, &lease_flags),
        RunningController::start_with(&ns, &lease_flags),
    ];
    workload
        .api
        .create(&PostParams::default(), &support::object(doc))
        .await
        .expect("create the CloneSet");
    workload.wait_converged(&ns, "nginx:1", "").await;
    watcher.arm();

    let leases: Api<Lease> = ns.api();
    let (mut takeovers, mut version) = (0, 1);
    let takeovers_wanted = 4;
    while takeovers < takeovers_wanted {
        // The one holding the lease is one of ours, and has written: it leads.
        let leader = wait_for(
            "a live leader that has written",
            Duration::from_secs(60),
            || async {
                let lease = leases.get("kubectl-kruise").await.map_err(|e| e.to_string())?;
                let pid = holder_pid(&lease).ok_or("no holder")?;
                let index = runs
                    .iter()
                    .position(|r| r.pid() == pid)
                    .ok_or(format!("holder {pid} is gone"))?;
                if runs[index].writes_to("pods") + runs[index].writes_to("clonesets/status") > 0.0 {
                    Ok(index)
                } else {
                    Err(format!("holder {pid} has not written yet"))
                }
            },
        )
        .await;
        version += 1;
        workload.set_image(&format!("nginx:{version}")).await;
        tokio::time::sleep(dice.millis(500, 2500)).await;
        runs.remove(leader).kill();
        // Two at once again: a fresh standby next to the one taking over.
        runs.push(RunningController::start_with(&ns, &lease_flags));
        takeovers += 1;
    }
    let image = format!("nginx:{version}");
    workload
        .wait_converged(&ns, &image, &format!(" (seed {seed})"))
        .await;
    assert_no_violations(&watcher, seed);
    for run in runs {
        run.stop();
    }

    // Attribution by the API server's own audit log: writes other than the lease, by the
    // User-Agent of each `run` process.
    let writes: Vec<_> = audited_writes(&plane.run_dir.join("logs/audit.log"), &ns.name)
        .into_iter()
        .filter(|w| w.user_agent.contains(" run (") && w.resource != "leases")
        .collect();
    let mut order: Vec<String> = Vec::new();
    let mut overlaps = Vec::new();
    let mut sorted = writes.clone();
    sorted.sort_by(|a, b| a.at.cmp(&b.at));
    for w in &sorted {
        match order.iter().position(|u| *u == w.user_agent) {
            None => order.push(w.user_agent.clone()),
            Some(i) if i + 1 == order.len() => {}
            Some(_) => overlaps.push(format!(
                "{} {} {}/{} by {} after {} had begun writing",
                w.at,
                w.verb,
                w.resource,
                w.name,
                w.user_agent,
                order.last().map_or("", String::as_str)
            )),
        }
    }
    assert!(
        overlaps.is_empty(),
        "two writers at once (seed {seed}):\n{}",
        overlaps.join("\n")
    );
    assert!(
        order.len() > takeovers_wanted,
        "each leader wrote in turn: {} writers for {takeovers_wanted} takeovers: {order:?}",
        order.len()
    );
    summarize(&format!(
        "chaos two-runs: 50 pods, seed {seed}: {} rollouts, leader kills {takeovers}, {} writers took turns, \
{} audited writes, overlaps 0, invariant checks {}, violations 0, {:.0}s",
        version - 1,
        order.len(),
        sorted.len(),
        watcher.checks(),
        started.elapsed().as_secs_f64()
    ));
}

/// A pod as the spread watcher saw it: the subset its annotation named when first seen (a
/// pod the webhook placed), its subset now, its node and whether it is live.
#[derive(Clone, Default)]
struct Spread {
    placed_at_creation: Option<String>,
    subset: Option<String>,
    node: Option<String>,
    live: bool,
}

fn matched_subset(pod: &Pod) -> Option<String> {
    let value: Value =
        serde_json::from_str(pod.annotations().get("apps.kruise.io/matched-workloadspread")?).ok()?;
    value["subset"].as_str().map(str::to_string)
}

/// A WorkloadSpread over a CloneSet (zones a, b, c of two nodes each; at most 5, 5 and the
/// rest) scaled up and down at random while the controller, which also serves the pod
/// webhook, is killed with SIGKILL at random points. An independent watcher checks on every
/// pod event that no subset ever holds more pods the webhook placed than its maximum, and
/// that every placed pod runs in its subset's zone. Pods created while no webhook answered
/// (every other run serves none, and a killed run's configuration still points at it;
/// `failurePolicy: Ignore`) are created unplaced: at the end, with a run alive, each is
/// adopted into the subset of its node's zone, and the status counts exactly the pods in
/// each subset.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn chaos_workloadspread_placement_survives_sigkill_loops() {
    let _one = ONE_AT_A_TIME.lock().await;
    let started = Instant::now();
    let mut dice = Dice::new();
    let seed = dice.seed();
    let (_plane, ns) = private("chaos-ws").await;
    let nodes: Api<k8s_openapi::api::core::v1::Node> = Api::all(ns.client.clone());
    for zone in ["a", "b", "c"] {
        for i in 0..2 {
            let node = support::object(json!({ "apiVersion": "v1", "kind": "Node",
                "metadata": { "name": format!("zone-{zone}-{i}"), "labels": {
                    "kubectl-kruise.io/simulated": "true", "chaos": "spread",
                    "topology.kubernetes.io/zone": zone,
                    "kubernetes.io/hostname": format!("zone-{zone}-{i}") } },
                "spec": {} }));
            nodes
                .create(&PostParams::default(), &node)
                .await
                .expect("zone node");
        }
    }
    let term = |zone: &str| {
        json!({ "matchExpressions": [
        { "key": "topology.kubernetes.io/zone", "operator": "In", "values": [zone] }] })
    };
    let maxima = BTreeMap::from([("zone-a".to_string(), 5usize), ("zone-b".to_string(), 5usize)]);
    let zone_of_subset = |s: &str| s.strip_prefix("zone-").map(str::to_string);
    let spreads = support::kruise_api(&ns, "WorkloadSpread", "v1alpha1");
    let ws: DynamicObject = support::object(json!({ "apiVersion": "apps.kruise.io/v1alpha1",
        "kind": "WorkloadSpread", "metadata": { "name": "web" },
        "spec": { "targetRef": { "apiVersion": "apps.kruise.io/v1alpha1", "kind": "CloneSet", "name": "web" },
            "subsets": [
                { "name": "zone-a", "requiredNodeSelectorTerm": term("a"), "maxReplicas": 5 },
                { "name": "zone-b", "requiredNodeSelectorTerm": term("b"), "maxReplicas": 5 },
                { "name": "zone-c", "requiredNodeSelectorTerm": term("c") } ] } }));

    // The independent watcher.
    let seen: std::sync::Arc<std::sync::Mutex<BTreeMap<String, Spread>>> = Default::default();
    let violations: std::sync::Arc<std::sync::Mutex<Vec<String>>> = Default::default();
    let checks = std::sync::Arc::new(AtomicUsize::new(0));
    let zones: BTreeMap<String, String> = ["a", "b", "c"]
        .iter()
        .flat_map(|z| (0..2).map(move |i| (format!("zone-{z}-{i}"), z.to_string())))
        .collect();
    let watch = {
        let (seen, violations, checks, maxima) =
            (seen.clone(), violations.clone(), checks.clone(), maxima.clone());
        let pods: Api<Pod> = ns.api();
        tokio::spawn(async move {
            use futures::StreamExt;
            use kube::runtime::{WatchStreamExt, watcher};
            let mut events = watcher(pods, watcher::Config::default().labels("app=web"))
                .applied_objects()
                .boxed();
            while let Some(event) = events.next().await {
                let Ok(pod) = event else { continue };
                let mut seen = seen.lock().expect("seen");
                let phase = pod
                    .status
                    .as_ref()
                    .and_then(|s| s.phase.clone())
                    .unwrap_or_default();
                let entry = seen.entry(pod.name_any()).or_insert_with(|| Spread {
                    placed_at_creation: matched_subset(&pod),
                    ..Spread::default()
                });
                entry.subset = matched_subset(&pod);
                entry.node = pod.spec.as_ref().and_then(|s| s.node_name.clone());
                entry.live =
                    pod.metadata.deletion_timestamp.is_none() && phase != "Succeeded" && phase != "Failed";
                let mut placed: BTreeMap<&str, usize> = BTreeMap::new();
                for (name, p) in seen.iter().filter(|(_, p)| p.live) {
                    if let Some(s) = &p.placed_at_creation {
                        *placed.entry(s.as_str()).or_insert(0) += 1;
                    }
                    let node_zone = p.node.as_ref().and_then(|n| zones.get(n));
                    let subset_zone = p.subset.as_deref().and_then(zone_of_subset);
                    if let (Some(n), Some(s)) = (node_zone, subset_zone)
                        && *n != s
                    {
                        violations
                            .lock()
                            .expect("v")
                            .push(format!("{name} in subset zone-{s} runs in zone {n}"));
                    }
                }
                for (subset, max) in &maxima {
                    let have = placed.get(subset.as_str()).copied().unwrap_or(0);
                    if have > *max {
                        violations
                            .lock()
                            .expect("v")
                            .push(format!("{subset}: {have} placed > {max}"));
                    }
                }
                checks.fetch_add(1, Ordering::Relaxed);
            }
        })
    };

    let first = RunningController::start_with(&ns, &["--leader-elect=false"]);
    support::webhooks::answering(&ns).await;
    spreads
        .create(&PostParams::default(), &ws)
        .await
        .expect("WorkloadSpread");
    let mut doc = cloneset("web", 10, 2, "InPlaceIfPossible");
    doc["spec"]["template"]["spec"]["nodeSelector"] = json!({ "chaos": "spread" });
    let workload = Workload::new(&ns, &doc, 0);
    workload
        .api
        .create(&PostParams::default(), &support::object(doc))
        .await
        .expect("create the CloneSet");
    workload.wait_converged(&ns, "nginx:1", "").await;
    drop(first);

    let kills = 8;
    let mut scales = Vec::new();
    for kill in 0..kills {
        // Every other run serves no webhook: the killed run's configuration still points
        // at its address, so the pods this run's CloneSet creates go in unplaced.
        let webhooks = if kill % 2 == 0 {
            "--webhooks=true"
        } else {
            "--webhooks=false"
        };
        let controller = RunningController::start_with(&ns, &["--leader-elect=false", webhooks]);
        let replicas = 4 + dice.millis(0, 27).as_millis() as usize;
        workload.scale(replicas).await;
        scales.push(replicas);
        tokio::time::sleep(dice.millis(300, 3000)).await;
        controller.kill();
    }
    let last = RunningController::start_with(&ns, &["--leader-elect=false"]);
    support::webhooks::answering(&ns).await;
    workload.scale(20).await;
    let log = format!(" (seed {seed}); controller log:\n{}", last.log_tail());
    workload.wait_converged(&ns, "nginx:1", &log).await;
    // Every pod in a subset (placed or adopted), and the status counts each subset exactly.
    let status = wait_for(
        &format!("the spread to count every pod{log}"),
        CONVERGE,
        || async {
            let pods: Api<Pod> = ns.api();
            let list = pods
                .list(&ListParams::default().labels("app=web"))
                .await
                .map_err(|e| e.to_string())?;
            let mut counts: BTreeMap<String, i64> = BTreeMap::new();
            for p in list
                .items
                .iter()
                .filter(|p| p.metadata.deletion_timestamp.is_none())
            {
                let subset = matched_subset(p).ok_or(format!("{} is in no subset", p.name_any()))?;
                *counts.entry(subset).or_insert(0) += 1;
            }
            let ws = spreads.get("web").await.map_err(|e| e.to_string())?;
            let status = ws.data["status"].clone();
            let counted: BTreeMap<String, i64> = status["subsetStatuses"]
                .as_array()
                .into_iter()
                .flatten()
                .filter(|s| s["replicas"].as_i64().unwrap_or(0) > 0)
                .map(|s| {
                    (
                        s["name"].as_str().unwrap_or_default().to_string(),
                        s["replicas"].as_i64().unwrap_or(0),
                    )
                })
                .collect();
            let in_subsets = status["conditions"]
                .as_array()
                .into_iter()
                .flatten()
                .any(|c| c["type"] == "PodsInSubsets" && c["status"] == "True");
            if counted == counts && in_subsets {
                Ok(status)
            } else {
                Err(format!("pods {counts:?}, status {status}"))
            }
        },
    )
    .await;
    watch.abort();
    let violations = violations.lock().expect("violations").clone();
    assert!(
        violations.is_empty(),
        "{} violations (seed {seed}, replay with KRUISE_CHAOS_SEED={seed}; scales {scales:?}):\n{}",
        violations.len(),
        violations[..violations.len().min(20)].join("\n")
    );
    let adopted = seen
        .lock()
        .expect("seen")
        .values()
        .filter(|p| p.live && p.placed_at_creation.is_none())
        .count();
    summarize(&format!(
        "chaos workloadspread: 20 pods, seed {seed}: scales {scales:?}, kills survived {kills}, \
{adopted} live pods adopted (created unplaced), invariant checks {}, violations 0, {:.0}s; status {}",
        checks.load(Ordering::Relaxed),
        started.elapsed().as_secs_f64(),
        status["subsetStatuses"]
    ));
}
