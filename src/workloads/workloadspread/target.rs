//! The workload a WorkloadSpread spreads (`spec.targetRef`, `spec.targetFilter`): which kinds it may be, whether a
//! pod's owner is it, which of its pods the spread manages, and its replica total. Pure:
//! the callers (the pod webhook, the controller) fetch or cache the objects.
//!
//! Invariants:
//! - Owners are compared by group, kind and name; the version is ignored.
//! - The replica total is `spec.parallelism` for a Job, else `spec.replicas` (absent: 1,
//!   as the API server defaults it); for a whitelisted custom workload the value at its
//!   `ReplicasPath` (none: 0, as upstream); or the sum of `targetFilter.replicasPathList`
//!   when that is set (dotted paths, numeric segments index lists; a path that does not
//!   lead to an integer counts 0).
//! - A `targetFilter` without a selector selects every pod for the controller but none in
//!   the pod webhook (upstream's quirk, kept so both behave as OpenKruise does).
use k8s_openapi::api::core::v1::Pod;
use k8s_openapi::apimachinery::pkg::apis::meta::v1::OwnerReference;
use kube::ResourceExt;
use kube::core::{Selector, SelectorExt};
use serde_json::Value;

use crate::api::workloadspread::WorkloadSpread;
use crate::runtime::configuration::Configuration;

pub use crate::workloads::common::targets::group_of;

/// The workloads a WorkloadSpread can target without a whitelist, as `(group, kind)`
/// (OpenKruise's): validation, the webhook and the controller all read this one list.
pub const SUPPORTED: &[(&str, &str)] = &[
    ("apps.kruise.io", "CloneSet"),
    ("apps", "Deployment"),
    ("apps", "ReplicaSet"),
    ("batch", "Job"),
    ("apps", "StatefulSet"),
    ("apps.kruise.io", "StatefulSet"),
];

/// Whether a workload of `group`/`kind` can be spread.
pub fn supported(group: &str, kind: &str) -> bool {
    SUPPORTED.contains(&(group, kind))
}

/// The groups a supported target `kind` may be in (empty: the kind is not supported).
pub fn groups_of_kind(kind: &str) -> Vec<&'static str> {
    SUPPORTED
        .iter()
        .filter(|(_, k)| *k == kind)
        .map(|(group, _)| *group)
        .collect()
}

/// Whether a workload of `group`/`kind` can be spread: a built-in target kind or one of
/// the custom workloads of `configuration`.
pub fn spreadable(configuration: &Configuration, group: &str, kind: &str) -> bool {
    supported(group, kind) || configuration.custom(group, kind).is_some()
}

/// Whether `owner` is the workload `target` names.
pub use crate::workloads::common::targets::is_target;

/// The controller owner of an object, if any.
pub fn controller(owners: &[OwnerReference]) -> Option<&OwnerReference> {
    owners.iter().find(|o| o.controller == Some(true))
}

/// Whether the filter of `ws` selects `pod`; `webhook`: judged as the pod webhook judges it
/// (a filter without a selector selects nothing there).
pub fn selects(ws: &WorkloadSpread, pod: &Pod, webhook: bool) -> bool {
    let Some(filter) = &ws.spec.target_filter else {
        return true;
    };
    let Some(selector) = &filter.selector else {
        return !webhook;
    };
    Selector::try_from(selector.clone()).is_ok_and(|s| s.matches(pod.labels()))
}

/// The value at a dotted `path` of `object` (`spec.subsets.1.replicas`).
fn at_path<'v>(object: &'v Value, path: &str) -> Option<&'v Value> {
    path.split('.')
        .filter(|s| !s.is_empty())
        .try_fold(object, |v, segment| match (v, segment.parse::<usize>()) {
            (Value::Array(items), Ok(i)) => items.get(i),
            (Value::Object(map), _) => map.get(segment),
            _ => None,
        })
}

/// The replica total of the target `object` (JSON) for `ws`; `configuration` holds the
/// replica paths of custom workloads.
pub fn total(ws: &WorkloadSpread, object: &Value, configuration: &Configuration) -> i64 {
    if let Some(paths) = ws
        .spec
        .target_filter
        .as_ref()
        .and_then(|f| f.replicas_path_list.as_ref())
        .filter(|p| !p.is_empty())
    {
        return paths
            .iter()
            .filter_map(|p| at_path(object, p).and_then(Value::as_i64))
            .sum();
    }
    let target = &ws.spec.target_ref;
    let group = group_of(&target.api_version);
    if !supported(group, &target.kind) {
        return configuration
            .custom(group, &target.kind)
            .and_then(|custom| at_path(object, &custom.replicas_path))
            .and_then(Value::as_i64)
            .unwrap_or(0);
    }
    let field = if ws.spec.target_ref.kind == "Job" {
        "parallelism"
    } else {
        "replicas"
    };
    object["spec"][field].as_i64().unwrap_or(1)
}

/// Whether some subset of `ws` counts in percent (the total is then needed).
pub fn needs_total(ws: &WorkloadSpread) -> bool {
    ws.spec.subsets.iter().any(
        |s| matches!(&s.max_replicas, Some(crate::api::common::IntOrString::String(v)) if v.ends_with('%')),
    )
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::api::workloadspread::TargetReference;

    fn ws(filter: Value) -> WorkloadSpread {
        serde_json::from_value(
            json!({ "apiVersion": "apps.kruise.io/v1alpha1", "kind": "WorkloadSpread",
            "metadata": { "name": "spread", "namespace": "shop" },
            "spec": { "targetRef": { "apiVersion": "apps/v1", "kind": "Deployment", "name": "web" },
                "targetFilter": filter, "subsets": [{ "name": "a", "maxReplicas": "50%" }] } }),
        )
        .expect("ws")
    }

    #[test]
    fn the_total_is_the_replicas_or_the_sum_of_the_paths() {
        let none = Configuration::default();
        let deployment =
            json!({ "spec": { "replicas": 6, "subsets": [{ "replicas": 2 }, { "replicas": 3 }] } });
        assert_eq!(total(&ws(Value::Null), &deployment, &none), 6);
        let paths = ws(
            json!({ "replicasPathList": ["spec.subsets.0.replicas", "spec.subsets.1.replicas", "spec.nothing"] }),
        );
        assert_eq!(total(&paths, &deployment, &none), 5);
        assert!(needs_total(&paths));
        assert_eq!(
            total(&ws(Value::Null), &json!({ "spec": {} }), &none),
            1,
            "defaulted"
        );
        let mut job = ws(Value::Null);
        job.spec.target_ref = TargetReference {
            api_version: "batch/v1".into(),
            kind: "Job".into(),
            name: "j".into(),
        };
        assert_eq!(
            total(
                &job,
                &json!({ "spec": { "parallelism": 4, "replicas": 9 } }),
                &none
            ),
            4
        );
        // A whitelisted custom workload: its replica path, 0 without one.
        let tfjob = json!({ "spec": { "tfReplicaSpecs": { "MASTER": { "replicas": 5 } } } });
        let mut custom = ws(Value::Null);
        custom.spec.target_ref = TargetReference {
            api_version: "kubeflow.org/v1".into(),
            kind: "TFJob".into(),
            name: "t".into(),
        };
        let whitelist = Configuration {
            custom_workloads: std::sync::Arc::new(
                crate::runtime::configuration::parse_custom_workloads(
                    r#"{ "workloads": [ { "Group": "kubeflow.org", "Version": "v1", "Kind": "TFJob",
                        "ReplicasPath": "spec.tfReplicaSpecs.MASTER.replicas" } ] }"#,
                )
                .expect("whitelist"),
            ),
        };
        assert_eq!(total(&custom, &tfjob, &whitelist), 5);
        assert_eq!(total(&custom, &tfjob, &none), 0);
        assert!(
            spreadable(&whitelist, "kubeflow.org", "TFJob") && !spreadable(&none, "kubeflow.org", "TFJob")
        );
    }

    #[test]
    fn a_filter_without_a_selector_selects_nothing_in_the_webhook_only() {
        let pod: Pod =
            serde_json::from_value(json!({ "metadata": { "name": "p", "labels": { "app": "web" } } }))
                .expect("pod");
        let bare = ws(json!({ "replicasPathList": [] }));
        assert!(!selects(&bare, &pod, true));
        assert!(selects(&bare, &pod, false));
        let web = ws(json!({ "selector": { "matchLabels": { "app": "web" } } }));
        assert!(selects(&web, &pod, true));
        let api = ws(json!({ "selector": { "matchLabels": { "app": "api" } } }));
        assert!(!selects(&api, &pod, false));
    }

    #[test]
    fn owners_match_by_group_kind_and_name_not_version() {
        let owner = |api_version: &str, kind: &str| OwnerReference {
            api_version: api_version.into(),
            kind: kind.into(),
            name: "web".into(),
            uid: "u".into(),
            controller: Some(true),
            ..OwnerReference::default()
        };
        let target = TargetReference {
            api_version: "apps.kruise.io/v1beta1".into(),
            kind: "StatefulSet".into(),
            name: "web".into(),
        };
        assert!(is_target(
            &owner("apps.kruise.io/v1alpha1", "StatefulSet"),
            &target
        ));
        assert!(!is_target(&owner("apps/v1", "StatefulSet"), &target));
        assert!(supported("batch", "Job") && !supported("apps", "DaemonSet"));
    }
}
