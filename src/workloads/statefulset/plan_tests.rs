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

/// `pod(i, revision, true)` whose Ready condition turned True at `since`.
fn ready_since(i: i32, revision: &str, since: &str) -> Pod {
    let mut p = pod(i, revision, true);
    if let Some(c) = p
        .status
        .as_mut()
        .and_then(|s| s.conditions.as_mut())
        .and_then(|c| c.iter_mut().find(|c| c.type_ == "Ready"))
    {
        c.last_transition_time = Some(k8s_openapi::apimachinery::pkg::apis::meta::v1::Time(
            since.parse().expect("time"),
        ));
    }
    p
}

fn terminating(mut p: Pod) -> Pod {
    p.metadata.deletion_timestamp = Some(k8s_openapi::apimachinery::pkg::apis::meta::v1::Time(now()));
    p
}

fn pending(mut p: Pod) -> Pod {
    if let Some(s) = p.status.as_mut() {
        s.phase = Some("Pending".into());
        s.conditions = None;
        s.container_statuses = None;
    }
    p
}

#[test]
fn a_recreating_update_counts_missing_and_terminating_replicas_against_max_unavailable() {
    let s = set(
        5,
        json!({ "podManagementPolicy": "Parallel",
            "updateStrategy": { "rollingUpdate": { "maxUnavailable": 2 } } }),
    );
    // web-4 and web-3 were deleted to be recreated; web-3's pod is not back yet and web-4's
    // is still terminating: the budget of 2 is used, so web-2 must wait.
    let pods = vec![
        pod(0, OLD, true),
        pod(1, OLD, true),
        pod(2, OLD, true),
        terminating(pod(4, OLD, true)),
    ];
    let plan = run(&s, &pods);
    assert_eq!(created(&plan), [("web-3".to_string(), NEW.to_string())]);
    assert!(deleted(&plan).is_empty(), "{:?}", plan.actions);
    // One missing only: one more may go.
    let pods = vec![
        pod(0, OLD, true),
        pod(1, OLD, true),
        pod(2, OLD, true),
        pod(4, NEW, true),
    ];
    assert_eq!(deleted(&run(&s, &pods)), ["web-2"]);
}

#[test]
fn ordered_ready_scale_down_removes_an_unhealthy_pod_only_when_it_is_the_first_unhealthy_one() {
    let s = set(0, json!({}));
    let none_ready: Vec<Pod> = (0..3).map(|i| pod(i, NEW, false)).collect();
    assert!(
        deleted(&run(&s, &none_ready)).is_empty(),
        "web-2 is not Ready and web-0 is the first unhealthy pod: wait"
    );
    let all_ready: Vec<Pod> = (0..3).map(|i| pod(i, NEW, true)).collect();
    assert_eq!(deleted(&run(&s, &all_ready)), ["web-2"], "one at a time");
    let top_unready = vec![pod(0, NEW, true), pod(1, NEW, true), pod(2, NEW, false)];
    assert_eq!(
        deleted(&run(&s, &top_unready)),
        ["web-2"],
        "the first unhealthy pod may go"
    );
    let s = set(1, json!({}));
    let replica_unready = vec![pod(0, NEW, false), pod(1, NEW, true)];
    assert!(
        deleted(&run(&s, &replica_unready)).is_empty(),
        "a replica is unhealthy"
    );
}

#[test]
fn parallel_scaling_wakes_when_min_ready_seconds_will_have_passed() {
    let s = set(
        2,
        json!({ "podManagementPolicy": "Parallel", "scaleStrategy": { "maxUnavailable": 1 },
            "updateStrategy": { "rollingUpdate": { "minReadySeconds": 3 } } }),
    );
    // web-0 has been Ready for 1 s of its 3: web-1 waits, and the set must look again in 2 s.
    let plan = run(&s, &[ready_since(0, NEW, "2026-12-03T11:59:59Z")]);
    assert!(
        created(&plan).is_empty(),
        "scale maxUnavailable 1 is used by web-0"
    );
    let after = plan.requeue_after.expect("a wake-up for minReadySeconds");
    assert!(
        after >= Duration::from_secs(2) && after <= Duration::from_secs(3),
        "{after:?}"
    );
    let status = plan.status.expect("status");
    assert_eq!((status.ready_replicas, status.available_replicas), (1, 0));
}

#[test]
fn a_pending_pod_whose_claim_was_deleted_gets_the_claim_made_again() {
    let claims = json!([{ "metadata": { "name": "data" }, "spec": { "accessModes": ["ReadWriteOnce"] } }]);
    let s = set(2, json!({ "volumeClaimTemplates": claims }));
    let pods = vec![pod(0, NEW, true), pending(pod(1, NEW, false))];
    let t = templates();
    let only_first: BTreeSet<String> = ["data-web-0".to_string()].into();
    let snapshot = Snapshot {
        set: &s,
        pods: pods.iter().collect(),
        orphans: Vec::new(),
        claims: &only_first,
        update: Revision {
            name: NEW,
            template: &t[NEW],
        },
        current: Revision {
            name: OLD,
            template: &t[OLD],
        },
        templates: &t,
        collision_count: 0,
        now: now(),
    };
    let made: Vec<String> = plan(&snapshot)
        .actions
        .iter()
        .filter_map(|a| match a {
            Action::CreateClaim { claim } => claim.metadata.name.clone(),
            _ => None,
        })
        .collect();
    assert_eq!(made, ["data-web-1"], "a running pod's claim is not touched");
    assert!(
        !run(&s, &pods)
            .actions
            .iter()
            .any(|a| matches!(a, Action::CreateClaim { .. })),
        "nothing missing, nothing made"
    );
}

/// A pod state for the property tests: absent, or present with a revision, readiness,
/// Ready-since offset (seconds before now) and whether it is terminating.
fn arbitrary_pod() -> impl Strategy<Value = Option<(bool, bool, i64, bool)>> {
    proptest::option::weighted(
        0.8,
        (
            any::<bool>(),
            any::<bool>(),
            0i64..8,
            proptest::bool::weighted(0.15),
        ),
    )
}

fn build(states: &[Option<(bool, bool, i64, bool)>]) -> Vec<Pod> {
    states
        .iter()
        .enumerate()
        .filter_map(|(i, s)| {
            let (updated, ready, ago, gone) = (*s)?;
            let revision = if updated { NEW } else { OLD };
            let since = (now() - k8s_openapi::jiff::SignedDuration::from_secs(ago)).to_string();
            let p = if ready {
                ready_since(i as i32, revision, &since)
            } else {
                pod(i as i32, revision, false)
            };
            Some(if gone { terminating(p) } else { p })
        })
        .collect()
}

proptest! {
    /// Unavailable means unavailable: missing, terminating, not ready and not yet available
    /// replicas all count against maxUnavailable, whatever the update policy.
    #[test]
    fn an_update_round_never_exceeds_max_unavailable_counting_missing_and_terminating_pods(
        states in proptest::collection::vec(arbitrary_pod(), 1..10),
        max_unavailable in 1i32..4,
        min_ready in 0i32..5,
        in_place in any::<bool>(),
    ) {
        let replicas = states.len() as i32;
        let policy = if in_place { "InPlaceIfPossible" } else { "ReCreate" };
        let s = set(replicas, json!({ "podManagementPolicy": "Parallel",
            "updateStrategy": { "rollingUpdate": { "maxUnavailable": max_unavailable,
                "minReadySeconds": min_ready, "podUpdatePolicy": policy } } }));
        let pods = build(&states);
        let plan = run(&s, &pods);
        let unavailable_before = states
            .iter()
            .filter(|st| match st {
                None => true,
                Some((_, ready, ago, gone)) => *gone || !*ready || *ago < i64::from(min_ready),
            })
            .count();
        let touched: BTreeSet<String> = patched_in_place(&plan).into_iter().chain(deleted(&plan)).collect();
        let newly = touched
            .iter()
            .filter(|name| {
                let i: usize = name.trim_start_matches("web-").parse().expect("ordinal");
                matches!(states[i], Some((_, true, ago, false)) if ago >= i64::from(min_ready))
            })
            .count();
        prop_assert!(
            newly == 0 || unavailable_before + newly <= max_unavailable as usize,
            "before {unavailable_before}, newly {newly}, touched {touched:?}"
        );
    }

    /// No stall: a round that writes nothing while a pod waits on minReadySeconds names the
    /// moment it can go on (for either pod management policy).
    #[test]
    fn a_round_waiting_on_min_ready_seconds_always_asks_to_be_woken(
        states in proptest::collection::vec(arbitrary_pod(), 1..8),
        min_ready in 1i32..6,
        parallel in any::<bool>(),
        scale_budget in proptest::option::of(1i32..3),
    ) {
        let mut spec = json!({ "updateStrategy": { "rollingUpdate": { "minReadySeconds": min_ready } } });
        if parallel {
            spec["podManagementPolicy"] = json!("Parallel");
            if let Some(b) = scale_budget {
                spec["scaleStrategy"] = json!({ "maxUnavailable": b });
            }
        }
        let s = set(states.len() as i32, spec);
        let pods = build(&states);
        let plan = run(&s, &pods);
        let waiting = states
            .iter()
            .flatten()
            .filter(|(_, ready, ago, gone)| *ready && !*gone && *ago < i64::from(min_ready))
            .map(|(_, _, ago, _)| i64::from(min_ready) - ago)
            .min();
        if let Some(left) = waiting {
            let after = plan.requeue_after;
            prop_assert!(
                after.is_some_and(|a| a <= Duration::from_secs(left.unsigned_abs()) + Duration::from_secs(1)),
                "a pod becomes available in {left} s, the plan wakes after {after:?}"
            );
        }
    }
}

#[test]
fn a_held_pod_whose_specified_delete_label_was_taken_off_goes_back_to_normal() {
    let s = set(
        3,
        json!({ "lifecycle": { "preDelete": { "labelsHandler": { "example.com/hold": "true" } } } }),
    );
    let held = |labels: Value| {
        let mut p = pod(1, NEW, true);
        let mut l = p.metadata.labels.clone().unwrap_or_default();
        l.insert("lifecycle.apps.kruise.io/state".into(), "PreparingDelete".into());
        l.insert("example.com/hold".into(), "true".into());
        for (k, v) in labels.as_object().into_iter().flatten() {
            l.insert(k.clone(), v.as_str().unwrap_or_default().into());
        }
        p.metadata.labels = Some(l);
        p
    };
    let state_patches = |plan: &Plan| -> Vec<(String, Value)> {
        plan.actions
            .iter()
            .filter_map(|a| match a {
                Action::PatchPod { name, patch, .. } => Some((
                    name.clone(),
                    patch["metadata"]["labels"]["lifecycle.apps.kruise.io/state"].clone(),
                )),
                _ => None,
            })
            .collect()
    };
    let marked = vec![
        pod(0, NEW, true),
        held(json!({ "apps.kruise.io/specified-delete": "true" })),
        pod(2, NEW, true),
    ];
    assert!(
        state_patches(&run(&s, &marked)).is_empty(),
        "still marked: it waits for the hook"
    );
    let unmarked = vec![pod(0, NEW, true), held(json!({})), pod(2, NEW, true)];
    assert_eq!(
        state_patches(&run(&s, &unmarked)),
        [("web-1".to_string(), json!("PreparingNormal"))],
        "the delete is cancelled"
    );
    // An old pod held while the rolling update recreates it stays held.
    let mut old = held(json!({}));
    if let Some(l) = old.metadata.labels.as_mut() {
        l.insert("controller-revision-hash".into(), OLD.into());
    }
    let updating = vec![pod(0, NEW, true), old, pod(2, NEW, true)];
    assert!(state_patches(&run(&s, &updating)).is_empty());
}
