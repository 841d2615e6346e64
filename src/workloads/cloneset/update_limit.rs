//! How many of the ordered update candidates may start updating now (upstream
//! `limitUpdateIndexes`).
//!
//! Invariants (property-tested): at most |updateNum| candidates; the pods unavailable
//! across the set never rise above `update_max_unavailable` because of this batch
//! (updating a pod that is already unavailable costs nothing); and unavailable pods at
//! the target revision plus the batch never exceed it either.
//!
//! Worked example: maxUnavailable 2, 10 pods all available, candidates all available:
//! the first candidate makes 1 unavailable, the second 2, the third would make 3 -> the
//! batch is 2. With one pod already unavailable at the old revision, the batch is 1.

/// What the limit needs to know about the set and each candidate.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SetCounts {
    /// Unavailable pods of the whole set (w.r.t. minReadySeconds).
    pub unavailable: i64,
    /// Of those, the pods already at the target revision.
    pub unavailable_at_target: i64,
}

/// The number of leading `candidates` (true = available) that may be updated.
pub fn update_batch(
    candidates: &[bool],
    update_num: i64,
    update_max_unavailable: i64,
    counts: SetCounts,
) -> usize {
    let wanted = usize::try_from(update_num.unsigned_abs()).unwrap_or(usize::MAX);
    let mut unavailable = counts.unavailable;
    let mut accepted = 0usize;
    for &available in candidates.iter().take(wanted) {
        if counts.unavailable_at_target + accepted as i64 >= update_max_unavailable {
            break;
        }
        if available {
            if unavailable >= update_max_unavailable {
                break;
            }
            unavailable += 1;
        }
        accepted += 1;
    }
    accepted
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    const NONE: SetCounts = SetCounts {
        unavailable: 0,
        unavailable_at_target: 0,
    };

    #[test]
    fn all_available_candidates_are_bounded_by_max_unavailable() {
        assert_eq!(update_batch(&[true; 8], 8, 2, NONE), 2);
    }

    #[test]
    fn an_already_unavailable_pod_uses_up_the_budget() {
        let counts = SetCounts {
            unavailable: 1,
            unavailable_at_target: 0,
        };
        assert_eq!(update_batch(&[true; 8], 8, 2, counts), 1);
    }

    #[test]
    fn updating_an_unavailable_candidate_is_free_but_counts_toward_the_target_bound() {
        let counts = SetCounts {
            unavailable: 2,
            unavailable_at_target: 0,
        };
        assert_eq!(update_batch(&[false, false, true], 3, 2, counts), 2);
    }

    #[test]
    fn update_num_caps_the_batch_and_its_sign_does_not_matter() {
        assert_eq!(update_batch(&[true; 8], 1, 5, NONE), 1);
        assert_eq!(update_batch(&[true; 8], -3, 5, NONE), 3);
        assert_eq!(update_batch(&[true; 8], 0, 5, NONE), 0);
    }

    #[test]
    fn step_1_of_2_a_first_batch_then_step_2_of_2_nothing_until_it_is_ready() {
        let first = update_batch(&[true; 5], 5, 2, NONE);
        assert_eq!(first, 2);
        // Those 2 are now unavailable at the target revision: no new batch yet.
        let counts = SetCounts {
            unavailable: 2,
            unavailable_at_target: 2,
        };
        assert_eq!(update_batch(&[true; 3], 3, 2, counts), 0);
    }

    proptest! {
        #[test]
        fn the_batch_never_exceeds_max_unavailable(
            candidates in proptest::collection::vec(any::<bool>(), 0..40),
            update_num in -50i64..50,
            max_unavailable in 0i64..10,
            unavailable_elsewhere in 0i64..10,
            at_target in 0i64..5,
        ) {
            let unavailable_candidates = candidates.iter().filter(|a| !**a).count() as i64;
            let counts = SetCounts {
                unavailable: unavailable_candidates + unavailable_elsewhere + at_target,
                unavailable_at_target: at_target,
            };
            let batch = update_batch(&candidates, update_num, max_unavailable, counts);
            prop_assert!(batch as u64 <= update_num.unsigned_abs());
            let newly_unavailable = candidates[..batch].iter().filter(|a| **a).count() as i64;
            prop_assert!(counts.unavailable + newly_unavailable <= max_unavailable.max(counts.unavailable));
            prop_assert!(at_target + batch as i64 <= max_unavailable.max(at_target));
        }
    }
}
