//! Correctness defects found by acceptance testing, each proven on the real control plane
//! with the controller as a child process: every test failed before its fix. The classes
//! behind them (no stall, unavailable means unavailable, nothing left Pending by us) are
//! also property-tested on the planners.
mod support;

use std::time::Duration;

use k8s_openapi::api::core::v1::{PersistentVolumeClaim, Pod};
use kube::ResourceExt;
use kube::api::{Api, DeleteParams, ListParams, Patch, PatchParams, PostParams};
use kubectl_kruise::api::statefulset::v1beta1::StatefulSet;
use serde_json::{Value, json};
use support::controller::{PodWatcher, RunningController};
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

async fn pods(ns: &TestNamespace, app: &str) -> Vec<Pod> {
    let api: Api<Pod> = ns.api();
    let mut list = api
        .list(&ListParams::default().labels(&format!("app={app}")))
        .await
        .expect("list pods")
        .items;
    list.sort_by_key(|p| p.name_any());
    list
}

fn is_ready(pod: &Pod) -> bool {
    pod.metadata.deletion_timestamp.is_none()
        && pod
            .status
            .as_ref()
            .and_then(|s| s.conditions.as_ref())
            .is_some_and(|c| c.iter().any(|c| c.type_ == "Ready" && c.status == "True"))
}

/// `name: phase ready` per pod, for failure messages.
fn describe(pods: &[Pod]) -> String {
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
async fn wait_ready(ns: &TestNamespace, app: &str, names: &[&str], within: Duration, c: &RunningController) {
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

async fn scale(api: &Api<StatefulSet>, name: &str, replicas: i32) {
    api.patch(
        name,
        &PatchParams::default(),
        &Patch::Merge(&json!({ "spec": { "replicas": replicas } })),
    )
    .await
    .expect("scale");
}

async fn claim_names(ns: &TestNamespace) -> Vec<String> {
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

/// Defect 1: a CloneSet with `scaleStrategy.disablePVCReuse: true` made the new pods' claims
/// during a recreating update and deleted them again, leaving the pods Pending ("not
/// found / is being deleted"). Every recreated pod must run on claims of its own.
#[tokio::test]
async fn a_cloneset_without_claim_reuse_recreates_its_pods_on_fresh_claims_that_stay() {
    use support::clonesets;
    let ns = TestNamespace::create("fix-cs-claims").await;
    let controller = RunningController::start(&ns);
    let mut set = clonesets::cloneset(
        "nr",
        3,
        json!({ "type": "ReCreate", "maxUnavailable": 1 }),
        json!({ "scaleStrategy": { "disablePVCReuse": true },
            "volumeClaimTemplates": [{ "metadata": { "name": "data" },
                "spec": { "accessModes": ["ReadWriteOnce"], "resources": { "requests": { "storage": "1Gi" } } } }] }),
    );
    if let Some(spec) = set.spec.template.spec.as_mut() {
        spec.containers[0].volume_mounts = Some(vec![support::object(
            json!({ "name": "data", "mountPath": "/data" }),
        )]);
    }
    clonesets::create(&ns, &set).await;
    clonesets::wait_settled(&ns, "nr", 3, 3, &controller).await;
    let before: Vec<String> = clonesets::pods(&ns, "nr")
        .await
        .iter()
        .map(|p| p.name_any())
        .collect();
    clonesets::set_image(&ns, "nr", "nginx:1.26").await;
    clonesets::wait_settled(&ns, "nr", 3, 3, &controller).await;
    let after = clonesets::pods(&ns, "nr").await;
    let claims = claim_names(&ns).await;
    for pod in &after {
        assert!(
            !before.contains(&pod.name_any()),
            "{} was recreated",
            pod.name_any()
        );
        let wanted: Vec<String> = pod
            .spec
            .iter()
            .flat_map(|s| s.volumes.iter().flatten())
            .filter_map(|v| v.persistent_volume_claim.as_ref().map(|c| c.claim_name.clone()))
            .collect();
        for claim in wanted {
            assert!(
                claims.contains(&claim),
                "{}'s claim {claim} exists: {claims:?}",
                pod.name_any()
            );
        }
    }
    // Old claims go with their pods (reuse disabled): three claims, one per pod.
    wait_for("one claim per pod", Duration::from_secs(30), || async {
        let claims = claim_names(&ns).await;
        if claims.len() == 3 {
            Ok(())
        } else {
            Err(format!("{claims:?}"))
        }
    })
    .await;
    // A pod deleted by hand leaves its claim behind: the cleanup deletes that claim, and
    // the replacement must not take its id (it would wait on a claim being deleted).
    let gone = after[0].name_any();
    let pod_api: Api<Pod> = ns.api();
    pod_api
        .delete(&gone, &DeleteParams::default())
        .await
        .expect("delete pod");
    wait_for(
        "a replacement with a claim of its own",
        Duration::from_secs(45),
        || async {
            let claims = claim_names(&ns).await;
            let list = clonesets::pods(&ns, "nr").await;
            let names: Vec<String> = list.iter().map(|p| p.name_any()).collect();
            let ready = list.len() == 3 && list.iter().all(is_ready) && !names.contains(&gone);
            if ready && claims.len() == 3 {
                Ok(())
            } else {
                Err(format!(
                    "{} {claims:?}\n{}",
                    describe(&list),
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

fn slow_start() -> std::collections::BTreeMap<String, String> {
    [(
        "sim.kubectl-kruise.io/start-delay".to_string(),
        "700ms".to_string(),
    )]
    .into()
}

/// The same for a CloneSet growing from 1 to 8.
#[tokio::test]
async fn cloneset_scale_up_keeps_within_scale_strategy_max_unavailable() {
    use support::clonesets;
    let ns = TestNamespace::create("fix-scale-cs").await;
    let controller = RunningController::start(&ns);
    let mut cs = clonesets::cloneset(
        "cb",
        1,
        json!({ "type": "ReCreate" }),
        json!({ "scaleStrategy": { "maxUnavailable": 2 } }),
    );
    cs.spec.template.metadata.get_or_insert_default().annotations = Some(slow_start());
    clonesets::create(&ns, &cs).await;
    clonesets::wait_settled(&ns, "cb", 1, 1, &controller).await;
    let watcher = PodWatcher::start(&ns);
    tokio::time::sleep(Duration::from_millis(500)).await;
    watcher.reset_maxima();
    clonesets::merge_patch(&ns, "cb", json!({ "spec": { "replicas": 8 } })).await;
    clonesets::wait_settled(&ns, "cb", 8, 8, &controller).await;
    assert!(
        watcher.max_unavailable() <= 2,
        "at most 2 pods not Ready while scaling; saw {}\n{}",
        watcher.max_unavailable(),
        watcher.timeline()
    );
}

/// Defect 10, decided: a change of `volumeClaimTemplates` together with an image is done in
/// place, as upstream does with its default gates (RecreatePodWhenChangeVCTInCloneSetGate
/// off). The pods and their claims stay (nothing a user owns is lost: recreating would
/// delete the claims and their data); pods created afterwards get claims of the new shape.
#[tokio::test]
async fn a_cloneset_claim_template_change_with_an_image_goes_in_place_and_keeps_the_claims() {
    use support::clonesets;
    let ns = TestNamespace::create("fix-cs-vct").await;
    let controller = RunningController::start(&ns);
    let claim = |size: &str| {
        json!([{ "metadata": { "name": "data" },
            "spec": { "accessModes": ["ReadWriteOnce"], "resources": { "requests": { "storage": size } } } }])
    };
    let mut set = clonesets::cloneset(
        "vc",
        2,
        json!({ "type": "InPlaceIfPossible" }),
        json!({ "volumeClaimTemplates": claim("1Gi") }),
    );
    if let Some(spec) = set.spec.template.spec.as_mut() {
        spec.containers[0].volume_mounts = Some(vec![support::object(
            json!({ "name": "data", "mountPath": "/data" }),
        )]);
    }
    clonesets::create(&ns, &set).await;
    clonesets::wait_settled(&ns, "vc", 2, 2, &controller).await;
    let claims_api: Api<PersistentVolumeClaim> = ns.api();
    let uids = |list: &[Pod]| list.iter().map(|p| (p.name_any(), p.uid())).collect::<Vec<_>>();
    let claim_uids = || async {
        let mut all: Vec<(String, Option<String>, String)> = claims_api
            .list(&ListParams::default())
            .await
            .expect("claims")
            .items
            .iter()
            .map(|c| {
                let size = c
                    .spec
                    .as_ref()
                    .and_then(|s| s.resources.as_ref())
                    .and_then(|r| r.requests.as_ref())
                    .and_then(|r| r.get("storage"))
                    .map(|q| q.0.clone())
                    .unwrap_or_default();
                (c.name_any(), c.uid(), size)
            })
            .collect();
        all.sort();
        all
    };
    let pods_before = uids(&clonesets::pods(&ns, "vc").await);
    let claims_before = claim_uids().await;
    let containers =
        serde_json::to_value(&set.spec.template.spec.as_ref().expect("spec").containers).expect("json");
    let mut containers = containers;
    containers[0]["image"] = json!("nginx:1.26");
    clonesets::merge_patch(
        &ns,
        "vc",
        json!({ "spec": { "volumeClaimTemplates": claim("2Gi"),
            "template": { "spec": { "containers": containers } } } }),
    )
    .await;
    clonesets::wait_settled(&ns, "vc", 2, 2, &controller).await;
    assert_eq!(
        uids(&clonesets::pods(&ns, "vc").await),
        pods_before,
        "updated in place"
    );
    assert_eq!(
        claim_uids().await,
        claims_before,
        "the claims are kept as they were"
    );
    clonesets::merge_patch(&ns, "vc", json!({ "spec": { "replicas": 3 } })).await;
    clonesets::wait_settled(&ns, "vc", 3, 3, &controller).await;
    let sizes: Vec<String> = claim_uids().await.into_iter().map(|(_, _, s)| s).collect();
    assert_eq!(
        sizes.iter().filter(|s| *s == "2Gi").count(),
        1,
        "the new pod's claim has the new size: {sizes:?}"
    );
}

/// The preDelete hook of the defect-8 tests: a label the pods carry from their template.
fn held_by_a_pre_delete_hook(template: &mut k8s_openapi::api::core::v1::PodTemplateSpec) -> Value {
    template
        .metadata
        .get_or_insert_default()
        .labels
        .get_or_insert_default()
        .insert("example.com/hold".into(), "true".into());
    json!({ "preDelete": { "labelsHandler": { "example.com/hold": "true" } } })
}

fn lifecycle_state(pod: &Pod) -> String {
    pod.labels()
        .get("lifecycle.apps.kruise.io/state")
        .cloned()
        .unwrap_or_default()
}

/// Labels `victim` `apps.kruise.io/specified-delete`, waits until its hook holds it in
/// PreparingDelete, takes the label off again, and waits until it is Normal again; returns
/// the pod's UID before and after.
async fn mark_hold_and_cancel(
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

/// Defect 8: taking the `apps.kruise.io/specified-delete` label off a pod that waits in
/// PreparingDelete (its preDelete hook holds it) cancels the delete: the pod goes back to
/// Normal (through PreparingNormal, as upstream's `managePreparingDelete` does) and the set
/// keeps its replica count, no pod too many.
#[tokio::test]
async fn removing_the_specified_delete_label_from_a_held_pod_returns_it_to_normal() {
    use support::clonesets;
    let ns = TestNamespace::create("fix-cancel-delete").await;
    let controller = RunningController::start(&ns);
    let mut set = clonesets::cloneset(
        "cd",
        3,
        json!({ "type": "ReCreate", "maxUnavailable": 1 }),
        json!({}),
    );
    set.spec.lifecycle = Some(support::object(held_by_a_pre_delete_hook(&mut set.spec.template)));
    clonesets::create(&ns, &set).await;
    clonesets::wait_settled(&ns, "cd", 3, 3, &controller).await;
    let victim = clonesets::pods(&ns, "cd").await[0].name_any();
    let (before, after) = mark_hold_and_cancel(&ns, &victim, &controller).await;
    assert_eq!(before, after, "the same pod");
    clonesets::wait_settled(&ns, "cd", 3, 3, &controller).await;
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

/// Defect 9: the wire format of an in-place update matches upstream's: during a grace
/// period the state annotation has `lastContainerStatuses: null` (nothing applied yet);
/// once applied it records the imageIDs and a `containerBatchesRecord` entry; pods carry a
/// controller reference with `blockOwnerDeletion: true`.
#[tokio::test]
async fn in_place_state_and_owner_references_are_written_as_upstream_writes_them() {
    use support::clonesets;
    let ns = TestNamespace::create("fix-wire").await;
    let controller = RunningController::start(&ns);
    let set = clonesets::cloneset(
        "wf",
        1,
        json!({ "type": "InPlaceIfPossible", "inPlaceUpdateStrategy": { "gracePeriodSeconds": 3 } }),
        json!({}),
    );
    clonesets::create(&ns, &set).await;
    clonesets::wait_settled(&ns, "wf", 1, 1, &controller).await;
    let pod_api: Api<Pod> = ns.api();
    let name = clonesets::pods(&ns, "wf").await[0].name_any();
    let owner = pod_api.get(&name).await.expect("pod").owner_references()[0].clone();
    assert_eq!(
        (owner.kind.as_str(), owner.controller, owner.block_owner_deletion),
        ("CloneSet", Some(true), Some(true))
    );
    clonesets::set_image(&ns, "wf", "nginx:1.26").await;
    let state = |p: &Pod| -> Option<Value> {
        p.annotations()
            .get("apps.kruise.io/inplace-update-state")
            .and_then(|s| serde_json::from_str(s).ok())
    };
    let graced = wait_for("the grace period started", Duration::from_secs(30), || async {
        let pod = pod_api.get(&name).await.map_err(|e| e.to_string())?;
        let in_grace = pod
            .annotations()
            .contains_key("apps.kruise.io/inplace-update-grace");
        match state(&pod) {
            Some(s) if in_grace => Ok(s),
            other => Err(format!("{other:?}\n{}", controller.log_tail())),
        }
    })
    .await;
    assert_eq!(graced["lastContainerStatuses"], Value::Null, "{graced}");
    assert!(graced.get("containerBatchesRecord").is_none(), "{graced}");
    clonesets::wait_settled(&ns, "wf", 1, 1, &controller).await;
    let pod = pod_api.get(&name).await.expect("pod");
    let done = state(&pod).expect("state");
    assert!(
        done["lastContainerStatuses"]["app"]["imageID"].is_string(),
        "{done}"
    );
    assert_eq!(
        done["containerBatchesRecord"][0]["containers"],
        json!(["app"]),
        "{done}"
    );
    assert_eq!(
        done["updateTimestamp"], graced["updateTimestamp"],
        "kept from the start"
    );
}
