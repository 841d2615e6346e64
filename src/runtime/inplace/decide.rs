//! Can a pod go from one revision's template to another's in place?
//!
//! Pure: compares two `PodTemplateSpec`s, the pod's current revision and the target.
//! In place means only these differ:
//! - `spec.containers[i].image` of regular containers (never init or ephemeral ones), with
//!   the same containers, by name, in the same order;
//! - template metadata (labels, annotations): applied to the pod as added, changed and
//!   removed keys.
//!
//! A change of the restart annotation (`kubectl.kubernetes.io/restartedAt`) always needs a
//! recreate: restarting containers is its whole point.
//!
//! Everything else (command, env, ports, probes, volumes, init containers, adding,
//! removing or reordering containers) needs a recreate. The optional upstream paths that
//! need the node agent (env-from-metadata restarts) or a feature gate (resources) are
//! deliberately not in place here: without kruise-daemon such an update never completes,
//! so a changed label that an env var of a container references needs a recreate unless
//! that container's image changes too. Then the kubelet restarts it for the image, after
//! the labels were written in the same pod update, and reads the new value at its start
//! (OpenKruise's e2e "in-place update both image and env from label").
use std::collections::BTreeMap;

use k8s_openapi::api::core::v1::{Container, PodTemplateSpec};
use serde_json::Value;

/// Changes to template metadata, applied to the pod as a patch.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct MetadataChanges {
    /// Labels to set (added or changed), and labels to remove.
    pub labels_set: BTreeMap<String, String>,
    pub labels_removed: Vec<String>,
    pub annotations_set: BTreeMap<String, String>,
    pub annotations_removed: Vec<String>,
}

impl MetadataChanges {
    pub fn is_empty(&self) -> bool {
        self.labels_set.is_empty()
            && self.labels_removed.is_empty()
            && self.annotations_set.is_empty()
            && self.annotations_removed.is_empty()
    }
}

/// The template annotation `rollout restart` sets (kubectl's key).
pub const RESTARTED_AT_ANNOTATION: &str = "kubectl.kubernetes.io/restartedAt";

/// What it takes to move a pod between two templates.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Decision {
    /// The templates are equal: nothing to do.
    Unchanged,
    /// In place: new image per changed container (by name) and the metadata patch.
    InPlace {
        images: BTreeMap<String, String>,
        metadata: MetadataChanges,
    },
    /// Needs a recreate; `reason` names the first difference found (for events).
    Recreate { reason: String },
}

impl Decision {
    /// True when the update restarts at least one container (readiness gate flips).
    pub fn restarts_containers(&self) -> bool {
        matches!(self, Decision::InPlace { images, .. } if !images.is_empty())
    }
}

/// Compares the pod's current template (`old`) with the target (`new`).
pub fn decide(old: &PodTemplateSpec, new: &PodTemplateSpec) -> Decision {
    let (Some(old_spec), Some(new_spec)) = (old.spec.as_ref(), new.spec.as_ref()) else {
        return Decision::Recreate {
            reason: "a template has no pod spec".into(),
        };
    };
    if let Some(reason) = non_container_difference(old_spec, new_spec) {
        return Decision::Recreate { reason };
    }
    let images = match image_changes(&old_spec.containers, &new_spec.containers) {
        Ok(images) => images,
        Err(reason) => return Decision::Recreate { reason },
    };
    let old_meta = old.metadata.clone().unwrap_or_default();
    let new_meta = new.metadata.clone().unwrap_or_default();
    let (labels_set, labels_removed) = map_changes(old_meta.labels.as_ref(), new_meta.labels.as_ref());
    let (annotations_set, annotations_removed) =
        map_changes(old_meta.annotations.as_ref(), new_meta.annotations.as_ref());
    let metadata = MetadataChanges {
        labels_set,
        labels_removed,
        annotations_set,
        annotations_removed,
    };
    let restarted_anyway = |name: &str| images.contains_key(name);
    if let Some(reason) = env_references(&metadata, &new_spec.containers, restarted_anyway) {
        return Decision::Recreate { reason };
    }
    // A restart request (`rollout restart`) must restart the containers, and without a node
    // agent only a new pod does that: in place it would change an annotation and nothing else.
    let restart_requested = metadata.annotations_set.contains_key(RESTARTED_AT_ANNOTATION)
        || metadata
            .annotations_removed
            .iter()
            .any(|k| k == RESTARTED_AT_ANNOTATION);
    if restart_requested {
        return Decision::Recreate {
            reason: format!("a restart was requested (annotation {RESTARTED_AT_ANNOTATION})"),
        };
    }
    let other_metadata_equal = without_maps(&old_meta) == without_maps(&new_meta);
    if !other_metadata_equal {
        return Decision::Recreate {
            reason: "template metadata other than labels/annotations changed".into(),
        };
    }
    if images.is_empty() && metadata.is_empty() {
        return Decision::Unchanged;
    }
    Decision::InPlace { images, metadata }
}

/// The pod spec with regular containers taken out must be identical.
fn non_container_difference(
    old: &k8s_openapi::api::core::v1::PodSpec,
    new: &k8s_openapi::api::core::v1::PodSpec,
) -> Option<String> {
    let strip = |spec: &k8s_openapi::api::core::v1::PodSpec| {
        let mut v = serde_json::to_value(spec).unwrap_or(Value::Null);
        if let Some(obj) = v.as_object_mut() {
            obj.remove("containers");
        }
        v
    };
    let (a, b) = (strip(old), strip(new));
    if a == b {
        return None;
    }
    let keys = |v: &Value| {
        v.as_object()
            .map(|o| o.keys().cloned().collect::<Vec<_>>())
            .unwrap_or_default()
    };
    let mut fields: Vec<String> = keys(&a).into_iter().chain(keys(&b)).collect();
    fields.sort();
    fields.dedup();
    let changed = fields
        .into_iter()
        .find(|f| a.get(f) != b.get(f))
        .unwrap_or_default();
    Some(format!("spec.{changed} changed"))
}

/// New images per container name; an error names a change that is not an image.
fn image_changes(old: &[Container], new: &[Container]) -> Result<BTreeMap<String, String>, String> {
    let names = |cs: &[Container]| cs.iter().map(|c| c.name.clone()).collect::<Vec<_>>();
    if names(old) != names(new) {
        return Err(format!(
            "containers changed from {:?} to {:?}",
            names(old),
            names(new)
        ));
    }
    let mut images = BTreeMap::new();
    for (before, after) in old.iter().zip(new) {
        let mut a = before.clone();
        let mut b = after.clone();
        let (old_image, new_image) = (a.image.take(), b.image.take());
        if a != b {
            let (va, vb) = (
                serde_json::to_value(&a).unwrap_or_default(),
                serde_json::to_value(&b).unwrap_or_default(),
            );
            let mut fields: Vec<&String> = va
                .as_object()
                .into_iter()
                .chain(vb.as_object())
                .flat_map(|o| o.keys())
                .filter(|k| va.get(k.as_str()) != vb.get(k.as_str()))
                .collect();
            fields.sort();
            fields.dedup();
            let fields: Vec<&str> = fields.into_iter().map(String::as_str).collect();
            return Err(format!(
                "container {} changed beyond its image ({})",
                before.name,
                fields.join(", ")
            ));
        }
        if old_image != new_image {
            images.insert(after.name.clone(), new_image.unwrap_or_default());
        }
    }
    Ok(images)
}

/// A changed key that an env var reads through the downward API needs the node agent,
/// unless its container restarts anyway (`restarted_anyway`: its image changes).
fn env_references(
    metadata: &MetadataChanges,
    containers: &[Container],
    restarted_anyway: impl Fn(&str) -> bool,
) -> Option<String> {
    let changed: Vec<String> = metadata
        .labels_set
        .keys()
        .chain(&metadata.labels_removed)
        .map(|k| format!("metadata.labels['{k}']"))
        .chain(
            metadata
                .annotations_set
                .keys()
                .chain(&metadata.annotations_removed)
                .map(|k| format!("metadata.annotations['{k}']")),
        )
        .collect();
    for container in containers.iter().filter(|c| !restarted_anyway(&c.name)) {
        for env in container.env.iter().flatten() {
            let path = env
                .value_from
                .as_ref()
                .and_then(|v| v.field_ref.as_ref())
                .map(|f| f.field_path.as_str());
            if let Some(path) = path.filter(|p| changed.iter().any(|c| c == p)) {
                return Some(format!(
                    "container {} reads {path} through env {}",
                    container.name, env.name
                ));
            }
        }
    }
    None
}

fn map_changes(
    old: Option<&BTreeMap<String, String>>,
    new: Option<&BTreeMap<String, String>>,
) -> (BTreeMap<String, String>, Vec<String>) {
    let empty = BTreeMap::new();
    let (old, new) = (old.unwrap_or(&empty), new.unwrap_or(&empty));
    let set = new
        .iter()
        .filter(|(k, v)| old.get(*k) != Some(*v))
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    let removed = old.keys().filter(|k| !new.contains_key(*k)).cloned().collect();
    (set, removed)
}

fn without_maps(meta: &k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta) -> Value {
    let mut m = meta.clone();
    m.labels = None;
    m.annotations = None;
    serde_json::to_value(m).unwrap_or(Value::Null)
}

#[cfg(test)]
#[path = "decide_tests.rs"]
mod tests;
