//! SidecarSet injection end to end: `kubectl kruise run -n NS` registers
//! the pod webhook and the API server calls it for every pod the namespace creates, whatever
//! creates it (a CloneSet, a Deployment, a bare pod). With `run` SIGKILLed the webhook fails
//! open: pods are created without the sidecars, and once `run` is back the SidecarSet says
//! so in its status and an event. The behaviour expected is OpenKruise's:
//! <https://openkruise.io/docs/user-manuals/sidecarset>.
mod support;

use std::time::Duration;

use k8s_openapi::api::apps::v1::Deployment;
use k8s_openapi::api::core::v1::Pod;
use kube::ResourceExt;
use kube::api::{Api, DeleteParams, DynamicObject, ListParams, PostParams};
use serde_json::{Value, json};
use support::controller::RunningController;
use support::{TestNamespace, kruise_api, wait_for};

const LONG: Duration = Duration::from_secs(60);

fn sidecarsets(ns: &TestNamespace) -> Api<DynamicObject> {
    support::cluster_api(ns, "apps.kruise.io/v1alpha1", "SidecarSet", "sidecarsets")
}

/// A SidecarSet for this test's namespace (cluster-scoped: named after the namespace).
fn log_set(ns: &TestNamespace) -> DynamicObject {
    support::object(
        json!({ "apiVersion": "apps.kruise.io/v1alpha1", "kind": "SidecarSet",
        "metadata": { "name": format!("{}-log", ns.name) },
        "spec": {
            "selector": { "matchLabels": { "app": "web" } },
            "namespaceSelector": { "matchLabels": { "kubernetes.io/metadata.name": ns.name } },
            "containers": [{ "name": "log-agent", "image": "fluentbit:1",
                "shareVolumePolicy": { "type": "enabled" },
                "transferEnv": [{ "sourceContainerName": "app", "envName": "REGION" }],
                "volumeMounts": [{ "name": "log-conf", "mountPath": "/conf" }] }],
            "volumes": [{ "name": "log-conf", "emptyDir": {} }] } }),
    )
}

fn app_template(app: &str) -> Value {
    json!({ "metadata": { "labels": { "app": app } },
        "spec": { "containers": [{ "name": "app", "image": "nginx:1.25",
            "env": [{ "name": "REGION", "value": "eu" }],
            "volumeMounts": [{ "name": "data", "mountPath": "/data" }] }],
            "volumes": [{ "name": "data", "emptyDir": {} }] } })
}

fn bare_pod(name: &str, app: &str) -> Pod {
    let mut pod = app_template(app);
    pod["apiVersion"] = json!("v1");
    pod["kind"] = json!("Pod");
    pod["metadata"]["name"] = json!(name);
    support::object(pod)
}

/// Waits until the controller wrote the SidecarSet's hash annotations.
async fn hashed(api: &Api<DynamicObject>, name: &str) -> String {
    wait_for("the hash annotations", LONG, || async {
        let set = api.get(name).await.map_err(|e| e.to_string())?;
        set.annotations()
            .get("kruise.io/sidecarset-hash")
            .cloned()
            .ok_or_else(|| "no hash yet".to_string())
    })
    .await
}

fn container_names(pod: &Pod) -> Vec<String> {
    pod.spec
        .iter()
        .flat_map(|s| &s.containers)
        .map(|c| c.name.clone())
        .collect()
}

/// Merge-patches the SidecarSet `name` (`what` names the change in a failure).
async fn patch_set(sets: &Api<DynamicObject>, name: &str, patch: Value, what: &str) {
    sets.patch(
        name,
        &kube::api::PatchParams::default(),
        &kube::api::Patch::Merge(patch),
    )
    .await
    .unwrap_or_else(|e| panic!("{what}: {e}"));
}

/// Creates pods from `pod` (a new name each try) until one is refused; the refusal.
/// Until the webhook's cache has the change that refuses it, a pod may still be created.
async fn refused_pod(pods: &Api<Pod>, pod: &Value) -> String {
    let tries = std::sync::atomic::AtomicUsize::new(0);
    wait_for("a pod refused", LONG, || async {
        let mut pod = pod.clone();
        let n = tries.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let name = format!("{}-{n}", pod["metadata"]["name"].as_str().unwrap_or("refused"));
        pod["metadata"]["name"] = json!(name);
        match pods.create(&PostParams::default(), &support::object(pod)).await {
            Err(e) => Ok(e.to_string()),
            Ok(_) => Err(format!("{name} created")),
        }
    })
    .await
}

/// Creates pods named `NAME-N` of app `web` (a new name each try) until one is injected by
/// `set_name` from `revision`: the webhook's revision cache follows its watch, so a pod
/// made just after a new revision may still get the one before. That pod.
async fn injected_from(pods: &Api<Pod>, name: &str, set_name: &str, revision: &str) -> Pod {
    let tries = std::sync::atomic::AtomicUsize::new(0);
    wait_for(&format!("a pod injected from {revision}"), LONG, || async {
        let n = tries.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let pod = pods
            .create(&PostParams::default(), &bare_pod(&format!("{name}-{n}"), "web"))
            .await
            .map_err(|e| e.to_string())?;
        let hashes = pod.annotations().get("kruise.io/sidecarset-hash").cloned();
        let entry: Value = serde_json::from_str(&hashes.unwrap_or_default()).unwrap_or_default();
        match entry[set_name]["controllerRevision"].as_str() {
            Some(got) if got == revision => Ok(pod),
            other => Err(format!("{} injected from {other:?}", pod.name_any())),
        }
    })
    .await
}

/// A test's namespace, its `run`, and `set` created, hashed and injectable: the SidecarSet
/// API, its name and its hash annotation.
async fn ready_set(ns: &TestNamespace, set: DynamicObject) -> (Api<DynamicObject>, String, String) {
    let sets = sidecarsets(ns);
    let set_name = set.name_any();
    // The webhooks first: the set is defaulted and judged as it is created.
    support::webhooks::answering(ns).await;
    sets.create(&PostParams::default(), &set)
        .await
        .expect("SidecarSet");
    let hash = hashed(&sets, &set_name).await;
    (sets, set_name, hash)
}

#[tokio::test]
async fn pods_of_any_workload_get_the_sidecar_and_the_status_counts_them() {
    let ns = TestNamespace::create("scs-inject").await;
    let controller = RunningController::start(&ns);
    let (sets, set_name, hash) = ready_set(&ns, log_set(&ns)).await;

    let pods: Api<Pod> = ns.api();
    let bare = pods
        .create(&PostParams::default(), &bare_pod("bare", "web"))
        .await
        .expect("bare pod");
    let other = pods
        .create(&PostParams::default(), &bare_pod("other", "api"))
        .await
        .expect("other pod");
    let clones = kruise_api(&ns, "CloneSet", "v1alpha1");
    let mut template = app_template("web");
    template["metadata"]["labels"]["owner"] = json!("clone");
    let cloneset: DynamicObject = support::object(
        json!({ "apiVersion": "apps.kruise.io/v1alpha1", "kind": "CloneSet",
        "metadata": { "name": "web" },
        "spec": { "replicas": 2, "selector": { "matchLabels": { "app": "web", "owner": "clone" } },
            "template": template } }),
    );
    clones
        .create(&PostParams::default(), &cloneset)
        .await
        .expect("CloneSet");
    let mut template = app_template("web");
    template["metadata"]["labels"]["owner"] = json!("deploy");
    let deployment: Deployment = support::object(json!({ "apiVersion": "apps/v1", "kind": "Deployment",
        "metadata": { "name": "front" },
        "spec": { "replicas": 1, "selector": { "matchLabels": { "app": "web", "owner": "deploy" } },
            "template": template } }));
    ns.api::<Deployment>()
        .create(&PostParams::default(), &deployment)
        .await
        .expect("Deployment");

    // The bare pod as the API server stored it, in the shape OpenKruise's pod webhook gives it.
    assert_eq!(
        container_names(&bare),
        ["log-agent", "app"],
        "BeforeAppContainer by default"
    );
    let sidecar = serde_json::to_value(&bare.spec.as_ref().expect("spec").containers[0]).expect("json");
    assert_eq!(sidecar["image"], "fluentbit:1");
    assert_eq!(
        sidecar["env"],
        json!([{ "name": "IS_INJECTED", "value": "true" }, { "name": "REGION", "value": "eu" }])
    );
    let mounts: Vec<&str> = sidecar["volumeMounts"]
        .as_array()
        .expect("mounts")
        .iter()
        .filter_map(|m| m["mountPath"].as_str())
        .collect();
    assert_eq!(mounts, ["/conf", "/data"], "its own, then the app's shared");
    let volumes: Vec<String> = bare
        .spec
        .as_ref()
        .expect("spec")
        .volumes
        .iter()
        .flatten()
        .map(|v| v.name.clone())
        .collect();
    assert_eq!(volumes, ["data", "log-conf"]);
    let annotations = bare.annotations();
    assert_eq!(
        annotations.get("kruise.io/sidecarset-injected-list"),
        Some(&set_name)
    );
    assert!(
        annotations["kruise.io/sidecarset-hash"].contains(&hash),
        "{annotations:?}"
    );
    assert_eq!(
        container_names(&other),
        ["app"],
        "a pod the selector misses is untouched"
    );

    // Every pod of the CloneSet and the Deployment was injected too, and the status counts 4.
    let injected = wait_for("4 injected pods counted", LONG, || async {
        let set = sets.get(&set_name).await.map_err(|e| e.to_string())?;
        let list = pods
            .list(&ListParams::default().labels("app=web"))
            .await
            .map_err(|e| e.to_string())?;
        let all_injected =
            list.items.len() == 4 && list.items.iter().all(|p| container_names(p)[0] == "log-agent");
        let s = &set.data["status"];
        if all_injected && s["matchedPods"] == 4 && s["notInjectedPods"].is_null() {
            Ok(list.items)
        } else {
            Err(format!(
                "{s} {:?}\n{}",
                list.items.iter().map(container_names).collect::<Vec<_>>(),
                controller.log_tail()
            ))
        }
    })
    .await;
    assert_eq!(injected.len(), 4);
    assert_eq!(controller.stop(), 0);
    let _ = sets.delete(&set_name, &DeleteParams::default()).await;
}

#[tokio::test]
async fn with_run_killed_pods_are_created_without_sidecars_and_reported_once_it_is_back() {
    let ns = TestNamespace::create("scs-down").await;
    let controller = RunningController::start(&ns);
    let (sets, set_name, _) = ready_set(&ns, log_set(&ns)).await;
    controller.kill();

    // The configuration is still there and points nowhere: the pod is created anyway.
    let pods: Api<Pod> = ns.api();
    let pod = pods
        .create(&PostParams::default(), &bare_pod("late", "web"))
        .await
        .expect("created while run is down");
    assert_eq!(container_names(&pod), ["app"]);

    let controller = RunningController::start(&ns);
    wait_for("the SidecarSet reports the pod", LONG, || async {
        let set = sets.get(&set_name).await.map_err(|e| e.to_string())?;
        if set.data["status"]["notInjectedPods"] == 1 {
            Ok(())
        } else {
            Err(format!("{}", set.data["status"]))
        }
    })
    .await;
    let events: Api<k8s_openapi::api::events::v1::Event> = Api::all(ns.client.clone());
    wait_for("an event names the pod", LONG, || async {
        let list = events
            .list(&ListParams::default())
            .await
            .map_err(|e| e.to_string())?;
        let found = list.items.iter().any(|e| {
            e.reason.as_deref() == Some("PodsNotInjected")
                && e.note
                    .as_deref()
                    .is_some_and(|n| n.contains(&format!("{}/late", ns.name)))
        });
        if found { Ok(()) } else { Err("no event yet".into()) }
    })
    .await;
    assert_eq!(controller.stop(), 0);
    let _ = sets.delete(&set_name, &DeleteParams::default()).await;
}

/// [`sidecar_view`] of every pod labelled `app=web`.
async fn web_views(pods: &Api<Pod>) -> Vec<(String, String, i32, i32)> {
    pods.list(&ListParams::default().labels("app=web"))
        .await
        .expect("pods")
        .items
        .iter()
        .map(sidecar_view)
        .collect()
}

/// `(uid, sidecar image, sidecar restarts, app restarts)` of a pod.
fn sidecar_view(pod: &Pod) -> (String, String, i32, i32) {
    let statuses = pod
        .status
        .as_ref()
        .and_then(|s| s.container_statuses.clone())
        .unwrap_or_default();
    let restarts = |name: &str| {
        statuses
            .iter()
            .find(|c| c.name == name)
            .map_or(-1, |c| c.restart_count)
    };
    let image = pod
        .spec
        .iter()
        .flat_map(|s| &s.containers)
        .find(|c| c.name == "log-agent")
        .and_then(|c| c.image.clone())
        .unwrap_or_default();
    (
        pod.uid().unwrap_or_default(),
        image,
        restarts("log-agent"),
        restarts("app"),
    )
}

#[tokio::test]
async fn a_sidecar_image_change_goes_in_place_within_the_partition_and_pause_holds_it() {
    let ns = TestNamespace::create("scs-upgrade").await;
    let controller = RunningController::start(&ns);
    let mut manifest = log_set(&ns);
    manifest.data["spec"]["updateStrategy"] = json!({ "partition": 1, "maxUnavailable": 1 });
    let (sets, set_name, _) = ready_set(&ns, manifest).await;
    let pods: Api<Pod> = ns.api();
    for i in 0..3 {
        pods.create(&PostParams::default(), &bare_pod(&format!("web-{i}"), "web"))
            .await
            .expect("pod");
    }
    let status_is = |want: Value| {
        let sets = sets.clone();
        let set_name = set_name.clone();
        let controller = &controller;
        async move {
            wait_for(&format!("status {want}"), LONG, || async {
                let set = sets.get(&set_name).await.map_err(|e| e.to_string())?;
                let s = &set.data["status"];
                let fields = ["matchedPods", "updatedPods", "readyPods", "updatedReadyPods"];
                let have: Vec<&Value> = fields.iter().map(|f| &s[*f]).collect();
                let wanted: Vec<&Value> = fields.iter().map(|f| &want[*f]).collect();
                if have == wanted {
                    Ok(())
                } else {
                    Err(format!("{s}\n{}", controller.log_tail()))
                }
            })
            .await
        }
    };
    status_is(json!({ "matchedPods": 3, "updatedPods": 3, "readyPods": 3, "updatedReadyPods": 3 })).await;
    let before = web_views(&pods).await;

    let watcher = support::controller::PodWatcher::start_expecting(&ns, 3);
    // Its first list arrives pod by pod: the maxima count from once all three are seen.
    tokio::time::sleep(Duration::from_secs(1)).await;
    watcher.reset_maxima();
    let image = json!({ "spec": { "containers": [{ "name": "log-agent", "image": "fluentbit:2",
        "shareVolumePolicy": { "type": "enabled" },
        "transferEnv": [{ "sourceContainerName": "app", "envName": "REGION" }],
        "volumeMounts": [{ "name": "log-conf", "mountPath": "/conf" }] }] } });
    patch_set(&sets, &set_name, image, "new sidecar image").await;
    // Partition 1: two of the three pods upgrade, in place.
    status_is(json!({ "matchedPods": 3, "updatedPods": 2, "readyPods": 3, "updatedReadyPods": 2 })).await;
    let after = web_views(&pods).await;
    let upgraded: Vec<_> = after.iter().filter(|v| v.1 == "fluentbit:2").collect();
    assert_eq!(upgraded.len(), 2, "{after:?}");
    for view in &after {
        let was = before.iter().find(|b| b.0 == view.0).expect("same pod, same UID");
        assert_eq!(view.3, was.3, "the app container never restarts: {view:?}");
        let restarted = if view.1 == "fluentbit:2" { 1 } else { 0 };
        assert_eq!(
            view.2,
            was.2 + restarted,
            "only an upgraded sidecar restarts once: {view:?}"
        );
    }
    assert!(
        watcher.max_unavailable() <= 1,
        "maxUnavailable 1: {}\n{}",
        watcher.max_unavailable(),
        watcher.timeline()
    );

    // Paused holds the last pod even with the partition gone; resuming finishes.
    let pause = json!({ "spec": { "updateStrategy": { "partition": 0, "paused": true } } });
    patch_set(&sets, &set_name, pause, "pause").await;
    tokio::time::sleep(Duration::from_secs(3)).await;
    let set = sets.get(&set_name).await.expect("set");
    assert_eq!(
        set.data["status"]["updatedPods"], 2,
        "paused: {}",
        set.data["status"]
    );
    let resume = json!({ "spec": { "updateStrategy": { "paused": false } } });
    patch_set(&sets, &set_name, resume, "resume").await;
    status_is(json!({ "matchedPods": 3, "updatedPods": 3, "readyPods": 3, "updatedReadyPods": 3 })).await;
    // As upstream (and its e2e, which reads it as soon as the status says done): each
    // upgraded pod records the set as upgradable.
    for pod in pods.list(&ListParams::default()).await.expect("pods").items {
        let condition = pod
            .status
            .as_ref()
            .and_then(|s| s.conditions.as_ref())
            .and_then(|c| c.iter().find(|c| c.type_ == "SidecarSetUpgradable").cloned());
        let condition = condition.unwrap_or_else(|| panic!("{} has no SidecarSetUpgradable", pod.name_any()));
        assert_eq!(condition.status, "True", "{}: {condition:?}", pod.name_any());
        assert_eq!(
            condition.message.as_deref(),
            Some(format!(r#"{{"{set_name}":true}}"#).as_str())
        );
    }
    assert_eq!(controller.stop(), 0);
    let _ = sets.delete(&set_name, &DeleteParams::default()).await;
}

#[tokio::test]
async fn the_handbook_sidecarset_injects_its_container_and_volume() {
    let ns = TestNamespace::create("scs-handbook").await;
    let controller = RunningController::start(&ns);
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/sidecarset-test.yaml");
    let mut doc = support::manifests::documents(&path).remove(0);
    // Cluster-scoped: named after the test so that parallel tests do not share it.
    let name = format!("{}-handbook", ns.name);
    doc["metadata"]["name"] = json!(name);
    let sets = sidecarsets(&ns);
    let set: DynamicObject = support::object(doc);
    sets.create(&PostParams::default(), &set)
        .await
        .expect("the handbook SidecarSet");
    support::webhooks::answering(&ns).await;
    let pods: Api<Pod> = ns.api();
    let pod = pods
        .create(&PostParams::default(), &bare_pod("nginx", "nginx"))
        .await
        .expect("pod");
    assert_eq!(container_names(&pod), ["sidecar1", "app"]);
    let sidecar = &pod.spec.as_ref().expect("spec").containers[0];
    assert_eq!(sidecar.image.as_deref(), Some("centos:6.7"));
    assert_eq!(
        sidecar.command.as_deref(),
        Some(&["sleep".to_string(), "999d".to_string()][..])
    );
    let volumes: Vec<String> = pod
        .spec
        .as_ref()
        .expect("spec")
        .volumes
        .iter()
        .flatten()
        .map(|v| v.name.clone())
        .collect();
    assert!(volumes.contains(&"log-volume".to_string()), "{volumes:?}");
    assert_eq!(controller.stop(), 0);
    let _ = sets.delete(&name, &DeleteParams::default()).await;
}

/// The rollout verbs on a SidecarSet, end to end: `set partition`, `rollout pause`, `set
/// image`, `rollout status` (paused, then complete at the partition), `rollout resume`,
/// `get --tree` (latest and older sidecars, and a matching pod created before the set
/// existed, so never injected), `get sidecarset`.
#[tokio::test]
async fn the_rollout_verbs_drive_a_sidecarset() {
    let ns = TestNamespace::create("scs-cli").await;
    let pods: Api<Pod> = ns.api();
    pods.create(&PostParams::default(), &bare_pod("early", "web"))
        .await
        .expect("a pod older than the SidecarSet");
    let controller = RunningController::start(&ns);
    let (sets, set_name, _) = ready_set(&ns, log_set(&ns)).await;
    for i in 0..3 {
        pods.create(&PostParams::default(), &bare_pod(&format!("web-{i}"), "web"))
            .await
            .expect("pod");
    }
    // `rollout status` judges the status as it finds it: first the status counts all three
    // (a status read between two of the pods' rounds is complete for two of them).
    wait_for("the three pods counted and ready", LONG, || async {
        let set = sets.get(&set_name).await.map_err(|e| e.to_string())?;
        let s = &set.data["status"];
        if s["matchedPods"] == 3 && s["readyPods"] == 3 {
            Ok(())
        } else {
            Err(format!("{s}\n{}", controller.log_tail()))
        }
    })
    .await;
    let id = format!("sidecarset/{set_name}");
    let kruise = |args: Vec<&str>| {
        let args: Vec<String> = args.iter().map(|a| a.to_string()).collect();
        let ns = &ns;
        async move {
            let refs: Vec<&str> = args.iter().map(String::as_str).collect();
            support::kruise_in(ns, &refs).await
        }
    };
    let (code, out, err) = kruise(vec!["rollout", "status", &id, "--timeout", "60s"]).await;
    assert_eq!(code, 0, "{out}{err}\n{}", controller.log_tail());
    assert!(out.contains("successfully rolled out (3/3 ready)"), "{out}");
    assert!(out.contains("1 matching pods lack its sidecars"), "{out}");

    let (code, _, err) = kruise(vec!["set", "partition", &id, "1"]).await;
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("partition 1 of 3 injected pods"), "{err}");
    let (code, out, err) = kruise(vec!["rollout", "pause", &id]).await;
    assert_eq!(code, 0, "{err}");
    assert_eq!(out, format!("sidecarsets.apps.kruise.io/{set_name} paused\n"));
    let (code, out, err) = kruise(vec!["set", "image", &id, "log-agent=fluentbit:2"]).await;
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        out,
        format!("sidecarsets.apps.kruise.io/{set_name} image updated\n")
    );
    wait_for("the paused rollout", LONG, || async {
        let (code, out, _) = kruise(vec!["rollout", "status", &id, "--watch=false", "--exit-status"]).await;
        if code == 5 {
            Ok(())
        } else {
            Err(format!("{code}: {out}"))
        }
    })
    .await;

    let (code, out, err) = kruise(vec!["rollout", "resume", &id]).await;
    assert_eq!(code, 0, "{err}");
    assert!(out.ends_with("resumed\n"), "{out}");
    let (code, out, err) = kruise(vec!["rollout", "status", &id, "--timeout", "60s"]).await;
    assert_eq!(code, 0, "{out}{err}\n{}", controller.log_tail());
    assert!(out.contains("partition holds 1"), "{out}");

    let (code, tree, err) = kruise(vec!["get", &id, "--tree"]).await;
    assert_eq!(code, 0, "{err}");
    assert!(tree.contains("latest sidecars"), "{tree}");
    let latest = tree.split("older sidecars").next().unwrap_or_default();
    assert_eq!(latest.matches("log-agent=fluentbit:2").count(), 2, "{tree}");
    assert!(tree.contains("older sidecars"), "{tree}");
    assert_eq!(tree.matches("log-agent=fluentbit:1").count(), 1, "{tree}");
    let missing = tree.split("not injected").nth(1).unwrap_or_default();
    assert!(missing.contains(&format!("{}/early", ns.name)), "{tree}");

    let (code, out, err) = kruise(vec!["get", "sidecarset", &set_name]).await;
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("NAME") && out.contains("MATCHED"), "{out}");
    let (code, _, err) = kruise(vec!["rollout", "undo", &id]).await;
    assert_eq!(code, 2, "no template of its own to undo: {err}");
    assert!(
        err.contains("injects containers into other workloads' pods"),
        "{err}"
    );
    assert_eq!(controller.stop(), 0);
    let _ = sidecarsets(&ns).delete(&set_name, &DeleteParams::default()).await;
}

/// ControllerRevisions: one per distinct sidecar spec, in the run's
/// namespace, labelled with the set's name and controlled by it; `status.latestRevision`
/// names the newest, and a pod injected afterwards records it in its hash entry.
#[tokio::test]
async fn revisions_follow_the_sidecar_spec_and_pods_record_the_latest() {
    let ns = TestNamespace::create("scs-revisions").await;
    let controller = RunningController::start(&ns);
    let (sets, set_name, _) = ready_set(&ns, log_set(&ns)).await;
    let revisions: Api<k8s_openapi::api::apps::v1::ControllerRevision> = ns.api();
    let listed = || async {
        let list = revisions
            .list(&ListParams::default().labels(&format!("kruise.io/sidecarset-name={set_name}")))
            .await
            .map_err(|e| e.to_string())?;
        let mut names: Vec<(i64, String)> = list
            .items
            .iter()
            .map(|r| (r.revision.unwrap_or(0), r.name_any()))
            .collect();
        names.sort();
        Ok::<_, String>((names, list.items))
    };
    let latest_is = |count: usize| {
        let sets = sets.clone();
        let set_name = set_name.clone();
        let listed = &listed;
        async move {
            wait_for(
                &format!("{count} revisions, the newest in status"),
                LONG,
                || async {
                    let (names, _) = listed().await?;
                    let set = sets.get(&set_name).await.map_err(|e| e.to_string())?;
                    let latest = set.data["status"]["latestRevision"]
                        .as_str()
                        .unwrap_or_default()
                        .to_string();
                    match names.last() {
                        Some((_, newest)) if names.len() == count && *newest == latest => Ok(latest),
                        _ => Err(format!("{names:?}, status {}", set.data["status"])),
                    }
                },
            )
            .await
        }
    };
    let first = latest_is(1).await;
    let (_, items) = listed().await.expect("revisions");
    let owner = items[0]
        .owner_references()
        .iter()
        .find(|o| o.controller == Some(true))
        .map(|o| (o.kind.clone(), o.name.clone()));
    assert_eq!(owner, Some(("SidecarSet".to_string(), set_name.clone())));
    assert_eq!(
        items[0].data.0["spec"]["containers"][0]["image"], "fluentbit:1",
        "{:?}",
        items[0].data
    );

    let pods: Api<Pod> = ns.api();
    let pod = pods
        .create(&PostParams::default(), &bare_pod("web-0", "web"))
        .await
        .expect("pod");
    let entry: Value = serde_json::from_str(
        pod.annotations()
            .get("kruise.io/sidecarset-hash")
            .expect("hash annotation"),
    )
    .expect("json");
    assert_eq!(entry[&set_name]["controllerRevision"], first.as_str());

    let mut changed = log_set(&ns).data["spec"]["containers"].clone();
    changed[0]["image"] = json!("fluentbit:2");
    patch_set(
        &sets,
        &set_name,
        json!({ "spec": { "containers": changed } }),
        "new sidecar image",
    )
    .await;
    let second = latest_is(2).await;
    assert_ne!(first, second);
    assert_eq!(controller.stop(), 0);
    let _ = sets.delete(&set_name, &DeleteParams::default()).await;
}

/// The SidecarSet webhook: a bad spec is refused naming the field, and a
/// second SidecarSet that would inject a container of the same name into the same pods is
/// refused naming the first.
#[tokio::test]
async fn bad_and_conflicting_sidecarsets_are_refused_naming_the_field() {
    let ns = TestNamespace::create("scs-refused").await;
    let controller = RunningController::start(&ns);
    let (sets, set_name, _) = ready_set(&ns, log_set(&ns)).await;
    // The mutating webhook wrote upstream's defaults (its `SetDefaultsSidecarSet`).
    let stored = sets.get(&set_name).await.expect("set");
    let spec = &stored.data["spec"];
    assert_eq!(
        spec["updateStrategy"],
        json!({ "type": "RollingUpdate", "maxUnavailable": 1, "partition": 0 })
    );
    assert_eq!(spec["containers"][0]["podInjectPolicy"], "BeforeAppContainer");
    assert_eq!(spec["containers"][0]["imagePullPolicy"], "IfNotPresent");
    assert_eq!(spec["revisionHistoryLimit"], 10);

    let mut bad = log_set(&ns);
    bad.metadata.name = Some(format!("{}-bad", ns.name));
    bad.data["spec"]["containers"][0]["volumeMounts"] = json!([{ "name": "nowhere", "mountPath": "/x" }]);
    let refused = sets
        .create(&PostParams::default(), &bad)
        .await
        .expect_err("a mount of an undeclared volume");
    assert!(
        refused.to_string().contains("spec.containers[0].volumeMounts[0]"),
        "{refused}"
    );

    let mut twin = log_set(&ns);
    twin.metadata.name = Some(format!("{}-twin", ns.name));
    let refused = sets
        .create(&PostParams::default(), &twin)
        .await
        .expect_err("the same container for the same pods");
    let message = refused.to_string();
    assert!(
        message.contains(&set_name) && message.contains("log-agent"),
        "{message}"
    );

    // Another namespace's pods: no conflict.
    twin.data["spec"]["namespaceSelector"] =
        json!({ "matchLabels": { "kubernetes.io/metadata.name": format!("{}-other", ns.name) } });
    sets.create(&PostParams::default(), &twin)
        .await
        .expect("disjoint namespaces do not conflict");
    assert_eq!(controller.stop(), 0);
    for name in [set_name, twin.name_any()] {
        let _ = sets.delete(&name, &DeleteParams::default()).await;
    }
}

/// A sidecar change beyond its image (here its command) cannot go in place:
/// the pods keep their sidecar, count as not updated and say so in their
/// `SidecarSetUpgradable` condition.
#[tokio::test]
async fn a_change_beyond_the_image_marks_the_pods_not_upgradable() {
    let ns = TestNamespace::create("scs-immutable").await;
    let controller = RunningController::start(&ns);
    let (sets, set_name, _) = ready_set(&ns, log_set(&ns)).await;
    let pods: Api<Pod> = ns.api();
    pods.create(&PostParams::default(), &bare_pod("web-0", "web"))
        .await
        .expect("pod");
    // Every status the API server stores, seen by an independent watcher.
    let statuses = StatusRecorder::start(&sets, &set_name);
    let mut changed = log_set(&ns).data["spec"]["containers"].clone();
    changed[0]["command"] = json!(["fluent-bit", "-c", "/conf/other.conf"]);
    patch_set(
        &sets,
        &set_name,
        json!({ "spec": { "containers": changed } }),
        "a command change",
    )
    .await;
    let condition = wait_for("the SidecarSetUpgradable condition", LONG, || async {
        let pod = pods.get("web-0").await.map_err(|e| e.to_string())?;
        pod.status
            .iter()
            .flat_map(|s| s.conditions.iter().flatten())
            .find(|c| c.type_ == "SidecarSetUpgradable")
            .cloned()
            .ok_or_else(|| format!("no condition yet\n{}", controller.log_tail()))
    })
    .await;
    assert_eq!(condition.status, "False");
    assert_eq!(condition.reason.as_deref(), Some("UpdateImmutableField"));
    assert_eq!(
        condition.message.as_deref(),
        Some(format!("{{\"{set_name}\":false}}").as_str())
    );
    let pod = pods.get("web-0").await.expect("pod");
    assert_eq!(
        sidecar_view(&pod).1,
        "fluentbit:1",
        "the sidecar is left as it is"
    );
    let set = sets.get(&set_name).await.expect("set");
    assert_eq!(set.data["status"]["updatedPods"], 0, "{}", set.data["status"]);
    // No status of the new generation ever counted the pod by the old hash.
    let generation = set.metadata.generation.expect("generation");
    let stale: Vec<Value> = statuses
        .seen()
        .into_iter()
        .filter(|s| s["observedGeneration"] == json!(generation) && s["updatedPods"] != json!(0))
        .collect();
    assert!(stale.is_empty(), "statuses with the old counts: {stale:?}");
    assert_eq!(controller.stop(), 0);
    let _ = sets.delete(&set_name, &DeleteParams::default()).await;
}

/// Records every status of one SidecarSet from a watch of its own.
struct StatusRecorder {
    seen: std::sync::Arc<std::sync::Mutex<Vec<Value>>>,
    task: tokio::task::JoinHandle<()>,
}

impl StatusRecorder {
    fn start(sets: &Api<DynamicObject>, name: &str) -> Self {
        use futures::StreamExt;
        use kube::runtime::{WatchStreamExt, watcher};
        let seen = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
        let shared = seen.clone();
        let config = watcher::Config::default().fields(&format!("metadata.name={name}"));
        let api = sets.clone();
        let task = tokio::spawn(async move {
            let mut stream = std::pin::pin!(watcher(api, config).default_backoff());
            while let Some(event) = stream.next().await {
                if let Ok(watcher::Event::Apply(set) | watcher::Event::InitApply(set)) = event {
                    shared.lock().expect("statuses").push(set.data["status"].clone());
                }
            }
        });
        Self { seen, task }
    }

    fn seen(&self) -> Vec<Value> {
        self.seen.lock().expect("statuses").clone()
    }
}

impl Drop for StatusRecorder {
    fn drop(&mut self) {
        self.task.abort();
    }
}

/// A pinned revision: with `injectionStrategy.revision.revisionName` new
/// pods get that revision's sidecar, recorded in their hash entry; a pin to a revision that
/// does not exist refuses the pod, naming the field.
#[tokio::test]
async fn a_pinned_revision_is_injected_and_a_missing_one_refuses_the_pod() {
    let ns = TestNamespace::create("scs-pinned").await;
    let controller = RunningController::start(&ns);
    let (sets, set_name, _) = ready_set(&ns, log_set(&ns)).await;
    let revisions: Api<k8s_openapi::api::apps::v1::ControllerRevision> = ns.api();
    let first = wait_for("the first revision", LONG, || async {
        let set = sets.get(&set_name).await.map_err(|e| e.to_string())?;
        set.data["status"]["latestRevision"]
            .as_str()
            .map(str::to_string)
            .ok_or_else(|| format!("{}", set.data["status"]))
    })
    .await;
    let mut changed = log_set(&ns).data["spec"]["containers"].clone();
    changed[0]["image"] = json!("fluentbit:2");
    let pin = |name: &str| {
        json!({ "spec": { "containers": changed.clone(),
            "injectionStrategy": { "revision": { "revisionName": name } } } })
    };
    patch_set(
        &sets,
        &set_name,
        pin(&first),
        "a new image, the old revision pinned",
    )
    .await;
    wait_for("the second revision", LONG, || async {
        let list = revisions
            .list(&ListParams::default().labels(&format!("kruise.io/sidecarset-name={set_name}")))
            .await
            .map_err(|e| e.to_string())?;
        if list.items.len() == 2 {
            Ok(())
        } else {
            Err(format!("{} revisions", list.items.len()))
        }
    })
    .await;
    let pods: Api<Pod> = ns.api();
    let pod = injected_from(&pods, "pinned", &set_name, &first).await;
    assert_eq!(sidecar_view(&pod).1, "fluentbit:1", "the pinned revision's image");

    patch_set(&sets, &set_name, pin("no-such-revision"), "a pin to nothing").await;
    let late = serde_json::to_value(bare_pod("refused", "web")).expect("json");
    let refused = refused_pod(&pods, &late).await;
    assert!(
        refused.contains("spec.injectionStrategy.revision.revisionName"),
        "{refused}"
    );
    assert_eq!(controller.stop(), 0);
    let _ = sets.delete(&set_name, &DeleteParams::default()).await;
}

/// `v1beta1` spells the custom version `spec.customVersion` (`v1alpha1`: a label): the
/// revisions carry it, and a pin to an older custom version injects that revision.
#[tokio::test]
async fn a_v1beta1_custom_version_labels_its_revision_and_a_pin_to_it_injects_that_revision() {
    let ns = TestNamespace::create("scs-custom").await;
    let controller = RunningController::start(&ns);
    let mut set = log_set(&ns);
    set.types = Some(kube::api::TypeMeta {
        api_version: "apps.kruise.io/v1beta1".into(),
        kind: "SidecarSet".into(),
    });
    set.data["spec"]["customVersion"] = json!("v1");
    let beta = support::cluster_api(&ns, "apps.kruise.io/v1beta1", "SidecarSet", "sidecarsets");
    support::webhooks::answering(&ns).await;
    let set_name = set.name_any();
    beta.create(&PostParams::default(), &set)
        .await
        .expect("a v1beta1 SidecarSet");
    let revisions: Api<k8s_openapi::api::apps::v1::ControllerRevision> = ns.api();
    let of_version = |version: &'static str| {
        let revisions = revisions.clone();
        let set_name = set_name.clone();
        async move {
            let selector = format!(
                "kruise.io/sidecarset-name={set_name},apps.kruise.io/sidecarset-custom-version={version}"
            );
            let list = revisions
                .list(&ListParams::default().labels(&selector))
                .await
                .map_err(|e| e.to_string())?;
            match list.items.as_slice() {
                [one] => Ok(one.name_any()),
                other => Err(format!("{} revisions labelled {version}", other.len())),
            }
        }
    };
    let first = wait_for("the revision labelled v1", LONG, || of_version("v1")).await;
    let mut changed = log_set(&ns).data["spec"]["containers"].clone();
    changed[0]["image"] = json!("fluentbit:2");
    patch_set(
        &beta,
        &set_name,
        json!({ "spec": { "containers": changed, "customVersion": "v2",
            "injectionStrategy": { "revision": { "customVersion": "v1" } } } }),
        "a new image as v2, v1 pinned",
    )
    .await;
    wait_for("the revision labelled v2", LONG, || of_version("v2")).await;
    let pods: Api<Pod> = ns.api();
    let pod = injected_from(&pods, "pinned", &set_name, &first).await;
    assert_eq!(sidecar_view(&pod).1, "fluentbit:1", "v1's image");
    assert_eq!(controller.stop(), 0);
    let _ = beta.delete(&set_name, &DeleteParams::default()).await;
}

/// Hot upgrade: the sidecar runs as `mesh-1` (working) and `mesh-2` (idle
/// on the empty image); a new image goes into the idle half, which takes over, and the old
/// half is then reset to the empty image. Same pod, the app container never restarts.
#[tokio::test]
async fn a_hot_upgrade_swaps_the_halves_in_place() {
    let ns = TestNamespace::create("scs-hot").await;
    let controller = RunningController::start(&ns);
    let mesh = |image: &str| {
        json!([{ "name": "mesh", "image": image,
            "upgradeStrategy": { "upgradeType": "HotUpgrade", "hotUpgradeEmptyImage": "empty:1" } }])
    };
    let set: DynamicObject = support::object(
        json!({ "apiVersion": "apps.kruise.io/v1alpha1", "kind": "SidecarSet",
        "metadata": { "name": format!("{}-mesh", ns.name) },
        "spec": { "selector": { "matchLabels": { "app": "web" } },
            "namespaceSelector": { "matchLabels": { "kubernetes.io/metadata.name": ns.name } },
            "containers": mesh("envoy:1") } }),
    );
    let (sets, set_name, _) = ready_set(&ns, set).await;
    let pods: Api<Pod> = ns.api();
    let pod = pods
        .create(&PostParams::default(), &bare_pod("web-0", "web"))
        .await
        .expect("pod");
    let images = |pod: &Pod| -> Vec<(String, String)> {
        pod.spec
            .iter()
            .flat_map(|s| &s.containers)
            .map(|c| (c.name.clone(), c.image.clone().unwrap_or_default()))
            .collect()
    };
    let pair = |one: &str, two: &str| {
        vec![
            ("mesh-1".to_string(), one.to_string()),
            ("mesh-2".to_string(), two.to_string()),
            ("app".to_string(), "nginx:1.25".to_string()),
        ]
    };
    assert_eq!(images(&pod), pair("envoy:1", "empty:1"));
    assert_eq!(
        pod.annotations()
            .get("kruise.io/sidecarset-working-hotupgrade-container")
            .map(String::as_str),
        Some(r#"{"mesh":"mesh-1"}"#)
    );
    let uid = pod.uid();
    wait_for("the pod ready", LONG, || async {
        let set = sets.get(&set_name).await.map_err(|e| e.to_string())?;
        if set.data["status"]["readyPods"] == 1 {
            Ok(())
        } else {
            Err(format!("{}", set.data["status"]))
        }
    })
    .await;

    patch_set(
        &sets,
        &set_name,
        json!({ "spec": { "containers": mesh("envoy:2") } }),
        "a new image",
    )
    .await;
    let done = wait_for("the halves swapped and the old one emptied", LONG, || async {
        let pod = pods.get("web-0").await.map_err(|e| e.to_string())?;
        let set = sets.get(&set_name).await.map_err(|e| e.to_string())?;
        let s = &set.data["status"];
        if images(&pod) == pair("empty:1", "envoy:2") && s["updatedPods"] == 1 && s["readyPods"] == 1 {
            Ok(pod)
        } else {
            Err(format!("{:?} {s}\n{}", images(&pod), controller.log_tail()))
        }
    })
    .await;
    assert_eq!(done.uid(), uid, "the same pod");
    assert_eq!(
        done.annotations()
            .get("kruise.io/sidecarset-working-hotupgrade-container")
            .map(String::as_str),
        Some(r#"{"mesh":"mesh-2"}"#)
    );
    let restarts = |name: &str| {
        done.status
            .iter()
            .flat_map(|s| s.container_statuses.iter().flatten())
            .find(|c| c.name == name)
            .map(|c| c.restart_count)
    };
    assert_eq!(restarts("app"), Some(0), "the app container never restarts");
    assert_eq!(controller.stop(), 0);
    let _ = sets.delete(&set_name, &DeleteParams::default()).await;
}

/// `resourcesPolicy` (new in OpenKruise 1.9): the sidecar's resources derived from the app
/// containers at creation; a policy no container meets refuses the pod, naming the field.
#[tokio::test]
async fn a_resources_policy_sizes_the_sidecar_from_the_app_containers() {
    let ns = TestNamespace::create("scs-resources").await;
    let controller = RunningController::start(&ns);
    let policy = |regex: &str| {
        json!({ "targetContainersMode": "sum", "targetContainersNameRegex": regex,
            "resourcesExpr": { "requests": { "cpu": "cpu * 50%", "memory": "max(memory / 2, 64Mi)" },
                "limits": { "cpu": "cpu" } } })
    };
    let mut set = log_set(&ns);
    set.data["spec"]["containers"][0]["resourcesPolicy"] = policy("^app$");
    let (sets, set_name, _) = ready_set(&ns, set).await;
    let mut pod = app_template("web");
    pod["apiVersion"] = json!("v1");
    pod["kind"] = json!("Pod");
    pod["metadata"]["name"] = json!("sized");
    pod["spec"]["containers"][0]["resources"] =
        json!({ "requests": { "cpu": "400m", "memory": "256Mi" }, "limits": { "cpu": "1" } });
    let pods: Api<Pod> = ns.api();
    let created = pods
        .create(&PostParams::default(), &support::object(pod.clone()))
        .await
        .expect("pod");
    let sidecar = created
        .spec
        .iter()
        .flat_map(|s| &s.containers)
        .find(|c| c.name == "log-agent")
        .expect("the sidecar")
        .clone();
    let resources = serde_json::to_value(sidecar.resources).expect("json");
    assert_eq!(
        resources,
        json!({ "requests": { "cpu": "200m", "memory": "128Mi" }, "limits": { "cpu": "1" } })
    );

    let mut changed = log_set(&ns).data["spec"]["containers"].clone();
    changed[0]["resourcesPolicy"] = policy("^nothing-matches$");
    patch_set(
        &sets,
        &set_name,
        json!({ "spec": { "containers": changed } }),
        "a policy with no target",
    )
    .await;
    let mut unsized_pod = pod.clone();
    unsized_pod["metadata"]["name"] = json!("unsized");
    let refused = refused_pod(&pods, &unsized_pod).await;
    assert!(refused.contains("resourcesPolicy"), "{refused}");
    assert_eq!(controller.stop(), 0);
    let _ = sets.delete(&set_name, &DeleteParams::default()).await;
}

/// A run not scoped to a namespace keeps a SidecarSet's revisions where kruise-manager
/// keeps them, in `kruise-system` (made when it is missing).
#[tokio::test]
async fn an_unscoped_run_keeps_the_revisions_in_kruise_system() {
    let ns = TestNamespace::create("scs-system").await;
    let controller = RunningController::start_everywhere(&ns, &["--leader-elect=false", "--webhooks=false"]);
    let mut set = log_set(&ns);
    set.metadata.name = Some(format!("{}-system", ns.name));
    let sets = sidecarsets(&ns);
    sets.create(&PostParams::default(), &set)
        .await
        .expect("SidecarSet");
    let set_name = set.name_any();
    let revisions: Api<k8s_openapi::api::apps::v1::ControllerRevision> =
        Api::namespaced(support::client().await, "kruise-system");
    wait_for("a revision in kruise-system", LONG, || async {
        let list = revisions
            .list(&ListParams::default().labels(&format!("kruise.io/sidecarset-name={set_name}")))
            .await
            .map_err(|e| e.to_string())?;
        if list.items.len() == 1 {
            Ok(())
        } else {
            Err(format!(
                "{} revisions\n{}",
                list.items.len(),
                controller.log_tail()
            ))
        }
    })
    .await;
    assert_eq!(controller.stop(), 0);
    let _ = sets.delete(&set_name, &DeleteParams::default()).await;
}

/// OpenKruise's `kruise-configuration` whitelist: a SidecarSet that patches pod
/// annotations is admitted only for keys a rule selecting it allows (read in the run's
/// namespace, where a scoped run keeps what kruise-manager keeps in `kruise-system`).
#[tokio::test]
async fn patching_pod_metadata_needs_openkruises_whitelist() {
    let ns = TestNamespace::create("scs-whitelist").await;
    let controller = RunningController::start(&ns);
    support::webhooks::answering(&ns).await;
    let mut set = log_set(&ns);
    set.metadata.name = Some(format!("{}-patch", ns.name));
    set.metadata.labels = Some([("app".to_string(), "sidecar".to_string())].into());
    set.data["spec"]["patchPodMetadata"] =
        json!([{ "patchPolicy": "MergePatchJson", "annotations": { "key": "{\"log-agent\":1}" } }]);
    let sets = sidecarsets(&ns);
    let refused = sets
        .create(&PostParams::default(), &set)
        .await
        .expect_err("no whitelist yet")
        .to_string();
    assert!(
        refused.contains("spec.patchPodMetadata") && refused.contains("kruise-configuration"),
        "{refused}"
    );
    let maps: Api<k8s_openapi::api::core::v1::ConfigMap> = ns.api();
    maps.create(
        &PostParams::default(),
        &support::object(json!({ "metadata": { "name": "kruise-configuration" }, "data": {
            "SidecarSet_PatchPodMetadata_WhiteList":
                r#"{"rules":[{"annotationKeyExprs":["key"],"selector":{"matchLabels":{"app":"sidecar"}}}]}"# } })),
    )
    .await
    .expect("ConfigMap");
    sets.create(&PostParams::default(), &set)
        .await
        .expect("whitelisted");
    let mut other = set.clone();
    other.metadata.name = Some(format!("{}-other", ns.name));
    other.metadata.resource_version = None;
    other.data["spec"]["patchPodMetadata"] =
        json!([{ "patchPolicy": "MergePatchJson", "annotations": { "other.io/x": "{}" } }]);
    // Its own container: judged by the whitelist, not as a conflict with the first set.
    other.data["spec"]["containers"][0]["name"] = json!("audit-agent");
    let refused = sets
        .create(&PostParams::default(), &other)
        .await
        .expect_err("key not listed")
        .to_string();
    assert!(
        refused.contains("annotations[other.io/x] is not allowed"),
        "{refused}"
    );
    assert_eq!(controller.stop(), 0);
    let _ = sets.delete(&set.name_any(), &DeleteParams::default()).await;
}
