//! `diff -f`: what applying a manifest would do, checked against what the controller then
//! does, on the examples of the kinds that update pods through a partition.
//!
//! - CloneSet (the guestbook example: 5 pods, partition 2, maxUnavailable 2, in place), v1
//!   to v2: the diff names the three pods that update, in two batches of the budget, and
//!   the two kept; an independent watcher then sees the same pods go into their update in
//!   that order and batches, and the kept ones stay. Then replicas 3 with partition 0: the
//!   diff names the two old pods the scale-in deletes, and they are the ones that go.
//! - Advanced StatefulSet (its example: 4 pods, partition 1, maxUnavailable 2): ordinals 3
//!   and 2, then 1, ordinal 0 kept; then replicas 2 deletes ordinals 3 and 2.
//! - Advanced DaemonSet (its example, on three nodes of the test's own): one node at a
//!   time, named with its node, one node kept by the partition.
//! - SidecarSet (its example, scoped to the test's namespace): the three injected pods'
//!   sidecars upgraded in place one at a time (maxUnavailable 1), in the diff's order.
mod support;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::time::Duration;

use k8s_openapi::api::core::v1::Pod;
use kube::ResourceExt;
use kube::api::ListParams;
use serde_json::json;
use support::clonesets::wait_settled;
use support::controller::{PodWatcher, RunningController};
use support::diffs::{
    apply_all, assert_batches_seen, assert_batches_seen_by, diff, edited, said, wait_images,
};
use support::manifests::documents;
use support::nodes::TestNodes;
use support::{TestNamespace, kruise_in, wait_for};

fn example(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("examples").join(name)
}

/// The live pods with `label`, not terminating.
async fn live_pods(ns: &TestNamespace, label: &str) -> Vec<Pod> {
    let mut pods = ns
        .api::<Pod>()
        .list(&ListParams::default().labels(label))
        .await
        .expect("pods")
        .items;
    pods.retain(|p| p.metadata.deletion_timestamp.is_none());
    pods
}

/// (name, UID) of the live pods with `label`, in name order.
async fn uids(ns: &TestNamespace, label: &str) -> Vec<(String, String)> {
    live_pods(ns, label)
        .await
        .iter()
        .map(|p| (p.name_any(), p.uid().unwrap_or_default()))
        .collect()
}

/// Waits until the pods with `label` are exactly `names`, all Ready, running `image`.
async fn wait_pods(ns: &TestNamespace, label: &str, names: &BTreeSet<String>, image: &str) -> Vec<Pod> {
    let what = format!("pods {label} = {names:?}, ready on {image}");
    wait_for(&what, Duration::from_secs(120), || async {
        let pods = live_pods(ns, label).await;
        let have: BTreeSet<String> = pods.iter().map(|p| p.name_any()).collect();
        let views: Vec<_> = pods.iter().map(support::controller::PodView::of).collect();
        let settled = views.iter().all(|v| v.ready && v.image == image);
        match have == *names && settled {
            true => Ok(pods),
            false => Err(format!("{have:?} {views:?}")),
        }
    })
    .await
}

fn revision_of(pod: &Pod) -> String {
    pod.labels()
        .get("controller-revision-hash")
        .cloned()
        .unwrap_or_default()
}

#[tokio::test]
async fn a_cloneset_diff_names_the_pods_its_controller_updates_and_deletes() {
    let ns = TestNamespace::create("diff").await;
    let controller = RunningController::start(&ns);
    let path = example("01-cloneset-guestbook-inplace.yaml");
    let docs = documents(&path);
    apply_all(&ns, &docs).await;
    let name = "guestbook-inplace";
    wait_settled(&ns, name, 5, 5, &controller).await;
    // Applied again now that the run's defaulting webhook is surely registered (the first
    // apply may have come before it): a diff of the same manifest is then no change.
    apply_all(&ns, &docs).await;
    let (code, out, err) = kruise_in(&ns, &["diff", "-f", &path.display().to_string()]).await;
    assert_eq!(
        (code, out.trim()),
        (0, "clonesets.apps.kruise.io/guestbook-inplace: no change"),
        "{err}"
    );
    assert!(
        err.contains("Service/guestbook-inplace-svc: not a workload"),
        "{err}"
    );

    let v2 = edited(&docs, "CloneSet", |doc| {
        doc["spec"]["template"]["spec"]["containers"][0]["image"] = json!("openkruise/guestbook:v2");
    });
    let (code, out) = diff(&ns, &v2).await;
    assert_eq!(code, 1, "a change is exit 1");
    let changed = |sign: char, text: &str| out.lines().any(|l| l.starts_with(sign) && l.contains(text));
    assert!(
        changed('-', "image: openkruise/guestbook:v1") && changed('+', "image: openkruise/guestbook:v2"),
        "{out}"
    );
    let plan = said(&out);
    let sizes: Vec<usize> = plan.batches.iter().map(BTreeSet::len).collect();
    assert_eq!((sizes, plan.kept.len()), (vec![2, 1], 2), "{out}");
    assert_eq!(
        plan.outcomes,
        BTreeSet::from(["in place (guestbook=openkruise/guestbook:v2)".to_string()]),
        "{out}"
    );

    let watcher = PodWatcher::start(&ns);
    apply_all(&ns, &v2).await;
    let set = wait_settled(&ns, name, 5, 3, &controller).await;
    assert_batches_seen(&plan, &watcher);
    let update = set
        .status
        .and_then(|s| s.update_revision)
        .expect("update revision");
    let label = "app.kubernetes.io/name=guestbook-inplace";
    for pod in live_pods(&ns, label).await {
        let pod_name = pod.name_any();
        assert_eq!(
            revision_of(&pod) == update,
            !plan.kept.contains(&pod_name),
            "{pod_name}"
        );
    }

    // Scale in to 3 with the partition gone: the two old pods go, the updated ones stay.
    let v3 = edited(&v2, "CloneSet", |doc| {
        doc["spec"]["replicas"] = json!(3);
        doc["spec"]["updateStrategy"]["partition"] = json!(0);
    });
    let (code, out) = diff(&ns, &v3).await;
    assert_eq!(code, 1);
    let shrink = said(&out);
    assert!(shrink.batches.is_empty(), "{out}");
    assert_eq!((&shrink.deleted, shrink.updated.len()), (&plan.kept, 3), "{out}");
    apply_all(&ns, &v3).await;
    wait_settled(&ns, name, 3, 3, &controller).await;
    let left: BTreeSet<String> = live_pods(&ns, label).await.iter().map(|p| p.name_any()).collect();
    assert_eq!(left, shrink.updated);
    assert_eq!(controller.stop(), 0);
}

#[tokio::test]
async fn an_advanced_statefulset_diff_names_its_ordinals_in_the_controllers_batches() {
    let ns = TestNamespace::create("diff-asts").await;
    let controller = RunningController::start(&ns);
    let docs = documents(&example("advanced-statefulset.yaml"));
    apply_all(&ns, &docs).await;
    let label = "app=web-asts";
    let all: BTreeSet<String> = (0..4).map(|i| format!("web-asts-{i}")).collect();
    wait_pods(&ns, label, &all, "nginx:1.25").await;

    let v2 = edited(&docs, "StatefulSet", |doc| {
        doc["spec"]["template"]["spec"]["containers"][0]["image"] = json!("nginx:1.26");
    });
    let (code, out) = diff(&ns, &v2).await;
    assert_eq!(code, 1);
    let plan = said(&out);
    let set = |names: &[&str]| -> BTreeSet<String> { names.iter().map(|n| n.to_string()).collect() };
    assert_eq!(
        (&plan.batches, &plan.kept),
        (
            &vec![set(&["web-asts-3", "web-asts-2"]), set(&["web-asts-1"])],
            &set(&["web-asts-0"])
        ),
        "{out}"
    );
    assert_eq!(plan.outcomes, set(&["in place (nginx=nginx:1.26)"]), "{out}");
    let before = uids(&ns, label).await;

    let watcher = PodWatcher::start(&ns);
    apply_all(&ns, &v2).await;
    let image_of = |name: &str| match name {
        "web-asts-0" => "nginx:1.25",
        _ => "nginx:1.26",
    };
    wait_images(&ns, label, 4, image_of, || controller.log_tail()).await;
    assert_batches_seen(&plan, &watcher);
    let after = uids(&ns, label).await;
    assert_eq!(after, before, "in place: every pod kept");

    let v3 = edited(&v2, "StatefulSet", |doc| doc["spec"]["replicas"] = json!(2));
    let (code, out) = diff(&ns, &v3).await;
    assert_eq!(code, 1);
    let shrink = said(&out);
    assert!(shrink.batches.is_empty(), "{out}");
    assert_eq!(shrink.deleted, set(&["web-asts-3", "web-asts-2"]), "{out}");
    assert!(
        out.contains("scale-in order (replicas 4 -> 2): web-asts-3, web-asts-2"),
        "highest ordinal first: {out}"
    );
    apply_all(&ns, &v3).await;
    let what = "web-asts-0 and -1 only";
    wait_for(what, Duration::from_secs(90), || async {
        let have: BTreeSet<String> = live_pods(&ns, label).await.iter().map(|p| p.name_any()).collect();
        match have == set(&["web-asts-0", "web-asts-1"]) {
            true => Ok(()),
            false => Err(format!("{have:?}")),
        }
    })
    .await;
    assert_eq!(controller.stop(), 0);
}

#[tokio::test]
async fn an_advanced_daemonset_diff_names_its_nodes_one_batch_at_a_time() {
    let ns = TestNamespace::create("diff-ads").await;
    let nodes = TestNodes::create(&ns, 3).await;
    let controller = RunningController::start(&ns);
    // The example, placed on this test's own nodes (other tests add and remove theirs).
    let pinned = edited(
        &documents(&example("advanced-daemonset.yaml")),
        "DaemonSet",
        |doc| {
            let spec = &mut doc["spec"]["template"]["spec"];
            spec["nodeSelector"] = json!({ "ds-test": ns.name });
            spec["tolerations"] = json!([support::nodes::toleration()]);
        },
    );
    apply_all(&ns, &pinned).await;
    let label = "app=node-agent";
    let what = "a ready pod on each of the 3 nodes";
    let first: BTreeSet<String> = wait_for(what, Duration::from_secs(120), || async {
        let pods = live_pods(&ns, label).await;
        let ready = pods
            .iter()
            .filter(|p| support::controller::PodView::of(p).ready)
            .count();
        match (pods.len(), ready) {
            (3, 3) => Ok(pods.iter().map(|p| p.name_any()).collect()),
            _ => Err(format!(
                "{} pods, {ready} ready\n{}",
                pods.len(),
                controller.log_tail()
            )),
        }
    })
    .await;
    // Again, now that the run's defaulting webhook is surely registered: the diff below is
    // then the image alone.
    apply_all(&ns, &pinned).await;
    // Available (minReadySeconds 5) before the update: the budget then lets one node
    // through at a time, as the diff's batches say (a pod already unavailable is updated
    // at once, outside the budget, as upstream does).
    let api = support::kruise_api(&ns, "DaemonSet", "v1alpha1");
    wait_for("3 nodes available", Duration::from_secs(60), || async {
        let set = api.get("node-agent").await.map_err(|e| e.to_string())?;
        match set.data["status"]["numberAvailable"] == 3 {
            true => Ok(()),
            false => Err(set.data["status"].to_string()),
        }
    })
    .await;

    let v2 = edited(&pinned, "DaemonSet", |doc| {
        doc["spec"]["template"]["spec"]["containers"][0]["image"] = json!("busybox:1.37");
    });
    let (code, out) = diff(&ns, &v2).await;
    assert_eq!(code, 1);
    let plan = said(&out);
    let sizes: Vec<usize> = plan.batches.iter().map(BTreeSet::len).collect();
    assert_eq!((sizes, plan.kept.len()), (vec![1, 1], 1), "{out}");
    let node_names: BTreeSet<String> = (0..3).map(|i| nodes.name(i)).collect();
    assert!(
        plan.nodes.is_subset(&node_names) && plan.nodes.len() == 2,
        "{out}"
    );
    assert_eq!(
        plan.outcomes,
        BTreeSet::from(["in place (agent=busybox:1.37)".to_string()]),
        "{out}"
    );

    let watcher = PodWatcher::start(&ns);
    apply_all(&ns, &v2).await;
    let updated: BTreeSet<String> = plan.batches.iter().flatten().cloned().collect();
    let image_of = |name: &str| match updated.contains(name) {
        true => "busybox:1.37",
        false => "busybox:1.36",
    };
    wait_images(&ns, label, 3, image_of, || {
        format!("{}\n{}", watcher.timeline(), controller.log_tail())
    })
    .await;
    assert_batches_seen(&plan, &watcher);
    let left: BTreeSet<String> = live_pods(&ns, label).await.iter().map(|p| p.name_any()).collect();
    assert_eq!(left, first, "in place: the same pods");
    assert_eq!(controller.stop(), 0);
    nodes.remove_all(3).await;
}

#[tokio::test]
async fn a_sidecarset_diff_names_the_injected_pods_its_upgrade_takes_in_order() {
    let ns = TestNamespace::create("diff-sidecar").await;
    let controller = RunningController::start(&ns);
    support::webhooks::answering(&ns).await;
    // The example (cluster-scoped) under a name of its own, scoped to this namespace.
    let name = format!("{}-log-agent", ns.name);
    let docs = edited(&documents(&example("sidecarset.yaml")), "SidecarSet", |doc| {
        doc["metadata"]["name"] = json!(name);
        doc["spec"]["namespace"] = json!(ns.name);
    });
    apply_all(&ns, &docs).await;
    let sets = support::cluster_api(&ns, "apps.kruise.io/v1alpha1", "SidecarSet", "sidecarsets");
    let status = |want: i64| {
        let (sets, name) = (sets.clone(), name.clone());
        async move {
            wait_for(
                &format!("{want} pods matched, updated, ready"),
                Duration::from_secs(90),
                || async {
                    let set = sets.get(&name).await.map_err(|e| e.to_string())?;
                    let s = &set.data["status"];
                    let all = ["matchedPods", "updatedPods", "readyPods"]
                        .iter()
                        .all(|f| s[*f] == want);
                    match all && s["observedGeneration"] == json!(set.metadata.generation) {
                        true => Ok(()),
                        false => Err(s.to_string()),
                    }
                },
            )
            .await
        }
    };
    status(0).await;
    let label = "sidecar.example.com/log-agent=enabled";
    for i in 0..3 {
        let pod: k8s_openapi::api::core::v1::Pod = support::object(
            json!({ "apiVersion": "v1", "kind": "Pod",
            "metadata": { "name": format!("app-{i}"), "labels": { "sidecar.example.com/log-agent": "enabled" } },
            "spec": { "containers": [{ "name": "app", "image": "nginx:1.25" }] } }),
        );
        ns.api::<k8s_openapi::api::core::v1::Pod>()
            .create(&Default::default(), &pod)
            .await
            .expect("pod");
    }
    // Injected before the app container: the first container is the sidecar.
    wait_images(&ns, label, 3, |_| "busybox:1.36", || controller.log_tail()).await;
    status(3).await;
    apply_all(&ns, &docs).await;

    let v2 = edited(&docs, "SidecarSet", |doc| {
        doc["spec"]["containers"][0]["image"] = json!("busybox:1.37");
    });
    let (code, out) = diff(&ns, &v2).await;
    assert_eq!(code, 1, "{out}");
    let plan = said(&out);
    let sizes: Vec<usize> = plan.batches.iter().map(BTreeSet::len).collect();
    assert_eq!(sizes, [1, 1, 1], "{out}");
    assert_eq!(
        plan.outcomes,
        BTreeSet::from(["in place (log-agent=busybox:1.37)".to_string()]),
        "{out}"
    );
    let before = uids(&ns, label).await;

    let watcher = PodWatcher::start(&ns);
    apply_all(&ns, &v2).await;
    wait_images(&ns, label, 3, |_| "busybox:1.37", || controller.log_tail()).await;
    assert_batches_seen_by(&plan, &watcher, |v| v.image == "busybox:1.37");
    let after = uids(&ns, label).await;
    assert_eq!(after, before, "in place: every pod kept");
    let _ = sets.delete(&name, &Default::default()).await;
    assert_eq!(controller.stop(), 0);
}
