//! What `rollout step` needs to know of a workload with a partition, read from the object
//! as JSON by its kind's facts: the numbers ([`Facts`]), where the partition lives, and
//! when a batch is done.
//!
//! Invariants: the partition is always an absolute pod count here (a CloneSet percentage
//! is resolved as its controller does, rounding up); an Advanced StatefulSet's partition
//! is a pod count (v1beta1 semantics) at `updateStrategy.rollingUpdate.partition`; a batch
//! is done once the controller observed the generation and the pods the partition lets
//! through (or more, if more are already updated) are updated and ready.
use serde_json::{Value, json};

use super::target::Kind;
#[cfg(test)]
use crate::api::common::PodUpdatePolicy;
use crate::workloads::facts::StepNumbers;

/// The numbers of one step of a workload of `kind` (read through as [`StepNumbers`]).
#[derive(Debug, Clone, PartialEq)]
pub struct Facts {
    pub kind: Kind,
    numbers: StepNumbers,
}

impl std::ops::Deref for Facts {
    type Target = StepNumbers;

    fn deref(&self) -> &StepNumbers {
        &self.numbers
    }
}

impl Facts {
    /// The facts of `value`, an object of `kind`; `id` names it in errors. What the kind's
    /// own facts read ([`crate::workloads::facts::KindFacts::step`]).
    pub fn of(kind: Kind, value: &Value, id: &str) -> anyhow::Result<Self> {
        match kind.facts().step(value, id) {
            Some(numbers) => Ok(Facts {
                kind,
                numbers: numbers.map_err(anyhow::Error::msg)?,
            }),
            None => anyhow::bail!("rollout step has no partition to lower on {}", kind.qualified()),
        }
    }

    /// The merge patch that sets the partition to `next`.
    pub fn partition_patch(&self, next: i64) -> Value {
        super::target::nested(self.partition_path, json!(next))
    }
}

/// Has the controller caught up, and are the pods the partition lets through ready?
pub fn batch_done(kind: Kind, value: &Value) -> bool {
    let status = &value["status"];
    let expected = kind.expected_updated(value);
    let n = kind.numbers(value);
    status["observedGeneration"].as_i64() >= value["metadata"]["generation"].as_i64()
        && n.updated_ready.unwrap_or_else(|| n.available.min(n.updated)) >= expected
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::KruiseKind;

    fn asts(partition: i64, updated: i64, ready: i64, observed: i64) -> Value {
        json!({
            "apiVersion": "apps.kruise.io/v1beta1", "kind": "StatefulSet",
            "metadata": { "name": "web", "generation": 3 },
            "spec": { "replicas": 4, "podManagementPolicy": "Parallel",
                "selector": { "matchLabels": { "app": "web" } },
                "template": { "metadata": { "labels": { "app": "web" } } },
                "updateStrategy": { "rollingUpdate": { "partition": partition, "maxUnavailable": "50%",
                    "podUpdatePolicy": "InPlaceIfPossible" } } },
            "status": { "observedGeneration": observed, "replicas": 4, "readyReplicas": 4,
                "availableReplicas": 4, "currentReplicas": 0, "updatedReplicas": updated,
                "updatedReadyReplicas": ready, "updateRevision": "web-2" },
        })
    }

    #[test]
    fn an_asts_partition_is_a_pod_count_under_rolling_update_and_its_budget_the_default_batch() {
        let f = Facts::of(
            Kind::Kruise(KruiseKind::StatefulSet),
            &asts(3, 1, 1, 3),
            "asts/web",
        )
        .expect("facts");
        assert_eq!((f.replicas, f.partition, f.budget, f.updated), (4, 3, 2, 1));
        assert_eq!(f.policy, PodUpdatePolicy::InPlaceIfPossible);
        assert_eq!(
            f.partition_patch(1),
            json!({ "spec": { "updateStrategy": { "rollingUpdate": { "partition": 1 } } } })
        );
    }

    #[test]
    fn an_asts_batch_is_done_when_observed_and_the_let_through_pods_are_ready() {
        assert!(batch_done(
            Kind::Kruise(KruiseKind::StatefulSet),
            &asts(3, 1, 1, 3)
        ));
        assert!(
            !batch_done(Kind::Kruise(KruiseKind::StatefulSet), &asts(1, 3, 2, 3)),
            "one not ready"
        );
        assert!(
            !batch_done(Kind::Kruise(KruiseKind::StatefulSet), &asts(3, 1, 1, 2)),
            "generation not observed"
        );
    }
}
