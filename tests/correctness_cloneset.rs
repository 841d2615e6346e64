//! Correctness defects of the CloneSet controller found by acceptance testing, each proven
//! on the real control plane with the controller as a child process (defect numbers as in
//! the issue; the Advanced StatefulSet's are in `correctness.rs`).
mod support;

use std::time::Duration;

use k8s_openapi::api::core::v1::{PersistentVolumeClaim, Pod};
use kube::ResourceExt;
use kube::api::{Api, DeleteParams, ListParams};
use serde_json::{Value, json};
use support::clonesets;
use support::controller::{PodWatcher, RunningController};
use support::pods::{
    claim_names, describe, held_by_a_pre_delete_hook, is_ready, mark_hold_and_cancel, slow_start,
};
use support::{TestNamespace, wait_for};

/// Defect 1: a CloneSet with `scaleStrategy.disablePVCReuse: true` made the new pods' claims
/// during a recreating update and deleted them again, leaving the pods Pending ("not
/// found / is being deleted"). Every recreated pod must run on claims of its own.
#[tokio::test]
async fn a_cloneset_without_claim_reuse_recreates_its_pods_on_fresh_claims_that_stay() {
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

/// The same for a CloneSet growing from 1 to 8.
#[tokio::test]
async fn cloneset_scale_up_keeps_within_scale_strategy_max_unavailable() {
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
    let ns = TestNamespace::create("fix-cs-vct").await;
    let controller = RunningController::start(&ns);
    let (before, after) = change_image_and_claim_size(&ns, &controller).await;
    assert_eq!(after.pods, before.pods, "updated in place");
    assert_eq!(after.claims, before.claims, "the claims are kept as they were");
    clonesets::merge_patch(&ns, "vc", json!({ "spec": { "replicas": 3 } })).await;
    clonesets::wait_settled(&ns, "vc", 3, 3, &controller).await;
    let sizes: Vec<String> = claims_of(&ns).await.into_iter().map(|(_, _, s)| s).collect();
    assert_eq!(
        sizes.iter().filter(|s| *s == "2Gi").count(),
        1,
        "the new pod's claim has the new size: {sizes:?}"
    );
}

/// With OpenKruise's RecreatePodWhenChangeVCTInCloneSetGate, the same change recreates
/// every pod with claims of the new size (the old claims go with their pods).
#[tokio::test]
async fn with_the_vct_gate_a_claim_template_change_recreates_the_pods_with_new_claims() {
    let ns = TestNamespace::create("fix-cs-vct-gate").await;
    let controller = RunningController::start_with(
        &ns,
        &["--feature-gates", "RecreatePodWhenChangeVCTInCloneSetGate=true"],
    );
    let (before, after) = change_image_and_claim_size(&ns, &controller).await;
    for (pod, uid) in &before.pods {
        assert!(
            !after.pods.iter().any(|(p, u)| p == pod || u == uid),
            "{pod} was recreated"
        );
    }
    assert_eq!(after.claims.len(), 2);
    for (claim, uid, size) in &after.claims {
        assert_eq!(size, "2Gi", "{claim}");
        assert!(!before.claims.iter().any(|(_, u, _)| u == uid), "{claim} is new");
    }
}

/// Pods (name, uid) and claims (name, uid, size) of the set `vc`.
struct Seen {
    pods: Vec<(String, Option<String>)>,
    claims: Vec<(String, Option<String>, String)>,
}

async fn claims_of(ns: &TestNamespace) -> Vec<(String, Option<String>, String)> {
    let claims_api: Api<PersistentVolumeClaim> = ns.api();
    let mut all: Vec<(String, Option<String>, String)> = claims_api
        .list(&ListParams::default())
        .await
        .expect("claims")
        .items
        .iter()
        .filter(|c| c.metadata.deletion_timestamp.is_none())
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
}

async fn seen(ns: &TestNamespace) -> Seen {
    let pods = clonesets::pods(ns, "vc").await;
    Seen {
        pods: pods.iter().map(|p| (p.name_any(), p.uid())).collect(),
        claims: claims_of(ns).await,
    }
}

/// Makes the set `vc` (2 pods, InPlaceIfPossible, a 1Gi claim each), then changes its
/// image and its claim size to 2Gi together; what was there before and after.
async fn change_image_and_claim_size(ns: &TestNamespace, controller: &RunningController) -> (Seen, Seen) {
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
    clonesets::create(ns, &set).await;
    clonesets::wait_settled(ns, "vc", 2, 2, controller).await;
    let before = seen(ns).await;
    let mut containers =
        serde_json::to_value(&set.spec.template.spec.as_ref().expect("spec").containers).expect("json");
    containers[0]["image"] = json!("nginx:1.26");
    clonesets::merge_patch(
        ns,
        "vc",
        json!({ "spec": { "volumeClaimTemplates": claim("2Gi"),
            "template": { "spec": { "containers": containers } } } }),
    )
    .await;
    clonesets::wait_settled(ns, "vc", 2, 2, controller).await;
    (before, seen(ns).await)
}

/// The preDelete hook of the defect-8 tests: a label the pods carry from their template.
/// Defect 8: taking the `apps.kruise.io/specified-delete` label off a pod that waits in
/// PreparingDelete (its preDelete hook holds it) cancels the delete: the pod goes back to
/// Normal (through PreparingNormal, as upstream's `managePreparingDelete` does) and the set
/// keeps its replica count, no pod too many.
#[tokio::test]
async fn removing_the_specified_delete_label_from_a_held_pod_returns_it_to_normal() {
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

/// Defect 9: the wire format of an in-place update matches upstream's: during a grace
/// period the state annotation has `lastContainerStatuses: null` (nothing applied yet);
/// once applied it records the imageIDs and a `containerBatchesRecord` entry; pods carry a
/// controller reference with `blockOwnerDeletion: true`.
#[tokio::test]
async fn in_place_state_and_owner_references_are_written_as_upstream_writes_them() {
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
