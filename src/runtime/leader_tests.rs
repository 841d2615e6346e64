//! Table tests for the pure lease decision.
use super::*;

fn at(s: &str) -> Timestamp {
    s.parse().expect("time")
}

fn lease(holder: Option<&str>, renewed: &str, seconds: i32) -> LeaseSpec {
    LeaseSpec {
        holder_identity: holder.map(str::to_string),
        renew_time: Some(MicroTime(at(renewed))),
        lease_duration_seconds: Some(seconds),
        lease_transitions: Some(2),
        ..LeaseSpec::default()
    }
}

#[test]
fn the_lease_is_created_renewed_waited_for_or_taken_over() {
    let now = at("2026-12-03T12:00:10Z");
    assert_eq!(decide(None, "me", now), Step::Create);
    assert_eq!(
        decide(Some(&lease(Some("me"), "2026-12-03T12:00:00Z", 15)), "me", now),
        Step::Renew
    );
    assert_eq!(
        decide(Some(&lease(Some("other"), "2026-12-03T12:00:00Z", 15)), "me", now),
        Step::Wait {
            holder: "other".into(),
            until: at("2026-12-03T12:00:15Z")
        }
    );
    assert_eq!(
        decide(Some(&lease(Some("other"), "2026-12-03T11:59:50Z", 15)), "me", now),
        Step::TakeOver { transitions: 3 },
        "expired"
    );
    assert_eq!(
        decide(Some(&lease(None, "2026-12-03T12:00:09Z", 1)), "me", now),
        Step::TakeOver { transitions: 3 },
        "released"
    );
}

#[test]
fn a_written_spec_names_the_holder_and_keeps_the_acquire_time_on_renewal() {
    let settings = Settings::new("ns", "kubectl-kruise", "me".into(), Duration::from_secs(15));
    assert_eq!(settings.renew_deadline, Duration::from_secs(10));
    assert_eq!(settings.retry_period, Duration::from_secs(3));
    let now = at("2026-12-03T12:00:10Z");
    let created = spec_for(&Step::Create, None, &settings, now);
    assert_eq!(created.holder_identity.as_deref(), Some("me"));
    assert_eq!(
        (created.lease_duration_seconds, created.lease_transitions),
        (Some(15), Some(0))
    );
    let later = at("2026-12-03T12:00:13Z");
    let renewed = spec_for(&Step::Renew, Some(&created), &settings, later);
    assert_eq!(renewed.acquire_time, created.acquire_time);
    assert_eq!(renewed.renew_time, Some(MicroTime(later)));
    let taken = spec_for(
        &Step::TakeOver { transitions: 4 },
        Some(&created),
        &settings,
        later,
    );
    assert_eq!(
        (taken.lease_transitions, taken.acquire_time),
        (Some(4), Some(MicroTime(later)))
    );
}

#[test]
fn a_live_holder_is_someone_else_within_the_lease_duration() {
    let now = at("2026-12-03T12:00:10Z");
    let held = lease(Some("other"), "2026-12-03T12:00:00Z", 15);
    assert_eq!(live_holder(Some(&held), "me", now), Some("other".into()));
    assert_eq!(live_holder(Some(&held), "other", now), None, "our own");
    let expired = lease(Some("other"), "2026-12-03T11:59:00Z", 15);
    assert_eq!(live_holder(Some(&expired), "me", now), None);
    let released = lease(None, "2026-12-03T12:00:09Z", 1);
    assert_eq!(live_holder(Some(&released), "me", now), None);
    assert_eq!(live_holder(None, "me", now), None);
}
