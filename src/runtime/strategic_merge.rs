//! A strategic merge patch of a Pod (or a pod template), as Kubernetes applies one: maps
//! merge key by key (`null` removes a key), a list whose items Kubernetes merges by a key
//! (containers by `name`, ports by `containerPort`, ...) merges item by item, any other
//! list is replaced; the directives `$patch: replace` and `$patch: delete` on a map (and on
//! a list item) are honoured. Pure, on JSON. Used for a WorkloadSpread subset's `patch`.
//!
//! Invariants: the merge keys are the ones the core/v1 Pod type declares for the lists a
//! pod patch touches (a list field not in [`merge_key`] is replaced whole, as for a type
//! without a merge strategy); the target is never left with a `$patch` directive; applying
//! the same patch twice gives the same object.
//!
//! Left out: `$retainKeys`, `$setElementOrder`, `$deleteFromPrimitiveList` and the merge of
//! lists of primitives (`metadata.finalizers`), which pod-template patches do not use.
use serde_json::{Map, Value};

/// The key Kubernetes merges the items of the list field `field` by (core/v1 Pod).
pub fn merge_key(field: &str) -> Option<&'static str> {
    Some(match field {
        "containers"
        | "initContainers"
        | "ephemeralContainers"
        | "volumes"
        | "env"
        | "imagePullSecrets"
        | "resourceClaims"
        | "schedulingGates" => "name",
        "ports" => "containerPort",
        "volumeMounts" => "mountPath",
        "volumeDevices" => "devicePath",
        "hostAliases" => "ip",
        "topologySpreadConstraints" => "topologyKey",
        "ownerReferences" => "uid",
        "conditions" => "type",
        _ => return None,
    })
}

const DIRECTIVE: &str = "$patch";

/// `target` with `patch` merged in.
pub fn apply(target: &Value, patch: &Value) -> Value {
    merge_value(target, patch, None)
}

fn merge_value(target: &Value, patch: &Value, field: Option<&str>) -> Value {
    match (target, patch) {
        (_, Value::Object(p)) => match p.get(DIRECTIVE).and_then(Value::as_str) {
            Some("replace") => Value::Object(without_directive(p)),
            Some("delete") => Value::Null,
            _ => {
                let base = target.as_object().cloned().unwrap_or_default();
                Value::Object(merge_map(base, p))
            }
        },
        (Value::Array(t), Value::Array(p)) => match field.and_then(merge_key) {
            Some(key) => Value::Array(merge_list(t, p, key)),
            None => patch.clone(),
        },
        _ => patch.clone(),
    }
}

fn without_directive(map: &Map<String, Value>) -> Map<String, Value> {
    map.iter()
        .filter(|(k, _)| k.as_str() != DIRECTIVE)
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect()
}

fn merge_map(mut base: Map<String, Value>, patch: &Map<String, Value>) -> Map<String, Value> {
    for (key, value) in patch {
        if key == DIRECTIVE {
            continue;
        }
        if value.is_null() {
            base.remove(key);
            continue;
        }
        let merged = merge_value(base.get(key).unwrap_or(&Value::Null), value, Some(key));
        if merged.is_null() {
            base.remove(key);
        } else {
            base.insert(key.clone(), merged);
        }
    }
    base
}

/// Items of `patch` merged into `target` by `key`: a matching item is merged (or removed by
/// `$patch: delete`), a new one appended; `target`'s order is kept.
fn merge_list(target: &[Value], patch: &[Value], key: &str) -> Vec<Value> {
    let mut out: Vec<Value> = target.to_vec();
    for item in patch {
        let Some(id) = item.get(key) else {
            out.push(item.clone());
            continue;
        };
        let deleting = item.get(DIRECTIVE).and_then(Value::as_str) == Some("delete");
        match out.iter().position(|o| o.get(key) == Some(id)) {
            Some(i) if deleting => {
                out.remove(i);
            }
            Some(i) => out[i] = merge_value(&out[i], item, None),
            None if deleting => {}
            None => out.push(merge_value(&Value::Null, item, None)),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn pod() -> Value {
        json!({ "metadata": { "labels": { "app": "web" }, "annotations": { "a": "1" } },
            "spec": { "priorityClassName": "low",
                "containers": [
                    { "name": "app", "image": "nginx", "env": [{ "name": "A", "value": "1" }],
                      "ports": [{ "containerPort": 80 }], "resources": { "limits": { "cpu": "1" } } },
                    { "name": "log", "image": "fluent" }],
                "tolerations": [{ "key": "old", "operator": "Exists" }] } })
    }

    #[test]
    fn maps_merge_keyed_lists_merge_by_key_and_other_lists_are_replaced() {
        let patch = json!({ "metadata": { "labels": { "zone": "a" }, "annotations": { "a": null } },
            "spec": { "containers": [
                    { "name": "app", "env": [{ "name": "B", "value": "2" }], "resources": { "limits": { "memory": "1Gi" } } },
                    { "name": "sidecar", "image": "envoy" }],
                "tolerations": [{ "key": "new", "operator": "Exists" }] } });
        let out = apply(&pod(), &patch);
        assert_eq!(out["metadata"]["labels"], json!({ "app": "web", "zone": "a" }));
        assert_eq!(out["metadata"]["annotations"], json!({}), "null removes the key");
        let app = &out["spec"]["containers"][0];
        assert_eq!(app["image"], "nginx");
        assert_eq!(
            app["env"],
            json!([{ "name": "A", "value": "1" }, { "name": "B", "value": "2" }])
        );
        assert_eq!(app["resources"]["limits"], json!({ "cpu": "1", "memory": "1Gi" }));
        assert_eq!(
            out["spec"]["containers"][2]["name"], "sidecar",
            "a new item is appended"
        );
        assert_eq!(
            out["spec"]["tolerations"],
            json!([{ "key": "new", "operator": "Exists" }])
        );
        assert_eq!(apply(&out, &patch), out, "applying twice changes nothing");
    }

    #[test]
    fn replace_and_delete_directives() {
        let patch = json!({ "spec": {
            "containers": [{ "name": "log", "$patch": "delete" }],
            "priorityClassName": "high" },
            "metadata": { "labels": { "$patch": "replace", "tier": "gold" } } });
        let out = apply(&pod(), &patch);
        let names: Vec<&str> = out["spec"]["containers"]
            .as_array()
            .expect("list")
            .iter()
            .filter_map(|c| c["name"].as_str())
            .collect();
        assert_eq!(names, ["app"]);
        assert_eq!(out["metadata"]["labels"], json!({ "tier": "gold" }));
        assert_eq!(out["spec"]["priorityClassName"], "high");
    }
}
