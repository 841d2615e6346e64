//! The AdvancedCronJob on the shared reconcile driver ([`crate::runtime::driver`]): its
//! snapshot (the Jobs or BroadcastJobs it controls, from child watches) and how a failed
//! child create shows in its status. It has no reconcile, event or status-write code of
//! its own.
//!
//! ```text
//! AdvancedCronJob event ─┐
//! its Job event          ├─> driver: expectations ─> plan (pure) ─> executor ─> status
//! its BroadcastJob event ┘   ─> requeue at the next run
//! ```
//!
//! Children belong to a job by their controller owner reference (its uid; upstream matches
//! the owner's name, so a job re-created under the same name after `--cascade=orphan`
//! adopts the old children there and not here). Unlike upstream, Job events wake the job
//! (upstream watches Jobs as if BroadcastJob owned them, so its status lags).
use k8s_openapi::api::batch::v1::Job;
use k8s_openapi::jiff::Timestamp;
use kube::ResourceExt;

use super::plan::{self, Child, ChildKind, Snapshot};
use crate::api::broadcastjob::BroadcastJob;
use crate::api::cronjob::{AdvancedCronJob, AdvancedCronJobStatus};
use crate::runtime::controller::{Context, Error, Serve};
use crate::runtime::rbac::{KRUISE, Rule, rule};

pub const CONTROLLER: &str = "AdvancedCronJob";

/// The children of `job` of its template's kind, as the planner sees them.
fn children(ctx: &Context, job: &AdvancedCronJob) -> Vec<Child> {
    let uid = job.uid().unwrap_or_default();
    let kind = ChildKind::of(job);
    let resource = kind.resource();
    match kind {
        ChildKind::Job => views::<Job>(ctx, &uid, &resource, |j| {
            let status = j.status.as_ref();
            let conditions = status.and_then(|s| s.conditions.as_deref()).unwrap_or_default();
            let pairs = conditions
                .iter()
                .map(|c| (c.type_.clone(), c.status.clone()))
                .collect();
            (pairs, status.and_then(|s| s.start_time.as_ref()).map(|t| t.0))
        }),
        ChildKind::BroadcastJob => views::<BroadcastJob>(ctx, &uid, &resource, |b| {
            let status = b.status.as_ref();
            let conditions = status.and_then(|s| s.conditions.as_deref()).unwrap_or_default();
            let pairs = conditions
                .iter()
                .map(|c| (c.type_.clone(), c.status.clone()))
                .collect();
            (pairs, status.and_then(|s| s.start_time.as_ref()).map(|t| t.0))
        }),
        ChildKind::ImageListPullJob => Vec::new(),
    }
}

/// What it needs beyond the shared runtime's permissions and the shared groups below.
const OWN_RULES: &[Rule] = &[
    rule(KRUISE, &["advancedcronjobs"], &["list", "watch"]),
    rule(KRUISE, &["advancedcronjobs/status"], &["patch"]),
    rule(KRUISE, &["advancedcronjobs/finalizers"], &["update"]),
    // What it runs: a Job or a BroadcastJob.
    rule("batch", &["jobs"], &["list", "watch", "create", "delete"]),
    rule(KRUISE, &["broadcastjobs"], &["list", "watch", "create", "delete"]),
];

/// The cached children of kind `C` controlled by `uid`, each read by `read` into its
/// conditions' `(type, status)` and its start time.
fn views<C>(
    ctx: &Context,
    uid: &str,
    resource: &kube::core::ApiResource,
    read: impl Fn(&C) -> (Vec<(String, String)>, Option<Timestamp>),
) -> Vec<Child>
where
    C: kube::Resource<DynamicType = ()> + Clone + Send + Sync + 'static,
{
    ctx.children
        .get::<C>()
        .map(|w| w.controlled_by(uid))
        .unwrap_or_default()
        .iter()
        .map(|c| {
            let (conditions, start) = read(c);
            let pairs = conditions.iter().map(|(k, v)| (k.as_str(), v.as_str()));
            Child::new(resource, c.meta(), pairs, start)
        })
        .collect()
}

impl crate::runtime::driver::Reconciled for AdvancedCronJob {
    const CONTROLLER: &'static str = CONTROLLER;
    const DRIVES: &'static str = "AdvancedCronJob";
    const CRD: &'static str = "advancedcronjobs.apps.kruise.io";
    const RULES: &'static [&'static [Rule]] = &[OWN_RULES];
    type Revisions = crate::runtime::driver::NoRevisions;
    type Status = AdvancedCronJobStatus;

    /// The Jobs and BroadcastJobs it runs.
    fn triggers<F>(serve: &Serve<F>) -> crate::runtime::triggers::Triggers<Self> {
        let (client, namespace) = (&serve.client, serve.namespace.as_deref());
        crate::runtime::triggers::Triggers::new()
            .children::<Job>(client, namespace, |_, _| false)
            .children::<BroadcastJob>(client, namespace, |_, _| false)
    }

    fn plan(
        &self,
        ctx: &Context,
        _history: &crate::runtime::history::History,
        now: Timestamp,
    ) -> crate::runtime::driver::Planned<AdvancedCronJobStatus> {
        let snapshot = Snapshot {
            job: self,
            children: children(ctx, self),
            now,
        };
        plan::plan(&snapshot)
    }

    /// A failed child create leaves the `FailedCreate` condition; the schedule goes on.
    fn with_failure(
        &self,
        planned: Option<AdvancedCronJobStatus>,
        error: &Error,
    ) -> Option<AdvancedCronJobStatus> {
        use crate::runtime::context::FailedWrite;
        if error.failed_write() != Some(FailedWrite::Create) {
            return planned;
        }
        let mut status = planned.or_else(|| self.status.clone()).unwrap_or_default();
        let conditions = status.conditions.get_or_insert_with(Vec::new);
        conditions.retain(|c| c.type_ != plan::CREATE_FAILED);
        conditions.push(plan::create_failed(&error.to_string(), Timestamp::now()));
        Some(status)
    }
}

/// An AdvancedCronJob wants no orphan pod and owns no claim.
impl crate::runtime::controller::Interest for AdvancedCronJob {}
