//! The CloneSet's facts for the webhooks and the rollout verbs ([`KindFacts`]): its
//! defaults and template defaults, its selector and template refusals, its int-or-percent
//! partition and pause switch (under `rollingUpdate` when the object is spelled the
//! `v1beta1` way), its step numbers and its update preview through its own planner.
use k8s_openapi::apimachinery::pkg::util::intstr::IntOrString;
use k8s_openapi::jiff::Timestamp;
use serde_json::Value;

use super::{numbers, plan::checked_numbers, preview};
use crate::api::cloneset::{CloneSet, strategy_is_nested};
use crate::api::common::PodUpdatePolicy;
use crate::workloads::common::refusals;
use crate::workloads::facts::{
    KindFacts, Listed, Path, Peers, PercentPartition, Preview, StepNumbers, read_as,
};

/// The CloneSet's facts.
pub struct Facts;

fn nested(object: &Value) -> bool {
    strategy_is_nested(&object["spec"]["updateStrategy"])
}

impl crate::workloads::facts::HasFacts for crate::api::cloneset::CloneSet {
    const KIND: Option<crate::api::KruiseKind> = Some(crate::api::KruiseKind::CloneSet);
    const FACTS: &'static dyn KindFacts = &Facts;
}

impl KindFacts for Facts {
    fn word(&self) -> &'static str {
        "cloneset"
    }

    fn defaulted(&self, object: &Value, _old: Option<&Value>) -> Option<Value> {
        Some(super::defaults::defaulted(object))
    }

    fn defaults_template(&self) -> bool {
        true
    }

    fn refusal(&self, object: &Value, _old: Option<&Value>, _peers: &Peers) -> Option<String> {
        refusals::judged::<CloneSet>("CloneSet", object, |s| (&s.spec.selector, &s.spec.template))
    }

    fn partition_path(&self, object: &Value) -> Option<Path> {
        Some(if nested(object) {
            &["spec", "updateStrategy", "rollingUpdate", "partition"]
        } else {
            &["spec", "updateStrategy", "partition"]
        })
    }

    fn percent_partition(&self) -> PercentPartition {
        PercentPartition::Kept
    }

    fn paused_path(&self, object: &Value) -> Option<Path> {
        Some(if nested(object) {
            &["spec", "updateStrategy", "rollingUpdate", "paused"]
        } else {
            &["spec", "updateStrategy", "paused"]
        })
    }

    /// What its status says the partition lets through.
    fn expected_updated(&self, object: &Value) -> i64 {
        let numbers = self.numbers(object);
        object["status"]["expectedUpdatedReplicas"]
            .as_i64()
            .unwrap_or(numbers.replicas)
            .max(numbers.updated.min(numbers.replicas))
    }

    /// The planner's own checks (bad int-or-percent, too many replicas).
    fn spec_refusal(&self, object: &Value, id: &str) -> Option<String> {
        match read_as::<CloneSet>(object, id) {
            Ok(set) => checked_numbers(&set).err(),
            Err(e) => Some(e),
        }
    }

    fn deletes_chosen_pods(&self) -> bool {
        true
    }

    fn pod_update_policy(&self, object: &Value, id: &str) -> Result<Option<PodUpdatePolicy>, String> {
        read_as::<CloneSet>(object, id).map(|set| Some(set.spec.pod_update_policy()))
    }

    fn steps(&self) -> bool {
        true
    }

    fn step(&self, object: &Value, id: &str) -> Option<Result<StepNumbers, String>> {
        Some(step(object, id))
    }

    fn preview(
        &self,
        object: &Value,
        id: &str,
        update: &str,
        listed: &Listed,
        partition: i64,
        now: Timestamp,
    ) -> Option<Result<Preview, String>> {
        Some(read_as::<CloneSet>(object, id).map(|set| {
            let pods: Vec<_> = listed.pods.iter().collect();
            preview::update_order(&set, update, &pods, partition, now)
                .into_iter()
                .map(|pod| (pod, None))
                .collect()
        }))
    }

    fn scale_in_preview(
        &self,
        object: &Value,
        id: &str,
        update: &str,
        listed: &Listed,
        now: Timestamp,
    ) -> Option<Result<Vec<String>, String>> {
        Some(read_as::<CloneSet>(object, id).map(|set| {
            let pods: Vec<_> = listed.pods.iter().collect();
            preview::scale_in_order(&set, update, &pods, now)
        }))
    }

    /// The unavailable budget with the surge (what one batch may take down).
    fn confirmed_batch(&self, object: &Value, id: &str, replicas: i64) -> Result<Option<i64>, String> {
        let set: CloneSet = read_as(object, id)?;
        Ok(Some(budget(&set, replicas).unwrap_or(1)))
    }
}

/// What one batch may take down: the unavailable budget with the surge (the planner zeroes
/// the surge while paused; the budget a step releases is the one with it).
fn budget(set: &CloneSet, replicas: i64) -> Result<i64, numbers::InvalidIntOrPercent> {
    let strategy = set.spec.update();
    let surge = numbers::max_surge(strategy.max_surge.as_ref(), replicas, false)?;
    numbers::max_unavailable(strategy.max_unavailable.as_ref(), replicas, surge)
}

fn step(object: &Value, id: &str) -> Result<StepNumbers, String> {
    let set: CloneSet = read_as(object, id)?;
    let strategy = set.spec.update();
    let n = checked_numbers(&set)?;
    let (replicas, partition) = (n.replicas, n.partition);
    let budget = budget(&set, replicas).map_err(|e| format!("{id}: spec.{e}"))?;
    let status = set.status.clone().unwrap_or_default();
    Ok(StepNumbers {
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
        partition_path: Facts.partition_path(object).unwrap_or_default(),
        min_ready_seconds: i64::from(set.spec.min_ready_seconds.unwrap_or(0)),
    })
}
