//! The Advanced StatefulSet planner (upstream's `updateStatefulSet`): a pure function from a
//! [`Snapshot`] (the set, its pods, its revisions, the clock) to a [`Plan`] (typed actions,
//! the status to store, the next wake-up). The controller's executor is the only code that
//! writes.
//!
//! ```text
//! snapshot ─> numbers (replicas, valid ordinals, partition, budgets)
//!          ─> replicas, ascending ordinal: create missing / delete finished / fix identity
//!             (OrderedReady stops at the first pod it creates or that is not healthy)
//!          ─> condemned, highest ordinal first (OrderedReady: one at a time, when healthy)
//!          ─> rolling update (plan_update) ─> status (plan_status)
//! ```
//!
//! Invariants (table- and property-tested in `plan_tests.rs`): a pod name is always
//! `<set>-<valid ordinal>` for a created pod and no ordinal is created twice; OrderedReady
//! creates at most one pod per round and never while a lower ordinal is unhealthy; a
//! created pod's revision follows the partition; PVCs are deleted only with a condemned pod
//! and only when `whenScaled: Delete` asks for it; OrderedReady deletes a condemned pod only
//! when every replica is healthy and the pod is healthy or the lowest unhealthy one; a
//! replica's missing claim is recreated while its pod is Pending.
use std::collections::{BTreeMap, BTreeSet};

use k8s_openapi::api::core::v1::Pod;
use kube::ResourceExt;
use kube::core::{Selector, SelectorExt};

use super::identity;
use super::ordinals::{self, ReservedOrdinals, RevisionChoice};
pub use super::round::{Numbers, Plan, Revision, Snapshot, checked_numbers};
use super::round::{delete_pod, finished, healthy, is_pending, lifecycle_of};
use crate::api::common::PodUpdatePolicy;
use crate::api::statefulset::v1beta1::{PersistentVolumeClaimRetentionPolicyType, StatefulSet};
use crate::runtime::actions::{Action, Problem, Why};
use crate::runtime::inplace::state::READINESS_GATE;
use crate::runtime::inplace::step::{label_patch, rfc3339};
use crate::runtime::lifecycle;
use crate::runtime::revision::is_at_revision;

/// Plans one reconcile of a set that is not being deleted.
pub fn plan(snapshot: &Snapshot<'_>) -> Plan {
    let mut plan = Plan::default();
    let set = snapshot.set;
    let reserved = ReservedOrdinals::of(set).unwrap_or_else(|bad| {
        plan.problems.push(Problem {
            reason: bad.reason(),
            message: format!(
                "StatefulSet {}: spec.reserveOrdinals ignored: {bad}",
                set.name_any()
            ),
        });
        ReservedOrdinals::default()
    });
    let n = match checked_numbers(set, &reserved) {
        Ok(n) => n,
        Err(message) => return plan.refuse(message),
    };
    if adopt_and_release(snapshot, &mut plan) {
        // The next round plans with the pods as they are owned now.
        return plan;
    }
    let owned: Vec<Pod> = snapshot.pods.iter().map(|p| (*p).clone()).collect();
    let split = ordinals::split(&owned, &set.name_any(), &n.valid);
    let replicas: BTreeMap<i32, &Pod> = split.replicas.clone();

    // Refresh first: a new pod's readiness gate turns True here, which is what
    // lets OrderedReady go on to the next ordinal.
    let refreshed = refresh(snapshot, &n, &replicas, &mut plan);
    let went_on = plan_replicas(snapshot, &n, &replicas, &mut plan);
    let went_on = went_on && plan_condemned(snapshot, &n, &replicas, &split.condemned, &mut plan);
    let gate_missing = gate_missing(set, &n);
    if let Some(message) = &gate_missing {
        plan.problems.push(Problem {
            reason: "InvalidSpec",
            message: message.clone(),
        });
    }
    let cancelled = cancel_deletes(snapshot, &n, &replicas, &mut plan);
    if went_on && !refreshed && !cancelled && gate_missing.is_none() && n.rolling && !n.paused {
        super::plan_update::plan_update(snapshot, &n, &replicas, &mut plan);
    }
    super::plan_status::plan_status(snapshot, &n, &owned, &mut plan);
    plan
}

/// In-place policies need the `InPlaceUpdateReady` readiness gate in the template (as
/// upstream admission demands): without it a pod would report Ready while its containers
/// restart. Names the field and says what to add; the rolling update waits meanwhile.
fn gate_missing(set: &StatefulSet, n: &Numbers) -> Option<String> {
    if n.policy == PodUpdatePolicy::ReCreate {
        return None;
    }
    let gates = set
        .spec
        .template
        .spec
        .as_ref()
        .and_then(|s| s.readiness_gates.as_ref());
    let has_gate = gates.is_some_and(|g| g.iter().any(|g| g.condition_type == READINESS_GATE));
    let policy = match n.policy {
        PodUpdatePolicy::InPlaceOnly => "InPlaceOnly",
        _ => "InPlaceIfPossible",
    };
    (!has_gate).then(|| {
        format!(
            "StatefulSet {}: spec.updateStrategy.rollingUpdate.podUpdatePolicy is {policy}, which needs the readiness gate in spec.template.spec.readinessGates; add `readinessGates: [{{conditionType: {READINESS_GATE}}}]` to the pod template (pods are not updated until then)",
            set.name_any()
        )
    })
}

/// Native claim rules: an orphan named `<set>-<ordinal>` whose labels
/// match the selector is adopted; an owned pod whose labels no longer match is released.
/// True when it planned a write (the round ends there).
fn adopt_and_release(snapshot: &Snapshot<'_>, plan: &mut Plan) -> bool {
    let set = snapshot.set;
    let Ok(selector) = Selector::try_from(set.spec.selector.clone()) else {
        return false;
    };
    let set_name = set.name_any();
    let before = plan.actions.len();
    for pod in &snapshot.orphans {
        let ours = ordinals::parse_ordinal(&set_name, &pod.name_any()).is_some()
            && selector.matches(pod.labels())
            && pod.metadata.deletion_timestamp.is_none();
        if ours {
            plan.actions.push(Action::PatchPod {
                name: pod.name_any(),
                patch: serde_json::json!({ "metadata": {
                    "resourceVersion": pod.metadata.resource_version,
                    "ownerReferences": [identity::set_owner_ref(set)],
                } }),
                why: Why::Adopt,
            });
        }
    }
    let uid = set.uid().unwrap_or_default();
    for pod in &snapshot.pods {
        if !selector.matches(pod.labels()) {
            plan.actions.push(Action::PatchPod {
                name: pod.name_any(),
                patch: serde_json::json!({ "metadata": { "ownerReferences": [{ "$patch": "delete", "uid": uid }] } }),
                why: Why::Release,
            });
        }
    }
    plan.actions.len() > before
}

/// The shared in-place refresh of every replica. True when it planned a write.
fn refresh(snapshot: &Snapshot<'_>, n: &Numbers, replicas: &BTreeMap<i32, &Pod>, plan: &mut Plan) -> bool {
    let hooks = lifecycle_of(snapshot.set);
    let ctx = super::round::step_context(snapshot, n, &hooks);
    let pods: Vec<&Pod> = replicas.values().copied().collect();
    let steps = crate::runtime::inplace::step::refresh(&ctx, &pods);
    let wrote = !steps.actions.is_empty();
    plan.absorb(steps);
    wrote
}

/// Replicas (pods at valid ordinals), ascending ordinal. False when OrderedReady must stop
/// this round.
fn plan_replicas(
    snapshot: &Snapshot<'_>,
    n: &Numbers,
    replicas: &BTreeMap<i32, &Pod>,
    plan: &mut Plan,
) -> bool {
    let set = snapshot.set;
    let now = rfc3339(snapshot.now);
    let unavailable_before = replicas.values().filter(|p| !healthy(p, n, snapshot.now)).count();
    let creating = |plan: &Plan| {
        plan.actions
            .iter()
            .filter(|a| matches!(a, Action::CreatePod { .. }))
            .count()
    };
    let not_updated = replicas
        .values()
        .filter(|p| !is_at_revision(p, snapshot.update.name))
        .count();
    for (position, ordinal) in n.valid.iter().copied().enumerate() {
        let Some(pod) = replicas.get(&ordinal) else {
            if n.scale_max_unavailable
                .is_some_and(|max| unavailable_before + creating(plan) >= max)
            {
                return false;
            }
            let choice = ordinals::revision_for_missing(n.mode, position, n.partition, not_updated);
            let revision = match choice {
                RevisionChoice::Current => snapshot.current,
                RevisionChoice::Update => snapshot.update,
            };
            let pod = identity::new_pod(set, ordinal, revision.name, revision.template, &now);
            // The claims carry the owner refs the retention policy wants.
            let claims = identity::new_claims(set, ordinal);
            plan.actions.push(Action::CreatePod {
                pod: Box::new(pod),
                claims,
            });
            if !n.parallel {
                return false;
            }
            continue;
        };
        let name = pod.name_any();
        if finished(pod) && pod.metadata.deletion_timestamp.is_none() {
            plan.actions.push(Action::DeletePod {
                name,
                uid: pod.uid().unwrap_or_default(),
                claims: Vec::new(),
                why: None,
            });
            if !n.parallel {
                return false;
            }
            continue;
        }
        if pod.metadata.deletion_timestamp.is_some() {
            if !n.parallel {
                return false;
            }
            continue;
        }
        // A Pending pod whose claim is gone (a user deleted it) waits forever for it: the
        // claim is made again, as the built-in StatefulSet does.
        if is_pending(pod) {
            for claim in identity::new_claims(set, ordinal) {
                if !snapshot.claims.contains(&claim.name_any()) {
                    plan.actions.push(Action::CreateClaim {
                        claim: Box::new(claim),
                    });
                }
            }
        }
        if let Some(patch) = identity::identity_drift(set, ordinal, pod) {
            plan.actions.push(Action::PatchPod {
                name: name.clone(),
                patch,
                why: Why::Identity,
            });
        }
        if !n.parallel && !healthy(pod, n, snapshot.now) {
            // The status phase asks to be woken when minReadySeconds will have passed.
            return false;
        }
    }
    true
}

/// Condemned pods (outside the valid ordinals), highest ordinal first. False when
/// OrderedReady must stop.
fn plan_condemned(
    snapshot: &Snapshot<'_>,
    n: &Numbers,
    replicas: &BTreeMap<i32, &Pod>,
    condemned: &[&Pod],
    plan: &mut Plan,
) -> bool {
    let delete_claims = snapshot
        .set
        .spec
        .persistent_volume_claim_retention_policy
        .as_ref()
        .and_then(|p| p.when_scaled)
        == Some(PersistentVolumeClaimRetentionPolicyType::Delete);
    let all_healthy = replicas.values().all(|p| healthy(p, n, snapshot.now));
    // Upstream's `firstUnhealthyPod`: the lowest unhealthy ordinal (the replicas are all
    // healthy by the time condemned pods are looked at in OrderedReady).
    let first_unhealthy = condemned
        .iter()
        .rev()
        .find(|p| !healthy(p, n, snapshot.now))
        .map(|p| p.name_any());
    for pod in condemned {
        if pod.metadata.deletion_timestamp.is_some() {
            if !n.parallel {
                return false;
            }
            continue;
        }
        if !n.parallel && !all_healthy {
            return false;
        }
        // OrderedReady removes an unhealthy pod only when it is the first unhealthy one:
        // with web-0..2 all not Ready, scaling to 0 waits (as the built-in StatefulSet does)
        // instead of deleting them at once.
        if !n.parallel && !healthy(pod, n, snapshot.now) && first_unhealthy != Some(pod.name_any()) {
            // The status phase asks to be woken when minReadySeconds will have passed.
            return false;
        }
        let claims = if delete_claims {
            claim_names(snapshot.set, pod)
        } else {
            Vec::new()
        };
        delete_pod(snapshot, pod, claims, plan);
        if !n.parallel {
            return false;
        }
    }
    true
}

/// A replica waiting in PreparingDelete that nothing wants gone any more (its
/// `apps.kruise.io/specified-delete` label was taken off, and the rolling update would not
/// recreate it) goes back to PreparingNormal, and from there to Normal as a new pod does:
/// the delete is cancelled. Upstream leaves such a pod in PreparingDelete for good,
/// unavailable. True when it planned a write.
fn cancel_deletes(
    snapshot: &Snapshot<'_>,
    n: &Numbers,
    replicas: &BTreeMap<i32, &Pod>,
    plan: &mut Plan,
) -> bool {
    use crate::workloads::common::SPECIFIED_DELETE_LABEL;
    // Nothing held, nothing to cancel (and no candidate list to build).
    if !replicas
        .values()
        .any(|p| lifecycle::state(p) == lifecycle::PREPARING_DELETE)
    {
        return false;
    }
    let updating = n.rolling && !n.paused;
    let to_update: BTreeSet<String> = if updating {
        super::plan_update::candidates(snapshot, n, replicas)
            .into_iter()
            .filter(|p| !is_at_revision(p, snapshot.update.name))
            .map(|p| p.name_any())
            .collect()
    } else {
        BTreeSet::new()
    };
    let now = rfc3339(snapshot.now);
    let before = plan.actions.len();
    for pod in replicas.values() {
        let wanted_gone =
            pod.labels().contains_key(SPECIFIED_DELETE_LABEL) || to_update.contains(&pod.name_any());
        if lifecycle::state(pod) == lifecycle::PREPARING_DELETE
            && pod.metadata.deletion_timestamp.is_none()
            && !wanted_gone
        {
            plan.actions.push(Action::PatchPod {
                name: pod.name_any(),
                patch: label_patch(
                    pod,
                    &[(lifecycle::STATE_LABEL, Some(lifecycle::PREPARING_NORMAL))],
                    &[(lifecycle::TIMESTAMP_ANNOTATION, Some(&now))],
                ),
                why: Why::Lifecycle,
            });
        }
    }
    plan.actions.len() > before
}

/// The claims of the pod's ordinal (`<claim>-<set>-<ordinal>`).
fn claim_names(set: &StatefulSet, pod: &Pod) -> Vec<String> {
    let Some(ordinal) = ordinals::parse_ordinal(&set.name_any(), &pod.name_any()) else {
        return Vec::new();
    };
    identity::new_claims(set, ordinal)
        .into_iter()
        .filter_map(|c| c.metadata.name)
        .collect()
}

#[cfg(test)]
#[path = "plan_tests.rs"]
mod tests;
