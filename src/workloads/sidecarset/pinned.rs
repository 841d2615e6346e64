//! Which revision of a SidecarSet a new pod is injected with: the current spec, or the
//! historical revision `injectionStrategy.revision` pins (by name, or the newest labelled
//! with a custom version). Pure: the revisions come from the webhook's cache and the dice
//! roll from the caller.
//!
//! Invariants:
//! - Without a pinned revision (neither `revisionName` nor `customVersion`) the current
//!   spec is injected, untouched.
//! - A pinned revision that cannot be found refuses the pod (as upstream), naming the
//!   SidecarSet and the field; so does an unreadable percent partition under `Partial`.
//! - The restored SidecarSet is the current one with the five injected fields of the
//!   revision, its hash annotations (recomputed when the revision has none) and
//!   `status.latestRevision` naming it: selector and strategies stay current.
//! - Policy `Always` (the default) and a paused update inject the revision; `Partial`
//!   injects it into pods outside the update selector, and otherwise into a share of pods
//!   equal to a percent partition (an integer partition, or none, injects the latest).
use std::borrow::Cow;
use std::collections::BTreeMap;

use k8s_openapi::api::core::v1::Pod;
use kube::ResourceExt;
use kube::core::{Selector, SelectorExt};
use serde_json::Value;

use super::inject::{HASH_ANNOTATION, HASH_WITHOUT_IMAGE_ANNOTATION};
use super::revisions::NAME_LABEL;
use crate::api::common::IntOrString;
use crate::api::sidecarset::{CUSTOM_VERSION_LABEL, SidecarSet, SidecarSetInjectRevisionPolicy};

/// What the choice needs of one cached ControllerRevision.
#[derive(Debug, Clone, PartialEq)]
pub struct StoredRevision {
    pub name: String,
    pub revision: i64,
    pub labels: BTreeMap<String, String>,
    pub annotations: BTreeMap<String, String>,
    pub data: Value,
}

impl StoredRevision {
    pub fn of(r: &k8s_openapi::api::apps::v1::ControllerRevision) -> Self {
        StoredRevision {
            name: r.name_any(),
            revision: r.revision.unwrap_or(0),
            labels: r.labels().clone(),
            annotations: r.annotations().clone(),
            data: r.data.0.clone(),
        }
    }
}

fn field(set: &SidecarSet, path: &str) -> String {
    format!(
        "SidecarSet {}: spec.injectionStrategy.revision.{path}",
        set.name_any()
    )
}

/// The revision `set` pins, found among `stored`; None: it pins none.
fn pinned<'r>(set: &SidecarSet, stored: &'r [StoredRevision]) -> Result<Option<&'r StoredRevision>, String> {
    let Some(pin) = set
        .spec
        .injection_strategy
        .as_ref()
        .and_then(|s| s.revision.as_ref())
    else {
        return Ok(None);
    };
    let name = pin.revision_name.as_deref().filter(|n| !n.is_empty());
    let version = pin.custom_version.as_deref().filter(|v| !v.is_empty());
    if let Some(name) = name {
        return stored
            .iter()
            .find(|r| r.name == name)
            .map(Some)
            .ok_or_else(|| format!("{}: revision {name:?} not found", field(set, "revisionName")));
    }
    let Some(version) = version else {
        return Ok(None);
    };
    let owner = set.name_any();
    stored
        .iter()
        .filter(|r| {
            r.labels.get(NAME_LABEL) == Some(&owner)
                && r.labels.get(CUSTOM_VERSION_LABEL).map(String::as_str) == Some(version)
        })
        .max_by(|a, b| (a.revision, &a.name).cmp(&(b.revision, &b.name)))
        .map(Some)
        .ok_or_else(|| {
            format!(
                "{}: no revision of SidecarSet {owner} carries custom version {version:?}",
                field(set, "customVersion")
            )
        })
}

/// `set` as it was at `revision`: its five injected fields, hash annotations and name.
fn restored(set: &SidecarSet, revision: &StoredRevision) -> Result<SidecarSet, String> {
    let mut value = serde_json::to_value(set).map_err(|e| e.to_string())?;
    for key in [
        "volumes",
        "containers",
        "initContainers",
        "imagePullSecrets",
        "patchPodMetadata",
    ] {
        match revision.data["spec"].get(key) {
            Some(Value::Null) | None => {
                if let Some(spec) = value["spec"].as_object_mut() {
                    spec.remove(key);
                }
            }
            Some(v) => value["spec"][key] = v.clone(),
        }
    }
    let mut old: SidecarSet = serde_json::from_value(value).map_err(|e| {
        format!(
            "{}: revision {} cannot be read: {e}",
            field(set, "revisionName"),
            revision.name
        )
    })?;
    let (with, without) = match (
        revision.annotations.get(HASH_ANNOTATION),
        revision.annotations.get(HASH_WITHOUT_IMAGE_ANNOTATION),
    ) {
        (Some(with), Some(without)) => (with.clone(), without.clone()),
        _ => super::hash::hashes(&old),
    };
    let annotations = old.annotations_mut();
    annotations.insert(HASH_ANNOTATION.into(), with);
    annotations.insert(HASH_WITHOUT_IMAGE_ANNOTATION.into(), without);
    old.status.get_or_insert_default().latest_revision = Some(revision.name.clone());
    Ok(old)
}

/// What `set` injects into `pod`: its current spec or a restored revision. `roll` is a
/// number in 0..100 drawn for this pod (the `Partial` percent's dice).
pub fn to_inject<'s>(
    set: &'s SidecarSet,
    pod: &Pod,
    stored: &[StoredRevision],
    roll: u32,
) -> Result<Cow<'s, SidecarSet>, String> {
    let Some(revision) = pinned(set, stored)? else {
        return Ok(Cow::Borrowed(set));
    };
    let historical = restored(set, revision)?;
    let strategy = set.spec.update_strategy.clone().unwrap_or_default();
    let policy = set
        .spec
        .injection_strategy
        .as_ref()
        .and_then(|s| s.revision.as_ref())
        .and_then(|r| r.policy);
    if strategy.paused == Some(true) || policy != Some(SidecarSetInjectRevisionPolicy::Partial) {
        return Ok(Cow::Owned(historical));
    }
    let selector = strategy.selector.clone().and_then(|s| Selector::try_from(s).ok());
    if selector.is_some_and(|s| !s.matches(pod.labels())) {
        return Ok(Cow::Owned(historical));
    }
    match &strategy.partition {
        Some(IntOrString::String(p)) => {
            let percent: u32 = p.strip_suffix('%').and_then(|n| n.parse().ok()).ok_or_else(|| {
                format!(
                    "SidecarSet {}: spec.updateStrategy.partition {p:?} is not a percent",
                    set.name_any()
                )
            })?;
            if roll < percent {
                Ok(Cow::Owned(historical))
            } else {
                Ok(Cow::Borrowed(set))
            }
        }
        _ => Ok(Cow::Borrowed(set)),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn set(injection: Value, strategy: Value) -> SidecarSet {
        serde_json::from_value(json!({ "apiVersion": "apps.kruise.io/v1alpha1", "kind": "SidecarSet",
            "metadata": { "name": "log", "annotations": { HASH_ANNOTATION: "h2", HASH_WITHOUT_IMAGE_ANNOTATION: "b" } },
            "spec": { "selector": { "matchLabels": { "app": "web" } },
                "containers": [{ "name": "log", "image": "fluent:2" }],
                "injectionStrategy": injection, "updateStrategy": strategy } }))
        .expect("set")
    }

    fn stored(name: &str, revision: i64, version: &str, image: &str) -> StoredRevision {
        StoredRevision {
            name: name.into(),
            revision,
            labels: [
                (NAME_LABEL.to_string(), "log".to_string()),
                (CUSTOM_VERSION_LABEL.to_string(), version.to_string()),
            ]
            .into(),
            annotations: [
                (HASH_ANNOTATION.to_string(), format!("h-{name}")),
                (HASH_WITHOUT_IMAGE_ANNOTATION.to_string(), "b".to_string()),
            ]
            .into(),
            data: json!({ "spec": { "$patch": "replace", "containers": [{ "name": "log", "image": image }],
                "volumes": null, "initContainers": null, "imagePullSecrets": null, "patchPodMetadata": null } }),
        }
    }

    fn pod(labels: Value) -> Pod {
        serde_json::from_value(
            json!({ "metadata": { "name": "p", "labels": labels }, "spec": { "containers": [] } }),
        )
        .expect("pod")
    }

    fn image(set: &SidecarSet) -> String {
        set.spec
            .containers
            .iter()
            .flatten()
            .next()
            .and_then(|c| c.container.image.clone())
            .unwrap_or_default()
    }

    #[test]
    fn without_a_pin_the_current_spec_is_injected() {
        let current = set(json!({}), json!({}));
        let chosen = to_inject(&current, &pod(json!({})), &[], 0).expect("ok");
        assert!(matches!(chosen, Cow::Borrowed(_)));
    }

    #[test]
    fn a_pin_by_name_or_custom_version_restores_that_revision() {
        let revisions = [
            stored("log-a", 1, "v1", "fluent:1"),
            stored("log-b", 2, "v1", "fluent:1.5"),
            stored("log-c", 3, "v2", "fluent:2"),
        ];
        let by_name = set(json!({ "revision": { "revisionName": "log-a" } }), json!({}));
        let chosen = to_inject(&by_name, &pod(json!({})), &revisions, 99).expect("ok");
        assert_eq!(image(&chosen), "fluent:1");
        assert_eq!(chosen.annotations()[HASH_ANNOTATION], "h-log-a");
        assert_eq!(
            chosen.status.as_ref().and_then(|s| s.latest_revision.as_deref()),
            Some("log-a")
        );
        assert_eq!(
            chosen.spec.selector, by_name.spec.selector,
            "the selector stays current"
        );
        let by_version = set(json!({ "revision": { "customVersion": "v1" } }), json!({}));
        assert_eq!(
            image(&to_inject(&by_version, &pod(json!({})), &revisions, 0).expect("ok")),
            "fluent:1.5",
            "the newest v1"
        );
        let missing = set(json!({ "revision": { "revisionName": "log-z" } }), json!({}));
        let error = to_inject(&missing, &pod(json!({})), &revisions, 0).expect_err("refused");
        assert!(
            error.contains("spec.injectionStrategy.revision.revisionName"),
            "{error}"
        );
        let unknown = set(json!({ "revision": { "customVersion": "v9" } }), json!({}));
        assert!(to_inject(&unknown, &pod(json!({})), &revisions, 0).is_err());
    }

    #[test]
    fn partial_injects_the_revision_outside_the_selector_or_for_a_percent_of_pods() {
        let revisions = [stored("log-a", 1, "v1", "fluent:1")];
        let partial = json!({ "revision": { "revisionName": "log-a", "policy": "Partial" } });
        let selected = set(
            partial.clone(),
            json!({ "selector": { "matchLabels": { "canary": "yes" } } }),
        );
        assert_eq!(
            image(&to_inject(&selected, &pod(json!({ "canary": "yes" })), &revisions, 0).expect("ok")),
            "fluent:2"
        );
        assert_eq!(
            image(&to_inject(&selected, &pod(json!({})), &revisions, 0).expect("ok")),
            "fluent:1"
        );
        let percent = set(partial.clone(), json!({ "partition": "30%" }));
        assert_eq!(
            image(&to_inject(&percent, &pod(json!({})), &revisions, 29).expect("ok")),
            "fluent:1"
        );
        assert_eq!(
            image(&to_inject(&percent, &pod(json!({})), &revisions, 30).expect("ok")),
            "fluent:2"
        );
        let integer = set(partial.clone(), json!({ "partition": 2 }));
        assert_eq!(
            image(&to_inject(&integer, &pod(json!({})), &revisions, 0).expect("ok")),
            "fluent:2"
        );
        let paused = set(partial, json!({ "paused": true, "partition": 2 }));
        assert_eq!(
            image(&to_inject(&paused, &pod(json!({})), &revisions, 99).expect("ok")),
            "fluent:1"
        );
    }
}
