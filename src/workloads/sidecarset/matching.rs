//! Which pods a SidecarSet injects: its selector and namespace scope. Pure.
//!
//! Invariants:
//! - The pod selector must be present and not empty, and match the pod's labels (an empty
//!   or missing selector matches nothing; an unreadable one matches nothing).
//! - The namespace scope: `namespaceSelector` matched against the labels of the pod's
//!   Namespace (an unknown namespace matches nothing; an empty selector matches every
//!   namespace); v1alpha1's `spec.namespace` names the one namespace (as upstream's
//!   conversion turns it into a `kubernetes.io/metadata.name` selector); neither: all.
//! - A pod with no namespace is in `default`.
//! - `injectionStrategy.paused` injects nothing into new pods.
//! - Canary: when a canary SidecarSet (`apps.kruise.io/sidecarset-canary: "true"`,
//!   `apps.kruise.io/sidecarset-base: B`) and its base B both match, only the canary does.
use std::collections::BTreeMap;

use k8s_openapi::api::core::v1::Pod;
use k8s_openapi::apimachinery::pkg::apis::meta::v1::LabelSelector;
use kube::ResourceExt;
use kube::core::{Selector, SelectorExt};

use crate::api::sidecarset::SidecarSet;

pub const CANARY_ANNOTATION: &str = "apps.kruise.io/sidecarset-canary";
pub const BASE_ANNOTATION: &str = "apps.kruise.io/sidecarset-base";

/// The namespace a pod is created in (`default` when it names none).
pub fn pod_namespace(pod: &impl kube::Resource) -> String {
    pod.namespace()
        .filter(|n| !n.is_empty())
        .unwrap_or_else(|| "default".into())
}

fn selects(selector: &LabelSelector, labels: &BTreeMap<String, String>) -> bool {
    Selector::try_from(selector.clone()).is_ok_and(|s| s.matches(labels))
}

fn has_terms(selector: &LabelSelector) -> bool {
    selector.match_labels.as_ref().is_some_and(|m| !m.is_empty())
        || selector.match_expressions.as_ref().is_some_and(|e| !e.is_empty())
}

/// Does `set` cover the namespace `namespace` whose labels are `namespace_labels` (None:
/// the namespace is not known)?
pub fn covers_namespace(
    set: &SidecarSet,
    namespace: &str,
    namespace_labels: Option<&BTreeMap<String, String>>,
) -> bool {
    if let Some(only) = set.spec.namespace.as_deref().filter(|n| !n.is_empty()) {
        return only == namespace;
    }
    match &set.spec.namespace_selector {
        None => true,
        Some(selector) => namespace_labels.is_some_and(|labels| selects(selector, labels)),
    }
}

/// The one namespace `set` is scoped to, if it names exactly one (`spec.namespace`, or a
/// namespace selector of just `kubernetes.io/metadata.name: NS`).
pub fn scoped_to(set: &SidecarSet) -> Option<&str> {
    if let Some(only) = set.spec.namespace.as_deref().filter(|n| !n.is_empty()) {
        return Some(only);
    }
    let selector = set.spec.namespace_selector.as_ref()?;
    if selector.match_expressions.as_ref().is_some_and(|e| !e.is_empty()) {
        return None;
    }
    let labels = selector.match_labels.as_ref()?;
    match labels.len() {
        1 => labels.get("kubernetes.io/metadata.name").map(String::as_str),
        _ => None,
    }
}

/// Does `set` select `pod` by its labels and namespace?
pub fn selects_pod(
    set: &SidecarSet,
    pod: &impl kube::Resource,
    namespace_labels: Option<&BTreeMap<String, String>>,
) -> bool {
    let Some(selector) = set.spec.selector.as_ref().filter(|s| has_terms(s)) else {
        return false;
    };
    covers_namespace(set, &pod_namespace(pod), namespace_labels) && selects(selector, pod.labels())
}

/// Does `set` inject into new pods at all?
pub fn injects(set: &SidecarSet) -> bool {
    set.spec.injection_strategy.as_ref().and_then(|s| s.paused) != Some(true)
}

/// The base a canary SidecarSet stands in for, if it is one.
pub fn canary_base(set: &SidecarSet) -> Option<&str> {
    let annotations = set.annotations();
    (annotations.get(CANARY_ANNOTATION).map(String::as_str) == Some("true"))
        .then(|| annotations.get(BASE_ANNOTATION).map(String::as_str))
        .flatten()
}

/// The SidecarSets that inject into `pod`, in name order: injecting, selecting it, and
/// not the base of a canary that also selects it.
pub fn injecting<'a>(
    sets: &[&'a SidecarSet],
    pod: &Pod,
    namespace_labels: Option<&BTreeMap<String, String>>,
) -> Vec<&'a SidecarSet> {
    let mut matched: Vec<&SidecarSet> = sets
        .iter()
        .copied()
        .filter(|s| injects(s) && selects_pod(s, pod, namespace_labels))
        .collect();
    let bases: Vec<String> = matched
        .iter()
        .filter_map(|s| canary_base(s))
        .map(str::to_owned)
        .collect();
    matched.retain(|s| !bases.contains(&s.name_any()));
    matched.sort_by_key(|s| s.name_any());
    matched
}

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    use super::*;

    fn set(name: &str, spec: Value, annotations: Value) -> SidecarSet {
        serde_json::from_value(
            json!({ "apiVersion": "apps.kruise.io/v1alpha1", "kind": "SidecarSet",
            "metadata": { "name": name, "annotations": annotations }, "spec": spec }),
        )
        .expect("sidecarset")
    }

    fn pod(namespace: Option<&str>, labels: Value) -> Pod {
        serde_json::from_value(
            json!({ "metadata": { "name": "p", "namespace": namespace, "labels": labels },
            "spec": { "containers": [] } }),
        )
        .expect("pod")
    }

    fn labels(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    #[test]
    fn the_selector_must_have_terms_and_match() {
        let web = pod(Some("shop"), json!({ "app": "web" }));
        let by_label = set(
            "log",
            json!({ "selector": { "matchLabels": { "app": "web" } } }),
            json!({}),
        );
        assert!(selects_pod(&by_label, &web, None));
        let empty = set("log", json!({ "selector": {} }), json!({}));
        assert!(
            !selects_pod(&empty, &web, None),
            "an empty selector matches nothing"
        );
        let missing = set("log", json!({}), json!({}));
        assert!(!selects_pod(&missing, &web, None));
        let other = set(
            "log",
            json!({ "selector": { "matchLabels": { "app": "api" } } }),
            json!({}),
        );
        assert!(!selects_pod(&other, &web, None));
    }

    #[test]
    fn namespace_scope_by_selector_or_by_name() {
        let web = pod(Some("shop"), json!({ "app": "web" }));
        let prod = labels(&[("env", "prod"), ("kubernetes.io/metadata.name", "shop")]);
        let scoped = set(
            "log",
            json!({ "selector": { "matchLabels": { "app": "web" } },
            "namespaceSelector": { "matchLabels": { "env": "prod" } } }),
            json!({}),
        );
        assert!(selects_pod(&scoped, &web, Some(&prod)));
        assert!(!selects_pod(&scoped, &web, Some(&labels(&[("env", "dev")]))));
        assert!(
            !selects_pod(&scoped, &web, None),
            "an unknown namespace matches nothing"
        );
        let named = set(
            "log",
            json!({ "selector": { "matchLabels": { "app": "web" } }, "namespace": "shop" }),
            json!({}),
        );
        assert!(selects_pod(&named, &web, None));
        assert!(
            !selects_pod(&named, &pod(None, json!({ "app": "web" })), None),
            "no namespace is default"
        );
    }

    #[test]
    fn paused_injection_and_a_canary_leave_the_base_out() {
        let web = pod(Some("shop"), json!({ "app": "web" }));
        let spec = json!({ "selector": { "matchLabels": { "app": "web" } } });
        let base = set("mesh", spec.clone(), json!({}));
        let canary = set(
            "mesh-canary",
            spec.clone(),
            json!({ CANARY_ANNOTATION: "true", BASE_ANNOTATION: "mesh" }),
        );
        let mut paused_spec = spec.clone();
        paused_spec["injectionStrategy"] = json!({ "paused": true });
        let paused = set("log", paused_spec, json!({}));
        let names: Vec<String> = injecting(&[&paused, &canary, &base], &web, None)
            .iter()
            .map(|s| s.name_any())
            .collect();
        assert_eq!(names, ["mesh-canary"]);
        let names: Vec<String> = injecting(&[&base], &web, None)
            .iter()
            .map(|s| s.name_any())
            .collect();
        assert_eq!(names, ["mesh"]);
    }
}
