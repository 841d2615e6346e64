//! What `rollout step` needs to know of each kind with a partition, read from the object
//! as JSON: the numbers ([`Facts`]), where the partition lives, and when a batch is done.
//!
//! Invariants: the partition is always an absolute pod count here (a CloneSet percentage
//! is resolved as its controller does, rounding up); an Advanced StatefulSet's partition
//! is a pod count (v1beta1 semantics) at `updateStrategy.rollingUpdate.partition`; a batch
//! is done once the controller observed the generation and the pods the partition lets
//! through (or more, if more are already updated) are updated and ready.
use k8s_openapi::apimachinery::pkg::util::intstr::IntOrString;
use serde_json::{Value, json};

use super::target::Kind;
use crate::api::cloneset::CloneSet;
use crate::api::common::PodUpdatePolicy;
use crate::api::daemonset::DaemonSet;
use crate::api::statefulset::v1beta1::StatefulSet;
use crate::workloads::cloneset::numbers;
use crate::workloads::cloneset::plan::checked_numbers as cloneset_numbers;
use crate::workloads::daemonset::plan::checked_numbers as ds_numbers;
use crate::workloads::statefulset::ordinals::ReservedOrdinals;
use crate::workloads::statefulset::plan::checked_numbers as sts_numbers;

/// The numbers of one step.
#[derive(Debug, Clone, PartialEq)]
pub struct Facts {
    pub kind: Kind,
    pub replicas: i64,
    pub partition: i64,
    /// The partition as written when it is a percentage (`40%`).
    pub partition_raw: Option<String>,
    pub paused: bool,
    /// The default batch: the unavailable budget.
    pub budget: i64,
    pub update_revision: String,
    pub updated: i64,
    /// The policy, as `pod_outcome` reads it.
    pub policy: PodUpdatePolicy,
    /// Where the object keeps its partition (a CloneSet's spelling decides).
    pub partition_path: &'static [&'static str],
}

impl Facts {
    /// The facts of `value`, an object of `kind`; `id` names it in errors.
    pub fn of(kind: Kind, value: &Value, id: &str) -> anyhow::Result<Self> {
        match kind {
            Kind::CloneSet => {
                let set: CloneSet = super::target::read_as(value, id)?;
                let strategy = set.spec.update();
                // The planner's own checks (bad int-or-percent, too many replicas), named.
                let n = cloneset_numbers(&set).map_err(anyhow::Error::msg)?;
                let (replicas, partition) = (n.replicas, n.partition);
                // The planner zeroes the surge while paused; the budget a step releases is
                // the one with the surge.
                let invalid = |e: numbers::InvalidIntOrPercent| anyhow::anyhow!("{id}: spec.{e}");
                let surge =
                    numbers::max_surge(strategy.max_surge.as_ref(), replicas, false).map_err(invalid)?;
                let budget = numbers::max_unavailable(strategy.max_unavailable.as_ref(), replicas, surge)
                    .map_err(invalid)?;
                let status = set.status.clone().unwrap_or_default();
                Ok(Facts {
                    kind,
                    replicas,
                    partition,
                    partition_raw: match &strategy.partition {
                        Some(IntOrString::String(p)) => Some(p.clone()),
                        _ => None,
                    },
                    paused: strategy.paused == Some(true),
                    budget,
                    update_revision: status.update_revision.unwrap_or_default(),
                    updated: i64::from(status.updated_replicas),
                    policy: set.spec.pod_update_policy(),
                    partition_path: kind.partition_path(value).unwrap_or_default(),
                })
            }
            Kind::AdvancedStatefulSet => {
                let set: StatefulSet = super::target::read_as(value, id)?;
                let reserved = ReservedOrdinals::of(&set).unwrap_or_default();
                let n = sts_numbers(&set, &reserved).map_err(anyhow::Error::msg)?;
                let status = set.status.clone().unwrap_or_default();
                Ok(Facts {
                    kind,
                    replicas: i64::from(n.replicas),
                    partition: i64::from(n.partition),
                    partition_raw: None,
                    paused: n.paused,
                    budget: n.max_unavailable as i64,
                    update_revision: status.update_revision.unwrap_or_default(),
                    updated: i64::from(status.updated_replicas),
                    policy: n.policy,
                    partition_path: kind.partition_path(value).unwrap_or_default(),
                })
            }
            Kind::AdvancedDaemonSet => {
                let set: DaemonSet = super::target::read_as(value, id)?;
                let numbers = kind.numbers(value);
                let n = ds_numbers(&set, numbers.replicas).map_err(anyhow::Error::msg)?;
                let rolling = set
                    .spec
                    .update_strategy
                    .as_ref()
                    .and_then(|s| s.rolling_update.as_ref());
                let hash = set
                    .status
                    .as_ref()
                    .and_then(|s| s.update_revision.clone().or(s.daemon_set_hash.clone()));
                Ok(Facts {
                    kind,
                    replicas: numbers.replicas,
                    partition: n.partition,
                    partition_raw: match rolling.and_then(|r| r.partition.as_ref()) {
                        Some(IntOrString::String(p)) => Some(p.clone()),
                        _ => None,
                    },
                    paused: n.paused,
                    budget: n.max_unavailable.max(n.max_surge).max(1),
                    // The status names the hash; its revision is `<name>-<hash>`.
                    update_revision: hash
                        .map(|h| {
                            crate::runtime::revision::revision_name(&kube::ResourceExt::name_any(&set), &h)
                        })
                        .unwrap_or_default(),
                    updated: numbers.updated,
                    policy: if n.in_place {
                        PodUpdatePolicy::InPlaceIfPossible
                    } else {
                        PodUpdatePolicy::ReCreate
                    },
                    partition_path: kind.partition_path(value).unwrap_or_default(),
                })
            }
            other => anyhow::bail!("rollout step has no partition to lower on {}", other.qualified()),
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
        let f = Facts::of(Kind::AdvancedStatefulSet, &asts(3, 1, 1, 3), "asts/web").expect("facts");
        assert_eq!((f.replicas, f.partition, f.budget, f.updated), (4, 3, 2, 1));
        assert_eq!(f.policy, PodUpdatePolicy::InPlaceIfPossible);
        assert_eq!(
            f.partition_patch(1),
            json!({ "spec": { "updateStrategy": { "rollingUpdate": { "partition": 1 } } } })
        );
    }

    #[test]
    fn an_asts_batch_is_done_when_observed_and_the_let_through_pods_are_ready() {
        assert!(batch_done(Kind::AdvancedStatefulSet, &asts(3, 1, 1, 3)));
        assert!(
            !batch_done(Kind::AdvancedStatefulSet, &asts(1, 3, 2, 3)),
            "one not ready"
        );
        assert!(
            !batch_done(Kind::AdvancedStatefulSet, &asts(3, 1, 1, 2)),
            "generation not observed"
        );
    }
}
