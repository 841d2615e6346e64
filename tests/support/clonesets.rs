//! CloneSet fixtures shared by the integration tests: a builder, create, edits that send
//! the whole container list, and a wait for a settled rollout.
use std::time::Duration;

use k8s_openapi::api::core::v1::Pod;
use kube::ResourceExt;
use kube::api::{ListParams, Patch, PatchParams, PostParams};
use kubectl_kruise::api::cloneset::CloneSet;
use serde_json::{Value, json};

use super::controller::RunningController;
use super::{TestNamespace, wait_for};

pub const LONG: Duration = Duration::from_secs(90);

pub fn cloneset(name: &str, replicas: i32, strategy: Value, extra_spec: Value) -> CloneSet {
    let mut spec = json!({
        "replicas": replicas,
        "selector": { "matchLabels": { "app": name } },
        "template": {
            "metadata": {
                "labels": { "app": name },
                "annotations": { "sim.kubectl-kruise.io/start-delay": "300ms" },
            },
            "spec": { "containers": [{ "name": "app", "image": "nginx:1.25" }] },
        },
        "updateStrategy": strategy,
    });
    for (k, v) in extra_spec.as_object().into_iter().flatten() {
        spec[k] = v.clone();
    }
    super::object(json!({
        "apiVersion": "apps.kruise.io/v1alpha1",
        "kind": "CloneSet",
        "metadata": { "name": name },
        "spec": spec,
    }))
}

pub async fn create(ns: &TestNamespace, set: &CloneSet) {
    ns.api::<CloneSet>()
        .create(&PostParams::default(), set)
        .await
        .unwrap_or_else(|e| panic!("creating CloneSet {}: {e}", set.name_any()));
}

pub async fn pods(ns: &TestNamespace, app: &str) -> Vec<Pod> {
    let mut list = ns
        .api::<Pod>()
        .list(&ListParams::default().labels(&format!("app={app}")))
        .await
        .expect("list pods")
        .items;
    list.retain(|p| p.metadata.deletion_timestamp.is_none());
    list.sort_by_key(|p| p.name_any());
    list
}

/// Changes the first container with `edit`, sending the whole container list (a merge
/// patch of a custom resource replaces lists, so the list must be complete).
pub async fn edit_container(ns: &TestNamespace, name: &str, edit: impl FnOnce(&mut Value)) {
    let set = ns.api::<CloneSet>().get(name).await.expect("get CloneSet");
    let mut containers =
        serde_json::to_value(&set.spec.template.spec.expect("pod spec").containers).expect("json");
    edit(&mut containers[0]);
    merge_patch(
        ns,
        name,
        json!({ "spec": { "template": { "spec": { "containers": containers } } } }),
    )
    .await;
}

pub async fn merge_patch(ns: &TestNamespace, name: &str, patch: Value) {
    ns.api::<CloneSet>()
        .patch(name, &PatchParams::default(), &Patch::Merge(&patch))
        .await
        .unwrap_or_else(|e| panic!("patching CloneSet {name}: {e}"));
}

pub async fn set_image(ns: &TestNamespace, name: &str, image: &str) {
    edit_container(ns, name, |c| c["image"] = json!(image)).await;
}

pub async fn add_env(ns: &TestNamespace, name: &str) {
    edit_container(ns, name, |c| {
        c["env"] = json!([{ "name": "MODE", "value": "fast" }])
    })
    .await;
}

/// Waits until the status shows `updated` pods at the update revision, all ready, with
/// `total` pods in all, for the current generation.
pub async fn wait_settled(
    ns: &TestNamespace,
    name: &str,
    total: i32,
    updated: i32,
    controller: &RunningController,
) -> CloneSet {
    let api = ns.api::<CloneSet>();
    let what = format!("CloneSet {name}: {total} pods, {updated} updated and ready");
    let set = wait_for(&what, LONG, || async {
        let set = api.get(name).await.map_err(|e| e.to_string())?;
        let s = set.status.clone().unwrap_or_default();
        let done = s.observed_generation == set.metadata.generation
            && s.replicas == total
            && s.ready_replicas == total
            && s.updated_replicas == updated
            && s.updated_ready_replicas == updated;
        if done { Ok(set) } else { Err(format!("{s:?}")) }
    })
    .await;
    // The API agrees: no stray pods.
    let selector = set
        .spec
        .selector
        .match_labels
        .iter()
        .flatten()
        .map(|(k, v)| format!("{k}={v}"))
        .collect::<Vec<_>>()
        .join(",");
    let mut live = ns
        .api::<Pod>()
        .list(&ListParams::default().labels(&selector))
        .await
        .expect("pods")
        .items;
    live.retain(|p| p.metadata.deletion_timestamp.is_none());
    assert_eq!(
        live.len(),
        total as usize,
        "pods: {:?}\n{}",
        live.iter().map(|p| p.name_any()).collect::<Vec<_>>(),
        controller.log_tail()
    );
    set
}

/// `kubectl-kruise ARGS -n NS`: (exit code, stdout, stderr).
pub fn kruise_in(ns: &TestNamespace, args: &[&str]) -> (i32, String, String) {
    let mut all = args.to_vec();
    all.extend_from_slice(&["-n", &ns.name]);
    super::kruise(&ns.kubeconfig, &all)
}
