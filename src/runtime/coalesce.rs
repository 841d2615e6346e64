//! Fewer status writes while a rollout is under way: a status change in which only
//! counters moved is held while the object's last status write is younger than
//! [`STATUS_WINDOW`], and written when the window ends (the reconcile comes back then).
//!
//! Invariants:
//! - Only counters are ever held: a patch that touches a condition, a revision name, the
//!   observed generation, the collision count or anything not an integer is written at
//!   once ([`counters_only`]).
//! - A status the kind calls at rest (its rollout complete: what `rollout status` waits
//!   for) is written at once, so holding never delays the end of a rollout; so is a pod
//!   count that reaches the spec's (what a scale waits for).
//! - Nothing is held longer than [`STATUS_WINDOW`] (2.5 s): no counter lags past 3 s.
//! - Holding never delays a pod write (it is decided after the round's pod writes) and
//!   never loses a change: the reconcile is requeued for the end of the window, when it
//!   plans (and writes) the newest counters.
use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use serde_json::Value;

/// How long after a status write a counters-only change of the same object waits: under
/// 3 s with the round's own time, so no counter is ever shown more than 3 s late.
pub const STATUS_WINDOW: Duration = Duration::from_millis(2500);

/// Integer fields of a status that are not counters: a change of them is never held.
const NOT_COUNTERS: &[&str] = &["observedGeneration", "collisionCount"];

/// Whether the status merge patch `patch` (against the stored status `stored`) moves
/// nothing but counters: an object whose every leaf is an integer, none of them in
/// [`NOT_COUNTERS`]. A `conditions: null` that clears nothing stored is no change.
pub fn counters_only(patch: &Value, stored: &Value) -> bool {
    let Some(fields) = patch.as_object() else {
        return false;
    };
    !fields.is_empty()
        && fields.iter().all(|(name, value)| match value {
            Value::Null if name == "conditions" => stored.get("conditions").is_none_or(Value::is_null),
            Value::Number(n) => (n.is_i64() || n.is_u64()) && !NOT_COUNTERS.contains(&name.as_str()),
            Value::Object(_) => counters_only(value, &stored[name.as_str()]),
            _ => false,
        })
}

/// When each object's status was last written (key: `namespace/name`).
#[derive(Debug, Default)]
pub struct StatusWindow(Mutex<HashMap<String, Instant>>);

impl StatusWindow {
    /// How much longer a counters-only change of `key` waits at `now`; None: write it now.
    pub fn hold(&self, key: &str, now: Instant) -> Option<Duration> {
        let all = self.0.lock().unwrap_or_else(|e| e.into_inner());
        let since = now.saturating_duration_since(*all.get(key)?);
        STATUS_WINDOW.checked_sub(since).filter(|left| !left.is_zero())
    }

    /// Records a status write of `key` at `now` (entries past their window are dropped
    /// once there are many, so the map stays the size of the busy objects).
    pub fn wrote(&self, key: &str, now: Instant) {
        let mut all = self.0.lock().unwrap_or_else(|e| e.into_inner());
        if all.len() >= 1024 {
            all.retain(|_, at| now.saturating_duration_since(*at) < STATUS_WINDOW);
        }
        all.insert(key.to_string(), now);
    }

    /// Forgets `key` (the object is being deleted).
    pub fn forget(&self, key: &str) {
        self.0.lock().unwrap_or_else(|e| e.into_inner()).remove(key);
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn only_integer_counters_may_be_held() {
        let stored = json!({ "replicas": 3, "readyReplicas": 2, "observedGeneration": 4 });
        let table = [
            (json!({ "readyReplicas": 3 }), true),
            (json!({ "readyReplicas": 3, "updatedReplicas": 1 }), true),
            (json!({ "readyReplicas": 3, "conditions": null }), true),
            (json!({ "observedGeneration": 5 }), false),
            (json!({ "readyReplicas": 3, "observedGeneration": 5 }), false),
            (json!({ "collisionCount": 1 }), false),
            (json!({ "updateRevision": "web-2" }), false),
            (
                json!({ "readyReplicas": 3, "conditions": [{ "type": "Progressing" }] }),
                false,
            ),
            (json!({ "readyReplicas": 1.5 }), false),
            (json!({ "readyReplicas": null }), false),
            (json!({}), false),
            (json!(null), false),
        ];
        for (patch, held) in table {
            assert_eq!(counters_only(&patch, &stored), held, "{patch}");
        }
        let with_conditions = json!({ "conditions": [{ "type": "Progressing" }] });
        assert!(
            !counters_only(&json!({ "replicas": 1, "conditions": null }), &with_conditions),
            "clearing stored conditions is a condition change"
        );
        let nested = json!({ "subsets": { "a": { "replicas": 1 } } });
        assert!(counters_only(
            &json!({ "subsets": { "a": { "replicas": 2 } } }),
            &nested
        ));
        assert!(!counters_only(
            &json!({ "subsets": { "a": { "phase": "x" } } }),
            &nested
        ));
    }

    #[test]
    fn a_change_waits_out_the_window_of_the_last_write_only() {
        let window = StatusWindow::default();
        let start = Instant::now();
        assert_eq!(window.hold("ns/web", start), None, "never written: at once");
        window.wrote("ns/web", start);
        let one = Duration::from_secs(1);
        assert_eq!(window.hold("ns/web", start + one), Some(STATUS_WINDOW - one));
        assert_eq!(window.hold("ns/other", start + one), None);
        assert_eq!(window.hold("ns/web", start + STATUS_WINDOW), None);
        assert_eq!(window.hold("ns/web", start + STATUS_WINDOW * 2), None);
        window.forget("ns/web");
        assert_eq!(window.hold("ns/web", start + one), None);
    }

    #[test]
    fn old_entries_go_once_there_are_many() {
        let window = StatusWindow::default();
        let start = Instant::now();
        for n in 0..1024 {
            window.wrote(&format!("ns/{n}"), start);
        }
        window.wrote("ns/late", start + STATUS_WINDOW);
        let all = window.0.lock().expect("test input");
        assert_eq!(all.len(), 1);
    }
}
