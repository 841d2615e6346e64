//! Table and property tests for the Advanced StatefulSet planner.
use std::collections::{BTreeMap, BTreeSet};

use k8s_openapi::api::core::v1::{Pod, PodTemplateSpec};
use k8s_openapi::jiff::Timestamp;
use proptest::prelude::*;
use serde_json::{Value, json};

use super::*;
use crate::runtime::actions::Action;

const OLD: &str = "web-old1";
const NEW: &str = "web-new2";

fn now() -> Timestamp {
    "2026-12-03T12:00:00Z".parse().expect("time")
}

fn template(image: &str) -> PodTemplateSpec {
    serde_json::from_value(json!({
        "metadata": { "labels": { "app": "web" } },
        "spec": {
            "readinessGates": [{ "conditionType": "InPlaceUpdateReady" }],
            "containers": [{ "name": "app", "image": image }],
        },
    }))
    .expect("template")
}

fn templates() -> BTreeMap<String, PodTemplateSpec> {
    BTreeMap::from([
        (OLD.to_string(), template("nginx:1")),
        (NEW.to_string(), template("nginx:2")),
    ])
}

/// A set; `extra` is merged into its spec.
fn set(replicas: i32, extra: Value) -> StatefulSet {
    let mut spec = json!({
        "replicas": replicas,
        "serviceName": "web",
        "selector": { "matchLabels": { "app": "web" } },
        "template": serde_json::to_value(template("nginx:2")).expect("json"),
    });
    if let (Some(spec), Some(extra)) = (spec.as_object_mut(), extra.as_object()) {
        for (k, v) in extra {
            spec.insert(k.clone(), v.clone());
        }
    }
    serde_json::from_value(json!({
        "apiVersion": "apps.kruise.io/v1beta1", "kind": "StatefulSet",
        "metadata": { "name": "web", "namespace": "ns", "uid": "set-uid", "generation": 2 },
        "spec": spec,
    }))
    .expect("set")
}

/// A running pod of ordinal `i` at `revision`, ready or not.
fn pod(i: i32, revision: &str, ready: bool) -> Pod {
    let image = if revision == OLD { "nginx:1" } else { "nginx:2" };
    let status = if ready { "True" } else { "False" };
    serde_json::from_value(json!({
        "metadata": { "name": format!("web-{i}"), "namespace": "ns", "uid": format!("uid-{i}"),
            "resourceVersion": "7",
            "labels": { "app": "web", "controller-revision-hash": revision,
                "statefulset.kubernetes.io/pod-name": format!("web-{i}"),
                "apps.kubernetes.io/pod-index": i.to_string() } },
        "spec": { "nodeName": "node-1",
            "readinessGates": [{ "conditionType": "InPlaceUpdateReady" }],
            "containers": [{ "name": "app", "image": image }] },
        "status": { "phase": "Running",
            "conditions": [
                { "type": "Ready", "status": status, "lastTransitionTime": "2026-12-03T11:00:00Z" },
                { "type": "InPlaceUpdateReady", "status": "True" } ],
            "containerStatuses": [{ "name": "app", "image": image, "imageID": format!("sim://{image}"),
                "ready": ready, "restartCount": 0, "state": { "running": {} } }] },
    }))
    .expect("pod")
}

fn run(set: &StatefulSet, pods: &[Pod]) -> Plan {
    run_with(set, pods, &templates())
}

fn run_with(set: &StatefulSet, pods: &[Pod], templates: &BTreeMap<String, PodTemplateSpec>) -> Plan {
    run_with_orphans(set, pods, &[], templates)
}

fn run_with_orphans(
    set: &StatefulSet,
    pods: &[Pod],
    orphans: &[Pod],
    templates: &BTreeMap<String, PodTemplateSpec>,
) -> Plan {
    let claims = all_claims(set, pods);
    let snapshot = Snapshot {
        set,
        pods: pods.iter().collect(),
        orphans: orphans.iter().collect(),
        claims: &claims,
        update: Revision {
            name: NEW,
            template: &templates[NEW],
        },
        current: Revision {
            name: OLD,
            template: &templates[OLD],
        },
        templates,
        collision_count: 0,
        now: now(),
    };
    plan(&snapshot)
}

/// Every claim of every pod given: the normal case, nothing missing.
fn all_claims(set: &StatefulSet, pods: &[Pod]) -> BTreeSet<String> {
    pods.iter()
        .filter_map(|p| super::ordinals::parse_ordinal("web", &p.name_any()))
        .flat_map(|o| super::identity::new_claims(set, o))
        .filter_map(|c| c.metadata.name)
        .collect()
}

fn created(plan: &Plan) -> Vec<(String, String)> {
    plan.actions
        .iter()
        .filter_map(|a| match a {
            Action::CreatePod { pod, .. } => Some((
                pod.metadata.name.clone().unwrap_or_default(),
                pod.metadata
                    .labels
                    .as_ref()
                    .and_then(|l| l.get("controller-revision-hash").cloned())
                    .unwrap_or_default(),
            )),
            _ => None,
        })
        .collect()
}

fn deleted(plan: &Plan) -> Vec<String> {
    plan.actions
        .iter()
        .filter_map(|a| match a {
            Action::DeletePod { name, .. } => Some(name.clone()),
            _ => None,
        })
        .collect()
}

fn patched_in_place(plan: &Plan) -> Vec<String> {
    plan.actions
        .iter()
        .filter_map(|a| match a {
            Action::PatchPod { name, why, .. } if *why == Why::UpdatePodInPlace => Some(name.clone()),
            _ => None,
        })
        .collect()
}

#[test]
fn ordered_ready_creates_one_pod_at_a_time_in_ordinal_order() {
    let s = set(3, json!({}));
    assert_eq!(created(&run(&s, &[])), [("web-0".to_string(), NEW.to_string())]);
    assert_eq!(
        created(&run(&s, &[pod(0, NEW, true)])),
        [("web-1".to_string(), NEW.to_string())]
    );
    assert!(
        created(&run(&s, &[pod(0, NEW, false)])).is_empty(),
        "web-0 not ready yet"
    );
}

#[test]
fn parallel_creates_every_missing_ordinal_and_skips_reserved_ones() {
    let s = set(
        3,
        json!({ "podManagementPolicy": "Parallel", "reserveOrdinals": [1] }),
    );
    let names: Vec<String> = created(&run(&s, &[])).into_iter().map(|(n, _)| n).collect();
    assert_eq!(names, ["web-0", "web-2", "web-3"]);
    let s = set(
        3,
        json!({ "podManagementPolicy": "Parallel", "reserveOrdinals": [0, "2-5"] }),
    );
    let names: Vec<String> = created(&run(&s, &[])).into_iter().map(|(n, _)| n).collect();
    assert_eq!(names, ["web-1", "web-6", "web-7"]);
}

#[test]
fn a_missing_pod_below_the_partition_is_created_at_the_current_revision() {
    let s = set(
        3,
        json!({ "podManagementPolicy": "Parallel",
            "updateStrategy": { "rollingUpdate": { "partition": 2, "maxUnavailable": 3 } } }),
    );
    let c = created(&run(&s, &[pod(1, OLD, true)]));
    assert_eq!(
        c,
        [
            ("web-0".to_string(), OLD.to_string()),
            ("web-2".to_string(), NEW.to_string())
        ]
    );
}

#[test]
fn the_rolling_update_goes_from_the_highest_ordinal_down_to_the_partition() {
    let s = set(
        4,
        json!({ "updateStrategy": { "rollingUpdate": { "partition": 1 } } }),
    );
    let pods: Vec<Pod> = (0..4).map(|i| pod(i, OLD, true)).collect();
    assert_eq!(deleted(&run(&s, &pods)), ["web-3"], "ReCreate, one at a time");
    let mut pods = pods;
    pods[3] = pod(3, NEW, true);
    pods[2] = pod(2, NEW, true);
    assert_eq!(deleted(&run(&s, &pods)), ["web-1"]);
    pods[1] = pod(1, NEW, true);
    assert!(
        deleted(&run(&s, &pods)).is_empty(),
        "web-0 is held by the partition"
    );
}

#[test]
fn parallel_with_max_unavailable_2_updates_two_in_place_at_once() {
    let s = set(
        5,
        json!({ "podManagementPolicy": "Parallel",
            "updateStrategy": { "rollingUpdate": { "maxUnavailable": 2, "podUpdatePolicy": "InPlaceIfPossible" } } }),
    );
    let pods: Vec<Pod> = (0..5).map(|i| pod(i, OLD, true)).collect();
    let plan = run(&s, &pods);
    assert_eq!(patched_in_place(&plan), ["web-4", "web-3"]);
    assert!(deleted(&plan).is_empty(), "in place, nothing recreated");
    // One already unavailable: only one more, and the pass stops at the next available pod.
    let mut pods = pods;
    pods[0] = pod(0, OLD, false);
    assert_eq!(patched_in_place(&run(&s, &pods)), ["web-4"]);
    // An unavailable pod is always updatable and uses no more of the budget.
    pods[0] = pod(0, OLD, true);
    pods[4] = pod(4, OLD, false);
    assert_eq!(patched_in_place(&run(&s, &pods)), ["web-4", "web-3"]);
}

#[test]
fn weight_priority_changes_the_unordered_update_order() {
    let s = set(
        3,
        json!({ "podManagementPolicy": "Parallel",
            "updateStrategy": { "rollingUpdate": { "podUpdatePolicy": "InPlaceIfPossible",
                "unorderedUpdate": { "priorityStrategy": { "weightPriority": [
                    { "weight": 50, "matchSelector": { "matchLabels": { "tier": "first" } } } ] } } } } }),
    );
    let mut pods: Vec<Pod> = (0..3).map(|i| pod(i, OLD, true)).collect();
    assert_eq!(
        patched_in_place(&run(&s, &pods)),
        ["web-2"],
        "highest ordinal without priority"
    );
    pods[0]
        .metadata
        .labels
        .get_or_insert_default()
        .insert("tier".into(), "first".into());
    assert_eq!(patched_in_place(&run(&s, &pods)), ["web-0"]);
}

#[test]
fn scale_down_deletes_the_highest_ordinals_and_claims_only_when_asked() {
    let claims = json!([{ "metadata": { "name": "data" }, "spec": { "accessModes": ["ReadWriteOnce"] } }]);
    let pods: Vec<Pod> = (0..3).map(|i| pod(i, NEW, true)).collect();
    let ordered = set(1, json!({ "volumeClaimTemplates": claims }));
    assert_eq!(deleted(&run(&ordered, &pods)), ["web-2"], "one at a time");
    let parallel = set(
        1,
        json!({ "podManagementPolicy": "Parallel", "volumeClaimTemplates": claims,
            "persistentVolumeClaimRetentionPolicy": { "whenScaled": "Delete" } }),
    );
    let plan = run(&parallel, &pods);
    let with_claims: Vec<(String, Vec<String>)> = plan
        .actions
        .iter()
        .filter_map(|a| match a {
            Action::DeletePod { name, claims, .. } => Some((name.clone(), claims.clone())),
            _ => None,
        })
        .collect();
    assert_eq!(
        with_claims,
        [
            ("web-2".to_string(), vec!["data-web-2".to_string()]),
            ("web-1".to_string(), vec!["data-web-1".to_string()])
        ]
    );
    let kept = deleted_claims(&run(&ordered, &pods));
    assert!(kept.is_empty(), "Retain by default");
}

fn deleted_claims(plan: &Plan) -> Vec<String> {
    plan.actions
        .iter()
        .flat_map(|a| match a {
            Action::DeletePod { claims, .. } => claims.clone(),
            _ => Vec::new(),
        })
        .collect()
}

#[test]
fn in_place_only_refuses_a_change_that_cannot_go_in_place_and_names_the_pod() {
    let s = set(
        1,
        json!({ "updateStrategy": { "rollingUpdate": { "podUpdatePolicy": "InPlaceOnly" } } }),
    );
    let mut p = pod(0, OLD, true);
    p.spec.as_mut().expect("spec").containers[0].env = None;
    let mut t = templates();
    if let Some(spec) = t.get_mut(NEW).and_then(|t| t.spec.as_mut()) {
        spec.containers[0].env = Some(vec![
            serde_json::from_value(json!({ "name": "A", "value": "1" })).expect("env"),
        ]);
    }
    let plan = run_with(&s, &[p], &t);
    assert!(deleted(&plan).is_empty() && patched_in_place(&plan).is_empty());
    assert!(
        plan.problems.iter().any(|p| p.message.contains("pod web-0")),
        "{:?}",
        plan.problems
    );
}

#[test]
fn status_counts_pods_by_revision_and_moves_current_when_all_are_updated() {
    let s = set(2, json!({}));
    let plan = run(&s, &[pod(0, OLD, true), pod(1, NEW, false)]);
    let st = plan.status.expect("status");
    assert_eq!(
        (
            st.replicas,
            st.ready_replicas,
            st.current_replicas,
            st.updated_replicas
        ),
        (2, 1, 1, 1)
    );
    assert_eq!(st.current_revision.as_deref(), Some(OLD));
    assert_eq!(st.update_revision.as_deref(), Some(NEW));
    let st = run(&s, &[pod(0, NEW, true), pod(1, NEW, true)])
        .status
        .expect("status");
    assert_eq!(st.current_revision.as_deref(), Some(NEW));
    assert_eq!((st.current_replicas, st.updated_ready_replicas), (2, Some(2)));
}

proptest! {
    /// A Parallel rolling update never leaves more than maxUnavailable replicas unavailable
    /// (those already unavailable included), and never touches a pod below the partition.
    #[test]
    fn an_update_round_keeps_within_max_unavailable_and_the_partition(
        states in proptest::collection::vec((any::<bool>(), any::<bool>()), 1..12),
        max_unavailable in 1i32..5,
        partition_seed in 0usize..12,
    ) {
        let replicas = states.len() as i32;
        let partition = (partition_seed as i32).min(replicas);
        let s = set(replicas, json!({ "podManagementPolicy": "Parallel",
            "updateStrategy": { "rollingUpdate": { "maxUnavailable": max_unavailable,
                "partition": partition, "podUpdatePolicy": "InPlaceIfPossible" } } }));
        let pods: Vec<Pod> = states
            .iter()
            .enumerate()
            .map(|(i, (updated, ready))| pod(i as i32, if *updated { NEW } else { OLD }, *ready))
            .collect();
        let plan = run(&s, &pods);
        let touched: Vec<String> = patched_in_place(&plan).into_iter().chain(deleted(&plan)).collect();
        let already: Vec<String> = states
            .iter()
            .enumerate()
            .filter(|(_, (_, ready))| !ready)
            .map(|(i, _)| format!("web-{i}"))
            .collect();
        let newly = touched.iter().filter(|n| !already.contains(n)).count();
        prop_assert!(
            already.len() + newly <= (max_unavailable as usize).max(already.len()),
            "already {already:?}, touched {touched:?}"
        );
        for name in &touched {
            let ordinal: i32 = name.trim_start_matches("web-").parse().expect("ordinal");
            prop_assert!(ordinal >= partition, "{name} is below partition {partition}");
        }
        prop_assert!(created(&plan).is_empty(), "every ordinal has its pod");
    }
}

#[test]
fn a_new_pod_gets_its_readiness_gate_true_so_ordered_ready_can_go_on() {
    let s = set(2, json!({}));
    let mut p = pod(0, NEW, false);
    if let Some(conditions) = p.status.as_mut().and_then(|st| st.conditions.as_mut()) {
        conditions.retain(|c| c.type_ != "InPlaceUpdateReady");
    }
    let plan = run(&s, &[p]);
    let gate = plan.actions.iter().any(|a| {
        matches!(a, Action::PatchPodStatus { name, why, .. } if name == "web-0" && *why == Why::ReadinessGate)
    });
    assert!(gate, "{:?}", plan.actions);
    assert!(created(&plan).is_empty(), "web-1 waits for web-0");
}

#[test]
fn an_in_place_policy_without_the_readiness_gate_is_named_and_nothing_is_updated() {
    let mut s = set(
        2,
        json!({ "updateStrategy": { "rollingUpdate": { "podUpdatePolicy": "InPlaceIfPossible" } } }),
    );
    if let Some(spec) = s.spec.template.spec.as_mut() {
        spec.readiness_gates = None;
    }
    let plan = run(&s, &[pod(0, OLD, true), pod(1, OLD, true)]);
    assert!(deleted(&plan).is_empty() && patched_in_place(&plan).is_empty());
    let problem = plan
        .problems
        .iter()
        .find(|p| p.reason == "InvalidSpec")
        .expect("a problem");
    assert!(
        problem.message.contains("spec.template.spec.readinessGates")
            && problem.message.contains("conditionType: InPlaceUpdateReady"),
        "{}",
        problem.message
    );
}

#[test]
fn on_delete_and_paused_update_nothing_but_missing_pods_are_still_created() {
    let pods: Vec<Pod> = (0..2).map(|i| pod(i, OLD, true)).collect();
    let on_delete = set(
        3,
        json!({ "podManagementPolicy": "Parallel", "updateStrategy": { "type": "OnDelete" } }),
    );
    let plan = run(&on_delete, &pods);
    assert!(deleted(&plan).is_empty() && patched_in_place(&plan).is_empty());
    assert_eq!(
        created(&plan),
        [("web-2".to_string(), NEW.to_string())],
        "OnDelete: new pods at the update revision"
    );
    let paused = set(
        3,
        json!({ "podManagementPolicy": "Parallel", "updateStrategy": { "rollingUpdate": { "paused": true } } }),
    );
    let plan = run(&paused, &pods);
    assert!(deleted(&plan).is_empty() && patched_in_place(&plan).is_empty());
    assert_eq!(created(&plan).len(), 1, "scaling goes on while paused");
}

#[test]
fn a_pre_delete_hook_holds_a_condemned_pod_in_preparing_delete() {
    let hooked = json!({ "preDelete": { "labelsHandler": { "hold": "true" } } });
    let s = set(1, json!({ "lifecycle": hooked }));
    let mut pods: Vec<Pod> = (0..2).map(|i| pod(i, NEW, true)).collect();
    pods[1]
        .metadata
        .labels
        .get_or_insert_default()
        .insert("hold".into(), "true".into());
    let plan = run(&s, &pods);
    assert!(deleted(&plan).is_empty(), "held by the hook");
    let prepared = plan.actions.iter().any(|a| {
        matches!(a, Action::PatchPod { name, patch, .. }
            if name == "web-1" && patch["metadata"]["labels"]["lifecycle.apps.kruise.io/state"] == "PreparingDelete")
    });
    assert!(prepared, "{:?}", plan.actions);
    pods[1]
        .metadata
        .labels
        .get_or_insert_default()
        .insert("lifecycle.apps.kruise.io/state".into(), "PreparingDelete".into());
    assert!(run(&s, &pods).actions.is_empty(), "waits while the hook holds it");
    pods[1].metadata.labels.get_or_insert_default().remove("hold");
    assert_eq!(
        deleted(&run(&s, &pods)),
        ["web-1"],
        "deleted once the hook lets go"
    );
}

#[test]
fn an_orphan_named_and_labelled_like_the_set_is_adopted_and_nothing_else_happens_that_round() {
    let s = set(2, json!({ "podManagementPolicy": "Parallel" }));
    let mut orphan = pod(1, OLD, true);
    orphan.metadata.owner_references = None;
    let mut stranger = pod(5, OLD, true);
    stranger.metadata.name = Some("web-x".into());
    stranger.metadata.owner_references = None;
    let owned = [pod(0, NEW, true)];
    let plan = run_with_orphans(&s, &owned, &[orphan, stranger], &templates());
    let adopted: Vec<&str> = plan
        .actions
        .iter()
        .filter_map(|a| match a {
            Action::PatchPod { name, why, patch } if *why == Why::Adopt => {
                assert_eq!(patch["metadata"]["ownerReferences"][0]["uid"], "set-uid");
                Some(name.as_str())
            }
            _ => None,
        })
        .collect();
    assert_eq!(adopted, ["web-1"], "web-x is not an ordinal of the set");
    assert!(created(&plan).is_empty(), "web-1 is not created again");
}

#[path = "plan_classes_tests.rs"]
mod classes;
