//! The update scatter strategy (`updateStrategy.scatterStrategy`, CloneSet and SidecarSet): after the default and
//! priority orders, spread the pods that carry a given label evenly through the update
//! order instead of letting them be updated back to back. Pure: works on indices into
//! the label maps of the set's pods.
//!
//! Invariants:
//! - the result is a permutation of the candidates (nothing added, dropped or repeated);
//! - a term that fewer than two candidates match, or that fewer than two candidates miss,
//!   leaves the order unchanged;
//! - within the matched pods, and within the unmatched pods, the incoming order is kept:
//!   a term only interleaves the two runs, except that when it applies the last matched
//!   candidate moves to the very end.
//!
//! Which terms apply: a single term is applied as is; of several, only those that at
//! least one candidate matches (label present with exactly that value), the most matched
//! first, ties in spec order, each applied to the order the previous one produced.
//!
//! One term, with the candidates split into matched `mc` and unmatched `uc` (in order)
//! and the whole set's pods into `mt` matched and `ut` unmatched:
//! 1. hold back the last matched candidate (it goes last); `mc` and `mt` lose one each;
//! 2. `split(m, u)` gives `min(m, u)` rounds of `m / rounds` matched and `u / rounds`
//!    unmatched pods, both rounded half up;
//! 3. if the set is at least as sparse in matched pods as the candidates
//!    (`ut / mt >= |uc| / |mc|`), use `split(|mc|, |uc|)` with nothing up front; otherwise
//!    keep the set's density, `split(mt, ut)`'s round sizes, with as many whole rounds as
//!    the candidates fill and the unmatched pods left over put up front;
//! 4. emit: the up-front unmatched, the rounds (matched then unmatched, a round short of
//!    pods takes what is left), the matched left over, the unmatched left over, the held
//!    back pod.
//!
//! Worked example, six candidates labelled `[-, -, -, A, A, A]`, all of the set: pod 5 is
//! held back; `ut/mt = 3/2 >= |uc|/|mc| = 3/2`, so `split(2, 3)` = 2 rounds of 1 matched
//! and 2 unmatched: `[3, 0, 1]`, `[4, 2]` (short), then `5`, giving `[3, 0, 1, 4, 2, 5]`.
//!
//! Two upstream details kept on purpose: the density comparison is done in `f32` as
//! upstream does (identical to exact arithmetic for any set of under 5,000 pods); and
//! when a term is applied, a pod without the label key reads as having the empty value,
//! so a term with an empty value matches pods lacking the key, although choosing among
//! several terms counts only pods that have the key.
use std::cmp::Reverse;
use std::collections::BTreeMap;

use k8s_openapi::api::core::v1::Pod;

use crate::api::common::UpdateScatterTerm;

static NO_LABELS: BTreeMap<String, String> = BTreeMap::new();

/// Reorders `candidates`, indices into `pods` in the order they would be updated, by the
/// scatter `terms`. `pods` holds the labels of every pod of the set, candidates or not
/// (the set's density of matched pods steers the spacing).
///
/// Every candidate should index `pods` once; an index out of range is treated as an
/// unlabelled pod and never panics.
pub fn scatter(
    candidates: &[usize],
    pods: &[&BTreeMap<String, String>],
    terms: &[UpdateScatterTerm],
) -> Vec<usize> {
    let mut order = candidates.to_vec();
    if order.len() <= 1 {
        return order;
    }
    for term in terms_to_apply(&order, pods, terms) {
        order = scatter_by_term(&order, pods, term);
    }
    order
}

fn labels_of<'p>(pods: &[&'p BTreeMap<String, String>], index: usize) -> &'p BTreeMap<String, String> {
    pods.get(index).copied().unwrap_or(&NO_LABELS)
}

/// Term selection: the label key must be present with exactly the term's value.
fn carries(labels: &BTreeMap<String, String>, term: &UpdateScatterTerm) -> bool {
    labels.get(&term.key) == Some(&term.value)
}

/// Term application: a missing key reads as the empty value.
fn matches(labels: &BTreeMap<String, String>, term: &UpdateScatterTerm) -> bool {
    labels.get(&term.key).map_or("", String::as_str) == term.value
}

/// The terms in the order they are applied (see the module doc).
fn terms_to_apply<'t>(
    candidates: &[usize],
    pods: &[&BTreeMap<String, String>],
    terms: &'t [UpdateScatterTerm],
) -> Vec<&'t UpdateScatterTerm> {
    if terms.len() == 1 {
        return terms.iter().collect();
    }
    let mut counted: Vec<(&UpdateScatterTerm, usize)> = Vec::new();
    for term in terms {
        let carriers = candidates
            .iter()
            .filter(|&&i| carries(labels_of(pods, i), term))
            .count();
        if carriers == 0 {
            continue;
        }
        // A term repeated in the spec (the webhook forbids it) counts once per repetition.
        match counted
            .iter_mut()
            .find(|(seen, _)| seen.key == term.key && seen.value == term.value)
        {
            Some((_, count)) => *count += carriers,
            None => counted.push((term, carriers)),
        }
    }
    counted.sort_by_key(|&(_, count)| Reverse(count));
    counted.into_iter().map(|(term, _)| term).collect()
}

/// How one term lays the candidates out.
#[derive(Debug, PartialEq, Eq)]
struct Layout {
    unmatched_up_front: usize,
    rounds: usize,
    matched_per_round: usize,
    unmatched_per_round: usize,
}

/// `a / b` rounded half up; `b > 0`.
fn divide_rounding_half_up(a: usize, b: usize) -> usize {
    (2 * a + b) / (2 * b)
}

/// `min(matched, unmatched)` rounds sharing both counts out evenly; both counts `> 0`.
fn even_split(matched: usize, unmatched: usize) -> Layout {
    let rounds = matched.min(unmatched);
    Layout {
        unmatched_up_front: 0,
        rounds,
        matched_per_round: divide_rounding_half_up(matched, rounds),
        unmatched_per_round: divide_rounding_half_up(unmatched, rounds),
    }
}

/// All counts `> 0`, candidates no more than the set.
fn layout(
    matched_in_set: usize,
    unmatched_in_set: usize,
    matched_candidates: usize,
    unmatched_candidates: usize,
) -> Layout {
    let set_sparseness = unmatched_in_set as f32 / matched_in_set as f32;
    let candidate_sparseness = unmatched_candidates as f32 / matched_candidates as f32;
    if set_sparseness >= candidate_sparseness {
        return even_split(matched_candidates, unmatched_candidates);
    }
    let set_split = even_split(matched_in_set, unmatched_in_set);
    let rounds = (matched_candidates / set_split.matched_per_round)
        .min(unmatched_candidates / set_split.unmatched_per_round);
    Layout {
        unmatched_up_front: unmatched_candidates - rounds * set_split.unmatched_per_round,
        rounds,
        ..set_split
    }
}

fn scatter_by_term(
    order: &[usize],
    pods: &[&BTreeMap<String, String>],
    term: &UpdateScatterTerm,
) -> Vec<usize> {
    let (mut matched, unmatched): (Vec<usize>, Vec<usize>) =
        order.iter().partition(|&&i| matches(labels_of(pods, i), term));
    if matched.len() <= 1 || unmatched.len() <= 1 {
        return order.to_vec();
    }
    let matched_in_set = pods.iter().filter(|labels| matches(labels, term)).count();
    let unmatched_in_set = pods.len() - matched_in_set;
    // Valid input has the candidates inside the set; the clamps keep odd input in range.
    let matched_in_set = matched_in_set.max(matched.len());
    let unmatched_in_set = unmatched_in_set.max(unmatched.len());
    let Some(held_back) = matched.pop() else {
        return order.to_vec();
    };
    let layout = layout(
        matched_in_set - 1,
        unmatched_in_set,
        matched.len(),
        unmatched.len(),
    );

    let mut scattered = Vec::with_capacity(order.len());
    let mut matched = matched.into_iter();
    let mut unmatched = unmatched.into_iter();
    scattered.extend(unmatched.by_ref().take(layout.unmatched_up_front));
    for _ in 0..layout.rounds {
        scattered.extend(matched.by_ref().take(layout.matched_per_round));
        scattered.extend(unmatched.by_ref().take(layout.unmatched_per_round));
    }
    scattered.extend(matched);
    scattered.extend(unmatched);
    scattered.push(held_back);
    scattered
}

/// The scatter order of update candidates (`names` in their current order; `all` is every
/// active pod of the set, whose labels set the density of each term).
pub fn order(names: Vec<String>, all: &[&Pod], terms: &[UpdateScatterTerm]) -> Vec<String> {
    let empty = BTreeMap::new();
    let labels: Vec<&BTreeMap<String, String>> = all
        .iter()
        .map(|p| p.metadata.labels.as_ref().unwrap_or(&empty))
        .collect();
    let index: Vec<usize> = names
        .iter()
        .filter_map(|n| {
            all.iter()
                .position(|p| p.metadata.name.as_deref() == Some(n.as_str()))
        })
        .collect();
    if index.len() != names.len() {
        // Every candidate is an active pod; anything else keeps the order as it is.
        return names;
    }
    scatter(&index, &labels, terms)
        .into_iter()
        .filter_map(|i| all.get(i).and_then(|p| p.metadata.name.clone()))
        .collect()
}

#[cfg(test)]
#[path = "scatter_tests.rs"]
mod tests;
