//! `rollout step` end to end: the interactive release on a pseudo-terminal (the plan of
//! each batch, the question, the live batch and a clean stop on "no"), `--yes` for
//! scripts, refusals (exit 2) and the stop at a failing batch (exit 3).
mod support;

use std::collections::BTreeMap;
use std::time::Duration;

use kube::ResourceExt;
use kubectl_kruise::api::cloneset::CloneSet;
use serde_json::{Value, json};
use support::clonesets::*;
use support::controller::RunningController;
use support::{CLI, TestNamespace, kubeconfig, wait_for};

/// A CloneSet held entirely by its partition, then given a new image.
async fn held_set(
    ns: &TestNamespace,
    name: &str,
    annotations: Value,
    image: &str,
    controller: &RunningController,
) {
    let mut set = cloneset(
        name,
        4,
        json!({ "type": "InPlaceIfPossible", "maxUnavailable": 2, "partition": 4 }),
        json!({}),
    );
    let meta = set.spec.template.metadata.as_mut().expect("template metadata");
    let mut map = BTreeMap::from([(
        "sim.kubectl-kruise.io/image-pull-delay".to_string(),
        "300ms".to_string(),
    )]);
    for (k, v) in annotations.as_object().into_iter().flatten() {
        map.insert(k.clone(), v.as_str().unwrap_or_default().to_string());
    }
    meta.annotations = Some(map);
    create(ns, &set).await;
    wait_settled(ns, name, 4, 4, controller).await;
    set_image(ns, name, image).await;
    let api = ns.api::<CloneSet>();
    wait_for("the new template observed", Duration::from_secs(30), || async {
        let set = api.get(name).await.map_err(|e| e.to_string())?;
        let s = set.status.clone().unwrap_or_default();
        (s.observed_generation == set.metadata.generation && s.updated_replicas == 0)
            .then_some(())
            .ok_or_else(|| format!("{s:?}"))
    })
    .await;
}

async fn partition_and_updated(ns: &TestNamespace, name: &str) -> (Value, i32) {
    let set = ns.api::<CloneSet>().get(name).await.expect("get");
    let value = serde_json::to_value(&set).expect("json");
    (
        value["spec"]["updateStrategy"]["partition"].clone(),
        set.status.map(|s| s.updated_replicas).unwrap_or_default(),
    )
}

async fn uids(ns: &TestNamespace, app: &str) -> Vec<String> {
    let mut list: Vec<String> = pods(ns, app).await.iter().filter_map(|p| p.uid()).collect();
    list.sort();
    list
}

#[tokio::test]
async fn step_asks_per_batch_follows_it_live_and_stops_cleanly_on_no() {
    let ns = TestNamespace::create("step-pty").await;
    let controller = RunningController::start(&ns);
    held_set(&ns, "rel", json!({}), "nginx:1.26", &controller).await;
    let before = uids(&ns, "rel").await;

    let command = format!(
        "{CLI} rollout step cloneset/rel --timeout 60s -n {} --kubeconfig {}",
        ns.name,
        kubeconfig().display()
    );
    let session = tokio::task::spawn_blocking(move || {
        support::terminal::run_answering(
            &command,
            30,
            120,
            &[("Update batch 1?", "y"), ("Update batch 2?", "n")],
            Duration::from_secs(60),
        )
    })
    .await
    .expect("join");
    let screen = session.screen();
    assert_eq!(session.code, 0, "{screen}");
    assert!(
        screen.contains("Batch 1 of 2: partition 4 -> 2; these pods update:"),
        "{screen}"
    );
    let planned = screen
        .lines()
        .filter(|l| l.trim_start().starts_with("rel-") && l.contains(": in place (app=nginx:1.26)"))
        .count();
    assert_eq!(planned, 4, "two pods planned per batch, each in place:\n{screen}");
    assert!(
        screen.contains("✔ cloneset/rel successfully rolled out") && screen.contains("partition holds 2"),
        "the first batch followed to its end:\n{screen}"
    );
    assert!(screen.contains("Batch 2 of 2: partition 2 -> 0"), "{screen}");
    assert!(
        screen.contains(
            "cloneset/rel stopped at partition 2; continue with: kubectl kruise rollout step cloneset/rel"
        ),
        "{screen}"
    );
    assert_eq!(partition_and_updated(&ns, "rel").await, (json!(2), 2));

    // Without a terminal it refuses (nothing written) unless --yes.
    let (code, _, err) = kruise_in(&ns, &["rollout", "step", "cloneset/rel"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("pass --yes"), "{err}");
    let (code, out, _) = kruise_in(&ns, &["rollout", "step", "cloneset/rel", "--dry-run=client"]);
    assert_eq!(code, 0);
    assert!(out.contains(r#""partition":0"#), "{out}");
    assert_eq!(partition_and_updated(&ns, "rel").await, (json!(2), 2));

    let (code, out, err) = tokio::task::spawn_blocking({
        let name = ns.name.clone();
        move || {
            support::kruise(
                kubeconfig(),
                &[
                    "rollout",
                    "step",
                    "cloneset/rel",
                    "--yes",
                    "--timeout",
                    "60s",
                    "-n",
                    &name,
                ],
            )
        }
    })
    .await
    .expect("join");
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.lines()
            .last()
            .unwrap_or_default()
            .starts_with("cloneset/rel fully rolled out (revision rel-"),
        "{out}"
    );
    assert_eq!(partition_and_updated(&ns, "rel").await, (json!(0), 4));
    assert_eq!(uids(&ns, "rel").await, before, "every pod updated in place");
}

#[tokio::test]
async fn step_never_goes_past_a_failing_batch() {
    let ns = TestNamespace::create("step-fail").await;
    let controller = RunningController::start(&ns);
    held_set(
        &ns,
        "bad",
        json!({ "sim.kubectl-kruise.io/pull-fails": "nginx:broken" }),
        "nginx:broken",
        &controller,
    )
    .await;
    let (code, out, err) = tokio::task::spawn_blocking({
        let name = ns.name.clone();
        move || {
            support::kruise(
                kubeconfig(),
                &[
                    "rollout",
                    "step",
                    "cloneset/bad",
                    "--yes",
                    "--batch",
                    "1",
                    "--timeout",
                    "60s",
                    "-n",
                    &name,
                ],
            )
        }
    })
    .await
    .expect("join");
    assert_eq!(code, 3, "{out}{err}");
    assert!(err.contains("batch 1 did not finish; not going on"), "{err}");
    assert!(err.contains("ImagePullBackOff"), "{err}");
    assert_eq!(
        partition_and_updated(&ns, "bad").await.0,
        json!(3),
        "one batch only"
    );
}

#[tokio::test]
async fn step_refuses_kinds_without_a_partition_and_bad_batches() {
    let ns = TestNamespace::create("step-bad").await;
    let (code, _, err) = kruise_in(&ns, &["rollout", "step", "deploy/front"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("a Deployment has no partition"), "{err}");
    let (code, _, err) = kruise_in(&ns, &["rollout", "step", "cloneset/x", "--batch", "0"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("--batch \"0\""), "{err}");
    let (code, _, err) = kruise_in(&ns, &["rollout", "step", "cloneset/missing"]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("NotFound"), "{err}");
}

/// `set partition` of a kind whose partition field is an integer: a percentage is resolved
/// to the count it stands for and sent as a number (the API server refuses a string there),
/// and refused where no replica count resolves it.
#[tokio::test]
async fn set_partition_resolves_a_percentage_for_an_advanced_statefulset_and_refuses_it_for_a_daemonset() {
    let ns = TestNamespace::create("partition-int").await;
    let (code, _, err) = support::kruise(kubeconfig(), &["install"]);
    assert_eq!(code, 0, "install: {err}");
    let api = support::dynamic_api(&ns, "apps.kruise.io/v1beta1", "StatefulSet", "statefulsets");
    let doc = json!({ "apiVersion": "apps.kruise.io/v1beta1", "kind": "StatefulSet",
        "metadata": { "name": "p5" },
        "spec": { "replicas": 5, "serviceName": "p5", "selector": { "matchLabels": { "app": "p5" } },
            "template": { "metadata": { "labels": { "app": "p5" } },
                "spec": { "containers": [{ "name": "app", "image": "nginx:1.25" }] } } } });
    api.create(&Default::default(), &support::object(doc))
        .await
        .expect("create");
    let (code, _, err) = support::kruise(
        kubeconfig(),
        &["set", "partition", "asts/p5", "40%", "--yes", "-n", &ns.name],
    );
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("partition 2 (40% resolved"), "{err}");
    let stored = api.get("p5").await.expect("get");
    assert_eq!(
        stored.data["spec"]["updateStrategy"]["rollingUpdate"]["partition"],
        json!(2)
    );
    let (code, _, err) = support::kruise(
        kubeconfig(),
        &["set", "partition", "ads/none", "40%", "-n", &ns.name],
    );
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("rollingUpdate.partition is an integer"), "{err}");
}
