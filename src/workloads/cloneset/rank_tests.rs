use super::*;

const ZONE: &str = "failure-domain.beta.kubernetes.io/zone";

/// Node labels by node name.
type Nodes = BTreeMap<String, BTreeMap<String, String>>;

fn facts(name: &str) -> PodFacts {
    PodFacts::sample(name)
}

fn with(name: &str, edit: impl FnOnce(&mut PodFacts)) -> PodFacts {
    let mut pod = facts(name);
    edit(&mut pod);
    pod
}

fn constraint(key: &str) -> TopologySpreadConstraint {
    TopologySpreadConstraint {
        topology_key: key.into(),
        ..Default::default()
    }
}

fn node_labels(nodes: &[(&str, &[(&str, &str)])]) -> Nodes {
    nodes
        .iter()
        .map(|(name, labels)| {
            let labels = labels
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect();
            (name.to_string(), labels)
        })
        .collect()
}

/// Ranks `pods`, given as `(facts, node)` with `""` for an unbound pod.
fn rank_all(pods: &[(PodFacts, &str)], constraints: &[TopologySpreadConstraint], nodes: &Nodes) -> Vec<f64> {
    let inputs: Vec<RankInput> = pods
        .iter()
        .map(|(facts, node)| RankInput {
            facts,
            node_name: Some(node),
        })
        .collect();
    ranks(&inputs, constraints, |name: &str| nodes.get(name))
}

fn named(pods: &[(PodFacts, &str)], ranks: &[f64]) -> BTreeMap<String, f64> {
    pods.iter()
        .zip(ranks)
        .map(|((facts, _), &rank)| (facts.name.clone(), rank))
        .collect()
}

/// Upstream's spread table: the pods with a rank, highest first, ties in input order.
fn ranked_names(pods: &[(PodFacts, &str)], ranks: &[f64]) -> Vec<String> {
    let mut ranked: Vec<(String, f64)> = pods
        .iter()
        .zip(ranks)
        .filter(|&(_, &rank)| rank > 0.0)
        .map(|((facts, _), &rank)| (facts.name.clone(), rank))
        .collect();
    ranked.sort_by(|a, b| b.1.total_cmp(&a.1));
    ranked.into_iter().map(|(name, _)| name).collect()
}

#[test]
fn pods_sharing_a_node_count_down_to_zero_as_upstreams_table_expects() {
    let layout = [
        ("0", "a"),
        ("1", ""),
        ("2", ""),
        ("3", "b"),
        ("4", "a"),
        ("5", "c"),
        ("6", "b"),
        ("7", "d"),
        ("8", "d"),
        ("9", "d"),
        ("10", "a"),
    ];
    let pods: Vec<(PodFacts, &str)> = layout.iter().map(|&(name, node)| (facts(name), node)).collect();
    let got = named(&pods, &rank_all(&pods, &[], &BTreeMap::new()));
    let expected: BTreeMap<String, f64> = layout
        .iter()
        .map(|&(name, _)| {
            let rank = match name {
                "0" | "7" => 2.0,
                "4" | "3" | "8" => 1.0,
                _ => 0.0,
            };
            (name.to_string(), rank)
        })
        .collect();
    assert_eq!(got, expected);
}

fn upstream_spread_fixture() -> (Vec<(PodFacts, &'static str)>, Nodes) {
    let nodes = node_labels(&[
        ("a", &[]),
        ("b", &[(HOSTNAME_TOPOLOGY_KEY, "b"), (ZONE, "z1")]),
        ("c", &[(HOSTNAME_TOPOLOGY_KEY, "c"), (ZONE, "z1")]),
        ("d", &[(HOSTNAME_TOPOLOGY_KEY, "d"), (ZONE, "z1")]),
        ("e", &[(HOSTNAME_TOPOLOGY_KEY, "e"), (ZONE, "z2")]),
        ("f", &[(HOSTNAME_TOPOLOGY_KEY, "f"), (ZONE, "z2")]),
        ("g", &[(HOSTNAME_TOPOLOGY_KEY, "g"), (ZONE, "z2")]),
        ("h", &[(HOSTNAME_TOPOLOGY_KEY, "h"), (ZONE, "z3")]),
        ("i", &[(HOSTNAME_TOPOLOGY_KEY, "i"), (ZONE, "z3")]),
    ]);
    let per_node = [
        ("a", 2),
        ("b", 2),
        ("c", 3),
        ("d", 5),
        ("e", 5),
        ("f", 3),
        ("i", 5),
    ];
    let pods = per_node
        .iter()
        .flat_map(|&(node, count)| (0..count).map(move |i| (facts(&format!("{node}-{i}")), node)))
        .collect();
    (pods, nodes)
}

#[test]
fn a_zone_constraint_ranks_pods_as_upstreams_table_expects() {
    let (pods, nodes) = upstream_spread_fixture();
    let ranks = rank_all(&pods, &[constraint(ZONE)], &nodes);
    #[rustfmt::skip]
    let expected = [
        "d-0",
        "d-1",
        "c-0", "e-0",
        "d-2", "e-1",
        "b-0", "e-2",
        "c-1", "f-0", "i-0",
        "d-3", "e-3", "i-1",
        "b-1", "f-1", "i-2",
        "c-2", "e-4", "i-3",
        "d-4", "f-2", "i-4",
    ];
    assert_eq!(ranked_names(&pods, &ranks), expected);
}

#[test]
fn zone_and_hostname_constraints_add_up_as_upstreams_table_expects() {
    let (pods, nodes) = upstream_spread_fixture();
    let ranks = rank_all(
        &pods,
        &[constraint(ZONE), constraint(HOSTNAME_TOPOLOGY_KEY)],
        &nodes,
    );
    #[rustfmt::skip]
    let expected = [
        "d-0", "e-0",
        "d-1", "e-1",
        "c-0", "i-0",
        "d-2", "e-2",
        "i-1", "f-0",
        "b-0", "c-1",
        "i-2", "d-3",
        "e-3", "f-1",
        "i-3", "b-1",
        "c-2", "e-4",
        "d-4", "f-2", "i-4",
    ];
    assert_eq!(ranked_names(&pods, &ranks), expected);
}

#[test]
fn the_module_docs_worked_example_holds() {
    let pods = vec![
        (with("a", |p| p.phase_rank = 0), "n1"),
        (facts("b"), "n1"),
        (facts("c"), "n2"),
    ];
    let nodes = node_labels(&[("n1", &[("zone", "x")]), ("n2", &[("zone", "y")])]);
    let ln4 = 4f64.ln();
    assert_eq!(
        rank_all(&pods, &[constraint("zone")], &nodes),
        vec![2.0 * ln4, ln4, ln4]
    );
    assert_eq!(rank_all(&pods, &[], &nodes), vec![1.0, 0.0, 0.0]);
}

#[test]
fn within_a_node_the_deletion_criteria_hand_out_the_ranks_and_the_keeper_gets_zero() {
    let pods = vec![
        (facts("healthy"), "n"),
        (with("costly", |p| p.deletion_cost = 100), "n"),
        (with("cheap", |p| p.deletion_cost = -5), "n"),
        (with("not-ready", |p| p.ready = false), "n"),
        (with("pending", |p| p.phase_rank = 0), "n"),
        (facts("unbound"), ""),
        (facts("alone"), "m"),
    ];
    let got = named(&pods, &rank_all(&pods, &[], &BTreeMap::new()));
    let expected: BTreeMap<String, f64> = [
        ("pending", 4.0),
        ("not-ready", 3.0),
        ("cheap", 2.0),
        ("healthy", 1.0),
        ("costly", 0.0),
        ("unbound", 0.0),
        ("alone", 0.0),
    ]
    .into_iter()
    .map(|(name, rank)| (name.to_string(), rank))
    .collect();
    assert_eq!(got, expected);
}

#[test]
fn availability_does_not_order_pods_within_a_group() {
    let pods = vec![
        (facts("available"), "n"),
        (with("unavailable", |p| p.available = false), "n"),
    ];
    assert_eq!(rank_all(&pods, &[], &BTreeMap::new()), vec![1.0, 0.0]);
}

#[test]
fn a_missing_ready_or_creation_time_counts_as_the_most_recent() {
    let no_ready_time = vec![
        (facts("timed"), "n"),
        (with("untimed", |p| p.ready_since = None), "n"),
    ];
    assert_eq!(rank_all(&no_ready_time, &[], &BTreeMap::new()), vec![0.0, 1.0]);
    let no_creation_time = vec![
        (facts("timed"), "n"),
        (with("untimed", |p| p.created = None), "n"),
    ];
    assert_eq!(rank_all(&no_creation_time, &[], &BTreeMap::new()), vec![0.0, 1.0]);
}

#[test]
fn ready_times_are_compared_only_between_ready_pods() {
    let not_ready_since = |name: &str, time: &str| {
        with(name, |p| {
            p.ready = false;
            p.ready_since = Some(time.parse().expect("time"));
        })
    };
    let pods = vec![
        (not_ready_since("earlier", "2026-12-01T00:00:00Z"), "n"),
        (not_ready_since("later", "2026-12-05T00:00:00Z"), "n"),
    ];
    assert_eq!(rank_all(&pods, &[], &BTreeMap::new()), vec![1.0, 0.0]);
}

#[test]
fn grouping_by_hostname_ignores_the_same_node_rank_other_keys_use_it() {
    // Two nodes that share both a zone and (unusually) a hostname label value.
    let nodes = node_labels(&[
        ("n1", &[("zone", "z"), (HOSTNAME_TOPOLOGY_KEY, "h")]),
        ("n2", &[("zone", "z"), (HOSTNAME_TOPOLOGY_KEY, "h")]),
    ]);
    let pods = vec![(facts("r"), "n2"), (facts("p"), "n1"), (facts("q"), "n1")];
    let ln3 = 3f64.ln();
    // p outranks r and q on the same-node rank (1 against 0), so it leads the zone group.
    assert_eq!(
        rank_all(&pods, &[constraint("zone")], &nodes),
        vec![2.0 * ln3, 3.0 * ln3, ln3]
    );
    assert_eq!(
        rank_all(&pods, &[constraint(HOSTNAME_TOPOLOGY_KEY)], &nodes),
        vec![3.0 * ln3, 2.0 * ln3, ln3]
    );
}

#[test]
fn pods_on_unknown_or_unlabelled_nodes_and_unbound_pods_get_nothing_from_a_constraint() {
    let nodes = node_labels(&[("n1", &[("zone", "x")]), ("n3", &[])]);
    let pods = vec![
        (facts("labelled"), "n1"),
        (facts("unknown-node"), "ghost"),
        (facts("unlabelled-node"), "n3"),
        (facts("unbound"), ""),
    ];
    assert_eq!(
        rank_all(&pods, &[constraint("zone")], &nodes),
        vec![3f64.ln(), 0.0, 0.0, 0.0]
    );
}

#[test]
fn node_labels_are_not_looked_up_without_constraints() {
    let pods = [facts("a"), facts("b")];
    let inputs: Vec<RankInput> = pods
        .iter()
        .map(|facts| RankInput {
            facts,
            node_name: Some("n"),
        })
        .collect();
    let got = ranks(&inputs, &[], |_: &str| -> Option<&BTreeMap<String, String>> {
        panic!("node labels asked for without constraints")
    });
    assert_eq!(got, vec![1.0, 0.0]);
}
