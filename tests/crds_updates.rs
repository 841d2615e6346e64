//! The CRDs' transition rules on the real control plane: what upstream's webhook refuses on
//! update holds without any webhook (the selector of a CloneSet, an Advanced StatefulSet
//! and an Advanced DaemonSet, the Advanced StatefulSet's serviceName and
//! podManagementPolicy), and the error names the field. What may change still does.
mod support;

use kube::api::{Patch, PatchParams, PostParams};
use serde_json::{Value, json};
use support::TestNamespace;

#[tokio::test]
async fn immutable_fields_are_refused_on_update_naming_the_field_and_the_rest_may_change() {
    let (code, _, err) = support::kruise(support::kubeconfig(), &["install"]);
    assert_eq!(code, 0, "install: {err}");
    let ns = TestNamespace::create("crd-updates").await;
    // (kind, version, what changes, spec patch, words the error must contain; empty: accepted)
    let table: Vec<(&str, &str, &str, Value, Vec<&str>)> = vec![
        (
            "CloneSet",
            "v1alpha1",
            "selector",
            json!({ "selector": { "matchLabels": { "tier": "web" } } }),
            vec!["spec.selector", "immutable"],
        ),
        (
            "CloneSet",
            "v1alpha1",
            "replicas and image",
            json!({ "replicas": 2, "template": { "spec": { "containers": [{ "name": "main", "image": "nginx:1.26" }] } } }),
            vec![],
        ),
        (
            "StatefulSet",
            "v1beta1",
            "selector",
            json!({ "selector": { "matchLabels": { "tier": "web" } } }),
            vec!["spec.selector", "immutable"],
        ),
        (
            "StatefulSet",
            "v1beta1",
            "serviceName",
            json!({ "serviceName": "other" }),
            vec!["spec.serviceName", "immutable"],
        ),
        (
            "StatefulSet",
            "v1beta1",
            "podManagementPolicy",
            json!({ "podManagementPolicy": "Parallel" }),
            vec!["spec.podManagementPolicy", "immutable"],
        ),
        (
            "StatefulSet",
            "v1alpha1",
            "podManagementPolicy through v1alpha1",
            json!({ "podManagementPolicy": "Parallel" }),
            vec!["spec.podManagementPolicy", "immutable"],
        ),
        (
            "DaemonSet",
            "v1alpha1",
            "selector",
            json!({ "selector": { "matchLabels": { "tier": "web" } } }),
            vec!["spec.selector", "immutable"],
        ),
        (
            "DaemonSet",
            "v1beta1",
            "selector through v1beta1",
            json!({ "selector": { "matchLabels": { "tier": "web" } } }),
            vec!["spec.selector", "immutable"],
        ),
        (
            "DaemonSet",
            "v1beta1",
            "image and partition",
            json!({ "template": { "spec": { "containers": [{ "name": "main", "image": "nginx:1.26" }] } },
                "updateStrategy": { "rollingUpdate": { "partition": 1 } } }),
            vec![],
        ),
        (
            "StatefulSet",
            "v1beta1",
            "replicas and partition",
            json!({ "replicas": 1, "updateStrategy": { "rollingUpdate": { "partition": 1 } } }),
            vec![],
        ),
    ];
    let mut failures = Vec::new();
    for (i, (kind, version, what, patch, words)) in table.into_iter().enumerate() {
        let api = support::kruise_api(&ns, kind, version);
        let name = format!("u-{i}");
        api.create(
            &PostParams::default(),
            &support::kruise_workload(kind, version, &name, &name),
        )
        .await
        .unwrap_or_else(|e| panic!("{kind} {name} could not be created: {e}"));
        let result = api
            .patch(
                &name,
                &PatchParams::default(),
                &Patch::Merge(&json!({ "spec": patch })),
            )
            .await;
        match (result, words.is_empty()) {
            (Ok(_), true) => {}
            (Ok(_), false) => failures.push(format!("{kind} ({version}) changing {what}: accepted")),
            (Err(e), true) => failures.push(format!("{kind} ({version}) changing {what}: refused: {e}")),
            (Err(e), false) => {
                let text = e.to_string();
                if let Some(missing) = words.iter().find(|w| !text.contains(**w)) {
                    failures.push(format!(
                        "{kind} ({version}) changing {what}: error does not name {missing:?}: {text}"
                    ));
                }
            }
        }
    }
    assert!(
        failures.is_empty(),
        "updates not judged as they should be:\n{}",
        failures.join("\n")
    );
}
