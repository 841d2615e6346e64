//! `SidecarSet` (`apps.kruise.io/v1alpha1`, cluster-scoped): containers injected into
//! matching pods at creation and upgraded in place afterwards.
//!
//! Invariants:
//! - v1alpha1 shape: `spec.namespace` exists (exclusive with `namespaceSelector`) and the
//!   custom version is the object label [`CUSTOM_VERSION_LABEL`].
//! - A [`SidecarContainer`] is a full core `Container` (flattened, schemaless in the CRD as
//!   upstream) plus the Kruise fields, which are typed in the schema.
//! - `volumes` are typed in Rust, schemaless in the CRD.
//! - The pre-0.8 `spec.strategy.rollingUpdate.maxUnavailable` block is still declared
//!   ([`LegacySidecarSetStrategy`]) because handbook manifests use it.
//! - CRD: no short name; status subresource only; printer columns MATCHED, UPDATED, READY, AGE.

use std::collections::BTreeMap;

use k8s_openapi::{
    api::core::v1::{Container, LocalObjectReference, ObjectFieldSelector, Volume},
    apimachinery::pkg::apis::meta::v1::LabelSelector,
};
use kube::CustomResource;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::common::{
    IntOrString, UpdatePriorityStrategy, UpdateScatterStrategy, cel, preserve_unknown_object,
    preserve_unknown_object_list,
};

/// A native sidecar: an init container that restarts `Always`.
pub fn is_native_sidecar(container: &Container) -> bool {
    container.restart_policy.as_deref() == Some("Always")
}

/// Object label (v1alpha1) copied onto the revision built from the current spec.
pub const CUSTOM_VERSION_LABEL: &str = "apps.kruise.io/sidecarset-custom-version";

/// Desired state of a SidecarSet.
#[allow(
    clippy::duplicated_attributes,
    reason = "printcolumn(...) entries legitimately repeat type_/priority"
)]
#[derive(CustomResource, Serialize, Deserialize, Clone, Debug, Default, PartialEq, JsonSchema)]
#[kube(
    group = "apps.kruise.io",
    version = "v1alpha1",
    kind = "SidecarSet",
    plural = "sidecarsets",
    status = "SidecarSetStatus",
    derive = "PartialEq",
    printcolumn(
        name = "MATCHED",
        type_ = "integer",
        json_path = ".status.matchedPods",
        description = "Pods with the sidecars injected"
    ),
    printcolumn(
        name = "UPDATED",
        type_ = "integer",
        json_path = ".status.updatedPods",
        description = "Matched pods at the latest sidecar hash"
    ),
    printcolumn(
        name = "READY",
        type_ = "integer",
        json_path = ".status.readyPods",
        description = "Matched pods that are ready"
    ),
    printcolumn(
        name = "AGE",
        type_ = "date",
        json_path = ".metadata.creationTimestamp",
        description = "Time since creation"
    )
)]
#[serde(rename_all = "camelCase")]
#[schemars(transform = cel::rule(
    "!(has(self.namespace) && self.namespace != '' && has(self.namespaceSelector))",
    "namespace and namespaceSelector are mutually exclusive",
))]
#[schemars(transform = cel::rule_at(
    "has(self.selector) \
     && ((has(self.selector.matchLabels) && size(self.selector.matchLabels) > 0) \
         || (has(self.selector.matchExpressions) && size(self.selector.matchExpressions) > 0))",
    ".selector",
    "selector must have matchLabels or matchExpressions (an empty selector is not valid for a SidecarSet)",
))]
#[schemars(transform = cel::rule_at(
    "!has(self.namespaceSelector) \
     || (has(self.namespaceSelector.matchLabels) && size(self.namespaceSelector.matchLabels) > 0) \
     || (has(self.namespaceSelector.matchExpressions) && size(self.namespaceSelector.matchExpressions) > 0)",
    ".namespaceSelector",
    "namespaceSelector must have matchLabels or matchExpressions when set",
))]
#[schemars(transform = cel::rule_at(
    "(has(self.containers) && size(self.containers) > 0) \
     || (has(self.initContainers) && size(self.initContainers) > 0)",
    ".containers",
    "containers or initContainers must define at least one container",
))]
pub struct SidecarSetSpec {
    /// Pods to inject; required and must not be empty.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub selector: Option<LabelSelector>,
    /// Restrict injection to one namespace (`v1alpha1`; `v1beta1` spells it as a
    /// `namespaceSelector` on `kubernetes.io/metadata.name`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub namespace: Option<String>,
    /// `v1beta1`: the custom version of this SidecarSet's revisions (`v1alpha1`: the label
    /// `apps.kruise.io/sidecarset-custom-version`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub custom_version: Option<String>,
    /// Restrict injection to namespaces with matching labels.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub namespace_selector: Option<LabelSelector>,
    /// Init containers, injected at pod creation only.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub init_containers: Option<Vec<SidecarContainer>>,
    /// Sidecar containers, upgradable in place.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub containers: Option<Vec<SidecarContainer>>,
    /// Volume pool; a volume is injected when an injected container mounts it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(schema_with = "preserve_unknown_object_list")]
    pub volumes: Option<Vec<Volume>>,
    /// In-place upgrade of already injected pods.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub update_strategy: Option<SidecarSetUpdateStrategy>,
    /// Injection into new pods.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub injection_strategy: Option<SidecarSetInjectionStrategy>,
    /// Pull secrets added to injected pods.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub image_pull_secrets: Option<Vec<LocalObjectReference>>,
    /// Number of old revisions kept (default 10).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub revision_history_limit: Option<i32>,
    /// Pod annotations to patch.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub patch_pod_metadata: Option<Vec<SidecarSetPatchPodMetadata>>,
    /// Deprecated pre-0.8 spelling of the upgrade budget (`strategy.rollingUpdate.maxUnavailable`),
    /// still found in handbook manifests; `updateStrategy.maxUnavailable` wins when both are set.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub strategy: Option<LegacySidecarSetStrategy>,
}

/// The pre-0.8 `spec.strategy` block.
#[derive(Serialize, Deserialize, Clone, Debug, Default, PartialEq, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct LegacySidecarSetStrategy {
    /// Rolling-upgrade knobs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rolling_update: Option<LegacyRollingUpdateSidecarSet>,
}

/// The pre-0.8 `spec.strategy.rollingUpdate` block.
#[derive(Serialize, Deserialize, Clone, Debug, Default, PartialEq, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct LegacyRollingUpdateSidecarSet {
    /// Same meaning as `updateStrategy.maxUnavailable`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(transform = cel::int_or_percent("strategy.rollingUpdate.maxUnavailable"))]
    pub max_unavailable: Option<IntOrString>,
}

/// A core container plus the Kruise injection and upgrade knobs.
#[derive(Serialize, Deserialize, Clone, Debug, Default, PartialEq, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct SidecarContainer {
    /// The container itself (name, image, command, mounts, ...).
    #[serde(flatten)]
    #[schemars(schema_with = "preserve_unknown_object")]
    pub container: Container,
    /// Where in the pod's list the container goes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pod_inject_policy: Option<PodInjectPolicy>,
    /// Cold or hot upgrade.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub upgrade_strategy: Option<SidecarContainerUpgradeStrategy>,
    /// Copy the app containers' volume mounts into the sidecar.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub share_volume_policy: Option<ShareVolumePolicy>,
    /// Copy the app containers' volume devices into the sidecar.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub share_volume_device_policy: Option<ShareVolumePolicy>,
    /// Env vars copied from app containers.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub transfer_env: Option<Vec<TransferEnvVar>>,
    /// Derive the sidecar's resources from the app containers at creation.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resources_policy: Option<ResourcesPolicy>,
}

/// `BeforeAppContainer` (default for containers) or `AfterAppContainer`.
#[derive(Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq, JsonSchema)]
pub enum PodInjectPolicy {
    /// Put the sidecar before the app containers.
    BeforeAppContainer,
    /// Put the sidecar after the app containers.
    AfterAppContainer,
}

/// Upgrade type of one sidecar.
#[derive(Serialize, Deserialize, Clone, Debug, Default, PartialEq, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct SidecarContainerUpgradeStrategy {
    /// `ColdUpgrade` (default) or `HotUpgrade`. Immutable.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub upgrade_type: Option<String>,
    /// Image of the idle half of a hot-upgrade pair.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hot_upgrade_empty_image: Option<String>,
}

/// `enabled` or `disabled` (default).
#[derive(Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum ShareVolumePolicyType {
    /// Sharing on.
    Enabled,
    /// Sharing off.
    Disabled,
}

/// Volume sharing switch.
#[derive(Serialize, Deserialize, Clone, Debug, Default, PartialEq, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ShareVolumePolicy {
    /// Switch.
    #[serde(default, skip_serializing_if = "Option::is_none", rename = "type")]
    pub type_: Option<ShareVolumePolicyType>,
}

/// Env vars copied from an app container.
#[derive(Serialize, Deserialize, Clone, Debug, Default, PartialEq, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct TransferEnvVar {
    /// Source container name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source_container_name: Option<String>,
    /// Source container name read from a pod label or annotation.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source_container_name_from: Option<SourceContainerNameSource>,
    /// One env var name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub env_name: Option<String>,
    /// More env var names.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub env_names: Option<Vec<String>>,
}

/// Where the source container name comes from.
#[derive(Serialize, Deserialize, Clone, Debug, Default, PartialEq, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct SourceContainerNameSource {
    /// `metadata.labels['k']` or `metadata.annotations['k']` of the pod.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub field_ref: Option<ObjectFieldSelector>,
}

/// `sum` or `max` of the target containers' resources.
#[derive(Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum TargetContainersMode {
    /// Sum of the targets.
    Sum,
    /// Maximum of the targets.
    Max,
}

/// Resources derived from the app containers.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ResourcesPolicy {
    /// How target resources are aggregated.
    pub target_containers_mode: TargetContainersMode,
    /// Regex of target container names (default `.*`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target_containers_name_regex: Option<String>,
    /// Expressions over `cpu` / `memory`.
    pub resources_expr: ResourcesExpr,
}

/// Limit and request expressions.
#[derive(Serialize, Deserialize, Clone, Debug, Default, PartialEq, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ResourcesExpr {
    /// Limit expressions.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub limits: Option<ResourceExpr>,
    /// Request expressions.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub requests: Option<ResourceExpr>,
}

/// Expressions for cpu and memory.
#[derive(Serialize, Deserialize, Clone, Debug, Default, PartialEq, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ResourceExpr {
    /// CPU expression.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cpu: Option<String>,
    /// Memory expression.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub memory: Option<String>,
}

/// Injection into new pods.
#[derive(Serialize, Deserialize, Clone, Debug, Default, PartialEq, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct SidecarSetInjectionStrategy {
    /// Inject nothing into new pods.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub paused: Option<bool>,
    /// Inject a historical revision instead of the latest.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub revision: Option<SidecarSetInjectRevision>,
}

/// `Always` (default) or `Partial`.
#[derive(Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq, JsonSchema)]
pub enum SidecarSetInjectRevisionPolicy {
    /// Always inject the historical revision.
    Always,
    /// Inject it only into pods the partition or selector excludes.
    Partial,
}

/// A historical revision to inject.
#[derive(Serialize, Deserialize, Clone, Debug, Default, PartialEq, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct SidecarSetInjectRevision {
    /// Newest revision carrying this custom version.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub custom_version: Option<String>,
    /// ControllerRevision name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub revision_name: Option<String>,
    /// When the historical revision is used.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub policy: Option<SidecarSetInjectRevisionPolicy>,
}

/// `RollingUpdate` (default) or `NotUpdate`.
#[derive(Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq, JsonSchema)]
pub enum SidecarSetUpdateStrategyType {
    /// Never touch injected pods.
    NotUpdate,
    /// Upgrade injected pods in place, rolling.
    RollingUpdate,
}

/// In-place upgrade of injected pods.
#[derive(Serialize, Deserialize, Clone, Debug, Default, PartialEq, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(transform = cel::rule_at(
    "!((!has(self.type) || self.type == 'RollingUpdate') && has(self.selector) && has(self.partition) \
      && (type(self.partition) == string || self.partition != 0))",
    ".partition",
    "updateStrategy.partition and updateStrategy.selector are mutually exclusive",
))]
pub struct SidecarSetUpdateStrategy {
    /// Strategy type.
    #[serde(default, skip_serializing_if = "Option::is_none", rename = "type")]
    pub type_: Option<SidecarSetUpdateStrategyType>,
    /// Stop upgrading pods.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub paused: Option<bool>,
    /// Only pods matching this are upgraded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub selector: Option<LabelSelector>,
    /// Not-yet-updated pods left on the old version.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(transform = cel::int_or_percent("updateStrategy.partition"))]
    pub partition: Option<IntOrString>,
    /// Updated-but-not-ready budget (default 1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(transform = cel::int_or_percent("updateStrategy.maxUnavailable"))]
    pub max_unavailable: Option<IntOrString>,
    /// Upgrade order by priority.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub priority_strategy: Option<UpdatePriorityStrategy>,
    /// Spread labelled pods across the upgrade order.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scatter_strategy: Option<UpdateScatterStrategy>,
}

/// `Retain` (default), `Overwrite` or `MergePatchJson`.
#[derive(Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq, JsonSchema)]
pub enum SidecarSetPatchPolicy {
    /// Add keys the pod lacks, never overwrite.
    Retain,
    /// Always set the value.
    Overwrite,
    /// JSON-merge-patch an existing value.
    MergePatchJson,
}

/// Pod annotations to patch.
#[derive(Serialize, Deserialize, Clone, Debug, Default, PartialEq, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct SidecarSetPatchPodMetadata {
    /// Annotations.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub annotations: Option<BTreeMap<String, String>>,
    /// How existing values are treated.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub patch_policy: Option<SidecarSetPatchPolicy>,
}

/// Observed state of a SidecarSet.
#[derive(Serialize, Deserialize, Clone, Debug, Default, PartialEq, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct SidecarSetStatus {
    /// Generation last acted on.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub observed_generation: Option<i64>,
    /// Pods with the sidecars injected.
    pub matched_pods: i32,
    /// Matched pods at the latest hash.
    pub updated_pods: i32,
    /// Matched pods that are consistent and ready.
    pub ready_pods: i32,
    /// Updated pods that are ready.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub updated_ready_pods: Option<i32>,
    /// Latest ControllerRevision name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub latest_revision: Option<String>,
    /// Revision hash collision counter.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub collision_count: Option<i32>,
    /// kubectl-kruise: pods the selector matches that were created without this
    /// SidecarSet's sidecars (while no injection webhook ran).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub not_injected_pods: Option<i32>,
}

#[cfg(test)]
mod tests {
    use kube::CustomResourceExt;

    use super::*;
    use crate::api::test_support::*;

    #[test]
    fn the_handbook_sidecarset_round_trips_losslessly() {
        let docs = documents_of_kind("sidecarset-test.yaml", "SidecarSet");
        assert_eq!(docs.len(), 1);
        assert_round_trip::<SidecarSet>(&docs[0]);
        assert_no_unknown_fields(&SidecarSet::crd(), &docs[0]);
    }

    #[test]
    fn spec_rules_name_the_selector_and_the_containers() {
        let spec = spec_schema(&SidecarSet::crd(), "v1alpha1");
        let paths: Vec<&str> = spec["x-kubernetes-validations"]
            .as_array()
            .expect("rules")
            .iter()
            .filter_map(|r| r["fieldPath"].as_str())
            .collect();
        assert_eq!(paths, [".selector", ".namespaceSelector", ".containers"]);
    }

    #[test]
    fn sidecarset_crd_is_cluster_scoped_without_short_names() {
        let crd = SidecarSet::crd();
        assert_crd_names(&crd, "sidecarsets.apps.kruise.io", "SidecarSet", "Cluster", &[]);
        assert_versions(&crd, &[("v1alpha1", true, true)]);
        assert_no_scale(&crd);
        assert_columns(&crd, "v1alpha1", &["MATCHED", "UPDATED", "READY", "AGE"]);
    }

    #[test]
    fn sidecar_containers_keep_container_fields_schemaless_and_kruise_fields_typed() {
        let spec = spec_schema(&SidecarSet::crd(), "v1alpha1");
        let item = &spec["properties"]["containers"]["items"];
        assert_eq!(item["x-kubernetes-preserve-unknown-fields"], true);
        assert!(item["properties"]["podInjectPolicy"]["enum"].is_array());
        assert!(item["properties"].get("image").is_none());
    }
}
