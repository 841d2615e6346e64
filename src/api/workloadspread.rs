//! `WorkloadSpread` (`apps.kruise.io/v1alpha1`): spread the pods of another workload over
//! subsets (node selectors, tolerations, patches) with per-subset capacities.
//!
//! Invariants:
//! - v1alpha1 field names: `requiredNodeSelectorTerm` / `preferredNodeSelectorTerms`.
//! - `subsets[].patch` is a raw strategic-merge patch, kept as JSON and schemaless.
//! - `scheduleStrategy.type` accepts the empty string, as upstream's CRD enum does.
//! - CRD: short name `ws`; status subresource only; printer columns WorkloadName,
//!   WorkloadKind, Adaptive, Age.
//!
//! ```text
//! WorkloadSpread ── targetRef ──▶ Deployment / CloneSet / StatefulSet / Job / ...
//!        └─ subsets[] ── pods of the target are assigned to subsets at admission
//! ```

use std::collections::BTreeMap;

use k8s_openapi::{
    api::core::v1::{NodeSelectorTerm, PreferredSchedulingTerm, Toleration},
    apimachinery::pkg::apis::meta::v1::{LabelSelector, Time},
};
use kube::CustomResource;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::common::{Condition, IntOrString, cel, preserve_unknown_object};

/// Pod annotation naming the WorkloadSpread and subset a pod was assigned to.
pub const MATCHED_WORKLOADSPREAD_ANNOTATION: &str = "apps.kruise.io/matched-workloadspread";

/// Desired state of a WorkloadSpread.
#[allow(
    clippy::duplicated_attributes,
    reason = "printcolumn(...) entries legitimately repeat type_/priority"
)]
#[derive(CustomResource, Serialize, Deserialize, Clone, Debug, Default, PartialEq, JsonSchema)]
#[kube(
    group = "apps.kruise.io",
    version = "v1alpha1",
    kind = "WorkloadSpread",
    plural = "workloadspreads",
    namespaced,
    status = "WorkloadSpreadStatus",
    derive = "PartialEq",
    shortname = "ws",
    printcolumn(
        name = "WorkloadName",
        type_ = "string",
        json_path = ".spec.targetRef.name",
        description = "Target workload name"
    ),
    printcolumn(
        name = "WorkloadKind",
        type_ = "string",
        json_path = ".spec.targetRef.kind",
        description = "Target workload kind"
    ),
    printcolumn(
        name = "Adaptive",
        type_ = "boolean",
        json_path = ".spec.scheduleStrategy.type[?(@ == \"Adaptive\")]",
        description = "Whether the adaptive strategy is used"
    ),
    printcolumn(
        name = "Age",
        type_ = "date",
        json_path = ".metadata.creationTimestamp",
        description = "Time since creation"
    )
)]
#[serde(rename_all = "camelCase")]
#[schemars(transform = cel::rule_at(
    "!(has(self.scheduleStrategy) && has(self.scheduleStrategy.adaptive) && size(self.subsets) > 1 \
      && has(self.subsets[size(self.subsets) - 1].maxReplicas))",
    ".scheduleStrategy.adaptive",
    "the last subset must not set maxReplicas when scheduleStrategy.adaptive is used",
))]
// Upstream caps the reschedule timeout so a pod cannot bounce between unschedulable subsets
// past the 300 s scheduling-failure window: (300 - 5) / (subsets - 1), e.g. 147 for 3 subsets.
#[schemars(transform = cel::rule_at(
    "!(has(self.scheduleStrategy) && has(self.scheduleStrategy.adaptive) \
      && has(self.scheduleStrategy.adaptive.rescheduleCriticalSeconds) && size(self.subsets) > 1 \
      && self.scheduleStrategy.adaptive.rescheduleCriticalSeconds > 295 / (size(self.subsets) - 1))",
    ".scheduleStrategy.adaptive.rescheduleCriticalSeconds",
    "scheduleStrategy.adaptive.rescheduleCriticalSeconds must be at most 295 / (number of subsets - 1)",
))]
pub struct WorkloadSpreadSpec {
    /// The workload whose pods are spread (same namespace).
    pub target_ref: TargetReference,
    /// Manage only some of the target's pods.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target_filter: Option<TargetFilter>,
    /// Subsets, in priority order.
    #[schemars(transform = cel::rule("size(self) > 0", "subsets must not be empty"))]
    pub subsets: Vec<WorkloadSpreadSubset>,
    /// Fixed or adaptive scheduling.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub schedule_strategy: Option<WorkloadSpreadScheduleStrategy>,
}

pub use super::common::TargetReference;

/// Pod filter and replica paths for custom targets.
#[derive(Serialize, Deserialize, Clone, Debug, Default, PartialEq, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct TargetFilter {
    /// Manage only pods matching this.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub selector: Option<LabelSelector>,
    /// Dotted paths in the target whose integers sum to the replica total.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub replicas_path_list: Option<Vec<String>>,
}

/// `Fixed` (default) or `Adaptive`; the empty string means `Fixed`.
#[derive(Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq, JsonSchema)]
pub enum WorkloadSpreadScheduleStrategyType {
    /// Reschedule unschedulable pods into later subsets.
    Adaptive,
    /// Subsets are filled in order, no rescheduling.
    Fixed,
    /// The empty string, treated as the default.
    #[serde(rename = "")]
    Unset,
}

/// Scheduling strategy.
#[derive(Serialize, Deserialize, Clone, Debug, Default, PartialEq, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(transform = cel::rule_at(
    "!has(self.adaptive) || (has(self.type) && self.type == 'Adaptive')",
    ".type",
    "scheduleStrategy.type must be Adaptive when scheduleStrategy.adaptive is set",
))]
pub struct WorkloadSpreadScheduleStrategy {
    /// Strategy type.
    #[serde(default, skip_serializing_if = "Option::is_none", rename = "type")]
    pub type_: Option<WorkloadSpreadScheduleStrategyType>,
    /// Adaptive knobs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub adaptive: Option<AdaptiveWorkloadSpreadStrategy>,
}

/// Adaptive scheduling knobs.
#[derive(Serialize, Deserialize, Clone, Debug, Default, PartialEq, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct AdaptiveWorkloadSpreadStrategy {
    /// Accepted, has no effect.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub disable_simulation_schedule: Option<bool>,
    /// Pending-unschedulable pods older than this are rescheduled into another subset.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(transform = cel::non_negative("adaptive.rescheduleCriticalSeconds"))]
    pub reschedule_critical_seconds: Option<i32>,
}

/// One subset.
#[derive(Serialize, Deserialize, Clone, Debug, Default, PartialEq, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct WorkloadSpreadSubset {
    /// Unique name.
    pub name: String,
    /// ANDed into the pod's required node affinity (`v1alpha1` name).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub required_node_selector_term: Option<NodeSelectorTerm>,
    /// Appended to the pod's preferred node affinity (`v1alpha1` name).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub preferred_node_selector_terms: Option<Vec<PreferredSchedulingTerm>>,
    /// `v1beta1` name of `requiredNodeSelectorTerm` (used when that one is not set).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub required_node_selector: Option<NodeSelectorTerm>,
    /// `v1beta1` name of `preferredNodeSelectorTerms` (used when that one is not set).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub preferred_node_selector: Option<Vec<PreferredSchedulingTerm>>,
    /// Appended to the pod's tolerations.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tolerations: Option<Vec<Toleration>>,
    /// Capacity (absent = unlimited); percent of the workload's replicas, rounded up.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(transform = cel::in_list::int_or_percent)]
    pub max_replicas: Option<IntOrString>,
    /// Strategic merge patch applied to the pod at creation.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(schema_with = "preserve_unknown_object")]
    pub patch: Option<serde_json::Value>,
}

/// Observed state of a WorkloadSpread.
#[derive(Serialize, Deserialize, Clone, Debug, Default, PartialEq, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct WorkloadSpreadStatus {
    /// Generation last acted on.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub observed_generation: Option<i64>,
    /// Per-subset state over all pods.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub subset_statuses: Option<Vec<WorkloadSpreadSubsetStatus>>,
    /// Per-subset state for each pod version (Deployment / ReplicaSet targets).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub versioned_subset_statuses: Option<BTreeMap<String, Vec<WorkloadSpreadSubsetStatus>>>,
    /// kubectl-kruise's own (OpenKruise has none here; its clients ignore the field):
    /// `TargetFound` (the target exists and is supported), `PodsInSubsets` (False while
    /// pods of the target are in no subset, e.g. created while the pod webhook was down),
    /// `InvalidSpec` (a spec the controller refuses).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub conditions: Option<Vec<Condition>>,
}

/// State of one subset.
#[derive(Serialize, Deserialize, Clone, Debug, Default, PartialEq, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct WorkloadSpreadSubsetStatus {
    /// Subset name.
    pub name: String,
    /// Active pods in the subset.
    pub replicas: i32,
    /// `Schedulable`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub conditions: Option<Vec<Condition>>,
    /// Pods still missing (`-1` = unlimited).
    pub missing_replicas: i32,
    /// Pods admitted into the subset but not yet seen.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub creating_pods: Option<BTreeMap<String, Time>>,
    /// Pods being deleted from the subset but not yet gone.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deleting_pods: Option<BTreeMap<String, Time>>,
}

#[cfg(test)]
mod tests {
    use kube::CustomResourceExt;
    use serde_json::json;

    use super::*;
    use crate::api::test_support::*;

    #[test]
    fn workloadspread_crd_matches_the_openkruise_shape() {
        let crd = WorkloadSpread::crd();
        assert_crd_names(
            &crd,
            "workloadspreads.apps.kruise.io",
            "WorkloadSpread",
            "Namespaced",
            &["ws"],
        );
        assert_versions(&crd, &[("v1alpha1", true, true)]);
        assert_no_scale(&crd);
        assert_columns(
            &crd,
            "v1alpha1",
            &["WorkloadName", "WorkloadKind", "Adaptive", "Age"],
        );
        let spec = spec_schema(&crd, "v1alpha1");
        let types = &spec["properties"]["scheduleStrategy"]["properties"]["type"]["enum"];
        assert_eq!(types, &json!(["Adaptive", "Fixed", ""]));
    }

    #[test]
    fn a_workloadspread_with_patches_round_trips_losslessly() {
        let doc = json!({
            "apiVersion": "apps.kruise.io/v1alpha1",
            "kind": "WorkloadSpread",
            "metadata": {"name": "ws", "namespace": "default"},
            "spec": {
                "targetRef": {"apiVersion": "apps.kruise.io/v1alpha1", "kind": "CloneSet", "name": "web"},
                "subsets": [
                    {
                        "name": "zone-a",
                        "requiredNodeSelectorTerm": {"matchExpressions": [{"key": "zone", "operator": "In", "values": ["a"]}]},
                        "maxReplicas": 3,
                        "patch": {"metadata": {"labels": {"subset": "a"}}}
                    },
                    {"name": "spot", "tolerations": [{"key": "spot", "operator": "Exists"}], "maxReplicas": "50%"}
                ],
                "scheduleStrategy": {"type": "Adaptive", "adaptive": {"rescheduleCriticalSeconds": 30}}
            }
        });
        assert_round_trip::<WorkloadSpread>(&doc);
        assert_no_unknown_fields(&WorkloadSpread::crd(), &doc);
    }
}
