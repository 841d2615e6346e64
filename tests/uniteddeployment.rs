//! UnitedDeployment end to end: `kubectl kruise run -n NS` drives a
//! UnitedDeployment whose subsets each select a zone of simulated nodes; the subset
//! workloads are our CloneSet and Advanced StatefulSet (driven by the same run) or the
//! built-in StatefulSet and Deployment (driven by the plane's controller manager). The
//! behaviour expected is OpenKruise's: <https://openkruise.io/docs/user-manuals/uniteddeployment>.
mod support;

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use futures::StreamExt;
use k8s_openapi::api::core::v1::{Node, Pod};
use kube::ResourceExt;
use kube::api::{Api, DynamicObject, ListParams, Patch, PatchParams, PostParams};
use kube::runtime::{WatchStreamExt, watcher};
use serde_json::{Value, json};
use support::controller::RunningController;
use support::nodes::{TestNodes, ZONE};
use support::{TestNamespace, kruise_api, wait_for};

const LONG: Duration = Duration::from_secs(120);
const SUBSET: &str = "apps.kruise.io/subset-name";

/// Subset `zone-<zone>`: its zone's nodes, whose taint it tolerates; `extra` merged in.
fn subset(ns: &TestNamespace, zone: &str, extra: Value) -> Value {
    support::merged(
        json!({ "name": format!("zone-{zone}"),
            "nodeSelectorTerm": { "matchExpressions": [{ "key": ZONE, "operator": "In",
                "values": [format!("{}-{zone}", ns.name)] }] },
            "tolerations": [support::nodes::toleration()] }),
        extra,
    )
}

fn pod_template(app: &str, image: &str) -> Value {
    json!({ "metadata": { "labels": { "app": app } },
        "spec": { "containers": [{ "name": "app", "image": image }] } })
}

/// The `spec.template` of `kind` (cloneSetTemplate, advancedStatefulSetTemplate,
/// statefulSetTemplate, deploymentTemplate) running `image`.
fn template(kind: &str, app: &str, image: &str) -> Value {
    let mut spec =
        json!({ "selector": { "matchLabels": { "app": app } }, "template": pod_template(app, image) });
    match kind {
        "cloneSetTemplate" => spec["updateStrategy"] = json!({ "type": "InPlaceIfPossible" }),
        "advancedStatefulSetTemplate" => {
            spec["podManagementPolicy"] = json!("Parallel");
            spec["updateStrategy"] = json!({ "type": "RollingUpdate",
                "rollingUpdate": { "podUpdatePolicy": "InPlaceIfPossible", "maxUnavailable": 1 } });
            spec["template"]["spec"]["readinessGates"] = json!([{ "conditionType": "InPlaceUpdateReady" }]);
        }
        "statefulSetTemplate" => spec["podManagementPolicy"] = json!("Parallel"),
        _ => {}
    }
    json!({ (kind): { "metadata": { "labels": { "app": app } }, "spec": spec } })
}

/// A UnitedDeployment `app` of `replicas` over `subsets`.
fn united(app: &str, replicas: i64, template: Value, subsets: Value, extra: Value) -> DynamicObject {
    support::object(support::merged(
        json!({ "apiVersion": "apps.kruise.io/v1alpha1", "kind": "UnitedDeployment",
            "metadata": { "name": app },
            "spec": { "replicas": replicas, "selector": { "matchLabels": { "app": app } },
                "template": template, "topology": { "subsets": subsets } } }),
        extra,
    ))
}

async fn started(prefix: &str) -> (TestNamespace, TestNodes, RunningController, Api<DynamicObject>) {
    let ns = TestNamespace::create(prefix).await;
    let nodes = TestNodes::zoned(&ns, 0).await;
    let controller = RunningController::start(&ns);
    let uds = kruise_api(&ns, "UnitedDeployment", "v1alpha1");
    (ns, nodes, controller, uds)
}

/// The UnitedDeployment `app` of `replicas` over `subsets` with a CloneSet template
/// running `nginx:1`.
fn cloneset_united(app: &str, replicas: i64, subsets: Value) -> DynamicObject {
    united(
        app,
        replicas,
        template("cloneSetTemplate", app, "nginx:1"),
        subsets,
        json!({}),
    )
}

/// Creates [`cloneset_united`].
async fn create(uds: &Api<DynamicObject>, app: &str, replicas: i64, subsets: Value) {
    let ud = cloneset_united(app, replicas, subsets);
    uds.create(&PostParams::default(), &ud).await.expect("create");
}

async fn patch(api: &Api<DynamicObject>, name: &str, patch: Value) {
    api.patch(name, &PatchParams::default(), &Patch::Merge(patch))
        .await
        .unwrap_or_else(|e| panic!("patch {name}: {e}"));
}

fn active(pod: &Pod) -> bool {
    let phase = pod.status.as_ref().and_then(|s| s.phase.as_deref());
    pod.metadata.deletion_timestamp.is_none() && !matches!(phase, Some("Succeeded" | "Failed"))
}

fn ready(pod: &Pod) -> bool {
    pod.status
        .as_ref()
        .and_then(|s| s.conditions.as_ref())
        .is_some_and(|c| c.iter().any(|c| c.type_ == "Ready" && c.status == "True"))
}

/// What one pod shows: subset, zone of its node, image, uid, ready.
#[derive(Debug, Clone, PartialEq)]
struct Seen {
    subset: String,
    zone: String,
    image: String,
    uid: String,
    ready: bool,
}

/// The active pods of `app` by name, with the zone of their node (the suffix after the
/// namespace, or `?`).
async fn pods(ns: &TestNamespace, app: &str) -> BTreeMap<String, Seen> {
    let nodes: Api<Node> = Api::all(ns.client.clone());
    let mut seen = BTreeMap::new();
    let list = ns
        .api::<Pod>()
        .list(&ListParams::default().labels(&format!("app={app}")))
        .await
        .expect("pods");
    for pod in list.items.into_iter().filter(active) {
        let node = pod.spec.as_ref().and_then(|s| s.node_name.clone());
        let zone = match node {
            Some(n) => nodes
                .get(&n)
                .await
                .ok()
                .and_then(|n| n.labels().get(ZONE).cloned())
                .and_then(|z| z.rsplit('-').next().map(str::to_string))
                .unwrap_or("?".into()),
            None => "unscheduled".into(),
        };
        let image = pod
            .spec
            .as_ref()
            .and_then(|s| s.containers.first())
            .and_then(|c| c.image.clone())
            .unwrap_or_default();
        seen.insert(
            pod.name_any(),
            Seen {
                subset: pod.labels().get(SUBSET).cloned().unwrap_or_default(),
                zone,
                image,
                uid: pod.uid().unwrap_or_default(),
                ready: ready(&pod),
            },
        );
    }
    seen
}

/// Waits until `app` runs exactly `want` ready pods per (subset, zone, image).
async fn wait_pods(
    ns: &TestNamespace,
    app: &str,
    want: &[(&str, &str, &str, usize)],
) -> BTreeMap<String, Seen> {
    let want: BTreeMap<(String, String, String), usize> = want
        .iter()
        .map(|(s, z, i, n)| ((s.to_string(), z.to_string(), i.to_string()), *n))
        .collect();
    wait_for(&format!("{app} pods {want:?}"), LONG, || async {
        let seen = pods(ns, app).await;
        let mut have: BTreeMap<(String, String, String), usize> = BTreeMap::new();
        for pod in seen.values() {
            *have
                .entry((pod.subset.clone(), pod.zone.clone(), pod.image.clone()))
                .or_default() += 1;
        }
        if have == want && seen.values().all(|p| p.ready) {
            Ok(seen)
        } else {
            Err(format!(
                "{have:?} (all ready: {})",
                seen.values().all(|p| p.ready)
            ))
        }
    })
    .await
}

/// The subset workloads of kind `resource` (`clonesets`, ...) as (subset, replicas, partition).
async fn children(
    ns: &TestNamespace,
    kind: &str,
    version: &str,
    app: &str,
) -> BTreeMap<String, (i64, Value)> {
    let api = if version == "v1" {
        support::dynamic_api(ns, "apps/v1", kind, &format!("{}s", kind.to_lowercase()))
    } else {
        kruise_api(ns, kind, version)
    };
    api.list(&ListParams::default().labels(&format!("app={app}")))
        .await
        .expect("children")
        .items
        .into_iter()
        .filter(|o| o.metadata.deletion_timestamp.is_none())
        .map(|o| {
            let subset = o.labels().get(SUBSET).cloned().unwrap_or_default();
            let replicas = o.data["spec"]["replicas"].as_i64().unwrap_or(-1);
            (subset, (replicas, o.data["spec"]["updateStrategy"].clone()))
        })
        .collect()
}

/// The pods' uids, in name order.
fn uids(seen: &BTreeMap<String, Seen>) -> Vec<&str> {
    seen.values().map(|p| p.uid.as_str()).collect()
}

fn ud_status(ud: &DynamicObject) -> &Value {
    &ud.data["status"]
}

/// The status of the subset `name` (null when there is none yet).
fn subset_status(status: &Value, name: &str) -> Value {
    status["subsetStatuses"]
        .as_array()
        .and_then(|s| s.iter().find(|s| s["name"] == name))
        .cloned()
        .unwrap_or_default()
}

#[tokio::test]
async fn the_handbook_sample_runs_one_statefulset_per_subset_each_in_its_zone() {
    let (ns, nodes, controller, uds) = started("ud-sample").await;
    // The handbook places subsets by the label `node` (these nodes are this test's alone).
    for (i, zone) in ["zone-a", "zone-b", "zone-c"].iter().enumerate() {
        nodes
            .patch(i, json!({ "metadata": { "labels": { "node": zone } } }))
            .await;
    }
    let text = std::fs::read_to_string(format!(
        "{}/tests/fixtures/uniteddeployment-sample.yaml",
        support::REPO
    ))
    .expect("fixture");
    let mut sample: Value = serde_saphyr::from_str(&text).expect("yaml");
    // As it is, but tolerating the test nodes' taint (which keeps other tests' pods away).
    for subset in sample["spec"]["topology"]["subsets"]
        .as_array_mut()
        .expect("subsets")
    {
        subset["tolerations"] = json!([support::nodes::toleration()]);
    }
    let sample: DynamicObject = support::object(sample);
    uds.create(&PostParams::default(), &sample).await.expect("create");

    // Node i carries `node: zone-<x>` and this test's zone `<x>`: every pod is in its zone.
    wait_pods(
        &ns,
        "sample",
        &[
            ("subset-a", "a", "nginx:alpine", 1),
            ("subset-b", "b", "nginx:alpine", 3),
            ("subset-c", "c", "nginx:alpine", 2),
        ],
    )
    .await;
    let sets = children(&ns, "StatefulSet", "v1", "sample").await;
    let replicas: BTreeMap<&str, i64> = sets.iter().map(|(k, (r, _))| (k.as_str(), *r)).collect();
    assert_eq!(
        replicas,
        BTreeMap::from([("subset-a", 1), ("subset-b", 3), ("subset-c", 2)])
    );
    wait_for("the status", LONG, || async {
        let ud = uds.get("sample").await.map_err(|e| e.to_string())?;
        let status = ud_status(&ud);
        let ok = status["readyReplicas"] == 6
            && status["updatedReplicas"] == 6
            && status["subsetReplicas"] == json!({ "subset-a": 1, "subset-b": 3, "subset-c": 2 });
        if ok { Ok(()) } else { Err(status.to_string()) }
    })
    .await;
    assert_eq!(controller.stop(), 0);
    nodes.remove_all(3).await;
}

/// Partitions per subset hold exactly that many pods on the old image while the rest
/// update in place (same uid); removing them releases the rest.
async fn partitions_roll_out_in_place(prefix: &str, kind: &str, child: &str, version: &str) {
    let (ns, nodes, controller, uds) = started(prefix).await;
    let app = "part";
    let subsets = json!([
        subset(&ns, "a", json!({})),
        subset(&ns, "b", json!({})),
        subset(&ns, "c", json!({}))
    ]);
    uds.create(
        &PostParams::default(),
        &united(app, 6, template(kind, app, "nginx:1"), subsets, json!({})),
    )
    .await
    .expect("create");
    let before = wait_pods(
        &ns,
        app,
        &[
            ("zone-a", "a", "nginx:1", 2),
            ("zone-b", "b", "nginx:1", 2),
            ("zone-c", "c", "nginx:1", 2),
        ],
    )
    .await;
    let mut changed = template(kind, app, "nginx:2");
    changed = json!({ "spec": { "template": changed,
        "updateStrategy": { "manualUpdate": { "partitions": { "zone-a": 2, "zone-b": 1 } } } } });
    patch(&uds, app, changed).await;
    let during = wait_pods(
        &ns,
        app,
        &[
            ("zone-a", "a", "nginx:1", 2),
            ("zone-b", "b", "nginx:1", 1),
            ("zone-b", "b", "nginx:2", 1),
            ("zone-c", "c", "nginx:2", 2),
        ],
    )
    .await;
    assert_eq!(uids(&during), uids(&before), "updated in place");
    let partitions: BTreeMap<String, Value> = children(&ns, child, version, app)
        .await
        .into_iter()
        .map(|(k, (_, strategy))| (k, strategy))
        .collect();
    assert_eq!(partitions.len(), 3, "{partitions:?}");
    // `rollout status` judges every subset: done, with 3 pods held.
    let (code, out, err) =
        support::kruise_in(&ns, &["rollout", "status", "ud/part", "--timeout", "60s"]).await;
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.contains("successfully rolled out (6/6 ready, partitions hold 3)"),
        "{out}"
    );
    assert!(out.contains("zone-a 2/2 (partition 2)"), "{out}");
    // Released subset by subset with the CLI: every pod updates, still in place.
    for subset in ["zone-a=0", "zone-b=0"] {
        let (code, out, err) = support::kruise_in(&ns, &["set", "partition", "ud/part", subset]).await;
        assert_eq!(code, 0, "{out}{err}");
    }
    let after = wait_pods(
        &ns,
        app,
        &[
            ("zone-a", "a", "nginx:2", 2),
            ("zone-b", "b", "nginx:2", 2),
            ("zone-c", "c", "nginx:2", 2),
        ],
    )
    .await;
    assert_eq!(uids(&after), uids(&before), "updated in place");
    wait_for("the current revision to move", LONG, || async {
        let ud = uds.get(app).await.map_err(|e| e.to_string())?;
        let status = ud_status(&ud);
        let ok =
            status["currentRevision"] == status["updatedRevision"] && status["updatedReadyReplicas"] == 6;
        if ok { Ok(()) } else { Err(status.to_string()) }
    })
    .await;
    // Settled: no more writes to the subset workloads or the status.
    let plural = format!("{}s", child.to_lowercase());
    let writes = || {
        (
            controller.writes_to(&plural),
            controller.writes_to("uniteddeployments/status"),
        )
    };
    tokio::time::sleep(Duration::from_secs(2)).await;
    let settled = writes();
    assert!(settled.0 > 0.0 && settled.1 > 0.0, "counted writes: {settled:?}");
    tokio::time::sleep(Duration::from_secs(4)).await;
    assert_eq!(writes(), settled, "writes after settling");
    let (code, tree, err) = support::kruise_in(&ns, &["get", "ud/part", "--tree"]).await;
    assert_eq!(code, 0, "{err}");
    for zone in ["a", "b", "c"] {
        let line = format!("subset zone-{zone}  {child} part-zone-{zone}-");
        assert!(tree.contains(&line), "{line} in\n{tree}");
    }
    assert!(
        tree.contains("2/2 ready") && !tree.contains("old revision"),
        "{tree}"
    );
    assert_eq!(controller.stop(), 0);
    nodes.remove_all(3).await;
}

#[tokio::test]
async fn cloneset_subsets_hold_their_partitions_and_update_in_place() {
    partitions_roll_out_in_place("ud-cs", "cloneSetTemplate", "CloneSet", "v1alpha1").await;
}

#[tokio::test]
async fn advanced_statefulset_subsets_hold_their_partitions_and_update_in_place() {
    partitions_roll_out_in_place("ud-asts", "advancedStatefulSetTemplate", "StatefulSet", "v1beta1").await;
}

/// The fewest ready pods of `app` seen since the watch started.
struct ReadyFloor {
    floor: Arc<Mutex<Option<usize>>>,
    task: tokio::task::JoinHandle<()>,
}

impl ReadyFloor {
    fn start(ns: &TestNamespace, app: &str) -> Self {
        let api: Api<Pod> = ns.api();
        let config = watcher::Config::default().labels(&format!("app={app}"));
        let floor = Arc::new(Mutex::new(None));
        let shared = floor.clone();
        let task = tokio::spawn(async move {
            let mut ready_pods: BTreeMap<String, bool> = BTreeMap::new();
            let mut listed = false;
            let mut stream = std::pin::pin!(watcher(api, config).default_backoff());
            while let Some(event) = stream.next().await {
                match event {
                    Ok(watcher::Event::Apply(pod) | watcher::Event::InitApply(pod)) => {
                        ready_pods.insert(pod.name_any(), active(&pod) && ready(&pod));
                    }
                    Ok(watcher::Event::Delete(pod)) => {
                        ready_pods.remove(&pod.name_any());
                    }
                    Ok(watcher::Event::Init) => {
                        ready_pods.clear();
                        listed = false;
                    }
                    Ok(watcher::Event::InitDone) => listed = true,
                    _ => continue,
                }
                // Counted once the first list is whole (or again after a re-list).
                if !listed {
                    continue;
                }
                let count = ready_pods.values().filter(|r| **r).count();
                let mut floor = shared.lock().expect("floor");
                *floor = Some(floor.map_or(count, |f: usize| f.min(count)));
            }
        });
        ReadyFloor { floor, task }
    }

    fn floor(&self) -> Option<usize> {
        *self.floor.lock().expect("floor")
    }
}

impl Drop for ReadyFloor {
    fn drop(&mut self) {
        self.task.abort();
    }
}

#[tokio::test]
async fn switching_the_template_kind_replaces_the_children_without_dropping_ready_pods() {
    let (ns, nodes, controller, uds) = started("ud-switch").await;
    let app = "switch";
    let subsets = json!([subset(&ns, "a", json!({})), subset(&ns, "b", json!({}))]);
    create(&uds, app, 4, subsets).await;
    wait_pods(
        &ns,
        app,
        &[("zone-a", "a", "nginx:1", 2), ("zone-b", "b", "nginx:1", 2)],
    )
    .await;
    let floor = ReadyFloor::start(&ns, app);
    tokio::time::sleep(Duration::from_secs(1)).await;
    patch(
        &uds,
        app,
        json!({ "spec": { "template": { "cloneSetTemplate": null,
            "deploymentTemplate": template("deploymentTemplate", app, "nginx:1")["deploymentTemplate"] } } }),
    )
    .await;
    wait_for("the CloneSets gone and two Deployments", LONG, || async {
        let clones = children(&ns, "CloneSet", "v1alpha1", app).await;
        let deployments = children(&ns, "Deployment", "v1", app).await;
        if clones.is_empty() && deployments.len() == 2 {
            Ok(())
        } else {
            Err(format!("clonesets {clones:?}, deployments {deployments:?}"))
        }
    })
    .await;
    wait_pods(
        &ns,
        app,
        &[("zone-a", "a", "nginx:1", 2), ("zone-b", "b", "nginx:1", 2)],
    )
    .await;
    assert_eq!(
        floor.floor(),
        Some(4),
        "ready pods never dropped below the replica count"
    );
    assert_eq!(controller.stop(), 0);
    nodes.remove_all(3).await;
}

#[tokio::test]
async fn elastic_subsets_fill_in_order_and_scaling_moves_replicas_as_the_bounds_say() {
    let (ns, nodes, controller, uds) = started("ud-elastic").await;
    let app = "elastic";
    let subsets = json!([
        subset(&ns, "a", json!({ "minReplicas": 1, "maxReplicas": 2 })),
        subset(&ns, "b", json!({ "minReplicas": 1, "maxReplicas": 2 })),
        subset(&ns, "c", json!({ "minReplicas": 1 })),
    ]);
    create(&uds, app, 4, subsets).await;
    // Mins first (1, 1, 1), then up to the max in topology order: a gets the fourth.
    wait_pods(
        &ns,
        app,
        &[
            ("zone-a", "a", "nginx:1", 2),
            ("zone-b", "b", "nginx:1", 1),
            ("zone-c", "c", "nginx:1", 1),
        ],
    )
    .await;
    patch(&uds, app, json!({ "spec": { "replicas": 8 } })).await;
    wait_pods(
        &ns,
        app,
        &[
            ("zone-a", "a", "nginx:1", 2),
            ("zone-b", "b", "nginx:1", 2),
            ("zone-c", "c", "nginx:1", 4),
        ],
    )
    .await;
    // Down to 2 with `kubectl kruise scale`: the mins, in topology order (c gets none).
    let (code, out, err) = support::kruise_in(&ns, &["scale", "ud/elastic", "--replicas", "2"]).await;
    assert_eq!(code, 0, "{out}{err}");
    wait_pods(
        &ns,
        app,
        &[("zone-a", "a", "nginx:1", 1), ("zone-b", "b", "nginx:1", 1)],
    )
    .await;
    assert_eq!(controller.stop(), 0);
    nodes.remove_all(3).await;
}

#[tokio::test]
async fn the_webhook_refuses_a_repeated_subset_naming_the_field_and_defaults_the_rest() {
    let (ns, nodes, controller, uds) = started("ud-hook").await;
    support::webhooks::answering(&ns).await;
    let app = "hook";
    let twice = json!([subset(&ns, "a", json!({})), subset(&ns, "a", json!({}))]);
    let refused = uds
        .create(&PostParams::default(), &cloneset_united(app, 2, twice))
        .await
        .expect_err("two subsets named zone-a");
    let message = refused.to_string();
    assert!(message.contains("spec.topology.subsets[1].name"), "{message}");

    let subsets = json!([subset(&ns, "a", json!({})), subset(&ns, "b", json!({}))]);
    let created = uds
        .create(&PostParams::default(), &cloneset_united(app, 2, subsets))
        .await
        .expect("create");
    assert_eq!(created.data["spec"]["revisionHistoryLimit"], 10, "defaulted");
    assert_eq!(
        created.data["spec"]["updateStrategy"]["type"], "Manual",
        "defaulted"
    );
    wait_pods(
        &ns,
        app,
        &[("zone-a", "a", "nginx:1", 1), ("zone-b", "b", "nginx:1", 1)],
    )
    .await;
    assert_eq!(controller.stop(), 0);
    nodes.remove_all(3).await;
}

#[tokio::test]
async fn adaptive_scheduling_moves_replicas_away_from_a_subset_whose_pods_cannot_be_placed() {
    let (ns, nodes, controller, uds) = started("ud-adaptive").await;
    let app = "adaptive";
    // Subset zone-x selects a zone no node has: its pods stay Pending, Unschedulable.
    let nowhere = subset(&ns, "x", json!({}));
    let subsets = json!([nowhere, subset(&ns, "b", json!({}))]);
    let mut ud = cloneset_united(app, 3, subsets);
    ud.data["spec"]["topology"]["scheduleStrategy"] = json!({ "type": "Adaptive",
        "adaptive": { "rescheduleCriticalSeconds": 2, "unschedulableDuration": 300 } });
    uds.create(&PostParams::default(), &ud).await.expect("create");
    wait_pods(&ns, app, &[("zone-b", "b", "nginx:1", 3)]).await;
    wait_for("zone-x marked unschedulable", LONG, || async {
        let ud = uds.get(app).await.map_err(|e| e.to_string())?;
        let status = ud_status(&ud);
        let subset = subset_status(status, "zone-x");
        let condition = &subset["conditions"][0];
        let ok = condition["type"] == "Schedulable"
            && condition["status"] == "False"
            && condition["reason"] == "reschedule"
            && subset["replicas"] == 0
            && status["subsetReplicas"]["zone-b"] == 3;
        if ok { Ok(()) } else { Err(status.to_string()) }
    })
    .await;
    assert_eq!(controller.stop(), 0);
    nodes.remove_all(3).await;
}

#[tokio::test]
async fn reservation_keeps_stuck_pods_runs_substitutes_and_scales_them_away_once_the_pool_recovers() {
    let (ns, nodes, controller, uds) = started("ud-reserve").await;
    let app = "reserve";
    let zone_x = format!("{}-x", ns.name);
    let nowhere = subset(&ns, "x", json!({}));
    let subsets = json!([nowhere, subset(&ns, "b", json!({}))]);
    let mut ud = cloneset_united(app, 2, subsets);
    ud.data["spec"]["topology"]["scheduleStrategy"] = json!({ "type": "Adaptive",
        "adaptive": { "rescheduleCriticalSeconds": 2, "unschedulableDuration": 3,
            "reserveUnschedulablePods": true } });
    uds.create(&PostParams::default(), &ud).await.expect("create");
    // zone-x's two pods cannot run: reserved, and two substitutes run in zone-b.
    wait_for("two reserved pods and two substitutes", LONG, || async {
        let ud = uds.get(app).await.map_err(|e| e.to_string())?;
        let status = ud_status(&ud);
        let seen = pods(&ns, app).await;
        let running_b = seen.values().filter(|p| p.subset == "zone-b" && p.ready).count();
        let ok = status["reservedPods"] == 2 && status["subsetReplicas"]["zone-b"] == 2 && running_b == 2;
        if ok {
            Ok(())
        } else {
            Err(format!("{status} ({running_b} ready in zone-b)"))
        }
    })
    .await;
    let reserved = ns
        .api::<Pod>()
        .list(&ListParams::default().labels(&format!(
            "app={app},apps.kruise.io/united-deployment-reserved-pod=true"
        )))
        .await
        .expect("pods");
    assert_eq!(
        reserved.items.len(),
        2,
        "the zone-x pods carry the reserved label"
    );
    // The pool recovers: a node in zone x. The reserved pods run, are released after
    // unschedulableDuration, and the substitutes go.
    nodes.add(3).await;
    nodes
        .patch(3, json!({ "metadata": { "labels": { ZONE: zone_x } } }))
        .await;
    wait_pods(&ns, app, &[("zone-x", "x", "nginx:1", 2)]).await;
    wait_for("no reserved pod left", LONG, || async {
        let ud = uds.get(app).await.map_err(|e| e.to_string())?;
        let status = ud_status(&ud);
        let ok = status["reservedPods"] == 0 && status["replicas"] == 2;
        if ok { Ok(()) } else { Err(status.to_string()) }
    })
    .await;
    assert_eq!(controller.stop(), 0);
    nodes.remove_all(4).await;
}

#[tokio::test]
async fn a_stored_spec_the_rules_refuse_gets_invalid_spec_and_no_workload_until_fixed() {
    let ns = TestNamespace::create("ud-refused").await;
    let nodes = TestNodes::zoned(&ns, 0).await;
    // As with run down: no webhook refuses it at admission, the controller does.
    let controller = RunningController::start_with(&ns, &["--webhooks=false"]);
    let uds = kruise_api(&ns, "UnitedDeployment", "v1alpha1");
    let app = "refused";
    let subsets = json!([
        subset(&ns, "a", json!({ "replicas": 3 })),
        subset(&ns, "b", json!({}))
    ]);
    uds.create(&PostParams::default(), &cloneset_united(app, 2, subsets))
        .await
        .expect("the API server stores it");
    let message = wait_for("the InvalidSpec condition", LONG, || async {
        let ud = uds.get(app).await.map_err(|e| e.to_string())?;
        let conditions = ud_status(&ud)["conditions"].clone();
        conditions
            .as_array()
            .and_then(|all| all.iter().find(|c| c["type"] == "InvalidSpec").cloned())
            .and_then(|c| c["message"].as_str().map(str::to_string))
            .ok_or_else(|| format!("conditions {conditions}"))
    })
    .await;
    assert!(message.contains("spec.topology.subsets"), "{message}");
    tokio::time::sleep(Duration::from_secs(3)).await;
    assert!(
        children(&ns, "CloneSet", "v1alpha1", app).await.is_empty(),
        "no subset workload for a refused spec"
    );
    patch(
        &uds,
        app,
        json!({ "spec": { "topology": { "subsets": [
            subset(&ns, "a", json!({ "replicas": 1 })), subset(&ns, "b", json!({}))] } } }),
    )
    .await;
    wait_pods(
        &ns,
        app,
        &[("zone-a", "a", "nginx:1", 1), ("zone-b", "b", "nginx:1", 1)],
    )
    .await;
    wait_for("the InvalidSpec condition gone", LONG, || async {
        let ud = uds.get(app).await.map_err(|e| e.to_string())?;
        let conditions = ud_status(&ud)["conditions"].clone();
        let invalid = conditions
            .as_array()
            .is_some_and(|all| all.iter().any(|c| c["type"] == "InvalidSpec"));
        if invalid {
            Err(conditions.to_string())
        } else {
            Ok(())
        }
    })
    .await;
    assert_eq!(controller.stop(), 0);
    nodes.remove_all(3).await;
}

/// Active pods of `app` per subset, and how many of them are ready.
async fn per_subset(ns: &TestNamespace, app: &str) -> (BTreeMap<String, usize>, BTreeMap<String, usize>) {
    let seen = pods(ns, app).await;
    let (mut all, mut ready) = (BTreeMap::new(), BTreeMap::new());
    for pod in seen.values() {
        *all.entry(pod.subset.clone()).or_insert(0) += 1;
        if pod.ready {
            *ready.entry(pod.subset.clone()).or_insert(0) += 1;
        }
    }
    (all, ready)
}

/// Issue scenario (adaptive): 6 replicas over zones a and x (at most 2 each) and c, zone x
/// without a node. Its replicas move on to c while it has none (2, 0, 4). Once a node
/// appears there and the subset's unschedulable time is over it is allocated again: as
/// upstream's adaptive allocator, healthy pods stay where they run (c keeps its 4, no pod
/// is deleted to move it), and the next replicas go to x: scaled to 8, 2, 2, 4.
#[tokio::test]
async fn adaptive_scheduling_gives_a_subset_its_share_back_once_its_pool_has_a_node() {
    let (ns, nodes, controller, uds) = started("ud-recover").await;
    let app = "recover";
    let subsets = json!([
        subset(&ns, "a", json!({ "maxReplicas": 2 })),
        subset(&ns, "x", json!({ "maxReplicas": 2 })),
        subset(&ns, "c", json!({}))
    ]);
    let mut ud = cloneset_united(app, 6, subsets);
    ud.data["spec"]["topology"]["scheduleStrategy"] = json!({ "type": "Adaptive",
        "adaptive": { "rescheduleCriticalSeconds": 2, "unschedulableDuration": 5 } });
    uds.create(&PostParams::default(), &ud).await.expect("create");
    wait_for("2, 0, 4 ready", LONG, || async {
        let (_, ready) = per_subset(&ns, app).await;
        let want = BTreeMap::from([("zone-a".to_string(), 2), ("zone-c".to_string(), 4)]);
        (ready == want)
            .then_some(())
            .ok_or_else(|| format!("ready {ready:?}"))
    })
    .await;
    nodes.add(3).await;
    nodes
        .patch(
            3,
            json!({ "metadata": { "labels": { ZONE: format!("{}-x", ns.name) } } }),
        )
        .await;
    // Past the unschedulable duration (5 s) the subset is marked schedulable again.
    wait_for("zone-x schedulable again", LONG, || async {
        let ud = uds.get(app).await.map_err(|e| e.to_string())?;
        let status = ud_status(&ud);
        let x = subset_status(status, "zone-x");
        let schedulable = x["conditions"]
            .as_array()
            .into_iter()
            .flatten()
            .all(|c| c["type"] != "Schedulable" || c["status"] == "True");
        schedulable.then_some(()).ok_or_else(|| status.to_string())
    })
    .await;
    patch(&uds, app, json!({ "spec": { "replicas": 8 } })).await;
    wait_pods(
        &ns,
        app,
        &[
            ("zone-a", "a", "nginx:1", 2),
            ("zone-c", "c", "nginx:1", 4),
            ("zone-x", "x", "nginx:1", 2),
        ],
    )
    .await;
    assert_eq!(controller.stop(), 0);
    nodes.remove_all(4).await;
}

/// Issue scenario (reservation): 6 replicas over zones x and y (at most 2 each, no node)
/// and c, reservation on: x and y keep 2 reserved pods each, c runs all 6. An image update must not multiply the reserved pods: afterwards each subset holds
/// as many pods as before, and as many are reserved.
#[tokio::test]
async fn an_image_update_in_reservation_mode_does_not_multiply_reserved_pods() {
    let (ns, nodes, controller, uds) = started("ud-resupd").await;
    let app = "resupd";
    let subsets = json!([
        subset(&ns, "x", json!({ "maxReplicas": 2 })),
        subset(&ns, "y", json!({ "maxReplicas": 2 })),
        subset(&ns, "c", json!({}))
    ]);
    let mut ud = cloneset_united(app, 6, subsets);
    ud.data["spec"]["topology"]["scheduleStrategy"] = json!({ "type": "Adaptive",
        "adaptive": { "rescheduleCriticalSeconds": 2, "unschedulableDuration": 300,
            "reserveUnschedulablePods": true } });
    uds.create(&PostParams::default(), &ud).await.expect("create");
    let settled = |image: &'static str| {
        let (ns, uds) = (&ns, &uds);
        async move {
            wait_for(&format!("{app} settled on {image}"), LONG, || async {
                let ud = uds.get(app).await.map_err(|e| e.to_string())?;
                let reserved = ud_status(&ud)["reservedPods"].as_i64().unwrap_or(-1);
                let seen = pods(ns, app).await;
                let running: Vec<&Seen> = seen.values().filter(|p| p.zone == "c").collect();
                let settled = reserved == 4
                    && running.len() == 6
                    && running.iter().all(|p| p.ready && p.image == image);
                let (all, _) = per_subset(ns, app).await;
                settled.then(|| all.clone()).ok_or_else(|| {
                    format!(
                        "reserved {reserved}, pods {all:?}, {} running in c",
                        running.len()
                    )
                })
            })
            .await
        }
    };
    let before = settled("nginx:1").await;
    patch(
        &uds,
        app,
        json!({ "spec": { "template": template("cloneSetTemplate", app, "nginx:2") } }),
    )
    .await;
    let after = settled("nginx:2").await;
    assert_eq!(after, before, "pods per subset before and after the update");
    tokio::time::sleep(Duration::from_secs(5)).await;
    let (held, _) = per_subset(&ns, app).await;
    assert_eq!(held, before, "and they stay so");
    let ud = uds.get(app).await.expect("get");
    assert_eq!(ud_status(&ud)["reservedPods"], 4, "{}", ud_status(&ud));
    assert_eq!(controller.stop(), 0);
    nodes.remove_all(3).await;
}
