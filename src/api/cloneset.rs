//! `CloneSet` (`apps.kruise.io`): a set of interchangeable pods with in-place update,
//! partitioned rollout, surge, specified deletion and per-pod PVCs.
//!
//! Invariants:
//! - The Rust shape is the superset of OpenKruise's two spellings, served as both `v1alpha1`
//!   and `v1beta1` (see [`super::versions`]): the flat `v1alpha1` `updateStrategy`
//!   (`type: ReCreate|InPlaceIfPossible|InPlaceOnly|OnDelete`, `partition`, ...) and the nested
//!   `v1beta1` one (`type: RollingUpdate|OnDelete`, `rollingUpdate.{podUpdatePolicy,
//!   partition, ...}`); `scaleStrategy.disablePVCReuse` and `v1beta1`'s inverted
//!   `enablePVCReuse`; `excludePreparingDelete` and its `v1alpha1` label.
//! - Nothing outside this module reads the spelled fields: [`CloneSetSpec::update`],
//!   [`CloneSetSpec::reuses_pvcs`] and [`CloneSetSpec::excludes_preparing_delete`] resolve
//!   them, and the `v1beta1` spelling wins when both are set.
//! - Spec fields are all optional except `selector` and `template`; status counters that
//!   upstream always writes are plain integers (required in the schema).

use k8s_openapi::api::core::v1::{PersistentVolumeClaim, PodTemplateSpec};
use k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition;
use k8s_openapi::apimachinery::pkg::apis::meta::v1::{LabelSelector, Time};
use kube::CustomResource;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::common::{
    InPlaceUpdateStrategy, IntOrString, Lifecycle, PodUpdatePolicy, UpdatePriorityStrategy,
    UpdateScatterStrategy, cel, preserve_unknown_object, preserve_unknown_object_list,
};

/// Desired state of a CloneSet.
#[allow(
    clippy::duplicated_attributes,
    reason = "printcolumn(...) entries legitimately repeat type_/priority"
)]
#[derive(CustomResource, Serialize, Deserialize, Clone, Debug, Default, PartialEq, JsonSchema)]
#[kube(
    group = "apps.kruise.io",
    version = "v1alpha1",
    kind = "CloneSet",
    plural = "clonesets",
    namespaced,
    status = "CloneSetStatus",
    shortname = "clone",
    scale(
        spec_replicas_path = ".spec.replicas",
        status_replicas_path = ".status.replicas",
        label_selector_path = ".status.labelSelector"
    ),
    printcolumn(
        name = "DESIRED",
        type_ = "integer",
        json_path = ".spec.replicas",
        description = "The desired number of pods."
    ),
    printcolumn(
        name = "UPDATED",
        type_ = "integer",
        json_path = ".status.updatedReplicas",
        description = "The number of pods updated."
    ),
    printcolumn(
        name = "UPDATED_READY",
        type_ = "integer",
        json_path = ".status.updatedReadyReplicas",
        description = "The number of pods updated and ready."
    ),
    printcolumn(
        name = "UPDATED_AVAILABLE",
        type_ = "integer",
        json_path = ".status.updatedAvailableReplicas",
        description = "The number of pods updated and available."
    ),
    printcolumn(
        name = "READY",
        type_ = "integer",
        json_path = ".status.readyReplicas",
        description = "The number of pods ready."
    ),
    printcolumn(
        name = "TOTAL",
        type_ = "integer",
        json_path = ".status.replicas",
        description = "The number of currently all pods."
    ),
    printcolumn(
        name = "AGE",
        type_ = "date",
        json_path = ".metadata.creationTimestamp",
        description = "Time since the object was created."
    ),
    printcolumn(
        name = "CONTAINERS",
        type_ = "string",
        priority = 1,
        json_path = ".spec.template.spec.containers[*].name",
        description = "The containers of currently cloneset."
    ),
    printcolumn(
        name = "IMAGES",
        type_ = "string",
        priority = 1,
        json_path = ".spec.template.spec.containers[*].image",
        description = "The images of currently cloneset."
    ),
    printcolumn(
        name = "SELECTOR",
        type_ = "string",
        priority = 1,
        json_path = ".status.labelSelector",
        description = "The selector of currently cloneset."
    )
)]
#[serde(rename_all = "camelCase")]
#[schemars(transform = cel::rule(
    "!has(self.progressDeadlineSeconds) || self.progressDeadlineSeconds == 2147483647 \
     || self.progressDeadlineSeconds > (has(self.minReadySeconds) ? self.minReadySeconds : 0)",
    "spec.progressDeadlineSeconds must be greater than spec.minReadySeconds",
))]
#[schemars(transform = cel::rule_at(cel::SELECTOR_NOT_EMPTY, ".selector", cel::SELECTOR_NOT_EMPTY_MSG))]
#[schemars(transform = cel::rule_at(cel::SELECTOR_IMMUTABLE, ".selector", cel::SELECTOR_IMMUTABLE_MSG))]
#[schemars(transform = cel::rule_at(
    "!(has(self.updateStrategy) && has(self.updateStrategy.maxUnavailable) \
       && string(self.updateStrategy.maxUnavailable) in ['0', '0%'] \
       && (!has(self.updateStrategy.maxSurge) || string(self.updateStrategy.maxSurge) in ['0', '0%']) \
       && (!has(self.replicas) || self.replicas > 0))",
    ".updateStrategy.maxUnavailable",
    "updateStrategy.maxUnavailable and updateStrategy.maxSurge must not both be 0 (no pod could ever be updated)",
))]
pub struct CloneSetSpec {
    /// Desired number of pods (default 1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(transform = cel::non_negative("spec.replicas"))]
    pub replicas: Option<i32>,
    /// Selects the pods of this set; must match the template labels. Immutable.
    pub selector: LabelSelector,
    /// Template of the pods (stored schemaless, as upstream does).
    #[schemars(schema_with = "preserve_unknown_object")]
    pub template: PodTemplateSpec,
    /// One PVC per template per pod, named `<claim>-<cloneset>-<instance id>`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(schema_with = "preserve_unknown_object_list")]
    pub volume_claim_templates: Option<Vec<PersistentVolumeClaim>>,
    /// How pods are created and deleted.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scale_strategy: Option<CloneSetScaleStrategy>,
    /// How pods are updated when the template changes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub update_strategy: Option<CloneSetUpdateStrategy>,
    /// Non-live revisions kept (default 10).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(transform = cel::non_negative("spec.revisionHistoryLimit"))]
    pub revision_history_limit: Option<i32>,
    /// Seconds a pod must be ready before it counts as available (default 0).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(transform = cel::non_negative("spec.minReadySeconds"))]
    pub min_ready_seconds: Option<i32>,
    /// Lifecycle hooks (preDelete, inPlaceUpdate, preNormal).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lifecycle: Option<Lifecycle>,
    /// Enables the `Progressing` condition; `2147483647` behaves as unset.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(transform = cel::non_negative("spec.progressDeadlineSeconds"))]
    pub progress_deadline_seconds: Option<i32>,
}

/// Marks a list of strings `x-kubernetes-list-type: set` (duplicates are refused).
fn list_type_set(schema: &mut schemars::Schema) {
    schema.insert("x-kubernetes-list-type".into(), serde_json::json!("set"));
}

/// `spec.scaleStrategy`.
#[derive(Serialize, Deserialize, Clone, Debug, Default, PartialEq, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct CloneSetScaleStrategy {
    /// Names of pods to delete; names of vanished pods are pruned by the controller. No
    /// name twice (`x-kubernetes-list-type: set`: the API server names the duplicate).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(transform = list_type_set)]
    pub pods_to_delete: Option<Vec<String>>,
    /// Caps pod creation while pods are unavailable (scale up only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(transform = cel::int_or_percent("scaleStrategy.maxUnavailable"))]
    pub max_unavailable: Option<IntOrString>,
    /// `true` disables reusing PVCs left by vanished pods (`v1alpha1` spelling).
    #[serde(default, rename = "disablePVCReuse", skip_serializing_if = "Option::is_none")]
    pub disable_pvc_reuse: Option<bool>,
    /// `true` reuses PVCs left by vanished pods (`v1beta1` spelling; a write through
    /// `v1beta1` defaults it to `false`). Wins over `disablePVCReuse`.
    #[serde(default, rename = "enablePVCReuse", skip_serializing_if = "Option::is_none")]
    pub enable_pvc_reuse: Option<bool>,
    /// Pods in the PreparingDelete lifecycle state do not count as replicas (`v1beta1`; in
    /// `v1alpha1` the label `apps.kruise.io/cloneset-scaling-exclude-preparing-delete`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exclude_preparing_delete: Option<bool>,
}

/// `spec.updateStrategy`: the flat `v1alpha1` fields and the nested `v1beta1` `rollingUpdate`.
#[derive(Serialize, Deserialize, Clone, Debug, Default, PartialEq, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(transform = cel::rule(
    "!(has(self.type) && self.type == 'InPlaceOnly' && has(self.maxSurge) \
      && !(string(self.maxSurge) in ['0', '0%']))",
    "updateStrategy.maxSurge must be 0 when updateStrategy.type is InPlaceOnly",
))]
pub struct CloneSetUpdateStrategy {
    /// `v1alpha1`: the pod update policy (default `ReCreate`) or `OnDelete`; `v1beta1`:
    /// `RollingUpdate` (default) or `OnDelete`.
    #[serde(default, rename = "type", skip_serializing_if = "Option::is_none")]
    pub type_: Option<CloneSetUpdateStrategyType>,
    /// The `v1beta1` rolling-update knobs; each one set here wins over its flat twin.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rolling_update: Option<RollingUpdateCloneSetStrategy>,
    /// Number or share of pods kept at the current revision (default 0).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(transform = cel::int_or_percent("updateStrategy.partition"))]
    pub partition: Option<IntOrString>,
    /// Unavailable budget during update and deletion (default `20%`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(transform = cel::int_or_percent("updateStrategy.maxUnavailable"))]
    pub max_unavailable: Option<IntOrString>,
    /// Extra pods above `replicas` during update (default 0).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(transform = cel::int_or_percent("updateStrategy.maxSurge"))]
    pub max_surge: Option<IntOrString>,
    /// Stop updating pods; scaling continues.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub paused: Option<bool>,
    /// Update order by weights or ordered label keys.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub priority_strategy: Option<UpdatePriorityStrategy>,
    /// Spread pods with the given labels across update batches.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scatter_strategy: Option<UpdateScatterStrategy>,
    /// Knobs of in-place updates.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub in_place_update_strategy: Option<InPlaceUpdateStrategy>,
}

/// `spec.updateStrategy.rollingUpdate` (`v1beta1`).
#[derive(Serialize, Deserialize, Clone, Debug, Default, PartialEq, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(transform = cel::rule(
    "!(has(self.podUpdatePolicy) && self.podUpdatePolicy == 'InPlaceOnly' && has(self.maxSurge) \
      && !(string(self.maxSurge) in ['0', '0%']))",
    "updateStrategy.rollingUpdate.maxSurge must be 0 when podUpdatePolicy is InPlaceOnly",
))]
pub struct RollingUpdateCloneSetStrategy {
    /// How pods are updated (default `ReCreate`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pod_update_policy: Option<PodUpdatePolicy>,
    /// Number or share of pods kept at the current revision (default 0).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(transform = cel::int_or_percent("updateStrategy.rollingUpdate.partition"))]
    pub partition: Option<IntOrString>,
    /// Unavailable budget during update and deletion (default `20%`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(transform = cel::int_or_percent("updateStrategy.rollingUpdate.maxUnavailable"))]
    pub max_unavailable: Option<IntOrString>,
    /// Extra pods above `replicas` during update (default 0).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(transform = cel::int_or_percent("updateStrategy.rollingUpdate.maxSurge"))]
    pub max_surge: Option<IntOrString>,
    /// Stop updating pods; scaling continues.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub paused: Option<bool>,
    /// Update order by weights or ordered label keys.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub priority_strategy: Option<UpdatePriorityStrategy>,
    /// Spread pods with the given labels across update batches.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scatter_strategy: Option<UpdateScatterStrategy>,
    /// Knobs of in-place updates.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub in_place_update_strategy: Option<InPlaceUpdateStrategy>,
}

/// `updateStrategy.type`, both spellings: `v1alpha1` names the pod update policy (or
/// `OnDelete`), `v1beta1` names `RollingUpdate` or `OnDelete`.
#[derive(Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq, JsonSchema)]
pub enum CloneSetUpdateStrategyType {
    /// Always delete and recreate pods.
    ReCreate,
    /// Update in place when only in-place-able fields changed, else recreate.
    InPlaceIfPossible,
    /// Only update in place; never recreate.
    InPlaceOnly,
    /// `v1beta1`: update pods as `rollingUpdate.podUpdatePolicy` says.
    RollingUpdate,
    /// Pods are updated only when deleted by hand.
    OnDelete,
}

impl From<PodUpdatePolicy> for CloneSetUpdateStrategyType {
    fn from(policy: PodUpdatePolicy) -> Self {
        match policy {
            PodUpdatePolicy::ReCreate => Self::ReCreate,
            PodUpdatePolicy::InPlaceIfPossible => Self::InPlaceIfPossible,
            PodUpdatePolicy::InPlaceOnly => Self::InPlaceOnly,
        }
    }
}

/// Label by which a `v1alpha1` CloneSet asks that PreparingDelete pods not count as replicas.
pub const EXCLUDE_PREPARING_DELETE_LABEL: &str = "apps.kruise.io/cloneset-scaling-exclude-preparing-delete";

impl CloneSetUpdateStrategy {
    /// Whether the strategy is spelled the `v1beta1` way (a `rollingUpdate` block or
    /// `type: RollingUpdate`): writers put knobs where the object already has them.
    pub fn is_nested(&self) -> bool {
        self.rolling_update.is_some() || self.type_ == Some(CloneSetUpdateStrategyType::RollingUpdate)
    }
}

/// [`CloneSetUpdateStrategy::is_nested`] of a `spec.updateStrategy` given as JSON (the
/// CLI's and the webhook's view); one that does not read counts as flat.
pub fn strategy_is_nested(strategy: &serde_json::Value) -> bool {
    !strategy.is_null()
        && serde_json::from_value::<CloneSetUpdateStrategy>(strategy.clone()).is_ok_and(|s| s.is_nested())
}

impl CloneSetSpec {
    /// The update strategy with both spellings resolved into the flat one: every knob set in
    /// `rollingUpdate` wins over its flat twin, `type` is the pod update policy
    /// (`RollingUpdate` becomes `rollingUpdate.podUpdatePolicy`, default `ReCreate`) or
    /// `OnDelete`, and `rolling_update` is `None`.
    pub fn update(&self) -> CloneSetUpdateStrategy {
        let flat = self.update_strategy.clone().unwrap_or_default();
        let nested = flat.rolling_update.clone().unwrap_or_default();
        use CloneSetUpdateStrategyType::{OnDelete, RollingUpdate};
        let type_ = match flat.type_ {
            Some(OnDelete) => Some(OnDelete),
            spelled => nested
                .pod_update_policy
                .map(Into::into)
                .or(spelled.filter(|t| *t != RollingUpdate)),
        };
        CloneSetUpdateStrategy {
            type_,
            rolling_update: None,
            partition: nested.partition.or(flat.partition),
            max_unavailable: nested.max_unavailable.or(flat.max_unavailable),
            max_surge: nested.max_surge.or(flat.max_surge),
            paused: nested.paused.or(flat.paused),
            priority_strategy: nested.priority_strategy.or(flat.priority_strategy),
            scatter_strategy: nested.scatter_strategy.or(flat.scatter_strategy),
            in_place_update_strategy: nested.in_place_update_strategy.or(flat.in_place_update_strategy),
        }
    }

    /// How pods are updated, both spellings resolved: `ReCreate` when unset, and for
    /// `OnDelete` (which updates no pod; a pod deleted by hand is recreated).
    pub fn pod_update_policy(&self) -> PodUpdatePolicy {
        match self.update().type_ {
            Some(CloneSetUpdateStrategyType::InPlaceIfPossible) => PodUpdatePolicy::InPlaceIfPossible,
            Some(CloneSetUpdateStrategyType::InPlaceOnly) => PodUpdatePolicy::InPlaceOnly,
            _ => PodUpdatePolicy::ReCreate,
        }
    }

    /// Whether PVCs left by vanished pods are reused: `enablePVCReuse` when set, else not
    /// `disablePVCReuse` when set, else `false` for a strategy spelled the `v1beta1` way
    /// (OpenKruise's `v1beta1` default) and `true` otherwise (its `v1alpha1` default).
    pub fn reuses_pvcs(&self) -> bool {
        let scale = self.scale_strategy.as_ref();
        scale
            .and_then(|s| s.enable_pvc_reuse)
            .or_else(|| scale.and_then(|s| s.disable_pvc_reuse).map(|d| !d))
            .unwrap_or_else(|| !self.update_strategy.as_ref().is_some_and(|u| u.is_nested()))
    }

    /// Whether pods in the PreparingDelete state stop counting as replicas: the field when
    /// set, else the `v1alpha1` label on the CloneSet (`labels`).
    pub fn excludes_preparing_delete(
        &self,
        labels: Option<&std::collections::BTreeMap<String, String>>,
    ) -> bool {
        self.scale_strategy
            .as_ref()
            .and_then(|s| s.exclude_preparing_delete)
            .unwrap_or_else(|| {
                labels
                    .and_then(|l| l.get(EXCLUDE_PREPARING_DELETE_LABEL))
                    .is_some_and(|v| v == "true")
            })
    }
}

/// `v1beta1`'s own default: a write through `v1beta1` gets `scaleStrategy.enablePVCReuse:
/// false` (OpenKruise's CRD default), so such an object keeps `v1beta1`'s meaning when it
/// is later read through `v1alpha1`.
pub fn with_beta_defaults(mut crd: CustomResourceDefinition) -> CustomResourceDefinition {
    use k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::JSON;
    if let Some(spec) = super::versions::schema_mut(&mut crd, "v1beta1")
        .and_then(|s| s.properties.as_mut())
        .and_then(|p| p.get_mut("spec"))
        .and_then(|s| s.properties.as_mut())
        .and_then(|p| p.get_mut("scaleStrategy"))
    {
        spec.default = Some(JSON(serde_json::json!({})));
        if let Some(enable) = spec.properties.as_mut().and_then(|p| p.get_mut("enablePVCReuse")) {
            enable.default = Some(JSON(serde_json::json!(false)));
        }
    }
    crd
}

/// Observed state of a CloneSet.
#[derive(Serialize, Deserialize, Clone, Debug, Default, PartialEq, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct CloneSetStatus {
    /// Generation the status was computed for.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub observed_generation: Option<i64>,
    /// Active pods.
    pub replicas: i32,
    /// Active pods that are ready.
    pub ready_replicas: i32,
    /// Active pods that are available.
    pub available_replicas: i32,
    /// Active pods at the update revision.
    pub updated_replicas: i32,
    /// Updated pods that are ready.
    pub updated_ready_replicas: i32,
    /// Updated pods that are available.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub updated_available_replicas: Option<i32>,
    /// `spec.replicas - partition`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expected_updated_replicas: Option<i32>,
    /// Name of the newest revision.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub update_revision: Option<String>,
    /// Name of the current revision.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub current_revision: Option<String>,
    /// Hash collisions met while naming revisions.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub collision_count: Option<i32>,
    /// `FailedScale`, `FailedUpdate`, `Progressing`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub conditions: Option<Vec<CloneSetCondition>>,
    /// The selector as a label-selector string (used by the scale subresource / HPA).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub label_selector: Option<String>,
}

/// A CloneSet condition: `type`, `status`, both timestamps, reason and message.
#[derive(Serialize, Deserialize, Clone, Debug, Default, PartialEq, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct CloneSetCondition {
    /// `FailedScale`, `FailedUpdate` or `Progressing`.
    #[serde(rename = "type")]
    pub type_: String,
    /// `True`, `False` or `Unknown`.
    pub status: String,
    /// When the condition was last written with a new reason or message.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_update_time: Option<Time>,
    /// When `status` last changed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_transition_time: Option<Time>,
    /// Machine-readable reason.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// Human-readable details.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::test_support::{
        assert_columns, assert_crd_names, assert_no_unknown_fields, assert_round_trip, assert_scale,
        assert_structural, assert_versions, documents_of_kind, unknown_fields, version_schema,
    };
    use kube::CustomResourceExt;

    fn typed(doc: &serde_json::Value) -> CloneSet {
        assert_round_trip::<CloneSet>(doc);
        serde_json::from_value(doc.clone()).expect("deserializes after a lossless round trip")
    }

    #[test]
    fn guestbook_and_redis_fixtures_round_trip_losslessly() {
        let crd = CloneSet::crd();
        let mut seen = 0;
        for file in ["cloneset-guestbook.yaml", "cloneset-redis.yaml"] {
            for doc in documents_of_kind(file, "CloneSet") {
                let cs = typed(&doc);
                assert!(cs.spec.replicas.is_some(), "{file}: replicas");
                assert_no_unknown_fields(&crd, &doc);
                seen += 1;
            }
        }
        assert_eq!(seen, 3);
    }

    #[test]
    fn guestbook_fixture_reads_update_strategy() {
        let docs = documents_of_kind("cloneset-guestbook.yaml", "CloneSet");
        let strategy = typed(&docs[0]).spec.update_strategy.expect("updateStrategy");
        assert_eq!(
            strategy.type_,
            Some(CloneSetUpdateStrategyType::InPlaceIfPossible)
        );
        assert_eq!(strategy.max_unavailable, Some(IntOrString::Int(3)));
    }

    #[test]
    fn full_object_with_status_round_trips_losslessly() {
        let doc = serde_json::json!({
            "apiVersion": "apps.kruise.io/v1alpha1",
            "kind": "CloneSet",
            "metadata": {"name": "s", "namespace": "default"},
            "spec": {
                "selector": {"matchLabels": {"app": "s"}},
                "template": {"metadata": {"labels": {"app": "s"}}, "spec": {"containers": []}},
                "updateStrategy": {"partition": "50%", "maxSurge": 1, "paused": false,
                    "priorityStrategy": {"orderPriority": [{"orderedKey": "k"}]},
                    "scatterStrategy": [{"key": "a", "value": "b"}],
                    "inPlaceUpdateStrategy": {"gracePeriodSeconds": 10}},
                "scaleStrategy": {"podsToDelete": ["s-abcde"], "disablePVCReuse": true},
                "lifecycle": {"preDelete": {"labelsHandler": {"hold": "true"}, "markPodNotReady": true}},
                "progressDeadlineSeconds": 600,
            },
            "status": {
                "observedGeneration": 2, "replicas": 1, "readyReplicas": 1, "availableReplicas": 1,
                "updatedReplicas": 1, "updatedReadyReplicas": 1, "updatedAvailableReplicas": 1,
                "expectedUpdatedReplicas": 1, "updateRevision": "s-1", "currentRevision": "s-1",
                "collisionCount": 0, "labelSelector": "app=s",
                "conditions": [{"type": "Progressing", "status": "True", "reason": "CloneSetAvailable",
                    "lastUpdateTime": "2024-01-01T00:00:00Z", "lastTransitionTime": "2024-01-01T00:00:00Z"}],
            },
        });
        assert_eq!(typed(&doc).status.map(|s| s.replicas), Some(1));
        assert_no_unknown_fields(&CloneSet::crd(), &doc);
    }

    #[test]
    fn misplaced_fields_fixture_is_rejected_under_strict_validation() {
        let docs = documents_of_kind("cloneset-sample-data.yaml", "CloneSet");
        let unknown = unknown_fields(&CloneSet::crd(), &docs[0]);
        assert!(
            unknown.contains(&".spec.updateStrategy.updateStrategy".to_owned()),
            "{unknown:?}"
        );
    }

    #[test]
    fn cloneset_crd_matches_the_openkruise_shape() {
        let crd = CloneSet::crd();
        assert_crd_names(
            &crd,
            "clonesets.apps.kruise.io",
            "CloneSet",
            "Namespaced",
            &["clone"],
        );
        assert_versions(&crd, &[("v1alpha1", true, true)]);
        assert_scale(&crd, "v1alpha1");
        assert_columns(
            &crd,
            "v1alpha1",
            &[
                "DESIRED",
                "UPDATED",
                "UPDATED_READY",
                "UPDATED_AVAILABLE",
                "READY",
                "TOTAL",
                "AGE",
                "CONTAINERS",
                "IMAGES",
                "SELECTOR",
            ],
        );
        assert_structural(&crd);
    }

    #[test]
    fn cloneset_schema_carries_enums_and_cel_rules() {
        let schema = version_schema(&CloneSet::crd(), "v1alpha1");
        let spec = &schema["properties"]["spec"];
        let strategy = &spec["properties"]["updateStrategy"]["properties"];
        assert_eq!(
            strategy["type"]["enum"],
            serde_json::json!([
                "ReCreate",
                "InPlaceIfPossible",
                "InPlaceOnly",
                "RollingUpdate",
                "OnDelete"
            ])
        );
        for field in ["partition", "maxUnavailable", "maxSurge"] {
            assert_eq!(strategy[field]["x-kubernetes-int-or-string"], true, "{field}");
            let rules = strategy[field]["x-kubernetes-validations"].to_string();
            assert!(rules.contains(field), "{field}: {rules}");
        }
        let priority = strategy["priorityStrategy"]["x-kubernetes-validations"].to_string();
        assert!(priority.contains("mutually exclusive"), "{priority}");
        let replicas = spec["properties"]["replicas"]["x-kubernetes-validations"].to_string();
        assert!(replicas.contains("self >= 0"), "{replicas}");
        assert_eq!(
            spec["properties"]["template"]["x-kubernetes-preserve-unknown-fields"],
            true
        );
    }

    fn spec(value: serde_json::Value) -> CloneSetSpec {
        let mut doc = serde_json::json!({ "selector": {}, "template": {} });
        doc.as_object_mut()
            .expect("object")
            .extend(value.as_object().expect("object").clone());
        serde_json::from_value(doc).expect("a CloneSet spec")
    }

    #[test]
    fn both_spellings_of_the_update_strategy_resolve_to_one_and_v1beta1_wins() {
        use CloneSetUpdateStrategyType::*;
        let flat = spec(serde_json::json!({ "updateStrategy": {
            "type": "InPlaceIfPossible", "partition": 2, "paused": true, "maxSurge": 1 } }));
        let nested = spec(serde_json::json!({ "updateStrategy": { "type": "RollingUpdate",
            "rollingUpdate": { "podUpdatePolicy": "InPlaceIfPossible", "partition": 2, "paused": true,
                "maxSurge": 1 } } }));
        assert_eq!(flat.update(), nested.update());
        assert_eq!(nested.update().type_, Some(InPlaceIfPossible));
        assert_eq!(nested.pod_update_policy(), PodUpdatePolicy::InPlaceIfPossible);
        let both = spec(
            serde_json::json!({ "updateStrategy": { "type": "InPlaceOnly", "partition": 5,
            "rollingUpdate": { "podUpdatePolicy": "ReCreate", "partition": "40%" } } }),
        );
        let resolved = both.update();
        assert_eq!(resolved.type_, Some(ReCreate));
        assert_eq!(resolved.partition, Some(IntOrString::String("40%".into())));
        let rolling_default = spec(serde_json::json!({ "updateStrategy": { "type": "RollingUpdate" } }));
        assert_eq!(rolling_default.pod_update_policy(), PodUpdatePolicy::ReCreate);
        let on_delete = spec(serde_json::json!({ "updateStrategy": { "type": "OnDelete",
            "rollingUpdate": { "podUpdatePolicy": "InPlaceOnly" } } }));
        assert_eq!(on_delete.update().type_, Some(OnDelete));
        assert_eq!(
            spec(serde_json::json!({})).update(),
            CloneSetUpdateStrategy::default()
        );
    }

    #[test]
    fn pvc_reuse_reads_both_spellings_and_each_version_s_default() {
        let cases = [
            (serde_json::json!({}), true),
            (
                serde_json::json!({ "scaleStrategy": { "disablePVCReuse": true } }),
                false,
            ),
            (
                serde_json::json!({ "scaleStrategy": { "enablePVCReuse": false } }),
                false,
            ),
            (
                serde_json::json!({ "scaleStrategy": { "enablePVCReuse": true, "disablePVCReuse": true } }),
                true,
            ),
            (
                serde_json::json!({ "updateStrategy": { "type": "RollingUpdate" } }),
                false,
            ),
            (
                serde_json::json!({ "updateStrategy": { "rollingUpdate": {} },
                "scaleStrategy": { "enablePVCReuse": true } }),
                true,
            ),
        ];
        for (value, reuses) in cases {
            assert_eq!(spec(value.clone()).reuses_pvcs(), reuses, "{value}");
        }
    }

    #[test]
    fn preparing_delete_exclusion_reads_the_field_or_the_v1alpha1_label() {
        let labels = std::collections::BTreeMap::from([(
            EXCLUDE_PREPARING_DELETE_LABEL.to_owned(),
            "true".to_owned(),
        )]);
        assert!(spec(serde_json::json!({})).excludes_preparing_delete(Some(&labels)));
        assert!(!spec(serde_json::json!({})).excludes_preparing_delete(None));
        let field = spec(serde_json::json!({ "scaleStrategy": { "excludePreparingDelete": true } }));
        assert!(field.excludes_preparing_delete(None));
    }

    #[test]
    fn a_write_through_v1beta1_defaults_pvc_reuse_off() {
        let crd = crate::api::crd_for_kind("CloneSet").expect("CloneSet CRD");
        let scale = |version: &str| {
            version_schema(&crd, version)["properties"]["spec"]["properties"]["scaleStrategy"].clone()
        };
        assert_eq!(scale("v1beta1")["default"], serde_json::json!({}));
        assert_eq!(scale("v1beta1")["properties"]["enablePVCReuse"]["default"], false);
        assert!(scale("v1alpha1").get("default").is_none());
    }
}
