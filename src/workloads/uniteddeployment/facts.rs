//! The UnitedDeployment's facts for the webhooks and the rollout verbs ([`KindFacts`]): its
//! defaults, its refusals (and its immutable fields on an update), and its status numbers,
//! the sums of its subsets (it counts no availability of its own: ready stands for it).
//! Its subset workloads roll out; it only scales, and its partitions are per subset.
use serde_json::Value;

use crate::workloads::facts::{KindFacts, Peers, StatusNumbers, View, count};

/// The UnitedDeployment's facts.
pub struct Facts;

impl crate::workloads::facts::HasFacts for crate::api::uniteddeployment::UnitedDeployment {
    const KIND: Option<crate::api::KruiseKind> = Some(crate::api::KruiseKind::UnitedDeployment);
    const FACTS: &'static dyn KindFacts = &Facts;
}

impl KindFacts for Facts {
    fn word(&self) -> &'static str {
        "ud"
    }

    fn status_view(&self) -> Option<View> {
        Some(View::Subsets)
    }

    fn tree_view(&self) -> View {
        View::Subsets
    }

    fn defaulted(&self, object: &Value, _old: Option<&Value>) -> Option<Value> {
        Some(super::validation::defaulted(object))
    }

    fn refusal(&self, object: &Value, old: Option<&Value>, _peers: &Peers) -> Option<String> {
        super::validation::refusal(object, old)
    }

    fn rolls_out_a_template(&self) -> bool {
        false
    }

    fn containers_path(&self, object: &Value) -> crate::workloads::facts::Path {
        let template = &object["spec"]["template"];
        match () {
            _ if template.get("advancedStatefulSetTemplate").is_some() => &[
                "spec",
                "template",
                "advancedStatefulSetTemplate",
                "spec",
                "template",
                "spec",
            ],
            _ if template.get("statefulSetTemplate").is_some() => &[
                "spec",
                "template",
                "statefulSetTemplate",
                "spec",
                "template",
                "spec",
            ],
            _ if template.get("deploymentTemplate").is_some() => &[
                "spec",
                "template",
                "deploymentTemplate",
                "spec",
                "template",
                "spec",
            ],
            _ => &["spec", "template", "cloneSetTemplate", "spec", "template", "spec"],
        }
    }

    fn pod_spec_change(&self) -> Option<&'static str> {
        Some("every subset workload rolls it out to its pods, as its own update strategy allows")
    }

    fn partitions_per_subset(&self) -> bool {
        true
    }

    fn numbers(&self, object: &Value) -> StatusNumbers {
        let status = &object["status"];
        StatusNumbers {
            available: count(&status["readyReplicas"]),
            updated_available: status["updatedReadyReplicas"].as_i64(),
            ..StatusNumbers::of_replicas(object)
        }
    }

    fn child_resources(&self) -> Vec<kube::core::ApiResource> {
        super::render::ChildKind::all()
            .into_iter()
            .map(super::plan::resource)
            .collect()
    }

    fn child_changes(
        &self,
        object: &Value,
        id: &str,
        revisions: &[crate::runtime::revision::KnownRevision],
        children: &[(Value, Vec<k8s_openapi::api::core::v1::Pod>)],
        now: k8s_openapi::jiff::Timestamp,
    ) -> Option<Result<Vec<crate::workloads::facts::ChildChange>, String>> {
        Some(
            crate::workloads::facts::read_as(object, id)
                .and_then(|ud| super::preview::subset_changes(&ud, revisions, children, now)),
        )
    }

    /// The partitions its controller applied, one per subset.
    fn expected_updated(&self, object: &Value) -> i64 {
        let numbers = self.numbers(object);
        let (replicas, updated) = (numbers.replicas, numbers.updated.min(numbers.replicas));
        let held: i64 = object["status"]["updateStatus"]["currentPartitions"]
            .as_object()
            .map_or(0, |p| p.values().map(count).sum());
        (replicas - held.clamp(0, replicas)).max(updated)
    }
}
