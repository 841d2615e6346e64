//! The Advanced StatefulSet's facts for the webhooks and the rollout verbs ([`KindFacts`]):
//! its defaults and template defaults, its selector and template refusals (both versions
//! read by the `v1beta1` shape, a superset of `v1alpha1`), its partition (a number of
//! pods, `v1beta1` semantics) and pause switch under `rollingUpdate`, its step numbers and
//! its update preview through its own planner.
use k8s_openapi::jiff::Timestamp;
use serde_json::Value;

use super::ordinals::ReservedOrdinals;
use super::plan::checked_numbers;
use crate::api::common::PodUpdatePolicy;
use crate::api::statefulset::v1beta1::StatefulSet;
use crate::workloads::common::refusals;
use crate::workloads::facts::{KindFacts, Listed, Path, Peers, Preview, StepNumbers, read_as};

/// The Advanced StatefulSet's facts.
pub struct Facts;

const PARTITION: Path = &["spec", "updateStrategy", "rollingUpdate", "partition"];

impl crate::workloads::facts::HasFacts for crate::api::statefulset::v1beta1::StatefulSet {
    const KIND: Option<crate::api::KruiseKind> = Some(crate::api::KruiseKind::StatefulSet);
    const FACTS: &'static dyn KindFacts = &Facts;
}

impl KindFacts for Facts {
    fn word(&self) -> &'static str {
        "asts"
    }

    fn defaulted(&self, object: &Value, _old: Option<&Value>) -> Option<Value> {
        Some(super::defaults::defaulted(object))
    }

    fn defaults_template(&self) -> bool {
        true
    }

    fn refusal(&self, object: &Value, _old: Option<&Value>, _peers: &Peers) -> Option<String> {
        refusals::judged::<StatefulSet>("StatefulSet", object, |s| (&s.spec.selector, &s.spec.template))
    }

    fn partition_path(&self, _object: &Value) -> Option<Path> {
        Some(PARTITION)
    }

    fn paused_path(&self, _object: &Value) -> Option<Path> {
        Some(&["spec", "updateStrategy", "rollingUpdate", "paused"])
    }

    /// Its partition is a pod count.
    fn expected_updated(&self, object: &Value) -> i64 {
        let numbers = self.numbers(object);
        let replicas = numbers.replicas;
        let partition = crate::workloads::facts::value_at(object, PARTITION)
            .as_i64()
            .unwrap_or(0)
            .clamp(0, replicas);
        (replicas - partition).max(numbers.updated.min(replicas))
    }

    fn spec_refusal(&self, object: &Value, id: &str) -> Option<String> {
        match read_as::<StatefulSet>(object, id) {
            Ok(set) => {
                let reserved = ReservedOrdinals::of(&set).unwrap_or_default();
                checked_numbers(&set, &reserved).err()
            }
            Err(e) => Some(e),
        }
    }

    fn steps(&self) -> bool {
        true
    }

    fn pod_update_policy(&self, object: &Value, id: &str) -> Result<Option<PodUpdatePolicy>, String> {
        let set: StatefulSet = read_as(object, id)?;
        let policy = set
            .spec
            .update_strategy
            .and_then(|s| s.rolling_update)
            .and_then(|r| r.pod_update_policy)
            .unwrap_or(PodUpdatePolicy::ReCreate);
        Ok(Some(policy))
    }

    fn step(&self, object: &Value, id: &str) -> Option<Result<StepNumbers, String>> {
        Some((|| {
            let set: StatefulSet = read_as(object, id)?;
            let reserved = ReservedOrdinals::of(&set).unwrap_or_default();
            let n = checked_numbers(&set, &reserved)?;
            let status = set.status.clone().unwrap_or_default();
            Ok(StepNumbers {
                replicas: i64::from(n.replicas),
                partition: i64::from(n.partition),
                partition_raw: None,
                paused: n.paused,
                budget: n.max_unavailable as i64,
                update_revision: status.update_revision.unwrap_or_default(),
                updated: i64::from(status.updated_replicas),
                policy: n.policy,
                partition_path: PARTITION,
                min_ready_seconds: n.min_ready_seconds,
            })
        })())
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
        Some(read_as::<StatefulSet>(object, id).and_then(|set| {
            super::preview::update_order(&set, update, listed.pods, partition, now)
                .map(|order| order.into_iter().map(|pod| (pod, None)).collect())
                .map_err(|e| format!("{id}: {e}"))
        }))
    }

    fn scale_in_preview(
        &self,
        object: &Value,
        id: &str,
        _update: &str,
        listed: &Listed,
        _now: Timestamp,
    ) -> Option<Result<Vec<String>, String>> {
        Some(read_as::<StatefulSet>(object, id).and_then(|set| {
            super::preview::scale_in_order(&set, listed.pods).map_err(|e| format!("{id}: {e}"))
        }))
    }
}
