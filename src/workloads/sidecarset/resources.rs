//! A sidecar's resources derived from the pod's own containers at creation: the SidecarSet
//! `resourcesPolicy`. Pure; the pod webhook calls [`sidecar_resources`] for each sidecar
//! that carries a policy, and SidecarSet validation calls [`check_expression`] on every
//! expression.
//!
//! Targets are the pod's app containers and its native sidecar init containers
//! (`restartPolicy: Always`), init containers first, whose names match
//! `targetContainersNameRegex` (default `.*`; an unanchored search, as upstream's
//! `MatchString`, so `app` also matches `my-app-2`) and are not defined by any matched
//! SidecarSet. Per resource (`cpu`, `memory`) the targets' values are summed or the largest
//! is taken; a missing request counts as 0, a missing limit makes that limit unlimited. Each
//! non-empty expression is then evaluated with its resource as the variable; an unlimited
//! limit is left unset whatever its expression says.
//!
//! Expressions: `+ - * /`, unary `-`, parentheses, `max(a, b)` and `min(a, b)` (names and
//! the variable in any case), numbers (`2`, `0.5`, `1e3`), percentages (`50%` is 0.5) and
//! quantities with the suffixes `m k M G T P Ki Mi Gi Ti Pi` (`200m`, `512Mi`). A value is
//! a plain number or a quantity: a number meeting a quantity in `+ - max min` becomes that
//! many whole units (truncated to millis); a quantity times or divided by a number keeps its
//! format and is truncated to whole millis; two quantities cannot be multiplied, nothing is
//! divided by a quantity or by zero; a negative result is refused. A plain-number result is
//! that many cores or bytes, truncated to millis.
//!
//! Invariants: nothing panics on any input (nesting is bounded, arithmetic is checked, an
//! out-of-range value is an error); every error names the sidecar and the policy field;
//! quantities are written in Kubernetes' canonical form for their format (`1500m`, `2`,
//! `256Mi`, `1536Mi`; binary only when whole bytes divisible by 1024, as Kubernetes prints).
//!
//! Known differences from upstream:
//! - Quantities are held in whole millis: a sub-milli part of a container's value rounds
//!   up (as upstream's `MilliValue`), so `1n` reads as `1m` where upstream keeps `1n`.
//! - A number with an unknown suffix or a malformed exponent (`2x`, `1E`, `1e3Mi`) is an
//!   error; upstream reads such a number as 0 (or fails only at pod creation).
//! - The variable is bound by field (`cpu` expressions see cpu, `memory` expressions see
//!   memory); upstream picks it by a case-sensitive search for the word `memory`, so
//!   `MEMORY * 2` fails pod creation upstream but works here.
//! - The regex dialect is Rust's `regex`, not Go's RE2 (the same for ordinary patterns).
use std::collections::BTreeMap;

use k8s_openapi::api::core::v1::{Container, PodSpec, ResourceRequirements};
use k8s_openapi::apimachinery::pkg::api::resource::Quantity;
use kube_quantity::ParsedQuantity;

use crate::workloads::common::quantity::{Format, canonical_millis};
use regex::Regex;

use crate::api::sidecarset::is_native_sidecar;
use crate::api::sidecarset::{ResourceExpr, ResourcesPolicy, TargetContainersMode};

/// The name regex when the policy gives none.
const DEFAULT_NAME_REGEX: &str = ".*";

/// Deepest nesting of parentheses, unary minus and function calls an expression may use.
const MAX_NESTING: usize = 64;

/// Suffixes a quantity literal in an expression may carry (upstream's list).
const QUANTITY_UNITS: [&str; 11] = ["m", "k", "M", "G", "T", "P", "Ki", "Mi", "Gi", "Ti", "Pi"];

/// Upper bound (exclusive) of a truncated value, as upstream converts to int64.
const INT64_BOUND: f64 = 9_223_372_036_854_775_807.0;

/// The resources a sidecar with `policy` gets in `pod`: targets = the pod's app
/// containers plus its native-sidecar init containers (restartPolicy Always) whose names
/// match targetContainersNameRegex (default ".*", an unanchored search as upstream does),
/// excluding every name in `sidecar_names` (containers any matched SidecarSet defines);
/// aggregated per resource (cpu, memory) by sum or max; a limit is unlimited when any target
/// lacks it; each expression evaluated with the variable `cpu` or `memory`; an unlimited
/// result leaves that limit unset.
/// Err (the pod is refused at creation) when no container is a target or an expression
/// fails; the message names the container and the field.
pub fn sidecar_resources(
    policy: &ResourcesPolicy,
    pod: &PodSpec,
    sidecar_names: &[&str],
    sidecar: &str,
) -> Result<ResourceRequirements, String> {
    let in_sidecar = |why: String| format!("sidecar {sidecar:?}: {why}");
    let pattern = policy
        .target_containers_name_regex
        .as_deref()
        .unwrap_or(DEFAULT_NAME_REGEX);
    let regex = Regex::new(pattern).map_err(|e| {
        in_sidecar(format!(
            "resourcesPolicy.targetContainersNameRegex {pattern:?}: {e}"
        ))
    })?;
    let targets = target_containers(pod, &regex, sidecar_names);
    if targets.is_empty() {
        return Err(in_sidecar(format!(
            "resourcesPolicy.targetContainersNameRegex {pattern:?}: matches no container of the pod"
        )));
    }
    let mode = policy.target_containers_mode;
    let derive = |side: Side, exprs: Option<&ResourceExpr>| match exprs {
        Some(exprs) => derived_list(side, exprs, &targets, mode).map_err(in_sidecar),
        None => Ok(BTreeMap::new()),
    };
    let limits = derive(Side::Limits, policy.resources_expr.limits.as_ref())?;
    let requests = derive(Side::Requests, policy.resources_expr.requests.as_ref())?;
    Ok(ResourceRequirements {
        limits: (!limits.is_empty()).then_some(limits),
        requests: (!requests.is_empty()).then_some(requests),
        ..ResourceRequirements::default()
    })
}

/// Parses an expression (used by validation too): `+ - * /`, parentheses, `max(a, b)`,
/// `min(a, b)`, numbers with optional quantity suffixes as upstream allows, and the
/// variable. Like upstream's validation it also evaluates it with the variable set to the
/// plain number 1, so a division by zero or a negative result is refused too, while a fault
/// that needs the variable to be a quantity (`cpu * 2m`) shows only when a pod is created.
pub fn check_expression(expr: &str, variable: &str) -> Result<(), String> {
    let value = evaluate(expr, variable, Value::Number(1.0))?;
    refuse_negative(value).map(|_| ())
}

// ---- targets and aggregation ----

/// The pod's native sidecars then its app containers, named by `regex` and not by a
/// SidecarSet.
fn target_containers<'a>(pod: &'a PodSpec, regex: &Regex, sidecar_names: &[&str]) -> Vec<&'a Container> {
    let native_sidecars = pod
        .init_containers
        .iter()
        .flatten()
        .filter(|c| is_native_sidecar(c));
    native_sidecars
        .chain(&pod.containers)
        .filter(|c| !sidecar_names.contains(&c.name.as_str()) && regex.is_match(&c.name))
        .collect()
}

/// `limits` or `requests`.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Side {
    Limits,
    Requests,
}

impl Side {
    fn name(self) -> &'static str {
        match self {
            Side::Limits => "limits",
            Side::Requests => "requests",
        }
    }
}

/// The two resources a policy derives.
const RESOURCES: [&str; 2] = ["cpu", "memory"];

fn expression_for<'a>(exprs: &'a ResourceExpr, resource: &str) -> Option<&'a str> {
    let expr = if resource == "cpu" {
        &exprs.cpu
    } else {
        &exprs.memory
    };
    expr.as_deref().filter(|e| !e.is_empty())
}

/// The derived `side` list: each resource with a non-empty expression and, for limits, a
/// limited aggregate.
fn derived_list(
    side: Side,
    exprs: &ResourceExpr,
    targets: &[&Container],
    mode: TargetContainersMode,
) -> Result<BTreeMap<String, Quantity>, String> {
    let mut list = BTreeMap::new();
    for resource in RESOURCES {
        let Some(expr) = expression_for(exprs, resource) else {
            continue;
        };
        let Some(base) = aggregate(targets, mode, side, resource)? else {
            continue;
        };
        let amount = evaluate(expr, resource, Value::Quantity(base))
            .and_then(refuse_negative)
            .and_then(result_amount)
            .map_err(|why| {
                format!(
                    "resourcesPolicy.resourcesExpr.{}.{resource} {expr:?}: {why}",
                    side.name()
                )
            })?;
        list.insert(resource.to_string(), Quantity(canonical(amount)));
    }
    Ok(list)
}

/// One target's value of `resource` on `side` (None: not set).
fn target_value(container: &Container, side: Side, resource: &str) -> Result<Option<Amount>, String> {
    let resources = container.resources.as_ref();
    let list = match side {
        Side::Limits => resources.and_then(|r| r.limits.as_ref()),
        Side::Requests => resources.and_then(|r| r.requests.as_ref()),
    };
    let Some(quantity) = list.and_then(|l| l.get(resource)) else {
        return Ok(None);
    };
    Amount::of_quantity(&quantity.0).map(Some).ok_or_else(|| {
        format!(
            "container {:?}: resources.{}.{resource} {:?} is not a quantity",
            container.name,
            side.name(),
            quantity.0
        )
    })
}

/// The targets' `resource` on `side`, summed or the largest (the first of equals); None is
/// an unlimited limit (some target has none). Missing requests count as 0.
fn aggregate(
    targets: &[&Container],
    mode: TargetContainersMode,
    side: Side,
    resource: &str,
) -> Result<Option<Amount>, String> {
    let mut total: Option<Amount> = None;
    for container in targets {
        let Some(value) = target_value(container, side, resource)? else {
            if side == Side::Limits {
                return Ok(None);
            }
            continue;
        };
        total = Some(match (total, mode) {
            (None, TargetContainersMode::Sum) => Amount::ZERO.plus(value)?,
            (None, TargetContainersMode::Max) => value,
            (Some(sum), TargetContainersMode::Sum) => sum.plus(value)?,
            (Some(max), TargetContainersMode::Max) if value.millis > max.millis => value,
            (Some(max), TargetContainersMode::Max) => max,
        });
    }
    Ok(Some(total.unwrap_or(Amount::ZERO)))
}

// ---- quantities ----

/// A quantity in whole thousandths of its unit, with the format it prints in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Amount {
    millis: i128,
    format: Format,
}

impl Amount {
    const ZERO: Amount = Amount {
        millis: 0,
        format: Format::DecimalSi,
    };

    /// A Kubernetes quantity string (None: not one).
    fn of_quantity(text: &str) -> Option<Amount> {
        let parsed = ParsedQuantity::try_from(text.trim()).ok()?;
        let millis = millis_rounding_up(parsed.to_bytes_f64()? * 1000.0)?;
        Some(Amount {
            millis,
            format: format_of(text.trim()),
        })
    }

    /// A plain number as a quantity of that many units (truncated to millis).
    fn of_number(number: f64) -> Result<Amount, String> {
        Ok(Amount {
            millis: truncated(number * 1000.0)?,
            format: Format::DecimalSi,
        })
    }

    /// The sum; a zero left side takes the right side's format (as Kubernetes adds).
    fn plus(self, other: Amount) -> Result<Amount, String> {
        let millis = self
            .millis
            .checked_add(other.millis)
            .ok_or("the result is too large")?;
        let format = if self.millis == 0 {
            other.format
        } else {
            self.format
        };
        Ok(Amount { millis, format })
    }

    fn negated(self) -> Result<Amount, String> {
        let millis = self.millis.checked_neg().ok_or("the result is too large")?;
        Ok(Amount { millis, ..self })
    }

    /// Millis times `factor`, truncated, in the same format.
    fn scaled(self, factor: f64) -> Result<Amount, String> {
        Ok(Amount {
            millis: truncated(self.millis as f64 * factor)?,
            ..self
        })
    }

    /// Millis divided by `divisor` (not zero), truncated, in the same format.
    fn divided(self, divisor: f64) -> Result<Amount, String> {
        Ok(Amount {
            millis: truncated(self.millis as f64 / divisor)?,
            ..self
        })
    }
}

/// The format a quantity string was written in.
fn format_of(text: &str) -> Format {
    if text.ends_with('i') {
        return Format::BinarySi;
    }
    let exponent = text
        .rfind(['e', 'E'])
        .map(|at| text[at + 1..].trim_start_matches(['+', '-']));
    match exponent {
        Some(digits) if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) => {
            Format::DecimalExponent
        }
        _ => Format::DecimalSi,
    }
}

/// `millis` as a whole number, rounding a genuine fraction up (float noise is rounded away).
fn millis_rounding_up(millis: f64) -> Option<i128> {
    if !millis.is_finite() || millis.abs() >= 1e36 {
        return None;
    }
    let nearest = millis.round();
    let noise = (millis - nearest).abs() <= millis.abs().max(1.0) * 1e-12;
    Some(if noise { nearest } else { millis.ceil() } as i128)
}

/// `value` truncated toward zero; an error outside upstream's int64 range.
fn truncated(value: f64) -> Result<i128, String> {
    if !value.is_finite() || value.abs() >= INT64_BOUND {
        return Err(format!("the value {value} is out of range"));
    }
    Ok(value.trunc() as i128)
}

/// Kubernetes' canonical string of `amount` (`Quantity.String()`).
fn canonical(amount: Amount) -> String {
    canonical_millis(amount.millis, amount.format)
}

// ---- values and operators ----

/// What an expression computes: a plain number or a quantity.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Value {
    Number(f64),
    Quantity(Amount),
}

/// Both sides as quantities, when either is one.
fn as_quantities(left: Value, right: Value) -> Result<Option<(Amount, Amount)>, String> {
    let amount = |v: Value| match v {
        Value::Quantity(a) => Ok(a),
        Value::Number(n) => Amount::of_number(n),
    };
    match (left, right) {
        (Value::Number(_), Value::Number(_)) => Ok(None),
        _ => Ok(Some((amount(left)?, amount(right)?))),
    }
}

fn add(left: Value, right: Value) -> Result<Value, String> {
    match as_quantities(left, right)? {
        Some((l, r)) => l.plus(r).map(Value::Quantity),
        None => Ok(Value::Number(number(left) + number(right))),
    }
}

fn subtract(left: Value, right: Value) -> Result<Value, String> {
    match as_quantities(left, right)? {
        Some((l, r)) => l.plus(r.negated()?).map(Value::Quantity),
        None => Ok(Value::Number(number(left) - number(right))),
    }
}

fn multiply(left: Value, right: Value) -> Result<Value, String> {
    match (left, right) {
        (Value::Quantity(_), Value::Quantity(_)) => Err("multiplication of two quantities".into()),
        (Value::Quantity(q), Value::Number(n)) | (Value::Number(n), Value::Quantity(q)) => {
            q.scaled(n).map(Value::Quantity)
        }
        (Value::Number(l), Value::Number(r)) => Ok(Value::Number(l * r)),
    }
}

fn divide(left: Value, right: Value) -> Result<Value, String> {
    match (left, right) {
        (_, Value::Quantity(_)) => Err("division by a quantity".into()),
        (_, Value::Number(0.0)) => Err("division by zero".into()),
        (Value::Quantity(q), Value::Number(r)) => q.divided(r).map(Value::Quantity),
        (Value::Number(l), Value::Number(r)) => Ok(Value::Number(l / r)),
    }
}

fn negate(value: Value) -> Result<Value, String> {
    match value {
        Value::Quantity(q) => q.negated().map(Value::Quantity),
        Value::Number(n) => Ok(Value::Number(-n)),
    }
}

/// `max` (or `min` when `largest` is false); the left side wins a tie.
fn extreme(left: Value, right: Value, largest: bool) -> Result<Value, String> {
    match as_quantities(left, right)? {
        Some((l, r)) => {
            let left_wins = if largest {
                l.millis >= r.millis
            } else {
                l.millis <= r.millis
            };
            Ok(Value::Quantity(if left_wins { l } else { r }))
        }
        None => {
            let (l, r) = (number(left), number(right));
            let left_wins = if largest { l >= r } else { l <= r };
            Ok(Value::Number(if left_wins { l } else { r }))
        }
    }
}

/// The plain value of `value` (a quantity in whole units).
fn number(value: Value) -> f64 {
    match value {
        Value::Number(n) => n,
        Value::Quantity(q) => q.millis as f64 / 1000.0,
    }
}

/// `value` unless it is negative.
fn refuse_negative(value: Value) -> Result<Value, String> {
    let negative = match value {
        Value::Number(n) => n < 0.0,
        Value::Quantity(q) => q.millis < 0,
    };
    if !negative {
        return Ok(value);
    }
    let shown = match value {
        Value::Number(n) => n.to_string(),
        Value::Quantity(q) => canonical(q),
    };
    Err(format!("the result {shown} is negative"))
}

/// The quantity an expression's result stands for: a plain number is that many units
/// (cores or bytes), truncated to millis.
fn result_amount(value: Value) -> Result<Amount, String> {
    match value {
        Value::Quantity(q) => Ok(q),
        Value::Number(n) => Amount::of_number(n),
    }
}

// ---- tokens ----

#[derive(Clone, Debug, PartialEq)]
enum Token {
    Number(f64),
    Quantity(Amount),
    Name(String),
    Symbol(char),
}

/// The tokens of `expr`.
fn tokens(expr: &str) -> Result<Vec<Token>, String> {
    let bytes = expr.as_bytes();
    let mut out = Vec::new();
    let mut at = 0;
    while let Some(&b) = bytes.get(at) {
        if b.is_ascii_whitespace() {
            at += 1;
        } else if b.is_ascii_digit() || b == b'.' {
            let (literal, end) = scan_literal(expr, at);
            out.push(literal_token(&literal)?);
            at = end;
        } else if b.is_ascii_alphabetic() {
            let end = at
                + bytes[at..]
                    .iter()
                    .take_while(|b| b.is_ascii_alphanumeric() || **b == b'_')
                    .count();
            out.push(Token::Name(expr[at..end].to_string()));
            at = end;
        } else if b"+-*/(),".contains(&b) {
            out.push(Token::Symbol(char::from(b)));
            at += 1;
        } else {
            let shown = expr[at..].chars().next().unwrap_or('?');
            return Err(format!("unexpected character {shown:?}"));
        }
    }
    Ok(out)
}

/// A number literal split into its parts: `1.5e3`, `50%`, `200m`, `1.5Gi`.
struct Literal<'a> {
    /// Digits and dots, with the exponent if any.
    number: &'a str,
    exponent: bool,
    percent: bool,
    /// Letters right after the number.
    suffix: &'a str,
}

/// The number literal starting at `start` (a digit or a dot) and where it ends: digits and
/// dots, an exponent (`e`, an optional sign and digits), a percent sign, then letters.
fn scan_literal(expr: &str, start: usize) -> (Literal<'_>, usize) {
    let bytes = expr.as_bytes();
    let count = |from: usize, accept: fn(&u8) -> bool| bytes[from..].iter().take_while(|b| accept(b)).count();
    let mut at = start + count(start, |b| b.is_ascii_digit() || *b == b'.');
    let mut exponent = false;
    if matches!(bytes.get(at), Some(b'e' | b'E')) {
        let sign = usize::from(matches!(bytes.get(at + 1), Some(b'+' | b'-')));
        if bytes.get(at + 1 + sign).is_some_and(u8::is_ascii_digit) {
            exponent = true;
            at += 1 + sign;
            at += count(at, u8::is_ascii_digit);
        }
    }
    let number = &expr[start..at];
    let percent = bytes.get(at) == Some(&b'%');
    at += usize::from(percent);
    let suffix_len = count(at, u8::is_ascii_alphabetic);
    let literal = Literal {
        number,
        exponent,
        percent,
        suffix: &expr[at..at + suffix_len],
    };
    (literal, at + suffix_len)
}

/// The token of a number literal: a plain number (a percentage divided by 100) or a
/// quantity with one of [`QUANTITY_UNITS`] on a plain decimal.
fn literal_token(literal: &Literal) -> Result<Token, String> {
    let Literal {
        number,
        exponent,
        percent,
        suffix,
    } = *literal;
    if suffix.is_empty() {
        let value: f64 = number
            .parse()
            .map_err(|_| format!("malformed number {number:?}"))?;
        return Ok(Token::Number(if percent { value / 100.0 } else { value }));
    }
    let text = format!("{number}{}{suffix}", if percent { "%" } else { "" });
    let plain_decimal = number.bytes().any(|b| b.is_ascii_digit()) && number.matches('.').count() <= 1;
    if exponent || percent || !plain_decimal || !QUANTITY_UNITS.contains(&suffix) {
        return Err(format!(
            "malformed quantity {text:?} (a decimal number with one of the suffixes {})",
            QUANTITY_UNITS.join(" ")
        ));
    }
    Amount::of_quantity(&text)
        .map(Token::Quantity)
        .ok_or_else(|| format!("malformed quantity {text:?}"))
}

// ---- parser (evaluates as it reads) ----

/// Evaluates `expr` with `variable` (any case) bound to `value`.
fn evaluate(expr: &str, variable: &str, value: Value) -> Result<Value, String> {
    let tokens = tokens(expr)?;
    if tokens.is_empty() {
        return Err("the expression is empty".into());
    }
    let mut parser = Parser {
        tokens,
        at: 0,
        depth: 0,
        variable,
        value,
    };
    let result = parser.sum()?;
    match parser.tokens.get(parser.at) {
        None => Ok(result),
        Some(token) => Err(format!("unexpected {} after the expression", shown(token))),
    }
}

struct Parser<'a> {
    tokens: Vec<Token>,
    at: usize,
    depth: usize,
    variable: &'a str,
    value: Value,
}

fn shown(token: &Token) -> String {
    match token {
        Token::Number(n) => format!("number {n}"),
        Token::Quantity(q) => format!("quantity {}", canonical(*q)),
        Token::Name(name) => format!("name {name:?}"),
        Token::Symbol(c) => format!("{c:?}"),
    }
}

impl Parser<'_> {
    fn peek(&self) -> Option<&Token> {
        self.tokens.get(self.at)
    }

    /// Consumes the next token when it is one of `symbols`.
    fn eat(&mut self, symbols: &[char]) -> Option<char> {
        match self.peek() {
            Some(Token::Symbol(c)) if symbols.contains(c) => {
                let c = *c;
                self.at += 1;
                Some(c)
            }
            _ => None,
        }
    }

    fn expect(&mut self, symbol: char) -> Result<(), String> {
        if self.eat(&[symbol]).is_some() {
            return Ok(());
        }
        match self.peek() {
            Some(token) => Err(format!("expected {symbol:?}, found {}", shown(token))),
            None => Err(format!("expected {symbol:?} at the end")),
        }
    }

    /// `term (('+' | '-') term)*`
    fn sum(&mut self) -> Result<Value, String> {
        let mut value = self.product()?;
        while let Some(op) = self.eat(&['+', '-']) {
            let right = self.product()?;
            value = if op == '+' {
                add(value, right)?
            } else {
                subtract(value, right)?
            };
        }
        Ok(value)
    }

    /// `factor (('*' | '/') factor)*`
    fn product(&mut self) -> Result<Value, String> {
        let mut value = self.factor()?;
        while let Some(op) = self.eat(&['*', '/']) {
            let right = self.factor()?;
            value = if op == '*' {
                multiply(value, right)?
            } else {
                divide(value, right)?
            };
        }
        Ok(value)
    }

    /// A literal, the variable, `name(args)`, `(sum)` or `-factor`.
    fn factor(&mut self) -> Result<Value, String> {
        let Some(token) = self.peek().cloned() else {
            return Err("the expression ends too early".into());
        };
        self.at += 1;
        match token {
            Token::Number(n) => Ok(Value::Number(n)),
            Token::Quantity(q) => Ok(Value::Quantity(q)),
            Token::Name(name) if self.eat(&['(']).is_some() => self.nested(|p| p.call(&name)),
            Token::Name(name) if name.eq_ignore_ascii_case(self.variable) => Ok(self.value),
            Token::Name(name) => Err(format!("undefined variable: {name}")),
            Token::Symbol('(') => self.nested(|p| {
                let value = p.sum()?;
                p.expect(')').map(|()| value)
            }),
            Token::Symbol('-') => self.nested(|p| p.factor().and_then(negate)),
            Token::Symbol(c) => Err(format!("unexpected {c:?}")),
        }
    }

    /// `f` one level deeper; refused past [`MAX_NESTING`].
    fn nested(&mut self, f: impl FnOnce(&mut Self) -> Result<Value, String>) -> Result<Value, String> {
        if self.depth >= MAX_NESTING {
            return Err(format!("the expression nests deeper than {MAX_NESTING} levels"));
        }
        self.depth += 1;
        let result = f(self);
        self.depth -= 1;
        result
    }

    /// `max(a, b)` or `min(a, b)`, after the opening parenthesis.
    fn call(&mut self, name: &str) -> Result<Value, String> {
        let largest = match name.to_ascii_lowercase().as_str() {
            "max" => true,
            "min" => false,
            _ => return Err(format!("unknown function: {name}")),
        };
        let mut args = vec![self.sum()?];
        while self.eat(&[',']).is_some() {
            args.push(self.sum()?);
        }
        self.expect(')')?;
        match args[..] {
            [left, right] => extreme(left, right, largest),
            _ => Err(format!("{name} takes exactly 2 arguments, got {}", args.len())),
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::{Value as Json, json};

    use super::*;

    /// A container `name` with `limits` and `requests` (JSON maps; Null: none).
    fn container(name: &str, limits: Json, requests: Json) -> Json {
        json!({ "name": name, "image": "busybox",
            "resources": { "limits": limits, "requests": requests } })
    }

    /// Apps `app-a` (200m/200Mi, asks 50m/100Mi) and `app-b` (400m/400Mi, asks 100m/200Mi),
    /// a SidecarSet's `log-agent`, a plain init container and the native sidecar `proxy`.
    fn pod() -> PodSpec {
        serde_json::from_value(json!({
            "initContainers": [
                container("setup", json!({ "cpu": "4", "memory": "4Gi" }), json!({ "cpu": "4" })),
                { "restartPolicy": "Always", "name": "proxy", "image": "envoy", "resources": {
                    "limits": { "cpu": "600m", "memory": "1200Mi" },
                    "requests": { "cpu": "300m", "memory": "600Mi" } } },
            ],
            "containers": [
                container("app-a", json!({ "cpu": "200m", "memory": "200Mi" }),
                    json!({ "cpu": "50m", "memory": "100Mi" })),
                container("app-b", json!({ "cpu": "400m", "memory": "400Mi" }),
                    json!({ "cpu": "100m", "memory": "200Mi" })),
                container("log-agent", json!({ "cpu": "1", "memory": "1Gi" }),
                    json!({ "cpu": "500m", "memory": "512Mi" })),
                container("no-cpu-limit", json!({ "memory": "100Mi" }), Json::Null),
            ],
        }))
        .expect("a pod spec")
    }

    fn policy(mode: &str, regex: Option<&str>, limits: Json, requests: Json) -> ResourcesPolicy {
        let mut policy = json!({ "targetContainersMode": mode,
            "resourcesExpr": { "limits": limits, "requests": requests } });
        if let Some(regex) = regex {
            policy["targetContainersNameRegex"] = json!(regex);
        }
        serde_json::from_value(policy).expect("a policy")
    }

    /// The derived resources as sorted `side.resource=quantity` lines.
    fn lines(resources: &ResourceRequirements) -> Vec<String> {
        let side = |name: &str, list: &Option<BTreeMap<String, Quantity>>| {
            let list = list.iter().flatten();
            list.map(|(k, q)| format!("{name}.{k}={}", q.0))
                .collect::<Vec<_>>()
        };
        let mut out = side("limits", &resources.limits);
        out.extend(side("requests", &resources.requests));
        out
    }

    const SIDECARS: &[&str] = &["log-agent"];

    /// The regex naming the two apps.
    const APPS: Option<&str> = Some("^app-");

    /// (what, mode, regex, limits, requests, SidecarSet containers, expected lines).
    type Case<'a> = (
        &'a str,
        &'a str,
        Option<&'a str>,
        Json,
        Json,
        &'a [&'a str],
        Vec<&'a str>,
    );

    #[test]
    fn targets_are_aggregated_by_sum_or_max_and_filtered() {
        let both = json!({ "cpu": "cpu", "memory": "memory" });
        let half = json!({ "cpu": "cpu*50%", "memory": "memory*30%" });
        let cases: Vec<Case> = vec![
            (
                "sum of the apps",
                "sum",
                Some("^app-"),
                half.clone(),
                both.clone(),
                SIDECARS,
                vec![
                    "limits.cpu=300m",
                    "limits.memory=180Mi",
                    "requests.cpu=150m",
                    "requests.memory=300Mi",
                ],
            ),
            (
                "max of the apps",
                "max",
                Some("^app-"),
                half.clone(),
                both.clone(),
                SIDECARS,
                vec![
                    "limits.cpu=200m",
                    "limits.memory=120Mi",
                    "requests.cpu=100m",
                    "requests.memory=200Mi",
                ],
            ),
            (
                "the regex is an unanchored search",
                "sum",
                Some("-b"),
                both.clone(),
                Json::Null,
                SIDECARS,
                vec!["limits.cpu=400m", "limits.memory=400Mi"],
            ),
            (
                "native sidecar counted, plain init container not, limit unlimited",
                "sum",
                None,
                both.clone(),
                both.clone(),
                SIDECARS,
                vec![
                    "limits.memory=1900Mi",
                    "requests.cpu=450m",
                    "requests.memory=900Mi",
                ],
            ),
            (
                "every SidecarSet container excluded",
                "max",
                Some("^(app-a|log-agent|proxy)$"),
                both.clone(),
                Json::Null,
                &["log-agent", "proxy"],
                vec!["limits.cpu=200m", "limits.memory=200Mi"],
            ),
            (
                "a SidecarSet container not excluded counts",
                "max",
                Some("^(app-a|log-agent)$"),
                both.clone(),
                Json::Null,
                &[],
                vec!["limits.cpu=1", "limits.memory=1Gi"],
            ),
            (
                "no requests count as 0",
                "max",
                Some("no-cpu-limit"),
                json!({ "cpu": "cpu", "memory": "memory*2" }),
                json!({ "cpu": "max(cpu*50%, 50m)", "memory": "memory" }),
                SIDECARS,
                vec!["limits.memory=200Mi", "requests.cpu=50m", "requests.memory=0"],
            ),
            (
                "an empty expression derives nothing",
                "sum",
                Some("^app-"),
                json!({ "cpu": "", "memory": "memory" }),
                json!({}),
                SIDECARS,
                vec!["limits.memory=600Mi"],
            ),
        ];
        for (what, mode, regex, limits, requests, sidecars, expected) in cases {
            let policy = policy(mode, regex, limits, requests);
            let got = sidecar_resources(&policy, &pod(), sidecars, "sidecar")
                .unwrap_or_else(|e| panic!("{what}: {e}"));
            assert_eq!(lines(&got), expected, "{what}");
        }
    }

    #[test]
    fn nothing_derived_leaves_both_lists_unset() {
        let policy = policy("sum", Some("no-cpu-limit"), json!({ "cpu": "cpu" }), Json::Null);
        let got = sidecar_resources(&policy, &pod(), SIDECARS, "sidecar").expect("derived");
        assert_eq!(got, ResourceRequirements::default());
    }

    #[test]
    fn operators_functions_and_canonical_quantities() {
        // Apps summed: cpu 600m, memory 600Mi.
        let cases = [
            ("cpu", "cpu + 100m", "700m"),
            ("cpu", "cpu + 400m", "1"),
            ("cpu", "cpu - 100m", "500m"),
            ("cpu", "cpu * 2", "1200m"),
            ("cpu", "2 * cpu", "1200m"),
            ("cpu", "cpu / 4", "150m"),
            ("cpu", "cpu / 7", "85m"),
            ("cpu", "(cpu + 200m) * 2", "1600m"),
            ("cpu", "-(-cpu)", "600m"),
            ("cpu", "cpu - 1 + 1", "600m"),
            ("cpu", "1 + 2 * 3", "7"),
            ("cpu", "(1 + 2) * 3", "9"),
            ("cpu", "8 - 2 - 1", "5"),
            ("cpu", "8 / 2 / 2", "2"),
            ("cpu", "1 / 3", "333m"),
            ("cpu", "1.5", "1500m"),
            ("cpu", "50%", "500m"),
            ("cpu", "1e3 / 1000", "1"),
            ("cpu", "max(cpu * 10%, 100m)", "100m"),
            ("cpu", "MAX(cpu, 1)", "1"),
            ("cpu", "min(cpu, 250m)", "250m"),
            ("cpu", "min(CPU, 2)", "600m"),
            ("cpu", "max(2, 3)", "3"),
            ("cpu", "min(2, 3)", "2"),
            ("cpu", "0.5*cpu - 0.3*max(0, cpu-4) + 0.3*max(0, cpu-8)", "300m"),
            ("memory", "memory * 1.5", "900Mi"),
            ("memory", "memory + 512Mi", "1112Mi"),
            ("memory", "0 + memory", "600Mi"),
            ("memory", "1 + memory", "629145601"),
            ("memory", "max(memory, 1Gi)", "1Gi"),
            ("memory", "min(memory, 1G)", "600Mi"),
            ("memory", "memory / 3", "200Mi"),
            ("memory", "memory / 1000", "629145600m"),
            ("memory", "memory / 1024 / 1024 / 1024 * 2", "1170m"),
            ("memory", "100", "100"),
            ("memory", "max(0.5, memory * 0)", "500m"),
            ("memory", "0.5", "500m"),
        ];
        for (resource, expr, expected) in cases {
            let policy = policy("sum", Some("^app-"), json!({ resource: expr }), Json::Null);
            let got = sidecar_resources(&policy, &pod(), SIDECARS, "sidecar")
                .unwrap_or_else(|e| panic!("{expr}: {e}"));
            assert_eq!(lines(&got), [format!("limits.{resource}={expected}")], "{expr}");
        }
    }

    #[test]
    fn refusals_name_the_sidecar_and_the_field() {
        let cases = [
            ("no target", Some("^web$"), "cpu", "targetContainersNameRegex"),
            ("bad regex", Some("(app"), "cpu", "targetContainersNameRegex"),
            ("two quantities", APPS, "cpu * 2m", "resourcesExpr.limits.cpu"),
            ("division by zero", APPS, "cpu / 0", "division by zero"),
            ("by a quantity", APPS, "cpu / 2m", "division by a quantity"),
            ("negative", APPS, "cpu - 1", "negative"),
            ("unknown name", APPS, "cpus", "undefined variable"),
            ("other variable", APPS, "memory", "undefined variable"),
            ("one argument", APPS, "max(cpu)", "2 arguments"),
            ("three arguments", APPS, "max(cpu, 1, 2)", "2 arguments"),
            ("unknown function", APPS, "avg(cpu, 1)", "unknown function"),
            ("unclosed", APPS, "max(cpu, 50m", "expected ')'"),
            ("dangling operator", APPS, "cpu +", "ends too early"),
            ("trailing", APPS, "cpu 2", "after the expression"),
            ("bad suffix", APPS, "2x", "malformed quantity"),
            ("exponent and suffix", APPS, "1e3m", "malformed quantity"),
            ("bad number", APPS, "1.2.3", "malformed number"),
            ("bad character", APPS, "cpu # 2", "unexpected character"),
            ("empty parentheses", APPS, "()", "unexpected ')'"),
            ("out of range", APPS, "cpu * 1e300", "out of range"),
        ];
        for (what, regex, expr, field) in cases {
            let policy = policy("sum", regex, json!({ "cpu": expr }), Json::Null);
            let error = sidecar_resources(&policy, &pod(), SIDECARS, "envoy")
                .err()
                .unwrap_or_else(|| panic!("{what}: accepted"));
            assert!(
                error.starts_with("sidecar \"envoy\": resourcesPolicy."),
                "{what}: {error}"
            );
            assert!(error.contains(field), "{what}: {error:?} does not say {field:?}");
        }
    }

    #[test]
    fn a_target_quantity_that_does_not_parse_is_named() {
        let mut spec = pod();
        let app = spec.containers.first_mut().and_then(|c| c.resources.as_mut());
        let limits = app.and_then(|r| r.limits.as_mut()).expect("limits");
        limits.insert("cpu".into(), Quantity("lots".into()));
        let policy = policy("sum", Some("^app-"), json!({ "cpu": "cpu" }), Json::Null);
        let error = sidecar_resources(&policy, &spec, SIDECARS, "envoy").expect_err("refused");
        assert!(
            error.contains("container \"app-a\": resources.limits.cpu \"lots\""),
            "{error}"
        );
    }

    #[test]
    fn check_expression_evaluates_with_the_variable_as_1() {
        for ok in [
            "max(cpu*50%, 50m)",
            "0.5*cpu - 0.3*max(0, cpu-4) + 0.3*max(0, cpu-8)",
            "CPU * 2",
            "100Mi",
            "1e3",
            ".5",
            "cpu * 2m",
        ] {
            assert_eq!(check_expression(ok, "cpu"), Ok(()), "{ok}");
        }
        assert_eq!(check_expression("max(memory*50%, 100Mi)", "memory"), Ok(()));
        for bad in [
            "",
            "   ",
            "invalid expression @#$",
            "max(cpu*50%, 50m",
            "max(cpu*50%)",
            "invalidvar * 50%",
            "memory * 2",
            "cpu / 0",
            "cpu - 2",
            "2x",
            "50%Mi",
            "1E",
            "cpu * * 2",
            "_cpu",
            "cpü",
        ] {
            assert!(check_expression(bad, "cpu").is_err(), "{bad:?} accepted");
        }
    }

    #[test]
    fn no_expression_panics_or_overflows_the_stack() {
        let deep = format!("{}cpu{}", "(".repeat(10_000), ")".repeat(10_000));
        assert!(check_expression(&deep, "cpu").is_err());
        assert!(check_expression(&"-".repeat(10_000), "cpu").is_err());
        assert!(check_expression(&format!("max({}", "max(".repeat(10_000)), "cpu").is_err());
        let long = format!("cpu{}", " + 1".repeat(100_000));
        assert_eq!(check_expression(&long, "cpu"), Ok(()));
        for odd in [
            "1e308 * 10",
            "1e308*10 - 1e308*10",
            "0/0",
            "max(1e400, 1)",
            ".",
            "1..",
            "9e18m * 9e18",
        ] {
            let _ = check_expression(odd, "cpu");
            let policy = policy("sum", None, json!({ "cpu": odd }), Json::Null);
            let _ = sidecar_resources(&policy, &pod(), SIDECARS, "envoy");
        }
    }

    #[test]
    fn quantities_read_and_print_as_kubernetes_does() {
        let read = [
            ("200m", 200, Format::DecimalSi),
            ("1.5Gi", 1_610_612_736_000, Format::BinarySi),
            ("1e3", 1_000_000, Format::DecimalExponent),
            ("0.1", 100, Format::DecimalSi),
            ("1n", 1, Format::DecimalSi),
            ("2k", 2_000_000, Format::DecimalSi),
        ];
        for (text, millis, format) in read {
            assert_eq!(
                Amount::of_quantity(text),
                Some(Amount { millis, format }),
                "{text}"
            );
        }
        assert_eq!(Amount::of_quantity("lots"), None);
        let printed = [
            (0, Format::BinarySi, "0"),
            (1500, Format::DecimalSi, "1500m"),
            (2000, Format::DecimalSi, "2"),
            (1_000_000_000, Format::DecimalSi, "1M"),
            (1_200_000, Format::DecimalSi, "1200"),
            (1_610_612_736_000, Format::BinarySi, "1536Mi"),
            (512_000, Format::BinarySi, "512"),
            (1_024_000, Format::BinarySi, "1Ki"),
            (1_025_500, Format::BinarySi, "1025500m"),
            (1_000_000, Format::DecimalExponent, "1e3"),
            (1500, Format::DecimalExponent, "1500e-3"),
        ];
        for (millis, format, text) in printed {
            assert_eq!(canonical(Amount { millis, format }), text, "{millis} {format:?}");
            let back = ParsedQuantity::try_from(text).expect("kube_quantity reads it");
            let millis_back = millis_rounding_up(back.to_bytes_f64().expect("a value") * 1000.0);
            assert_eq!(millis_back, Some(millis), "{text} reads back");
        }
    }
}
