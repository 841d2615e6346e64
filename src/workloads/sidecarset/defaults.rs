//! A SidecarSet's defaults, as OpenKruise's mutating webhook writes
//! them: the update strategy (`RollingUpdate`, maxUnavailable 1, partition 0), per sidecar
//! the inject policy (`BeforeAppContainer` for containers, `AfterAppContainer` for init
//! containers), `ColdUpgrade`, `shareVolumePolicy: disabled` and Kubernetes' container
//! defaults, the volumes' defaults, `revisionHistoryLimit: 10`, `patchPolicy: Retain` and a
//! pinned revision's `policy: Always`. Pure, on JSON.
//!
//! Invariants: only absent fields are filled, a value the user set is kept (resource
//! quantities aside: rounded up to milli-units, as upstream); defaulting twice changes
//! nothing; the sidecars get exactly OpenKruise's `setDefaultSidecarContainer`
//! ([`webhook_defaulted`]: no startup-probe defaults, the pull policy from Docker's reading
//! of the image reference), and the hash annotations are computed over sidecars defaulted
//! the same way ([`super::hash`]), so a SidecarSet stored while no webhook ran and then
//! defaulted by an update keeps its hashes (its pods stay updated and upgradable).
use serde_json::{Value, json};

use k8s_openapi::api::core::v1::{Container, HTTPGetAction, Probe};
use k8s_openapi::apimachinery::pkg::api::resource::Quantity;

use crate::api::sidecarset::{PodInjectPolicy, ShareVolumePolicyType, SidecarContainer};
use crate::runtime::template_defaults::volume_defaulted;

fn fill(object: &mut Value, key: &str, value: Value) {
    if let Some(map) = object.as_object_mut()
        && map.get(key).is_none_or(Value::is_null)
    {
        map.insert(key.into(), value);
    }
}

/// The items of the list at `key` of `object` (none when absent: never inserted).
fn each<'v>(object: &'v mut Value, key: &str) -> impl Iterator<Item = &'v mut Value> {
    object
        .get_mut(key)
        .and_then(Value::as_array_mut)
        .into_iter()
        .flatten()
}

/// One sidecar (a container or init container entry, as JSON) defaulted as OpenKruise's
/// webhook does ([`webhook_defaulted`]); `policy`: its default inject policy. Fields the
/// typed sidecar does not know are kept; an unreadable entry is left as it is.
pub fn sidecar(container: &mut Value, policy: &str) {
    let policy = match policy {
        "AfterAppContainer" => PodInjectPolicy::AfterAppContainer,
        _ => PodInjectPolicy::BeforeAppContainer,
    };
    let Ok(typed) = serde_json::from_value::<SidecarContainer>(container.clone()) else {
        return;
    };
    if let Ok(defaulted) = serde_json::to_value(webhook_defaulted(&typed, policy)) {
        json_patch::merge(container, &defaulted);
    }
}

/// `value` set to `default` when absent or empty (Go's zero value is "unset").
fn fill_text(value: &mut Option<String>, default: &str) {
    if value.as_deref().is_none_or(str::is_empty) {
        *value = Some(default.to_string());
    }
}

/// An int32 set to `default` when absent or zero.
fn fill_number(value: &mut Option<i32>, default: i32) {
    if value.is_none_or(|v| v == 0) {
        *value = Some(default);
    }
}

/// One sidecar as OpenKruise v1.9.0's SidecarSet webhook defaults it before hashing;
/// `policy`: the inject policy it gets when it has none.
pub fn webhook_defaulted(sidecar: &SidecarContainer, policy: PodInjectPolicy) -> SidecarContainer {
    let mut sidecar = sidecar.clone();
    sidecar.pod_inject_policy.get_or_insert(policy);
    let upgrade = sidecar.upgrade_strategy.get_or_insert_with(Default::default);
    fill_text(&mut upgrade.upgrade_type, "ColdUpgrade");
    let share = sidecar.share_volume_policy.get_or_insert_with(Default::default);
    share.type_.get_or_insert(ShareVolumePolicyType::Disabled);
    for rule in sidecar.transfer_env.iter_mut().flatten() {
        if let Some(field) = rule
            .source_container_name_from
            .as_mut()
            .and_then(|s| s.field_ref.as_mut())
        {
            fill_text(&mut field.api_version, "v1");
        }
    }
    container_defaulted(&mut sidecar.container);
    sidecar
}

/// The container part of OpenKruise's sidecar defaults: Kubernetes' `SetDefaults_Container`
/// (pull policy, termination message), port protocols, env field references, resource
/// quantities rounded up to milli-units, liveness and readiness probes (not the startup
/// probe) and lifecycle HTTP handlers.
fn container_defaulted(container: &mut Container) {
    let pull_policy = super::image_ref::pull_policy_of(container.image.as_deref().unwrap_or_default());
    fill_text(&mut container.image_pull_policy, pull_policy);
    fill_text(&mut container.termination_message_path, "/dev/termination-log");
    fill_text(&mut container.termination_message_policy, "File");
    for port in container.ports.iter_mut().flatten() {
        fill_text(&mut port.protocol, "TCP");
    }
    for env in container.env.iter_mut().flatten() {
        if let Some(field) = env.value_from.as_mut().and_then(|v| v.field_ref.as_mut()) {
            fill_text(&mut field.api_version, "v1");
        }
    }
    if let Some(resources) = container.resources.as_mut() {
        for list in [&mut resources.limits, &mut resources.requests]
            .into_iter()
            .flatten()
        {
            for quantity in list.values_mut() {
                if let Some(rounded) =
                    crate::workloads::common::quantity::quantity_rounded_up_to_milli(&quantity.0)
                {
                    *quantity = Quantity(rounded);
                }
            }
        }
    }
    for probe in [&mut container.liveness_probe, &mut container.readiness_probe]
        .into_iter()
        .flatten()
    {
        probe_defaulted(probe);
    }
    if let Some(lifecycle) = container.lifecycle.as_mut() {
        for handler in [&mut lifecycle.post_start, &mut lifecycle.pre_stop]
            .into_iter()
            .flatten()
        {
            if let Some(get) = handler.http_get.as_mut() {
                http_get_defaulted(get);
            }
        }
    }
}

fn probe_defaulted(probe: &mut Probe) {
    fill_number(&mut probe.timeout_seconds, 1);
    fill_number(&mut probe.period_seconds, 10);
    fill_number(&mut probe.success_threshold, 1);
    fill_number(&mut probe.failure_threshold, 3);
    if let Some(get) = probe.http_get.as_mut() {
        http_get_defaulted(get);
    }
}

fn http_get_defaulted(get: &mut HTTPGetAction) {
    fill_text(&mut get.path, "/");
    fill_text(&mut get.scheme, "HTTP");
}

/// `object` (a SidecarSet as JSON) with its defaults.
pub fn defaulted(object: &Value) -> Value {
    let mut out = object.clone();
    let Some(spec) = out.get_mut("spec").filter(|s| s.is_object()) else {
        return out;
    };
    fill(spec, "updateStrategy", json!({}));
    if let Some(strategy) = spec.get_mut("updateStrategy") {
        fill(strategy, "type", json!("RollingUpdate"));
        fill(strategy, "maxUnavailable", json!(1));
        fill(strategy, "partition", json!(0));
    }
    for init in each(spec, "initContainers") {
        sidecar(init, "AfterAppContainer");
    }
    for container in each(spec, "containers") {
        sidecar(container, "BeforeAppContainer");
    }
    for volume in each(spec, "volumes") {
        volume_defaulted(volume);
    }
    fill(spec, "revisionHistoryLimit", json!(10));
    for patch in each(spec, "patchPodMetadata") {
        fill(patch, "patchPolicy", json!("Retain"));
    }
    if let Some(revision) = spec
        .get_mut("injectionStrategy")
        .and_then(|s| s.get_mut("revision"))
        .filter(|r| r.is_object())
    {
        fill(revision, "policy", json!("Always"));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bare_sidecarset_gets_upstreams_defaults_and_set_fields_are_kept() {
        let bare = json!({ "spec": {
            "selector": { "matchLabels": { "app": "web" } },
            "containers": [{ "name": "log", "image": "fluent:1.2", "ports": [{ "containerPort": 80 }] }],
            "initContainers": [{ "name": "init", "image": "busybox" }],
            "volumes": [{ "name": "conf", "configMap": { "name": "c" } }],
            "patchPodMetadata": [{ "annotations": { "a": "b" } }],
            "injectionStrategy": { "paused": false },
        } });
        let out = defaulted(&bare);
        let spec = &out["spec"];
        assert_eq!(
            spec["updateStrategy"],
            json!({ "type": "RollingUpdate", "maxUnavailable": 1, "partition": 0 })
        );
        let log = &spec["containers"][0];
        assert_eq!(log["podInjectPolicy"], "BeforeAppContainer");
        assert_eq!(log["upgradeStrategy"], json!({ "upgradeType": "ColdUpgrade" }));
        assert_eq!(log["shareVolumePolicy"], json!({ "type": "disabled" }));
        assert_eq!(log["imagePullPolicy"], "IfNotPresent");
        assert_eq!(log["terminationMessagePath"], "/dev/termination-log");
        assert_eq!(log["ports"][0]["protocol"], "TCP");
        assert_eq!(spec["initContainers"][0]["podInjectPolicy"], "AfterAppContainer");
        assert_eq!(spec["initContainers"][0]["imagePullPolicy"], "Always");
        assert_eq!(spec["volumes"][0]["configMap"]["defaultMode"], 420);
        assert_eq!(spec["revisionHistoryLimit"], 10);
        assert_eq!(spec["patchPodMetadata"][0]["patchPolicy"], "Retain");
        assert_eq!(
            spec["injectionStrategy"],
            json!({ "paused": false }),
            "no revision, no policy"
        );
        assert_eq!(defaulted(&out), out, "defaulting twice changes nothing");
        let minimal = json!({ "spec": { "containers": [{ "name": "log", "image": "fluent" }] } });
        let minimal = defaulted(&minimal);
        let keys: Vec<&String> = minimal["spec"].as_object().expect("spec").keys().collect();
        assert_eq!(
            keys,
            ["containers", "revisionHistoryLimit", "updateStrategy"],
            "no absent list is written"
        );
        let container = &minimal["spec"]["containers"][0];
        assert!(container.get("transferEnv").is_none(), "{container}");
        let set = json!({ "spec": { "updateStrategy": { "type": "NotUpdate", "maxUnavailable": "50%" },
            "containers": [{ "name": "log", "image": "fluent", "podInjectPolicy": "AfterAppContainer" }],
            "injectionStrategy": { "revision": { "customVersion": "v1" } } } });
        let out = defaulted(&set);
        assert_eq!(out["spec"]["updateStrategy"]["maxUnavailable"], "50%");
        assert_eq!(out["spec"]["updateStrategy"]["type"], "NotUpdate");
        assert_eq!(
            out["spec"]["containers"][0]["podInjectPolicy"],
            "AfterAppContainer"
        );
        assert_eq!(out["spec"]["injectionStrategy"]["revision"]["policy"], "Always");
    }

    fn has_null(v: &Value) -> bool {
        match v {
            Value::Null => true,
            Value::Array(a) => a.iter().any(has_null),
            Value::Object(m) => m.values().any(has_null),
            _ => false,
        }
    }

    proptest::proptest! {
        /// Whatever optional fields a SidecarSet has, defaulting writes no null (an UPDATE
        /// through the webhook must not bump the generation by adding empty keys) and a
        /// second pass changes nothing.
        #[test]
        fn defaulting_is_idempotent_and_writes_no_null(present in proptest::collection::vec(proptest::bool::ANY, 8)) {
            let optional = [
                ("initContainers", json!([{ "name": "init", "image": "busybox:1" }])),
                ("volumes", json!([{ "name": "v" }])),
                ("patchPodMetadata", json!([{ "annotations": { "a": "b" } }])),
                ("injectionStrategy", json!({ "paused": true })),
                ("updateStrategy", json!({ "paused": true })),
                ("imagePullSecrets", json!([{ "name": "s" }])),
                ("namespaceSelector", json!({ "matchLabels": { "a": "b" } })),
                ("revisionHistoryLimit", json!(3)),
            ];
            let mut spec = json!({ "selector": { "matchLabels": { "app": "web" } },
                "containers": [{ "name": "log", "image": "fluent",
                    "transferEnv": [{ "sourceContainerName": "app", "envName": "A" }] }] });
            for ((key, value), on) in optional.iter().zip(&present) {
                if *on {
                    spec[*key] = value.clone();
                }
            }
            let object = json!({ "spec": spec });
            let once = defaulted(&object);
            proptest::prop_assert!(!has_null(&once), "{once}");
            proptest::prop_assert_eq!(defaulted(&once), once);
        }
    }
}
