//! The CloneSet controller end to end: `kubectl kruise run -n NS` as a child process on the
//! real control plane with simulated nodes, an independent pod watcher checking the bounds
//! during every rollout, in place or by recreation. The behaviour expected is OpenKruise's:
//! <https://openkruise.io/docs/user-manuals/cloneset>.
mod support;

use std::collections::BTreeMap;
use std::time::Duration;

use k8s_openapi::api::core::v1::{Event, PersistentVolumeClaim, Pod};
use kube::ResourceExt;
use kube::api::{ListParams, Patch, PatchParams, PostParams};
use kubectl_kruise::api::cloneset::CloneSet;
use serde_json::json;
use support::clonesets::*;
use support::controller::{PodView, PodWatcher, RunningController};
use support::{TestNamespace, wait_for};

fn views(pods: &[Pod]) -> BTreeMap<String, PodView> {
    pods.iter().map(|p| (p.name_any(), PodView::of(p))).collect()
}

#[tokio::test]
async fn the_handbook_guestbook_goes_v1_to_v2_in_place_keeping_every_pod() {
    let ns = TestNamespace::create("cs-guestbook").await;
    let docs = support::manifests::documents(std::path::Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/cloneset-guestbook.yaml"
    )));
    let mut doc = docs
        .into_iter()
        .find(|d| d["kind"] == "CloneSet")
        .expect("CloneSet in the fixture");
    doc["spec"]["template"]["spec"]["containers"][0]["image"] = json!("openkruise/guestbook:v1");
    let set: CloneSet = support::object(doc);
    let name = set.name_any();
    let app_label = "app.kubernetes.io/name=guestbook-clone";
    let controller = RunningController::start(&ns);
    create(&ns, &set).await;
    wait_settled(&ns, &name, 3, 3, &controller).await;
    let list = |ns: &TestNamespace| {
        let api = ns.api::<Pod>();
        async move {
            api.list(&ListParams::default().labels(app_label))
                .await
                .expect("pods")
                .items
        }
    };
    let before = views(&list(&ns).await);
    let watcher = PodWatcher::start(&ns);
    let writes_before = controller.writes_to("pods") + controller.writes_to("pods/status");

    set_image(&ns, &name, "openkruise/guestbook:v2").await;
    let set = wait_settled(&ns, &name, 3, 3, &controller).await;
    let status = set.status.expect("status");
    assert_eq!(status.current_revision, status.update_revision);
    let after = views(&list(&ns).await);
    assert_eq!(
        before.keys().collect::<Vec<_>>(),
        after.keys().collect::<Vec<_>>(),
        "same pod names"
    );
    for (pod, b) in &before {
        let a = &after[pod];
        assert_eq!(
            (&a.uid, &a.node, &a.ip),
            (&b.uid, &b.node, &b.ip),
            "{pod} kept UID, node and IP"
        );
        assert_eq!(a.restarts, b.restarts + 1, "{pod} restarted its container once");
        assert_eq!(a.image, "openkruise/guestbook:v2");
        let history = watcher.history(pod);
        let went_down = history
            .iter()
            .position(|v| !v.ready && v.gate.as_deref() == Some("False"));
        let came_back = went_down.and_then(|i| history[i..].iter().position(|v| v.ready));
        assert!(
            went_down.is_some() && came_back.is_some(),
            "{pod}: readiness False then True\n{}",
            watcher.timeline()
        );
    }
    // Writes per pod (pods + pods/status): gate False, pod patch, gate True.
    let writes = controller.writes_to("pods") + controller.writes_to("pods/status") - writes_before;
    let per_pod = writes / 3.0;
    println!("in-place update: {writes} pod writes for 3 pods = {per_pod:.2} per pod");
    assert!(
        per_pod <= 3.0,
        "{per_pod} writes per in-place pod\n{}",
        controller.log_tail()
    );
    assert_eq!(controller.stop(), 0, "graceful stop exits 0");
}

#[tokio::test]
async fn recreate_replaces_every_pod_and_in_place_if_possible_recreates_on_env_change() {
    let ns = TestNamespace::create("cs-recreate").await;
    let controller = RunningController::start(&ns);
    create(
        &ns,
        &cloneset(
            "rc",
            3,
            json!({ "type": "ReCreate", "maxUnavailable": 1 }),
            json!({}),
        ),
    )
    .await;
    create(
        &ns,
        &cloneset(
            "env",
            2,
            json!({ "type": "InPlaceIfPossible", "maxUnavailable": 1 }),
            json!({}),
        ),
    )
    .await;
    wait_settled(&ns, "rc", 3, 3, &controller).await;
    wait_settled(&ns, "env", 2, 2, &controller).await;
    let uids = |pods: &[Pod]| pods.iter().filter_map(|p| p.uid()).collect::<Vec<_>>();
    let rc_before = uids(&pods(&ns, "rc").await);
    let env_before = uids(&pods(&ns, "env").await);
    set_image(&ns, "rc", "nginx:1.26").await;
    add_env(&ns, "env").await;
    wait_settled(&ns, "rc", 3, 3, &controller).await;
    wait_settled(&ns, "env", 2, 2, &controller).await;
    let rc_after = uids(&pods(&ns, "rc").await);
    let env_after = uids(&pods(&ns, "env").await);
    assert!(
        rc_after.iter().all(|u| !rc_before.contains(u)),
        "ReCreate replaced every pod"
    );
    assert!(
        env_after.iter().all(|u| !env_before.contains(u)),
        "an env change cannot go in place"
    );
}

#[tokio::test]
async fn in_place_only_refuses_an_env_change_with_a_condition_and_an_event() {
    let ns = TestNamespace::create("cs-inplaceonly").await;
    let controller = RunningController::start(&ns);
    create(
        &ns,
        &cloneset(
            "only",
            2,
            json!({ "type": "InPlaceOnly", "maxUnavailable": 1 }),
            json!({}),
        ),
    )
    .await;
    wait_settled(&ns, "only", 2, 2, &controller).await;
    let before: Vec<String> = pods(&ns, "only").await.iter().filter_map(|p| p.uid()).collect();
    add_env(&ns, "only").await;
    let api = ns.api::<CloneSet>();
    let condition = wait_for("a FailedUpdate condition", LONG, || async {
        let set = api.get("only").await.map_err(|e| e.to_string())?;
        set.status
            .and_then(|s| s.conditions)
            .unwrap_or_default()
            .into_iter()
            .find(|c| c.type_ == "FailedUpdate")
            .ok_or_else(|| "no condition yet".to_string())
    })
    .await;
    let message = condition.message.unwrap_or_default();
    assert!(
        message.contains("InPlaceOnly") && message.contains("env"),
        "{message}"
    );
    let events = ns.api::<Event>();
    wait_for("a FailedUpdate event", LONG, || async {
        let list = events
            .list(&ListParams::default())
            .await
            .map_err(|e| e.to_string())?;
        list.items
            .iter()
            .find(|e| e.reason.as_deref() == Some("FailedUpdate"))
            .map(|_| ())
            .ok_or_else(|| {
                format!(
                    "{:?}",
                    list.items.iter().map(|e| e.reason.clone()).collect::<Vec<_>>()
                )
            })
    })
    .await;
    let after: Vec<String> = pods(&ns, "only").await.iter().filter_map(|p| p.uid()).collect();
    assert_eq!(before, after, "no pod was touched");
}

#[tokio::test]
async fn partition_steps_the_rollout_within_max_unavailable_and_max_surge() {
    let ns = TestNamespace::create("cs-partition").await;
    let controller = RunningController::start(&ns);
    let strategy = json!({ "type": "InPlaceIfPossible", "partition": 3, "maxUnavailable": 1, "maxSurge": 1 });
    create(&ns, &cloneset("part", 5, strategy, json!({}))).await;
    wait_settled(&ns, "part", 5, 5, &controller).await;
    let watcher = PodWatcher::start(&ns);
    tokio::time::sleep(Duration::from_millis(500)).await;
    watcher.reset_maxima();
    // Status invariants at every status the API server stores during the rollout.
    let status_api = ns.api::<CloneSet>();
    let checker = tokio::spawn(async move {
        use futures::StreamExt;
        use kube::runtime::watcher;
        let mut seen = 0usize;
        let mut stream = std::pin::pin!(watcher(status_api, watcher::Config::default()));
        while let Some(Ok(event)) = stream.next().await {
            let watcher::Event::Apply(set) = event else {
                continue;
            };
            let s = set.status.clone().unwrap_or_default();
            let ok = s.updated_ready_replicas <= s.updated_replicas
                && s.updated_replicas <= s.replicas
                && s.available_replicas <= s.ready_replicas
                && s.ready_replicas <= s.replicas
                && s.updated_available_replicas.unwrap_or(0) <= s.updated_ready_replicas
                && s.replicas <= 6
                && s.observed_generation <= set.metadata.generation;
            assert!(ok, "status breaks an invariant: {s:?}");
            seen += 1;
        }
        seen
    });
    set_image(&ns, "part", "nginx:1.26").await;
    for partition in [3, 1, 0] {
        merge_patch(
            &ns,
            "part",
            json!({ "spec": { "updateStrategy": { "partition": partition } } }),
        )
        .await;
        let set = wait_settled(&ns, "part", 5, 5 - partition, &controller).await;
        let status = set.status.expect("status");
        assert_eq!(status.expected_updated_replicas, Some(5 - partition));
        assert_eq!(status.updated_available_replicas, Some(5 - partition));
        let old = pods(&ns, "part")
            .await
            .iter()
            .filter(|p| p.labels().get("controller-revision-hash") != status.update_revision.as_ref())
            .count() as i32;
        assert_eq!(
            old, partition,
            "partition {partition} holds exactly that many old pods"
        );
    }
    checker.abort();
    if let Err(e) = checker.await
        && e.is_panic()
    {
        std::panic::resume_unwind(e.into_panic());
    }
    println!(
        "partition rollout: at most {} pods, at most {} unavailable",
        watcher.max_pods(),
        watcher.max_unavailable()
    );
    assert!(
        watcher.max_pods() <= 6,
        "replicas + maxSurge exceeded\n{}",
        watcher.timeline()
    );
    assert!(
        watcher.max_unavailable() <= 2,
        "maxUnavailable + maxSurge exceeded\n{}",
        watcher.timeline()
    );
}

#[tokio::test]
async fn pods_to_delete_and_deletion_cost_choose_the_pods_removed() {
    let ns = TestNamespace::create("cs-delete").await;
    let controller = RunningController::start(&ns);
    create(&ns, &cloneset("del", 4, json!({ "type": "ReCreate" }), json!({}))).await;
    wait_settled(&ns, "del", 4, 4, &controller).await;
    let names: Vec<String> = pods(&ns, "del").await.iter().map(|p| p.name_any()).collect();
    let doomed = names[1].clone();
    merge_patch(
        &ns,
        "del",
        json!({ "spec": { "scaleStrategy": { "podsToDelete": [doomed] } } }),
    )
    .await;
    let api = ns.api::<CloneSet>();
    wait_for("podsToDelete pruned after the delete", LONG, || async {
        let set = api.get("del").await.map_err(|e| e.to_string())?;
        let listed = set
            .spec
            .scale_strategy
            .and_then(|s| s.pods_to_delete)
            .unwrap_or_default();
        if listed.is_empty() {
            Ok(())
        } else {
            Err(format!("{listed:?}"))
        }
    })
    .await;
    wait_settled(&ns, "del", 4, 4, &controller).await;
    let now: Vec<String> = pods(&ns, "del").await.iter().map(|p| p.name_any()).collect();
    assert!(!now.contains(&doomed), "{doomed} was deleted");
    for name in names.iter().filter(|n| **n != doomed) {
        assert!(now.contains(name), "{name} was kept");
    }
    // Scale in: the pod with the lowest deletion cost goes first.
    let pod_api = ns.api::<Pod>();
    for (i, name) in now.iter().enumerate() {
        let cost = if i == 2 { "-5" } else { "10" };
        pod_api
            .patch(
                name,
                &PatchParams::default(),
                &Patch::Merge(json!({ "metadata": { "annotations": { "controller.kubernetes.io/pod-deletion-cost": cost } } })),
            )
            .await
            .expect("annotate");
    }
    merge_patch(&ns, "del", json!({ "spec": { "replicas": 3 } })).await;
    wait_settled(&ns, "del", 3, 3, &controller).await;
    let left: Vec<String> = pods(&ns, "del").await.iter().map(|p| p.name_any()).collect();
    assert!(
        !left.contains(&now[2]),
        "the cheapest pod {} was removed: {left:?}",
        now[2]
    );
}

#[tokio::test]
async fn pvcs_are_made_per_pod_reused_by_a_replacement_and_deleted_on_scale_in() {
    let ns = TestNamespace::create("cs-pvc").await;
    let controller = RunningController::start(&ns);
    let claims = json!({ "volumeClaimTemplates": [{
        "metadata": { "name": "data" },
        "spec": { "accessModes": ["ReadWriteOnce"], "resources": { "requests": { "storage": "1Gi" } } },
    }] });
    create(&ns, &cloneset("vol", 2, json!({ "type": "ReCreate" }), claims)).await;
    wait_settled(&ns, "vol", 2, 2, &controller).await;
    let pvc_api = ns.api::<PersistentVolumeClaim>();
    let claim_uids = || async {
        let list = pvc_api.list(&ListParams::default()).await.expect("pvcs").items;
        list.iter()
            .filter(|c| c.metadata.deletion_timestamp.is_none())
            .map(|c| (c.name_any(), c.uid().unwrap_or_default()))
            .collect::<BTreeMap<_, _>>()
    };
    let before = claim_uids().await;
    let pod_names: Vec<String> = pods(&ns, "vol").await.iter().map(|p| p.name_any()).collect();
    for pod in &pod_names {
        let id = pod.trim_start_matches("vol-");
        assert!(
            before.contains_key(&format!("data-vol-{id}")),
            "PVC of {pod}: {before:?}"
        );
    }
    // A pod deleted by someone else comes back under the same name, on the same PVC.
    ns.api::<Pod>()
        .delete(&pod_names[0], &Default::default())
        .await
        .expect("delete pod");
    wait_for("the replacement pod", LONG, || async {
        let live = pods(&ns, "vol").await;
        let back = live
            .iter()
            .any(|p| p.name_any() == pod_names[0] && p.metadata.deletion_timestamp.is_none());
        if back && live.len() == 2 {
            Ok(())
        } else {
            Err(format!(
                "{:?}",
                live.iter().map(|p| p.name_any()).collect::<Vec<_>>()
            ))
        }
    })
    .await;
    assert_eq!(claim_uids().await, before, "the same PVCs, reused");
    // Scale in: the removed pod's PVC goes with it.
    merge_patch(&ns, "vol", json!({ "spec": { "replicas": 1 } })).await;
    wait_settled(&ns, "vol", 1, 1, &controller).await;
    let kept = pods(&ns, "vol").await[0].name_any();
    let kept_claim = format!("data-vol-{}", kept.trim_start_matches("vol-"));
    wait_for("one PVC left", LONG, || async {
        let now = claim_uids().await;
        if now.len() == 1 && now.contains_key(&kept_claim) {
            Ok(())
        } else {
            Err(format!("{now:?}"))
        }
    })
    .await;
}

#[tokio::test]
async fn pause_freezes_updates_but_not_scaling() {
    let ns = TestNamespace::create("cs-pause").await;
    let controller = RunningController::start(&ns);
    create(
        &ns,
        &cloneset(
            "pz",
            2,
            json!({ "type": "InPlaceIfPossible", "paused": true }),
            json!({}),
        ),
    )
    .await;
    wait_settled(&ns, "pz", 2, 2, &controller).await;
    set_image(&ns, "pz", "nginx:1.26").await;
    merge_patch(&ns, "pz", json!({ "spec": { "replicas": 3 } })).await;
    let set = wait_settled(&ns, "pz", 3, 1, &controller).await;
    let update = set
        .status
        .and_then(|s| s.update_revision)
        .expect("update revision");
    let at_update = pods(&ns, "pz")
        .await
        .iter()
        .filter(|p| p.labels().get("controller-revision-hash") == Some(&update))
        .count();
    assert_eq!(
        at_update, 1,
        "only the new pod is at the update revision while paused"
    );
    merge_patch(
        &ns,
        "pz",
        json!({ "spec": { "updateStrategy": { "paused": false } } }),
    )
    .await;
    wait_settled(&ns, "pz", 3, 3, &controller).await;
}

#[tokio::test]
async fn killing_run_mid_rollout_and_starting_it_again_finishes_with_no_duplicates() {
    let ns = TestNamespace::create("cs-restart").await;
    let controller = RunningController::start(&ns);
    let mut set = cloneset(
        "kill",
        6,
        json!({ "type": "ReCreate", "maxUnavailable": 2 }),
        json!({}),
    );
    set.spec.template.metadata.as_mut().expect("meta").annotations = Some(BTreeMap::from([(
        "sim.kubectl-kruise.io/start-delay".to_string(),
        "1s".to_string(),
    )]));
    create(&ns, &set).await;
    wait_settled(&ns, "kill", 6, 6, &controller).await;
    let watcher = PodWatcher::start(&ns);
    tokio::time::sleep(Duration::from_millis(500)).await;
    watcher.reset_maxima();
    set_image(&ns, "kill", "nginx:1.26").await;
    let api = ns.api::<CloneSet>();
    wait_for("the rollout under way", LONG, || async {
        let s = api
            .get("kill")
            .await
            .map_err(|e| e.to_string())?
            .status
            .unwrap_or_default();
        if s.updated_replicas >= 1 {
            Ok(())
        } else {
            Err(format!("{s:?}"))
        }
    })
    .await;
    controller.kill();
    let restarted = RunningController::start(&ns);
    wait_settled(&ns, "kill", 6, 6, &restarted).await;
    assert!(
        watcher.max_pods() <= 6,
        "a pod was duplicated\n{}",
        watcher.timeline()
    );
    assert!(
        watcher.max_unavailable() <= 2,
        "maxUnavailable exceeded\n{}",
        watcher.timeline()
    );
}

#[tokio::test]
async fn the_handbook_redis_manifest_runs() {
    let ns = TestNamespace::create("cs-redis").await;
    let controller = RunningController::start(&ns);
    let docs = support::manifests::documents(std::path::Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/cloneset-redis.yaml"
    )));
    let mut sets = Vec::new();
    for doc in &docs {
        support::manifests::apply(&ns, doc)
            .await
            .unwrap_or_else(|e| panic!("apply: {e}"));
        if doc["kind"] == "CloneSet" {
            sets.push((
                doc["metadata"]["name"].as_str().expect("name").to_string(),
                doc["spec"]["replicas"].as_i64().unwrap_or(1) as i32,
            ));
        }
    }
    assert!(!sets.is_empty());
    for (name, replicas) in sets {
        wait_settled(&ns, &name, replicas, replicas, &controller).await;
    }
}

#[tokio::test]
async fn run_refuses_to_start_without_the_crds() {
    let plane = support::PrivateControlPlane::start("nocrds");
    let (code, _, err) = support::kruise(&plane.kubeconfig, &["run"]);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("clonesets.apps.kruise.io") && err.contains("kubectl kruise install"),
        "{err}"
    );
    // A controller's own CRD is not enough: a WorkloadSpread follows CloneSets (whose watch
    // would otherwise retry forever, and the controller stall without a word).
    let (code, _, err) = support::kruise(&plane.kubeconfig, &["install", "--only", "WorkloadSpread"]);
    assert_eq!(code, 0, "{err}");
    let (code, _, err) = support::kruise(
        &plane.kubeconfig,
        &["run", "--controllers", "WorkloadSpread", "--webhooks=false"],
    );
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("CRD clonesets.apps.kruise.io (needed by WorkloadSpread) is not installed"),
        "{err}"
    );
}

#[tokio::test]
async fn on_a_terminal_run_prints_a_summary_line_per_cloneset_and_stops_on_sigterm() {
    let ns = TestNamespace::create("cs-tty").await;
    let (code, _, err) = support::kruise(support::kubeconfig(), &["install"]);
    assert_eq!(code, 0, "{err}");
    create(
        &ns,
        &cloneset("tty", 2, json!({ "type": "InPlaceIfPossible" }), json!({})),
    )
    .await;
    // `script` gives run a pseudo-terminal; `timeout` sends SIGTERM after 12 s.
    let command = format!(
        "timeout -s TERM 12 {} run -n {} --kubeconfig {}",
        support::CLI,
        ns.name,
        support::kubeconfig().display()
    );
    let out = tokio::task::spawn_blocking(move || {
        std::process::Command::new("script")
            .args(["-qec", &command, "/dev/null"])
            .stdin(std::process::Stdio::null())
            .output()
            .expect("script (util-linux) runs")
    })
    .await
    .expect("join");
    let screen = String::from_utf8_lossy(&out.stdout);
    let want = format!(
        "CloneSet {}/tty: 2 desired, 2 updated (2 ready, 2 available), 2 ready of 2 total",
        ns.name
    );
    assert!(
        screen.contains(&want),
        "no summary line on the terminal:\n{screen}"
    );
    assert!(
        screen.contains("stopping: finishing in-flight writes"),
        "{screen}"
    );
    assert!(screen.contains("stopped;"), "graceful stop:\n{screen}");
}

#[tokio::test]
async fn scale_delete_removes_exactly_the_named_pods() {
    let ns = TestNamespace::create("cs-scale").await;
    let controller = RunningController::start(&ns);
    create(
        &ns,
        &cloneset(
            "sc",
            4,
            json!({ "type": "ReCreate", "maxUnavailable": 2 }),
            json!({}),
        ),
    )
    .await;
    wait_settled(&ns, "sc", 4, 4, &controller).await;
    let before: Vec<(String, String)> = pods(&ns, "sc")
        .await
        .iter()
        .map(|p| (p.name_any(), p.uid().unwrap_or_default()))
        .collect();
    let kube = |args: &[&str]| kruise_in(&ns, args);
    let doomed = format!("{},{}", before[0].0, before[2].0);
    // No terminal and no --yes: refused, nothing written.
    let (code, _, err) = kube(&["scaledown", "cloneset/sc", "--pods", &before[1].0]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("--yes"), "{err}");
    // A pod of someone else: refused, nothing written.
    let (code, _, err) = kube(&["scale", "cloneset/sc", "--delete", "not-a-pod", "--yes"]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("not-a-pod"), "{err}");
    // Kinds that cannot delete a chosen pod refuse --delete.
    let (code, _, err) = kube(&["scale", "deploy/whatever", "--delete", &before[0].0]);
    assert_eq!(code, 2, "{err}");
    let (code, out, err) = kube(&["scale", "cloneset/sc", "--delete", &doomed, "--yes"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out, "clonesets.apps.kruise.io/sc scaled\n");
    assert!(err.contains("replicas 4 -> 2"), "{err}");
    wait_settled(&ns, "sc", 2, 2, &controller).await;
    let after: Vec<(String, String)> = pods(&ns, "sc")
        .await
        .iter()
        .map(|p| (p.name_any(), p.uid().unwrap_or_default()))
        .collect();
    assert_eq!(
        after,
        vec![before[1].clone(), before[3].clone()],
        "exactly the named pods went"
    );
}

#[tokio::test]
async fn set_partition_shows_the_number_and_the_pods_that_update_next() {
    let ns = TestNamespace::create("cs-setpart").await;
    let controller = RunningController::start(&ns);
    let strategy = json!({ "type": "InPlaceIfPossible", "partition": 4, "maxUnavailable": 1 });
    create(&ns, &cloneset("sp", 4, strategy, json!({}))).await;
    wait_settled(&ns, "sp", 4, 4, &controller).await;
    set_image(&ns, "sp", "nginx:1.26").await;
    wait_settled(&ns, "sp", 4, 0, &controller).await;
    let kube = |args: &[&str]| kruise_in(&ns, args);
    let (code, _, err) = kube(&["set", "partition", "cloneset/sp", "50%"]);
    assert_eq!(
        code, 2,
        "two pods at once is more than one batch (maxUnavailable 1): asks\n{err}"
    );
    let (code, _, err) = kube(&["set", "partition", "deploy/front", "1"]);
    assert_eq!(code, 2, "{err}");
    let (code, out, err) = kube(&["set", "partition", "cloneset/sp", "50%", "--yes"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out, "clonesets.apps.kruise.io/sp partitioned\n");
    assert!(err.contains("partition 2 (50%) of 4 replicas"), "{err}");
    let named: Vec<String> = err
        .lines()
        .find_map(|l| l.strip_prefix("updates next, in this order: "))
        .expect("the pods that update next")
        .split(", ")
        .map(String::from)
        .collect();
    assert_eq!(named.len(), 2, "{err}");
    let set = wait_settled(&ns, "sp", 4, 2, &controller).await;
    let update = set
        .status
        .and_then(|s| s.update_revision)
        .expect("update revision");
    let mut updated: Vec<String> = pods(&ns, "sp")
        .await
        .iter()
        .filter(|p| p.labels().get("controller-revision-hash") == Some(&update))
        .map(|p| p.name_any())
        .collect();
    updated.sort();
    let mut named = named;
    named.sort();
    assert_eq!(updated, named, "the pods shown are the pods updated");
}

#[tokio::test]
async fn rollout_restart_recreates_every_pod_even_under_in_place_policies() {
    let ns = TestNamespace::create("cs-restart-verb").await;
    let controller = RunningController::start(&ns);
    create(
        &ns,
        &cloneset(
            "rs",
            3,
            json!({ "type": "InPlaceIfPossible", "maxUnavailable": 1 }),
            json!({}),
        ),
    )
    .await;
    wait_settled(&ns, "rs", 3, 3, &controller).await;
    let before: Vec<String> = pods(&ns, "rs").await.iter().filter_map(|p| p.uid()).collect();
    let kube = |args: &[&str]| kruise_in(&ns, args);
    let (code, _, err) = kube(&["rollout", "restart", "cloneset/rs"]);
    assert_eq!(code, 2, "no terminal, no --yes: refused\n{err}");
    let (code, out, _) = kube(&["rollout", "restart", "cloneset/rs", "--dry-run=client"]);
    assert_eq!(code, 0);
    assert!(out.contains("kubectl.kubernetes.io/restartedAt"), "{out}");
    let (code, out, err) = kube(&["rollout", "restart", "cloneset/rs", "--yes"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out, "clonesets.apps.kruise.io/rs restarted\n");
    assert!(err.contains("all 3 pods will be recreated"), "{err}");
    wait_settled(&ns, "rs", 3, 3, &controller).await;
    let after: Vec<String> = pods(&ns, "rs").await.iter().filter_map(|p| p.uid()).collect();
    assert!(
        after.iter().all(|u| !before.contains(u)),
        "every pod was recreated"
    );
}

#[tokio::test]
async fn set_image_updates_a_cloneset_in_place_and_names_unknown_containers() {
    let ns = TestNamespace::create("cs-setimage").await;
    let controller = RunningController::start(&ns);
    let mut set = cloneset(
        "si",
        2,
        json!({ "type": "InPlaceIfPossible", "maxUnavailable": 1 }),
        json!({}),
    );
    // Fields beside the image must survive the patch (a partial list would drop them).
    set.spec.template.spec.as_mut().expect("spec").containers[0].ports = Some(vec![support::object(
        json!({ "name": "http", "containerPort": 80 }),
    )]);
    create(&ns, &set).await;
    wait_settled(&ns, "si", 2, 2, &controller).await;
    let before: Vec<String> = pods(&ns, "si").await.iter().filter_map(|p| p.uid()).collect();
    let kube = |args: &[&str]| kruise_in(&ns, args);
    let (code, _, err) = kube(&["set", "image", "cloneset/si", "web=nginx:1.26"]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("no container \"web\" (containers: app)"), "{err}");
    let (code, out, err) = kube(&["set", "image", "cloneset/si", "app=nginx:1.26"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out, "clonesets.apps.kruise.io/si image updated\n");
    wait_settled(&ns, "si", 2, 2, &controller).await;
    let live = pods(&ns, "si").await;
    let after: Vec<String> = live.iter().filter_map(|p| p.uid()).collect();
    assert_eq!(before, after, "updated in place");
    let container = &live[0].spec.as_ref().expect("spec").containers[0];
    assert_eq!(container.image.as_deref(), Some("nginx:1.26"));
    let (code, out, _) = kube(&["set", "image", "cloneset/si", "app=nginx:1.26"]);
    assert_eq!(
        (code, out.as_str()),
        (0, "clonesets.apps.kruise.io/si image already up to date\n")
    );
}

#[tokio::test]
async fn rollout_history_lists_revisions_with_images_and_change_causes() {
    let ns = TestNamespace::create("cs-history").await;
    let controller = RunningController::start(&ns);
    let mut set = cloneset("hi", 1, json!({ "type": "InPlaceIfPossible" }), json!({}));
    set.metadata.annotations = Some(BTreeMap::from([(
        "kubernetes.io/change-cause".to_string(),
        "first".to_string(),
    )]));
    create(&ns, &set).await;
    wait_settled(&ns, "hi", 1, 1, &controller).await;
    merge_patch(
        &ns,
        "hi",
        json!({ "metadata": { "annotations": { "kubernetes.io/change-cause": "to 1.26" } } }),
    )
    .await;
    set_image(&ns, "hi", "nginx:1.26").await;
    wait_settled(&ns, "hi", 1, 1, &controller).await;
    let kube = |args: &[&str]| kruise_in(&ns, args);
    let (code, out, err) = kube(&["rollout", "history", "cloneset/hi"]);
    assert_eq!(code, 0, "{err}");
    let rows: Vec<&str> = out.lines().skip(2).collect();
    assert_eq!(rows.len(), 2, "{out}");
    assert!(
        rows[0].starts_with("1 ") && rows[0].contains("app=nginx:1.25") && rows[0].ends_with("first"),
        "{out}"
    );
    assert!(
        rows[1].starts_with("2 ") && rows[1].contains("app=nginx:1.26") && rows[1].ends_with("to 1.26"),
        "{out}"
    );
    let (code, out, _) = kube(&["rollout", "history", "cloneset/hi", "--revision", "1"]);
    assert_eq!(code, 0);
    assert!(out.contains("image: nginx:1.25"), "{out}");
    let (code, _, err) = kube(&["rollout", "history", "cloneset/hi", "--revision", "9"]);
    assert_eq!(code, 1);
    assert!(err.contains("no revision 9 (revisions: 1, 2)"), "{err}");
}

#[tokio::test]
async fn rollout_undo_previews_each_pod_then_goes_back_in_place() {
    let ns = TestNamespace::create("cs-undo").await;
    let controller = RunningController::start(&ns);
    create(
        &ns,
        &cloneset(
            "un",
            2,
            json!({ "type": "InPlaceIfPossible", "maxUnavailable": 1 }),
            json!({}),
        ),
    )
    .await;
    wait_settled(&ns, "un", 2, 2, &controller).await;
    set_image(&ns, "un", "nginx:1.26").await;
    wait_settled(&ns, "un", 2, 2, &controller).await;
    let before: Vec<String> = pods(&ns, "un").await.iter().filter_map(|p| p.uid()).collect();
    let kube = |args: &[&str]| kruise_in(&ns, args);
    let (code, _, err) = kube(&["rollout", "undo", "cloneset/un"]);
    assert_eq!(code, 2, "no terminal, no --yes: refused after the preview\n{err}");
    assert!(err.contains("back to revision 1"), "{err}");
    assert_eq!(err.matches("in place (app=nginx:1.25)").count(), 2, "{err}");
    let (code, out, err) = kube(&["rollout", "undo", "cloneset/un", "--yes"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out, "clonesets.apps.kruise.io/un rolled back to revision 1\n");
    wait_settled(&ns, "un", 2, 2, &controller).await;
    let live = pods(&ns, "un").await;
    let after: Vec<String> = live.iter().filter_map(|p| p.uid()).collect();
    assert_eq!(before, after, "back in place");
    assert!(
        live.iter()
            .all(|p| p.spec.as_ref().expect("spec").containers[0].image.as_deref() == Some("nginx:1.25"))
    );
    let (code, out, _) = kube(&["rollout", "history", "cloneset/un"]);
    assert_eq!(code, 0);
    let newest = out.lines().last().unwrap_or_default().to_string();
    let n = newest.split_whitespace().next().unwrap_or_default().to_string();
    let (code, out, _) = kube(&["rollout", "undo", "cloneset/un", "--to-revision", &n, "--yes"]);
    assert_eq!(code, 0);
    assert!(out.contains("already at revision"), "{out}");
}

#[tokio::test]
async fn rollout_status_waits_for_completion_and_exits_by_outcome() {
    let ns = TestNamespace::create("cs-status").await;
    let controller = RunningController::start(&ns);
    let mut set = cloneset(
        "st",
        3,
        json!({ "type": "InPlaceIfPossible", "maxUnavailable": 1 }),
        json!({}),
    );
    set.spec.template.metadata.as_mut().expect("meta").annotations = Some(BTreeMap::from([(
        "sim.kubectl-kruise.io/image-pull-delay".to_string(),
        "1s".to_string(),
    )]));
    create(&ns, &set).await;
    wait_settled(&ns, "st", 3, 3, &controller).await;
    let name = ns.name.clone();
    let kube = move |args: Vec<String>| {
        let name = name.clone();
        async move {
            tokio::task::spawn_blocking(move || {
                let mut all: Vec<&str> = args.iter().map(String::as_str).collect();
                all.extend_from_slice(&["-n", &name]);
                support::kruise(support::kubeconfig(), &all)
            })
            .await
            .expect("join")
        }
    };
    let s = |v: &[&str]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>();
    set_image(&ns, "st", "nginx:1.26").await;
    let (code, out, err) = kube(s(&[
        "rollout",
        "status",
        "cloneset/st",
        "--watch=false",
        "--exit-status",
    ]))
    .await;
    assert_eq!(code, 6, "a progressing snapshot\n{out}{err}");
    let (code, out, err) = kube(s(&["rollout", "status", "cloneset/st", "--timeout", "60s"])).await;
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.lines().count() >= 2, "one line per change:\n{out}");
    assert!(
        out.lines()
            .last()
            .unwrap_or_default()
            .contains("cloneset/st successfully rolled out"),
        "{out}"
    );
    merge_patch(
        &ns,
        "st",
        json!({ "spec": { "updateStrategy": { "paused": true } } }),
    )
    .await;
    set_image(&ns, "st", "nginx:1.27").await;
    let (code, out, _) = kube(s(&["rollout", "status", "cloneset/st", "--fail-on-pause"])).await;
    assert_eq!(code, 5, "{out}");
    assert!(
        out.contains("resume with: kubectl kruise rollout resume cloneset/st"),
        "{out}"
    );
    let (code, _, err) = kube(s(&["rollout", "status", "cloneset/st", "--timeout", "1s"])).await;
    assert_eq!(code, 4, "{err}");
    let (code, _, err) = kube(s(&["rollout", "status", "cloneset/gone"])).await;
    assert_eq!(code, 1, "{err}");
}

/// A pod create the API server refuses (a container name the pod API does not allow, which
/// the CloneSet's schemaless template lets through) shows as the round's `FailedScale`
/// condition naming the pod and the field, as upstream records it; once the template is
/// fixed and the pods are made, the condition goes.
#[tokio::test]
async fn a_refused_create_is_the_failed_scale_condition_until_a_round_succeeds() {
    let ns = TestNamespace::create("cs-failed-scale").await;
    let controller = RunningController::start(&ns);
    let mut set = cloneset("fs", 2, json!({ "type": "ReCreate" }), json!({}));
    if let Some(spec) = set.spec.template.spec.as_mut() {
        spec.containers[0].name = "Not_A_DNS_Label".into();
    }
    create(&ns, &set).await;
    let api = ns.api::<CloneSet>();
    let condition = |set: &CloneSet| {
        set.status
            .iter()
            .flat_map(|s| s.conditions.iter().flatten())
            .find(|c| c.type_ == "FailedScale")
            .cloned()
    };
    let failed = wait_for("the FailedScale condition", Duration::from_secs(60), || async {
        let set = api.get("fs").await.map_err(|e| e.to_string())?;
        condition(&set).ok_or_else(|| format!("{:?}\n{}", set.status, controller.log_tail()))
    })
    .await;
    let message = failed.message.unwrap_or_default();
    assert!(
        message.contains("creating pod fs-") && message.contains("spec.containers[0].name"),
        "{message}"
    );
    edit_container(&ns, "fs", |c| c["name"] = json!("app")).await;
    wait_settled(&ns, "fs", 2, 2, &controller).await;
    wait_for("the condition gone", Duration::from_secs(30), || async {
        let set = api.get("fs").await.map_err(|e| e.to_string())?;
        match condition(&set) {
            None => Ok(()),
            Some(c) => Err(format!("{c:?}")),
        }
    })
    .await;
}

#[tokio::test]
async fn a_v1beta1_cloneset_rolls_out_in_place_and_the_cli_writes_its_nested_knobs() {
    let ns = TestNamespace::create("cs-beta").await;
    let doc = support::manifests::documents(std::path::Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/cloneset-v1beta1.yaml"
    )))
    .pop()
    .expect("the CloneSet");
    // The run installs the CRDs first.
    let controller = RunningController::start(&ns);
    let beta = support::kruise_api(&ns, "CloneSet", "v1beta1");
    beta.create(&PostParams::default(), &support::object(doc))
        .await
        .expect("a v1beta1 manifest applies unchanged");
    wait_settled(&ns, "sample-beta", 3, 3, &controller).await;
    let before = views(&pods(&ns, "sample-beta").await);

    let target = "clone/sample-beta".to_string();
    let run = |args: &[&str]| {
        let mut all = args.to_vec();
        all.extend(["-n", ns.name.as_str()]);
        support::kruise(&ns.kubeconfig, &all)
    };
    let (code, _, err) = run(&["rollout", "pause", &target]);
    assert_eq!(code, 0, "{err}");
    let strategy = |o: &kube::api::DynamicObject| o.data["spec"]["updateStrategy"].clone();
    let paused = beta.get("sample-beta").await.expect("read");
    assert_eq!(
        strategy(&paused)["rollingUpdate"]["paused"],
        true,
        "{}",
        strategy(&paused)
    );
    assert!(strategy(&paused).get("paused").is_none(), "no flat twin written");
    let (code, _, err) = run(&["set", "partition", &target, "1", "--yes"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        strategy(&beta.get("sample-beta").await.expect("read"))["rollingUpdate"]["partition"],
        1
    );
    let (code, _, err) = run(&["rollout", "resume", &target]);
    assert_eq!(code, 0, "{err}");

    set_image(&ns, "sample-beta", "nginx:1.27").await;
    wait_settled(&ns, "sample-beta", 3, 2, &controller).await;
    merge_patch(
        &ns,
        "sample-beta",
        json!({ "spec": { "updateStrategy": { "rollingUpdate": { "partition": 0 } } } }),
    )
    .await;
    wait_settled(&ns, "sample-beta", 3, 3, &controller).await;
    let after = views(&pods(&ns, "sample-beta").await);
    for (pod, b) in &before {
        let a = after.get(pod).unwrap_or_else(|| panic!("{pod} kept its name"));
        assert_eq!(&a.uid, &b.uid, "{pod} updated in place, not recreated");
        assert_eq!(a.image, "nginx:1.27");
    }
    // Read in both versions: the same object.
    let alpha = support::kruise_api(&ns, "CloneSet", "v1alpha1");
    let a = alpha.get("sample-beta").await.expect("read as v1alpha1");
    let b = beta.get("sample-beta").await.expect("read as v1beta1");
    assert_eq!(a.data["spec"], b.data["spec"]);
    assert_eq!(controller.stop(), 0);
}

/// As upstream (its e2e "creates with unschedulable scheduler"): a pod is created
/// `PreparingNormal` and stays so while no node takes it; a scheduled pod turns `Normal`.
#[tokio::test]
async fn a_new_pod_is_preparing_normal_until_it_is_scheduled() {
    let ns = TestNamespace::create("cs-preparing").await;
    let controller = RunningController::start(&ns);
    let state = |pod: &Pod| {
        pod.labels()
            .get("lifecycle.apps.kruise.io/state")
            .cloned()
            .unwrap_or_default()
    };
    let mut pending = cloneset("pending", 1, json!({ "type": "ReCreate" }), json!({}));
    if let Some(spec) = pending.spec.template.spec.as_mut() {
        spec.scheduler_name = Some("unschedulable".into());
    }
    create(&ns, &pending).await;
    let pod = wait_for("the pod", Duration::from_secs(60), || async {
        pods(&ns, "pending")
            .await
            .into_iter()
            .next()
            .ok_or_else(|| controller.log_tail())
    })
    .await;
    assert_eq!(state(&pod), "PreparingNormal");
    for _ in 0..5 {
        tokio::time::sleep(Duration::from_secs(1)).await;
        for pod in pods(&ns, "pending").await {
            assert_eq!(state(&pod), "PreparingNormal", "{} has no node", pod.name_any());
        }
    }
    create(
        &ns,
        &cloneset("placed", 2, json!({ "type": "ReCreate" }), json!({})),
    )
    .await;
    wait_settled(&ns, "placed", 2, 2, &controller).await;
    for pod in pods(&ns, "placed").await {
        assert_eq!(state(&pod), "Normal", "{} is scheduled", pod.name_any());
    }
    assert_eq!(controller.stop(), 0);
}

#[tokio::test]
async fn containers_with_launch_priority_update_in_place_highest_first_each_after_the_last_is_ready() {
    let ns = TestNamespace::create("cs-priority").await;
    let controller = RunningController::start(&ns);
    let mut set = cloneset("prio", 1, json!({ "type": "InPlaceIfPossible" }), json!({}));
    if let Some(spec) = set.spec.template.spec.as_mut() {
        spec.containers.push(support::object(json!({
            "name": "redis",
            "image": "redis:7",
            "env": [{ "name": "KRUISE_CONTAINER_PRIORITY", "value": "10" }],
            // The simulated kubelet reports it ready 2-3 s after it starts.
            "lifecycle": { "postStart": { "exec": { "command": ["sleep", "2"] } } },
        })));
    }
    create(&ns, &set).await;
    wait_settled(&ns, "prio", 1, 1, &controller).await;
    let set = ns.api::<CloneSet>().get("prio").await.expect("get CloneSet");
    let mut containers =
        serde_json::to_value(&set.spec.template.spec.expect("spec").containers).expect("json");
    containers[0]["image"] = json!("nginx:1.26");
    containers[1]["image"] = json!("redis:8");
    merge_patch(
        &ns,
        "prio",
        json!({ "spec": { "template": { "spec": { "containers": containers } } } }),
    )
    .await;
    wait_settled(&ns, "prio", 1, 1, &controller).await;

    let pod = pods(&ns, "prio").await.into_iter().next().expect("the pod");
    let state: serde_json::Value = serde_json::from_str(
        pod.annotations()
            .get("apps.kruise.io/inplace-update-state")
            .expect("in-place state"),
    )
    .expect("state json");
    let batches: Vec<&serde_json::Value> = state["containerBatchesRecord"]
        .as_array()
        .expect("batches")
        .iter()
        .map(|b| &b["containers"])
        .collect();
    assert_eq!(batches, vec![&json!(["redis"]), &json!(["app"])], "{state}");
    let status = |name: &str| {
        pod.status
            .as_ref()
            .and_then(|s| s.container_statuses.as_ref())
            .and_then(|l| l.iter().find(|c| c.name == name).cloned())
            .expect("container status")
    };
    let (nginx, redis) = (status("app"), status("redis"));
    assert_eq!((nginx.restart_count, redis.restart_count), (1, 1));
    let redis_started = redis
        .state
        .and_then(|s| s.running)
        .and_then(|r| r.started_at)
        .expect("redis running");
    let nginx_stopped = nginx
        .last_state
        .and_then(|s| s.terminated)
        .and_then(|t| t.finished_at)
        .expect("nginx restarted");
    assert!(
        nginx_stopped.0 > redis_started.0 + Duration::from_secs(2),
        "nginx stopped at {} while redis (ready 2 s after its start at {}) was not ready yet",
        nginx_stopped.0,
        redis_started.0
    );
    assert_eq!(controller.stop(), 0);
}

#[tokio::test]
async fn with_openkruises_partition_rollback_gate_a_grown_partition_rolls_pods_back_in_place() {
    let ns = TestNamespace::create("cs-rollback").await;
    let controller =
        RunningController::start_with(&ns, &["--feature-gates", "CloneSetPartitionRollback=true"]);
    let set = cloneset(
        "back",
        4,
        json!({ "type": "InPlaceIfPossible", "partition": 2, "maxUnavailable": 1 }),
        json!({}),
    );
    create(&ns, &set).await;
    wait_settled(&ns, "back", 4, 4, &controller).await;
    let before = views(&pods(&ns, "back").await);
    set_image(&ns, "back", "nginx:1.26").await;
    wait_settled(&ns, "back", 4, 2, &controller).await;
    merge_patch(
        &ns,
        "back",
        json!({ "spec": { "updateStrategy": { "partition": 4 } } }),
    )
    .await;
    let images = || async {
        let list = pods(&ns, "back").await;
        list.iter().map(|p| PodView::of(p).image).collect::<Vec<_>>()
    };
    wait_for("every pod back on nginx:1.25", LONG, || async {
        let now = images().await;
        if now.iter().all(|i| i == "nginx:1.25") && now.len() == 4 {
            Ok(())
        } else {
            Err(format!("{now:?}\n{}", controller.log_tail()))
        }
    })
    .await;
    wait_settled(&ns, "back", 4, 0, &controller).await;
    let after = views(&pods(&ns, "back").await);
    for (name, b) in &before {
        assert_eq!(
            after.get(name).map(|a| &a.uid),
            Some(&b.uid),
            "{name} kept (rolled back in place)"
        );
    }
    assert_eq!(controller.stop(), 0);
}

#[test]
fn an_unknown_feature_gate_is_refused_naming_it_and_openkruises_gates() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_kubectl-kruise"))
        .args(["run", "--feature-gates", "CloneSetRollback=true"])
        .output()
        .expect("runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("unknown feature gate CloneSetRollback")
            && stderr.contains("CloneSetPartitionRollback"),
        "{stderr}"
    );
}
