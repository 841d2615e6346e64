//! Revision names as OpenKruise computes them, on the real control plane. Measured on
//! OpenKruise v1.8.4 (kruise-manager and its webhooks, collisionCount 0): the CloneSet
//! `web` below, image `registry.local/web:1`, gets the revision `web-78f9fc5944`; after the
//! image becomes `:2`, `web-c8bd6cc57`. Ours are the same, with `run`'s webhooks (which
//! default the stored template as OpenKruise's do) and without them (the controller hashes
//! the template defaulted either way), so handing a CloneSet back to OpenKruise finds its
//! revisions and recreates no pod.
mod support;

use std::time::Duration;

use kube::api::{DynamicObject, PostParams};
use serde_json::json;
use support::controller::RunningController;
use support::{TestNamespace, kruise_api, wait_for};

async fn update_revision_of_web(ns: &TestNamespace, webhooks: bool) {
    let flag = if webhooks {
        "--webhooks=true"
    } else {
        "--webhooks=false"
    };
    let _controller = RunningController::start_with(ns, &[flag]);
    let api = kruise_api(ns, "CloneSet", "v1alpha1");
    if webhooks {
        // The configurations are registered once the run leads, and called a moment later.
        support::webhooks::answering(ns).await;
    }
    let web: DynamicObject = serde_json::from_value(json!({
        "apiVersion": "apps.kruise.io/v1alpha1", "kind": "CloneSet",
        "metadata": { "name": "web" },
        "spec": {
            "replicas": 0,
            "selector": { "matchLabels": { "app": "web" } },
            "template": { "metadata": { "labels": { "app": "web" } },
                "spec": { "containers": [{ "name": "app", "image": "registry.local/web:1" }] } },
            "updateStrategy": { "type": "InPlaceIfPossible", "maxUnavailable": "20%", "maxSurge": 0 },
        },
    }))
    .expect("CloneSet");
    api.create(&PostParams::default(), &web)
        .await
        .expect("create web");
    let revision = |want: &'static str| {
        let api = api.clone();
        async move {
            wait_for(
                &format!("updateRevision {want}"),
                Duration::from_secs(30),
                || async {
                    let set = api.get("web").await.map_err(|e| e.to_string())?;
                    let got = set.data["status"]["updateRevision"].clone();
                    if got == want {
                        Ok(())
                    } else {
                        Err(format!("updateRevision {got}"))
                    }
                },
            )
            .await
        }
    };
    revision("web-78f9fc5944").await;
    support::set_first_image(&api, "web", "registry.local/web:2").await;
    revision("web-c8bd6cc57").await;
}

#[tokio::test]
async fn with_webhooks_a_cloneset_gets_the_revision_names_openkruise_gives() {
    let ns = TestNamespace::create("revnames-on").await;
    update_revision_of_web(&ns, true).await;
}

#[tokio::test]
async fn without_webhooks_a_cloneset_gets_the_same_revision_names() {
    let ns = TestNamespace::create("revnames-off").await;
    update_revision_of_web(&ns, false).await;
}
