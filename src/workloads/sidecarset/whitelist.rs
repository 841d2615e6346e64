//! The SidecarSet patch-pod-metadata whitelist (`SidecarSet_PatchPodMetadata_WhiteList`)
//! of OpenKruise's `kruise-configuration` ConfigMap, which the validating webhook reads
//! where kruise-manager reads it (the run's system namespace, `kruise-system` for an
//! unscoped run) when a SidecarSet asks for it ([`super::facts`]).
//!
//! The rule, as upstream's webhook: a SidecarSet with `patchPodMetadata` is admitted only
//! when every annotation key it patches matches a key expression (a regular expression) of
//! a whitelist rule whose selector, if any, selects the SidecarSet's own labels. Without a
//! whitelist, or with no rule for the set, it is refused, unless the gate
//! `SidecarSetPatchPodMetadataDefaultsAllowed` is on.
//!
//! Invariants: the judgement ([`patch_metadata_fault`]) is pure; every refusal names the
//! SidecarSet, the field and the key, and says where the whitelist lives.
use std::collections::BTreeMap;

use k8s_openapi::apimachinery::pkg::apis::meta::v1::LabelSelector;
use kube::core::{Selector, SelectorExt};
use serde::Deserialize;

use crate::api::sidecarset::SidecarSet;

pub const PATCH_METADATA_WHITELIST_KEY: &str = "SidecarSet_PatchPodMetadata_WhiteList";

#[derive(Debug, Default, Deserialize)]
struct Whitelist {
    #[serde(default)]
    rules: Vec<Rule>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Rule {
    #[serde(default)]
    selector: Option<LabelSelector>,
    #[serde(default)]
    annotation_key_exprs: Vec<String>,
}

/// Why `set` may not patch the pod metadata it asks for under `whitelist` (the text of
/// the ConfigMap key, None when the ConfigMap or the key is missing; `at` names where it
/// lives); None when it may.
pub fn patch_metadata_fault(
    set: &SidecarSet,
    whitelist: Option<&str>,
    at: &str,
    defaults_allowed: bool,
) -> Option<String> {
    let patches = set.spec.patch_pod_metadata.as_deref().unwrap_or_default();
    let keys: Vec<(usize, &String)> = patches
        .iter()
        .enumerate()
        .flat_map(|(i, p)| p.annotations.iter().flatten().map(move |(k, _)| (i, k)))
        .collect();
    if keys.is_empty() {
        return None;
    }
    let name = set.metadata.name.as_deref().unwrap_or_default();
    let Some(text) = whitelist else {
        return (!defaults_allowed).then(|| {
            format!(
                "SidecarSet {name}: spec.patchPodMetadata needs the whitelist {PATCH_METADATA_WHITELIST_KEY} in {at}, which is missing"
            )
        });
    };
    let whitelist: Whitelist = match serde_json::from_str(text) {
        Ok(w) => w,
        Err(e) => {
            return Some(format!(
                "SidecarSet {name}: {PATCH_METADATA_WHITELIST_KEY} in {at} is not readable: {e}"
            ));
        }
    };
    let empty = BTreeMap::new();
    let labels = set.metadata.labels.as_ref().unwrap_or(&empty);
    let mut expressions = Vec::new();
    for rule in &whitelist.rules {
        if let Some(selector) = rule.selector.clone() {
            match Selector::try_from(selector) {
                Ok(s) if s.matches(labels) => {}
                Ok(_) => continue,
                Err(e) => {
                    return Some(format!(
                        "{PATCH_METADATA_WHITELIST_KEY} in {at}: a rule's selector: {e}"
                    ));
                }
            }
        }
        for expr in &rule.annotation_key_exprs {
            match regex::Regex::new(expr) {
                Ok(r) => expressions.push(r),
                Err(e) => return Some(format!("{PATCH_METADATA_WHITELIST_KEY} in {at}: {expr:?}: {e}")),
            }
        }
    }
    if expressions.is_empty() {
        return (!defaults_allowed).then(|| {
            format!(
                "SidecarSet {name}: spec.patchPodMetadata is not allowed: no rule of {PATCH_METADATA_WHITELIST_KEY} in {at} selects this SidecarSet"
            )
        });
    }
    keys.into_iter()
        .find(|(_, key)| !expressions.iter().any(|r| r.is_match(key)))
        .map(|(i, key)| {
            format!(
                "SidecarSet {name}: spec.patchPodMetadata[{i}].annotations[{key}] is not allowed by {PATCH_METADATA_WHITELIST_KEY} in {at}"
            )
        })
}

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    use super::*;

    fn set(labels: Value, keys: &[&str]) -> SidecarSet {
        let annotations: serde_json::Map<String, Value> =
            keys.iter().map(|k| (k.to_string(), json!("{}"))).collect();
        serde_json::from_value(json!({
            "apiVersion": "apps.kruise.io/v1alpha1", "kind": "SidecarSet",
            "metadata": { "name": "log", "labels": labels },
            "spec": { "containers": [{ "name": "c", "image": "i" }],
                "patchPodMetadata": [{ "annotations": annotations, "patchPolicy": "MergePatchJson" }] },
        }))
        .expect("set")
    }

    const AT: &str = "ConfigMap kruise-system/kruise-configuration";
    const RULES: &str =
        r#"{"rules":[{"annotationKeyExprs":["key"],"selector":{"matchLabels":{"app":"sidecar"}}}]}"#;

    #[test]
    fn a_whitelisted_key_of_a_selected_set_is_allowed() {
        assert_eq!(
            patch_metadata_fault(
                &set(json!({ "app": "sidecar" }), &["key"]),
                Some(RULES),
                AT,
                false
            ),
            None
        );
        // A set that patches nothing needs no whitelist.
        assert_eq!(patch_metadata_fault(&set(json!({}), &[]), None, AT, false), None);
    }

    #[test]
    fn a_missing_whitelist_an_unselected_set_or_an_unlisted_key_is_refused_naming_it() {
        let missing = patch_metadata_fault(&set(json!({ "app": "sidecar" }), &["key"]), None, AT, false)
            .expect("refused");
        assert!(
            missing.contains("SidecarSet log: spec.patchPodMetadata") && missing.contains(AT),
            "{missing}"
        );
        let other = patch_metadata_fault(&set(json!({ "app": "other" }), &["key"]), Some(RULES), AT, false)
            .expect("refused");
        assert!(other.contains("no rule"), "{other}");
        let unlisted = patch_metadata_fault(
            &set(json!({ "app": "sidecar" }), &["key", "other.io/x"]),
            Some(RULES),
            AT,
            false,
        )
        .expect("refused");
        assert!(
            unlisted.contains("spec.patchPodMetadata[0].annotations[other.io/x] is not allowed"),
            "{unlisted}"
        );
    }

    #[test]
    fn the_defaults_allowed_gate_admits_without_a_rule_but_not_an_unlisted_key() {
        assert_eq!(
            patch_metadata_fault(&set(json!({}), &["key"]), None, AT, true),
            None
        );
        assert_eq!(
            patch_metadata_fault(&set(json!({ "app": "other" }), &["key"]), Some(RULES), AT, true),
            None
        );
        assert!(
            patch_metadata_fault(
                &set(json!({ "app": "sidecar" }), &["nope"]),
                Some(RULES),
                AT,
                true
            )
            .is_some()
        );
    }
}
