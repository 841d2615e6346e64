//! Ordinal tests: tables for each function (the module docs' example included) and
//! properties over random reserved lists and pod names.
use proptest::prelude::*;
use serde_json::json;

use super::*;
use crate::workloads::statefulset::identity::pod_name;

fn int(i: i32) -> IntOrString {
    IntOrString::Int(i)
}

fn range(s: &str) -> IntOrString {
    IntOrString::String(s.into())
}

fn pod(name: &str) -> Pod {
    let mut pod = Pod::default();
    pod.metadata.name = Some(name.into());
    pod
}

fn names(pods: &[&Pod]) -> Vec<String> {
    pods.iter().map(|p| p.name_any()).collect()
}

fn set(spec: serde_json::Value) -> StatefulSet {
    let mut doc = json!({
        "apiVersion": "apps.kruise.io/v1beta1",
        "kind": "StatefulSet",
        "metadata": { "name": "web", "namespace": "ns" },
        "spec": {
            "selector": { "matchLabels": { "app": "web" } },
            "template": { "metadata": { "labels": { "app": "web" } } },
        },
    });
    if let (Some(target), Some(extra)) = (doc["spec"].as_object_mut(), spec.as_object()) {
        target.extend(extra.clone());
    }
    serde_json::from_value(doc).expect("statefulset")
}

#[test]
fn reserved_ordinals_take_ints_and_inclusive_ranges() {
    let reserved = ReservedOrdinals::parse(&[int(0), range("2-5"), range("9-9")]).expect("valid list");
    let held: Vec<i32> = (0..12).filter(|i| reserved.contains(*i)).collect();
    assert_eq!(held, [0, 2, 3, 4, 5, 9]);
    assert!(ReservedOrdinals::parse(&[]).expect("empty list").is_empty());
}

#[test]
fn overlapping_and_adjacent_ranges_merge() {
    let reserved =
        ReservedOrdinals::parse(&[range("4-6"), int(3), range("0-1"), range("5-8")]).expect("valid");
    assert_eq!(reserved.ranges, [0..=1, 3..=8]);
    let top = ReservedOrdinals::parse(&[range("2147483646-2147483647"), int(i32::MAX)]).expect("valid");
    assert_eq!(top.ranges, [2147483646..=i32::MAX]);
}

#[test]
fn one_bad_entry_ignores_the_whole_list() {
    let cases = [
        (vec![int(1), int(-1)], BadReserve::Negative(-1)),
        (vec![int(1), range("3")], BadReserve::Malformed("3".into())),
        (vec![range("5-2")], BadReserve::Malformed("5-2".into())),
        (vec![range("a-b")], BadReserve::Malformed("a-b".into())),
        (vec![range("1-2-3")], BadReserve::Malformed("1-2-3".into())),
        (vec![range("-3")], BadReserve::Malformed("-3".into())),
        (vec![range("+1-3")], BadReserve::Malformed("+1-3".into())),
        (vec![range(" 1-3")], BadReserve::Malformed(" 1-3".into())),
        (
            vec![range("1-99999999999")],
            BadReserve::Malformed("1-99999999999".into()),
        ),
        (vec![range("")], BadReserve::Malformed("".into())),
    ];
    for (entries, error) in cases {
        assert_eq!(
            ReservedOrdinals::parse(&entries),
            Err(error.clone()),
            "{entries:?}"
        );
        assert!(ReservedOrdinals::lenient(&entries).is_empty(), "{entries:?}");
        assert!(!ReservedOrdinals::lenient(&entries).contains(1));
    }
    assert_eq!(BadReserve::Negative(-1).reason(), "NegativeReserveOrdinal");
    assert_eq!(
        BadReserve::Malformed("x".into()).reason(),
        "MalformedReserveOrdinals"
    );
}

#[test]
fn leading_zeros_in_a_range_are_read_as_decimal() {
    let reserved = ReservedOrdinals::parse(&[range("01-03")]).expect("valid");
    assert_eq!(reserved.ranges, [1..=3]);
}

#[test]
fn the_reserved_list_and_start_come_from_the_set() {
    let plain = set(json!({}));
    assert!(ReservedOrdinals::of(&plain).expect("absent list").is_empty());
    assert_eq!(start_ordinal(&plain), 0);
    let custom = set(json!({ "reserveOrdinals": [1, "3-4"], "ordinals": { "start": 5 } }));
    let reserved = ReservedOrdinals::of(&custom).expect("valid");
    assert!(reserved.contains(1) && reserved.contains(4) && !reserved.contains(2));
    assert_eq!(start_ordinal(&custom), 5);
    assert_eq!(start_ordinal(&set(json!({ "ordinals": { "start": -2 } }))), 0);
}

#[test]
fn valid_ordinals_skip_reserved_ones_until_replicas_are_collected() {
    let cases: [(i32, i32, Vec<IntOrString>, Vec<i32>); 9] = [
        (0, 3, vec![], vec![0, 1, 2]),
        (0, 3, vec![int(1)], vec![0, 2, 3]),
        (0, 3, vec![int(0), range("2-5")], vec![1, 6, 7]),
        (0, 0, vec![int(0)], vec![]),
        (0, -1, vec![], vec![]),
        (5, 2, vec![], vec![5, 6]),
        (5, 2, vec![int(5), int(7)], vec![6, 8]),
        (-3, 2, vec![], vec![0, 1]),
        (3, 2, vec![int(0), int(1)], vec![3, 4]),
    ];
    for (start, replicas, entries, want) in cases {
        let reserved = ReservedOrdinals::lenient(&entries);
        assert_eq!(
            valid_ordinals(start, replicas, &reserved),
            want,
            "start {start}, replicas {replicas}"
        );
    }
}

#[test]
fn wide_reserved_ranges_and_the_top_of_the_range_cost_nothing() {
    let wide = ReservedOrdinals::lenient(&[range("0-2000000000")]);
    assert_eq!(valid_ordinals(0, 2, &wide), [2000000001, 2000000002]);
    let none = ReservedOrdinals::default();
    assert_eq!(valid_ordinals(i32::MAX - 1, 5, &none), [i32::MAX - 1, i32::MAX]);
    let top = ReservedOrdinals::lenient(&[range("2147483640-2147483647")]);
    assert_eq!(valid_ordinals(2147483639, 3, &top), [2147483639]);
}

#[test]
fn only_canonical_names_parse() {
    let cases = [
        ("web-0", Some(0)),
        ("web-7", Some(7)),
        ("web-2147483647", Some(i32::MAX)),
        ("web-2147483648", None),
        ("web-01", None),
        ("web-00", None),
        ("web--1", None),
        ("web-+1", None),
        ("web-", None),
        ("web", None),
        ("web-1a", None),
        ("web-a-1", None),
        ("webx-1", None),
        ("db-1", None),
        ("web-1 ", None),
    ];
    for (name, want) in cases {
        assert_eq!(parse_ordinal("web", name), want, "{name}");
    }
}

#[test]
fn a_set_name_with_dashes_parses_its_own_pods_only() {
    assert_eq!(parse_ordinal("my-web", "my-web-3"), Some(3));
    assert_eq!(parse_ordinal("my", "my-web-3"), None);
    assert_eq!(parse_ordinal("my-web", "my-3"), None);
}

#[test]
fn split_sorts_pods_into_replicas_condemned_and_unparsable() {
    // replicas 3, reserve [1] → valid 0, 2, 3; web-1 was reserved away, web-5 scaled away.
    let pods = [
        pod("web-1"),
        pod("web-3"),
        pod("web-01"),
        pod("web-5"),
        pod("web-0"),
        pod("db-0"),
        pod("web-4"),
    ];
    let valid = valid_ordinals(0, 3, &ReservedOrdinals::lenient(&[int(1)]));
    let split = split(&pods, "web", &valid);
    let replicas: Vec<(i32, String)> = split.replicas.iter().map(|(o, p)| (*o, p.name_any())).collect();
    assert_eq!(replicas, [(0, "web-0".to_string()), (3, "web-3".to_string())]);
    assert_eq!(names(&split.condemned), ["web-5", "web-4", "web-1"]);
    assert_eq!(names(&split.unparsable), ["web-01", "db-0"]);
}

#[test]
fn split_of_no_pods_is_empty_and_the_order_of_valid_does_not_matter() {
    assert_eq!(split(&[], "web", &[0, 1]), Split::default());
    let pods = [pod("web-2"), pod("web-0")];
    let split = split(&pods, "web", &[2, 0]);
    assert_eq!(split.replicas.keys().copied().collect::<Vec<_>>(), [0, 2]);
}

#[test]
fn a_second_pod_of_the_same_name_is_set_aside() {
    let pods = [pod("web-0"), pod("web-0"), pod("web-9"), pod("web-9")];
    let split = split(&pods, "web", &[0]);
    assert_eq!(split.replicas.len(), 1);
    assert_eq!(names(&split.condemned), ["web-9"]);
    assert_eq!(names(&split.unparsable), ["web-0", "web-9"]);
}

#[test]
fn the_update_mode_comes_from_strategy_and_pod_management() {
    let unordered = json!({ "rollingUpdate": { "unorderedUpdate": {} } });
    let cases = [
        (json!({}), UpdateMode::Ordered),
        (
            json!({ "updateStrategy": { "type": "OnDelete" } }),
            UpdateMode::OnDelete,
        ),
        (
            json!({ "updateStrategy": { "type": "OnDelete" }, "podManagementPolicy": "Parallel" }),
            UpdateMode::OnDelete,
        ),
        (
            json!({ "updateStrategy": unordered.clone(), "podManagementPolicy": "Parallel" }),
            UpdateMode::Unordered,
        ),
        (json!({ "updateStrategy": unordered }), UpdateMode::Ordered),
        (json!({ "podManagementPolicy": "Parallel" }), UpdateMode::Ordered),
    ];
    for (spec, want) in cases {
        assert_eq!(UpdateMode::of(&set(spec.clone())), want, "{spec}");
    }
}

#[test]
fn a_missing_replica_gets_the_revision_its_partition_implies() {
    use RevisionChoice::{Current, Update};
    use UpdateMode::{OnDelete, Ordered, Unordered};
    // (mode, position, partition, others not updated, want)
    let cases = [
        (OnDelete, 0, 5, 5, Update),
        (Ordered, 0, 0, 0, Update),
        (Ordered, 0, 2, 9, Current),
        (Ordered, 1, 2, 0, Current),
        (Ordered, 2, 2, 0, Update),
        (Ordered, 0, -1, 0, Update),
        (Unordered, 0, 2, 1, Current),
        (Unordered, 9, 2, 1, Current),
        (Unordered, 0, 2, 2, Update),
        (Unordered, 0, 0, 0, Update),
        (Unordered, 0, -3, 0, Update),
    ];
    for (mode, position, partition, others, want) in cases {
        assert_eq!(
            revision_for_missing(mode, position, partition, others),
            want,
            "{mode:?} position {position} partition {partition} others {others}"
        );
    }
}

fn entry() -> impl Strategy<Value = IntOrString> {
    prop_oneof![
        (0i32..40).prop_map(IntOrString::Int),
        (0i32..40, 0i32..6).prop_map(|(a, w)| IntOrString::String(format!("{a}-{}", a + w))),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// Exactly `replicas` distinct, ascending ordinals >= start, none reserved; and no
    /// smaller set would do: every skipped ordinal in between is reserved.
    #[test]
    fn valid_ordinals_are_the_first_free_ones(
        start in 0i32..20,
        replicas in 0i32..30,
        entries in proptest::collection::vec(entry(), 0..6),
    ) {
        let reserved = ReservedOrdinals::parse(&entries).expect("generated entries are valid");
        let valid = valid_ordinals(start, replicas, &reserved);
        prop_assert_eq!(valid.len(), replicas as usize);
        prop_assert!(valid.windows(2).all(|w| w[0] < w[1]), "not strictly ascending: {:?}", valid);
        prop_assert!(valid.iter().all(|o| *o >= start && !reserved.contains(*o)));
        if let Some(last) = valid.last() {
            prop_assert!((start..*last).all(|o| valid.contains(&o) || reserved.contains(o)));
        }
    }

    /// Each parseable pod lands in exactly one of replicas / condemned; others in unparsable.
    #[test]
    fn split_places_every_pod_once(
        ordinals in proptest::collection::btree_set(0i32..40, 0..20),
        strays in proptest::collection::vec("[a-z0-9-]{0,8}", 0..5),
        replicas in 0i32..20,
        entries in proptest::collection::vec(entry(), 0..4),
    ) {
        let mut pods: Vec<Pod> = ordinals.iter().map(|o| pod(&pod_name("web", *o))).collect();
        pods.extend(strays.iter().map(|s| pod(&format!("x{s}"))));
        let valid = valid_ordinals(0, replicas, &ReservedOrdinals::lenient(&entries));
        let split = split(&pods, "web", &valid);
        for o in &ordinals {
            let name = pod_name("web", *o);
            let in_replicas = split.replicas.get(o).is_some_and(|p| p.name_any() == name);
            let in_condemned = split.condemned.iter().filter(|p| p.name_any() == name).count();
            prop_assert_eq!(usize::from(in_replicas) + in_condemned, 1, "{}", name);
            prop_assert_eq!(in_replicas, valid.contains(o));
        }
        prop_assert_eq!(split.replicas.len() + split.condemned.len(), ordinals.len());
        prop_assert_eq!(split.unparsable.len(), strays.len());
        let condemned: Vec<Option<i32>> =
            split.condemned.iter().map(|p| parse_ordinal("web", &p.name_any())).collect();
        prop_assert!(condemned.windows(2).all(|w| w[0] > w[1]), "not highest first: {:?}", condemned);
    }

    /// `parse_ordinal` inverts `pod_name`, and only canonical names parse.
    #[test]
    fn parse_ordinal_inverts_pod_name(set in "[a-z]([a-z0-9-]{0,10}[a-z0-9])?", ordinal in 0i32..=i32::MAX) {
        prop_assert_eq!(parse_ordinal(&set, &pod_name(&set, ordinal)), Some(ordinal));
    }

    #[test]
    fn whatever_parses_is_the_canonical_name(set in "[a-z]{1,4}", suffix in "[-+0-9a]{0,6}") {
        let name = format!("{set}-{suffix}");
        if let Some(ordinal) = parse_ordinal(&set, &name) {
            prop_assert_eq!(pod_name(&set, ordinal), name);
        }
    }
}
