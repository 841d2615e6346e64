//! What the refusal table tests share: JSON edits by pointer.
use serde_json::Value;

/// `value` with each JSON pointer set to its value (Null removes the key).
pub fn with(mut value: Value, changes: &[(&str, Value)]) -> Value {
    for (pointer, new) in changes {
        let (parent, last) = pointer.rsplit_once('/').expect("a pointer");
        let key = last.replace("~1", "/").replace("~0", "~");
        let parent = value.pointer_mut(parent).unwrap_or_else(|| panic!("no {parent}"));
        match parent {
            Value::Object(map) if new.is_null() => {
                map.remove(&key);
            }
            Value::Object(map) => {
                map.insert(key, new.clone());
            }
            Value::Array(items) => {
                let i: usize = key.parse().expect("an index");
                if i == items.len() {
                    items.push(new.clone());
                } else {
                    items[i] = new.clone();
                }
            }
            other => panic!("cannot set {pointer} in {other}"),
        }
    }
    value
}
