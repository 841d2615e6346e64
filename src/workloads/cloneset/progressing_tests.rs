use super::*;

fn at(text: &str) -> Timestamp {
    text.parse().expect("time")
}

fn counters(updated: i32, updated_available: i32, current: &str) -> Counters {
    Counters {
        replicas: 4,
        updated_replicas: updated,
        updated_available_replicas: updated_available,
        expected_updated_replicas: 4,
        current_revision: current.into(),
        ..Default::default()
    }
}

fn run(
    c: &Counters,
    stored: Option<&CloneSetCondition>,
    now: &str,
    paused: bool,
) -> (Option<CloneSetCondition>, Option<Duration>) {
    progressing(&ProgressInput {
        progress_deadline_seconds: Some(600),
        paused,
        spec_replicas: 4,
        update_revision: "web-2",
        counters: c,
        stored,
        now: at(now),
    })
}

fn reason(c: &Option<CloneSetCondition>) -> Option<&str> {
    c.as_ref().and_then(|c| c.reason.as_deref())
}

#[test]
fn no_deadline_means_no_condition() {
    let c = counters(0, 0, "web-1");
    let none = progressing(&ProgressInput {
        progress_deadline_seconds: Some(i32::MAX),
        paused: false,
        spec_replicas: 4,
        update_revision: "web-2",
        counters: &c,
        stored: None,
        now: at("2026-12-02T00:00:00Z"),
    });
    assert_eq!(none, (None, None));
}

#[test]
fn step_1_of_3_a_rollout_progresses_and_asks_to_be_woken_at_the_deadline() {
    let (cond, requeue) = run(&counters(1, 0, "web-1"), None, "2026-12-02T00:00:00Z", false);
    assert_eq!(reason(&cond), Some(REASON_UPDATED));
    assert_eq!(requeue, Some(Duration::from_secs(601)));
}

#[test]
fn step_2_of_3_past_the_deadline_it_times_out_and_stays_timed_out() {
    let (started, _) = run(&counters(1, 0, "web-1"), None, "2026-12-02T00:00:00Z", false);
    let (late, _) = run(
        &counters(2, 1, "web-1"),
        started.as_ref(),
        "2026-12-02T00:10:01Z",
        false,
    );
    let late_condition = late.clone().expect("condition");
    assert_eq!(
        (late_condition.status.as_str(), reason(&late)),
        ("False", Some(REASON_DEADLINE_EXCEEDED))
    );
    assert!(late_condition.message.unwrap_or_default().contains("web-2"));
    let (still, _) = run(
        &counters(3, 2, "web-1"),
        late.as_ref(),
        "2026-12-02T00:11:00Z",
        false,
    );
    assert_eq!(reason(&still), Some(REASON_DEADLINE_EXCEEDED), "sticky");
}

#[test]
fn step_3_of_3_becoming_available_clears_the_timeout() {
    let exceeded = CloneSetCondition {
        type_: PROGRESSING.into(),
        status: "False".into(),
        reason: Some(REASON_DEADLINE_EXCEEDED.into()),
        ..Default::default()
    };
    let (cond, requeue) = run(
        &counters(4, 4, "web-2"),
        Some(&exceeded),
        "2026-12-02T00:20:00Z",
        false,
    );
    assert_eq!(
        (cond.as_ref().map(|c| c.status.as_str()), reason(&cond), requeue),
        (Some("True"), Some(REASON_AVAILABLE), None)
    );
}

#[test]
fn a_long_available_spell_does_not_time_out_a_new_rollout() {
    let (available, _) = run(&counters(4, 4, "web-2"), None, "2026-01-01T00:00:00Z", false);
    let (cond, _) = run(
        &counters(0, 0, "web-1"),
        available.as_ref(),
        "2026-12-02T00:00:00Z",
        false,
    );
    assert_eq!(reason(&cond), Some(REASON_UPDATED));
    let cond = cond.expect("condition");
    assert_eq!(
        cond.last_transition_time.map(|t| t.0),
        Some(at("2026-01-01T00:00:00Z")),
        "same status keeps the transition time"
    );
    assert_eq!(
        cond.last_update_time.map(|t| t.0),
        Some(at("2026-12-02T00:00:00Z")),
        "new reason refreshes the update time"
    );
}

#[test]
fn paused_and_partition_ready_are_reported_as_such() {
    let (paused, _) = run(&counters(1, 0, "web-1"), None, "2026-12-02T00:00:00Z", true);
    assert_eq!(reason(&paused), Some(REASON_PAUSED));
    let mut partitioned = counters(2, 2, "web-1");
    partitioned.expected_updated_replicas = 2;
    let (held, _) = run(&partitioned, None, "2026-12-02T00:00:00Z", false);
    assert_eq!(reason(&held), Some(REASON_PARTITION_AVAILABLE));
}
