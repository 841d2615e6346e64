//! Int-or-percent fields (`maxUnavailable: 25%`, `partition: 3`): parsed once, with an
//! error that names the field. Each kind resolves an [`Amount`] against its replica count
//! with its own rounding (see `cloneset::numbers` and the Advanced StatefulSet planner).
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
