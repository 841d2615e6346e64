//! Table tests for schedules: upstream's grammar, zones, day matching, leap days and
//! daylight saving time.
use super::*;

fn t(s: &str) -> Timestamp {
    s.parse().expect("timestamp")
}

fn next(schedule: &str, zone: Option<&str>, after: &str) -> String {
    parse(schedule, zone)
        .unwrap_or_else(|e| panic!("{schedule}: {e}"))
        .next(t(after))
        .map(|t| t.to_string())
        .unwrap_or_else(|| "never".into())
}

fn refused(schedule: &str) -> String {
    parse(schedule, None)
        .err()
        .unwrap_or_else(|| panic!("{schedule:?} was accepted"))
        .to_string()
}

#[test]
fn the_reference_examples_in_utc_and_in_a_zone() {
    assert_eq!(
        next("0 10 * * ?", None, "2022-09-05T09:01:00Z"),
        "2022-09-05T10:00:00Z"
    );
    assert_eq!(
        next("0 10 * * ?", Some("Asia/Shanghai"), "2022-09-05T09:01:00Z"),
        "2022-09-06T02:00:00Z"
    );
    assert_eq!(
        next("TZ=Asia/Shanghai 0 10 * * ?", None, "2022-09-05T09:01:00Z"),
        "2022-09-06T02:00:00Z"
    );
    assert_eq!(
        next("CRON_TZ=Asia/Shanghai 0 10 * * ?", None, "2022-09-05T09:01:00Z"),
        "2022-09-06T02:00:00Z"
    );
}

#[test]
fn next_is_strictly_after_and_at_whole_seconds() {
    assert_eq!(
        next("* * * * *", None, "2026-12-04T12:00:00Z"),
        "2026-12-04T12:01:00Z"
    );
    assert_eq!(
        next("* * * * *", None, "2026-12-04T12:00:59.9Z"),
        "2026-12-04T12:01:00Z"
    );
    assert_eq!(
        next("*/15 * * * *", None, "2026-12-04T12:07:00Z"),
        "2026-12-04T12:15:00Z"
    );
    assert_eq!(
        next("5/20 * * * *", None, "2026-12-04T12:07:00Z"),
        "2026-12-04T12:25:00Z"
    );
    assert_eq!(
        next("0 9-17/4 * * *", None, "2026-12-04T12:00:00Z"),
        "2026-12-04T13:00:00Z"
    );
}

#[test]
fn names_descriptors_and_every() {
    // 2026-12-04 is a Friday.
    assert_eq!(
        next("0 8 * jan-mar MON-fri", None, "2026-12-04T12:00:00Z"),
        "2027-01-01T08:00:00Z"
    );
    assert_eq!(
        next("@daily", None, "2026-12-04T12:00:00Z"),
        "2026-12-05T00:00:00Z"
    );
    assert_eq!(
        next("@midnight", None, "2026-12-04T12:00:00Z"),
        "2026-12-05T00:00:00Z"
    );
    assert_eq!(
        next("@hourly", None, "2026-12-04T12:00:00Z"),
        "2026-12-04T13:00:00Z"
    );
    assert_eq!(
        next("@weekly", None, "2026-12-04T12:00:00Z"),
        "2026-12-06T00:00:00Z"
    );
    assert_eq!(
        next("@monthly", None, "2026-12-04T12:00:00Z"),
        "2027-01-01T00:00:00Z"
    );
    assert_eq!(
        next("@yearly", None, "2026-12-04T12:00:00Z"),
        "2027-01-01T00:00:00Z"
    );
    assert_eq!(
        next("@annually", None, "2026-12-04T12:00:00Z"),
        "2027-01-01T00:00:00Z"
    );
    assert_eq!(
        next("@every 90s", None, "2026-12-04T12:00:00.5Z"),
        "2026-12-04T12:01:30Z"
    );
    assert_eq!(
        next("@every 1h30m", None, "2026-12-04T12:00:00Z"),
        "2026-12-04T13:30:00Z"
    );
    assert_eq!(
        next("@every 200ms", None, "2026-12-04T12:00:00Z"),
        "2026-12-04T12:00:01Z",
        "at least a second"
    );
}

#[test]
fn day_of_month_and_day_of_week_match_either_unless_one_is_a_star() {
    // Friday 2026-12-04: the 13th or a Friday, whichever comes first.
    assert_eq!(
        next("0 0 13 * 5", None, "2026-12-04T12:00:00Z"),
        "2026-12-11T00:00:00Z"
    );
    assert_eq!(
        next("0 0 13 * *", None, "2026-12-04T12:00:00Z"),
        "2026-12-13T00:00:00Z"
    );
    assert_eq!(
        next("0 0 ? * 5", None, "2026-12-04T12:00:00Z"),
        "2026-12-11T00:00:00Z"
    );
    assert_eq!(
        next("0 0 */1 * 5", None, "2026-12-04T12:00:00Z"),
        "2026-12-11T00:00:00Z",
        "*/1 is a star"
    );
    // A stepped day of month is not a star: days 1, 6, 11, ... or Fridays.
    assert_eq!(
        next("0 0 */5 * 5", None, "2026-12-04T12:00:00Z"),
        "2026-12-06T00:00:00Z"
    );
}

#[test]
fn leap_days_come_every_four_years_and_the_31st_skips_short_months() {
    assert_eq!(
        next("0 0 29 2 *", None, "2026-12-04T12:00:00Z"),
        "2028-02-29T00:00:00Z"
    );
    assert_eq!(
        next("0 0 29 2 *", None, "2028-02-29T00:00:00Z"),
        "2032-02-29T00:00:00Z"
    );
    assert_eq!(
        next("0 0 31 * *", None, "2027-01-31T00:00:00Z"),
        "2027-03-31T00:00:00Z"
    );
    assert_eq!(
        next("0 12 29 FEB *", Some("Australia/Sydney"), "2027-01-01T00:00:00Z"),
        "2028-02-29T01:00:00Z"
    );
}

#[test]
fn daylight_saving_time_follows_vixie_cron() {
    let ny = Some("America/New_York");
    // 2026-03-08: 02:00 EST becomes 03:00 EDT. A 02:30 job runs at 03:00 EDT that day,
    // the first minute after the gap.
    assert_eq!(
        next("30 2 * * *", ny, "2026-03-07T12:00:00Z"),
        "2026-03-08T07:00:00Z"
    );
    assert_eq!(
        next("30 2 * * *", ny, "2026-03-08T07:00:00Z"),
        "2026-03-09T06:30:00Z"
    );
    // An hourly job skips the hour that does not exist.
    assert_eq!(
        next("0 * * * *", ny, "2026-03-08T06:30:00Z"),
        "2026-03-08T07:00:00Z"
    );
    // 2026-11-01: 02:00 EDT becomes 01:00 EST. A 01:30 job runs once, at 01:30 EDT.
    assert_eq!(
        next("30 1 * * *", ny, "2026-10-31T12:00:00Z"),
        "2026-11-01T05:30:00Z"
    );
    assert_eq!(
        next("30 1 * * *", ny, "2026-11-01T05:30:00Z"),
        "2026-11-02T06:30:00Z"
    );
    // An hourly job runs in each real hour, the repeated one included.
    assert_eq!(
        next("0 * * * *", ny, "2026-11-01T05:00:00Z"),
        "2026-11-01T06:00:00Z"
    );
    assert_eq!(
        next("0 * * * *", ny, "2026-11-01T06:00:00Z"),
        "2026-11-01T07:00:00Z"
    );
}

#[test]
fn upstream_grammar_is_enforced_with_the_field_named() {
    assert!(refused("").contains("empty"));
    assert!(refused("* * * *").contains("exactly 5 fields"));
    assert!(
        refused("0 * * * * *").contains("exactly 5 fields"),
        "no seconds field"
    );
    let e = refused("60 * * * *");
    assert!(e.starts_with("spec.schedule: field 1 (minute)"), "{e}");
    let e = refused("* * 32 * *");
    assert!(e.contains("field 3 (day of month)"), "{e}");
    let e = refused("* * * * 7");
    assert!(e.contains("field 5 (day of week)") && e.contains('7'), "{e}");
    assert!(refused("* * L * *").contains("field 3"));
    assert!(refused("* * * * 5#2").contains("field 5"));
    assert!(refused("* * * * +MON").contains("field 5"));
    assert!(
        refused("mon * * * *").contains("field 1 (minute)"),
        "names only in their fields"
    );
    assert!(refused("*/x * * * *").contains("field 1"));
    assert!(refused("/5 * * * *").contains("field 1"));
    assert!(refused("1-2-3 * * * *").contains("field 1"));
    assert!(refused("@fortnightly").contains("@fortnightly"));
    assert!(refused("@every soon").contains("@every"));
    assert!(refused("TZ=Mars/Olympus 0 * * * *").contains("Mars/Olympus"));
}

#[test]
fn time_zone_rules() {
    assert!(parse("0 * * * *", Some("Europe/Berlin")).is_ok());
    let both = parse("TZ=UTC 0 * * * *", Some("Europe/Berlin")).expect_err("both");
    assert_eq!(both.field, "spec.schedule");
    for bad in ["", "Local", "local", "Mars/Olympus"] {
        let e = check_time_zone(bad).expect_err(bad);
        assert_eq!(e.field, "spec.timeZone", "{bad}");
    }
    assert!(check_time_zone("Asia/Shanghai").is_ok());
}

#[test]
fn latest_between_counts_missed_runs_up_to_the_cap() {
    let hourly = parse("0 * * * *", None).expect("hourly");
    let (last, count) = hourly
        .latest_between(t("2026-12-04T09:30:00Z"), t("2026-12-04T12:10:00Z"), 100)
        .expect("missed");
    assert_eq!((last.to_string().as_str(), count), ("2026-12-04T12:00:00Z", 3));
    assert!(
        hourly
            .latest_between(t("2026-12-04T12:00:00Z"), t("2026-12-04T12:59:59Z"), 100)
            .is_none()
    );
    let minutely = parse("* * * * *", None).expect("minutely");
    let (last, count) = minutely
        .latest_between(t("2026-12-01T00:00:00Z"), t("2026-12-04T12:10:30Z"), 100)
        .expect("missed");
    assert_eq!((last.to_string().as_str(), count), ("2026-12-04T12:10:00Z", 101));
    let every = parse("@every 10m", None).expect("every");
    let (last, count) = every
        .latest_between(t("2026-12-04T12:00:00Z"), t("2026-12-04T12:35:00Z"), 100)
        .expect("missed");
    assert_eq!((last.to_string().as_str(), count), ("2026-12-04T12:30:00Z", 3));
}

#[test]
fn scheduled_at_carries_the_zone_offset() {
    let utc = parse("0 * * * *", None).expect("utc");
    assert_eq!(utc.format(t("2026-12-04T12:00:00Z")), "2026-12-04T12:00:00Z");
    let shanghai = parse("0 * * * *", Some("Asia/Shanghai")).expect("zone");
    assert_eq!(
        shanghai.format(t("2026-12-04T12:00:00Z")),
        "2026-12-04T20:00:00+08:00"
    );
}
