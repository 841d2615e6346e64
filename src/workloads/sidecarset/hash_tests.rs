use serde::Deserialize;

use super::*;
use crate::workloads::sidecarset::image_ref::pull_policy_of;

fn set(image: &str, annotations: Value) -> SidecarSet {
    serde_json::from_value(
        json!({ "apiVersion": "apps.kruise.io/v1alpha1", "kind": "SidecarSet",
        "metadata": { "name": "log", "annotations": annotations },
        "spec": { "selector": { "matchLabels": { "app": "web" } },
            "containers": [{ "name": "log", "image": image, "env": [{ "name": "A", "value": "1" }] }] } }),
    )
    .expect("set")
}

#[test]
fn an_image_change_moves_one_hash_only() {
    let (a, a_bare) = hashes(&set("fluentbit:1", json!({})));
    let (b, b_bare) = hashes(&set("fluentbit:2", json!({})));
    assert_ne!(a, b);
    assert_eq!(a_bare, b_bare);
    assert_eq!(a.len(), 64);
    assert!(a.bytes().all(|c| ID_ALPHABET.contains(&c)));
}

#[test]
fn openkruise_s_hashes_are_kept_until_the_containers_change() {
    let fresh = annotations_patch(&set("fluentbit:1", json!({}))).expect("written");
    assert!(fresh["metadata"]["annotations"][HASH_ANNOTATION].is_string());
    let theirs = json!({ HASH_ANNOTATION: "upstream", HASH_WITHOUT_IMAGE_ANNOTATION: "upstream-bare" });
    let adopted = annotations_patch(&set("fluentbit:1", theirs.clone())).expect("input remembered");
    assert!(
        adopted["metadata"]["annotations"].get(HASH_ANNOTATION).is_none(),
        "{adopted}"
    );
    let input = adopted["metadata"]["annotations"][INPUT_ANNOTATION].clone();
    let mut kept = theirs.clone();
    kept[INPUT_ANNOTATION] = input;
    assert!(
        annotations_patch(&set("fluentbit:1", kept.clone())).is_none(),
        "nothing changed"
    );
    let changed = annotations_patch(&set("fluentbit:2", kept)).expect("rewritten");
    assert!(changed["metadata"]["annotations"][HASH_ANNOTATION].is_string());
}

/// One case of the fixture measured with OpenKruise v1.9.0.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Measured {
    name: String,
    sidecarset: Value,
    hash: String,
    hash_without_image: String,
}

#[test]
fn the_hashes_are_openkruise_s() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/openkruise/sidecarset-hashes.yaml"
    );
    let text = std::fs::read_to_string(path).expect("fixture");
    let cases: Vec<Measured> = serde_saphyr::from_str(&text).expect("fixture parses");
    assert!(cases.len() >= 8, "{} cases", cases.len());
    let mut wrong = Vec::new();
    for case in &cases {
        let set: SidecarSet =
            serde_json::from_value(case.sidecarset.clone()).unwrap_or_else(|e| panic!("{}: {e}", case.name));
        let (hash, bare) = hashes(&set);
        if hash != case.hash || bare != case.hash_without_image {
            wrong.push(format!("{}: {}", case.name, encode(&set, false)));
        }
    }
    assert!(wrong.is_empty(), "differ from OpenKruise:\n{}", wrong.join("\n"));
}

#[test]
fn a_defaulted_set_hashes_as_the_bare_one() {
    let bare = set("fluentbit:1", json!({}));
    let mut defaulted = bare.clone();
    for sidecar in defaulted.spec.containers.iter_mut().flatten() {
        *sidecar = webhook_defaulted(sidecar, PodInjectPolicy::BeforeAppContainer);
    }
    assert_ne!(defaulted, bare);
    assert_eq!(hashes(&defaulted), hashes(&bare));
}

/// Our webhook's defaults are the ones hashed: a set stored through it (with a startup probe,
/// a digest-pinned image, quantities to round) hashes as it did before.
#[test]
fn a_set_defaulted_by_our_webhook_hashes_as_the_bare_one() {
    let digest = "sha256:0d17b565c37bcbd895e9d92315a05c1c3c9a29f762b011a10c54a66cd53c9b31";
    let object = json!({ "apiVersion": "apps.kruise.io/v1alpha1", "kind": "SidecarSet",
        "metadata": { "name": "log" },
        "spec": { "selector": { "matchLabels": { "app": "web" } },
            "containers": [{ "name": "log", "image": format!("fluent@{digest}"),
                "startupProbe": { "exec": { "command": ["true"] } },
                "readinessProbe": { "httpGet": { "port": 80 } },
                "resources": { "requests": { "cpu": "0.5", "memory": "1024Mi" } } }] } });
    let bare: SidecarSet = serde_json::from_value(object.clone()).expect("bare");
    let stored: SidecarSet =
        serde_json::from_value(crate::workloads::sidecarset::defaults::defaulted(&object))
            .expect("defaulted");
    assert_ne!(stored, bare);
    assert_eq!(hashes(&stored), hashes(&bare));
}

/// Measured with Kubernetes v1.32.10's `SetDefaults_Container`.
#[test]
fn pull_policies_are_kubernetes_defaults() {
    let digest = "sha256:0d17b565c37bcbd895e9d92315a05c1c3c9a29f762b011a10c54a66cd53c9b31";
    let long = "a".repeat(256);
    let measured: Vec<(String, &str)> = vec![
        ("".into(), "IfNotPresent"),
        ("nginx".into(), "Always"),
        ("nginx:latest".into(), "Always"),
        ("nginx:1.25".into(), "IfNotPresent"),
        ("NGINX".into(), "IfNotPresent"),
        ("docker.io/library/nginx".into(), "Always"),
        ("index.docker.io/nginx".into(), "Always"),
        ("localhost/app".into(), "Always"),
        ("localhost:5000/app:latest".into(), "Always"),
        ("Registry.Example.com/app".into(), "Always"),
        ("registry.example.com/App:1".into(), "IfNotPresent"),
        ("registry.example.com:5000/team/app".into(), "Always"),
        ("[::1]:5000/app:latest".into(), "Always"),
        ("[::1]:5000/app:v1".into(), "IfNotPresent"),
        (format!("nginx@{digest}"), "IfNotPresent"),
        (format!("nginx:latest@{digest}"), "Always"),
        ("nginx:latest@sha256:0d17".into(), "IfNotPresent"),
        (format!("nginx:latest@md5:{}", &digest[7..]), "IfNotPresent"),
        (format!("nginx:latest@sha512:{0}{0}", &digest[7..]), "Always"),
        (digest[7..].to_string(), "IfNotPresent"),
        ("nginx:".into(), "IfNotPresent"),
        ("nginx:-x".into(), "IfNotPresent"),
        ("nginx:LATEST".into(), "IfNotPresent"),
        ("a/b/c/d:latest".into(), "Always"),
        ("a__b:latest".into(), "Always"),
        ("a___b:latest".into(), "IfNotPresent"),
        ("a--b:latest".into(), "Always"),
        ("-a:latest".into(), "IfNotPresent"),
        ("a.:latest".into(), "IfNotPresent"),
        ("ex ample:latest".into(), "IfNotPresent"),
        ("nginx:latest ".into(), "IfNotPresent"),
        ("é:latest".into(), "IfNotPresent"),
        ("a/:latest".into(), "IfNotPresent"),
        ("UPPER/lower:latest".into(), "Always"),
        ("host:port/app:latest".into(), "IfNotPresent"),
        ("Upper.com/app:latest".into(), "Always"),
        ("abc:latest:latest".into(), "IfNotPresent"),
        ("nginx:l@test".into(), "IfNotPresent"),
        (format!("{long}:latest"), "IfNotPresent"),
        (format!("docker.io/{}:latest", &long[..250]), "IfNotPresent"),
    ];
    for (image, policy) in measured {
        assert_eq!(pull_policy_of(&image), policy, "{image:?}");
    }
}

#[test]
fn the_set_planned_carries_the_hashes_its_patch_writes() {
    let old = set("fluentbit:1", json!({}));
    let (first, patch) = with_fresh_annotations(&old);
    assert!(patch.is_some());
    let written = first.metadata.annotations.clone().expect("annotations");
    let mut changed = set("fluentbit:2", serde_json::to_value(&written).expect("json"));
    let (fresh, patch) = with_fresh_annotations(&changed);
    assert!(patch.is_some(), "the image changed");
    assert_eq!(
        fresh
            .metadata
            .annotations
            .as_ref()
            .and_then(|a| a.get(HASH_ANNOTATION)),
        Some(&hashes(&changed).0)
    );
    assert_ne!(fresh.metadata.annotations, written.clone().into());
    changed.metadata.annotations = fresh.metadata.annotations.clone();
    let (again, none) = with_fresh_annotations(&changed);
    assert!(none.is_none());
    assert_eq!(again.metadata.annotations, changed.metadata.annotations);
}
