//! One round of the WorkloadSpread controller, from a snapshot of the
//! spread, its target and the target's pods to the writes and the status. Pure.
//!
//! ```text
//! pods ─> by subset (annotation; unannotated scheduled pods adopted by node fit; the rest
//!         in no subset) ─> by version (Deployment / ReplicaSet pods by template hash)
//!      ─> status: each subset overall and per version (replicas, missing, creating and
//!         deleting bookkeeping, Schedulable with the adaptive strategy)
//!      ─> writes: adoption annotations, deletion costs, deletes of pods stuck unschedulable
//! ```
//!
//! Invariants:
//! - A pod gets at most one patch per round (its adoption and its cost together).
//! - Deletion costs are written only for ReplicaSet, Deployment and CloneSet targets, and
//!   only when the workload's latest version is known.
//! - Pods stuck unschedulable are deleted only from a subset other than the last, only
//!   with the adaptive strategy and `rescheduleCriticalSeconds`, and only once the stored
//!   status marks their subset unschedulable (the mark is written first, as upstream).
//! - The status is handed on only when it differs from the stored one; the driver writes
//!   it under the resourceVersion it was planned from (the pod webhook writes the same
//!   status).
//! - Pods in no subset (created while the pod webhook was down and not adoptable, or
//!   annotated for a subset that is gone) are counted in the `PodsInSubsets` condition and
//!   a warning; a missing target in `TargetFound` and a warning. Neither stops the rest.
use std::collections::BTreeMap;
use std::time::Duration;

use k8s_openapi::api::core::v1::{Node, Pod};
use k8s_openapi::apimachinery::pkg::apis::meta::v1::Time;
use k8s_openapi::jiff::Timestamp;
use kube::ResourceExt;
use serde_json::{Value, json};

use super::place::{capacity, pod_version};
use super::{adopt, cost, deleting, schedulable, status};
use crate::api::common::Condition;
use crate::api::workloadspread::{
    WorkloadSpread, WorkloadSpreadScheduleStrategyType, WorkloadSpreadStatus, WorkloadSpreadSubsetStatus,
};
use crate::runtime::actions::{Action, Problem, Why};
use crate::runtime::driver::Planned;
use crate::workloads::common::availability::is_active;
use crate::workloads::common::order::DELETION_COST_ANNOTATION;

pub const TARGET_FOUND: &str = "TargetFound";
pub const PODS_IN_SUBSETS: &str = "PodsInSubsets";

/// The target workload as the round sees it.
#[derive(Debug, Clone, PartialEq)]
pub enum Target {
    /// It does not exist (yet).
    Missing,
    /// It exists: its replica total and its latest pod version (Err: not known yet, e.g.
    /// a CloneSet whose status lags its spec).
    Found {
        total: i64,
        latest_version: Result<String, String>,
    },
}

/// What one round reads.
pub struct Snapshot<'a> {
    pub ws: &'a WorkloadSpread,
    pub target: Target,
    /// The target's pods (its controller chain reaches the target; the filter applied).
    pub pods: Vec<&'a Pod>,
    pub node: &'a dyn Fn(&str) -> Option<&'a Node>,
    pub now: Timestamp,
}

/// The pods of each subset (spec order) and of none.
struct Groups<'a> {
    subsets: Vec<Vec<&'a Pod>>,
    outside: Vec<&'a Pod>,
}

/// Where each pod is: its annotation, else adopted by node fit, else in no subset; the
/// adoption patches by pod name.
fn group<'a>(snapshot: &Snapshot<'a>, total: i64) -> (Groups<'a>, BTreeMap<String, Value>) {
    let ws = snapshot.ws;
    let name = ws.name_any();
    let mut groups = Groups {
        subsets: vec![Vec::new(); ws.spec.subsets.len()],
        outside: Vec::new(),
    };
    let mut candidates = Vec::new();
    for &pod in &snapshot.pods {
        match deleting::matched(pod) {
            Some((owner, subset)) if owner == name && !subset.is_empty() => {
                match ws.spec.subsets.iter().position(|s| s.name == subset) {
                    Some(i) => groups.subsets[i].push(pod),
                    None => groups.outside.push(pod),
                }
            }
            _ if is_active(pod) => candidates.push(pod),
            _ => groups.outside.push(pod),
        }
    }
    // As upstream, each version's pods are adopted against that version's room.
    let mut adoptions = Vec::new();
    let placed = by_version(&groups.subsets);
    let mut pending: BTreeMap<String, Vec<&Pod>> = BTreeMap::new();
    for &pod in &candidates {
        pending.entry(pod_version(pod)).or_default().push(pod);
    }
    for (version, pods) in &pending {
        let already: BTreeMap<String, i32> = ws
            .spec
            .subsets
            .iter()
            .enumerate()
            .map(|(i, s)| {
                // As upstream, every pod annotated for the subset holds room, finished or not.
                let held = placed.get(version).map_or(0, |v| v[i].len());
                (s.name.clone(), held as i32)
            })
            .collect();
        adoptions.extend(adopt::adopt(ws, &already, pods, snapshot.node, total));
    }
    let mut patches = BTreeMap::new();
    for pod in candidates {
        let pod_name = pod.name_any();
        let adopted = adoptions.iter().find(|a| a.pod == pod_name);
        match adopted.and_then(|a| ws.spec.subsets.iter().position(|s| s.name == a.subset)) {
            Some(i) => groups.subsets[i].push(pod),
            None => groups.outside.push(pod),
        }
        if let Some(a) = adopted {
            patches.insert(pod_name, a.patch.clone());
        }
    }
    (groups, patches)
}

/// The adaptive strategy's critical time, when it applies.
fn critical(ws: &WorkloadSpread) -> Option<Duration> {
    let strategy = ws.spec.schedule_strategy.as_ref()?;
    if strategy.type_ != Some(WorkloadSpreadScheduleStrategyType::Adaptive) {
        return None;
    }
    let seconds = strategy.adaptive.as_ref()?.reschedule_critical_seconds?;
    (seconds > 0).then(|| Duration::from_secs(seconds as u64))
}

/// The subset statuses of one list (overall, or one version's) and what they found.
#[derive(Default)]
struct Lists {
    statuses: Vec<WorkloadSpreadSubsetStatus>,
    warnings: Vec<status::Warning>,
    recheck: Option<Duration>,
    /// Pods stuck unschedulable, with their subset's index.
    unschedulable: Vec<(usize, String)>,
    recovered: Vec<String>,
}

fn earliest(a: Option<Duration>, b: Option<Duration>) -> Option<Duration> {
    match (a, b) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}

fn schedulable_of(s: Option<&WorkloadSpreadSubsetStatus>) -> Option<&Condition> {
    s.and_then(|s| s.conditions.as_ref())
        .and_then(|c| c.iter().find(|c| c.type_ == schedulable::CONDITION))
}

fn lists(
    ws: &WorkloadSpread,
    subsets: &[Vec<&Pod>],
    previous: Option<&Vec<WorkloadSpreadSubsetStatus>>,
    total: i64,
    now: Timestamp,
) -> Lists {
    let mut out = Lists::default();
    let last = ws.spec.subsets.len().saturating_sub(1);
    for (i, (subset, pods)) in ws.spec.subsets.iter().zip(subsets).enumerate() {
        let before = previous.and_then(|p| p.iter().find(|s| s.name == subset.name));
        let computed = status::subset_status(&subset.name, capacity(subset, total), before, pods, now);
        let mut entry = computed.status;
        out.warnings.extend(computed.warnings);
        out.recheck = earliest(out.recheck, computed.recheck);
        if let Some(critical) = critical(ws) {
            let condition = if i == last {
                schedulable::last(schedulable_of(before), now)
            } else {
                let judged = schedulable::subset(pods, schedulable_of(before), critical, now);
                out.recheck = earliest(out.recheck, judged.recheck);
                out.unschedulable
                    .extend(judged.unschedulable.into_iter().map(|p| (i, p)));
                if judged.recovered {
                    out.recovered.push(subset.name.clone());
                }
                judged.condition.unwrap_or_else(|| schedulable::last(None, now))
            };
            entry.conditions = Some(vec![condition]);
        }
        out.statuses.push(entry);
    }
    out
}

fn empty(statuses: &[WorkloadSpreadSubsetStatus]) -> bool {
    statuses.iter().all(|s| {
        s.replicas == 0
            && s.creating_pods.as_ref().is_none_or(|m| m.is_empty())
            && s.deleting_pods.as_ref().is_none_or(|m| m.is_empty())
    })
}

/// Each subset's pods split by version.
fn by_version<'a>(subsets: &[Vec<&'a Pod>]) -> BTreeMap<String, Vec<Vec<&'a Pod>>> {
    let mut out: BTreeMap<String, Vec<Vec<&'a Pod>>> = BTreeMap::new();
    for (i, pods) in subsets.iter().enumerate() {
        for &pod in pods {
            out.entry(pod_version(pod))
                .or_insert_with(|| vec![Vec::new(); subsets.len()])[i]
                .push(pod);
        }
    }
    out
}

/// Whether the target kind steers its scale-in by deletion cost.
fn costed_kind(ws: &WorkloadSpread) -> bool {
    matches!(
        ws.spec.target_ref.kind.as_str(),
        "ReplicaSet" | "Deployment" | "CloneSet"
    )
}

/// The deletion cost each active pod should have.
fn active<'a>(pods: &[&'a Pod]) -> Vec<&'a Pod> {
    pods.iter().copied().filter(|p| is_active(p)).collect()
}

fn costs(
    ws: &WorkloadSpread,
    groups: &Groups<'_>,
    latest: &str,
    total: i64,
    now: Timestamp,
) -> Vec<(String, i64)> {
    let n = ws.spec.subsets.len();
    let mut out = Vec::new();
    for (version, subsets) in by_version(&groups.subsets) {
        for (i, (subset, pods)) in ws.spec.subsets.iter().zip(&subsets).enumerate() {
            let pods = cost::SubsetPods {
                index: i,
                capacity: capacity(subset, total),
                pods: active(pods),
            };
            out.extend(cost::subset_costs(&pods, n, version == latest, now));
        }
    }
    let floor = out.iter().map(|(_, c)| *c).min();
    out.extend(cost::unplaced_costs(&active(&groups.outside), n, floor));
    out
}

fn time(now: Timestamp) -> Time {
    Time(Timestamp::from_second(now.as_second()).unwrap_or(now))
}

/// A condition, keeping the stored one's transition time while its status holds.
fn condition(
    stored: &WorkloadSpreadStatus,
    type_: &str,
    ok: bool,
    reason: &str,
    message: String,
    now: Timestamp,
) -> Condition {
    let status = if ok { "True" } else { "False" };
    let before = stored
        .conditions
        .iter()
        .flatten()
        .find(|c| c.type_ == type_ && c.status == status);
    Condition {
        type_: type_.into(),
        status: status.into(),
        last_transition_time: before
            .and_then(|c| c.last_transition_time.clone())
            .or_else(|| Some(time(now))),
        reason: Some(reason.into()),
        message: Some(message),
        observed_generation: None,
    }
}

/// Names of the first few pods, for messages.
fn some_names(pods: &[&Pod]) -> String {
    let mut names: Vec<String> = pods.iter().take(5).map(|p| p.name_any()).collect();
    if pods.len() > 5 {
        names.push("...".into());
    }
    names.join(", ")
}

/// How soon a round whose stuck pods wait for their subset's mark looks again.
const MARK_SETTLES: Duration = Duration::from_secs(1);

/// Whether the stored status marks subset `name` unschedulable.
fn marked_unschedulable(stored: &WorkloadSpreadStatus, name: &str) -> bool {
    let subset = stored.subset_statuses.iter().flatten().find(|s| s.name == name);
    schedulable_of(subset).is_some_and(|c| c.status == "False")
}

/// Plans one round (see the module documentation).
pub fn plan(snapshot: &Snapshot<'_>) -> Planned<WorkloadSpreadStatus> {
    let ws = snapshot.ws;
    let now = snapshot.now;
    let reference = &ws.spec.target_ref;
    let described = format!("{} {}", reference.kind, reference.name);
    let stored = ws.status.clone().unwrap_or_default();
    let mut planned = Planned::default();
    let total = match &snapshot.target {
        Target::Found { total, .. } => *total,
        Target::Missing => 0,
    };
    let (groups, mut patches) = group(snapshot, total);

    let overall = lists(ws, &groups.subsets, stored.subset_statuses.as_ref(), total, now);
    let mut recheck = overall.recheck;
    let mut warnings = overall.warnings.clone();
    let mut versioned = BTreeMap::new();
    let previous_versions = stored.versioned_subset_statuses.clone().unwrap_or_default();
    // Every version a pod of the target has gets its list, even one whose pods are all in
    // no subset (as upstream).
    let mut versions = by_version(&groups.subsets);
    for pod in &groups.outside {
        versions
            .entry(pod_version(pod))
            .or_insert_with(|| vec![Vec::new(); ws.spec.subsets.len()]);
    }
    for (version, subsets) in &versions {
        let computed = lists(ws, subsets, previous_versions.get(version), total, now);
        recheck = earliest(recheck, computed.recheck);
        warnings.extend(computed.warnings);
        versioned.insert(version.clone(), computed.statuses);
    }
    let none: Vec<Vec<&Pod>> = vec![Vec::new(); ws.spec.subsets.len()];
    for (version, previous) in previous_versions
        .iter()
        .filter(|(v, _)| !versions.contains_key(*v))
    {
        let computed = lists(ws, &none, Some(previous), total, now);
        recheck = earliest(recheck, computed.recheck);
        warnings.extend(computed.warnings);
        if !empty(&computed.statuses) {
            versioned.insert(version.clone(), computed.statuses);
        }
    }
    // A pod recorded in several lists warns once.
    warnings.sort_by(|a, b| (a.reason, &a.pod).cmp(&(b.reason, &b.pod)));
    warnings.dedup();
    for warning in warnings {
        planned.problems.push(Problem {
            reason: warning.reason,
            message: format!(
                "WorkloadSpread {}: pod {} was recorded in a subset but {} in time; its room is counted again",
                ws.name_any(),
                warning.pod,
                if warning.reason == "CreatePodFailed" {
                    "was not created"
                } else {
                    "was not deleted"
                }
            ),
        });
    }
    for subset in &overall.recovered {
        planned.notices.push(Problem {
            reason: "RecoverSchedulable",
            message: format!(
                "WorkloadSpread {}: subset {subset} is schedulable again",
                ws.name_any()
            ),
        });
    }

    if let (
        true,
        Target::Found {
            latest_version: Ok(latest),
            ..
        },
    ) = (costed_kind(ws), &snapshot.target)
    {
        let by_name: BTreeMap<String, &Pod> = snapshot.pods.iter().map(|p| (p.name_any(), *p)).collect();
        for (pod, value) in costs(ws, &groups, latest, total, now) {
            let Some(write) = by_name.get(&pod).and_then(|p| cost::to_write(p, value)) else {
                continue;
            };
            let patch = patches.entry(pod).or_insert_with(|| json!({}));
            patch["metadata"]["annotations"][DELETION_COST_ANNOTATION] = json!(write);
        }
    }
    let uids: BTreeMap<String, String> = snapshot
        .pods
        .iter()
        .map(|p| (p.name_any(), p.uid().unwrap_or_default()))
        .collect();
    // As upstream, the subset is marked unschedulable before its pods go: the webhook
    // must skip it when their replacements come (their deletes write the status too, and
    // a mark written after them could be lost to that race).
    for (i, name) in &overall.unschedulable {
        if !marked_unschedulable(&stored, &ws.spec.subsets[*i].name) {
            recheck = earliest(recheck, Some(MARK_SETTLES));
            continue;
        }
        patches.remove(name);
        planned.actions.push(Action::DeletePod {
            name: name.clone(),
            uid: uids.get(name).cloned().unwrap_or_default(),
            claims: Vec::new(),
            why: None,
        });
    }
    for (name, patch) in patches {
        planned.actions.push(Action::PatchPod {
            name,
            patch,
            why: Why::Spread,
        });
    }

    let mut conditions = Vec::new();
    match &snapshot.target {
        Target::Missing => {
            let message = format!(
                "spec.targetRef: {described} not found in namespace {}",
                ws.namespace().unwrap_or_default()
            );
            planned.problems.push(Problem {
                reason: "TargetNotFound",
                message: format!("WorkloadSpread {}: {message}", ws.name_any()),
            });
            conditions.push(condition(&stored, TARGET_FOUND, false, "NotFound", message, now));
        }
        Target::Found { .. } => {
            conditions.push(condition(
                &stored,
                TARGET_FOUND,
                true,
                "Found",
                format!("{described} found"),
                now,
            ));
        }
    }
    let outside: Vec<&Pod> = groups.outside.iter().copied().filter(|p| is_active(p)).collect();
    if outside.is_empty() {
        conditions.push(condition(
            &stored,
            PODS_IN_SUBSETS,
            true,
            "AllPodsInSubsets",
            "every pod is in a subset".into(),
            now,
        ));
    } else {
        let message = format!(
            "{} pods of {described} are in no subset ({}): created while the pod webhook was not running and not adoptable (unscheduled, or on a node no subset selects), or placed in a subset that is gone",
            outside.len(),
            some_names(&outside)
        );
        planned.problems.push(Problem {
            reason: "PodsOutsideSubsets",
            message: format!("WorkloadSpread {}: {message}", ws.name_any()),
        });
        conditions.push(condition(
            &stored,
            PODS_IN_SUBSETS,
            false,
            "PodsOutsideSubsets",
            message,
            now,
        ));
    }

    let status = WorkloadSpreadStatus {
        observed_generation: ws.metadata.generation,
        subset_statuses: Some(overall.statuses),
        versioned_subset_statuses: Some(versioned),
        conditions: Some(conditions),
    };
    planned.requeue_after = recheck;
    planned.status = (status != stored).then_some(status);
    planned
}

#[cfg(test)]
#[path = "plan_tests.rs"]
mod tests;
