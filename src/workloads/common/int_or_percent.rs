//! Int-or-percent fields (`maxUnavailable: 25%`, `partition: 3`): parsed once, with an
//! error that names the field. Each kind resolves an [`Amount`] against its replica count
//! with its own rounding, through [`percent_of`].
//!
//! Invariant: resolving a percentage never overflows: any percentage parses (validation
//! accepts more than 100% for several fields), and a share too large for an `i64`
//! saturates (more than all is all).
use k8s_openapi::apimachinery::pkg::util::intstr::IntOrString;

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{field}: {value:?} is neither a non-negative integer nor a percentage like \"25%\"")]
pub struct InvalidIntOrPercent {
    pub field: &'static str,
    pub value: String,
}

/// An int-or-percent value: `Int(n)` or `Percent(p)`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Amount {
    Int(i64),
    Percent(i64),
}

pub fn parse(field: &'static str, value: &IntOrString) -> Result<Amount, InvalidIntOrPercent> {
    let bad = |v: String| InvalidIntOrPercent { field, value: v };
    match value {
        IntOrString::Int(n) if *n >= 0 => Ok(Amount::Int(i64::from(*n))),
        IntOrString::Int(n) => Err(bad(n.to_string())),
        IntOrString::String(s) => {
            let number = s.strip_suffix('%').ok_or_else(|| bad(s.clone()))?;
            number
                .parse::<i64>()
                .ok()
                .filter(|p| *p >= 0)
                .map(Amount::Percent)
                .ok_or_else(|| bad(s.clone()))
        }
    }
}

/// `updateStrategy.partition` as a pod count in [0, R] (nil -> 0), as OpenKruise resolves a
/// CloneSet's: a percentage rounds up, but one below 100% with R > 1 leaves a pod to update
/// (`99%` of 10: 9). The CLI resolves any kind's percentage this way.
pub fn partition(value: Option<&IntOrString>, replicas: i64) -> Result<i64, InvalidIntOrPercent> {
    let Some(value) = value else { return Ok(0) };
    Ok(match parse("updateStrategy.partition", value)? {
        Amount::Int(n) => n.clamp(0, replicas),
        Amount::Percent(p) => {
            let n = percent_of(replicas, p, Rounding::Up).min(replicas);
            if p < 100 && replicas > 1 && n == replicas {
                replicas - 1
            } else {
                n
            }
        }
    })
}

/// How a percentage's share is rounded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rounding {
    Up,
    Down,
    /// Half a unit or more rounds up.
    HalfUp,
}

/// `percent`% of `base`, rounded as asked (toward zero otherwise, as Go's integer division);
/// a share beyond the `i64` range saturates.
pub fn percent_of(base: i64, percent: i64, rounding: Rounding) -> i64 {
    let product = i128::from(base) * i128::from(percent);
    let share = match rounding {
        Rounding::Up => (product + 99) / 100,
        Rounding::Down => product / 100,
        Rounding::HalfUp => (product * 2 + 100) / 200,
    };
    i64::try_from(share).unwrap_or(if share < 0 { i64::MIN } else { i64::MAX })
}

#[cfg(test)]
mod percent_tests {
    use super::*;

    #[test]
    fn shares_round_as_asked_and_saturate_instead_of_overflowing() {
        assert_eq!(percent_of(10, 25, Rounding::Up), 3);
        assert_eq!(percent_of(10, 25, Rounding::Down), 2);
        assert_eq!(percent_of(10, 25, Rounding::HalfUp), 3);
        assert_eq!(percent_of(10, 24, Rounding::HalfUp), 2);
        assert_eq!(percent_of(0, 50, Rounding::Up), 0);
        assert_eq!(percent_of(i64::MAX, i64::MAX, Rounding::Up), i64::MAX);
        assert_eq!(percent_of(1000, i64::MAX, Rounding::Down), i64::MAX);
        assert_eq!(percent_of(3, i64::MAX, Rounding::Down), 276_701_161_105_643_274);
        assert_eq!(percent_of(i64::MAX, 100, Rounding::Down), i64::MAX);
    }
}
