//! Namespace churn, the way CI clusters and team namespaces live: round after round, two
//! namespaces get workloads of every namespaced kind (a CloneSet and an Advanced
//! StatefulSet with claims, an Advanced DaemonSet, a BroadcastJob, an AdvancedCronJob, a
//! WorkloadSpread, a UnitedDeployment) and a SidecarSet selects their pods; the namespaces
//! are deleted while those still create pods, claims and children (after a random pause:
//! the seed is printed, `KRUISE_CHAOS_SEED` replays it). In every round one probe object
//! of each kind, in a namespace that stays, is changed and must be reconciled within
//! [`PROBE`]: a controller that froze (a lost wake-up, a permit never given back, an
//! expectation waited on for good) misses it by far. One `run` of every namespace serves
//! all of it, on a control plane of the test's own. At the end the run is still healthy,
//! said no RBAC refusal (a namespace being deleted is no permission problem), and every
//! churned namespace is gone.
mod support;

use std::time::{Duration, Instant};

use k8s_openapi::api::core::v1::Namespace;
use kube::api::{Api, DeleteParams, DynamicObject, Patch, PatchParams, PostParams};
use serde_json::{Value, json};
use support::chaos::{Dice, summarize};
use support::controller::RunningController;
use support::{PrivateControlPlane, TestNamespace, wait_for};

/// How long a probe may take to be reconciled: many times what a live controller needs
/// (one round trip), far below anything a frozen one could meet.
const PROBE: Duration = Duration::from_secs(10);

/// Rounds of churn (two namespaces each).
const ROUNDS: usize = 12;

fn template(app: &str) -> Value {
    json!({ "metadata": { "labels": { "app": app, "churn": "true" } },
        "spec": { "containers": [{ "name": "main", "image": "nginx:1.25" }] } })
}

fn claims() -> Value {
    json!([{ "metadata": { "name": "data" },
        "spec": { "accessModes": ["ReadWriteOnce"], "resources": { "requests": { "storage": "1Mi" } } } }])
}

/// The workloads of one churned namespace: every namespaced kind, each creating what it
/// creates (pods, claims, Jobs, child workloads).
fn churned() -> Vec<Value> {
    let mut cloneset_template = template("cs");
    cloneset_template["spec"]["containers"][0]["volumeMounts"] =
        json!([{ "name": "data", "mountPath": "/d" }]);
    vec![
        json!({ "apiVersion": "apps.kruise.io/v1alpha1", "kind": "CloneSet", "metadata": { "name": "cs" },
            "spec": { "replicas": 6, "selector": { "matchLabels": { "app": "cs" } },
                "template": cloneset_template, "volumeClaimTemplates": claims() } }),
        json!({ "apiVersion": "apps.kruise.io/v1beta1", "kind": "StatefulSet", "metadata": { "name": "ss" },
            "spec": { "replicas": 3, "serviceName": "ss", "podManagementPolicy": "Parallel",
                "selector": { "matchLabels": { "app": "ss" } }, "template": template("ss"),
                "volumeClaimTemplates": claims() } }),
        json!({ "apiVersion": "apps.kruise.io/v1alpha1", "kind": "DaemonSet", "metadata": { "name": "ds" },
            "spec": { "selector": { "matchLabels": { "app": "ds" } }, "template": template("ds") } }),
        json!({ "apiVersion": "apps.kruise.io/v1alpha1", "kind": "BroadcastJob", "metadata": { "name": "bj" },
            "spec": { "template": { "spec": { "restartPolicy": "Never",
                "containers": [{ "name": "main", "image": "busybox" }] } } } }),
        json!({ "apiVersion": "apps.kruise.io/v1alpha1", "kind": "AdvancedCronJob", "metadata": { "name": "acj" },
            "spec": { "schedule": "* * * * *", "template": { "broadcastJobTemplate": { "spec": {
                "template": { "spec": { "restartPolicy": "Never",
                    "containers": [{ "name": "main", "image": "busybox" }] } } } } } } }),
        workloadspread("ws", "cs"),
        uniteddeployment("ud", 3),
    ]
}

fn workloadspread(name: &str, cloneset: &str) -> Value {
    let zone = |zone: &str, max: Value| {
        json!({ "name": zone, "maxReplicas": max, "requiredNodeSelectorTerm": { "matchExpressions": [
            { "key": "topology.kubernetes.io/zone", "operator": "In", "values": [zone] }] } })
    };
    json!({ "apiVersion": "apps.kruise.io/v1alpha1", "kind": "WorkloadSpread", "metadata": { "name": name },
        "spec": { "targetRef": { "apiVersion": "apps.kruise.io/v1alpha1", "kind": "CloneSet", "name": cloneset },
            "subsets": [zone("zone-a", json!(2)), zone("zone-b", Value::Null)] } })
}

fn uniteddeployment(name: &str, replicas: u64) -> Value {
    let subset = |zone: &str| {
        json!({ "name": zone, "nodeSelectorTerm": { "matchExpressions": [
            { "key": "topology.kubernetes.io/zone", "operator": "In", "values": [zone] }] } })
    };
    json!({ "apiVersion": "apps.kruise.io/v1alpha1", "kind": "UnitedDeployment", "metadata": { "name": name },
        "spec": { "replicas": replicas, "selector": { "matchLabels": { "app": name } },
            "template": { "cloneSetTemplate": { "metadata": { "labels": { "app": name } },
                "spec": { "selector": { "matchLabels": { "app": name } }, "template": template(name) } } },
            "topology": { "subsets": [subset("zone-a"), subset("zone-b")] } } })
}

fn sidecarset(name: &str, namespace: &str, paused: bool) -> Value {
    json!({ "apiVersion": "apps.kruise.io/v1alpha1", "kind": "SidecarSet", "metadata": { "name": name },
        "spec": { "namespace": namespace, "selector": { "matchLabels": { "churn": "true" } },
            "updateStrategy": { "paused": paused },
            "containers": [{ "name": "sidecar", "image": "busybox:1" }] } })
}

fn api_of(ns: &TestNamespace, doc: &Value) -> Api<DynamicObject> {
    let api_version = doc["apiVersion"].as_str().expect("apiVersion");
    let kind = doc["kind"].as_str().expect("kind");
    let plural = format!("{}s", kind.to_lowercase());
    if kind == "SidecarSet" {
        support::cluster_api(ns, api_version, kind, &plural)
    } else {
        support::dynamic_api(ns, api_version, kind, &plural)
    }
}

async fn create(ns: &TestNamespace, doc: &Value) {
    let api = api_of(ns, doc);
    match api
        .create(&PostParams::default(), &support::object(doc.clone()))
        .await
    {
        Ok(_) => {}
        // A namespace deleted under us refuses: that is the churn.
        Err(kube::Error::Api(e)) if e.code == 403 || e.code == 404 => {}
        Err(e) => panic!("creating {} in {}: {e}", doc["kind"], ns.name),
    }
}

/// One probe: the object, the change of round `round`, and when it counts as reconciled.
struct Probe {
    doc: Value,
    change: fn(usize) -> Value,
    /// A new object each round (a job kind has no generation to observe): reconciled once
    /// its status says so.
    fresh: bool,
}

fn probes(alive: &str) -> Vec<Probe> {
    let replicas = |round: usize| json!({ "spec": { "replicas": round % 2 + 1 } });
    vec![
        Probe {
            doc: json!({ "apiVersion": "apps.kruise.io/v1alpha1", "kind": "CloneSet", "metadata": { "name": "probe" },
                "spec": { "replicas": 1, "selector": { "matchLabels": { "app": "probe" } }, "template": template("probe") } }),
            change: replicas,
            fresh: false,
        },
        Probe {
            doc: json!({ "apiVersion": "apps.kruise.io/v1beta1", "kind": "StatefulSet", "metadata": { "name": "probe" },
                "spec": { "replicas": 1, "serviceName": "probe", "selector": { "matchLabels": { "app": "probe-ss" } },
                    "template": template("probe-ss") } }),
            change: replicas,
            fresh: false,
        },
        Probe {
            doc: json!({ "apiVersion": "apps.kruise.io/v1alpha1", "kind": "DaemonSet", "metadata": { "name": "probe" },
                "spec": { "selector": { "matchLabels": { "app": "probe-ds" } }, "template": template("probe-ds") } }),
            change: |round| json!({ "spec": { "minReadySeconds": round % 2 } }),
            fresh: false,
        },
        Probe {
            doc: uniteddeployment("probe", 1),
            change: replicas,
            fresh: false,
        },
        Probe {
            doc: workloadspread("probe", "probe"),
            change: |round| {
                json!({ "spec": { "subsets": [
                { "name": "zone-a", "maxReplicas": round % 2 + 1, "requiredNodeSelectorTerm": { "matchExpressions": [
                    { "key": "topology.kubernetes.io/zone", "operator": "In", "values": ["zone-a"] }] } },
                { "name": "zone-b", "requiredNodeSelectorTerm": { "matchExpressions": [
                    { "key": "topology.kubernetes.io/zone", "operator": "In", "values": ["zone-b"] }] } }] } })
            },
            fresh: false,
        },
        Probe {
            doc: sidecarset(&format!("probe-{alive}"), alive, false),
            change: |round| json!({ "spec": { "updateStrategy": { "paused": round % 2 == 1 } } }),
            fresh: false,
        },
        Probe {
            doc: json!({ "apiVersion": "apps.kruise.io/v1alpha1", "kind": "BroadcastJob", "metadata": { "name": "probe" },
                "spec": { "template": { "spec": { "restartPolicy": "Never",
                    "containers": [{ "name": "main", "image": "busybox" }] } } } }),
            change: |_| Value::Null,
            fresh: true,
        },
        Probe {
            doc: json!({ "apiVersion": "apps.kruise.io/v1alpha1", "kind": "AdvancedCronJob", "metadata": { "name": "probe" },
                "spec": { "schedule": "0 0 1 1 *", "template": { "jobTemplate": { "spec": { "template": { "spec": {
                    "restartPolicy": "Never", "containers": [{ "name": "main", "image": "busybox" }] } } } } } } }),
            change: |_| Value::Null,
            fresh: true,
        },
    ]
}

/// The name of probe `doc` in round `round` (a fresh object per round for job kinds).
fn probe_name(probe: &Probe, round: usize) -> String {
    let name = probe.doc["metadata"]["name"].as_str().expect("name");
    if probe.fresh {
        format!("{name}-{round}")
    } else {
        name.to_string()
    }
}

/// Whether `object` shows the change of this round reconciled.
fn reconciled(probe: &Probe, object: &DynamicObject) -> bool {
    let status = &object.data["status"];
    if probe.fresh {
        // A BroadcastJob counts its nodes; an AdvancedCronJob names its child kind.
        return !status["desired"].is_null() || !status["type"].is_null();
    }
    // The change is seen (its counters may follow a few seconds later: they are coalesced).
    status["observedGeneration"] == json!(object.metadata.generation)
}

async fn change_probe(ns: &TestNamespace, probe: &Probe, round: usize) {
    let api = api_of(ns, &probe.doc);
    if probe.fresh {
        let mut doc = probe.doc.clone();
        doc["metadata"]["name"] = json!(probe_name(probe, round));
        create(ns, &doc).await;
    } else {
        api.patch(
            &probe_name(probe, round),
            &PatchParams::default(),
            &Patch::Merge((probe.change)(round)),
        )
        .await
        .unwrap_or_else(|e| panic!("changing probe {}: {e}", probe.doc["kind"]));
    }
}

#[tokio::test]
async fn namespace_churn_of_every_kind_never_stalls_a_controller() {
    let plane = PrivateControlPlane::start("churn");
    let client = plane.client().await;
    let alive = TestNamespace::create_on(client.clone(), &plane.kubeconfig, "alive").await;
    let controller = RunningController::start_everywhere(&alive, &["--leader-elect=false"]);
    let mut dice = Dice::new();
    let seed = dice.seed();
    let probes = probes(&alive.name);
    for probe in &probes {
        let mut doc = probe.doc.clone();
        doc["metadata"]["name"] = json!(probe_name(probe, 0));
        create(&alive, &doc).await;
    }
    let namespaces: Api<Namespace> = Api::all(client.clone());
    let mut churned_names = Vec::new();
    let mut slowest: std::collections::BTreeMap<String, Duration> = Default::default();
    for round in 1..=ROUNDS {
        let mut round_namespaces = Vec::new();
        for _ in 0..2 {
            let ns =
                TestNamespace::create_on(client.clone(), &plane.kubeconfig, &format!("churn-{round}")).await;
            create(&ns, &sidecarset(&format!("churn-{}", ns.name), &ns.name, false)).await;
            for doc in churned() {
                create(&ns, &doc).await;
            }
            round_namespaces.push(ns);
        }
        tokio::time::sleep(dice.millis(0, 3000)).await;
        for ns in &round_namespaces {
            let _ = namespaces.delete(&ns.name, &DeleteParams::default()).await;
            churned_names.push(ns.name.clone());
        }
        // Each probe's time runs from the moment the API server took its change.
        let mut changed = Vec::new();
        for probe in &probes {
            change_probe(&alive, probe, round).await;
            changed.push(Instant::now());
        }
        // All probes are looked at together: each one's time is when it was first seen
        // reconciled.
        let mut waiting: Vec<(&Probe, Instant)> = probes.iter().zip(changed).collect();
        while !waiting.is_empty() {
            let mut still = Vec::new();
            for (probe, changed) in waiting {
                let name = probe_name(probe, round);
                let object = api_of(&alive, &probe.doc).get(&name).await;
                match object {
                    Ok(object) if reconciled(probe, &object) => {
                        let kind = probe.doc["kind"].as_str().unwrap_or_default().to_string();
                        let took = changed.elapsed();
                        let worst = slowest.entry(kind).or_default();
                        *worst = (*worst).max(took);
                    }
                    seen => {
                        assert!(
                            changed.elapsed() < PROBE,
                            "round {round} (seed {seed}, replay with KRUISE_CHAOS_SEED={seed}): probe {} {name} \
                             not reconciled within {PROBE:?}: {}\nworkqueue: {:?}\n{}",
                            probe.doc["kind"],
                            seen.map_or_else(|e| e.to_string(), |o| o.data["status"].to_string()),
                            controller
                                .metrics()
                                .into_iter()
                                .filter(|(k, _)| k.starts_with("workqueue_depth")
                                    || k.starts_with("kruise_reconcile_total"))
                                .collect::<Vec<_>>(),
                            controller.log_tail()
                        );
                        still.push((probe, changed));
                    }
                }
            }
            waiting = still;
            if !waiting.is_empty() {
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
        }
        // The SidecarSets of the round's namespaces are cluster-scoped: they go by hand.
        let sidecarsets =
            support::cluster_api(&alive, "apps.kruise.io/v1alpha1", "SidecarSet", "sidecarsets");
        for ns in &round_namespaces {
            let _ = sidecarsets
                .delete(&format!("churn-{}", ns.name), &DeleteParams::default())
                .await;
        }
    }
    let (code, _) = controller.get("/healthz").expect("healthz answers");
    assert!(code.contains("200"), "the run is healthy after the churn: {code}");
    let log = controller.log_text();
    assert!(
        !log.contains("lacks a permission it needs"),
        "a namespace being deleted was said as an RBAC refusal:\n{}",
        controller.log_tail()
    );
    wait_for(
        "every churned namespace deleted",
        Duration::from_secs(180),
        || async {
            let mut left = Vec::new();
            for name in &churned_names {
                if namespaces
                    .get_opt(name)
                    .await
                    .map_err(|e| e.to_string())?
                    .is_some()
                {
                    left.push(name.clone());
                }
            }
            if left.is_empty() {
                Ok(())
            } else {
                Err(format!("{left:?}"))
            }
        },
    )
    .await;
    let metrics = controller.metrics();
    let retries: f64 = metrics
        .iter()
        .filter(|(k, _)| k.starts_with("workqueue_retries_total"))
        .map(|(_, v)| v)
        .sum();
    let slowest: Vec<String> = slowest
        .iter()
        .map(|(kind, took)| format!("{kind} {:.1}s", took.as_secs_f64()))
        .collect();
    summarize(&format!(
        "churn: {ROUNDS} rounds of 2 namespaces x 7 kinds + a SidecarSet each, 8 probes per round, \
         each probe's slowest reconcile (bound {}s): {}; {retries} retries, seed {seed}",
        PROBE.as_secs(),
        slowest.join(", ")
    ));
    assert_eq!(controller.stop(), 0);
}
