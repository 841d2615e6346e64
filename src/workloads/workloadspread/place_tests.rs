//! Table tests for placing a new pod into a subset.
use serde_json::json;

use super::*;

fn now() -> Timestamp {
    "2026-12-04T12:00:00Z".parse().expect("time")
}

fn spread(kind: &str, subsets: Value, status: Value) -> WorkloadSpread {
    serde_json::from_value(
        json!({ "apiVersion": "apps.kruise.io/v1alpha1", "kind": "WorkloadSpread",
        "metadata": { "name": "spread", "namespace": "shop" },
        "spec": { "targetRef": { "apiVersion": "apps.kruise.io/v1alpha1", "kind": kind, "name": "web" },
            "subsets": subsets },
        "status": status }),
    )
    .expect("workloadspread")
}

fn zones() -> Value {
    json!([
        { "name": "zone-a", "maxReplicas": 2,
          "requiredNodeSelectorTerm": { "matchExpressions": [
              { "key": "topology.kubernetes.io/zone", "operator": "In", "values": ["a"] }] } },
        { "name": "zone-b", "maxReplicas": 2, "tolerations": [{ "key": "spot", "operator": "Exists" }] },
        { "name": "zone-c", "patch": { "metadata": { "labels": { "zone": "c" } } } },
    ])
}

fn pod(name: Option<&str>, owner: &str, labels: Value) -> Pod {
    serde_json::from_value(json!({ "metadata": { "name": name, "namespace": "shop", "labels": labels,
            "ownerReferences": [{ "apiVersion": "apps/v1", "kind": owner, "name": "web-rs", "uid": "u", "controller": true }] },
        "spec": { "containers": [{ "name": "app", "image": "nginx" }] } }))
    .expect("pod")
}

fn missing(p: &Placement, version: &str) -> Vec<i32> {
    p.status
        .as_ref()
        .expect("a status write")
        .versioned_subset_statuses
        .as_ref()
        .expect("versions")[version]
        .iter()
        .map(|s| s.missing_replicas)
        .collect()
}

#[test]
fn pods_fill_the_subsets_in_order_and_each_limited_one_is_recorded() {
    let ws = spread("CloneSet", zones(), json!({}));
    let first = place(
        &ws,
        &pod(Some("web-1"), "CloneSet", json!({})),
        0,
        now(),
        String::new,
    );
    assert_eq!(first.subset.as_deref(), Some("zone-a"));
    assert_eq!(missing(&first, VERSION_IGNORED), [1, 2, -1]);
    let mut ws = ws;
    ws.status = first.status.clone();
    let again = place(
        &ws,
        &pod(Some("web-1"), "CloneSet", json!({})),
        0,
        now(),
        String::new,
    );
    assert_eq!(
        (again.subset.as_deref(), again.status),
        (Some("zone-a"), None),
        "a retried create keeps its subset"
    );
    let second = place(
        &ws,
        &pod(Some("web-2"), "CloneSet", json!({})),
        0,
        now(),
        String::new,
    );
    assert_eq!(missing(&second, VERSION_IGNORED), [0, 2, -1]);
    ws.status = second.status;
    let third = place(&ws, &pod(None, "CloneSet", json!({})), 0, now(), || {
        "uid-3".into()
    });
    assert_eq!(third.subset.as_deref(), Some("zone-b"));
    assert_eq!(third.generated_uid.as_deref(), Some("uid-3"));
    let list = &third
        .status
        .as_ref()
        .expect("status")
        .versioned_subset_statuses
        .as_ref()
        .expect("v")[VERSION_IGNORED];
    assert!(
        list[1]
            .creating_pods
            .as_ref()
            .expect("creating")
            .contains_key("uid-3")
    );
    ws.status = third.status;
    for name in ["web-4", "web-5"] {
        let p = place(
            &ws,
            &pod(Some(name), "CloneSet", json!({})),
            0,
            now(),
            String::new,
        );
        ws.status = p.status.clone().or(ws.status.clone());
    }
    let unlimited = place(
        &ws,
        &pod(Some("web-6"), "CloneSet", json!({})),
        0,
        now(),
        String::new,
    );
    assert_eq!(
        (unlimited.subset.as_deref(), unlimited.status),
        (Some("zone-c"), None),
        "unlimited: no write"
    );
}

#[test]
fn percents_versions_unschedulable_subsets_and_no_room() {
    let ws = spread(
        "Deployment",
        json!([{ "name": "a", "maxReplicas": "50%" }, { "name": "b", "maxReplicas": "50%" }]),
        json!({ "versionedSubsetStatuses": { "old": [
            { "name": "a", "replicas": 3, "missingReplicas": 0 }, { "name": "b", "replicas": 3, "missingReplicas": 0 }] } }),
    );
    let new = pod(Some("web-x"), "ReplicaSet", json!({ "pod-template-hash": "new" }));
    let placed = place(&ws, &new, 5, now(), String::new);
    assert_eq!(placed.subset.as_deref(), Some("a"));
    assert_eq!(
        missing(&placed, "new"),
        [2, 3],
        "50% of 5 rounds up to 3, one taken"
    );
    let old = pod(Some("web-y"), "ReplicaSet", json!({ "pod-template-hash": "old" }));
    let full = place(&ws, &old, 5, now(), String::new);
    assert_eq!(
        (full.subset, full.status),
        (None, None),
        "no room: admitted unplaced"
    );
    let blocked = spread(
        "CloneSet",
        json!([{ "name": "a", "maxReplicas": 2 }, { "name": "b" }]),
        json!({ "versionedSubsetStatuses": { "versionIgnored": [
            { "name": "a", "replicas": 0, "missingReplicas": 2,
              "conditions": [{ "type": "Schedulable", "status": "False", "reason": "PodUnschedulable",
                  "lastTransitionTime": "2026-12-04T11:00:00Z", "message": "" }] },
            { "name": "b", "replicas": 0, "missingReplicas": -1 }] } }),
    );
    let moved = place(
        &blocked,
        &pod(Some("web-1"), "CloneSet", json!({})),
        0,
        now(),
        String::new,
    );
    assert_eq!(
        moved.subset.as_deref(),
        Some("b"),
        "an unschedulable subset is skipped"
    );
}

#[test]
fn a_statefulset_is_placed_by_ordinal_and_one_unlimited_subset_takes_all() {
    let ws = spread(
        "StatefulSet",
        json!([{ "name": "a", "maxReplicas": 2 }, { "name": "b", "maxReplicas": 2 }, { "name": "c" }]),
        json!({}),
    );
    let subset = |name: &str| {
        place(
            &ws,
            &pod(Some(name), "StatefulSet", json!({})),
            0,
            now(),
            String::new,
        )
    };
    assert_eq!(subset("db-1").subset.as_deref(), Some("a"));
    assert_eq!(subset("db-2").subset.as_deref(), Some("b"));
    assert_eq!(subset("db-7").subset.as_deref(), Some("c"));
    assert_eq!(subset("db-1").status, None);
    let one = spread("CloneSet", json!([{ "name": "all" }]), json!({}));
    let placed = place(
        &one,
        &pod(Some("web-1"), "CloneSet", json!({})),
        0,
        now(),
        String::new,
    );
    assert_eq!((placed.subset.as_deref(), placed.status), (Some("all"), None));
}

#[test]
fn injection_ands_the_required_term_appends_tolerations_and_applies_the_patch() {
    let ws = spread("CloneSet", zones(), json!({}));
    let pod = json!({ "metadata": { "name": "web-1", "labels": { "app": "web" } },
        "spec": { "containers": [{ "name": "app", "image": "nginx" }],
            "affinity": { "nodeAffinity": { "requiredDuringSchedulingIgnoredDuringExecution": { "nodeSelectorTerms": [
                { "matchExpressions": [{ "key": "disk", "operator": "In", "values": ["ssd"] }] },
                { "matchExpressions": [{ "key": "disk", "operator": "In", "values": ["nvme"] }] }] } } } } });
    let a = inject(&ws, &pod, "zone-a", None).expect("injected");
    let terms = &a["spec"]["affinity"]["nodeAffinity"]["requiredDuringSchedulingIgnoredDuringExecution"]["nodeSelectorTerms"];
    for term in terms.as_array().expect("terms") {
        assert_eq!(
            term["matchExpressions"][1]["key"], "topology.kubernetes.io/zone",
            "{term}"
        );
    }
    assert_eq!(
        a["metadata"]["annotations"][MATCHED_WORKLOADSPREAD_ANNOTATION],
        r#"{"name":"spread","subset":"zone-a"}"#
    );
    let b = inject(&ws, &pod, "zone-b", Some("uid-1")).expect("injected");
    assert_eq!(
        b["spec"]["tolerations"],
        json!([{ "key": "spot", "operator": "Exists" }])
    );
    assert!(
        b["metadata"]["annotations"][MATCHED_WORKLOADSPREAD_ANNOTATION]
            .as_str()
            .expect("annotation")
            .contains(r#""uid":"uid-1""#)
    );
    let c = inject(&ws, &pod, "zone-c", None).expect("injected");
    assert_eq!(c["metadata"]["labels"], json!({ "app": "web", "zone": "c" }));
}

/// Properties of creates the webhook serialises: each placement's status is written before
/// the next create is placed, as a conflict makes the webhook read the status again.
mod serialised_creates {
    use std::collections::BTreeMap;

    use proptest::prelude::*;

    use super::*;

    /// Subset names and `maxReplicas` of [`zones`] (-1: unlimited).
    const LIMITS: [(&str, i32); 3] = [("zone-a", 2), ("zone-b", 2), ("zone-c", -1)];

    /// One create: a named pod, a pod without a name yet (recorded under a generated uid),
    /// or a retry of the n-th named create (placed before: it must keep its subset).
    #[derive(Debug, Clone)]
    enum Step {
        Named,
        Unnamed,
        Retry(usize),
    }

    fn arb_steps() -> impl Strategy<Value = Vec<Step>> {
        prop::collection::vec(
            prop_oneof![
                3 => Just(Step::Named),
                2 => Just(Step::Unnamed),
                1 => (0usize..40).prop_map(Step::Retry),
            ],
            1..40,
        )
    }

    /// Places `pod` and writes its status back, as the webhook does.
    fn create(ws: &mut WorkloadSpread, pod: &Pod, uid: String) -> Placement {
        let placed = place(ws, pod, 6, now(), move || uid);
        if let Some(status) = &placed.status {
            ws.status = Some(status.clone());
        }
        placed
    }

    /// The subset a new pod should take given the pods each already holds: the first with
    /// room, in spec order.
    fn first_with_room(held: &[i32; 3]) -> &'static str {
        let i = LIMITS
            .iter()
            .zip(held)
            .position(|((_, max), n)| *max < 0 || n < max)
            .expect("the last subset is unlimited");
        LIMITS[i].0
    }

    fn index(subset: &str) -> usize {
        LIMITS
            .iter()
            .position(|(name, _)| *name == subset)
            .expect("a subset of the spread")
    }

    /// The stored list of `version`: each limited subset's missing replicas and records
    /// agree with the pods placed into it.
    fn check_list(ws: &WorkloadSpread, version: &str, held: &[i32; 3]) -> Result<(), TestCaseError> {
        let Some(list) = ws
            .status
            .as_ref()
            .and_then(|s| s.versioned_subset_statuses.as_ref())
            .and_then(|v| v.get(version))
        else {
            // Nothing limited placed yet.
            prop_assert_eq!(held[0] + held[1], 0);
            return Ok(());
        };
        for ((name, max), (n, s)) in LIMITS.iter().zip(held.iter().zip(list)) {
            prop_assert_eq!(&s.name, name);
            let recorded = s.creating_pods.as_ref().map_or(0, |m| m.len()) as i32;
            if *max < 0 {
                prop_assert_eq!((s.missing_replicas, recorded), (-1, 0), "{} is unlimited", name);
            } else {
                prop_assert_eq!((s.missing_replicas, recorded), (max - n, *n), "{}", name);
            }
        }
        Ok(())
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        #[test]
        fn limited_subsets_never_take_more_than_their_max_and_the_last_takes_the_rest(steps in arb_steps()) {
            let mut ws = spread("CloneSet", zones(), json!({}));
            let mut held = [0i32; 3];
            let mut named: Vec<(Pod, String)> = Vec::new();
            for (k, step) in steps.iter().enumerate() {
                let retried = match step {
                    Step::Retry(n) => named.get(*n).cloned(),
                    _ => None,
                };
                if let Some((pod, subset)) = retried {
                    let again = create(&mut ws, &pod, format!("uid-{k}"));
                    prop_assert_eq!(again.subset.as_deref(), Some(subset.as_str()), "a retry keeps its subset");
                    prop_assert_eq!(again.status, None, "and counts once");
                    continue;
                }
                let name = format!("web-{k}");
                let unnamed = matches!(step, Step::Unnamed);
                let pod = pod((!unnamed).then_some(name.as_str()), "CloneSet", json!({}));
                let want = first_with_room(&held);
                let placed = create(&mut ws, &pod, format!("uid-{k}"));
                prop_assert_eq!(placed.subset.as_deref(), Some(want));
                let i = index(want);
                held[i] += 1;
                if unnamed && LIMITS[i].1 >= 0 {
                    prop_assert_eq!(placed.generated_uid, Some(format!("uid-{k}")));
                }
                if !unnamed {
                    named.push((pod, want.to_string()));
                }
                for ((subset, max), n) in LIMITS.iter().zip(&held) {
                    prop_assert!(*max < 0 || n <= max, "{} holds {} > {}", subset, n, max);
                }
                check_list(&ws, VERSION_IGNORED, &held)?;
            }
            let created = held.iter().sum::<i32>();
            prop_assert_eq!(held[0], created.min(2));
            prop_assert_eq!(held[1], (created - 2).clamp(0, 2));
            prop_assert_eq!(held[2], (created - 4).max(0), "the unlimited last subset takes the rest");
        }

        #[test]
        fn each_version_of_a_deployment_fills_the_subsets_on_its_own(
            creates in prop::collection::vec((any::<bool>(), any::<bool>()), 1..40),
        ) {
            let mut ws = spread("Deployment", zones(), json!({}));
            let mut held: BTreeMap<&str, [i32; 3]> = BTreeMap::new();
            for (k, (new, named)) in creates.iter().enumerate() {
                let version = if *new { "new" } else { "old" };
                let name = format!("web-{version}-{k}");
                let pod = pod(
                    named.then_some(name.as_str()),
                    "ReplicaSet",
                    json!({ "pod-template-hash": version }),
                );
                let counts = held.entry(version).or_default();
                let want = first_with_room(counts);
                let placed = create(&mut ws, &pod, format!("uid-{k}"));
                prop_assert_eq!(placed.subset.as_deref(), Some(want), "version {}", version);
                counts[index(want)] += 1;
                for ((subset, max), n) in LIMITS.iter().zip(counts.iter()) {
                    prop_assert!(*max < 0 || n <= max, "{} holds {} {} > {}", subset, n, version, max);
                }
                let counts = *counts;
                check_list(&ws, version, &counts)?;
            }
        }
    }
}
