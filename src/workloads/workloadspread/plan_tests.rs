//! Table tests and properties of one WorkloadSpread controller round.
use std::collections::BTreeSet;

use proptest::prelude::*;
use serde_json::json;

use super::*;
use crate::api::workloadspread::MATCHED_WORKLOADSPREAD_ANNOTATION;
use crate::runtime::strategic_merge;
use crate::workloads::workloadspread::place::VERSION_IGNORED;

const ZONE: &str = "topology.kubernetes.io/zone";
const NOW: &str = "2026-12-04T12:00:00Z";

fn at(t: &str) -> Timestamp {
    t.parse().expect("time")
}

fn now() -> Timestamp {
    at(NOW)
}

fn time(t: &str) -> Time {
    Time(at(t))
}

fn in_zone(zone: &str) -> Value {
    json!({ "matchExpressions": [{ "key": ZONE, "operator": "In", "values": [zone] }] })
}

/// Subsets a and b (`maxReplicas` 2) and c (unlimited), one per zone.
fn zones() -> Value {
    json!([
        { "name": "a", "maxReplicas": 2, "requiredNodeSelectorTerm": in_zone("a") },
        { "name": "b", "maxReplicas": 2, "requiredNodeSelectorTerm": in_zone("b") },
        { "name": "c", "requiredNodeSelectorTerm": in_zone("c") },
    ])
}

/// The WorkloadSpread `spread` (generation 3) of `kind` `web`, with `extra` merged into
/// its spec and `status` stored.
fn spread_with(api_version: &str, kind: &str, subsets: Value, extra: Value, status: Value) -> WorkloadSpread {
    let mut spec = json!({ "targetRef": { "apiVersion": api_version, "kind": kind, "name": "web" },
        "subsets": subsets });
    if let (Some(s), Some(e)) = (spec.as_object_mut(), extra.as_object()) {
        s.extend(e.clone());
    }
    serde_json::from_value(
        json!({ "apiVersion": "apps.kruise.io/v1alpha1", "kind": "WorkloadSpread",
        "metadata": { "name": "spread", "namespace": "shop", "generation": 3 },
        "spec": spec, "status": status }),
    )
    .expect("workloadspread")
}

fn cloneset(status: Value) -> WorkloadSpread {
    spread_with("apps.kruise.io/v1alpha1", "CloneSet", zones(), json!({}), status)
}

fn deployment(status: Value) -> WorkloadSpread {
    spread_with("apps/v1", "Deployment", zones(), json!({}), status)
}

fn adaptive() -> Value {
    json!({ "scheduleStrategy": { "type": "Adaptive", "adaptive": { "rescheduleCriticalSeconds": 30 } } })
}

/// The target, found with 6 replicas and `latest` as its latest version.
fn found(latest: &str) -> Target {
    Target::Found {
        total: 6,
        latest_version: Ok(latest.into()),
    }
}

/// Nodes `node-a`, `node-b`, `node-c` in their zones, and `node-z` in a zone no subset selects.
fn nodes() -> Vec<Node> {
    ["a", "b", "c", "z"]
        .iter()
        .map(|z| {
            serde_json::from_value(
                json!({ "metadata": { "name": format!("node-{z}"), "labels": { ZONE: z } } }),
            )
            .expect("node")
        })
        .collect()
}

fn run(ws: &WorkloadSpread, target: Target, pods: &[Pod], now: Timestamp) -> Planned<WorkloadSpreadStatus> {
    let nodes = nodes();
    let lookup = |name: &str| nodes.iter().find(|n| n.metadata.name.as_deref() == Some(name));
    plan(&Snapshot {
        ws,
        target,
        pods: pods.iter().collect(),
        node: &lookup,
        now,
    })
}

/// A pod of the target, built up from a running, ready pod of the CloneSet created at 11:00.
#[derive(Debug, Clone)]
struct TestPod {
    name: String,
    owner: &'static str,
    version: Option<String>,
    annotations: serde_json::Map<String, Value>,
    node: Option<String>,
    status: Value,
    created: String,
    terminating: bool,
}

fn ready_status(since: &str) -> Value {
    json!({ "phase": "Running", "conditions": [
        { "type": "Ready", "status": "True", "lastTransitionTime": since }] })
}

impl TestPod {
    fn new(name: &str) -> Self {
        TestPod {
            name: name.into(),
            owner: "CloneSet",
            version: None,
            annotations: serde_json::Map::new(),
            node: None,
            status: ready_status("2026-12-04T11:00:00Z"),
            created: "2026-12-04T11:00:00Z".into(),
            terminating: false,
        }
    }

    fn on(mut self, node: &str) -> Self {
        self.node = Some(node.into());
        self
    }

    fn marker(mut self, marker: Value) -> Self {
        self.annotations.insert(
            MATCHED_WORKLOADSPREAD_ANNOTATION.into(),
            json!(marker.to_string()),
        );
        self
    }

    /// Annotated by the WorkloadSpread `ws` for `subset`.
    fn placed_by(self, ws: &str, subset: &str) -> Self {
        self.marker(json!({ "name": ws, "subset": subset }))
    }

    /// Annotated by `spread` for `subset`, on `node-<subset>`.
    fn placed(self, subset: &str) -> Self {
        self.placed_by("spread", subset).on(&format!("node-{subset}"))
    }

    fn owned_by(mut self, kind: &'static str) -> Self {
        self.owner = kind;
        self
    }

    /// A pod of the Deployment's ReplicaSet of template hash `hash`.
    fn version(mut self, hash: &str) -> Self {
        self.owner = "ReplicaSet";
        self.version = Some(hash.into());
        self
    }

    fn cost(mut self, cost: i64) -> Self {
        self.annotations
            .insert(DELETION_COST_ANNOTATION.into(), json!(cost.to_string()));
        self
    }

    fn ready_since(mut self, since: &str) -> Self {
        self.status = ready_status(since);
        self
    }

    fn not_ready(mut self) -> Self {
        self.status = json!({ "phase": "Running", "conditions": [{ "type": "Ready", "status": "False" }] });
        self
    }

    /// Pending on no node, the scheduler finding none.
    fn unschedulable(mut self) -> Self {
        self.node = None;
        self.status = json!({ "phase": "Pending", "conditions": [
            { "type": "PodScheduled", "status": "False", "reason": "Unschedulable" }] });
        self
    }

    fn succeeded(mut self) -> Self {
        self.status = json!({ "phase": "Succeeded" });
        self
    }

    fn terminating(mut self) -> Self {
        self.terminating = true;
        self
    }

    fn created(mut self, at: &str) -> Self {
        self.created = at.into();
        self
    }

    fn build(&self) -> Pod {
        let (labels, owner_name) = match &self.version {
            Some(v) => (
                json!({ "app": "web", "pod-template-hash": v }),
                format!("web-{v}"),
            ),
            None => (json!({ "app": "web" }), "web".to_string()),
        };
        let api_version = match self.owner {
            "CloneSet" => "apps.kruise.io/v1alpha1",
            "Job" => "batch/v1",
            _ => "apps/v1",
        };
        let mut metadata = json!({ "name": self.name, "namespace": "shop", "uid": format!("uid-{}", self.name),
            "creationTimestamp": self.created, "labels": labels,
            "annotations": Value::Object(self.annotations.clone()),
            "ownerReferences": [{ "apiVersion": api_version, "kind": self.owner, "name": owner_name,
                "uid": "owner-uid", "controller": true }] });
        if self.terminating {
            metadata["deletionTimestamp"] = json!("2026-12-04T11:59:00Z");
        }
        serde_json::from_value(json!({ "metadata": metadata,
            "spec": { "containers": [{ "name": "app", "image": "nginx" }], "nodeName": self.node },
            "status": self.status }))
        .expect("pod")
    }
}

fn subset(name: &str, replicas: i32, missing: i32) -> WorkloadSpreadSubsetStatus {
    WorkloadSpreadSubsetStatus {
        name: name.into(),
        replicas,
        missing_replicas: missing,
        ..WorkloadSpreadSubsetStatus::default()
    }
}

fn records(entries: &[(&str, &str)]) -> Option<BTreeMap<String, Time>> {
    Some(entries.iter().map(|(k, t)| (k.to_string(), time(t))).collect())
}

fn cond(type_: &str, status: &str, reason: &str, message: Option<&str>, at: &str) -> Condition {
    Condition {
        type_: type_.into(),
        status: status.into(),
        last_transition_time: Some(time(at)),
        reason: Some(reason.into()),
        message: message.map(str::to_string),
        observed_generation: None,
    }
}

fn target_found(kind: &str, at: &str) -> Condition {
    cond(
        TARGET_FOUND,
        "True",
        "Found",
        Some(&format!("{kind} web found")),
        at,
    )
}

fn all_in_subsets(at: &str) -> Condition {
    cond(
        PODS_IN_SUBSETS,
        "True",
        "AllPodsInSubsets",
        Some("every pod is in a subset"),
        at,
    )
}

fn schedulable_condition(status: &str, reason: &str, at: &str) -> Condition {
    cond(schedulable::CONDITION, status, reason, None, at)
}

fn marker(subset: &str) -> String {
    format!(r#"{{"name":"spread","subset":"{subset}"}}"#)
}

fn patch(name: &str, annotations: Value) -> Action {
    Action::PatchPod {
        name: name.into(),
        patch: json!({ "metadata": { "annotations": annotations } }),
        why: Why::Spread,
    }
}

fn cost_patch(name: &str, cost: i64) -> Action {
    patch(name, json!({ DELETION_COST_ANNOTATION: cost.to_string() }))
}

fn reasons(planned: &Planned<WorkloadSpreadStatus>) -> Vec<&'static str> {
    planned.problems.iter().map(|p| p.reason).collect()
}

fn versioned(
    lists: &[(&str, Vec<WorkloadSpreadSubsetStatus>)],
) -> Option<BTreeMap<String, Vec<WorkloadSpreadSubsetStatus>>> {
    Some(lists.iter().map(|(v, l)| (v.to_string(), l.clone())).collect())
}

fn status_of(planned: &Planned<WorkloadSpreadStatus>) -> WorkloadSpreadStatus {
    planned.status.clone().expect("a status to write")
}

/// The `PodsInSubsets` condition's message, checked to start with `prefix`, for copying
/// into the expected status (its tail is prose).
fn outside_message(status: &WorkloadSpreadStatus, prefix: &str) -> String {
    let message = status
        .conditions
        .iter()
        .flatten()
        .find(|c| c.type_ == PODS_IN_SUBSETS)
        .and_then(|c| c.message.clone())
        .expect("a PodsInSubsets message");
    assert!(message.starts_with(prefix), "{message}");
    message
}

#[test]
fn annotated_pods_stay_in_their_subset_scheduled_ones_are_adopted_by_zone_and_the_rest_are_in_none() {
    let ws = cloneset(json!({}));
    let pods = [
        TestPod::new("a-1").placed("a").build(),
        TestPod::new("b-1").on("node-b").build(),
        // Another WorkloadSpread's pod is adopted like an unannotated one.
        TestPod::new("c-1").placed_by("other", "a").on("node-c").build(),
        TestPod::new("done-1").placed("a").succeeded().build(),
        TestPod::new("gone-1").placed("x").build(),
        TestPod::new("pending-1").unschedulable().build(),
    ];
    let planned = run(&ws, found(VERSION_IGNORED), &pods, now());
    let got = status_of(&planned);
    let lists = vec![subset("a", 1, 1), subset("b", 1, 1), subset("c", 1, -1)];
    let message = outside_message(
        &got,
        "2 pods of CloneSet web are in no subset (gone-1, pending-1)",
    );
    let want = WorkloadSpreadStatus {
        observed_generation: Some(3),
        subset_statuses: Some(lists.clone()),
        versioned_subset_statuses: versioned(&[(VERSION_IGNORED, lists)]),
        conditions: Some(vec![
            target_found("CloneSet", NOW),
            cond(
                PODS_IN_SUBSETS,
                "False",
                "PodsOutsideSubsets",
                Some(&message),
                NOW,
            ),
        ]),
    };
    assert_eq!(got, want);
    assert_eq!(reasons(&planned), ["PodsOutsideSubsets"]);
    assert!(
        planned.problems[0]
            .message
            .starts_with("WorkloadSpread spread: 2 pods of CloneSet web are in no subset"),
        "{}",
        planned.problems[0].message
    );
    assert_eq!(planned.requeue_after, None);
}

#[test]
fn an_adopted_pod_gets_one_patch_with_its_subset_and_its_cost_and_pods_in_no_subset_go_first() {
    let ws = cloneset(json!({}));
    let pods = [
        TestPod::new("a-1").placed("a").build(),
        TestPod::new("b-1").on("node-b").build(),
        // Its cost is already right: the patch carries the subset alone.
        TestPod::new("b-2").on("node-b").cost(200).build(),
        TestPod::new("c-1").placed_by("other", "a").on("node-c").build(),
        TestPod::new("done-1").placed("a").succeeded().build(),
        TestPod::new("gone-1").placed("x").build(),
        TestPod::new("pending-1").unschedulable().build(),
        TestPod::new("stray-1").on("node-z").cost(-400).build(),
    ];
    let planned = run(&ws, found(VERSION_IGNORED), &pods, now());
    // n = 3: a 300, b 200, c 100; the finished pod gets none, and the pods of no subset
    // (none, or -400) are already below every subset's: no write.
    assert_eq!(
        planned.actions,
        [
            cost_patch("a-1", 300),
            patch(
                "b-1",
                json!({ MATCHED_WORKLOADSPREAD_ANNOTATION: marker("b"), DELETION_COST_ANNOTATION: "200" })
            ),
            patch("b-2", json!({ MATCHED_WORKLOADSPREAD_ANNOTATION: marker("b") })),
            patch(
                "c-1",
                json!({ MATCHED_WORKLOADSPREAD_ANNOTATION: marker("c"), DELETION_COST_ANNOTATION: "100" })
            ),
        ]
    );
    let got = status_of(&planned);
    assert_eq!(
        got.subset_statuses,
        Some(vec![subset("a", 1, 1), subset("b", 2, 0), subset("c", 1, -1)])
    );
    outside_message(
        &got,
        "3 pods of CloneSet web are in no subset (gone-1, pending-1, stray-1)",
    );
}

#[test]
fn creating_and_deleting_records_hold_room_until_they_expire_and_then_warn_once() {
    let stored = json!([
        { "name": "a", "replicas": 2, "missingReplicas": 0,
          "creatingPods": { "a-1": "2026-12-04T11:59:50Z", "a-young": "2026-12-04T11:59:40Z",
                            "a-lost": "2026-12-04T11:59:00Z" },
          "deletingPods": { "a-2": "2026-12-04T11:59:50Z" } },
        { "name": "b", "replicas": 1, "missingReplicas": 0,
          "creatingPods": { "uid-b1": "2026-12-04T11:59:55Z" },
          "deletingPods": { "b-stuck": "2026-12-04T11:59:30Z" } },
        { "name": "c", "replicas": 0, "missingReplicas": -1 },
    ]);
    let ws =
        cloneset(json!({ "subsetStatuses": stored, "versionedSubsetStatuses": { VERSION_IGNORED: stored } }));
    let pods = [
        TestPod::new("a-1").placed("a").cost(300).build(),
        TestPod::new("a-2").placed("a").cost(300).build(),
        // Admitted without a name: its record is under the uid its annotation carries.
        TestPod::new("b-1")
            .marker(json!({ "name": "spread", "subset": "b", "uid": "uid-b1" }))
            .on("node-b")
            .cost(200)
            .build(),
        TestPod::new("b-stuck").placed("b").cost(200).build(),
    ];
    let planned = run(&ws, found(VERSION_IGNORED), &pods, now());
    // a: 2 - 2 seen + 1 (a-2 leaving, 5 s left) - 1 (a-young being created, 10 s left) = 0.
    let a = WorkloadSpreadSubsetStatus {
        creating_pods: records(&[("a-young", "2026-12-04T11:59:40Z")]),
        deleting_pods: records(&[("a-2", "2026-12-04T11:59:50Z")]),
        ..subset("a", 2, 0)
    };
    let lists = vec![a, subset("b", 2, 0), subset("c", 0, -1)];
    let want = WorkloadSpreadStatus {
        observed_generation: Some(3),
        subset_statuses: Some(lists.clone()),
        versioned_subset_statuses: versioned(&[(VERSION_IGNORED, lists)]),
        conditions: Some(vec![target_found("CloneSet", NOW), all_in_subsets(NOW)]),
    };
    assert_eq!(status_of(&planned), want);
    // Each expired record warns once though two lists hold it.
    assert_eq!(reasons(&planned), ["CreatePodFailed", "DeletePodFailed"]);
    assert!(planned.problems[0].message.contains("pod a-lost"));
    assert!(planned.problems[1].message.contains("pod b-stuck"));
    assert_eq!(
        planned.requeue_after,
        Some(Duration::from_secs(5)),
        "a-2's record expires first"
    );
    assert_eq!(planned.actions, [], "every cost is already right");
}

#[test]
fn a_percent_max_replicas_rounds_up_against_the_target_total() {
    let subsets = json!([
        { "name": "a", "maxReplicas": "50%", "requiredNodeSelectorTerm": in_zone("a") },
        { "name": "b", "maxReplicas": "34%", "requiredNodeSelectorTerm": in_zone("b") },
        { "name": "c", "requiredNodeSelectorTerm": in_zone("c") },
    ]);
    let ws = spread_with(
        "apps.kruise.io/v1alpha1",
        "CloneSet",
        subsets,
        json!({}),
        json!({}),
    );
    let pods = [TestPod::new("a-1").placed("a").build()];
    let five = Target::Found {
        total: 5,
        latest_version: Ok(VERSION_IGNORED.into()),
    };
    // 50% of 5 is 3 (2.5 up), 34% of 5 is 2 (1.7 up).
    assert_eq!(
        status_of(&run(&ws, five, &pods, now())).subset_statuses,
        Some(vec![subset("a", 1, 2), subset("b", 0, 2), subset("c", 0, -1)])
    );
    assert_eq!(
        status_of(&run(&ws, Target::Missing, &pods, now())).subset_statuses,
        Some(vec![subset("a", 1, 0), subset("b", 0, 0), subset("c", 0, -1)]),
        "no target, no total"
    );
}

#[test]
fn a_missing_target_sets_target_found_false_and_warns() {
    let ws = cloneset(json!({}));
    let planned = run(&ws, Target::Missing, &[], now());
    let message = "spec.targetRef: CloneSet web not found in namespace shop";
    let want = WorkloadSpreadStatus {
        observed_generation: Some(3),
        subset_statuses: Some(vec![subset("a", 0, 2), subset("b", 0, 2), subset("c", 0, -1)]),
        versioned_subset_statuses: Some(BTreeMap::new()),
        conditions: Some(vec![
            cond(TARGET_FOUND, "False", "NotFound", Some(message), NOW),
            all_in_subsets(NOW),
        ]),
    };
    assert_eq!(status_of(&planned), want);
    assert_eq!(
        planned.problems,
        [Problem {
            reason: "TargetNotFound",
            message: format!("WorkloadSpread spread: {message}"),
        }]
    );
    assert_eq!(planned.actions, []);
}

#[test]
fn conditions_keep_their_transition_time_while_their_status_holds_and_a_second_round_writes_nothing() {
    let ws = cloneset(json!({ "conditions": [
        { "type": TARGET_FOUND, "status": "True", "reason": "Found", "message": "CloneSet web found",
          "lastTransitionTime": "2026-12-04T11:00:00Z" },
        { "type": PODS_IN_SUBSETS, "status": "False", "reason": "PodsOutsideSubsets", "message": "old",
          "lastTransitionTime": "2026-12-04T11:30:00Z" }] }));
    let pods = [TestPod::new("a-1").placed("a").cost(300).build()];
    let first = run(&ws, found(VERSION_IGNORED), &pods, now());
    let status = status_of(&first);
    assert_eq!(
        status.conditions,
        Some(vec![
            target_found("CloneSet", "2026-12-04T11:00:00Z"),
            all_in_subsets(NOW)
        ])
    );
    let mut again = ws.clone();
    again.status = Some(status);
    assert_eq!(
        run(&again, found(VERSION_IGNORED), &pods, now()).status,
        None,
        "idempotent"
    );
    assert_eq!(
        run(&again, found(VERSION_IGNORED), &pods, at("2026-12-04T13:00:00Z")).status,
        None,
        "nothing of it depends on the time alone"
    );
}

#[test]
fn deployment_pods_are_counted_and_costed_per_template_hash_old_versions_leaving_the_first_subset_first() {
    let ws = deployment(json!({ "versionedSubsetStatuses": {
        // A pod of a version no pod is seen of yet, being created: kept.
        "gone": [{ "name": "a", "replicas": 0, "missingReplicas": 1,
                   "creatingPods": { "x": "2026-12-04T11:59:50Z" } }],
        // Nothing recorded and no pod left: dropped.
        "empty": [{ "name": "a", "replicas": 1, "missingReplicas": 1 }] } }));
    let pods = [
        TestPod::new("new-a1").version("new").placed("a").build(),
        TestPod::new("new-b1").version("new").placed("b").build(),
        TestPod::new("old-a1")
            .version("old")
            .placed("a")
            .ready_since("2026-12-04T10:00:00Z")
            .build(),
        TestPod::new("old-a2").version("old").placed("a").build(),
        TestPod::new("old-a3")
            .version("old")
            .placed("a")
            .not_ready()
            .build(),
        TestPod::new("old-c1").version("old").placed("c").build(),
    ];
    let planned = run(&ws, found("new"), &pods, now());
    let want = WorkloadSpreadStatus {
        observed_generation: Some(3),
        subset_statuses: Some(vec![subset("a", 4, 0), subset("b", 1, 1), subset("c", 1, -1)]),
        versioned_subset_statuses: versioned(&[
            (
                "gone",
                vec![
                    WorkloadSpreadSubsetStatus {
                        creating_pods: records(&[("x", "2026-12-04T11:59:50Z")]),
                        ..subset("a", 0, 1)
                    },
                    subset("b", 0, 2),
                    subset("c", 0, -1),
                ],
            ),
            (
                "new",
                vec![subset("a", 1, 1), subset("b", 1, 1), subset("c", 0, -1)],
            ),
            (
                "old",
                vec![subset("a", 3, 0), subset("b", 0, 2), subset("c", 1, -1)],
            ),
        ]),
        conditions: Some(vec![target_found("Deployment", NOW), all_in_subsets(NOW)]),
    };
    assert_eq!(status_of(&planned), want);
    assert_eq!(planned.requeue_after, Some(Duration::from_secs(20)));
    // Latest "new": a index 0 (300), b index 1 (200). Old: a counts as index 2 (100, and
    // -300 for the one over its max of 2 per version: the not ready one), c as index 0 (300).
    assert_eq!(
        planned.actions,
        [
            cost_patch("new-a1", 300),
            cost_patch("new-b1", 200),
            cost_patch("old-a1", 100),
            cost_patch("old-a2", 100),
            cost_patch("old-a3", -300),
            cost_patch("old-c1", 300),
        ]
    );
}

#[test]
fn a_subset_over_its_max_offers_its_least_settled_pods_first_and_writes_only_changed_costs() {
    let ws = cloneset(json!({}));
    let pods = [
        TestPod::new("a-down").placed("a").not_ready().build(),
        TestPod::new("a-mid")
            .placed("a")
            .ready_since("2026-12-04T10:30:00Z")
            .cost(300)
            .build(),
        TestPod::new("a-new")
            .placed("a")
            .ready_since("2026-12-04T11:30:00Z")
            .build(),
        TestPod::new("a-old")
            .placed("a")
            .ready_since("2026-12-04T09:30:00Z")
            .build(),
        TestPod::new("a-wait").placed("a").unschedulable().build(),
        TestPod::new("c-1").placed("c").build(),
        TestPod::new("c-2").placed("c").build(),
        TestPod::new("c-3").placed("c").build(),
    ];
    let planned = run(&ws, found(VERSION_IGNORED), &pods, now());
    // Five in a, max 2: the unscheduled one, the not ready one and the one ready for the
    // least time go first; c has no max and is never over it.
    assert_eq!(
        planned.actions,
        [
            cost_patch("a-down", -100),
            cost_patch("a-new", -100),
            cost_patch("a-old", 300),
            cost_patch("a-wait", -100),
            cost_patch("c-1", 100),
            cost_patch("c-2", 100),
            cost_patch("c-3", 100),
        ]
    );
    assert_eq!(
        status_of(&planned).subset_statuses,
        Some(vec![subset("a", 5, 0), subset("b", 0, 2), subset("c", 3, -1)])
    );
}

#[test]
fn costs_are_left_alone_for_statefulset_and_job_targets_and_while_the_latest_version_is_unknown() {
    let unknown = || Target::Found {
        total: 6,
        latest_version: Err("CloneSet shop/web: status not observed yet".into()),
    };
    let cases: [(&str, &str, &'static str, Target); 4] = [
        ("apps/v1", "StatefulSet", "StatefulSet", found(VERSION_IGNORED)),
        (
            "apps.kruise.io/v1beta1",
            "StatefulSet",
            "StatefulSet",
            found(VERSION_IGNORED),
        ),
        ("batch/v1", "Job", "Job", found(VERSION_IGNORED)),
        ("apps.kruise.io/v1alpha1", "CloneSet", "CloneSet", unknown()),
    ];
    for (api_version, kind, owner, target) in cases {
        let ws = spread_with(api_version, kind, zones(), json!({}), json!({}));
        let pods = [
            TestPod::new("a-1").owned_by(owner).placed("a").build(),
            TestPod::new("b-1").owned_by(owner).on("node-b").build(),
            TestPod::new("gone-1").owned_by(owner).placed("x").build(),
        ];
        let planned = run(&ws, target, &pods, now());
        assert_eq!(
            planned.actions,
            [patch(
                "b-1",
                json!({ MATCHED_WORKLOADSPREAD_ANNOTATION: marker("b") })
            )],
            "{kind}: the adoption alone"
        );
        assert_eq!(
            status_of(&planned).subset_statuses,
            Some(vec![subset("a", 1, 1), subset("b", 1, 1), subset("c", 0, -1)]),
            "{kind}"
        );
    }
}

#[test]
fn adaptive_deletes_pods_stuck_unschedulable_outside_the_last_subset_and_recovers_after_five_minutes() {
    let ws = spread_with(
        "apps.kruise.io/v1alpha1",
        "CloneSet",
        zones(),
        adaptive(),
        json!({ "subsetStatuses": [
            { "name": "c", "replicas": 1, "missingReplicas": -1, "conditions": [
                { "type": "Schedulable", "status": "False", "reason": "PodUnschedulable",
                  "lastTransitionTime": "2026-12-04T11:00:00Z" }] }] }),
    );
    let stuck = TestPod::new("a-stuck")
        .placed("a")
        .unschedulable()
        .created("2026-12-04T11:59:00Z");
    let waiting = TestPod::new("a-wait")
        .placed("a")
        .unschedulable()
        .created("2026-12-04T11:59:50Z")
        .cost(300);
    let b = TestPod::new("b-1").placed("b").cost(200);
    let last = TestPod::new("c-stuck")
        .placed("c")
        .unschedulable()
        .created("2026-12-04T11:59:00Z")
        .cost(100);
    let pods = [stuck.build(), waiting.build(), b.build(), last.build()];
    let planned = run(&ws, found(VERSION_IGNORED), &pods, now());
    // The mark goes first: no delete before the stored status marks a; a-stuck still gets
    // its first cost (300) meanwhile, and the round comes back shortly.
    assert_eq!(planned.actions, [cost_patch("a-stuck", 300)]);
    assert_eq!(planned.requeue_after, Some(Duration::from_secs(1)));
    let with = |s: WorkloadSpreadSubsetStatus, c: Condition| WorkloadSpreadSubsetStatus {
        conditions: Some(vec![c]),
        ..s
    };
    // The last subset is schedulable whatever it was.
    let lists = vec![
        with(
            subset("a", 2, 0),
            schedulable_condition("False", "PodUnschedulable", NOW),
        ),
        with(
            subset("b", 1, 1),
            schedulable_condition("True", "Sufficient", NOW),
        ),
        with(
            subset("c", 1, -1),
            schedulable_condition("True", "Sufficient", NOW),
        ),
    ];
    let status = status_of(&planned);
    assert_eq!(status.subset_statuses, Some(lists.clone()));
    assert_eq!(
        status.versioned_subset_statuses,
        versioned(&[(VERSION_IGNORED, lists)])
    );

    let mut ws = ws;
    ws.status = Some(status);
    let marked = run(&ws, found(VERSION_IGNORED), &pods, now());
    assert_eq!(marked.status, None, "idempotent");
    // Marked: a-stuck goes, without a patch.
    let delete = Action::DeletePod {
        name: "a-stuck".into(),
        uid: "uid-a-stuck".into(),
        claims: Vec::new(),
        why: None,
    };
    assert_eq!(marked.actions, std::slice::from_ref(&delete));
    assert_eq!(
        marked.requeue_after,
        Some(Duration::from_secs(20)),
        "a-wait is stuck for 30 s in 20 s"
    );
    let again = run(&ws, found(VERSION_IGNORED), &pods, now());
    assert_eq!(
        (again.status, again.actions),
        (None, vec![delete]),
        "the same delete, nothing new"
    );

    // a-stuck gone, a-wait scheduled: a stays unschedulable five minutes from 12:00.
    let settled = [
        waiting
            .clone()
            .on("node-a")
            .ready_since("2026-12-04T12:01:00Z")
            .build(),
        b.build(),
        last.build(),
    ];
    let before = run(&ws, found(VERSION_IGNORED), &settled, at("2026-12-04T12:03:00Z"));
    assert_eq!(
        status_of(&before).subset_statuses.expect("statuses")[0].conditions,
        Some(vec![schedulable_condition("False", "PodUnschedulable", NOW)])
    );
    assert_eq!(before.requeue_after, Some(Duration::from_secs(120)));
    assert!(before.notices.is_empty());
    let after = run(&ws, found(VERSION_IGNORED), &settled, at("2026-12-04T12:05:01Z"));
    assert_eq!(
        status_of(&after).subset_statuses.expect("statuses")[0].conditions,
        Some(vec![schedulable_condition(
            "True",
            "Sufficient",
            "2026-12-04T12:05:01Z"
        )])
    );
    assert_eq!(
        after.notices.iter().map(|n| n.reason).collect::<Vec<_>>(),
        ["RecoverSchedulable"]
    );
}

#[test]
fn without_the_adaptive_strategy_stuck_pods_stay_and_no_schedulable_condition_is_kept() {
    let ws = cloneset(json!({ "subsetStatuses": [
        { "name": "a", "replicas": 1, "missingReplicas": 1, "conditions": [
            { "type": "Schedulable", "status": "False", "reason": "PodUnschedulable",
              "lastTransitionTime": "2026-12-04T11:00:00Z" }] }] }));
    let pods = [TestPod::new("a-stuck")
        .placed("a")
        .unschedulable()
        .created("2026-12-04T11:00:00Z")
        .cost(300)
        .build()];
    let planned = run(&ws, found(VERSION_IGNORED), &pods, now());
    assert_eq!(planned.actions, []);
    assert_eq!(
        status_of(&planned).subset_statuses,
        Some(vec![subset("a", 1, 1), subset("b", 0, 2), subset("c", 0, -1)])
    );
}

/// As upstream (`isNotMatchedWS`: an empty subset is no placement).
#[test]
fn a_pod_annotated_here_without_a_subset_is_adopted_by_node_fit() {
    let ws = cloneset(json!({}));
    let pods = [TestPod::new("b-1").placed_by("spread", "").on("node-b").build()];
    let planned = run(&ws, found(VERSION_IGNORED), &pods, now());
    assert_eq!(
        planned.actions,
        [patch(
            "b-1",
            json!({ MATCHED_WORKLOADSPREAD_ANNOTATION: marker("b"), DELETION_COST_ANNOTATION: "200" })
        )]
    );
    assert_eq!(
        status_of(&planned).subset_statuses,
        Some(vec![subset("a", 0, 2), subset("b", 1, 1), subset("c", 0, -1)])
    );
}

/// Subset `a` (max 1, zone a) and `any` (no term, unlimited): a node in zone a fits both,
/// so the adoption quota decides.
fn overlapping(api_version: &str, kind: &str) -> WorkloadSpread {
    let subsets = json!([
        { "name": "a", "maxReplicas": 1, "requiredNodeSelectorTerm": in_zone("a") },
        { "name": "any" },
    ]);
    spread_with(api_version, kind, subsets, json!({}), json!({}))
}

fn adopted_into(planned: &Planned<WorkloadSpreadStatus>, pod: &str) -> Option<String> {
    planned.actions.iter().find_map(|a| match a {
        Action::PatchPod { name, patch, .. } if name == pod => patch["metadata"]["annotations"]
            [MATCHED_WORKLOADSPREAD_ANNOTATION]
            .as_str()
            .and_then(|m| serde_json::from_str::<Value>(m).ok())
            .and_then(|m| m["subset"].as_str().map(str::to_string)),
        _ => None,
    })
}

/// As upstream (`groupVersionedPods` -> `groupPodBySubset`): an old version's pods do not
/// use the new version's room.
#[test]
fn the_adoption_quota_is_counted_per_version() {
    let ws = overlapping("apps/v1", "Deployment");
    let pods = [
        TestPod::new("old-a1").version("old").placed("a").build(),
        TestPod::new("new-1").version("new").on("node-a").build(),
    ];
    let planned = run(&ws, found("new"), &pods, now());
    // Upstream: the new version's quota of a is 1 - 0, a tie at score 1 goes to the earlier a.
    assert_eq!(adopted_into(&planned, "new-1").as_deref(), Some("a"));
}

#[test]
fn finished_pods_annotated_for_a_subset_still_use_its_adoption_quota() {
    let ws = overlapping("apps.kruise.io/v1alpha1", "CloneSet");
    let pods = [
        TestPod::new("done-1").placed("a").succeeded().build(),
        TestPod::new("p-1").on("node-a").build(),
    ];
    let planned = run(&ws, found(VERSION_IGNORED), &pods, now());
    // Upstream: a's quota is 1 - 1 = 0, so `any` (room) wins the tie.
    assert_eq!(adopted_into(&planned, "p-1").as_deref(), Some("any"));
}

#[test]
fn a_version_whose_pods_are_all_in_no_subset_still_gets_its_subset_list() {
    let ws = cloneset(json!({}));
    let pods = [TestPod::new("pending-1").unschedulable().build()];
    let planned = run(&ws, found(VERSION_IGNORED), &pods, now());
    assert_eq!(
        status_of(&planned).versioned_subset_statuses,
        versioned(&[(
            VERSION_IGNORED,
            vec![subset("a", 0, 2), subset("b", 0, 2), subset("c", 0, -1)]
        )])
    );
}

// Properties.

/// One random pod: its annotation, node, state, version, age, cost and whether its marker
/// carries a generated uid.
#[derive(Debug, Clone)]
struct Arb {
    /// 0 none, 1-3 subsets a-c, 4 a subset that is gone, 5 another WorkloadSpread's.
    annotation: u8,
    /// 0 none, 1-3 node-a..c, 4 node-z.
    node: u8,
    /// 0 ready, 1 not ready, 2 unschedulable, 3 succeeded, 4 terminating.
    state: u8,
    new_version: bool,
    age: i64,
    cost: Option<i64>,
    generated_uid: bool,
}

fn arb_pod() -> impl Strategy<Value = Arb> {
    (
        // Weighted towards the limited subsets, so that they run over their max.
        prop::sample::select(vec![0u8, 0, 1, 1, 1, 2, 2, 3, 4, 5]),
        0u8..5,
        0u8..5,
        any::<bool>(),
        0i64..120,
        prop::option::of(prop::sample::select(vec![
            -400i64, -300, -200, -100, 100, 200, 300,
        ])),
        any::<bool>(),
    )
        .prop_map(
            |(annotation, node, state, new_version, age, cost, generated_uid)| Arb {
                annotation,
                node,
                state,
                new_version,
                age,
                cost,
                generated_uid,
            },
        )
}

/// A stored record: which list (0 overall, else the versions below), subset, creating or
/// deleting, key (a pod name, a generated uid, or nobody's), age.
type Record = (usize, usize, bool, usize, i64);

const STORED_VERSIONS: [&str; 4] = ["", VERSION_IGNORED, "old", "gone"];

fn arb_records() -> impl Strategy<Value = Vec<Record>> {
    prop::collection::vec((0usize..4, 0usize..3, any::<bool>(), 0usize..30, 0i64..60), 0..8)
}

fn seconds_ago(now: Timestamp, age: i64) -> Time {
    Time(Timestamp::from_second(now.as_second() - age).expect("time"))
}

fn pod_name(i: usize) -> String {
    format!("p{i:02}")
}

fn build_pods(arbs: &[Arb], deployment: bool, now: Timestamp) -> Vec<Pod> {
    arbs.iter()
        .enumerate()
        .map(|(i, a)| {
            let name = pod_name(i);
            let mut p = TestPod::new(&name).created(&seconds_ago(now, a.age).0.to_string());
            if deployment {
                p = p.version(if a.new_version { "new" } else { "old" });
            }
            p = match a.annotation {
                1..=4 => {
                    let subset = ["a", "b", "c", "gone"][usize::from(a.annotation) - 1];
                    match a.generated_uid {
                        true => p.marker(
                            json!({ "name": "spread", "subset": subset, "uid": format!("gen-{i:02}") }),
                        ),
                        false => p.placed_by("spread", subset),
                    }
                }
                5 => p.placed_by("other", "a"),
                _ => p,
            };
            p = match a.state {
                1 => p.not_ready(),
                2 => p.unschedulable(),
                3 => p.succeeded(),
                4 => p.terminating(),
                _ => p,
            };
            if a.node > 0 && a.state != 2 {
                p = p.on(&format!("node-{}", ["a", "b", "c", "z"][usize::from(a.node) - 1]));
            }
            if let Some(c) = a.cost {
                p = p.cost(c);
            }
            p.build()
        })
        .collect()
}

fn stored_status(records: &[Record], unschedulable_a: Option<i64>, now: Timestamp) -> WorkloadSpreadStatus {
    let blank = || vec![subset("a", 0, 2), subset("b", 0, 2), subset("c", 0, -1)];
    let mut status = WorkloadSpreadStatus::default();
    for &(list, s, creating, key, age) in records {
        let lists = match list {
            0 => status.subset_statuses.get_or_insert_with(blank),
            v => status
                .versioned_subset_statuses
                .get_or_insert_default()
                .entry(STORED_VERSIONS[v].to_string())
                .or_insert_with(blank),
        };
        let key = match key {
            0..12 => pod_name(key),
            12..24 => format!("gen-{:02}", key - 12),
            _ => format!("nobody-{key}"),
        };
        let entry = &mut lists[s];
        let map = if creating {
            &mut entry.creating_pods
        } else {
            &mut entry.deleting_pods
        };
        map.get_or_insert_default().insert(key, seconds_ago(now, age));
    }
    if let Some(age) = unschedulable_a {
        let lists = status.subset_statuses.get_or_insert_with(blank);
        lists[0].conditions = Some(vec![Condition {
            last_transition_time: Some(seconds_ago(now, age)),
            ..schedulable_condition("False", "PodUnschedulable", NOW)
        }]);
    }
    status
}

/// A random round's input: the spread (with its stored status), the target, the pods.
#[derive(Debug, Clone)]
struct Case {
    ws: WorkloadSpread,
    target: Target,
    pods: Vec<Pod>,
}

fn arb_case(allow_missing: bool) -> impl Strategy<Value = Case> {
    (
        any::<bool>(),
        any::<bool>(),
        any::<bool>(),
        prop::collection::vec(arb_pod(), 0..12),
        arb_records(),
        prop::option::of(0i64..600),
    )
        .prop_map(
            move |(deployment, adaptive_on, missing, arbs, records, unschedulable_a)| {
                let (api_version, kind, latest) = match deployment {
                    true => ("apps/v1", "Deployment", "new"),
                    false => ("apps.kruise.io/v1alpha1", "CloneSet", VERSION_IGNORED),
                };
                let extra = if adaptive_on { adaptive() } else { json!({}) };
                let mut ws = spread_with(api_version, kind, zones(), extra, Value::Null);
                ws.status = Some(stored_status(&records, unschedulable_a, now()));
                let target = if allow_missing && missing {
                    Target::Missing
                } else {
                    found(latest)
                };
                Case {
                    ws,
                    target,
                    pods: build_pods(&arbs, deployment, now()),
                }
            },
        )
}

fn deleted(planned: &Planned<WorkloadSpreadStatus>) -> BTreeSet<String> {
    planned
        .actions
        .iter()
        .filter_map(|a| match a {
            Action::DeletePod { name, .. } => Some(name.clone()),
            _ => None,
        })
        .collect()
}

/// The pods with the round's patches applied.
fn patched(pods: &[Pod], planned: &Planned<WorkloadSpreadStatus>) -> Vec<Pod> {
    pods.iter()
        .map(|p| {
            let name = p.name_any();
            let found = planned.actions.iter().find_map(|a| match a {
                Action::PatchPod { name: n, patch, .. } if *n == name => Some(patch),
                _ => None,
            });
            match found {
                Some(patch) => {
                    let value = serde_json::to_value(p).expect("pod json");
                    serde_json::from_value(strategic_merge::apply(&value, patch)).expect("patched pod")
                }
                None => p.clone(),
            }
        })
        .collect()
}

/// The index of the subset of `ws` a (patched) pod's annotation places it in.
fn placed_in(ws: &WorkloadSpread, pod: &Pod) -> Option<usize> {
    let (owner, name) = deleting::matched(pod)?;
    if owner != "spread" {
        return None;
    }
    ws.spec.subsets.iter().position(|s| s.name == name)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn a_second_round_from_the_status_just_computed_writes_nothing_and_deletes_nothing_new(
        case in arb_case(true),
    ) {
        let first = run(&case.ws, case.target.clone(), &case.pods, now());
        let mut again = case.ws.clone();
        if let Some(status) = &first.status {
            again.status = Some(status.clone());
        }
        let second = run(&again, case.target.clone(), &case.pods, now());
        prop_assert_eq!(&second.status, &None);
        // Deletes wait for the stored mark: the second round may delete what the first
        // marked, and only pods of a subset (not the last) its status marks.
        prop_assert!(deleted(&first).is_subset(&deleted(&second)));
        let status = again.status.clone().unwrap_or_default();
        let marked: BTreeSet<usize> = status
            .subset_statuses
            .iter()
            .flatten()
            .enumerate()
            .filter(|(_, s)| schedulable_of(Some(s)).is_some_and(|c| c.status == "False"))
            .map(|(i, _)| i)
            .collect();
        let last = case.ws.spec.subsets.len() - 1;
        let going = deleted(&second);
        for pod in case.pods.iter().filter(|p| going.contains(&p.name_any())) {
            let i = placed_in(&case.ws, pod).expect("a deleted pod is in a subset");
            prop_assert!(marked.contains(&i) && i != last, "{} in subset {}", pod.name_any(), i);
        }
        let third = run(&again, case.target.clone(), &case.pods, now());
        prop_assert_eq!(&third.actions, &second.actions, "nothing new once the status holds");
        // The status survives the API server's JSON as it is.
        let json = serde_json::to_value(&again.status).expect("json");
        let read: Option<WorkloadSpreadStatus> = serde_json::from_value(json).expect("read back");
        prop_assert_eq!(read, again.status.clone());
    }

    #[test]
    fn once_its_patches_are_applied_a_round_has_nothing_left_to_patch(case in arb_case(true)) {
        let first = run(&case.ws, case.target.clone(), &case.pods, now());
        let pods = patched(&case.pods, &first);
        let mut again = case.ws.clone();
        if let Some(status) = &first.status {
            again.status = Some(status.clone());
        }
        let second = run(&again, case.target.clone(), &pods, now());
        prop_assert_eq!(&second.status, &None);
        let patches: Vec<&Action> = second
            .actions
            .iter()
            .filter(|a| matches!(a, Action::PatchPod { .. }))
            .collect();
        prop_assert!(patches.is_empty(), "{:?}", patches);
    }

    #[test]
    fn no_subset_protects_more_pods_of_a_version_than_its_max(case in arb_case(false)) {
        let planned = run(&case.ws, case.target.clone(), &case.pods, now());
        let going = deleted(&planned);
        let pods = patched(&case.pods, &planned);
        let mut protected: BTreeMap<(usize, String), i32> = BTreeMap::new();
        let (mut lowest_placed, mut highest_outside) = (i64::MAX, i64::MIN);
        for pod in pods.iter().filter(|p| is_active(p) && !going.contains(&p.name_any())) {
            // As the workloads read it: none (or unreadable) is 0.
            let cost: i64 = pod
                .annotations()
                .get(DELETION_COST_ANNOTATION)
                .and_then(|c| c.parse().ok())
                .unwrap_or(0);
            match placed_in(&case.ws, pod) {
                Some(i) => {
                    prop_assert!(
                        pod.annotations().contains_key(DELETION_COST_ANNOTATION),
                        "{} of a subset has a cost", pod.name_any()
                    );
                    lowest_placed = lowest_placed.min(cost);
                    if cost > 0 {
                        *protected.entry((i, pod_version(pod))).or_default() += 1;
                    }
                }
                None => highest_outside = highest_outside.max(cost),
            }
        }
        prop_assert!(
            lowest_placed == i64::MAX || highest_outside < lowest_placed,
            "a pod of no subset ({}) is not below every subset pod ({})", highest_outside, lowest_placed
        );
        for ((i, version), count) in protected {
            let max = capacity(&case.ws.spec.subsets[i], 6);
            prop_assert!(max < 0 || count <= max, "subset {} version {}: {} > {}", i, version, count, max);
        }
    }

    #[test]
    fn every_active_pod_counts_in_one_subset_or_in_none(case in arb_case(true)) {
        let planned = run(&case.ws, case.target.clone(), &case.pods, now());
        let status = planned.status.clone().or(case.ws.status.clone()).expect("a status");
        let pods = patched(&case.pods, &planned);
        let active: Vec<&Pod> = pods.iter().filter(|p| is_active(p)).collect();
        let mut per_subset = vec![0i32; case.ws.spec.subsets.len()];
        let mut outside = 0i32;
        for pod in &active {
            match placed_in(&case.ws, pod) {
                Some(i) => per_subset[i] += 1,
                None => outside += 1,
            }
        }
        let lists = status.subset_statuses.clone().expect("subset statuses");
        let replicas: Vec<i32> = lists.iter().map(|s| s.replicas).collect();
        prop_assert_eq!(&replicas, &per_subset);
        prop_assert_eq!(replicas.iter().sum::<i32>() + outside, active.len() as i32);
        // The versions split the same pods.
        let mut by_versions = vec![0i32; case.ws.spec.subsets.len()];
        for list in status.versioned_subset_statuses.iter().flat_map(|v| v.values()) {
            for (i, s) in list.iter().enumerate() {
                by_versions[i] += s.replicas;
            }
        }
        prop_assert_eq!(&by_versions, &per_subset);
        let condition = status
            .conditions
            .iter()
            .flatten()
            .find(|c| c.type_ == PODS_IN_SUBSETS)
            .cloned()
            .expect("PodsInSubsets");
        prop_assert_eq!(condition.status == "True", outside == 0);
        if outside > 0 {
            let message = condition.message.unwrap_or_default();
            prop_assert!(message.starts_with(&format!("{outside} pods of ")), "{}", message);
        }
    }
}
