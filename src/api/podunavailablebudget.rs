//! `PodUnavailableBudget` (`policy.kruise.io`): how many of an application's pods may be
//! unavailable at once, across the causes a PodDisruptionBudget does not see (deletions,
//! in-place updates, evictions).
//!
//! Invariants:
//! - One superset schema for both versions (see [`super::versions`]): `v1alpha1`'s
//!   annotations (`kruise.io/pub-protect-operations`, `pub.kruise.io/protect-total-replicas`)
//!   and `v1beta1`'s fields (`protectOperations`, `protectTotalReplicas`,
//!   `ignoredPodSelector`) both stay readable; the accessors on [`PodUnavailableBudget`]
//!   resolve them, and the `v1beta1` field wins when both are set.
//! - The status is upstream's shape: `observedGeneration` and the four counts are always
//!   written (no `omitempty` in `v1alpha1`), the two maps only when not empty; plus
//!   kubectl-kruise's own `conditions` (`InvalidSpec`).
//! - CRD: short name `pub`; status subresource; printer columns Allowed, Current, Desired,
//!   Total (upstream's, no Age).
//!
//! ```text
//! PodUnavailableBudget ── selector or targetRef ──▶ pods (of a CloneSet, ASTS, Deployment, ...)
//!        └─ status.unavailableAllowed ◀── decremented by the pod webhook per disruption
//! ```

use std::collections::BTreeMap;

use k8s_openapi::apimachinery::pkg::apis::meta::v1::{LabelSelector, Time};
use kube::CustomResource;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

pub use super::common::TargetReference;
use super::common::{Condition, IntOrString, cel};

/// The budget's operations to protect, comma separated (`v1alpha1`); absent or empty:
/// DELETE, UPDATE and EVICT.
pub const PROTECT_OPERATIONS_ANNOTATION: &str = "kruise.io/pub-protect-operations";
/// The replica total to protect when no workload states one (`v1alpha1`).
pub const PROTECT_TOTAL_REPLICAS_ANNOTATION: &str = "pub.kruise.io/protect-total-replicas";
/// A pod annotated `"true"` is not protected (forced deletions).
pub const NO_PROTECT_ANNOTATION: &str = "pub.kruise.io/no-protect";
/// The pod annotation naming its budget (written by upstream's master).
pub const RELATED_PUB_ANNOTATION: &str = "pub.kruise.io/related-pub";
/// The older name of [`RELATED_PUB_ANNOTATION`] (the only one OpenKruise 1.9 reads).
pub const OLD_RELATED_PUB_ANNOTATION: &str = "kruise.io/related-pub";

/// An operation on a pod a budget can protect against.
#[derive(Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, JsonSchema)]
pub enum PubOperation {
    /// A pod deleted.
    #[serde(rename = "DELETE")]
    Delete,
    /// A pod's spec changed (an in-place update), or it was labelled unavailable.
    #[serde(rename = "UPDATE")]
    Update,
    /// A pod evicted.
    #[serde(rename = "EVICT")]
    Evict,
    /// A pod's resources resized in place without a restart.
    #[serde(rename = "RESIZE")]
    Resize,
}

impl PubOperation {
    /// As the API spells it.
    pub const fn as_str(self) -> &'static str {
        match self {
            PubOperation::Delete => "DELETE",
            PubOperation::Update => "UPDATE",
            PubOperation::Evict => "EVICT",
            PubOperation::Resize => "RESIZE",
        }
    }

    /// The operation spelled `text` exactly.
    pub fn named(text: &str) -> Option<PubOperation> {
        [Self::Delete, Self::Update, Self::Evict, Self::Resize]
            .into_iter()
            .find(|o| o.as_str() == text)
    }
}

/// Desired state of a PodUnavailableBudget.
#[allow(
    clippy::duplicated_attributes,
    reason = "printcolumn(...) entries legitimately repeat type_"
)]
#[derive(CustomResource, Serialize, Deserialize, Clone, Debug, Default, PartialEq, JsonSchema)]
#[kube(
    group = "policy.kruise.io",
    version = "v1alpha1",
    kind = "PodUnavailableBudget",
    plural = "podunavailablebudgets",
    namespaced,
    status = "PodUnavailableBudgetStatus",
    derive = "PartialEq",
    shortname = "pub",
    printcolumn(
        name = "Allowed",
        type_ = "integer",
        json_path = ".status.unavailableAllowed",
        description = "UnavailableAllowed number of pod unavailable that are currently allowed"
    ),
    printcolumn(
        name = "Current",
        type_ = "integer",
        json_path = ".status.currentAvailable",
        description = "CurrentAvailable current number of available pods"
    ),
    printcolumn(
        name = "Desired",
        type_ = "integer",
        json_path = ".status.desiredAvailable",
        description = "DesiredAvailable minimum desired number of available pods"
    ),
    printcolumn(
        name = "Total",
        type_ = "integer",
        json_path = ".status.totalReplicas",
        description = "TotalReplicas total number of pods counted by this budget"
    )
)]
#[serde(rename_all = "camelCase")]
#[schemars(transform = cel::rule_at(
    "has(self.selector) || has(self.targetRef)",
    ".selector",
    "no selector or targetRef defined in PodUnavailableBudget",
))]
#[schemars(transform = cel::rule_at(
    "!(has(self.selector) && has(self.targetRef))",
    ".selector",
    "selector and targetRef are mutually exclusive",
))]
#[schemars(transform = cel::rule_at(
    "!has(self.selector) || (has(self.selector.matchLabels) && size(self.selector.matchLabels) > 0) \
     || (has(self.selector.matchExpressions) && size(self.selector.matchExpressions) > 0)",
    ".selector",
    "empty selector is not valid for PodUnavailableBudget",
))]
#[schemars(transform = cel::rule_at(
    "has(self.maxUnavailable) || has(self.minAvailable)",
    ".maxUnavailable",
    "no maxUnavailable or minAvailable defined in PodUnavailableBudget",
))]
#[schemars(transform = cel::rule_at(
    "!(has(self.maxUnavailable) && has(self.minAvailable))",
    ".maxUnavailable",
    "maxUnavailable and minAvailable are mutually exclusive",
))]
#[schemars(transform = cel::rule_at(
    "has(self.selector) == has(oldSelf.selector) && (!has(self.selector) || self.selector == oldSelf.selector) \
     && has(self.targetRef) == has(oldSelf.targetRef) && (!has(self.targetRef) || self.targetRef == oldSelf.targetRef)",
    ".selector",
    "selector and targetRef cannot be modified",
))]
pub struct PodUnavailableBudgetSpec {
    /// The pods the budget counts (exclusive with `targetRef`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub selector: Option<LabelSelector>,
    /// The workload whose pods the budget counts (exclusive with `selector`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target_ref: Option<TargetReference>,
    /// At most this many pods unavailable after an operation (wins over `minAvailable`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(transform = cel::int_or_percent_max_100("maxUnavailable"))]
    pub max_unavailable: Option<IntOrString>,
    /// At least this many pods available after an operation.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(transform = cel::int_or_percent_max_100("minAvailable"))]
    pub min_available: Option<IntOrString>,
    /// The operations protected (`v1beta1`; absent: the `v1alpha1` annotation, else
    /// DELETE, UPDATE and EVICT).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub protect_operations: Option<Vec<PubOperation>>,
    /// The replica total to protect (`v1beta1`; absent: the `v1alpha1` annotation, else the
    /// workloads' replicas).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 1))]
    pub protect_total_replicas: Option<i32>,
    /// Pods the budget neither counts nor protects (`v1beta1`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ignored_pod_selector: Option<LabelSelector>,
}

/// Observed state of a PodUnavailableBudget.
#[derive(Serialize, Deserialize, Clone, Debug, Default, PartialEq, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct PodUnavailableBudgetStatus {
    /// Generation the counts were computed for.
    #[serde(default)]
    pub observed_generation: i64,
    /// Pods whose deletion or eviction was admitted and not yet seen gone, with when.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub disrupted_pods: Option<BTreeMap<String, Time>>,
    /// Pods whose update was admitted and not yet seen available again, with when.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unavailable_pods: Option<BTreeMap<String, Time>>,
    /// How many more pods may become unavailable now.
    #[serde(default)]
    pub unavailable_allowed: i32,
    /// Pods available now (active, ready, consistent, not recorded above).
    #[serde(default)]
    pub current_available: i32,
    /// Pods that must stay available.
    #[serde(default)]
    pub desired_available: i32,
    /// Pods the budget counts.
    #[serde(default)]
    pub total_replicas: i32,
    /// kubectl-kruise's own (OpenKruise has none here; its clients ignore the field):
    /// `InvalidSpec`, on a spec the controller refuses.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub conditions: Option<Vec<Condition>>,
}

impl PodUnavailableBudget {
    /// The operations it protects: `spec.protectOperations`, else the `v1alpha1`
    /// annotation's (unknown words ignored; absent or empty: DELETE, UPDATE and EVICT).
    /// RESIZE is part of UPDATE's protection ([`PubOperation::Resize`] is asked as itself only
    /// for a resize that needs no restart).
    pub fn protected_operations(&self) -> Vec<PubOperation> {
        let mut operations = match (
            &self.spec.protect_operations,
            self.annotation(PROTECT_OPERATIONS_ANNOTATION),
        ) {
            (Some(listed), _) if !listed.is_empty() => listed.clone(),
            (_, Some(text)) if !text.is_empty() => text.split(',').filter_map(PubOperation::named).collect(),
            _ => vec![PubOperation::Delete, PubOperation::Update, PubOperation::Evict],
        };
        if operations.contains(&PubOperation::Update) {
            operations.push(PubOperation::Resize);
        }
        operations.sort();
        operations.dedup();
        operations
    }

    /// The replica total stated on the budget itself: `spec.protectTotalReplicas`, else the
    /// `v1alpha1` annotation (not an integer: none).
    pub fn stated_total(&self) -> Option<i32> {
        self.spec.protect_total_replicas.or_else(|| {
            self.annotation(PROTECT_TOTAL_REPLICAS_ANNOTATION)
                .filter(|text| !text.is_empty())
                .and_then(|text| text.parse().ok())
        })
    }

    fn annotation(&self, key: &str) -> Option<&str> {
        self.metadata
            .annotations
            .as_ref()
            .and_then(|a| a.get(key))
            .map(String::as_str)
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn budget(value: serde_json::Value) -> PodUnavailableBudget {
        serde_json::from_value(value).expect("a budget")
    }

    #[test]
    fn a_manifest_round_trips_unchanged() {
        let manifest = json!({
            "apiVersion": "policy.kruise.io/v1alpha1", "kind": "PodUnavailableBudget",
            "metadata": { "name": "web", "namespace": "shop" },
            "spec": { "targetRef": { "apiVersion": "apps.kruise.io/v1alpha1", "kind": "CloneSet", "name": "web" },
                      "maxUnavailable": "25%" },
            "status": { "observedGeneration": 1, "unavailableAllowed": 2, "currentAvailable": 10,
                        "desiredAvailable": 8, "totalReplicas": 10,
                        "disruptedPods": { "web-a": "2026-12-07T10:00:00Z" } }
        });
        assert_eq!(
            serde_json::to_value(budget(manifest.clone())).expect("json"),
            manifest
        );
    }

    #[test]
    fn operations_come_from_the_field_else_the_annotation_else_the_default() {
        let default = budget(json!({ "metadata": {}, "spec": {} }));
        assert_eq!(
            default.protected_operations(),
            [
                PubOperation::Delete,
                PubOperation::Update,
                PubOperation::Evict,
                PubOperation::Resize
            ]
        );
        let annotated = budget(json!({
            "metadata": { "annotations": { PROTECT_OPERATIONS_ANNOTATION: "EVICT,bogus" } }, "spec": {} }));
        assert_eq!(annotated.protected_operations(), [PubOperation::Evict]);
        let both = budget(json!({
            "metadata": { "annotations": { PROTECT_OPERATIONS_ANNOTATION: "EVICT" } },
            "spec": { "protectOperations": ["DELETE"] } }));
        assert_eq!(both.protected_operations(), [PubOperation::Delete]);
    }

    #[test]
    fn the_stated_total_comes_from_the_field_else_a_valid_annotation() {
        let annotated = |text: &str| {
            budget(
                json!({ "metadata": { "annotations": { PROTECT_TOTAL_REPLICAS_ANNOTATION: text } }, "spec": {} }),
            )
        };
        assert_eq!(annotated("7").stated_total(), Some(7));
        assert_eq!(annotated("seven").stated_total(), None);
        let both = budget(json!({
            "metadata": { "annotations": { PROTECT_TOTAL_REPLICAS_ANNOTATION: "7" } },
            "spec": { "protectTotalReplicas": 3 } }));
        assert_eq!(both.stated_total(), Some(3));
    }
}
