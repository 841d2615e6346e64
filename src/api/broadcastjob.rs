//! `BroadcastJob` (`apps.kruise.io/v1alpha1`): run one pod to completion on every eligible
//! node.
//!
//! Invariants:
//! - `completionPolicy.type` and `failurePolicy.type` are plain strings: upstream does not
//!   validate them, so unknown values must stay accepted (`Always`/`Never`,
//!   `Continue`/`FailFast`/`Pause` are the meaningful ones, see the constants).
//! - `BroadcastJobSpec` is also embedded by `AdvancedCronJob.spec.template.broadcastJobTemplate`.
//! - CRD: short name `bcj`; status subresource only; printer columns Desired, Active,
//!   Succeeded, Failed, AGE.

use k8s_openapi::{api::core::v1::PodTemplateSpec, apimachinery::pkg::apis::meta::v1::Time};
use kube::CustomResource;
use schemars::{JsonSchema, Schema, SchemaGenerator, json_schema};
use serde::{Deserialize, Serialize};

use super::common::{IntOrString, cel};

/// `completionPolicy.type`: the job finishes once every desired node ran its pod.
pub const COMPLETION_ALWAYS: &str = "Always";
/// `completionPolicy.type`: the job never finishes and keeps serving new nodes.
pub const COMPLETION_NEVER: &str = "Never";
/// `failurePolicy.type` values.
pub const FAILURE_POLICY_TYPES: [&str; 3] = ["Continue", "FailFast", "Pause"];
/// Pod label naming the job.
pub const JOB_NAME_LABEL: &str = "broadcastjob-name";
/// Pod label carrying the job UID.
pub const JOB_UID_LABEL: &str = "broadcastjob-controller-uid";

/// Desired state of a BroadcastJob.
#[allow(
    clippy::duplicated_attributes,
    reason = "printcolumn(...) entries legitimately repeat type_/priority"
)]
#[derive(CustomResource, Serialize, Deserialize, Clone, Debug, Default, PartialEq, JsonSchema)]
#[kube(
    group = "apps.kruise.io",
    version = "v1alpha1",
    kind = "BroadcastJob",
    plural = "broadcastjobs",
    namespaced,
    status = "BroadcastJobStatus",
    derive = "PartialEq",
    shortname = "bcj",
    printcolumn(
        name = "Desired",
        type_ = "integer",
        json_path = ".status.desired",
        description = "Nodes that should run the pod"
    ),
    printcolumn(
        name = "Active",
        type_ = "integer",
        json_path = ".status.active",
        description = "Running pods"
    ),
    printcolumn(
        name = "Succeeded",
        type_ = "integer",
        json_path = ".status.succeeded",
        description = "Pods that succeeded"
    ),
    printcolumn(
        name = "Failed",
        type_ = "integer",
        json_path = ".status.failed",
        description = "Pods that failed"
    ),
    printcolumn(
        name = "AGE",
        type_ = "date",
        json_path = ".metadata.creationTimestamp",
        description = "Time since creation"
    )
)]
#[serde(rename_all = "camelCase")]
pub struct BroadcastJobSpec {
    /// Most pods active at once (default: unlimited).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(transform = cel::int_or_percent("parallelism"))]
    pub parallelism: Option<IntOrString>,
    /// Pod template (`restartPolicy` must be Never or OnFailure).
    #[schemars(schema_with = "job_pod_template")]
    pub template: PodTemplateSpec,
    /// When the job is finished.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub completion_policy: Option<CompletionPolicy>,
    /// Stop creating pods and stop the completion logic.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub paused: Option<bool>,
    /// What to do when pods fail.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub failure_policy: Option<FailurePolicy>,
}

/// The CEL rule on the pod template: upstream's pod defaults turn an unset `restartPolicy` into
/// `Always`, which the BroadcastJob webhook then refuses, so it must be set to one of the two.
pub(crate) const RESTART_POLICY_RULE: &str = "has(self.spec) && has(self.spec.restartPolicy) \
     && self.spec.restartPolicy in ['Never', 'OnFailure']";

/// `schema_with` for the pod template: schemaless like upstream's CRD (unknown fields kept),
/// except that `spec.restartPolicy` is declared so [`RESTART_POLICY_RULE`] can read it.
/// (A declared property of a preserve-unknown-fields object is still structural.)
pub(crate) fn job_pod_template(_: &mut SchemaGenerator) -> Schema {
    let mut schema = json_schema!({
        "type": "object",
        "x-kubernetes-preserve-unknown-fields": true,
        "properties": {
            "spec": {
                "type": "object",
                "x-kubernetes-preserve-unknown-fields": true,
                "properties": { "restartPolicy": { "type": "string" } },
            },
        },
    });
    cel::rule_at(
        RESTART_POLICY_RULE,
        ".spec.restartPolicy",
        "template.spec.restartPolicy must be Never or OnFailure",
    )(&mut schema);
    schema
}

/// When the job is finished, and how long it is kept afterwards.
#[derive(Serialize, Deserialize, Clone, Debug, Default, PartialEq, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(transform = cel::rule_at(
    "!(has(self.type) && self.type == 'Never' && has(self.ttlSecondsAfterFinished))",
    ".ttlSecondsAfterFinished",
    "completionPolicy.ttlSecondsAfterFinished needs completionPolicy.type Always",
))]
#[schemars(transform = cel::rule_at(
    "!(has(self.type) && self.type == 'Never' && has(self.activeDeadlineSeconds))",
    ".activeDeadlineSeconds",
    "completionPolicy.activeDeadlineSeconds needs completionPolicy.type Always",
))]
pub struct CompletionPolicy {
    /// `Always` (default) or `Never`.
    #[serde(default, skip_serializing_if = "Option::is_none", rename = "type")]
    pub type_: Option<String>,
    /// The job fails once this long has passed since `status.startTime`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub active_deadline_seconds: Option<i64>,
    /// The job is deleted this long after it finished.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ttl_seconds_after_finished: Option<i32>,
}

/// What to do when failed pods exist.
#[derive(Serialize, Deserialize, Clone, Debug, Default, PartialEq, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct FailurePolicy {
    /// `Continue`, `FailFast` (default) or `Pause`.
    #[serde(default, skip_serializing_if = "Option::is_none", rename = "type")]
    pub type_: Option<String>,
    /// Restarts after which an `OnFailure` pod counts as failed (per pod, default 0).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub restart_limit: Option<i32>,
}

/// Observed state of a BroadcastJob.
#[derive(Serialize, Deserialize, Clone, Debug, Default, PartialEq, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct BroadcastJobStatus {
    /// `Complete` / `Failed`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub conditions: Option<Vec<JobCondition>>,
    /// When the controller first saw the job.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start_time: Option<Time>,
    /// When the job completed or failed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub completion_time: Option<Time>,
    /// Running pods.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub active: Option<i32>,
    /// Succeeded pods.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub succeeded: Option<i32>,
    /// Failed pods.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub failed: Option<i32>,
    /// Nodes that should run the pod.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub desired: Option<i32>,
    /// `running`, `paused`, `completed` or `failed`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub phase: Option<String>,
}

/// A job condition.
#[derive(Serialize, Deserialize, Clone, Debug, Default, PartialEq, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct JobCondition {
    /// `Complete` or `Failed`.
    #[serde(rename = "type")]
    pub type_: String,
    /// `True`, `False` or `Unknown`.
    pub status: String,
    /// When the condition was last probed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_probe_time: Option<Time>,
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
    use kube::CustomResourceExt;

    use super::*;
    use crate::api::test_support::*;

    #[test]
    fn the_handbook_broadcastjob_round_trips_losslessly() {
        let docs = documents_of_kind("broadcastjob-ttl.yaml", "BroadcastJob");
        assert_eq!(docs.len(), 1);
        assert_round_trip::<BroadcastJob>(&docs[0]);
        assert_no_unknown_fields(&BroadcastJob::crd(), &docs[0]);
    }

    #[test]
    fn the_pod_template_stays_schemaless_but_its_restart_policy_is_checked() {
        let spec = spec_schema(&BroadcastJob::crd(), "v1alpha1");
        let template = &spec["properties"]["template"];
        assert_eq!(template["x-kubernetes-preserve-unknown-fields"], true);
        assert_eq!(
            template["properties"]["spec"]["x-kubernetes-preserve-unknown-fields"],
            true
        );
        let rule = &template["x-kubernetes-validations"][0];
        assert_eq!(rule["rule"], RESTART_POLICY_RULE);
        assert_eq!(rule["fieldPath"], ".spec.restartPolicy");
    }

    #[test]
    fn completion_policy_rules_name_the_field_upstream_names() {
        let spec = spec_schema(&BroadcastJob::crd(), "v1alpha1");
        let rules = &spec["properties"]["completionPolicy"]["x-kubernetes-validations"];
        let paths: Vec<&str> = rules
            .as_array()
            .expect("rules")
            .iter()
            .filter_map(|r| r["fieldPath"].as_str())
            .collect();
        assert_eq!(paths, [".ttlSecondsAfterFinished", ".activeDeadlineSeconds"]);
    }

    #[test]
    fn broadcastjob_crd_matches_the_openkruise_shape() {
        let crd = BroadcastJob::crd();
        assert_crd_names(
            &crd,
            "broadcastjobs.apps.kruise.io",
            "BroadcastJob",
            "Namespaced",
            &["bcj"],
        );
        assert_versions(&crd, &[("v1alpha1", true, true)]);
        assert_no_scale(&crd);
        assert_columns(
            &crd,
            "v1alpha1",
            &["Desired", "Active", "Succeeded", "Failed", "AGE"],
        );
    }
}
