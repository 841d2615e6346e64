//! How far a CloneSet is from its target (upstream
//! `calculateDiffsWithExpectation`): how many pods to create or delete, of which revision,
//! how much surge to use, and how many pods to update. Pure arithmetic over counts.
//!
//! Invariants (property-tested):
//! - pods after scaling up never exceed `replicas + maxSurge` (nor the current count);
//! - without rollback, updates never reach into the partition: `update_num <= old − P`;
//! - creating stops at `scaleStrategy.maxUnavailable − unavailable`.
//!
//! Worked example: R = 10, P = 3, maxSurge 2, maxUnavailable 2, 10 old pods all
//! available. updateOld = 10 − 3 = 7, updateNew = 0 − 7 = −7: opposite signs, so
//! updateSurge = 7 of which none is old surge; useSurge = min(2, 7) = 2 -> expectedTotal 12,
//! scale up 2 new pods first (scale and update never share a round), update 7 later.

/// Counts of one class of active pods (at the update revision, or not).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ClassCounts {
    /// Active (not terminating, not finished) pods of the class.
    pub total: i64,
    /// Of those, in lifecycle state PreparingDelete.
    pub pre_deleting: i64,
    /// Active, not pre-deleting, marked for deletion (specified-delete or podsToDelete).
    pub to_delete: i64,
    /// Active, not pre-deleting, not to-delete, not available (minReadySeconds).
    pub unavailable: i64,
}

impl ClassCounts {
    fn active(&self) -> i64 {
        self.total - self.pre_deleting
    }
}

/// The resolved numbers and counts the diff is computed from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DiffInput {
    pub replicas: i64,
    pub partition: i64,
    pub max_surge: i64,
    pub max_unavailable: i64,
    /// `scaleStrategy.maxUnavailable`; None = unlimited.
    pub scale_max_unavailable: Option<i64>,
    pub updated: ClassCounts,
    pub old: ClassCounts,
    /// Rollback allowed (gate on and current != update revision): updates may go both ways.
    pub allow_rollback: bool,
    /// Leave PreparingDelete pods out of the current counts.
    pub exclude_preparing_delete: bool,
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Diffs {
    pub use_surge: i64,
    pub use_surge_old: i64,
    pub scale_up: i64,
    /// Of `scale_up_limit`, how many are created from the current (old) revision first.
    pub scale_up_old: i64,
    pub scale_up_limit: i64,
    pub scale_down: i64,
    pub scale_down_old: i64,
    /// How many READY pods may be deleted this round (only when deleting anything).
    pub delete_ready_limit: i64,
    /// Positive: move old pods to the update revision; negative: roll updated pods back.
    pub update_num: i64,
    pub update_max_unavailable: i64,
}

/// Computes the diffs as upstream's `calculateDiffsWithExpectation` does.
pub fn diffs(input: &DiffInput) -> Diffs {
    let (r, p, u) = (input.replicas, input.partition, input.max_unavailable);
    let (new, old) = (input.updated, input.old);
    let total_unavailable = new.pre_deleting + old.pre_deleting + new.unavailable + old.unavailable;
    let to_delete = new.to_delete + old.to_delete;

    let mut update_old = old.active() - p;
    let mut update_new = new.active() - (r - p);
    if !input.allow_rollback {
        update_old = update_old.max(0);
        update_new = update_new.min(0);
    }

    let (mut use_surge, mut use_surge_old) = (0, 0);
    if input.max_surge > 0 {
        let (mut scale_surge, mut scale_surge_old) = (0, 0);
        if to_delete > 0 {
            scale_surge = (total_unavailable + to_delete - u).max(0).min(to_delete);
            scale_surge_old = (scale_surge - new.to_delete).max(0);
        }
        let (mut update_surge, mut update_surge_old) = (0, 0);
        if (update_old > 0 && update_new < 0) || (update_old < 0 && update_new > 0) {
            if update_old.abs() <= update_new.abs() {
                update_surge = update_old.abs();
                if update_old < 0 {
                    update_surge_old = update_surge;
                }
            } else {
                update_surge = update_new.abs();
                if update_new > 0 {
                    update_surge_old = update_surge;
                }
            }
        }
        // Scale and update never happen in one round, so one kind of surge is used.
        let (surge, surge_old) = if scale_surge >= update_surge {
            (scale_surge, scale_surge_old)
        } else {
            (update_surge, update_surge_old)
        };
        use_surge = input.max_surge.min(surge);
        use_surge_old = use_surge.min(surge_old);
    }

    let excluded = |c: &ClassCounts| {
        if input.exclude_preparing_delete {
            c.pre_deleting
        } else {
            0
        }
    };
    let current_total = new.total + old.total - excluded(&new) - excluded(&old);
    let current_old = old.total - excluded(&old);
    let expected_total = r + use_surge;
    let expected_old = p + use_surge_old;

    let scale_up = (expected_total - current_total).max(0);
    let scale_up_old = (expected_old - current_old).max(0);
    let scale_up_limit = match input.scale_max_unavailable {
        Some(limit) => scale_up.min((limit - total_unavailable).max(0)),
        None => scale_up,
    };
    let scale_down = (current_total - to_delete - expected_total).max(0);
    let scale_down_old = (current_old - old.to_delete - expected_old).max(0);
    let active_pods = new.total + old.total;
    let delete_ready_limit = if to_delete > 0 || scale_down > 0 {
        (u + (active_pods - r) - total_unavailable).max(0)
    } else {
        0
    };
    let update_num = if update_old.abs() <= update_new.abs() {
        update_old
    } else {
        -update_new
    };
    let update_max_unavailable = if update_num != 0 { u + active_pods - r } else { 0 };

    Diffs {
        use_surge,
        use_surge_old,
        scale_up,
        scale_up_old,
        scale_up_limit,
        scale_down,
        scale_down_old,
        delete_ready_limit,
        update_num,
        update_max_unavailable,
    }
}

#[cfg(test)]
#[path = "diffs_tests.rs"]
mod tests;
