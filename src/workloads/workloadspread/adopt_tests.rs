//! Table tests for adopting scheduled pods into subsets, and one property.
use proptest::prelude::*;
use serde_json::json;

use super::*;

const ZONE: &str = "topology.kubernetes.io/zone";

fn spread(subsets: Value, annotations: Value) -> WorkloadSpread {
    serde_json::from_value(
        json!({ "apiVersion": "apps.kruise.io/v1alpha1", "kind": "WorkloadSpread",
        "metadata": { "name": "spread", "namespace": "shop", "annotations": annotations },
        "spec": { "targetRef": { "apiVersion": "apps/v1", "kind": "Deployment", "name": "web" },
            "subsets": subsets } }),
    )
    .expect("workloadspread")
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

fn node(name: &str, zone: &str, taints: Value) -> Node {
    serde_json::from_value(json!({ "metadata": { "name": name, "labels": { ZONE: zone } },
        "spec": { "taints": taints } }))
    .expect("node")
}

/// Nodes `node-a`, `node-b`, `node-c`, untainted.
fn nodes() -> Vec<Node> {
    ["a", "b", "c"]
        .iter()
        .map(|z| node(&format!("node-{z}"), z, json!([])))
        .collect()
}

/// A pod with `spec` merged over one container and `nodeName`.
fn pod_with(name: &str, node: Option<&str>, metadata: Value, spec: Value) -> Pod {
    let mut base = json!({ "containers": [{ "name": "app", "image": "nginx" }], "nodeName": node });
    if let (Some(b), Some(s)) = (base.as_object_mut(), spec.as_object()) {
        b.extend(s.clone());
    }
    let mut meta = json!({ "name": name, "namespace": "shop" });
    if let (Some(m), Some(extra)) = (meta.as_object_mut(), metadata.as_object()) {
        m.extend(extra.clone());
    }
    serde_json::from_value(json!({ "metadata": meta, "spec": base })).expect("pod")
}

fn pod(name: &str, node: Option<&str>) -> Pod {
    pod_with(name, node, json!({}), json!({}))
}

fn run(ws: &WorkloadSpread, already: &[(&str, i32)], pods: &[Pod], nodes: &[Node]) -> Vec<(String, String)> {
    let already: BTreeMap<String, i32> = already.iter().map(|(k, v)| (k.to_string(), *v)).collect();
    let candidates: Vec<&Pod> = pods.iter().collect();
    let lookup = |name: &str| nodes.iter().find(|n| n.metadata.name.as_deref() == Some(name));
    adopt(ws, &already, &candidates, lookup, 10)
        .into_iter()
        .map(|a| (a.pod, a.subset))
        .collect()
}

fn pairs(list: &[(&str, &str)]) -> Vec<(String, String)> {
    list.iter().map(|(p, s)| (p.to_string(), s.to_string())).collect()
}

#[test]
fn pods_go_to_their_zone_even_over_its_quota() {
    let ws = spread(zones(), json!({}));
    let pods = [
        pod("p1", Some("node-a")),
        pod("p2", Some("node-a")),
        pod("p3", Some("node-a")),
        pod("p4", Some("node-b")),
        pod("p5", Some("node-c")),
    ];
    // Quota only adds a point: node-a qualifies for subset a alone, so p2 and p3 (over its
    // capacity of 2, one pod already there) go there too.
    assert_eq!(
        run(&ws, &[("a", 1)], &pods, &nodes()),
        pairs(&[("p1", "a"), ("p2", "a"), ("p3", "a"), ("p4", "b"), ("p5", "c")])
    );
}

/// OpenKruise's e2e "only one subset, zone-a=2": pods the webhook placed in no subset
/// because their subset was full (marked) are not adopted into it afterwards; pods no
/// webhook saw are, over capacity, as upstream.
#[test]
fn pods_the_webhook_turned_away_are_adopted_only_into_a_subset_with_room() {
    let ws = spread(zones(), json!({}));
    let turned_away = |name: &str, node: &str| {
        pod_with(
            name,
            Some(node),
            json!({ "annotations": { UNPLACED_ANNOTATION: "spread" } }),
            json!({}),
        )
    };
    let pods = [
        pod("unseen-1", Some("node-a")),
        turned_away("away-1", "node-a"),
        turned_away("away-2", "node-a"),
        turned_away("away-3", "node-c"),
    ];
    // Subset a holds 1 of 2: the unseen pod fills it, the turned-away ones stay outside.
    assert_eq!(
        run(&ws, &[("a", 1)], &pods, &nodes()),
        pairs(&[("unseen-1", "a"), ("away-3", "c")])
    );
    // Once there is room (a larger maxReplicas), they are adopted.
    assert_eq!(
        run(&ws, &[("a", 0)], &pods[1..], &nodes()),
        pairs(&[("away-1", "a"), ("away-2", "a"), ("away-3", "c")])
    );
}

#[test]
fn quota_breaks_a_tie_towards_the_subset_with_room() {
    let subsets = json!([
        { "name": "a", "maxReplicas": 2, "requiredNodeSelectorTerm": in_zone("a") },
        { "name": "any" },
    ]);
    let ws = spread(subsets, json!({}));
    let pods = [
        pod("p1", Some("node-a")),
        pod("p2", Some("node-a")),
        pod("p3", Some("node-b")),
    ];
    // One pod already in a: p1 takes its last place (tie 1:1, earlier subset), p2 finds
    // a full and goes to the unlimited one.
    assert_eq!(
        run(&ws, &[("a", 1)], &pods, &nodes()),
        pairs(&[("p1", "a"), ("p2", "any"), ("p3", "any")])
    );
}

#[test]
fn preferred_weight_wins_over_quota() {
    let subsets = json!([
        { "name": "any" },
        { "name": "full", "maxReplicas": 0,
          "preferredNodeSelectorTerms": [{ "weight": 1, "preference": in_zone("a") }] },
    ]);
    let ws = spread(subsets, json!({}));
    let pods = [pod("p1", Some("node-a")), pod("p2", Some("node-b"))];
    assert_eq!(
        run(&ws, &[], &pods, &nodes()),
        pairs(&[("p1", "full"), ("p2", "any")])
    );
}

#[test]
fn a_taint_only_the_subset_tolerates_qualifies() {
    let subsets = json!([
        { "name": "plain" },
        { "name": "spot", "tolerations": [{ "key": "spot", "operator": "Exists" }] },
    ]);
    let ws = spread(subsets, json!({}));
    let nodes = [
        node(
            "spot-1",
            "a",
            json!([{ "key": "spot", "value": "true", "effect": "NoSchedule" }]),
        ),
        // Upstream checks every taint, PreferNoSchedule included.
        node(
            "soft-1",
            "a",
            json!([{ "key": "soft", "effect": "PreferNoSchedule" }]),
        ),
    ];
    let tolerant = pod_with(
        "p3",
        Some("soft-1"),
        json!({}),
        json!({ "tolerations": [{ "key": "soft", "operator": "Exists", "effect": "PreferNoSchedule" }] }),
    );
    let pods = [pod("p1", Some("spot-1")), pod("p2", Some("soft-1")), tolerant];
    assert_eq!(
        run(&ws, &[], &pods, &nodes),
        pairs(&[("p1", "spot"), ("p3", "plain")])
    );
}

#[test]
fn unscheduled_unknown_node_and_unfit_pods_are_not_adopted() {
    let ws = spread(zones(), json!({}));
    let nodes = [node("node-z", "z", json!([]))];
    let pods = [
        pod("unscheduled", None),
        pod("empty", Some("")),
        pod("gone", Some("node-a")),
        pod("elsewhere", Some("node-z")),
    ];
    assert!(run(&ws, &[], &pods, &nodes).is_empty());
}

#[test]
fn only_pods_not_placed_here_are_adopted() {
    let ws = spread(zones(), json!({}));
    let annotated = |name: &str, value: &str| {
        pod_with(
            name,
            Some("node-c"),
            json!({ "annotations": { MATCHED_WORKLOADSPREAD_ANNOTATION: value } }),
            json!({}),
        )
    };
    let pods = [
        annotated("here", r#"{"name":"spread","subset":"a"}"#),
        annotated("other", r#"{"name":"other","subset":"a"}"#),
        annotated("no-subset", r#"{"name":"spread","subset":""}"#),
        annotated("garbled", "not json"),
    ];
    assert_eq!(
        run(&ws, &[], &pods, &nodes()),
        pairs(&[("other", "c"), ("no-subset", "c"), ("garbled", "c")])
    );
}

#[test]
fn pod_required_terms_are_anded_with_the_subset_term() {
    let ws = spread(zones(), json!({}));
    let ssd = |name: &str, node: &str| {
        pod_with(
            name,
            Some(node),
            json!({}),
            json!({ "affinity": { "nodeAffinity": { "requiredDuringSchedulingIgnoredDuringExecution": {
                "nodeSelectorTerms": [
                    { "matchExpressions": [{ "key": "disk", "operator": "In", "values": ["ssd"] }] },
                    { "matchFields": [{ "key": "metadata.name", "operator": "In", "values": ["node-b"] }] },
                ] } } } }),
        )
    };
    let mut fast = node("fast-a", "a", json!([]));
    fast.metadata
        .labels
        .get_or_insert_default()
        .insert("disk".into(), "ssd".into());
    let mut all = nodes();
    all.push(fast);
    // node-a has no ssd and is not node-b: no term holds; fast-a and node-b each hold one.
    let pods = [ssd("p1", "node-a"), ssd("p2", "fast-a"), ssd("p3", "node-b")];
    assert_eq!(run(&ws, &[], &pods, &all), pairs(&[("p2", "a"), ("p3", "b")]));
}

#[test]
fn node_selector_is_not_looked_at() {
    let ws = spread(zones(), json!({}));
    let p = pod_with(
        "p1",
        Some("node-a"),
        json!({}),
        json!({ "nodeSelector": { ZONE: "b" } }),
    );
    assert_eq!(run(&ws, &[], &[p], &nodes()), pairs(&[("p1", "a")]));
}

#[test]
fn percent_quota_is_rounded_up_against_the_total() {
    let subsets = json!([
        { "name": "a", "maxReplicas": "25%" },
        { "name": "b" },
    ]);
    let ws = spread(subsets, json!({}));
    let already = BTreeMap::from([("a".to_string(), 1)]);
    assert_eq!(quotas(&ws, &already, 10), vec![2, i64::from(i32::MAX)]);
}

/// Upstream's own `matchesSubset` table (`workloadspread_controller_utils_test.go`), with
/// no quota.
#[test]
fn scores_as_upstream_table() {
    let subset: WorkloadSpreadSubset = serde_json::from_value(json!({
        "name": "subset-a", "maxReplicas": 5,
        "tolerations": [{ "key": "toleration", "operator": "Equal", "value": "true" }],
        "requiredNodeSelectorTerm": { "matchExpressions": [
            { "key": "required", "operator": "In", "values": ["true"] }] },
        "preferredNodeSelectorTerms": [{ "weight": 100, "preference": { "matchExpressions": [
            { "key": "preferred", "operator": "In", "values": ["true"] }] } }],
        "patch": { "metadata": { "labels": { "patch-label": "true" },
            "annotations": { "patch-annotation": "true" } } },
    }))
    .expect("subset");
    let demo_pod = |label: &str, annotation: &str| {
        pod_with(
            "p",
            Some("n"),
            json!({ "labels": { "patch-label": label }, "annotations": { "patch-annotation": annotation } }),
            json!({ "affinity": { "nodeAffinity": { "requiredDuringSchedulingIgnoredDuringExecution": {
                "nodeSelectorTerms": [{ "matchExpressions": [
                    { "key": "test", "operator": "In", "values": ["true"] },
                    { "key": "unit", "operator": "In", "values": ["true"] }] }] } } } }),
        )
    };
    let demo_node = |required: &str, preferred: &str| -> Node {
        serde_json::from_value(json!({ "metadata": { "name": "n", "labels": {
                "test": "true", "unit": "true", "required": required, "preferred": preferred } },
            "spec": { "taints": [{ "key": "toleration", "value": "true", "effect": "NoSchedule" }] } }))
        .expect("node")
    };
    let untolerant = WorkloadSpreadSubset {
        tolerations: None,
        ..subset.clone()
    };
    let cases = [
        (
            "all match",
            demo_pod("true", "true"),
            demo_node("true", "true"),
            &subset,
            Some(10010),
        ),
        // The annotation differs too, but annotations are not compared.
        (
            "patch changes a label",
            demo_pod("false", "false"),
            demo_node("true", "true"),
            &subset,
            Some(10000),
        ),
        (
            "preferred does not match",
            demo_pod("true", "true"),
            demo_node("true", "false"),
            &subset,
            Some(10),
        ),
        (
            "required does not match",
            demo_pod("true", "true"),
            demo_node("false", "true"),
            &subset,
            None,
        ),
        (
            "taint not tolerated",
            demo_pod("true", "true"),
            demo_node("true", "true"),
            &untolerant,
            None,
        ),
    ];
    for (name, p, n, s, want) in cases {
        assert_eq!(score(&p, &n, s, false), want, "{name}");
    }
    let p = demo_pod("true", "true");
    assert_eq!(
        score(&p, &demo_node("true", "true"), &subset, true),
        Some(10011),
        "with quota"
    );
}

#[test]
fn a_patch_that_changes_the_spec_scores_nothing() {
    let subset = |patch: Value| -> WorkloadSpreadSubset {
        serde_json::from_value(json!({ "name": "s", "patch": patch })).expect("subset")
    };
    let p = pod("p", Some("node-a"));
    let n = &nodes()[0];
    let cases = [
        (json!({ "spec": { "priorityClassName": "high" } }), 0),
        (
            json!({ "spec": { "containers": [{ "name": "app", "image": "nginx" }] } }),
            10,
        ),
        (json!({}), 10),
        (Value::Null, 0),
        (json!("not an object"), 0),
    ];
    for (patch, want) in cases {
        assert_eq!(score(&p, n, &subset(patch.clone()), false), Some(want), "{patch}");
    }
}

fn patched_spread(annotations: Value) -> WorkloadSpread {
    spread(
        json!([{ "name": "a", "requiredNodeSelectorTerm": in_zone("a"),
            "patch": { "metadata": { "labels": { "tier": "gold" }, "annotations": { "note": "x" } },
                       "spec": { "priorityClassName": "high" } } }]),
        annotations,
    )
}

#[test]
fn the_patch_carries_the_subset_metadata_and_the_marker() {
    let ws = patched_spread(json!({}));
    let candidates = [&pod("p1", Some("node-a"))];
    let all = nodes();
    let got = adopt(
        &ws,
        &BTreeMap::new(),
        &candidates,
        |n| all.iter().find(|x| x.metadata.name.as_deref() == Some(n)),
        1,
    );
    let want = json!({ "metadata": {
        "labels": { "tier": "gold" },
        "annotations": { "note": "x", MATCHED_WORKLOADSPREAD_ANNOTATION: r#"{"name":"spread","subset":"a"}"# } } });
    assert_eq!(
        got,
        vec![Adoption {
            pod: "p1".into(),
            subset: "a".into(),
            patch: want
        }]
    );
}

#[test]
fn the_ignore_annotation_keeps_only_the_marker() {
    let want = json!({ "metadata": {
        "annotations": { MATCHED_WORKLOADSPREAD_ANNOTATION: r#"{"name":"spread","subset":"a"}"# } } });
    for value in ["true", "TRUE"] {
        let ws = patched_spread(json!({ IGNORE_PATCH_EXISTING_PODS_METADATA: value }));
        assert_eq!(metadata_patch(&ws, &ws.spec.subsets[0]), want, "{value}");
    }
    let ws = patched_spread(json!({ IGNORE_PATCH_EXISTING_PODS_METADATA: "false" }));
    assert_eq!(
        metadata_patch(&ws, &ws.spec.subsets[0])["metadata"]["labels"],
        json!({ "tier": "gold" })
    );
}

#[test]
fn the_marker_is_the_one_injection_writes() {
    let ws = spread(zones(), json!({}));
    let injected =
        super::super::place::inject(&ws, &json!({ "metadata": {}, "spec": {} }), "b", None).expect("inject");
    assert_eq!(
        injected["metadata"]["annotations"][MATCHED_WORKLOADSPREAD_ANNOTATION],
        json!(marker(&ws, "b"))
    );
    assert_eq!(marker(&ws, "b"), r#"{"name":"spread","subset":"b"}"#);
}

/// Subsets without preferred terms or patches: required zone (or none), maybe a spot
/// toleration, maybe a capacity.
fn arb_subsets() -> impl Strategy<Value = Value> {
    let one = (
        prop::option::of(prop::sample::select(vec!["a", "b", "c"])),
        any::<bool>(),
        prop::option::of(0i32..3),
    );
    prop::collection::vec(one, 1..4).prop_map(|list| {
        let subsets: Vec<Value> = list
            .into_iter()
            .enumerate()
            .map(|(i, (zone, spot, max))| {
                let mut s = json!({ "name": format!("s{i}") });
                if let Some(z) = zone {
                    s["requiredNodeSelectorTerm"] = in_zone(z);
                }
                if spot {
                    s["tolerations"] = json!([{ "key": "spot", "operator": "Exists" }]);
                }
                if let Some(m) = max {
                    s["maxReplicas"] = json!(m);
                }
                s
            })
            .collect();
        Value::Array(subsets)
    })
}

/// Six nodes: zones a/b/c, plain and spot-tainted (`node-<zone>`, `spot-<zone>`).
fn mixed_nodes() -> Vec<Node> {
    let mut out = nodes();
    for z in ["a", "b", "c"] {
        out.push(node(
            &format!("spot-{z}"),
            z,
            json!([{ "key": "spot", "effect": "NoSchedule" }]),
        ));
    }
    out
}

proptest! {
    #[test]
    fn adoption_takes_a_qualifying_subset_and_prefers_room(
        subsets in arb_subsets(),
        placements in prop::collection::vec(prop::option::of(0usize..7), 0..12),
        already_a in 0i32..3,
    ) {
        let ws = spread(subsets, json!({}));
        let all = mixed_nodes();
        // Index 6 names a node that does not exist.
        let names: Vec<String> = all.iter().filter_map(|n| n.metadata.name.clone()).chain(["ghost".to_string()]).collect();
        let pods: Vec<Pod> = placements
            .iter()
            .enumerate()
            .map(|(i, at)| pod(&format!("p{i}"), at.map(|n| names[n].as_str())))
            .collect();
        let already = BTreeMap::from([("s0".to_string(), already_a)]);
        let candidates: Vec<&Pod> = pods.iter().collect();
        let lookup = |name: &str| all.iter().find(|n| n.metadata.name.as_deref() == Some(name));
        let got = adopt(&ws, &already, &candidates, lookup, 5);
        prop_assert_eq!(&got, &adopt(&ws, &already, &candidates, lookup, 5));
        let mut quota = quotas(&ws, &already, 5);
        let mut adopted = got.iter();
        let mut next = adopted.next();
        for p in &pods {
            let found = p.spec.as_ref().and_then(|s| s.node_name.as_deref()).and_then(lookup);
            let fits: Vec<usize> = found
                .map(|n| (0..ws.spec.subsets.len()).filter(|i| qualifies(p, n, &ws.spec.subsets[*i])).collect())
                .unwrap_or_default();
            let Some(a) = next.filter(|a| a.pod == p.name_any()) else {
                // Not adopted: unscheduled, unknown node, or nothing fits.
                prop_assert!(fits.is_empty());
                continue;
            };
            let i = ws.spec.subsets.iter().position(|s| s.name == a.subset).expect("a subset");
            prop_assert!(fits.contains(&i));
            // Without preferences or patches only room decides: the first fitting subset
            // with room, else the first fitting one.
            let want = fits.iter().copied().find(|j| quota[*j] > 0).unwrap_or(fits[0]);
            prop_assert_eq!(i, want);
            quota[i] -= 1;
            next = adopted.next();
        }
        prop_assert!(next.is_none());
    }
}
