//! `UnitedDeployment` (`apps.kruise.io/v1alpha1`): one workload per topology subset, with
//! the total replicas split across subsets and a manual, per-subset update partition.
//!
//! Invariants:
//! - Exactly one of the four templates is set (CEL). `cloneSetTemplate.spec` is the v1alpha1
//!   [`CloneSetSpec`] (the shape of existing manifests and the only CloneSet version this
//!   crate serves); `advancedStatefulSetTemplate.spec` is the v1beta1 ASTS spec, as upstream.
//! - Native `statefulSetTemplate.spec` / `deploymentTemplate.spec` are kept as JSON (typed
//!   views via `native_spec()`), because the typed `apps/v1` specs would add the required
//!   `selector` that manifests leave to the controller; template `metadata` is typed. All of
//!   these are schemaless in the CRD, as upstream.
//! - `subsets[].patch` is raw JSON, schemaless. The pre-0.3 `subsets[].nodeSelector` is still
//!   declared because handbook manifests use it.
//! - CRD: short name `ud`; subresources status + scale; printer columns DESIRED, CURRENT,
//!   UPDATED, READY, AGE.
//!
//! ```text
//! UnitedDeployment ─ template (one kind) ─┬─ subset-a workload (replicas, partition)
//!                   topology.subsets[] ───┴─ subset-b workload ...
//! ```

use std::collections::BTreeMap;

use k8s_openapi::{
    api::{
        apps::v1::{DeploymentSpec, StatefulSetSpec as NativeStatefulSetSpec},
        core::v1::{NodeSelector, NodeSelectorTerm, Toleration},
    },
    apimachinery::pkg::apis::meta::v1::{LabelSelector, ObjectMeta},
};
use kube::CustomResource;
use schemars::{JsonSchema, Schema, SchemaGenerator, json_schema};
use serde::{Deserialize, Serialize};

use super::{
    cloneset::CloneSetSpec,
    common::{Condition, IntOrString, cel, preserve_unknown_object},
    statefulset::v1beta1::StatefulSetSpec as AdvancedStatefulSetSpec,
};

/// Label on subset workloads and their pods naming the subset.
pub const SUBSET_NAME_LABEL: &str = "apps.kruise.io/subset-name";

/// Desired state of a UnitedDeployment.
#[allow(
    clippy::duplicated_attributes,
    reason = "printcolumn(...) entries legitimately repeat type_/priority"
)]
#[derive(CustomResource, Serialize, Deserialize, Clone, Debug, Default, PartialEq, JsonSchema)]
#[kube(
    group = "apps.kruise.io",
    version = "v1alpha1",
    kind = "UnitedDeployment",
    plural = "uniteddeployments",
    namespaced,
    status = "UnitedDeploymentStatus",
    derive = "PartialEq",
    shortname = "ud",
    scale(
        spec_replicas_path = ".spec.replicas",
        status_replicas_path = ".status.replicas",
        label_selector_path = ".status.labelSelector"
    ),
    printcolumn(
        name = "DESIRED",
        type_ = "integer",
        json_path = ".spec.replicas",
        description = "Desired pods"
    ),
    printcolumn(
        name = "CURRENT",
        type_ = "integer",
        json_path = ".status.replicas",
        description = "All pods"
    ),
    printcolumn(
        name = "UPDATED",
        type_ = "integer",
        json_path = ".status.updatedReplicas",
        description = "Pods at the update revision"
    ),
    printcolumn(
        name = "READY",
        type_ = "integer",
        json_path = ".status.readyReplicas",
        description = "Ready pods"
    ),
    printcolumn(
        name = "AGE",
        type_ = "date",
        json_path = ".metadata.creationTimestamp",
        description = "Time since creation"
    )
)]
#[serde(rename_all = "camelCase")]
#[schemars(transform = cel::rule_at(
    "(has(self.selector.matchLabels) && size(self.selector.matchLabels) > 0) \
     || (has(self.selector.matchExpressions) && size(self.selector.matchExpressions) > 0)",
    ".selector",
    "selector must have matchLabels or matchExpressions",
))]
#[schemars(transform = cel::rule_at(
    "!(has(self.topology) && has(self.topology.scheduleStrategy) \
      && has(self.topology.scheduleStrategy.type) && self.topology.scheduleStrategy.type == 'Adaptive' \
      && has(self.topology.scheduleStrategy.adaptive) \
      && has(self.topology.scheduleStrategy.adaptive.reserveUnschedulablePods) \
      && self.topology.scheduleStrategy.adaptive.reserveUnschedulablePods \
      && has(self.template) \
      && (has(self.template.statefulSetTemplate) || has(self.template.advancedStatefulSetTemplate)))",
    ".topology.scheduleStrategy",
    "topology.scheduleStrategy.adaptive.reserveUnschedulablePods needs a deploymentTemplate or cloneSetTemplate",
))]
pub struct UnitedDeploymentSpec {
    /// Total pods across subsets.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(transform = cel::non_negative("replicas"))]
    pub replicas: Option<i32>,
    /// Pod selector; must match the template labels.
    pub selector: LabelSelector,
    /// The workload template.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub template: Option<SubsetTemplate>,
    /// Subsets and scheduling.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub topology: Option<Topology>,
    /// How subsets are updated.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub update_strategy: Option<UnitedDeploymentUpdateStrategy>,
    /// Number of old revisions kept (default 10).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub revision_history_limit: Option<i32>,
}

impl UnitedDeploymentSpec {
    /// Its topology's subsets, in order (none without a topology).
    pub fn subsets(&self) -> &[Subset] {
        self.topology
            .as_ref()
            .and_then(|t| t.subsets.as_deref())
            .unwrap_or_default()
    }

    /// Its topology's schedule strategy, if any.
    pub fn schedule_strategy(&self) -> Option<&UnitedDeploymentScheduleStrategy> {
        self.topology.as_ref()?.schedule_strategy.as_ref()
    }
}

/// Exactly one workload template.
#[derive(Serialize, Deserialize, Clone, Debug, Default, PartialEq, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(transform = cel::rule(
    "(has(self.statefulSetTemplate) ? 1 : 0) + (has(self.advancedStatefulSetTemplate) ? 1 : 0) \
     + (has(self.cloneSetTemplate) ? 1 : 0) + (has(self.deploymentTemplate) ? 1 : 0) == 1",
    "template must set exactly one of statefulSetTemplate, advancedStatefulSetTemplate, \
     cloneSetTemplate and deploymentTemplate",
))]
// Upstream refuses `spec.replicas` in every template but the CloneSet one (the allocation
// sets it per subset).
#[schemars(transform = cel::rule_at(
    "!has(self.statefulSetTemplate) || !has(self.statefulSetTemplate.spec.replicas)",
    ".statefulSetTemplate.spec.replicas",
    "statefulSetTemplate.spec.replicas must not be set: subset replicas come from the topology",
))]
#[schemars(transform = cel::rule_at(
    "!has(self.advancedStatefulSetTemplate) || !has(self.advancedStatefulSetTemplate.spec.replicas)",
    ".advancedStatefulSetTemplate.spec.replicas",
    "advancedStatefulSetTemplate.spec.replicas must not be set: subset replicas come from the topology",
))]
#[schemars(transform = cel::rule_at(
    "!has(self.deploymentTemplate) || !has(self.deploymentTemplate.spec.replicas)",
    ".deploymentTemplate.spec.replicas",
    "deploymentTemplate.spec.replicas must not be set: subset replicas come from the topology",
))]
pub struct SubsetTemplate {
    /// Native `apps/v1` StatefulSet subsets.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stateful_set_template: Option<StatefulSetTemplateSpec>,
    /// Advanced StatefulSet subsets.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub advanced_stateful_set_template: Option<AdvancedStatefulSetTemplateSpec>,
    /// CloneSet subsets.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clone_set_template: Option<CloneSetTemplateSpec>,
    /// Native `apps/v1` Deployment subsets.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deployment_template: Option<DeploymentTemplateSpec>,
}

/// Defines a `{metadata, spec}` template struct.
macro_rules! workload_template {
    ($name:ident, $spec:ty, $doc:literal $(, $spec_schema:literal)?) => {
        #[doc = $doc]
        #[derive(Serialize, Deserialize, Clone, Debug, Default, PartialEq, JsonSchema)]
        #[serde(rename_all = "camelCase")]
        pub struct $name {
            /// Labels and annotations of the subset workloads.
            #[serde(default, skip_serializing_if = "Option::is_none")]
            #[schemars(schema_with = "preserve_unknown_object")]
            pub metadata: Option<ObjectMeta>,
            /// Spec of the subset workloads (`replicas` is set per subset).
            $(#[schemars(schema_with = $spec_schema)])?
            pub spec: $spec,
        }
    };
}

workload_template!(
    StatefulSetTemplateSpec,
    serde_json::Value,
    "Template of native StatefulSet subsets. The spec is kept as JSON: a typed `apps/v1` spec \
     would add the `selector` manifests leave to the controller; see [`Self::native_spec`].",
    "native_workload_spec"
);
workload_template!(
    AdvancedStatefulSetTemplateSpec,
    AdvancedStatefulSetSpec,
    "Template of Advanced StatefulSet subsets."
);
workload_template!(
    CloneSetTemplateSpec,
    CloneSetSpec,
    "Template of CloneSet subsets."
);
workload_template!(
    DeploymentTemplateSpec,
    serde_json::Value,
    "Template of Deployment subsets. The spec is kept as JSON for the same reason as \
     [`StatefulSetTemplateSpec`]; see [`Self::native_spec`].",
    "native_workload_spec"
);

/// `schema_with` for the native StatefulSet / Deployment template specs: schemaless like
/// upstream's CRD, except that `replicas` is declared so the [`SubsetTemplate`] rules can see
/// it (a declared property of a preserve-unknown-fields object is still structural).
fn native_workload_spec(_: &mut SchemaGenerator) -> Schema {
    json_schema!({
        "type": "object",
        "x-kubernetes-preserve-unknown-fields": true,
        "properties": { "replicas": { "type": "integer", "format": "int32" } },
    })
}

impl StatefulSetTemplateSpec {
    /// The spec as a typed `apps/v1` StatefulSetSpec (a missing selector reads as empty).
    pub fn native_spec(&self) -> Result<NativeStatefulSetSpec, serde_json::Error> {
        serde_json::from_value(self.spec.clone())
    }
}

impl DeploymentTemplateSpec {
    /// The spec as a typed `apps/v1` DeploymentSpec (a missing selector reads as empty).
    pub fn native_spec(&self) -> Result<DeploymentSpec, serde_json::Error> {
        serde_json::from_value(self.spec.clone())
    }
}

/// `Manual` (default); the empty string means `Manual`.
#[derive(Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq, JsonSchema)]
pub enum UnitedDeploymentUpdateStrategyType {
    /// Per-subset partitions from `manualUpdate`.
    Manual,
    /// The empty string, treated as the default.
    #[serde(rename = "")]
    Unset,
}

/// How subsets are updated.
#[derive(Serialize, Deserialize, Clone, Debug, Default, PartialEq, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct UnitedDeploymentUpdateStrategy {
    /// Strategy type.
    #[serde(default, skip_serializing_if = "Option::is_none", rename = "type")]
    pub type_: Option<UnitedDeploymentUpdateStrategyType>,
    /// Per-subset partitions.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub manual_update: Option<ManualUpdate>,
}

/// Pods per subset kept on the old revision.
#[derive(Serialize, Deserialize, Clone, Debug, Default, PartialEq, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ManualUpdate {
    /// Subset name → partition.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub partitions: Option<BTreeMap<String, i32>>,
}

/// Subsets and their scheduling.
#[derive(Serialize, Deserialize, Clone, Debug, Default, PartialEq, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Topology {
    /// Subsets, in order.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub subsets: Option<Vec<Subset>>,
    /// Fixed or adaptive scheduling.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub schedule_strategy: Option<UnitedDeploymentScheduleStrategy>,
}

/// One subset.
#[derive(Serialize, Deserialize, Clone, Debug, Default, PartialEq, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Subset {
    /// DNS label, unique (it becomes part of the subset workload's name and a label value).
    #[schemars(length(min = 1, max = 63), pattern(r"^[a-z0-9]([-a-z0-9]*[a-z0-9])?$"))]
    pub name: String,
    /// Match expressions ANDed into the pod template's required node affinity. Immutable.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub node_selector_term: Option<NodeSelectorTerm>,
    /// Deprecated pre-0.3 spelling (a whole `NodeSelector`, terms ORed), still found in
    /// handbook manifests; `nodeSelectorTerm` is the current field.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub node_selector: Option<NodeSelector>,
    /// Appended to the pod template's tolerations. Immutable.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tolerations: Option<Vec<Toleration>>,
    /// Fixed size (absent = share of the remainder).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(transform = cel::in_list::int_or_percent_max_100)]
    pub replicas: Option<IntOrString>,
    /// Lower bound (capacity mode).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(transform = cel::in_list::int_or_percent_max_100)]
    pub min_replicas: Option<IntOrString>,
    /// Upper bound (capacity mode).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(transform = cel::in_list::int_or_percent_max_100)]
    pub max_replicas: Option<IntOrString>,
    /// Strategic merge patch on the subset's pod template.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(schema_with = "preserve_unknown_object")]
    pub patch: Option<serde_json::Value>,
}

/// `Fixed` (default) or `Adaptive`; the empty string means `Fixed`.
#[derive(Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq, JsonSchema)]
pub enum UnitedDeploymentScheduleStrategyType {
    /// Shrink unschedulable subsets to their ready pods.
    Adaptive,
    /// Keep the allocation regardless of schedulability.
    Fixed,
    /// The empty string, treated as the default.
    #[serde(rename = "")]
    Unset,
}

/// Scheduling strategy.
#[derive(Serialize, Deserialize, Clone, Debug, Default, PartialEq, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct UnitedDeploymentScheduleStrategy {
    /// Strategy type.
    #[serde(default, skip_serializing_if = "Option::is_none", rename = "type")]
    pub type_: Option<UnitedDeploymentScheduleStrategyType>,
    /// Adaptive knobs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub adaptive: Option<AdaptiveUnitedDeploymentStrategy>,
}

/// Adaptive scheduling knobs.
#[derive(Serialize, Deserialize, Clone, Debug, Default, PartialEq, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct AdaptiveUnitedDeploymentStrategy {
    /// Pending-unschedulable timeout since pod creation (default 30).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(transform = cel::non_negative("adaptive.rescheduleCriticalSeconds"))]
    pub reschedule_critical_seconds: Option<i32>,
    /// How long a subset stays unschedulable (default 300).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(transform = cel::non_negative("adaptive.unschedulableDuration"))]
    pub unschedulable_duration: Option<i32>,
    /// Keep unschedulable pods and place substitutes elsewhere.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reserve_unschedulable_pods: Option<bool>,
}

/// Observed state of a UnitedDeployment.
#[derive(Serialize, Deserialize, Clone, Debug, Default, PartialEq, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct UnitedDeploymentStatus {
    /// Generation last acted on.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub observed_generation: Option<i64>,
    /// Sum of the subsets' ready replicas.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ready_replicas: Option<i32>,
    /// Sum of the subsets' replicas minus reserved pods.
    pub replicas: i32,
    /// Pods at the update revision.
    pub updated_replicas: i32,
    /// Reserved pods (reservation mode).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reserved_pods: Option<i32>,
    /// Updated pods that are ready.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub updated_ready_replicas: Option<i32>,
    /// Revision hash collision counter.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub collision_count: Option<i32>,
    /// Revision the partitions keep.
    pub current_revision: String,
    /// Allocated replicas per subset.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub subset_replicas: Option<BTreeMap<String, i32>>,
    /// Per-subset details.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub subset_statuses: Option<Vec<UnitedDeploymentSubsetStatus>>,
    /// `SubsetProvisioned`, `SubsetUpdated`, `UnitedDeploymentUpdated`, `SubsetFailure`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub conditions: Option<Vec<Condition>>,
    /// Update revision and computed partitions (`v1alpha1`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub update_status: Option<UpdateStatus>,
    /// Update revision (`v1beta1` name of `updateStatus.updatedRevision`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub updated_revision: Option<String>,
    /// Selector as a string, for the scale subresource.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub label_selector: Option<String>,
}

/// Update progress.
#[derive(Serialize, Deserialize, Clone, Debug, Default, PartialEq, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct UpdateStatus {
    /// Update revision name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub updated_revision: Option<String>,
    /// Computed partition per subset.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub current_partitions: Option<BTreeMap<String, i32>>,
}

/// State of one subset.
#[derive(Serialize, Deserialize, Clone, Debug, Default, PartialEq, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct UnitedDeploymentSubsetStatus {
    /// Subset name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Allocated replicas.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub replicas: Option<i32>,
    /// Ready replicas.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ready_replicas: Option<i32>,
    /// Computed partition.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub partition: Option<i32>,
    /// Reserved pods.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reserved_pods: Option<i32>,
    /// `Schedulable`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub conditions: Option<Vec<Condition>>,
}

#[cfg(test)]
mod tests {
    use kube::CustomResourceExt;
    use serde_json::json;

    use super::*;
    use crate::api::test_support::*;

    #[test]
    fn the_handbook_uniteddeployment_round_trips_losslessly() {
        let docs = documents_of_kind("uniteddeployment-sample.yaml", "UnitedDeployment");
        assert_eq!(docs.len(), 1);
        assert_round_trip::<UnitedDeployment>(&docs[0]);
        assert_no_unknown_fields(&UnitedDeployment::crd(), &docs[0]);
        let ud: UnitedDeployment = serde_json::from_value(docs[0].clone()).expect("typed");
        let template = ud
            .spec
            .template
            .and_then(|t| t.stateful_set_template)
            .expect("statefulSetTemplate");
        let native = template.native_spec().expect("native StatefulSetSpec");
        assert!(native.template.spec.is_some());
    }

    #[test]
    fn uniteddeployment_crd_matches_the_openkruise_shape() {
        let crd = UnitedDeployment::crd();
        assert_crd_names(
            &crd,
            "uniteddeployments.apps.kruise.io",
            "UnitedDeployment",
            "Namespaced",
            &["ud"],
        );
        assert_versions(&crd, &[("v1alpha1", true, true)]);
        assert_scale(&crd, "v1alpha1");
        assert_columns(
            &crd,
            "v1alpha1",
            &["DESIRED", "CURRENT", "UPDATED", "READY", "AGE"],
        );
    }

    #[test]
    fn a_cloneset_template_uses_the_v1alpha1_cloneset_shape() {
        let doc = json!({
            "apiVersion": "apps.kruise.io/v1alpha1",
            "kind": "UnitedDeployment",
            "metadata": {"name": "ud"},
            "spec": {
                "replicas": 4,
                "selector": {"matchLabels": {"app": "x"}},
                "template": {"cloneSetTemplate": {
                    "metadata": {"labels": {"app": "x"}},
                    "spec": {
                        "selector": {"matchLabels": {"app": "x"}},
                        "template": {"metadata": {"labels": {"app": "x"}}, "spec": {"containers": [{"name": "c", "image": "i"}]}},
                        "updateStrategy": {"type": "InPlaceIfPossible", "maxUnavailable": "25%"}
                    }
                }},
                "topology": {"subsets": [{"name": "a", "minReplicas": 1, "maxReplicas": "50%"}, {"name": "b"}]}
            }
        });
        assert_round_trip::<UnitedDeployment>(&doc);
        assert_no_unknown_fields(&UnitedDeployment::crd(), &doc);
    }
}
