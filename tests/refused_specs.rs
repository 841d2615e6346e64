//! A spec the controller refuses, on the real control plane: a CloneSet or Advanced
//! StatefulSet whose selector does not select its own template's pods. Without a webhook
//! the API server stores it; the controller must not create pods it would at once release
//! (and create again, without end). It gets an `InvalidSpec` condition (reason `Refused`,
//! naming `spec.selector`) and zero pods; once the template is fixed, the set rolls out and
//! the condition goes. The run here has `--webhooks=false`: with its webhooks on, the API
//! server would refuse the object at admission (`tests/webhooks.rs`).
mod support;

use std::time::{Duration, Instant};

use k8s_openapi::api::core::v1::Pod;
use kube::api::{Api, DynamicObject, ListParams, Patch, PatchParams, PostParams};
use serde_json::{Value, json};
use support::controller::RunningController;
use support::{TestNamespace, wait_for};

fn mismatched(kind: &str, version: &str, name: &str) -> Value {
    json!({
        "apiVersion": format!("apps.kruise.io/{version}"), "kind": kind,
        "metadata": { "name": name },
        "spec": {
            "replicas": 2,
            "selector": { "matchLabels": { "app": name } },
            "template": {
                "metadata": { "labels": { "app": "something-else" } },
                "spec": { "containers": [{ "name": "main", "image": "nginx:1.25" }] },
            },
        },
    })
}

/// The `InvalidSpec` condition of the object, once it has one.
async fn refusal(api: &Api<DynamicObject>, name: &str) -> Value {
    wait_for("the InvalidSpec condition", Duration::from_secs(30), || async {
        let object = api.get(name).await.map_err(|e| e.to_string())?;
        let conditions = object.data["status"]["conditions"].clone();
        conditions
            .as_array()
            .and_then(|all| all.iter().find(|c| c["type"] == "InvalidSpec").cloned())
            .ok_or_else(|| format!("conditions {conditions}"))
    })
    .await
}

async fn pod_count(ns: &TestNamespace) -> usize {
    let pods: Api<Pod> = ns.api();
    pods.list(&ListParams::default())
        .await
        .map(|l| l.items.len())
        .unwrap_or(usize::MAX)
}

async fn a_selector_that_misses_the_template_creates_no_pod(kind: &str, version: &str) {
    let ns = TestNamespace::create(&format!("refused-{}", kind.to_lowercase())).await;
    // As with run down: no webhook refuses the object at admission, the controller does.
    let controller = RunningController::start_with(&ns, &["--webhooks=false"]);
    let api = support::kruise_api(&ns, kind, version);
    let name = "web";
    let object: DynamicObject = serde_json::from_value(mismatched(kind, version, name)).expect("object");
    api.create(&PostParams::default(), &object)
        .await
        .expect("the API server stores it");

    let condition = refusal(&api, name).await;
    assert_eq!(condition["reason"], "Refused", "{condition}");
    let message = condition["message"].as_str().unwrap_or_default();
    assert!(
        message.contains(&format!("{kind} {name}: spec.selector")),
        "{message}"
    );
    assert!(message.contains("app=something-else"), "{message}");

    // Zero pods, counted over 30 s (the defect created and released pods without end).
    let until = Instant::now() + Duration::from_secs(30);
    while Instant::now() < until {
        assert_eq!(pod_count(&ns).await, 0, "no pod is created for a refused spec");
        tokio::time::sleep(Duration::from_millis(500)).await;
    }
    assert_eq!(controller.writes_to("pods"), 0.0, "no pod writes at all");

    // Fixed: the set rolls out and the condition goes.
    let fix = json!({ "spec": { "template": { "metadata": { "labels": { "app": name } } } } });
    api.patch(name, &PatchParams::default(), &Patch::Merge(&fix))
        .await
        .expect("fix the template");
    wait_for("two pods and no InvalidSpec", Duration::from_secs(60), || async {
        let object = api.get(name).await.map_err(|e| e.to_string())?;
        let invalid = object.data["status"]["conditions"]
            .as_array()
            .is_some_and(|all| all.iter().any(|c| c["type"] == "InvalidSpec"));
        let pods = pod_count(&ns).await;
        if pods == 2 && !invalid {
            Ok(())
        } else {
            Err(format!("{pods} pods, status {}", object.data["status"]))
        }
    })
    .await;
}

#[tokio::test]
async fn a_cloneset_whose_selector_misses_its_template_gets_invalid_spec_and_no_pods() {
    a_selector_that_misses_the_template_creates_no_pod("CloneSet", "v1alpha1").await;
}

#[tokio::test]
async fn an_advanced_statefulset_whose_selector_misses_its_template_gets_invalid_spec_and_no_pods() {
    a_selector_that_misses_the_template_creates_no_pod("StatefulSet", "v1beta1").await;
}
