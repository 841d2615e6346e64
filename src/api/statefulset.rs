//! Advanced `StatefulSet` (`apps.kruise.io`), served as `v1alpha1` and `v1beta1`.
//!
//! Invariants:
//! - `v1beta1` is the storage version, as in OpenKruise (see [`crd`] and
//!   [`super::versions`]); the CRD has no conversion webhook (strategy `None`) and `v1beta1`
//!   is a strict superset of `v1alpha1`. Both versions carry the `v1beta1` schema, so the
//!   fields only `v1beta1` types have (`reserveOrdinals`, `lifecycle`, `scaleStrategy`,
//!   `persistentVolumeClaimRetentionPolicy`, `ordinals`, `volumeClaimUpdateStrategy`, extra
//!   status counters) survive a write through either version (`tests/crds.rs` proves it).
//! - The rolling-update block (`updateStrategy.rollingUpdate`) is identical in both versions
//!   and defined once here.
//! - `template` / `volumeClaimTemplates` are typed in Rust, schemaless in the CRD.
//! - CRD: short names `sts`, `asts`; subresources status + scale; printer columns DESIRED,
//!   CURRENT, UPDATED, READY, AGE and wide CONTAINERS, IMAGES.
//!
//! ```text
//! v1alpha1::StatefulSetSpec  ⊂  v1beta1::StatefulSetSpec
//!        └── updateStrategy: StatefulSetUpdateStrategy ── rollingUpdate: RollingUpdateStatefulSetStrategy
//! ```

use k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition;
use kube::{CustomResourceExt, core::crd::merge_crds};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::common::{InPlaceUpdateStrategy, IntOrString, PodUpdatePolicy, UpdatePriorityStrategy, cel};

/// The version marked `storage: true` in the merged CRD.
pub const STORAGE_VERSION: &str = "v1beta1";

/// Rules at spec level that relate `podManagementPolicy` to the rolling-update knobs; both
/// versions carry them (upstream `validateMaxUnavailableField`, `unorderedUpdate` check).
const PARALLEL_FOR_MAX_UNAVAILABLE: &str = "!has(self.updateStrategy) || !has(self.updateStrategy.rollingUpdate) \
     || !has(self.updateStrategy.rollingUpdate.maxUnavailable) \
     || (has(self.podManagementPolicy) && self.podManagementPolicy == 'Parallel') \
     || (type(self.updateStrategy.rollingUpdate.maxUnavailable) == int \
         && self.updateStrategy.rollingUpdate.maxUnavailable == 1)";
const PARALLEL_FOR_MAX_UNAVAILABLE_MSG: &str =
    "updateStrategy.rollingUpdate.maxUnavailable other than 1 requires podManagementPolicy Parallel";
const PARALLEL_FOR_UNORDERED: &str = "!has(self.updateStrategy) || !has(self.updateStrategy.rollingUpdate) \
     || !has(self.updateStrategy.rollingUpdate.unorderedUpdate) \
     || (has(self.podManagementPolicy) && self.podManagementPolicy == 'Parallel')";
const PARALLEL_FOR_UNORDERED_MSG: &str =
    "updateStrategy.rollingUpdate.unorderedUpdate requires podManagementPolicy Parallel";

/// Transition rules: what a set was made with stays (an absent field counts as its default).
const SERVICE_NAME_IMMUTABLE: &str = "(has(self.serviceName) ? self.serviceName : '') \
     == (has(oldSelf.serviceName) ? oldSelf.serviceName : '')";
const POD_MANAGEMENT_POLICY_IMMUTABLE: &str = "(has(self.podManagementPolicy) ? self.podManagementPolicy : 'OrderedReady') \
     == (has(oldSelf.podManagementPolicy) ? oldSelf.podManagementPolicy : 'OrderedReady')";

/// The merged CRD: `v1alpha1` (served) and `v1beta1` (served, storage).
///
/// Nothing written through either version may be lost. With no conversion webhook the
/// stored objects are only relabelled between versions, and the apiserver prunes what the
/// stored version's schema does not declare; so the stored `v1alpha1` version gets the
/// `v1beta1` schema (a superset: `v1alpha1` plus `reserveOrdinals`, `lifecycle`,
/// `scaleStrategy`, PVC retention, ...). A `v1alpha1` manifest is valid under it unchanged.
pub fn crd() -> Result<CustomResourceDefinition, kube::core::crd::MergeError> {
    let mut crd = merge_crds(
        vec![v1alpha1::StatefulSet::crd(), v1beta1::StatefulSet::crd()],
        STORAGE_VERSION,
    )?;
    let beta_schema = crd
        .spec
        .versions
        .iter()
        .find(|v| v.name == "v1beta1")
        .and_then(|v| v.schema.clone());
    for version in crd.spec.versions.iter_mut().filter(|v| v.name == "v1alpha1") {
        version.schema = beta_schema.clone();
    }
    Ok(crd)
}

/// `OrderedReady` (default): one pod at a time in ordinal order; `Parallel`: all at once.
#[derive(Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq, JsonSchema)]
pub enum PodManagementPolicy {
    /// Create and delete pods one at a time, in ordinal order.
    OrderedReady,
    /// Create and delete pods in parallel.
    Parallel,
}

/// `RollingUpdate` (default) or `OnDelete` (pods are replaced only when deleted by hand).
#[derive(Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq, JsonSchema)]
pub enum StatefulSetUpdateStrategyType {
    /// Update pods automatically, highest ordinal first.
    RollingUpdate,
    /// Replace pods only when they are deleted by hand.
    OnDelete,
}

/// How pods are updated.
#[derive(Serialize, Deserialize, Clone, Debug, Default, PartialEq, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(transform = cel::rule(
    "!(has(self.type) && self.type == 'OnDelete' && has(self.rollingUpdate))",
    "updateStrategy.rollingUpdate must not be set when updateStrategy.type is OnDelete",
))]
pub struct StatefulSetUpdateStrategy {
    /// Strategy type.
    #[serde(default, skip_serializing_if = "Option::is_none", rename = "type")]
    pub type_: Option<StatefulSetUpdateStrategyType>,
    /// Rolling-update knobs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rolling_update: Option<RollingUpdateStatefulSetStrategy>,
}

/// Rolling-update knobs of an Advanced StatefulSet.
#[derive(Serialize, Deserialize, Clone, Debug, Default, PartialEq, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct RollingUpdateStatefulSetStrategy {
    /// Number of pods kept at the current revision (lowest ordinals in ordered mode).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(transform = cel::non_negative("rollingUpdate.partition"))]
    pub partition: Option<i32>,
    /// Unavailable budget (default 1; percent rounds down, minimum 1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(transform = cel::positive_int_or_percent("rollingUpdate.maxUnavailable"))]
    pub max_unavailable: Option<IntOrString>,
    /// `ReCreate` (default), `InPlaceIfPossible` or `InPlaceOnly`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pod_update_policy: Option<PodUpdatePolicy>,
    /// Stop updating pods; creation and scaling continue.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub paused: Option<bool>,
    /// Update in priority order instead of by ordinal (requires `Parallel`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unordered_update: Option<UnorderedUpdateStrategy>,
    /// In-place update knobs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub in_place_update_strategy: Option<InPlaceUpdateStrategy>,
    /// Seconds an updated pod must be ready before it counts as available (0..=300).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(transform = cel::int_range("rollingUpdate.minReadySeconds", 0, 300))]
    pub min_ready_seconds: Option<i32>,
}

/// Update order for unordered updates.
#[derive(Serialize, Deserialize, Clone, Debug, Default, PartialEq, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct UnorderedUpdateStrategy {
    /// Priority terms.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub priority_strategy: Option<UpdatePriorityStrategy>,
}

/// Defines one version module; the spec fields listed after `extra_spec` exist only there.
macro_rules! statefulset_version {
    ($version:tt, $doc:tt, { $($extra_spec:tt)* }, { $($extra_status:tt)* }) => {
        #[doc = $doc]
        #[allow(clippy::duplicated_attributes, reason = "printcolumn(...) entries legitimately repeat type_/priority")]
        #[derive(CustomResource, Serialize, Deserialize, Clone, Debug, Default, PartialEq, JsonSchema)]
        #[kube(
            group = "apps.kruise.io",
            version = $version,
            kind = "StatefulSet",
            plural = "statefulsets",
            namespaced,
            status = "StatefulSetStatus",
            derive = "PartialEq",
            shortname = "sts",
            shortname = "asts",
            scale(
                spec_replicas_path = ".spec.replicas",
                status_replicas_path = ".status.replicas",
                label_selector_path = ".status.labelSelector"
            ),
            printcolumn(name = "DESIRED", type_ = "integer", json_path = ".spec.replicas", description = "Desired pods"),
            printcolumn(name = "CURRENT", type_ = "integer", json_path = ".status.replicas", description = "All pods"),
            printcolumn(name = "UPDATED", type_ = "integer", json_path = ".status.updatedReplicas", description = "Pods at the update revision"),
            printcolumn(name = "READY", type_ = "integer", json_path = ".status.readyReplicas", description = "Ready pods"),
            printcolumn(name = "AGE", type_ = "date", json_path = ".metadata.creationTimestamp", description = "Time since creation"),
            printcolumn(name = "CONTAINERS", type_ = "string", json_path = ".spec.template.spec.containers[*].name", priority = 1, description = "Container names"),
            printcolumn(name = "IMAGES", type_ = "string", json_path = ".spec.template.spec.containers[*].image", priority = 1, description = "Container images")
        )]
        #[serde(rename_all = "camelCase")]
        #[schemars(transform = cel::rule(PARALLEL_FOR_MAX_UNAVAILABLE, PARALLEL_FOR_MAX_UNAVAILABLE_MSG))]
        #[schemars(transform = cel::rule(PARALLEL_FOR_UNORDERED, PARALLEL_FOR_UNORDERED_MSG))]
        #[schemars(transform = cel::rule_at(cel::SELECTOR_NOT_EMPTY, ".selector", cel::SELECTOR_NOT_EMPTY_MSG))]
        #[schemars(transform = cel::rule_at(cel::SELECTOR_IMMUTABLE, ".selector", cel::SELECTOR_IMMUTABLE_MSG))]
        #[schemars(transform = cel::rule_at(SERVICE_NAME_IMMUTABLE, ".serviceName", "serviceName is immutable"))]
        #[schemars(transform = cel::rule_at(
            POD_MANAGEMENT_POLICY_IMMUTABLE,
            ".podManagementPolicy",
            "podManagementPolicy is immutable"
        ))]
        pub struct StatefulSetSpec {
            /// Desired number of pods (default 1).
            #[serde(default, skip_serializing_if = "Option::is_none")]
            #[schemars(transform = cel::non_negative("replicas"))]
            pub replicas: Option<i32>,
            /// Pod selector; must match the template labels. Immutable.
            pub selector: LabelSelector,
            /// Pod template.
            #[schemars(schema_with = "preserve_unknown_object")]
            pub template: PodTemplateSpec,
            /// One PVC per template per pod, named `<claim>-<set>-<ordinal>`.
            #[serde(default, skip_serializing_if = "Option::is_none")]
            #[schemars(schema_with = "preserve_unknown_object_list")]
            pub volume_claim_templates: Option<Vec<PersistentVolumeClaim>>,
            /// Governing service; pods get `<pod>.<serviceName>` DNS names. Immutable.
            #[serde(default, skip_serializing_if = "Option::is_none")]
            pub service_name: Option<String>,
            /// `OrderedReady` (default) or `Parallel`. Immutable.
            #[serde(default, skip_serializing_if = "Option::is_none")]
            pub pod_management_policy: Option<PodManagementPolicy>,
            /// How pods are updated.
            #[serde(default, skip_serializing_if = "Option::is_none")]
            pub update_strategy: Option<StatefulSetUpdateStrategy>,
            /// Number of old revisions kept (default 10).
            #[serde(default, skip_serializing_if = "Option::is_none")]
            #[schemars(transform = cel::non_negative("revisionHistoryLimit"))]
            pub revision_history_limit: Option<i32>,
            $($extra_spec)*
        }

        /// Observed state of an Advanced StatefulSet.
        #[derive(Serialize, Deserialize, Clone, Debug, Default, PartialEq, JsonSchema)]
        #[serde(rename_all = "camelCase")]
        pub struct StatefulSetStatus {
            /// Generation last acted on.
            #[serde(default, skip_serializing_if = "Option::is_none")]
            pub observed_generation: Option<i64>,
            /// Pods with a phase, terminating ones included.
            pub replicas: i32,
            /// Running and ready pods.
            pub ready_replicas: i32,
            /// Pods ready for minReadySeconds.
            pub available_replicas: i32,
            /// Non-terminating pods at the current revision.
            pub current_replicas: i32,
            /// Non-terminating pods at the update revision.
            pub updated_replicas: i32,
            /// Revision of the pods kept by the partition.
            #[serde(default, skip_serializing_if = "Option::is_none")]
            pub current_revision: Option<String>,
            /// Revision new pods are created from.
            #[serde(default, skip_serializing_if = "Option::is_none")]
            pub update_revision: Option<String>,
            /// Revision hash collision counter.
            #[serde(default, skip_serializing_if = "Option::is_none")]
            pub collision_count: Option<i32>,
            /// `FailedCreatePod` / `FailedUpdatePod`.
            #[serde(default, skip_serializing_if = "Option::is_none")]
            pub conditions: Option<Vec<Condition>>,
            /// Selector as a string, for the scale subresource.
            #[serde(default, skip_serializing_if = "Option::is_none")]
            pub label_selector: Option<String>,
            $($extra_status)*
        }
    };
}

/// `apps.kruise.io/v1alpha1` StatefulSet: the shape of existing manifests.
pub mod v1alpha1 {
    use k8s_openapi::{
        api::core::v1::{PersistentVolumeClaim, PodTemplateSpec},
        apimachinery::pkg::apis::meta::v1::LabelSelector,
    };
    use kube::CustomResource;
    use schemars::JsonSchema;
    use serde::{Deserialize, Serialize};

    use super::*;
    use crate::api::common::{Condition, preserve_unknown_object, preserve_unknown_object_list};

    statefulset_version!(
        "v1alpha1",
        "Desired state of an Advanced StatefulSet (v1alpha1).",
        {},
        {}
    );
}

/// `apps.kruise.io/v1beta1` StatefulSet: v1alpha1 plus reserved ordinals, lifecycle, scale
/// strategy, PVC retention, start ordinal and claim update strategy.
pub mod v1beta1 {
    use k8s_openapi::{
        api::core::v1::{PersistentVolumeClaim, PodTemplateSpec},
        apimachinery::pkg::apis::meta::v1::LabelSelector,
    };
    use kube::CustomResource;
    use schemars::JsonSchema;
    use serde::{Deserialize, Serialize};

    use super::*;
    use crate::api::common::{Condition, Lifecycle, preserve_unknown_object, preserve_unknown_object_list};

    statefulset_version!(
        "v1beta1",
        "Desired state of an Advanced StatefulSet (v1beta1).",
        {
            /// Ordinals never used; strings are inclusive ranges `"a-b"`.
            #[serde(default, skip_serializing_if = "Option::is_none")]
            #[schemars(transform = cel::in_list::ordinal_or_range_items)]
            pub reserve_ordinals: Option<Vec<IntOrString>>,
            /// Lifecycle hooks.
            #[serde(default, skip_serializing_if = "Option::is_none")]
            pub lifecycle: Option<Lifecycle>,
            /// Scaling knobs.
            #[serde(default, skip_serializing_if = "Option::is_none")]
            pub scale_strategy: Option<StatefulSetScaleStrategy>,
            /// What happens to PVCs when the set is deleted or scaled in.
            #[serde(default, skip_serializing_if = "Option::is_none")]
            pub persistent_volume_claim_retention_policy: Option<PersistentVolumeClaimRetentionPolicy>,
            /// Numbering of replica ordinals.
            #[serde(default, skip_serializing_if = "Option::is_none")]
            pub ordinals: Option<StatefulSetOrdinals>,
            /// When claim template changes are applied to existing PVCs.
            #[serde(default, skip_serializing_if = "Option::is_none")]
            pub volume_claim_update_strategy: Option<VolumeClaimUpdateStrategy>,
        },
        {
            /// Updated pods that are ready.
            #[serde(default, skip_serializing_if = "Option::is_none")]
            pub updated_ready_replicas: Option<i32>,
            /// Updated pods that are available.
            #[serde(default, skip_serializing_if = "Option::is_none")]
            pub updated_available_replicas: Option<i32>,
            /// Compatibility of existing PVCs with their templates.
            #[serde(default, skip_serializing_if = "Option::is_none")]
            pub volume_claims: Option<Vec<VolumeClaimStatus>>,
        }
    );

    /// Scaling knobs.
    #[derive(Serialize, Deserialize, Clone, Debug, Default, PartialEq, JsonSchema)]
    #[serde(rename_all = "camelCase")]
    pub struct StatefulSetScaleStrategy {
        /// Limit on not-yet-available pods while creating (requires `Parallel` unless 1).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[schemars(transform = cel::positive_int_or_percent("scaleStrategy.maxUnavailable"))]
        pub max_unavailable: Option<IntOrString>,
    }

    /// `Retain` (default) or `Delete`.
    #[derive(Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq, JsonSchema)]
    pub enum PersistentVolumeClaimRetentionPolicyType {
        /// Keep the PVCs.
        Retain,
        /// Delete the PVCs.
        Delete,
    }

    /// PVC retention on deletion and scale-in.
    #[derive(Serialize, Deserialize, Clone, Debug, Default, PartialEq, JsonSchema)]
    #[serde(rename_all = "camelCase")]
    pub struct PersistentVolumeClaimRetentionPolicy {
        /// Policy when the StatefulSet is deleted.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub when_deleted: Option<PersistentVolumeClaimRetentionPolicyType>,
        /// Policy when pods are scaled away.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub when_scaled: Option<PersistentVolumeClaimRetentionPolicyType>,
    }

    /// Replica numbering.
    #[derive(Serialize, Deserialize, Clone, Debug, Default, PartialEq, JsonSchema)]
    #[serde(rename_all = "camelCase")]
    pub struct StatefulSetOrdinals {
        /// First ordinal (default 0).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[schemars(transform = cel::non_negative("ordinals.start"))]
        pub start: Option<i32>,
    }

    /// `OnPodRollingUpdate` or `OnDelete` (default).
    #[derive(Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq, JsonSchema)]
    pub enum VolumeClaimUpdateStrategyType {
        /// Resize PVCs while their pods are rolled.
        OnPodRollingUpdate,
        /// Resize PVCs only when they are deleted by hand.
        OnDelete,
    }

    /// When claim template changes reach existing PVCs.
    #[derive(Serialize, Deserialize, Clone, Debug, Default, PartialEq, JsonSchema)]
    #[serde(rename_all = "camelCase")]
    pub struct VolumeClaimUpdateStrategy {
        /// Strategy type.
        #[serde(default, skip_serializing_if = "Option::is_none", rename = "type")]
        pub type_: Option<VolumeClaimUpdateStrategyType>,
    }

    /// Compatibility of the PVCs of one claim template.
    #[derive(Serialize, Deserialize, Clone, Debug, Default, PartialEq, JsonSchema)]
    #[serde(rename_all = "camelCase")]
    pub struct VolumeClaimStatus {
        /// Claim template name.
        pub volume_claim_name: String,
        /// Replicas whose PVC requests at least the template's storage.
        pub compatible_replicas: i32,
        /// Compatible replicas whose PVC capacity already satisfies the request.
        pub compatible_ready_replicas: i32,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::test_support::*;

    fn sample() -> serde_json::Value {
        documents_of_kind("advanced-statefulset-sample.yaml", "StatefulSet").remove(0)
    }

    #[test]
    fn the_handbook_statefulset_round_trips_losslessly_as_v1alpha1() {
        assert_round_trip::<v1alpha1::StatefulSet>(&sample());
    }

    #[test]
    fn the_handbook_statefulset_round_trips_losslessly_as_v1beta1() {
        let mut doc = sample();
        doc["apiVersion"] = "apps.kruise.io/v1beta1".into();
        assert_round_trip::<v1beta1::StatefulSet>(&doc);
    }

    #[test]
    fn the_handbook_statefulset_uses_only_declared_fields() -> Result<(), kube::core::crd::MergeError> {
        assert_no_unknown_fields(&crd()?, &sample());
        Ok(())
    }

    #[test]
    fn statefulset_crd_stores_v1beta1_and_serves_v1alpha1() -> Result<(), kube::core::crd::MergeError> {
        let crd = crd()?;
        assert_crd_names(
            &crd,
            "statefulsets.apps.kruise.io",
            "StatefulSet",
            "Namespaced",
            &["sts", "asts"],
        );
        assert_versions(&crd, &[("v1beta1", true, true), ("v1alpha1", true, false)]);
        for version in ["v1alpha1", "v1beta1"] {
            assert_scale(&crd, version);
            assert_columns(
                &crd,
                version,
                &[
                    "DESIRED",
                    "CURRENT",
                    "UPDATED",
                    "READY",
                    "AGE",
                    "CONTAINERS",
                    "IMAGES",
                ],
            );
        }
        Ok(())
    }

    #[test]
    fn the_v1alpha1_schema_keeps_every_v1beta1_field() -> Result<(), kube::core::crd::MergeError> {
        let crd = crd()?;
        let alpha = spec_schema(&crd, "v1alpha1");
        let beta = spec_schema(&crd, "v1beta1");
        for field in ["reserveOrdinals", "lifecycle", "scaleStrategy", "ordinals"] {
            assert!(
                beta["properties"].get(field).is_some(),
                "{field} missing in v1beta1"
            );
            assert!(
                alpha["properties"].get(field).is_some(),
                "{field} would be pruned from storage"
            );
        }
        assert_eq!(alpha, beta, "the two served schemas must be the same superset");
        Ok(())
    }
}
