//! What the rollout verbs read of a workload, said once per kind: its status numbers under
//! whatever names the kind gives them ([`Kind::numbers`]), how many pods the partition lets
//! through ([`Kind::expected_updated`]) and why no controller would roll it out
//! ([`Kind::spec_refusal`]). `rollout status`, `rollout step` and `get --tree` ask
//! these instead of matching on the kind each (where the fields live is on [`Kind`] too:
//! `partition_path`, `paused_path`).
use serde_json::Value;

use super::target::Kind;

fn count(v: &Value) -> i64 {
    v.as_i64().unwrap_or(0)
}

/// A workload's status numbers, whatever the kind calls them (a DaemonSet counts nodes:
/// `desiredNumberScheduled` is its replicas, `updatedNumberScheduled` its updated pods).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct StatusNumbers {
    /// Pods wanted.
    pub replicas: i64,
    /// Pods the status counts (terminating ones too, for most kinds).
    pub current: i64,
    pub updated: i64,
    pub ready: i64,
    pub available: i64,
    /// Updated and ready, and updated and available, where the kind reports them.
    pub updated_ready: Option<i64>,
    pub updated_available: Option<i64>,
}

impl Kind {
    /// The status numbers of `object`, an object of this kind.
    pub fn numbers(self, object: &Value) -> StatusNumbers {
        let (spec, status) = (&object["spec"], &object["status"]);
        let optional = |field: &str| status[field].as_i64();
        let replica_counts = || StatusNumbers {
            replicas: spec["replicas"].as_i64().unwrap_or(1),
            current: count(&status["replicas"]),
            updated: count(&status["updatedReplicas"]),
            ready: count(&status["readyReplicas"]),
            available: count(&status["availableReplicas"]),
            updated_ready: optional("updatedReadyReplicas"),
            updated_available: optional("updatedAvailableReplicas"),
        };
        match self {
            Kind::DaemonSet | Kind::AdvancedDaemonSet => StatusNumbers {
                replicas: count(&status["desiredNumberScheduled"]),
                current: count(&status["currentNumberScheduled"]),
                updated: count(&status["updatedNumberScheduled"]),
                ready: count(&status["numberReady"]),
                available: count(&status["numberAvailable"]),
                updated_ready: None,
                updated_available: None,
            },
            // Its "replicas" are the pods it injected (`matchedPods`).
            Kind::SidecarSet => StatusNumbers {
                replicas: count(&status["matchedPods"]),
                current: count(&status["matchedPods"]),
                updated: count(&status["updatedPods"]),
                ready: count(&status["readyPods"]),
                available: count(&status["readyPods"]),
                updated_ready: optional("updatedReadyPods"),
                updated_available: optional("updatedReadyPods"),
            },
            // Its subsets' sums; it counts no availability of its own: ready stands for it.
            Kind::UnitedDeployment => StatusNumbers {
                available: count(&status["readyReplicas"]),
                updated_available: optional("updatedReadyReplicas"),
                ..replica_counts()
            },
            _ => replica_counts(),
        }
    }

    /// The pods the partition lets through, which must be updated and ready for the
    /// rollout (or a `rollout step` batch) to be done. A partition holds only pods at an
    /// older revision: once more pods are updated than it lets through (a new set, or the
    /// partition raised later), those count too. Example: replicas 5, partition 3, 1 pod
    /// updated -> 2; 4 pods updated (partition raised) -> 4.
    pub fn expected_updated(self, object: &Value) -> i64 {
        let status = &object["status"];
        let numbers = self.numbers(object);
        let (replicas, updated) = (numbers.replicas, numbers.updated.min(numbers.replicas));
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
            // Nodes: a partition (a count, or a share of the nodes rounded down) holds
            // that many; a node selector holds the nodes it does not pick, which only the
            // controller knows: what is updated is what is expected.
            Kind::AdvancedDaemonSet => {
                let rolling = &object["spec"]["updateStrategy"]["rollingUpdate"];
                if rolling["selector"].is_object() {
                    return updated;
                }
                let partition = match &rolling["partition"] {
                    Value::Number(n) => n.as_i64().unwrap_or(0),
                    Value::String(p) => p
                        .strip_suffix('%')
                        .and_then(|p| p.parse::<i64>().ok())
                        .map_or(0, |p| replicas * p / 100),
                    _ => 0,
                };
                (replicas - partition.clamp(0, replicas)).max(updated)
            }
            // An update selector holds the pods it does not pick, NotUpdate holds all:
            // what is updated is what is expected.
            Kind::SidecarSet => {
                let strategy = &object["spec"]["updateStrategy"];
                if strategy["selector"].is_object() || strategy["type"] == "NotUpdate" {
                    return updated;
                }
                let strategy = serde_json::from_value(strategy.clone()).unwrap_or_default();
                let partition = crate::workloads::sidecarset::plan_update::partition(&strategy, replicas);
                (replicas - partition).max(updated)
            }
            // The partitions its controller applied, one per subset.
            Kind::UnitedDeployment => {
                let held: i64 = status["updateStatus"]["currentPartitions"]
                    .as_object()
                    .map_or(0, |p| p.values().map(count).sum());
                (replicas - held.clamp(0, replicas)).max(updated)
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
            // The node count only decides percentages; the rules refused do not need it.
            Kind::AdvancedDaemonSet => match read::<DaemonSet>(&spec) {
                Ok(set) => {
                    let desired = count(&object["status"]["desiredNumberScheduled"]);
                    crate::workloads::daemonset::plan::checked_numbers(&set, desired).err()
                }
                Err(e) => Some(unreadable(e)),
            },
            Kind::Deployment | Kind::StatefulSet | Kind::DaemonSet => None,
            Kind::BroadcastJob => crate::admission::review::validate_object("BroadcastJob", &spec),
            Kind::AdvancedCronJob => crate::admission::review::validate_object("AdvancedCronJob", &spec),
            Kind::SidecarSet => crate::admission::review::validate_object("SidecarSet", &spec),
            Kind::UnitedDeployment => crate::admission::review::validate_object("UnitedDeployment", &spec),
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
        let ads = |rolling: Value| {
            json!({ "spec": { "updateStrategy": { "rollingUpdate": rolling } },
                "status": { "desiredNumberScheduled": 10, "updatedNumberScheduled": 1 } })
        };
        assert_eq!(
            Kind::AdvancedDaemonSet.expected_updated(&ads(json!({ "partition": 4 }))),
            6
        );
        assert_eq!(
            Kind::AdvancedDaemonSet.expected_updated(&ads(json!({ "partition": "25%" }))),
            8
        );
        assert_eq!(
            Kind::AdvancedDaemonSet
                .expected_updated(&ads(json!({ "selector": { "matchLabels": { "a": "b" } } }))),
            1
        );
        assert_eq!(Kind::AdvancedDaemonSet.numbers(&ads(json!({}))).replicas, 10);
        let sidecars = |strategy: Value| {
            json!({ "spec": { "updateStrategy": strategy },
                "status": { "matchedPods": 5, "updatedPods": 1, "readyPods": 5 } })
        };
        assert_eq!(Kind::SidecarSet.expected_updated(&sidecars(json!({}))), 5);
        assert_eq!(
            Kind::SidecarSet.expected_updated(&sidecars(json!({ "partition": 2 }))),
            3
        );
        assert_eq!(
            Kind::SidecarSet.expected_updated(&sidecars(json!({ "partition": "50%" }))),
            2,
            "a percent of the matched pods, rounded up"
        );
        assert_eq!(
            Kind::SidecarSet.expected_updated(&sidecars(json!({ "type": "NotUpdate" }))),
            1
        );
    }
}
