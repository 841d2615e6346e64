//! WorkloadSpread end to end: `kubectl kruise run -n NS` registers the pod
//! webhooks and the API server calls them for every pod the namespace creates or deletes.
//! Each test labels simulated nodes of its own in three zones; the subsets select a zone
//! each, so a pod's node says which subset it is really in. The behaviour expected is
//! OpenKruise's: <https://openkruise.io/docs/user-manuals/workloadspread>.
mod support;

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use futures::StreamExt;
use k8s_openapi::api::apps::v1::Deployment;
use k8s_openapi::api::core::v1::{Node, Pod};
use kube::ResourceExt;
use kube::api::{Api, DynamicObject, ListParams, Patch, PatchParams, PostParams};
use kube::runtime::{WatchStreamExt, watcher};
use serde_json::{Value, json};
use support::controller::RunningController;
use support::nodes::{TestNodes, ZONE};
use support::{TestNamespace, kruise_api, wait_for};

const LONG: Duration = Duration::from_secs(90);
const MATCHED: &str = "apps.kruise.io/matched-workloadspread";
const COST: &str = "controller.kubernetes.io/pod-deletion-cost";

fn zone_term(ns: &TestNamespace, zone: &str) -> Value {
    json!({ "matchExpressions": [{ "key": ZONE, "operator": "In", "values": [format!("{}-{zone}", ns.name)] }] })
}

/// The subset of `zone` (at most `max` pods): its node term, and the toleration of the
/// test's nodes (only pods placed in a subset, or asking for them, go there).
fn subset(ns: &TestNamespace, zone: &str, max: Option<i64>) -> Value {
    let mut subset = json!({ "name": format!("zone-{zone}"), "requiredNodeSelectorTerm": zone_term(ns, zone),
        "tolerations": [support::nodes::toleration()] });
    if let Some(max) = max {
        subset["maxReplicas"] = json!(max);
    }
    subset
}

/// A WorkloadSpread over zones a, b, c with `maxReplicas` 2, 2 and none.
fn spread(ns: &TestNamespace, name: &str, target: Value, extra: Value) -> DynamicObject {
    support::object(support::merged(
        json!({ "apiVersion": "apps.kruise.io/v1alpha1", "kind": "WorkloadSpread",
            "metadata": { "name": name },
            "spec": { "targetRef": target, "subsets": [
                subset(ns, "a", Some(2)),
                subset(ns, "b", Some(2)),
                subset(ns, "c", None) ] } }),
        extra,
    ))
}

fn template(app: &str) -> Value {
    json!({ "metadata": { "labels": { "app": app } },
        "spec": { "containers": [{ "name": "app", "image": "nginx:1.25" }] } })
}

/// The subset a pod's annotation names.
fn subset_of(pod: &Pod) -> Option<String> {
    let value: Value = serde_json::from_str(pod.annotations().get(MATCHED)?).ok()?;
    value["subset"].as_str().map(str::to_string)
}

fn active(pod: &Pod) -> bool {
    let phase = pod.status.as_ref().and_then(|s| s.phase.as_deref());
    pod.metadata.deletion_timestamp.is_none() && !matches!(phase, Some("Succeeded" | "Failed"))
}

/// Active pods of `app` per subset (`-` for none) and per zone of their node.
async fn layout(
    ns: &TestNamespace,
    app: &str,
) -> (BTreeMap<String, usize>, BTreeMap<String, usize>, Vec<Pod>) {
    let pods: Vec<Pod> = ns
        .api::<Pod>()
        .list(&ListParams::default().labels(&format!("app={app}")))
        .await
        .expect("pods")
        .items
        .into_iter()
        .filter(active)
        .collect();
    let nodes: Api<Node> = Api::all(ns.client.clone());
    let mut by_subset = BTreeMap::new();
    let mut by_zone = BTreeMap::new();
    for pod in &pods {
        *by_subset.entry(subset_of(pod).unwrap_or("-".into())).or_insert(0) += 1;
        let node = pod.spec.as_ref().and_then(|s| s.node_name.clone());
        let zone = match node {
            Some(n) => nodes
                .get(&n)
                .await
                .ok()
                .and_then(|n| n.labels().get(ZONE).cloned())
                .map(|z| z.rsplit('-').next().unwrap_or_default().to_string())
                .unwrap_or("?".into()),
            None => "unscheduled".into(),
        };
        *by_zone.entry(zone).or_insert(0) += 1;
    }
    (by_subset, by_zone, pods)
}

fn counts(pairs: &[(&str, usize)]) -> BTreeMap<String, usize> {
    pairs.iter().map(|(k, v)| (k.to_string(), *v)).collect()
}

/// Waits until the active pods of `app` are `subsets` by annotation and `zones` by node.
async fn wait_layout(ns: &TestNamespace, app: &str, subsets: &[(&str, usize)], zones: &[(&str, usize)]) {
    let (want_subsets, want_zones) = (counts(subsets), counts(zones));
    wait_for(&format!("{app} laid out as {subsets:?}"), LONG, || async {
        let (have_subsets, have_zones, _) = layout(ns, app).await;
        if have_subsets == want_subsets && have_zones == want_zones {
            Ok(())
        } else {
            Err(format!("subsets {have_subsets:?}, zones {have_zones:?}"))
        }
    })
    .await;
}

/// Waits until each active pod of `app` carries the deletion cost `want` gives its subset
/// (None: one pod of that subset has `over`, the others the subset's positive cost).
async fn wait_costs(ns: &TestNamespace, app: &str, want: &[(&str, i64)], over: Option<(&str, i64)>) {
    let want: BTreeMap<String, i64> = want.iter().map(|(k, v)| (k.to_string(), *v)).collect();
    wait_for(&format!("deletion costs {want:?} {over:?}"), LONG, || async {
        let (_, _, pods) = layout(ns, app).await;
        let mut overs = 0;
        for pod in &pods {
            let subset = subset_of(pod).unwrap_or_default();
            let cost: Option<i64> = pod.annotations().get(COST).and_then(|c| c.parse().ok());
            if over.is_some_and(|(s, c)| s == subset && cost == Some(c)) {
                overs += 1;
                continue;
            }
            if cost != want.get(&subset).copied() {
                return Err(format!("{} in {subset} costs {cost:?}", pod.name_any()));
            }
        }
        match (over, overs) {
            (Some(_), 1) | (None, 0) => Ok(()),
            _ => Err(format!("{overs} pods over their subset's share")),
        }
    })
    .await;
}

/// Creates `ws` and waits until the run has seen it (its status observed). Pods created
/// before the webhook's cache holds a spread are admitted unplaced (fail open, as
/// upstream's informer), and the one subset they could be adopted into may be full by then:
/// every test that creates pods right after a spread waits here first.
async fn create_observed(spreads: &Api<DynamicObject>, ws: &DynamicObject) {
    spreads
        .create(&PostParams::default(), ws)
        .await
        .expect("WorkloadSpread");
    let name = ws.name_any();
    wait_for(&format!("spread {name} observed by the run"), LONG, || async {
        let ws = spreads.get(&name).await.map_err(|e| e.to_string())?;
        match ws.data["status"]["observedGeneration"].as_i64() {
            Some(_) => Ok(()),
            None => Err("no status yet".to_string()),
        }
    })
    .await;
}

async fn patch_spread(spreads: &Api<DynamicObject>, name: &str, patch: Value) {
    spreads
        .patch(name, &PatchParams::default(), &Patch::Merge(patch))
        .await
        .expect("patch WorkloadSpread");
}

/// A test's namespace, its zoned nodes, its `run` (pod webhooks registered) and the
/// WorkloadSpread API.
async fn started(prefix: &str) -> (TestNamespace, TestNodes, RunningController, Api<DynamicObject>) {
    let ns = TestNamespace::create(prefix).await;
    let nodes = TestNodes::zoned(&ns, 0).await;
    let controller = RunningController::start(&ns);
    support::webhooks::answering(&ns).await;
    let spreads = kruise_api(&ns, "WorkloadSpread", "v1alpha1");
    (ns, nodes, controller, spreads)
}

/// Creates the CloneSet `app` with `replicas` pods of `template`.
async fn cloneset(ns: &TestNamespace, app: &str, replicas: i64, template: Value) -> Api<DynamicObject> {
    let clones = kruise_api(ns, "CloneSet", "v1alpha1");
    let cloneset: DynamicObject = support::object(
        json!({ "apiVersion": "apps.kruise.io/v1alpha1", "kind": "CloneSet",
        "metadata": { "name": app },
        "spec": { "replicas": replicas, "selector": { "matchLabels": { "app": app } }, "template": template } }),
    );
    clones
        .create(&PostParams::default(), &cloneset)
        .await
        .expect("CloneSet");
    clones
}

/// Creates the Deployment `app` with `replicas` pods.
async fn deployment(ns: &TestNamespace, app: &str, replicas: i64) {
    let deployment: Deployment = support::object(json!({ "apiVersion": "apps/v1", "kind": "Deployment",
        "metadata": { "name": app },
        "spec": { "replicas": replicas, "selector": { "matchLabels": { "app": app } }, "template": template(app) } }));
    ns.api::<Deployment>()
        .create(&PostParams::default(), &deployment)
        .await
        .expect("Deployment");
}

/// 6 pods land 2/2/2; 9 fill the last subset; with zone-a cut to 1, scaling to 3 removes
/// zone-a's extra pod and the last subset's pods first (deletion cost).
async fn spread_scale_and_shrink(
    ns: &TestNamespace,
    app: &str,
    scale: impl Fn(i64) -> Value,
    scaled: &Api<DynamicObject>,
) {
    wait_layout(
        ns,
        app,
        &[("zone-a", 2), ("zone-b", 2), ("zone-c", 2)],
        &[("a", 2), ("b", 2), ("c", 2)],
    )
    .await;
    scaled
        .patch(app, &PatchParams::default(), &Patch::Merge(scale(9)))
        .await
        .expect("scale to 9");
    wait_layout(
        ns,
        app,
        &[("zone-a", 2), ("zone-b", 2), ("zone-c", 5)],
        &[("a", 2), ("b", 2), ("c", 5)],
    )
    .await;
    wait_costs(
        ns,
        app,
        &[("zone-a", 300), ("zone-b", 200), ("zone-c", 100)],
        None,
    )
    .await;
    let spreads = kruise_api(ns, "WorkloadSpread", "v1alpha1");
    patch_spread(
        &spreads,
        app,
        json!({ "spec": { "subsets": [
            subset(ns, "a", Some(1)),
            subset(ns, "b", Some(2)),
            subset(ns, "c", None) ] } }),
    )
    .await;
    wait_costs(
        ns,
        app,
        &[("zone-a", 300), ("zone-b", 200), ("zone-c", 100)],
        Some(("zone-a", -100)),
    )
    .await;
    scaled
        .patch(app, &PatchParams::default(), &Patch::Merge(scale(3)))
        .await
        .expect("scale to 3");
    wait_layout(ns, app, &[("zone-a", 1), ("zone-b", 2)], &[("a", 1), ("b", 2)]).await;
}

#[tokio::test]
async fn a_cloneset_spreads_2_2_rest_fills_the_last_subset_and_scales_in_by_cost() {
    let (ns, nodes, controller, spreads) = started("ws-clone").await;
    let target = json!({ "apiVersion": "apps.kruise.io/v1alpha1", "kind": "CloneSet", "name": "web" });
    create_observed(&spreads, &spread(&ns, "web", target, json!({}))).await;
    let clones = cloneset(&ns, "web", 6, template("web")).await;
    spread_scale_and_shrink(&ns, "web", |n| json!({ "spec": { "replicas": n } }), &clones).await;

    // The status counts what is there; the tree shows it.
    let status = wait_for("the status of 3 pods", LONG, || async {
        let ws = spreads.get("web").await.map_err(|e| e.to_string())?;
        let subsets = ws.data["status"]["subsetStatuses"].clone();
        let replicas: Vec<i64> = subsets
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|s| s["replicas"].as_i64())
            .collect();
        if replicas == [1, 2, 0] {
            Ok(ws.data["status"].clone())
        } else {
            Err(format!("{subsets}"))
        }
    })
    .await;
    let missing: Vec<i64> = status["subsetStatuses"]
        .as_array()
        .expect("subsets")
        .iter()
        .filter_map(|s| s["missingReplicas"].as_i64())
        .collect();
    assert_eq!(missing, [0, 0, -1], "{status}");
    let (code, out, err) = support::kruise_in(&ns, &["get", "ws/web", "--tree"]).await;
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert!(
        lines[0].starts_with("workloadspread/web  (CloneSet web, 3 replicas)"),
        "{out}"
    );
    assert!(
        lines[1].contains("subset zone-a  max 1  actual 1  missing 0"),
        "{out}"
    );
    assert!(out.contains("subset zone-c  max unlimited  actual 0"), "{out}");
    let (code, out, err) = support::kruise_in(&ns, &["get", "ws"]).await;
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("web") && out.contains("CloneSet"), "{out}");
    drop(controller);
    nodes.remove_all(3).await;
}

#[tokio::test]
async fn a_deployment_spreads_2_2_rest_fills_the_last_subset_and_scales_in_by_cost() {
    let (ns, nodes, controller, spreads) = started("ws-deploy").await;
    let target = json!({ "apiVersion": "apps/v1", "kind": "Deployment", "name": "front" });
    create_observed(&spreads, &spread(&ns, "front", target, json!({}))).await;
    deployment(&ns, "front", 6).await;
    let deployments = support::dynamic_api(&ns, "apps/v1", "Deployment", "deployments");
    spread_scale_and_shrink(
        &ns,
        "front",
        |n| json!({ "spec": { "replicas": n } }),
        &deployments,
    )
    .await;
    drop(controller);
    nodes.remove_all(3).await;
}

#[tokio::test]
async fn pods_stuck_unschedulable_move_on_to_the_next_subset() {
    let (ns, nodes, controller, spreads) = started("ws-adaptive").await;
    // Zone a takes no pods: its node is cordoned.
    nodes.patch(0, json!({ "spec": { "unschedulable": true } })).await;
    let target = json!({ "apiVersion": "apps.kruise.io/v1alpha1", "kind": "CloneSet", "name": "web" });
    let adaptive = json!({ "spec": {
        "subsets": [
            subset(&ns, "a", Some(3)),
            subset(&ns, "b", None) ],
        "scheduleStrategy": { "type": "Adaptive", "adaptive": { "rescheduleCriticalSeconds": 5 } } } });
    let mut ws = spread(&ns, "web", target, json!({}));
    ws.data["spec"]["subsets"] = adaptive["spec"]["subsets"].clone();
    ws.data["spec"]["scheduleStrategy"] = adaptive["spec"]["scheduleStrategy"].clone();
    create_observed(&spreads, &ws).await;
    cloneset(&ns, "web", 4, template("web")).await;
    // Three pods go to zone-a and stay Pending; after 5 s they are deleted and recreated in zone-b.
    wait_layout(&ns, "web", &[("zone-b", 4)], &[("b", 4)]).await;
    let ws = spreads.get("web").await.expect("WorkloadSpread");
    let condition = &ws.data["status"]["subsetStatuses"][0]["conditions"][0];
    assert_eq!(
        (
            condition["type"].as_str(),
            condition["status"].as_str(),
            condition["reason"].as_str()
        ),
        (Some("Schedulable"), Some("False"), Some("PodUnschedulable")),
        "{}",
        ws.data["status"]
    );
    drop(controller);
    nodes.remove_all(3).await;
}

#[tokio::test]
async fn thirty_pods_created_at_once_never_overfill_a_subset() {
    let (ns, nodes, controller, spreads) = started("ws-burst").await;
    let target = json!({ "apiVersion": "apps/v1", "kind": "Deployment", "name": "burst" });
    let mut ws = spread(&ns, "burst", target, json!({}));
    ws.data["spec"]["subsets"][0]["maxReplicas"] = json!(5);
    ws.data["spec"]["subsets"][1]["maxReplicas"] = json!(10);
    create_observed(&spreads, &ws).await;

    // An independent watcher checks every pod event: no subset ever holds more than its max.
    let maxima = BTreeMap::from([("zone-a".to_string(), 5usize), ("zone-b".to_string(), 10usize)]);
    let seen: Arc<Mutex<BTreeMap<String, Pod>>> = Arc::default();
    let violations: Arc<Mutex<Vec<String>>> = Arc::default();
    let watch = {
        let (seen, violations, maxima) = (seen.clone(), violations.clone(), maxima.clone());
        let pods: Api<Pod> = ns.api();
        tokio::spawn(async move {
            let mut events = watcher(pods, watcher::Config::default().labels("app=burst"))
                .applied_objects()
                .boxed();
            while let Some(Ok(pod)) = events.next().await {
                let mut seen = seen.lock().expect("seen");
                seen.insert(pod.name_any(), pod);
                let mut by_subset: BTreeMap<String, usize> = BTreeMap::new();
                for p in seen.values().filter(|p| active(p)) {
                    *by_subset.entry(subset_of(p).unwrap_or_default()).or_insert(0) += 1;
                }
                for (subset, max) in &maxima {
                    let have = by_subset.get(subset).copied().unwrap_or(0);
                    if have > *max {
                        violations
                            .lock()
                            .expect("violations")
                            .push(format!("{subset}: {have} > {max}"));
                    }
                }
            }
        })
    };
    deployment(&ns, "burst", 30).await;
    wait_layout(
        &ns,
        "burst",
        &[("zone-a", 5), ("zone-b", 10), ("zone-c", 15)],
        &[("a", 5), ("b", 10), ("c", 15)],
    )
    .await;
    watch.abort();
    let violations = violations.lock().expect("violations").clone();
    assert!(violations.is_empty(), "overfilled: {violations:?}");
    assert_eq!(seen.lock().expect("seen").len(), 30, "no pod was created twice");
    drop(controller);
    nodes.remove_all(3).await;
}

#[tokio::test]
async fn without_the_webhook_pods_are_adopted_by_node_or_reported_outside_any_subset() {
    let ns = TestNamespace::create("ws-nohook").await;
    let nodes = TestNodes::zoned(&ns, 1).await;
    // Node 3 has no zone: only this test's pods go there.
    nodes
        .patch(3, json!({ "metadata": { "labels": { "ws-test": ns.name } } }))
        .await;
    let controller = RunningController::start_with(&ns, &["--webhooks=false"]);
    let spreads = kruise_api(&ns, "WorkloadSpread", "v1alpha1");
    let target = json!({ "apiVersion": "apps.kruise.io/v1alpha1", "kind": "CloneSet", "name": "web" });
    spreads
        .create(&PostParams::default(), &spread(&ns, "web", target, json!({})))
        .await
        .expect("WorkloadSpread");
    let mut pinned = template("web");
    pinned["spec"]["nodeSelector"] = json!({ "ws-test": ns.name });
    pinned["spec"]["tolerations"] = json!([support::nodes::toleration()]);
    let clones = cloneset(&ns, "web", 2, pinned).await;
    // On a node no subset selects: reported, in the status and an event.
    let condition = wait_for("2 pods reported outside any subset", LONG, || async {
        let ws = spreads.get("web").await.map_err(|e| e.to_string())?;
        let conditions = ws.data["status"]["conditions"]
            .as_array()
            .cloned()
            .unwrap_or_default();
        conditions
            .into_iter()
            .find(|c| c["type"] == "PodsInSubsets" && c["status"] == "False")
            .filter(|c| c["message"].as_str().is_some_and(|m| m.starts_with("2 pods")))
            .ok_or_else(|| format!("{}", ws.data["status"]))
    })
    .await;
    assert_eq!(condition["reason"], "PodsOutsideSubsets");
    let events = wait_for("the PodsOutsideSubsets event", LONG, || async {
        let events: Api<k8s_openapi::api::core::v1::Event> = ns.api();
        let list = events
            .list(&ListParams::default())
            .await
            .map_err(|e| e.to_string())?;
        list.items
            .into_iter()
            .find(|e| e.reason.as_deref() == Some("PodsOutsideSubsets"))
            .ok_or_else(|| "no event".to_string())
    })
    .await;
    assert!(events.message.unwrap_or_default().contains("in no subset"));
    // Once the node is in zone b, the controller adopts its pods there.
    nodes
        .patch(
            3,
            json!({ "metadata": { "labels": { ZONE: format!("{}-b", ns.name) } } }),
        )
        .await;
    // A pod event wakes the spread (the node's label alone does not).
    clones
        .patch(
            "web",
            &PatchParams::default(),
            &Patch::Merge(json!({ "metadata": { "labels": { "poke": "1" } } })),
        )
        .await
        .expect("poke");
    wait_layout(&ns, "web", &[("zone-b", 2)], &[("b", 2)]).await;
    drop(controller);
    nodes.remove_all(4).await;
}

#[tokio::test]
async fn bad_spreads_are_refused_naming_the_field_and_a_missing_target_is_reported() {
    let ns = TestNamespace::create("ws-bad").await;
    let controller = RunningController::start(&ns);
    support::webhooks::answering(&ns).await;
    let spreads = kruise_api(&ns, "WorkloadSpread", "v1alpha1");
    let front = json!({ "apiVersion": "apps/v1", "kind": "Deployment", "name": "front" });
    let refused = |ws: DynamicObject| {
        let spreads = spreads.clone();
        async move {
            match spreads.create(&PostParams::default(), &ws).await {
                Err(e) => e.to_string(),
                Ok(_) => panic!("{} was stored", ws.name_any()),
            }
        }
    };
    let mut twice = spread(&ns, "twice", front.clone(), json!({}));
    twice.data["spec"]["subsets"][1]["name"] = json!("zone-a");
    let message = refused(twice).await;
    assert!(
        message.contains("WorkloadSpread twice: spec.subsets[1].name"),
        "{message}"
    );
    let daemons = json!({ "apiVersion": "apps/v1", "kind": "DaemonSet", "name": "agent" });
    let message = refused(spread(&ns, "daemons", daemons, json!({}))).await;
    assert!(
        message.contains("WorkloadSpread daemons: spec.targetRef"),
        "{message}"
    );

    // A target that does not exist (yet): stored, reported in the status and an event.
    spreads
        .create(
            &PostParams::default(),
            &spread(&ns, "front", front.clone(), json!({})),
        )
        .await
        .expect("WorkloadSpread");
    let condition = wait_for("TargetFound=False", LONG, || async {
        let ws = spreads.get("front").await.map_err(|e| e.to_string())?;
        ws.data["status"]["conditions"]
            .as_array()
            .into_iter()
            .flatten()
            .find(|c| c["type"] == "TargetFound" && c["status"] == "False")
            .cloned()
            .ok_or_else(|| format!("{}", ws.data["status"]))
    })
    .await;
    assert_eq!(condition["reason"], "NotFound");
    assert!(
        condition["message"]
            .as_str()
            .is_some_and(|m| m.contains("spec.targetRef: Deployment front not found")),
        "{condition}"
    );
    wait_for("the TargetNotFound event", LONG, || async {
        let events: Api<k8s_openapi::api::core::v1::Event> = ns.api();
        let list = events
            .list(&ListParams::default())
            .await
            .map_err(|e| e.to_string())?;
        list.items
            .into_iter()
            .find(|e| e.reason.as_deref() == Some("TargetNotFound"))
            .map(|_| ())
            .ok_or_else(|| "no event".to_string())
    })
    .await;
    // A second spread of the same target is refused, naming the first.
    let message = refused(spread(&ns, "again", front, json!({}))).await;
    assert!(message.contains("front"), "{message}");
    drop(controller);
}

/// OpenKruise's e2e "only one subset, zone-a=2" and "cross-version": pods the webhook left
/// unplaced because their only subset was full stay outside it, with no deletion cost
/// (every subset is within its share), though the scheduler put them on its node; and a
/// WorkloadSpread written through v1alpha1 reads through v1beta1 with v1beta1's names.
#[tokio::test]
async fn pods_left_unplaced_by_a_full_subset_stay_outside_without_a_cost_and_both_versions_read_their_names()
{
    let (ns, nodes, controller, spreads) = started("ws-full").await;
    let only_a = support::object::<DynamicObject>(json!({ "apiVersion": "apps.kruise.io/v1alpha1",
        "kind": "WorkloadSpread", "metadata": { "name": "web" },
        "spec": { "targetRef": { "apiVersion": "apps.kruise.io/v1alpha1", "kind": "CloneSet", "name": "web" },
            "subsets": [subset(&ns, "a", Some(2))] } }));
    create_observed(&spreads, &only_a).await;
    let beta = kruise_api(&ns, "WorkloadSpread", "v1beta1");
    let read_back = beta.get("web").await.expect("read through v1beta1");
    assert_eq!(
        read_back.data["spec"]["subsets"][0]["requiredNodeSelector"],
        zone_term(&ns, "a"),
        "v1beta1's name for requiredNodeSelectorTerm"
    );
    // Every pod asks for zone a's node: the unplaced ones land there too.
    let mut pinned = template("web");
    pinned["spec"]["nodeSelector"] = json!({ ZONE: format!("{}-a", ns.name) });
    pinned["spec"]["tolerations"] = json!([support::nodes::toleration()]);
    let clones = cloneset(&ns, "web", 2, pinned).await;
    wait_layout(&ns, "web", &[("zone-a", 2)], &[("a", 2)]).await;
    clones
        .patch(
            "web",
            &PatchParams::default(),
            &Patch::Merge(json!({ "spec": { "replicas": 4 } })),
        )
        .await
        .expect("scale to 4");
    wait_layout(&ns, "web", &[("zone-a", 2), ("-", 2)], &[("a", 4)]).await;
    // The controller has planned with the new pods on their node: it reports them outside.
    wait_for("2 pods reported outside any subset", LONG, || async {
        let ws = spreads.get("web").await.map_err(|e| e.to_string())?;
        let outside = ws.data["status"]["conditions"]
            .as_array()
            .into_iter()
            .flatten()
            .any(|c| {
                c["type"] == "PodsInSubsets" && c["message"].as_str().is_some_and(|m| m.starts_with("2 pods"))
            });
        outside
            .then_some(())
            .ok_or_else(|| format!("{}", ws.data["status"]))
    })
    .await;
    wait_costs(&ns, "web", &[("zone-a", 100)], None).await;
    let (_, _, pods) = layout(&ns, "web").await;
    for pod in &pods {
        let cost = pod.annotations().get(COST);
        match subset_of(pod) {
            Some(subset) => assert_eq!(
                (subset.as_str(), cost.map(String::as_str)),
                ("zone-a", Some("100"))
            ),
            None => assert_eq!(cost, None, "{} is in no subset and needs no cost", pod.name_any()),
        }
    }
    drop(controller);
    nodes.remove_all(3).await;
}

/// OpenKruise's e2e "job-like custom workload": a kind on OpenKruise's custom-workload
/// whitelist (`kruise-configuration`, read when `run` starts; here in the run's namespace,
/// its system namespace when scoped) is a target: its pods, found by their controller, are
/// placed by the subsets' percentages of the replica count at its `ReplicasPath`. A kind
/// off the whitelist is refused naming it.
#[tokio::test]
async fn a_custom_workload_on_openkruises_whitelist_is_spread_by_its_replicas_path() {
    use k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition;
    let ns = TestNamespace::create("ws-custom").await;
    let nodes = TestNodes::zoned(&ns, 0).await;
    let group = format!("{}.kubectl-kruise.test", ns.name);
    let crds: Api<CustomResourceDefinition> = Api::all(ns.client.clone());
    let crd: CustomResourceDefinition = support::object(json!({
        "apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
        "metadata": { "name": format!("trainings.{group}") },
        "spec": { "group": group, "scope": "Namespaced",
            "names": { "plural": "trainings", "singular": "training", "kind": "Training" },
            "versions": [{ "name": "v1", "served": true, "storage": true,
                "schema": { "openAPIV3Schema": { "type": "object", "x-kubernetes-preserve-unknown-fields": true } } }] } }));
    crds.create(&PostParams::default(), &crd).await.expect("CRD");
    let trainings = Api::<DynamicObject>::namespaced_with(
        ns.client.clone(),
        &ns.name,
        &kube::core::ApiResource::from_gvk_with_plural(
            &kube::core::GroupVersionKind::gvk(&group, "v1", "Training"),
            "trainings",
        ),
    );
    let job = wait_for("the Training CRD served", LONG, || async {
        let job: DynamicObject =
            support::object(json!({ "apiVersion": format!("{group}/v1"), "kind": "Training",
            "metadata": { "name": "train" }, "spec": { "roles": { "worker": { "replicas": 4 } } } }));
        trainings
            .create(&PostParams::default(), &job)
            .await
            .map_err(|e| e.to_string())
    })
    .await;
    let whitelist = json!({ "workloads": [{ "Group": group, "Version": "v1", "Kind": "Training",
        "ReplicasPath": "spec.roles.worker.replicas" }] });
    let map: k8s_openapi::api::core::v1::ConfigMap =
        support::object(json!({ "apiVersion": "v1", "kind": "ConfigMap",
        "metadata": { "name": "kruise-configuration" },
        "data": { "WorkloadSpread_Watch_Custom_Workload_WhiteList": whitelist.to_string() } }));
    ns.api::<k8s_openapi::api::core::v1::ConfigMap>()
        .create(&PostParams::default(), &map)
        .await
        .expect("ConfigMap");
    let controller = RunningController::start(&ns);
    support::webhooks::answering(&ns).await;
    let spreads = kruise_api(&ns, "WorkloadSpread", "v1alpha1");
    let off_list = spread(
        &ns,
        "other",
        json!({ "apiVersion": format!("{group}/v1"), "kind": "Evaluation", "name": "x" }),
        json!({}),
    );
    let refused = spreads
        .create(&PostParams::default(), &off_list)
        .await
        .expect_err("a kind off the whitelist is refused");
    assert!(
        refused
            .to_string()
            .contains("WorkloadSpread_Watch_Custom_Workload_WhiteList"),
        "{refused}"
    );
    let target = json!({ "apiVersion": format!("{group}/v1"), "kind": "Training", "name": "train" });
    let by_share = spread(&ns, "train", target, json!({}));
    let mut by_share = by_share;
    by_share.data["spec"]["subsets"] = json!([
        support::merged(subset(&ns, "a", None), json!({ "maxReplicas": "25%" })),
        support::merged(subset(&ns, "b", None), json!({ "maxReplicas": "75%" })),
    ]);
    create_observed(&spreads, &by_share).await;
    let uid = job.metadata.uid.clone().expect("uid");
    for i in 0..4 {
        let pod: Pod = support::object(json!({ "apiVersion": "v1", "kind": "Pod",
            "metadata": { "name": format!("train-worker-{i}"), "labels": { "app": "train" },
                "ownerReferences": [{ "apiVersion": format!("{group}/v1"), "kind": "Training", "name": "train",
                    "uid": uid, "controller": true, "blockOwnerDeletion": true }] },
            "spec": { "containers": [{ "name": "app", "image": "nginx:1.25" }] } }));
        ns.api::<Pod>()
            .create(&PostParams::default(), &pod)
            .await
            .expect("pod");
    }
    // 25% and 75% of the 4 at the replicas path.
    wait_layout(
        &ns,
        "train",
        &[("zone-a", 1), ("zone-b", 3)],
        &[("a", 1), ("b", 3)],
    )
    .await;
    wait_for("the subsets counted: 1/1 and 3/3", LONG, || async {
        let ws = spreads.get("train").await.map_err(|e| e.to_string())?;
        let statuses = &ws.data["status"]["subsetStatuses"];
        let got: Vec<(i64, i64)> = (0..2)
            .map(|i| {
                let s = &statuses[i];
                (
                    s["replicas"].as_i64().unwrap_or(-9),
                    s["missingReplicas"].as_i64().unwrap_or(-9),
                )
            })
            .collect();
        (got == [(1, 0), (3, 0)])
            .then_some(())
            .ok_or_else(|| format!("{statuses}"))
    })
    .await;
    drop(controller);
    nodes.remove_all(3).await;
    crds.delete(&format!("trainings.{group}"), &Default::default())
        .await
        .expect("delete the CRD");
}
