//! The in-place sidecar upgrade: which injected pods get the SidecarSet's new sidecar
//! images this round. Pure.
//!
//! Invariants (tested here and in `tests/sidecarset.rs`):
//! - Only the images of the SidecarSet's own containers change; a pod whose sidecars
//!   differ in more than their images (its without-image hash is another) is never
//!   touched; no other container of the pod is written.
//! - `type: NotUpdate` and `paused` upgrade nothing; `selector` limits the pods;
//!   `partition` pods stay at the old images; an updated pod whose new sidecar has not
//!   started yet (not consistent) or that is not ready counts against `maxUnavailable`; a
//!   ready pod is taken only within that budget, a not-ready one always.
//! - Pods that tie in the update order go by namespace and name (the cache's order is
//!   arbitrary), so a preview of the order is the order.
//! - Each upgraded pod records the imageIDs its sidecars ran before
//!   (`kruise.io/sidecarset-inplace-update-state`), which is how "started" is judged, and
//!   gets the set's `patchPodMetadata` applied again (only the keys it changes written).
use std::collections::BTreeMap;

use k8s_openapi::api::core::v1::Pod;
use k8s_openapi::apimachinery::pkg::apis::meta::v1::Time;
use k8s_openapi::jiff::Timestamp;
use kube::ResourceExt;
use kube::core::{Selector, SelectorExt};
use serde_json::json;

use super::inject::{HASH_ANNOTATION, HASH_WITHOUT_IMAGE_ANNOTATION, HashEntry, read_hashes};
use super::pod_facts::{
    INPLACE_STATE_ANNOTATION, InPlaceState, LastStatus, available, consistent, consistent_in, ready,
    running_ready, spec_image, states, status_of, updated,
};
use super::{hot, upgradable};
use crate::api::common::IntOrString;
use crate::api::common::UpdateScatterTerm;
use crate::api::sidecarset::{SidecarSet, SidecarSetUpdateStrategy, SidecarSetUpdateStrategyType};
use crate::runtime::actions::{Action, Why};
use crate::workloads::common::int_or_percent::{self, Amount};
use crate::workloads::common::order::{PodFacts, sort_for_update};
use crate::workloads::common::scatter;

/// An int-or-percent scaled and rounded up: an int as it is, `N%` of `total` rounded up,
/// with whether it was a percent other than 100%; unset or unreadable (refused by
/// validation): `default`. A percentage so large that its share does not fit saturates
/// (all of them).
fn scaled_up(field: &'static str, value: Option<&IntOrString>, total: i64, default: i64) -> (i64, bool) {
    match value.map(|v| int_or_percent::parse(field, v)) {
        Some(Ok(Amount::Int(n))) => (n, false),
        Some(Ok(Amount::Percent(p))) => (
            int_or_percent::percent_of(total, p, int_or_percent::Rounding::Up),
            p != 100,
        ),
        None | Some(Err(_)) => (default, false),
    }
}

/// `waiting` in the order they are upgraded: Kubernetes' update order (unscheduled,
/// Pending < Unknown < Running, not ready, ready for less time, more restarts, newer), then
/// the priority strategy, then the scatter strategy over every matched pod's labels, a
/// term valued `*` standing for each value of its key the matched pods carry.
fn update_order<'p>(
    strategy: &SidecarSetUpdateStrategy,
    matched: &[&Pod],
    waiting: Vec<&'p Pod>,
    now: Timestamp,
) -> Vec<&'p Pod> {
    let mut facts: Vec<PodFacts> = waiting
        .iter()
        .map(|p| PodFacts::from_resource(p, 0, now))
        .collect();
    sort_for_update(&mut facts, strategy.priority_strategy.as_ref());
    let mut names: Vec<String> = facts.into_iter().map(|f| f.name).collect();
    let terms = scatter_terms(strategy, matched);
    if !terms.is_empty() {
        names = scatter::order(names, matched, &terms);
    }
    // Pods of one name (in two namespaces) are taken in their incoming order; nothing is
    // dropped, whatever the names.
    let mut by_name: BTreeMap<&str, std::collections::VecDeque<&'p Pod>> = BTreeMap::new();
    for pod in &waiting {
        by_name
            .entry(pod.metadata.name.as_deref().unwrap_or_default())
            .or_default()
            .push_back(pod);
    }
    let mut ordered: Vec<&'p Pod> = names
        .iter()
        .filter_map(|n| by_name.get_mut(n.as_str()).and_then(|q| q.pop_front()))
        .collect();
    ordered.extend(by_name.into_values().flatten());
    ordered
}

/// The scatter terms, each `key: *` expanded to the values of `key` on the matched pods
/// (in name order, first seen first), duplicates dropped.
fn scatter_terms(strategy: &SidecarSetUpdateStrategy, matched: &[&Pod]) -> Vec<UpdateScatterTerm> {
    let mut by_name: Vec<&Pod> = matched.to_vec();
    by_name.sort_by_key(|p| (p.metadata.namespace.clone(), p.metadata.name.clone()));
    let mut terms: Vec<UpdateScatterTerm> = Vec::new();
    let mut add = |term: UpdateScatterTerm| {
        if !terms.iter().any(|t| t.key == term.key && t.value == term.value) {
            terms.push(term);
        }
    };
    for term in strategy.scatter_strategy.iter().flatten() {
        if term.value != "*" {
            add(term.clone());
            continue;
        }
        for pod in &by_name {
            if let Some(value) = pod.labels().get(&term.key) {
                add(UpdateScatterTerm {
                    key: term.key.clone(),
                    value: value.clone(),
                });
            }
        }
    }
    terms
}

/// The pods of `total` matched that `strategy`'s partition keeps at the old sidecars: an
/// int as it is, a percent of `total` rounded up, but a percent under 100% never holds
/// every pod of more than one; within 0..=total.
pub fn partition(strategy: &SidecarSetUpdateStrategy, total: i64) -> i64 {
    let (partition, partial) = scaled_up("updateStrategy.partition", strategy.partition.as_ref(), total, 0);
    let partition = if partial && total > 1 && partition == total {
        total - 1
    } else {
        partition
    };
    partition.clamp(0, total)
}

/// The upgrade's writes this round (and the not-upgradable pods, for an event).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Upgrade {
    pub actions: Vec<Action>,
    pub not_upgradable: Vec<String>,
}

/// What an upgrade of `matched` would take, whatever the budget.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Candidates<'p> {
    /// The pods the partition lets through, in the order they are upgraded.
    pub order: Vec<&'p Pod>,
    /// The pods waiting that the partition holds at the old sidecars.
    pub held: Vec<&'p Pod>,
    /// The pods whose sidecars differ in more than their images.
    pub not_upgradable: Vec<&'p Pod>,
    /// `maxUnavailable`, scaled to the matched pods.
    pub budget: i64,
    /// Updated pods not available now (they count against the budget).
    pub unavailable: i64,
}

/// Whether `set` upgrades injected pods at all: not `NotUpdate`, not paused, and its hashes
/// written.
fn upgrades(set: &SidecarSet) -> bool {
    let strategy = set.spec.update_strategy.clone().unwrap_or_default();
    let stopped =
        strategy.type_ == Some(SidecarSetUpdateStrategyType::NotUpdate) || strategy.paused == Some(true);
    let annotations = set.annotations();
    !stopped
        && annotations.contains_key(HASH_ANNOTATION)
        && annotations.contains_key(HASH_WITHOUT_IMAGE_ANNOTATION)
}

/// The upgrade candidates of `matched` (the pods the set injected); None when the set
/// upgrades nothing (`NotUpdate`, paused, no hashes yet, every pod updated).
pub fn candidates<'p>(set: &SidecarSet, matched: &[&'p Pod], now: Timestamp) -> Option<Candidates<'p>> {
    if !upgrades(set) {
        return None;
    }
    let strategy = set.spec.update_strategy.clone().unwrap_or_default();
    let bare = set.annotations().get(HASH_WITHOUT_IMAGE_ANNOTATION)?;
    let name = set.name_any();
    let bare_entry = |pod: &Pod| {
        read_hashes(pod.annotations().get(HASH_WITHOUT_IMAGE_ANNOTATION))
            .ok()
            .and_then(|h| h.get(&name).cloned())
    };
    let is_updated = |pod: &Pod| updated(set, pod);
    let total = matched.len() as i64;
    if matched.iter().filter(|p| is_updated(p)).count() as i64 >= total {
        return None;
    }
    let selector = strategy.selector.clone().and_then(|s| Selector::try_from(s).ok());
    let picked = |pod: &Pod| selector.as_ref().is_none_or(|s| s.matches(pod.labels()));
    let mut candidates = Candidates::default();
    let mut waiting: Vec<&Pod> = Vec::new();
    for pod in matched.iter().copied().filter(|p| !is_updated(p) && picked(p)) {
        if bare_entry(pod).is_none_or(|e| &e.hash != bare) {
            candidates.not_upgradable.push(pod);
        } else if ready(set, pod) && !consistent(set, pod) {
            // A previous change still rolling on this pod.
        } else {
            waiting.push(pod);
        }
    }
    // Ties in the update order keep this order: by namespace and name, whatever order the
    // cache gave (so that `diff` previews the very pods a round takes).
    waiting.sort_by(|a, b| {
        (&a.metadata.namespace, &a.metadata.name).cmp(&(&b.metadata.namespace, &b.metadata.name))
    });
    let mut waiting = update_order(&strategy, matched, waiting, now);
    let partition = partition(&strategy, total);
    let take = (waiting.len() as i64 - partition).max(0) as usize;
    candidates.held = waiting.split_off(take);
    candidates.order = waiting;
    candidates.budget = scaled_up(
        "updateStrategy.maxUnavailable",
        strategy.max_unavailable.as_ref(),
        total,
        1,
    )
    .0;
    candidates.unavailable = matched
        .iter()
        .filter(|p| is_updated(p) && !available(set, p))
        .count() as i64;
    Some(candidates)
}

/// Plans the upgrade of `matched` (the pods the set injected).
pub fn plan_update(set: &SidecarSet, matched: &[&Pod], now: Timestamp) -> Upgrade {
    let mut upgrade = Upgrade::default();
    let flips: Vec<Action> = matched.iter().filter_map(|p| flip(set, p, now)).collect();
    if !flips.is_empty() && upgrades(set) {
        // The flips first, alone: the next round sees their pods ready again.
        upgrade.actions = flips;
        return upgrade;
    }
    let Some(candidates) = candidates(set, matched, now) else {
        return upgrade;
    };
    let hash = set
        .annotations()
        .get(HASH_ANNOTATION)
        .cloned()
        .unwrap_or_default();
    for pod in &candidates.not_upgradable {
        upgrade.not_upgradable.push(pod.name_any());
        if let Some(patch) = upgradable::patch(&set.name_any(), pod, false, now) {
            upgrade.actions.push(condition(pod, patch));
        }
    }
    let mut unavailable = candidates.unavailable;
    for pod in candidates.order {
        if ready(set, pod) {
            if unavailable >= candidates.budget {
                break;
            }
            unavailable += 1;
        }
        upgrade.actions.push(upgrade_pod(set, pod, &hash, now));
        if let Some(patch) = upgradable::patch(&set.name_any(), pod, true, now) {
            upgrade.actions.push(condition(pod, patch));
        }
    }
    upgrade
}

/// The flip of `pod`, if it is due: an idle hot-upgrade half that does not carry its empty
/// image, while every other sidecar container has started and the pod is ready (or every
/// container but the idle halves is), is reset to the empty image.
fn flip(set: &SidecarSet, pod: &Pod, now: Timestamp) -> Option<Action> {
    let idle = hot::idle_halves(set, pod);
    let due: Vec<&(String, String)> = idle
        .iter()
        .filter(|(half, empty)| spec_image(pod, half) != Some(empty.as_str()))
        .collect();
    if due.is_empty() {
        return None;
    }
    let is_idle = |name: &str| idle.iter().any(|(half, _)| half == name);
    let working: Vec<String> = hot::pod_names(set).into_iter().filter(|n| !is_idle(n)).collect();
    let others_ready = pod
        .status
        .iter()
        .flat_map(|s| s.container_statuses.iter().flatten())
        .filter(|c| !is_idle(&c.name))
        .all(|c| c.ready);
    if !consistent_in(set, pod, &working) || !(running_ready(pod) || others_ready) {
        return None;
    }
    let mut images = Vec::new();
    let mut annotations = serde_json::Map::new();
    let name = set.name_any();
    let mut all_states = states(pod);
    let state = all_states.entry(name.clone()).or_insert_with(|| InPlaceState {
        revision: set
            .annotations()
            .get(HASH_ANNOTATION)
            .cloned()
            .unwrap_or_default(),
        update_timestamp: Time(Timestamp::from_second(now.as_second()).unwrap_or(now)),
        last_container_statuses: BTreeMap::new(),
    });
    for sidecar in set.spec.containers.iter().flatten().filter(|c| hot::is_hot(c)) {
        let (working, idle) = hot::roles(&sidecar.container.name, pod);
        let empty = hot::empty_image(sidecar);
        if spec_image(pod, &idle) == Some(empty) {
            continue;
        }
        images.push(json!({ "name": idle, "image": empty }));
        annotations.insert(hot::version_key(&idle), json!("0"));
        annotations.insert(hot::version_alt_key(&working), json!("0"));
        let before = status_of(pod, &idle)
            .map(|s| s.image_id.clone())
            .unwrap_or_default();
        state
            .last_container_statuses
            .insert(idle.clone(), LastStatus { image_id: before });
    }
    annotations.insert(
        INPLACE_STATE_ANNOTATION.into(),
        json!(serde_json::to_string(&all_states).unwrap_or_default()),
    );
    Some(Action::Elsewhere {
        namespace: pod.namespace().unwrap_or_default(),
        action: Box::new(Action::PatchPod {
            name: pod.name_any(),
            patch: json!({
                "metadata": { "resourceVersion": pod.metadata.resource_version, "annotations": annotations },
                "spec": { "containers": images },
            }),
            why: Why::ResetContainer,
        }),
    })
}

/// The status write of `pod`'s `SidecarSetUpgradable` condition.
fn condition(pod: &Pod, patch: serde_json::Value) -> Action {
    Action::Elsewhere {
        namespace: pod.namespace().unwrap_or_default(),
        action: Box::new(Action::PatchPodStatus {
            name: pod.name_any(),
            patch,
            why: Why::PodCondition,
        }),
    }
}

/// The write that upgrades `pod`: the sidecars' images, its hash entry, its in-place state.
fn upgrade_pod(set: &SidecarSet, pod: &Pod, hash: &str, now: Timestamp) -> Action {
    let name = set.name_any();
    let mut images = Vec::new();
    let mut last = BTreeMap::new();
    let mut hot_annotations = BTreeMap::new();
    let started = |half: &str| {
        status_of(pod, half).is_some_and(|s| s.ready) && consistent_in(set, pod, &[half.to_string()])
    };
    for sidecar in set.spec.containers.iter().flatten() {
        let want = sidecar.container.image.clone().unwrap_or_default();
        let (container, other) = if hot::is_hot(sidecar) {
            let (target, other) = hot::target(sidecar, pod, started);
            (target, Some(other))
        } else {
            (sidecar.container.name.clone(), None)
        };
        // A hot sidecar whose other half runs the new image already has it.
        let running = other.as_deref().unwrap_or(&container);
        if spec_image(pod, running) == Some(want.as_str()) {
            continue;
        }
        images.push(json!({ "name": container, "image": want }));
        let before = status_of(pod, &container)
            .map(|s| s.image_id.clone())
            .unwrap_or_default();
        last.insert(container.clone(), LastStatus { image_id: before });
        if let Some(other) = other {
            let version = set.metadata.resource_version.clone().unwrap_or_default();
            hot_annotations.extend(hot::upgraded_annotations(
                pod,
                &sidecar.container.name,
                &container,
                &other,
                &version,
            ));
        }
    }
    let time = Time(Timestamp::from_second(now.as_second()).unwrap_or(now));
    let mut hashes = read_hashes(pod.annotations().get(HASH_ANNOTATION)).unwrap_or_default();
    let mut sidecars: Vec<String> = set
        .spec
        .containers
        .iter()
        .flatten()
        .map(|c| c.container.name.clone())
        .collect();
    sidecars.sort();
    hashes.insert(
        name.clone(),
        HashEntry {
            update_timestamp: time.clone(),
            hash: hash.to_string(),
            sidecar_set_name: name.clone(),
            sidecar_list: sidecars,
            controller_revision: set
                .status
                .as_ref()
                .and_then(|s| s.latest_revision.clone())
                .unwrap_or_default(),
        },
    );
    let mut all_states = states(pod);
    all_states.insert(
        name,
        InPlaceState {
            revision: hash.to_string(),
            update_timestamp: time,
            last_container_statuses: last,
        },
    );
    let mut annotations = json!({
        HASH_ANNOTATION: serde_json::to_string(&hashes).unwrap_or_default(),
        INPLACE_STATE_ANNOTATION: serde_json::to_string(&all_states).unwrap_or_default(),
    });
    for (key, value) in hot_annotations {
        annotations[key] = json!(value);
    }
    // patchPodMetadata is applied again at each upgrade, as upstream does: only what
    // it changes is written.
    let before = pod.annotations();
    let mut after = before.clone();
    let patches = set.spec.patch_pod_metadata.as_deref().unwrap_or_default();
    if super::inject::patch_metadata(&mut after, patches).is_ok() {
        for (key, value) in after {
            if before.get(&key) != Some(&value) {
                annotations[key] = json!(value);
            }
        }
    }
    let patch = Action::PatchPod {
        name: pod.name_any(),
        patch: json!({
            "metadata": {
                "resourceVersion": pod.metadata.resource_version,
                "annotations": annotations,
            },
            "spec": { "containers": images },
        }),
        why: Why::UpdatePodInPlace,
    };
    // A SidecarSet is cluster-scoped: its pods are in their own namespaces.
    Action::Elsewhere {
        namespace: pod.namespace().unwrap_or_default(),
        action: Box::new(patch),
    }
}

#[cfg(test)]
#[path = "plan_update_tests.rs"]
mod tests;
