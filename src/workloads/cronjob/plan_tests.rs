//! Table and property tests for the AdvancedCronJob planner: one scheduled run per round,
//! the concurrency policies, the deadline, history limits, pause.
use proptest::prelude::*;
use serde_json::{Value, json};

use super::*;
use crate::workloads::common::test_views::merged;

fn t(s: &str) -> Timestamp {
    s.parse().expect("timestamp")
}

/// An hourly job created at 09:30 with a Job template; `extra` merged into its spec.
fn acj(extra: Value, status: Value) -> AdvancedCronJob {
    let spec = merged(
        json!({
            "schedule": "0 * * * *",
            "template": { "jobTemplate": {
                "metadata": { "labels": { "team": "data" }, "annotations": { "note": "nightly" } },
                "spec": { "template": { "spec": { "restartPolicy": "Never",
                    "containers": [{ "name": "c", "image": "busybox" }] } } } } },
        }),
        extra,
    );
    serde_json::from_value(json!({
        "apiVersion": "apps.kruise.io/v1alpha1", "kind": "AdvancedCronJob",
        "metadata": { "name": "report", "namespace": "ns", "uid": "acj-uid",
            "creationTimestamp": "2026-12-04T09:30:00Z" },
        "spec": spec, "status": status,
    }))
    .expect("acj")
}

/// A Job child for the run at `at` (`finished`: Some(true) succeeded, Some(false) failed).
fn child(at: &str, finished: Option<bool>) -> Child {
    let when = t(at);
    let conditions: Vec<(&str, &str)> = match finished {
        Some(true) => vec![("Complete", "True")],
        Some(false) => vec![("Failed", "True")],
        None => vec![],
    };
    let meta: ObjectMeta = serde_json::from_value(json!({
        "name": format!("report-{}", when.as_second()), "namespace": "ns", "uid": format!("u-{}", when.as_second()),
        "annotations": { SCHEDULED_AT_ANNOTATION: at },
    }))
    .expect("meta");
    Child::new(&ChildKind::Job.resource(), &meta, conditions, Some(when))
}

fn run(job: &AdvancedCronJob, children: Vec<Child>, now: &str) -> Plan {
    plan(&Snapshot {
        job,
        children,
        now: t(now),
    })
}

fn created(plan: &Plan) -> Vec<DynamicObject> {
    plan.actions
        .iter()
        .filter_map(|a| match a {
            Action::Child(ChildAction::Create { object, .. }) => Some((**object).clone()),
            _ => None,
        })
        .collect()
}

fn deleted(plan: &Plan) -> Vec<String> {
    crate::workloads::common::test_views::deleted_children(&plan.actions)
}

#[test]
fn a_due_run_creates_one_job_named_for_its_time_with_the_template_and_scheduled_at() {
    let plan = run(&acj(json!({}), json!({})), vec![], "2026-12-04T10:00:05Z");
    let jobs = created(&plan);
    assert_eq!(jobs.len(), 1);
    let job = &jobs[0];
    let at = t("2026-12-04T10:00:00Z");
    assert_eq!(job.name_any(), format!("report-{}", at.as_second()));
    assert_eq!(job.labels().get("team").map(String::as_str), Some("data"));
    assert_eq!(job.annotations().get("note").map(String::as_str), Some("nightly"));
    assert_eq!(
        job.annotations().get(SCHEDULED_AT_ANNOTATION).map(String::as_str),
        Some("2026-12-04T10:00:00Z")
    );
    assert_eq!(job.data["spec"]["template"]["spec"]["restartPolicy"], "Never");
    let owner = &job.owner_references()[0];
    assert_eq!((owner.uid.as_str(), owner.controller), ("acj-uid", Some(true)));
    assert_eq!(
        plan.requeue_after,
        Some(Duration::from_secs(3595)),
        "woken at 11:00"
    );
    assert_eq!(plan.status.as_ref().and_then(|s| s.type_.as_deref()), Some("Job"));
}

#[test]
fn nothing_is_due_before_the_first_run_and_a_started_run_is_not_started_again() {
    let early = run(&acj(json!({}), json!({})), vec![], "2026-12-04T09:45:00Z");
    assert!(created(&early).is_empty());
    assert_eq!(early.requeue_after, Some(Duration::from_secs(900)));
    let started = vec![child("2026-12-04T10:00:00Z", None)];
    let again = run(&acj(json!({}), json!({})), started, "2026-12-04T10:30:00Z");
    assert!(created(&again).is_empty());
    let status = again.status.expect("status");
    assert_eq!(
        status.last_schedule_time.map(|t| t.0),
        Some(t("2026-12-04T10:00:00Z"))
    );
    assert_eq!(status.active.map(|a| a.len()), Some(1));
}

#[test]
fn only_the_latest_missed_run_starts_and_too_many_missed_says_so() {
    let plan = run(&acj(json!({}), json!({})), vec![], "2026-12-04T13:20:00Z");
    let jobs = created(&plan);
    assert_eq!(jobs.len(), 1);
    assert_eq!(
        jobs[0].name_any(),
        format!("report-{}", t("2026-12-04T13:00:00Z").as_second())
    );
    assert!(plan.problems.is_empty());
    let minutely = acj(json!({ "schedule": "* * * * *" }), json!({}));
    let plan = run(&minutely, vec![], "2026-12-04T13:20:30Z");
    assert_eq!(plan.problems[0].reason, "TooManyMissedTimes");
    assert_eq!(
        created(&plan)[0].name_any(),
        format!("report-{}", t("2026-12-04T13:20:00Z").as_second())
    );
}

#[test]
fn the_starting_deadline_skips_a_late_run_and_zero_means_never() {
    let late = acj(json!({ "startingDeadlineSeconds": 60 }), json!({}));
    assert!(created(&run(&late, vec![], "2026-12-04T10:02:00Z")).is_empty());
    assert_eq!(created(&run(&late, vec![], "2026-12-04T10:00:30Z")).len(), 1);
    let never = acj(json!({ "startingDeadlineSeconds": 0 }), json!({}));
    assert!(created(&run(&never, vec![], "2026-12-04T10:00:00Z")).is_empty());
    assert!(created(&run(&never, vec![], "2026-12-04T10:00:01Z")).is_empty());
}

#[test]
fn forbid_waits_for_the_active_run_and_replace_deletes_it() {
    let running = || vec![child("2026-12-04T10:00:00Z", None)];
    let forbid = acj(json!({ "concurrencyPolicy": "Forbid" }), json!({}));
    assert!(created(&run(&forbid, running(), "2026-12-04T11:00:10Z")).is_empty());
    let replace = acj(json!({ "concurrencyPolicy": "Replace" }), json!({}));
    let plan = run(&replace, running(), "2026-12-04T11:00:10Z");
    assert_eq!(
        deleted(&plan),
        [format!("report-{}", t("2026-12-04T10:00:00Z").as_second())]
    );
    assert_eq!(created(&plan).len(), 1);
    let allow = acj(json!({}), json!({}));
    let plan = run(&allow, running(), "2026-12-04T11:00:10Z");
    assert!(deleted(&plan).is_empty());
    assert_eq!(created(&plan).len(), 1);
}

#[test]
fn history_limits_prune_the_oldest_finished_children() {
    let children = vec![
        child("2026-12-04T06:00:00Z", Some(true)),
        child("2026-12-04T07:00:00Z", Some(false)),
        child("2026-12-04T08:00:00Z", Some(true)),
        child("2026-12-04T09:00:00Z", Some(false)),
        child("2026-12-04T10:00:00Z", Some(true)),
    ];
    let job = acj(
        json!({ "successfulJobsHistoryLimit": 2, "failedJobsHistoryLimit": 1 }),
        json!({}),
    );
    let plan = run(&job, children.clone(), "2026-12-04T10:30:00Z");
    let name = |at: &str| format!("report-{}", t(at).as_second());
    assert_eq!(
        deleted(&plan),
        [name("2026-12-04T07:00:00Z"), name("2026-12-04T06:00:00Z")]
    );
    // With both limits at 0 everything finished goes, and the kept lastScheduleTime stops
    // the same run from starting again.
    let none = acj(
        json!({ "successfulJobsHistoryLimit": 0, "failedJobsHistoryLimit": 0 }),
        json!({ "lastScheduleTime": "2026-12-04T10:00:00Z" }),
    );
    let plan = run(&none, vec![], "2026-12-04T10:30:00Z");
    assert!(created(&plan).is_empty());
}

#[test]
fn paused_starts_nothing_but_keeps_the_history_tidy() {
    let job = acj(
        json!({ "paused": true, "successfulJobsHistoryLimit": 0 }),
        json!({}),
    );
    let plan = run(
        &job,
        vec![child("2026-12-04T06:00:00Z", Some(true))],
        "2026-12-04T12:00:10Z",
    );
    assert!(created(&plan).is_empty());
    assert_eq!(deleted(&plan).len(), 1);
    assert_eq!(plan.requeue_after, None);
}

#[test]
fn a_broadcastjob_template_makes_broadcastjobs() {
    let job = acj(
        json!({ "template": { "broadcastJobTemplate": { "spec": { "template": { "spec": {
            "restartPolicy": "Never", "containers": [{ "name": "c", "image": "busybox" }] } } } } } }),
        json!({}),
    );
    let plan = run(&job, vec![], "2026-12-04T10:00:05Z");
    let Some(Action::Child(ChildAction::Create { resource, object })) = plan.actions.first() else {
        panic!("a create: {:?}", plan.actions)
    };
    assert_eq!(
        (resource.kind.as_str(), resource.group.as_str()),
        ("BroadcastJob", "apps.kruise.io")
    );
    assert_eq!(object.data["spec"]["template"]["spec"]["restartPolicy"], "Never");
    assert_eq!(plan.status.and_then(|s| s.type_), Some("BroadcastJob".into()));
}

#[test]
fn a_zone_shifts_the_run_and_the_annotation_carries_its_offset() {
    let job = acj(
        json!({ "schedule": "0 10 * * *", "timeZone": "Asia/Shanghai" }),
        json!({}),
    );
    let plan = run(&job, vec![], "2026-12-05T02:00:01Z");
    let jobs = created(&plan);
    assert_eq!(
        jobs[0]
            .annotations()
            .get(SCHEDULED_AT_ANNOTATION)
            .map(String::as_str),
        Some("2026-12-05T10:00:00+08:00")
    );
}

#[test]
fn a_bad_schedule_is_refused_naming_the_field() {
    let job = acj(json!({ "schedule": "0 * * * 7" }), json!({}));
    let plan = run(&job, vec![], "2026-12-04T10:00:05Z");
    let refused = plan.refused.expect("refused");
    assert!(
        refused.contains("spec.schedule") && refused.contains("field 5"),
        "{refused}"
    );
    assert!(plan.actions.is_empty());
}

#[test]
fn a_starting_deadline_past_the_first_or_last_writable_time_is_refused_naming_the_field() {
    for seconds in [i64::MAX, i64::MIN] {
        let job = acj(json!({ "startingDeadlineSeconds": seconds }), json!({}));
        let plan = run(&job, vec![], "2026-12-04T10:00:05Z");
        let refused = plan.refused.expect("refused");
        assert!(refused.contains("spec.startingDeadlineSeconds"), "{refused}");
        assert!(plan.actions.is_empty());
    }
}

#[test]
fn a_starting_deadline_that_ends_past_the_last_writable_time_has_not_passed() {
    // 09:30 minus 300 billion seconds can be written, 10:00 plus them cannot.
    let job = acj(
        json!({ "startingDeadlineSeconds": 300_000_000_000_i64 }),
        json!({}),
    );
    let plan = run(&job, vec![], "2026-12-04T10:00:05Z");
    assert!(plan.refused.is_none());
    assert_eq!(created(&plan).len(), 1);
}

proptest! {
    /// Whatever the clock and the children: at most one create per round, never for a
    /// time already started or not yet due; paused never creates; a create is always for
    /// a scheduled time after the last one.
    #[test]
    fn one_due_run_at_most(
        minutes in 0i64..600,
        started in proptest::collection::vec(0i64..10, 0..4),
        paused in any::<bool>(),
        policy in 0u8..3,
    ) {
        let policy = ["Allow", "Forbid", "Replace"][policy as usize];
        let now = t("2026-12-04T09:30:00Z") + k8s_openapi::jiff::SignedDuration::from_mins(minutes);
        let children: Vec<Child> = started
            .iter()
            .map(|h| t("2026-12-04T10:00:00Z") + k8s_openapi::jiff::SignedDuration::from_hours(*h))
            .filter(|at| *at <= now)
            .map(|at| child(&at.to_string(), None))
            .collect();
        let job = acj(json!({ "paused": paused, "concurrencyPolicy": policy }), json!({}));
        let plan = run(&job, children.clone(), &now.to_string());
        let made = created(&plan);
        prop_assert!(made.len() <= 1);
        if paused { prop_assert!(made.is_empty()); }
        for object in &made {
            let at: Timestamp = object.annotations()[SCHEDULED_AT_ANNOTATION].parse().expect("at");
            prop_assert!(at <= now);
            prop_assert!(children.iter().all(|c| c.scheduled_at.is_none_or(|s| s < at)));
        }
        if !paused { prop_assert!(plan.requeue_after.is_some()); }
    }
}
