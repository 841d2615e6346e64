//! CRD types of `apps.kruise.io` and `policy.kruise.io`, one file per kind, OpenKruise-API
//! compatible.
//!
//! Invariants:
//! - Field names, nesting and value spellings are OpenKruise's, so existing manifests
//!   deserialize unchanged; every optional field is an `Option` skipped when `None`, so a
//!   `deserialize → serialize` round trip reproduces the input exactly.
//! - Every CRD schema is structural: pod templates, claim templates, volumes, sidecar
//!   containers and raw patches are typed in Rust but emitted as `type: object` +
//!   `x-kubernetes-preserve-unknown-fields` (as OpenKruise's CRDs do); everything else is a
//!   typed schema, so undeclared or misplaced fields are rejected under strict validation.
//! - CEL rules (`x-kubernetes-validations`) only reject what OpenKruise's webhooks reject.
//! - All kinds are served as `v1alpha1` and `v1beta1` with one superset schema and no
//!   conversion webhook; the storage version is OpenKruise 1.9's ([`versions`]).
//! - This module holds no behaviour beyond [`crds`], [`crd_for_kind`] and the kinds'
//!   description ([`kinds`]).
//!
//! ```text
//! api ─┬─ common            shared strategies, hooks, conditions, schema/CEL helpers
//!      ├─ cloneset          CloneSet
//!      ├─ statefulset       StatefulSet (v1alpha1 + v1beta1)
//!      ├─ daemonset         DaemonSet
//!      ├─ broadcastjob      BroadcastJob ◀── embedded by cronjob's broadcastJobTemplate
//!      ├─ cronjob           AdvancedCronJob
//!      ├─ sidecarset        SidecarSet (cluster-scoped)
//!      ├─ workloadspread    WorkloadSpread
//!      ├─ uniteddeployment  UnitedDeployment ── embeds CloneSetSpec / ASTS v1beta1 spec
//!      └─ podunavailablebudget  PodUnavailableBudget (policy.kruise.io)
//! ```

use k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition;

pub mod broadcastjob;
pub mod cloneset;
pub mod common;
pub mod cronjob;
pub mod daemonset;
pub mod kinds;
pub mod podunavailablebudget;
pub mod sidecarset;
pub mod statefulset;
#[cfg(test)]
mod test_support;
pub mod uniteddeployment;
pub mod versions;
pub mod workloadspread;

pub use broadcastjob::{BroadcastJob, BroadcastJobSpec, BroadcastJobStatus};
pub use cloneset::{CloneSet, CloneSetSpec, CloneSetStatus};
pub use common::{
    Condition, InPlaceUpdateStrategy, IntOrString, Lifecycle, LifecycleHook, PodUpdatePolicy,
    UpdatePriorityOrderTerm, UpdatePriorityStrategy, UpdatePriorityWeightTerm, UpdateScatterStrategy,
    UpdateScatterTerm,
};
pub use cronjob::{AdvancedCronJob, AdvancedCronJobSpec, AdvancedCronJobStatus};
pub use daemonset::{DaemonSet, DaemonSetSpec, DaemonSetStatus};
pub use kinds::KruiseKind;
pub use podunavailablebudget::{PodUnavailableBudget, PodUnavailableBudgetSpec, PodUnavailableBudgetStatus};
pub use sidecarset::{SidecarSet, SidecarSetSpec, SidecarSetStatus};
/// The `v1alpha1` Advanced StatefulSet; `statefulset::v1beta1` (the superset) is what controllers read.
pub use statefulset::v1alpha1::{StatefulSet, StatefulSetSpec, StatefulSetStatus};
pub use uniteddeployment::{UnitedDeployment, UnitedDeploymentSpec, UnitedDeploymentStatus};
pub use workloadspread::{WorkloadSpread, WorkloadSpreadSpec, WorkloadSpreadStatus};

/// API group of every workload kind here.
pub const GROUP: &str = "apps.kruise.io";
/// API group of the PodUnavailableBudget.
pub const POLICY_GROUP: &str = "policy.kruise.io";

/// The kinds of this module, named as OpenKruise names them (from [`KruiseKind::ALL`]).
pub const KINDS: [&str; 9] = {
    let mut names = [""; 9];
    let mut i = 0;
    while i < names.len() {
        names[i] = KruiseKind::ALL[i].name();
        i += 1;
    }
    names
};

/// Errors of this module.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// Merging the per-version CRDs of a kind into one CRD failed.
    #[error("merging the versions of the {kind} CRD failed")]
    MergeCrdVersions {
        /// Kind whose CRD could not be merged.
        kind: &'static str,
        /// The merge error.
        #[source]
        source: kube::core::crd::MergeError,
    },
}

impl Error {
    /// Short stable reason, for events and metrics.
    pub fn reason(&self) -> &'static str {
        match self {
            Error::MergeCrdVersions { .. } => "MergeCrdVersions",
        }
    }
}

/// The CRD of `kind` (one of [`KINDS`]), or the merge error for multi-version kinds.
pub fn try_crd_for_kind(kind: &str) -> Option<Result<CustomResourceDefinition, Error>> {
    let kind = KruiseKind::named(kind)?;
    Some(
        kind.declared_crd()
            .map(|crd| kind_defaults(kind, versions::serve_both(crd))),
    )
}

/// Per-version defaults a kind adds after [`versions::serve_both`].
fn kind_defaults(kind: KruiseKind, crd: CustomResourceDefinition) -> CustomResourceDefinition {
    match kind {
        KruiseKind::CloneSet => cloneset::with_beta_defaults(crd),
        KruiseKind::StatefulSet
        | KruiseKind::DaemonSet
        | KruiseKind::BroadcastJob
        | KruiseKind::AdvancedCronJob
        | KruiseKind::SidecarSet
        | KruiseKind::WorkloadSpread
        | KruiseKind::UnitedDeployment
        | KruiseKind::PodUnavailableBudget => crd,
    }
}

/// The CRD of `kind` (one of [`KINDS`]); `None` for other kinds.
pub fn crd_for_kind(kind: &str) -> Option<CustomResourceDefinition> {
    // Invariant: the only fallible step is merging the two StatefulSet versions, which are
    // generated from the same macro with identical group, kind, scope and names; the unit
    // test `every_kind_has_a_crd_and_merging_cannot_fail` pins this.
    try_crd_for_kind(kind)
        .map(|crd| crd.expect("StatefulSet CRD versions share group, kind, scope and names"))
}

/// The CRDs of all [`KINDS`], in that order.
pub fn crds() -> Vec<CustomResourceDefinition> {
    KINDS.iter().filter_map(|kind| crd_for_kind(kind)).collect()
}

#[cfg(test)]
mod tests {
    use kube::CustomResourceExt;

    use super::*;
    use crate::api::test_support::*;

    #[test]
    fn every_kind_has_a_crd_and_merging_cannot_fail() -> Result<(), Error> {
        for kind in KINDS {
            let Some(crd) = try_crd_for_kind(kind) else {
                panic!("no CRD for {kind}")
            };
            assert_eq!(crd?.spec.names.kind, kind);
        }
        Ok(())
    }

    #[test]
    fn crds_returns_the_nine_kinds_in_order() {
        let kinds: Vec<String> = crds().into_iter().map(|c| c.spec.names.kind).collect();
        assert_eq!(kinds, KINDS);
    }

    #[test]
    fn unknown_kinds_have_no_crd() {
        assert!(crd_for_kind("Deployment").is_none());
        assert!(crd_for_kind("cloneset").is_none());
    }

    #[test]
    fn every_crd_schema_is_structural_without_refs() {
        for crd in crds() {
            assert_structural(&crd);
            let text = serde_json::to_string(&crd).expect("CRD to JSON");
            assert!(!text.contains("\"$ref\""), "{} has $ref", crd.spec.names.kind);
            assert!(
                !text.contains("\"definitions\""),
                "{} has definitions",
                crd.spec.names.kind
            );
        }
    }

    #[test]
    fn every_crd_has_group_plural_names_and_status() {
        for crd in crds() {
            let group = match crd.spec.names.kind.as_str() {
                "PodUnavailableBudget" => POLICY_GROUP,
                _ => GROUP,
            };
            assert_eq!(crd.spec.group, group);
            let plural = format!("{}s", crd.spec.names.kind.to_lowercase());
            assert_eq!(crd.spec.names.plural, plural);
            assert_eq!(crd.metadata.name, Some(format!("{plural}.{group}")));
            assert!(crd.spec.versions.iter().all(|v| v.served));
            assert_eq!(crd.spec.versions.iter().filter(|v| v.storage).count(), 1);
        }
    }

    #[test]
    fn int_or_percent_fields_carry_the_format_rule() {
        let schema = spec_schema(&CloneSet::crd(), "v1alpha1");
        let max_unavailable = &schema["properties"]["updateStrategy"]["properties"]["maxUnavailable"];
        assert_eq!(max_unavailable["x-kubernetes-int-or-string"], true);
        let rule = &max_unavailable["x-kubernetes-validations"][0];
        assert_eq!(
            rule["rule"],
            "type(self) == string ? self.matches('^[0-9]+%$') : self >= 0"
        );
        assert!(
            rule["message"]
                .as_str()
                .is_some_and(|m| m.contains("maxUnavailable"))
        );
    }

    #[test]
    fn priority_strategy_rejects_weight_and_order_together() {
        let schema = spec_schema(&CloneSet::crd(), "v1alpha1");
        let priority = &schema["properties"]["updateStrategy"]["properties"]["priorityStrategy"];
        let rule = &priority["x-kubernetes-validations"][0];
        assert!(
            rule["rule"]
                .as_str()
                .is_some_and(|r| r.contains("weightPriority") && r.contains("orderPriority"))
        );
        assert!(
            rule["message"]
                .as_str()
                .is_some_and(|m| m.contains("mutually exclusive"))
        );
    }

    #[test]
    fn no_cel_rule_sits_inside_list_items_where_its_cost_would_be_unbounded() {
        for crd in crds() {
            for v in &crd.spec.versions {
                let mut found = Vec::new();
                cel_rules_in_list_items(&version_schema(&crd, &v.name), "", false, &mut found);
                assert!(found.is_empty(), "{} {}: {found:?}", crd.spec.names.kind, v.name);
            }
        }
    }

    #[test]
    fn every_cel_rule_has_a_message() {
        fn walk(v: &serde_json::Value, path: &str, missing: &mut Vec<String>) {
            match v {
                serde_json::Value::Object(map) => {
                    if let Some(serde_json::Value::Array(rules)) = map.get("x-kubernetes-validations") {
                        for r in rules {
                            if r["message"].as_str().is_none_or(str::is_empty) {
                                missing.push(path.to_owned());
                            }
                        }
                    }
                    for (k, child) in map {
                        walk(child, &format!("{path}.{k}"), missing);
                    }
                }
                serde_json::Value::Array(items) => items.iter().for_each(|i| walk(i, path, missing)),
                _ => {}
            }
        }
        let mut missing = Vec::new();
        for crd in crds() {
            walk(
                &serde_json::to_value(&crd).expect("CRD to JSON"),
                &crd.spec.names.kind,
                &mut missing,
            );
        }
        assert!(missing.is_empty(), "rules without message: {missing:?}");
    }
}
