//! The SidecarSet's hash annotations (reference §1.2): `kruise.io/sidecarset-hash` over its
//! containers and `...-hash-without-image` with every image blanked, which injected pods
//! carry and the upgrade compares. Upstream's own webhook writes them; here the controller
//! does, since nothing may depend on a webhook having run. Pure.
//!
//! Invariants:
//! - The input is `{"containers": [...]}` (plus every init container when one is a native
//!   sidecar), SHA-256 in hex, each hex character mapped through Kubernetes' safe alphabet.
//! - The JSON is this project's encoding, not Go's byte layout: for the same spec the values
//!   differ from OpenKruise's. So hashes already on a SidecarSet (written by OpenKruise) are
//!   kept until its containers change: the input this controller last hashed is remembered
//!   in [`INPUT_ANNOTATION`], and only a change of it rewrites the two hashes.
use serde_json::{Value, json};
use sha2::{Digest, Sha256};

use super::inject::{HASH_ANNOTATION, HASH_WITHOUT_IMAGE_ANNOTATION, is_native_sidecar};
use crate::api::sidecarset::{SidecarContainer, SidecarSet};
use crate::workloads::common::pod_names::ID_ALPHABET;

/// What the hashes were last computed from (a hash of the containers, this encoding).
pub const INPUT_ANNOTATION: &str = "kubectl-kruise.io/sidecarset-hash-input";

fn encode(set: &SidecarSet, blank_images: bool) -> String {
    let list = |containers: &Option<Vec<SidecarContainer>>, policy: &str| -> Vec<Value> {
        containers
            .iter()
            .flatten()
            .map(|c| {
                let mut value = serde_json::to_value(c).unwrap_or(Value::Null);
                // Defaulted or not as stored, the same hash.
                super::defaults::sidecar(&mut value, policy);
                if blank_images {
                    value["image"] = json!("");
                }
                value
            })
            .collect()
    };
    let mut input = json!({ "containers": list(&set.spec.containers, "BeforeAppContainer") });
    let native = set
        .spec
        .init_containers
        .iter()
        .flatten()
        .any(|c| is_native_sidecar(&c.container));
    if native {
        input["initContainers"] = Value::Array(list(&set.spec.init_containers, "AfterAppContainer"));
    }
    input.to_string()
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
    let input = safe_hash(&encode(set, false));
    if annotations.get(INPUT_ANNOTATION) == Some(&input) {
        return None;
    }
    let has_hashes =
        annotations.contains_key(HASH_ANNOTATION) && annotations.contains_key(HASH_WITHOUT_IMAGE_ANNOTATION);
    if !annotations.contains_key(INPUT_ANNOTATION) && has_hashes {
        // Hashes written by OpenKruise: kept, and this input remembered.
        return Some(json!({ "metadata": { "annotations": { INPUT_ANNOTATION: input } } }));
    }
    let (with, without) = hashes(set);
    Some(json!({ "metadata": { "annotations": {
        HASH_ANNOTATION: with, HASH_WITHOUT_IMAGE_ANNOTATION: without, INPUT_ANNOTATION: input } } }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(image: &str, annotations: Value) -> SidecarSet {
        serde_json::from_value(json!({ "apiVersion": "apps.kruise.io/v1alpha1", "kind": "SidecarSet",
            "metadata": { "name": "log", "annotations": annotations },
            "spec": { "selector": { "matchLabels": { "app": "web" } },
                "containers": [{ "name": "log", "image": image, "env": [{ "name": "A", "value": "1" }] }] } }))
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
}
