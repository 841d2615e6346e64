//! Whether a CloneSet pod's claims still match the set's `volumeClaimTemplates`, for
//! OpenKruise's `RecreatePodWhenChangeVCTInCloneSetGate`: with it on, a pod whose claims
//! were made from another shape is recreated when it is updated (its claims go with it and
//! the replacement gets claims of the current shape), unless the policy is InPlaceOnly.
//!
//! Invariants: pure; only what a template states is compared (storage request, access
//! modes, storage class, volume mode); a missing claim is not outdated (the scale phase
//! makes it again), so a pod is never recreated for a claim that is only late.
use k8s_openapi::api::core::v1::{PersistentVolumeClaim, PersistentVolumeClaimSpec, Pod};
use kube::ResourceExt;

use super::pods;
use crate::api::cloneset::CloneSet;

fn storage(spec: &PersistentVolumeClaimSpec) -> Option<&str> {
    let requests = spec.resources.as_ref()?.requests.as_ref()?;
    requests.get("storage").map(|q| q.0.as_str())
}

/// Does `claim` differ from `template` in what the template states?
fn differs(template: &PersistentVolumeClaimSpec, claim: &PersistentVolumeClaimSpec) -> bool {
    let stated = |want: Option<&str>, have: Option<&str>| want.is_some_and(|w| Some(w) != have);
    stated(storage(template), storage(claim))
        || stated(
            template.storage_class_name.as_deref(),
            claim.storage_class_name.as_deref(),
        )
        || stated(template.volume_mode.as_deref(), claim.volume_mode.as_deref())
        || template
            .access_modes
            .as_ref()
            .is_some_and(|m| Some(m) != claim.access_modes.as_ref())
}

/// Is a claim of `pod` made from a shape the set's claim templates no longer have?
pub fn outdated(set: &CloneSet, claims: &[&PersistentVolumeClaim], pod: &Pod) -> bool {
    let set_name = set.name_any();
    let id = pods::id_of(pod, &set_name);
    set.spec.volume_claim_templates.iter().flatten().any(|template| {
        let name = pods::claim_name(&template.name_any(), &set_name, id);
        let (Some(want), Some(have)) = (
            template.spec.as_ref(),
            claims
                .iter()
                .find(|c| c.name_any() == name)
                .and_then(|c| c.spec.as_ref()),
        ) else {
            return false;
        };
        differs(want, have)
    })
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn set(size: &str) -> CloneSet {
        serde_json::from_value(json!({
            "apiVersion": "apps.kruise.io/v1alpha1", "kind": "CloneSet",
            "metadata": { "name": "web", "namespace": "ns" },
            "spec": {
                "selector": { "matchLabels": { "app": "web" } },
                "template": { "metadata": { "labels": { "app": "web" } },
                    "spec": { "containers": [{ "name": "c", "image": "i" }] } },
                "volumeClaimTemplates": [{ "metadata": { "name": "data" },
                    "spec": { "accessModes": ["ReadWriteOnce"], "resources": { "requests": { "storage": size } } } }],
            },
        }))
        .expect("set")
    }

    fn pod() -> Pod {
        serde_json::from_value(json!({ "metadata": { "name": "web-abcde",
            "labels": { "apps.kruise.io/cloneset-instance-id": "abcde" } } }))
        .expect("pod")
    }

    fn claim(size: &str) -> PersistentVolumeClaim {
        serde_json::from_value(json!({ "metadata": { "name": "data-web-abcde" },
            "spec": { "accessModes": ["ReadWriteOnce"], "storageClassName": "standard",
                "resources": { "requests": { "storage": size } } } }))
        .expect("claim")
    }

    #[test]
    fn a_claim_of_another_size_is_outdated_one_of_the_same_or_a_missing_one_is_not() {
        let (small, large) = (claim("1Gi"), claim("2Gi"));
        assert!(outdated(&set("2Gi"), &[&small], &pod()));
        assert!(!outdated(&set("2Gi"), &[&large], &pod()));
        // The class the cluster defaulted is not stated by the template: not a difference.
        assert!(!outdated(&set("1Gi"), &[&small], &pod()));
        assert!(!outdated(&set("2Gi"), &[], &pod()));
    }
}
