//! What upstream's UnitedDeployment webhooks refuse ([`refusal`]) and default
//! ([`defaulted`]), for the `/validate` and `/mutate` endpoints and the controller (which
//! marks a refused spec `InvalidSpec`). Pure: the caller hands in the object and, on an
//! UPDATE, the stored object.
//!
//! Upstream here is OpenKruise's master branch just after the v1.9.0 tag. v1.9.0
//! itself does not default `replicas`, does not check `updateStrategy.type` nor the
//! StatefulSet-spec rules of item 4, and lets a StatefulSet template update change only
//! `replicas`, `template` and `updateStrategy`.
//!
//! The object must first be readable as a UnitedDeployment: a missing `spec.selector`, an
//! `updateStrategy.type` other than `Manual` or `""`, a `scheduleStrategy.type` other than
//! `Fixed`, `Adaptive` or `""` (the typed enums), a field of the wrong type, is refused
//! there, naming the field. Then, in upstream's order, the first refusal is returned:
//! 1. `spec.replicas` negative.
//! 2. `spec.selector`: a bad label key or value, an unknown operator, values that do not
//!    fit the operator; then no matchLabels and no matchExpressions.
//! 3. Reservation mode (`Adaptive` with `adaptive.reserveUnschedulablePods`) with a
//!    StatefulSet or Advanced StatefulSet template.
//! 4. The template: exactly one kind; then, per kind —
//!    - StatefulSet: `metadata.labels` selected by `spec.selector`; the spec readable as an
//!      `apps/v1` StatefulSetSpec; no `spec.replicas`; no `rollingUpdate.partition` with
//!      type `RollingUpdate`; then Kubernetes' StatefulSet-spec rules, the template's own
//!      selector replaced by the UnitedDeployment's: `podManagementPolicy` OrderedReady or
//!      Parallel, `updateStrategy.type` RollingUpdate or OnDelete (`rollingUpdate` only
//!      with RollingUpdate, `maxUnavailable` a positive integer or 1%-100%),
//!      `persistentVolumeClaimRetentionPolicy` Retain or Delete for both fields,
//!      `minReadySeconds` and `ordinals.start` not negative, and the pod template (below);
//!    - Advanced StatefulSet: `metadata.labels` selected; no `spec.replicas`; no partition
//!      with type RollingUpdate; the pod template (below);
//!    - Deployment: `metadata.labels` selected; the spec readable as an `apps/v1`
//!      DeploymentSpec; no `spec.replicas`; the pod template (below) with its containers;
//!    - CloneSet: nothing (as upstream).
//!
//!    The pod template (`spec.template`): its labels selected by `spec.selector`, valid
//!    label keys and values, valid annotation keys; for a Deployment at least one
//!    container, each named by a unique DNS label and with an image; a `restartPolicy`
//!    of `Always` (absent counts as Always) and no `activeDeadlineSeconds`, as every
//!    workload kind's pods ([`refusals::template`]) — for an Advanced StatefulSet too,
//!    which upstream's UnitedDeployment webhook leaves to the Advanced StatefulSet's.
//! 5. The subsets' amounts, subset by subset: `replicas`, `minReplicas`, `maxReplicas`
//!    each an integer `>= 0` or an integer percentage `<n>%` of 0-100 (a percentage only
//!    with `spec.replicas`; it counts `floor(replicas * n / 100 + 0.5)`), and `minReplicas
//!    <= maxReplicas`. Then across them: `replicas` and `minReplicas`/`maxReplicas` are
//!    not mixed; with min/max (capacity mode) `spec.replicas` is set and at least one
//!    subset leaves `maxReplicas` unset; otherwise (fixed mode) the subsets' replicas add
//!    up to at most `spec.replicas`, and exactly to it when every subset sets replicas, and
//!    without `spec.replicas` every subset sets replicas. (Upstream also refuses minimums
//!    adding up to more than the maximums, an unset maximum counting 1,000,000; that
//!    cannot happen once each subset's `minReplicas <= maxReplicas`, so it is not checked.)
//! 6. The subsets, one after the other: name non-empty, unique and a DNS label;
//!    `nodeSelectorTerm` and `tolerations` as Kubernetes validates them (required node
//!    affinity: label values are not checked); no `replicas` with the Adaptive strategy.
//! 7. `updateStrategy.manualUpdate.partitions`: only for existing subsets.
//! 8. UPDATE only (both the stored and the new object read): a subset kept by name keeps
//!    its `nodeSelectorTerm` and `tolerations`; a StatefulSet template changes only
//!    `template`, `updateStrategy`, `persistentVolumeClaimRetentionPolicy`,
//!    `minReadySeconds` and `ordinals` (its `podManagementPolicy` unset or
//!    `OrderedReady` are the same, its selector is ignored); an Advanced StatefulSet
//!    template only `template`, `updateStrategy` and `replicas`. Absent, null, empty
//!    lists, maps and strings compare equal, as Kubernetes' semantic equality.
//!
//! Left out on purpose: DELETE protection (the `ResourcesDeletionProtection` gate, off by
//! default upstream); `metadata` validation (the API server does it); the full Kubernetes
//! pod-spec validation (volumes, probes, resources, ports: what is not listed above shows
//! when the subset workload or its pods are created); the deprecated subset `nodeSelector`
//! (upstream's type no longer has it) and `patch` are not checked.
//!
//! Defaults ([`defaulted`], as upstream's mutating webhook on CREATE and UPDATE):
//! `replicas` 1, `revisionHistoryLimit` 10, `updateStrategy.type` Manual and, with Manual,
//! `manualUpdate: {}` (upstream leaves `partitions` out when it has none); `status` removed;
//! when some subset sets `minReplicas` or `maxReplicas` and none sets `replicas`, every
//! subset without `minReplicas` gets `minReplicas: 0`. Upstream writes no
//! `scheduleStrategy` defaults (an empty type means Fixed, the adaptive durations default
//! to 30 s and 300 s where they are read), and neither does this. Left out: the Kubernetes
//! pod-spec and PVC defaults upstream applies inside `statefulSetTemplate`.
//!
//! Invariant: every refusal names the object and the field
//! (`UnitedDeployment sample: spec.topology.subsets[1].name: "subset-a" is used twice`).
use std::collections::{BTreeMap, BTreeSet};

use k8s_openapi::api::apps::v1::{
    DeploymentSpec, StatefulSetPersistentVolumeClaimRetentionPolicy,
    StatefulSetSpec as NativeStatefulSetSpec, StatefulSetUpdateStrategy as NativeUpdateStrategy,
};
use k8s_openapi::api::core::v1::{Container, PodTemplateSpec};
use k8s_openapi::apimachinery::pkg::apis::meta::v1::{LabelSelector, ObjectMeta};
use kube::core::{Selector, SelectorExt};
use serde::Serialize;
use serde_json::{Map, Value, json};

use crate::api::common::IntOrString;
use crate::api::statefulset::StatefulSetUpdateStrategyType;
use crate::api::statefulset::v1beta1::StatefulSetSpec as AdvancedStatefulSetSpec;
use crate::api::uniteddeployment::{
    AdvancedStatefulSetTemplateSpec, DeploymentTemplateSpec, StatefulSetTemplateSpec, Subset, SubsetTemplate,
    UnitedDeployment, UnitedDeploymentScheduleStrategyType, UnitedDeploymentSpec,
};
use crate::runtime::decoded::read;
use crate::workloads::common::field_faults::{node_selector_term_fault, selector_fault, tolerations_fault};
use crate::workloads::common::int_or_percent::{self, Amount};
use crate::workloads::common::names::{annotation_key, dns_label, label_key, label_value};
use crate::workloads::common::refusals;

const KIND: &str = "UnitedDeployment";

/// What an unset `maxReplicas` counts against a `minReplicas`.
const UNBOUNDED_MAX: i64 = 1_000_000;

/// Why the UnitedDeployment `object` must be refused (None: it may be stored). `old`: the
/// stored object on an UPDATE.
pub fn refusal(object: &Value, old: Option<&Value>) -> Option<String> {
    let name = object["metadata"]["name"].as_str().unwrap_or_default();
    fault(object, old).map(|why| format!("{KIND} {name}: {why}"))
}

/// The first fault, as `field: why` (the object's name is added by [`refusal`]).
fn fault(object: &Value, old: Option<&Value>) -> Option<String> {
    let united = match read::<UnitedDeployment>(object) {
        Ok(united) => united,
        Err(error) => return Some(error),
    };
    let spec = &united.spec;
    replicas_fault(spec)
        .or_else(|| selector_fault("spec.selector", &spec.selector))
        .or_else(|| empty_selector_fault(&spec.selector))
        .or_else(|| reservation_fault(spec))
        .or_else(|| template_fault(spec))
        .or_else(|| amounts_fault(spec))
        .or_else(|| subsets_fault(spec))
        .or_else(|| partitions_fault(spec))
        .or_else(|| old.and_then(|old| update_fault(spec, old)))
}

fn is_adaptive(spec: &UnitedDeploymentSpec) -> bool {
    let strategy = spec.schedule_strategy();
    strategy.is_some_and(|s| s.type_ == Some(UnitedDeploymentScheduleStrategyType::Adaptive))
}

fn negative_fault(at: &str, value: Option<i32>) -> Option<String> {
    value
        .filter(|n| *n < 0)
        .map(|n| format!("{at}: {n} must not be negative"))
}

// ---- 1-3. replicas, selector, reservation mode ----

fn replicas_fault(spec: &UnitedDeploymentSpec) -> Option<String> {
    negative_fault("spec.replicas", spec.replicas)
}

fn empty_selector_fault(selector: &LabelSelector) -> Option<String> {
    let empty = selector.match_labels.as_ref().is_none_or(BTreeMap::is_empty)
        && selector.match_expressions.as_ref().is_none_or(Vec::is_empty);
    empty.then(|| {
        "spec.selector: must have matchLabels or matchExpressions (an empty selector is invalid)".into()
    })
}

fn reservation_fault(spec: &UnitedDeploymentSpec) -> Option<String> {
    let strategy = spec.schedule_strategy()?;
    let reserves = strategy.adaptive.as_ref()?.reserve_unschedulable_pods == Some(true);
    let template = spec.template.as_ref()?;
    let stateful =
        template.stateful_set_template.is_some() || template.advanced_stateful_set_template.is_some();
    (is_adaptive(spec) && reserves && stateful).then(|| {
        "spec.topology.scheduleStrategy.adaptive.reserveUnschedulablePods: reservation works only with a \
         deploymentTemplate or cloneSetTemplate (stateless workloads), not a StatefulSet template"
            .into()
    })
}

// ---- 4. the template ----

fn template_fault(spec: &UnitedDeploymentSpec) -> Option<String> {
    let kinds = spec.template.as_ref().map(template_kinds).unwrap_or_default();
    match kinds.as_slice() {
        [] => {
            return Some(
                "spec.template: must set one of statefulSetTemplate, advancedStatefulSetTemplate, \
                 cloneSetTemplate and deploymentTemplate"
                    .into(),
            );
        }
        [_] => {}
        many => {
            return Some(format!(
                "spec.template: sets {}; only one may be set",
                many.join(" and ")
            ));
        }
    }
    let template = spec.template.as_ref()?;
    let selector = match Selector::try_from(spec.selector.clone()) {
        Ok(selector) => selector,
        Err(error) => return Some(format!("spec.selector: is invalid: {error}")),
    };
    if let Some(template) = &template.stateful_set_template {
        return statefulset_template_fault(template, &selector);
    }
    if let Some(template) = &template.advanced_stateful_set_template {
        return advanced_template_fault(template, &selector);
    }
    template
        .deployment_template
        .as_ref()
        .and_then(|template| deployment_template_fault(template, &selector))
}

/// The template kinds set, by field name.
fn template_kinds(template: &SubsetTemplate) -> Vec<&'static str> {
    [
        ("statefulSetTemplate", template.stateful_set_template.is_some()),
        (
            "advancedStatefulSetTemplate",
            template.advanced_stateful_set_template.is_some(),
        ),
        ("cloneSetTemplate", template.clone_set_template.is_some()),
        ("deploymentTemplate", template.deployment_template.is_some()),
    ]
    .into_iter()
    .filter_map(|(kind, set)| set.then_some(kind))
    .collect()
}

/// `at.metadata.labels` must be selected by the UnitedDeployment's selector.
fn unselected_fault(at: &str, metadata: Option<&ObjectMeta>, selector: &Selector) -> Option<String> {
    let labels = metadata.and_then(|m| m.labels.clone()).unwrap_or_default();
    (!selector.matches(&labels)).then(|| {
        format!(
            "{at}.metadata.labels: spec.selector does not select them (labels {})",
            shown(&labels)
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

/// A read error of a schemaless spec (`field: why`, `.: why` at its root), put under `at`.
fn nested(at: &str, error: &str) -> String {
    match error.strip_prefix('.') {
        Some(rest) => format!("{at}{rest}"),
        None => format!("{at}.{error}"),
    }
}

fn replicas_set_fault(at: &str, replicas: Option<i32>) -> Option<String> {
    replicas
        .map(|_| format!("{at}.replicas: must not be set (each subset's replicas come from the topology)"))
}

fn partition_fault(at: &str, rolling_update: bool, partition: Option<i32>) -> Option<String> {
    (rolling_update && partition.is_some()).then(|| {
        format!(
            "{at}.updateStrategy.rollingUpdate.partition: must not be set (the partitions come from \
             spec.updateStrategy.manualUpdate)"
        )
    })
}

fn statefulset_template_fault(template: &StatefulSetTemplateSpec, selector: &Selector) -> Option<String> {
    let top = "spec.template.statefulSetTemplate";
    let at = format!("{top}.spec");
    if let Some(fault) = unselected_fault(top, template.metadata.as_ref(), selector) {
        return Some(fault);
    }
    let spec = match read::<NativeStatefulSetSpec>(&template.spec) {
        Ok(spec) => spec,
        Err(error) => return Some(nested(&at, &error)),
    };
    let strategy = spec.update_strategy.as_ref();
    let rolling_update = strategy.is_some_and(|s| s.type_.as_deref() == Some("RollingUpdate"));
    let partition = strategy
        .and_then(|s| s.rolling_update.as_ref())
        .and_then(|r| r.partition);
    replicas_set_fault(&at, spec.replicas)
        .or_else(|| partition_fault(&at, rolling_update, partition))
        .or_else(|| native_statefulset_fault(&at, &spec, selector))
}

/// Kubernetes' StatefulSet-spec rules, on the spec as upstream normalizes it (one replica,
/// the UnitedDeployment's selector, no partition, unset policy and type defaulted).
fn native_statefulset_fault(at: &str, spec: &NativeStatefulSetSpec, selector: &Selector) -> Option<String> {
    let policy = spec.pod_management_policy.as_deref().unwrap_or_default();
    let policy_fault = (!matches!(policy, "" | "OrderedReady" | "Parallel"))
        .then(|| format!("{at}.podManagementPolicy: {policy:?} is not OrderedReady or Parallel"));
    policy_fault
        .or_else(|| native_strategy_fault(&format!("{at}.updateStrategy"), spec.update_strategy.as_ref()?))
        .or_else(|| {
            let policy = spec.persistent_volume_claim_retention_policy.as_ref()?;
            retention_fault(&format!("{at}.persistentVolumeClaimRetentionPolicy"), policy)
        })
        .or_else(|| negative_fault(&format!("{at}.minReadySeconds"), spec.min_ready_seconds))
        .or_else(|| negative_fault(&format!("{at}.ordinals.start"), spec.ordinals.as_ref()?.start))
        .or_else(|| pod_template_fault(&format!("{at}.template"), &spec.template, selector, false))
}

fn native_strategy_fault(at: &str, strategy: &NativeUpdateStrategy) -> Option<String> {
    let rolling = strategy.rolling_update.as_ref();
    match strategy.type_.as_deref().unwrap_or_default() {
        "" | "RollingUpdate" => {
            let max_unavailable = rolling?.max_unavailable.as_ref()?;
            max_unavailable_fault(&format!("{at}.rollingUpdate.maxUnavailable"), max_unavailable)
        }
        "OnDelete" => rolling.map(|_| format!("{at}.rollingUpdate: may be set only with type RollingUpdate")),
        other => Some(format!("{at}.type: {other:?} is not RollingUpdate or OnDelete")),
    }
}

fn max_unavailable_fault(at: &str, value: &IntOrString) -> Option<String> {
    match int_or_percent::parse("maxUnavailable", value) {
        Ok(Amount::Int(n)) if n > 0 => None,
        Ok(Amount::Percent(p)) if (1..=100).contains(&p) => None,
        _ => Some(format!(
            "{at}: {} must be a positive integer or a percentage from 1% to 100%",
            shown_amount(value)
        )),
    }
}

fn retention_fault(at: &str, policy: &StatefulSetPersistentVolumeClaimRetentionPolicy) -> Option<String> {
    [
        ("whenDeleted", &policy.when_deleted),
        ("whenScaled", &policy.when_scaled),
    ]
    .into_iter()
    .find_map(|(field, value)| {
        let value = value.as_deref().unwrap_or_default();
        (!matches!(value, "Retain" | "Delete"))
            .then(|| format!("{at}.{field}: {value:?} is not Retain or Delete"))
    })
}

fn advanced_template_fault(
    template: &AdvancedStatefulSetTemplateSpec,
    selector: &Selector,
) -> Option<String> {
    let top = "spec.template.advancedStatefulSetTemplate";
    let at = format!("{top}.spec");
    let spec = &template.spec;
    let strategy = spec.update_strategy.as_ref();
    let rolling_update =
        strategy.is_some_and(|s| s.type_ == Some(StatefulSetUpdateStrategyType::RollingUpdate));
    let partition = strategy
        .and_then(|s| s.rolling_update.as_ref())
        .and_then(|r| r.partition);
    unselected_fault(top, template.metadata.as_ref(), selector)
        .or_else(|| replicas_set_fault(&at, spec.replicas))
        .or_else(|| partition_fault(&at, rolling_update, partition))
        .or_else(|| pod_template_fault(&format!("{at}.template"), &spec.template, selector, false))
}

fn deployment_template_fault(template: &DeploymentTemplateSpec, selector: &Selector) -> Option<String> {
    let top = "spec.template.deploymentTemplate";
    let at = format!("{top}.spec");
    if let Some(fault) = unselected_fault(top, template.metadata.as_ref(), selector) {
        return Some(fault);
    }
    let spec = match read::<DeploymentSpec>(&template.spec) {
        Ok(spec) => spec,
        Err(error) => return Some(nested(&at, &error)),
    };
    replicas_set_fault(&at, spec.replicas)
        .or_else(|| pod_template_fault(&format!("{at}.template"), &spec.template, selector, true))
}

/// The pod template at `at`: selected, valid labels and annotation keys, the containers
/// (`with_containers`: a Deployment's, the only kind upstream validates the pod spec of),
/// restart policy and deadline.
fn pod_template_fault(
    at: &str,
    template: &PodTemplateSpec,
    selector: &Selector,
    with_containers: bool,
) -> Option<String> {
    let metadata = template.metadata.as_ref();
    unselected_fault(at, metadata, selector)
        .or_else(|| labels_fault(&format!("{at}.metadata.labels"), metadata?.labels.as_ref()?))
        .or_else(|| {
            annotations_fault(
                &format!("{at}.metadata.annotations"),
                metadata?.annotations.as_ref()?,
            )
        })
        .or_else(|| with_containers.then(|| containers_fault(at, template)).flatten())
        .or_else(|| restart_fault(at, template))
}

/// [`refusals::template`] (what every workload kind's pods share), its message moved from
/// the workload's `spec.template` to the pod template at `at`.
fn restart_fault(at: &str, template: &PodTemplateSpec) -> Option<String> {
    let message = refusals::template(KIND, "", template)?;
    let prefix = format!("{KIND} : spec.template");
    Some(match message.strip_prefix(&prefix) {
        Some(rest) => format!("{at}{rest}"),
        None => format!("{at}: {message}"),
    })
}

fn containers_fault(at: &str, template: &PodTemplateSpec) -> Option<String> {
    let spec = template.spec.as_ref();
    let containers = spec.map(|s| s.containers.as_slice()).unwrap_or_default();
    if containers.is_empty() {
        return Some(format!("{at}.spec.containers: must have at least one container"));
    }
    let init = spec
        .and_then(|s| s.init_containers.as_deref())
        .unwrap_or_default();
    let mut names = BTreeSet::new();
    [("containers", containers), ("initContainers", init)]
        .into_iter()
        .flat_map(|(list, items)| items.iter().enumerate().map(move |(i, c)| (list, i, c)))
        .find_map(|(list, i, container)| {
            container_fault(&format!("{at}.spec.{list}[{i}]"), container, &mut names)
        })
}

fn container_fault<'a>(at: &str, container: &'a Container, names: &mut BTreeSet<&'a str>) -> Option<String> {
    let name = container.name.as_str();
    if name.is_empty() {
        return Some(format!("{at}.name: must not be empty"));
    }
    if !dns_label(name) {
        return Some(format!("{at}.name: {name:?} is not a DNS label"));
    }
    if !names.insert(name) {
        return Some(format!("{at}.name: {name:?} is used twice"));
    }
    container
        .image
        .as_deref()
        .is_none_or(str::is_empty)
        .then(|| format!("{at}.image: must be set"))
}

// ---- 5. the subsets' amounts ----

/// What a subset amount counts: an integer `>= 0`, or `<n>%` (n 0-100) of `total`,
/// rounded half up.
fn subset_count(total: Option<i32>, value: &IntOrString) -> Result<i64, String> {
    let text = match value {
        IntOrString::Int(n) if *n < 0 => return Err(format!("{n} must not be negative")),
        IntOrString::Int(n) => return Ok(i64::from(*n)),
        IntOrString::String(text) => text,
    };
    let Some(total) = total else {
        return Err(format!("{text:?} is a percentage, which needs spec.replicas"));
    };
    match int_or_percent::parse("replicas", value) {
        Ok(Amount::Percent(p)) if p <= 100 => Ok((i64::from(total) * p + 50) / 100),
        _ => Err(format!(
            "{text:?} is neither an integer nor a percentage from 0% to 100%"
        )),
    }
}

/// The subsets' amounts, added up subset by subset.
#[derive(Default)]
struct Tally {
    subsets: usize,
    replicas: i64,
    with_replicas: usize,
    with_max: usize,
    first_fixed: Option<usize>,
    first_capacity: Option<usize>,
    first_unsized: Option<usize>,
}

impl Tally {
    fn add(&mut self, i: usize, subset: &Subset, total: Option<i32>) -> Result<(), String> {
        let at = format!("spec.topology.subsets[{i}]");
        let count = |field: &str, value: Option<&IntOrString>, unset: i64| match value {
            None => Ok(unset),
            Some(value) => subset_count(total, value).map_err(|why| format!("{at}.{field}: {why}")),
        };
        self.replicas += count("replicas", subset.replicas.as_ref(), 0)?;
        let min = count("minReplicas", subset.min_replicas.as_ref(), 0)?;
        let max = count("maxReplicas", subset.max_replicas.as_ref(), UNBOUNDED_MAX)?;
        if min > max {
            return Err(format!("{at}.minReplicas: {min} is above maxReplicas {max}"));
        }
        self.subsets += 1;
        if subset.replicas.is_some() {
            self.with_replicas += 1;
            self.first_fixed.get_or_insert(i);
        } else {
            self.first_unsized.get_or_insert(i);
        }
        if subset.max_replicas.is_some() {
            self.with_max += 1;
        }
        if subset.min_replicas.is_some() || subset.max_replicas.is_some() {
            self.first_capacity.get_or_insert(i);
        }
        Ok(())
    }

    fn fault(&self, total: Option<i32>) -> Option<String> {
        match (self.first_fixed, self.first_capacity) {
            (Some(i), Some(j)) => Some(format!(
                "spec.topology.subsets: replicas (spec.topology.subsets[{i}]) and minReplicas/maxReplicas \
                 (spec.topology.subsets[{j}]) must not be mixed in one UnitedDeployment"
            )),
            (None, Some(_)) => self.capacity_fault(total),
            _ => self.fixed_fault(total),
        }
    }

    fn capacity_fault(&self, total: Option<i32>) -> Option<String> {
        if total.is_none() {
            return Some("spec.replicas: must be set when a subset sets minReplicas or maxReplicas".into());
        }
        (self.with_max >= self.subsets).then(|| {
            "spec.topology.subsets: every subset sets maxReplicas; at least one must leave it unset".into()
        })
    }

    fn fixed_fault(&self, total: Option<i32>) -> Option<String> {
        let sum = self.replicas;
        let Some(total) = total.map(i64::from) else {
            let i = self.first_unsized?;
            return Some(format!(
                "spec.topology.subsets[{i}].replicas: must be set when spec.replicas is not (every subset needs replicas)"
            ));
        };
        if sum > total {
            return Some(format!(
                "spec.topology.subsets: the subsets' replicas add up to {sum}, above spec.replicas {total}"
            ));
        }
        let all = self.with_replicas > 0 && self.with_replicas == self.subsets;
        (all && sum != total).then(|| {
            format!(
                "spec.topology.subsets: the subsets' replicas add up to {sum}; when every subset sets replicas \
                 they must add up to spec.replicas {total}"
            )
        })
    }
}

fn amounts_fault(spec: &UnitedDeploymentSpec) -> Option<String> {
    let mut tally = Tally::default();
    for (i, subset) in spec.subsets().iter().enumerate() {
        if let Err(fault) = tally.add(i, subset, spec.replicas) {
            return Some(fault);
        }
    }
    tally.fault(spec.replicas)
}

/// `value` as the JSON it was written as (`3`, `"50%"`).
fn shown_amount(value: &IntOrString) -> String {
    match value {
        IntOrString::Int(n) => n.to_string(),
        IntOrString::String(text) => format!("{text:?}"),
    }
}

// ---- 6. the subsets ----

fn subsets_fault(spec: &UnitedDeploymentSpec) -> Option<String> {
    let adaptive = is_adaptive(spec);
    let mut seen = BTreeSet::new();
    spec.subsets().iter().enumerate().find_map(|(i, subset)| {
        let at = format!("spec.topology.subsets[{i}]");
        subset_name_fault(&at, &subset.name, &mut seen)
            .or_else(|| node_selector_term_fault(&format!("{at}.nodeSelectorTerm"), subset.node_selector_term.as_ref()?, false))
            .or_else(|| tolerations_fault(&format!("{at}.tolerations"), subset.tolerations.as_deref()?))
            .or_else(|| {
                (adaptive && subset.replicas.is_some()).then(|| {
                    format!("{at}.replicas: must not be set with scheduleStrategy Adaptive; use minReplicas/maxReplicas")
                })
            })
    })
}

fn subset_name_fault<'a>(at: &str, name: &'a str, seen: &mut BTreeSet<&'a str>) -> Option<String> {
    if name.is_empty() {
        return Some(format!("{at}.name: must not be empty"));
    }
    if !seen.insert(name) {
        return Some(format!("{at}.name: {name:?} is used twice"));
    }
    (!dns_label(name)).then(|| {
        format!("{at}.name: {name:?} is not a DNS label (lowercase letters, digits and '-', at most 63)")
    })
}

// ---- 7. partitions ----

fn partitions_fault(spec: &UnitedDeploymentSpec) -> Option<String> {
    let partitions = spec
        .update_strategy
        .as_ref()?
        .manual_update
        .as_ref()?
        .partitions
        .as_ref()?;
    let names: BTreeSet<&str> = spec.subsets().iter().map(|s| s.name.as_str()).collect();
    partitions
        .keys()
        .find(|subset| !names.contains(subset.as_str()))
        .map(|subset| {
            format!(
                "spec.updateStrategy.manualUpdate.partitions.{subset}: there is no subset named {subset:?}"
            )
        })
}

// ---- 8. UPDATE ----

/// What an update may not change (an unreadable stored object is not compared).
fn update_fault(spec: &UnitedDeploymentSpec, old: &Value) -> Option<String> {
    let old = read::<UnitedDeployment>(old).ok()?;
    let template_fault = spec
        .template
        .as_ref()
        .zip(old.spec.template.as_ref())
        .and_then(|(new, old)| template_change_fault(new, old));
    template_fault.or_else(|| topology_change_fault(spec, &old.spec))
}

/// The StatefulSet template fields an update may change (and `selector`, replaced by the
/// UnitedDeployment's before upstream compares).
const STATEFULSET_MUTABLE: [&str; 7] = [
    "replicas",
    "template",
    "updateStrategy",
    "minReadySeconds",
    "ordinals",
    "persistentVolumeClaimRetentionPolicy",
    "selector",
];

/// The Advanced StatefulSet template fields an update may change.
const ADVANCED_MUTABLE: [&str; 3] = ["replicas", "template", "updateStrategy"];

fn template_change_fault(new: &SubsetTemplate, old: &SubsetTemplate) -> Option<String> {
    if let (Some(new), Some(old)) = (&new.stateful_set_template, &old.stateful_set_template) {
        let at = "spec.template.statefulSetTemplate.spec";
        let (new, old) = (native_comparable(&new.spec)?, native_comparable(&old.spec)?);
        return changed_field(&new, &old).map(|field| {
            format!(
                "{at}.{field}: may not change; only template, updateStrategy, persistentVolumeClaimRetentionPolicy, \
                 minReadySeconds and ordinals may"
            )
        });
    }
    let (new, old) = (
        new.advanced_stateful_set_template.as_ref()?,
        old.advanced_stateful_set_template.as_ref()?,
    );
    let at = "spec.template.advancedStatefulSetTemplate.spec";
    let (new, old) = (advanced_comparable(&new.spec)?, advanced_comparable(&old.spec)?);
    changed_field(&new, &old)
        .map(|field| format!("{at}.{field}: may not change; only template, updateStrategy and replicas may"))
}

/// The StatefulSet template spec fields an update may not change, as upstream compares
/// them (the `apps/v1` fields only, an unset podManagementPolicy as OrderedReady).
fn native_comparable(spec: &Value) -> Option<Map<String, Value>> {
    let typed: NativeStatefulSetSpec = serde_json::from_value(spec.clone()).ok()?;
    let mut fields = without(serde_json::to_value(typed).ok()?, &STATEFULSET_MUTABLE)?;
    let policy = fields
        .get("podManagementPolicy")
        .and_then(Value::as_str)
        .unwrap_or_default();
    if policy.is_empty() {
        fields.insert("podManagementPolicy".into(), json!("OrderedReady"));
    }
    Some(fields)
}

fn advanced_comparable(spec: &AdvancedStatefulSetSpec) -> Option<Map<String, Value>> {
    without(serde_json::to_value(spec).ok()?, &ADVANCED_MUTABLE)
}

/// The object `value`, compared semantically, without the `mutable` keys.
fn without(value: Value, mutable: &[&str]) -> Option<Map<String, Value>> {
    let Value::Object(mut fields) = pruned(value) else {
        return Some(Map::new());
    };
    for key in mutable {
        fields.remove(*key);
    }
    Some(fields)
}

/// The first key (in order) whose value differs.
fn changed_field(new: &Map<String, Value>, old: &Map<String, Value>) -> Option<String> {
    let keys: BTreeSet<&String> = new.keys().chain(old.keys()).collect();
    keys.into_iter()
        .find(|key| new.get(*key) != old.get(*key))
        .cloned()
}

fn topology_change_fault(spec: &UnitedDeploymentSpec, old: &UnitedDeploymentSpec) -> Option<String> {
    let before: BTreeMap<&str, &Subset> = old.subsets().iter().map(|s| (s.name.as_str(), s)).collect();
    spec.subsets().iter().enumerate().find_map(|(i, subset)| {
        let old = before.get(subset.name.as_str())?;
        let at = format!("spec.topology.subsets[{i}]");
        let field = if differs(&subset.node_selector_term, &old.node_selector_term) {
            "nodeSelectorTerm"
        } else if differs(&subset.tolerations, &old.tolerations) {
            "tolerations"
        } else {
            return None;
        };
        Some(format!("{at}.{field}: may not change in an update"))
    })
}

fn differs<T: Serialize>(new: &T, old: &T) -> bool {
    let comparable = |value: &T| {
        let value = serde_json::to_value(value).map(pruned).unwrap_or_default();
        if blank(&value) { Value::Null } else { value }
    };
    comparable(new) != comparable(old)
}

/// `value` without nulls, empty strings, empty lists and empty maps, at any depth: what
/// Kubernetes' semantic equality does not tell apart from an absent field.
fn pruned(value: Value) -> Value {
    match value {
        Value::Object(fields) => Value::Object(
            fields
                .into_iter()
                .map(|(key, value)| (key, pruned(value)))
                .filter(|(_, value)| !blank(value))
                .collect(),
        ),
        Value::Array(items) => Value::Array(items.into_iter().map(pruned).collect()),
        other => other,
    }
}

fn blank(value: &Value) -> bool {
    match value {
        Value::Null => true,
        Value::String(text) => text.is_empty(),
        Value::Array(items) => items.is_empty(),
        Value::Object(fields) => fields.is_empty(),
        _ => false,
    }
}

// ---- Kubernetes' rules for labels and annotations ----

fn labels_fault(at: &str, labels: &BTreeMap<String, String>) -> Option<String> {
    labels.iter().find_map(|(key, value)| {
        if !label_key(key) {
            Some(format!("{at}: {key:?} is not a valid label key"))
        } else if !label_value(value) {
            Some(format!("{at}.{key}: {value:?} is not a valid label value"))
        } else {
            None
        }
    })
}

fn annotations_fault(at: &str, annotations: &BTreeMap<String, String>) -> Option<String> {
    let bad = annotations.keys().find(|key| !annotation_key(key))?;
    Some(format!("{at}: {bad:?} is not a valid annotation key"))
}

// ---- defaults ----

/// `object` as upstream's mutating webhook stores it (see the module doc): the defaults
/// set, `status` removed. A `spec` that is not an object is left as it is (the refusal
/// names it).
pub fn defaulted(object: &Value) -> Value {
    let mut object = object.clone();
    let Some(fields) = object.as_object_mut() else {
        return object;
    };
    fields.remove("status");
    if let Some(spec) = fields.get_mut("spec").and_then(Value::as_object_mut) {
        set_unset(spec, "replicas", json!(1));
        set_unset(spec, "revisionHistoryLimit", json!(10));
        default_update_strategy(spec);
        default_min_replicas(spec);
    }
    object
}

fn unset(fields: &Map<String, Value>, key: &str) -> bool {
    fields.get(key).is_none_or(Value::is_null)
}

fn set_unset(fields: &mut Map<String, Value>, key: &str, value: Value) {
    if unset(fields, key) {
        fields.insert(key.into(), value);
    }
}

fn default_update_strategy(spec: &mut Map<String, Value>) {
    set_unset(spec, "updateStrategy", json!({}));
    let Some(strategy) = spec.get_mut("updateStrategy").and_then(Value::as_object_mut) else {
        return;
    };
    let kind = strategy.get("type");
    if kind.is_none_or(|t| t.is_null() || t.as_str() == Some("")) {
        strategy.insert("type".into(), json!("Manual"));
    }
    if strategy.get("type").and_then(Value::as_str) == Some("Manual") {
        set_unset(strategy, "manualUpdate", json!({}));
    }
}

fn default_min_replicas(spec: &mut Map<String, Value>) {
    let subsets = spec
        .get_mut("topology")
        .and_then(|t| t.get_mut("subsets"))
        .and_then(Value::as_array_mut);
    let Some(subsets) = subsets else {
        return;
    };
    let sets = |subset: &Value, key: &str| subset.get(key).is_some_and(|v| !v.is_null());
    let capacity = subsets
        .iter()
        .any(|s| sets(s, "minReplicas") || sets(s, "maxReplicas"));
    let fixed = subsets.iter().any(|s| sets(s, "replicas"));
    if capacity && !fixed {
        for subset in subsets.iter_mut().filter_map(Value::as_object_mut) {
            set_unset(subset, "minReplicas", json!(0));
        }
    }
}

#[cfg(test)]
#[path = "validation_tests.rs"]
mod tests;
