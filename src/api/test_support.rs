//! Test helpers for the CRD types: fixture loading, lossless round trips, and a small
//! JSON-schema walker (structural check, unknown-field finder).
//!
//! Invariants: helpers panic with a message naming the fixture or schema path, so a failing
//! test points at the offending node.

use k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition;
use serde::{Serialize, de::DeserializeOwned};
use serde_json::Value;

/// Directory of the handbook fixtures (`tests/fixtures/`).
pub(crate) const FIXTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/");

/// All documents of `file` (multi-document YAML) whose group is `apps.kruise.io` and whose kind
/// is `kind`, as JSON values.
pub(crate) fn documents_of_kind(file: &str, kind: &str) -> Vec<Value> {
    let path = format!("{FIXTURES}{file}");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("reading {path}: {e}"));
    let docs: Vec<Value> =
        serde_saphyr::from_multiple(&text).unwrap_or_else(|e| panic!("parsing {path}: {e}"));
    docs.into_iter()
        .filter(|d| {
            d["kind"] == kind
                && d["apiVersion"]
                    .as_str()
                    .is_some_and(|v| v.starts_with("apps.kruise.io/"))
        })
        .collect()
}

/// Deserializes `doc` into `K`, serializes it back and requires the exact same JSON.
pub(crate) fn assert_round_trip<K: Serialize + DeserializeOwned>(doc: &Value) {
    let typed: K = serde_json::from_value(doc.clone())
        .unwrap_or_else(|e| panic!("{} does not deserialize: {e}", doc["metadata"]["name"]));
    let back = serde_json::to_value(&typed).expect("serializing a typed object");
    assert_eq!(&back, doc, "round trip of {} is lossy", doc["metadata"]["name"]);
}

/// The openAPIV3Schema of `version`.
pub(crate) fn version_schema(crd: &CustomResourceDefinition, version: &str) -> Value {
    let v = crd
        .spec
        .versions
        .iter()
        .find(|v| v.name == version)
        .unwrap_or_else(|| panic!("no {version}"));
    let schema = v
        .schema
        .as_ref()
        .and_then(|s| s.open_api_v3_schema.as_ref())
        .expect("schema");
    serde_json::to_value(schema).expect("schema to JSON")
}

/// The `spec` schema of `version`.
pub(crate) fn spec_schema(crd: &CustomResourceDefinition, version: &str) -> Value {
    version_schema(crd, version)["properties"]["spec"].clone()
}

/// Paths of fields in `doc` that the schema of `doc`'s version does not declare, i.e. the
/// fields strict field validation rejects (`kubectl apply --validate=strict`).
pub(crate) fn unknown_fields(crd: &CustomResourceDefinition, doc: &Value) -> Vec<String> {
    let version = doc["apiVersion"]
        .as_str()
        .and_then(|v| v.split('/').nth(1))
        .expect("apiVersion");
    let schema = version_schema(crd, version);
    let mut out = Vec::new();
    // apiVersion, kind and metadata are validated by the API server itself.
    if let Value::Object(map) = doc {
        for (k, v) in map {
            if !["apiVersion", "kind", "metadata"].contains(&k.as_str()) {
                match schema["properties"].get(k) {
                    Some(s) => walk_unknown(s, v, &format!(".{k}"), &mut out),
                    None => out.push(format!(".{k}")),
                }
            }
        }
    }
    out.sort();
    out
}

fn walk_unknown(schema: &Value, value: &Value, path: &str, out: &mut Vec<String>) {
    if schema["x-kubernetes-preserve-unknown-fields"] == true {
        return;
    }
    match value {
        Value::Object(map) => {
            for (k, v) in map {
                let child = format!("{path}.{k}");
                if let Some(s) = schema["properties"].get(k) {
                    walk_unknown(s, v, &child, out);
                } else if let Some(s) = schema.get("additionalProperties").filter(|s| s.is_object()) {
                    walk_unknown(s, v, &child, out);
                } else {
                    out.push(child);
                }
            }
        }
        Value::Array(items) => {
            for (i, v) in items.iter().enumerate() {
                walk_unknown(&schema["items"], v, &format!("{path}[{i}]"), out);
            }
        }
        _ => {}
    }
}

/// Asserts `doc` uses only declared fields.
pub(crate) fn assert_no_unknown_fields(crd: &CustomResourceDefinition, doc: &Value) {
    let unknown = unknown_fields(crd, doc);
    assert!(
        unknown.is_empty(),
        "{} has undeclared fields {unknown:?}",
        doc["metadata"]["name"]
    );
}

/// Problems that make a schema non-structural or unusable as a CRD schema: objects without
/// `properties`/`additionalProperties`/preserve-unknown-fields, nodes without a type, and
/// leftover `$ref`/`definitions`/`$defs`.
pub(crate) fn schema_problems(schema: &Value, path: &str, out: &mut Vec<String>) {
    let Value::Object(node) = schema else {
        out.push(format!("{path}: not an object schema"));
        return;
    };
    for key in ["$ref", "definitions", "$defs", "$schema"] {
        if node.contains_key(key) {
            out.push(format!("{path}: contains {key}"));
        }
    }
    let preserve = node.get("x-kubernetes-preserve-unknown-fields") == Some(&Value::Bool(true));
    let int_or_string = node.get("x-kubernetes-int-or-string") == Some(&Value::Bool(true));
    let is_root_metadata = path == ".metadata";
    match node.get("type").and_then(Value::as_str) {
        Some("object") => {
            let has_shape = node.contains_key("properties") || node.contains_key("additionalProperties");
            if !has_shape && !preserve && !is_root_metadata {
                out.push(format!("{path}: object without properties"));
            }
        }
        Some("array") if !node.contains_key("items") => out.push(format!("{path}: array without items")),
        Some(_) => {}
        None if int_or_string || preserve => {}
        None => out.push(format!("{path}: no type")),
    }
    if let Some(Value::Array(values)) = node.get("enum")
        && values.iter().any(Value::is_null)
    {
        out.push(format!("{path}: null in enum"));
    }
    for key in ["oneOf", "anyOf", "allOf", "not"] {
        if node.contains_key(key) && !int_or_string {
            out.push(format!("{path}: uses {key}"));
        }
    }
    if let Some(Value::Object(props)) = node.get("properties") {
        for (k, v) in props {
            schema_problems(v, &format!("{path}.{k}"), out);
        }
    }
    if let Some(items) = node.get("items") {
        schema_problems(items, &format!("{path}[]"), out);
    }
    if let Some(extra @ Value::Object(_)) = node.get("additionalProperties") {
        schema_problems(extra, &format!("{path}{{}}"), out);
    }
}

/// Asserts every version's schema of `crd` is structural and self-contained.
pub(crate) fn assert_structural(crd: &CustomResourceDefinition) {
    for v in &crd.spec.versions {
        let mut problems = Vec::new();
        schema_problems(&version_schema(crd, &v.name), "", &mut problems);
        assert!(
            problems.is_empty(),
            "{} {}: {problems:#?}",
            crd.spec.names.kind,
            v.name
        );
    }
}

/// Asserts name, kind, scope and short names.
pub(crate) fn assert_crd_names(
    crd: &CustomResourceDefinition,
    name: &str,
    kind: &str,
    scope: &str,
    short_names: &[&str],
) {
    assert_eq!(crd.metadata.name.as_deref(), Some(name));
    assert_eq!(crd.spec.group, "apps.kruise.io");
    assert_eq!(crd.spec.names.kind, kind);
    assert_eq!(crd.spec.scope, scope);
    let actual: Vec<&str> = crd
        .spec
        .names
        .short_names
        .iter()
        .flatten()
        .map(String::as_str)
        .collect();
    assert_eq!(actual, short_names);
}

/// Asserts the `(name, served, storage)` list of versions, in order.
pub(crate) fn assert_versions(crd: &CustomResourceDefinition, expected: &[(&str, bool, bool)]) {
    let actual: Vec<(&str, bool, bool)> = crd
        .spec
        .versions
        .iter()
        .map(|v| (v.name.as_str(), v.served, v.storage))
        .collect();
    assert_eq!(actual, expected);
    for v in &crd.spec.versions {
        let sub = v.subresources.as_ref().expect("subresources");
        assert!(sub.status.is_some(), "{} has no status subresource", v.name);
    }
}

/// Asserts the scale subresource uses the Kruise paths.
pub(crate) fn assert_scale(crd: &CustomResourceDefinition, version: &str) {
    let v = crd
        .spec
        .versions
        .iter()
        .find(|v| v.name == version)
        .expect("version");
    let scale = v
        .subresources
        .as_ref()
        .and_then(|s| s.scale.as_ref())
        .expect("scale subresource");
    assert_eq!(scale.spec_replicas_path, ".spec.replicas");
    assert_eq!(scale.status_replicas_path, ".status.replicas");
    assert_eq!(
        scale.label_selector_path.as_deref(),
        Some(".status.labelSelector")
    );
}

/// Asserts there is no scale subresource.
#[allow(dead_code, reason = "for kinds without a scale subresource")]
pub(crate) fn assert_no_scale(crd: &CustomResourceDefinition) {
    for v in &crd.spec.versions {
        assert!(
            v.subresources.as_ref().and_then(|s| s.scale.as_ref()).is_none(),
            "{} has scale",
            v.name
        );
    }
}

/// Asserts the printer column names, in order.
pub(crate) fn assert_columns(crd: &CustomResourceDefinition, version: &str, names: &[&str]) {
    let v = crd
        .spec
        .versions
        .iter()
        .find(|v| v.name == version)
        .expect("version");
    let actual: Vec<&str> = v
        .additional_printer_columns
        .iter()
        .flatten()
        .map(|c| c.name.as_str())
        .collect();
    assert_eq!(actual, names);
}

/// Paths of CEL rules that sit inside list items. The API server multiplies their cost by
/// the possible number of items (unbounded without `maxItems`) and refuses the CRD, so there
/// must be none; see `common::cel`.
pub(crate) fn cel_rules_in_list_items(schema: &Value, path: &str, in_items: bool, out: &mut Vec<String>) {
    let Value::Object(node) = schema else { return };
    if in_items && node.contains_key("x-kubernetes-validations") {
        out.push(path.to_owned());
    }
    if let Some(Value::Object(props)) = node.get("properties") {
        for (k, v) in props {
            cel_rules_in_list_items(v, &format!("{path}.{k}"), in_items, out);
        }
    }
    if let Some(items) = node.get("items") {
        cel_rules_in_list_items(items, &format!("{path}[]"), true, out);
    }
    if let Some(extra @ Value::Object(_)) = node.get("additionalProperties") {
        cel_rules_in_list_items(extra, &format!("{path}{{}}"), true, out);
    }
}
