//! Kubernetes quantities (`500m`, `1Gi`, `1e3`) written exactly as Go's `resource.Quantity`
//! writes them: after decoding a text ([`quantity`], what a SidecarSet's hash input needs
//! byte for byte), after Kubernetes' resource-list defaults ([`quantity_rounded_up_to_milli`]),
//! or from a whole number of milli-units ([`canonical_millis`], what the SidecarSet's
//! `resourcesPolicy` computes). Parsing for arithmetic is `kube_quantity`'s; this module
//! only decides the text. Pure; never panics.
//!
//! Invariants: a canonical form has the shortest mantissa with an exponent in steps of
//! three (`0.5` → `500m`, `1000` → `1k`), or of 1024 for a whole binary quantity of at
//! least `1Ki` (`1024Mi` → `1Gi`); the suffix family is the one the text was written in;
//! Go keeps some texts as written (`100m`, `1.500`, `+1`, `007`) and so does [`quantity`].
//! Left out: a quantity Go cannot parse, or whose digits do not fit 128 bits (Go keeps
//! arbitrary precision), has no canonical form here (`None`).

/// The format a quantity keeps from its suffix.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Format {
    /// `1k`, `500m`, plain numbers.
    DecimalSi,
    /// `1Ki` ... `1Ei`.
    BinarySi,
    /// `1e3`.
    DecimalExponent,
}

/// A quantity's text split as Go's parser splits it: sign, integer digits (leading zeros
/// stripped, `0` when none), fraction digits, suffix.
struct Parts<'a> {
    negative: bool,
    integer: &'a str,
    fraction: &'a str,
    suffix: &'a str,
}

/// An exact decimal: `(-1 if negative) × mantissa × 10^exponent`.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct Decimal {
    negative: bool,
    mantissa: u128,
    exponent: i64,
}

/// A quantity as Go's `ParseQuantity` leaves it.
struct Decoded {
    value: Decimal,
    format: Format,
    /// The scale of Go's int64 representation, when it uses one.
    int64_scale: Option<i64>,
    /// Go keeps the text as written (it is already in a canonical-enough form).
    keeps_text: bool,
}

/// Go's JSON form of the quantity `text` (`None` when Go cannot parse it).
pub fn quantity(text: &str) -> Option<String> {
    let text = text.trim();
    let decoded = decode(text)?;
    if decoded.keeps_text {
        return Some(text.to_string());
    }
    canonical(decoded.value, decoded.format)
}

/// Go's JSON form of the quantity `text` after Kubernetes' `SetDefaults_ResourceList` (a
/// value finer than a milli-unit rounded up, away from zero, to one).
pub fn quantity_rounded_up_to_milli(text: &str) -> Option<String> {
    let text = text.trim();
    let decoded = decode(text)?;
    if decoded.int64_scale.is_some_and(|scale| scale >= -3) {
        // Go returns early: value and kept text unchanged.
        return quantity(text);
    }
    canonical(round_away_from_zero(decoded.value, -3)?, decoded.format)
}

fn decode(text: &str) -> Option<Decoded> {
    if text.is_empty() {
        return None;
    }
    if text == "0" {
        let zero = Decimal {
            negative: false,
            mantissa: 0,
            exponent: 0,
        };
        return Some(Decoded {
            value: zero,
            format: Format::DecimalSi,
            int64_scale: Some(0),
            keeps_text: true,
        });
    }
    let parts = split(text)?;
    let (base, exponent, format) = interpret(parts.suffix)?;
    let (int64_scale, keeps_text) = int64_form(&parts, base, exponent, format);
    let mut value = exact_value(&parts, base, exponent)?;
    value = round_away_from_zero(value, -9)?;
    if format == Format::BinarySi {
        value = capped_at_int64(value)?;
    }
    Some(Decoded {
        value,
        format,
        int64_scale,
        keeps_text,
    })
}

/// Go's `parseQuantityString`: `None` where it reports a malformed quantity.
fn split(text: &str) -> Option<Parts<'_>> {
    let bytes = text.as_bytes();
    let end = bytes.len();
    let mut pos = 0;
    let mut negative = false;
    match bytes.first() {
        Some(b'-') => {
            negative = true;
            pos += 1;
        }
        Some(b'+') => pos += 1,
        _ => {}
    }
    while pos < end && bytes[pos] == b'0' {
        pos += 1;
    }
    let zero = |negative| Parts {
        negative,
        integer: "0",
        fraction: "",
        suffix: "",
    };
    if pos >= end {
        return Some(zero(negative));
    }
    let digits_from = |from: usize| (from..end).find(|&i| !bytes[i].is_ascii_digit()).unwrap_or(end);
    let integer_end = digits_from(pos);
    let integer = if integer_end == pos {
        "0"
    } else {
        text.get(pos..integer_end)?
    };
    pos = integer_end;
    let mut fraction = "";
    if pos < end && bytes[pos] == b'.' {
        let fraction_end = digits_from(pos + 1);
        fraction = text.get(pos + 1..fraction_end)?;
        pos = fraction_end;
    }
    let suffix_start = pos;
    while pos < end && b"eEinumkKMGTP".contains(&bytes[pos]) {
        pos += 1;
    }
    if pos < end && (bytes[pos] == b'-' || bytes[pos] == b'+') {
        pos += 1;
    }
    if digits_from(pos) != end {
        return None;
    }
    Some(Parts {
        negative,
        integer,
        fraction,
        suffix: text.get(suffix_start..)?,
    })
}

/// A suffix as `(base, exponent, format)`.
fn interpret(suffix: &str) -> Option<(u32, i64, Format)> {
    let decimal = |exponent| Some((10, exponent, Format::DecimalSi));
    let binary = |exponent| Some((2, exponent, Format::BinarySi));
    match suffix {
        "" => decimal(0),
        "n" => decimal(-9),
        "u" => decimal(-6),
        "m" => decimal(-3),
        "k" => decimal(3),
        "M" => decimal(6),
        "G" => decimal(9),
        "T" => decimal(12),
        "P" => decimal(15),
        "E" => decimal(18),
        "Ki" => binary(10),
        "Mi" => binary(20),
        "Gi" => binary(30),
        "Ti" => binary(40),
        "Pi" => binary(50),
        "Ei" => binary(60),
        _ => {
            let rest = suffix.strip_prefix(['e', 'E']).filter(|r| !r.is_empty())?;
            // Go parses an int64 and truncates it to int32.
            let parsed: i64 = rest.parse().ok()?;
            Some((10, i64::from(parsed as i32), Format::DecimalExponent))
        }
    }
}

/// Whether Go's fast path holds the value as an int64 (its scale) and keeps the text.
fn int64_form(parts: &Parts, base: u32, exponent: i64, format: Format) -> (Option<i64>, bool) {
    let digits = (parts.integer.len() + parts.fraction.len()) as i64;
    let (precision, mut scale, multiplier) = match format {
        Format::BinarySi if parts.fraction.is_empty() => {
            let precision = 15 - parts.integer.len() as i64 - exponent * 3 / 10 - 1;
            (precision, 0, 1i64.checked_shl(exponent as u32).unwrap_or(0))
        }
        Format::BinarySi => (-1, 0, 0),
        _ => (18 - digits, exponent, 1),
    };
    if precision < 0 {
        return (None, false);
    }
    scale -= parts.fraction.len() as i64;
    if scale < -9 {
        return (None, false);
    }
    let shifted = format!("{}{}", parts.integer, parts.fraction);
    let Ok(digits) = shifted.parse::<i64>() else {
        return (None, false);
    };
    if multiplier == 0 || digits.checked_mul(multiplier).is_none() {
        return (None, false);
    }
    let keeps_text = if base == 2 {
        exponent % 10 == 0 && digits & 7 != 0
    } else {
        scale % 3 == 0 && !shifted.ends_with("000") && !shifted.starts_with('0')
    };
    (Some(scale), keeps_text)
}

fn exact_value(parts: &Parts, base: u32, exponent: i64) -> Option<Decimal> {
    let digits = format!("{}{}", parts.integer, parts.fraction);
    let digits = digits.trim_start_matches('0');
    let mut mantissa: u128 = if digits.is_empty() {
        0
    } else {
        digits.parse().ok()?
    };
    let mut power = -(parts.fraction.len() as i64);
    if base == 2 {
        mantissa = mantissa.checked_mul(1u128.checked_shl(u32::try_from(exponent).ok()?)?)?;
    } else {
        power = power.checked_add(exponent)?;
    }
    Some(Decimal {
        negative: parts.negative && mantissa != 0,
        mantissa,
        exponent: power,
    })
}

/// `value` with at most `-min_exponent` decimals, rounded away from zero.
fn round_away_from_zero(value: Decimal, min_exponent: i64) -> Option<Decimal> {
    if value.exponent >= min_exponent || value.mantissa == 0 {
        return Some(value);
    }
    let shift = u32::try_from(min_exponent.checked_sub(value.exponent)?).ok()?;
    let mantissa = match 10u128.checked_pow(shift) {
        Some(divisor) => value.mantissa / divisor + u128::from(!value.mantissa.is_multiple_of(divisor)),
        None => 1,
    };
    Some(Decimal {
        mantissa,
        exponent: min_exponent,
        ..value
    })
}

/// A binary quantity's magnitude is capped at the largest int64.
fn capped_at_int64(value: Decimal) -> Option<Decimal> {
    let max = i64::MAX as u128;
    let too_big = match u32::try_from(value.exponent) {
        Ok(up) => 10u128
            .checked_pow(up)
            .and_then(|p| value.mantissa.checked_mul(p))
            .is_none_or(|v| v > max),
        Err(_) => {
            let down = u32::try_from(-value.exponent).ok()?;
            10u128
                .checked_pow(down)
                .and_then(|p| max.checked_mul(p))
                .is_some_and(|limit| value.mantissa > limit)
        }
    };
    Some(if too_big {
        Decimal {
            mantissa: max,
            exponent: 0,
            ..value
        }
    } else {
        value
    })
}

/// Go's `CanonicalizeBytes`: the shortest mantissa with an exponent in steps of three
/// (or of 1024 for a whole binary quantity of at least 1Ki).
fn canonical(value: Decimal, format: Format) -> Option<String> {
    if value.mantissa == 0 {
        return Some("0".to_string());
    }
    let sign = if value.negative { "-" } else { "" };
    if format == Format::BinarySi
        && let Some(whole) = whole_number(value).filter(|&n| n >= 1024)
    {
        let (mantissa, times) = strip_factors(whole, 1024);
        let suffix = ["", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei"]
            .get(times)
            .copied()
            .unwrap_or("");
        return Some(format!("{sign}{mantissa}{suffix}"));
    }
    let (mut mantissa, times) = strip_factors(value.mantissa, 10);
    let mut exponent = value.exponent.checked_add(times as i64)?;
    let extra = exponent.rem_euclid(3);
    mantissa = mantissa.checked_mul(10u128.pow(extra as u32))?;
    exponent -= extra;
    let suffix = match format {
        Format::DecimalExponent if exponent == 0 => String::new(),
        Format::DecimalExponent => format!("e{exponent}"),
        _ => decimal_suffix(exponent).to_string(),
    };
    Some(format!("{sign}{mantissa}{suffix}"))
}

/// The magnitude as a whole number, if it is one.
fn whole_number(value: Decimal) -> Option<u128> {
    match u32::try_from(value.exponent) {
        Ok(up) => value.mantissa.checked_mul(10u128.checked_pow(up)?),
        Err(_) => {
            let divisor = 10u128.checked_pow(u32::try_from(-value.exponent).ok()?)?;
            value
                .mantissa
                .is_multiple_of(divisor)
                .then_some(value.mantissa / divisor)
        }
    }
}

/// `(n / factor^times, times)` with `times` as large as divides `n`.
fn strip_factors(mut n: u128, factor: u128) -> (u128, usize) {
    let mut times = 0;
    while n >= factor && n.is_multiple_of(factor) {
        n /= factor;
        times += 1;
    }
    (n, times)
}

/// The SI suffix of `10^exponent`; Go writes none for an exponent without one.
fn decimal_suffix(exponent: i64) -> &'static str {
    match exponent {
        -9 => "n",
        -6 => "u",
        -3 => "m",
        3 => "k",
        6 => "M",
        9 => "G",
        12 => "T",
        15 => "P",
        18 => "E",
        _ => "",
    }
}

/// The canonical text of `millis` thousandths of a unit in `format` (Go's `String()` of a
/// quantity held in milli-units).
pub fn canonical_millis(millis: i128, format: Format) -> String {
    let value = Decimal {
        negative: millis < 0,
        mantissa: millis.unsigned_abs(),
        exponent: -3,
    };
    canonical(value, format).unwrap_or_else(|| "0".into())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Measured with OpenKruise v1.9.0's k8s.io/apimachinery v0.32.10: a quantity
    /// unmarshalled from JSON and marshalled again, and the same after
    /// `SetDefaults_ResourceList` (k8s.io/kubernetes v1.32.10).
    const MEASURED_QUANTITIES: &[(&str, Option<&str>, Option<&str>)] = &[
        ("0", Some("0"), Some("0")),
        ("00", Some("0"), Some("0")),
        ("-0", Some("0"), Some("0")),
        ("+0", Some("0"), Some("0")),
        ("0.0", Some("0"), Some("0")),
        ("0m", Some("0"), Some("0")),
        ("1", Some("1"), Some("1")),
        ("01", Some("01"), Some("01")),
        ("+1", Some("+1"), Some("+1")),
        ("-1", Some("-1"), Some("-1")),
        ("1.", Some("1."), Some("1.")),
        (".5", Some("500m"), Some("500m")),
        ("-.5", Some("-500m"), Some("-500m")),
        ("0.5", Some("500m"), Some("500m")),
        ("0.1", Some("100m"), Some("100m")),
        ("1.0", Some("1"), Some("1")),
        ("1.500", Some("1.500"), Some("1.500")),
        ("0.500", Some("500m"), Some("500m")),
        ("1000", Some("1k"), Some("1k")),
        ("1100", Some("1100"), Some("1100")),
        ("1000m", Some("1"), Some("1")),
        ("100m", Some("100m"), Some("100m")),
        ("1500u", Some("1500u"), Some("2m")),
        ("1u", Some("1u"), Some("1m")),
        ("5n", Some("5n"), Some("1m")),
        ("1000n", Some("1u"), Some("1m")),
        ("0.0000000001", Some("1n"), Some("1m")),
        ("1e-10", Some("1e-9"), Some("1e-3")),
        ("1e-18", Some("1e-9"), Some("1e-3")),
        ("1e3", Some("1e3"), Some("1e3")),
        ("1E3", Some("1E3"), Some("1E3")),
        ("1e+3", Some("1e+3"), Some("1e+3")),
        ("12e2", Some("1200"), Some("1200")),
        ("1.5k", Some("1500"), Some("1500")),
        ("1000k", Some("1M"), Some("1M")),
        ("1000E", Some("1"), Some("1")),
        ("100000000000000000000", Some("100E"), Some("100E")),
        (
            "999999999999999999",
            Some("999999999999999999"),
            Some("999999999999999999"),
        ),
        (
            "9999999999999999999",
            Some("9999999999999999999"),
            Some("9999999999999999999"),
        ),
        ("1Ki", Some("1Ki"), Some("1Ki")),
        ("+1Ki", Some("+1Ki"), Some("+1Ki")),
        ("01Ki", Some("01Ki"), Some("01Ki")),
        ("8Ki", Some("8Ki"), Some("8Ki")),
        ("1024", Some("1024"), Some("1024")),
        ("1024Mi", Some("1Gi"), Some("1Gi")),
        ("1536", Some("1536"), Some("1536")),
        ("1.5Ki", Some("1536"), Some("1536")),
        ("1.5Gi", Some("1536Mi"), Some("1536Mi")),
        ("0.5Ki", Some("512"), Some("512")),
        ("0.1Ki", Some("102400m"), Some("102400m")),
        ("2048Ki", Some("2Mi"), Some("2Mi")),
        ("1Ei", Some("1Ei"), Some("1Ei")),
        ("8Ei", Some("9223372036854775807"), Some("9223372036854775807")),
        ("100Ei", Some("9223372036854775807"), Some("9223372036854775807")),
        ("-1Ki", Some("-1Ki"), Some("-1Ki")),
        ("-1.5Gi", Some("-1536Mi"), Some("-1536Mi")),
        ("1G", Some("1G"), Some("1G")),
        ("1M", Some("1M"), Some("1M")),
        ("100M", Some("100M"), Some("100M")),
        ("1T", Some("1T"), Some("1T")),
        ("1P", Some("1P"), Some("1P")),
        ("1E", Some("1E"), Some("1E")),
        (" 5 ", Some("5"), Some("5")),
        ("", None, None),
        ("abc", None, None),
        ("1Ki3", None, None),
        ("1ki", None, None),
        ("1.2.3", None, None),
        ("1e", None, None),
        ("1m5", None, None),
        ("1e3.5", None, None),
        ("-", Some("0"), Some("0")),
        (".", Some("0"), Some("0")),
        ("1.G", Some("1.G"), Some("1.G")),
        ("0.0001m", Some("100n"), Some("1m")),
        ("1.23456789m", Some("1234568n"), Some("2m")),
        (
            "123456789012345678901234567890",
            Some("123456789012345678901234567890"),
            Some("123456789012345678901234567890"),
        ),
        ("1e1000000000", Some("10e999999999"), Some("10e999999999")),
    ];

    #[test]
    fn quantities_are_written_as_go_writes_them() {
        for (text, plain, rounded) in MEASURED_QUANTITIES {
            assert_eq!(quantity(text).as_deref(), *plain, "{text:?}");
            assert_eq!(
                quantity_rounded_up_to_milli(text).as_deref(),
                *rounded,
                "{text:?} rounded"
            );
        }
    }

    #[test]
    fn milli_units_are_written_in_the_shortest_form_of_their_family() {
        let cases = [
            (0, Format::DecimalSi, "0"),
            (1500, Format::DecimalSi, "1500m"),
            (2000, Format::DecimalSi, "2"),
            (-2000, Format::BinarySi, "-2"),
            (1_024_000, Format::BinarySi, "1Ki"),
            (1_536 * 1_024 * 1_024 * 1000, Format::BinarySi, "1536Mi"),
            (1_023_000, Format::BinarySi, "1023"),
            (1_500, Format::BinarySi, "1500m"),
            (3_000_000, Format::DecimalExponent, "3e3"),
            (5_000, Format::DecimalExponent, "5"),
            (12_000_000_000, Format::DecimalSi, "12M"),
        ];
        for (millis, format, text) in cases {
            assert_eq!(canonical_millis(millis, format), text, "{millis} {format:?}");
        }
    }
}
