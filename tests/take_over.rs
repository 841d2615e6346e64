//! Taking over what OpenKruise left, with no restart: a CloneSet and an Advanced
//! StatefulSet whose ControllerRevisions and pods are exactly as kruise-manager leaves them
//! (names, labels, owner references, readiness gate and conditions, the in-place update
//! state annotation), one CloneSet pod in the middle of an in-place update. `run` must
//! adopt them with zero writes to the settled pods (the API server's audit log says who
//! wrote what), complete the in-flight update, and recreate no pod (UIDs).
//!
//! The formats are OpenKruise's (revision `<set>-<hash>` over the defaulted template,
//! `controller-revision-hash` with the full name, CloneSet's `pod-template-hash` and
//! `apps.kruise.io/cloneset-instance-id`, `lifecycle.apps.kruise.io/state`, the
//! `InPlaceUpdateReady` gate and condition, `apps.kruise.io/inplace-update-state` with
//! `revision`, `updateTimestamp` and the `lastContainerStatuses` image IDs). The CloneSet's
//! revision names are the ones measured on OpenKruise v1.8.4 (tests/revision_names.rs).
mod support;

use std::collections::BTreeMap;
use std::time::Duration;

use k8s_openapi::api::apps::v1::ControllerRevision;
use k8s_openapi::api::core::v1::{Pod, PodTemplateSpec};
use kube::ResourceExt;
use kube::api::{DynamicObject, Patch, PatchParams, PostParams};
use kubectl_kruise::runtime::revision::{payload, revision_hash, revision_name};
use kubectl_kruise::testenv::kubelet::plan::image_id;
use serde_json::{Value, json};
use support::chaos::audited_writes;
use support::controller::RunningController;
use support::{PrivateControlPlane, TestNamespace, kruise_api, wait_for};

const OLD: &str = "registry.local/web:1";
const NEW: &str = "registry.local/web:2";

fn template(app: &str, image: &str, gate: bool) -> Value {
    let mut spec = json!({ "containers": [{ "name": "app", "image": image }] });
    if gate {
        spec["readinessGates"] = json!([{ "conditionType": "InPlaceUpdateReady" }]);
    }
    json!({ "metadata": { "labels": { "app": app } }, "spec": spec })
}

/// The ControllerRevision OpenKruise writes for `template` (revision number `number`).
async fn revision(ns: &TestNamespace, owner: &DynamicObject, template: &Value, number: i64) -> String {
    let typed: PodTemplateSpec = support::object(template.clone());
    let data = payload(&typed);
    let hash = revision_hash(&data, 0);
    let name = revision_name(&owner.name_any(), &hash);
    let mut labels = template["metadata"]["labels"].clone();
    labels["controller.kubernetes.io/hash"] = json!(hash);
    let object: ControllerRevision = support::object(json!({
        "apiVersion": "apps/v1", "kind": "ControllerRevision",
        "metadata": { "name": name, "labels": labels, "ownerReferences": [owner_ref(owner)] },
        "data": data, "revision": number,
    }));
    ns.api::<ControllerRevision>()
        .create(&PostParams::default(), &object)
        .await
        .unwrap_or_else(|e| panic!("revision {name}: {e}"));
    name
}

fn owner_ref(owner: &DynamicObject) -> Value {
    json!({ "apiVersion": "apps.kruise.io/v1beta1",
        "kind": owner.types.as_ref().map(|t| t.kind.clone()).unwrap_or_default(),
        "name": owner.name_any(), "uid": owner.uid(), "controller": true, "blockOwnerDeletion": true })
}

/// A pod as OpenKruise creates it, then its status conditions as OpenKruise leaves them
/// (`InPlaceUpdateReady`, written over the simulated kubelet's status).
async fn pod(
    ns: &TestNamespace,
    owner: &DynamicObject,
    name: &str,
    labels: Value,
    annotations: Value,
    spec: Value,
    ready: bool,
) -> Pod {
    let pod: Pod = support::object(json!({ "apiVersion": "v1", "kind": "Pod",
        "metadata": { "name": name, "labels": labels, "annotations": annotations,
            "ownerReferences": [owner_ref(owner)] }, "spec": spec }));
    let api = ns.api::<Pod>();
    api.create(&PostParams::default(), &pod)
        .await
        .unwrap_or_else(|e| panic!("pod {name}: {e}"));
    if spec_has_gate(&pod) {
        let condition = if ready {
            json!({ "type": "InPlaceUpdateReady", "status": "True", "lastTransitionTime": "2026-01-01T00:00:00Z" })
        } else {
            json!({ "type": "InPlaceUpdateReady", "status": "False", "reason": "StartInPlaceUpdate",
                "lastTransitionTime": "2026-01-01T00:00:00Z" })
        };
        api.patch_status(
            name,
            &PatchParams::default(),
            &Patch::Strategic(json!({ "status": { "conditions": [condition] } })),
        )
        .await
        .unwrap_or_else(|e| panic!("pod {name} status: {e}"));
    }
    api.get(name).await.expect("pod")
}

fn spec_has_gate(pod: &Pod) -> bool {
    pod.spec
        .as_ref()
        .and_then(|s| s.readiness_gates.as_ref())
        .is_some_and(|g| !g.is_empty())
}

#[tokio::test]
async fn run_takes_over_openkruise_objects_without_writing_settled_pods_or_recreating_any() {
    let plane = PrivateControlPlane::start_with("takeover", &["--audit"]);
    let client = plane.client().await;
    let (code, _, err) = support::kruise(&plane.kubeconfig, &["install"]);
    assert_eq!(code, 0, "{err}");
    let ns = TestNamespace::create_on(client.clone(), &plane.kubeconfig, "takeover").await;

    // CloneSet web: image :2 rolled out in place; web-b2c4d and web-f5g6h are done,
    // web-j7k8l is in the middle (spec patched, container not yet restarted).
    let clones = kruise_api(&ns, "CloneSet", "v1alpha1");
    let new_template = template("web", NEW, false);
    let web: DynamicObject = support::object(json!({
        "apiVersion": "apps.kruise.io/v1alpha1", "kind": "CloneSet", "metadata": { "name": "web" },
        "spec": { "replicas": 3, "selector": { "matchLabels": { "app": "web" } },
            "template": new_template, "revisionHistoryLimit": 10,
            "updateStrategy": { "type": "InPlaceIfPossible", "partition": 0, "maxUnavailable": "20%",
                "maxSurge": 0 } } }));
    let web = clones
        .create(&PostParams::default(), &web)
        .await
        .expect("CloneSet web");
    let old_rev = revision(&ns, &web, &template("web", OLD, false), 1).await;
    let new_rev = revision(&ns, &web, &new_template, 2).await;
    assert_eq!(
        (old_rev.as_str(), new_rev.as_str()),
        ("web-78f9fc5944", "web-c8bd6cc57"),
        "the names OpenKruise v1.8.4 gives these templates"
    );
    let short = new_rev.trim_start_matches("web-").to_string();
    let mut uids = BTreeMap::new();
    for (id, settled) in [("b2c4d", true), ("f5g6h", true), ("j7k8l", false)] {
        let name = format!("web-{id}");
        let state = json!({ "revision": new_rev, "updateTimestamp": "2026-01-01T00:00:00Z",
            "lastContainerStatuses": { "app": { "imageID": image_id(OLD) } }, "updateImages": true });
        let labels = json!({ "app": "web", "controller-revision-hash": new_rev, "pod-template-hash": short,
            "apps.kruise.io/cloneset-instance-id": id,
            "lifecycle.apps.kruise.io/state": if settled { "Normal" } else { "Updating" } });
        let spec = template("web", NEW, true)["spec"].clone();
        let mut annotations = json!({ "apps.kruise.io/inplace-update-state": state.to_string() });
        if !settled {
            annotations["lifecycle.apps.kruise.io/timestamp"] = json!("2026-01-01T00:00:00Z");
        }
        let created = pod(&ns, &web, &name, labels, annotations, spec, settled).await;
        uids.insert(name, created.uid().expect("uid"));
    }
    clones
        .patch_status(
            "web",
            &PatchParams::default(),
            &Patch::Merge(
                json!({ "status": { "observedGeneration": 1, "replicas": 3, "readyReplicas": 2,
                "availableReplicas": 2, "updatedReplicas": 3, "updatedReadyReplicas": 2,
                "updatedAvailableReplicas": 2, "expectedUpdatedReplicas": 3, "updateRevision": new_rev,
                "currentRevision": old_rev, "collisionCount": 0, "labelSelector": "app=web" } }),
            ),
        )
        .await
        .expect("CloneSet status");

    // Advanced StatefulSet db: two pods at its only revision.
    let sets = kruise_api(&ns, "StatefulSet", "v1beta1");
    let db_template = template("db", OLD, true);
    let db: DynamicObject = support::object(json!({
        "apiVersion": "apps.kruise.io/v1beta1", "kind": "StatefulSet", "metadata": { "name": "db" },
        "spec": { "replicas": 2, "serviceName": "db", "selector": { "matchLabels": { "app": "db" } },
            "template": db_template, "podManagementPolicy": "Parallel", "revisionHistoryLimit": 10,
            "updateStrategy": { "type": "RollingUpdate", "rollingUpdate": { "partition": 0,
                "maxUnavailable": 1, "podUpdatePolicy": "InPlaceIfPossible", "minReadySeconds": 0 } } } }));
    let db = sets
        .create(&PostParams::default(), &db)
        .await
        .expect("StatefulSet db");
    let db_rev = revision(&ns, &db, &db_template, 1).await;
    for ordinal in 0..2 {
        let name = format!("db-{ordinal}");
        let labels = json!({ "app": "db", "controller-revision-hash": db_rev,
            "statefulset.kubernetes.io/pod-name": name, "apps.kubernetes.io/pod-index": ordinal.to_string(),
            "lifecycle.apps.kruise.io/state": "Normal" });
        let mut spec = db_template["spec"].clone();
        spec["hostname"] = json!(name);
        spec["subdomain"] = json!("db");
        let created = pod(&ns, &db, &name, labels, json!({}), spec, true).await;
        uids.insert(name, created.uid().expect("uid"));
    }
    sets.patch_status(
        "db",
        &PatchParams::default(),
        &Patch::Merge(
            json!({ "status": { "observedGeneration": 1, "replicas": 2, "readyReplicas": 2,
            "availableReplicas": 2, "currentReplicas": 2, "updatedReplicas": 2, "updatedReadyReplicas": 2,
            "updatedAvailableReplicas": 2, "currentRevision": db_rev, "updateRevision": db_rev,
            "collisionCount": 0, "labelSelector": "app=db" } }),
        ),
    )
    .await
    .expect("StatefulSet status");

    // Every pod Ready but the in-flight one, before `run` starts.
    let pods = ns.api::<Pod>();
    wait_for("OpenKruise's pods running", Duration::from_secs(30), || async {
        let list = pods.list(&Default::default()).await.map_err(|e| e.to_string())?;
        let ready = list.items.iter().filter(|p| support::pods::is_ready(p)).count();
        if ready == 4 {
            Ok(())
        } else {
            Err(format!("{ready} ready"))
        }
    })
    .await;

    let controller = RunningController::start(&ns);
    wait_for(
        "web-j7k8l completes its update",
        Duration::from_secs(60),
        || async {
            let p = pods.get("web-j7k8l").await.map_err(|e| e.to_string())?;
            let done = support::pods::is_ready(&p)
                && p.labels()
                    .get("lifecycle.apps.kruise.io/state")
                    .map(String::as_str)
                    == Some("Normal");
            if done {
                Ok(())
            } else {
                Err(format!("{:?}", p.status.map(|s| s.conditions)))
            }
        },
    )
    .await;
    wait_for("web and db settled", Duration::from_secs(60), || async {
        let w = clones.get("web").await.map_err(|e| e.to_string())?;
        let d = sets.get("db").await.map_err(|e| e.to_string())?;
        let (ws, ds) = (&w.data["status"], &d.data["status"]);
        let done = ws["readyReplicas"] == 3
            && ws["updatedReadyReplicas"] == 3
            && ws["currentRevision"] == json!(new_rev)
            && ds["readyReplicas"] == 2
            && ws["observedGeneration"] == w.metadata.generation.map_or(json!(null), |g| json!(g));
        if done {
            Ok(())
        } else {
            Err(format!("web {ws}\ndb {ds}"))
        }
    })
    .await;
    // A few more rounds for anything it would still write.
    tokio::time::sleep(Duration::from_secs(3)).await;
    assert_eq!(controller.stop(), 0);

    let after = pods.list(&Default::default()).await.expect("pods").items;
    assert_eq!(after.len(), 5, "no pod added or removed");
    for p in &after {
        assert_eq!(
            uids.get(&p.name_any()),
            p.uid().as_ref(),
            "{} kept its UID (not recreated)",
            p.name_any()
        );
    }
    let ours: Vec<_> = audited_writes(&plane.run_dir.join("logs/audit.log"), &ns.name)
        .into_iter()
        .filter(|w| w.user_agent.contains(" run (") && w.resource.starts_with("pods"))
        .collect();
    println!("run's pod writes: {ours:#?}");
    let settled: Vec<_> = ours.iter().filter(|w| w.name != "web-j7k8l").collect();
    assert!(settled.is_empty(), "writes to settled pods: {settled:#?}");
    let in_flight: Vec<String> = ours
        .iter()
        .map(|w| format!("{} {}", w.verb, w.resource))
        .collect();
    assert!(
        !in_flight.is_empty() && in_flight.len() <= 2,
        "the in-flight pod: its gate and its lifecycle state, nothing else: {in_flight:?}"
    );
    let revisions: Vec<_> = audited_writes(&plane.run_dir.join("logs/audit.log"), &ns.name)
        .into_iter()
        .filter(|w| w.user_agent.contains(" run (") && w.resource == "controllerrevisions")
        .collect();
    assert!(
        revisions.is_empty(),
        "OpenKruise's revisions are kept as they are: {revisions:#?}"
    );
}
