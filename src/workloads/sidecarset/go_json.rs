//! A SidecarSet sidecar as the bytes Go's `encoding/json` writes for it: the hash input of
//! the SidecarSet's hash annotations ([`super::hash`]) must be byte for byte what
//! OpenKruise v1.9.0 marshals (its `SidecarContainer`: the core/v1 `Container` inlined,
//! then the Kruise fields), or the hashes differ. Pure; never panics.
//!
//! Invariants:
//! - Input: a sidecar as JSON (`serde_json::Value`, as our typed struct serializes it).
//!   Output: keys in Go's struct field order, no whitespace. Every field is described once,
//!   in the tables below, with Go's rule for it: a value field (no `omitempty`, or a
//!   struct, which `omitempty` never drops) is written even when absent (`"name":""`,
//!   `"resources":{}`, `"divisor":"0"`, a gRPC probe's `"service":null`); an `omitempty`
//!   value is dropped when absent or zero (`""`, `0`, `false`, an empty list or map); a
//!   pointer is dropped only when absent, so `"optional":false` and `"securityContext":{}`
//!   stay.
//! - Keys no table knows are dropped, as Go's decoder drops unknown fields. The tables hold
//!   every core/v1 field of the Kubernetes version our `k8s-openapi` targets (1.37), each
//!   with the minor version that added it; the ones newer than [`UPSTREAM_CORE_V1_MINOR`]
//!   (k8s.io/api v0.32, what OpenKruise v1.9.0 is built on) are dropped as its decoder
//!   drops them.
//! - Maps (`limits`, `requests`) are written with their keys sorted bytewise, as Go sorts
//!   map keys.
//! - Strings are escaped as Go does by default: `"` `\` and control characters (`\b` `\f`
//!   `\n` `\r` `\t` short, the others `\u00xx`), and HTML's `<` `>` `&` as `\u003c` `\u003e`
//!   `\u0026`, U+2028 and U+2029 as `\u2028` `\u2029`; everything else verbatim.
//! - A quantity is written as Go writes a decoded `resource.Quantity`
//!   ([`crate::workloads::common::quantity`]): its canonical form (`0.5` → `500m`, `1024Mi`
//!   → `1Gi`, `1000` → `1k`), or the text as written when Go's parser keeps it (`100m`,
//!   `1.500`, `+1`, `007`); OpenKruise applies Kubernetes' resource-list defaults to a
//!   sidecar's `limits` and `requests` before hashing ([`super::defaults`]).
//!
//! Left out: a value of the wrong JSON type (which Go's decoder refuses, so no hash exists
//! for it) is written as Go's zero value; a quantity Go cannot parse, or whose digits do
//! not fit 128 bits (Go keeps arbitrary precision), is written as written; a quantity
//! given as a JSON number is read from serde's rendering of it, not the original text.
use serde_json::{Map, Value};

use crate::workloads::common::quantity::quantity;

/// The core/v1 minor version of OpenKruise v1.9.0's `k8s.io/api` (v0.32.10): fields added
/// after it are unknown to its decoder, so never part of its hash input.
pub const UPSTREAM_CORE_V1_MINOR: u8 = 32;

/// The Go type of a field, as far as its JSON form goes.
#[derive(Clone, Copy)]
enum Kind {
    /// `string` (and string-based types).
    Str,
    /// Any integer type.
    Int,
    /// `bool`.
    Bool,
    /// `resource.Quantity`.
    Quantity,
    /// `intstr.IntOrString`.
    IntOrString,
    /// `[]string`.
    Strings,
    /// `[]int32`.
    Ints,
    /// `map[ResourceName]resource.Quantity`.
    Quantities,
    /// A struct.
    Struct(&'static [Field]),
    /// A slice of structs.
    Structs(&'static [Field]),
}

/// When Go leaves a field out.
#[derive(Clone, Copy)]
enum Omit {
    /// Never (no `omitempty`, or a struct value): an absent field is its zero value.
    Never,
    /// `omitempty` on a value: left out when absent or zero.
    Empty,
    /// `omitempty` on a pointer: left out only when absent.
    Nil,
    /// A pointer without `omitempty`: `null` when absent.
    NeverNull,
}

/// One field of a Go struct: its JSON key, type, omission rule and the core/v1 minor
/// version that added it (0 for the old ones and the Kruise fields).
#[derive(Clone, Copy)]
struct Field {
    key: &'static str,
    kind: Kind,
    omit: Omit,
    since: u8,
}

impl Field {
    /// Added in core/v1 of Kubernetes 1.`minor`.
    const fn since(self, minor: u8) -> Field {
        Field { since: minor, ..self }
    }
}

/// A field without `omitempty` (or a struct value).
const fn value(key: &'static str, kind: Kind) -> Field {
    Field {
        key,
        kind,
        omit: Omit::Never,
        since: 0,
    }
}

/// A value field with `omitempty`.
const fn omitempty(key: &'static str, kind: Kind) -> Field {
    Field {
        key,
        kind,
        omit: Omit::Empty,
        since: 0,
    }
}

/// A pointer field with `omitempty`.
const fn pointer(key: &'static str, kind: Kind) -> Field {
    Field {
        key,
        kind,
        omit: Omit::Nil,
        since: 0,
    }
}

/// A pointer field without `omitempty`.
const fn nullable(key: &'static str, kind: Kind) -> Field {
    Field {
        key,
        kind,
        omit: Omit::NeverNull,
        since: 0,
    }
}

use Kind::{Bool, Int, IntOrString, Ints, Quantities, Quantity, Str, Strings, Struct, Structs};

/// core/v1 `Container`.
const CONTAINER: &[Field] = &[
    value("name", Str),
    omitempty("image", Str),
    omitempty("command", Strings),
    omitempty("args", Strings),
    omitempty("workingDir", Str),
    omitempty("ports", Structs(CONTAINER_PORT)),
    omitempty("envFrom", Structs(ENV_FROM_SOURCE)),
    omitempty("env", Structs(ENV_VAR)),
    value("resources", Struct(RESOURCE_REQUIREMENTS)),
    omitempty("resizePolicy", Structs(CONTAINER_RESIZE_POLICY)),
    pointer("restartPolicy", Str),
    omitempty("restartPolicyRules", Structs(CONTAINER_RESTART_RULE)).since(34),
    omitempty("volumeMounts", Structs(VOLUME_MOUNT)),
    omitempty("volumeDevices", Structs(VOLUME_DEVICE)),
    pointer("livenessProbe", Struct(PROBE)),
    pointer("readinessProbe", Struct(PROBE)),
    pointer("startupProbe", Struct(PROBE)),
    pointer("lifecycle", Struct(LIFECYCLE)),
    omitempty("terminationMessagePath", Str),
    omitempty("terminationMessagePolicy", Str),
    omitempty("imagePullPolicy", Str),
    pointer("securityContext", Struct(SECURITY_CONTEXT)),
    omitempty("stdin", Bool),
    omitempty("stdinOnce", Bool),
    omitempty("tty", Bool),
];

const CONTAINER_PORT: &[Field] = &[
    omitempty("name", Str),
    omitempty("hostPort", Int),
    value("containerPort", Int),
    omitempty("protocol", Str),
    omitempty("hostIP", Str),
];

const ENV_FROM_SOURCE: &[Field] = &[
    omitempty("prefix", Str),
    pointer("configMapRef", Struct(ENV_SOURCE_REF)),
    pointer("secretRef", Struct(ENV_SOURCE_REF)),
];

/// `ConfigMapEnvSource` and `SecretEnvSource` (`LocalObjectReference` inlined).
const ENV_SOURCE_REF: &[Field] = &[omitempty("name", Str), pointer("optional", Bool)];

const ENV_VAR: &[Field] = &[
    value("name", Str),
    omitempty("value", Str),
    pointer("valueFrom", Struct(ENV_VAR_SOURCE)),
];

const ENV_VAR_SOURCE: &[Field] = &[
    pointer("fieldRef", Struct(OBJECT_FIELD_SELECTOR)),
    pointer("resourceFieldRef", Struct(RESOURCE_FIELD_SELECTOR)),
    pointer("configMapKeyRef", Struct(KEY_SELECTOR)),
    pointer("secretKeyRef", Struct(KEY_SELECTOR)),
    pointer("fileKeyRef", Struct(FILE_KEY_SELECTOR)).since(34),
];

const OBJECT_FIELD_SELECTOR: &[Field] = &[omitempty("apiVersion", Str), value("fieldPath", Str)];

const RESOURCE_FIELD_SELECTOR: &[Field] = &[
    omitempty("containerName", Str),
    value("resource", Str),
    value("divisor", Quantity),
];

/// `ConfigMapKeySelector` and `SecretKeySelector` (`LocalObjectReference` inlined).
const KEY_SELECTOR: &[Field] = &[
    omitempty("name", Str),
    value("key", Str),
    pointer("optional", Bool),
];

const FILE_KEY_SELECTOR: &[Field] = &[
    value("volumeName", Str),
    value("path", Str),
    value("key", Str),
    pointer("optional", Bool),
];

const RESOURCE_REQUIREMENTS: &[Field] = &[
    omitempty("limits", Quantities),
    omitempty("requests", Quantities),
    omitempty("claims", Structs(RESOURCE_CLAIM)),
];

const RESOURCE_CLAIM: &[Field] = &[value("name", Str), omitempty("request", Str)];

const CONTAINER_RESIZE_POLICY: &[Field] = &[value("resourceName", Str), value("restartPolicy", Str)];

const CONTAINER_RESTART_RULE: &[Field] = &[
    omitempty("action", Str),
    pointer("exitCodes", Struct(RESTART_RULE_EXIT_CODES)),
];

const RESTART_RULE_EXIT_CODES: &[Field] = &[omitempty("operator", Str), omitempty("values", Ints)];

const VOLUME_MOUNT: &[Field] = &[
    value("name", Str),
    omitempty("readOnly", Bool),
    pointer("recursiveReadOnly", Str),
    value("mountPath", Str),
    omitempty("subPath", Str),
    pointer("mountPropagation", Str),
    omitempty("subPathExpr", Str),
    omitempty("bindMountOptions", Strings).since(37),
];

const VOLUME_DEVICE: &[Field] = &[value("name", Str), value("devicePath", Str)];

/// `Probe`, its `ProbeHandler` inlined first.
const PROBE: &[Field] = &[
    pointer("exec", Struct(EXEC_ACTION)),
    pointer("httpGet", Struct(HTTP_GET_ACTION)),
    pointer("tcpSocket", Struct(TCP_SOCKET_ACTION)),
    pointer("grpc", Struct(GRPC_ACTION)),
    omitempty("initialDelaySeconds", Int),
    omitempty("timeoutSeconds", Int),
    omitempty("periodSeconds", Int),
    omitempty("successThreshold", Int),
    omitempty("failureThreshold", Int),
    pointer("terminationGracePeriodSeconds", Int),
];

const EXEC_ACTION: &[Field] = &[omitempty("command", Strings)];

const HTTP_GET_ACTION: &[Field] = &[
    omitempty("path", Str),
    value("port", IntOrString),
    omitempty("host", Str),
    omitempty("scheme", Str),
    omitempty("httpHeaders", Structs(HTTP_HEADER)),
    pointer("protocol", Str).since(37),
];

const HTTP_HEADER: &[Field] = &[value("name", Str), value("value", Str)];

const TCP_SOCKET_ACTION: &[Field] = &[value("port", IntOrString), omitempty("host", Str)];

const GRPC_ACTION: &[Field] = &[
    value("port", Int),
    nullable("service", Str),
    pointer("mode", Str).since(37),
];

const LIFECYCLE: &[Field] = &[
    pointer("postStart", Struct(LIFECYCLE_HANDLER)),
    pointer("preStop", Struct(LIFECYCLE_HANDLER)),
    pointer("stopSignal", Str).since(33),
];

const LIFECYCLE_HANDLER: &[Field] = &[
    pointer("exec", Struct(EXEC_ACTION)),
    pointer("httpGet", Struct(HTTP_GET_ACTION)),
    pointer("tcpSocket", Struct(TCP_SOCKET_ACTION)),
    pointer("sleep", Struct(SLEEP_ACTION)),
];

const SLEEP_ACTION: &[Field] = &[value("seconds", Int)];

const SECURITY_CONTEXT: &[Field] = &[
    pointer("capabilities", Struct(CAPABILITIES)),
    pointer("privileged", Bool),
    pointer("seLinuxOptions", Struct(SE_LINUX_OPTIONS)),
    pointer("windowsOptions", Struct(WINDOWS_OPTIONS)),
    pointer("runAsUser", Int),
    pointer("runAsGroup", Int),
    pointer("runAsNonRoot", Bool),
    pointer("readOnlyRootFilesystem", Bool),
    pointer("allowPrivilegeEscalation", Bool),
    pointer("procMount", Str),
    pointer("seccompProfile", Struct(PROFILE)),
    pointer("appArmorProfile", Struct(PROFILE)),
];

const CAPABILITIES: &[Field] = &[omitempty("add", Strings), omitempty("drop", Strings)];

const SE_LINUX_OPTIONS: &[Field] = &[
    omitempty("user", Str),
    omitempty("role", Str),
    omitempty("type", Str),
    omitempty("level", Str),
];

const WINDOWS_OPTIONS: &[Field] = &[
    pointer("gmsaCredentialSpecName", Str),
    pointer("gmsaCredentialSpec", Str),
    pointer("runAsUserName", Str),
    pointer("hostProcess", Bool),
];

/// `SeccompProfile` and `AppArmorProfile`.
const PROFILE: &[Field] = &[value("type", Str), pointer("localhostProfile", Str)];

/// The Kruise fields of `SidecarContainer`, after the inlined `Container`.
const SIDECAR: &[Field] = &[
    omitempty("podInjectPolicy", Str),
    value("upgradeStrategy", Struct(UPGRADE_STRATEGY)),
    value("shareVolumePolicy", Struct(SHARE_VOLUME_POLICY)),
    pointer("shareVolumeDevicePolicy", Struct(SHARE_VOLUME_POLICY)),
    omitempty("transferEnv", Structs(TRANSFER_ENV)),
    pointer("resourcesPolicy", Struct(RESOURCES_POLICY)),
];

const UPGRADE_STRATEGY: &[Field] = &[
    omitempty("upgradeType", Str),
    omitempty("hotUpgradeEmptyImage", Str),
];

const SHARE_VOLUME_POLICY: &[Field] = &[omitempty("type", Str)];

const TRANSFER_ENV: &[Field] = &[
    omitempty("sourceContainerName", Str),
    pointer("sourceContainerNameFrom", Struct(SOURCE_CONTAINER_NAME_FROM)),
    omitempty("envName", Str),
    omitempty("envNames", Strings),
];

const SOURCE_CONTAINER_NAME_FROM: &[Field] = &[pointer("fieldRef", Struct(OBJECT_FIELD_SELECTOR))];

const RESOURCES_POLICY: &[Field] = &[
    value("targetContainersMode", Str),
    omitempty("targetContainersNameRegex", Str),
    value("resourcesExpr", Struct(RESOURCES_EXPR)),
];

const RESOURCES_EXPR: &[Field] = &[
    pointer("limits", Struct(RESOURCE_EXPRESSIONS)),
    pointer("requests", Struct(RESOURCE_EXPRESSIONS)),
];

/// `ResourceExprLimits` and `ResourceExprRequests`.
const RESOURCE_EXPRESSIONS: &[Field] = &[omitempty("cpu", Str), omitempty("memory", Str)];

/// The bytes Go writes for a list of sidecars (`null` for none, as for a nil slice).
pub fn sidecar_containers(list: Option<&[Value]>) -> String {
    let mut out = String::new();
    match list {
        None => out.push_str("null"),
        Some(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_struct(&mut out, &[CONTAINER, SIDECAR], item.as_object());
            }
            out.push(']');
        }
    }
    out
}

/// The bytes Go writes for one sidecar.
pub fn sidecar_container(sidecar: &Value) -> String {
    let mut out = String::new();
    write_struct(&mut out, &[CONTAINER, SIDECAR], sidecar.as_object());
    out
}

/// A struct whose fields are `groups` one after the other (an inlined struct first).
fn write_struct(out: &mut String, groups: &[&[Field]], object: Option<&Map<String, Value>>) {
    out.push('{');
    let mut first = true;
    for field in groups.iter().copied().flatten() {
        if field.since > UPSTREAM_CORE_V1_MINOR {
            continue;
        }
        let present = object.and_then(|o| o.get(field.key)).filter(|v| !v.is_null());
        let skip = match field.omit {
            Omit::Never | Omit::NeverNull => false,
            Omit::Empty => is_empty(field.kind, present),
            Omit::Nil => present.is_none(),
        };
        if skip {
            continue;
        }
        if !first {
            out.push(',');
        }
        first = false;
        write_string(out, field.key);
        out.push(':');
        match (present, field.omit) {
            (None, Omit::NeverNull) => out.push_str("null"),
            _ => write_value(out, field.kind, present),
        }
    }
    out.push('}');
}

/// Whether Go's `omitempty` drops a field of this kind with this value.
fn is_empty(kind: Kind, value: Option<&Value>) -> bool {
    let Some(value) = value else {
        return true;
    };
    match kind {
        Str => value.as_str().is_none_or(str::is_empty),
        Int => value.as_i64() == Some(0) || value.as_u64() == Some(0) || !value.is_number(),
        Bool => value.as_bool() != Some(true),
        Strings | Ints | Structs(_) => value.as_array().is_none_or(Vec::is_empty),
        Quantities => value.as_object().is_none_or(Map::is_empty),
        // Structs (a quantity and an int-or-string are structs too) are never empty to Go.
        Quantity | IntOrString | Struct(_) => false,
    }
}

/// A field's value; an absent one as Go's zero value of the kind.
fn write_value(out: &mut String, kind: Kind, value: Option<&Value>) {
    match kind {
        Str => write_string(out, value.and_then(Value::as_str).unwrap_or_default()),
        Int => write_integer(out, value),
        Bool => out.push_str(if value.and_then(Value::as_bool) == Some(true) {
            "true"
        } else {
            "false"
        }),
        Quantity => write_quantity(out, value),
        IntOrString => match value {
            Some(Value::String(text)) => write_string(out, text),
            other => write_integer(out, other),
        },
        Strings => write_list(out, value, |out, item| {
            write_string(out, item.as_str().unwrap_or_default())
        }),
        Ints => write_list(out, value, |out, item| write_integer(out, Some(item))),
        Quantities => write_quantities(out, value),
        Struct(fields) => write_struct(out, &[fields], value.and_then(Value::as_object)),
        Structs(fields) => write_list(out, value, |out, item| {
            write_struct(out, &[fields], item.as_object())
        }),
    }
}

fn write_integer(out: &mut String, value: Option<&Value>) {
    let text = match value {
        Some(Value::Number(n)) if n.is_i64() || n.is_u64() => n.to_string(),
        Some(Value::Number(n)) => format!("{}", n.as_f64().unwrap_or_default().trunc() as i64),
        _ => "0".to_string(),
    };
    out.push_str(&text);
}

/// A slice: `null` when absent (a nil slice), else its items.
fn write_list(out: &mut String, value: Option<&Value>, mut item: impl FnMut(&mut String, &Value)) {
    let Some(items) = value.and_then(Value::as_array) else {
        out.push_str("null");
        return;
    };
    out.push('[');
    for (i, value) in items.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        item(out, value);
    }
    out.push(']');
}

/// A resource list: keys sorted bytewise, each value a quantity.
fn write_quantities(out: &mut String, value: Option<&Value>) {
    let Some(map) = value.and_then(Value::as_object) else {
        out.push_str("null");
        return;
    };
    let mut entries: Vec<(&String, &Value)> = map.iter().collect();
    entries.sort_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
    out.push('{');
    for (i, (key, value)) in entries.into_iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        write_string(out, key);
        out.push(':');
        write_quantity(out, Some(value));
    }
    out.push('}');
}

fn write_quantity(out: &mut String, value: Option<&Value>) {
    let text = match value {
        Some(Value::String(text)) => text.clone(),
        Some(Value::Number(n)) => n.to_string(),
        _ => "0".to_string(),
    };
    write_string(out, &quantity(&text).unwrap_or(text));
}

/// `text` as a JSON string, escaped as Go's `encoding/json` escapes by default.
pub fn write_string(out: &mut String, text: &str) {
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '<' | '>' | '&' | '\u{2028}' | '\u{2029}' => out.push_str(&format!("\\u{:04x}", u32::from(c))),
            c if u32::from(c) < 0x20 => out.push_str(&format!("\\u{:04x}", u32::from(c))),
            c => out.push(c),
        }
    }
    out.push('"');
}

#[cfg(test)]
mod tests {
    use std::collections::{BTreeMap, BTreeSet};

    use serde_json::json;

    use super::*;

    #[test]
    fn strings_are_escaped_as_go_escapes_them() {
        let mut out = String::new();
        write_string(
            &mut out,
            "a<b>&\"\\\u{8}\u{c}\n\r\t\u{1}\u{7f}é\u{2028}\u{2029}😀",
        );
        assert_eq!(
            out,
            "\"a\\u003cb\\u003e\\u0026\\\"\\\\\\b\\f\\n\\r\\t\\u0001\u{7f}é\\u2028\\u2029😀\""
        );
    }

    #[test]
    fn value_fields_are_written_when_absent_and_omitempty_ones_dropped_when_zero() {
        let bare = sidecar_container(&json!({}));
        assert_eq!(
            bare,
            r#"{"name":"","resources":{},"upgradeStrategy":{},"shareVolumePolicy":{}}"#
        );
        let sidecar = json!({ "name": "s", "image": "", "stdin": false, "ports": [],
            "env": [{ "name": "A", "valueFrom": { "resourceFieldRef": { "resource": "limits.cpu" } } }],
            "securityContext": { "privileged": false, "runAsUser": 0 },
            "startupProbe": { "grpc": { "port": 1 }, "initialDelaySeconds": 0 },
            "resources": { "limits": {}, "requests": { "memory": "1024Mi", "cpu": "0.5" } },
            "unknownField": 1, "shareVolumeDevicePolicy": {} });
        assert_eq!(
            sidecar_container(&sidecar),
            concat!(
                r#"{"name":"s","env":[{"name":"A","valueFrom":{"resourceFieldRef":{"resource":"limits.cpu","divisor":"0"}}}],"#,
                r#""resources":{"requests":{"cpu":"500m","memory":"1Gi"}},"startupProbe":{"grpc":{"port":1,"service":null}},"#,
                r#""securityContext":{"privileged":false,"runAsUser":0},"upgradeStrategy":{},"shareVolumePolicy":{},"#,
                r#""shareVolumeDevicePolicy":{}}"#
            )
        );
        assert_eq!(sidecar_containers(None), "null");
        assert_eq!(sidecar_containers(Some(&[])), "[]");
    }

    #[test]
    fn fields_newer_than_openkruise_s_core_v1_are_dropped() {
        let sidecar = json!({ "name": "s", "restartPolicy": "Always",
            "restartPolicyRules": [{ "action": "Restart" }],
            "lifecycle": { "stopSignal": "SIGTERM" },
            "volumeMounts": [{ "name": "v", "mountPath": "/v", "bindMountOptions": ["ro"] }] });
        assert_eq!(
            sidecar_container(&sidecar),
            concat!(
                r#"{"name":"s","resources":{},"restartPolicy":"Always","volumeMounts":[{"name":"v","mountPath":"/v"}],"#,
                r#""lifecycle":{},"upgradeStrategy":{},"shareVolumePolicy":{}}"#
            )
        );
    }

    /// The property names of `node` and of every object schema it reaches, by short type
    /// name (`io.k8s.api.core.v1.Probe` → `Probe`).
    fn schema_properties(
        schema: &Value,
        name: &str,
        node: &Value,
        out: &mut BTreeMap<String, BTreeSet<String>>,
    ) {
        let Some(properties) = node["properties"].as_object() else {
            return;
        };
        out.insert(name.to_string(), properties.keys().cloned().collect());
        for property in properties.values() {
            for reference in [
                &property["$ref"],
                &property["items"]["$ref"],
                &property["additionalProperties"]["$ref"],
            ] {
                let Some(full) = reference.as_str().and_then(|r| r.strip_prefix("#/$defs/")) else {
                    continue;
                };
                let short = full.rsplit('.').next().unwrap_or(full);
                if !out.contains_key(short) {
                    schema_properties(schema, short, &schema["$defs"][full], out);
                }
            }
        }
    }

    /// Every key our `k8s-openapi` knows for a container (at any depth) is in the tables
    /// at the same place: nothing new in core/v1 can silently fall out of the hash input.
    #[test]
    fn the_tables_cover_every_core_v1_container_field() {
        let schema = serde_json::to_value(schemars::schema_for!(k8s_openapi::api::core::v1::Container))
            .expect("schema");
        let mut by_definition = BTreeMap::new();
        schema_properties(&schema, "Container", &schema, &mut by_definition);
        let keys = |fields: &[Field]| fields.iter().map(|f| f.key.to_string()).collect::<BTreeSet<_>>();
        let tables: &[(&str, &[Field])] = &[
            ("Container", CONTAINER),
            ("ContainerPort", CONTAINER_PORT),
            ("EnvFromSource", ENV_FROM_SOURCE),
            ("ConfigMapEnvSource", ENV_SOURCE_REF),
            ("SecretEnvSource", ENV_SOURCE_REF),
            ("EnvVar", ENV_VAR),
            ("EnvVarSource", ENV_VAR_SOURCE),
            ("ObjectFieldSelector", OBJECT_FIELD_SELECTOR),
            ("ResourceFieldSelector", RESOURCE_FIELD_SELECTOR),
            ("ConfigMapKeySelector", KEY_SELECTOR),
            ("SecretKeySelector", KEY_SELECTOR),
            ("FileKeySelector", FILE_KEY_SELECTOR),
            ("ResourceRequirements", RESOURCE_REQUIREMENTS),
            ("ResourceClaim", RESOURCE_CLAIM),
            ("ContainerResizePolicy", CONTAINER_RESIZE_POLICY),
            ("ContainerRestartRule", CONTAINER_RESTART_RULE),
            ("ContainerRestartRuleOnExitCodes", RESTART_RULE_EXIT_CODES),
            ("VolumeMount", VOLUME_MOUNT),
            ("VolumeDevice", VOLUME_DEVICE),
            ("Probe", PROBE),
            ("ExecAction", EXEC_ACTION),
            ("HTTPGetAction", HTTP_GET_ACTION),
            ("HTTPHeader", HTTP_HEADER),
            ("TCPSocketAction", TCP_SOCKET_ACTION),
            ("GRPCAction", GRPC_ACTION),
            ("Lifecycle", LIFECYCLE),
            ("LifecycleHandler", LIFECYCLE_HANDLER),
            ("SleepAction", SLEEP_ACTION),
            ("SecurityContext", SECURITY_CONTEXT),
            ("Capabilities", CAPABILITIES),
            ("SELinuxOptions", SE_LINUX_OPTIONS),
            ("WindowsSecurityContextOptions", WINDOWS_OPTIONS),
            ("SeccompProfile", PROFILE),
            ("AppArmorProfile", PROFILE),
        ];
        for (definition, table) in tables {
            let known = by_definition
                .remove(*definition)
                .unwrap_or_else(|| panic!("{definition} is not in k8s-openapi's Container schema"));
            assert_eq!(keys(table), known, "{definition}");
        }
        assert!(
            by_definition.is_empty(),
            "objects without a table: {by_definition:?}"
        );
    }

    proptest::proptest! {
        /// Whatever the text, no panic; and an escaped string is JSON that reads back.
        #[test]
        fn any_text_is_handled(text in "\\PC{0,24}", digits in "[-+0-9.eEinumkKMGTP ]{0,30}") {
            let _ = quantity(&text);
            let _ = crate::workloads::common::quantity::quantity_rounded_up_to_milli(&digits);
            let mut out = String::new();
            write_string(&mut out, &text);
            proptest::prop_assert_eq!(serde_json::from_str::<String>(&out).ok(), Some(text));
        }
    }
}
