//! How a UnitedDeployment's `spec.replicas` is split between its topology subsets, as
//! upstream's allocators split it. Pure: the caller passes what it knows of each subset's
//! workload ([`SubsetNow`]) and gets the replicas every subset's workload should have.
//!
//! Four allocators, chosen by [`allocator_for`] in this order:
//! - **reservation**: `scheduleStrategy.type: Adaptive` with
//!   `adaptive.reserveUnschedulablePods: true`;
//! - **adaptive**: `scheduleStrategy.type: Adaptive`;
//! - **capacity**: some subset sets `minReplicas` or `maxReplicas`;
//! - **specific**: otherwise (`subsets[].replicas` fixed, the others share the rest).
//!
//! Invariants:
//! - every topology subset gets an entry, nothing else does; the result only depends on
//!   the spec and on the workloads named in the topology (with one entry per name in
//!   `now`, not on its order);
//! - specific, with `spec.replicas = R`: the result sums to `R`, fixed subsets get their
//!   value, the others differ by at most one, the larger shares going to the subsets that
//!   are currently largest (ties: the name later in byte order), so feeding a result back
//!   as the current sizes reproduces it. Fixed subsets adding up to more than `R`, or to
//!   less with no subset left to take the rest, are errors; so is a subset without a
//!   fixed integer when `spec.replicas` is unset;
//! - capacity: with bounds `[min, max]` (absent: `[0, 2^31-1]`; `min > max` is an error),
//!   subsets are filled to their `min` in topology order, then to their `max` in topology
//!   order; the result sums to `min(R, Σmax)` and each subset is within its bounds
//!   whenever `R >= Σmin`;
//! - adaptive: capacity with bounds narrowed by the existing workloads: an unschedulable
//!   subset's bounds become `[max(ready, min), min(ready, max)]` (a `min` above `ready`
//!   wins), a schedulable subset's `min` is raised to `min(ready, max)` so running pods
//!   are kept; subsets without a workload yet count as schedulable;
//! - reservation: the capacity passes, except that a subset that is unschedulable or
//!   still marked so (not *allocatable*) has room for `replicas - reserved` pods in all;
//!   what it is given past that room does not count against `R`, so later subsets get
//!   substitutes, and in the second pass an unschedulable subset is brought to its
//!   current size instead of its `max`.
//!
//! Numbers: a percentage is of `R` rounded half up (`50%` of 5 is 3) and must be at most
//! `100%`. A subset's `replicas` that does not parse (or a percentage with `R` unset)
//! reads as not fixed; a `minReplicas` / `maxReplicas` that does not parse reads as 0,
//! as upstream. With `R` unset, the min/max allocators use 0 (percentages are then 0).
//! Arithmetic is done in `i64`, so sums of large fixed values do not wrap.
//!
//! Worked example (specific, R = 5, current sizes t1 1, t2 4, t3 2, t4 2, nothing fixed):
//! sorted t1, t3, t4, t2; 5 / 4 = 1 remainder 1, so walking from the largest, t2 gets 2
//! and t4, t3, t1 get 1.
use std::collections::BTreeMap;

use crate::api::common::IntOrString;
use crate::api::uniteddeployment::{Subset, UnitedDeployment, UnitedDeploymentScheduleStrategyType};
use crate::workloads::common::int_or_percent::{self, Amount};

/// What the allocator knows of one subset's current workload.
///
/// A subset's workload exists when an entry with its name has `replicas: Some(_)`; the
/// other fields are only read for existing workloads. `Default` is a schedulable subset
/// with no workload.
#[derive(Debug, Clone, PartialEq)]
pub struct SubsetNow {
    /// Topology subset name.
    pub name: String,
    /// The workload's `spec.replicas` (`None`: no workload yet).
    pub replicas: Option<i32>,
    /// The workload's ready replicas (`None` reads as 0 for an existing workload).
    pub ready: Option<i32>,
    /// False when the adaptive bookkeeping found the subset unschedulable (default mode:
    /// pods pending past the critical time, within the unschedulable duration;
    /// reservation mode: it has reserved pods).
    pub schedulable: bool,
    /// Reservation mode: the subset's `Schedulable` condition was `False` before this
    /// round (a subset just recovered stays non-allocatable until its new pods run).
    pub marked_unschedulable: bool,
    /// Reservation mode: pods of the subset that are reserved (expected not to run).
    pub reserved: i32,
}

impl Default for SubsetNow {
    fn default() -> Self {
        Self {
            name: String::new(),
            replicas: None,
            ready: None,
            schedulable: true,
            marked_unschedulable: false,
            reserved: 0,
        }
    }
}

/// Which allocator splits a UnitedDeployment's replicas.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Allocator {
    /// Fixed `replicas` per subset, the rest shared evenly.
    Specific,
    /// `minReplicas` / `maxReplicas`, filled in topology order.
    Capacity,
    /// Capacity narrowed by schedulability and ready pods.
    Adaptive,
    /// Adaptive keeping unschedulable pods and placing substitutes elsewhere.
    Reservation,
}

/// The allocator upstream picks for `ud`.
pub fn allocator_for(ud: &UnitedDeployment) -> Allocator {
    let strategy = ud.spec.schedule_strategy();
    let adaptive = strategy.and_then(|s| s.type_) == Some(UnitedDeploymentScheduleStrategyType::Adaptive);
    let reserve = strategy
        .and_then(|s| s.adaptive.as_ref())
        .and_then(|a| a.reserve_unschedulable_pods)
        .unwrap_or(false);
    if adaptive && reserve {
        Allocator::Reservation
    } else if adaptive {
        Allocator::Adaptive
    } else if ud
        .spec
        .subsets()
        .iter()
        .any(|s| s.min_replicas.is_some() || s.max_replicas.is_some())
    {
        Allocator::Capacity
    } else {
        Allocator::Specific
    }
}

/// The replicas of every topology subset (by name), or why they cannot be split (the
/// message names the field, e.g. `spec.topology.subsets[1].maxReplicas: ...`).
pub fn allocate(ud: &UnitedDeployment, now: &[SubsetNow]) -> Result<BTreeMap<String, i32>, String> {
    let subsets = ud.spec.subsets();
    let workloads: Vec<Option<Workload>> = subsets.iter().map(|s| workload(now, &s.name)).collect();
    let total = ud.spec.replicas.map(i64::from);
    let replicas = match allocator_for(ud) {
        Allocator::Specific => specific(subsets, total, &workloads)?,
        Allocator::Capacity => capacity(subsets, total)?,
        Allocator::Adaptive => adaptive(subsets, total, &workloads)?,
        Allocator::Reservation => reservation(subsets, total, &workloads)?,
    };
    Ok(subsets
        .iter()
        .map(|s| s.name.clone())
        .zip(replicas.into_iter().map(saturate))
        .collect())
}

/// An existing subset workload, as the allocators read it.
#[derive(Debug, Clone, Copy)]
struct Workload {
    replicas: i64,
    ready: i64,
    unschedulable: bool,
    /// Neither unschedulable nor still marked so.
    allocatable: bool,
    reserved: i64,
}

/// The first entry of `now` naming an existing workload of subset `name`.
fn workload(now: &[SubsetNow], name: &str) -> Option<Workload> {
    let found = now.iter().find(|s| s.name == name && s.replicas.is_some())?;
    Some(Workload {
        replicas: found.replicas.map_or(0, i64::from),
        ready: found.ready.map_or(0, i64::from),
        unschedulable: !found.schedulable,
        allocatable: found.schedulable && !found.marked_unschedulable,
        reserved: i64::from(found.reserved),
    })
}

fn saturate(value: i64) -> i32 {
    i32::try_from(value).unwrap_or(if value < 0 { i32::MIN } else { i32::MAX })
}

/// `value` of `field` (`replicas`, `minReplicas`, `maxReplicas`) of subset `index`, a
/// percentage taken of `total` rounded half up.
fn resolve(
    index: usize,
    field: &'static str,
    value: &IntOrString,
    total: Option<i64>,
) -> Result<i64, String> {
    let at = |message: String| format!("spec.topology.subsets[{index}].{message}");
    match int_or_percent::parse(field, value).map_err(|e| at(e.to_string()))? {
        Amount::Int(n) => Ok(n),
        Amount::Percent(p) if p > 100 => Err(at(format!("{field}: {p}% is more than 100%"))),
        Amount::Percent(p) => match total {
            Some(total) => Ok(percent_of(total, p)),
            None => Err(at(format!("{field}: {p}% needs spec.replicas, which is unset"))),
        },
    }
}

/// `p`% of a non-negative `total`, rounded half up.
fn percent_of(total: i64, p: i64) -> i64 {
    int_or_percent::percent_of(total, p, int_or_percent::Rounding::HalfUp)
}

// ---- specific ----

/// A subset's `replicas` as the specific allocator reads it.
enum Fixed {
    Value(i64),
    /// Not fixed: absent, or the reason it could not be read.
    Free(Option<String>),
}

fn specific(
    subsets: &[Subset],
    total: Option<i64>,
    workloads: &[Option<Workload>],
) -> Result<Vec<i64>, String> {
    if let Some(total) = total.filter(|t| *t < 0) {
        return Err(format!("spec.replicas: {total} is negative"));
    }
    let fixed: Vec<Fixed> = subsets
        .iter()
        .enumerate()
        .map(|(index, subset)| match &subset.replicas {
            None => Fixed::Free(None),
            Some(value) => match resolve(index, "replicas", value, total) {
                Ok(n) => Fixed::Value(n),
                Err(why) => Fixed::Free(Some(why)),
            },
        })
        .collect();
    check_fixed(&fixed, total)?;
    Ok(share(
        &fixed,
        total.unwrap_or(0),
        &order_by_size(subsets, workloads),
    ))
}

fn fixed_sum(fixed: &[Fixed]) -> i64 {
    fixed
        .iter()
        .map(|f| if let Fixed::Value(n) = f { *n } else { 0 })
        .sum()
}

/// Refuses fixed values that cannot add up to `total`.
fn check_fixed(fixed: &[Fixed], total: Option<i64>) -> Result<(), String> {
    let sum = fixed_sum(fixed);
    let first_free = fixed.iter().position(|f| matches!(f, Fixed::Free(_)));
    match (total, first_free) {
        (Some(total), _) if sum > total => Err(format!(
            "spec.topology.subsets[*].replicas: the fixed replicas add up to {sum}, more than spec.replicas {total}"
        )),
        (Some(total), None) if sum < total && fixed.is_empty() => Err(format!(
            "spec.topology.subsets: no subset to hold spec.replicas {total}"
        )),
        (Some(total), None) if sum < total => Err(format!(
            "spec.topology.subsets[*].replicas: every subset is fixed and they add up to {sum}, \
             fewer than spec.replicas {total}"
        )),
        (None, Some(index)) => Err(match &fixed[index] {
            Fixed::Free(Some(why)) => {
                format!("{why}; every subset needs a fixed integer when spec.replicas is unset")
            }
            _ => format!("spec.topology.subsets[{index}].replicas: must be set when spec.replicas is unset"),
        }),
        _ => Ok(()),
    }
}

/// Subset indices by current workload size ascending (0 without a workload), ties by name.
fn order_by_size(subsets: &[Subset], workloads: &[Option<Workload>]) -> Vec<usize> {
    let size = |i: usize| workloads.get(i).copied().flatten().map_or(0, |w| w.replicas);
    let mut order: Vec<usize> = (0..subsets.len()).collect();
    order.sort_by(|&a, &b| {
        size(a)
            .cmp(&size(b))
            .then_with(|| subsets[a].name.cmp(&subsets[b].name))
    });
    order
}

/// Fixed subsets get their value; `total` minus those is split evenly between the free
/// ones, the remainder one each to the free subsets last in `order`.
fn share(fixed: &[Fixed], total: i64, order: &[usize]) -> Vec<i64> {
    let free = fixed.iter().filter(|f| matches!(f, Fixed::Free(_))).count();
    let mut result: Vec<i64> = fixed
        .iter()
        .map(|f| if let Fixed::Value(n) = f { *n } else { 0 })
        .collect();
    let Ok(free) = i64::try_from(free) else {
        return result;
    };
    if free == 0 {
        return result;
    }
    let rest = total - fixed_sum(fixed);
    let (each, mut extra) = (rest / free, rest % free);
    for &index in order
        .iter()
        .rev()
        .filter(|&&i| matches!(fixed[i], Fixed::Free(_)))
    {
        result[index] = each + i64::from(extra > 0);
        extra -= i64::from(extra > 0);
    }
    result
}

// ---- capacity, adaptive ----

/// A subset's `[min, max]`.
#[derive(Debug, Clone, Copy)]
struct Bounds {
    min: i64,
    max: i64,
}

/// Every subset's bounds from `minReplicas` / `maxReplicas` (percentages of `total`).
fn bounds(subsets: &[Subset], total: i64) -> Result<Vec<Bounds>, String> {
    let read = |index, field, value: &Option<IntOrString>, absent| {
        value
            .as_ref()
            .map_or(absent, |v| resolve(index, field, v, Some(total)).unwrap_or(0))
    };
    subsets
        .iter()
        .enumerate()
        .map(|(index, subset)| {
            let min = read(index, "minReplicas", &subset.min_replicas, 0);
            let max = read(index, "maxReplicas", &subset.max_replicas, i64::from(i32::MAX));
            if min > max {
                Err(format!(
                    "spec.topology.subsets[{index}].maxReplicas: {max} is less than minReplicas {min}"
                ))
            } else {
                Ok(Bounds { min, max })
            }
        })
        .collect()
}

/// The total the min/max allocators split: upstream reads an unset `spec.replicas` as 0;
/// a negative one (refused by the CRD) is read as 0 too.
fn min_max_total(total: Option<i64>) -> i64 {
    total.unwrap_or(0).max(0)
}

fn capacity(subsets: &[Subset], total: Option<i64>) -> Result<Vec<i64>, String> {
    let total = min_max_total(total);
    Ok(fill(&bounds(subsets, total)?, total))
}

fn adaptive(
    subsets: &[Subset],
    total: Option<i64>,
    workloads: &[Option<Workload>],
) -> Result<Vec<i64>, String> {
    let total = min_max_total(total);
    let mut bounds = bounds(subsets, total)?;
    narrow(&mut bounds, workloads);
    Ok(fill(&bounds, total))
}

/// The adaptive narrowing of `bounds` by the existing workloads.
fn narrow(bounds: &mut [Bounds], workloads: &[Option<Workload>]) {
    for (b, w) in bounds.iter_mut().zip(workloads) {
        let Some(w) = w else { continue };
        if w.unschedulable {
            *b = Bounds {
                min: b.min.max(w.ready),
                max: b.max.min(w.ready),
            };
        } else if w.ready > b.min {
            b.min = w.ready.min(b.max);
        }
    }
}

/// Fills subsets to their `min`, then to their `max`, in topology order, until `total`
/// is used up. A subset whose `min` exceeds its `max` keeps its `min`.
fn fill(bounds: &[Bounds], total: i64) -> Vec<i64> {
    let mut left = total;
    let mut take = |want: i64| {
        let got = want.min(left).max(0);
        left -= got;
        got
    };
    let mut result: Vec<i64> = bounds.iter().map(|b| take(b.min)).collect();
    for (r, b) in result.iter_mut().zip(bounds) {
        *r += take(b.max - b.min);
    }
    result
}

// ---- reservation ----

/// A subset's running tally in the reservation allocator.
struct Tally {
    allocated: i64,
    /// Pods the subset can still be expected to run; negative: that many given pods are
    /// expected not to.
    room: i64,
}

impl Tally {
    /// Unlimited room, unless the subset's workload is not allocatable: then its pods
    /// that are not reserved.
    fn new(workload: &Option<Workload>) -> Self {
        let room = match workload {
            Some(w) if !w.allocatable => w.replicas - w.reserved,
            _ => i64::from(i32::MAX),
        };
        Self { allocated: 0, room }
    }

    /// Moves the subset to `to` (less than now for an unschedulable subset above its
    /// current size), by at most `left`; returns how much of `left` that uses up, which
    /// leaves out the pods given past the subset's room.
    fn move_to(&mut self, to: i64, left: i64) -> i64 {
        let step = (to - self.allocated).min(left);
        self.allocated += step;
        self.room -= step;
        if self.room < 0 {
            (step + self.room).max(0)
        } else {
            step
        }
    }
}

fn reservation(
    subsets: &[Subset],
    total: Option<i64>,
    workloads: &[Option<Workload>],
) -> Result<Vec<i64>, String> {
    let total = min_max_total(total);
    let bounds = bounds(subsets, total)?;
    let mut tallies: Vec<Tally> = workloads.iter().map(Tally::new).collect();
    let first: Vec<i64> = bounds.iter().map(|b| b.min).collect();
    // Second pass: up to `max`, or an unschedulable subset to its current size.
    let second: Vec<i64> = bounds
        .iter()
        .zip(workloads)
        .map(|(b, w)| match w {
            Some(w) if w.unschedulable => w.replicas,
            _ => b.max,
        })
        .collect();
    let mut left = total;
    'passes: for targets in [first, second] {
        for (tally, to) in tallies.iter_mut().zip(targets) {
            left -= tally.move_to(to, left);
            if left <= 0 {
                break 'passes;
            }
        }
    }
    Ok(tallies.into_iter().map(|t| t.allocated).collect())
}

#[cfg(test)]
#[path = "allocate_tests.rs"]
mod tests;
