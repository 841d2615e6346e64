//! An object the API server stores but the controller cannot read (the pod template is
//! schemaless in the CRD, as upstream's is) gets an `InvalidSpec` condition and event naming
//! the field, and every other object of the kind goes on being reconciled. Once fixed, it
//! is reconciled and the condition goes.
mod support;

use std::time::Duration;

use k8s_openapi::api::core::v1::Event;
use kube::api::{Api, DynamicObject, ListParams, Patch, PatchParams, PostParams};
use serde_json::{Value, json};
use support::clonesets::*;
use support::controller::RunningController;
use support::{TestNamespace, wait_for};

const BAD_FIELD: &str = "spec.template.spec.containers[0].ports[0].containerPort";

/// A valid object of `kind` whose first container's port is a string: stored, unreadable.
fn unreadable(api_version: &str, kind: &str, name: &str) -> DynamicObject {
    let mut spec = json!({
        "replicas": 2,
        "selector": { "matchLabels": { "app": name } },
        "template": {
            "metadata": { "labels": { "app": name } },
            "spec": { "containers": [ { "name": "app", "image": "nginx:1",
                "ports": [ { "containerPort": "http" } ] } ] },
        },
    });
    if kind == "StatefulSet" {
        spec["serviceName"] = json!(name);
    }
    support::object(json!({
        "apiVersion": api_version, "kind": kind, "metadata": { "name": name }, "spec": spec,
    }))
}

fn invalid_spec(object: &DynamicObject) -> Option<Value> {
    object.data["status"]["conditions"]
        .as_array()?
        .iter()
        .find(|c| c["type"] == "InvalidSpec")
        .cloned()
}

async fn assert_reported(ns: &TestNamespace, api: &Api<DynamicObject>, name: &str) {
    let condition = wait_for(
        &format!("an InvalidSpec condition on {name}"),
        Duration::from_secs(60),
        || async {
            let object = api.get(name).await.map_err(|e| e.to_string())?;
            invalid_spec(&object).ok_or_else(|| format!("status {}", object.data["status"]))
        },
    )
    .await;
    let message = condition["message"].as_str().unwrap_or_default();
    assert!(message.contains(BAD_FIELD), "{condition}");
    assert_eq!(condition["reason"], "Unreadable", "{condition}");
    let events: Api<Event> = ns.api();
    let event = wait_for(
        &format!("an InvalidSpec event on {name}"),
        Duration::from_secs(30),
        || async {
            let list = events
                .list(&ListParams::default())
                .await
                .map_err(|e| e.to_string())?;
            list.items
                .into_iter()
                .find(|e| {
                    e.reason.as_deref() == Some("InvalidSpec")
                        && e.involved_object.name.as_deref() == Some(name)
                })
                .ok_or_else(|| "no event yet".to_string())
        },
    )
    .await;
    assert!(
        event.message.as_deref().unwrap_or_default().contains(BAD_FIELD),
        "{event:?}"
    );
}

async fn fix_port(api: &Api<DynamicObject>, name: &str) {
    let patch = json!([ { "op": "replace",
        "path": "/spec/template/spec/containers/0/ports/0/containerPort", "value": 8080 } ]);
    api.patch(
        name,
        &PatchParams::default(),
        &Patch::<Value>::Json(serde_json::from_value(patch).expect("patch")),
    )
    .await
    .unwrap_or_else(|e| panic!("fixing {name}: {e}"));
}

#[tokio::test]
async fn an_unreadable_cloneset_is_reported_and_the_others_keep_going() {
    let ns = TestNamespace::create("unreadable-cs").await;
    let api = support::dynamic_api(&ns, "apps.kruise.io/v1alpha1", "CloneSet", "clonesets");
    // Stored while no webhook runs (with its webhooks on, run refuses it at admission).
    let controller = RunningController::start_with(&ns, &["--webhooks=false"]);
    // Stored first, so the controller's first list has it.
    api.create(
        &PostParams::default(),
        &unreadable("apps.kruise.io/v1alpha1", "CloneSet", "bad"),
    )
    .await
    .expect("the API server stores the unreadable CloneSet");
    create(&ns, &cloneset("good", 2, json!({}), json!({}))).await;
    wait_settled(&ns, "good", 2, 2, &controller).await;
    assert_reported(&ns, &api, "bad").await;
    assert!(pods(&ns, "bad").await.is_empty(), "an unreadable set got pods");

    // The CLI names the field too: `rollout status` fails at once, a verb refuses.
    let cli = |args: &[&str]| {
        let mut all = args.to_vec();
        all.extend(["-n", ns.name.as_str()]);
        support::kruise(&ns.kubeconfig, &all)
    };
    let (code, out, err) = cli(&["rollout", "status", "cloneset/bad", "--timeout", "30s"]);
    assert_eq!(code, 3, "rollout status exits 3 (failed)\n{out}\n{err}");
    assert!(
        format!("{out}{err}").contains(&format!("cloneset/bad cannot be read: {BAD_FIELD}: invalid type")),
        "{out}\n{err}"
    );
    let (code, out, err) = cli(&["set", "partition", "cloneset/bad", "1", "--yes"]);
    assert_ne!(code, 0, "set partition refuses\n{out}\n{err}");
    assert!(err.contains(BAD_FIELD), "{err}");
    let (code, out, err) = cli(&["rollout", "step", "cloneset/bad", "--yes"]);
    assert_ne!(code, 0, "rollout step refuses\n{out}\n{err}");
    assert!(err.contains(BAD_FIELD), "{err}");

    let writes = controller.writes_to("clonesets/status");
    tokio::time::sleep(Duration::from_secs(3)).await;
    assert_eq!(
        controller.writes_to("clonesets/status"),
        writes,
        "an unreadable set that does not change costs no writes"
    );

    fix_port(&api, "bad").await;
    wait_settled(&ns, "bad", 2, 2, &controller).await;
    wait_for(
        "the InvalidSpec condition to go",
        Duration::from_secs(30),
        || async {
            let object = api.get("bad").await.map_err(|e| e.to_string())?;
            match invalid_spec(&object) {
                None => Ok(()),
                Some(c) => Err(c.to_string()),
            }
        },
    )
    .await;
}

#[tokio::test]
async fn an_unreadable_advanced_statefulset_is_reported_and_the_others_keep_going() {
    let ns = TestNamespace::create("unreadable-asts").await;
    let api = support::dynamic_api(&ns, "apps.kruise.io/v1beta1", "StatefulSet", "statefulsets");
    // Stored while no webhook runs (with its webhooks on, run refuses it at admission).
    let _controller = RunningController::start_with(&ns, &["--webhooks=false"]);
    api.create(
        &PostParams::default(),
        &unreadable("apps.kruise.io/v1beta1", "StatefulSet", "bad"),
    )
    .await
    .expect("the API server stores the unreadable StatefulSet");
    let mut good = unreadable("apps.kruise.io/v1beta1", "StatefulSet", "good");
    good.data["spec"]["template"]["spec"]["containers"][0]["ports"][0]["containerPort"] = json!(80);
    api.create(&PostParams::default(), &good).await.expect("good set");
    let ready = |name: &'static str| {
        let api = api.clone();
        async move {
            let object = api.get(name).await.map_err(|e| e.to_string())?;
            let status = &object.data["status"];
            (status["readyReplicas"] == 2 && status["updatedReplicas"] == 2)
                .then_some(())
                .ok_or_else(|| status.to_string())
        }
    };
    wait_for("good has 2 ready pods", Duration::from_secs(90), || ready("good")).await;
    assert_reported(&ns, &api, "bad").await;
    fix_port(&api, "bad").await;
    wait_for("bad, fixed, has 2 ready pods", Duration::from_secs(90), || {
        ready("bad")
    })
    .await;
    let object = api.get("bad").await.expect("bad");
    assert_eq!(invalid_spec(&object), None, "{}", object.data["status"]);
}
