//! Identity tests: the pod and claims built for an ordinal, claim ownership per retention
//! policy, and the label patch that repairs a drifted identity.
use proptest::prelude::*;
use serde_json::json;

use super::*;

const NOW: &str = "2026-12-02T12:00:00Z";
const REVISION: &str = "web-b976d4544";

fn set(spec: Value) -> StatefulSet {
    let mut doc = json!({
        "apiVersion": "apps.kruise.io/v1beta1",
        "kind": "StatefulSet",
        "metadata": { "name": "web", "namespace": "ns", "uid": "set-uid" },
        "spec": {
            "serviceName": "web-svc",
            "selector": { "matchLabels": { "app": "web" } },
            "template": {
                "metadata": {
                    "labels": { "app": "web", "tier": "db" },
                    "annotations": { "note": "kept" },
                    "finalizers": ["example.com/keep"],
                },
                "spec": {
                    "containers": [{ "name": "app", "image": "nginx:1" }],
                    "volumes": [
                        { "name": "data", "emptyDir": {} },
                        { "name": "config", "configMap": { "name": "web-config" } },
                    ],
                },
            },
            "volumeClaimTemplates": [
                {
                    "metadata": { "name": "data", "labels": { "app": "other", "disk": "ssd" } },
                    "spec": { "accessModes": ["ReadWriteOnce"], "resources": { "requests": { "storage": "1Gi" } } },
                },
                { "metadata": { "name": "logs" }, "spec": { "accessModes": ["ReadWriteOnce"] } },
            ],
        },
    });
    if let (Some(target), Some(extra)) = (doc["spec"].as_object_mut(), spec.as_object()) {
        target.extend(extra.clone());
    }
    serde_json::from_value(doc).expect("statefulset")
}

fn pod_for(set: &StatefulSet, ordinal: i32) -> Pod {
    new_pod(set, ordinal, REVISION, &set.spec.template, NOW)
}

fn claim_of(pod: &Pod, volume: &str) -> Option<String> {
    let volumes = pod.spec.as_ref()?.volumes.as_ref()?;
    let found = volumes.iter().find(|v| v.name == volume)?;
    Some(found.persistent_volume_claim.as_ref()?.claim_name.clone())
}

fn owner(kind: &str, name: &str) -> OwnerReference {
    OwnerReference {
        api_version: "v1".into(),
        kind: kind.into(),
        name: name.into(),
        uid: format!("{name}-uid"),
        ..OwnerReference::default()
    }
}

#[test]
fn names_are_built_from_set_claim_and_ordinal() {
    assert_eq!(pod_name("web", 0), "web-0");
    assert_eq!(pod_name("my-web", 12), "my-web-12");
    assert_eq!(claim_name("data", "web", 3), "data-web-3");
    assert_eq!(claim_name("data-vol", "my-web", 0), "data-vol-my-web-0");
}

#[test]
fn a_new_pod_carries_name_labels_owner_and_network_identity() {
    let set = set(json!({}));
    let pod = pod_for(&set, 2);
    assert_eq!(pod.metadata.name.as_deref(), Some("web-2"));
    assert_eq!(pod.metadata.namespace.as_deref(), Some("ns"));
    assert_eq!(pod.metadata.generate_name, None);
    let labels = pod.labels();
    assert_eq!(labels["app"], "web");
    assert_eq!(labels["tier"], "db");
    assert_eq!(labels[REVISION_LABEL], REVISION);
    assert_eq!(labels[POD_NAME_LABEL], "web-2");
    assert_eq!(labels[POD_INDEX_LABEL], "2");
    assert_eq!(labels[lifecycle::STATE_LABEL], lifecycle::NORMAL);
    assert_eq!(pod.annotations()["note"], "kept");
    assert_eq!(pod.annotations()[lifecycle::TIMESTAMP_ANNOTATION], NOW);
    assert_eq!(pod.finalizers(), ["example.com/keep"]);
    assert_eq!(
        pod.owner_references(),
        [OwnerReference {
            api_version: "apps.kruise.io/v1beta1".into(),
            kind: "StatefulSet".into(),
            name: "web".into(),
            uid: "set-uid".into(),
            controller: Some(true),
            block_owner_deletion: Some(true),
        }]
    );
    let spec = pod.spec.as_ref().expect("spec");
    assert_eq!(spec.hostname.as_deref(), Some("web-2"));
    assert_eq!(spec.subdomain.as_deref(), Some("web-svc"));
    assert_eq!(spec.containers[0].image.as_deref(), Some("nginx:1"));
    assert!(spec.readiness_gates.is_none(), "no gate is injected");
}

#[test]
fn claim_volumes_replace_template_volumes_of_the_same_name_in_place() {
    let pod = pod_for(&set(json!({})), 4);
    let volumes: Vec<&str> = pod
        .spec
        .iter()
        .flat_map(|s| s.volumes.iter().flatten())
        .map(|v| v.name.as_str())
        .collect();
    assert_eq!(volumes, ["data", "config", "logs"]);
    assert_eq!(claim_of(&pod, "data").as_deref(), Some("data-web-4"));
    assert_eq!(claim_of(&pod, "logs").as_deref(), Some("logs-web-4"));
    assert_eq!(claim_of(&pod, "config"), None);
    let data = pod
        .spec
        .iter()
        .flat_map(|s| s.volumes.iter().flatten())
        .find(|v| v.name == "data");
    assert!(
        data.is_some_and(|v| v.empty_dir.is_none()),
        "the emptyDir source is gone"
    );
}

#[test]
fn without_service_name_claims_or_template_spec_the_pod_still_has_its_identity() {
    let cases = [json!({ "serviceName": null }), json!({ "serviceName": "" })];
    for spec in cases {
        let pod = pod_for(&set(spec.clone()), 0);
        assert_eq!(
            pod.spec.as_ref().and_then(|s| s.subdomain.clone()),
            None,
            "{spec}"
        );
    }
    let mut bare = set(json!({ "volumeClaimTemplates": null }));
    bare.spec.template = PodTemplateSpec::default();
    let pod = pod_for(&bare, 1);
    let spec = pod.spec.as_ref().expect("spec is created");
    assert_eq!(spec.hostname.as_deref(), Some("web-1"));
    assert_eq!(spec.volumes, None);
    assert_eq!(pod.labels()[POD_INDEX_LABEL], "1");
}

#[test]
fn a_pre_normal_hook_not_yet_fully_held_creates_the_pod_preparing_normal() {
    let hook = |labels: Value, finalizers: Value| json!({ "lifecycle": { "preNormal": { "labelsHandler": labels, "finalizersHandler": finalizers } } });
    // (lifecycle, expected state)
    let cases = [
        (
            hook(json!({ "gate": "wait" }), json!([])),
            lifecycle::PREPARING_NORMAL,
        ),
        (
            hook(json!({ "tier": "db" }), json!(["example.com/hold"])),
            lifecycle::PREPARING_NORMAL,
        ),
        // The template already carries every label and finalizer of the hook.
        (
            hook(json!({ "tier": "db" }), json!(["example.com/keep"])),
            lifecycle::NORMAL,
        ),
        (hook(json!({}), json!([])), lifecycle::NORMAL),
        (json!({ "lifecycle": {} }), lifecycle::NORMAL),
    ];
    for (spec, want) in cases {
        let pod = pod_for(&set(spec.clone()), 0);
        assert_eq!(pod.labels()[lifecycle::STATE_LABEL], want, "{spec}");
    }
}

#[test]
fn new_claims_copy_the_templates_with_selector_labels() {
    let claims = new_claims(&set(json!({})), 3);
    let names: Vec<String> = claims.iter().map(|c| c.name_any()).collect();
    assert_eq!(names, ["data-web-3", "logs-web-3"]);
    let data = &claims[0];
    assert_eq!(data.metadata.namespace.as_deref(), Some("ns"));
    assert_eq!(data.labels()["app"], "web", "the selector wins over the template");
    assert_eq!(data.labels()["disk"], "ssd");
    assert_eq!(claims[1].labels()["app"], "web");
    let spec = serde_json::to_value(&data.spec).expect("json");
    assert_eq!(spec["resources"]["requests"]["storage"], "1Gi");
    assert!(data.status.is_none());
    assert!(
        data.metadata.owner_references.is_none(),
        "Retain/Retain by default"
    );
    assert!(new_claims(&set(json!({ "volumeClaimTemplates": null })), 0).is_empty());
}

#[test]
fn new_claims_are_owned_by_the_set_when_deletion_deletes_them() {
    let policy = |d: &str, s: &str| json!({ "persistentVolumeClaimRetentionPolicy": { "whenDeleted": d, "whenScaled": s } });
    let cases = [
        (policy("Delete", "Retain"), true),
        (policy("Delete", "Delete"), true),
        (policy("Retain", "Delete"), false),
    ];
    for (spec, owned) in cases {
        let set = set(spec.clone());
        let claims = new_claims(&set, 0);
        let refs = claims[0].metadata.owner_references.clone();
        assert_eq!(refs, owned.then(|| vec![set_owner_ref(&set)]), "{spec}");
    }
}

#[test]
fn claim_owners_follow_the_retention_policy() {
    use PersistentVolumeClaimRetentionPolicyType::{Delete, Retain};
    let set_ref = owner("StatefulSet", "web");
    let pod_ref = owner("Pod", "web-5");
    let (s, p) = (Some("set"), Some("pod"));
    // (whenDeleted, whenScaled, in range, pod exists, expected owner)
    let cases = [
        (None, None, true, true, None),
        (None, None, false, true, None),
        (Some(Retain), Some(Retain), false, true, None),
        (Some(Delete), Some(Retain), true, true, s),
        (Some(Delete), None, false, true, s),
        (Some(Retain), Some(Delete), true, true, None),
        (None, Some(Delete), false, true, p),
        (None, Some(Delete), false, false, None),
        (Some(Delete), Some(Delete), true, true, s),
        (Some(Delete), Some(Delete), false, true, p),
        (Some(Delete), Some(Delete), false, false, s),
    ];
    for (when_deleted, when_scaled, in_range, pod_exists, want) in cases {
        let policy = PersistentVolumeClaimRetentionPolicy {
            when_deleted,
            when_scaled,
        };
        let refs = claim_owner_refs(
            Some(&policy),
            set_ref.clone(),
            pod_exists.then(|| pod_ref.clone()),
            in_range,
        );
        let got: Vec<&str> = refs
            .iter()
            .map(|r| if r.kind == "Pod" { "pod" } else { "set" })
            .collect();
        assert_eq!(
            got,
            Vec::from_iter(want),
            "{policy:?} in range {in_range} pod {pod_exists}"
        );
    }
    assert!(claim_owner_refs(None, set_ref, Some(pod_ref), false).is_empty());
}

#[test]
fn a_pod_reference_needs_a_created_pod() {
    let mut pod = pod_for(&set(json!({})), 1);
    assert_eq!(pod_owner_ref(&pod), None);
    pod.metadata.uid = Some("pod-uid".into());
    let reference = pod_owner_ref(&pod).expect("created pod");
    assert_eq!(
        (reference.api_version.as_str(), reference.kind.as_str()),
        ("v1", "Pod")
    );
    assert_eq!(
        (reference.name.as_str(), reference.uid.as_str()),
        ("web-1", "pod-uid")
    );
    assert_eq!(reference.controller, None);
}

#[test]
fn identity_drift_restores_only_the_missing_or_wrong_labels() {
    let set = set(json!({}));
    let intact = pod_for(&set, 2);
    assert_eq!(identity_drift(&set, 2, &intact), None);
    let edit = |edit: fn(&mut BTreeMap<String, String>)| {
        let mut pod = intact.clone();
        edit(pod.labels_mut());
        pod
    };
    let cases = [
        (
            edit(|l| {
                l.remove(POD_INDEX_LABEL);
            }),
            json!({ POD_INDEX_LABEL: "2" }),
        ),
        (
            edit(|l| {
                l.insert(POD_NAME_LABEL.into(), "web-9".into());
            }),
            json!({ POD_NAME_LABEL: "web-2" }),
        ),
        (
            edit(BTreeMap::clear),
            json!({ POD_NAME_LABEL: "web-2", POD_INDEX_LABEL: "2" }),
        ),
    ];
    for (pod, labels) in cases {
        assert_eq!(
            identity_drift(&set, 2, &pod),
            Some(json!({ "metadata": { "labels": labels } }))
        );
    }
    let mut unlabelled = intact.clone();
    unlabelled.metadata.labels = None;
    assert!(identity_drift(&set, 2, &unlabelled).is_some());
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// A freshly built pod has no drift, and applying the drift patch to a pod with random
    /// identity labels leaves none.
    #[test]
    fn the_drift_patch_repairs_the_identity(
        ordinal in 0i32..=i32::MAX,
        name_label in proptest::option::of("[a-z0-9-]{0,8}"),
        index_label in proptest::option::of("[0-9]{0,3}"),
    ) {
        let set = set(json!({}));
        let mut pod = pod_for(&set, ordinal);
        prop_assert_eq!(identity_drift(&set, ordinal, &pod), None);
        let labels = pod.labels_mut();
        labels.remove(POD_NAME_LABEL);
        labels.remove(POD_INDEX_LABEL);
        labels.extend(name_label.map(|v| (POD_NAME_LABEL.to_string(), v)));
        labels.extend(index_label.map(|v| (POD_INDEX_LABEL.to_string(), v)));
        if let Some(patch) = identity_drift(&set, ordinal, &pod) {
            let mut doc = serde_json::to_value(&pod).expect("json");
            json_patch::merge(&mut doc, &patch);
            let repaired: Pod = serde_json::from_value(doc).expect("pod");
            prop_assert_eq!(identity_drift(&set, ordinal, &repaired), None);
            prop_assert_eq!(&repaired.labels()[REVISION_LABEL], REVISION);
        }
    }
}
