//! `CloneSet` (`apps.kruise.io/v1alpha1`): a set of interchangeable pods with in-place update,
//! partitioned rollout, surge, specified deletion and per-pod PVCs.
//!
//! The Rust shape is the v1alpha1 wire shape (flat `updateStrategy`), which is what existing
//! manifests use. Spec fields are all optional except `selector` and `template`; status counters
//! that upstream always writes are plain integers (required in the schema).

use k8s_openapi::api::core::v1::{PersistentVolumeClaim, PodTemplateSpec};
use k8s_openapi::apimachinery::pkg::apis::meta::v1::{LabelSelector, Time};
use kube::CustomResource;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::common::{
    InPlaceUpdateStrategy, IntOrString, Lifecycle, UpdatePriorityStrategy, UpdateScatterStrategy, cel,
    preserve_unknown_object, preserve_unknown_object_list,
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
    /// `true` disables reusing PVCs left by vanished pods.
    #[serde(default, rename = "disablePVCReuse", skip_serializing_if = "Option::is_none")]
    pub disable_pvc_reuse: Option<bool>,
}

/// `spec.updateStrategy` (v1alpha1: flat, the type is the pod update policy).
#[derive(Serialize, Deserialize, Clone, Debug, Default, PartialEq, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(transform = cel::rule(
    "!(has(self.type) && self.type == 'InPlaceOnly' && has(self.maxSurge) \
      && !(string(self.maxSurge) in ['0', '0%']))",
    "updateStrategy.maxSurge must be 0 when updateStrategy.type is InPlaceOnly",
))]
pub struct CloneSetUpdateStrategy {
    /// Pod update policy (default `ReCreate`).
    #[serde(default, rename = "type", skip_serializing_if = "Option::is_none")]
    pub type_: Option<CloneSetUpdateStrategyType>,
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

/// v1alpha1 `updateStrategy.type`.
#[derive(Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq, JsonSchema)]
pub enum CloneSetUpdateStrategyType {
    /// Always delete and recreate pods.
    ReCreate,
    /// Update in place when only in-place-able fields changed, else recreate.
    InPlaceIfPossible,
    /// Only update in place; never recreate.
    InPlaceOnly,
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
            serde_json::json!(["ReCreate", "InPlaceIfPossible", "InPlaceOnly"])
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
}
