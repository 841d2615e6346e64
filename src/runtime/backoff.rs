//! Backoffs that outlive one reconcile, by key: the Advanced DaemonSet's per-node backoff
//! for deleting Failed pods (as upstream: 1 s doubling to 15 min, keyed by the set's
//! uid, its generation and the node, so a spec change starts afresh).
//!
//! Invariants: the planners stay pure: a kind's controller reads [`Backoffs::remaining`]
//! into its snapshot and records what its plan did with [`Backoffs::failed`]; an entry
//! whose window passed twice over is forgotten on the next record (no unbounded growth).
use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// The first wait after a failure.
pub const INITIAL: Duration = Duration::from_secs(1);
/// The longest wait.
pub const MAX: Duration = Duration::from_secs(15 * 60);

#[derive(Debug, Default)]
pub struct Backoffs {
    entries: Mutex<HashMap<String, (Instant, Duration)>>,
}

impl Backoffs {
    /// How long `key` must still wait at `now` (None: it need not).
    pub fn remaining(&self, key: &str, now: Instant) -> Option<Duration> {
        let entries = self.entries.lock().unwrap_or_else(|e| e.into_inner());
        let (at, delay) = entries.get(key)?;
        (*at + *delay)
            .checked_duration_since(now)
            .filter(|d| !d.is_zero())
    }

    /// Records a failure of `key` at `now`: the next wait doubles (from [`INITIAL`], at
    /// most [`MAX`]); returns it.
    pub fn failed(&self, key: &str, now: Instant) -> Duration {
        let mut entries = self.entries.lock().unwrap_or_else(|e| e.into_inner());
        entries.retain(|_, (at, delay)| now.saturating_duration_since(*at) < *delay * 2);
        let delay = entries.get(key).map_or(INITIAL, |(_, d)| (*d * 2).min(MAX));
        entries.insert(key.to_owned(), (now, delay));
        delay
    }
}

/// The key of `part` (a node) of an object: its uid, its generation and the part, so a
/// spec change starts afresh (as upstream keys the DaemonSet's failed-pod backoff).
pub fn key(object: &k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta, part: &str) -> String {
    format!(
        "{}/{}/{part}",
        object.uid.as_deref().unwrap_or_default(),
        object.generation.unwrap_or_default()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_wait_doubles_up_to_fifteen_minutes_and_is_forgotten_once_long_past() {
        let backoffs = Backoffs::default();
        let start = Instant::now();
        assert_eq!(backoffs.remaining("n", start), None);
        assert_eq!(backoffs.failed("n", start), Duration::from_secs(1));
        assert_eq!(backoffs.remaining("n", start), Some(Duration::from_secs(1)));
        assert_eq!(
            backoffs.failed("n", start + Duration::from_millis(1500)),
            Duration::from_secs(2)
        );
        let mut at = start + Duration::from_millis(1500);
        let mut last = Duration::from_secs(2);
        for _ in 0..20 {
            at += last;
            last = backoffs.failed("n", at);
        }
        assert_eq!(last, MAX);
        // Long after (more than twice the last wait), a new failure starts again at 1 s.
        let later = at + MAX * 3;
        assert_eq!(backoffs.remaining("n", later), None);
        assert_eq!(backoffs.failed("n", later), INITIAL);
    }
}
