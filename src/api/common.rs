//! Types shared by several `apps.kruise.io` kinds, plus the schema helpers every kind uses.
//!
//! Invariants:
//! - Every field mirrors the OpenKruise JSON name and shape; optional fields are `Option` and
//!   are skipped when `None`, so `deserialize → serialize` never adds a key (lossless).
//! - Schema helpers only ever produce structural schemas: an `object` node always carries
//!   `properties`, `additionalProperties` or `x-kubernetes-preserve-unknown-fields`.
//! - CEL rules (`x-kubernetes-validations`) only check what the upstream admission webhook
//!   also rejects, so manifests accepted by OpenKruise stay accepted. Every rule carries a
//!   message naming the field it checks.
//!
//! ```text
//! UpdatePriorityStrategy ─┬─ weightPriority[] {weight, matchSelector}
//!                         └─ orderPriority[]  {orderedKey}          (mutually exclusive)
//! Lifecycle ── preDelete / inPlaceUpdate / preNormal: LifecycleHook
//! ```

use std::collections::BTreeMap;

use k8s_openapi::apimachinery::pkg::apis::meta::v1::{LabelSelector, Time};
use schemars::{JsonSchema, Schema, SchemaGenerator, json_schema};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

pub use k8s_openapi::apimachinery::pkg::util::intstr::IntOrString;

/// The order in which pods are picked for an update: either by summed weights of matching
/// selectors (`weightPriority`) or by an integer label value (`orderPriority`), never both.
#[derive(Serialize, Deserialize, Clone, Debug, Default, PartialEq, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(transform = cel::rule(
    "!(has(self.weightPriority) && size(self.weightPriority) > 0 \
      && has(self.orderPriority) && size(self.orderPriority) > 0)",
    "priorityStrategy.weightPriority and priorityStrategy.orderPriority are mutually exclusive",
))]
pub struct UpdatePriorityStrategy {
    /// Label keys whose integer value orders the pods; an earlier key wins.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub order_priority: Option<Vec<UpdatePriorityOrderTerm>>,
    /// Selector terms; a pod's priority is the sum of the weights of the terms it matches.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub weight_priority: Option<Vec<UpdatePriorityWeightTerm>>,
}

/// One `orderPriority` entry.
#[derive(Serialize, Deserialize, Clone, Debug, Default, PartialEq, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct UpdatePriorityOrderTerm {
    /// Label key whose value (its trailing integer) gives the order; must not be empty.
    #[schemars(length(min = 1))]
    pub ordered_key: String,
}

/// One `weightPriority` entry.
#[derive(Serialize, Deserialize, Clone, Debug, Default, PartialEq, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct UpdatePriorityWeightTerm {
    /// Weight added when the selector matches, 0..=100.
    #[schemars(range(min = 0, max = 100))]
    pub weight: i32,
    /// Pods matching this selector get the weight.
    pub match_selector: LabelSelector,
}

/// Scatter terms: pods carrying `key=value` are spread across the update order.
pub type UpdateScatterStrategy = Vec<UpdateScatterTerm>;

/// One scatter term (`key` and `value` of a pod label).
#[derive(Serialize, Deserialize, Clone, Debug, Default, PartialEq, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct UpdateScatterTerm {
    /// Label key; must not be empty.
    #[schemars(length(min = 1))]
    pub key: String,
    /// Label value.
    pub value: String,
}

/// Knobs of an in-place update.
#[derive(Serialize, Deserialize, Clone, Debug, Default, PartialEq, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct InPlaceUpdateStrategy {
    /// Seconds between marking the pod not-ready and patching its spec.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(transform = cel::non_negative("inPlaceUpdateStrategy.gracePeriodSeconds"))]
    pub grace_period_seconds: Option<i32>,
    /// Image pre-download parallelism (needs the node agent).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(transform = cel::int_or_percent("inPlaceUpdateStrategy.imagePreDownloadParallelism"))]
    pub image_pre_download_parallelism: Option<IntOrString>,
    /// Image pre-download timeout in seconds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub image_pre_download_timeout_seconds: Option<i32>,
    /// Updated-and-ready pods required before images are pre-downloaded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub image_pre_download_min_updated_ready_pods: Option<i32>,
}

/// How pods are updated: recreated, or patched in place when only in-place-able fields changed.
///
/// `ReCreate` always recreates; `InPlaceIfPossible` falls back to recreate per pod;
/// `InPlaceOnly` never recreates (the rollout stalls instead).
#[derive(Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq, JsonSchema)]
pub enum PodUpdatePolicy {
    /// Delete and recreate the pod.
    ReCreate,
    /// Patch in place when possible, else recreate.
    InPlaceIfPossible,
    /// Only patch in place; never recreate.
    InPlaceOnly,
}

/// Lifecycle hooks on pods: the controller waits for someone to remove the hook's labels or
/// finalizers before going on.
#[derive(Serialize, Deserialize, Clone, Debug, Default, PartialEq, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Lifecycle {
    /// Hook run before a pod is deleted (state `PreparingDelete`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pre_delete: Option<LifecycleHook>,
    /// Hook run before an in-place update (state `PreparingUpdate`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub in_place_update: Option<LifecycleHook>,
    /// Hook that must be satisfied before a new pod becomes `Normal`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pre_normal: Option<LifecycleHook>,
}

/// A pod is "hooked" while it carries any of these labels (same value) or finalizers.
#[derive(Serialize, Deserialize, Clone, Debug, Default, PartialEq, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct LifecycleHook {
    /// Labels that hold the pod in the hook state.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub labels_handler: Option<BTreeMap<String, String>>,
    /// Finalizers that hold the pod in the hook state.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub finalizers_handler: Option<Vec<String>>,
    /// Set the `KruisePodReady` condition to False while hooked.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mark_pod_not_ready: Option<bool>,
}

/// A status condition (`type`, `status` and the usual metadata), as written by Kruise for
/// StatefulSets, DaemonSets, WorkloadSpread and UnitedDeployment subsets.
#[derive(Serialize, Deserialize, Clone, Debug, Default, PartialEq, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Condition {
    /// Condition type, e.g. `FailedCreatePod` or `Schedulable`.
    #[serde(rename = "type")]
    pub type_: String,
    /// `True`, `False` or `Unknown`.
    pub status: String,
    /// When `status` last changed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_transition_time: Option<Time>,
    /// Machine-readable reason of the last transition.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// Human-readable details.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
    /// Generation the condition was computed for (`metav1.Condition`, as `v1beta1`
    /// WorkloadSpread subsets write it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub observed_generation: Option<i64>,
}

/// `schema_with` for typed Kubernetes objects that OpenKruise stores schemaless (pod
/// templates, claim templates, raw patches): an object whose content is kept as is.
pub(crate) fn preserve_unknown_object(_: &mut SchemaGenerator) -> Schema {
    json_schema!({ "type": "object", "x-kubernetes-preserve-unknown-fields": true })
}

/// `schema_with` for lists of schemaless objects (`volumeClaimTemplates`, `volumes`).
pub(crate) fn preserve_unknown_object_list(_: &mut SchemaGenerator) -> Schema {
    json_schema!({
        "type": "array",
        "items": { "type": "object", "x-kubernetes-preserve-unknown-fields": true },
    })
}

/// Schema transforms adding `x-kubernetes-validations` (CEL) rules, for use as
/// `#[schemars(transform = ...)]` on a field or struct.
///
/// Why list items get OpenAPI checks instead: the API server multiplies a rule's estimated
/// cost by the largest possible number of list items (bounded only by the 3 MiB request size
/// when `maxItems` is absent), so a `matches()` on every `subsets[].replicas` already exceeds
/// the per-CRD CEL budget and the CRD is refused. Upstream lists have no `maxItems`, and
/// adding one would reject manifests OpenKruise accepts, so values inside lists use the
/// equivalent `pattern` / `minimum` checks (`cel::in_list`), which cost nothing; the API server
/// names the field path in their errors.
pub(crate) mod cel {
    use super::*;

    /// A workload's `selector` has matchLabels or matchExpressions (spec-level rule).
    pub(crate) const SELECTOR_NOT_EMPTY: &str = "(has(self.selector.matchLabels) && size(self.selector.matchLabels) > 0) \
         || (has(self.selector.matchExpressions) && size(self.selector.matchExpressions) > 0)";
    pub(crate) const SELECTOR_NOT_EMPTY_MSG: &str =
        "selector must have matchLabels or matchExpressions (an empty selector would select every pod)";
    /// A workload's `selector` never changes (spec-level transition rule).
    pub(crate) const SELECTOR_IMMUTABLE: &str = "self.selector == oldSelf.selector";
    pub(crate) const SELECTOR_IMMUTABLE_MSG: &str = "selector is immutable";

    /// An int-or-percent string is at most this long; bounding it keeps the CEL cost estimate
    /// of `matches()` small.
    const INT_OR_PERCENT_MAX_LENGTH: u64 = 16;

    /// Adds one rule with a fixed message.
    pub(crate) fn rule(rule: &'static str, message: &'static str) -> impl FnMut(&mut Schema) {
        move |schema| push(schema, rule, message.to_owned())
    }

    /// Adds one rule whose error the API server reports at `field_path` (relative to the node
    /// carrying the rule, e.g. `.rollingUpdate.maxSurge`) instead of at the node itself, so a
    /// cross-field check names the field upstream's webhook names.
    pub(crate) fn rule_at(
        rule: &'static str,
        field_path: &'static str,
        message: &'static str,
    ) -> impl FnMut(&mut Schema) {
        move |schema| {
            push(schema, rule, message.to_owned());
            if let Some(Value::Array(rules)) = schema.get_mut("x-kubernetes-validations")
                && let Some(Value::Object(last)) = rules.last_mut()
            {
                last.insert("fieldPath".into(), json!(field_path));
            }
        }
    }

    /// An integer that must be `>= 0`.
    pub(crate) fn non_negative(field: &'static str) -> impl FnMut(&mut Schema) {
        move |schema| push(schema, "self >= 0", format!("{field} must not be negative"))
    }

    /// An integer that must lie in `min..=max`.
    pub(crate) fn int_range(field: &'static str, min: i64, max: i64) -> impl FnMut(&mut Schema) {
        move |schema| {
            push(
                schema,
                &format!("self >= {min} && self <= {max}"),
                format!("{field} must be between {min} and {max}"),
            )
        }
    }

    /// An int-or-string that must be an integer `>= 0` or a string `N%`.
    pub(crate) fn int_or_percent(field: &'static str) -> impl FnMut(&mut Schema) {
        move |schema| {
            int_or_string(schema);
            push(
                schema,
                "type(self) == string ? self.matches('^[0-9]+%$') : self >= 0",
                format!("{field} must be a non-negative integer or a percentage such as '25%'"),
            )
        }
    }

    /// Like [`int_or_percent`], but a percentage may not exceed 100%.
    pub(crate) fn int_or_percent_max_100(field: &'static str) -> impl FnMut(&mut Schema) {
        move |schema| {
            int_or_string(schema);
            push(
                schema,
                "type(self) == string ? self.matches('^[0-9]+%$') \
                 && int(self.substring(0, size(self) - 1)) <= 100 : self >= 0",
                format!("{field} must be a non-negative integer or a percentage between 0% and 100%"),
            )
        }
    }

    /// An int-or-string that must be an integer `>= 1` or a percentage of at least 1%.
    pub(crate) fn positive_int_or_percent(field: &'static str) -> impl FnMut(&mut Schema) {
        move |schema| {
            int_or_string(schema);
            push(
                schema,
                "type(self) == string ? self.matches('^[0-9]*[1-9][0-9]*%$') : self >= 1",
                format!("{field} must be a positive integer or a percentage of at least 1%"),
            )
        }
    }

    /// OpenAPI (non-CEL) equivalents for values inside lists; see the module doc.
    ///
    /// On an int-or-string node `pattern` only applies to strings and `minimum` only to
    /// integers, which together express "an integer >= 0 or a string `N%`".
    pub(crate) mod in_list {
        use super::*;

        /// An integer `>= 0` or a string `N%`.
        pub(crate) fn int_or_percent(schema: &mut Schema) {
            int_or_string(schema);
            schema.insert("pattern".into(), json!("^[0-9]+%$"));
            schema.insert("minimum".into(), json!(0));
        }

        /// An integer `>= 0` or a string between `0%` and `100%`.
        pub(crate) fn int_or_percent_max_100(schema: &mut Schema) {
            int_or_string(schema);
            schema.insert("pattern".into(), json!("^0*([0-9]{1,2}|100)%$"));
            schema.insert("minimum".into(), json!(0));
        }

        /// For `Option<Vec<IntOrString>>` fields: each item is an ordinal `>= 0` or a
        /// range `"a-b"`.
        pub(crate) fn ordinal_or_range_items(schema: &mut Schema) {
            if let Some(items) = schema.get_mut("items").and_then(Value::as_object_mut) {
                items.insert("x-kubernetes-int-or-string".into(), Value::Bool(true));
                items.insert("maxLength".into(), json!(INT_OR_PERCENT_MAX_LENGTH * 2));
                items.insert("pattern".into(), json!("^[0-9]+-[0-9]+$"));
                items.insert("minimum".into(), json!(0));
            }
        }
    }

    /// Marks the node `x-kubernetes-int-or-string` and bounds the string length.
    fn int_or_string(schema: &mut Schema) {
        schema.insert("x-kubernetes-int-or-string".into(), Value::Bool(true));
        schema.insert("maxLength".into(), json!(INT_OR_PERCENT_MAX_LENGTH));
    }

    /// Appends `{rule, message}` to the node's `x-kubernetes-validations`.
    fn push(schema: &mut Schema, rule: &str, message: String) {
        let entry = json!({ "rule": rule, "message": message });
        match schema.get_mut("x-kubernetes-validations") {
            Some(Value::Array(rules)) => rules.push(entry),
            _ => {
                schema.insert("x-kubernetes-validations".into(), Value::Array(vec![entry]));
            }
        }
    }
}

/// A workload another object refers to (a WorkloadSpread's or a PodUnavailableBudget's
/// `targetRef`), in the object's namespace.
#[derive(Serialize, Deserialize, Clone, Debug, Default, PartialEq, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct TargetReference {
    /// API version of the target; must not be empty.
    #[schemars(length(min = 1))]
    pub api_version: String,
    /// Kind of the target; must not be empty.
    #[schemars(length(min = 1))]
    pub kind: String,
    /// Name of the target; must not be empty.
    #[schemars(length(min = 1))]
    pub name: String,
}

#[cfg(test)]
mod tests {
    use super::*;
    use schemars::generate::SchemaSettings;

    fn schema_of<T: JsonSchema>() -> Value {
        let settings = SchemaSettings::openapi3().with(|s| s.inline_subschemas = true);
        settings.into_generator().into_root_schema_for::<T>().to_value()
    }

    #[test]
    fn lifecycle_hooks_round_trip_losslessly() {
        let doc = json!({
            "preDelete": {"labelsHandler": {"a": "b"}, "finalizersHandler": ["f"], "markPodNotReady": true},
            "inPlaceUpdate": {"labelsHandler": {}},
            "preNormal": {"finalizersHandler": []},
        });
        let lifecycle: Lifecycle = serde_json::from_value(doc.clone()).expect("lifecycle");
        assert_eq!(serde_json::to_value(&lifecycle).expect("serialize"), doc);
    }

    #[test]
    fn priority_strategy_forbids_weight_and_order_terms_together() {
        let rules = schema_of::<UpdatePriorityStrategy>()["x-kubernetes-validations"].to_string();
        assert!(rules.contains("mutually exclusive"), "{rules}");
    }

    #[test]
    fn in_place_update_strategy_keeps_absent_fields_absent() {
        let doc = json!({"gracePeriodSeconds": 10});
        let strategy: InPlaceUpdateStrategy = serde_json::from_value(doc.clone()).expect("strategy");
        assert_eq!(strategy.grace_period_seconds, Some(10));
        assert_eq!(serde_json::to_value(&strategy).expect("serialize"), doc);
    }

    #[test]
    fn pod_update_policy_schema_is_a_plain_string_enum() {
        let schema = schema_of::<PodUpdatePolicy>();
        let text = schema.to_string();
        for value in ["ReCreate", "InPlaceIfPossible", "InPlaceOnly"] {
            assert!(text.contains(value), "{text}");
        }
    }
}
