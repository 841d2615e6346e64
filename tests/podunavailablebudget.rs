//! PodUnavailableBudget end to end: `kubectl kruise run -n NS` counts a budget's pods and
//! its pod webhook judges every delete, eviction and spec change of a pod the budget
//! counts. The behaviour expected is OpenKruise's:
//! <https://openkruise.io/docs/user-manuals/podunavailablebudget>.
mod support;

use std::time::Duration;

use k8s_openapi::api::core::v1::Pod;
use kube::ResourceExt;
use kube::api::{Api, DeleteParams, DynamicObject, EvictParams, PostParams};
use serde_json::{Value, json};
use support::controller::RunningController;
use support::{TestNamespace, kruise_api, wait_for};

const LONG: Duration = Duration::from_secs(90);

fn budgets(ns: &TestNamespace) -> Api<DynamicObject> {
    support::dynamic_api(
        ns,
        "policy.kruise.io/v1alpha1",
        "PodUnavailableBudget",
        "podunavailablebudgets",
    )
}

/// Creates the CloneSet `app` with `replicas` pods and waits until they are all Ready.
async fn cloneset(ns: &TestNamespace, app: &str, replicas: usize) -> Vec<String> {
    cloneset_with(ns, app, replicas, json!({})).await
}

/// [`cloneset`] with `strategy` as its `updateStrategy`.
async fn cloneset_with(ns: &TestNamespace, app: &str, replicas: usize, strategy: Value) -> Vec<String> {
    let clones = kruise_api(ns, "CloneSet", "v1alpha1");
    let cloneset: DynamicObject = support::object(json!({
        "apiVersion": "apps.kruise.io/v1alpha1", "kind": "CloneSet", "metadata": { "name": app },
        "spec": { "replicas": replicas, "selector": { "matchLabels": { "app": app } }, "updateStrategy": strategy,
                  "template": { "metadata": { "labels": { "app": app } },
                                "spec": { "containers": [{ "name": "app", "image": "nginx:1.25" }] } } } }));
    clones
        .create(&PostParams::default(), &cloneset)
        .await
        .expect("CloneSet");
    wait_for("the CloneSet's pods Ready", LONG, || async {
        let pods = support::pods::pods(ns, app).await;
        let ready: Vec<String> = pods
            .iter()
            .filter(|p| support::pods::is_ready(p))
            .map(|p| p.name_any())
            .collect();
        if ready.len() == replicas {
            Ok(ready)
        } else {
            Err(support::pods::describe(&pods))
        }
    })
    .await
}

/// Creates the budget `name` with `spec` and waits until its status counts `current`
/// available pods and allows `allowed` more unavailable.
async fn budget(ns: &TestNamespace, name: &str, spec: Value, current: i64, allowed: i64) -> Value {
    let api = budgets(ns);
    let object: DynamicObject = support::object(json!({
        "apiVersion": "policy.kruise.io/v1alpha1", "kind": "PodUnavailableBudget",
        "metadata": { "name": name }, "spec": spec }));
    api.create(&PostParams::default(), &object)
        .await
        .expect("PodUnavailableBudget");
    counted(ns, name, current, allowed).await
}

/// Waits until the budget's status counts `current` available pods and allows `allowed`.
async fn counted(ns: &TestNamespace, name: &str, current: i64, allowed: i64) -> Value {
    let api = budgets(ns);
    wait_for("the budget's status", LONG, || async {
        let status = api.get(name).await.map_err(|e| e.to_string())?.data["status"].clone();
        let now = (
            status["currentAvailable"].as_i64(),
            status["unavailableAllowed"].as_i64(),
        );
        if now == (Some(current), Some(allowed)) {
            Ok(status)
        } else {
            Err(status.to_string())
        }
    })
    .await
}

#[tokio::test]
async fn deletes_and_evictions_beyond_a_budget_are_refused_naming_it() {
    let ns = TestNamespace::create("pub-delete").await;
    let controller = RunningController::start(&ns);
    support::webhooks::answering(&ns).await;
    let names = cloneset(&ns, "web", 4).await;
    let target = json!({ "apiVersion": "apps.kruise.io/v1alpha1", "kind": "CloneSet", "name": "web" });
    let status = budget(
        &ns,
        "web",
        json!({ "targetRef": target, "maxUnavailable": 1 }),
        4,
        1,
    )
    .await;
    assert_eq!(
        (
            status["desiredAvailable"].as_i64(),
            status["totalReplicas"].as_i64()
        ),
        (Some(3), Some(4)),
        "{status}"
    );

    // Every pod it counts names it (both annotation names).
    let pods: Api<Pod> = ns.api();
    for name in &names {
        let pod = pods.get(name).await.expect("pod");
        assert_eq!(
            pod.annotations().get("kruise.io/related-pub").map(String::as_str),
            Some("web"),
            "{name}"
        );
        assert_eq!(
            pod.annotations()
                .get("pub.kruise.io/related-pub")
                .map(String::as_str),
            Some("web"),
            "{name}"
        );
    }

    // A dry run is judged and records nothing.
    let dry = DeleteParams {
        dry_run: true,
        ..DeleteParams::default()
    };
    pods.delete(&names[0], &dry)
        .await
        .expect("a dry-run delete within the budget");
    let status = budgets(&ns).get("web").await.expect("budget").data["status"].clone();
    assert_eq!(status["unavailableAllowed"], 1, "{status}");

    // The first delete takes the one unit; the second and an eviction are refused.
    pods.delete(&names[0], &DeleteParams::default())
        .await
        .expect("the first delete");
    let refused = pods
        .delete(&names[1], &DeleteParams::default())
        .await
        .expect_err("a second delete");
    let message = refused.to_string();
    assert!(message.contains("PodUnavailableBudget"), "{message}");
    assert!(message.contains("/web"), "{message}");
    let refused = pods
        .evict(&names[2], &EvictParams::default())
        .await
        .expect_err("an eviction");
    assert!(refused.to_string().contains("PodUnavailableBudget"), "{refused}");
    let _ = pods
        .delete(&names[1], &dry)
        .await
        .expect_err("a dry run beyond the budget is refused too");

    // The CloneSet replaces the pod; once it is Ready the budget has room again, and the
    // replacement names it from its creation.
    let status = counted(&ns, "web", 4, 1).await;
    assert!(status["disruptedPods"].is_null(), "{status}");
    pods.delete(&names[1], &DeleteParams::default())
        .await
        .expect("room again");
    drop(controller);
}

#[tokio::test]
async fn a_selector_budget_counts_the_replicas_of_its_pods_workloads() {
    let ns = TestNamespace::create("pub-selector").await;
    let controller = RunningController::start(&ns);
    support::webhooks::answering(&ns).await;
    cloneset(&ns, "shop", 3).await;
    let selector = json!({ "matchLabels": { "app": "shop" } });
    let status = budget(
        &ns,
        "shop",
        json!({ "selector": selector, "minAvailable": "50%" }),
        3,
        1,
    )
    .await;
    assert_eq!(
        (
            status["desiredAvailable"].as_i64(),
            status["totalReplicas"].as_i64()
        ),
        (Some(2), Some(3)),
        "{status}"
    );
    // `get pub` lists it with the CRD's printer columns, as `kubectl get pub` does.
    let (code, out, err) = support::kruise(&ns.kubeconfig, &["get", "pub", "-n", &ns.name]);
    assert_eq!(code, 0, "{err}");
    let lines: Vec<Vec<&str>> = out.lines().map(|l| l.split_whitespace().collect()).collect();
    assert_eq!(lines[0][..4], ["NAME", "ALLOWED", "CURRENT", "DESIRED"], "{out}");
    assert_eq!(lines[1][..4], ["shop", "1", "3", "2"], "{out}");
    let (code, out, err) =
        support::kruise(&ns.kubeconfig, &["get", "pub/shop", "-n", &ns.name, "-o", "name"]);
    assert_eq!(
        (code, out.trim()),
        (0, "podunavailablebudgets.policy.kruise.io/shop"),
        "{err}"
    );
    // A second budget over the same pods is refused, naming the first.
    let rival: DynamicObject = support::object(json!({
        "apiVersion": "policy.kruise.io/v1alpha1", "kind": "PodUnavailableBudget", "metadata": { "name": "rival" },
        "spec": { "selector": { "matchExpressions": [{ "key": "app", "operator": "Exists" }] }, "maxUnavailable": 1 } }));
    let refused = budgets(&ns)
        .create(&PostParams::default(), &rival)
        .await
        .expect_err("a rival budget");
    assert!(
        refused.to_string().contains("PodUnavailableBudget shop"),
        "{refused}"
    );
    drop(controller);
}

/// Sets (Some) or removes (None) the deletion-protection label of `api`'s object `name`.
async fn protect<K>(api: &Api<K>, name: &str, value: Option<&str>)
where
    K: Clone + serde::de::DeserializeOwned + std::fmt::Debug,
{
    let patch = json!({ "metadata": { "labels": { "policy.kruise.io/delete-protection": value } } });
    api.patch(
        name,
        &kube::api::PatchParams::default(),
        &kube::api::Patch::Merge(&patch),
    )
    .await
    .expect("label");
}

#[tokio::test]
async fn a_protected_namespace_with_running_pods_and_a_protected_workload_cannot_be_deleted() {
    use k8s_openapi::api::core::v1::Namespace;
    let ns = TestNamespace::create("protect").await;
    let controller = RunningController::start(&ns);
    support::webhooks::answering(&ns).await;
    cloneset(&ns, "web", 2).await;
    let namespaces: Api<Namespace> = Api::all(ns.client.clone());

    protect(&namespaces, &ns.name, Some("Cascading")).await;
    let refused = wait_for("the namespace delete refused", LONG, || async {
        match namespaces
            .delete(
                &ns.name,
                &DeleteParams {
                    dry_run: true,
                    ..DeleteParams::default()
                },
            )
            .await
        {
            Err(e) => Ok(e.to_string()),
            Ok(_) => Err("allowed (the webhook configuration may not be seen yet)".to_string()),
        }
    })
    .await;
    assert!(
        refused.contains("policy.kruise.io/delete-protection=Cascading"),
        "{refused}"
    );
    assert!(refused.contains("2 active pods"), "{refused}");

    let clones = kruise_api(&ns, "CloneSet", "v1alpha1");
    protect(&clones, "web", Some("Always")).await;
    let refused = clones
        .delete("web", &DeleteParams::default())
        .await
        .expect_err("a protected CloneSet");
    assert!(
        refused
            .to_string()
            .contains(&format!("CloneSet {}/web is protected", ns.name)),
        "{refused}"
    );
    // `Cascading` holds while it has pods, and lets go at 0 replicas.
    protect(&clones, "web", Some("Cascading")).await;
    clones
        .delete(
            "web",
            &DeleteParams {
                dry_run: true,
                ..DeleteParams::default()
            },
        )
        .await
        .expect_err("2 pods");
    let scale = json!({ "spec": { "replicas": 0 } });
    clones
        .patch(
            "web",
            &kube::api::PatchParams::default(),
            &kube::api::Patch::Merge(&scale),
        )
        .await
        .expect("scale to 0");
    clones
        .delete(
            "web",
            &DeleteParams {
                dry_run: true,
                ..DeleteParams::default()
            },
        )
        .await
        .expect("no pods to lose");

    protect(&namespaces, &ns.name, None).await;
    protect(&clones, "web", None).await;
    a_protected_crd_with_custom_resources_cannot_be_deleted(&ns).await;
    drop(controller);
}

/// A CRD of the test's own labelled `Cascading`: its deletion is refused while one of its
/// custom resources exists, counted through the version it serves.
async fn a_protected_crd_with_custom_resources_cannot_be_deleted(ns: &TestNamespace) {
    use k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition;
    let group = format!("{}.example.com", ns.name);
    let crd_name = format!("widgets.{group}");
    let crds: Api<CustomResourceDefinition> = Api::all(ns.client.clone());
    let crd: CustomResourceDefinition = serde_json::from_value(json!({
        "apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
        "metadata": { "name": crd_name, "labels": { "policy.kruise.io/delete-protection": "Cascading" } },
        "spec": { "group": group, "scope": "Namespaced",
            "names": { "plural": "widgets", "singular": "widget", "kind": "Widget" },
            "versions": [
                { "name": "v1alpha1", "served": false, "storage": false,
                  "schema": { "openAPIV3Schema": { "type": "object", "x-kubernetes-preserve-unknown-fields": true } } },
                { "name": "v1", "served": true, "storage": true,
                  "schema": { "openAPIV3Schema": { "type": "object", "x-kubernetes-preserve-unknown-fields": true } } }] } }))
    .expect("a CRD");
    crds.create(&PostParams::default(), &crd).await.expect("the CRD");
    let widgets = support::dynamic_api(ns, &format!("{group}/v1"), "Widget", "widgets");
    let widget = support::object(json!({ "apiVersion": format!("{group}/v1"), "kind": "Widget",
        "metadata": { "name": "one" } }));
    let widget = wait_for("the CRD served", LONG, || async {
        widgets
            .create(&PostParams::default(), &widget)
            .await
            .map_err(|e| e.to_string())
    })
    .await;
    let dry_run = DeleteParams {
        dry_run: true,
        ..DeleteParams::default()
    };
    let refused = crds
        .delete(&crd_name, &dry_run)
        .await
        .expect_err("a custom resource to lose");
    assert!(refused.to_string().contains("1 custom resources"), "{refused}");
    widgets
        .delete(&widget.name_any(), &DeleteParams::default())
        .await
        .expect("the widget");
    wait_for("the CRD delete allowed", LONG, || async {
        crds.delete(&crd_name, &dry_run)
            .await
            .map(|_| ())
            .map_err(|e| e.to_string())
    })
    .await;
    protect(&crds, &crd_name, None).await;
    crds.delete(&crd_name, &DeleteParams::default())
        .await
        .expect("the CRD");
}

/// The CloneSet `web` with `replicas` Ready pods and `strategy`, under the budget `web`
/// (its targetRef) that allows 1 unavailable pod; returns the pods' names.
async fn cloneset_under_a_budget_of_one(ns: &TestNamespace, replicas: usize, strategy: Value) -> Vec<String> {
    let names = cloneset_with(ns, "web", replicas, strategy).await;
    let target = json!({ "apiVersion": "apps.kruise.io/v1alpha1", "kind": "CloneSet", "name": "web" });
    let spec = json!({ "targetRef": target, "maxUnavailable": 1 });
    budget(ns, "web", spec, replicas as i64, 1).await;
    names
}

/// Arms an independent watcher (never more than 1 of `replicas` pods of the CloneSet `web`
/// down) and sets the CloneSet's image to `nginx:1.26`.
async fn roll_under_a_budget_of_one(ns: &TestNamespace, replicas: usize) -> support::chaos::InvariantWatcher {
    use support::chaos::{Bounds, InvariantWatcher, Slot};
    let bounds = Bounds {
        replicas,
        max_unavailable: 1,
        max_surge: 0,
        max_not_ready: None,
    };
    let watcher = InvariantWatcher::start(ns, bounds, Slot::InstanceId);
    tokio::time::sleep(Duration::from_millis(500)).await;
    watcher.arm();
    let clones = kruise_api(ns, "CloneSet", "v1alpha1");
    support::set_first_image(&clones, "web", "nginx:1.26").await;
    watcher
}

/// Waits until the `app` pods, `replicas` of them, all run `nginx:1.26` and are Ready; the
/// watcher saw no more pods down than the budget allows.
async fn rolled_out_within(
    ns: &TestNamespace,
    app: &str,
    replicas: usize,
    watcher: &support::chaos::InvariantWatcher,
) {
    wait_for(
        "every pod updated and Ready",
        Duration::from_secs(180),
        || async {
            let all = support::pods::pods(ns, app).await;
            let done = all.iter().filter(|p| support::pods::is_ready(p)).filter(|p| {
                p.spec
                    .as_ref()
                    .is_some_and(|s| s.containers[0].image.as_deref() == Some("nginx:1.26"))
            });
            if done.count() == replicas && all.len() == replicas {
                Ok(())
            } else {
                Err(support::pods::describe(&all))
            }
        },
    )
    .await;
    let violations = watcher.violations();
    assert!(
        violations.is_empty(),
        "{violations:#?}\n{}",
        watcher.timeline_tail(60)
    );
    assert!(watcher.checks() > 0);
}

#[tokio::test]
async fn an_in_place_rollout_under_a_budget_never_exceeds_it_and_says_so() {
    let ns = TestNamespace::create("pub-rollout").await;
    let controller = RunningController::start(&ns);
    support::webhooks::answering(&ns).await;
    // The CloneSet alone would take 3 of its 6 pods down at once; the budget allows 1.
    let strategy = json!({ "type": "InPlaceIfPossible", "maxUnavailable": 3 });
    let names = cloneset_under_a_budget_of_one(&ns, 6, strategy).await;
    let pods: Api<Pod> = ns.api();
    let uids: Vec<String> = {
        let mut uids = Vec::new();
        for name in &names {
            uids.push(pods.get(name).await.expect("pod").uid().unwrap_or_default());
        }
        uids
    };

    let watcher = roll_under_a_budget_of_one(&ns, 6).await;
    // `rollout status` follows it to the end, naming the budget while it holds pods back.
    let kubeconfig = ns.kubeconfig.clone();
    let namespace = ns.name.clone();
    let status = tokio::task::spawn_blocking(move || {
        let args = [
            "rollout",
            "status",
            "cloneset/web",
            "-n",
            &namespace,
            "-o",
            "jsonl",
            "--timeout",
            "180s",
        ];
        support::kruise(&kubeconfig, &args)
    });
    rolled_out_within(&ns, "web", 6, &watcher).await;
    for (name, uid) in names.iter().zip(&uids) {
        let pod = pods.get(name).await.expect("the same pod");
        assert_eq!(pod.uid().as_deref(), Some(uid.as_str()), "{name} kept its uid");
    }
    let (code, out, err) = status.await.expect("rollout status");
    assert_eq!(code, 0, "{err}\n{out}");
    let held_by: Vec<Value> = out
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .filter(|r| r["heldBy"] == json!(["web"]))
        .collect();
    assert!(
        held_by.iter().any(|r| r["line"]
            .as_str()
            .is_some_and(|l| l.contains("PodUnavailableBudget web allows no more unavailable pods"))),
        "{out}"
    );
    // The CloneSet said the budget held it.
    let events: Api<k8s_openapi::api::events::v1::Event> = ns.api();
    let held = events
        .list(&kube::api::ListParams::default())
        .await
        .expect("events")
        .items
        .into_iter()
        .filter(|e| e.reason.as_deref() == Some("PodUnavailableBudgetHolds"))
        .filter_map(|e| e.note)
        .collect::<Vec<_>>();
    assert!(
        held.iter()
            .any(|n| n.contains(&format!("PodUnavailableBudget {}/web", ns.name))),
        "{held:?}"
    );
    drop(controller);
}

/// With no pod webhook at all (`run --webhooks=false`), a recreating rollout still asks
/// the budget before each delete: never more pods down than it allows.
#[tokio::test]
async fn a_recreating_rollout_without_webhooks_still_asks_the_budget_before_each_delete() {
    let ns = TestNamespace::create("pub-recreate").await;
    let controller = RunningController::start_with(&ns, &["--webhooks=false"]);
    let strategy = json!({ "type": "ReCreate", "maxUnavailable": 4 });
    cloneset_under_a_budget_of_one(&ns, 4, strategy).await;
    let watcher = roll_under_a_budget_of_one(&ns, 4).await;
    rolled_out_within(&ns, "web", 4, &watcher).await;
    drop(controller);
}
