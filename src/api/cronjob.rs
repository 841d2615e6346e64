//! `AdvancedCronJob` (`apps.kruise.io/v1alpha1`): start a Job or a BroadcastJob on a cron
//! schedule.
//!
//! Invariants:
//! - Exactly one of `template.jobTemplate` / `template.broadcastJobTemplate` is set (CEL).
//!   The v1beta1-only `imageListPullJobTemplate` is not part of this version.
//! - `jobTemplate` is a typed `batch/v1` JobTemplateSpec, schemaless in the CRD like upstream;
//!   `broadcastJobTemplate.spec` reuses [`BroadcastJobSpec`] so both kinds validate alike.
//! - CRD: short name `acj`; status subresource only; printer columns Schedule, Type,
//!   LastScheduleTime, AGE.

use k8s_openapi::{
    api::{batch::v1::JobTemplateSpec, core::v1::ObjectReference},
    apimachinery::pkg::apis::meta::v1::{ObjectMeta, Time},
};
use kube::CustomResource;
use schemars::{JsonSchema, Schema};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::{
    broadcastjob::{BroadcastJobSpec, RESTART_POLICY_RULE},
    common::{cel, preserve_unknown_object},
};

/// Annotation on each child: the scheduled time it was started for (RFC3339).
pub const SCHEDULED_AT_ANNOTATION: &str = "apps.kruise.io/scheduled-at";

/// Desired state of an AdvancedCronJob.
#[allow(
    clippy::duplicated_attributes,
    reason = "printcolumn(...) entries legitimately repeat type_/priority"
)]
#[derive(CustomResource, Serialize, Deserialize, Clone, Debug, Default, PartialEq, JsonSchema)]
#[kube(
    group = "apps.kruise.io",
    version = "v1alpha1",
    kind = "AdvancedCronJob",
    plural = "advancedcronjobs",
    namespaced,
    status = "AdvancedCronJobStatus",
    derive = "PartialEq",
    shortname = "acj",
    printcolumn(
        name = "Schedule",
        type_ = "string",
        json_path = ".spec.schedule",
        description = "Cron schedule"
    ),
    printcolumn(
        name = "Type",
        type_ = "string",
        json_path = ".status.type",
        description = "Kind of the children"
    ),
    printcolumn(
        name = "LastScheduleTime",
        type_ = "date",
        json_path = ".status.lastScheduleTime",
        description = "Last time a child was started"
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
    "!(has(self.timeZone) && self.schedule.contains('TZ'))",
    ".schedule",
    "schedule must not set TZ= or CRON_TZ= when timeZone is set",
))]
pub struct AdvancedCronJobSpec {
    /// Cron expression (5 fields or a `@` descriptor).
    #[schemars(transform = cel::rule("size(self) > 0", "schedule must not be empty"))]
    pub schedule: String,
    /// IANA time zone of the schedule.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(transform = cel::rule(
        "self != '' && self.lowerAscii() != 'local'",
        "timeZone must name an IANA zone (not empty, not Local)",
    ))]
    pub time_zone: Option<String>,
    /// A run later than this many seconds is skipped.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(transform = cel::non_negative("startingDeadlineSeconds"))]
    pub starting_deadline_seconds: Option<i64>,
    /// What to do when the previous run is still active.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub concurrency_policy: Option<ConcurrencyPolicy>,
    /// Stop starting new runs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub paused: Option<bool>,
    /// Successful children kept (default 3).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(transform = cel::non_negative("successfulJobsHistoryLimit"))]
    pub successful_jobs_history_limit: Option<i32>,
    /// Failed children kept (default 1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(transform = cel::non_negative("failedJobsHistoryLimit"))]
    pub failed_jobs_history_limit: Option<i32>,
    /// The child to start.
    pub template: CronJobTemplate,
}

/// `Allow` (default), `Forbid` or `Replace`.
#[derive(Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq, JsonSchema)]
pub enum ConcurrencyPolicy {
    /// Runs may overlap.
    Allow,
    /// Skip a run while the previous one is active.
    Forbid,
    /// Delete the active run and start the new one.
    Replace,
}

/// The child template: exactly one of the two.
#[derive(Serialize, Deserialize, Clone, Debug, Default, PartialEq, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(transform = cel::rule(
    "(has(self.jobTemplate) ? 1 : 0) + (has(self.broadcastJobTemplate) ? 1 : 0) \
     + (has(self.imageListPullJobTemplate) ? 1 : 0) == 1",
    "template must set exactly one of jobTemplate, broadcastJobTemplate and imageListPullJobTemplate",
))]
pub struct CronJobTemplate {
    /// A `batch/v1` Job template.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(schema_with = "preserve_unknown_object")]
    pub job_template: Option<JobTemplateSpec>,
    /// A BroadcastJob template.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub broadcast_job_template: Option<BroadcastJobTemplateSpec>,
    /// `v1beta1`: an ImageListPullJob template (kept, not run: image pulls need
    /// OpenKruise's node agent).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(schema_with = "preserve_unknown_object")]
    pub image_list_pull_job_template: Option<serde_json::Value>,
}

/// Metadata and spec of the BroadcastJobs to create.
#[derive(Serialize, Deserialize, Clone, Debug, Default, PartialEq, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct BroadcastJobTemplateSpec {
    /// Labels and annotations of the children.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(schema_with = "preserve_unknown_object")]
    pub metadata: Option<ObjectMeta>,
    /// Spec of the children.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(transform = without_restart_policy_rule)]
    pub spec: Option<BroadcastJobSpec>,
}

/// Drops the BroadcastJob pod-template `restartPolicy` rule from the embedded spec: upstream's
/// AdvancedCronJob webhook does not check it (the children then fail to be created instead).
fn without_restart_policy_rule(schema: &mut Schema) {
    let Some(template) = schema
        .get_mut("properties")
        .and_then(|p| p.get_mut("template"))
        .and_then(Value::as_object_mut)
    else {
        return;
    };
    if let Some(Value::Array(rules)) = template.get_mut("x-kubernetes-validations") {
        rules.retain(|r| r["rule"] != RESTART_POLICY_RULE);
        if rules.is_empty() {
            template.remove("x-kubernetes-validations");
        }
    }
}

/// Observed state of an AdvancedCronJob.
#[derive(Serialize, Deserialize, Clone, Debug, Default, PartialEq, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct AdvancedCronJobStatus {
    /// `Job` or `BroadcastJob`.
    #[serde(default, skip_serializing_if = "Option::is_none", rename = "type")]
    pub type_: Option<String>,
    /// Unfinished children.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub active: Option<Vec<ObjectReference>>,
    /// Latest scheduled time among the children (kept once seen).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_schedule_time: Option<Time>,
    /// kubectl-kruise: `FailedCreate` while the last child create failed (upstream has no
    /// conditions; the schedule goes on).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub conditions: Option<Vec<super::common::Condition>>,
}

#[cfg(test)]
mod tests {
    use kube::CustomResourceExt;
    use serde_json::json;

    use super::*;
    use crate::api::test_support::*;

    #[test]
    fn advancedcronjob_crd_matches_the_openkruise_shape() {
        let crd = AdvancedCronJob::crd();
        assert_crd_names(
            &crd,
            "advancedcronjobs.apps.kruise.io",
            "AdvancedCronJob",
            "Namespaced",
            &["acj"],
        );
        assert_versions(&crd, &[("v1alpha1", true, true)]);
        assert_no_scale(&crd);
        assert_columns(&crd, "v1alpha1", &["Schedule", "Type", "LastScheduleTime", "AGE"]);
        let spec = spec_schema(&crd, "v1alpha1");
        assert_eq!(
            spec["properties"]["concurrencyPolicy"]["enum"],
            json!(["Allow", "Forbid", "Replace"])
        );
    }

    #[test]
    fn the_broadcastjob_template_skips_the_restart_policy_rule_as_upstream_does() {
        let spec = spec_schema(&AdvancedCronJob::crd(), "v1alpha1");
        let bcj = &spec["properties"]["template"]["properties"]["broadcastJobTemplate"];
        let template = &bcj["properties"]["spec"]["properties"]["template"];
        assert_eq!(template["x-kubernetes-preserve-unknown-fields"], true);
        assert!(template.get("x-kubernetes-validations").is_none(), "{template}");
    }

    #[test]
    fn a_tz_prefix_and_time_zone_together_are_refused_at_schedule() {
        let rules = spec_schema(&AdvancedCronJob::crd(), "v1alpha1")["x-kubernetes-validations"].clone();
        let rule = rules
            .as_array()
            .and_then(|r| {
                r.iter()
                    .find(|r| r["rule"].as_str().is_some_and(|r| r.contains("TZ")))
            })
            .expect("TZ rule");
        assert_eq!(rule["fieldPath"], ".schedule");
    }

    #[test]
    fn a_broadcastjob_cron_round_trips_losslessly() {
        let doc = json!({
            "apiVersion": "apps.kruise.io/v1alpha1",
            "kind": "AdvancedCronJob",
            "metadata": {"name": "acj-test"},
            "spec": {
                "schedule": "*/1 * * * *",
                "startingDeadlineSeconds": 60,
                "template": {"broadcastJobTemplate": {
                    "metadata": {"labels": {"run": "nightly"}},
                    "spec": {
                        "template": {"spec": {"containers": [{"name": "pi", "image": "perl"}], "restartPolicy": "Never"}},
                        "completionPolicy": {"type": "Always", "ttlSecondsAfterFinished": 30}
                    }
                }}
            }
        });
        assert_round_trip::<AdvancedCronJob>(&doc);
        assert_no_unknown_fields(&AdvancedCronJob::crd(), &doc);
    }

    #[test]
    fn a_job_cron_round_trips_losslessly() {
        let doc = json!({
            "apiVersion": "apps.kruise.io/v1alpha1",
            "kind": "AdvancedCronJob",
            "metadata": {"name": "acj-job"},
            "spec": {
                "schedule": "@hourly",
                "timeZone": "Asia/Shanghai",
                "concurrencyPolicy": "Forbid",
                "template": {"jobTemplate": {"spec": {"template": {"spec": {
                    "containers": [{"name": "c", "image": "busybox"}], "restartPolicy": "OnFailure"
                }}}}}
            }
        });
        assert_round_trip::<AdvancedCronJob>(&doc);
    }
}
