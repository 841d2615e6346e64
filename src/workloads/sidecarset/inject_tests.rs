//! Injection table tests, with a golden pod worked out by hand from upstream's injection
//! rules (the sidecars and volumes added, and the annotations written on the pod).
use serde_json::{Value, json};

use super::*;

fn now() -> Timestamp {
    "2026-12-04T12:00:00Z".parse().expect("time")
}

fn sidecarset(name: &str, spec: Value, annotations: Value, latest: Option<&str>) -> SidecarSet {
    serde_json::from_value(
        json!({ "apiVersion": "apps.kruise.io/v1alpha1", "kind": "SidecarSet",
        "metadata": { "name": name, "annotations": annotations }, "spec": spec,
        "status": { "matchedPods": 0, "updatedPods": 0, "readyPods": 0, "latestRevision": latest } }),
    )
    .expect("sidecarset")
}

fn web_pod(annotations: Value) -> Pod {
    serde_json::from_value(json!({
        "metadata": { "name": "web-1", "namespace": "shop", "labels": { "app": "web" }, "annotations": annotations },
        "spec": {
            "containers": [{ "name": "app", "image": "nginx",
                "env": [{ "name": "POD_NAME", "value": "web-1" }, { "name": "REGION", "value": "eu" }],
                "volumeMounts": [{ "name": "data", "mountPath": "/data", "subPathExpr": "$(POD_NAME)" }] }],
            "volumes": [{ "name": "data", "emptyDir": {} }],
            "imagePullSecrets": [{ "name": "pod-secret" }] } }))
    .expect("pod")
}

fn log_set() -> SidecarSet {
    sidecarset(
        "log",
        json!({
            "selector": { "matchLabels": { "app": "web" } },
            "containers": [{ "name": "log-agent", "image": "fluentbit:1", "podInjectPolicy": "AfterAppContainer",
                "shareVolumePolicy": { "type": "enabled" },
                "env": [{ "name": "REGION", "value": "own" }],
                "transferEnv": [{ "sourceContainerName": "app", "envName": "REGION" }],
                "volumeMounts": [{ "name": "log-conf", "mountPath": "/conf" }] }],
            "initContainers": [
                { "name": "init-b", "image": "busybox" },
                { "name": "init-a", "image": "busybox", "podInjectPolicy": "BeforeAppContainer" }],
            "volumes": [{ "name": "log-conf", "configMap": { "name": "log-conf" } }, { "name": "unused", "emptyDir": {} }],
            "imagePullSecrets": [{ "name": "pod-secret" }, { "name": "log-secret" }],
            "patchPodMetadata": [{ "annotations": { "team": "b", "log/enabled": "true" }, "patchPolicy": "Retain" }],
        }),
        json!({ HASH_ANNOTATION: "h-with", HASH_WITHOUT_IMAGE_ANNOTATION: "h-without" }),
        Some("log-abc"),
    )
}

#[test]
fn the_golden_pod() {
    let set = log_set();
    let injected = inject(&web_pod(json!({ "team": "a" })), &[&set], now())
        .expect("no error")
        .expect("injected");
    let want = json!({
        "apiVersion": "v1", "kind": "Pod",
        "metadata": { "name": "web-1", "namespace": "shop", "labels": { "app": "web" },
            "annotations": {
                "team": "a",
                "log/enabled": "true",
                "kruise.io/sidecarset-hash": "{\"log\":{\"updateTimestamp\":\"2026-12-04T12:00:00Z\",\"hash\":\"h-with\",\"sidecarSetName\":\"log\",\"sidecarList\":[\"log-agent\"],\"controllerRevision\":\"log-abc\"}}",
                "kruise.io/sidecarset-hash-without-image": "{\"log\":{\"updateTimestamp\":\"2026-12-04T12:00:00Z\",\"hash\":\"h-without\",\"sidecarSetName\":\"log\",\"sidecarList\":[\"log-agent\"]}}",
                "kruise.io/sidecarset-injected-list": "log" } },
        "spec": {
            "initContainers": [
                { "name": "init-a", "image": "busybox", "env": [{ "name": "IS_INJECTED", "value": "true" }] },
                { "name": "init-b", "image": "busybox", "env": [{ "name": "IS_INJECTED", "value": "true" }] }],
            "containers": [
                { "name": "app", "image": "nginx",
                    "env": [{ "name": "POD_NAME", "value": "web-1" }, { "name": "REGION", "value": "eu" }],
                    "volumeMounts": [{ "name": "data", "mountPath": "/data", "subPathExpr": "$(POD_NAME)" }] },
                { "name": "log-agent", "image": "fluentbit:1",
                    "env": [{ "name": "REGION", "value": "own" }, { "name": "IS_INJECTED", "value": "true" },
                        { "name": "POD_NAME", "value": "web-1" }],
                    "volumeMounts": [{ "name": "log-conf", "mountPath": "/conf" },
                        { "name": "data", "mountPath": "/data", "subPathExpr": "$(POD_NAME)" }] }],
            "volumes": [{ "name": "data", "emptyDir": {} }, { "name": "log-conf", "configMap": { "name": "log-conf" } }],
            "imagePullSecrets": [{ "name": "pod-secret" }, { "name": "log-secret" }] } });
    assert_eq!(serde_json::to_value(&injected).expect("json"), want);
}

#[test]
fn containers_go_in_front_by_default_and_another_set_s_entries_are_kept() {
    let mesh = sidecarset(
        "mesh",
        json!({ "selector": { "matchLabels": { "app": "web" } },
            "containers": [{ "name": "proxy", "image": "envoy:1" }, { "name": "agent", "image": "a:1" }] }),
        json!({ HASH_ANNOTATION: "m1" }),
        None,
    );
    // The pod already carries an entry of another SidecarSet, in the legacy form.
    let pod = web_pod(json!({ HASH_ANNOTATION: "{\"old\":\"o1\"}", INJECTED_LIST_ANNOTATION: "old" }));
    let injected = inject(&pod, &[&mesh], now()).expect("ok").expect("injected");
    let names: Vec<&str> = injected
        .spec
        .as_ref()
        .expect("spec")
        .containers
        .iter()
        .map(|c| c.name.as_str())
        .collect();
    assert_eq!(
        names,
        ["proxy", "agent", "app"],
        "BeforeAppContainer, in spec order"
    );
    let annotations = injected.annotations();
    let hashes = read_hashes(annotations.get(HASH_ANNOTATION)).expect("hashes");
    assert_eq!(hashes.keys().collect::<Vec<_>>(), ["mesh", "old"]);
    assert_eq!(hashes["mesh"].sidecar_list, ["agent", "proxy"], "sorted");
    assert_eq!(hashes["old"].hash, "o1");
    assert_eq!(annotations[INJECTED_LIST_ANNOTATION], "mesh,old");
}

#[test]
fn a_pod_container_of_the_same_name_is_replaced_where_it_is() {
    let set = sidecarset(
        "log",
        json!({ "selector": { "matchLabels": { "app": "web" } },
            "containers": [{ "name": "app", "image": "replaced:1" }] }),
        json!({}),
        None,
    );
    let injected = inject(&web_pod(json!({})), &[&set], now())
        .expect("ok")
        .expect("injected");
    let containers = &injected.spec.as_ref().expect("spec").containers;
    assert_eq!(containers.len(), 1);
    assert_eq!(containers[0].image.as_deref(), Some("replaced:1"));
}

#[test]
fn patch_pod_metadata_policies() {
    let mut annotations = BTreeMap::from([
        ("keep".to_string(), "mine".to_string()),
        ("json".to_string(), "{\"a\":1,\"b\":2}".to_string()),
    ]);
    let patches: Vec<SidecarSetPatchPodMetadata> = serde_json::from_value(json!([
        { "annotations": { "keep": "theirs", "new": "n" }, "patchPolicy": "Retain" },
        { "annotations": { "forced": "f", "keep2": "x" }, "patchPolicy": "Overwrite" },
        { "annotations": { "json": "{\"b\":null,\"c\":3}", "fresh": "{\"z\":1}" }, "patchPolicy": "MergePatchJson" },
    ]))
    .expect("patches");
    patch_metadata(&mut annotations, &patches).expect("patched");
    assert_eq!(annotations["keep"], "mine");
    assert_eq!(annotations["new"], "n");
    assert_eq!(annotations["forced"], "f");
    assert_eq!(annotations["json"], "{\"a\":1,\"c\":3}");
    assert_eq!(annotations["fresh"], "{\"z\":1}");
}

#[test]
fn transfer_env_from_a_label_named_container_and_nothing_to_inject() {
    let set = sidecarset(
        "env",
        json!({ "selector": { "matchLabels": { "app": "web" } },
            "containers": [{ "name": "side", "image": "s:1",
                "transferEnv": [{ "sourceContainerNameFrom": { "fieldRef": { "apiVersion": "v1", "fieldPath": "metadata.labels['app-container']" } },
                    "envNames": ["REGION", "MISSING"] }] }] }),
        json!({}),
        None,
    );
    let mut pod = web_pod(json!({}));
    pod.metadata
        .labels
        .get_or_insert_with(BTreeMap::new)
        .insert("app-container".into(), "app".into());
    let injected = inject(&pod, &[&set], now()).expect("ok").expect("injected");
    let side = &injected.spec.as_ref().expect("spec").containers[0];
    let env: Vec<(&str, Option<&str>)> = side
        .env
        .iter()
        .flatten()
        .map(|e| (e.name.as_str(), e.value.as_deref()))
        .collect();
    assert_eq!(env, [("IS_INJECTED", Some("true")), ("REGION", Some("eu"))]);
    let empty = sidecarset(
        "none",
        json!({ "selector": { "matchLabels": { "app": "web" } } }),
        json!({}),
        None,
    );
    assert!(inject(&pod, &[&empty], now()).expect("ok").is_none());
}
