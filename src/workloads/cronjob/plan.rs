//! The AdvancedCronJob planner (upstream's `reconcileJob` and `reconcileBroadcastJob`): a
//! pure function of (spec, children, now) to a [`Plan`], the same for Job and BroadcastJob
//! children.
//!
//! ```text
//! children ─> finished (Complete / Failed True) or active ─> status (type, active,
//!   lastScheduleTime) ─> history limits prune the oldest finished ─> paused? stop
//! ─> the latest missed run in (lastScheduleTime or creation, now], within the deadline
//!   ─> Forbid with one active? wait │ Replace? delete the active ─> create <name>-<unix>
//! ─> wake at the next run
//! ```
//!
//! Invariants (tested in `plan_tests.rs`): at most one child created per round, and only
//! for a scheduled time not yet started (its name is the time; `lastScheduleTime` is
//! kept in the status, so a child pruned by the history limits is not started again);
//! never a run while paused, or later than `startingDeadlineSeconds`; every round that
//! is not paused asks to be woken at the next run.
use std::time::Duration;

use k8s_openapi::api::core::v1::ObjectReference;
use k8s_openapi::apimachinery::pkg::apis::meta::v1::{ObjectMeta, OwnerReference, Time};
use k8s_openapi::jiff::{SignedDuration, Timestamp};
use kube::core::{ApiResource, DynamicObject};
use kube::{Resource, ResourceExt};
use serde_json::json;

use super::schedule;
use crate::api::common::Condition;
use crate::api::cronjob::{
    AdvancedCronJob, AdvancedCronJobStatus, ConcurrencyPolicy, SCHEDULED_AT_ANNOTATION,
};
use crate::runtime::actions::{Action, ChildAction, Problem};

/// More missed runs than this: a warning (the latest still runs).
pub const MISSED_CAP: usize = 100;
/// The condition a failed child create leaves (cleared by the next create).
pub const CREATE_FAILED: &str = "FailedCreate";

/// The kind of child the template makes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ChildKind {
    Job,
    BroadcastJob,
    /// v1beta1's ImageListPullJob: kept, never started (no node agent here).
    ImageListPullJob,
}

impl ChildKind {
    pub fn of(job: &AdvancedCronJob) -> Self {
        let template = &job.spec.template;
        if template.job_template.is_some() {
            ChildKind::Job
        } else if template.image_list_pull_job_template.is_some() {
            ChildKind::ImageListPullJob
        } else {
            ChildKind::BroadcastJob
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            ChildKind::Job => "Job",
            ChildKind::BroadcastJob => "BroadcastJob",
            ChildKind::ImageListPullJob => "ImageListPullJob",
        }
    }

    pub fn resource(self) -> ApiResource {
        match self {
            ChildKind::Job => ApiResource::erase::<k8s_openapi::api::batch::v1::Job>(&()),
            _ => ApiResource::erase::<crate::api::broadcastjob::BroadcastJob>(&()),
        }
    }
}

/// How a child ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Finished {
    Succeeded,
    Failed,
}

/// One child as the planner sees it (a Job or a BroadcastJob).
#[derive(Debug, Clone, PartialEq)]
pub struct Child {
    pub reference: ObjectReference,
    pub finished: Option<Finished>,
    pub start_time: Option<Timestamp>,
    /// Its `apps.kruise.io/scheduled-at` annotation.
    pub scheduled_at: Option<Timestamp>,
}

impl Child {
    /// A child from its metadata and its conditions' `(type, status)`.
    pub fn new<'c>(
        resource: &ApiResource,
        meta: &ObjectMeta,
        conditions: impl IntoIterator<Item = (&'c str, &'c str)>,
        start_time: Option<Timestamp>,
    ) -> Self {
        let mut finished = None;
        for (kind, status) in conditions {
            match (kind, status) {
                ("Complete", "True") => finished = Some(Finished::Succeeded),
                ("Failed", "True") => finished = Some(Finished::Failed),
                _ => {}
            }
        }
        let scheduled_at = meta
            .annotations
            .as_ref()
            .and_then(|a| a.get(SCHEDULED_AT_ANNOTATION))
            .and_then(|s| s.parse::<Timestamp>().ok());
        Child {
            reference: ObjectReference {
                kind: Some(resource.kind.clone()),
                api_version: Some(resource.api_version.clone()),
                namespace: meta.namespace.clone(),
                name: meta.name.clone(),
                uid: meta.uid.clone(),
                // Not the resourceVersion (upstream's has it): every change of a running
                // child would rewrite the status for nothing.
                ..ObjectReference::default()
            },
            finished,
            start_time,
            scheduled_at,
        }
    }

    fn name(&self) -> String {
        self.reference.name.clone().unwrap_or_default()
    }

    fn delete(&self, resource: &ApiResource) -> Action {
        Action::Child(ChildAction::Delete {
            resource: resource.clone(),
            namespace: self.reference.namespace.clone().unwrap_or_default(),
            name: self.name(),
            uid: self.reference.uid.clone().unwrap_or_default(),
        })
    }
}

/// Everything the planner looks at.
#[derive(Debug, Clone)]
pub struct Snapshot<'a> {
    pub job: &'a AdvancedCronJob,
    /// The children of the template's kind that the job controls.
    pub children: Vec<Child>,
    pub now: Timestamp,
}

/// What a round plans: the driver's [`Planned`](crate::runtime::driver::Planned) of this
/// kind's status; its wake-up is the next run (None: paused, or no run ever again).
pub type Plan = crate::runtime::driver::Planned<AdvancedCronJobStatus>;

fn later(a: Option<Timestamp>, b: Option<Timestamp>) -> Option<Timestamp> {
    match (a, b) {
        (Some(a), Some(b)) => Some(a.max(b)),
        (a, b) => a.or(b),
    }
}

/// Plans one reconcile of an AdvancedCronJob that is not being deleted.
pub fn plan(snapshot: &Snapshot<'_>) -> Plan {
    let mut plan = Plan::default();
    let (job, now) = (snapshot.job, snapshot.now);
    let kind = ChildKind::of(job);
    let resource = kind.resource();
    let stored = job.status.clone().unwrap_or_default();

    // Status: the kind, the active children, the latest scheduled time (kept once seen).
    let mut children = snapshot.children.clone();
    children.sort_by_key(Child::name);
    let active: Vec<&Child> = children.iter().filter(|c| c.finished.is_none()).collect();
    let mut status = stored.clone();
    status.type_ = Some(kind.name().into());
    status.active = (!active.is_empty()).then(|| active.iter().map(|c| c.reference.clone()).collect());
    let seen = children.iter().filter_map(|c| c.scheduled_at).max();
    let last = later(stored.last_schedule_time.as_ref().map(|t| t.0), seen);
    status.last_schedule_time = last.map(Time);

    // History: the oldest finished children beyond each limit go.
    let limits = [
        (Finished::Failed, job.spec.failed_jobs_history_limit.unwrap_or(1)),
        (
            Finished::Succeeded,
            job.spec.successful_jobs_history_limit.unwrap_or(3),
        ),
    ];
    for (outcome, limit) in limits {
        let mut done: Vec<&Child> = children.iter().filter(|c| c.finished == Some(outcome)).collect();
        done.sort_by_key(|c| (c.start_time, c.name()));
        let extra = done
            .len()
            .saturating_sub(usize::try_from(limit.max(0)).unwrap_or(0));
        for child in done.into_iter().take(extra) {
            plan.actions.push(child.delete(&resource));
        }
    }

    if job.spec.paused == Some(true) {
        return with_status(plan, &stored, status);
    }
    if kind == ChildKind::ImageListPullJob {
        plan.problems.push(Problem {
            reason: "UnsupportedTemplate",
            message: format!(
                "AdvancedCronJob {}: spec.template.imageListPullJobTemplate is kept but never started (image pulls need OpenKruise's node agent)",
                job.name_any()
            ),
        });
        return with_status(plan, &stored, status);
    }
    let schedule = match schedule::parse(&job.spec.schedule, job.spec.time_zone.as_deref()) {
        Ok(s) => s,
        Err(e) => return plan.refuse(format!("AdvancedCronJob {}: {e}", job.name_any())),
    };
    let deadline = job.spec.starting_deadline_seconds;
    // The earliest run the deadline still allows.
    let allowed = match deadline.map(|seconds| (seconds, now.checked_sub(SignedDuration::from_secs(seconds))))
    {
        None => None,
        Some((_, Ok(at))) => Some(at),
        Some((seconds, Err(_))) => {
            return plan.refuse(
                format!(
                    "AdvancedCronJob {}: spec.startingDeadlineSeconds {seconds} is out of range: it reaches past the \
                     first or last time that can be written; nothing is planned until it is lowered",
                    job.name_any()
                ),
            );
        }
    };
    if let Some(next) = schedule.next(now) {
        plan.requeue_after = Some(Duration::try_from(next.duration_since(now)).unwrap_or(Duration::ZERO));
    }

    // The latest missed run.
    let created = job
        .metadata
        .creation_timestamp
        .as_ref()
        .map(|t| t.0)
        .unwrap_or(now);
    let mut earliest = last.unwrap_or(created);
    if let Some(allowed) = allowed {
        earliest = earliest.max(allowed);
    }
    let Some((missed, count)) = (earliest <= now)
        .then(|| schedule.latest_between(earliest, now, MISSED_CAP))
        .flatten()
    else {
        return with_status(plan, &stored, status);
    };
    if count > MISSED_CAP {
        plan.problems.push(Problem {
            reason: "TooManyMissedTimes",
            message: format!(
                "AdvancedCronJob {}: more than {MISSED_CAP} missed start times; starting only the latest. Set or decrease spec.startingDeadlineSeconds or check clock skew",
                job.name_any()
            ),
        });
    }
    // A deadline that ends past the last representable time has not passed.
    if let Some(seconds) = deadline
        && missed
            .checked_add(SignedDuration::from_secs(seconds))
            .is_ok_and(|end| end < now)
    {
        return with_status(plan, &stored, status);
    }
    let name = child_name(job, missed);
    if children.iter().any(|c| c.name() == name) {
        // Already started (the status had not caught up).
        return with_status(plan, &stored, status);
    }
    let policy = job.spec.concurrency_policy.unwrap_or(ConcurrencyPolicy::Allow);
    if policy == ConcurrencyPolicy::Forbid && !active.is_empty() {
        return with_status(plan, &stored, status);
    }
    if policy == ConcurrencyPolicy::Replace {
        for child in &active {
            plan.actions.push(child.delete(&resource));
        }
    }
    if let Some(object) = child_object(job, kind, Some(schedule.format(missed)), &name) {
        plan.actions.push(Action::Child(ChildAction::Create {
            resource,
            object: Box::new(object),
        }));
        if let Some(conditions) = status.conditions.as_mut() {
            conditions.retain(|c| c.type_ != CREATE_FAILED);
            if conditions.is_empty() {
                status.conditions = None;
            }
        }
    }
    with_status(plan, &stored, status)
}

/// `<job>-<scheduled time in unix seconds>`, as upstream names children.
pub fn child_name(job: &AdvancedCronJob, at: Timestamp) -> String {
    format!("{}-{}", job.name_any(), at.as_second())
}

fn controller_ref(job: &AdvancedCronJob) -> OwnerReference {
    OwnerReference {
        block_owner_deletion: Some(true),
        ..job.controller_owner_ref(&()).unwrap_or_default()
    }
}

/// The annotation a child started by hand carries (`kubectl kruise create job --from`).
pub const INSTANTIATE_ANNOTATION: &str = "apps.kruise.io/instantiate";

/// The child named `name`: the template's labels, annotations and spec, a controller
/// reference to the job, and `apps.kruise.io/scheduled-at` for a scheduled run (None: a
/// run started by hand, marked `apps.kruise.io/instantiate: manual` instead).
pub fn child_object(
    job: &AdvancedCronJob,
    kind: ChildKind,
    scheduled_at: Option<String>,
    name: &str,
) -> Option<DynamicObject> {
    let template = &job.spec.template;
    let (metadata, spec) = match kind {
        ChildKind::Job => {
            let t = template.job_template.as_ref()?;
            (t.metadata.clone(), serde_json::to_value(&t.spec).ok()?)
        }
        ChildKind::BroadcastJob => {
            let t = template.broadcast_job_template.as_ref()?;
            (t.metadata.clone(), serde_json::to_value(&t.spec).ok()?)
        }
        ChildKind::ImageListPullJob => return None,
    };
    let metadata = metadata.unwrap_or_default();
    let mut annotations = metadata.annotations.unwrap_or_default();
    match scheduled_at {
        Some(at) => annotations.insert(SCHEDULED_AT_ANNOTATION.into(), at),
        None => annotations.insert(INSTANTIATE_ANNOTATION.into(), "manual".into()),
    };
    let resource = kind.resource();
    let mut object = DynamicObject::new(name, &resource).within(&job.namespace().unwrap_or_default());
    object.metadata.labels = metadata.labels;
    object.metadata.annotations = Some(annotations);
    object.metadata.owner_references = Some(vec![controller_ref(job)]);
    object.data = json!({ "spec": spec });
    Some(object)
}

/// The condition a failed child create leaves in the status (the schedule goes on).
pub fn create_failed(message: &str, now: Timestamp) -> Condition {
    Condition {
        type_: CREATE_FAILED.into(),
        status: "True".into(),
        last_transition_time: Some(Time(now)),
        reason: Some(CREATE_FAILED.into()),
        message: Some(message.into()),
        observed_generation: None,
    }
}

fn with_status(mut plan: Plan, stored: &AdvancedCronJobStatus, status: AdvancedCronJobStatus) -> Plan {
    if &status != stored {
        plan.status = Some(status);
    }
    plan
}

#[cfg(test)]
#[path = "plan_tests.rs"]
mod tests;
