//! Correctness defects of the Advanced StatefulSet controller found by acceptance testing,
//! each proven on the real control plane with the controller as a child process: every test
//! failed before its fix (the CloneSet's are in `correctness_cloneset.rs`). The classes
//! behind them (no stall, unavailable means unavailable, nothing left Pending by us) are
//! also property-tested on the planners.
mod support;

use std::time::Duration;

use k8s_openapi::api::core::v1::{PersistentVolumeClaim, Pod};
use kube::ResourceExt;
use kube::api::{Api, DeleteParams, Patch, PatchParams, PostParams};
use kubectl_kruise::api::statefulset::v1beta1::StatefulSet;
use serde_json::{Value, json};
use support::controller::{PodWatcher, RunningController};
use support::pods::{claim_names, describe, is_ready, mark_hold_and_cancel, pods, wait_ready};
use support::pods::{held_by_a_pre_delete_hook, slow_start};
use support::{TestNamespace, wait_for};

/// An Advanced StatefulSet `name` with `replicas`, its pods labelled `app=name`, a `data`
/// claim per pod when `claims`; `extra` is merged into the spec.
fn asts(name: &str, replicas: i32, claims: bool, extra: Value) -> StatefulSet {
    let mut spec = json!({
        "replicas": replicas,
        "serviceName": name,
        "selector": { "matchLabels": { "app": name } },
        "template": {
            "metadata": { "labels": { "app": name } },
            "spec": { "containers": [{ "name": "app", "image": "nginx:1.25" }] },
        },
    });
    if claims {
        spec["template"]["spec"]["containers"][0]["volumeMounts"] =
            json!([{ "name": "data", "mountPath": "/data" }]);
        spec["volumeClaimTemplates"] = json!([{ "metadata": { "name": "data" },
            "spec": { "accessModes": ["ReadWriteOnce"], "resources": { "requests": { "storage": "1Gi" } } } }]);
    }
    if let (Some(spec), Some(extra)) = (spec.as_object_mut(), extra.as_object()) {
        for (k, v) in extra {
            spec.insert(k.clone(), v.clone());
        }
    }
    support::object(
        json!({ "apiVersion": "apps.kruise.io/v1beta1", "kind": "StatefulSet",
        "metadata": { "name": name }, "spec": spec }),
    )
}

async fn scale(api: &Api<StatefulSet>, name: &str, replicas: i32) {
    api.patch(
        name,
        &PatchParams::default(),
        &Patch::Merge(&json!({ "spec": { "replicas": replicas } })),
    )
    .await
    .expect("scale");
}

/// Defect 2: after a condemned pod and its claim went, nothing woke the set until the
/// 5-minute expectation timeout (the claim's deletion event named the pod as owner, not
/// the set). Four pods scaled to one must be gone, with their claims, well within a minute.
#[tokio::test]
async fn an_asts_scale_down_that_deletes_claims_goes_on_without_waiting_for_a_timeout() {
    let ns = TestNamespace::create("fix-claim-wake").await;
    let controller = RunningController::start(&ns);
    let api: Api<StatefulSet> = ns.api();
    let set = asts(
        "cw",
        4,
        true,
        json!({ "persistentVolumeClaimRetentionPolicy": { "whenScaled": "Delete", "whenDeleted": "Retain" } }),
    );
    api.create(&PostParams::default(), &set).await.expect("create");
    wait_ready(
        &ns,
        "cw",
        &["cw-0", "cw-1", "cw-2", "cw-3"],
        Duration::from_secs(90),
        &controller,
    )
    .await;
    scale(&api, "cw", 1).await;
    wait_for(
        "cw scaled to cw-0 and its claim",
        Duration::from_secs(45),
        || async {
            let list = pods(&ns, "cw").await;
            let names: Vec<String> = list.iter().map(|p| p.name_any()).collect();
            let claims = claim_names(&ns).await;
            let status = api.get_status("cw").await.map_err(|e| e.to_string())?.status;
            let replicas = status.map(|s| s.replicas);
            if names == ["cw-0"] && claims == ["data-cw-0"] && replicas == Some(1) {
                Ok(())
            } else {
                Err(format!(
                    "pods {names:?}, claims {claims:?}, status.replicas {replicas:?}\n{}",
                    controller.log_tail()
                ))
            }
        },
    )
    .await;
}

/// Defect 3: a recreating rolling update with `maxUnavailable: 2` deleted a third pod while
/// two deleted ones had not been recreated. The independent watcher counts a missing pod
/// of the six as unavailable.
#[tokio::test]
async fn a_recreating_asts_rollout_never_has_more_than_max_unavailable_pods_missing_or_unready() {
    let ns = TestNamespace::create("fix-asts-budget").await;
    let controller = RunningController::start(&ns);
    let api: Api<StatefulSet> = ns.api();
    let mut set = asts(
        "rb",
        6,
        false,
        json!({ "podManagementPolicy": "Parallel",
            "updateStrategy": { "rollingUpdate": { "maxUnavailable": 2, "podUpdatePolicy": "ReCreate" } } }),
    );
    // A recreated pod takes a moment to start, so a missing or starting pod is visible.
    set.spec.template.metadata.get_or_insert_default().annotations = Some(
        [(
            "sim.kubectl-kruise.io/start-delay".to_string(),
            "700ms".to_string(),
        )]
        .into(),
    );
    api.create(&PostParams::default(), &set).await.expect("create");
    let names = ["rb-0", "rb-1", "rb-2", "rb-3", "rb-4", "rb-5"];
    wait_ready(&ns, "rb", &names, Duration::from_secs(90), &controller).await;
    let watcher = PodWatcher::start_expecting(&ns, 6);
    tokio::time::sleep(Duration::from_millis(500)).await;
    watcher.reset_maxima();
    support::set_first_image(&api, "rb", "nginx:1.26").await;
    wait_for(
        "every rb pod recreated on nginx:1.26",
        Duration::from_secs(120),
        || async {
            let list = pods(&ns, "rb").await;
            let done = list.len() == 6
                && list.iter().all(|p| {
                    is_ready(p)
                        && p.spec.as_ref().and_then(|s| s.containers[0].image.as_deref())
                            == Some("nginx:1.26")
                });
            if done {
                Ok(())
            } else {
                Err(format!("{}\n{}", describe(&list), controller.log_tail()))
            }
        },
    )
    .await;
    assert!(
        watcher.max_unavailable() <= 2,
        "at most 2 of 6 pods missing, terminating or not ready; saw {}\n{}",
        watcher.max_unavailable(),
        watcher.timeline()
    );
}

/// Defect 4: Parallel scaling with `scaleStrategy.maxUnavailable: 1` and `minReadySeconds: 3`
/// never woke when a pod's minReadySeconds ended, so the next pod waited for an unrelated
/// event. Nothing else happens to this set, yet all three pods come and become available.
#[tokio::test]
async fn parallel_asts_scaling_wakes_when_min_ready_seconds_pass() {
    let ns = TestNamespace::create("fix-min-ready").await;
    let controller = RunningController::start(&ns);
    let api: Api<StatefulSet> = ns.api();
    let set = asts(
        "mr",
        3,
        false,
        json!({ "podManagementPolicy": "Parallel", "scaleStrategy": { "maxUnavailable": 1 },
            "updateStrategy": { "rollingUpdate": { "minReadySeconds": 3 } } }),
    );
    api.create(&PostParams::default(), &set).await.expect("create");
    // Three pods one after another, each available 3 s after it is Ready: ~10 s.
    wait_for("mr: 3 available replicas", Duration::from_secs(40), || async {
        let status = api.get_status("mr").await.map_err(|e| e.to_string())?.status;
        let available = status.as_ref().map(|s| s.available_replicas);
        if available == Some(3) {
            Ok(())
        } else {
            let list = pods(&ns, "mr").await;
            Err(format!(
                "available {available:?}; {}\n{}",
                describe(&list),
                controller.log_tail()
            ))
        }
    })
    .await;
}

/// Sets the `example.com/healthy` readiness gate condition of `pod`.
async fn set_health(ns: &TestNamespace, pod: &str, healthy: bool) {
    let api: Api<Pod> = ns.api();
    let status = if healthy { "True" } else { "False" };
    let patch = json!({ "status": { "conditions": [{ "type": "example.com/healthy", "status": status }] } });
    api.patch_status(pod, &PatchParams::default(), &Patch::Strategic(&patch))
        .await
        .expect("gate");
}

/// Defect 5: OrderedReady scale-down deleted every pod at once although none was Ready;
/// upstream and the built-in StatefulSet remove the highest pod only when it is Ready (or
/// the first unhealthy one), one at a time.
#[tokio::test]
async fn ordered_ready_scale_down_waits_while_the_pods_are_not_ready() {
    let ns = TestNamespace::create("fix-ordered-down").await;
    let controller = RunningController::start(&ns);
    let api: Api<StatefulSet> = ns.api();
    let mut set = asts("od", 3, false, json!({}));
    if let Some(spec) = set.spec.template.spec.as_mut() {
        spec.readiness_gates = Some(vec![support::object(
            json!({ "conditionType": "example.com/healthy" }),
        )]);
    }
    api.create(&PostParams::default(), &set).await.expect("create");
    // OrderedReady: each pod must be Ready before the next is made; the test is its health.
    for (i, name) in ["od-0", "od-1", "od-2"].iter().enumerate() {
        wait_for(&format!("{name} created"), Duration::from_secs(60), || async {
            let list = pods(&ns, "od").await;
            if list.len() > i {
                Ok(())
            } else {
                Err(format!("{}\n{}", describe(&list), controller.log_tail()))
            }
        })
        .await;
        set_health(&ns, name, true).await;
    }
    wait_ready(
        &ns,
        "od",
        &["od-0", "od-1", "od-2"],
        Duration::from_secs(60),
        &controller,
    )
    .await;
    for name in ["od-0", "od-1", "od-2"] {
        set_health(&ns, name, false).await;
    }
    wait_for("no od pod Ready", Duration::from_secs(30), || async {
        let list = pods(&ns, "od").await;
        if list.iter().any(is_ready) {
            Err(describe(&list))
        } else {
            Ok(())
        }
    })
    .await;
    scale(&api, "od", 0).await;
    tokio::time::sleep(Duration::from_secs(4)).await;
    let list = pods(&ns, "od").await;
    assert_eq!(
        list.iter()
            .filter(|p| p.metadata.deletion_timestamp.is_none())
            .count(),
        3,
        "no pod goes while od-2 is not Ready: {}\n{}",
        describe(&list),
        controller.log_tail()
    );
    // Healthy again: they go, highest first.
    set_health(&ns, "od-2", true).await;
    set_health(&ns, "od-1", true).await;
    set_health(&ns, "od-0", true).await;
    wait_for("od scaled to 0", Duration::from_secs(60), || async {
        let list = pods(&ns, "od").await;
        if list.is_empty() {
            Ok(())
        } else {
            Err(format!("{}\n{}", describe(&list), controller.log_tail()))
        }
    })
    .await;
}

/// Defect 6: a pod whose claim was deleted stayed Pending ("persistentvolumeclaim not
/// found") for good; the built-in StatefulSet makes the claim again.
#[tokio::test]
async fn a_deleted_claim_of_an_asts_pod_is_made_again() {
    let ns = TestNamespace::create("fix-claim-again").await;
    let controller = RunningController::start(&ns);
    let api: Api<StatefulSet> = ns.api();
    api.create(&PostParams::default(), &asts("ca", 1, true, json!({})))
        .await
        .expect("create");
    wait_ready(&ns, "ca", &["ca-0"], Duration::from_secs(60), &controller).await;
    let claims: Api<PersistentVolumeClaim> = ns.api();
    let old = claims.get("data-ca-0").await.expect("claim").uid();
    // The claim is protected while its pod lives; it goes with the pod, and the recreated
    // pod finds no claim.
    claims
        .delete("data-ca-0", &DeleteParams::default())
        .await
        .expect("delete claim");
    let pod_api: Api<Pod> = ns.api();
    pod_api
        .delete("ca-0", &DeleteParams::default())
        .await
        .expect("delete pod");
    wait_for(
        "ca-0 Ready again on a new claim",
        Duration::from_secs(60),
        || async {
            let list = pods(&ns, "ca").await;
            let claim = claims.get_opt("data-ca-0").await.map_err(|e| e.to_string())?;
            let fresh = claim
                .as_ref()
                .is_some_and(|c| c.uid() != old && c.metadata.deletion_timestamp.is_none());
            if fresh && list.len() == 1 && is_ready(&list[0]) {
                Ok(())
            } else {
                Err(format!(
                    "{} claim fresh={fresh}\n{}",
                    describe(&list),
                    controller.log_tail()
                ))
            }
        },
    )
    .await;
}

/// Defect 7: a pod whose owner reference was removed was adopted only when something else
/// triggered the set; the pod's own event must.
#[tokio::test]
async fn an_orphaned_asts_pod_is_adopted_on_its_own_event() {
    let ns = TestNamespace::create("fix-adopt").await;
    let controller = RunningController::start(&ns);
    let api: Api<StatefulSet> = ns.api();
    api.create(
        &PostParams::default(),
        &asts("ad", 2, false, json!({ "podManagementPolicy": "Parallel" })),
    )
    .await
    .expect("create");
    wait_ready(&ns, "ad", &["ad-0", "ad-1"], Duration::from_secs(60), &controller).await;
    let pod_api: Api<Pod> = ns.api();
    let uid = pod_api.get("ad-1").await.expect("pod").uid();
    let patch: json_patch::Patch =
        serde_json::from_value(json!([{ "op": "remove", "path": "/metadata/ownerReferences" }]))
            .expect("patch");
    pod_api
        .patch("ad-1", &PatchParams::default(), &Patch::<()>::Json(patch))
        .await
        .expect("orphan ad-1");
    wait_for(
        "ad-1 adopted again, same pod",
        Duration::from_secs(15),
        || async {
            let pod = pod_api.get("ad-1").await.map_err(|e| e.to_string())?;
            let owned = pod
                .owner_references()
                .iter()
                .any(|o| o.kind == "StatefulSet" && o.controller == Some(true));
            if owned && pod.uid() == uid {
                Ok(())
            } else {
                Err(format!(
                    "owners {:?}\n{}",
                    pod.owner_references(),
                    controller.log_tail()
                ))
            }
        },
    )
    .await;
}

/// Unavailable means unavailable, while scaling: with `scaleStrategy.maxUnavailable: 2`
/// a Parallel Advanced StatefulSet growing from 1 to 8 never has more than two pods not yet
/// Ready, by the independent watcher's count (pods start 700 ms after creation).
#[tokio::test]
async fn parallel_asts_scale_up_keeps_within_scale_strategy_max_unavailable() {
    let ns = TestNamespace::create("fix-scale-asts").await;
    let controller = RunningController::start(&ns);
    let mut set = asts(
        "sb",
        1,
        false,
        json!({ "podManagementPolicy": "Parallel", "scaleStrategy": { "maxUnavailable": 2 } }),
    );
    set.spec.template.metadata.get_or_insert_default().annotations = Some(slow_start());
    let api: Api<StatefulSet> = ns.api();
    api.create(&PostParams::default(), &set).await.expect("create");
    wait_ready(&ns, "sb", &["sb-0"], Duration::from_secs(60), &controller).await;
    let watcher = PodWatcher::start(&ns);
    tokio::time::sleep(Duration::from_millis(500)).await;
    watcher.reset_maxima();
    scale(&api, "sb", 8).await;
    let names: Vec<String> = (0..8).map(|i| format!("sb-{i}")).collect();
    let names: Vec<&str> = names.iter().map(String::as_str).collect();
    wait_ready(&ns, "sb", &names, Duration::from_secs(90), &controller).await;
    assert!(
        watcher.max_unavailable() <= 2,
        "at most 2 pods not Ready while scaling; saw {}\n{}",
        watcher.max_unavailable(),
        watcher.timeline()
    );
}

/// Defect 8 for an Advanced StatefulSet: the held pod goes back to Normal (upstream leaves
/// it in PreparingDelete for good, unavailable, and an OrderedReady set stuck behind it).
#[tokio::test]
async fn removing_the_specified_delete_label_from_a_held_asts_pod_returns_it_to_normal() {
    let ns = TestNamespace::create("fix-cancel-asts").await;
    let controller = RunningController::start(&ns);
    let api: Api<StatefulSet> = ns.api();
    let mut set = asts("ch", 2, false, json!({}));
    set.spec.lifecycle = Some(support::object(held_by_a_pre_delete_hook(&mut set.spec.template)));
    api.create(&PostParams::default(), &set).await.expect("create");
    wait_ready(&ns, "ch", &["ch-0", "ch-1"], Duration::from_secs(60), &controller).await;
    let (before, after) = mark_hold_and_cancel(&ns, "ch-1", &controller).await;
    assert_eq!(before, after, "the same pod");
    wait_ready(&ns, "ch", &["ch-0", "ch-1"], Duration::from_secs(30), &controller).await;
}
