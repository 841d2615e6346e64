//! The JSON merge patch (RFC 7386) that turns one value into another: what a status write
//! sends so that a field the new status leaves out is cleared, not kept. Serialized
//! statuses skip their empty fields (`active: None` is absent), and a merge patch keeps
//! what it does not mention: without the explicit nulls a list that emptied would stay.
//! Pure.
//!
//! Invariant: applying `diff(old, new)` to `old` gives `new` (objects are merged key by
//! key; arrays and scalars are replaced whole).
use serde_json::{Map, Value};

/// The merge patch from `old` to `new`.
pub fn diff(old: &Value, new: &Value) -> Value {
    match (old, new) {
        (Value::Object(before), Value::Object(after)) => {
            let mut patch = Map::new();
            for (key, value) in after {
                match before.get(key) {
                    Some(was) if was == value => {}
                    Some(was @ Value::Object(_)) if value.is_object() => {
                        patch.insert(key.clone(), diff(was, value));
                    }
                    _ => {
                        patch.insert(key.clone(), value.clone());
                    }
                }
            }
            for key in before.keys().filter(|k| !after.contains_key(*k)) {
                patch.insert(key.clone(), Value::Null);
            }
            Value::Object(patch)
        }
        _ => new.clone(),
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;
    use serde_json::json;

    use super::*;

    #[test]
    fn a_field_left_out_is_cleared_and_unchanged_ones_are_not_sent() {
        let old = json!({ "active": [{ "name": "a" }], "lastScheduleTime": "t1", "type": "Job" });
        let new = json!({ "lastScheduleTime": "t2", "type": "Job" });
        assert_eq!(
            diff(&old, &new),
            json!({ "active": null, "lastScheduleTime": "t2" })
        );
        let nested_old = json!({ "a": { "b": 1, "c": 2 } });
        let nested_new = json!({ "a": { "b": 1 } });
        assert_eq!(diff(&nested_old, &nested_new), json!({ "a": { "c": null } }));
        assert_eq!(diff(&Value::Null, &json!({ "x": 1 })), json!({ "x": 1 }));
    }

    fn leaf() -> impl Strategy<Value = Value> {
        prop_oneof![
            Just(json!(1)),
            Just(json!("s")),
            Just(json!([1, 2])),
            Just(json!(true))
        ]
    }

    fn tree() -> impl Strategy<Value = Value> {
        leaf().prop_recursive(3, 16, 4, |inner| {
            proptest::collection::btree_map("[a-d]", inner, 0..4)
                .prop_map(|m| Value::Object(m.into_iter().collect()))
        })
    }

    proptest! {
        /// Applying the patch to the old value gives the new one (no null leaves in `new`,
        /// as serialized statuses skip them).
        #[test]
        fn applying_the_diff_gives_the_new_value(old in tree(), new in tree()) {
            let mut patched = old.clone();
            json_patch::merge(&mut patched, &diff(&old, &new));
            prop_assert_eq!(patched, new);
        }
    }
}
