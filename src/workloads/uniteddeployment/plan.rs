//! One UnitedDeployment round, pure: from the UnitedDeployment, its revisions and the
//! subset workloads it controls (with their pods) to the child writes and the status.
//!
//! ```text
//! refused? ─> InvalidSpec, nothing else
//! children: the template's kind, one per topology subset (extras, unlabelled: left or deleted)
//! adaptive bookkeeping (which subsets can take pods) ─> allocation ── error ─> event, stop
//! partitions (capped at the allocation) ─> create missing / update changed / delete gone
//! status
//! ```
//!
//! Invariants:
//! - A subset workload is written only when its UnitedDeployment revision label, replicas,
//!   partition or subset patch differ from what this round wants; the write is the merge
//!   patch from the workload's labels, annotations, owner references and spec to the
//!   rendered ones, so a round that changes nothing writes nothing.
//! - Children of another kind (the template kind switched) go only once the new kind's
//!   workload of their subset has all its replicas ready (or has none to run): a switch
//!   surges instead of dropping pods. Children of subsets no longer in the topology, and
//!   all but the oldest of several for one subset, go at once. A child without the
//!   subset-name label is left alone.
//! - An allocation error leaves everything as it is (a warning event, status untouched).
//! - A native StatefulSet subset updated with `RollingUpdate` loses, in the same round, its
//!   pods at or past the partition that are at an older revision and not ready (its rolling
//!   update would wait on them for ever).
//! - Reservation mode ([`reserve`]): the reserved-pod labels are written first; an
//!   unschedulable subset's workload gets maxUnavailable `replicas - ready + update-timeout
//!   pods`, which also makes it stale.
use std::collections::{BTreeMap, BTreeSet};
use std::time::Duration;

use k8s_openapi::api::core::v1::Pod;
use k8s_openapi::jiff::Timestamp;
use kube::core::{ApiResource, DynamicObject};
use serde_json::{Value, json};

use super::adaptive::{self, Scheduling};
use super::allocate::{SubsetNow, allocate};
use super::render::{ChildKind, SubsetRead, patch_text, read_back, render, template_kind};
use super::reserve::{self, Reservation};
use super::status::{self, Counted};
use crate::api::uniteddeployment::{Subset, UnitedDeployment, UnitedDeploymentStatus};
use crate::runtime::actions::{Action, ChildAction, Problem, Why};
use crate::runtime::driver::Planned;
use crate::workloads::common::availability::is_ready;

/// A workload the UnitedDeployment controls, with its pods.
#[derive(Debug, Clone)]
pub struct Child<'a> {
    pub kind: ChildKind,
    /// The workload as JSON (metadata, spec, status).
    pub object: Value,
    pub pods: Vec<&'a Pod>,
}

impl Child<'_> {
    fn meta(&self, field: &str) -> Option<&str> {
        self.object["metadata"][field].as_str()
    }

    fn deleting(&self) -> bool {
        !self.object["metadata"]["deletionTimestamp"].is_null()
    }

    fn delete(&self) -> Action {
        Action::Child(ChildAction::Delete {
            resource: resource(self.kind),
            namespace: self.meta("namespace").unwrap_or_default().into(),
            name: self.meta("name").unwrap_or_default().into(),
            uid: self.meta("uid").unwrap_or_default().into(),
        })
    }

    /// Every replica it wants is ready (or it wants none).
    fn settled(&self) -> bool {
        let wanted = self.object["spec"]["replicas"].as_i64().unwrap_or(1);
        let ready = self.object["status"]["readyReplicas"].as_i64().unwrap_or(0);
        let updated = self.object["status"]["updatedReplicas"]
            .as_i64()
            .unwrap_or(wanted);
        let seen = self.object["status"]["observedGeneration"].as_i64().unwrap_or(0);
        let generation = self.object["metadata"]["generation"].as_i64().unwrap_or(0);
        wanted == 0 || (seen >= generation && ready >= wanted && updated >= wanted)
    }
}

/// What one round plans from.
pub struct Snapshot<'a> {
    pub ud: &'a UnitedDeployment,
    pub update_revision: &'a str,
    pub current_revision: &'a str,
    pub collision_count: i32,
    /// Every workload of the four kinds it controls.
    pub children: Vec<Child<'a>>,
    pub now: Timestamp,
}

/// The API resource of a subset workload kind.
pub fn resource(kind: ChildKind) -> ApiResource {
    let (group, version) = kind
        .api_version()
        .rsplit_once('/')
        .unwrap_or(("", kind.api_version()));
    ApiResource {
        group: group.into(),
        version: version.into(),
        api_version: kind.api_version().into(),
        kind: kind.kind().into(),
        plural: kind.plural().into(),
    }
}

/// The template kind's workload of each subset, the children to delete, and the children
/// of other kinds that wait for their subset's new workload.
struct Sorted<'s, 'a> {
    current: BTreeMap<String, &'s Child<'a>>,
    doomed: Vec<&'s Child<'a>>,
    replaced: Vec<(String, &'s Child<'a>)>,
}

fn sort<'s, 'a>(kind: ChildKind, topology: &BTreeSet<&str>, children: &'s [Child<'a>]) -> Sorted<'s, 'a> {
    let mut sorted = Sorted {
        current: BTreeMap::new(),
        doomed: Vec::new(),
        replaced: Vec::new(),
    };
    let mut live: Vec<&Child> = children.iter().filter(|c| !c.deleting()).collect();
    // Oldest first, so the one kept for a subset is the oldest.
    live.sort_by_key(|c| {
        (
            c.meta("creationTimestamp").unwrap_or_default().to_owned(),
            c.meta("name").unwrap_or_default().to_owned(),
        )
    });
    for child in live {
        let Some(read) = read_back(child.kind, &child.object, &child.pods) else {
            continue;
        };
        if !topology.contains(read.subset.as_str()) {
            sorted.doomed.push(child);
        } else if child.kind != kind {
            sorted.replaced.push((read.subset, child));
        } else {
            match sorted.current.entry(read.subset) {
                std::collections::btree_map::Entry::Occupied(_) => sorted.doomed.push(child),
                std::collections::btree_map::Entry::Vacant(slot) => {
                    slot.insert(child);
                }
            }
        }
    }
    sorted
}

/// The previous `Schedulable` condition of subset `name`.
fn previous_condition<'u>(ud: &'u UnitedDeployment, name: &str) -> Option<&'u crate::api::common::Condition> {
    ud.status
        .as_ref()?
        .subset_statuses
        .as_ref()?
        .iter()
        .find(|s| s.name.as_deref() == Some(name))?
        .conditions
        .as_ref()?
        .iter()
        .find(|c| c.type_ == adaptive::CONDITION)
}

/// Plans one round (see the module documentation).
pub fn plan(snapshot: &Snapshot) -> Planned<UnitedDeploymentStatus> {
    let ud = snapshot.ud;
    let value = serde_json::to_value(ud).unwrap_or_default();
    if let Some(message) = super::validation::refusal(&value, None) {
        return Planned {
            refused: Some(message),
            ..Planned::default()
        };
    }
    let Some(kind) = template_kind(ud) else {
        return Planned {
            refused: Some("spec.template: exactly one workload template must be set".into()),
            ..Planned::default()
        };
    };
    let topology: BTreeSet<&str> = ud.spec.subsets().iter().map(|s| s.name.as_str()).collect();
    let sorted = sort(kind, &topology, &snapshot.children);
    let reads: BTreeMap<&str, SubsetRead> = sorted
        .current
        .iter()
        .filter_map(|(name, c)| Some((name.as_str(), read_back(kind, &c.object, &c.pods)?)))
        .collect();

    let reserving = adaptive::reserving(ud);
    let Scheduled {
        mut scheduling,
        mut reservations,
        now: now_list,
    } = schedule(snapshot, &sorted, &reads, reserving);
    let allocation = match allocate(ud, &now_list) {
        Ok(allocation) => allocation,
        Err(message) => {
            return Planned {
                problems: vec![Problem {
                    reason: "FailedAllocate",
                    message,
                }],
                ..Planned::default()
            };
        }
    };
    let partitions = partitions(ud, &allocation);
    for (name, reservation) in reservations.iter_mut() {
        let current = reads.get(name).map_or(0, |r| r.replicas);
        reserve::after_allocation(reservation, current, allocation[*name]);
        if let Some(schedule) = scheduling.get_mut(name) {
            schedule.condition = reservation
                .condition
                .clone()
                .map(|c| super::conditions::kept_time(previous_condition(ud, name), c, snapshot.now));
        }
    }

    let mut actions: Vec<Action> = reservations
        .values()
        .flat_map(|r| &r.labels)
        .map(|(pod, reserved)| Action::PatchPod {
            name: pod.clone(),
            patch: json!({ "metadata": { "labels": { (reserve::RESERVED_LABEL): reserved.to_string() } } }),
            why: Why::Reserve,
        })
        .collect();
    let mut problems = Vec::new();
    let mut provisioned = false;
    let mut updated = false;
    for subset in ud.spec.subsets() {
        let name = subset.name.as_str();
        let (replicas, partition) = (allocation[name], partitions[name]);
        match (sorted.current.get(name), reads.get(name)) {
            (Some(child), Some(read)) => {
                let wanted = Wanted {
                    revision: snapshot.update_revision,
                    replicas,
                    partition,
                    // Reservation mode: an unschedulable subset may lose what is not ready.
                    max_unavailable: reservations.get(name).filter(|r| !r.schedulable).map(|r| {
                        reserve::max_unavailable(read.replicas, read.ready_replicas, r.update_timeout)
                    }),
                };
                match subset_update(ud, kind, subset, child, read, &wanted) {
                    Ok(writes) => {
                        updated |= !writes.is_empty();
                        actions.extend(writes);
                    }
                    Err(message) => problems.push(Problem {
                        reason: "FailedUpdateSubset",
                        message,
                    }),
                }
            }
            _ => match render(ud, subset, snapshot.update_revision, replicas, partition, None)
                .and_then(|v| serde_json::from_value::<DynamicObject>(v).map_err(|e| e.to_string()))
            {
                Ok(object) => {
                    provisioned = true;
                    actions.push(Action::Child(ChildAction::Create {
                        resource: resource(kind),
                        object: Box::new(object),
                    }));
                }
                Err(message) => problems.push(Problem {
                    reason: "FailedCreateSubset",
                    message,
                }),
            },
        }
    }
    for child in &sorted.doomed {
        provisioned = true;
        actions.push(child.delete());
    }
    for (subset, child) in &sorted.replaced {
        if sorted.current.get(subset.as_str()).is_some_and(|c| c.settled()) {
            provisioned = true;
            actions.push(child.delete());
        }
    }

    let mut requeue: Option<Duration> = scheduling.values().filter_map(|s| s.recheck).min();
    if let Some((critical, _)) = adaptive::timings(ud) {
        // A new or grown subset: see whether its pods found room.
        let grew = ud.spec.subsets().iter().any(|s| {
            reads
                .get(s.name.as_str())
                .is_none_or(|r| r.replicas < allocation[s.name.as_str()])
        });
        if grew {
            requeue = Some(requeue.map_or(critical, |r| r.min(critical)));
        }
    }
    let counted = count(&sorted, snapshot.update_revision);
    let reserved: BTreeMap<&str, i32> = reservations.iter().map(|(k, r)| (*k, r.reserved)).collect();
    let status = status::status(&status::Input {
        ud,
        update_revision: snapshot.update_revision,
        current_revision: snapshot.current_revision,
        collision_count: snapshot.collision_count,
        allocation: &allocation,
        partitions: &partitions,
        reads: &reads,
        scheduling: &scheduling,
        reserved: reserving.then_some(&reserved),
        counted,
        provisioned,
        updated,
        now: snapshot.now,
    });
    Planned {
        actions,
        problems,
        status,
        requeue_after: requeue,
        ..Planned::default()
    }
}

/// Which subsets can take pods this round, and what the allocator knows of each.
struct Scheduled<'s> {
    scheduling: BTreeMap<&'s str, Scheduling>,
    /// Reservation mode only.
    reservations: BTreeMap<&'s str, Reservation>,
    now: Vec<SubsetNow>,
}

/// The adaptive bookkeeping of every topology subset (the default mode, or the
/// reservation mode when `reserving`).
fn schedule<'s>(
    snapshot: &Snapshot<'s>,
    sorted: &Sorted,
    reads: &BTreeMap<&str, SubsetRead>,
    reserving: bool,
) -> Scheduled<'s> {
    let ud = snapshot.ud;
    let (critical, hold) = adaptive::timings(ud).unwrap_or_default();
    let rules = reserve::Rules {
        update_revision: snapshot.update_revision,
        updated: ud
            .status
            .as_ref()
            .and_then(|s| s.conditions.as_ref())
            .and_then(|c| c.iter().find(|c| c.type_ == status::UPDATED)),
        critical,
        hold,
        now: snapshot.now,
    };
    let mut out = Scheduled {
        scheduling: BTreeMap::new(),
        reservations: BTreeMap::new(),
        now: Vec::new(),
    };
    for subset in ud.spec.subsets() {
        let name = subset.name.as_str();
        let read = reads.get(name);
        let pods = sorted
            .current
            .get(name)
            .map(|c| c.pods.clone())
            .unwrap_or_default();
        let (replicas, ready) = read.map_or((0, 0), |r| (r.replicas, r.ready_replicas));
        let previous = previous_condition(ud, name);
        let mut entry = SubsetNow {
            name: name.into(),
            replicas: read.map(|r| r.replicas),
            ready: read.map(|r| r.ready_replicas),
            ..SubsetNow::default()
        };
        let schedule = match (read, reserving) {
            (Some(_), true) => {
                let reservation = reserve::subset(previous, &pods, &rules);
                entry.marked_unschedulable = reservation.marked;
                entry.reserved = reservation.reserved;
                let schedule = Scheduling {
                    schedulable: reservation.schedulable,
                    condition: None,
                    recheck: reservation.recheck,
                };
                out.reservations.insert(name, reservation);
                schedule
            }
            (Some(_), false) => adaptive::existing(ud, previous, replicas, ready, &pods, snapshot.now),
            (None, _) => adaptive::existing(ud, None, 0, 0, &[], snapshot.now),
        };
        entry.schedulable = schedule.schedulable;
        out.now.push(entry);
        out.scheduling.insert(name, schedule);
    }
    out
}

/// What a subset's workload should be this round.
struct Wanted<'a> {
    revision: &'a str,
    replicas: i32,
    partition: i32,
    /// Reservation mode, an unschedulable subset: its maxUnavailable.
    max_unavailable: Option<i32>,
}

/// The writes of an existing subset workload (none when it already is as wanted): the
/// merge patch to the rendered workload, and for a native StatefulSet rolled with
/// RollingUpdate its stuck pods. An error names the subset field that cannot be rendered.
fn subset_update(
    ud: &UnitedDeployment,
    kind: ChildKind,
    subset: &Subset,
    child: &Child,
    read: &SubsetRead,
    wanted: &Wanted,
) -> Result<Vec<Action>, String> {
    let stale = wanted
        .max_unavailable
        .is_some_and(|m| max_unavailable_of(kind, &child.object) != Some(m))
        || read.revision.as_deref() != Some(wanted.revision)
        || read.replicas != wanted.replicas
        || read.partition != wanted.partition
        || read.patch.as_deref().unwrap_or_default() != patch_text(subset.patch.as_ref());
    if !stale {
        return Ok(Vec::new());
    }
    let mut rendered = render(
        ud,
        subset,
        wanted.revision,
        wanted.replicas,
        wanted.partition,
        Some(&child.object),
    )?;
    if let Some(max) = wanted.max_unavailable {
        set_max_unavailable(kind, &mut rendered, max);
    }
    let patch = child_patch(&child.object, &rendered);
    if patch.as_object().is_none_or(|m| m.is_empty()) {
        return Ok(Vec::new());
    }
    let mut writes = vec![Action::Child(ChildAction::Patch {
        resource: resource(kind),
        namespace: child.meta("namespace").unwrap_or_default().into(),
        name: child.meta("name").unwrap_or_default().into(),
        patch,
    })];
    if kind == ChildKind::StatefulSet && rendered["spec"]["updateStrategy"]["type"] == "RollingUpdate" {
        writes.extend(stuck_stateful_pods(child, wanted.revision, wanted.partition));
    }
    Ok(writes)
}

/// The pods of a native StatefulSet subset that its rolling update would wait on for ever
/// (Kubernetes issue 67250; upstream's StatefulSet adapter deletes them too): at or past
/// the partition, at an older UnitedDeployment revision, and not ready. Deleted with the
/// update, so the StatefulSet recreates them at the new one.
fn stuck_stateful_pods(child: &Child, update_revision: &str, partition: i32) -> Vec<Action> {
    child
        .pods
        .iter()
        .filter(|pod| pod.metadata.deletion_timestamp.is_none())
        .filter(|pod| {
            let name = pod.metadata.name.as_deref().unwrap_or_default();
            let ordinal = name.rsplit_once('-').and_then(|(_, n)| n.parse::<i32>().ok());
            let revision = pod
                .metadata
                .labels
                .as_ref()
                .and_then(|l| l.get(super::render::REVISION_LABEL));
            ordinal.is_some_and(|o| o >= partition)
                && revision.map(String::as_str) != Some(update_revision)
                && !is_ready(pod)
        })
        .map(|pod| Action::DeletePod {
            name: pod.metadata.name.clone().unwrap_or_default(),
            uid: pod.metadata.uid.clone().unwrap_or_default(),
            claims: Vec::new(),
            why: None,
        })
        .collect()
}

/// Per subset: `manualUpdate.partitions[name]` or 0, capped at its allocation.
fn partitions(ud: &UnitedDeployment, allocation: &BTreeMap<String, i32>) -> BTreeMap<String, i32> {
    let wanted = ud
        .spec
        .update_strategy
        .as_ref()
        .and_then(|s| s.manual_update.as_ref())
        .and_then(|m| m.partitions.as_ref());
    allocation
        .iter()
        .map(|(name, replicas)| {
            let partition = wanted.and_then(|p| p.get(name)).copied().unwrap_or(0);
            (name.clone(), partition.clamp(0, *replicas))
        })
        .collect()
}

/// The pods of the current subset workloads, counted for the status.
fn count(sorted: &Sorted, update_revision: &str) -> Counted {
    let mut counted = Counted::default();
    for child in sorted.current.values() {
        counted.replicas += child.object["status"]["replicas"].as_i64().unwrap_or(0) as i32;
        counted.ready += child.object["status"]["readyReplicas"].as_i64().unwrap_or(0) as i32;
        for pod in child
            .pods
            .iter()
            .filter(|p| crate::workloads::common::availability::is_active(p))
        {
            let label = pod
                .metadata
                .labels
                .as_ref()
                .and_then(|l| l.get(super::render::REVISION_LABEL));
            if label.map(String::as_str) == Some(update_revision) {
                counted.updated += 1;
                counted.updated_ready += i32::from(is_ready(pod));
            }
        }
    }
    counted
}

/// Where a subset workload of `kind` (as JSON) keeps its maxUnavailable (reservation mode:
/// CloneSet and Deployment templates only).
fn max_unavailable_path(kind: ChildKind, object: &Value) -> Option<&'static str> {
    match kind {
        ChildKind::CloneSet
            if crate::api::cloneset::strategy_is_nested(&object["spec"]["updateStrategy"]) =>
        {
            Some("/spec/updateStrategy/rollingUpdate/maxUnavailable")
        }
        ChildKind::CloneSet => Some("/spec/updateStrategy/maxUnavailable"),
        ChildKind::Deployment if object["spec"]["strategy"]["type"] != "Recreate" => {
            Some("/spec/strategy/rollingUpdate/maxUnavailable")
        }
        _ => None,
    }
}

fn max_unavailable_of(kind: ChildKind, object: &Value) -> Option<i32> {
    let value = object.pointer(max_unavailable_path(kind, object)?)?;
    value.as_i64().and_then(|n| i32::try_from(n).ok())
}

fn set_max_unavailable(kind: ChildKind, object: &mut Value, max: i32) {
    if let Some(path) = max_unavailable_path(kind, object) {
        let keys: Vec<&str> = path.trim_start_matches('/').split('/').collect();
        set_at(object, &keys, json!(max));
    }
}

/// Sets `new` at `keys` under `value`, making objects on the way.
fn set_at(value: &mut Value, keys: &[&str], new: Value) {
    match keys.split_first() {
        None => *value = new,
        Some((key, rest)) => {
            if !value.is_object() {
                *value = json!({});
            }
            if let Some(map) = value.as_object_mut() {
                set_at(map.entry(key.to_string()).or_insert(Value::Null), rest, new);
            }
        }
    }
}

/// The merge patch from `existing` to `rendered` over what rendering decides: labels,
/// annotations, owner references and the spec.
fn child_patch(existing: &Value, rendered: &Value) -> Value {
    let part = |object: &Value| {
        json!({
            "metadata": {
                "labels": object["metadata"]["labels"],
                "annotations": object["metadata"]["annotations"],
                "ownerReferences": object["metadata"]["ownerReferences"],
            },
            "spec": object["spec"],
        })
    };
    let mut patch = crate::runtime::merge_patch::diff(&part(existing), &part(rendered));
    if let Some(map) = patch.as_object_mut() {
        map.retain(|_, v| v.as_object().is_none_or(|o| !o.is_empty()));
    }
    patch
}

#[cfg(test)]
#[path = "plan_tests.rs"]
mod tests;
