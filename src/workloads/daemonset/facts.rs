//! The Advanced DaemonSet's facts for the webhooks and the rollout verbs ([`KindFacts`]):
//! its defaults (its pod template is left as written, as upstream's webhook does), its
//! selector, template and update-strategy refusals, its status numbers (it counts nodes),
//! its partition (a number of nodes, or a share of them rounded down) and pause switch
//! under `rollingUpdate`, its step numbers and its update preview through its own planner.
use k8s_openapi::apimachinery::pkg::util::intstr::IntOrString;
use k8s_openapi::jiff::Timestamp;
use kube::ResourceExt;
use serde_json::Value;

use super::plan::checked_numbers;
use super::round::Numbers;
use crate::api::common::PodUpdatePolicy;
use crate::api::daemonset::DaemonSet;
use crate::runtime::decoded::read;
use crate::workloads::common::int_or_percent::{Rounding, percent_of};
use crate::workloads::common::refusals;
use crate::workloads::facts::{
    KindFacts, Listed, Path, Peers, PercentPartition, Preview, StatusNumbers, StepNumbers, count, read_as,
};

/// The Advanced DaemonSet's facts.
pub struct Facts;

const PARTITION: Path = &["spec", "updateStrategy", "rollingUpdate", "partition"];

impl crate::workloads::facts::HasFacts for crate::api::daemonset::DaemonSet {
    const KIND: Option<crate::api::KruiseKind> = Some(crate::api::KruiseKind::DaemonSet);
    const FACTS: &'static dyn KindFacts = &Facts;
}

impl KindFacts for Facts {
    fn word(&self) -> &'static str {
        "ads"
    }

    fn defaulted(&self, object: &Value, _old: Option<&Value>) -> Option<Value> {
        Some(super::defaults::defaulted(object))
    }

    /// Its update-strategy rules do not depend on the nodes (0 stands for them).
    fn refusal(&self, object: &Value, _old: Option<&Value>, _peers: &Peers) -> Option<String> {
        refusals::judged::<DaemonSet>("DaemonSet", object, |s| (&s.spec.selector, &s.spec.template)).or_else(
            || {
                read::<DaemonSet>(object)
                    .ok()
                    .and_then(|s| Numbers::of(&s, 0).err())
            },
        )
    }

    fn partition_path(&self, _object: &Value) -> Option<Path> {
        Some(PARTITION)
    }

    fn percent_partition(&self) -> PercentPartition {
        PercentPartition::Refused(
            "an Advanced DaemonSet's partition is a number of pods (spec.updateStrategy.rollingUpdate.partition is an integer), not a percentage",
        )
    }

    fn paused_path(&self, _object: &Value) -> Option<Path> {
        Some(&["spec", "updateStrategy", "rollingUpdate", "paused"])
    }

    fn counts(&self) -> &'static str {
        "nodes"
    }

    fn numbers(&self, object: &Value) -> StatusNumbers {
        StatusNumbers::of_nodes(object)
    }

    /// Nodes: a partition (a count, or a share of the nodes rounded down) holds that many;
    /// a node selector holds the nodes it does not pick, which only the controller knows:
    /// what is updated is what is expected.
    fn expected_updated(&self, object: &Value) -> i64 {
        let numbers = self.numbers(object);
        let (replicas, updated) = (numbers.replicas, numbers.updated.min(numbers.replicas));
        let rolling = &object["spec"]["updateStrategy"]["rollingUpdate"];
        if rolling["selector"].is_object() {
            return updated;
        }
        let partition = match &rolling["partition"] {
            Value::Number(n) => n.as_i64().unwrap_or(0),
            Value::String(p) => p
                .strip_suffix('%')
                .and_then(|p| p.parse::<i64>().ok())
                .map_or(0, |p| percent_of(replicas, p, Rounding::Down)),
            _ => 0,
        };
        (replicas - partition.clamp(0, replicas)).max(updated)
    }

    /// The node count only decides percentages; the rules refused do not need it.
    fn spec_refusal(&self, object: &Value, id: &str) -> Option<String> {
        match read_as::<DaemonSet>(object, id) {
            Ok(set) => checked_numbers(&set, count(&object["status"]["desiredNumberScheduled"])).err(),
            Err(e) => Some(e),
        }
    }

    /// The status names the hash; its revision is `<name>-<hash>`.
    fn revision_name(&self, name: &str, hash: &str) -> String {
        crate::runtime::revision::revision_name(name, hash)
    }

    fn steps(&self) -> bool {
        true
    }

    fn step(&self, object: &Value, id: &str) -> Option<Result<StepNumbers, String>> {
        Some(step(self, object, id))
    }

    fn preview_needs_nodes(&self) -> bool {
        true
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
        Some(read_as::<DaemonSet>(object, id).map(|set| {
            let pods: Vec<_> = listed.pods.iter().collect();
            let nodes: Vec<_> = listed.nodes.iter().collect();
            super::preview::update_order(&set, update, &pods, &nodes, partition, now)
                .into_iter()
                .map(|(pod, node)| (pod, Some(node)))
                .collect()
        }))
    }
}

fn step(facts: &Facts, object: &Value, id: &str) -> Result<StepNumbers, String> {
    let set: DaemonSet = read_as(object, id)?;
    let numbers = facts.numbers(object);
    let n = checked_numbers(&set, numbers.replicas)?;
    let rolling = set
        .spec
        .update_strategy
        .as_ref()
        .and_then(|s| s.rolling_update.as_ref());
    let hash = set
        .status
        .as_ref()
        .and_then(|s| s.update_revision.clone().or(s.daemon_set_hash.clone()));
    Ok(StepNumbers {
        replicas: numbers.replicas,
        partition: n.partition,
        partition_raw: match rolling.and_then(|r| r.partition.as_ref()) {
            Some(IntOrString::String(p)) => Some(p.clone()),
            _ => None,
        },
        paused: n.paused,
        budget: n.max_unavailable.max(n.max_surge).max(1),
        update_revision: hash
            .map(|h| facts.revision_name(&set.name_any(), &h))
            .unwrap_or_default(),
        updated: numbers.updated,
        policy: if n.in_place {
            PodUpdatePolicy::InPlaceIfPossible
        } else {
            PodUpdatePolicy::ReCreate
        },
        partition_path: PARTITION,
        min_ready_seconds: i64::from(set.spec.min_ready_seconds.unwrap_or(0)),
    })
}
