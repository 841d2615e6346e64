//! Planner tests: table tests for single rounds, and a small simulated world (pods become
//! ready between rounds) for multi-round scenarios and the property tests.
use std::collections::BTreeMap;

use k8s_openapi::api::core::v1::{PersistentVolumeClaim, Pod, PodTemplateSpec};
use k8s_openapi::apimachinery::pkg::util::intstr::IntOrString;
use kube::ResourceExt;
use proptest::prelude::*;
use serde_json::{Value, json};

use super::super::{pods, status};
use super::*;
use crate::api::cloneset::{CloneSet, CloneSetUpdateStrategy, CloneSetUpdateStrategyType};
use crate::runtime::inplace::state::READINESS_GATE;
use crate::runtime::lifecycle;

const NOW: &str = "2026-12-02T12:00:00Z";

fn template(image: &str, env: Option<&str>) -> PodTemplateSpec {
    let mut container = json!({ "name": "app", "image": image });
    if let Some(value) = env {
        container["env"] = json!([{ "name": "MODE", "value": value }]);
    }
    serde_json::from_value(json!({
        "metadata": { "labels": { "app": "web" } },
        "spec": { "containers": [container] },
    }))
    .expect("template")
}

fn set(replicas: i32, strategy: CloneSetUpdateStrategy) -> CloneSet {
    let mut set: CloneSet = serde_json::from_value(json!({
        "apiVersion": "apps.kruise.io/v1alpha1",
        "kind": "CloneSet",
        "metadata": { "name": "web", "namespace": "ns", "uid": "set-uid", "generation": 1 },
        "spec": {
            "replicas": replicas,
            "selector": { "matchLabels": { "app": "web" } },
            "template": serde_json::to_value(template("nginx:1", None)).expect("json"),
        },
    }))
    .expect("set");
    set.spec.update_strategy = Some(strategy);
    set
}

fn strategy(
    policy: CloneSetUpdateStrategyType,
    partition: i32,
    max_unavailable: i32,
    max_surge: i32,
) -> CloneSetUpdateStrategy {
    CloneSetUpdateStrategy {
        type_: Some(policy),
        partition: Some(IntOrString::Int(partition)),
        max_unavailable: Some(IntOrString::Int(max_unavailable)),
        max_surge: Some(IntOrString::Int(max_surge)),
        ..CloneSetUpdateStrategy::default()
    }
}

/// A small world: the set, its revisions, its pods; `round` plans, applies the plan the
/// way the API server and kubelet would, and marks every pod ready again.
struct World {
    set: CloneSet,
    templates: BTreeMap<String, PodTemplateSpec>,
    current: String,
    update: String,
    pods: Vec<Pod>,
    next_id: u32,
}

impl World {
    fn new(replicas: i32, strategy: CloneSetUpdateStrategy) -> World {
        let set = set(replicas, strategy);
        let mut world = World {
            templates: BTreeMap::from([("web-1".to_string(), set.spec.template.clone())]),
            set,
            current: "web-1".into(),
            update: "web-1".into(),
            pods: Vec::new(),
            next_id: 0,
        };
        for _ in 0..replicas {
            world.converge_step();
        }
        world.settle();
        world
    }

    /// The user changes the template: a new update revision.
    fn change_template(&mut self, template: PodTemplateSpec) {
        let name = format!("web-{}", self.templates.len() + 1);
        self.set.spec.template = template.clone();
        self.templates.insert(name.clone(), template);
        self.update = name;
    }

    fn plan(&self) -> Plan {
        let snapshot = Snapshot {
            set: &self.set,
            pods: self.pods.iter().collect(),
            claims: Vec::new(),
            update: Revision {
                name: &self.update,
                template: &self.templates[&self.update],
            },
            current: Revision {
                name: &self.current,
                template: &self.templates[&self.current],
            },
            templates: &self.templates,
            collision_count: 0,
            node_labels: &BTreeMap::new(),
            now: NOW.parse().expect("time"),
        };
        plan(&snapshot)
    }

    /// One round: plan and apply; returns the plan.
    fn converge_step(&mut self) -> Plan {
        let plan = self.plan();
        for action in plan.actions.clone() {
            self.apply(action);
        }
        if let Some(status) = &plan.status {
            self.set.status = Some(status.clone());
            if let Some(c) = &status.current_revision {
                self.current = c.clone();
            }
        }
        plan
    }

    fn apply(&mut self, action: Action) {
        match action {
            Action::CreatePod { pod, .. } => {
                let mut pod = *pod;
                self.next_id += 1;
                pod.metadata.uid = Some(format!("uid-{}", self.next_id));
                pod.metadata.resource_version = Some("1".into());
                pod.metadata.creation_timestamp = Some(k8s_openapi::apimachinery::pkg::apis::meta::v1::Time(
                    NOW.parse().expect("time"),
                ));
                self.pods.push(pod);
            }
            Action::DeletePod { name, .. } => self.pods.retain(|p| p.name_any() != name),
            Action::DeleteClaim { .. } | Action::CreateClaim { .. } => {}
            Action::PatchPod { name, patch, .. } => {
                let pod = self.pods.iter_mut().find(|p| p.name_any() == name).expect("pod");
                let mut value = serde_json::to_value(&*pod).expect("json");
                for section in ["labels", "annotations"] {
                    for (k, v) in patch["metadata"][section].as_object().into_iter().flatten() {
                        if v.is_null() {
                            if let Some(m) = value["metadata"][section].as_object_mut() {
                                m.remove(k);
                            }
                        } else {
                            value["metadata"][section][k] = v.clone();
                        }
                    }
                }
                for c in patch["spec"]["containers"].as_array().into_iter().flatten() {
                    let containers = value["spec"]["containers"].as_array_mut().expect("containers");
                    let target = containers
                        .iter_mut()
                        .find(|x| x["name"] == c["name"])
                        .expect("container");
                    target["image"] = c["image"].clone();
                    // The in-place update restarts the container: not ready until settled.
                    value["status"]["conditions"] = json!([]);
                }
                *pod = serde_json::from_value(value).expect("pod");
            }
            Action::PatchPodStatus { name, patch, .. } => {
                let pod = self.pods.iter_mut().find(|p| p.name_any() == name).expect("pod");
                let mut value = serde_json::to_value(&*pod).expect("json");
                let mut conditions: Vec<Value> = value["status"]["conditions"]
                    .as_array()
                    .cloned()
                    .unwrap_or_default();
                for c in patch["status"]["conditions"].as_array().into_iter().flatten() {
                    conditions.retain(|x| x["type"] != c["type"]);
                    conditions.push(c.clone());
                }
                value["status"]["conditions"] = Value::Array(conditions);
                *pod = serde_json::from_value(value).expect("pod");
            }
        }
    }

    /// The kubelet: every pod runs its spec image; Ready follows the readiness gate.
    fn settle(&mut self) {
        for pod in &mut self.pods {
            let mut value = serde_json::to_value(&*pod).expect("json");
            let image = value["spec"]["containers"][0]["image"].clone();
            value["spec"]["nodeName"] = json!("node-1");
            let gate = value["status"]["conditions"]
                .as_array()
                .into_iter()
                .flatten()
                .find(|c| c["type"] == READINESS_GATE)
                .cloned();
            let gate_ok = gate.as_ref().is_some_and(|g| g["status"] == "True");
            let mut conditions = vec![json!({ "type": "ContainersReady", "status": "True" })];
            conditions.push(json!({ "type": "Ready", "status": if gate_ok { "True" } else { "False" }, "lastTransitionTime": "2026-12-02T11:00:00Z" }));
            conditions.extend(gate);
            value["status"] = json!({
                "phase": "Running",
                "conditions": conditions,
                "containerStatuses": [{ "name": "app", "image": image, "imageID": format!("id-{image}"), "ready": true, "restartCount": 0 }],
            });
            *pod = serde_json::from_value(value).expect("pod");
        }
    }

    fn unavailable(&self) -> usize {
        let now = NOW.parse().expect("time");
        self.pods
            .iter()
            .filter(|p| !status::is_available(p, 0, now))
            .count()
    }

    fn at(&self, revision: &str) -> usize {
        self.pods
            .iter()
            .filter(|p| status::is_at_revision(p, revision))
            .count()
    }

    /// Runs rounds until nothing is planned; checks `each` after every round.
    fn run(&mut self, rounds: usize, mut each: impl FnMut(&World, &Plan)) {
        for _ in 0..rounds {
            let plan = self.converge_step();
            each(self, &plan);
            self.settle();
            if plan.actions.is_empty() {
                return;
            }
        }
        panic!("no convergence in {rounds} rounds");
    }
}

fn uids(world: &World) -> Vec<String> {
    let mut u: Vec<String> = world.pods.iter().filter_map(|p| p.uid()).collect();
    u.sort();
    u
}

#[test]
fn a_new_set_creates_its_pods_then_opens_their_readiness_gate() {
    let mut world = World::new(
        0,
        strategy(CloneSetUpdateStrategyType::InPlaceIfPossible, 0, 1, 0),
    );
    world.set.spec.replicas = Some(3);
    let create = world.converge_step();
    assert_eq!(create.actions.len(), 3);
    assert!(
        create
            .actions
            .iter()
            .all(|a| matches!(a, Action::CreatePod { .. }))
    );
    world.settle();
    assert_eq!(world.unavailable(), 3, "the gate is not written yet");
    let gates = world.converge_step();
    assert!(gates.actions.iter().all(|a| matches!(
        a,
        Action::PatchPodStatus {
            why: Why::ReadinessGate,
            ..
        }
    )));
    world.settle();
    assert_eq!(world.unavailable(), 0);
    assert_eq!(world.at("web-1"), 3);
}

#[test]
fn an_image_change_goes_in_place_keeping_every_pod() {
    let mut world = World::new(
        4,
        strategy(CloneSetUpdateStrategyType::InPlaceIfPossible, 0, 1, 0),
    );
    world.run(10, |_, _| {});
    assert_eq!(world.unavailable(), 0);
    let before = uids(&world);
    world.change_template(template("nginx:2", None));
    world.run(30, |w, _| {
        assert!(w.unavailable() <= 1, "maxUnavailable 1 exceeded")
    });
    assert_eq!(uids(&world), before, "in place keeps every pod");
    assert_eq!(world.at("web-2"), 4);
    let status = world.set.status.as_ref().expect("status");
    assert_eq!(status.updated_ready_replicas, 4);
    assert_eq!(status.current_revision.as_deref(), Some("web-2"));
}

#[test]
fn recreate_replaces_every_pod() {
    let mut world = World::new(3, strategy(CloneSetUpdateStrategyType::ReCreate, 0, 1, 0));
    world.run(10, |_, _| {});
    let before = uids(&world);
    world.change_template(template("nginx:2", None));
    world.run(40, |_, _| {});
    assert_eq!(world.at("web-2"), 3);
    assert!(
        uids(&world).iter().all(|u| !before.contains(u)),
        "every pod is new"
    );
}

#[test]
fn a_recreated_pod_is_deleted_at_once_unless_a_surge_pod_or_a_pre_delete_hook_comes_first() {
    // (maxSurge, preDelete hook on the pods) -> deleted at once (true) or marked (false).
    for (surge, hooked, deleted) in [(0, false, true), (1, false, false), (0, true, false)] {
        let mut world = World::new(3, strategy(CloneSetUpdateStrategyType::ReCreate, 0, 1, surge));
        if hooked {
            world.set.spec.lifecycle = Some(crate::api::common::Lifecycle {
                pre_delete: Some(hook("drain")),
                ..Default::default()
            });
            let names: Vec<String> = world.pods.iter().map(|p| p.name_any()).collect();
            for n in &names {
                hook_label(&mut world, n, "drain", true);
            }
        }
        world.change_template(template("nginx:2", None));
        let plan = world.plan();
        let first = plan.actions.first().expect("a write");
        let case = format!("maxSurge {surge}, hooked {hooked}: {:?}", plan.actions);
        if deleted {
            assert!(
                matches!(
                    first,
                    Action::DeletePod {
                        why: Some(Why::RecreatePod),
                        ..
                    }
                ),
                "{case}"
            );
            assert_eq!(plan.actions.len(), 1, "one pod (maxUnavailable 1): {case}");
        } else if surge > 0 {
            // The surge pod first; nothing is deleted before it.
            assert!(
                !plan.actions.iter().any(|a| matches!(a, Action::DeletePod { .. })),
                "{case}"
            );
        } else {
            assert!(
                matches!(first, Action::PatchPod { why: Why::UpdatePodReCreate, patch, .. }
                    if patch["metadata"]["labels"]["apps.kruise.io/specified-delete"] == "true"),
                "{case}"
            );
        }
    }
}

#[test]
fn an_env_change_recreates_under_in_place_if_possible() {
    let mut world = World::new(
        2,
        strategy(CloneSetUpdateStrategyType::InPlaceIfPossible, 0, 1, 0),
    );
    world.run(10, |_, _| {});
    let before = uids(&world);
    world.change_template(template("nginx:1", Some("fast")));
    world.run(40, |_, _| {});
    assert!(uids(&world).iter().all(|u| !before.contains(u)));
}

#[test]
fn an_env_change_under_in_place_only_is_refused_with_failed_update() {
    let mut world = World::new(2, strategy(CloneSetUpdateStrategyType::InPlaceOnly, 0, 1, 0));
    world.run(10, |_, _| {});
    let before = uids(&world);
    world.change_template(template("nginx:1", Some("fast")));
    let plan = world.converge_step();
    assert!(plan.actions.is_empty(), "nothing is written: {:?}", plan.actions);
    let problem = plan
        .problems
        .iter()
        .find(|p| p.reason == "FailedUpdate")
        .expect("a refusal");
    assert!(
        problem.message.contains("InPlaceOnly") && problem.message.contains("env"),
        "{}",
        problem.message
    );
    let conditions = world
        .set
        .status
        .as_ref()
        .and_then(|s| s.conditions.clone())
        .unwrap_or_default();
    assert!(conditions.iter().any(|c| c.type_ == "FailedUpdate"));
    assert_eq!(uids(&world), before);
}

#[test]
fn partition_steps_hold_exactly_that_many_pods_back() {
    let mut world = World::new(
        5,
        strategy(CloneSetUpdateStrategyType::InPlaceIfPossible, 3, 2, 0),
    );
    world.run(10, |_, _| {});
    world.change_template(template("nginx:2", None));
    for (partition, old) in [(3, 3), (1, 1), (0, 0)] {
        world
            .set
            .spec
            .update_strategy
            .as_mut()
            .expect("strategy")
            .partition = Some(IntOrString::Int(partition));
        world.run(30, |w, _| {
            assert!(w.at("web-1") >= old, "partition {partition} breached")
        });
        assert_eq!(world.at("web-1"), old, "step partition {partition}");
    }
}

#[test]
fn pause_freezes_updates_but_not_scaling() {
    let mut s = strategy(CloneSetUpdateStrategyType::InPlaceIfPossible, 0, 1, 0);
    s.paused = Some(true);
    let mut world = World::new(2, s);
    world.run(10, |_, _| {});
    world.change_template(template("nginx:2", None));
    world.set.spec.replicas = Some(4);
    world.run(10, |_, _| {});
    assert_eq!(world.pods.len(), 4);
    assert_eq!(world.at("web-1"), 2, "old pods not updated while paused");
    assert_eq!(world.at("web-2"), 2, "new pods come from the update revision");
}

#[test]
fn pods_to_delete_are_the_ones_removed_and_replaced() {
    let mut world = World::new(3, strategy(CloneSetUpdateStrategyType::ReCreate, 0, 1, 0));
    world.run(10, |_, _| {});
    let doomed = world.pods[1].name_any();
    world.set.spec.scale_strategy = Some(crate::api::cloneset::CloneSetScaleStrategy {
        pods_to_delete: Some(vec![doomed.clone()]),
        ..Default::default()
    });
    let plan = world.converge_step();
    assert!(
        matches!(&plan.actions[..], [Action::DeletePod { name, .. }] if *name == doomed),
        "{:?}",
        plan.actions
    );
    world.settle();
    world.run(10, |_, _| {});
    assert_eq!(world.pods.len(), 3);
    assert!(world.pods.iter().all(|p| p.name_any() != doomed));
}

#[test]
fn scale_down_removes_the_pod_with_the_lowest_deletion_cost() {
    let mut world = World::new(3, strategy(CloneSetUpdateStrategyType::ReCreate, 0, 1, 0));
    world.run(10, |_, _| {});
    let cheap = world.pods[2].name_any();
    for (i, pod) in world.pods.iter_mut().enumerate() {
        let cost = if i == 2 { "-10" } else { "100" };
        pod.annotations_mut()
            .insert("controller.kubernetes.io/pod-deletion-cost".into(), cost.into());
    }
    world.set.spec.replicas = Some(2);
    let plan = world.converge_step();
    assert!(
        matches!(&plan.actions[..], [Action::DeletePod { name, .. }] if *name == cheap),
        "{:?}",
        plan.actions
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// During any rollout: never more than maxUnavailable pods unavailable (starting from
    /// all available), never more than replicas + maxSurge pods, the partition respected at
    /// the end, and the rollout converges.
    #[test]
    fn rollouts_respect_the_bounds(
        replicas in 1i32..8,
        partition in 0i32..8,
        max_unavailable in 1i32..4,
        max_surge in 0i32..3,
        recreate in any::<bool>(),
    ) {
        let policy = if recreate { CloneSetUpdateStrategyType::ReCreate } else { CloneSetUpdateStrategyType::InPlaceIfPossible };
        let mut world = World::new(replicas, strategy(policy, partition, max_unavailable, max_surge));
        world.run(20, |_, _| {});
        prop_assert_eq!(world.unavailable(), 0);
        world.change_template(template("nginx:2", None));
        let limit = (replicas + max_surge) as usize;
        let mut worst = 0;
        let mut most = 0;
        world.run(200, |w, _| {
            worst = worst.max(w.unavailable());
            most = most.max(w.pods.len());
        });
        prop_assert!(most <= limit, "{most} pods > replicas + maxSurge = {limit}");
        prop_assert!(worst <= (max_unavailable + max_surge) as usize, "{worst} unavailable");
        let held = partition.min(replicas) as usize;
        prop_assert_eq!(world.at("web-1"), held);
        prop_assert_eq!(world.pods.len(), replicas as usize);
    }
}

fn hook(label: &str) -> crate::api::common::LifecycleHook {
    crate::api::common::LifecycleHook {
        labels_handler: Some(BTreeMap::from([(label.to_string(), "true".to_string())])),
        finalizers_handler: None,
        mark_pod_not_ready: None,
    }
}

fn hook_label(world: &mut World, name: &str, label: &str, on: bool) {
    let pod = world.pods.iter_mut().find(|p| p.name_any() == name).expect("pod");
    if on {
        pod.labels_mut().insert(label.into(), "true".into());
    } else {
        pod.labels_mut().remove(label);
    }
}

#[test]
fn a_pre_delete_hook_holds_a_pod_in_preparing_delete_until_released() {
    let mut world = World::new(2, strategy(CloneSetUpdateStrategyType::ReCreate, 0, 1, 0));
    world.set.spec.lifecycle = Some(crate::api::common::Lifecycle {
        pre_delete: Some(hook("drain")),
        ..Default::default()
    });
    world.run(10, |_, _| {});
    let names: Vec<String> = world.pods.iter().map(|p| p.name_any()).collect();
    for n in &names {
        hook_label(&mut world, n, "drain", true);
    }
    world.set.spec.replicas = Some(1);
    world.converge_step();
    let held: Vec<&Pod> = world
        .pods
        .iter()
        .filter(|p| lifecycle::state(p) == lifecycle::PREPARING_DELETE)
        .collect();
    assert_eq!(held.len(), 1, "one pod waits in PreparingDelete");
    let held = held[0].name_any();
    world.settle();
    let wait = world.converge_step();
    assert!(
        !wait.actions.iter().any(|a| matches!(a, Action::DeletePod { .. })),
        "still hooked"
    );
    hook_label(&mut world, &held, "drain", false);
    let go = world.converge_step();
    assert!(
        go.actions
            .iter()
            .any(|a| matches!(a, Action::DeletePod { name, .. } if *name == held)),
        "{:?}",
        go.actions
    );
}

#[test]
fn an_in_place_update_hook_goes_preparing_update_then_updating_then_normal() {
    let mut world = World::new(
        1,
        strategy(CloneSetUpdateStrategyType::InPlaceIfPossible, 0, 1, 0),
    );
    world.set.spec.lifecycle = Some(crate::api::common::Lifecycle {
        in_place_update: Some(hook("ready-for-update")),
        ..Default::default()
    });
    world.run(10, |_, _| {});
    let name = world.pods[0].name_any();
    hook_label(&mut world, &name, "ready-for-update", true);
    world.change_template(template("nginx:2", None));
    world.converge_step();
    assert_eq!(lifecycle::state(&world.pods[0]), lifecycle::PREPARING_UPDATE);
    world.settle();
    world.converge_step();
    assert_eq!(world.at("web-1"), 1, "held while the hook label is on");
    hook_label(&mut world, &name, "ready-for-update", false);
    world.settle();
    world.converge_step();
    assert_eq!(lifecycle::state(&world.pods[0]), lifecycle::UPDATING);
    assert_eq!(world.at("web-2"), 1);
    // Completed, hook not re-applied: Updated (waits for the hook), then Normal once it is back.
    world.settle();
    world.run(5, |_, _| {});
    assert_eq!(lifecycle::state(&world.pods[0]), lifecycle::UPDATED);
    hook_label(&mut world, &name, "ready-for-update", true);
    world.run(5, |_, _| {});
    assert_eq!(lifecycle::state(&world.pods[0]), lifecycle::NORMAL);
}

proptest! {
    /// No stall: whatever else a round does, a pod Ready but not yet available for
    /// minReadySeconds makes the plan name the moment it will be (nothing else wakes the set).
    #[test]
    fn a_round_with_a_pod_waiting_on_min_ready_seconds_asks_to_be_woken(
        ready_ago in proptest::collection::vec(proptest::option::of(0i64..10), 1..6),
        min_ready in 1i32..8,
        policy in prop_oneof![Just(CloneSetUpdateStrategyType::ReCreate), Just(CloneSetUpdateStrategyType::InPlaceIfPossible)],
    ) {
        let mut world = World::new(ready_ago.len() as i32, strategy(policy, 0, 1, 0));
        world.run(20, |_, _| {});
        prop_assume!(world.pods.iter().all(status::is_ready));
        world.set.spec.min_ready_seconds = Some(min_ready);
        let now: k8s_openapi::jiff::Timestamp = NOW.parse().expect("time");
        for (pod, ago) in world.pods.iter_mut().zip(&ready_ago) {
            let Some(ago) = ago else { continue };
            let since = now - k8s_openapi::jiff::SignedDuration::from_secs(*ago);
            if let Some(c) = pod
                .status
                .as_mut()
                .and_then(|s| s.conditions.as_mut())
                .and_then(|c| c.iter_mut().find(|c| c.type_ == "Ready"))
            {
                c.last_transition_time = Some(k8s_openapi::apimachinery::pkg::apis::meta::v1::Time(since));
            }
        }
        let plan = world.plan();
        let waiting = ready_ago
            .iter()
            .flatten()
            .filter(|ago| **ago < i64::from(min_ready))
            .map(|ago| i64::from(min_ready) - ago)
            .min();
        if let Some(left) = waiting {
            let after = plan.requeue_after;
            prop_assert!(
                after.is_some_and(|a| a <= std::time::Duration::from_secs(left.unsigned_abs() + 1)),
                "a pod is available in {left} s; the plan wakes after {after:?}"
            );
        }
    }
}

#[test]
fn without_claim_reuse_a_vanished_pods_claims_are_deleted_and_its_replacement_gets_fresh_ones() {
    let mut world = World::new(2, strategy(CloneSetUpdateStrategyType::ReCreate, 0, 1, 0));
    world.run(20, |_, _| {});
    let mut set = world.set.clone();
    set.spec.scale_strategy =
        Some(serde_json::from_value(json!({ "disablePVCReuse": true })).expect("strategy"));
    set.spec.volume_claim_templates = Some(vec![
        serde_json::from_value(json!({ "metadata": { "name": "data" },
            "spec": { "accessModes": ["ReadWriteOnce"] } }))
        .expect("claim template"),
    ]);
    let set_name = set.name_any();
    let ids: Vec<String> = world
        .pods
        .iter()
        .map(|p| pods::id_of(p, &set_name).to_string())
        .collect();
    let claims: Vec<PersistentVolumeClaim> = ids.iter().flat_map(|id| pods::new_claims(&set, id)).collect();
    // The first pod vanished (deleted by hand); its claim is still there.
    let left: Vec<&Pod> = world.pods.iter().skip(1).collect();
    let snapshot = Snapshot {
        set: &set,
        pods: left,
        claims: claims.iter().collect(),
        update: Revision {
            name: &world.update,
            template: &world.templates[&world.update],
        },
        current: Revision {
            name: &world.current,
            template: &world.templates[&world.current],
        },
        templates: &world.templates,
        collision_count: 0,
        node_labels: &BTreeMap::new(),
        now: NOW.parse().expect("time"),
    };
    let plan = plan(&snapshot);
    let orphan_claim = format!("data-{set_name}-{}", ids[0]);
    assert!(
        plan.actions
            .iter()
            .any(|a| matches!(a, Action::DeleteClaim { name } if *name == orphan_claim)),
        "{:?}",
        plan.actions
    );
    let created: Vec<(String, Vec<String>)> = plan
        .actions
        .iter()
        .filter_map(|a| match a {
            Action::CreatePod { pod, claims } => {
                Some((pod.name_any(), claims.iter().map(|c| c.name_any()).collect()))
            }
            _ => None,
        })
        .collect();
    assert_eq!(created.len(), 1, "{created:?}");
    let (name, new_claims) = &created[0];
    assert!(
        !name.ends_with(&ids[0]),
        "the vanished pod's id is not reused: {name}"
    );
    assert_eq!(
        new_claims.len(),
        1,
        "the replacement brings its own claim: {created:?}"
    );
}

proptest! {
    /// Nothing left Pending by us: whatever pods vanished and whichever claims are left, a
    /// round never deletes a claim of a pod it keeps or creates, with or without reuse.
    #[test]
    fn no_round_deletes_a_claim_a_kept_or_new_pod_needs(
        present in proptest::collection::vec(any::<bool>(), 1..6),
        extra_replicas in 0i32..3,
        reuse in any::<bool>(),
    ) {
        let mut world = World::new(present.len() as i32, strategy(CloneSetUpdateStrategyType::ReCreate, 0, 1, 0));
        world.run(20, |_, _| {});
        let mut set = world.set.clone();
        set.spec.replicas = Some(present.len() as i32 + extra_replicas);
        set.spec.scale_strategy =
            Some(serde_json::from_value(json!({ "disablePVCReuse": !reuse })).expect("strategy"));
        set.spec.volume_claim_templates = Some(vec![serde_json::from_value(
            json!({ "metadata": { "name": "data" }, "spec": { "accessModes": ["ReadWriteOnce"] } }),
        )
        .expect("claim template")]);
        let set_name = set.name_any();
        let claims: Vec<PersistentVolumeClaim> = world
            .pods
            .iter()
            .flat_map(|p| pods::new_claims(&set, pods::id_of(p, &set_name)))
            .collect();
        let kept: Vec<&Pod> = world.pods.iter().zip(&present).filter(|(_, k)| **k).map(|(p, _)| p).collect();
        let snapshot = Snapshot {
            set: &set,
            pods: kept.clone(),
            claims: claims.iter().collect(),
            update: Revision { name: &world.update, template: &world.templates[&world.update] },
            current: Revision { name: &world.current, template: &world.templates[&world.current] },
            templates: &world.templates,
            collision_count: 0,
            node_labels: &BTreeMap::new(),
            now: NOW.parse().expect("time"),
        };
        let plan = plan(&snapshot);
        let deleted: Vec<&String> = plan
            .actions
            .iter()
            .filter_map(|a| match a {
                Action::DeleteClaim { name } => Some(name),
                _ => None,
            })
            .collect();
        let needed: Vec<String> = kept
            .iter()
            .map(|p| format!("data-{set_name}-{}", pods::id_of(p, &set_name)))
            .chain(plan.actions.iter().filter_map(|a| match a {
                Action::CreatePod { pod, .. } => Some(format!("data-{set_name}-{}", pods::id_of(pod, &set_name))),
                _ => None,
            }))
            .collect();
        for name in deleted {
            prop_assert!(!needed.contains(name), "{name} is deleted but needed: {needed:?}");
        }
    }
}

proptest! {
    /// `set partition` previews exactly what the planner does: for random sets (scatter,
    /// weight or order priority, partition, pods marked for deletion, pods not ready), the
    /// pods the planner's update round touches are the first ones of the preview, in the
    /// preview's order, and with a budget as large as the set they are all of them.
    #[test]
    fn the_set_partition_preview_is_the_planners_update_order(
        zones in proptest::collection::vec(0usize..3, 2..8),
        marked in proptest::collection::vec(proptest::bool::weighted(0.15), 8),
        partition_seed in 0i32..8,
        priority in 0usize..3,
        scatter in any::<bool>(),
    ) {
        let n = zones.len() as i32;
        let mut strategy = strategy(CloneSetUpdateStrategyType::InPlaceIfPossible, 0, n, 0);
        strategy.priority_strategy = match priority {
            1 => Some(serde_json::from_value(json!({ "weightPriority": [
                { "weight": 50, "matchSelector": { "matchLabels": { "zone": "z1" } } } ] })).expect("weight")),
            2 => Some(serde_json::from_value(json!({ "orderPriority": [{ "orderedKey": "rank" }] })).expect("order")),
            _ => None,
        };
        if scatter {
            strategy.scatter_strategy = Some(serde_json::from_value(json!([{ "key": "zone", "value": "z0" }])).expect("scatter"));
        }
        let mut world = World::new(n, strategy);
        world.run(20, |_, _| {});
        for (i, pod) in world.pods.iter_mut().enumerate() {
            let labels = pod.metadata.labels.get_or_insert_default();
            labels.insert("zone".into(), format!("z{}", zones[i]));
            labels.insert("rank".into(), format!("r{}", (i * 7) % 5));
            if marked[i] {
                labels.insert(pods::SPECIFIED_DELETE_LABEL.into(), "true".into());
            }
        }
        let partition = partition_seed.min(n);
        world.set.spec.update_strategy.get_or_insert_default().partition = Some(IntOrString::Int(partition));
        world.change_template(template("nginx:2", None));
        let plan = world.plan();
        let mut touched: Vec<String> = Vec::new();
        for action in &plan.actions {
            let name = match action {
                Action::PatchPod { name, .. } | Action::PatchPodStatus { name, .. } | Action::DeletePod { name, .. } => name,
                _ => continue,
            };
            if !touched.contains(name) {
                touched.push(name.clone());
            }
        }
        let active: Vec<&Pod> = world.pods.iter().filter(|p| is_active(p)).collect();
        let preview = crate::cli::partition::preview(
            &world.set, &world.update, &active, i64::from(partition), NOW.parse().expect("time"));
        // Marked pods are deleted by the scale phase first; then the update waits a round.
        prop_assume!(!plan.actions.iter().any(|a| matches!(a, Action::DeletePod { .. })));
        prop_assert!(
            preview.starts_with(&touched),
            "planner {touched:?} is not the front of the preview {preview:?}"
        );
        if plan.update_ran {
            prop_assert_eq!(&touched, &preview, "a budget of the whole set takes the whole preview");
        }
    }
}
