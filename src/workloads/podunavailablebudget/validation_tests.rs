use serde_json::{Value, json};

use super::*;

fn manifest(name: &str, annotations: Value, spec: Value) -> Value {
    json!({ "apiVersion": "policy.kruise.io/v1alpha1", "kind": "PodUnavailableBudget",
            "metadata": { "name": name, "namespace": "shop", "annotations": annotations }, "spec": spec })
}

fn refused(spec: Value) -> Option<String> {
    refusal(&manifest("web", json!({}), spec), None, &[])
}

#[test]
fn a_valid_budget_is_accepted() {
    assert_eq!(
        refused(json!({ "selector": { "matchLabels": { "app": "web" } }, "maxUnavailable": "25%" })),
        None
    );
    let target = json!({ "apiVersion": "apps.kruise.io/v1alpha1", "kind": "CloneSet", "name": "web" });
    assert_eq!(refused(json!({ "targetRef": target, "minAvailable": 2 })), None);
}

#[test]
fn each_refusal_names_its_field() {
    let target = json!({ "apiVersion": "apps/v1", "kind": "Deployment", "name": "web" });
    let selector = json!({ "matchLabels": { "app": "web" } });
    let cases = [
        (json!({ "maxUnavailable": 1 }), "spec.selector, spec.targetRef"),
        (
            json!({ "selector": selector, "targetRef": target, "maxUnavailable": 1 }),
            "mutually exclusive",
        ),
        (json!({ "selector": {}, "maxUnavailable": 1 }), "spec.selector"),
        (
            json!({ "selector": selector }),
            "spec.maxUnavailable, spec.minAvailable",
        ),
        (
            json!({ "selector": selector, "maxUnavailable": 1, "minAvailable": 1 }),
            "mutually exclusive",
        ),
        (
            json!({ "selector": selector, "maxUnavailable": "120%" }),
            "spec.maxUnavailable",
        ),
        (
            json!({ "selector": selector, "minAvailable": "many" }),
            "spec.minAvailable",
        ),
        (
            json!({ "selector": selector, "minAvailable": 1, "ignoredPodSelector": {} }),
            "spec.ignoredPodSelector",
        ),
    ];
    for (spec, field) in cases {
        let message = refused(spec.clone()).unwrap_or_default();
        assert!(message.contains(field), "{spec}: {message}");
        assert!(
            message.starts_with("PodUnavailableBudget shop/web: "),
            "{message}"
        );
    }
}

#[test]
fn annotations_of_v1alpha1_must_be_readable() {
    let spec = json!({ "selector": { "matchLabels": { "app": "web" } }, "maxUnavailable": 1 });
    let bad_operations = manifest(
        "web",
        json!({ PROTECT_OPERATIONS_ANNOTATION: "DELETE,REBOOT" }),
        spec.clone(),
    );
    assert!(refusal(&bad_operations, None, &[]).is_some_and(|m| m.contains(PROTECT_OPERATIONS_ANNOTATION)));
    let bad_total = manifest(
        "web",
        json!({ PROTECT_TOTAL_REPLICAS_ANNOTATION: "ten" }),
        spec.clone(),
    );
    assert!(refusal(&bad_total, None, &[]).is_some_and(|m| m.contains(PROTECT_TOTAL_REPLICAS_ANNOTATION)));
    let good = manifest(
        "web",
        json!({ PROTECT_OPERATIONS_ANNOTATION: "EVICT,DELETE" }),
        spec,
    );
    assert_eq!(refusal(&good, None, &[]), None);
}

#[test]
fn selector_and_target_are_immutable() {
    let old = manifest(
        "web",
        json!({}),
        json!({ "selector": { "matchLabels": { "app": "web" } }, "maxUnavailable": 1 }),
    );
    let mut new = old.clone();
    new["spec"]["maxUnavailable"] = json!(2);
    assert_eq!(refusal(&new, Some(&old), &[]), None);
    new["spec"]["selector"]["matchLabels"]["app"] = json!("shop");
    assert!(refusal(&new, Some(&old), &[]).is_some_and(|m| m.contains("cannot be modified")));
}

#[test]
fn budgets_of_the_same_pods_conflict() {
    let other = |spec: Value| -> PodUnavailableBudget {
        serde_json::from_value(manifest("other", json!({}), spec)).expect("a budget")
    };
    let target = |version: &str| json!({ "apiVersion": version, "kind": "CloneSet", "name": "web" });
    let mine = manifest(
        "web",
        json!({}),
        json!({ "targetRef": target("apps.kruise.io/v1alpha1"), "maxUnavailable": 1 }),
    );
    let same_target = other(json!({ "targetRef": target("apps.kruise.io/v1beta1"), "maxUnavailable": 1 }));
    assert!(refusal(&mine, None, &[same_target]).is_some_and(|m| m.contains("PodUnavailableBudget other")));
    let by_labels = manifest(
        "web",
        json!({}),
        json!({ "selector": { "matchLabels": { "app": "web" } }, "maxUnavailable": 1 }),
    );
    let overlapping = other(json!({ "selector": { "matchExpressions": [
        { "key": "app", "operator": "In", "values": ["web", "shop"] }] }, "maxUnavailable": 1 }));
    assert!(refusal(&by_labels, None, &[overlapping]).is_some());
    let more_keys = other(
        json!({ "selector": { "matchLabels": { "app": "web", "tier": "front" } }, "maxUnavailable": 1 }),
    );
    assert_eq!(
        refusal(&by_labels, None, &[more_keys]),
        None,
        "loose overlap needs the same keys"
    );
}

#[test]
fn loose_overlap_follows_upstream_per_operator() {
    let selector = |op: &str, values: &[&str]| -> LabelSelector {
        serde_json::from_value(
            json!({ "matchExpressions": [{ "key": "k", "operator": op, "values": values }] }),
        )
        .expect("a selector")
    };
    assert!(loosely_overlap(&selector("In", &["a"]), &selector("Exists", &[])));
    assert!(!loosely_overlap(&selector("In", &["a"]), &selector("In", &["b"])));
    assert!(!loosely_overlap(
        &selector("In", &["a"]),
        &selector("NotIn", &["a"])
    ));
    assert!(loosely_overlap(
        &selector("In", &["a", "b"]),
        &selector("NotIn", &["a"])
    ));
    assert!(!loosely_overlap(
        &selector("DoesNotExist", &[]),
        &selector("In", &["a"])
    ));
}
