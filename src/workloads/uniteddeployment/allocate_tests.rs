use proptest::prelude::*;

use super::*;
use crate::api::uniteddeployment::{
    AdaptiveUnitedDeploymentStrategy, Topology, UnitedDeploymentScheduleStrategy, UnitedDeploymentSpec,
};

// ---- builders ----

fn int(n: i32) -> IntOrString {
    IntOrString::Int(n)
}

fn text(s: &str) -> IntOrString {
    IntOrString::String(s.to_string())
}

/// Subset `name` with optional `replicas`, `minReplicas`, `maxReplicas`.
fn subset(
    name: &str,
    replicas: Option<IntOrString>,
    min: Option<IntOrString>,
    max: Option<IntOrString>,
) -> Subset {
    Subset {
        name: name.to_string(),
        replicas,
        min_replicas: min,
        max_replicas: max,
        ..Subset::default()
    }
}

/// How the UnitedDeployment schedules.
#[derive(Debug, Clone, Copy)]
enum Mode {
    Fixed,
    Adaptive,
    Reserve,
}

fn ud(replicas: Option<i32>, subsets: Vec<Subset>, mode: Mode) -> UnitedDeployment {
    let schedule_strategy = match mode {
        Mode::Fixed => None,
        Mode::Adaptive | Mode::Reserve => Some(UnitedDeploymentScheduleStrategy {
            type_: Some(UnitedDeploymentScheduleStrategyType::Adaptive),
            adaptive: Some(AdaptiveUnitedDeploymentStrategy {
                reserve_unschedulable_pods: Some(matches!(mode, Mode::Reserve)),
                ..AdaptiveUnitedDeploymentStrategy::default()
            }),
        }),
    };
    let spec = UnitedDeploymentSpec {
        replicas,
        topology: Some(Topology {
            subsets: Some(subsets),
            schedule_strategy,
        }),
        ..UnitedDeploymentSpec::default()
    };
    UnitedDeployment::new("ud", spec)
}

/// An existing, schedulable workload of `replicas` pods, all ready.
fn existing(name: &str, replicas: i32) -> SubsetNow {
    SubsetNow {
        name: name.to_string(),
        replicas: Some(replicas),
        ready: Some(replicas),
        ..SubsetNow::default()
    }
}

/// The allocation in topology order.
fn run(ud: &UnitedDeployment, now: &[SubsetNow]) -> Result<Vec<i32>, String> {
    let result = allocate(ud, now)?;
    Ok(ud
        .spec
        .subsets()
        .iter()
        .map(|s| result.get(&s.name).copied().unwrap_or(-1))
        .collect())
}

/// `-1` in a list of values means absent.
fn bound(n: i32) -> Option<IntOrString> {
    (n >= 0).then(|| int(n))
}

fn numbered(prefix: &str, count: usize) -> Vec<String> {
    (0..count).map(|i| format!("{prefix}{i}")).collect()
}

// ---- specific ----

/// One specific-allocator row: name, spec.replicas, current sizes of `t1..`, their fixed
/// `replicas` (-1: absent), the expected result (`None`: refused).
type SpecificRow = (
    &'static str,
    Option<i32>,
    &'static [i32],
    &'static [i32],
    Option<&'static [i32]>,
);

fn check_specific(rows: &[SpecificRow]) {
    for &(name, total, current, fixed, expected) in rows {
        let names: Vec<String> = (1..=current.len()).map(|i| format!("t{i}")).collect();
        let subsets = names
            .iter()
            .zip(fixed)
            .map(|(n, f)| subset(n, bound(*f), None, None))
            .collect();
        let now: Vec<SubsetNow> = names.iter().zip(current).map(|(n, c)| existing(n, *c)).collect();
        let got = run(&ud(total, subsets, Mode::Fixed), &now);
        match expected {
            Some(expected) => assert_eq!(got.as_deref(), Ok(expected), "{name}"),
            None => assert!(got.is_err(), "{name}: {got:?}"),
        }
    }
}

const FREE4: &[i32] = &[-1, -1, -1, -1];

#[test]
fn the_rest_is_shared_evenly_with_the_larger_shares_to_the_largest_subsets() {
    #[rustfmt::skip]
    let rows: &[SpecificRow] = &[
        // The worked example: sorted t1, t3, t4, t2; t2 gets the extra one.
        ("5 over 1,4,2,2",  Some(5),  &[1, 4, 2, 2], FREE4,    Some(&[1, 2, 1, 1])),
        ("0 over 2",        Some(0),  &[2],          &[-1],    Some(&[0])),
        ("17 over 1,4,2,2", Some(17), &[1, 4, 2, 2], FREE4,    Some(&[4, 5, 4, 4])),
        ("9 over 2,4,2,2",  Some(9),  &[2, 4, 2, 2], FREE4,    Some(&[2, 3, 2, 2])),
        ("19 over 0,10",    Some(19), &[0, 10],      &[-1, -1], Some(&[9, 10])),
        ("21 over 0,10",    Some(21), &[0, 10],      &[-1, -1], Some(&[10, 11])),
        // Ties in size go by name: t3 sorts last, so it takes the extra one.
        ("4 over 0,0,0",    Some(4),  &[0, 0, 0],    &[-1, -1, -1], Some(&[1, 1, 2])),
    ];
    check_specific(rows);
}

#[test]
fn fixed_subsets_keep_their_value_and_the_others_share_the_rest() {
    #[rustfmt::skip]
    let rows: &[SpecificRow] = &[
        ("27, t1 = t3 = 4",         Some(27), &[1, 4, 2, 2], &[4, -1, 4, -1], Some(&[4, 10, 4, 9])),
        ("8, t1 = t3 = 4",          Some(8),  &[2, 4, 2, 2], &[4, -1, 4, -1], Some(&[4, 0, 4, 0])),
        ("16, all fixed",           Some(16), &[2, 4, 2, 2], &[4, 4, 4, 4],   Some(&[4, 4, 4, 4])),
        ("10, t1..t3 fixed",        Some(10), &[4, 2, 2, 2], &[1, 2, 3, -1],  Some(&[1, 2, 3, 4])),
        ("10, all fixed",           Some(10), &[4, 2, 2, 2], &[1, 2, 3, 4],   Some(&[1, 2, 3, 4])),
        ("no total, all fixed",     None,     &[4, 2, 2, 2], &[1, 2, 3, 4],   Some(&[1, 2, 3, 4])),
    ];
    check_specific(rows);
}

#[test]
fn fixed_subsets_that_cannot_add_up_are_refused() {
    #[rustfmt::skip]
    let rows: &[SpecificRow] = &[
        ("all fixed, 12 < 14",      Some(14), &[10, 4],    &[6, 6],      None),
        ("21 > 14",                 Some(14), &[10, 4],    &[10, 11],    None),
        ("one free but 21 > 14",    Some(14), &[10, 4, 0], &[10, 11, -1], None),
        ("no total, one free",      None,     &[1, 1],     &[1, -1],     None),
    ];
    check_specific(rows);
}

#[test]
fn refusals_name_the_field() {
    let both = |total, a, b| {
        ud(
            total,
            vec![subset("a", a, None, None), subset("b", b, None, None)],
            Mode::Fixed,
        )
    };
    let unset = run(&both(None, Some(int(1)), None), &[]).expect_err("refused");
    assert!(
        unset.starts_with("spec.topology.subsets[1].replicas: must be set"),
        "{unset}"
    );
    let percent = run(&both(None, Some(int(1)), Some(text("50%"))), &[]).expect_err("refused");
    assert!(
        percent.starts_with("spec.topology.subsets[1].replicas: 50% needs spec.replicas"),
        "{percent}"
    );
    let over = run(&both(Some(3), Some(int(2)), Some(int(2))), &[]).expect_err("refused");
    assert!(
        over.starts_with("spec.topology.subsets[*].replicas:") && over.contains("4"),
        "{over}"
    );
    let negative = run(&both(Some(-2), None, None), &[]).expect_err("refused");
    assert!(negative.starts_with("spec.replicas:"), "{negative}");
    let bad_bounds = ud(
        Some(5),
        vec![
            subset("a", None, None, None),
            subset("b", None, Some(int(3)), Some(int(2))),
        ],
        Mode::Fixed,
    );
    assert_eq!(
        run(&bad_bounds, &[]),
        Err("spec.topology.subsets[1].maxReplicas: 2 is less than minReplicas 3".to_string())
    );
}

#[test]
fn percentages_are_of_spec_replicas_rounded_half_up() {
    let one_fixed = |total, value: &str| {
        let subsets = vec![
            subset("a", Some(text(value)), None, None),
            subset("b", None, None, None),
        ];
        run(&ud(Some(total), subsets, Mode::Fixed), &[])
    };
    assert_eq!(one_fixed(5, "50%"), Ok(vec![3, 2]));
    assert_eq!(one_fixed(3, "50%"), Ok(vec![2, 1]));
    assert_eq!(one_fixed(10, "33%"), Ok(vec![3, 7]));
    assert_eq!(one_fixed(10, "35%"), Ok(vec![4, 6]));
    assert_eq!(one_fixed(7, "100%"), Ok(vec![7, 0]));
    // Unreadable values leave the subset free: the two share evenly ("a" sorts first).
    for bad in ["101%", "5", "x%", "-5%", ""] {
        assert_eq!(one_fixed(5, bad), Ok(vec![2, 3]), "{bad:?}");
    }
    assert_eq!(
        run(
            &ud(
                Some(5),
                vec![
                    subset("a", Some(int(-1)), None, None),
                    subset("b", None, None, None)
                ],
                Mode::Fixed
            ),
            &[]
        ),
        Ok(vec![2, 3])
    );
}

#[test]
fn an_empty_topology_only_holds_zero_replicas() {
    assert_eq!(
        allocate(&ud(Some(0), vec![], Mode::Fixed), &[]),
        Ok(BTreeMap::new())
    );
    assert_eq!(allocate(&ud(None, vec![], Mode::Fixed), &[]), Ok(BTreeMap::new()));
    let refused = allocate(&ud(Some(3), vec![], Mode::Fixed), &[]).expect_err("refused");
    assert!(refused.starts_with("spec.topology.subsets:"), "{refused}");
    let mut no_topology = ud(Some(0), vec![], Mode::Fixed);
    no_topology.spec.topology = None;
    assert_eq!(allocate(&no_topology, &[]), Ok(BTreeMap::new()));
}

#[test]
fn only_workloads_named_in_the_topology_and_existing_count() {
    let subsets = vec![subset("a", None, None, None), subset("b", None, None, None)];
    let now = [
        existing("zzz", 50),
        SubsetNow {
            name: "a".into(),
            replicas: None,
            ready: Some(9),
            ..SubsetNow::default()
        },
        existing("b", 0),
    ];
    // "a" has no workload (size 0) like "b": tie by name, "b" takes the extra pod.
    let result = allocate(&ud(Some(3), subsets, Mode::Fixed), &now).expect("allocated");
    assert_eq!(
        result,
        BTreeMap::from([("a".to_string(), 1), ("b".to_string(), 2)])
    );
}

// ---- allocator choice ----

#[test]
fn the_allocator_follows_the_schedule_strategy_then_the_bounds() {
    let plain = vec![subset("a", None, None, None)];
    let bounded = vec![subset("a", None, Some(int(1)), None)];
    assert_eq!(
        allocator_for(&ud(Some(1), plain.clone(), Mode::Fixed)),
        Allocator::Specific
    );
    assert_eq!(
        allocator_for(&ud(Some(1), bounded.clone(), Mode::Fixed)),
        Allocator::Capacity
    );
    assert_eq!(
        allocator_for(&ud(Some(1), plain.clone(), Mode::Adaptive)),
        Allocator::Adaptive
    );
    assert_eq!(
        allocator_for(&ud(Some(1), plain.clone(), Mode::Reserve)),
        Allocator::Reservation
    );
    // reserveUnschedulablePods without type Adaptive does nothing.
    let mut fixed_reserve = ud(Some(1), bounded, Mode::Reserve);
    if let Some(strategy) = fixed_reserve
        .spec
        .topology
        .as_mut()
        .and_then(|t| t.schedule_strategy.as_mut())
    {
        strategy.type_ = Some(UnitedDeploymentScheduleStrategyType::Fixed);
    }
    assert_eq!(allocator_for(&fixed_reserve), Allocator::Capacity);
    assert_eq!(allocator_for(&ud(None, vec![], Mode::Fixed)), Allocator::Specific);
}

// ---- capacity ----

fn bounded(names: &[String], min: &[i32], max: &[i32]) -> Vec<Subset> {
    names
        .iter()
        .enumerate()
        .map(|(i, n)| subset(n, None, bound(min[i]), bound(max[i])))
        .collect()
}

#[test]
fn capacity_fills_minimums_then_maximums_in_topology_order() {
    let names = numbered("subset-", 5);
    let rows: [(&str, i32, [i32; 5]); 3] = [
        ("sum of mins == replicas", 10, [2, 2, 2, 2, 2]),
        ("sum of mins < replicas", 14, [5, 3, 2, 2, 2]),
        ("sum of mins > replicas", 5, [2, 2, 1, 0, 0]),
    ];
    for (name, total, expected) in rows {
        let subsets = bounded(&names, &[2, 2, 2, 2, 2], &[5, 5, 5, 5, -1]);
        assert_eq!(
            run(&ud(Some(total), subsets, Mode::Fixed), &[]),
            Ok(expected.to_vec()),
            "{name}"
        );
    }
}

#[test]
fn capacity_percentages_and_unreadable_bounds() {
    // 50% of 5 rounds to 3; the unbounded subset takes the rest.
    let subsets = vec![
        subset("a", None, None, Some(text("50%"))),
        subset("b", None, None, None),
    ];
    assert_eq!(run(&ud(Some(5), subsets, Mode::Fixed), &[]), Ok(vec![3, 2]));
    // Without spec.replicas the total is 0.
    let subsets = vec![subset("a", None, Some(int(2)), None)];
    assert_eq!(run(&ud(None, subsets, Mode::Fixed), &[]), Ok(vec![0]));
    // An unreadable maxReplicas reads as 0 (upstream ignores the parse error).
    let subsets = vec![
        subset("a", None, None, Some(text("150%"))),
        subset("b", None, None, None),
    ];
    assert_eq!(run(&ud(Some(4), subsets, Mode::Fixed), &[]), Ok(vec![0, 4]));
    // An unreadable minReplicas reads as 0.
    let subsets = vec![
        subset("a", None, None, Some(int(3))),
        subset("b", None, Some(text("x")), None),
    ];
    assert_eq!(run(&ud(Some(4), subsets, Mode::Fixed), &[]), Ok(vec![3, 1]));
    // Specific `replicas` are ignored once bounds are used.
    let subsets = vec![
        subset("a", Some(int(4)), None, Some(int(1))),
        subset("b", None, None, None),
    ];
    assert_eq!(run(&ud(Some(4), subsets, Mode::Fixed), &[]), Ok(vec![1, 3]));
}

// ---- adaptive ----

/// One upstream adaptive row: name, spec.replicas, pods, minReplicas, maxReplicas (-1:
/// absent), pending pods (-1: unschedulable without pending pods), the expected result.
type AdaptiveRow = (
    &'static str,
    i32,
    &'static [i32],
    &'static [i32],
    &'static [i32],
    &'static [i32],
    &'static [i32],
);

fn adaptive_now(names: &[String], pods: &[i32], pending: &[i32]) -> Vec<SubsetNow> {
    names
        .iter()
        .enumerate()
        .map(|(i, name)| SubsetNow {
            name: name.clone(),
            replicas: Some(pods[i]),
            ready: Some(pods[i] - pending[i].max(0)),
            schedulable: pending[i] == 0,
            ..SubsetNow::default()
        })
        .collect()
}

#[test]
fn adaptive_matches_the_upstream_table() {
    const M0: &[i32] = &[0, 0, 0, 0];
    const P0: &[i32] = &[0, 0, 0, 0];
    #[rustfmt::skip]
    let rows: [AdaptiveRow; 17] = [
        ("5 pending = max",       10, &[5, 5],       &[3, -1], &[5, -1],          &[5, 0],          &[3, 7]),
        ("4 pending < max",       10, &[5, 5],       &[3, -1], &[5, -1],          &[4, 0],          &[3, 7]),
        ("3 pending = min",       10, &[5, 5],       &[3, -1], &[5, -1],          &[3, 0],          &[3, 7]),
        ("2 pending < min",       10, &[5, 5],       &[3, -1], &[5, -1],          &[2, 0],          &[3, 7]),
        ("no pending",            10, &[5, 5],       &[3, -1], &[5, -1],          &[0, 0],          &[5, 5]),
        ("scale up 2 -> 4",       4,  &[1, 1],       &[1, -1], &[2, -1],          &[0, 0],          &[2, 2]),
        ("scale down 4 -> 3",     3,  &[2, 2],       &[1, -1], &[2, -1],          &[0, 0],          &[2, 1]),
        ("scale down 3 -> 1",     1,  &[2, 1],       &[1, -1], &[2, -1],          &[0, 0],          &[1, 0]),
        ("down, min and pending", 3,  &[1, 3],       &[1, -1], &[2, -1],          &[1, 0],          &[1, 2]),
        ("down, only pending",    3,  &[1, 3],       &[0, -1], &[2, -1],          &[1, 0],          &[0, 3]),
        ("complex: start",        4,  &[0, 0, 0, 0], M0,       &[2, -1, -1, -1],  P0,               &[2, 2, 0, 0]),
        ("1 unschedulable",       4,  &[2, 2, 0, 0], M0,       &[2, -1, -1, -1],  &[0, 2, 0, 0],    &[2, 0, 2, 0]),
        ("2 unschedulable",       4,  &[2, 0, 2, 0], M0,       &[2, -1, -1, -1],  &[0, -1, 2, 0],   &[2, 0, 0, 2]),
        ("4 -> 8, unschedulable", 8,  &[2, 0, 0, 2], M0,       &[2, -1, -1, -1],  &[0, -1, -1, 0],  &[2, 0, 0, 6]),
        ("4 -> 8, recovered",     8,  &[2, 0, 0, 2], M0,       &[2, -1, -1, -1],  P0,               &[2, 4, 0, 2]),
        ("8 -> 4, unschedulable", 4,  &[2, 0, 0, 6], M0,       &[-1, -1, -1, -1], P0,               &[2, 0, 0, 2]),
        ("8 -> 4, recovered",     4,  &[2, 0, 0, 6], M0,       &[-1, -1, -1, -1], P0,               &[2, 0, 0, 2]),
    ];
    for (name, total, pods, min, max, pending, expected) in rows {
        let names = numbered("subset-", pods.len());
        let now = adaptive_now(&names, pods, pending);
        let got = run(&ud(Some(total), bounded(&names, min, max), Mode::Adaptive), &now);
        assert_eq!(got, Ok(expected.to_vec()), "{name}");
    }
}

#[test]
fn adaptive_treats_subsets_without_a_workload_as_schedulable() {
    let subsets = vec![
        subset("a", None, None, Some(int(3))),
        subset("b", None, None, None),
    ];
    // "a" claims to be unschedulable but has no workload: it still gets its max.
    let now = [SubsetNow {
        name: "a".into(),
        schedulable: false,
        ready: Some(0),
        ..SubsetNow::default()
    }];
    assert_eq!(
        run(&ud(Some(5), subsets.clone(), Mode::Adaptive), &now),
        Ok(vec![3, 2])
    );
    // With a workload it is held at its ready pods.
    let now = [SubsetNow {
        name: "a".into(),
        replicas: Some(3),
        ready: Some(1),
        schedulable: false,
        ..SubsetNow::default()
    }];
    assert_eq!(run(&ud(Some(5), subsets, Mode::Adaptive), &now), Ok(vec![1, 4]));
}

#[test]
fn adaptive_keeps_running_pods_of_schedulable_subsets() {
    // 4 ready pods in "b" are kept although "a" could take everything; capped by max.
    let subsets = vec![
        subset("a", None, None, None),
        subset("b", None, None, Some(int(3))),
    ];
    let now = [existing("a", 0), existing("b", 4)];
    assert_eq!(run(&ud(Some(5), subsets, Mode::Adaptive), &now), Ok(vec![2, 3]));
}

// ---- reservation ----

/// One upstream reservation row: name, spec.replicas, minReplicas, maxReplicas (-1 or
/// `None`: absent; the last subset never has a max), current sizes, reserved pods (-1: none
/// but still marked unschedulable; any non-zero value marks the subset), the expected result.
type ReserveRow = (
    &'static str,
    i32,
    Option<&'static [i32]>,
    Option<&'static [i32]>,
    &'static [i32],
    &'static [i32],
    &'static [i32],
);

fn reserve_setup(row: &ReserveRow) -> (UnitedDeployment, Vec<SubsetNow>) {
    let &(_, total, min, max, current, reserved, _) = row;
    let names = numbered("subset-", current.len());
    let pick = |list: Option<&[i32]>, i: usize| list.and_then(|l| bound(l[i]));
    let mut subsets: Vec<Subset> = (0..names.len())
        .map(|i| subset(&names[i], None, pick(min, i), pick(max, i)))
        .collect();
    if let Some(last) = subsets.last_mut() {
        last.max_replicas = None;
    }
    let now = (0..names.len())
        .map(|i| {
            let pods = reserved[i].max(0);
            SubsetNow {
                name: names[i].clone(),
                replicas: Some(current[i]),
                ready: Some(current[i] - pods),
                schedulable: pods == 0,
                marked_unschedulable: reserved[i] != 0,
                reserved: pods,
            }
        })
        .collect();
    (ud(Some(total), subsets, Mode::Reserve), now)
}

#[test]
fn reservation_matches_the_upstream_table() {
    const MIN1: Option<&[i32]> = Some(&[1, 1, 1, 1]);
    const MAX2: Option<&[i32]> = Some(&[2, 2, 2, -1]);
    const MIN2: Option<&[i32]> = Some(&[2, 2, 2, 2]);
    const MAX4: Option<&[i32]> = Some(&[4, 4, 4, -1]);
    const MIN110: Option<&[i32]> = Some(&[1, 1, 0]);
    #[rustfmt::skip]
    let rows: [ReserveRow; 27] = [
        ("4: start",                   8,  MIN1,   MAX2, &[0, 0, 0, 0],  &[0, 0, 0, 0],   &[2, 2, 2, 2]),
        ("4: 1, 2 unschedulable",      8,  MIN1,   MAX2, &[2, 2, 2, 2],  &[0, 2, 2, 0],   &[2, 2, 2, 6]),
        ("4: 1, 2 start a pod each",   8,  MIN1,   MAX2, &[2, 2, 2, 6],  &[0, 1, 1, 0],   &[2, 2, 2, 4]),
        ("4: 1 recovered",             8,  MIN1,   MAX2, &[2, 2, 2, 4],  &[0, -1, 1, 0],  &[2, 2, 2, 3]),
        ("4: all recovered",           8,  MIN1,   MAX2, &[2, 2, 2, 3],  &[0, 0, -1, 0],  &[2, 2, 2, 2]),
        ("4: partly started, to 16",   16, MIN2,   MAX4, &[2, 2, 2, 6],  &[0, 1, 1, 0],   &[4, 2, 2, 10]),
        ("4: partly started, to 8",    8,  MIN1,   MAX2, &[4, 2, 2, 10], &[0, 1, 1, 0],   &[2, 2, 2, 4]),
        ("4: 1, 2 started, at 16",     16, MIN2,   MAX4, &[4, 2, 2, 10], &[0, -1, -1, 0], &[4, 4, 4, 8]),
        ("4: at 16, verifying",        16, MIN2,   MAX4, &[4, 4, 4, 8],  &[0, 2, 2, 0],   &[4, 4, 4, 8]),
        ("4: at 16, new pods started", 16, MIN2,   MAX4, &[4, 4, 4, 8],  &[0, -1, -1, 0], &[4, 4, 4, 4]),
        ("3 free: start",              2,  None,   None, &[0, 0, 0],     &[0, 0, 0],      &[2, 0, 0]),
        ("3 free: 0 unschedulable",    2,  None,   None, &[2, 0, 0],     &[2, 0, 0],      &[2, 2, 0]),
        ("3 free: 1 unschedulable",    2,  None,   None, &[2, 2, 0],     &[2, 2, 0],      &[2, 2, 2]),
        ("3 free: to 4",               4,  None,   None, &[2, 2, 2],     &[2, 2, 0],      &[2, 2, 4]),
        ("3 free: 1 recovered",        4,  None,   None, &[2, 2, 4],     &[4, -1, 0],     &[2, 4, 2]),
        ("3 free: 1 verifying",        4,  None,   None, &[2, 4, 2],     &[4, 2, 0],      &[2, 4, 2]),
        ("3 free: 1 started",          4,  None,   None, &[2, 4, 2],     &[4, -1, 0],     &[2, 4, 0]),
        ("3 free: a pod of 1 started", 2,  None,   None, &[2, 2, 2],     &[2, 1, 0],      &[2, 2, 1]),
        ("3 free: 0 recovered",        2,  None,   None, &[2, 2, 1],     &[0, 1, 0],      &[2, 0, 0]),
        ("3 free: 4 -> 2",             2,  None,   None, &[2, 2, 0],     &[0, 0, 0],      &[2, 0, 0]),
        ("3 free: to 4, 0 recovered",  4,  None,   None, &[2, 2, 4],     &[-1, 2, 0],     &[4, 2, 2]),
        ("min: start",                 2,  MIN110, None, &[0, 0, 0],     &[0, 0, 0],      &[1, 1, 0]),
        ("min: 0, 1 unschedulable",    2,  MIN110, None, &[1, 1, 0],     &[1, 1, 0],      &[1, 1, 2]),
        ("min: 0 recovered",           2,  MIN110, None, &[1, 1, 2],     &[-1, 1, 0],     &[2, 1, 1]),
        ("min: 0 verifying",           2,  MIN110, None, &[2, 1, 1],     &[1, 1, 0],      &[2, 1, 1]),
        ("min: 0 started",             2,  MIN110, None, &[2, 1, 1],     &[0, 1, 0],      &[2, 1, 0]),
        ("min: 1 recovered",           2,  MIN110, None, &[2, 1, 0],     &[0, -1, 0],     &[1, 1, 0]),
    ];
    for row in &rows {
        let (ud, now) = reserve_setup(row);
        assert_eq!(allocator_for(&ud), Allocator::Reservation, "{}", row.0);
        assert_eq!(run(&ud, &now), Ok(row.6.to_vec()), "{}", row.0);
    }
}

#[test]
fn reservation_places_substitutes_past_a_subsets_room() {
    // "a" runs 1 of its 3 pods (2 reserved): only 1 counts, so "b" gets 5 - 1 = 4.
    let subsets = vec![
        subset("a", None, None, Some(int(3))),
        subset("b", None, None, None),
    ];
    let now = [
        SubsetNow {
            name: "a".into(),
            replicas: Some(3),
            ready: Some(1),
            schedulable: false,
            marked_unschedulable: true,
            reserved: 2,
        },
        existing("b", 2),
    ];
    assert_eq!(run(&ud(Some(5), subsets, Mode::Reserve), &now), Ok(vec![3, 4]));
}

// ---- properties ----

fn replicas_value() -> impl Strategy<Value = Option<IntOrString>> {
    prop_oneof![
        3 => Just(None),
        3 => (0..12i32).prop_map(|n| Some(int(n))),
        2 => (0..=110i64).prop_map(|p| Some(text(&format!("{p}%")))),
        1 => prop::sample::select(vec!["x", "5", "-3%"]).prop_map(|s| Some(text(s))),
    ]
}

/// A subset's `replicas` and current workload size.
type SpecificInput = (Option<IntOrString>, Option<i32>);

/// Subsets `s0..` with optional `replicas` and current sizes, and an optional total.
fn specific_input() -> impl Strategy<Value = (Option<i32>, Vec<SpecificInput>)> {
    (
        prop::option::weighted(0.8, 0..60i32),
        prop::collection::vec((replicas_value(), prop::option::of(0..20i32)), 0..6),
    )
}

fn specific_setup(total: Option<i32>, rows: &[SpecificInput]) -> (UnitedDeployment, Vec<SubsetNow>) {
    let names = numbered("s", rows.len());
    let subsets = names
        .iter()
        .zip(rows)
        .map(|(n, (r, _))| subset(n, r.clone(), None, None))
        .collect();
    let now = names
        .iter()
        .zip(rows)
        .filter_map(|(n, (_, c))| c.map(|c| existing(n, c)))
        .collect();
    (ud(total, subsets, Mode::Fixed), now)
}

/// Bounds `(min, max - min)`, either absent.
fn bounds_input() -> impl Strategy<Value = Vec<(Option<i32>, Option<i32>)>> {
    prop::collection::vec((prop::option::of(0..8i32), prop::option::of(0..8i32)), 1..6)
}

fn bounded_subsets(rows: &[(Option<i32>, Option<i32>)]) -> Vec<Subset> {
    numbered("s", rows.len())
        .iter()
        .zip(rows)
        .map(|(n, (min, extra))| {
            let max = extra.map(|e| int(min.unwrap_or(0) + e));
            // Some subset must carry a bound for the capacity allocator; min 0 is neutral.
            subset(n, None, Some(int(min.unwrap_or(0))), max)
        })
        .collect()
}

fn limits(rows: &[(Option<i32>, Option<i32>)]) -> Vec<(i64, i64)> {
    rows.iter()
        .map(|(min, extra)| {
            let min = i64::from(min.unwrap_or(0));
            (min, extra.map_or(i64::from(i32::MAX), |e| min + i64::from(e)))
        })
        .collect()
}

/// Checks the capacity invariants of `got` against `(min, max)` per subset.
fn check_capacity(got: &[i32], limits: &[(i64, i64)], total: i64) -> Result<(), TestCaseError> {
    let got: Vec<i64> = got.iter().map(|&g| i64::from(g)).collect();
    let top: i64 = limits.iter().map(|(min, max)| (*min).max(*max)).sum();
    prop_assert_eq!(got.iter().sum::<i64>(), total.min(top));
    let mins: i64 = limits.iter().map(|(min, _)| min).sum();
    for (g, (min, max)) in got.iter().zip(limits) {
        prop_assert!(*g <= (*min).max(*max));
        if total >= mins {
            prop_assert!(*g >= *min);
        }
    }
    Ok(())
}

/// Current workloads: `(replicas, ready share, schedulable)`; ready = replicas * share / 4.
fn workloads_input(count: usize) -> impl Strategy<Value = Vec<Option<(i32, i32, bool)>>> {
    prop::collection::vec(
        prop::option::weighted(0.8, (0..10i32, 0..=4i32, any::<bool>())),
        count,
    )
}

fn workloads_now(rows: &[Option<(i32, i32, bool)>]) -> Vec<SubsetNow> {
    numbered("s", rows.len())
        .into_iter()
        .zip(rows)
        .filter_map(|(name, row)| {
            row.map(|(replicas, share, schedulable)| SubsetNow {
                name,
                replicas: Some(replicas),
                ready: Some(replicas * share / 4),
                schedulable,
                marked_unschedulable: !schedulable,
                reserved: replicas - replicas * share / 4,
            })
        })
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn specific_results_add_up_to_spec_replicas((total, rows) in specific_input()) {
        let (ud, now) = specific_setup(total, &rows);
        if let (Ok(result), Some(total)) = (allocate(&ud, &now), total) {
            prop_assert_eq!(result.values().sum::<i32>(), total);
            prop_assert_eq!(result.len(), rows.len());
            for (i, (value, _)) in rows.iter().enumerate() {
                if let Some(IntOrString::Int(n)) = value {
                    prop_assert_eq!(result.get(&format!("s{i}")), Some(n));
                }
            }
        }
    }

    #[test]
    fn specific_results_are_stable_across_reconciles((total, rows) in specific_input()) {
        let (ud, now) = specific_setup(total, &rows);
        if let Ok(first) = allocate(&ud, &now) {
            let again: Vec<SubsetNow> = first.iter().map(|(name, n)| existing(name, *n)).collect();
            prop_assert_eq!(allocate(&ud, &again), Ok(first));
        }
    }

    #[test]
    fn capacity_stays_within_bounds(rows in bounds_input(), total in 0..60i32) {
        let ud = ud(Some(total), bounded_subsets(&rows), Mode::Fixed);
        let got = run(&ud, &[]);
        prop_assert!(got.is_ok(), "{:?}", got);
        check_capacity(&got.unwrap_or_default(), &limits(&rows), i64::from(total))?;
    }

    #[test]
    fn adaptive_stays_within_the_narrowed_bounds(
        (rows, current) in bounds_input().prop_flat_map(|rows| {
            let count = rows.len();
            (Just(rows), workloads_input(count))
        }),
        total in 0..60i32,
    ) {
        let ud = ud(Some(total), bounded_subsets(&rows), Mode::Adaptive);
        let got = run(&ud, &workloads_now(&current));
        prop_assert!(got.is_ok(), "{:?}", got);
        // The narrowing, restated from the module doc.
        let narrowed: Vec<(i64, i64)> = limits(&rows)
            .into_iter()
            .zip(&current)
            .map(|((min, max), w)| match w {
                None => (min, max),
                Some((replicas, share, schedulable)) => {
                    let ready = i64::from(replicas * share / 4);
                    if !schedulable {
                        (min.max(ready), max.min(ready))
                    } else if ready > min {
                        (ready.min(max), max)
                    } else {
                        (min, max)
                    }
                }
            })
            .collect();
        check_capacity(&got.unwrap_or_default(), &narrowed, i64::from(total))?;
    }

    #[test]
    fn reservation_without_reservations_is_capacity(
        rows in bounds_input(),
        sizes in prop::collection::vec(prop::option::of(0..10i32), 6),
        total in 0..60i32,
    ) {
        let subsets = bounded_subsets(&rows);
        let now: Vec<SubsetNow> = numbered("s", rows.len())
            .iter()
            .zip(&sizes)
            .filter_map(|(name, size)| size.map(|s| existing(name, s)))
            .collect();
        let reserve = allocate(&ud(Some(total), subsets.clone(), Mode::Reserve), &now);
        prop_assert_eq!(reserve, allocate(&ud(Some(total), subsets, Mode::Fixed), &[]));
    }

    #[test]
    fn allocation_is_deterministic_and_ignores_the_order_of_now(
        (rows, current) in bounds_input().prop_flat_map(|rows| {
            let count = rows.len();
            (Just(rows), workloads_input(count))
        }),
        total in 0..60i32,
        mode in prop::sample::select(vec![Mode::Fixed, Mode::Adaptive, Mode::Reserve]),
        with_bounds in any::<bool>(),
    ) {
        let mut subsets = bounded_subsets(&rows);
        if !with_bounds {
            for s in &mut subsets {
                (s.min_replicas, s.max_replicas) = (None, None);
            }
        }
        let ud = ud(Some(total), subsets, mode);
        let now = workloads_now(&current);
        let mut reversed = now.clone();
        reversed.reverse();
        let first = allocate(&ud, &now);
        prop_assert_eq!(&first, &allocate(&ud, &now));
        prop_assert_eq!(&first, &allocate(&ud, &reversed));
    }
}
