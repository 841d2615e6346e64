//! An AdvancedCronJob's schedule: upstream's grammar (robfig/cron v3
//! `ParseStandard`) checked here, parsed and evaluated by croner in the schedule's time
//! zone. Pure.
//!
//! Invariants:
//! - Accepted: exactly five fields (minute, hour, day of month, month, day of week with
//!   0 = Sunday), `*`, `?` in any field, `a-b`, `a,b`, `*/n`, `a-b/n`, `a/n`, month and
//!   weekday names (case-insensitive, only in their fields); the descriptors `@yearly`,
//!   `@annually`, `@monthly`, `@weekly`, `@daily`, `@midnight`, `@hourly` and
//!   `@every <duration>`; a `TZ=<zone> ` or `CRON_TZ=<zone> ` prefix. Refused with the
//!   field's position named: anything else, croner's extensions (`L`, `W`, `#`, `+`, a
//!   seconds or year field) and weekday 7 included, as upstream refuses them.
//! - Day matching as upstream: when day of month or day of week is `*` or `?`, both must
//!   match; otherwise either may.
//! - The zone: the prefix, else `timeZone`, else UTC (never the machine's own zone).
//! - [`Schedule::next`] is strictly after its argument, at whole seconds.
//! - Daylight saving time, croner's rule (OCPS, Vixie cron): a fixed time skipped by the
//!   clock going forward runs at the first minute after the gap (02:30 becomes 03:00); a
//!   fixed time the clock repeats runs once; `*` and step hours run in each real hour.
//!   Upstream (robfig) skips the first and runs the second twice.
use std::str::FromStr;
use std::time::Duration;

use croner::Cron;
use croner::parser::{CronParser, Seconds, Year};
use k8s_openapi::jiff::Timestamp;
use k8s_openapi::jiff::tz::TimeZone;

/// The five fields, as error messages name them.
const FIELDS: [&str; 5] = ["minute", "hour", "day of month", "month", "day of week"];
const MONTHS: [&str; 12] = [
    "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
];
const WEEKDAYS: [&str; 7] = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"];

/// A schedule that cannot be used, naming the field and the position.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{field}: {message}")]
pub struct ScheduleError {
    /// `spec.schedule` or `spec.timeZone`.
    pub field: &'static str,
    pub message: String,
}

fn schedule_error(message: impl Into<String>) -> ScheduleError {
    ScheduleError {
        field: "spec.schedule",
        message: message.into(),
    }
}

#[derive(Debug, Clone)]
enum Kind {
    Cron(Box<Cron>),
    /// `@every`: a fixed delay, whole seconds, at least one.
    Every(Duration),
}

/// A parsed schedule in its time zone.
#[derive(Debug, Clone)]
pub struct Schedule {
    kind: Kind,
    zone: TimeZone,
}

/// Loads an IANA zone by name (the bundled database; `Local` is not a zone here).
pub fn load_zone(name: &str) -> Result<TimeZone, String> {
    if name.trim().is_empty() {
        return Err("is empty".into());
    }
    if name.eq_ignore_ascii_case("local") {
        return Err("\"Local\" is not allowed: name the zone (for example \"Europe/Berlin\")".into());
    }
    TimeZone::get(name).map_err(|e| format!("{name:?} is not a known time zone: {e}"))
}

/// Checks `timeZone` as upstream's webhook does: not empty, not `Local`, a zone that loads.
pub fn check_time_zone(time_zone: &str) -> Result<(), ScheduleError> {
    load_zone(time_zone).map(|_| ()).map_err(|message| ScheduleError {
        field: "spec.timeZone",
        message,
    })
}

/// Parses `schedule` with the job's `timeZone` (None: UTC unless the schedule names one).
pub fn parse(schedule: &str, time_zone: Option<&str>) -> Result<Schedule, ScheduleError> {
    let text = schedule.trim();
    if text.is_empty() {
        return Err(schedule_error("is empty"));
    }
    if time_zone.is_some() && text.contains("TZ") {
        return Err(schedule_error(
            "names a time zone (TZ=) while spec.timeZone is set; use one of the two",
        ));
    }
    let (zone, rest) = match text.strip_prefix("CRON_TZ=").or_else(|| text.strip_prefix("TZ=")) {
        Some(prefixed) => {
            let (name, rest) = prefixed
                .split_once(char::is_whitespace)
                .ok_or_else(|| schedule_error("a TZ= prefix must be followed by the schedule"))?;
            let zone = load_zone(name).map_err(|m| schedule_error(format!("time zone {m}")))?;
            (zone, rest.trim())
        }
        // A zone that fails to load falls back to the bare schedule (validation refuses it).
        None => (
            time_zone.and_then(|z| load_zone(z).ok()).unwrap_or(TimeZone::UTC),
            text,
        ),
    };
    let kind = if let Some(descriptor) = rest.strip_prefix('@') {
        parse_descriptor(descriptor)?
    } else {
        Kind::Cron(Box::new(parse_fields(rest)?))
    };
    Ok(Schedule { kind, zone })
}

fn parse_descriptor(descriptor: &str) -> Result<Kind, ScheduleError> {
    let pattern = match descriptor.to_ascii_lowercase().as_str() {
        "yearly" | "annually" => "0 0 1 1 *",
        "monthly" => "0 0 1 * *",
        "weekly" => "0 0 * * 0",
        "daily" | "midnight" => "0 0 * * *",
        "hourly" => "0 * * * *",
        other => {
            let Some(delay) = other.strip_prefix("every") else {
                return Err(schedule_error(format!("unknown descriptor @{descriptor}")));
            };
            let delay = crate::duration::parse(delay.trim()).ok_or_else(|| {
                schedule_error(format!(
                    "@every needs a duration like \"90s\" or \"1h30m\": @{descriptor}"
                ))
            })?;
            return Ok(Kind::Every(Duration::from_secs(delay.as_secs().max(1))));
        }
    };
    parse_fields(pattern).map(|c| Kind::Cron(Box::new(c)))
}

fn parser() -> CronParser {
    CronParser::builder()
        .seconds(Seconds::Disallowed)
        .year(Year::Disallowed)
        .sloppy_ranges(true)
        .build()
}

/// Five checked fields, normalized for croner (`?` and `*/1` are `*`), then parsed; a
/// croner error is pinned to its field by parsing each field alone.
fn parse_fields(text: &str) -> Result<Cron, ScheduleError> {
    let fields: Vec<&str> = text.split_whitespace().collect();
    if fields.len() != 5 {
        return Err(schedule_error(format!(
            "expected exactly 5 fields (minute hour day-of-month month day-of-week), found {}: {text:?}",
            fields.len()
        )));
    }
    let normalized: Vec<String> = fields
        .iter()
        .enumerate()
        .map(|(i, f)| check_field(i, f))
        .collect::<Result<_, _>>()?;
    let parser = parser();
    parser.parse(&normalized.join(" ")).map_err(|whole| {
        for (i, field) in normalized.iter().enumerate() {
            let mut alone = vec!["*".to_string(); 5];
            alone[i] = field.clone();
            if let Err(e) = parser.parse(&alone.join(" ")) {
                return at(i, fields[i], e.to_string());
            }
        }
        schedule_error(whole.to_string())
    })
}

fn at(index: usize, field: &str, message: impl std::fmt::Display) -> ScheduleError {
    schedule_error(format!(
        "field {} ({}) {field:?}: {message}",
        index + 1,
        FIELDS[index]
    ))
}

/// Upstream's grammar for field `index` (0-based); the field as croner reads it.
fn check_field(index: usize, field: &str) -> Result<String, ScheduleError> {
    let names: &[&str] = match index {
        3 => &MONTHS,
        4 => &WEEKDAYS,
        _ => &[],
    };
    let mut out = Vec::new();
    for part in field.split(',') {
        let (range, step) = match part.split_once('/') {
            Some((range, step)) => (range, Some(step)),
            None => (part, None),
        };
        if let Some(step) = step
            && (step.is_empty() || !step.chars().all(|c| c.is_ascii_digit()))
        {
            return Err(at(index, field, format!("step {step:?} is not a number")));
        }
        let star = range == "*" || range == "?";
        if !star {
            let bounds: Vec<&str> = range.split('-').collect();
            if bounds.len() > 2 || bounds.iter().any(|b| b.is_empty()) {
                return Err(at(
                    index,
                    field,
                    format!("{range:?} is not a value or a range a-b"),
                ));
            }
            for bound in &bounds {
                let named = names.contains(&bound.to_ascii_lowercase().as_str());
                if !named && !bound.chars().all(|c| c.is_ascii_digit()) {
                    return Err(at(
                        index,
                        field,
                        format!(
                            "{bound:?} is not a number{}",
                            if names.is_empty() {
                                String::new()
                            } else {
                                " or a name".into()
                            }
                        ),
                    ));
                }
                if index == 4 && *bound == "7" {
                    return Err(at(
                        index,
                        field,
                        "7 is beyond the last day of week (0-6, 0 is Sunday)",
                    ));
                }
            }
        }
        let range = if star { "*" } else { range };
        out.push(match step {
            Some("1") if star => "*".to_string(),
            Some(step) => format!("{range}/{step}"),
            None => range.to_string(),
        });
    }
    Ok(out.join(","))
}

impl FromStr for Schedule {
    type Err = ScheduleError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        parse(s, None)
    }
}

impl Schedule {
    /// The zone the schedule is read in.
    pub fn zone(&self) -> &TimeZone {
        &self.zone
    }

    /// The first run strictly after `after`, at a whole second (None: never again).
    pub fn next(&self, after: Timestamp) -> Option<Timestamp> {
        match &self.kind {
            Kind::Every(delay) => {
                let whole = Timestamp::from_second(after.as_second()).ok()?;
                whole.checked_add(*delay).ok()
            }
            Kind::Cron(cron) => {
                let zoned = after.to_zoned(self.zone.clone());
                let next = cron.find_next_occurrence(&zoned, false).ok()?;
                Some(next.timestamp())
            }
        }
    }

    /// The latest run in `(earliest, now]` and how many runs that interval holds, counted
    /// up to `cap + 1` (more than `cap`: too many missed). None: no run in it.
    pub fn latest_between(
        &self,
        earliest: Timestamp,
        now: Timestamp,
        cap: usize,
    ) -> Option<(Timestamp, usize)> {
        let first = self.next(earliest)?;
        if first > now {
            return None;
        }
        if let Kind::Every(delay) = &self.kind {
            let step = delay.as_secs().max(1) as i64;
            let runs = (now.as_second() - first.as_second()) / step;
            let last = Timestamp::from_second(first.as_second() + runs * step).ok()?;
            return Some((last, usize::try_from(runs + 1).unwrap_or(usize::MAX).min(cap + 1)));
        }
        let mut count = 1;
        let mut last = first;
        while count <= cap {
            match self.next(last) {
                Some(t) if t <= now => {
                    last = t;
                    count += 1;
                }
                _ => return Some((last, count)),
            }
        }
        // Too many to walk: the latest is found backwards from `now`.
        let Kind::Cron(cron) = &self.kind else {
            return Some((last, count));
        };
        let latest = cron
            .find_previous_occurrence(&now.to_zoned(self.zone.clone()), true)
            .map(|z| z.timestamp())
            .unwrap_or(last);
        Some((latest.max(last), count))
    }

    /// `at` in RFC 3339 with the schedule zone's offset (`Z` in UTC), as the
    /// `apps.kruise.io/scheduled-at` annotation carries it.
    pub fn format(&self, at: Timestamp) -> String {
        let offset = self.zone.to_offset(at);
        if offset.seconds() == 0 {
            return Timestamp::from_second(at.as_second()).unwrap_or(at).to_string();
        }
        at.display_with_offset(offset).to_string()
    }
}

#[cfg(test)]
#[path = "schedule_tests.rs"]
mod tests;
