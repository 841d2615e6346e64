//! What no planner can work with ([`workload`]): more replicas than one set may have, and
//! what upstream's admission webhook refuses in a workload's spec and a CRD's CEL rules
//! cannot express (the pod template is stored schemaless): a selector that does not select
//! the pods of its own template ([`selector`]; without a webhook a controller would create
//! pods, release them as not matching and create more, without end), and a template whose
//! pods could not run as a workload's ([`template`]). The planners refuse such a spec:
//! an `InvalidSpec` condition and event, and no pod is created.
//!
//! Invariant: every refusal names the object and the field (`spec.selector`,
//! `spec.template.spec.restartPolicy`) and says that nothing is created until it is fixed.
use std::collections::BTreeMap;

use k8s_openapi::api::core::v1::PodTemplateSpec;
use k8s_openapi::apimachinery::pkg::apis::meta::v1::LabelSelector;
use kube::core::{Selector, SelectorExt};

/// The most pods one set may ask for. A larger `spec.replicas` (the API server stores up to
/// 2^31 - 1) is refused with an event naming the field, instead of planning billions of pods.
pub const MAX_REPLICAS: i32 = 100_000;

/// The problem message for a `spec.replicas` above [`MAX_REPLICAS`], if it is.
pub fn too_many_replicas(kind: &str, name: &str, replicas: Option<i32>) -> Option<String> {
    let asked = replicas.unwrap_or(1);
    (asked > MAX_REPLICAS).then(|| {
        format!("{kind} {name}: spec.replicas {asked} is above the {MAX_REPLICAS} pods one set may have; nothing is planned until it is lowered")
    })
}

/// Why nothing can be planned for a workload (`kind` `name`) with these fields: too many
/// replicas, a selector that misses its template, a template upstream refuses. None: none.
pub fn workload(
    kind: &str,
    name: &str,
    replicas: Option<i32>,
    selector: &LabelSelector,
    template: &PodTemplateSpec,
) -> Option<String> {
    let labels = template.metadata.as_ref().and_then(|m| m.labels.as_ref());
    too_many_replicas(kind, name, replicas)
        .or_else(|| self::selector(kind, name, selector, labels))
        .or_else(|| self::template(kind, name, template))
}

/// Why an object of `kind` (as JSON) must be refused at admission: it cannot be read as a
/// `K` (naming the field), or its selector and template are refused as the planners refuse
/// them. None: it may be stored.
pub fn judged<K: serde::de::DeserializeOwned>(
    kind: &str,
    object: &serde_json::Value,
    parts: impl Fn(&K) -> (&LabelSelector, &PodTemplateSpec),
) -> Option<String> {
    let name = object["metadata"]["name"].as_str().unwrap_or_default();
    match crate::runtime::decoded::read::<K>(object) {
        Err(error) => Some(format!("{kind} {name}: {error}")),
        Ok(read) => {
            let (selector, template) = parts(&read);
            let labels = template.metadata.as_ref().and_then(|m| m.labels.as_ref());
            self::selector(kind, name, selector, labels).or_else(|| self::template(kind, name, template))
        }
    }
}

/// Why `selector` cannot be used for the pods of `template_labels` (None: it can).
pub fn selector(
    kind: &str,
    name: &str,
    selector: &LabelSelector,
    template_labels: Option<&BTreeMap<String, String>>,
) -> Option<String> {
    let empty = selector.match_labels.as_ref().is_none_or(|m| m.is_empty())
        && selector.match_expressions.as_ref().is_none_or(|e| e.is_empty());
    if empty {
        return Some(format!(
            "{kind} {name}: spec.selector is empty (it would select every pod of the namespace); nothing is created until it selects the template's labels"
        ));
    }
    let parsed = match Selector::try_from(selector.clone()) {
        Ok(parsed) => parsed,
        Err(error) => {
            return Some(format!(
                "{kind} {name}: spec.selector is invalid: {error}; nothing is created until it is fixed"
            ));
        }
    };
    let labels = template_labels.cloned().unwrap_or_default();
    (!parsed.matches(&labels)).then(|| {
        format!(
            "{kind} {name}: spec.selector does not select the pods of spec.template (template labels {}); nothing is created until it does",
            shown(&labels)
        )
    })
}

/// Why pods of `template` cannot be a workload's (None: they can): a `restartPolicy` other
/// than `Always` (a pod that exits would never come back) or an `activeDeadlineSeconds`
/// (the kubelet would kill every pod after it), as upstream's webhook refuses them.
pub fn template(kind: &str, name: &str, template: &PodTemplateSpec) -> Option<String> {
    let spec = template.spec.as_ref()?;
    if let Some(policy) = spec.restart_policy.as_deref().filter(|p| *p != "Always") {
        return Some(format!(
            "{kind} {name}: spec.template.spec.restartPolicy is {policy}; a workload's pods must restart Always; nothing is created until it is fixed"
        ));
    }
    spec.active_deadline_seconds.map(|seconds| {
        format!(
            "{kind} {name}: spec.template.spec.activeDeadlineSeconds is {seconds}; a workload's pods must not have a deadline; nothing is created until it is removed"
        )
    })
}

fn shown(labels: &BTreeMap<String, String>) -> String {
    if labels.is_empty() {
        return "none".into();
    }
    let pairs: Vec<String> = labels.iter().map(|(k, v)| format!("{k}={v}")).collect();
    pairs.join(",")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn labelled(value: serde_json::Value) -> LabelSelector {
        serde_json::from_value(value).expect("selector")
    }

    fn labels(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    #[test]
    fn a_selector_must_select_its_own_template() {
        let web = labels(&[("app", "web"), ("tier", "front")]);
        let by_label = labelled(json!({ "matchLabels": { "app": "web" } }));
        assert_eq!(super::selector("CloneSet", "web", &by_label, Some(&web)), None);
        let by_expression = labelled(json!({ "matchExpressions": [
            { "key": "tier", "operator": "In", "values": ["front", "back"] }] }));
        assert_eq!(
            super::selector("CloneSet", "web", &by_expression, Some(&web)),
            None
        );

        let other = labelled(json!({ "matchLabels": { "app": "api" } }));
        let message = super::selector("CloneSet", "web", &other, Some(&web)).expect("refused");
        assert!(
            message.contains("CloneSet web: spec.selector does not select"),
            "{message}"
        );
        assert!(message.contains("app=web,tier=front"), "{message}");
        let not_in = labelled(json!({ "matchExpressions": [
            { "key": "tier", "operator": "NotIn", "values": ["front"] }] }));
        assert!(super::selector("StatefulSet", "db", &not_in, Some(&web)).is_some());
        assert!(
            super::selector("StatefulSet", "db", &by_label, None)
                .expect("refused")
                .contains("labels none")
        );
    }

    #[test]
    fn a_template_that_would_not_restart_or_has_a_deadline_is_refused() {
        let template = |spec: serde_json::Value| -> PodTemplateSpec {
            serde_json::from_value(json!({ "spec": spec })).expect("template")
        };
        let ok = template(json!({ "containers": [], "restartPolicy": "Always" }));
        assert_eq!(super::template("CloneSet", "web", &ok), None);
        assert_eq!(
            super::template("CloneSet", "web", &PodTemplateSpec::default()),
            None
        );
        let never = template(json!({ "containers": [], "restartPolicy": "Never" }));
        let message = super::template("CloneSet", "web", &never).expect("refused");
        assert!(
            message.contains("CloneSet web: spec.template.spec.restartPolicy is Never"),
            "{message}"
        );
        let deadline = template(json!({ "containers": [], "activeDeadlineSeconds": 30 }));
        let message = super::template("StatefulSet", "db", &deadline).expect("refused");
        assert!(
            message.contains("StatefulSet db: spec.template.spec.activeDeadlineSeconds is 30"),
            "{message}"
        );
    }

    #[test]
    fn an_empty_or_unparsable_selector_is_refused_naming_the_field() {
        let web = labels(&[("app", "web")]);
        let empty = super::selector("CloneSet", "web", &labelled(json!({})), Some(&web)).expect("refused");
        assert!(empty.contains("spec.selector is empty"), "{empty}");
        let bad = labelled(json!({ "matchExpressions": [{ "key": "app", "operator": "Near" }] }));
        let message = super::selector("CloneSet", "web", &bad, Some(&web)).expect("refused");
        assert!(message.contains("spec.selector is invalid"), "{message}");
    }
}
