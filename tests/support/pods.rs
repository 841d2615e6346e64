//! Pod helpers of the correctness tests (`tests/correctness*.rs`): list and describe a
//! workload's pods, wait until they are Ready, list live claims, and the preDelete-hook
//! flow that marks a pod for deletion and cancels it again.
use std::time::Duration;

use k8s_openapi::api::core::v1::{PersistentVolumeClaim, Pod};
use kube::ResourceExt;
use kube::api::{Api, ListParams, Patch, PatchParams};
use serde_json::{Value, json};

use super::controller::RunningController;
use super::{TestNamespace, wait_for};

pub async fn pods(ns: &TestNamespace, app: &str) -> Vec<Pod> {
    let api: Api<Pod> = ns.api();
    let mut list = api
        .list(&ListParams::default().labels(&format!("app={app}")))
        .await
        .expect("list pods")
        .items;
    list.sort_by_key(|p| p.name_any());
    list
}

pub fn is_ready(pod: &Pod) -> bool {
    pod.metadata.deletion_timestamp.is_none()
        && pod
            .status
            .as_ref()
            .and_then(|s| s.conditions.as_ref())
            .is_some_and(|c| c.iter().any(|c| c.type_ == "Ready" && c.status == "True"))
}

/// `name: phase ready` per pod, for failure messages.
pub fn describe(pods: &[Pod]) -> String {
    pods.iter()
        .map(|p| {
            let phase = p
                .status
                .as_ref()
                .and_then(|s| s.phase.clone())
                .unwrap_or_default();
            let gone = if p.metadata.deletion_timestamp.is_some() {
                " terminating"
            } else {
                ""
            };
            format!("{} {phase} ready={}{gone}", p.name_any(), is_ready(p))
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// Waits until the app's pods are exactly `names`, every one Ready.
pub async fn wait_ready(
    ns: &TestNamespace,
    app: &str,
    names: &[&str],
    within: Duration,
    c: &RunningController,
) {
    wait_for(&format!("{names:?} of {app} Ready"), within, || async {
        let list = pods(ns, app).await;
        let have: Vec<String> = list.iter().map(|p| p.name_any()).collect();
        if have == names && list.iter().all(is_ready) {
            Ok(())
        } else {
            Err(format!("{}\n{}", describe(&list), c.log_tail()))
        }
    })
    .await
}

pub async fn claim_names(ns: &TestNamespace) -> Vec<String> {
    let api: Api<PersistentVolumeClaim> = ns.api();
    let mut names: Vec<String> = api
        .list(&ListParams::default())
        .await
        .expect("list claims")
        .items
        .iter()
        .filter(|c| c.metadata.deletion_timestamp.is_none())
        .map(|c| c.name_any())
        .collect();
    names.sort();
    names
}

pub fn slow_start() -> std::collections::BTreeMap<String, String> {
    [(
        "sim.kubectl-kruise.io/start-delay".to_string(),
        "700ms".to_string(),
    )]
    .into()
}

pub fn held_by_a_pre_delete_hook(template: &mut k8s_openapi::api::core::v1::PodTemplateSpec) -> Value {
    template
        .metadata
        .get_or_insert_default()
        .labels
        .get_or_insert_default()
        .insert("example.com/hold".into(), "true".into());
    json!({ "preDelete": { "labelsHandler": { "example.com/hold": "true" } } })
}

pub fn lifecycle_state(pod: &Pod) -> String {
    pod.labels()
        .get("lifecycle.apps.kruise.io/state")
        .cloned()
        .unwrap_or_default()
}

/// Labels `victim` `apps.kruise.io/specified-delete`, waits until its hook holds it in
/// PreparingDelete, takes the label off again, and waits until it is Normal again; returns
/// the pod's UID before and after.
pub async fn mark_hold_and_cancel(
    ns: &TestNamespace,
    victim: &str,
    c: &RunningController,
) -> (Option<String>, Option<String>) {
    let pod_api: Api<Pod> = ns.api();
    let before = pod_api.get(victim).await.expect("pod").uid();
    let label =
        |value: Value| json!({ "metadata": { "labels": { "apps.kruise.io/specified-delete": value } } });
    let params = PatchParams::default();
    pod_api
        .patch(victim, &params, &Patch::Merge(&label(json!("true"))))
        .await
        .expect("mark");
    let reach = |want: &'static str| {
        let pod_api = pod_api.clone();
        async move {
            wait_for(&format!("{victim} {want}"), Duration::from_secs(30), || async {
                let pod = pod_api.get(victim).await.map_err(|e| e.to_string())?;
                let state = lifecycle_state(&pod);
                if state == want {
                    Ok(pod)
                } else {
                    Err(format!("{state}\n{}", c.log_tail()))
                }
            })
            .await
        }
    };
    reach("PreparingDelete").await;
    tokio::time::sleep(Duration::from_secs(2)).await;
    pod_api
        .patch(victim, &params, &Patch::Merge(&label(Value::Null)))
        .await
        .expect("unmark");
    let after = reach("Normal").await.uid();
    (before, after)
}
