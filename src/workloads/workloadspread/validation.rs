//! What upstream's validating webhook refuses in a WorkloadSpread, for the `/validate`
//! endpoint and the controller (which marks a refused spec `InvalidSpec`). Pure: the caller hands in the object, the stored object on
//! an UPDATE, the other WorkloadSpreads of its namespace and the target workload (when it
//! exists).
//!
//! The object must first be readable as a WorkloadSpread: a missing `spec.targetRef` or
//! `spec.subsets`, or a `scheduleStrategy.type` other than `""`, `Fixed` or `Adaptive` (the
//! typed enum), is refused there, naming the field. Then, in this order, the first refusal
//! is returned:
//! 1. `targetRef`: apiVersion, kind and name non-empty; CloneSet in `apps.kruise.io`,
//!    Deployment and ReplicaSet in `apps`, Job in `batch`, StatefulSet in `apps` or
//!    `apps.kruise.io` (the version is ignored), or a kind of OpenKruise's custom-workload
//!    whitelist (`WorkloadSpread_Watch_Custom_Workload_WhiteList` of `kruise-configuration`,
//!    by group and kind, as upstream); any other kind is refused.
//! 2. Another WorkloadSpread of the namespace (a different name) spreading the same target
//!    (group, kind and name).
//! 3. Subsets, one after the other: at least one; each name non-empty and unique; the
//!    required node selector term (`requiredNodeSelectorTerm` or `requiredNodeSelector`);
//!    the preferred terms (`preferredNodeSelectorTerms` or `preferredNodeSelector`, weight
//!    1 to 100); the tolerations — as Kubernetes validates them in a pod.
//! 4. Only when the target exists: each `patch` must be something a strategic merge can
//!    apply onto the target's pod template (see below).
//! 5. `maxReplicas`: one type across the subsets (integers or percentages), integers only
//!    for a StatefulSet target, integers `>= 0`, percentages `<digits>%` of at most 100,
//!    adding up to at most 100%, and to exactly 100% when the last subset sets one.
//! 6. `scheduleStrategy`: `adaptive` only with type `Adaptive`; with `adaptive` and more
//!    than one subset, the last subset sets no `maxReplicas`; `rescheduleCriticalSeconds`
//!    not negative and, with more than one subset, at most `295 / (subsets - 1)`.
//! 7. `targetFilter.selector`: a valid label selector.
//! 8. UPDATE only: the target's group, kind and name are immutable.
//!
//! Left out on purpose: the full pod validation of a patched template. A patch is refused when it is not a JSON
//! object, when its `metadata` carries anything but `labels` and `annotations` maps of
//! strings (`null` removes a key), when its `spec` is not an object, or when a list the pod
//! type merges by name (`containers`, `initContainers`, `ephemeralContainers`, `volumes`)
//! is not a list of objects naming their item; anything else shows when a pod is created.
//!
//! Invariant: every refusal names the object and the field
//! (`WorkloadSpread spread-web: spec.subsets[1].name: "zone-a" is used twice`).
use std::collections::BTreeSet;

use k8s_openapi::api::core::v1::PreferredSchedulingTerm;
use kube::ResourceExt;
use serde_json::Value;

use crate::api::common::IntOrString;
use crate::api::workloadspread::{
    TargetReference, WorkloadSpread, WorkloadSpreadScheduleStrategyType, WorkloadSpreadSpec,
    WorkloadSpreadSubset,
};
use crate::runtime::configuration::{CONFIGMAP, CUSTOM_WORKLOAD_WHITELIST_KEY, Configuration};
use crate::runtime::decoded::read;
use crate::workloads::common::field_faults::{node_selector_term_fault, selector_fault, tolerations_fault};
use crate::workloads::common::int_or_percent::{self, Amount};

/// Why the WorkloadSpread `object` must be refused (None: it may be stored). `old`: the stored object on an UPDATE;
/// `others`: the other WorkloadSpreads of its namespace (may include itself by name — skip the same name);
/// `target`: the target workload as JSON when it exists (None: not found or not looked up).
/// No custom workload kind is admitted (see [`refusal_among`]).
pub fn refusal(
    object: &Value,
    old: Option<&Value>,
    others: &[WorkloadSpread],
    target: Option<&Value>,
) -> Option<String> {
    refusal_among(object, old, others, target, &Configuration::default())
}

/// [`refusal`], with the custom workload kinds of `configuration` admitted as targets.
pub fn refusal_among(
    object: &Value,
    old: Option<&Value>,
    others: &[WorkloadSpread],
    target: Option<&Value>,
    configuration: &Configuration,
) -> Option<String> {
    let name = object["metadata"]["name"].as_str().unwrap_or_default();
    fault(name, object, old, others, target, configuration).map(|why| format!("WorkloadSpread {name}: {why}"))
}

/// The first fault, as `field: why` (the object's name is added by [`refusal`]).
fn fault(
    name: &str,
    object: &Value,
    old: Option<&Value>,
    others: &[WorkloadSpread],
    target: Option<&Value>,
    configuration: &Configuration,
) -> Option<String> {
    let spread = match read::<WorkloadSpread>(object) {
        Ok(spread) => spread,
        Err(error) => return Some(error),
    };
    let spec = &spread.spec;
    target_ref_fault(&spec.target_ref, configuration)
        .or_else(|| conflict_fault(name, &spec.target_ref, others))
        .or_else(|| subsets_fault(&spec.subsets))
        .or_else(|| target.and_then(|_| patches_fault(&spec.subsets)))
        .or_else(|| max_replicas_fault(spec))
        .or_else(|| schedule_strategy_fault(spec))
        .or_else(|| target_filter_fault(spec))
        .or_else(|| old.and_then(|old| target_change_fault(&spec.target_ref, old)))
}

// ---- names, keys and values ----

// ---- 1. targetRef ----

/// The group of an apiVersion (`apps/v1` → `apps`, `v1` → ``); None when it has more than
/// one '/'.
fn group_of(api_version: &str) -> Option<&str> {
    match api_version.split_once('/') {
        None => Some(""),
        Some((_, version)) if version.contains('/') => None,
        Some((group, _)) => Some(group),
    }
}

fn empty_target_field(target: &TargetReference) -> Option<&'static str> {
    [
        ("apiVersion", &target.api_version),
        ("kind", &target.kind),
        ("name", &target.name),
    ]
    .into_iter()
    .find_map(|(field, value)| value.is_empty().then_some(field))
}

fn target_ref_fault(target: &TargetReference, configuration: &Configuration) -> Option<String> {
    if let Some(field) = empty_target_field(target) {
        return Some(format!("spec.targetRef.{field}: must not be empty"));
    }
    let whitelisted = group_of(&target.api_version)
        .is_some_and(|group| configuration.custom(group, &target.kind).is_some());
    if whitelisted {
        return None;
    }
    let groups = super::target::groups_of_kind(&target.kind);
    if groups.is_empty() {
        return Some(format!(
            "spec.targetRef.kind: {:?} is not a supported target (CloneSet, Deployment, ReplicaSet, Job, \
             StatefulSet, or a custom workload listed in {CUSTOM_WORKLOAD_WHITELIST_KEY} of ConfigMap \
             {CONFIGMAP}, read when `run` starts)",
            target.kind
        ));
    }
    let in_group = group_of(&target.api_version).is_some_and(|group| groups.contains(&group));
    (!in_group).then(|| {
        format!(
            "spec.targetRef.apiVersion: {:?} is not valid for a {} target (group {})",
            target.api_version,
            target.kind,
            groups.join(" or ")
        )
    })
}

/// `Kind.group/name` (`Kind/name` in the core group), as kubectl names objects.
fn describe(group: &str, kind: &str, name: &str) -> String {
    match group {
        "" => format!("{kind}/{name}"),
        group => format!("{kind}.{group}/{name}"),
    }
}

/// The target's group, kind and name (an unparsable apiVersion counts as the core group).
fn target_identity(target: &TargetReference) -> (&str, &str, &str) {
    let group = group_of(&target.api_version).unwrap_or_default();
    (group, &target.kind, &target.name)
}

// ---- 2. another WorkloadSpread on the same target ----

fn conflict_fault(name: &str, target: &TargetReference, others: &[WorkloadSpread]) -> Option<String> {
    let mine = target_identity(target);
    let other = others
        .iter()
        .filter(|other| other.name_any() != name)
        .find(|other| target_identity(&other.spec.target_ref) == mine)?;
    let (group, kind, target_name) = mine;
    Some(format!(
        "spec.targetRef: {} is already spread by WorkloadSpread {}",
        describe(group, kind, target_name),
        other.name_any()
    ))
}

// ---- 3. subsets ----

fn subsets_fault(subsets: &[WorkloadSpreadSubset]) -> Option<String> {
    if subsets.is_empty() {
        return Some("spec.subsets: must have at least one subset".into());
    }
    let mut names = BTreeSet::new();
    subsets.iter().enumerate().find_map(|(i, subset)| {
        let at = format!("spec.subsets[{i}]");
        subset_name_fault(&at, &subset.name, &mut names).or_else(|| scheduling_fault(&at, subset))
    })
}

fn subset_name_fault<'a>(at: &str, name: &'a str, seen: &mut BTreeSet<&'a str>) -> Option<String> {
    if name.is_empty() {
        return Some(format!("{at}.name: must not be empty"));
    }
    (!seen.insert(name)).then(|| format!("{at}.name: {name:?} is used twice"))
}

/// The required term, the preferred terms and the tolerations of one subset, under both
/// spellings of the node selector fields.
fn scheduling_fault(at: &str, subset: &WorkloadSpreadSubset) -> Option<String> {
    let required = [
        ("requiredNodeSelectorTerm", &subset.required_node_selector_term),
        ("requiredNodeSelector", &subset.required_node_selector),
    ];
    let preferred = [
        (
            "preferredNodeSelectorTerms",
            &subset.preferred_node_selector_terms,
        ),
        ("preferredNodeSelector", &subset.preferred_node_selector),
    ];
    let required_fault = required.into_iter().find_map(|(field, term)| {
        let term = term.as_ref()?;
        node_selector_term_fault(&format!("{at}.{field}"), term, true)
    });
    required_fault
        .or_else(|| {
            preferred
                .into_iter()
                .find_map(|(field, terms)| preferred_terms_fault(&format!("{at}.{field}"), terms.as_deref()?))
        })
        .or_else(|| tolerations_fault(&format!("{at}.tolerations"), subset.tolerations.as_deref()?))
}

fn preferred_terms_fault(at: &str, terms: &[PreferredSchedulingTerm]) -> Option<String> {
    terms.iter().enumerate().find_map(|(k, term)| {
        let at = format!("{at}[{k}]");
        if !(1..=100).contains(&term.weight) {
            return Some(format!("{at}.weight: {} must be in the range 1-100", term.weight));
        }
        node_selector_term_fault(&format!("{at}.preference"), &term.preference, false)
    })
}

// ---- 4. patches ----

/// The pod lists a strategic merge merges item by item by `name`.
const NAMED_POD_LISTS: [&str; 4] = ["containers", "initContainers", "ephemeralContainers", "volumes"];

/// The strategic-merge directive key.
const DIRECTIVE: &str = "$patch";

fn patches_fault(subsets: &[WorkloadSpreadSubset]) -> Option<String> {
    subsets.iter().enumerate().find_map(|(i, subset)| {
        let patch = subset.patch.as_ref()?;
        patch_fault(&format!("spec.subsets[{i}].patch"), patch)
    })
}

fn patch_fault(at: &str, patch: &Value) -> Option<String> {
    let Some(patch) = patch.as_object() else {
        return Some(format!(
            "{at}: must be a JSON object (a strategic merge patch of the pod)"
        ));
    };
    patch
        .get("metadata")
        .and_then(|metadata| patch_metadata_fault(&format!("{at}.metadata"), metadata))
        .or_else(|| patch_spec_fault(&format!("{at}.spec"), patch.get("spec")?))
}

fn patch_metadata_fault(at: &str, metadata: &Value) -> Option<String> {
    let Some(metadata) = metadata.as_object() else {
        return Some(format!("{at}: must be an object"));
    };
    metadata.iter().find_map(|(key, value)| match key.as_str() {
        "labels" | "annotations" => string_map_fault(&format!("{at}.{key}"), value),
        other => Some(format!(
            "{at}.{other}: a subset patch may change only labels and annotations"
        )),
    })
}

/// A map of strings (`null` removes a key, or the whole map).
fn string_map_fault(at: &str, map: &Value) -> Option<String> {
    let entries = match map {
        Value::Null => return None,
        Value::Object(entries) => entries,
        _ => return Some(format!("{at}: must be a map of strings")),
    };
    entries
        .iter()
        .find(|(_, value)| !(value.is_string() || value.is_null()))
        .map(|(key, _)| format!("{at}.{key}: must be a string"))
}

fn patch_spec_fault(at: &str, spec: &Value) -> Option<String> {
    let Some(spec) = spec.as_object() else {
        return Some(format!("{at}: must be an object"));
    };
    NAMED_POD_LISTS.into_iter().find_map(|list| {
        let items = spec.get(list)?;
        named_list_fault(&format!("{at}.{list}"), items)
    })
}

/// A list merged by `name`: each item an object with a string name (a `$patch` directive
/// item needs none).
fn named_list_fault(at: &str, items: &Value) -> Option<String> {
    let items = match items {
        Value::Null => return None,
        Value::Array(items) => items,
        _ => return Some(format!("{at}: must be a list")),
    };
    items.iter().enumerate().find_map(|(k, item)| {
        let Some(item) = item.as_object() else {
            return Some(format!("{at}[{k}]: must be an object"));
        };
        let named = item.get("name").is_some_and(Value::is_string);
        (!named && !item.contains_key(DIRECTIVE))
            .then(|| format!("{at}[{k}].name: is required to merge the item"))
    })
}

// ---- 5. maxReplicas ----

/// The two types an int-or-percent takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum AmountType {
    Integer,
    Percentage,
}

impl AmountType {
    fn of(value: &IntOrString) -> Self {
        match value {
            IntOrString::Int(_) => AmountType::Integer,
            IntOrString::String(_) => AmountType::Percentage,
        }
    }

    fn noun(self) -> &'static str {
        match self {
            AmountType::Integer => "an integer",
            AmountType::Percentage => "a percentage",
        }
    }
}

/// `value` as an amount: a non-negative integer or `<digits>%` (no sign, no fraction).
fn amount(value: &IntOrString) -> Option<Amount> {
    if let IntOrString::String(text) = value {
        let digits = text.strip_suffix('%').unwrap_or_default();
        if digits.is_empty() || !digits.chars().all(|c| c.is_ascii_digit()) {
            return None;
        }
    }
    int_or_percent::parse("maxReplicas", value).ok()
}

/// `value` as the JSON it was written as (`3`, `"50%"`).
fn shown(value: &IntOrString) -> String {
    match value {
        IntOrString::Int(n) => n.to_string(),
        IntOrString::String(text) => format!("{text:?}"),
    }
}

fn max_replicas_fault(spec: &WorkloadSpreadSpec) -> Option<String> {
    let statefulset = spec.target_ref.kind == "StatefulSet";
    let mut first: Option<(usize, AmountType)> = None;
    let mut percent_sum = 0_i64;
    for (i, subset) in spec.subsets.iter().enumerate() {
        let Some(value) = &subset.max_replicas else {
            continue;
        };
        let at = format!("spec.subsets[{i}].maxReplicas");
        let kind = AmountType::of(value);
        match first {
            None => first = Some((i, kind)),
            Some((j, first_kind)) if first_kind != kind => {
                return Some(format!(
                    "{at}: {} is {} but spec.subsets[{j}].maxReplicas is {}; all subsets must use the same type",
                    shown(value),
                    kind.noun(),
                    first_kind.noun()
                ));
            }
            Some(_) => {}
        }
        if statefulset && kind == AmountType::Percentage {
            return Some(format!(
                "{at}: {} must be an integer for a StatefulSet target",
                shown(value)
            ));
        }
        match amount(value) {
            None => {
                return Some(format!(
                    "{at}: {} is neither a non-negative integer nor a percentage like \"25%\"",
                    shown(value)
                ));
            }
            Some(Amount::Percent(p)) if p > 100 => {
                return Some(format!("{at}: {} is above 100%", shown(value)));
            }
            Some(Amount::Percent(p)) => {
                percent_sum += p;
                if percent_sum > 100 {
                    return Some(format!(
                        "{at}: the subsets' percentages add up to {percent_sum}%, above 100%"
                    ));
                }
            }
            Some(Amount::Int(_)) => {}
        }
    }
    let last = spec.subsets.len().checked_sub(1)?;
    let last_sets_one = spec.subsets[last].max_replicas.is_some();
    let percentages = first.is_some_and(|(_, kind)| kind == AmountType::Percentage);
    (percentages && last_sets_one && percent_sum < 100).then(|| {
        format!(
            "spec.subsets[{last}].maxReplicas: the subsets' percentages add up to {percent_sum}%; they must add \
             up to 100% when the last subset sets maxReplicas"
        )
    })
}

// ---- 6. scheduleStrategy ----

/// The longest a pod may stay unschedulable before the scheduler gives up (300 s), less a
/// margin for the reconcile: the budget all subsets but the last share.
const RESCHEDULE_BUDGET_SECONDS: i32 = 295;

fn schedule_strategy_fault(spec: &WorkloadSpreadSpec) -> Option<String> {
    let strategy = spec.schedule_strategy.as_ref()?;
    let adaptive = strategy.adaptive.as_ref()?;
    if strategy.type_ != Some(WorkloadSpreadScheduleStrategyType::Adaptive) {
        return Some(
            "spec.scheduleStrategy.type: must be Adaptive when spec.scheduleStrategy.adaptive is set".into(),
        );
    }
    let subsets = spec.subsets.len();
    if subsets > 1 && spec.subsets[subsets - 1].max_replicas.is_some() {
        return Some(format!(
            "spec.scheduleStrategy.adaptive: the last subset (spec.subsets[{}]) must not set maxReplicas with the \
             Adaptive strategy",
            subsets - 1
        ));
    }
    let seconds = adaptive.reschedule_critical_seconds?;
    let at = "spec.scheduleStrategy.adaptive.rescheduleCriticalSeconds";
    if seconds < 0 {
        return Some(format!("{at}: {seconds} must not be negative"));
    }
    let longest = longest_reschedule_seconds(subsets)?;
    (seconds > longest).then(|| {
        format!("{at}: {seconds} is above {longest}, the most {subsets} subsets allow (295 / (subsets - 1))")
    })
}

/// The longest `rescheduleCriticalSeconds` for `subsets` subsets (None: no bound, one subset).
fn longest_reschedule_seconds(subsets: usize) -> Option<i32> {
    let others = i32::try_from(subsets.checked_sub(1)?).ok().filter(|n| *n > 0);
    match others {
        Some(others) => Some(RESCHEDULE_BUDGET_SECONDS / others),
        // More subsets than an i32 counts: no second is left for each.
        None if subsets > 1 => Some(0),
        None => None,
    }
}

// ---- 7. targetFilter ----

fn target_filter_fault(spec: &WorkloadSpreadSpec) -> Option<String> {
    let selector = spec.target_filter.as_ref()?.selector.as_ref()?;
    selector_fault("spec.targetFilter.selector", selector)
}

// ---- 8. UPDATE: the target is immutable ----

/// The stored object's target (group, kind, name), when it has one.
fn stored_target(old: &Value) -> Option<(&str, &str, &str)> {
    let target = old["spec"]["targetRef"].as_object()?;
    let text = |field: &str| target.get(field).and_then(Value::as_str).unwrap_or_default();
    let group = group_of(text("apiVersion")).unwrap_or_default();
    Some((group, text("kind"), text("name")))
}

fn target_change_fault(target: &TargetReference, old: &Value) -> Option<String> {
    let before = stored_target(old)?;
    let now = target_identity(target);
    (before != now).then(|| {
        format!(
            "spec.targetRef: may not change (was {}, now {})",
            describe(before.0, before.1, before.2),
            describe(now.0, now.1, now.2)
        )
    })
}

#[cfg(test)]
#[path = "validation_tests.rs"]
mod tests;
