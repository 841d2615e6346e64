//! What upstream's validating webhook refuses in a SidecarSet, for the `/validate`
//! endpoint. Pure: the caller hands in the object, the stored object on an UPDATE, and the
//! other SidecarSets of the cluster.
//!
//! Checked in this order; the first refusal is returned:
//! 1. `metadata.name`: letters, digits and '-', at most 63 characters.
//! 2. The object must be readable as a SidecarSet (an unknown `podInjectPolicy`,
//!    `shareVolumePolicy.type` or `patchPolicy` is refused here, by the typed enums).
//! 3. Scope: `spec.selector` present, with terms, valid; `spec.namespaceSelector` (when
//!    present) with terms and valid; not both `spec.namespace` and `spec.namespaceSelector`.
//! 4. At least one container or init container.
//! 5. No native sidecar (init container with `restartPolicy: Always`) unless
//!    `updateStrategy.type` is `NotUpdate`.
//! 6. `transferEnv`: a source and an env name; a `fieldRef` with apiVersion `v1` and a path
//!    `metadata.labels['<key>']` / `metadata.annotations['<key>']`.
//! 7. The plainest pod-validation faults of the containers and volumes: names (DNS labels,
//!    unique), images (and a `HotUpgrade` sidecar's `hotUpgradeEmptyImage`, which its idle
//!    half runs: not upstream's rule, but without it every pod would be refused), ports,
//!    mounts of undeclared volumes.
//! 8. `resourcesPolicy`: only on a container or a native sidecar init container;
//!    not with explicit `resources` requests or limits; `targetContainersNameRegex`, when
//!    set, non-empty and a valid regex; `resourcesExpr` with limits or requests; every
//!    non-empty expression parses and evaluates with its variable set to 1 (as upstream).
//! 9. `injectionStrategy.revision` names a revision or a custom version.
//! 10. `RollingUpdate`: partition with an update selector, malformed or negative partition
//!     or maxUnavailable, an invalid update selector, priority and scatter terms.
//! 11. `patchPodMetadata`: annotations present, valid keys, no key in two entries.
//! 12. Canary annotations: a base that exists, is not itself, is not a canary, is not
//!     changed on UPDATE; a canary must be `NotUpdate`.
//! 13. UPDATE only: no container added or renamed, no `upgradeType` changed.
//! 14. No conflict with another SidecarSet injecting into the same pods (names, volumes,
//!     overwritten annotations); a canary and its base are not compared.
//!
//! Left out on purpose: the whitelist ConfigMap of patchable annotation keys (any valid
//! key is accepted, a deliberate difference from upstream), whether the revision named by
//! `injectionStrategy.revision` exists, and the full Kubernetes pod validation (only the
//! faults listed in 7 are refused; the rest shows when a pod is created).
//!
//! Invariant: every refusal names the object and the field
//! (`SidecarSet log: spec.containers[1].name: "proxy" is used twice`).
use std::collections::{BTreeMap, BTreeSet};

use k8s_openapi::api::core::v1::Volume;
use k8s_openapi::apimachinery::pkg::apis::meta::v1::LabelSelector;
use kube::ResourceExt;
use kube::core::Selector;
use regex::Regex;
use serde_json::Value;

use super::matching::{BASE_ANNOTATION, CANARY_ANNOTATION, canary_base};
use super::resources::check_expression;
use crate::api::common::{IntOrString, UpdatePriorityStrategy, UpdateScatterStrategy};
use crate::api::sidecarset::is_native_sidecar;
use crate::api::sidecarset::{
    ResourcesExpr, ResourcesPolicy, SidecarContainer, SidecarSet, SidecarSetPatchPodMetadata,
    SidecarSetPatchPolicy, SidecarSetSpec, SidecarSetUpdateStrategy, SidecarSetUpdateStrategyType,
    TransferEnvVar,
};
use crate::runtime::decoded::read;
use crate::workloads::common::int_or_percent;
use crate::workloads::common::names::{annotation_key, dns_label, label_key, label_value};

/// Why the SidecarSet `object` must be refused (None: it may be stored). `old` is the stored object on an
/// UPDATE; `others` are the other SidecarSets in the cluster (the webhook's cache; may include the object itself by name — skip same name).
pub fn refusal(object: &Value, old: Option<&Value>, others: &[SidecarSet]) -> Option<String> {
    let name = object["metadata"]["name"].as_str().unwrap_or_default();
    fault(name, object, old, others).map(|why| format!("SidecarSet {name}: {why}"))
}

/// The first fault, as `field: why` (the object's name is added by [`refusal`]).
fn fault(name: &str, object: &Value, old: Option<&Value>, others: &[SidecarSet]) -> Option<String> {
    if let Some(fault) = name_fault(name) {
        return Some(fault);
    }
    let set = match read::<SidecarSet>(object) {
        Ok(set) => set,
        Err(error) => return Some(error),
    };
    let spec = &set.spec;
    scope_fault(spec)
        .or_else(|| no_containers_fault(spec))
        .or_else(|| native_sidecar_fault(spec))
        .or_else(|| transfer_env_fault(spec))
        .or_else(|| pod_validation_fault(spec))
        .or_else(|| resources_policy_fault(spec))
        .or_else(|| revision_fault(spec))
        .or_else(|| rolling_update_fault(spec))
        .or_else(|| patch_metadata_fault(spec.patch_pod_metadata.as_deref().unwrap_or_default()))
        .or_else(|| canary_fault(&set, old, others))
        .or_else(|| old.and_then(|old| update_fault(spec, old)))
        .or_else(|| conflict_fault(&set, others))
}

// ---- 1. name ----

fn name_fault(name: &str) -> Option<String> {
    let ok =
        !name.is_empty() && name.len() <= 63 && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '-');
    (!ok).then(|| format!("metadata.name: {name:?} must be 1 to 63 letters, digits and '-'"))
}

// ---- names, keys and values ----

// ---- selectors ----

fn has_terms(selector: &LabelSelector) -> bool {
    selector.match_labels.as_ref().is_some_and(|m| !m.is_empty())
        || selector.match_expressions.as_ref().is_some_and(|e| !e.is_empty())
}

/// Why `selector` (at `field`) is invalid: an unknown operator or missing values, a bad
/// key or value, values with `Exists`/`DoesNotExist` or none with `In`/`NotIn`.
fn selector_fault(field: &str, selector: &LabelSelector) -> Option<String> {
    if let Err(error) = Selector::try_from(selector.clone()) {
        return Some(format!("{field}: is invalid: {error}"));
    }
    let labels = selector.match_labels.iter().flatten();
    for (key, value) in labels {
        if !label_key(key) {
            return Some(format!("{field}.matchLabels: {key:?} is not a valid label key"));
        }
        if !label_value(value) {
            return Some(format!(
                "{field}.matchLabels.{key}: {value:?} is not a valid label value"
            ));
        }
    }
    let expressions = selector.match_expressions.iter().flatten().enumerate();
    for (i, expression) in expressions {
        let at = format!("{field}.matchExpressions[{i}]");
        let values = expression.values.as_deref().unwrap_or_default();
        if !label_key(&expression.key) {
            return Some(format!("{at}.key: {:?} is not a valid label key", expression.key));
        }
        let wants_values = matches!(expression.operator.as_str(), "In" | "NotIn");
        if wants_values == values.is_empty() {
            let why = if wants_values {
                "must not be empty with In and NotIn"
            } else {
                "must be empty with Exists and DoesNotExist"
            };
            return Some(format!("{at}.values: {why}"));
        }
        if let Some(value) = values.iter().find(|v| !label_value(v)) {
            return Some(format!("{at}.values: {value:?} is not a valid label value"));
        }
    }
    None
}

/// Like [`selector_fault`], and the selector must have terms.
fn selector_with_terms_fault(field: &str, selector: &LabelSelector) -> Option<String> {
    if !has_terms(selector) {
        return Some(format!("{field}: must have matchLabels or matchExpressions"));
    }
    selector_fault(field, selector)
}

/// The values a selector allows for one key.
#[derive(Debug, PartialEq)]
enum Allowed {
    Any,
    Only(BTreeSet<String>),
}

impl Allowed {
    fn allows(&self, value: &str) -> bool {
        match self {
            Allowed::Any => true,
            Allowed::Only(values) => values.contains(value),
        }
    }
}

/// Per key, the values `selector` allows: `matchLabels` and `In` values; `Exists` any.
fn allowed_values(selector: &LabelSelector) -> BTreeMap<&str, Allowed> {
    let mut allowed = BTreeMap::new();
    for (key, value) in selector.match_labels.iter().flatten() {
        allow(&mut allowed, key, Some(value));
    }
    for expression in selector.match_expressions.iter().flatten() {
        match expression.operator.as_str() {
            "In" => {
                for value in expression.values.iter().flatten() {
                    allow(&mut allowed, &expression.key, Some(value));
                }
            }
            "Exists" => allow(&mut allowed, &expression.key, None),
            _ => {}
        }
    }
    allowed
}

/// Adds `value` (None: any value) to what `allowed` allows for `key`.
fn allow<'a>(allowed: &mut BTreeMap<&'a str, Allowed>, key: &'a str, value: Option<&str>) {
    let entry = allowed
        .entry(key)
        .or_insert_with(|| Allowed::Only(BTreeSet::new()));
    match (entry, value) {
        (entry, None) => *entry = Allowed::Any,
        (Allowed::Only(values), Some(value)) => {
            values.insert(value.to_string());
        }
        (Allowed::Any, Some(_)) => {}
    }
}

/// Do `b`'s terms rule out every label set `a` allows (one direction of [`disjoint`])?
fn excludes(a: &LabelSelector, b: &LabelSelector) -> bool {
    let allowed = allowed_values(a);
    let label_excluded = b
        .match_labels
        .iter()
        .flatten()
        .any(|(key, value)| allowed.get(key.as_str()).is_some_and(|a| !a.allows(value)));
    label_excluded
        || b.match_expressions.iter().flatten().any(|expression| {
            let values = expression.values.as_deref().unwrap_or_default();
            let in_a = allowed.get(expression.key.as_str());
            match expression.operator.as_str() {
                "In" => in_a.is_some_and(|a| !values.iter().any(|v| a.allows(v))),
                "NotIn" => in_a.is_some_and(|a| match a {
                    Allowed::Any => false,
                    Allowed::Only(mine) => mine.iter().all(|v| values.contains(v)),
                }),
                "Exists" => in_a.is_none(),
                "DoesNotExist" => in_a.is_some(),
                _ => false,
            }
        })
}

/// Can no label set match both selectors? Upstream's approximation: each side's
/// `matchLabels`/`In`/`Exists` keys against the other's terms, in both directions.
pub(crate) fn disjoint(a: &LabelSelector, b: &LabelSelector) -> bool {
    excludes(a, b) || excludes(b, a)
}

// ---- 3. scope ----

fn named_namespace(spec: &SidecarSetSpec) -> Option<&str> {
    spec.namespace.as_deref().filter(|n| !n.is_empty())
}

fn scope_fault(spec: &SidecarSetSpec) -> Option<String> {
    let Some(selector) = &spec.selector else {
        return Some("spec.selector: is required".into());
    };
    selector_with_terms_fault("spec.selector", selector)
        .or_else(|| {
            let namespaces = spec.namespace_selector.as_ref()?;
            selector_with_terms_fault("spec.namespaceSelector", namespaces)
        })
        .or_else(|| {
            let both = named_namespace(spec).is_some() && spec.namespace_selector.is_some();
            both.then(|| "spec.namespaceSelector: may not be set together with spec.namespace".into())
        })
}

// ---- 4, 5. containers present, native sidecars ----

fn init_containers(spec: &SidecarSetSpec) -> &[SidecarContainer] {
    spec.init_containers.as_deref().unwrap_or_default()
}

fn containers(spec: &SidecarSetSpec) -> &[SidecarContainer] {
    spec.containers.as_deref().unwrap_or_default()
}

/// Both container lists with their field names, init containers first.
fn container_lists(spec: &SidecarSetSpec) -> [(&'static str, &[SidecarContainer]); 2] {
    [
        ("initContainers", init_containers(spec)),
        ("containers", containers(spec)),
    ]
}

fn no_containers_fault(spec: &SidecarSetSpec) -> Option<String> {
    (init_containers(spec).is_empty() && containers(spec).is_empty())
        .then(|| "spec.containers: containers or initContainers must define at least one container".into())
}

fn rolling_update(spec: &SidecarSetSpec) -> bool {
    let kind = spec.update_strategy.as_ref().and_then(|s| s.type_);
    kind.unwrap_or(SidecarSetUpdateStrategyType::RollingUpdate) == SidecarSetUpdateStrategyType::RollingUpdate
}

fn native_sidecar_fault(spec: &SidecarSetSpec) -> Option<String> {
    if !rolling_update(spec) {
        return None;
    }
    let i = init_containers(spec)
        .iter()
        .position(|c| c.container.restart_policy.as_deref() == Some("Always"))?;
    Some(format!(
        "spec.initContainers[{i}].restartPolicy: Always (a native sidecar) needs spec.updateStrategy.type NotUpdate"
    ))
}

// ---- 6. transferEnv ----

fn transfer_env_fault(spec: &SidecarSetSpec) -> Option<String> {
    container_lists(spec).into_iter().find_map(|(list, items)| {
        items.iter().enumerate().find_map(|(i, item)| {
            let transfers = item.transfer_env.iter().flatten().enumerate();
            transfers.into_iter().find_map(|(j, transfer)| {
                transfer_fault(&format!("spec.{list}[{i}].transferEnv[{j}]"), transfer)
            })
        })
    })
}

fn transfer_fault(at: &str, transfer: &TransferEnvVar) -> Option<String> {
    let named = transfer
        .source_container_name
        .as_deref()
        .is_some_and(|n| !n.is_empty());
    let field_ref = transfer
        .source_container_name_from
        .as_ref()
        .and_then(|f| f.field_ref.as_ref());
    if !named && field_ref.is_none() {
        return Some(format!(
            "{at}: needs sourceContainerName or sourceContainerNameFrom.fieldRef"
        ));
    }
    let has_env = transfer.env_name.as_deref().is_some_and(|n| !n.is_empty())
        || transfer.env_names.as_ref().is_some_and(|n| !n.is_empty());
    if !has_env {
        return Some(format!("{at}: needs envName or envNames"));
    }
    let field_ref = field_ref?;
    let at = format!("{at}.sourceContainerNameFrom.fieldRef");
    match field_ref.api_version.as_deref().unwrap_or_default() {
        "" => return Some(format!("{at}.apiVersion: is required")),
        "v1" => {}
        other => return Some(format!("{at}.apiVersion: {other:?} must be v1")),
    }
    let path = field_ref.field_path.as_str();
    if path.is_empty() {
        return Some(format!("{at}.fieldPath: is required"));
    }
    (!pod_metadata_path(path)).then(|| {
        format!("{at}.fieldPath: {path:?} must be metadata.labels['<key>'] or metadata.annotations['<key>'] with a valid key")
    })
}

/// `metadata.labels['<key>']` or `metadata.annotations['<key>']` with a valid key.
fn pod_metadata_path(path: &str) -> bool {
    let key = |prefix: &str| path.strip_prefix(prefix).and_then(|rest| rest.strip_suffix("']"));
    if let Some(label) = key("metadata.labels['") {
        return label_key(label);
    }
    key("metadata.annotations['").is_some_and(annotation_key)
}

// ---- 7. pod validation ----

fn pod_validation_fault(spec: &SidecarSetSpec) -> Option<String> {
    let volumes = spec.volumes.as_deref().unwrap_or_default();
    volumes_fault(volumes).or_else(|| {
        let declared: BTreeSet<&str> = volumes.iter().map(|v| v.name.as_str()).collect();
        let mut seen = BTreeSet::new();
        container_lists(spec).into_iter().find_map(|(list, items)| {
            items.iter().enumerate().find_map(|(i, item)| {
                container_fault(&format!("spec.{list}[{i}]"), item, &mut seen, &declared)
            })
        })
    })
}

fn volumes_fault(volumes: &[Volume]) -> Option<String> {
    let mut seen = BTreeSet::new();
    volumes.iter().enumerate().find_map(|(i, volume)| {
        let name = volume.name.as_str();
        if !dns_label(name) {
            return Some(format!(
                "spec.volumes[{i}].name: {name:?} must be a lowercase DNS label"
            ));
        }
        (!seen.insert(name)).then(|| format!("spec.volumes[{i}].name: {name:?} is used twice"))
    })
}

/// The faults of one container at `at`; `seen` collects the names of both lists.
fn container_fault<'a>(
    at: &str,
    item: &'a SidecarContainer,
    seen: &mut BTreeSet<&'a str>,
    declared: &BTreeSet<&str>,
) -> Option<String> {
    let container = &item.container;
    let name = container.name.as_str();
    if !dns_label(name) {
        return Some(format!(
            "{at}.name: {name:?} must be a lowercase DNS label (letters, digits, '-')"
        ));
    }
    if !seen.insert(name) {
        return Some(format!("{at}.name: {name:?} is used twice"));
    }
    if container.image.as_deref().is_none_or(str::is_empty) {
        return Some(format!("{at}.image: is required"));
    }
    if crate::workloads::sidecarset::hot::is_hot(item)
        && crate::workloads::sidecarset::hot::empty_image(item).is_empty()
    {
        // Its idle half would be a container without an image: every pod refused.
        return Some(format!(
            "{at}.upgradeStrategy.hotUpgradeEmptyImage: is required with upgradeType HotUpgrade"
        ));
    }
    let port_fault = container
        .ports
        .iter()
        .flatten()
        .enumerate()
        .find_map(|(k, port)| {
            let bad = |p: i32| !(1..=65535).contains(&p);
            if bad(port.container_port) {
                return Some(format!(
                    "{at}.ports[{k}].containerPort: {} must be between 1 and 65535",
                    port.container_port
                ));
            }
            let host = port.host_port.filter(|p| *p != 0 && bad(*p))?;
            Some(format!(
                "{at}.ports[{k}].hostPort: {host} must be between 1 and 65535"
            ))
        });
    port_fault.or_else(|| {
        let mounts = container.volume_mounts.iter().flatten().enumerate();
        mounts.into_iter().find_map(|(m, mount)| {
            (!declared.contains(mount.name.as_str())).then(|| {
                format!(
                    "{at}.volumeMounts[{m}].name: {:?} is not a volume of spec.volumes",
                    mount.name
                )
            })
        })
    })
}

// ---- 8. resourcesPolicy ----

fn resources_policy_fault(spec: &SidecarSetSpec) -> Option<String> {
    container_lists(spec).into_iter().find_map(|(list, items)| {
        items.iter().enumerate().find_map(|(i, item)| {
            let policy = item.resources_policy.as_ref()?;
            let at = format!("spec.{list}[{i}].resourcesPolicy");
            placement_fault(&at, list == "initContainers", item)
                .or_else(|| name_regex_fault(&at, policy))
                .or_else(|| expressions_fault(&at, &policy.resources_expr))
        })
    })
}

/// A policy on a plain init container, or next to explicit requests or limits.
fn placement_fault(at: &str, init: bool, item: &SidecarContainer) -> Option<String> {
    if init && !is_native_sidecar(&item.container) {
        return Some(format!(
            "{at}: only containers and native sidecar init containers (restartPolicy Always) may have one"
        ));
    }
    let resources = item.container.resources.as_ref();
    let explicit = resources.is_some_and(|r| {
        r.limits.as_ref().is_some_and(|l| !l.is_empty()) || r.requests.as_ref().is_some_and(|l| !l.is_empty())
    });
    explicit.then(|| format!("{at}: cannot be combined with explicit resources requests or limits"))
}

fn name_regex_fault(at: &str, policy: &ResourcesPolicy) -> Option<String> {
    let regex = policy.target_containers_name_regex.as_deref()?;
    if regex.is_empty() {
        return Some(format!("{at}.targetContainersNameRegex: must not be empty"));
    }
    let error = Regex::new(regex).err()?;
    Some(format!(
        "{at}.targetContainersNameRegex: {regex:?} is not a valid regex: {error}"
    ))
}

fn expressions_fault(at: &str, exprs: &ResourcesExpr) -> Option<String> {
    if exprs.limits.is_none() && exprs.requests.is_none() {
        return Some(format!("{at}.resourcesExpr: needs limits or requests"));
    }
    let sides = [
        ("limits", exprs.limits.as_ref()),
        ("requests", exprs.requests.as_ref()),
    ];
    sides.into_iter().find_map(|(side, list)| {
        let list = list?;
        let resources = [("cpu", list.cpu.as_deref()), ("memory", list.memory.as_deref())];
        resources.into_iter().find_map(|(resource, expr)| {
            let expr = expr.filter(|e| !e.is_empty())?;
            let why = check_expression(expr, resource).err()?;
            Some(format!(
                "{at}.resourcesExpr.{side}.{resource}: {expr:?} is not a valid expression: {why}"
            ))
        })
    })
}

// ---- 9. injection revision ----

fn revision_fault(spec: &SidecarSetSpec) -> Option<String> {
    let revision = spec.injection_strategy.as_ref()?.revision.as_ref()?;
    let given = |v: &Option<String>| v.as_deref().is_some_and(|v| !v.is_empty());
    (!given(&revision.revision_name) && !given(&revision.custom_version))
        .then(|| "spec.injectionStrategy.revision: needs revisionName or customVersion".into())
}

// ---- 10. rolling update ----

fn rolling_update_fault(spec: &SidecarSetSpec) -> Option<String> {
    let strategy = spec.update_strategy.as_ref().filter(|_| rolling_update(spec))?;
    partition_with_selector_fault(strategy)
        .or_else(|| amount_fault("spec.updateStrategy.partition", strategy.partition.as_ref()))
        .or_else(|| {
            amount_fault(
                "spec.updateStrategy.maxUnavailable",
                strategy.max_unavailable.as_ref(),
            )
        })
        .or_else(|| {
            let selector = strategy.selector.as_ref()?;
            selector_fault("spec.updateStrategy.selector", selector)
        })
        .or_else(|| priority_fault(strategy.priority_strategy.as_ref()?))
        .or_else(|| scatter_fault(strategy.scatter_strategy.as_ref()?))
}

fn partition_with_selector_fault(strategy: &SidecarSetUpdateStrategy) -> Option<String> {
    let partitioned = match &strategy.partition {
        Some(IntOrString::Int(n)) => *n != 0,
        Some(IntOrString::String(_)) => true,
        None => false,
    };
    (partitioned && strategy.selector.is_some()).then(|| {
        "spec.updateStrategy.partition: may not be set together with spec.updateStrategy.selector".into()
    })
}

fn amount_fault(field: &'static str, value: Option<&IntOrString>) -> Option<String> {
    int_or_percent::parse(field, value?).err().map(|e| e.to_string())
}

fn priority_fault(priority: &UpdatePriorityStrategy) -> Option<String> {
    let at = "spec.updateStrategy.priorityStrategy";
    let weights = priority.weight_priority.as_deref().unwrap_or_default();
    let orders = priority.order_priority.as_deref().unwrap_or_default();
    if !weights.is_empty() && !orders.is_empty() {
        return Some(format!(
            "{at}: weightPriority and orderPriority are mutually exclusive"
        ));
    }
    let weight_fault = weights.iter().enumerate().find_map(|(i, term)| {
        if !(0..=100).contains(&term.weight) {
            return Some(format!(
                "{at}.weightPriority[{i}].weight: {} must be between 0 and 100",
                term.weight
            ));
        }
        selector_with_terms_fault(
            &format!("{at}.weightPriority[{i}].matchSelector"),
            &term.match_selector,
        )
    });
    weight_fault.or_else(|| {
        let i = orders.iter().position(|term| term.ordered_key.is_empty())?;
        Some(format!("{at}.orderPriority[{i}].orderedKey: must not be empty"))
    })
}

fn scatter_fault(scatter: &UpdateScatterStrategy) -> Option<String> {
    let mut seen = BTreeSet::new();
    scatter.iter().enumerate().find_map(|(i, term)| {
        let at = format!("spec.updateStrategy.scatterStrategy[{i}]");
        if term.key.is_empty() {
            return Some(format!("{at}.key: must not be empty"));
        }
        (!seen.insert((&term.key, &term.value)))
            .then(|| format!("{at}: {}={} is listed twice", term.key, term.value))
    })
}

// ---- 11. patchPodMetadata ----

fn patch_metadata_fault(patches: &[SidecarSetPatchPodMetadata]) -> Option<String> {
    let mut first_entry: BTreeMap<&str, usize> = BTreeMap::new();
    patches.iter().enumerate().find_map(|(i, patch)| {
        let at = format!("spec.patchPodMetadata[{i}].annotations");
        let annotations = patch.annotations.as_ref().filter(|a| !a.is_empty());
        let Some(annotations) = annotations else {
            return Some(format!("{at}: must not be empty"));
        };
        annotations.keys().find_map(|key| {
            if !annotation_key(key) {
                return Some(format!("{at}: {key:?} is not a valid annotation key"));
            }
            let earlier = *first_entry.entry(key.as_str()).or_insert(i);
            (earlier != i)
                .then(|| format!("{at}: {key:?} is also patched by spec.patchPodMetadata[{earlier}]"))
        })
    })
}

// ---- 12. canary ----

fn is_canary(set: &SidecarSet) -> bool {
    set.annotations().get(CANARY_ANNOTATION).map(String::as_str) == Some("true")
}

fn canary_fault(set: &SidecarSet, old: Option<&Value>, others: &[SidecarSet]) -> Option<String> {
    if !is_canary(set) {
        return None;
    }
    let at = format!("metadata.annotations[{BASE_ANNOTATION}]");
    let base = set
        .annotations()
        .get(BASE_ANNOTATION)
        .map(String::as_str)
        .unwrap_or_default();
    let name = set.name_any();
    if base.is_empty() {
        return Some(format!("{at}: a canary SidecarSet must name its base"));
    }
    if base == name {
        return Some(format!("{at}: a canary SidecarSet cannot be its own base"));
    }
    let Some(base_set) = others.iter().find(|o| o.name_any() == base) else {
        return Some(format!("{at}: the base SidecarSet {base} does not exist"));
    };
    if is_canary(base_set) {
        return Some(format!("{at}: the base SidecarSet {base} is itself a canary"));
    }
    let kind = set.spec.update_strategy.as_ref().and_then(|s| s.type_);
    if kind != Some(SidecarSetUpdateStrategyType::NotUpdate) {
        return Some("spec.updateStrategy.type: a canary SidecarSet must be NotUpdate".into());
    }
    let old_base = old?["metadata"]["annotations"][BASE_ANNOTATION]
        .as_str()
        .unwrap_or_default();
    (old_base != base).then(|| format!("{at}: may not change (was {old_base:?})"))
}

// ---- 13. update ----

/// `upgradeStrategy.upgradeType`, `ColdUpgrade` when absent.
fn upgrade_type(container: &Value) -> &str {
    let given = container["upgradeStrategy"]["upgradeType"].as_str();
    given.filter(|t| !t.is_empty()).unwrap_or("ColdUpgrade")
}

fn update_fault(spec: &SidecarSetSpec, old: &Value) -> Option<String> {
    let before: BTreeMap<&str, &str> = old["spec"]["containers"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|c| (c["name"].as_str().unwrap_or_default(), upgrade_type(c)))
        .collect();
    containers(spec).iter().enumerate().find_map(|(i, item)| {
        let name = item.container.name.as_str();
        let Some(was) = before.get(name) else {
            return Some(format!(
                "spec.containers[{i}].name: {name:?} is new; containers may not be added or renamed after creation"
            ));
        };
        let now = item.upgrade_strategy.as_ref().and_then(|s| s.upgrade_type.as_deref());
        let now = now.filter(|t| !t.is_empty()).unwrap_or("ColdUpgrade");
        (now != *was).then(|| format!("spec.containers[{i}].upgradeStrategy.upgradeType: may not change ({was} to {now})"))
    })
}

// ---- 14. conflicts ----

fn canary_pair(a: &SidecarSet, b: &SidecarSet) -> bool {
    canary_base(a) == Some(b.name_any().as_str()) || canary_base(b) == Some(a.name_any().as_str())
}

fn conflict_fault(set: &SidecarSet, others: &[SidecarSet]) -> Option<String> {
    let name = set.name_any();
    let mut rivals: Vec<&SidecarSet> = others
        .iter()
        .filter(|o| o.name_any() != name && !canary_pair(set, o))
        .filter(|o| same_scope(&set.spec, &o.spec))
        .collect();
    rivals.sort_by_key(|o| o.name_any());
    rivals
        .into_iter()
        .find_map(|other| conflict_with(&set.spec, &other.spec, &other.name_any()))
}

/// Do two SidecarSets inject into some common pods?
fn same_scope(a: &SidecarSetSpec, b: &SidecarSetSpec) -> bool {
    namespaces_overlap(a, b) && pod_selectors_overlap(a.selector.as_ref(), b.selector.as_ref())
}

fn namespaces_overlap(a: &SidecarSetSpec, b: &SidecarSetSpec) -> bool {
    if let (Some(x), Some(y)) = (named_namespace(a), named_namespace(b))
        && x != y
    {
        return false;
    }
    match (&a.namespace_selector, &b.namespace_selector) {
        (Some(x), Some(y)) => !disjoint(x, y),
        _ => true,
    }
}

/// A missing or empty pod selector selects nothing, so overlaps nothing.
fn pod_selectors_overlap(a: Option<&LabelSelector>, b: Option<&LabelSelector>) -> bool {
    match (a.filter(|s| has_terms(s)), b.filter(|s| has_terms(s))) {
        (Some(a), Some(b)) => !disjoint(a, b),
        _ => false,
    }
}

fn conflict_with(spec: &SidecarSetSpec, other: &SidecarSetSpec, other_name: &str) -> Option<String> {
    let same_name = |list: &str, mine: &[SidecarContainer], theirs: &[SidecarContainer]| {
        mine.iter().enumerate().find_map(|(i, c)| {
            let name = c.container.name.as_str();
            theirs.iter().any(|t| t.container.name == name).then(|| {
                format!("spec.{list}[{i}].name {name:?} is also injected by SidecarSet {other_name} into the same pods")
            })
        })
    };
    same_name("initContainers", init_containers(spec), init_containers(other))
        .or_else(|| same_name("containers", containers(spec), containers(other)))
        .or_else(|| volume_conflict(spec, other, other_name))
        .or_else(|| patch_conflict(spec, other, other_name))
}

fn volume_conflict(spec: &SidecarSetSpec, other: &SidecarSetSpec, other_name: &str) -> Option<String> {
    let theirs = other.volumes.as_deref().unwrap_or_default();
    let mine = spec.volumes.iter().flatten().enumerate();
    mine.into_iter().find_map(|(i, volume)| {
        theirs.iter().any(|t| t.name == volume.name && t != volume).then(|| {
            format!(
                "spec.volumes[{i}] {:?} is defined differently by SidecarSet {other_name}, which injects into the same pods",
                volume.name
            )
        })
    })
}

/// The annotation keys a SidecarSet writes with a policy other than `Retain`.
fn written_keys(spec: &SidecarSetSpec) -> Vec<(usize, &str, SidecarSetPatchPolicy)> {
    let patches = spec.patch_pod_metadata.iter().flatten().enumerate();
    patches
        .into_iter()
        .filter_map(|(i, patch)| {
            let policy = patch.patch_policy.unwrap_or(SidecarSetPatchPolicy::Retain);
            (policy != SidecarSetPatchPolicy::Retain).then_some((i, patch, policy))
        })
        .flat_map(|(i, patch, policy)| {
            patch
                .annotations
                .iter()
                .flatten()
                .map(move |(k, _)| (i, k.as_str(), policy))
        })
        .collect()
}

fn patch_conflict(spec: &SidecarSetSpec, other: &SidecarSetSpec, other_name: &str) -> Option<String> {
    let theirs = written_keys(other);
    written_keys(spec).into_iter().find_map(|(i, key, policy)| {
        let overwritten = theirs.iter().any(|(_, k, p)| {
            *k == key && (policy == SidecarSetPatchPolicy::Overwrite || *p == SidecarSetPatchPolicy::Overwrite)
        });
        overwritten.then(|| {
            format!(
                "spec.patchPodMetadata[{i}].annotations[{key}] is also patched by SidecarSet {other_name} into the same pods, one of them with patchPolicy Overwrite"
            )
        })
    })
}

#[cfg(test)]
#[path = "validation_tests.rs"]
mod tests;
