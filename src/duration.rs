//! Durations as users write them, with unit suffixes as kubectl takes them: `500ms`,
//! `30s`, `5m`, `1h30m`, Go-style compound forms, or a bare number of seconds. Used by
//! every `--timeout`-like flag and by the simulated kubelet's per-pod delay annotations.
use std::time::Duration;

/// Parses `text`; None when it is not a non-negative duration.
pub fn parse(text: &str) -> Option<Duration> {
    let text = text.trim();
    if let Ok(seconds) = text.parse::<f64>() {
        return (seconds >= 0.0 && seconds.is_finite()).then(|| Duration::from_secs_f64(seconds));
    }
    let mut total = 0.0_f64;
    let mut rest = text;
    while !rest.is_empty() {
        let number_len = rest
            .find(|c: char| !(c.is_ascii_digit() || c == '.'))
            .unwrap_or(rest.len());
        let value: f64 = rest[..number_len].parse().ok()?;
        rest = &rest[number_len..];
        let (scale, unit_len) = if rest.starts_with("ms") {
            (0.001, 2)
        } else if rest.starts_with('h') {
            (3600.0, 1)
        } else if rest.starts_with('m') {
            (60.0, 1)
        } else if rest.starts_with('s') {
            (1.0, 1)
        } else {
            return None;
        };
        total += value * scale;
        rest = &rest[unit_len..];
    }
    (!text.is_empty() && total.is_finite()).then(|| Duration::from_secs_f64(total))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_parse_in_the_forms_users_write() {
        assert_eq!(parse("1500ms"), Some(Duration::from_millis(1500)));
        assert_eq!(parse("2s"), Some(Duration::from_secs(2)));
        assert_eq!(parse("1m"), Some(Duration::from_secs(60)));
        assert_eq!(parse("3"), Some(Duration::from_secs(3)));
        assert_eq!(parse("1h30m"), Some(Duration::from_secs(5400)));
        assert_eq!(parse("2m30s"), Some(Duration::from_secs(150)));
        assert_eq!(parse("0"), Some(Duration::ZERO));
        assert_eq!(parse("-1s"), None);
        assert_eq!(parse("soon"), None);
        assert_eq!(parse("5x"), None);
        assert_eq!(parse(""), None);
    }
}
