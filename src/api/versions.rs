//! Which versions each kind's CRD serves and stores, and how the two versions share one
//! schema.
//!
//! Invariants:
//! - Every kind is served as `v1alpha1` **and** `v1beta1`, each version with the same superset
//!   schema (the fields of both OpenKruise versions), and the conversion strategy is `None`:
//!   reading or writing either version needs no webhook, so `kubectl get` works while `run` is
//!   stopped. The apiserver only relabels `apiVersion` between versions; no field is renamed.
//! - The storage version of each kind is the one OpenKruise's current release line (1.9)
//!   stores ([`super::KruiseKind::storage_version`]). Whatever version an installed CRD has stored objects in stays served.
//! - Where the two OpenKruise versions spell the same setting differently (CloneSet's flat vs
//!   nested update strategy, DaemonSet's partitioned-scaling annotation vs field), the typed
//!   accessors of each kind resolve both, and the `v1beta1` spelling wins when both are set.
//! - A version may differ from the other only in defaults (`v1beta1` defaults that OpenKruise
//!   writes, applied by the apiserver to writes through `v1beta1`).

use k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::{
    CustomResourceConversion, CustomResourceDefinition,
};

/// Both versions served by every CRD.
pub const SERVED: [&str; 2] = ["v1alpha1", "v1beta1"];

/// The API resources `crd` serves, one per served version, in its order.
pub fn served_resources(
    crd: &CustomResourceDefinition,
) -> impl Iterator<Item = kube::core::ApiResource> + '_ {
    crd.spec.versions.iter().filter(|v| v.served).map(|version| {
        let gvk = kube::core::GroupVersionKind::gvk(&crd.spec.group, &version.name, &crd.spec.names.kind);
        kube::core::ApiResource::from_gvk_with_plural(&gvk, &crd.spec.names.plural)
    })
}

/// The storage version of `kind` ([`super::KruiseKind::storage_version`]); `v1alpha1` for
/// a kind not ours.
pub fn storage_version(kind: &str) -> &'static str {
    super::KruiseKind::named(kind).map_or("v1alpha1", super::KruiseKind::storage_version)
}

/// Makes `crd` serve both [`SERVED`] versions with the schema of its `v1alpha1` entry (a
/// version already present keeps its own entry), stores its kind's [`storage_version`], and
/// sets the conversion strategy to `None` explicitly, so an apply replaces a webhook
/// conversion left by another installer.
pub fn serve_both(mut crd: CustomResourceDefinition) -> CustomResourceDefinition {
    let storage = storage_version(&crd.spec.names.kind);
    if let Some(alpha) = crd.spec.versions.iter().find(|v| v.name == "v1alpha1").cloned() {
        for name in SERVED {
            if !crd.spec.versions.iter().any(|v| v.name == name) {
                let mut copy = alpha.clone();
                copy.name = name.to_owned();
                crd.spec.versions.push(copy);
            }
        }
    }
    crd.spec.versions.sort_by(|a, b| a.name.cmp(&b.name));
    for version in &mut crd.spec.versions {
        version.served = true;
        version.storage = version.name == storage;
    }
    crd.spec.conversion = Some(CustomResourceConversion {
        strategy: "None".into(),
        webhook: None,
    });
    crd
}

/// The schema of `version` in `crd`, mutably (for per-version defaults).
pub fn schema_mut<'a>(
    crd: &'a mut CustomResourceDefinition,
    version: &str,
) -> Option<&'a mut k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::JSONSchemaProps> {
    crd.spec
        .versions
        .iter_mut()
        .find(|v| v.name == version)
        .and_then(|v| v.schema.as_mut())
        .and_then(|s| s.open_api_v3_schema.as_mut())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::crds;

    #[test]
    fn every_kind_serves_both_versions_and_stores_as_openkruise_1_9() {
        for crd in crds() {
            let kind = crd.spec.names.kind.clone();
            let versions: Vec<(&str, bool, bool)> = crd
                .spec
                .versions
                .iter()
                .map(|v| (v.name.as_str(), v.served, v.storage))
                .collect();
            let beta_stored = storage_version(&kind) == "v1beta1";
            assert_eq!(
                versions,
                [("v1alpha1", true, !beta_stored), ("v1beta1", true, beta_stored)],
                "{kind}"
            );
            let conversion = crd.spec.conversion.as_ref().expect("conversion set");
            assert_eq!(conversion.strategy, "None", "{kind}");
            assert!(conversion.webhook.is_none(), "{kind}");
        }
    }

    #[test]
    fn both_versions_declare_the_same_fields() {
        fn without_defaults(v: &serde_json::Value) -> serde_json::Value {
            match v {
                serde_json::Value::Object(map) => map
                    .iter()
                    .filter(|(k, _)| *k != "default" && *k != "description")
                    .map(|(k, v)| (k.clone(), without_defaults(v)))
                    .collect(),
                serde_json::Value::Array(items) => items.iter().map(without_defaults).collect(),
                other => other.clone(),
            }
        }
        for crd in crds() {
            let schema = |name: &str| {
                let v = crd
                    .spec
                    .versions
                    .iter()
                    .find(|v| v.name == name)
                    .expect("version");
                without_defaults(&serde_json::to_value(&v.schema).expect("schema"))
            };
            assert_eq!(schema("v1alpha1"), schema("v1beta1"), "{}", crd.spec.names.kind);
        }
    }

    #[test]
    fn every_owner_reference_names_a_served_version() {
        use crate::api::*;
        use kube::Resource;
        fn version_of<K: Resource<DynamicType = ()>>() -> String {
            K::version(&()).into_owned()
        }
        // Children's controller references are built from these types' apiVersion.
        let versions = [
            version_of::<CloneSet>(),
            version_of::<statefulset::v1beta1::StatefulSet>(),
            version_of::<StatefulSet>(),
            version_of::<DaemonSet>(),
            version_of::<BroadcastJob>(),
            version_of::<AdvancedCronJob>(),
            version_of::<SidecarSet>(),
            version_of::<WorkloadSpread>(),
            version_of::<UnitedDeployment>(),
        ];
        for version in versions {
            assert!(SERVED.contains(&version.as_str()), "{version}");
        }
    }
}
