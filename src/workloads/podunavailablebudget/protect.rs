//! Whether an operation on a pod may go ahead under the budget that counts it, and the
//! status that records it. Pure: the pod webhook and our own controllers ask this, then
//! write the status before the operation (a refused write refuses the operation).
//!
//! Invariants (upstream's order of checks):
//! - Not the budget's to judge: a pod annotated `pub.kruise.io/no-protect: "true"`, one its
//!   `ignoredPodSelector` selects, one not ready or not consistent (it is unavailable
//!   already), a budget that wants no pod available (`desiredAvailable` 0, which is also
//!   a budget the controller has not counted yet), an operation it does not protect, a pod
//!   it already records.
//! - Otherwise allowed only while `unavailableAllowed > 0` and fewer than
//!   [`MAX_RECORDED`] pods are recorded; allowing records the pod (an update in
//!   `unavailablePods`, a deletion or eviction in `disruptedPods`) and takes one from
//!   `unavailableAllowed`, so two operations judged on the same status cannot both take
//!   the last unit: the second write conflicts and is judged again on the new status.
//! - A refusal names the budget, the operation and the pod, with the numbers.
use kube::ResourceExt;
use kube::core::{Selector, SelectorExt};

use super::budget::{consistent, ready_to_budget};
use crate::api::podunavailablebudget::{
    NO_PROTECT_ANNOTATION, PodUnavailableBudget, PodUnavailableBudgetStatus, PubOperation,
};
use k8s_openapi::api::core::v1::Pod;
use k8s_openapi::apimachinery::pkg::apis::meta::v1::Time;
use k8s_openapi::jiff::Timestamp;

/// More pods recorded than this and the budget refuses everything until its controller
/// catches up.
pub const MAX_RECORDED: usize = 2000;

/// What the budget says.
#[derive(Debug, Clone, PartialEq)]
pub enum Verdict {
    /// Not the budget's to judge; why.
    Unprotected(&'static str),
    /// Allowed once this status (the pod recorded) is written.
    Record(Box<PodUnavailableBudgetStatus>),
    /// Refused; the message names the budget.
    Refused(String),
}

/// Whether the budget's `ignoredPodSelector` selects `pod` (an unreadable selector selects
/// nothing).
pub fn ignored(budget: &PodUnavailableBudget, pod: &Pod) -> bool {
    budget
        .spec
        .ignored_pod_selector
        .as_ref()
        .and_then(|s| Selector::try_from(s.clone()).ok())
        .is_some_and(|s| !s.selects_all() && s.matches(pod.labels()))
}

/// Whether `status` records the pod named `name`.
pub fn recorded(status: &PodUnavailableBudgetStatus, name: &str) -> bool {
    [&status.disrupted_pods, &status.unavailable_pods]
        .into_iter()
        .flatten()
        .any(|m| m.contains_key(name))
}

/// The budget's verdict on `operation` of `pod`, at `now`.
pub fn judge(budget: &PodUnavailableBudget, pod: &Pod, operation: PubOperation, now: Timestamp) -> Verdict {
    if pod.annotations().get(NO_PROTECT_ANNOTATION).map(String::as_str) == Some("true") {
        return Verdict::Unprotected("the pod is annotated pub.kruise.io/no-protect");
    }
    if ignored(budget, pod) {
        return Verdict::Unprotected("the budget's ignoredPodSelector selects the pod");
    }
    if !ready_to_budget(pod) || !consistent(pod) {
        return Verdict::Unprotected("the pod is unavailable already");
    }
    let status = budget.status.clone().unwrap_or_default();
    if status.desired_available == 0 {
        return Verdict::Unprotected("the budget wants no pod available");
    }
    if !budget.protected_operations().contains(&operation) {
        return Verdict::Unprotected("the budget does not protect the operation");
    }
    let pod_name = pod.name_any();
    if recorded(&status, &pod_name) {
        return Verdict::Unprotected("the budget records the pod already");
    }
    let budget_name = format!(
        "PodUnavailableBudget {}/{}",
        budget.namespace().unwrap_or_default(),
        budget.name_any()
    );
    let what = format!("{} of pod {pod_name}", operation.as_str());
    if status.unavailable_allowed <= 0 {
        return Verdict::Refused(format!(
            "{budget_name} refuses the {what}: no more pods may be unavailable \
             (status.unavailableAllowed 0: {} available, {} desired, {} of {} being disrupted or updated)",
            status.current_available,
            status.desired_available,
            count(&status),
            status.total_replicas,
        ));
    }
    if count(&status) > MAX_RECORDED {
        return Verdict::Refused(format!(
            "{budget_name} refuses the {what}: more than {MAX_RECORDED} pods are recorded as \
             disrupted or updated and not yet confirmed by its controller"
        ));
    }
    let mut next = status;
    next.unavailable_allowed -= 1;
    let list = match operation {
        PubOperation::Update => &mut next.unavailable_pods,
        PubOperation::Delete | PubOperation::Evict | PubOperation::Resize => &mut next.disrupted_pods,
    };
    list.get_or_insert_default().insert(pod_name, Time(now));
    Verdict::Record(Box::new(next))
}

fn count(status: &PodUnavailableBudgetStatus) -> usize {
    [&status.disrupted_pods, &status.unavailable_pods]
        .into_iter()
        .flatten()
        .map(|m| m.len())
        .sum()
}

#[cfg(test)]
#[path = "protect_tests.rs"]
mod tests;
