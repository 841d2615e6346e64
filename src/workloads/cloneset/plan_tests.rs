//! Planner tests: table tests for single rounds, and a small simulated world (pods become
//! ready between rounds) for multi-round scenarios and the property tests.
use std::collections::BTreeMap;

use k8s_openapi::api::core::v1::{Pod, PodTemplateSpec};
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
    features: crate::runtime::features::Features,
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
            features: Default::default(),
        };
        for _ in 0..replicas {
            world.converge_step();
        }
        world.settle();
        // Scheduled: the pods created PreparingNormal are Normal by now.
        for pod in &mut world.pods {
            pod.labels_mut()
                .insert(lifecycle::STATE_LABEL.into(), lifecycle::NORMAL.into());
        }
        world
    }

    fn set_partition(&mut self, partition: i32) {
        if let Some(strategy) = self.set.spec.update_strategy.as_mut() {
            strategy.partition = Some(IntOrString::Int(partition));
        }
    }

    /// The user changes the template: a new update revision.
    fn change_template(&mut self, template: PodTemplateSpec) {
        let name = format!("web-{}", self.templates.len() + 1);
        self.set.spec.template = template.clone();
        self.templates.insert(name.clone(), template);
        self.update = name;
    }

    fn plan(&self) -> Plan {
        self.with_snapshot(plan)
    }

    fn diffs(
        &self,
        phase: crate::workloads::cloneset::plan_scale::Phase,
    ) -> crate::workloads::cloneset::diffs::Diffs {
        self.with_snapshot(|snapshot| {
            let numbers = crate::workloads::cloneset::round::checked_numbers(snapshot.set).expect("numbers");
            let active: Vec<&Pod> = snapshot.pods.clone();
            crate::workloads::cloneset::plan_scale::diffs_of(snapshot, &numbers, &active, phase)
        })
    }

    fn with_snapshot<T>(&self, f: impl FnOnce(&Snapshot<'_>) -> T) -> T {
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
            features: self.features,
        };
        f(&snapshot)
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
            Action::Child(child) => panic!("a CloneSet has no other children: {child:?}"),
            Action::Elsewhere { namespace, .. } => {
                panic!("a CloneSet writes only in its namespace, not {namespace}")
            }
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
    assert!(
        world
            .pods
            .iter()
            .all(|p| lifecycle::state(p) == lifecycle::PREPARING_NORMAL),
        "created PreparingNormal, as upstream"
    );
    world.settle();
    assert_eq!(world.unavailable(), 3, "the gate is not written yet");
    // Scheduled: each pod's gate opens and it turns Normal (a status and a pod write).
    let next = world.converge_step();
    let gates = next
        .actions
        .iter()
        .filter(|a| {
            matches!(
                a,
                Action::PatchPodStatus {
                    why: Why::ReadinessGate,
                    ..
                }
            )
        })
        .count();
    let normal = next
        .actions
        .iter()
        .filter(|a| {
            matches!(
                a,
                Action::PatchPod {
                    why: Why::Lifecycle,
                    ..
                }
            )
        })
        .count();
    assert_eq!(
        (gates, normal, next.actions.len()),
        (3, 3, 6),
        "{:?}",
        next.actions
    );
    assert!(
        world
            .pods
            .iter()
            .all(|p| lifecycle::state(p) == lifecycle::NORMAL)
    );
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
        world.set_partition(partition);
        world.run(30, |w, _| {
            assert!(w.at("web-1") >= old, "partition {partition} breached")
        });
        assert_eq!(world.at("web-1"), old, "step partition {partition}");
    }
}

#[test]
fn a_grown_partition_rolls_updated_pods_back_only_with_the_rollback_gate() {
    for rollback in [false, true] {
        let mut world = World::new(
            4,
            strategy(CloneSetUpdateStrategyType::InPlaceIfPossible, 2, 1, 0),
        );
        world.features.cloneset_partition_rollback = rollback;
        world.run(10, |_, _| {});
        world.change_template(template("nginx:2", None));
        world.run(30, |_, _| {});
        assert_eq!((world.at("web-1"), world.at("web-2")), (2, 2));
        world.set_partition(3);
        world.run(30, |_, _| {});
        let expected = if rollback { (3, 1) } else { (2, 2) };
        assert_eq!(
            (world.at("web-1"), world.at("web-2")),
            expected,
            "CloneSetPartitionRollback={rollback}"
        );
    }
}

#[test]
fn preparing_update_as_update_counts_a_held_pod_as_updated_for_scaling_only() {
    use crate::workloads::cloneset::plan_scale::Phase;
    let mut world = World::new(
        3,
        strategy(CloneSetUpdateStrategyType::InPlaceIfPossible, 2, 1, 0),
    );
    world.change_template(template("nginx:2", None));
    world.pods[0]
        .labels_mut()
        .insert(lifecycle::STATE_LABEL.into(), lifecycle::PREPARING_UPDATE.into());
    for gate in [false, true] {
        world.features.preparing_update_as_update = gate;
        let (scale, update) = (world.diffs(Phase::Scale), world.diffs(Phase::Update));
        // The held pod is still at the old revision: the update phase moves one pod either way.
        assert_eq!(update.update_num, 1, "PreparingUpdateAsUpdate={gate}");
        // Scaling counts it as updated only with the gate: nothing left to update then.
        assert_eq!(
            scale.update_num,
            if gate { 0 } else { 1 },
            "PreparingUpdateAsUpdate={gate}"
        );
    }
}

#[test]
fn an_on_delete_rollout_is_progressing_not_paused() {
    let mut world = World::new(2, strategy(CloneSetUpdateStrategyType::OnDelete, 0, 1, 0));
    world.set.spec.progress_deadline_seconds = Some(600);
    world.run(10, |_, _| {});
    world.change_template(template("nginx:2", None));
    let plan = world.converge_step();
    assert!(
        !plan
            .actions
            .iter()
            .any(|a| matches!(a, Action::PatchPod { .. } | Action::DeletePod { .. })),
        "OnDelete updates no pod: {:?}",
        plan.actions
    );
    let status = world.set.status.clone().expect("status");
    let progressing = status
        .conditions
        .iter()
        .flatten()
        .find(|c| c.type_ == "Progressing")
        .expect("progressing");
    assert_eq!(progressing.reason.as_deref(), Some("CloneSetUpdated"));
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

#[path = "plan_classes_tests.rs"]
mod classes;
