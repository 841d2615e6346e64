//! The PodUnavailableBudgets a watched rollout's pods name (`pub.kruise.io/related-pub`,
//! or OpenKruise 1.9's `kruise.io/related-pub`), with their numbers, for `rollout status`
//! to say which budget holds the rollout back ([`crate::cli::status::assess`]).
//!
//! Invariants: a budget is read (GET, not watched: the CRD may be absent) at most once a
//! second, and only when a pod names it; a budget that cannot be read (no CRD, no
//! permission, deleted) is left out, so the view never fails for it.
use std::collections::{BTreeMap, HashMap};
use std::time::{Duration, Instant};

use k8s_openapi::api::core::v1::Pod;
use kube::api::Api;
use kube::{Client, ResourceExt};

use crate::api::podunavailablebudget::PodUnavailableBudget;
use crate::cli::status::assess::Budget;
use crate::workloads::podunavailablebudget::plan::related;

/// How long a budget read stands.
const FRESH_FOR: Duration = Duration::from_secs(1);

/// The budget each pod names (as the budget's controller reads it, [`related`]), by
/// budget: the pod names in order.
pub fn named_by(pods: &[Pod]) -> BTreeMap<String, Vec<String>> {
    let mut by_budget: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for pod in pods {
        if let Some(name) = related(pod) {
            by_budget
                .entry(name.to_string())
                .or_default()
                .push(pod.name_any());
        }
    }
    by_budget
}

/// The budget's numbers from its status, with the pods that name it.
pub fn budget_of(budget: &PodUnavailableBudget, pods: Vec<String>) -> Budget {
    let status = budget.status.clone().unwrap_or_default();
    Budget {
        name: budget.name_any(),
        unavailable_allowed: status.unavailable_allowed.into(),
        current_available: status.current_available.into(),
        desired_available: status.desired_available.into(),
        pods,
    }
}

/// The budgets of one namespace, read when pods name them (see the module doc).
pub struct Reads {
    api: Api<PodUnavailableBudget>,
    read: HashMap<String, (Instant, Option<PodUnavailableBudget>)>,
}

impl Reads {
    pub fn new(client: &Client, namespace: &str) -> Self {
        Reads {
            api: Api::namespaced(client.clone(), namespace),
            read: HashMap::new(),
        }
    }

    /// The budgets `pods` name, each read at most once a second.
    pub async fn budgets(&mut self, pods: &[Pod]) -> Vec<Budget> {
        let mut budgets = Vec::new();
        for (name, named) in named_by(pods) {
            let stale = self
                .read
                .get(&name)
                .is_none_or(|(at, _)| at.elapsed() >= FRESH_FOR);
            if stale {
                let found = self.api.get_opt(&name).await.ok().flatten();
                self.read.insert(name.clone(), (Instant::now(), found));
            }
            if let Some((_, Some(budget))) = self.read.get(&name) {
                budgets.push(budget_of(budget, named));
            }
        }
        budgets
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::api::podunavailablebudget::{OLD_RELATED_PUB_ANNOTATION, RELATED_PUB_ANNOTATION};

    fn pod(name: &str, annotations: serde_json::Value) -> Pod {
        serde_json::from_value(json!({ "metadata": { "name": name, "annotations": annotations } }))
            .expect("pod")
    }

    #[test]
    fn each_budget_lists_the_pods_that_name_it_by_either_annotation_once() {
        let pods = [
            pod(
                "a",
                json!({ RELATED_PUB_ANNOTATION: "shop", OLD_RELATED_PUB_ANNOTATION: "shop" }),
            ),
            pod("b", json!({ OLD_RELATED_PUB_ANNOTATION: "shop" })),
            pod("c", json!({ RELATED_PUB_ANNOTATION: "db" })),
            pod("d", json!({})),
        ];
        let by = named_by(&pods);
        assert_eq!(by["shop"], ["a", "b"]);
        assert_eq!(by["db"], ["c"]);
        assert_eq!(by.len(), 2);
    }

    #[test]
    fn a_budget_without_status_allows_nothing_yet() {
        let budget: PodUnavailableBudget = serde_json::from_value(json!({
            "apiVersion": "policy.kruise.io/v1alpha1", "kind": "PodUnavailableBudget",
            "metadata": { "name": "shop" }, "spec": { "maxUnavailable": 1 } }))
        .expect("budget");
        let b = budget_of(&budget, vec!["a".into()]);
        assert_eq!(
            (b.name.as_str(), b.unavailable_allowed, b.pods.len()),
            ("shop", 0, 1)
        );
    }
}
