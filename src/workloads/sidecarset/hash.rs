//! The SidecarSet's hash annotations: `kruise.io/sidecarset-hash` over its
//! containers and `...-hash-without-image` with every image blanked, which injected pods
//! carry and the upgrade compares. Upstream's own webhook writes them; here the controller
//! does, since nothing may depend on a webhook having run. Pure.
//!
//! Invariants:
//! - The values are OpenKruise v1.9.0's for the same set (checked against values measured
//!   with its own code, `tests/fixtures/openkruise/sidecarset-hashes.yaml`): the input is
//!   the JSON Go writes for `{"containers": [...]}`, plus `"initContainers"` (all of them)
//!   when one is a native sidecar ([`super::go_json`]), SHA-256 in hex, each hex character
//!   mapped through Kubernetes' safe alphabet. A pod OpenKruise injected is therefore
//!   upgradable here, and ours there.
//! - The sidecars are hashed as OpenKruise's webhook defaults them first
//!   ([`webhook_defaulted`], the same defaults our webhook writes: its
//!   `setDefaultSidecarContainer`, no more and no less: the
//!   pull policy from the image reference, liveness and readiness probes but not the
//!   startup probe, resource quantities rounded up to milli-units), so a set stored through
//!   that webhook or through none hashes alike; defaulting is idempotent.
//! - Hashes already on a SidecarSet that this controller did not write (OpenKruise did,
//!   maybe another version of it) are kept until the containers change: the hash this
//!   controller last computed is remembered in [`INPUT_ANNOTATION`], and only a change of
//!   it rewrites the two hashes.
//!
//! Left out: a set OpenKruise's webhook refuses (a `transferEnv` source without its
//! `fieldRef`, a quantity it cannot parse) has no upstream hash; ours is computed anyway.
use serde_json::{Value, json};
use sha2::{Digest, Sha256};

use super::defaults::webhook_defaulted;
use super::go_json;
use super::inject::{HASH_ANNOTATION, HASH_WITHOUT_IMAGE_ANNOTATION, is_native_sidecar};
use crate::api::sidecarset::{PodInjectPolicy, SidecarContainer, SidecarSet};
use crate::workloads::common::pod_names::ID_ALPHABET;

/// The hash (with images) as this controller last computed it, when it wrote the two hash
/// annotations or adopted the ones already there.
pub const INPUT_ANNOTATION: &str = "kubectl-kruise.io/sidecarset-hash-input";

/// The hash input: Go's JSON of the defaulted sidecars (images blanked if asked).
fn encode(set: &SidecarSet, blank_images: bool) -> String {
    let list = |containers: &Option<Vec<SidecarContainer>>, policy| -> Option<Vec<Value>> {
        let containers = containers.as_ref()?;
        let values = containers.iter().map(|c| {
            let mut sidecar = webhook_defaulted(c, policy);
            if blank_images {
                sidecar.container.image = None;
            }
            serde_json::to_value(sidecar).unwrap_or(Value::Null)
        });
        Some(values.collect())
    };
    let containers = list(&set.spec.containers, PodInjectPolicy::BeforeAppContainer);
    let mut input = format!(
        "{{\"containers\":{}",
        go_json::sidecar_containers(containers.as_deref())
    );
    let native = set
        .spec
        .init_containers
        .iter()
        .flatten()
        .any(|c| is_native_sidecar(&c.container));
    if native {
        let init = list(&set.spec.init_containers, PodInjectPolicy::AfterAppContainer);
        input.push_str(&format!(
            ",\"initContainers\":{}",
            go_json::sidecar_containers(init.as_deref())
        ));
    }
    input.push('}');
    input
}

fn safe_hash(text: &str) -> String {
    let digest = Sha256::digest(text.as_bytes());
    let hex: String = digest.iter().map(|b| format!("{b:02x}")).collect();
    hex.bytes()
        .map(|b| ID_ALPHABET[usize::from(b) % ID_ALPHABET.len()] as char)
        .collect()
}

/// `(hash, hash without images)` of the set's containers.
pub fn hashes(set: &SidecarSet) -> (String, String) {
    (safe_hash(&encode(set, false)), safe_hash(&encode(set, true)))
}

/// The metadata patch that brings the set's hash annotations up to date, if any.
pub fn annotations_patch(set: &SidecarSet) -> Option<Value> {
    let annotations = set.metadata.annotations.clone().unwrap_or_default();
    let with = safe_hash(&encode(set, false));
    if annotations.get(INPUT_ANNOTATION) == Some(&with) {
        return None;
    }
    let has_hashes =
        annotations.contains_key(HASH_ANNOTATION) && annotations.contains_key(HASH_WITHOUT_IMAGE_ANNOTATION);
    if !annotations.contains_key(INPUT_ANNOTATION) && has_hashes {
        // Hashes written by OpenKruise (maybe another version of it): kept, this hash remembered.
        return Some(json!({ "metadata": { "annotations": { INPUT_ANNOTATION: with } } }));
    }
    let without = safe_hash(&encode(set, true));
    Some(json!({ "metadata": { "annotations": {
        HASH_ANNOTATION: with.clone(), HASH_WITHOUT_IMAGE_ANNOTATION: without, INPUT_ANNOTATION: with } } }))
}

/// The set as it stands once [`annotations_patch`] is written, and that patch: a round
/// that plans on the stale annotations would report the new generation with the old
/// hash's counts (`updatedPods` of the pods the change just outdated).
pub fn with_fresh_annotations(set: &SidecarSet) -> (SidecarSet, Option<Value>) {
    let patch = annotations_patch(set);
    let mut fresh = set.clone();
    if let Some(Value::Object(written)) = patch.as_ref().map(|p| &p["metadata"]["annotations"]) {
        let annotations = fresh.metadata.annotations.get_or_insert_default();
        for (key, value) in written {
            if let Value::String(value) = value {
                annotations.insert(key.clone(), value.clone());
            }
        }
    }
    (fresh, patch)
}

#[cfg(test)]
#[path = "hash_tests.rs"]
mod tests;
