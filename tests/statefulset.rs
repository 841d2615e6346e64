//! The Advanced StatefulSet controller end to end: `kubectl kruise run -n NS` as a child
//! process on the real control plane with simulated nodes, next to the built-in
//! StatefulSet controller of the same control plane. The behaviour expected is OpenKruise's:
//! <https://openkruise.io/docs/user-manuals/advancedstatefulset>.
mod support;

use std::collections::BTreeMap;
use std::time::Duration;

use k8s_openapi::api::apps::v1::StatefulSet as BuiltinStatefulSet;
use k8s_openapi::api::core::v1::{PersistentVolumeClaim, Pod};
use kube::ResourceExt;
use kube::api::{Api, ListParams, Patch, PatchParams, PostParams};
use kubectl_kruise::api::statefulset::v1beta1::StatefulSet;
use serde_json::{Value, json};
use support::controller::{PodView, PodWatcher, RunningController};
use support::pods::pods;
use support::{TestNamespace, wait_for};

const WAIT: Duration = Duration::from_secs(90);

fn views(pods: &[Pod]) -> BTreeMap<String, PodView> {
    pods.iter().map(|p| (p.name_any(), PodView::of(p))).collect()
}

/// Waits until the app's pods are exactly `names`, all Ready and running `image`.
async fn wait_pods(
    ns: &TestNamespace,
    app: &str,
    names: &[&str],
    image: &str,
    controller: Option<&RunningController>,
) {
    let what = format!("pods {names:?} of {app} ready on {image}");
    wait_for(&what, WAIT, || async {
        let list = pods(ns, app).await;
        let have: Vec<String> = list.iter().map(|p| p.name_any()).collect();
        let ready = list.iter().all(|p| {
            let v = PodView::of(p);
            v.ready && v.image == image && p.metadata.deletion_timestamp.is_none()
        });
        if have == names && ready {
            Ok(())
        } else {
            let log = controller.map(RunningController::log_tail).unwrap_or_default();
            Err(format!("{:#?}\n{log}", views(&list)))
        }
    })
    .await
}

#[tokio::test]
async fn the_handbook_sample_runs_and_updates_in_place_two_at_a_time() {
    let ns = TestNamespace::create("asts-handbook").await;
    let docs = support::manifests::documents(std::path::Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/advanced-statefulset-sample.yaml"
    )));
    let doc = docs.into_iter().next().expect("one document");
    let controller = RunningController::start(&ns);
    support::manifests::apply(&ns, &doc)
        .await
        .expect("the v1alpha1 sample is accepted");
    wait_pods(
        &ns,
        "sample",
        &["sample-0", "sample-1", "sample-2"],
        "nginx:alpine",
        Some(&controller),
    )
    .await;
    let before = views(&pods(&ns, "sample").await);

    let watcher = PodWatcher::start(&ns);
    tokio::time::sleep(Duration::from_millis(500)).await;
    watcher.reset_maxima();
    let api: Api<StatefulSet> = ns.api();
    support::set_first_image(&api, "sample", "nginx:1.27-alpine").await;
    wait_pods(
        &ns,
        "sample",
        &["sample-0", "sample-1", "sample-2"],
        "nginx:1.27-alpine",
        Some(&controller),
    )
    .await;
    let after = views(&pods(&ns, "sample").await);
    for (name, was) in &before {
        let now = &after[name];
        assert_eq!(
            (&now.uid, &now.node, &now.ip),
            (&was.uid, &was.node, &was.ip),
            "{name} kept in place"
        );
        assert_eq!(now.restarts, was.restarts + 1, "{name} restarted once");
    }
    assert_eq!(
        watcher.max_pods(),
        3,
        "never a fourth pod\n{}",
        watcher.timeline()
    );
    assert!(
        watcher.max_unavailable() <= 2,
        "maxUnavailable 2 held\n{}",
        watcher.timeline()
    );
    assert!(
        watcher.max_unavailable() == 2,
        "two at a time (Parallel, maxUnavailable 2)\n{}",
        watcher.timeline()
    );
    let set = wait_for("status caught up", WAIT, || async {
        let s = api.get("sample").await.map_err(|e| e.to_string())?;
        let st = s.status.clone().unwrap_or_default();
        if st.updated_replicas == 3 && st.ready_replicas == 3 && st.current_revision == st.update_revision {
            Ok(s)
        } else {
            Err(format!("{st:?}"))
        }
    })
    .await;
    assert_eq!(
        set.status.and_then(|s| s.observed_generation),
        set.metadata.generation
    );
}

fn with_claims(kind_api: &str, name: &str, extra: Value) -> Value {
    let mut spec = json!({
        "replicas": 2,
        "serviceName": name,
        "podManagementPolicy": "Parallel",
        "selector": { "matchLabels": { "app": name } },
        "template": {
            "metadata": { "labels": { "app": name } },
            "spec": {
                "readinessGates": [{ "conditionType": "InPlaceUpdateReady" }],
                "containers": [{ "name": "app", "image": "nginx:1.25",
                    "volumeMounts": [{ "name": "data", "mountPath": "/data" }] }],
            },
        },
        "volumeClaimTemplates": [{ "metadata": { "name": "data" },
            "spec": { "accessModes": ["ReadWriteOnce"], "resources": { "requests": { "storage": "1Gi" } } } }],
    });
    if let (Some(spec), Some(extra)) = (spec.as_object_mut(), extra.as_object()) {
        for (k, v) in extra {
            spec.insert(k.clone(), v.clone());
        }
    }
    json!({ "apiVersion": kind_api, "kind": "StatefulSet", "metadata": { "name": name }, "spec": spec })
}

async fn claim_uids(ns: &TestNamespace, prefix: &str) -> BTreeMap<String, String> {
    let api: Api<PersistentVolumeClaim> = ns.api();
    api.list(&ListParams::default())
        .await
        .expect("list claims")
        .items
        .into_iter()
        .filter(|c| c.name_any().starts_with(prefix) && c.metadata.deletion_timestamp.is_none())
        .map(|c| (c.name_any(), c.uid().unwrap_or_default()))
        .collect()
}

#[tokio::test]
async fn in_place_keeps_uid_node_and_claims_while_the_builtin_statefulset_recreates() {
    let ns = TestNamespace::create("asts-vs-sts").await;
    let controller = RunningController::start(&ns);
    let ours: Api<StatefulSet> = ns.api();
    let builtin: Api<BuiltinStatefulSet> = ns.api();
    let advanced = with_claims(
        "apps.kruise.io/v1beta1",
        "adv",
        json!({ "updateStrategy": { "rollingUpdate": { "podUpdatePolicy": "InPlaceIfPossible" } } }),
    );
    ours.create(&PostParams::default(), &support::object(advanced))
        .await
        .expect("create Advanced StatefulSet");
    let mut native = with_claims("apps/v1", "nat", json!({}));
    if let Some(spec) = native["spec"]["template"]["spec"].as_object_mut() {
        spec.remove("readinessGates");
    }
    builtin
        .create(&PostParams::default(), &support::object(native))
        .await
        .expect("create built-in StatefulSet");
    wait_pods(&ns, "adv", &["adv-0", "adv-1"], "nginx:1.25", Some(&controller)).await;
    wait_pods(&ns, "nat", &["nat-0", "nat-1"], "nginx:1.25", None).await;
    let (adv_before, nat_before) = (views(&pods(&ns, "adv").await), views(&pods(&ns, "nat").await));
    let (adv_claims, nat_claims) = (
        claim_uids(&ns, "data-adv-").await,
        claim_uids(&ns, "data-nat-").await,
    );
    assert_eq!(adv_claims.len(), 2, "{adv_claims:?}");

    support::set_first_image(&ours, "adv", "nginx:1.26").await;
    support::set_first_image(&builtin, "nat", "nginx:1.26").await;
    wait_pods(&ns, "adv", &["adv-0", "adv-1"], "nginx:1.26", Some(&controller)).await;
    wait_pods(&ns, "nat", &["nat-0", "nat-1"], "nginx:1.26", None).await;
    let (adv_after, nat_after) = (views(&pods(&ns, "adv").await), views(&pods(&ns, "nat").await));
    for name in ["adv-0", "adv-1"] {
        assert_eq!(
            (&adv_after[name].uid, &adv_after[name].node),
            (&adv_before[name].uid, &adv_before[name].node),
            "{name}: same pod, same node"
        );
    }
    for name in ["nat-0", "nat-1"] {
        assert_ne!(
            nat_after[name].uid, nat_before[name].uid,
            "{name}: the built-in kind recreates"
        );
    }
    assert_eq!(claim_uids(&ns, "data-adv-").await, adv_claims, "the same claims");
    assert_eq!(claim_uids(&ns, "data-nat-").await, nat_claims);
}

#[tokio::test]
async fn partition_reserve_ordinals_and_retention_on_scale_down() {
    let ns = TestNamespace::create("asts-ordinals").await;
    let controller = RunningController::start(&ns);
    let api: Api<StatefulSet> = ns.api();
    let doc = with_claims(
        "apps.kruise.io/v1beta1",
        "ord",
        json!({ "replicas": 3, "reserveOrdinals": [1],
            "persistentVolumeClaimRetentionPolicy": { "whenScaled": "Delete", "whenDeleted": "Retain" },
            "updateStrategy": { "rollingUpdate": { "partition": 2, "maxUnavailable": 3,
                "podUpdatePolicy": "InPlaceIfPossible" } } }),
    );
    api.create(&PostParams::default(), &support::object(doc))
        .await
        .expect("create");
    wait_pods(
        &ns,
        "ord",
        &["ord-0", "ord-2", "ord-3"],
        "nginx:1.25",
        Some(&controller),
    )
    .await;

    support::set_first_image(&api, "ord", "nginx:1.26").await;
    wait_for("only the highest ordinal updated (partition 2)", WAIT, || async {
        let v = views(&pods(&ns, "ord").await);
        let images: Vec<(&str, &str)> = v.iter().map(|(n, p)| (n.as_str(), p.image.as_str())).collect();
        let want = [
            ("ord-0", "nginx:1.25"),
            ("ord-2", "nginx:1.25"),
            ("ord-3", "nginx:1.26"),
        ];
        if images == want && v.values().all(|p| p.ready) {
            Ok(())
        } else {
            Err(format!("{images:?}\n{}", controller.log_tail()))
        }
    })
    .await;
    tokio::time::sleep(Duration::from_secs(2)).await;
    let held: Vec<String> = views(&pods(&ns, "ord").await)
        .into_iter()
        .filter(|(_, v)| v.image == "nginx:1.25")
        .map(|(n, _)| n)
        .collect();
    assert_eq!(held, ["ord-0", "ord-2"], "the partition holds");

    api.patch(
        "ord",
        &PatchParams::default(),
        &Patch::Merge(&json!({ "spec": { "replicas": 1 } })),
    )
    .await
    .expect("scale down");
    wait_for("scaled to ord-0 with its claim only", WAIT, || async {
        let names: Vec<String> = pods(&ns, "ord").await.iter().map(|p| p.name_any()).collect();
        let claims: Vec<String> = claim_uids(&ns, "data-ord-").await.into_keys().collect();
        if names == ["ord-0"] && claims == ["data-ord-0"] {
            Ok(())
        } else {
            Err(format!(
                "pods {names:?}, claims {claims:?}\n{}",
                controller.log_tail()
            ))
        }
    })
    .await;
}

#[tokio::test]
async fn a_controller_killed_mid_rollout_is_restarted_and_the_rollout_converges() {
    let ns = TestNamespace::create("asts-crash").await;
    let api: Api<StatefulSet> = ns.api();
    let mut doc = with_claims(
        "apps.kruise.io/v1beta1",
        "crash",
        json!({ "replicas": 6,
            "updateStrategy": { "rollingUpdate": { "maxUnavailable": 2, "podUpdatePolicy": "InPlaceIfPossible" } } }),
    );
    doc["spec"]["template"]["metadata"]["annotations"] =
        json!({ "sim.kubectl-kruise.io/image-pull-delay": "1s" });
    api.create(&PostParams::default(), &support::object(doc))
        .await
        .expect("create");
    let names: Vec<String> = (0..6).map(|i| format!("crash-{i}")).collect();
    let names: Vec<&str> = names.iter().map(String::as_str).collect();
    let first = RunningController::start(&ns);
    wait_pods(&ns, "crash", &names, "nginx:1.25", Some(&first)).await;
    let before = views(&pods(&ns, "crash").await);

    let watcher = PodWatcher::start(&ns);
    tokio::time::sleep(Duration::from_millis(500)).await;
    watcher.reset_maxima();
    support::set_first_image(&api, "crash", "nginx:1.26").await;
    tokio::time::sleep(Duration::from_millis(1500)).await;
    first.kill();
    let second = RunningController::start(&ns);
    wait_pods(&ns, "crash", &names, "nginx:1.26", Some(&second)).await;
    let after = views(&pods(&ns, "crash").await);
    for (name, was) in &before {
        assert_eq!(
            after[name].uid, was.uid,
            "{name} updated in place across the crash"
        );
    }
    assert_eq!(
        watcher.max_pods(),
        6,
        "never a seventh pod\n{}",
        watcher.timeline()
    );
    assert!(
        watcher.max_unavailable() <= 2,
        "maxUnavailable held\n{}",
        watcher.timeline()
    );
    let claims = claim_uids(&ns, "data-crash-").await;
    assert_eq!(claims.len(), 6, "one claim per ordinal, none lost: {claims:?}");
}

#[tokio::test]
async fn claims_go_with_the_set_only_when_when_deleted_says_delete() {
    let ns = TestNamespace::create("asts-retain").await;
    let controller = RunningController::start(&ns);
    let api: Api<StatefulSet> = ns.api();
    for (name, policy) in [("gone", "Delete"), ("kept", "Retain")] {
        let doc = with_claims(
            "apps.kruise.io/v1beta1",
            name,
            json!({ "replicas": 1, "persistentVolumeClaimRetentionPolicy": { "whenDeleted": policy } }),
        );
        api.create(&PostParams::default(), &support::object(doc))
            .await
            .expect("create");
        wait_pods(
            &ns,
            name,
            &[&format!("{name}-0")],
            "nginx:1.25",
            Some(&controller),
        )
        .await;
    }
    for name in ["gone", "kept"] {
        api.delete(name, &kube::api::DeleteParams::foreground())
            .await
            .expect("delete set");
    }
    wait_for(
        "the Delete set's claim is collected, the Retain set's stays",
        WAIT,
        || async {
            let (gone, kept) = (
                claim_uids(&ns, "data-gone-").await,
                claim_uids(&ns, "data-kept-").await,
            );
            let pods_left = pods(&ns, "gone").await.len() + pods(&ns, "kept").await.len();
            if gone.is_empty() && kept.len() == 1 && pods_left == 0 {
                Ok(())
            } else {
                Err(format!("gone {gone:?}, kept {kept:?}, pods {pods_left}"))
            }
        },
    )
    .await;
}

#[tokio::test]
async fn rollout_status_follows_an_asts_and_a_missing_readiness_gate_is_named() {
    let ns = TestNamespace::create("asts-cli").await;
    let controller = RunningController::start(&ns);
    let api: Api<StatefulSet> = ns.api();
    let mut doc = with_claims(
        "apps.kruise.io/v1beta1",
        "cli",
        json!({ "replicas": 3, "updateStrategy": { "rollingUpdate": {
            "partition": 1, "maxUnavailable": 2, "podUpdatePolicy": "InPlaceIfPossible" } } }),
    );
    doc["spec"]["template"]["metadata"]["annotations"] =
        json!({ "sim.kubectl-kruise.io/image-pull-delay": "500ms" });
    api.create(&PostParams::default(), &support::object(doc))
        .await
        .expect("create");
    let status = |args: &[&str]| {
        let mut all = vec![
            "rollout",
            "status",
            "asts/cli",
            "-n",
            ns.name.as_str(),
            "--timeout",
            "60s",
        ];
        all.extend_from_slice(args);
        let all: Vec<String> = all.into_iter().map(str::to_string).collect();
        async move {
            tokio::task::spawn_blocking(move || {
                let refs: Vec<&str> = all.iter().map(String::as_str).collect();
                support::kruise(support::kubeconfig(), &refs)
            })
            .await
            .expect("join")
        }
    };
    let (code, out, err) = status(&[]).await;
    assert_eq!(code, 0, "{out}{err}\n{}", controller.log_tail());
    assert!(
        out.contains("asts/cli successfully rolled out (revision 1"),
        "{out}"
    );
    support::set_first_image(&api, "cli", "nginx:1.26").await;
    let (code, out, err) = status(&[]).await;
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.lines()
            .last()
            .unwrap_or_default()
            .contains("partition holds 1"),
        "stops at the partition: {out}"
    );

    let patch: json_patch::Patch = serde_json::from_value(json!([
        { "op": "remove", "path": "/spec/template/spec/readinessGates" },
        { "op": "replace", "path": "/spec/template/spec/containers/0/image", "value": "nginx:1.27" }
    ]))
    .expect("patch");
    api.patch("cli", &PatchParams::default(), &Patch::<()>::Json(patch))
        .await
        .expect("drop the gate");
    let events: Api<k8s_openapi::api::events::v1::Event> = ns.api();
    wait_for("an event names the missing readiness gate", WAIT, || async {
        let list = events
            .list(&ListParams::default())
            .await
            .map_err(|e| e.to_string())?;
        let found = list.items.iter().any(|e| {
            e.note
                .as_deref()
                .is_some_and(|n| n.contains("spec.template.spec.readinessGates"))
        });
        if found {
            Ok(())
        } else {
            Err(format!(
                "{:?}",
                list.items.iter().map(|e| e.note.clone()).collect::<Vec<_>>()
            ))
        }
    })
    .await;
    let images: Vec<String> = views(&pods(&ns, "cli").await)
        .into_values()
        .map(|v| v.image)
        .collect();
    assert!(
        !images.contains(&"nginx:1.27".to_string()),
        "nothing updated: {images:?}"
    );
}

#[tokio::test]
async fn weight_priority_decides_which_pods_update_first() {
    let ns = TestNamespace::create("asts-priority").await;
    let controller = RunningController::start(&ns);
    let api: Api<StatefulSet> = ns.api();
    let doc = with_claims(
        "apps.kruise.io/v1beta1",
        "prio",
        json!({ "replicas": 4, "updateStrategy": { "rollingUpdate": {
            "partition": 2, "maxUnavailable": 2, "podUpdatePolicy": "InPlaceIfPossible",
            "unorderedUpdate": { "priorityStrategy": { "weightPriority": [
                { "weight": 50, "matchSelector": { "matchLabels": { "tier": "canary" } } } ] } } } } }),
    );
    api.create(&PostParams::default(), &support::object(doc))
        .await
        .expect("create");
    let names = ["prio-0", "prio-1", "prio-2", "prio-3"];
    wait_pods(&ns, "prio", &names, "nginx:1.25", Some(&controller)).await;
    let pods_api: Api<Pod> = ns.api();
    for canary in ["prio-0", "prio-1"] {
        let patch = json!({ "metadata": { "labels": { "tier": "canary" } } });
        pods_api
            .patch(canary, &PatchParams::default(), &Patch::Merge(&patch))
            .await
            .expect("label canary");
    }
    support::set_first_image(&api, "prio", "nginx:1.26").await;
    wait_for(
        "the two canaries, not the highest ordinals, are updated",
        WAIT,
        || async {
            let v = views(&pods(&ns, "prio").await);
            let updated: Vec<&str> = v
                .iter()
                .filter(|(_, p)| p.image == "nginx:1.26" && p.ready)
                .map(|(n, _)| n.as_str())
                .collect();
            if updated == ["prio-0", "prio-1"] {
                Ok(())
            } else {
                Err(format!("updated {updated:?}\n{}", controller.log_tail()))
            }
        },
    )
    .await;
    tokio::time::sleep(Duration::from_secs(2)).await;
    let v = views(&pods(&ns, "prio").await);
    assert_eq!(
        (v["prio-2"].image.as_str(), v["prio-3"].image.as_str()),
        ("nginx:1.25", "nginx:1.25"),
        "the partition holds the other two"
    );
}

#[tokio::test]
async fn rollout_step_releases_an_asts_one_batch_at_a_time_from_the_highest_ordinal() {
    let ns = TestNamespace::create("asts-step").await;
    let controller = RunningController::start(&ns);
    let api: Api<StatefulSet> = ns.api();
    let doc = with_claims(
        "apps.kruise.io/v1beta1",
        "rel",
        json!({ "replicas": 3, "updateStrategy": { "rollingUpdate": {
            "partition": 3, "maxUnavailable": 1, "podUpdatePolicy": "InPlaceIfPossible" } } }),
    );
    api.create(&PostParams::default(), &support::object(doc))
        .await
        .expect("create");
    let names = ["rel-0", "rel-1", "rel-2"];
    wait_pods(&ns, "rel", &names, "nginx:1.25", Some(&controller)).await;
    let before = views(&pods(&ns, "rel").await);
    support::set_first_image(&api, "rel", "nginx:1.26").await;
    let name = ns.name.clone();
    let (code, out, err) = tokio::task::spawn_blocking(move || {
        support::kruise(
            support::kubeconfig(),
            &[
                "rollout",
                "step",
                "asts/rel",
                "--yes",
                "--timeout",
                "60s",
                "-n",
                &name,
            ],
        )
    })
    .await
    .expect("join");
    assert_eq!(code, 0, "{out}{err}\n{}", controller.log_tail());
    for (i, pod) in ["rel-2", "rel-1", "rel-0"].iter().enumerate() {
        let line = format!(
            "Batch {} of 3: partition {} -> {}; these pods update:\n  {pod}: in place",
            i + 1,
            3 - i,
            2 - i
        );
        assert!(err.contains(&line), "missing {line:?} in:\n{err}");
    }
    assert!(out.contains("asts/rel fully rolled out"), "{out}");
    let after = views(&pods(&ns, "rel").await);
    for (pod, was) in &before {
        assert_eq!(
            (&after[pod].uid, after[pod].image.as_str()),
            (&was.uid, "nginx:1.26"),
            "{pod}"
        );
    }
}

#[tokio::test]
async fn the_example_goes_in_place_with_kruise_set_image_and_holds_ordinal_0() {
    let ns = TestNamespace::create("asts-example").await;
    let controller = RunningController::start(&ns);
    let docs = support::manifests::documents(std::path::Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/examples/advanced-statefulset.yaml"
    )));
    for doc in &docs {
        support::manifests::apply(&ns, doc)
            .await
            .expect("example applies");
    }
    let names = ["web-asts-0", "web-asts-1", "web-asts-2", "web-asts-3"];
    wait_pods(&ns, "web-asts", &names, "nginx:1.25", Some(&controller)).await;
    let before = views(&pods(&ns, "web-asts").await);
    let cli = |args: Vec<String>| async move {
        tokio::task::spawn_blocking(move || {
            let refs: Vec<&str> = args.iter().map(String::as_str).collect();
            support::kruise(support::kubeconfig(), &refs)
        })
        .await
        .expect("join")
    };
    let args = |a: &[&str]| -> Vec<String> {
        a.iter()
            .map(|s| s.to_string())
            .chain(["-n".to_string(), ns.name.clone()])
            .collect()
    };
    let (code, out, err) = cli(args(&["set", "image", "asts/web-asts", "nginx=nginx:1.26"])).await;
    assert_eq!(code, 0, "{out}{err}");
    let (code, out, err) = cli(args(&["rollout", "status", "asts/web-asts", "--timeout", "90s"])).await;
    assert_eq!(code, 0, "{out}{err}\n{}", controller.log_tail());
    assert!(out.contains("partition holds 1"), "{out}");
    let after = views(&pods(&ns, "web-asts").await);
    for name in names {
        assert_eq!(after[name].uid, before[name].uid, "{name} kept");
    }
    let images: Vec<&str> = names.iter().map(|n| after[*n].image.as_str()).collect();
    assert_eq!(images, ["nginx:1.25", "nginx:1.26", "nginx:1.26", "nginx:1.26"]);
}

#[tokio::test]
async fn a_set_recreated_after_an_orphaning_delete_adopts_its_pods_instead_of_recreating_them() {
    let ns = TestNamespace::create("asts-adopt").await;
    let controller = RunningController::start(&ns);
    let api: Api<StatefulSet> = ns.api();
    let doc = with_claims("apps.kruise.io/v1beta1", "orph", json!({ "replicas": 2 }));
    api.create(&PostParams::default(), &support::object(doc.clone()))
        .await
        .expect("create");
    let names = ["orph-0", "orph-1"];
    wait_pods(&ns, "orph", &names, "nginx:1.25", Some(&controller)).await;
    let before = views(&pods(&ns, "orph").await);
    api.delete("orph", &kube::api::DeleteParams::orphan())
        .await
        .expect("orphaning delete");
    wait_for("the pods are orphans", WAIT, || async {
        let list = pods(&ns, "orph").await;
        let orphaned = list.len() == 2 && list.iter().all(|p| p.owner_references().is_empty());
        let gone = api.get_opt("orph").await.map_err(|e| e.to_string())?.is_none();
        if orphaned && gone {
            Ok(())
        } else {
            Err(format!("{} pods, set gone: {gone}", list.len()))
        }
    })
    .await;
    api.create(&PostParams::default(), &support::object(doc))
        .await
        .expect("re-create");
    wait_for("the pods are adopted by the new set", WAIT, || async {
        let set = api.get("orph").await.map_err(|e| e.to_string())?;
        let uid = set.uid().unwrap_or_default();
        let list = pods(&ns, "orph").await;
        let adopted = list.len() == 2
            && list.iter().all(|p| {
                p.owner_references()
                    .iter()
                    .any(|o| o.uid == uid && o.controller == Some(true))
            });
        if adopted {
            Ok(())
        } else {
            Err(format!("{:?}\n{}", views(&list), controller.log_tail()))
        }
    })
    .await;
    wait_pods(&ns, "orph", &names, "nginx:1.25", Some(&controller)).await;
    let after = views(&pods(&ns, "orph").await);
    for name in names {
        assert_eq!(after[name].uid, before[name].uid, "{name} adopted, not recreated");
    }
}
