use proptest::prelude::*;

use super::*;

fn input(replicas: i64, partition: i64, surge: i64, unavailable: i64, updated: i64, old: i64) -> DiffInput {
    DiffInput {
        replicas,
        partition,
        max_surge: surge,
        max_unavailable: unavailable,
        scale_max_unavailable: None,
        updated: ClassCounts {
            total: updated,
            ..Default::default()
        },
        old: ClassCounts {
            total: old,
            ..Default::default()
        },
        allow_rollback: false,
        exclude_preparing_delete: false,
    }
}

#[test]
fn a_new_cloneset_scales_up_to_replicas_from_the_update_revision() {
    let d = diffs(&input(5, 0, 0, 1, 0, 0));
    assert_eq!(
        (d.scale_up, d.scale_up_limit, d.scale_up_old, d.update_num),
        (5, 5, 0, 0)
    );
}

#[test]
fn the_worked_example_surges_two_new_pods_before_updating() {
    let d = diffs(&input(10, 3, 2, 2, 0, 10));
    assert_eq!(
        (d.use_surge, d.use_surge_old, d.scale_up, d.update_num),
        (2, 0, 2, 7)
    );
}

#[test]
fn partition_3_then_1_then_0_steps_the_update_number() {
    // step 1/3: partition 3 of 5, none updated -> update 2
    assert_eq!(diffs(&input(5, 3, 0, 1, 0, 5)).update_num, 2);
    // step 2/3: partition 1, 2 updated -> update 2 more
    assert_eq!(diffs(&input(5, 1, 0, 1, 2, 3)).update_num, 2);
    // step 3/3: partition 0, 4 updated -> the last one
    assert_eq!(diffs(&input(5, 0, 0, 1, 4, 1)).update_num, 1);
}

#[test]
fn raising_the_partition_does_not_roll_back_without_the_gate() {
    let d = diffs(&input(5, 4, 0, 1, 3, 2));
    assert_eq!(d.update_num, 0);
    let mut rollback = input(5, 4, 0, 1, 3, 2);
    rollback.allow_rollback = true;
    assert_eq!(diffs(&rollback).update_num, -2);
}

#[test]
fn scale_down_prefers_old_pods_and_limits_ready_deletes() {
    let d = diffs(&input(3, 0, 0, 1, 2, 3));
    assert_eq!((d.scale_down, d.scale_down_old), (2, 3));
    assert_eq!(d.delete_ready_limit, 1 + (5 - 3));
}

#[test]
fn scale_strategy_max_unavailable_limits_creation() {
    let mut i = input(10, 0, 0, 2, 0, 4);
    i.scale_max_unavailable = Some(3);
    i.updated.unavailable = 0;
    i.old.unavailable = 2;
    let d = diffs(&i);
    assert_eq!((d.scale_up, d.scale_up_limit), (6, 1));
}

#[test]
fn specified_deletes_use_surge_to_replace_before_deleting() {
    let mut i = input(4, 0, 1, 0, 4, 0);
    i.updated.to_delete = 1;
    let d = diffs(&i);
    assert_eq!((d.use_surge, d.scale_up), (1, 1));
}

fn class() -> impl Strategy<Value = ClassCounts> {
    (0i64..30, 0i64..4, 0i64..4, 0i64..6).prop_map(|(total, pre, del, unav)| {
        let pre_deleting = pre.min(total);
        let to_delete = del.min(total - pre_deleting);
        let unavailable = unav.min(total - pre_deleting - to_delete);
        ClassCounts {
            total,
            pre_deleting,
            to_delete,
            unavailable,
        }
    })
}

proptest! {
    #[test]
    fn planned_pods_never_exceed_replicas_plus_surge(
        replicas in 0i64..30, p in 0i64..30, surge in 0i64..6, unavailable in 0i64..6,
        updated in class(), old in class(), scale_limit in proptest::option::of(0i64..10),
    ) {
        let input = DiffInput {
            replicas, partition: p.min(replicas), max_surge: surge, max_unavailable: unavailable,
            scale_max_unavailable: scale_limit, updated, old, allow_rollback: false, exclude_preparing_delete: false,
        };
        let d = diffs(&input);
        let current = updated.total + old.total;
        prop_assert!(current + d.scale_up_limit <= (replicas + surge).max(current));
        prop_assert!(d.scale_up_limit <= d.scale_up);
        prop_assert!(d.use_surge <= surge && d.use_surge_old <= d.use_surge);
        // Updates never reach into the partition.
        prop_assert!(d.update_num <= (old.active() - input.partition).max(0));
        prop_assert!(d.update_num >= 0, "no rollback without the gate");
        if let Some(limit) = scale_limit {
            let unavailable_now = updated.pre_deleting + old.pre_deleting + updated.unavailable + old.unavailable;
            prop_assert!(d.scale_up_limit <= (limit - unavailable_now).max(0));
        }
    }
}
