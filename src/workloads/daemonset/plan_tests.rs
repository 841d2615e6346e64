//! Table and property tests for the Advanced DaemonSet planner.
use std::collections::{BTreeMap, BTreeSet};

use k8s_openapi::api::core::v1::{Node, Pod, PodTemplateSpec};
use k8s_openapi::jiff::Timestamp;
use proptest::prelude::*;
use serde_json::{Value, json};

use super::*;
use crate::api::daemonset::DaemonSet;
use crate::runtime::actions::Action;
use crate::runtime::history::Revision;

const OLD: &str = "ds-old1";
const NEW: &str = "ds-new2";

fn now() -> Timestamp {
    "2026-12-03T12:00:00Z".parse().expect("time")
}

fn template(image: &str) -> PodTemplateSpec {
    serde_json::from_value(json!({
        "metadata": { "labels": { "app": "ds" } },
        "spec": { "containers": [{ "name": "app", "image": image }] },
    }))
    .expect("template")
}

fn templates() -> BTreeMap<String, PodTemplateSpec> {
    BTreeMap::from([
        (OLD.to_string(), template("nginx:1")),
        (NEW.to_string(), template("nginx:2")),
    ])
}

/// A set at `nginx:2`; `rolling` is its `updateStrategy.rollingUpdate`, `extra` merged
/// into its spec.
fn set(rolling: Value, extra: Value) -> DaemonSet {
    let mut spec = json!({
        "selector": { "matchLabels": { "app": "ds" } },
        "template": serde_json::to_value(template("nginx:2")).expect("json"),
        "updateStrategy": { "type": "RollingUpdate", "rollingUpdate": rolling },
    });
    if let (Some(spec), Some(extra)) = (spec.as_object_mut(), extra.as_object()) {
        for (k, v) in extra {
            spec.insert(k.clone(), v.clone());
        }
    }
    serde_json::from_value(json!({
        "apiVersion": "apps.kruise.io/v1alpha1", "kind": "DaemonSet",
        "metadata": { "name": "ds", "namespace": "ns", "uid": "set-uid", "generation": 2 },
        "spec": spec,
    }))
    .expect("set")
}

fn node(i: usize, labels: Value) -> Node {
    serde_json::from_value(json!({ "metadata": { "name": format!("node-{i}"), "labels": labels } }))
        .expect("node")
}

/// A running pod on node `i` at `revision` (its hash), ready or not, with the gate.
fn pod(i: usize, revision: &str, ready: bool) -> Pod {
    let image = if revision == OLD { "nginx:1" } else { "nginx:2" };
    let status = if ready { "True" } else { "False" };
    serde_json::from_value(json!({
        "metadata": { "name": format!("ds-p{i}{}", &revision[3..]), "namespace": "ns",
            "uid": format!("uid-{i}-{revision}"), "resourceVersion": "7",
            "creationTimestamp": "2026-12-03T10:00:00Z",
            "labels": { "app": "ds", "controller-revision-hash": crate::runtime::revision::short_hash(revision) } },
        "spec": { "nodeName": format!("node-{i}"),
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

struct World {
    set: DaemonSet,
    nodes: Vec<Node>,
    pods: Vec<Pod>,
    orphans: Vec<Pod>,
    templates: BTreeMap<String, PodTemplateSpec>,
    backoff: BTreeMap<String, std::time::Duration>,
}

impl World {
    fn plan(&self) -> Plan {
        let update = Revision {
            name: NEW,
            template: &self.templates[NEW],
        };
        plan(&Snapshot {
            set: &self.set,
            pods: self.pods.iter().collect(),
            orphans: self.orphans.iter().collect(),
            nodes: self.nodes.iter().collect(),
            update,
            templates: &self.templates,
            collision_count: 0,
            now: now(),
            failed_backoff: &self.backoff,
        })
    }
}

fn world(set: DaemonSet, nodes: usize, pods: Vec<Pod>) -> World {
    World {
        set,
        nodes: (0..nodes).map(|i| node(i, json!({}))).collect(),
        pods,
        orphans: Vec::new(),
        templates: templates(),
        backoff: BTreeMap::new(),
    }
}

fn created_on(plan: &Plan) -> Vec<String> {
    crate::workloads::common::test_views::created_on(&plan.actions)
}

fn deleted(plan: &Plan) -> Vec<String> {
    crate::workloads::common::test_views::deleted_pods(&plan.actions)
}

/// Pods patched in place (their spec's image changes).
fn in_place(plan: &Plan) -> BTreeSet<String> {
    plan.actions
        .iter()
        .filter_map(|a| match a {
            Action::PatchPod { name, patch, .. } if patch["spec"].is_object() => Some(name.clone()),
            Action::PatchPodStatus { name, .. } => Some(name.clone()),
            _ => None,
        })
        .collect()
}

#[test]
fn every_node_without_a_pod_gets_one_pinned_to_it_with_the_daemon_tolerations() {
    let w = world(set(json!({}), json!({})), 3, vec![pod(1, NEW, true)]);
    let plan = w.plan();
    assert_eq!(created_on(&plan), ["node-0", "node-2"]);
    let Some(Action::CreatePod { pod, .. }) = plan.actions.first() else {
        panic!("a create")
    };
    let labels = pod.metadata.labels.as_ref().expect("labels");
    assert_eq!(labels["controller-revision-hash"], "new2");
    let spec = pod.spec.as_ref().expect("spec");
    assert!(spec.node_name.is_none(), "the scheduler binds it");
    assert_eq!(spec.tolerations.as_ref().map(Vec::len), Some(6));
    assert!(spec.readiness_gates.is_none(), "Standard: no gate");
    let status = plan.status.expect("status");
    assert_eq!(
        (
            status.desired_number_scheduled,
            status.current_number_scheduled,
            status.number_ready
        ),
        (3, 1, 1)
    );
    assert_eq!(status.daemon_set_hash.as_deref(), Some("new2"));
    assert_eq!(status.update_revision.as_deref(), Some("new2"));
}

#[test]
fn a_node_that_stops_matching_loses_its_pod_and_a_second_pod_goes() {
    let mut w = world(
        set(
            json!({}),
            json!({ "template": { "metadata": { "labels": { "app": "ds" } },
        "spec": { "nodeSelector": { "role": "edge" }, "containers": [{ "name": "app", "image": "nginx:2" }] } } }),
        ),
        0,
        vec![],
    );
    w.nodes = vec![node(0, json!({ "role": "edge" })), node(1, json!({}))];
    let mut second = pod(0, NEW, true);
    second.metadata.name = Some("ds-zzzzz".into());
    second.metadata.creation_timestamp = Some(k8s_openapi::apimachinery::pkg::apis::meta::v1::Time(
        "2026-12-03T11:00:00Z".parse().expect("time"),
    ));
    w.pods = vec![pod(0, NEW, true), second, pod(1, NEW, true)];
    let plan = w.plan();
    assert_eq!(deleted(&plan), ["ds-zzzzz", "ds-p1new2"]);
    assert!(created_on(&plan).is_empty());
    let status = plan.status.expect("status");
    assert_eq!(
        (status.desired_number_scheduled, status.number_misscheduled),
        (1, 1)
    );
}

#[test]
fn an_orphan_the_selector_matches_is_adopted_and_its_node_gets_no_second_pod() {
    let orphan = |i: usize, labels: Value, deleting: bool| {
        let mut p = pod(i, OLD, true);
        p.metadata.owner_references = None;
        p.metadata.labels = serde_json::from_value(labels).expect("labels");
        if deleting {
            p.metadata.deletion_timestamp = Some(k8s_openapi::apimachinery::pkg::apis::meta::v1::Time(now()));
        }
        p
    };
    let mut w = world(set(json!({}), json!({})), 3, vec![pod(1, NEW, true)]);
    w.orphans = vec![
        orphan(0, json!({ "app": "ds" }), false),
        orphan(2, json!({ "app": "other" }), false),
        orphan(2, json!({ "app": "ds" }), true),
    ];
    let plan = w.plan();
    let adopted: Vec<(&str, &Value)> = plan
        .actions
        .iter()
        .filter_map(|a| match a {
            Action::PatchPod {
                name,
                patch,
                why: Why::Adopt,
            } => Some((name.as_str(), patch)),
            _ => None,
        })
        .collect();
    assert_eq!(adopted.len(), 1, "{:?}", plan.actions);
    assert_eq!(adopted[0].0, "ds-p0old1");
    let owner = &adopted[0].1["metadata"]["ownerReferences"][0];
    assert_eq!(owner["uid"], "set-uid");
    assert_eq!(owner["controller"], true);
    assert_eq!(
        adopted[0].1["metadata"]["resourceVersion"], "7",
        "adopted under its version"
    );
    assert!(created_on(&plan).is_empty(), "the round ends with the adoption");
    assert_eq!(plan.actions.len(), 1);

    // Once owned, the adopted pod is the node's pod: no second one, and it updates.
    w.pods.push(w.orphans.remove(0));
    w.orphans.clear();
    let plan = w.plan();
    assert_eq!(created_on(&plan), ["node-2"]);
}

#[test]
fn in_place_updates_within_max_unavailable_from_the_highest_node_name() {
    let w = world(
        set(
            json!({ "rollingUpdateType": "InPlaceIfPossible", "maxUnavailable": 2 }),
            json!({}),
        ),
        4,
        (0..4).map(|i| pod(i, OLD, true)).collect(),
    );
    let plan = w.plan();
    assert_eq!(
        in_place(&plan),
        BTreeSet::from(["ds-p3old1".into(), "ds-p2old1".into()])
    );
    assert!(deleted(&plan).is_empty());
}

#[test]
fn partition_keeps_its_nodes_old_and_a_selector_picks_the_canaries() {
    let w = world(
        set(json!({ "partition": 3 }), json!({})),
        4,
        (0..4).map(|i| pod(i, OLD, true)).collect(),
    );
    assert_eq!(deleted(&w.plan()), ["ds-p3old1"]);
    let mut canary = world(
        set(
            json!({ "selector": { "matchLabels": { "canary": "true" } }, "maxUnavailable": 4 }),
            json!({}),
        ),
        0,
        (0..4).map(|i| pod(i, OLD, true)).collect(),
    );
    canary.nodes = (0..4)
        .map(|i| {
            node(
                i,
                if i == 1 {
                    json!({ "canary": "true" })
                } else {
                    json!({})
                },
            )
        })
        .collect();
    assert_eq!(deleted(&canary.plan()), ["ds-p1old1"]);
}

#[test]
fn paused_and_on_delete_update_nothing_but_a_new_node_still_gets_its_pod() {
    for strategy in [
        json!({ "type": "RollingUpdate", "rollingUpdate": { "paused": true } }),
        json!({ "type": "OnDelete" }),
    ] {
        let w = world(
            set(json!({}), json!({ "updateStrategy": strategy })),
            3,
            (0..2).map(|i| pod(i, OLD, true)).collect(),
        );
        let plan = w.plan();
        assert!(deleted(&plan).is_empty(), "{strategy}");
        assert_eq!(created_on(&plan), ["node-2"], "{strategy}");
    }
}

#[test]
fn surge_starts_the_new_pod_first_and_the_old_goes_once_it_is_available() {
    let rolling = json!({ "maxSurge": 1, "maxUnavailable": 0 });
    let w = world(
        set(rolling.clone(), json!({})),
        2,
        vec![pod(0, OLD, true), pod(1, OLD, true)],
    );
    let plan = w.plan();
    assert_eq!(created_on(&plan), ["node-1"], "one at a time, highest name first");
    assert!(deleted(&plan).is_empty());
    let w = world(
        set(rolling.clone(), json!({})),
        2,
        vec![pod(0, OLD, true), pod(1, OLD, true), pod(1, NEW, true)],
    );
    assert_eq!(deleted(&w.plan()), ["ds-p1old1"]);
    let w = world(
        set(rolling, json!({})),
        2,
        vec![pod(0, OLD, true), pod(1, OLD, true), pod(1, NEW, false)],
    );
    let plan = w.plan();
    assert!(
        deleted(&plan).is_empty() && created_on(&plan).is_empty(),
        "waits for the new pod"
    );
}

#[test]
fn partitioned_scaling_holds_back_creation_on_new_nodes() {
    let w = world(
        set(
            json!({ "partition": 2 }),
            json!({ "scaleStrategy": { "partitionedScaling": true } }),
        ),
        4,
        vec![],
    );
    assert_eq!(created_on(&w.plan()), ["node-0", "node-1"]);
    let mut annotated = world(set(json!({ "partition": 2 }), json!({})), 4, vec![]);
    annotated.set.metadata.annotations = Some(BTreeMap::from([(
        "daemonset.kruise.io/progressive-create-pod".to_string(),
        "true".to_string(),
    )]));
    assert_eq!(created_on(&annotated.plan()).len(), 2, "the v1alpha1 annotation");
}

#[test]
fn a_template_no_node_fits_creates_nothing_and_says_why_in_the_status() {
    let mut w = world(
        set(
            json!({}),
            json!({ "template": { "metadata": { "labels": { "app": "ds" } },
        "spec": { "nodeSelector": { "role": "gpu" }, "containers": [{ "name": "app", "image": "nginx:2" }] } } }),
        ),
        0,
        vec![],
    );
    w.nodes = vec![
        node(0, json!({})),
        serde_json::from_value(
            json!({ "metadata": { "name": "node-1", "labels": { "role": "gpu" } },
            "spec": { "taints": [{ "key": "dedicated", "value": "ml", "effect": "NoSchedule" }] } }),
        )
        .expect("node"),
    ];
    let plan = w.plan();
    assert!(plan.actions.is_empty());
    let status = plan.status.expect("status");
    let condition = &status.conditions.expect("conditions")[0];
    assert_eq!(
        condition.type_,
        crate::workloads::daemonset::plan_status::NO_NODE_FITS
    );
    let message = condition.message.clone().unwrap_or_default();
    assert!(message.contains("none of the 2 nodes"), "{message}");
    assert!(
        message.contains("1 nodeSelector or required node affinity does not match"),
        "{message}"
    );
    assert!(
        message.contains("1 taint dedicated=ml:NoSchedule not tolerated"),
        "{message}"
    );
    assert_eq!(plan.problems[0].reason, "NoNodeFits");
}

#[test]
fn a_failed_pod_goes_with_a_per_node_backoff() {
    let mut failed = pod(1, NEW, false);
    failed.status.as_mut().expect("status").phase = Some("Failed".into());
    let mut w = world(set(json!({}), json!({})), 2, vec![pod(0, NEW, true), failed]);
    let plan = w.plan();
    assert_eq!(deleted(&plan), ["ds-p1new2"]);
    assert_eq!(plan.backoff_failures, ["node-1"]);
    assert_eq!(plan.problems[0].reason, "FailedDaemonPod");
    w.backoff
        .insert("node-1".into(), std::time::Duration::from_secs(4));
    let held = w.plan();
    assert!(
        deleted(&held).is_empty() && held.backoff_failures.is_empty(),
        "the node waits"
    );
    assert_eq!(held.requeue_after, Some(std::time::Duration::from_secs(4)));
}

#[test]
fn a_burst_percentage_too_large_to_scale_creates_on_every_node() {
    let set = set(json!({}), json!({ "burstReplicas": "9223372036854775807%" }));
    let plan = world(set, 3, vec![]).plan();
    assert!(plan.refused.is_none());
    assert_eq!(created_on(&plan), ["node-0", "node-1", "node-2"]);
}

#[test]
fn upstream_validation_refuses_naming_the_field() {
    for (rolling, field) in [
        (
            json!({ "maxUnavailable": 1, "maxSurge": 1 }),
            "maxUnavailable and maxSurge",
        ),
        (
            json!({ "rollingUpdateType": "InPlaceIfPossible", "maxSurge": 1 }),
            "maxSurge must be 0",
        ),
        (json!({ "partition": "120%" }), "partition 120%"),
        (json!({ "maxUnavailable": "5" }), "maxUnavailable"),
    ] {
        let plan = world(set(rolling.clone(), json!({})), 2, vec![]).plan();
        let refused = plan.refused.unwrap_or_default();
        assert!(
            refused.contains(field) && refused.contains("DaemonSet ds"),
            "{rolling}: {refused}"
        );
        assert!(plan.actions.is_empty());
    }
}

proptest! {
    /// Whatever the mix of old, new and unready pods, a no-surge update round never leaves
    /// more than maxUnavailable nodes without an available pod, counting the pods it takes
    /// down and those already down (except old pods already unavailable, which are
    /// replaced regardless); and never two creations on one node.
    #[test]
    fn an_update_round_stays_within_max_unavailable(
        states in proptest::collection::vec(0u8..5, 1..12),
        max_unavailable in 1i32..4,
        by_patch in any::<bool>(),
        partition in 0i32..4,
    ) {
        let pods: Vec<Pod> = states.iter().enumerate().filter_map(|(i, s)| match s {
            0 => Some(pod(i, OLD, true)),
            1 => Some(pod(i, NEW, true)),
            2 => Some(pod(i, NEW, false)),
            // An old pod not ready (its last update was cut short, say).
            3 => Some(pod(i, OLD, false)),
            _ => None,
        }).collect();
        let kind = if by_patch { "InPlaceIfPossible" } else { "Standard" };
        let w = world(
            set(json!({ "maxUnavailable": max_unavailable, "rollingUpdateType": kind, "partition": partition }), json!({})),
            states.len(),
            pods,
        );
        let plan = w.plan();
        let created = created_on(&plan);
        let unique: BTreeSet<&String> = created.iter().collect();
        prop_assert_eq!(unique.len(), created.len());
        let down_before = states.iter().filter(|s| **s >= 2).count() as i32;
        // Pods taken down that were up: the old ready ones (state 0) among those updated.
        let touched: BTreeSet<String> = deleted(&plan).into_iter().chain(in_place(&plan)).collect();
        let taken = touched.iter().filter(|name| name.ends_with("old1")
            && states.iter().enumerate().any(|(i, s)| *s == 0 && **name == format!("ds-p{i}old1"))).count() as i32;
        if created.is_empty() && down_before <= max_unavailable {
            prop_assert!(down_before + taken <= max_unavailable,
                "{} down, {} taken, budget {}", down_before, taken, max_unavailable);
        }
    }
}
