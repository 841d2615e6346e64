//! ControllerRevision history shared by the kinds that keep one (CloneSet, Advanced
//! StatefulSet, Advanced DaemonSet, SidecarSet, UnitedDeployment): payload, name and hash,
//! choosing the update revision, and history truncation. Pure.
//!
//! Invariants:
//! - The hash is FNV-1 (32-bit) over the payload bytes followed by the decimal collision
//!   count, printed in decimal with each digit mapped through Kubernetes' safe alphabet
//!   (653280100 -> `b976d4544`), as upstream does; the payload's template is defaulted as
//!   OpenKruise's webhook defaults it, so for the templates [`template_defaults`] covers the
//!   revision name is the one OpenKruise gives (measured names in the tests).
//! - Equality with an existing revision is SEMANTIC: both templates compare equal after
//!   dropping `null`s and empty objects that Go's encoder writes (`creationTimestamp: null`,
//!   `resources: {}`). Our payload bytes are not Go's, so byte equality would never find
//!   a revision that upstream OpenKruise wrote, and taking over its pods would trigger a
//!   full rollout.
//! - Truncation never deletes the current or update revision, nor one that a pod's
//!   revision label still names.
use std::collections::BTreeSet;

use k8s_openapi::api::core::v1::PodTemplateSpec;
use serde_json::{Value, json};

use super::template_defaults;

/// The pod label naming its revision (the full ControllerRevision name).
pub const REVISION_LABEL: &str = "controller-revision-hash";

/// The hash part of a revision name (`web-6b8d7f` -> `6b8d7f`).
pub fn short_hash(revision: &str) -> &str {
    revision.rsplit('-').next().unwrap_or(revision)
}

/// Does the pod's revision label name `revision`? Both the full revision name and just the
/// hash after the last `-` occur on pods (upstream CloneSets write either).
pub fn is_at_revision(pod: &k8s_openapi::api::core::v1::Pod, revision: &str) -> bool {
    let Some(label) = pod.metadata.labels.as_ref().and_then(|l| l.get(REVISION_LABEL)) else {
        return false;
    };
    label == revision || short_hash(label) == short_hash(revision)
}

/// The template of the revision the pod's label names (full name or short hash), if known.
pub fn template_of<'a>(
    templates: &'a std::collections::BTreeMap<String, PodTemplateSpec>,
    pod: &k8s_openapi::api::core::v1::Pod,
) -> Option<&'a PodTemplateSpec> {
    let label = pod.metadata.labels.as_ref()?.get(REVISION_LABEL)?;
    if let Some(t) = templates.get(label) {
        return Some(t);
    }
    let tail = short_hash(label);
    templates
        .iter()
        .find(|(name, _)| short_hash(name) == tail)
        .map(|(_, t)| t)
}

/// The revision's `data`: `{"spec":{"template":{...,"$patch":"replace"}}}`, the template
/// as OpenKruise's webhook defaults it with the empty values Go writes
/// ([`template_defaults::defaulted`]), so its hash is the one OpenKruise computes.
pub fn payload(template: &PodTemplateSpec) -> Value {
    let mut template = template_defaults::defaulted(&serde_json::to_value(template).unwrap_or(Value::Null));
    if let Some(obj) = template.as_object_mut() {
        obj.insert("$patch".into(), json!("replace"));
    }
    json!({ "spec": { "template": template } })
}

/// FNV-1, 32-bit (multiply, then xor; not FNV-1a).
pub fn fnv1_32(bytes: &[u8]) -> u32 {
    bytes.iter().fold(0x811c_9dc5_u32, |hash, b| {
        hash.wrapping_mul(0x0100_0193) ^ u32::from(*b)
    })
}

/// Kubernetes' `rand.SafeEncodeString` of the decimal hash.
pub fn safe_encode(hash: u32) -> String {
    const ALPHABET: &[u8; 27] = b"bcdfghjklmnpqrstvwxz2456789";
    hash.to_string()
        .bytes()
        .map(|b| ALPHABET[usize::from(b) % ALPHABET.len()] as char)
        .collect()
}

/// The hash of a payload with `collision_count` appended (upstream always appends it).
pub fn revision_hash(payload: &Value, collision_count: i32) -> String {
    let mut bytes = serde_json::to_vec(payload).unwrap_or_default();
    bytes.extend_from_slice(collision_count.to_string().as_bytes());
    safe_encode(fnv1_32(&bytes))
}

/// `<owner name, at most 223 characters>-<hash>`.
pub fn revision_name(owner: &str, hash: &str) -> String {
    let prefix: String = owner.chars().take(223).collect();
    format!("{prefix}-{hash}")
}

/// Drops `null`s, empty objects and the `$patch` directive, recursively.
pub fn normalized(value: &Value) -> Value {
    match value {
        Value::Object(map) => Value::Object(
            map.iter()
                .filter(|(k, _)| k.as_str() != "$patch")
                .map(|(k, v)| (k.clone(), normalized(v)))
                .filter(|(_, v)| !v.is_null() && v.as_object().is_none_or(|o| !o.is_empty()))
                .collect(),
        ),
        Value::Array(items) => Value::Array(items.iter().map(normalized).collect()),
        other => other.clone(),
    }
}

/// A payload's template in the form two payloads are compared in: defaulted, so a revision
/// written before templates were defaulted (by an older kubectl-kruise) still holds the
/// template it held and taking it over starts no rollout; then [`normalized`].
fn comparable(payload: &Value) -> Value {
    normalized(&template_defaults::defaulted(&payload["spec"]["template"]))
}

/// Do two revision payloads hold the same template?
pub fn same_template(a: &Value, b: &Value) -> bool {
    comparable(a) == comparable(b)
}

/// What the planner needs of one existing revision.
#[derive(Debug, Clone, PartialEq)]
pub struct KnownRevision {
    pub name: String,
    pub revision: i64,
    /// RFC 3339 creation time; ties in `revision` are broken by it, then by name.
    pub created: String,
    pub data: Value,
}

/// What to do about the update revision.
#[derive(Debug, Clone, PartialEq)]
pub enum RevisionStep {
    /// The newest revision already holds the template.
    Current { name: String },
    /// An older revision holds it: bump its `.revision` to `revision` (a rollback).
    Reuse { name: String, revision: i64 },
    /// Create this revision; on a name conflict with other content, bump the collision
    /// count and plan again.
    Create {
        name: String,
        revision: i64,
        data: Value,
    },
}

/// Chooses the update revision for `template` among `existing`: the newest when it is
/// equal, an equal older one bumped to the top (a rollback), else a new one.
pub fn plan_update_revision(
    owner: &str,
    template: &PodTemplateSpec,
    existing: &[KnownRevision],
    collision_count: i32,
) -> RevisionStep {
    plan_revision(owner, payload(template), existing, collision_count, comparable)
}

/// Chooses the revision holding `data` among `existing`, two payloads being the same when
/// `comparable` makes them equal: the newest if it holds it, else the newest older one
/// that does (bumped to the next number: a rollback), else a new one named after the hash
/// of `data` and the collision count (controller-history rules).
pub fn plan_revision(
    owner: &str,
    data: Value,
    existing: &[KnownRevision],
    collision_count: i32,
    comparable: impl Fn(&Value) -> Value,
) -> RevisionStep {
    // Made comparable once, not once per existing revision.
    let wanted = comparable(&data);
    let mut sorted: Vec<&KnownRevision> = existing.iter().collect();
    sorted.sort_by(|a, b| (a.revision, &a.created, &a.name).cmp(&(b.revision, &b.created, &b.name)));
    let next = sorted.last().map_or(1, |r| r.revision + 1);
    match sorted.iter().rposition(|r| comparable(&r.data) == wanted) {
        Some(i) if i + 1 == sorted.len() => RevisionStep::Current {
            name: sorted[i].name.clone(),
        },
        Some(i) => RevisionStep::Reuse {
            name: sorted[i].name.clone(),
            revision: next,
        },
        None => {
            let name = revision_name(owner, &revision_hash(&data, collision_count));
            RevisionStep::Create {
                name,
                revision: next,
                data,
            }
        }
    }
}

/// Names of revisions to delete, oldest first, so that at most `limit` remain; never the
/// current or update revision, nor one that a pod still runs (`pod_revisions`: the pods'
/// labels, full revision names or just the hash, as a DaemonSet's pods carry it).
pub fn revisions_to_truncate(
    existing: &[KnownRevision],
    keep: &[&str],
    pod_revisions: &BTreeSet<String>,
    limit: usize,
) -> Vec<String> {
    let mut sorted: Vec<&KnownRevision> = existing.iter().collect();
    sorted.sort_by(|a, b| (a.revision, &a.created, &a.name).cmp(&(b.revision, &b.created, &b.name)));
    let running: BTreeSet<&str> = pod_revisions.iter().map(|p| short_hash(p)).collect();
    let protected =
        |r: &KnownRevision| keep.contains(&r.name.as_str()) || running.contains(short_hash(&r.name));
    let deletable: Vec<&KnownRevision> = sorted.into_iter().filter(|r| !protected(r)).collect();
    let excess = existing.len().saturating_sub(limit);
    deletable
        .into_iter()
        .take(excess)
        .map(|r| r.name.clone())
        .collect()
}

#[cfg(test)]
#[path = "revision_tests.rs"]
mod tests;
