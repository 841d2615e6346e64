//! Installing over OpenKruise: for each release's CRDs (tests/fixtures/openkruise/
//! releases.yaml) on a control plane of its own, objects of every kind are created in the
//! stored version, OpenKruise's fail-closed webhook configurations are left behind, and
//! `kubectl kruise install` must refuse, then `install --take-over` must succeed, every
//! object must read in both versions with `run` stopped, and the CloneSet and Advanced
//! StatefulSet must be served by `run`.
mod support;

use std::time::Duration;

use k8s_openapi::api::admissionregistration::v1::{
    MutatingWebhookConfiguration, ValidatingWebhookConfiguration,
};
use k8s_openapi::api::apps::v1::Deployment;
use k8s_openapi::api::core::v1::{Namespace, Pod};
use k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition;
use kube::ResourceExt;
use kube::api::{Api, DynamicObject, Patch, PatchParams, PostParams};
use kube::core::{ApiResource, GroupVersionKind};
use serde_json::{Value, json};
use support::controller::RunningController;
use support::{PrivateControlPlane, TestNamespace, kruise, wait_for};

fn releases() -> Value {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/openkruise/releases.yaml"
    );
    support::manifests::documents(std::path::Path::new(path))
        .pop()
        .expect("the releases document")
}

/// The CRD of one row: served versions, storage, conversion, schemaless spec and status.
fn upstream_crd(table: &Value, plural: &str, row: &Value) -> CustomResourceDefinition {
    let kind = &table["kinds"][plural];
    let service = &table["webhookService"];
    let schema = json!({ "openAPIV3Schema": { "type": "object", "properties": {
        "spec": { "type": "object", "x-kubernetes-preserve-unknown-fields": true },
        "status": { "type": "object", "x-kubernetes-preserve-unknown-fields": true } } } });
    let versions: Vec<Value> = row[0]
        .as_array()
        .expect("versions")
        .iter()
        .map(|v| {
            json!({ "name": v, "served": true, "storage": *v == row[1], "schema": schema,
                "subresources": { "status": {} } })
        })
        .collect();
    let conversion = if row[2] == "Webhook" {
        json!({ "strategy": "Webhook", "webhook": { "conversionReviewVersions": ["v1", "v1beta1"],
            "clientConfig": { "service": service } } })
    } else {
        json!({ "strategy": "None" })
    };
    support::object(json!({
        "apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
        "metadata": { "name": format!("{plural}.apps.kruise.io") },
        "spec": { "group": "apps.kruise.io", "scope": kind[1],
            "names": { "plural": plural, "kind": kind[0], "shortNames": kind[2],
                "singular": kind[0].as_str().expect("kind").to_lowercase(),
                "listKind": format!("{}List", kind[0].as_str().expect("kind")) },
            "versions": versions, "conversion": conversion },
    }))
}

/// One object of `kind` in `version`'s shape, as OpenKruise's users write them.
fn object_of(kind: &str, version: &str, ns: &str) -> Value {
    let beta = version == "v1beta1";
    let template = |app: &str| {
        json!({ "metadata": { "labels": { "app": app } },
            "spec": { "containers": [{ "name": "main", "image": "nginx:1.25" }] } })
    };
    let spec = match kind {
        "CloneSet" if beta => json!({ "replicas": 2, "selector": { "matchLabels": { "app": "cs" } },
            "template": template("cs"),
            "updateStrategy": { "type": "RollingUpdate",
                "rollingUpdate": { "podUpdatePolicy": "InPlaceIfPossible", "maxUnavailable": 1 } },
            "scaleStrategy": { "enablePVCReuse": false } }),
        "CloneSet" => json!({ "replicas": 2, "selector": { "matchLabels": { "app": "cs" } },
            "template": template("cs"),
            "updateStrategy": { "type": "InPlaceIfPossible", "maxUnavailable": 1 } }),
        "StatefulSet" => json!({ "replicas": 2, "serviceName": "sts",
            "selector": { "matchLabels": { "app": "sts" } }, "template": template("sts"),
            "podManagementPolicy": "Parallel",
            "updateStrategy": { "type": "RollingUpdate",
                "rollingUpdate": { "podUpdatePolicy": "InPlaceIfPossible", "maxUnavailable": 2 } } }),
        "DaemonSet" if beta => json!({ "selector": { "matchLabels": { "app": "ds" } },
            "template": template("ds"), "scaleStrategy": { "partitionedScaling": true },
            "updateStrategy": { "type": "RollingUpdate", "rollingUpdate": { "partition": 0 } } }),
        "DaemonSet" => json!({ "selector": { "matchLabels": { "app": "ds" } },
            "template": template("ds"),
            "updateStrategy": { "type": "RollingUpdate", "rollingUpdate": { "partition": 0 } } }),
        "BroadcastJob" => json!({ "template": { "spec": { "restartPolicy": "Never",
            "containers": [{ "name": "pi", "image": "perl" }] } }, "paused": true,
            "completionPolicy": { "type": "Always" } }),
        "AdvancedCronJob" => json!({ "schedule": "*/5 * * * *", "paused": true,
            "template": { "broadcastJobTemplate": { "spec": { "template": { "spec": {
                "restartPolicy": "Never", "containers": [{ "name": "pi", "image": "perl" }] } } } } } }),
        "SidecarSet" if beta => json!({ "selector": { "matchLabels": { "app": "none" } },
            "customVersion": "v1", "namespaceSelector": { "matchLabels": { "kubernetes.io/metadata.name": ns } },
            "containers": [{ "name": "side", "image": "busybox" }] }),
        "SidecarSet" => json!({ "selector": { "matchLabels": { "app": "none" } }, "namespace": ns,
            "containers": [{ "name": "side", "image": "busybox" }] }),
        "WorkloadSpread" if beta => json!({ "targetRef": { "apiVersion": "apps.kruise.io/v1alpha1",
            "kind": "CloneSet", "name": "cs" },
            "subsets": [{ "name": "a", "requiredNodeSelector": { "matchExpressions": [
                { "key": "zone", "operator": "In", "values": ["a"] }] }, "maxReplicas": 1 }] }),
        "WorkloadSpread" => json!({ "targetRef": { "apiVersion": "apps.kruise.io/v1alpha1",
            "kind": "CloneSet", "name": "cs" },
            "subsets": [{ "name": "a", "requiredNodeSelectorTerm": { "matchExpressions": [
                { "key": "zone", "operator": "In", "values": ["a"] }] }, "maxReplicas": 1 }] }),
        "UnitedDeployment" => json!({ "replicas": 0, "selector": { "matchLabels": { "app": "ud" } },
            "template": { "statefulSetTemplate": { "metadata": { "labels": { "app": "ud" } },
                "spec": { "selector": { "matchLabels": { "app": "ud" } }, "template": template("ud") } } },
            "topology": { "subsets": [{ "name": "a" }] } }),
        other => panic!("no object for {other}"),
    };
    let mut metadata = json!({ "name": kind.to_lowercase() });
    if kind == "SidecarSet" {
        metadata["name"] = json!(format!("side-{ns}"));
    } else {
        metadata["namespace"] = json!(ns);
    }
    if kind == "DaemonSet" && !beta {
        metadata["annotations"] = json!({ "daemonset.kruise.io/progressive-create-pod": "true" });
    }
    json!({ "apiVersion": format!("apps.kruise.io/{version}"), "kind": kind, "metadata": metadata,
        "spec": spec })
}

fn resource(kind: &str, plural: &str, version: &str) -> ApiResource {
    ApiResource::from_gvk_with_plural(&GroupVersionKind::gvk("apps.kruise.io", version, kind), plural)
}

fn objects_api(
    client: &kube::Client,
    ns: &str,
    kind: &str,
    plural: &str,
    version: &str,
) -> Api<DynamicObject> {
    let resource = resource(kind, plural, version);
    if kind == "SidecarSet" {
        Api::all_with(client.clone(), &resource)
    } else {
        Api::namespaced_with(client.clone(), ns, &resource)
    }
}

/// OpenKruise's webhook configurations as kruise-manager leaves them (fail closed), the
/// pod rule scoped to `ns` so that nothing else on this plane is blocked.
async fn leave_openkruise_webhooks(client: &kube::Client, ns: &str) {
    let hook = |name: &str, operations: Value| {
        json!({ "name": name, "failurePolicy": "Fail", "sideEffects": "None",
            "admissionReviewVersions": ["v1", "v1beta1"],
            "clientConfig": { "service": { "namespace": "kruise-system", "name": "kruise-webhook-service",
                "path": "/mutate-pod" } },
            "namespaceSelector": { "matchLabels": { "kubernetes.io/metadata.name": ns } },
            "rules": [{ "apiGroups": [""], "apiVersions": ["v1"], "operations": operations,
                "resources": ["pods"] }] })
    };
    let mutating: MutatingWebhookConfiguration = support::object(json!({
        "apiVersion": "admissionregistration.k8s.io/v1", "kind": "MutatingWebhookConfiguration",
        "metadata": { "name": "kruise-mutating-webhook-configuration" },
        "webhooks": [hook("mpod.kb.io", json!(["CREATE"]))] }));
    let validating: ValidatingWebhookConfiguration = support::object(json!({
        "apiVersion": "admissionregistration.k8s.io/v1", "kind": "ValidatingWebhookConfiguration",
        "metadata": { "name": "kruise-validating-webhook-configuration" },
        "webhooks": [hook("vpod.kb.io", json!(["UPDATE", "DELETE"]))] }));
    Api::<MutatingWebhookConfiguration>::all(client.clone())
        .create(&PostParams::default(), &mutating)
        .await
        .expect("mutating configuration");
    Api::<ValidatingWebhookConfiguration>::all(client.clone())
        .create(&PostParams::default(), &validating)
        .await
        .expect("validating configuration");
}

/// A kruise-manager Deployment (its pods never matter: wanting one replica is running).
async fn start_fake_manager(client: &kube::Client) -> Api<Deployment> {
    let namespace: Namespace = support::object(json!({ "apiVersion": "v1", "kind": "Namespace",
        "metadata": { "name": "kruise-system", "labels": { "control-plane": "controller-manager" } } }));
    let _ = Api::<Namespace>::all(client.clone())
        .create(&PostParams::default(), &namespace)
        .await;
    let deployment: Deployment = support::object(json!({ "apiVersion": "apps/v1", "kind": "Deployment",
        "metadata": { "name": "kruise-controller-manager", "namespace": "kruise-system" },
        "spec": { "replicas": 1, "selector": { "matchLabels": { "control-plane": "controller-manager" } },
            "template": { "metadata": { "labels": { "control-plane": "controller-manager" } },
                "spec": { "containers": [{ "name": "manager", "image": "openkruise/kruise-manager:v1.8.4" }] } } } }));
    let api: Api<Deployment> = Api::namespaced(client.clone(), "kruise-system");
    api.create(&PostParams::default(), &deployment)
        .await
        .expect("kruise-controller-manager");
    api
}

/// One release at a time: each brings a control plane of its own.
static ONE_AT_A_TIME: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

async fn over_release(release: &str, with_manager: bool) {
    let _turn = ONE_AT_A_TIME.lock().await;
    let table = releases();
    let rows = table["releases"][release]
        .as_object()
        .expect("release rows")
        .clone();
    let plane = PrivateControlPlane::start(&format!("ok-{}", release.replace('.', "")));
    let client = plane.client().await;
    let crds: Api<CustomResourceDefinition> = Api::all(client.clone());
    for (plural, row) in &rows {
        crds.create(&PostParams::default(), &upstream_crd(&table, plural, row))
            .await
            .unwrap_or_else(|e| panic!("{release} {plural}: {e}"));
    }
    for plural in rows.keys() {
        let name = format!("{plural}.apps.kruise.io");
        wait_for(&format!("{name} established"), Duration::from_secs(30), || {
            let crds = crds.clone();
            let name = name.clone();
            async move {
                let crd = crds.get(&name).await.map_err(|e| e.to_string())?;
                let conditions = crd.status.and_then(|s| s.conditions).unwrap_or_default();
                conditions
                    .iter()
                    .any(|c| c.type_ == "Established" && c.status == "True")
                    .then_some(())
                    .ok_or_else(|| format!("{conditions:?}"))
            }
        })
        .await;
    }
    let ns = TestNamespace::create_on(client.clone(), &plane.kubeconfig, "ok").await;
    let kinds = table["kinds"].as_object().expect("kinds").clone();
    for (plural, row) in &rows {
        let kind = kinds[plural][0].as_str().expect("kind");
        let stored = row[1].as_str().expect("storage");
        let doc = object_of(kind, stored, &ns.name);
        let api = objects_api(&client, &ns.name, kind, plural, stored);
        // The CRD was just established: its handler may need a moment.
        wait_for(
            &format!("{release}: create {kind} {stored}"),
            Duration::from_secs(30),
            || {
                let api = api.clone();
                let doc: DynamicObject = support::object(doc.clone());
                async move {
                    api.create(&PostParams::default(), &doc)
                        .await
                        .map_err(|e| e.to_string())
                }
            },
        )
        .await;
    }
    leave_openkruise_webhooks(&client, &ns.name).await;

    let (code, _, err) = kruise(&plane.kubeconfig, &["install"]);
    assert_eq!(
        code, 2,
        "{release}: install refuses over OpenKruise's webhooks\n{err}"
    );
    assert!(
        err.contains("kruise-mutating-webhook-configuration") && err.contains("--take-over"),
        "{release}: {err}"
    );
    if with_manager {
        let manager = start_fake_manager(&client).await;
        let (code, _, err) = kruise(&plane.kubeconfig, &["install", "--take-over", "--yes"]);
        assert_eq!(code, 2, "{release}: a running kruise-manager is refused\n{err}");
        assert!(err.contains("kruise-manager is running"), "{err}");
        // Nor does run start beside it: the two would fight over every object.
        let (code, _, err) = kruise(&plane.kubeconfig, &["run", "--webhooks=false"]);
        assert_eq!(
            code, 2,
            "{release}: run beside a running kruise-manager is refused\n{err}"
        );
        assert!(
            err.contains("refusing to run: OpenKruise's kruise-manager is running")
                && err.contains("--replicas=0"),
            "{err}"
        );
        manager
            .patch(
                "kruise-controller-manager",
                &PatchParams::default(),
                &Patch::Merge(json!({ "spec": { "replicas": 0 } })),
            )
            .await
            .expect("scaled to 0");
    }
    let (code, out, err) = kruise(&plane.kubeconfig, &["install", "--take-over", "--yes"]);
    assert_eq!(code, 0, "{release}: install --take-over\n{out}\n{err}");
    assert!(
        Api::<MutatingWebhookConfiguration>::all(client.clone())
            .get_opt("kruise-mutating-webhook-configuration")
            .await
            .expect("get")
            .is_none(),
        "{release}: OpenKruise's mutating configuration removed"
    );
    for (plural, row) in &rows {
        if row[2] == "Webhook" {
            assert!(
                err.contains(&format!("{plural}.apps.kruise.io: conversion webhook")),
                "{err}"
            );
        }
    }

    let read_all = |when: &'static str| {
        let (client, rows, kinds, ns) = (client.clone(), rows.clone(), kinds.clone(), ns.name.clone());
        async move {
            for plural in rows.keys() {
                let kind = kinds[plural][0].as_str().expect("kind");
                let name = if kind == "SidecarSet" {
                    format!("side-{ns}")
                } else {
                    kind.to_lowercase()
                };
                for version in ["v1alpha1", "v1beta1"] {
                    let api = objects_api(&client, &ns, kind, plural, version);
                    api.get(&name)
                        .await
                        .unwrap_or_else(|e| panic!("{release} {when}: {kind} {name} as {version}: {e}"));
                }
            }
        }
    };
    read_all("after install, run stopped").await;

    let controller = RunningController::start(&ns);
    for (kind, plural) in [("CloneSet", "clonesets"), ("StatefulSet", "statefulsets")] {
        let api = objects_api(&client, &ns.name, kind, plural, "v1alpha1");
        let name = kind.to_lowercase();
        wait_for(
            &format!("{release}: {kind} serving 2 ready pods"),
            Duration::from_secs(90),
            || {
                let api = api.clone();
                let name = name.clone();
                async move {
                    let o = api.get(&name).await.map_err(|e| e.to_string())?;
                    let status = &o.data["status"];
                    (status["readyReplicas"] == 2 && status["updatedReplicas"] == 2)
                        .then_some(())
                        .ok_or_else(|| status.to_string())
                }
            },
        )
        .await;
    }
    // The Advanced DaemonSet (written in the stored version's spelling) runs on every node.
    let nodes = Api::<k8s_openapi::api::core::v1::Node>::all(client.clone())
        .list(&Default::default())
        .await
        .expect("nodes")
        .items
        .len();
    let daemons = objects_api(&client, &ns.name, "DaemonSet", "daemonsets", "v1alpha1");
    wait_for(
        &format!("{release}: DaemonSet on {nodes} nodes"),
        Duration::from_secs(90),
        || {
            let daemons = daemons.clone();
            async move {
                let o = daemons.get("daemonset").await.map_err(|e| e.to_string())?;
                let status = &o.data["status"];
                (status["numberReady"] == nodes && status["updatedNumberScheduled"] == nodes)
                    .then_some(())
                    .ok_or_else(|| status.to_string())
            }
        },
    )
    .await;
    // Pods are created (OpenKruise's pod webhook is gone) and nothing fails closed.
    let pods: Vec<Pod> = ns
        .api::<Pod>()
        .list(&Default::default())
        .await
        .expect("pods")
        .items;
    let of = |app: &str| {
        pods.iter()
            .filter(|p| p.labels().get("app").map(String::as_str) == Some(app))
            .count()
    };
    assert_eq!(
        (of("cs"), of("sts"), of("ds")),
        (2, 2, nodes),
        "{release}: pods per workload"
    );
    assert_eq!(pods.len(), 4 + nodes, "{release}: no other pod");
    assert_eq!(controller.stop(), 0);
    read_all("after run stopped").await;
}

#[tokio::test]
async fn install_takes_over_openkruise_1_8_4() {
    over_release("v1.8.4", true).await;
}

#[tokio::test]
async fn install_takes_over_openkruise_1_9_0() {
    over_release("v1.9.0", false).await;
}

#[tokio::test]
async fn install_takes_over_openkruise_main() {
    over_release("main", false).await;
}

#[tokio::test]
async fn on_a_terminal_take_over_asks_before_deleting_openkruise_s_webhooks() {
    let _turn = ONE_AT_A_TIME.lock().await;
    let plane = PrivateControlPlane::start("ok-pty");
    let client = plane.client().await;
    let ns = TestNamespace::create_on(client.clone(), &plane.kubeconfig, "ok-pty").await;
    leave_openkruise_webhooks(&client, &ns.name).await;
    let command = format!(
        "{} install --take-over --kubeconfig {}",
        support::CLI,
        plane.kubeconfig.display()
    );
    let configurations = Api::<MutatingWebhookConfiguration>::all(client.clone());
    for (answer, code, kept) in [("n", 1, true), ("y", 0, false)] {
        let command = command.clone();
        let session = tokio::task::spawn_blocking(move || {
            support::terminal::run_answering(
                &command,
                30,
                160,
                &[("Delete OpenKruise's webhook configurations", answer)],
                Duration::from_secs(60),
            )
        })
        .await
        .expect("join");
        let screen = session.screen();
        assert_eq!(session.code, code, "answer {answer}: {screen}");
        assert!(
            screen.contains("kruise-mutating-webhook-configuration"),
            "{screen}"
        );
        let present = configurations
            .get_opt("kruise-mutating-webhook-configuration")
            .await
            .expect("get")
            .is_some();
        assert_eq!(present, kept, "answer {answer}: {screen}");
    }
    // Without a terminal and without --yes: refused with a hint, nothing deleted.
    leave_openkruise_webhooks(&client, &ns.name).await;
    let (code, _, err) = kruise(&plane.kubeconfig, &["install", "--take-over"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("--yes"), "{err}");
}
