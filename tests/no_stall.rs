//! No stall: each kind scales up, rolls out and scales down with every timing feature on
//! (pod start delays, minReadySeconds, an in-place grace period, scale and update budgets,
//! claims deleted with scaled-away pods) and finishes each step within a bound that only a
//! controller woken at the right moments meets. A controller that waits for an unrelated
//! event or an expectation timeout (5 minutes) misses it by far; the bound is generous
//! for a slow machine.
mod support;

use std::time::{Duration, Instant};

use kube::api::{Api, Patch, PatchParams, PostParams};
use kubectl_kruise::api::cloneset::CloneSet;
use kubectl_kruise::api::statefulset::v1beta1::StatefulSet;
use serde_json::{Value, json};
use support::controller::RunningController;
use support::{TestNamespace, wait_for};

/// One step's bound: the timing features add a few seconds per batch; 45 s is several
/// times what a woken controller needs, and far below a 5-minute expectation timeout.
const STEP: Duration = Duration::from_secs(45);

fn template(app: &str, claims: bool) -> Value {
    let mut container = json!({ "name": "app", "image": "nginx:1.25" });
    if claims {
        container["volumeMounts"] = json!([{ "name": "data", "mountPath": "/data" }]);
    }
    json!({
        "metadata": { "labels": { "app": app },
            "annotations": { "sim.kubectl-kruise.io/start-delay": "300ms",
                "sim.kubectl-kruise.io/image-pull-delay": "300ms" } },
        "spec": {
            "readinessGates": [{ "conditionType": "InPlaceUpdateReady" }],
            "containers": [container],
        },
    })
}

fn claim_templates() -> Value {
    json!([{ "metadata": { "name": "data" },
        "spec": { "accessModes": ["ReadWriteOnce"], "resources": { "requests": { "storage": "1Gi" } } } }])
}

/// The status numbers every kind shares, read as JSON so one wait serves both kinds.
#[derive(Debug, PartialEq)]
struct Counts {
    generation_observed: bool,
    replicas: i64,
    ready: i64,
    available: i64,
    updated: i64,
}

fn counts(object: &Value) -> Counts {
    let status = &object["status"];
    let n = |k: &str| status[k].as_i64().unwrap_or(0);
    Counts {
        generation_observed: status["observedGeneration"] == object["metadata"]["generation"],
        replicas: n("replicas"),
        ready: n("readyReplicas"),
        available: n("availableReplicas"),
        updated: n("updatedReplicas"),
    }
}

/// Waits (at most [`STEP`]) until the workload reports `replicas` pods, all ready,
/// available and updated; returns how long it took.
async fn settle<K>(api: &Api<K>, name: &str, replicas: i64, step: &str, c: &RunningController) -> Duration
where
    K: kube::Resource + Clone + serde::de::DeserializeOwned + serde::Serialize + std::fmt::Debug,
{
    let start = Instant::now();
    let want = Counts {
        generation_observed: true,
        replicas,
        ready: replicas,
        available: replicas,
        updated: replicas,
    };
    wait_for(&format!("{name}: {step} settles"), STEP, || async {
        let object = serde_json::to_value(api.get(name).await.map_err(|e| e.to_string())?).expect("json");
        let have = counts(&object);
        if have == want {
            Ok(())
        } else {
            Err(format!("{have:?}\n{}", c.log_tail()))
        }
    })
    .await;
    start.elapsed()
}

async fn merge<K>(api: &Api<K>, name: &str, patch: Value)
where
    K: kube::Resource + Clone + serde::de::DeserializeOwned + std::fmt::Debug,
{
    api.patch(name, &PatchParams::default(), &Patch::Merge(&patch))
        .await
        .expect("patch");
}

#[tokio::test]
async fn a_cloneset_with_every_timing_feature_scales_and_rolls_without_a_stall() {
    let ns = TestNamespace::create("stall-cs").await;
    let controller = RunningController::start(&ns);
    let api: Api<CloneSet> = ns.api();
    let set: CloneSet = support::object(json!({
        "apiVersion": "apps.kruise.io/v1alpha1", "kind": "CloneSet", "metadata": { "name": "tc" },
        "spec": {
            "replicas": 3,
            "minReadySeconds": 2,
            "progressDeadlineSeconds": 120,
            "selector": { "matchLabels": { "app": "tc" } },
            "template": template("tc", true),
            "volumeClaimTemplates": claim_templates(),
            "scaleStrategy": { "maxUnavailable": 2, "disablePVCReuse": true },
            "updateStrategy": { "type": "InPlaceIfPossible", "maxUnavailable": 2,
                "inPlaceUpdateStrategy": { "gracePeriodSeconds": 1 } },
        },
    }));
    api.create(&PostParams::default(), &set).await.expect("create");
    let mut took = vec![("create 3", settle(&api, "tc", 3, "create 3", &controller).await)];
    merge(&api, "tc", json!({ "spec": { "replicas": 6 } })).await;
    took.push((
        "scale to 6",
        settle(&api, "tc", 6, "scale to 6", &controller).await,
    ));
    support::set_first_image(&api, "tc", "nginx:1.26").await;
    took.push((
        "roll in place",
        settle(&api, "tc", 6, "roll in place", &controller).await,
    ));
    merge(&api, "tc", json!({ "spec": { "replicas": 2 } })).await;
    took.push((
        "scale to 2",
        settle(&api, "tc", 2, "scale to 2", &controller).await,
    ));
    eprintln!("CloneSet steps: {took:?}");
}

async fn roll_an_asts(ns: &TestNamespace, name: &str, extra: Value) {
    let controller = RunningController::start(ns);
    let api: Api<StatefulSet> = ns.api();
    let mut spec = json!({
        "replicas": 3,
        "serviceName": name,
        "selector": { "matchLabels": { "app": name } },
        "template": template(name, true),
        "volumeClaimTemplates": claim_templates(),
        "persistentVolumeClaimRetentionPolicy": { "whenScaled": "Delete", "whenDeleted": "Retain" },
        "updateStrategy": { "rollingUpdate": { "minReadySeconds": 2, "podUpdatePolicy": "InPlaceIfPossible",
            "inPlaceUpdateStrategy": { "gracePeriodSeconds": 1 } } },
    });
    for (k, v) in extra.as_object().into_iter().flatten() {
        spec[k] = v.clone();
    }
    let set: StatefulSet = support::object(json!({ "apiVersion": "apps.kruise.io/v1beta1",
        "kind": "StatefulSet", "metadata": { "name": name }, "spec": spec }));
    api.create(&PostParams::default(), &set).await.expect("create");
    let mut took = vec![("create 3", settle(&api, name, 3, "create 3", &controller).await)];
    merge(&api, name, json!({ "spec": { "replicas": 5 } })).await;
    took.push((
        "scale to 5",
        settle(&api, name, 5, "scale to 5", &controller).await,
    ));
    support::set_first_image(&api, name, "nginx:1.26").await;
    took.push((
        "roll in place",
        settle(&api, name, 5, "roll in place", &controller).await,
    ));
    merge(&api, name, json!({ "spec": { "replicas": 1 } })).await;
    took.push((
        "scale to 1",
        settle(&api, name, 1, "scale to 1", &controller).await,
    ));
    eprintln!("Advanced StatefulSet {name} steps: {took:?}");
}

#[tokio::test]
async fn an_ordered_ready_asts_with_every_timing_feature_scales_and_rolls_without_a_stall() {
    let ns = TestNamespace::create("stall-asts-ordered").await;
    roll_an_asts(&ns, "to", json!({})).await;
}

#[tokio::test]
async fn a_parallel_asts_with_every_timing_feature_scales_and_rolls_without_a_stall() {
    let ns = TestNamespace::create("stall-asts-parallel").await;
    let extra = json!({ "podManagementPolicy": "Parallel", "scaleStrategy": { "maxUnavailable": 2 },
        "updateStrategy": { "rollingUpdate": { "maxUnavailable": 2, "minReadySeconds": 2,
            "podUpdatePolicy": "InPlaceIfPossible", "inPlaceUpdateStrategy": { "gracePeriodSeconds": 1 } } } });
    roll_an_asts(&ns, "tp", extra).await;
}

/// A stalled controller is said, not silent: with its reconciles hanging (a fault the run
/// takes from its environment) and work waiting, `/healthz` answers 503 naming it and `run`
/// stops with exit 3 naming it; the other controllers are not named.
#[tokio::test]
async fn a_stalled_controller_fails_healthz_and_stops_run_naming_it() {
    let ns = TestNamespace::create("stall").await;
    let mut controller = RunningController::start_with_env(
        &ns,
        &["--workers", "1", "--stall-after", "3s"],
        &[("KRUISE_FAULT_HANG_RECONCILE", "CloneSet")],
    );
    let api: Api<CloneSet> = ns.api();
    for name in ["first", "second"] {
        let set: CloneSet = support::object(
            json!({ "apiVersion": "apps.kruise.io/v1alpha1", "kind": "CloneSet",
            "metadata": { "name": name },
            "spec": { "replicas": 1, "selector": { "matchLabels": { "app": name } },
                "template": { "metadata": { "labels": { "app": name } },
                    "spec": { "containers": [{ "name": "app", "image": "nginx:1.25" }] } } } }),
        );
        api.create(&PostParams::default(), &set).await.expect("CloneSet");
    }
    let health = wait_for("/healthz to fail", Duration::from_secs(30), || async {
        match controller.get("/healthz") {
            Some((status, body)) if status.contains("503") => Ok(body),
            other => Err(format!("{other:?}")),
        }
    })
    .await;
    assert!(health.contains("controller CloneSet is stalled"), "{health}");
    assert!(!health.contains("controller StatefulSet"), "{health}");
    let deadline = Instant::now() + Duration::from_secs(30);
    let code = loop {
        if let Some(code) = controller.exit_code() {
            break code;
        }
        assert!(
            Instant::now() < deadline,
            "run did not stop:\n{}",
            controller.log_tail()
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    assert_eq!(code, 3, "{}", controller.log_tail());
    assert!(
        controller.log_text().contains("controller CloneSet is stalled"),
        "{}",
        controller.log_tail()
    );
}
