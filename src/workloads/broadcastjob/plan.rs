//! The BroadcastJob planner (upstream's `Reconcile`): a pure function from a [`Snapshot`]
//! (the job, its pods, every node, the clock) to a [`Plan`].
//!
//! ```text
//! finished (Always)? ──yes──> past its TTL? delete the job : wake at the TTL   (no status)
//! start time, phase running ─> pods by node ─> per node: delete a pod that no longer fits,
//!   desired = nodes that fit (with or without a pod), to run = fitting nodes without one
//! failed? ─> status only │ paused? ─> phase paused │ failure policy: Pause / FailFast
//! deadline passed? ─> the job fails: every running pod deleted, Failed condition
//! else: create on the first nodes to run within parallelism; every desired node done ─> Complete
//! ```
//!
//! Invariants (tested in `plan_tests.rs`): never more than `parallelism` pods active after
//! a round; never two pods created for one node, nor a pod on a node that has one; a
//! finished job creates and deletes nothing but itself (its TTL); a `Never` job never
//! completes; the status is returned only when it differs from the stored one.
use std::collections::{BTreeMap, BTreeSet};
use std::time::Duration;

use k8s_openapi::api::core::v1::{Node, Pod, PodSpec};
use k8s_openapi::apimachinery::pkg::apis::meta::v1::Time;
use k8s_openapi::jiff::{SignedDuration, Timestamp};
use kube::ResourceExt;

use super::fitness;
use super::pods::{self, JobPods};
use crate::api::broadcastjob::{BroadcastJob, BroadcastJobStatus, COMPLETION_NEVER, JobCondition};
use crate::runtime::actions::Problem;
use crate::workloads::common::int_or_percent::{self, Amount};

/// Phases, lowercase as upstream writes them.
pub const RUNNING: &str = "running";
pub const PAUSED: &str = "paused";
pub const COMPLETED: &str = "completed";
pub const FAILED: &str = "failed";

/// Everything the planner looks at.
#[derive(Debug, Clone)]
pub struct Snapshot<'a> {
    pub job: &'a BroadcastJob,
    /// Pods the job controls that carry both job labels (terminating ones included).
    pub pods: Vec<&'a Pod>,
    /// Every node, in any order.
    pub nodes: Vec<&'a Node>,
    pub now: Timestamp,
}

/// What a round plans: the driver's [`Planned`](crate::runtime::driver::Planned) of this
/// kind's status; a finished job past its TTL is its `delete_object`.
pub type Plan = crate::runtime::driver::Planned<BroadcastJobStatus>;

/// How the round counts one pod: by its phase, and a live pod over the restart limit as
/// failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Count {
    Active,
    Succeeded,
    Failed,
    /// Terminating and not finished: counted nowhere.
    Leaving,
}

fn phase_of(pod: &Pod) -> &str {
    pod.status.as_ref().and_then(|s| s.phase.as_deref()).unwrap_or("")
}

/// The summed restarts of a pod's init and app containers.
fn restarts(pod: &Pod) -> i32 {
    let status = pod.status.as_ref();
    let init = status
        .and_then(|s| s.init_container_statuses.as_deref())
        .unwrap_or_default();
    let app = status
        .and_then(|s| s.container_statuses.as_deref())
        .unwrap_or_default();
    init.iter().chain(app).map(|c| c.restart_count).sum()
}

fn count(job: &BroadcastJob, pod: &Pod) -> Count {
    match phase_of(pod) {
        "Succeeded" => return Count::Succeeded,
        "Failed" => return Count::Failed,
        _ => {}
    }
    if pod.metadata.deletion_timestamp.is_some() {
        return Count::Leaving;
    }
    let on_failure = pod.spec.as_ref().and_then(|s| s.restart_policy.as_deref()) == Some("OnFailure");
    let limit = job
        .spec
        .failure_policy
        .as_ref()
        .and_then(|f| f.restart_limit)
        .unwrap_or(0);
    if on_failure && restarts(pod) > limit {
        Count::Failed
    } else {
        Count::Active
    }
}

fn is_never(job: &BroadcastJob) -> bool {
    job.spec
        .completion_policy
        .as_ref()
        .and_then(|c| c.type_.as_deref())
        == Some(COMPLETION_NEVER)
}

/// `Complete` or `Failed` with status True.
pub fn is_finished(status: &BroadcastJobStatus) -> bool {
    status
        .conditions
        .iter()
        .flatten()
        .any(|c| (c.type_ == "Complete" || c.type_ == "Failed") && c.status == "True")
}

fn seconds(n: i64) -> SignedDuration {
    SignedDuration::from_secs(n)
}

fn until(now: Timestamp, at: Timestamp) -> Duration {
    Duration::try_from(at.duration_since(now)).unwrap_or(Duration::ZERO)
}

/// The resolved parallelism: *scale(parallelism, desired, up)*, unlimited when unset (or a
/// percentage so large that its share does not fit).
fn parallelism(job: &BroadcastJob, desired: i64) -> Result<i64, String> {
    let Some(value) = job.spec.parallelism.as_ref() else {
        return Ok(i64::from(i32::MAX));
    };
    match int_or_percent::parse("spec.parallelism", value) {
        Ok(Amount::Int(n)) => Ok(n),
        Ok(Amount::Percent(p)) => Ok(int_or_percent::percent_of(
            desired,
            p,
            int_or_percent::Rounding::Up,
        )),
        Err(e) => Err(format!("BroadcastJob {}: {e}", job.name_any())),
    }
}

/// Plans one reconcile of a BroadcastJob that is not being deleted.
pub fn plan(snapshot: &Snapshot<'_>) -> Plan {
    let mut plan = Plan::default();
    let (job, now) = (snapshot.job, snapshot.now);
    let stored = job.status.clone().unwrap_or_default();
    let never = is_never(job);
    let policy = job.spec.completion_policy.clone().unwrap_or_default();
    let (ttl, deadline) = if never {
        (None, None)
    } else {
        (policy.ttl_seconds_after_finished, policy.active_deadline_seconds)
    };

    // A finished job only waits for its TTL.
    if !never && is_finished(&stored) {
        // A completion time so late that its TTL ends past the last representable time
        // never expires.
        if let (Some(ttl), Some(done)) = (ttl, stored.completion_time.as_ref())
            && let Ok(expires) = done.0.checked_add(seconds(i64::from(ttl)))
        {
            if now >= expires {
                plan.delete_object = true;
            } else {
                plan.wake(until(now, expires));
            }
        }
        return plan;
    }

    let mut status = stored.clone();
    let start = status.start_time.get_or_insert(Time(now)).0;
    let deadline = match deadline.map(|d| (d, start.checked_add(seconds(d)))) {
        None => None,
        Some((_, Ok(at))) => Some(at),
        Some((d, Err(_))) => {
            return plan.refuse(
                format!(
                    "BroadcastJob {}: spec.completionPolicy.activeDeadlineSeconds {d} is out of range: the job \
                     started at {start} would end past the last time that can be written; nothing is planned until it is lowered",
                    job.name_any()
                ),
            );
        }
    };
    if let Some(at) = deadline {
        plan.wake(until(now, at));
    }
    if status.phase.as_deref().unwrap_or("").is_empty() {
        status.phase = Some(RUNNING.into());
    }

    // Pods by node, counts, and each node's part.
    let by_node = pods_by_node(snapshot, &mut plan);
    let counts: Vec<(&Pod, Count)> = snapshot.pods.iter().map(|p| (*p, count(job, p))).collect();
    let tally = |kind: Count| counts.iter().filter(|(_, c)| *c == kind).count() as i64;
    let (mut active, succeeded, mut failed) = (
        tally(Count::Active),
        tally(Count::Succeeded),
        tally(Count::Failed),
    );
    let template_spec: PodSpec = job.spec.template.spec.clone().unwrap_or_default();
    let mut nodes: Vec<&Node> = snapshot.nodes.clone();
    nodes.sort_by_key(|n| n.name_any());
    let (mut desired, mut done) = (0_i64, 0_i64);
    let mut unfit: Vec<&Pod> = Vec::new();
    let mut to_run: Vec<String> = Vec::new();
    for node in &nodes {
        let name = node.name_any();
        match by_node.get(name.as_str()) {
            Some(pod) => {
                let terminating = pod.metadata.deletion_timestamp.is_some();
                let spec = pod.spec.clone().unwrap_or_default();
                if !terminating && !fitness::fits(&spec, node) {
                    unfit.push(pod);
                } else {
                    desired += 1;
                    if count(job, pod) != Count::Active {
                        done += 1;
                    }
                }
            }
            None if fitness::fits(&template_spec, node) => {
                desired += 1;
                to_run.push(name);
            }
            None => {}
        }
    }
    let counters = |status: &mut BroadcastJobStatus, active: i64, failed: i64| {
        status.active = Some(active as i32);
        status.succeeded = Some(succeeded as i32);
        status.failed = Some(failed as i32);
        status.desired = Some(desired as i32);
    };
    counters(&mut status, active, failed);

    // A failed job (a Never job that failed fast) only keeps its counters.
    if status.phase.as_deref() == Some(FAILED) {
        return with_status(plan, &stored, status);
    }
    // Pause and resume.
    let paused = job.spec.paused == Some(true);
    let phase = status.phase.clone().unwrap_or_default();
    if paused && (phase == RUNNING || phase == PAUSED) {
        status.phase = Some(PAUSED.into());
        return with_status(plan, &stored, status);
    }
    if !paused && phase == PAUSED {
        status.phase = Some(RUNNING.into());
        plan.notices.push(Problem {
            reason: "Continue",
            message: "continue to process job".into(),
        });
    }

    // The failure policy and the deadline.
    let mut failure: Option<(&'static str, String)> = None;
    if failed > 0 {
        let kind = job.spec.failure_policy.as_ref().and_then(|f| f.type_.as_deref());
        match kind.unwrap_or("FailFast") {
            "Pause" => {
                plan.problems.push(Problem {
                    reason: "Paused",
                    message: "job is paused, due to failed pod".into(),
                });
                status.phase = Some(PAUSED.into());
                return with_status(plan, &stored, status);
            }
            "Continue" => {}
            _ => {
                failure = Some((
                    "failed pod is found",
                    "failure policy is FailurePolicyTypeFailFast and failed pod is found".into(),
                ))
            }
        }
    }
    if failure.is_none()
        && let Some(at) = deadline
        && now >= at
    {
        failure = Some((
            "DeadlineExceeded",
            format!(
                "Job {}/{} was active longer than specified deadline",
                job.namespace().unwrap_or_default(),
                job.name_any()
            ),
        ));
    }

    // The job fails; every pod still running goes.
    if let Some((reason, message)) = failure {
        for (pod, c) in &counts {
            let running =
                pod.metadata.deletion_timestamp.is_none() && !matches!(phase_of(pod), "Succeeded" | "Failed");
            if running {
                plan.actions.push(pods::delete(pod));
                if *c == Count::Active {
                    active -= 1;
                    failed += 1;
                }
            }
        }
        counters(&mut status, active, failed);
        finish(&mut status, "Failed", "Failed", &message, now);
        plan.problems.push(Problem {
            reason,
            message: format!("{message}: {succeeded} pods succeeded, {failed} pods failed"),
        });
        if let Some(ttl) = ttl {
            plan.wake(Duration::from_secs(u64::try_from(ttl).unwrap_or(0) + 1));
        }
        return with_status(plan, &stored, status);
    }

    // The job goes on: pods that no longer fit go; new pods within parallelism; complete?
    for pod in &unfit {
        plan.actions.push(pods::delete(pod));
        if count(job, pod) == Count::Active {
            active -= 1;
            failed += 1;
        }
    }
    let limit = match parallelism(job, desired) {
        Ok(limit) => limit,
        Err(message) => return plan.refuse(message),
    };
    if !to_run.is_empty() {
        if active > limit {
            plan.problems.push(Problem {
                reason: "TooManyActivePods",
                message: "Number of active pods exceed parallelism limit".into(),
            });
        }
        let room = (limit - active).max(0) as usize;
        let taken: BTreeSet<String> = snapshot.pods.iter().map(|p| p.name_any()).collect();
        let mut namer = JobPods::new(job, taken);
        for node in to_run.iter().take(room) {
            plan.actions.push(namer.create_on(node));
            active += 1;
        }
    }
    counters(&mut status, active, failed);
    if !never && desired > 0 && done == desired {
        let message = format!("Job completed, {succeeded} pods succeeded, {failed} pods failed");
        finish(&mut status, "Complete", "Complete", &message, now);
        plan.notices.push(Problem {
            reason: "JobComplete",
            message: message.clone(),
        });
        if let Some(ttl) = ttl {
            plan.wake(Duration::from_secs(u64::try_from(ttl).unwrap_or(0) + 1));
        }
    }
    with_status(plan, &stored, status)
}

/// The job's pods by node; two on one node: a warning, the newest wins.
fn pods_by_node<'a>(snapshot: &Snapshot<'a>, plan: &mut Plan) -> BTreeMap<String, &'a Pod> {
    let mut sorted: Vec<&Pod> = snapshot.pods.clone();
    sorted.sort_by_key(|p| (p.metadata.creation_timestamp.clone().map(|t| t.0), p.name_any()));
    let mut by_node: BTreeMap<String, &Pod> = BTreeMap::new();
    for pod in sorted {
        let Some(node) = crate::workloads::common::node_fit::node_of(pod) else {
            continue;
        };
        if let Some(before) = by_node.insert(node.to_string(), pod) {
            plan.problems.push(Problem {
                reason: "DuplicatePodCreatedOnSameNode",
                message: format!(
                    "pods {} and {} of this job are both on node {node}",
                    before.name_any(),
                    pod.name_any()
                ),
            });
        }
    }
    by_node
}

/// Ends the job: phase, the condition, the completion time.
fn finish(status: &mut BroadcastJobStatus, kind: &str, reason: &str, message: &str, now: Timestamp) {
    status.phase = Some(if kind == "Complete" { COMPLETED } else { FAILED }.into());
    status.conditions.get_or_insert_with(Vec::new).push(JobCondition {
        type_: kind.into(),
        status: "True".into(),
        last_probe_time: Some(Time(now)),
        last_transition_time: Some(Time(now)),
        reason: Some(reason.into()),
        message: Some(message.into()),
    });
    status.completion_time = Some(Time(now));
}

fn with_status(mut plan: Plan, stored: &BroadcastJobStatus, status: BroadcastJobStatus) -> Plan {
    if &status != stored {
        plan.status = Some(status);
    }
    plan
}

#[cfg(test)]
#[path = "plan_tests.rs"]
mod tests;
