//! The one reconcile of every workload kind with a pod template and a revision history,
//! read top to bottom the way Kubernetes' `syncDeployment` reads:
//!
//! ```text
//! deleting? ──yes──> forget its expectations, wait
//! our last status write not cached yet? ──yes──> wait for its event (or 5 s)
//! expectations met? ──no──> look again in 5 s (or on the event that meets them)
//! revision history (find or write the update revision) ── collision? ──> come back
//! the kind's plan (its snapshot from the cache, then its pure planner)
//! execute the actions (the executor: expectations, slow start, first error)
//! events (one per kind of write; each problem once while it lasts)
//! the kind's own spec write, if any (CloneSet: podsToDelete pruning); or, instead of all
//!   of this, the deletion of the object itself (a BroadcastJob past its TTL)
//! status, only when it changed or a write failed (the kind names the failure condition);
//!   counters alone wait out a few seconds after the last write unless the rollout is
//!   complete (see `coalesce`); a refused spec: the InvalidSpec condition instead, once
//! history truncation ─> requeue (first error, stale cache, the plan's wake-up, or a change)
//! ```
//!
//! A kind is a [`Reconciled`] description: how to gather its snapshot and plan, and how a
//! failed write shows in its status. It has no reconcile, event or status-write code of
//! its own.
//!
//! Invariants: nothing is planned while an expectation of the object is unmet, nor from a
//! cached copy older than our own last status write (phases and schedules live there); nothing
//! is written for an object being deleted; the status is written only when the plan says it
//! changed, this round's write failed, or an `InvalidSpec` condition of an earlier refusal
//! is still stored (a spec that plans again is not refused: the condition goes, for every
//! kind); a problem is announced once while it lasts.
use std::collections::BTreeSet;
use std::future::Future;
use std::sync::Arc;
use std::time::{Duration, Instant};

use k8s_openapi::jiff::Timestamp;
use kube::api::{Api, Patch, PatchParams};
use kube::core::object::HasStatus;
use kube::runtime::controller::Action as Requeue;
use kube::{Resource, ResourceExt};
use serde_json::Value;

use crate::runtime::actions::{Action, Problem};
use crate::runtime::context::{Context, Error, FIELD_MANAGER, key, write_status, write_status_at};
use crate::runtime::controller::{Interest, Serve, publish_outcome, requeue};
use crate::runtime::decoded::{REFUSED, invalid_spec_status};
use crate::runtime::executor::{self, Outcome};
use crate::runtime::expectations::RECHECK;
use crate::runtime::history::{self, History, Workload};
use crate::runtime::scope::{Scoped, api_of};
use crate::runtime::triggers::Triggers;

/// What a kind's plan hands the driver.
#[derive(Debug, Clone, PartialEq)]
pub struct Planned<S> {
    pub actions: Vec<Action>,
    pub problems: Vec<Problem>,
    /// The status to write, when it differs from the stored one.
    pub status: Option<S>,
    /// Wake up after this long even without a change (minReadySeconds, grace periods).
    pub requeue_after: Option<Duration>,
    /// The revisions the live pods run (history truncation keeps them).
    pub pod_revisions: BTreeSet<String>,
    /// A merge patch of the object's own spec, sent before the status with the cached
    /// resourceVersion (a conflict leaves it to the next round).
    pub spec_patch: Option<Value>,
    /// The spec is refused (why, naming the field): the driver writes the `InvalidSpec`
    /// condition (reason `Refused`) into the stored status instead of `status`, and the plan
    /// has no actions.
    pub refused: Option<String>,
    /// Normal events to record (a job completed, a paused job continues); planners raise
    /// each once, on the transition.
    pub notices: Vec<Problem>,
    /// Delete the object itself (a finished BroadcastJob past its TTL); nothing else is
    /// written for it this round.
    pub delete_object: bool,
    /// Parts of the object whose failure backoff starts or doubles this round (an Advanced
    /// DaemonSet's nodes whose Failed pods it deletes). The driver records them under
    /// [`crate::runtime::backoff::key`]; the kind reads the waits left into its snapshot.
    pub backoff_failures: Vec<String>,
}

impl<S> Planned<S> {
    /// The spec cannot be planned: the `InvalidSpec` problem with `message` (which names the
    /// field), the refusal the driver writes as a condition, and no actions.
    pub fn refuse(mut self, message: String) -> Self {
        self.refused = Some(message.clone());
        self.problems.push(Problem {
            reason: "InvalidSpec",
            message,
        });
        self.actions.clear();
        self
    }

    /// Wake up after `after` at the latest (the earliest of every wake-up asked for).
    pub fn wake(&mut self, after: Duration) {
        self.requeue_after = Some(self.requeue_after.map_or(after, |d| d.min(after)));
    }

    /// Takes the in-place engine's steps: their actions, and their wake-up.
    pub fn absorb(&mut self, steps: crate::runtime::inplace::step::Steps) {
        if let Some(after) = steps.drain_into(&mut self.actions) {
            self.wake(after);
        }
    }
}

impl<S> Default for Planned<S> {
    fn default() -> Self {
        Self {
            actions: Vec::new(),
            problems: Vec::new(),
            status: None,
            requeue_after: None,
            pod_revisions: BTreeSet::new(),
            spec_patch: None,
            refused: None,
            notices: Vec::new(),
            delete_object: false,
            backoff_failures: Vec::new(),
        }
    }
}

/// The revisions `pods` run, by their revision label (full names or hashes): what history
/// truncation must keep.
pub fn pod_revisions<'p>(
    pods: impl IntoIterator<Item = &'p k8s_openapi::api::core::v1::Pod>,
) -> BTreeSet<String> {
    pods.into_iter()
        .filter_map(|p| p.labels().get(crate::runtime::revision::REVISION_LABEL).cloned())
        .collect()
}

/// A workload kind as the driver runs it.
pub trait Reconciled:
    Resource<DynamicType = ()>
    + Clone
    + serde::de::DeserializeOwned
    + serde::Serialize
    + std::fmt::Debug
    + Send
    + Sync
    + 'static
where
    Self::Scope: Scoped,
{
    /// The controller's name (`run --controllers`), as OpenKruise's enable list spells it and
    /// as events and metrics name it.
    const CONTROLLER: &'static str;
    /// What it drives, for help texts ("Advanced StatefulSet").
    const DRIVES: &'static str;
    /// Its CRD (`<plural>.<group>`): its watch is named after it, and `run` checks that it
    /// is established.
    const CRD: &'static str;
    /// The permissions it needs beyond the shared runtime's ([`crate::runtime::rbac::SHARED`]),
    /// in groups (a group several kinds need is one shared constant).
    const RULES: &'static [&'static [crate::runtime::rbac::Rule]];
    type Status: serde::Serialize + Clone + std::fmt::Debug + Default + Send + Sync;
    /// Its revision history: [`TemplateRevisions`] for a kind with a pod template,
    /// [`NoRevisions`] for one without.
    type Revisions: Revisions<Self>;

    /// What wakes its objects besides their own changes, their pods and claims (nodes,
    /// child workloads, followed targets). Default: nothing else.
    fn triggers<F>(_serve: &Serve<F>) -> Triggers<Self>
    where
        Self: Sized,
    {
        Triggers::new()
    }

    /// Gathers the object's snapshot from the caches in `ctx` and plans (the planning
    /// itself is the kind's pure function).
    fn plan(&self, ctx: &Context, history: &History, now: Timestamp) -> Planned<Self::Status>;

    /// Whether the status is written under the resourceVersion it was planned from (a
    /// conflict: plan again shortly). For a kind whose status another writer shares (a
    /// WorkloadSpread's, which the pod webhook writes too).
    const GUARDED_STATUS: bool = false;

    /// Whether `status` is at rest (the rollout it counts is complete: what `rollout status`
    /// waits for). A counters-only change of a status not at rest may be held for a few
    /// seconds (see [`crate::runtime::coalesce`]). Default: always at rest (never held),
    /// for kinds whose planners read their stored counters back.
    fn status_at_rest(&self, _status: &Self::Status) -> bool {
        true
    }

    /// Whether `status` counts as many pods as the spec asks for (`status.replicas` equals
    /// `spec.replicas`) where the stored status did not. Such a counters-only change is
    /// written at once: the pod count a scale waits for (OpenKruise's e2e allows 3 s) is
    /// never held. Default: never (nothing is held by default anyway).
    fn status_count_reached(&self, _status: &Self::Status) -> bool {
        false
    }

    /// The status to write after a failed write of this round (`planned`: the plan's, if
    /// any). Default: the plan's, unchanged.
    fn with_failure(&self, planned: Option<Self::Status>, _error: &Error) -> Option<Self::Status> {
        planned
    }
}

/// How a kind keeps its revision history (the driver finds or writes the update revision
/// before planning and truncates the history after).
pub trait Revisions<K>: Send + Sync {
    /// The history to plan with; `Ok(None)`: come back (a collision or a fresh revision).
    fn sync(ctx: &Context, object: &K) -> impl Future<Output = Result<Option<History>, Error>> + Send;
    /// Drops the revisions past the kind's limit that no live pod runs.
    fn truncate(
        ctx: &Context,
        object: &K,
        history: &History,
        pod_revisions: &BTreeSet<String>,
    ) -> impl Future<Output = Result<(), Error>> + Send;
}

/// ControllerRevisions of a pod template (CloneSet, Advanced StatefulSet, Advanced DaemonSet).
pub struct TemplateRevisions;

impl<K: Workload + Send + Sync> Revisions<K> for TemplateRevisions {
    async fn sync(ctx: &Context, object: &K) -> Result<Option<History>, Error> {
        history::sync(ctx, object).await
    }

    async fn truncate(
        ctx: &Context,
        object: &K,
        history: &History,
        pod_revisions: &BTreeSet<String>,
    ) -> Result<(), Error> {
        history::truncate(ctx, object, history, pod_revisions).await
    }
}

/// No history: the plan gets an empty one (BroadcastJob, WorkloadSpread, ...).
pub struct NoRevisions;

impl<K: Sync> Revisions<K> for NoRevisions {
    async fn sync(_: &Context, _: &K) -> Result<Option<History>, Error> {
        Ok(Some(History::default()))
    }

    async fn truncate(_: &Context, _: &K, _: &History, _: &BTreeSet<String>) -> Result<(), Error> {
        Ok(())
    }
}

/// Reconciles one object of kind `K` (see the module documentation).
pub async fn reconcile<K: Reconciled + HasStatus>(object: Arc<K>, ctx: Arc<Context>) -> Result<Requeue, Error>
where
    K::Scope: Scoped,
    <K as HasStatus>::Status: serde::Serialize,
{
    let (object, ctx) = (object.as_ref(), ctx.as_ref());
    let owner = key(object);
    if object.meta().deletion_timestamp.is_some() {
        ctx.expectations.forget_owner(&owner);
        ctx.own_writes.forget(&owner);
        ctx.status_window.forget(&owner);
        return Ok(Requeue::await_change());
    }
    let cached = crate::runtime::expectations::resource_version(object.meta().resource_version.as_deref());
    if ctx
        .own_writes
        .behind(&owner, object.meta().uid.as_deref().unwrap_or_default(), cached)
    {
        // Our own status write is not in the cache yet: its watch event wakes us.
        return Ok(Requeue::requeue(RECHECK));
    }
    let namespace = object.namespace().unwrap_or_default();
    let pending = ctx.pending_writes(&owner);
    if pending > 0 {
        tracing::debug!(
            kind = K::CONTROLLER,
            object = owner,
            pending,
            "waiting for the cache to show earlier writes"
        );
        return Ok(Requeue::requeue(RECHECK));
    }
    let Some(history) = K::Revisions::sync(ctx, object).await? else {
        // A collision or a fresh revision: the next round sees it in the cache.
        return Ok(Requeue::requeue(Duration::from_millis(200)));
    };
    let planned = object.plan(ctx, &history, Timestamp::now());
    for part in &planned.backoff_failures {
        ctx.backoffs
            .failed(&crate::runtime::backoff::key(object.meta(), part), Instant::now());
    }
    let reference = object.object_ref(&());
    if planned.delete_object {
        delete_object(ctx, object).await?;
        publish_notices(ctx, &reference, &planned.notices).await;
        return Ok(Requeue::await_change());
    }

    let outcome = executor::execute(ctx, &namespace, &owner, planned.actions.clone()).await;
    let mut problems = planned.problems.clone();
    problems.extend(held_by_budgets(&outcome));
    announce(ctx, &owner, &reference, &history.update, &outcome, &problems).await;
    publish_notices(ctx, &reference, &planned.notices).await;
    if let Some(patch) = &planned.spec_patch {
        patch_spec(ctx, object, patch).await?;
    }
    if let Some(message) = &planned.refused {
        write_refusal(ctx, object, message).await?;
        return requeue(outcome, planned.requeue_after);
    }
    let status = match &outcome.first_error {
        Some(error) => object.with_failure(planned.status.clone(), error),
        None => planned.status.clone(),
    };
    let stored = stored_status(object);
    // A spec planned again is no longer refused: an `InvalidSpec` condition of an earlier
    // round goes, whether or not the plan changed anything else.
    let full = match &status {
        Some(status) => Some(serde_json::to_value(status).unwrap_or_default()),
        None => has_invalid_spec(&stored).then(|| stored.clone()),
    }
    .map(without_invalid_spec);
    if let Some(full) = full {
        // Only what changed, and a null for what the new status leaves out (an emptied
        // list would otherwise stay: a merge patch keeps what it does not mention).
        let mut value = crate::runtime::merge_patch::diff(&stored, &full);
        if full.get("conditions").is_none()
            && let Some(map) = value.as_object_mut()
        {
            // A merge patch keeps what it does not mention: an emptied list is cleared.
            map.insert("conditions".into(), Value::Null);
        }
        // Counters alone wait out the window of the last write, unless the rollout is
        // complete, the pod count reaches the spec's (or a write failed): the round comes
        // back when the window ends.
        let settled = status.as_ref().is_none_or(|s| object.status_at_rest(s));
        let count_reached = status.as_ref().is_some_and(|s| object.status_count_reached(s));
        if outcome.first_error.is_none()
            && !settled
            && !count_reached
            && crate::runtime::coalesce::counters_only(&value, &stored)
            && let Some(left) = ctx.status_window.hold(&owner, Instant::now())
        {
            K::Revisions::truncate(ctx, object, &history, &planned.pod_revisions).await?;
            let after = planned.requeue_after.map_or(left, |a| a.min(left));
            return requeue(outcome, Some(after));
        }
        let guard = K::GUARDED_STATUS.then(|| object.resource_version()).flatten();
        match write_status_at(ctx, object, K::CONTROLLER, &value, guard.as_deref()).await {
            // Another writer changed it since this round's copy: plan again from its event.
            Err(Error::PatchStatus {
                source: kube::Error::Api(s),
                ..
            }) if guard.is_some() && s.is_conflict() => {
                return Ok(Requeue::requeue(Duration::from_millis(200)));
            }
            other => other?,
        }
        ctx.status_window.wrote(&owner, Instant::now());
    }
    K::Revisions::truncate(ctx, object, &history, &planned.pod_revisions).await?;
    requeue(outcome, planned.requeue_after)
}

/// The object's stored status as JSON (null when it has none); only the status is
/// serialized, not the whole object.
fn stored_status<K>(object: &K) -> Value
where
    K: HasStatus,
    K::Status: serde::Serialize,
{
    object
        .status()
        .and_then(|s| serde_json::to_value(s).ok())
        .unwrap_or(Value::Null)
}

fn has_invalid_spec(status: &Value) -> bool {
    status["conditions"].as_array().is_some_and(|all| {
        all.iter()
            .any(|c| c["type"] == crate::runtime::decoded::INVALID_SPEC)
    })
}

/// `status` without an `InvalidSpec` condition (no `conditions` at all when it was the
/// only one).
fn without_invalid_spec(mut status: Value) -> Value {
    if let Some(map) = status.as_object_mut()
        && let Some(Value::Array(all)) = map.get_mut("conditions")
    {
        all.retain(|c| c["type"] != crate::runtime::decoded::INVALID_SPEC);
        if all.is_empty() {
            map.remove("conditions");
        }
    }
    status
}

/// Writes the `InvalidSpec` condition of a refused spec into the stored status, only when
/// it is not there yet (a refusal that lasts costs no writes).
async fn write_refusal<K: Reconciled + HasStatus>(
    ctx: &Context,
    object: &K,
    message: &str,
) -> Result<(), Error>
where
    K::Scope: Scoped,
    <K as HasStatus>::Status: serde::Serialize,
{
    let stored = Some(stored_status(object)).filter(|s| !s.is_null());
    let blank = serde_json::to_value(<K as Reconciled>::Status::default()).unwrap_or(Value::Null);
    let now = crate::runtime::inplace::step::rfc3339(Timestamp::now());
    let status = invalid_spec_status(stored.as_ref(), blank, REFUSED, message, &now);
    if stored.as_ref() == Some(&status) {
        return Ok(());
    }
    write_status(ctx, object, K::CONTROLLER, &status).await
}

/// One event per kind of write (naming the pods), one for the first failed write, and
/// each problem once while it lasts (events are API writes too).
async fn announce(
    ctx: &Context,
    owner: &str,
    reference: &k8s_openapi::api::core::v1::ObjectReference,
    update_revision: &str,
    outcome: &Outcome,
    problems: &[Problem],
) {
    publish_outcome(ctx, reference, update_revision, outcome).await;
    let messages: Vec<String> = problems.iter().map(|p| p.message.clone()).collect();
    let fresh = ctx.new_problems(owner, &messages);
    for problem in problems.iter().filter(|p| fresh.contains(&&p.message)) {
        ctx.events
            .publish(reference, true, problem.reason, problem.message.clone())
            .await;
    }
}

/// One warning per PodUnavailableBudget that refused pod writes of this round (its
/// message stays the same while it holds, so it is said once).
fn held_by_budgets(outcome: &Outcome) -> Vec<Problem> {
    let mut budgets: Vec<&str> = outcome
        .held
        .iter()
        .filter_map(|(_, why)| {
            why.split("PodUnavailableBudget ")
                .nth(1)?
                .split_whitespace()
                .next()
        })
        .collect();
    budgets.sort_unstable();
    budgets.dedup();
    budgets
        .into_iter()
        .map(|budget| Problem {
            reason: "PodUnavailableBudgetHolds",
            message: format!(
                "PodUnavailableBudget {budget} allows no more unavailable pods: the pods it protects wait"
            ),
        })
        .collect()
}

async fn publish_notices(
    ctx: &Context,
    reference: &k8s_openapi::api::core::v1::ObjectReference,
    notices: &[Problem],
) {
    for notice in notices {
        ctx.events
            .publish(reference, false, notice.reason, notice.message.clone())
            .await;
    }
}

/// Deletes the object itself under its uid (background propagation: its children go
/// through the garbage collector); already gone is fine.
async fn delete_object<K: Reconciled>(ctx: &Context, object: &K) -> Result<(), Error>
where
    K::Scope: Scoped,
{
    use kube::api::{DeleteParams, Preconditions, PropagationPolicy};
    let api: Api<K> = api_of(&ctx.client, object);
    let params = DeleteParams {
        preconditions: Some(Preconditions {
            uid: object.uid(),
            resource_version: None,
        }),
        propagation_policy: Some(PropagationPolicy::Background),
        ..DeleteParams::default()
    };
    match api.delete(&object.name_any(), &params).await {
        Ok(_) => Ok(()),
        Err(kube::Error::Api(s)) if s.code == 404 || s.is_conflict() => Ok(()),
        Err(source) => Err(Error::Internal(format!(
            "deleting {} {}: {source}",
            K::CONTROLLER,
            object.name_any()
        ))),
    }
}

/// Sends the kind's own spec patch under the cached resourceVersion; a conflict means the
/// object changed meanwhile, and the next round plans again.
async fn patch_spec<K: Reconciled>(ctx: &Context, object: &K, patch: &Value) -> Result<(), Error>
where
    K::Scope: Scoped,
{
    let api: Api<K> = api_of(&ctx.client, object);
    let params = PatchParams {
        field_manager: Some(FIELD_MANAGER.into()),
        ..PatchParams::default()
    };
    let mut patch = patch.clone();
    patch["metadata"]["resourceVersion"] = serde_json::json!(object.resource_version());
    match api
        .patch(&object.name_any(), &params, &Patch::Merge(&patch))
        .await
    {
        Ok(_) => Ok(()),
        Err(kube::Error::Api(s)) if s.is_conflict() => Ok(()),
        Err(source) => Err(Error::PatchSpec {
            kind: K::CONTROLLER,
            name: object.name_any(),
            source,
        }),
    }
}

/// Runs the controller of kind `K` until the shutdown in `serve` resolves, woken by its
/// [`Reconciled::triggers`] besides its own objects, pods and claims.
pub async fn run<K, F>(serve: Serve<F>)
where
    K: Reconciled + Interest + HasStatus,
    K::Scope: Scoped,
    <K as HasStatus>::Status: Default + serde::Serialize,
    F: Future<Output = ()> + Send + Sync + 'static,
{
    let triggers = K::triggers(&serve);
    crate::runtime::controller::serve::<K, _, _, _>(K::CONTROLLER, K::CRD, serve, triggers, reconcile::<K>)
        .await;
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn a_stale_refusal_is_found_and_dropped_with_the_other_conditions_kept() {
        let refused = json!({ "type": "InvalidSpec", "status": "True", "reason": "Refused" });
        let other = json!({ "type": "Ready", "status": "True" });
        let status = json!({ "replicas": 2, "conditions": [refused, other] });
        assert!(has_invalid_spec(&status));
        let cleaned = without_invalid_spec(status);
        assert_eq!(cleaned, json!({ "replicas": 2, "conditions": [other] }));
        assert!(!has_invalid_spec(&cleaned));
        let alone = json!({ "replicas": 2, "conditions": [refused] });
        assert_eq!(without_invalid_spec(alone), json!({ "replicas": 2 }));
        assert_eq!(
            without_invalid_spec(json!({ "replicas": 1 })),
            json!({ "replicas": 1 })
        );
    }
}
