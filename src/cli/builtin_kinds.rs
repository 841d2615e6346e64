//! The built-in `apps/v1` workloads the rollout verbs also drive, described as the
//! OpenKruise kinds are ([`KindFacts`]): where a Deployment keeps its pause switch and a
//! StatefulSet its partition (a number of pods), and that a DaemonSet counts nodes. The
//! API server validates and defaults them: they have no defaults or refusals here.
use serde_json::Value;

use crate::workloads::facts::{KindFacts, Path, PercentPartition, StatusNumbers, View};

/// The built-in Deployment.
pub struct Deployment;

/// The built-in StatefulSet.
pub struct StatefulSet;

/// The built-in DaemonSet.
pub struct DaemonSet;

impl KindFacts for Deployment {
    fn word(&self) -> &'static str {
        "deployment"
    }

    fn paused_path(&self, _object: &Value) -> Option<Path> {
        Some(&["spec", "paused"])
    }

    /// Its ReplicaSets carry the revisions; the status names none.
    fn reports_update_revision(&self) -> bool {
        false
    }
}

impl KindFacts for StatefulSet {
    fn word(&self) -> &'static str {
        "statefulset"
    }

    /// `rollout status` follows the OpenKruise kinds and the Deployment only.
    fn status_view(&self) -> Option<View> {
        None
    }

    fn partition_path(&self, _object: &Value) -> Option<Path> {
        Some(&["spec", "updateStrategy", "rollingUpdate", "partition"])
    }

    fn percent_partition(&self) -> PercentPartition {
        PercentPartition::Refused("the built-in StatefulSet takes a number of pods, not a percentage")
    }
}

impl KindFacts for DaemonSet {
    fn word(&self) -> &'static str {
        "daemonset"
    }

    /// `rollout status` follows the OpenKruise kinds and the Deployment only.
    fn status_view(&self) -> Option<View> {
        None
    }

    fn counts(&self) -> &'static str {
        "nodes"
    }

    fn numbers(&self, object: &Value) -> StatusNumbers {
        StatusNumbers::of_nodes(object)
    }

    /// Its status names no update revision.
    fn reports_update_revision(&self) -> bool {
        false
    }
}
