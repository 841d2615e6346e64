//! Which ordinals an Advanced StatefulSet wants, and where each existing pod falls
//! (a replica to keep, a condemned pod, or not one of ours). Pure.
//!
//! ```text
//! start 0, replicas 3, reserveOrdinals [0, "2-5"]
//!   ordinal   0   1   2   3   4   5   6   7   8 ...
//!   reserved  x       x   x   x   x
//!   valid         1                   6   7        → pods web-1, web-6, web-7
//!   a pod web-4 or web-9 is condemned; a pod web-07 or db-1 is not ours (unparsable)
//! ```
//!
//! Invariants:
//! - [`valid_ordinals`] returns exactly `replicas` ordinals, ascending, distinct, all
//!   `>= start` and none reserved; fewer only when the ordinals run out at `i32::MAX`.
//! - A reserved list with any bad entry (negative int, string other than `"a-b"` with
//!   `0 <= a <= b`) reserves nothing at all: [`ReservedOrdinals::parse`] says why so the
//!   caller can raise an event, [`ReservedOrdinals::lenient`] just drops it.
//! - [`parse_ordinal`] accepts only the canonical name `<set>-<decimal>` (no sign, no leading
//!   zero), so it is the exact inverse of `identity::pod_name`: at most one pod name maps to
//!   an ordinal and no two pods can claim the same identity.
//! - [`split`] puts each pod in exactly one of replicas, condemned or unparsable.
use std::collections::btree_map::Entry;
use std::collections::{BTreeMap, BTreeSet};
use std::ops::RangeInclusive;

use k8s_openapi::api::core::v1::Pod;
use kube::ResourceExt;

use crate::api::common::IntOrString;
use crate::api::statefulset::v1beta1::StatefulSet;
use crate::api::statefulset::{PodManagementPolicy, StatefulSetUpdateStrategyType};

/// Why a `reserveOrdinals` list was ignored as a whole.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BadReserve {
    #[error("reserveOrdinals entry {0} is negative; the whole list is ignored")]
    Negative(i32),
    #[error("reserveOrdinals entry {0:?} is not a range \"a-b\" with 0 <= a <= b; the whole list is ignored")]
    Malformed(String),
}

impl BadReserve {
    /// A short stable reason, for events and metrics.
    pub fn reason(&self) -> &'static str {
        match self {
            BadReserve::Negative(_) => "NegativeReserveOrdinal",
            BadReserve::Malformed(_) => "MalformedReserveOrdinals",
        }
    }
}

/// The reserved ordinals, kept as sorted, disjoint, non-adjacent inclusive ranges so that a
/// range like `"0-2000000000"` costs nothing.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ReservedOrdinals {
    ranges: Vec<RangeInclusive<i32>>,
}

impl ReservedOrdinals {
    /// Parses `spec.reserveOrdinals`: ints, and strings `"a-b"` (inclusive, decimal digits
    /// only, as the CRD schema's pattern demands; a lone number as a string is malformed).
    pub fn parse(entries: &[IntOrString]) -> Result<Self, BadReserve> {
        let mut ranges = entries.iter().map(entry_range).collect::<Result<Vec<_>, _>>()?;
        ranges.sort_by_key(|r| *r.start());
        let mut merged: Vec<RangeInclusive<i32>> = Vec::with_capacity(ranges.len());
        for range in ranges {
            match merged.last_mut() {
                // Overlapping or adjacent (`end + 1 >= start`, computed without overflow).
                Some(last) if *range.start() <= last.end().saturating_add(1) => {
                    *last = *last.start()..=(*last.end()).max(*range.end());
                }
                _ => merged.push(range),
            }
        }
        Ok(ReservedOrdinals { ranges: merged })
    }

    /// [`ReservedOrdinals::parse`], reserving nothing when the list is bad.
    pub fn lenient(entries: &[IntOrString]) -> Self {
        Self::parse(entries).unwrap_or_default()
    }

    /// The set's `spec.reserveOrdinals` (absent = nothing reserved).
    pub fn of(set: &StatefulSet) -> Result<Self, BadReserve> {
        Self::parse(set.spec.reserve_ordinals.as_deref().unwrap_or_default())
    }

    pub fn contains(&self, ordinal: i32) -> bool {
        self.covering(ordinal).is_some()
    }

    pub fn is_empty(&self) -> bool {
        self.ranges.is_empty()
    }

    /// The reserved range holding `ordinal`, if any.
    fn covering(&self, ordinal: i32) -> Option<&RangeInclusive<i32>> {
        let after = self.ranges.partition_point(|r| *r.start() <= ordinal);
        after
            .checked_sub(1)
            .and_then(|i| self.ranges.get(i))
            .filter(|r| r.contains(&ordinal))
    }
}

fn entry_range(entry: &IntOrString) -> Result<RangeInclusive<i32>, BadReserve> {
    match entry {
        IntOrString::Int(i) if *i < 0 => Err(BadReserve::Negative(*i)),
        IntOrString::Int(i) => Ok(*i..=*i),
        IntOrString::String(s) => {
            let malformed = || BadReserve::Malformed(s.clone());
            let (a, b) = s.split_once('-').ok_or_else(malformed)?;
            let (a, b) = (digits(a).ok_or_else(malformed)?, digits(b).ok_or_else(malformed)?);
            if a > b {
                return Err(malformed());
            }
            Ok(a..=b)
        }
    }
}

/// A non-empty run of ASCII digits that fits an `i32` (leading zeros allowed).
fn digits(s: &str) -> Option<i32> {
    if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    s.parse().ok()
}

/// The first ordinal (`spec.ordinals.start`, default 0; a negative value counts as 0).
pub fn start_ordinal(set: &StatefulSet) -> i32 {
    set.spec
        .ordinals
        .as_ref()
        .and_then(|o| o.start)
        .unwrap_or(0)
        .max(0)
}

/// The ordinals the set wants: from `start` (negative counts as 0) upwards, skipping
/// reserved ones, until `replicas` are collected. Ascending.
///
/// Example: start 0, replicas 3, reserved `[1]` → `[0, 2, 3]`; reserved `[0, "2-5"]` →
/// `[1, 6, 7]`. A reserved range is jumped over in one step, so its width costs nothing.
pub fn valid_ordinals(start: i32, replicas: i32, reserved: &ReservedOrdinals) -> Vec<i32> {
    let wanted = usize::try_from(replicas).unwrap_or(0);
    let mut ordinals = Vec::with_capacity(wanted.min(1024));
    let mut next = Some(start.max(0));
    while let Some(ordinal) = next
        && ordinals.len() < wanted
    {
        match reserved.covering(ordinal) {
            Some(range) => next = range.end().checked_add(1),
            None => {
                ordinals.push(ordinal);
                next = ordinal.checked_add(1);
            }
        }
    }
    ordinals
}

/// The ordinal of pod `pod_name` of set `set_name`: the name must be exactly
/// `<set>-<n>` with `n` a canonical non-negative decimal that fits an `i32`.
///
/// Native Kubernetes splits at the last dash and parses with leading zeros allowed, so it
/// reads `web-01` as ordinal 1 although that ordinal's pod is `web-1`. Here `web-01`,
/// `web-+1`, `web-` and `web-1a` are all `None`: a pod that could not have been created by
/// the set for that ordinal is never taken for it.
pub fn parse_ordinal(set_name: &str, pod_name: &str) -> Option<i32> {
    let suffix = pod_name.strip_prefix(set_name)?.strip_prefix('-')?;
    let canonical = suffix == "0" || !suffix.starts_with('0');
    if canonical { digits(suffix) } else { None }
}

/// The pods of a set sorted by role.
#[derive(Debug, Default, PartialEq)]
pub struct Split<'p> {
    /// Pods whose ordinal is one of the valid ordinals, by ordinal.
    pub replicas: BTreeMap<i32, &'p Pod>,
    /// Pods with a parseable ordinal that is not valid (scaled away or reserved), highest
    /// ordinal first: the order they are deleted in.
    pub condemned: Vec<&'p Pod>,
    /// Pods whose name is not `<set>-<ordinal>`, in input order. Also, only when the input
    /// holds two pods of the same name (it mixes namespaces), the later one.
    pub unparsable: Vec<&'p Pod>,
}

/// Sorts `pods` into replicas, condemned and unparsable against the `valid` ordinals (as
/// returned by [`valid_ordinals`]; their order does not matter here).
pub fn split<'p>(pods: &'p [Pod], set_name: &str, valid: &[i32]) -> Split<'p> {
    let valid: BTreeSet<i32> = valid.iter().copied().collect();
    let mut split = Split::default();
    let mut condemned: BTreeMap<i32, &Pod> = BTreeMap::new();
    for pod in pods {
        let Some(ordinal) = parse_ordinal(set_name, &pod.name_any()) else {
            split.unparsable.push(pod);
            continue;
        };
        let slot = if valid.contains(&ordinal) {
            &mut split.replicas
        } else {
            &mut condemned
        };
        match slot.entry(ordinal) {
            Entry::Vacant(free) => {
                free.insert(pod);
            }
            Entry::Occupied(_) => split.unparsable.push(pod),
        }
    }
    split.condemned = condemned.into_values().rev().collect();
    split
}

/// How the set rolls pods to the update revision, as far as choosing a missing pod's
/// revision is concerned.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UpdateMode {
    /// `updateStrategy.type: OnDelete`.
    OnDelete,
    /// Rolling update by ordinal (the default).
    Ordered,
    /// Rolling update with `unorderedUpdate` under `Parallel` pod management.
    Unordered,
}

impl UpdateMode {
    /// The set's mode. `unorderedUpdate` without `Parallel` is rejected at admission and is
    /// treated as ordered here.
    pub fn of(set: &StatefulSet) -> Self {
        let strategy = set.spec.update_strategy.as_ref();
        if strategy.and_then(|s| s.type_) == Some(StatefulSetUpdateStrategyType::OnDelete) {
            return UpdateMode::OnDelete;
        }
        let unordered = strategy
            .and_then(|s| s.rolling_update.as_ref())
            .is_some_and(|r| r.unordered_update.is_some());
        let parallel = set.spec.pod_management_policy == Some(PodManagementPolicy::Parallel);
        if unordered && parallel {
            UpdateMode::Unordered
        } else {
            UpdateMode::Ordered
        }
    }
}

/// Which of the two revisions a pod is created at.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RevisionChoice {
    Current,
    Update,
}

/// The revision a missing replica is created at.
///
/// - `position`: the replica's 0-based index among the valid ordinals (ordered mode).
/// - `partition`: `rollingUpdate.partition`, the number of pods kept at the current revision
///   (negative counts as 0).
/// - `others_not_updated`: how many OTHER pods of the set are not at the update revision
///   (unordered mode).
///
/// Worked example, partition 2, valid ordinals `[0, 2, 3]`: ordered, a missing `web-2` has
/// position 1 < 2 → current, a missing `web-3` has position 2 → update. Unordered, with one
/// other pod not updated the missing pod is current (1 < 2), with two it is update: the
/// partition already holds two current pods.
pub fn revision_for_missing(
    mode: UpdateMode,
    position: usize,
    partition: i32,
    others_not_updated: usize,
) -> RevisionChoice {
    let partition = usize::try_from(partition).unwrap_or(0);
    let keep_current = match mode {
        UpdateMode::OnDelete => false,
        UpdateMode::Ordered => position < partition,
        UpdateMode::Unordered => others_not_updated < partition,
    };
    if keep_current {
        RevisionChoice::Current
    } else {
        RevisionChoice::Update
    }
}

#[cfg(test)]
#[path = "ordinals_tests.rs"]
mod tests;
