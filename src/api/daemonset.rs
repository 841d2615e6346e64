//! Advanced `DaemonSet` (`apps.kruise.io/v1alpha1`): one pod per eligible node, with
//! partitions, node-selector canaries, surge and in-place updates.
//!
//! Invariants:
//! - Superset of both served versions: the hash is reported in `status.daemonSetHash`
//!   (`v1alpha1`) and `status.updateRevision` (`v1beta1`); partitioned scaling is
//!   `spec.scaleStrategy.partitionedScaling` (`v1beta1`, wins) or the object annotation
//!   `daemonset.kruise.io/progressive-create-pod` ([`DaemonSet::partitioned_scaling`]); the
//!   deprecated `rollingUpdateType: Surging` is still accepted (it means `Standard`).
//! - `rollingUpdate.partition` is an int-or-string (OpenKruise ≥ 1.9), so both old integer
//!   manifests and new percentage manifests are accepted.
//! - CRD: short names `daemon`, `ads`; status subresource only (no scale); printer columns
//!   DESIRED, CURRENT, READY, UP-TO-DATE, AVAILABLE, AGE and wide CONTAINERS, IMAGES.

use k8s_openapi::{api::core::v1::PodTemplateSpec, apimachinery::pkg::apis::meta::v1::LabelSelector};
use kube::CustomResource;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::common::{Condition, IntOrString, Lifecycle, cel, preserve_unknown_object};

/// Object annotation (v1alpha1) that makes `partition` also limit pod creation.
pub const PROGRESSIVE_CREATE_POD_ANNOTATION: &str = "daemonset.kruise.io/progressive-create-pod";

/// Desired state of an Advanced DaemonSet.
#[allow(
    clippy::duplicated_attributes,
    reason = "printcolumn(...) entries legitimately repeat type_/priority"
)]
#[derive(CustomResource, Serialize, Deserialize, Clone, Debug, Default, PartialEq, JsonSchema)]
#[kube(
    group = "apps.kruise.io",
    version = "v1alpha1",
    kind = "DaemonSet",
    plural = "daemonsets",
    namespaced,
    status = "DaemonSetStatus",
    derive = "PartialEq",
    shortname = "daemon",
    shortname = "ads",
    printcolumn(
        name = "DESIRED",
        type_ = "integer",
        json_path = ".status.desiredNumberScheduled",
        description = "Nodes that should run a pod"
    ),
    printcolumn(
        name = "CURRENT",
        type_ = "integer",
        json_path = ".status.currentNumberScheduled",
        description = "Nodes running a pod"
    ),
    printcolumn(
        name = "READY",
        type_ = "integer",
        json_path = ".status.numberReady",
        description = "Nodes with a ready pod"
    ),
    printcolumn(
        name = "UP-TO-DATE",
        type_ = "integer",
        json_path = ".status.updatedNumberScheduled",
        description = "Nodes with an updated pod"
    ),
    printcolumn(
        name = "AVAILABLE",
        type_ = "integer",
        json_path = ".status.numberAvailable",
        description = "Nodes with an available pod"
    ),
    printcolumn(
        name = "AGE",
        type_ = "date",
        json_path = ".metadata.creationTimestamp",
        description = "Time since creation"
    ),
    printcolumn(
        name = "CONTAINERS",
        type_ = "string",
        json_path = ".spec.template.spec.containers[*].name",
        priority = 1,
        description = "Container names"
    ),
    printcolumn(
        name = "IMAGES",
        type_ = "string",
        json_path = ".spec.template.spec.containers[*].image",
        priority = 1,
        description = "Container images"
    )
)]
#[serde(rename_all = "camelCase")]
#[schemars(transform = cel::rule(
    "!has(self.lifecycle) || !has(self.lifecycle.inPlaceUpdate)",
    "lifecycle.inPlaceUpdate is not supported by DaemonSet",
))]
#[schemars(transform = cel::rule_at(cel::SELECTOR_IMMUTABLE, ".selector", cel::SELECTOR_IMMUTABLE_MSG))]
pub struct DaemonSetSpec {
    /// Pod selector; must match the template labels. Immutable.
    pub selector: LabelSelector,
    /// Pod template (`restartPolicy` must be Always).
    #[schemars(schema_with = "preserve_unknown_object")]
    pub template: PodTemplateSpec,
    /// How pods are updated.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub update_strategy: Option<DaemonSetUpdateStrategy>,
    /// Seconds a pod must be ready before it counts as available.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(transform = cel::non_negative("minReadySeconds"))]
    pub min_ready_seconds: Option<i32>,
    /// Creates, deletes and in-place updates issued per sync (default 250).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(transform = cel::int_or_percent("burstReplicas"))]
    pub burst_replicas: Option<IntOrString>,
    /// Number of old revisions kept (default 10).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(transform = cel::non_negative("revisionHistoryLimit"))]
    pub revision_history_limit: Option<i32>,
    /// Lifecycle hooks (only `preDelete` is honoured).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lifecycle: Option<Lifecycle>,
    /// `v1beta1`: how pods are created (in `v1alpha1`, an annotation).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scale_strategy: Option<DaemonSetScaleStrategy>,
}

/// `spec.scaleStrategy` (`v1beta1`).
#[derive(Serialize, Deserialize, Clone, Debug, Default, PartialEq, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct DaemonSetScaleStrategy {
    /// `true`: the partition also holds back pod creation on new nodes (`v1alpha1`: the
    /// annotation `daemonset.kruise.io/progressive-create-pod: "true"`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub partitioned_scaling: Option<bool>,
}

impl DaemonSet {
    /// Whether the partition also limits pod creation: `scaleStrategy.partitionedScaling`
    /// when set (`v1beta1` wins), else the `v1alpha1` annotation.
    pub fn partitioned_scaling(&self) -> bool {
        self.spec
            .scale_strategy
            .as_ref()
            .and_then(|s| s.partitioned_scaling)
            .unwrap_or_else(|| {
                self.metadata
                    .annotations
                    .as_ref()
                    .and_then(|a| a.get(PROGRESSIVE_CREATE_POD_ANNOTATION))
                    .is_some_and(|v| v == "true")
            })
    }
}

/// `RollingUpdate` (default) or `OnDelete`.
#[derive(Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq, JsonSchema)]
pub enum DaemonSetUpdateStrategyType {
    /// Replace pods automatically.
    RollingUpdate,
    /// Replace pods only when they are deleted by hand.
    OnDelete,
}

/// How pods are updated.
///
/// The budget rules follow upstream `validateRollingUpdateDaemonSet`, which runs only for
/// `RollingUpdate` (the default type) and after defaulting (`SetDefaultsDaemonSet`): with
/// neither budget set, maxUnavailable becomes 1; with `Surging`, an unset maxSurge becomes 1
/// and an unset maxUnavailable 0; otherwise an unset budget stays unset and counts as 0. So
/// `{maxUnavailable: 0}` leaves both budgets at 0 and is refused, while `{}` is fine.
#[derive(Serialize, Deserialize, Clone, Debug, Default, PartialEq, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(transform = cel::rule_at(
    "!((!has(self.type) || self.type == 'RollingUpdate') && has(self.rollingUpdate) \
      && has(self.rollingUpdate.maxUnavailable) && has(self.rollingUpdate.maxSurge) \
      && !(string(self.rollingUpdate.maxUnavailable) in ['0', '0%']) \
      && !(string(self.rollingUpdate.maxSurge) in ['0', '0%']))",
    ".rollingUpdate.maxSurge",
    "rollingUpdate.maxSurge must be 0 when rollingUpdate.maxUnavailable is non-zero",
))]
#[schemars(transform = cel::rule_at(
    "!((!has(self.type) || self.type == 'RollingUpdate') && has(self.rollingUpdate) \
      && (has(self.rollingUpdate.maxUnavailable) || has(self.rollingUpdate.maxSurge)) \
      && (!has(self.rollingUpdate.maxUnavailable) \
          || string(self.rollingUpdate.maxUnavailable) in ['0', '0%']) \
      && (has(self.rollingUpdate.maxSurge) \
          ? string(self.rollingUpdate.maxSurge) in ['0', '0%'] \
          : !(has(self.rollingUpdate.rollingUpdateType) \
              && self.rollingUpdate.rollingUpdateType == 'Surging')))",
    ".rollingUpdate.maxUnavailable",
    "rollingUpdate.maxUnavailable must not be 0 when rollingUpdate.maxSurge is 0",
))]
#[schemars(transform = cel::rule_at(
    "!((!has(self.type) || self.type == 'RollingUpdate') && has(self.rollingUpdate) \
      && has(self.rollingUpdate.rollingUpdateType) \
      && self.rollingUpdate.rollingUpdateType == 'InPlaceIfPossible' \
      && has(self.rollingUpdate.maxSurge) && !(string(self.rollingUpdate.maxSurge) in ['0', '0%']))",
    ".rollingUpdate.maxSurge",
    "rollingUpdate.maxSurge must be 0 when rollingUpdate.rollingUpdateType is InPlaceIfPossible",
))]
pub struct DaemonSetUpdateStrategy {
    /// Strategy type.
    #[serde(default, skip_serializing_if = "Option::is_none", rename = "type")]
    pub type_: Option<DaemonSetUpdateStrategyType>,
    /// Rolling-update knobs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rolling_update: Option<RollingUpdateDaemonSet>,
}

/// `Standard` (default, recreate), `InPlaceIfPossible`, or the deprecated `Surging`
/// (treated as `Standard` with surge).
#[derive(Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq, JsonSchema)]
pub enum RollingUpdateType {
    /// Recreate pods.
    Standard,
    /// Patch pods in place when possible, else recreate.
    InPlaceIfPossible,
    /// Deprecated: `Standard` with surge.
    Surging,
}

/// Rolling-update knobs of an Advanced DaemonSet (the rules combining them sit on
/// [`DaemonSetUpdateStrategy`], which knows the strategy type).
#[derive(Serialize, Deserialize, Clone, Debug, Default, PartialEq, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct RollingUpdateDaemonSet {
    /// Recreate or in-place.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        rename = "rollingUpdateType"
    )]
    pub type_: Option<RollingUpdateType>,
    /// Budget of nodes without an available pod (rounded up).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(transform = cel::int_or_percent_max_100("rollingUpdate.maxUnavailable"))]
    pub max_unavailable: Option<IntOrString>,
    /// Start the new pod before deleting the old one (rounded up).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(transform = cel::int_or_percent_max_100("rollingUpdate.maxSurge"))]
    pub max_surge: Option<IntOrString>,
    /// Only nodes matching this selector are updated.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub selector: Option<LabelSelector>,
    /// Nodes kept on the old revision (rounded down).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(transform = cel::int_or_percent_max_100("rollingUpdate.partition"))]
    pub partition: Option<IntOrString>,
    /// Stop replacing existing pods.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub paused: Option<bool>,
}

/// Observed state of an Advanced DaemonSet.
#[derive(Serialize, Deserialize, Clone, Debug, Default, PartialEq, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct DaemonSetStatus {
    /// Nodes running at least one pod that should.
    pub current_number_scheduled: i32,
    /// Nodes running a pod that should not.
    pub number_misscheduled: i32,
    /// Nodes that should run a pod.
    pub desired_number_scheduled: i32,
    /// Nodes whose pod is ready.
    pub number_ready: i32,
    /// Generation last acted on.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub observed_generation: Option<i64>,
    /// Nodes whose pod is at the current hash.
    pub updated_number_scheduled: i32,
    /// Nodes whose pod is available.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub number_available: Option<i32>,
    /// `desired - available`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub number_unavailable: Option<i32>,
    /// Revision hash collision counter.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub collision_count: Option<i32>,
    /// Never written by the controller; kept for compatibility.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub conditions: Option<Vec<Condition>>,
    /// Current revision hash (`v1alpha1` name; the controller writes both names).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub daemon_set_hash: Option<String>,
    /// Current revision hash (`v1beta1` name, the same value as `daemonSetHash`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub update_revision: Option<String>,
}

#[cfg(test)]
mod tests {
    use kube::CustomResourceExt;
    use serde_json::json;

    use super::*;
    use crate::api::test_support::*;

    #[test]
    fn daemonset_crd_matches_the_openkruise_shape() {
        let crd = DaemonSet::crd();
        assert_crd_names(
            &crd,
            "daemonsets.apps.kruise.io",
            "DaemonSet",
            "Namespaced",
            &["daemon", "ads"],
        );
        assert_versions(&crd, &[("v1alpha1", true, true)]);
        assert_no_scale(&crd);
        assert_columns(
            &crd,
            "v1alpha1",
            &[
                "DESIRED",
                "CURRENT",
                "READY",
                "UP-TO-DATE",
                "AVAILABLE",
                "AGE",
                "CONTAINERS",
                "IMAGES",
            ],
        );
    }

    #[test]
    fn a_manifest_with_integer_and_percent_partitions_round_trips() {
        for partition in [json!(3), json!("50%")] {
            let doc = json!({
                "apiVersion": "apps.kruise.io/v1alpha1",
                "kind": "DaemonSet",
                "metadata": {"name": "ds"},
                "spec": {
                    "selector": {"matchLabels": {"app": "x"}},
                    "template": {"metadata": {"labels": {"app": "x"}}, "spec": {"containers": [{"name": "c", "image": "i"}]}},
                    "updateStrategy": {
                        "type": "RollingUpdate",
                        "rollingUpdate": {"rollingUpdateType": "Surging", "maxSurge": 1, "partition": partition, "paused": false}
                    }
                }
            });
            assert_round_trip::<DaemonSet>(&doc);
            assert_no_unknown_fields(&DaemonSet::crd(), &doc);
        }
    }
}
