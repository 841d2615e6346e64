//! One round of a PodUnavailableBudget: its status from the pods it counts, the budget's
//! name on the pods that lack it, and the warnings. Pure.
//!
//! Invariants:
//! - A spec [`super::validation::refusal`] refuses is planned no further.
//! - The status is planned only when it differs from the stored one; the driver writes it
//!   under the resourceVersion it was planned from (the pod webhook writes it too).
//! - Each active pod it counts carries its name under both annotation names
//!   (`pub.kruise.io/related-pub` and the older `kruise.io/related-pub`, the one
//!   OpenKruise 1.9 reads): one patch per pod, once.
//! - The round comes back when the first record expires.
//! - `NoPods` (a normal event) is said when the status changes to count no pod, not every
//!   round as upstream.
use k8s_openapi::api::core::v1::Pod;
use k8s_openapi::jiff::Timestamp;
use kube::ResourceExt;
use serde_json::json;

use super::budget::count;
use crate::api::podunavailablebudget::{
    OLD_RELATED_PUB_ANNOTATION, PodUnavailableBudget, PodUnavailableBudgetStatus, RELATED_PUB_ANNOTATION,
};
use crate::runtime::actions::{Action, Problem, Why};
use crate::runtime::driver::Planned;
use crate::workloads::common::availability::is_active;

/// What a round plans from.
pub struct Snapshot<'a> {
    pub budget: &'a PodUnavailableBudget,
    /// The pods it counts (any state).
    pub pods: Vec<&'a Pod>,
    /// The pods it should count in all.
    pub expected: i32,
    pub now: Timestamp,
}

/// The budget named on `pod` (the newer annotation first).
pub fn related(pod: &Pod) -> Option<&str> {
    let annotations = pod.annotations();
    [RELATED_PUB_ANNOTATION, OLD_RELATED_PUB_ANNOTATION]
        .into_iter()
        .filter_map(|key| annotations.get(key))
        .map(String::as_str)
        .find(|name| !name.is_empty())
}

/// The patch that names `budget` on a pod under both annotations.
pub fn naming_patch(budget: &str) -> serde_json::Value {
    json!({ "metadata": { "annotations": {
        RELATED_PUB_ANNOTATION: budget,
        OLD_RELATED_PUB_ANNOTATION: budget,
    } } })
}

/// The round.
pub fn plan(snapshot: &Snapshot<'_>) -> Planned<PodUnavailableBudgetStatus> {
    let budget = snapshot.budget;
    let value = serde_json::to_value(budget).unwrap_or_default();
    if let Some(message) = super::validation::refusal(&value, None, &[]) {
        return Planned::default().refuse(message);
    }
    let counted = match count(budget, &snapshot.pods, snapshot.expected, snapshot.now) {
        Ok(counted) => counted,
        Err(message) => return Planned::default().refuse(message),
    };
    let name = budget.name_any();
    let actions = snapshot
        .pods
        .iter()
        .filter(|p| is_active(p))
        .filter(|p| {
            let annotations = p.annotations();
            [RELATED_PUB_ANNOTATION, OLD_RELATED_PUB_ANNOTATION]
                .into_iter()
                .any(|key| annotations.get(key) != Some(&name))
        })
        .map(|p| Action::PatchPod {
            name: p.name_any(),
            patch: naming_patch(&name),
            why: Why::RelatedBudget,
        })
        .collect();
    let problems: Vec<Problem> = counted
        .not_deleted
        .iter()
        .map(|n| Problem {
            reason: "NotDeleted",
            message: format!(
                "pod {} was expected by the budget to be deleted but it wasn't",
                n.pod
            ),
        })
        .collect();
    let stored = budget.status.clone().unwrap_or_default();
    let mut status = counted.status;
    status.conditions = stored.conditions.clone();
    let status = Some(status).filter(|s| *s != stored);
    // Said once, when the status changes to count no pod (upstream says it every round).
    let notices = (snapshot.pods.is_empty() && status.is_some())
        .then(|| Problem {
            reason: "NoPods",
            message: "no matching pods found".into(),
        })
        .into_iter()
        .collect();
    Planned {
        actions,
        problems,
        notices,
        status,
        requeue_after: counted.recheck_in,
        ..Planned::default()
    }
}

#[cfg(test)]
#[path = "plan_tests.rs"]
mod tests;
