//! Kubernetes' rules for the fields several kinds' refusals share: label selectors, node
//! selector terms and tolerations (as `ValidateLabelSelector`, `ValidateNodeSelectorTerm`
//! and `ValidateTolerations` judge them). Each returns the first fault as `field: why`,
//! the field given by the caller. Pure.
use k8s_openapi::api::core::v1::{NodeSelectorRequirement, NodeSelectorTerm, Toleration};
use k8s_openapi::apimachinery::pkg::apis::meta::v1::{LabelSelector, LabelSelectorRequirement};
use kube::core::Selector;

use super::names::{dns_subdomain, label_key, label_value};

/// Why a label selector is invalid: a bad key or value, an unknown operator, values that
/// do not fit the operator; then whatever else the selector parser refuses.
pub fn selector_fault(at: &str, selector: &LabelSelector) -> Option<String> {
    let labels = selector.match_labels.iter().flatten();
    for (key, value) in labels {
        if !label_key(key) {
            return Some(format!("{at}.matchLabels: {key:?} is not a valid label key"));
        }
        if !label_value(value) {
            return Some(format!(
                "{at}.matchLabels.{key}: {value:?} is not a valid label value"
            ));
        }
    }
    let expressions = selector.match_expressions.iter().flatten().enumerate();
    expressions
        .into_iter()
        .find_map(|(j, expression)| {
            label_requirement_fault(&format!("{at}.matchExpressions[{j}]"), expression)
        })
        .or_else(|| {
            let error = Selector::try_from(selector.clone()).err()?;
            Some(format!("{at}: is invalid: {error}"))
        })
}

pub fn label_requirement_fault(at: &str, expression: &LabelSelectorRequirement) -> Option<String> {
    let values = expression.values.as_deref().unwrap_or_default();
    let operator = expression.operator.as_str();
    let wants_values = match operator {
        "In" | "NotIn" => true,
        "Exists" | "DoesNotExist" => false,
        other => {
            return Some(format!(
                "{at}.operator: {other:?} is not one of In, NotIn, Exists, DoesNotExist"
            ));
        }
    };
    if !label_key(&expression.key) {
        Some(format!("{at}.key: {:?} is not a valid label key", expression.key))
    } else if wants_values && values.is_empty() {
        Some(format!("{at}.values: must not be empty with {operator}"))
    } else if !wants_values && !values.is_empty() {
        Some(format!("{at}.values: must be empty with {operator}"))
    } else {
        let bad = values.iter().find(|v| !label_value(v))?;
        Some(format!("{at}.values: {bad:?} is not a valid label value"))
    }
}

/// Kubernetes' rules for a node selector term; `check_values`: In/NotIn values must be
/// label values (required terms only, as Kubernetes).
pub fn node_selector_term_fault(at: &str, term: &NodeSelectorTerm, check_values: bool) -> Option<String> {
    let expressions = term.match_expressions.iter().flatten().enumerate();
    let fields = term.match_fields.iter().flatten().enumerate();
    expressions
        .into_iter()
        .find_map(|(j, requirement)| {
            node_requirement_fault(&format!("{at}.matchExpressions[{j}]"), requirement, check_values)
        })
        .or_else(|| {
            fields.into_iter().find_map(|(j, requirement)| {
                node_field_requirement_fault(&format!("{at}.matchFields[{j}]"), requirement)
            })
        })
}

/// A label requirement on nodes: operator and values agree, the key is a label key.
pub fn node_requirement_fault(
    at: &str,
    requirement: &NodeSelectorRequirement,
    check_values: bool,
) -> Option<String> {
    let values = requirement.values.as_deref().unwrap_or_default();
    let operator = requirement.operator.as_str();
    let operator_fault = match operator {
        "In" | "NotIn" => values
            .is_empty()
            .then(|| format!("{at}.values: must not be empty with {operator}")),
        "Exists" | "DoesNotExist" => {
            (!values.is_empty()).then(|| format!("{at}.values: must be empty with {operator}"))
        }
        "Gt" | "Lt" => match values {
            [value] if value.parse::<i64>().is_ok() => None,
            _ => Some(format!("{at}.values: {operator} needs exactly one integer value")),
        },
        _ => Some(format!(
            "{at}.operator: {operator:?} is not one of In, NotIn, Exists, DoesNotExist, Gt, Lt"
        )),
    };
    operator_fault
        .or_else(|| {
            let bad = values.iter().position(|v| check_values && !label_value(v))?;
            Some(format!(
                "{at}.values[{bad}]: {:?} is not a valid label value",
                values[bad]
            ))
        })
        .or_else(|| {
            (!label_key(&requirement.key))
                .then(|| format!("{at}.key: {:?} is not a valid label key", requirement.key))
        })
}

/// A field requirement on nodes: as Kubernetes, only `metadata.name` with In or NotIn and
/// exactly one node name.
pub fn node_field_requirement_fault(at: &str, requirement: &NodeSelectorRequirement) -> Option<String> {
    let values = requirement.values.as_deref().unwrap_or_default();
    let operator = requirement.operator.as_str();
    if !matches!(operator, "In" | "NotIn") {
        return Some(format!(
            "{at}.operator: {operator:?} is not valid for a node field (In or NotIn)"
        ));
    }
    if values.len() != 1 {
        return Some(format!(
            "{at}.values: must have exactly one value with {operator}"
        ));
    }
    if requirement.key != "metadata.name" {
        return Some(format!(
            "{at}.key: {:?} is not a node field a selector may use (metadata.name)",
            requirement.key
        ));
    }
    let name = &values[0];
    (!dns_subdomain(name)).then(|| format!("{at}.values[0]: {name:?} is not a valid node name"))
}

pub fn tolerations_fault(at: &str, tolerations: &[Toleration]) -> Option<String> {
    tolerations
        .iter()
        .enumerate()
        .find_map(|(k, toleration)| toleration_fault(&format!("{at}[{k}]"), toleration))
}

/// Kubernetes' rules for one toleration (an empty operator means Equal, an empty effect
/// all effects).
pub fn toleration_fault(at: &str, toleration: &Toleration) -> Option<String> {
    let key = toleration.key.as_deref().unwrap_or_default();
    let value = toleration.value.as_deref().unwrap_or_default();
    let effect = toleration.effect.as_deref().unwrap_or_default();
    let exists = match toleration.operator.as_deref().unwrap_or_default() {
        "Exists" => true,
        "Equal" | "" => false,
        other => return Some(format!("{at}.operator: {other:?} is not Exists or Equal")),
    };
    if exists && !value.is_empty() {
        return Some(format!("{at}.value: must be empty with operator Exists"));
    }
    if !exists && !label_value(value) {
        return Some(format!("{at}.value: {value:?} is not a valid label value"));
    }
    if !matches!(effect, "" | "NoSchedule" | "PreferNoSchedule" | "NoExecute") {
        return Some(format!(
            "{at}.effect: {effect:?} is not NoSchedule, PreferNoSchedule or NoExecute"
        ));
    }
    if key.is_empty() && !exists {
        return Some(format!(
            "{at}.operator: must be Exists when the key is empty (match every taint)"
        ));
    }
    if !key.is_empty() && !label_key(key) {
        return Some(format!("{at}.key: {key:?} is not a valid label key"));
    }
    (toleration.toleration_seconds.is_some() && effect != "NoExecute")
        .then(|| format!("{at}.effect: must be NoExecute when tolerationSeconds is set"))
}
