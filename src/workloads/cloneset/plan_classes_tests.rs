//! The classes behind issue-15 defects and the `set partition` preview, on the CloneSet
//! planner: a round waiting on minReadySeconds names its wake-up, no round deletes a claim
//! a kept or new pod needs, and the preview is the planner's own update order. Uses the
//! small world of `plan_tests`.
use k8s_openapi::api::core::v1::{PersistentVolumeClaim, Pod};
use k8s_openapi::apimachinery::pkg::util::intstr::IntOrString;
use kube::ResourceExt;
use proptest::prelude::*;
use serde_json::json;

use super::*;

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
        features: Default::default(),
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
            features: Default::default(),
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
        let (plan, update_ran) = world.with_snapshot(crate::workloads::cloneset::plan::plan_phases);
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
        let pods: Vec<&Pod> = world.pods.iter().collect();
        let preview = crate::workloads::cloneset::preview::update_order(
            &world.set, &world.update, &pods, i64::from(partition), NOW.parse().expect("time"));
        // Marked pods are deleted by the scale phase first; then the update waits a round.
        prop_assume!(!plan.actions.iter().any(|a| matches!(a, Action::DeletePod { .. })));
        prop_assert!(
            preview.starts_with(&touched),
            "planner {touched:?} is not the front of the preview {preview:?}"
        );
        if update_ran {
            prop_assert_eq!(&touched, &preview, "a budget of the whole set takes the whole preview");
        }
    }
}

proptest! {
    /// `diff` previews exactly what a scale-in deletes: for random sets (pods left on the
    /// old revision by a partition, pods marked for deletion, pods spread over nodes, not
    /// ready ones), the pods the planner's scale round deletes are the front of the
    /// preview, in its order; without marked pods (deleted in a round of their own) they
    /// are all of it, the budget being the whole set.
    #[test]
    fn the_diff_scale_in_preview_is_the_planners_choice(
        n in 2i32..8,
        down in 1i32..7,
        kept_old in 0i32..8,
        marked in proptest::collection::vec(proptest::bool::weighted(0.15), 8),
        not_ready in proptest::collection::vec(proptest::bool::weighted(0.2), 8),
        nodes in proptest::collection::vec(0usize..3, 8),
    ) {
        let mut world = World::new(n, strategy(CloneSetUpdateStrategyType::InPlaceIfPossible, 0, n, 0));
        world.run(20, |_, _| {});
        world.set_partition(kept_old.min(n));
        world.change_template(template("nginx:2", None));
        world.run(40, |_, _| {});
        for (i, pod) in world.pods.iter_mut().enumerate() {
            if marked[i] {
                pod.labels_mut().insert(pods::SPECIFIED_DELETE_LABEL.into(), "true".into());
            }
            let spec = pod.spec.get_or_insert_default();
            spec.node_name = Some(format!("node-{}", nodes[i]));
            if not_ready[i] {
                let conditions = pod.status.get_or_insert_default().conditions.get_or_insert_default();
                conditions.retain(|c| c.type_ != "Ready");
            }
        }
        world.set.spec.replicas = Some(n - down.min(n - 1));
        let plan = world.plan();
        let deleted: Vec<String> = plan
            .actions
            .iter()
            .filter_map(|a| match a {
                Action::DeletePod { name, .. } => Some(name.clone()),
                _ => None,
            })
            .collect();
        let pods: Vec<&Pod> = world.pods.iter().collect();
        let preview = crate::workloads::cloneset::preview::scale_in_order(
            &world.set, &world.update, &pods, NOW.parse().expect("time"));
        let any_marked = marked.iter().take(n as usize).any(|m| *m);
        if any_marked {
            let mut specified = deleted.clone();
            specified.sort();
            prop_assert!(preview.starts_with(&specified), "planner {deleted:?}, preview {preview:?}");
        } else {
            prop_assert_eq!(&deleted, &preview);
        }
    }
}
