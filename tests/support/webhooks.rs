//! Waiting until a run's webhooks are *called*, not only registered.
//!
//! The API server learns of webhook configurations through a watch of its own, so a create
//! made just after a configuration appears (or after a new run replaced its URL) may pass
//! without a call, or reach a run that is not answering yet; the hooks fail open, so the
//! object is then stored undefaulted and unchecked. A test that asserts what a hook does
//! waits here first: a dry-run CloneSet comes back defaulted (the mutating configuration is
//! live) and a dry-run CloneSet whose selector misses its template is denied (the
//! validating one is). Dry runs store nothing and the hooks have no side effects.
use std::time::Duration;

use kube::api::PostParams;

use super::{TestNamespace, kruise_api, kruise_workload, wait_for};

/// Waits (60 s at most, then fails naming what it saw) until the API server calls the
/// run's mutating and validating webhooks for objects in `ns`.
pub async fn answering(ns: &TestNamespace) {
    let api = kruise_api(ns, "CloneSet", "v1alpha1");
    let dry_run = PostParams {
        dry_run: true,
        ..PostParams::default()
    };
    wait_for(
        "the API server to call the run's webhooks",
        Duration::from_secs(60),
        || async {
            let bare = kruise_workload("CloneSet", "v1alpha1", "webhook-probe", "webhook-probe");
            let created = api.create(&dry_run, &bare).await.map_err(|e| e.to_string())?;
            if created.data["spec"]["updateStrategy"]["maxUnavailable"] != "20%" {
                return Err(format!(
                    "a dry-run CloneSet came back undefaulted: {}",
                    created.data["spec"]
                ));
            }
            let missed = kruise_workload("CloneSet", "v1alpha1", "webhook-probe", "another-app");
            match api.create(&dry_run, &missed).await {
                Err(error) if error.to_string().contains("denied") => Ok(()),
                Err(error) => Err(format!("a selector that misses its template: {error}")),
                Ok(_) => Err("a dry-run CloneSet whose selector misses its template was accepted".into()),
            }
        },
    )
    .await
}
