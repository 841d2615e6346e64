//! A SidecarSet's ControllerRevisions, decided here and written by
//! [`super::revision_sync`]. Pure.
//!
//! Invariants:
//! - A revision holds what a pod is injected with and nothing else: `{"spec": {"$patch":
//!   "replace", volumes, containers, initContainers, imagePullSecrets, patchPodMetadata}}`,
//!   all five keys present (null when empty); its labels are the set's, plus
//!   [`NAME_LABEL`] and the custom version; its annotations the set's (so the two hash
//!   annotations).
//! - Two payloads are the same revision when they hold the same five fields, the sidecars'
//!   defaults, nulls, empty objects and the `$patch` directive aside (a revision written
//!   by OpenKruise is reused; defaulting by the webhook cuts no new one).
//! - Reuse, rollback and naming follow the controller-history rules shared with the other
//!   kinds ([`crate::runtime::revision::plan_revision`]).
//! - History is trimmed to `max(1, revisionHistoryLimit)` (default 10), oldest first, never
//!   the newest, never an active one: named by a matched pod's hash entry, by
//!   `injectionStrategy.revision.revisionName`, or the newest carrying the custom version
//!   `injectionStrategy.revision.customVersion` asks for.
use std::collections::{BTreeMap, BTreeSet};

use k8s_openapi::api::core::v1::Pod;
use serde_json::{Value, json};

use super::inject::{HASH_ANNOTATION, read_hashes};
use crate::api::sidecarset::{CUSTOM_VERSION_LABEL, SidecarSet};
use crate::runtime::revision::{
    KnownRevision, RevisionStep, normalized, plan_revision, revisions_to_truncate,
};

/// Labels every revision of a SidecarSet with its name.
pub const NAME_LABEL: &str = "kruise.io/sidecarset-name";

/// `spec.revisionHistoryLimit` when none is set.
pub const DEFAULT_HISTORY_LIMIT: i32 = 10;

fn or_null<T: serde::Serialize>(list: &Option<Vec<T>>) -> Value {
    match list {
        Some(items) if !items.is_empty() => serde_json::to_value(items).unwrap_or(Value::Null),
        _ => Value::Null,
    }
}

/// What a revision of `set` holds.
pub fn payload(set: &SidecarSet) -> Value {
    let spec = &set.spec;
    json!({ "spec": {
        "$patch": "replace",
        "volumes": or_null(&spec.volumes),
        "containers": or_null(&spec.containers),
        "initContainers": or_null(&spec.init_containers),
        "imagePullSecrets": or_null(&spec.image_pull_secrets),
        "patchPodMetadata": or_null(&spec.patch_pod_metadata),
    } })
}

/// The five fields, the sidecars defaulted (a set stored before and after the webhook
/// defaulted it is one revision), without nulls, empty objects, empty lists and `$patch`.
fn comparable(data: &Value) -> Value {
    let mut spec = data["spec"].clone();
    for (key, policy) in [
        ("containers", "BeforeAppContainer"),
        ("initContainers", "AfterAppContainer"),
    ] {
        for sidecar in spec
            .get_mut(key)
            .and_then(Value::as_array_mut)
            .into_iter()
            .flatten()
        {
            super::defaults::sidecar(sidecar, policy);
        }
    }
    let mut spec = normalized(&spec);
    if let Some(map) = spec.as_object_mut() {
        map.retain(|_, v| v.as_array().is_none_or(|a| !a.is_empty()));
    }
    spec
}

/// The custom version of `set`'s current spec, if any: `v1beta1`'s `spec.customVersion`,
/// else `v1alpha1`'s label (as upstream's conversion maps one onto the other).
pub fn custom_version(set: &SidecarSet) -> Option<&str> {
    let label = || {
        set.metadata
            .labels
            .as_ref()
            .and_then(|l| l.get(CUSTOM_VERSION_LABEL))
            .map(String::as_str)
    };
    set.spec
        .custom_version
        .as_deref()
        .filter(|v| !v.is_empty())
        .or_else(label)
        .filter(|v| !v.is_empty())
}

/// The labels of a new revision of `set`: its own, its name, and its custom version.
pub fn labels(set: &SidecarSet) -> BTreeMap<String, String> {
    let mut labels = set.metadata.labels.clone().unwrap_or_default();
    labels.insert(NAME_LABEL.into(), set.metadata.name.clone().unwrap_or_default());
    if let Some(version) = custom_version(set) {
        labels.insert(CUSTOM_VERSION_LABEL.into(), version.to_string());
    }
    labels
}

/// Which revision holds `set`'s current spec: the newest, an older one (rollback) or a new
/// one.
pub fn step(set: &SidecarSet, existing: &[KnownRevision]) -> RevisionStep {
    let name = set.metadata.name.clone().unwrap_or_default();
    let collisions = set.status.as_ref().and_then(|s| s.collision_count).unwrap_or(0);
    plan_revision(&name, payload(set), existing, collisions, comparable)
}

/// The newest of `existing` labelled with `version`, by revision number.
pub fn newest_with_version<'a>(
    existing: &'a [(KnownRevision, Option<String>)],
    version: &str,
) -> Option<&'a KnownRevision> {
    existing
        .iter()
        .filter(|(_, v)| v.as_deref() == Some(version))
        .map(|(r, _)| r)
        .max_by(|a, b| (a.revision, &a.created, &a.name).cmp(&(b.revision, &b.created, &b.name)))
}

/// The revisions to delete: past `max(1, revisionHistoryLimit)`, oldest first, never
/// `latest`, a revision in `active_in_pods` (the pods' hash entries) or one the injection
/// strategy pins. `existing` carries each revision's custom version.
pub fn to_truncate(
    set: &SidecarSet,
    existing: &[(KnownRevision, Option<String>)],
    latest: &str,
    active_in_pods: &BTreeSet<String>,
) -> Vec<String> {
    let limit = set
        .spec
        .revision_history_limit
        .unwrap_or(DEFAULT_HISTORY_LIMIT)
        .max(1) as usize;
    let pinned = set
        .spec
        .injection_strategy
        .as_ref()
        .and_then(|s| s.revision.as_ref());
    let mut keep: Vec<&str> = vec![latest];
    if let Some(name) = pinned.and_then(|p| p.revision_name.as_deref()) {
        keep.push(name);
    }
    if let Some(r) = pinned
        .and_then(|p| p.custom_version.as_deref())
        .and_then(|v| newest_with_version(existing, v))
    {
        keep.push(&r.name);
    }
    let known: Vec<KnownRevision> = existing.iter().map(|(r, _)| r.clone()).collect();
    // Whole names here: a pod's hash entry names the revision in full.
    let protected: BTreeSet<&str> = keep
        .iter()
        .copied()
        .chain(active_in_pods.iter().map(String::as_str))
        .collect();
    let deletable: Vec<KnownRevision> = known
        .iter()
        .filter(|r| !protected.contains(r.name.as_str()))
        .cloned()
        .collect();
    let excess = known.len().saturating_sub(limit);
    revisions_to_truncate(
        &deletable,
        &[],
        &BTreeSet::new(),
        deletable.len().saturating_sub(excess),
    )
}

/// The revisions the pods' hash entries for `set` name (active: never trimmed).
pub fn named_in_pods(set: &SidecarSet, pods: &[&Pod]) -> BTreeSet<String> {
    let name = set.metadata.name.clone().unwrap_or_default();
    pods.iter()
        .filter_map(|p| {
            read_hashes(
                p.metadata
                    .annotations
                    .as_ref()
                    .and_then(|a| a.get(HASH_ANNOTATION)),
            )
            .ok()
            .and_then(|h| h.get(&name).map(|e| e.controller_revision.clone()))
        })
        .filter(|r| !r.is_empty())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(spec: Value, labels: Value) -> SidecarSet {
        serde_json::from_value(
            json!({ "apiVersion": "apps.kruise.io/v1alpha1", "kind": "SidecarSet",
            "metadata": { "name": "log", "labels": labels }, "spec": spec }),
        )
        .expect("set")
    }

    fn known(name: &str, revision: i64, data: Value) -> KnownRevision {
        KnownRevision {
            name: name.into(),
            revision,
            created: format!("2026-12-04T00:00:0{revision}Z"),
            data,
        }
    }

    fn log(image: &str) -> SidecarSet {
        set(
            json!({ "selector": { "matchLabels": { "app": "web" } },
                "containers": [{ "name": "log", "image": image }] }),
            json!({ "team": "obs" }),
        )
    }

    #[test]
    fn the_custom_version_is_v1beta1_s_spec_field_or_v1alpha1_s_label_and_labels_the_revision() {
        let spec = |extra: Value| {
            let mut spec = json!({ "selector": { "matchLabels": { "app": "web" } },
                "containers": [{ "name": "log", "image": "fluentbit:1" }] });
            spec.as_object_mut()
                .expect("spec")
                .extend(extra.as_object().expect("extra").clone());
            spec
        };
        let beta = set(spec(json!({ "customVersion": "v2" })), json!({}));
        assert_eq!(custom_version(&beta), Some("v2"));
        assert_eq!(
            labels(&beta).get(CUSTOM_VERSION_LABEL).map(String::as_str),
            Some("v2")
        );
        let alpha = set(spec(json!({})), json!({ CUSTOM_VERSION_LABEL: "v1" }));
        assert_eq!(custom_version(&alpha), Some("v1"));
        let both = set(
            spec(json!({ "customVersion": "v3" })),
            json!({ CUSTOM_VERSION_LABEL: "v1" }),
        );
        assert_eq!(
            custom_version(&both),
            Some("v3"),
            "the spec field wins, as upstream's conversion"
        );
        assert_eq!(
            labels(&both).get(CUSTOM_VERSION_LABEL).map(String::as_str),
            Some("v3")
        );
        let empty = set(spec(json!({ "customVersion": "" })), json!({}));
        assert_eq!(custom_version(&empty), None);
        assert!(!labels(&empty).contains_key(CUSTOM_VERSION_LABEL));
    }

    #[test]
    fn the_payload_has_the_five_injected_fields_and_nulls_for_empty_ones() {
        let data = payload(&log("fluent:1"));
        assert_eq!(
            data,
            json!({ "spec": { "$patch": "replace", "volumes": null,
                "containers": [{ "name": "log", "image": "fluent:1" }], "initContainers": null,
                "imagePullSecrets": null, "patchPodMetadata": null } })
        );
        assert_eq!(labels(&log("fluent:1"))[NAME_LABEL], "log");
        assert_eq!(labels(&log("fluent:1"))["team"], "obs");
    }

    #[test]
    fn the_newest_is_kept_an_older_one_rolled_back_to_and_a_change_is_a_new_revision() {
        let (v1, v2) = (payload(&log("fluent:1")), payload(&log("fluent:2")));
        let existing = [known("log-a", 1, v1.clone()), known("log-b", 2, v2.clone())];
        assert_eq!(
            step(&log("fluent:2"), &existing),
            RevisionStep::Current { name: "log-b".into() }
        );
        assert_eq!(
            step(&log("fluent:1"), &existing),
            RevisionStep::Reuse {
                name: "log-a".into(),
                revision: 3
            }
        );
        let RevisionStep::Create { name, revision, .. } = step(&log("fluent:3"), &existing) else {
            panic!("a new revision");
        };
        assert!(name.starts_with("log-"), "{name}");
        assert_eq!(revision, 3);
        // Written by another encoder: an empty volume list instead of null is the same.
        let mut other = v2.clone();
        other["spec"]["volumes"] = json!([]);
        other["spec"]
            .as_object_mut()
            .map(|m| m.remove("patchPodMetadata"));
        assert_eq!(
            step(&log("fluent:2"), &[known("log-x", 1, other)]),
            RevisionStep::Current { name: "log-x".into() }
        );
        // The same spec once the webhook defaulted it: the same revision.
        let mut defaulted = v2.clone();
        super::super::defaults::sidecar(&mut defaulted["spec"]["containers"][0], "BeforeAppContainer");
        assert_ne!(defaulted, v2);
        assert_eq!(
            step(&log("fluent:2"), &[known("log-d", 1, defaulted)]),
            RevisionStep::Current { name: "log-d".into() }
        );
    }

    #[test]
    fn truncation_keeps_the_limit_the_newest_and_every_active_revision() {
        let mut limited = log("fluent:5");
        limited.spec.revision_history_limit = Some(2);
        let all: Vec<(KnownRevision, Option<String>)> = (1..=5)
            .map(|i| {
                (
                    known(&format!("log-{i}"), i, json!({})),
                    (i == 2).then(|| "v2".to_string()),
                )
            })
            .collect();
        let none = BTreeSet::new();
        assert_eq!(
            to_truncate(&limited, &all, "log-5", &none),
            ["log-1", "log-2", "log-3"]
        );
        let in_pods: BTreeSet<String> = ["log-1".to_string()].into();
        assert_eq!(
            to_truncate(&limited, &all, "log-5", &in_pods),
            ["log-2", "log-3", "log-4"],
            "an active revision stays; the others go down to the limit"
        );
        let mut pinned = limited.clone();
        pinned.spec.injection_strategy =
            serde_json::from_value(json!({ "revision": { "customVersion": "v2" } })).ok();
        assert_eq!(
            to_truncate(&pinned, &all, "log-5", &none),
            ["log-1", "log-3", "log-4"]
        );
        let mut zero = limited.clone();
        zero.spec.revision_history_limit = Some(0);
        assert_eq!(
            to_truncate(&zero, &all, "log-5", &none),
            ["log-1", "log-2", "log-3", "log-4"],
            "at least one is kept: the newest"
        );
    }
}
