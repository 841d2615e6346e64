//! A PodUnavailableBudget's numbers, from the pods it counts and the status written before
//! (by the controller or the pod webhook). Pure.
//!
//! Invariants (upstream's):
//! - `desiredAvailable` is `expected − maxUnavailable` (a percentage of `expected`
//!   rounded up; never below 0), else `minAvailable` (an integer as is, a percentage of
//!   `expected` rounded up), else 0.
//! - `currentAvailable` counts the active pods that are available to the budget
//!   ([`available_to_budget`]) and not recorded in `disruptedPods` or `unavailablePods`;
//!   `unavailableAllowed` is `currentAvailable − desiredAvailable`, never below 0.
//! - A recorded pod stays recorded while it is active and younger than its timeout
//!   ([`DELETION_TIMEOUT`] for a disruption, [`UPDATE_TIMEOUT`] for an update); a pod gone
//!   or inactive is forgotten; a disruption that timed out on a pod still there is
//!   forgotten with a `NotDeleted` warning. The round comes back at the first expiry.
use std::collections::BTreeMap;
use std::time::Duration;

use k8s_openapi::api::core::v1::Pod;
use k8s_openapi::apimachinery::pkg::apis::meta::v1::Time;
use k8s_openapi::apimachinery::pkg::util::intstr::IntOrString;
use k8s_openapi::jiff::{SignedDuration, Timestamp};
use kube::ResourceExt;

use crate::api::podunavailablebudget::{PodUnavailableBudget, PodUnavailableBudgetStatus};
use crate::runtime::inplace::state::{InPlaceUpdateState, is_update_complete};
use crate::workloads::common::availability::{is_active, running_ready};
use crate::workloads::common::int_or_percent::{Amount, Rounding, parse, percent_of};
use crate::workloads::sidecarset::inject::{INJECTED_ENV, INJECTED_LIST_ANNOTATION};
use crate::workloads::sidecarset::pod_facts::{spec_image, states, status_of};

/// How long a pod whose deletion or eviction was admitted may take to go.
pub const DELETION_TIMEOUT: Duration = Duration::from_secs(20);
/// How long a pod whose update was admitted counts as unavailable without looking.
pub const UPDATE_TIMEOUT: Duration = Duration::from_secs(10);
/// A label with this prefix makes a pod unavailable to budgets and Kruise workloads alike,
/// however ready it is.
pub const UNAVAILABLE_LABEL_PREFIX: &str = "unavailable-pod.kruise.io/";

/// Whether `pod` carries an unavailable label.
pub fn labelled_unavailable(pod: &Pod) -> bool {
    pod.labels()
        .keys()
        .any(|k| k.starts_with(UNAVAILABLE_LABEL_PREFIX))
}

/// Running, Ready, not terminating and not labelled unavailable.
pub fn ready_to_budget(pod: &Pod) -> bool {
    running_ready(pod) && pod.metadata.deletion_timestamp.is_none() && !labelled_unavailable(pod)
}

/// Whether `pod` runs what its spec names: every digest image by its imageID; else its
/// in-place update (if any) complete and its injected sidecars not left on the image an
/// in-place sidecar upgrade replaced.
pub fn consistent(pod: &Pod) -> bool {
    let containers = pod
        .spec
        .as_ref()
        .map(|s| s.containers.as_slice())
        .unwrap_or_default();
    let digest = |image: &str| image.contains("@sha256:");
    let all_digest = containers.iter().all(|c| c.image.as_deref().is_some_and(digest));
    let digests_match = containers
        .iter()
        .filter_map(|c| Some((c.name.as_str(), c.image.as_deref().filter(|i| digest(i))?)))
        .all(|(name, image)| {
            let wanted = image.rsplit('@').next().unwrap_or(image);
            status_of(pod, name).is_some_and(|s| s.image_id.ends_with(wanted))
        });
    if !digests_match {
        return false;
    }
    if all_digest {
        return true;
    }
    sidecars_consistent(pod)
        && match InPlaceUpdateState::of(pod) {
            None => true,
            Some(Ok(state)) => is_update_complete(pod, &state),
            Some(Err(_)) => false,
        }
}

/// No injected sidecar still reports the imageID recorded before its in-place upgrade while
/// its spec names another image.
fn sidecars_consistent(pod: &Pod) -> bool {
    let sets: Vec<&str> = pod
        .annotations()
        .get(INJECTED_LIST_ANNOTATION)
        .map(|list| list.split(',').filter(|s| !s.is_empty()).collect())
        .unwrap_or_default();
    if sets.is_empty() {
        return true;
    }
    let recorded = states(pod);
    let before: BTreeMap<&str, &str> = sets
        .iter()
        .filter_map(|set| recorded.get(*set))
        .flat_map(|state| state.last_container_statuses.iter())
        .map(|(name, status)| (name.as_str(), status.image_id.as_str()))
        .collect();
    let mut injected = pod.spec.iter().flat_map(|s| &s.containers).filter(|c| {
        c.env
            .iter()
            .flatten()
            .any(|e| e.name == INJECTED_ENV && e.value.as_deref() == Some("true"))
    });
    injected.all(|c| {
        let Some(status) = status_of(pod, &c.name) else {
            return true;
        };
        let unchanged = before.get(c.name.as_str()) == Some(&status.image_id.as_str());
        !(unchanged && spec_image(pod, &c.name) != Some(status.image.as_str()))
    })
}

/// Ready and consistent: what the budget counts as available.
pub fn available_to_budget(pod: &Pod) -> bool {
    ready_to_budget(pod) && consistent(pod)
}

/// `desiredAvailable` for `expected` pods; Err names the field whose value is not an
/// int-or-percent.
pub fn desired_available(budget: &PodUnavailableBudget, expected: i32) -> Result<i32, String> {
    let scaled = |field: &'static str, value: &IntOrString| -> Result<i64, String> {
        Ok(match parse(field, value).map_err(|e| e.to_string())? {
            Amount::Int(n) => n,
            Amount::Percent(p) => percent_of(i64::from(expected), p, Rounding::Up),
        })
    };
    let desired = if let Some(max) = &budget.spec.max_unavailable {
        (i64::from(expected) - scaled("spec.maxUnavailable", max)?).max(0)
    } else if let Some(min) = &budget.spec.min_available {
        scaled("spec.minAvailable", min)?
    } else {
        0
    };
    Ok(i32::try_from(desired).unwrap_or(i32::MAX))
}

/// A recorded pod forgotten with a warning.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NotDeleted {
    pub pod: String,
}

/// The budget's new status, its warnings, and when to look again.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Counted {
    pub status: PodUnavailableBudgetStatus,
    pub not_deleted: Vec<NotDeleted>,
    pub recheck_in: Option<Duration>,
}

/// The entries of `recorded` still owed: their pod is among `active`, younger than
/// `timeout`; with the expired ones whose pod is still there and the first expiry.
fn still_recorded(
    recorded: Option<&BTreeMap<String, Time>>,
    active: &BTreeMap<&str, &Pod>,
    timeout: Duration,
    now: Timestamp,
) -> (BTreeMap<String, Time>, Vec<String>, Option<Duration>) {
    let (mut kept, mut expired, mut first) = (BTreeMap::new(), Vec::new(), None::<Duration>);
    let timeout = SignedDuration::try_from(timeout).unwrap_or(SignedDuration::MAX);
    for (name, since) in recorded.into_iter().flatten() {
        if !active.contains_key(name.as_str()) {
            continue;
        }
        let left = timeout - now.duration_since(since.0);
        match Duration::try_from(left) {
            Ok(left) if !left.is_zero() => {
                kept.insert(name.clone(), since.clone());
                first = Some(first.map_or(left, |f| f.min(left)));
            }
            _ => expired.push(name.clone()),
        }
    }
    (kept, expired, first)
}

/// The status of `budget` over `pods` (those it counts, any state), `expected` pods in all.
pub fn count(
    budget: &PodUnavailableBudget,
    pods: &[&Pod],
    expected: i32,
    now: Timestamp,
) -> Result<Counted, String> {
    let desired = desired_available(budget, expected)?;
    let active: BTreeMap<&str, &Pod> = pods
        .iter()
        .filter(|p| is_active(p))
        .map(|p| (p.metadata.name.as_deref().unwrap_or_default(), *p))
        .collect();
    let before = budget.status.as_ref();
    let (disrupted, not_deleted, first_disruption) = still_recorded(
        before.and_then(|s| s.disrupted_pods.as_ref()),
        &active,
        DELETION_TIMEOUT,
        now,
    );
    let (unavailable, _, first_update) = still_recorded(
        before.and_then(|s| s.unavailable_pods.as_ref()),
        &active,
        UPDATE_TIMEOUT,
        now,
    );
    let current = active
        .iter()
        .filter(|(name, _)| !disrupted.contains_key(**name) && !unavailable.contains_key(**name))
        .filter(|(_, pod)| available_to_budget(pod))
        .count();
    let current = i32::try_from(current).unwrap_or(i32::MAX);
    let recheck_in = [first_disruption, first_update].into_iter().flatten().min();
    Ok(Counted {
        status: PodUnavailableBudgetStatus {
            observed_generation: budget.metadata.generation.unwrap_or_default(),
            disrupted_pods: Some(disrupted).filter(|m| !m.is_empty()),
            unavailable_pods: Some(unavailable).filter(|m| !m.is_empty()),
            unavailable_allowed: (current - desired).max(0),
            current_available: current,
            desired_available: desired,
            total_replicas: expected,
            conditions: None,
        },
        not_deleted: not_deleted.into_iter().map(|pod| NotDeleted { pod }).collect(),
        recheck_in,
    })
}

#[cfg(test)]
#[path = "budget_tests.rs"]
pub(super) mod tests;
