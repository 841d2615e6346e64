//! The absolute numbers behind CloneSet's int-or-percent fields.
//!
//! Worked example, replicas R = 10:
//! - partition `30%` -> ceil(10·30/100) = 3; partition `99%` -> ceil(9.9) = 10, but a
//!   percent below 100 with R > 1 must leave one pod to update, so 9; int partitions are
//!   clamped to [0, R].
//! - maxSurge `25%` -> ceil(2.5) = 3 (0 while paused).
//! - maxUnavailable `25%` -> ceil(2.5) = 3 when maxSurge is 0, floor(2.5) = 2 when surge
//!   is allowed (upstream's rounding, so surge and unavailability do not both round up).
use k8s_openapi::apimachinery::pkg::util::intstr::IntOrString;

pub use crate::workloads::common::int_or_percent::{Amount, InvalidIntOrPercent, parse, partition};

fn scaled(replicas: i64, percent: i64, round_up: bool) -> i64 {
    use crate::workloads::common::int_or_percent::{Rounding, percent_of};
    percent_of(
        replicas,
        percent,
        if round_up { Rounding::Up } else { Rounding::Down },
    )
}

/// `updateStrategy.maxSurge` (default 0; 0 while paused). Percent rounds up.
pub fn max_surge(
    value: Option<&IntOrString>,
    replicas: i64,
    paused: bool,
) -> Result<i64, InvalidIntOrPercent> {
    if paused {
        return Ok(0);
    }
    let Some(value) = value else { return Ok(0) };
    Ok(match parse("updateStrategy.maxSurge", value)? {
        Amount::Int(n) => n,
        Amount::Percent(p) => scaled(replicas, p, true),
    })
}

/// A CloneSet's `updateStrategy.maxUnavailable` when none is set (the webhook writes it).
pub const DEFAULT_MAX_UNAVAILABLE: &str = "20%";

/// `updateStrategy.maxUnavailable` (default 20%): percent rounds up without surge, down with it.
pub fn max_unavailable(
    value: Option<&IntOrString>,
    replicas: i64,
    surge: i64,
) -> Result<i64, InvalidIntOrPercent> {
    let default = IntOrString::String(DEFAULT_MAX_UNAVAILABLE.into());
    Ok(
        match parse("updateStrategy.maxUnavailable", value.unwrap_or(&default))? {
            Amount::Int(n) => n,
            Amount::Percent(p) => scaled(replicas, p, surge == 0),
        },
    )
}

/// `scaleStrategy.maxUnavailable`: None means unlimited. Percent rounds up.
pub fn scale_max_unavailable(
    value: Option<&IntOrString>,
    replicas: i64,
) -> Result<Option<i64>, InvalidIntOrPercent> {
    let Some(value) = value else { return Ok(None) };
    Ok(Some(match parse("scaleStrategy.maxUnavailable", value)? {
        Amount::Int(n) => n,
        Amount::Percent(p) => scaled(replicas, p, true),
    }))
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    fn pct(s: &str) -> IntOrString {
        IntOrString::String(s.into())
    }

    #[test]
    fn partition_resolves_as_the_worked_example_says() {
        let table = [
            (None, 10, 0),
            (Some(IntOrString::Int(3)), 10, 3),
            (Some(IntOrString::Int(30)), 10, 10),
            (Some(pct("30%")), 10, 3),
            (Some(pct("25%")), 10, 3),
            (Some(pct("99%")), 10, 9),
            (Some(pct("100%")), 10, 10),
            (Some(pct("50%")), 1, 1),
            (Some(pct("0%")), 10, 0),
        ];
        for (value, replicas, want) in table {
            assert_eq!(
                partition(value.as_ref(), replicas),
                Ok(want),
                "{value:?} of {replicas}"
            );
        }
    }

    #[test]
    fn max_unavailable_rounds_up_without_surge_and_down_with_it() {
        assert_eq!(max_unavailable(Some(&pct("25%")), 10, 0), Ok(3));
        assert_eq!(max_unavailable(Some(&pct("25%")), 10, 1), Ok(2));
        assert_eq!(max_unavailable(None, 10, 0), Ok(2));
        assert_eq!(max_unavailable(None, 3, 0), Ok(1));
    }

    #[test]
    fn max_surge_rounds_up_and_is_zero_while_paused() {
        assert_eq!(max_surge(Some(&pct("25%")), 10, false), Ok(3));
        assert_eq!(max_surge(Some(&IntOrString::Int(2)), 10, true), Ok(0));
        assert_eq!(max_surge(None, 10, false), Ok(0));
    }

    #[test]
    fn bad_values_name_the_field() {
        let err = partition(Some(&pct("half")), 10).expect_err("rejected");
        assert_eq!(err.field, "updateStrategy.partition");
        assert!(err.to_string().contains("\"half\""));
        assert!(max_unavailable(Some(&IntOrString::Int(-1)), 10, 0).is_err());
        assert!(scale_max_unavailable(Some(&pct("-5%")), 10).is_err());
    }

    proptest! {
        /// The partition is always in [0, R], and a percent below 100 leaves a pod to update.
        #[test]
        fn partition_stays_within_replicas(replicas in 0i64..500, p in 0i64..=150, as_int in any::<bool>()) {
            let value = if as_int { IntOrString::Int(p as i32) } else { IntOrString::String(format!("{p}%")) };
            let n = partition(Some(&value), replicas).expect("valid");
            prop_assert!((0..=replicas).contains(&n));
            if !as_int && p < 100 && replicas > 1 {
                prop_assert!(n < replicas);
            }
        }
    }
}
