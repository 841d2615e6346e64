//! Helpers of the kinds' defaults (what OpenKruise's mutating webhook writes): fill an
//! absent field, read a string at a path. Pure.
use serde_json::{Value, json};

/// Sets `object[path]` to `value` when it is absent (or null).
pub fn fill(object: &mut Value, path: &[&str], value: Value) {
    let mut node = object;
    for key in &path[..path.len() - 1] {
        if !node[*key].is_object() {
            node[*key] = json!({});
        }
        node = &mut node[*key];
    }
    let last = path[path.len() - 1];
    if node.get(last).is_none_or(Value::is_null) {
        node[last] = value;
    }
}

/// The string at `path` in `object`, if there is one.
/// Fills `spec.revisionHistoryLimit` with the default every kind with a revision history
/// shares ([`crate::runtime::history::DEFAULT_REVISION_HISTORY_LIMIT`]).
pub fn fill_history_limit(object: &mut Value) {
    let limit = crate::runtime::history::DEFAULT_REVISION_HISTORY_LIMIT;
    fill(
        object,
        &["spec", "revisionHistoryLimit"],
        serde_json::json!(limit),
    );
}

pub fn text<'a>(object: &'a Value, path: &[&str]) -> Option<&'a str> {
    path.iter().try_fold(object, |node, key| node.get(*key))?.as_str()
}
