//! What a PodUnavailableBudget may not be: upstream's webhook refusals, for `/validate` and
//! the controller alike (the CRD's CEL rules repeat the ones that need no peers, so a
//! budget stored while no `run` served the webhook is refused by the controller too).
//! Pure.
//!
//! Invariants:
//! - Each refusal names the field (`metadata.annotations[KEY]`, `spec.selector`, ...).
//! - Two budgets of a namespace conflict when their `targetRef`s name the same workload
//!   (group, kind and name; the version is ignored) or their selectors loosely overlap
//!   (upstream's rule: the same label keys, and each key's requirements can both hold).
//! - `selector` and `targetRef` never change after creation.
use std::collections::BTreeMap;

use k8s_openapi::apimachinery::pkg::apis::meta::v1::{LabelSelector, LabelSelectorRequirement};
use kube::ResourceExt;
use serde_json::Value;

use crate::api::podunavailablebudget::{
    PROTECT_OPERATIONS_ANNOTATION, PROTECT_TOTAL_REPLICAS_ANNOTATION, PodUnavailableBudget, PubOperation,
};
use crate::workloads::common::int_or_percent::{Amount, parse};
use crate::workloads::common::targets::group_of;

/// Why `object` must be refused among `others` (the other budgets of its namespace); `old`:
/// the stored budget on an update. None: it may be stored.
pub fn refusal(object: &Value, old: Option<&Value>, others: &[PodUnavailableBudget]) -> Option<String> {
    let budget: PodUnavailableBudget = match serde_json::from_value(object.clone()) {
        Ok(budget) => budget,
        Err(error) => return Some(format!("PodUnavailableBudget cannot be read: {error}")),
    };
    let name = format!(
        "PodUnavailableBudget {}/{}",
        budget.namespace().unwrap_or_default(),
        budget.name_any()
    );
    let refused = annotations(&budget)
        .or_else(|| spec(&budget))
        .or_else(|| old.and_then(|old| changed(object, old)))
        .or_else(|| conflict(&budget, others));
    refused.map(|why| format!("{name}: {why}"))
}

fn annotations(budget: &PodUnavailableBudget) -> Option<String> {
    let annotations = budget.annotations();
    if let Some(text) = annotations.get(PROTECT_OPERATIONS_ANNOTATION)
        && text.split(',').any(|word| PubOperation::named(word).is_none())
    {
        return Some(format!(
            "metadata.annotations[{PROTECT_OPERATIONS_ANNOTATION}] {text:?} is invalid: \
             a comma-separated list of UPDATE, DELETE, EVICT and RESIZE"
        ));
    }
    if let Some(text) = annotations.get(PROTECT_TOTAL_REPLICAS_ANNOTATION)
        && text.parse::<i32>().is_err()
    {
        return Some(format!(
            "metadata.annotations[{PROTECT_TOTAL_REPLICAS_ANNOTATION}] {text:?} is invalid: an integer"
        ));
    }
    None
}

fn has_terms(selector: &LabelSelector) -> bool {
    selector.match_labels.as_ref().is_some_and(|m| !m.is_empty())
        || selector.match_expressions.as_ref().is_some_and(|m| !m.is_empty())
}

fn spec(budget: &PodUnavailableBudget) -> Option<String> {
    let spec = &budget.spec;
    match (&spec.selector, &spec.target_ref) {
        (None, None) => return Some("spec.selector, spec.targetRef: one of them is required".into()),
        (Some(_), Some(_)) => {
            return Some("spec.selector, spec.targetRef: they are mutually exclusive".into());
        }
        (None, Some(target)) => {
            if target.api_version.is_empty() || target.kind.is_empty() || target.name.is_empty() {
                return Some("spec.targetRef: apiVersion, kind and name are all required".into());
            }
            if target.api_version.split('/').count() > 2 {
                return Some(format!(
                    "spec.targetRef.apiVersion {:?} is not a group version",
                    target.api_version
                ));
            }
        }
        (Some(selector), None) => {
            if !has_terms(selector) {
                return Some(
                    "spec.selector: an empty selector is not valid (it would select every pod)".into(),
                );
            }
            if kube::core::Selector::try_from(selector.clone()).is_err() {
                return Some("spec.selector is not a valid label selector".into());
            }
        }
    }
    if spec.ignored_pod_selector.as_ref().is_some_and(|s| !has_terms(s)) {
        return Some("spec.ignoredPodSelector: an empty selector is not valid".into());
    }
    let amount = |field: &'static str, value| match parse(field, value) {
        Err(error) => Some(error.to_string()),
        Ok(Amount::Percent(p)) if p > 100 => Some(format!("{field}: {p}% is more than 100%")),
        Ok(_) => None,
    };
    match (&spec.max_unavailable, &spec.min_available) {
        (None, None) => Some("spec.maxUnavailable, spec.minAvailable: one of them is required".into()),
        (Some(_), Some(_)) => {
            Some("spec.maxUnavailable, spec.minAvailable: they are mutually exclusive".into())
        }
        (Some(max), None) => amount("spec.maxUnavailable", max),
        (None, Some(min)) => amount("spec.minAvailable", min),
    }
}

fn changed(object: &Value, old: &Value) -> Option<String> {
    let same = |field: &str| object["spec"][field] == old["spec"][field];
    (!same("selector") || !same("targetRef"))
        .then(|| "spec.selector, spec.targetRef cannot be modified".into())
}

fn conflict(budget: &PodUnavailableBudget, others: &[PodUnavailableBudget]) -> Option<String> {
    let name = budget.name_any();
    let namespace = budget.namespace();
    others
        .iter()
        .filter(|o| o.name_any() != name && o.namespace() == namespace)
        .find_map(|other| match (&budget.spec, &other.spec) {
            (mine, theirs) if mine.target_ref.is_some() && theirs.target_ref.is_some() => {
                let (a, b) = (mine.target_ref.as_ref()?, theirs.target_ref.as_ref()?);
                (group_of(&a.api_version) == group_of(&b.api_version) && a.kind == b.kind && a.name == b.name)
                    .then(|| {
                        format!(
                            "spec.targetRef is in conflict with PodUnavailableBudget {}",
                            other.name_any()
                        )
                    })
            }
            (mine, theirs) => {
                let (a, b) = (mine.selector.as_ref()?, theirs.selector.as_ref()?);
                loosely_overlap(a, b).then(|| {
                    format!(
                        "spec.selector is in conflict with PodUnavailableBudget {}",
                        other.name_any()
                    )
                })
            }
        })
}

/// Each key's requirement (matchLabels as `In [value]`; a key in both, matchLabels wins).
fn requirements(selector: &LabelSelector) -> BTreeMap<&str, (&str, Vec<&str>)> {
    let mut all: BTreeMap<&str, (&str, Vec<&str>)> = BTreeMap::new();
    for r in selector.match_expressions.iter().flatten() {
        all.insert(r.key.as_str(), (r.operator.as_str(), values(r)));
    }
    for (key, value) in selector.match_labels.iter().flatten() {
        all.insert(key.as_str(), ("In", vec![value.as_str()]));
    }
    all
}

fn values(r: &LabelSelectorRequirement) -> Vec<&str> {
    r.values.iter().flatten().map(String::as_str).collect()
}

/// Upstream's loose overlap: the same keys, and for each, requirements that can both hold.
pub fn loosely_overlap(a: &LabelSelector, b: &LabelSelector) -> bool {
    let (a, b) = (requirements(a), requirements(b));
    let one_way = |x: &BTreeMap<&str, (&str, Vec<&str>)>, y: &BTreeMap<&str, (&str, Vec<&str>)>| {
        x.iter()
            .all(|(key, first)| y.get(key).is_some_and(|second| can_both_hold(first, second)))
    };
    one_way(&a, &b) && one_way(&b, &a)
}

fn can_both_hold(first: &(&str, Vec<&str>), second: &(&str, Vec<&str>)) -> bool {
    let overlaps = |x: &[&str], y: &[&str]| x.iter().any(|v| y.contains(v));
    let contains = |x: &[&str], y: &[&str]| y.iter().all(|v| x.contains(v));
    match (first.0, second.0) {
        ("In", "Exists") => true,
        ("In", "In") => overlaps(&second.1, &first.1),
        ("In", "NotIn") => !contains(&second.1, &first.1),
        ("Exists", "In" | "NotIn" | "Exists") => true,
        ("NotIn", "Exists" | "DoesNotExist" | "NotIn") => true,
        ("NotIn", "In") => !contains(&first.1, &second.1),
        ("DoesNotExist", "DoesNotExist" | "NotIn") => true,
        _ => false,
    }
}

#[cfg(test)]
#[path = "validation_tests.rs"]
mod tests;
