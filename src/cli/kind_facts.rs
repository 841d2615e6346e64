//! What the rollout verbs read of a workload, said once per kind: how many pods the
//! partition lets through ([`Kind::expected_updated`]) and why no controller would roll it
//! out ([`Kind::spec_refusal`]). `rollout status`, `rollout step` and `get --tree` ask
//! these instead of matching on the kind each (where the fields live is on [`Kind`] too:
//! `partition_path`, `paused_path`).
use serde_json::Value;

use super::target::Kind;

fn count(v: &Value) -> i64 {
    v.as_i64().unwrap_or(0)
}

impl Kind {
    /// The pods the partition lets through, which must be updated and ready for the
    /// rollout (or a `rollout step` batch) to be done. A partition holds only pods at an
    /// older revision: once more pods are updated than it lets through (a new set, or the
    /// partition raised later), those count too. Example: replicas 5, partition 3, 1 pod
    /// updated -> 2; 4 pods updated (partition raised) -> 4.
    pub fn expected_updated(self, object: &Value) -> i64 {
        let (spec, status) = (&object["spec"], &object["status"]);
        let replicas = spec["replicas"].as_i64().unwrap_or(1);
        let updated = count(&status["updatedReplicas"]).min(replicas);
        match self {
            Kind::CloneSet => status["expectedUpdatedReplicas"]
                .as_i64()
                .unwrap_or(replicas)
                .max(updated),
            // Its partition is a pod count (v1beta1 semantics).
            Kind::AdvancedStatefulSet => {
                let partition = self
                    .partition_path(object)
                    .map_or(0, |p| super::target::value_at(object, p).as_i64().unwrap_or(0))
                    .clamp(0, replicas);
                (replicas - partition).max(updated)
            }
            _ => replicas,
        }
    }

    /// Why no controller rolls this object out, if none does: its spec cannot be read, or
    /// it reads but the planner refuses it (the controller's own `InvalidSpec` message).
    /// Built-in kinds are validated by the API server. Only metadata and spec are read:
    /// the status is the controller's.
    pub fn spec_refusal(self, object: &Value, id: &str) -> Option<String> {
        use crate::api::{cloneset::CloneSet, daemonset::DaemonSet, statefulset::v1beta1::StatefulSet};
        use crate::runtime::decoded::read;
        use crate::workloads::{cloneset, statefulset};
        let spec = serde_json::json!({ "metadata": object["metadata"], "spec": object["spec"] });
        let unreadable = |e: String| format!("{id} cannot be read: {e}");
        match self {
            Kind::CloneSet => match read::<CloneSet>(&spec) {
                Ok(set) => cloneset::plan::checked_numbers(&set).err(),
                Err(e) => Some(unreadable(e)),
            },
            Kind::AdvancedStatefulSet => match read::<StatefulSet>(&spec) {
                Ok(set) => {
                    let reserved = statefulset::ordinals::ReservedOrdinals::of(&set).unwrap_or_default();
                    statefulset::plan::checked_numbers(&set, &reserved).err()
                }
                Err(e) => Some(unreadable(e)),
            },
            Kind::AdvancedDaemonSet => read::<DaemonSet>(&spec).err().map(unreadable),
            Kind::Deployment | Kind::StatefulSet | Kind::DaemonSet => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_partition_lets_through_replicas_minus_partition_or_more_when_more_are_updated() {
        let asts = |partition: i64, updated: i64| {
            json!({ "spec": { "replicas": 5, "updateStrategy": { "rollingUpdate": { "partition": partition } } },
                "status": { "updatedReplicas": updated } })
        };
        assert_eq!(Kind::AdvancedStatefulSet.expected_updated(&asts(3, 1)), 2);
        assert_eq!(Kind::AdvancedStatefulSet.expected_updated(&asts(3, 4)), 4);
        let cs = json!({ "spec": { "replicas": 5 }, "status": { "expectedUpdatedReplicas": 2, "updatedReplicas": 1 } });
        assert_eq!(Kind::CloneSet.expected_updated(&cs), 2);
        assert_eq!(
            Kind::Deployment.expected_updated(&json!({ "spec": { "replicas": 3 } })),
            3
        );
    }
}
