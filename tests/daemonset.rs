//! The Advanced DaemonSet controller end to end: `kubectl kruise run -n NS`
//! on the real control plane, on simulated nodes each test creates for itself (labelled
//! with the test's namespace, which the sets select with a nodeSelector), with the
//! built-in DaemonSet controller running beside it for comparison. The behaviour expected
//! is OpenKruise's: <https://openkruise.io/docs/user-manuals/advanceddaemonset>.
mod support;

use std::collections::BTreeMap;
use std::time::Duration;

use k8s_openapi::api::apps::v1::DaemonSet as BuiltinDaemonSet;
use k8s_openapi::api::core::v1::{Node, Pod};
use kube::ResourceExt;
use kube::api::{Api, DeleteParams, DynamicObject, ListParams, Patch, PatchParams, PostParams};
use serde_json::{Value, json};
use support::controller::{PodView, RunningController};
use support::nodes::TestNodes;
use support::{TestNamespace, kruise_api, wait_for};

const LONG: Duration = Duration::from_secs(90);

/// An Advanced DaemonSet on the test's nodes; `rolling` is its rollingUpdate.
fn daemonset(ns: &TestNamespace, name: &str, rolling: Value) -> DynamicObject {
    support::object(json!({
        "apiVersion": "apps.kruise.io/v1alpha1", "kind": "DaemonSet", "metadata": { "name": name },
        "spec": { "selector": { "matchLabels": { "app": name } },
            "template": { "metadata": { "labels": { "app": name } },
                "spec": { "nodeSelector": { "ds-test": ns.name }, "tolerations": [support::nodes::toleration()],
                    "containers": [{ "name": "main", "image": "nginx:1.25" }] } },
            "updateStrategy": { "type": "RollingUpdate", "rollingUpdate": rolling } } }))
}

async fn pods_of(ns: &TestNamespace, app: &str) -> Vec<Pod> {
    let mut pods = ns
        .api::<Pod>()
        .list(&ListParams::default().labels(&format!("app={app}")))
        .await
        .expect("pods")
        .items;
    pods.retain(|p| p.metadata.deletion_timestamp.is_none());
    pods
}

fn node_of(pod: &Pod) -> String {
    kubectl_kruise::workloads::common::node_fit::node_of(pod)
        .unwrap_or_default()
        .to_string()
}

/// Waits until the set reports `desired` nodes, all with a ready pod, `updated` of them
/// updated, and the API shows exactly one live pod per node.
async fn settled(
    ns: &TestNamespace,
    name: &str,
    desired: i64,
    updated: i64,
    controller: &RunningController,
) -> Vec<Pod> {
    let api = kruise_api(ns, "DaemonSet", "v1alpha1");
    let what = format!("DaemonSet {name}: {desired} nodes ready, {updated} updated");
    wait_for(&what, LONG, || async {
        let set = api.get(name).await.map_err(|e| e.to_string())?;
        let s = &set.data["status"];
        let pods = pods_of(ns, name).await;
        let mut per_node: BTreeMap<String, usize> = BTreeMap::new();
        for p in &pods {
            *per_node.entry(node_of(p)).or_default() += 1;
        }
        let done = s["observedGeneration"] == json!(set.metadata.generation)
            && s["desiredNumberScheduled"] == desired
            && s["numberReady"] == desired
            && s["updatedNumberScheduled"] == updated
            && pods.len() as i64 == desired
            && per_node.values().all(|n| *n == 1);
        if done {
            Ok(pods)
        } else {
            Err(format!(
                "{s}\npods per node {per_node:?}\n{}",
                controller.log_tail()
            ))
        }
    })
    .await
}

async fn set_image(api: &Api<DynamicObject>, name: &str, image: &str) {
    support::set_first_image(api, name, image).await;
}

#[tokio::test]
async fn an_image_change_goes_in_place_on_every_node_while_the_builtin_recreates() {
    let ns = TestNamespace::create("ads-inplace").await;
    let nodes = TestNodes::create(&ns, 3).await;
    // The run installs the CRDs first.
    let controller = RunningController::start(&ns);
    let api = kruise_api(&ns, "DaemonSet", "v1alpha1");
    api.create(
        &PostParams::default(),
        &daemonset(
            &ns,
            "agent",
            json!({ "rollingUpdateType": "InPlaceIfPossible", "maxUnavailable": 1 }),
        ),
    )
    .await
    .expect("DaemonSet agent");
    let before: BTreeMap<String, PodView> = settled(&ns, "agent", 3, 3, &controller)
        .await
        .iter()
        .map(|p| (p.name_any(), PodView::of(p)))
        .collect();
    let writes_before = controller.writes_to("pods") + controller.writes_to("pods/status");
    set_image(&api, "agent", "nginx:1.27").await;
    let after: BTreeMap<String, PodView> = settled(&ns, "agent", 3, 3, &controller)
        .await
        .iter()
        .map(|p| (p.name_any(), PodView::of(p)))
        .collect();
    assert_eq!(
        before.keys().collect::<Vec<_>>(),
        after.keys().collect::<Vec<_>>()
    );
    for (name, b) in &before {
        let a = &after[name];
        assert_eq!(
            (&a.uid, &a.node),
            (&b.uid, &b.node),
            "{name} kept its UID and node"
        );
        assert_eq!(a.restarts, b.restarts + 1, "{name} restarted its container once");
        assert_eq!(a.image, "nginx:1.27");
    }
    let writes = controller.writes_to("pods") + controller.writes_to("pods/status") - writes_before;
    println!("Advanced DaemonSet in place: {writes} pod writes for 3 pods");
    assert!(
        writes / 3.0 <= 3.0,
        "{writes} pod writes for 3 pods\n{}",
        controller.log_tail()
    );
    assert_eq!(controller.stop(), 0);

    // The built-in DaemonSet given the same change recreates every pod.
    let builtin: BuiltinDaemonSet = support::object(json!({ "apiVersion": "apps/v1", "kind": "DaemonSet",
        "metadata": { "name": "builtin" },
        "spec": { "selector": { "matchLabels": { "app": "builtin" } },
            "template": { "metadata": { "labels": { "app": "builtin" } },
                "spec": { "nodeSelector": { "ds-test": ns.name }, "tolerations": [support::nodes::toleration()],
                    "containers": [{ "name": "main", "image": "nginx:1.25" }] } } } }));
    let builtins = ns.api::<BuiltinDaemonSet>();
    builtins
        .create(&PostParams::default(), &builtin)
        .await
        .expect("built-in DaemonSet");
    let ready = |want_image: &'static str| {
        let ns = &ns;
        async move {
            wait_for("built-in DaemonSet rolled", LONG, || async {
                let pods = pods_of(ns, "builtin").await;
                let done = pods.len() == 3
                    && pods
                        .iter()
                        .all(|p| PodView::of(p).ready && PodView::of(p).image == want_image);
                if done {
                    Ok(pods)
                } else {
                    Err(format!("{} pods", pods.len()))
                }
            })
            .await
        }
    };
    let first: Vec<String> = ready("nginx:1.25").await.iter().filter_map(|p| p.uid()).collect();
    support::set_first_image(&builtins, "builtin", "nginx:1.27").await;
    let second: Vec<String> = ready("nginx:1.27").await.iter().filter_map(|p| p.uid()).collect();
    assert!(
        first.iter().all(|u| !second.contains(u)),
        "the built-in recreated every pod"
    );
    nodes.remove_all(3).await;
}

#[tokio::test]
async fn partition_selector_pause_and_nodes_that_come_and_go() {
    let ns = TestNamespace::create("ads-nodes").await;
    let nodes = TestNodes::create(&ns, 4).await;
    let controller = RunningController::start(&ns);
    let api = kruise_api(&ns, "DaemonSet", "v1alpha1");
    api.create(
        &PostParams::default(),
        &daemonset(&ns, "agent", json!({ "partition": 2 })),
    )
    .await
    .expect("DaemonSet agent");
    settled(&ns, "agent", 4, 4, &controller).await;

    // Partition 2: the two highest node names update, the two lowest stay.
    set_image(&api, "agent", "nginx:1.27").await;
    let pods = settled(&ns, "agent", 4, 2, &controller).await;
    let new_nodes: Vec<String> = pods
        .iter()
        .filter(|p| PodView::of(p).image == "nginx:1.27")
        .map(node_of)
        .collect();
    assert_eq!(new_nodes.len(), 2);
    assert!(
        new_nodes.contains(&nodes.name(3)) && new_nodes.contains(&nodes.name(2)),
        "{new_nodes:?}"
    );

    // A selector picks a canary among the partitioned ones.
    nodes
        .patch(0, json!({ "metadata": { "labels": { "canary": "true" } } }))
        .await;
    api.patch(
        "agent",
        &PatchParams::default(),
        &Patch::Merge(
            json!({ "spec": { "updateStrategy": { "rollingUpdate": { "partition": 0,
            "selector": { "matchLabels": { "canary": "true" } } } } } }),
        ),
    )
    .await
    .expect("selector");
    let pods = settled(&ns, "agent", 4, 3, &controller).await;
    let old: Vec<String> = pods
        .iter()
        .filter(|p| PodView::of(p).image == "nginx:1.25")
        .map(node_of)
        .collect();
    assert_eq!(
        old,
        [nodes.name(1)],
        "only the canary among the held nodes updated"
    );

    // Paused: nothing updates, but a node that joins gets its pod.
    api.patch(
        "agent",
        &PatchParams::default(),
        &Patch::Merge(json!({ "spec": { "updateStrategy": { "rollingUpdate": { "paused": true, "selector": null } } } })),
    )
    .await
    .expect("pause");
    set_image(&api, "agent", "nginx:1.28").await;
    nodes.add(4).await;
    let pods = settled(&ns, "agent", 5, 1, &controller).await;
    let on_new = pods
        .iter()
        .find(|p| node_of(p) == nodes.name(4))
        .expect("a pod on the new node");
    assert_eq!(PodView::of(on_new).image, "nginx:1.28");

    // A NoExecute taint and a lost label take the pods away; a leaving node too.
    nodes
        .patch(
            0,
            json!({ "spec": { "taints": [{ "key": "drain", "effect": "NoExecute" }] } }),
        )
        .await;
    nodes
        .patch(1, json!({ "metadata": { "labels": { "ds-test": null } } }))
        .await;
    nodes.remove(2).await;
    let pods = settled(&ns, "agent", 2, 1, &controller).await;
    let mut on: Vec<String> = pods.iter().map(node_of).collect();
    on.sort();
    assert_eq!(on, [nodes.name(3), nodes.name(4)]);
    assert_eq!(controller.stop(), 0);
    nodes.remove_all(5).await;
}

#[tokio::test]
async fn a_v1beta1_daemonset_from_openkruise_s_docs_applies_unchanged_and_rolls_out_in_place() {
    let plane = support::PrivateControlPlane::start("ads-beta");
    let client = plane.client().await;
    let (code, _, err) = support::kruise(&plane.kubeconfig, &["install"]);
    assert_eq!(code, 0, "{err}");
    let ns = TestNamespace::create_on(client.clone(), &plane.kubeconfig, "ads-beta").await;
    let doc = support::manifests::documents(std::path::Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/daemonset-v1beta1.yaml"
    )))
    .pop()
    .expect("the DaemonSet");
    let beta = kruise_api(&ns, "DaemonSet", "v1beta1");
    beta.create(&PostParams::default(), &support::object(doc))
        .await
        .expect("a v1beta1 manifest applies unchanged");
    let nodes = Api::<Node>::all(client.clone())
        .list(&ListParams::default())
        .await
        .expect("nodes")
        .items
        .len() as i64;
    assert!(nodes >= 2, "the private plane has simulated nodes");
    let controller = RunningController::start(&ns);
    let before: BTreeMap<String, String> = settled(&ns, "sample-ds", nodes, nodes, &controller)
        .await
        .iter()
        .map(|p| (p.name_any(), p.uid().unwrap_or_default()))
        .collect();
    set_image(&beta, "sample-ds", "nginx:1.27-alpine").await;
    let after: BTreeMap<String, String> = settled(&ns, "sample-ds", nodes, nodes, &controller)
        .await
        .iter()
        .map(|p| (p.name_any(), p.uid().unwrap_or_default()))
        .collect();
    assert_eq!(before, after, "same pods, same UIDs: updated in place");
    let set = beta.get("sample-ds").await.expect("read as v1beta1");
    let hash = &set.data["status"]["updateRevision"];
    assert!(
        hash.is_string(),
        "v1beta1 readers find the hash under updateRevision"
    );
    assert_eq!(&set.data["status"]["daemonSetHash"], hash);
    assert_eq!(controller.stop(), 0);
}

#[tokio::test]
async fn the_rollout_verbs_drive_an_advanced_daemonset_node_by_node() {
    let ns = TestNamespace::create("ads-cli").await;
    let nodes = TestNodes::create(&ns, 3).await;
    let controller = RunningController::start(&ns);
    let api = kruise_api(&ns, "DaemonSet", "v1alpha1");
    api.create(
        &PostParams::default(),
        &daemonset(
            &ns,
            "agent",
            json!({ "rollingUpdateType": "InPlaceIfPossible", "maxUnavailable": 1, "partition": 3 }),
        ),
    )
    .await
    .expect("DaemonSet agent");
    let uids: Vec<String> = settled(&ns, "agent", 3, 3, &controller)
        .await
        .iter()
        .filter_map(|p| p.uid())
        .collect();
    let kruise = |args: &[&str]| {
        let mut all = args.to_vec();
        all.extend(["-n", ns.name.as_str()]);
        support::kruise(&ns.kubeconfig, &all)
    };
    let (code, _, err) = kruise(&["set", "image", "ads/agent", "main=nginx:1.27"]);
    assert_eq!(code, 0, "{err}");
    settled(&ns, "agent", 3, 0, &controller).await;

    let (code, _, err) = kruise(&["set", "partition", "ads/agent", "2", "--yes"]);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("partition 2 of 3 nodes"), "{err}");
    assert!(
        err.contains("updates next, in this order: agent-") && err.contains(&format!("({})", nodes.name(2))),
        "the highest node name goes first: {err}"
    );
    settled(&ns, "agent", 3, 1, &controller).await;

    let (code, out, err) = kruise(&[
        "rollout",
        "step",
        "ads/agent",
        "--yes",
        "--plain",
        "--timeout",
        "60s",
    ]);
    assert_eq!(code, 0, "{out}\n{err}");
    assert!(out.contains("fully rolled out"), "{out}\n{err}");
    let (code, out, err) = kruise(&["rollout", "status", "ads/agent", "--timeout", "30s"]);
    assert_eq!(code, 0, "{out}\n{err}");
    assert!(out.contains("successfully rolled out"), "{out}");

    let (code, out, err) = kruise(&["rollout", "history", "ads/agent"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("main=nginx:1.25") && out.contains("main=nginx:1.27"),
        "{out}"
    );
    let (code, _, err) = kruise(&["rollout", "undo", "ads/agent", "--yes"]);
    assert_eq!(code, 0, "{err}");
    let after = settled(&ns, "agent", 3, 3, &controller).await;
    assert!(after.iter().all(|p| PodView::of(p).image == "nginx:1.25"));
    let kept: Vec<String> = after.iter().filter_map(|p| p.uid()).collect();
    assert!(
        uids.iter().all(|u| kept.contains(u)),
        "every pod updated in place, both ways"
    );
    assert_eq!(controller.stop(), 0);
    nodes.remove_all(3).await;
}

#[tokio::test]
async fn surge_starts_each_new_pod_beside_the_old_one_within_max_surge() {
    let ns = TestNamespace::create("ads-surge").await;
    let nodes = TestNodes::create(&ns, 3).await;
    let controller = RunningController::start(&ns);
    let api = kruise_api(&ns, "DaemonSet", "v1alpha1");
    api.create(
        &PostParams::default(),
        &daemonset(&ns, "agent", json!({ "maxSurge": 1, "maxUnavailable": 0 })),
    )
    .await
    .expect("DaemonSet agent");
    let before: Vec<String> = settled(&ns, "agent", 3, 3, &controller)
        .await
        .iter()
        .filter_map(|p| p.uid())
        .collect();
    let watcher = support::controller::PodWatcher::start_expecting(&ns, 3);
    set_image(&api, "agent", "nginx:1.27").await;
    let after = settled(&ns, "agent", 3, 3, &controller).await;
    assert!(
        watcher.max_pods() <= 4,
        "at most nodes + maxSurge pods at once: {}\n{}",
        watcher.max_pods(),
        watcher.timeline()
    );
    assert!(
        after
            .iter()
            .all(|p| !before.contains(&p.uid().unwrap_or_default())),
        "every pod replaced (Standard)"
    );
    assert_eq!(controller.stop(), 0);
    nodes.remove_all(3).await;
}

#[tokio::test]
async fn a_set_recreated_after_cascade_orphan_adopts_its_pods_and_no_node_gets_a_second() {
    let ns = TestNamespace::create("ads-adopt").await;
    let nodes = TestNodes::create(&ns, 3).await;
    let controller = RunningController::start(&ns);
    let api = kruise_api(&ns, "DaemonSet", "v1alpha1");
    let manifest = daemonset(&ns, "agent", json!({ "rollingUpdateType": "InPlaceIfPossible" }));
    api.create(&PostParams::default(), &manifest)
        .await
        .expect("DaemonSet agent");
    let mut before: Vec<String> = settled(&ns, "agent", 3, 3, &controller)
        .await
        .iter()
        .filter_map(|p| p.uid())
        .collect();
    before.sort();

    // `kubectl delete --cascade=orphan`: the garbage collector strips the owner reference
    // from every pod before the set is gone.
    api.delete("agent", &DeleteParams::orphan())
        .await
        .expect("delete --cascade=orphan");
    wait_for("the set gone and its pods orphaned", LONG, || async {
        let gone = matches!(api.get("agent").await, Err(kube::Error::Api(e)) if e.code == 404);
        let pods = pods_of(&ns, "agent").await;
        let orphaned = pods.len() == 3 && pods.iter().all(|p| p.owner_references().is_empty());
        if gone && orphaned {
            Ok(())
        } else {
            Err(format!("gone {gone}, {} pods", pods.len()))
        }
    })
    .await;

    let watcher = support::controller::PodWatcher::start_expecting(&ns, 3);
    let created = api
        .create(&PostParams::default(), &manifest)
        .await
        .expect("DaemonSet agent again");
    let after = settled(&ns, "agent", 3, 3, &controller).await;
    let mut uids: Vec<String> = after.iter().filter_map(|p| p.uid()).collect();
    uids.sort();
    assert_eq!(uids, before, "the same pods, adopted, none recreated");
    for pod in &after {
        let owner = pod
            .owner_references()
            .iter()
            .find(|o| o.controller == Some(true))
            .unwrap_or_else(|| panic!("{} has no controller", pod.name_any()));
        assert_eq!(
            Some(&owner.uid),
            created.metadata.uid.as_ref(),
            "{} adopted",
            pod.name_any()
        );
    }
    assert!(
        watcher.max_pods() <= 3,
        "no node got a second pod: {}\n{}",
        watcher.max_pods(),
        watcher.timeline()
    );
    let events: Api<k8s_openapi::api::events::v1::Event> = ns.api();
    wait_for("an AdoptPod event", LONG, || async {
        let list = events
            .list(&ListParams::default())
            .await
            .map_err(|e| e.to_string())?;
        let reasons: Vec<_> = list.items.iter().filter_map(|e| e.reason.clone()).collect();
        if reasons.iter().any(|r| r == "SuccessfulAdoptPod") {
            Ok(())
        } else {
            Err(format!("{reasons:?}"))
        }
    })
    .await;
    assert_eq!(controller.stop(), 0);
    nodes.remove_all(3).await;
}

/// A pod whose deletion never completes (a finalizer holds it here; a node that went away
/// holds one the same way, no kubelet confirming its end) does not hold its DaemonSet: the
/// next change is planned within one settle, not after the 5 minutes an unmet deletion
/// expectation used to wait (`partition_selector_pause_and_nodes_that_come_and_go` timed
/// out on it when a node was removed before its kubelet saw the delete).
#[tokio::test]
async fn a_pod_stuck_in_its_deletion_does_not_hold_the_set() {
    let ns = TestNamespace::create("ads-stuck").await;
    let nodes = TestNodes::create(&ns, 2).await;
    let controller = RunningController::start(&ns);
    let api = kruise_api(&ns, "DaemonSet", "v1alpha1");
    api.create(&PostParams::default(), &daemonset(&ns, "agent", json!({})))
        .await
        .expect("DaemonSet agent");
    let pods = settled(&ns, "agent", 2, 2, &controller).await;
    let held = pods
        .iter()
        .find(|p| node_of(p) == nodes.name(1))
        .expect("a pod on node 1")
        .name_any();
    let hold = |finalizers: Value| json!({ "metadata": { "finalizers": finalizers } });
    ns.api::<Pod>()
        .patch(
            &held,
            &PatchParams::default(),
            &Patch::Merge(hold(json!(["kruise.test/hold"]))),
        )
        .await
        .expect("finalizer");
    // Node 1 leaves the selection: the set deletes its pod, which stays terminating.
    nodes
        .patch(1, json!({ "metadata": { "labels": { "ds-test": null } } }))
        .await;
    settled(&ns, "agent", 1, 1, &controller).await;
    let stuck = ns
        .api::<Pod>()
        .get(&held)
        .await
        .expect("the held pod is still there");
    assert!(stuck.metadata.deletion_timestamp.is_some(), "it is being deleted");
    nodes.add(2).await;
    settled(&ns, "agent", 2, 2, &controller).await;
    ns.api::<Pod>()
        .patch(&held, &PatchParams::default(), &Patch::Merge(hold(Value::Null)))
        .await
        .expect("release the held pod");
    assert_eq!(controller.stop(), 0);
    nodes.remove_all(3).await;
}
