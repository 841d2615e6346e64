//! Applying YAML manifests the way users do (server-side apply under strict field
//! validation) and checking what the server kept.
use std::path::Path;

use kube::api::{Api, DynamicObject, Patch, PatchParams, ValidationDirective};
use kube::core::{ApiResource, GroupVersionKind};
use serde_json::Value;

use super::TestNamespace;

/// The object documents of a YAML file (empty documents dropped).
pub fn documents(path: &Path) -> Vec<Value> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("read {}: {e}", path.display()));
    let docs: Vec<Value> =
        serde_saphyr::from_multiple(&text).unwrap_or_else(|e| panic!("parse {}: {e}", path.display()));
    docs.into_iter().filter(|d| d.is_object()).collect()
}

/// The API resource of a document's kind: ours from the generated CRDs, or a core kind.
pub fn resource_of(doc: &Value) -> ApiResource {
    let (api_version, kind) = (
        doc["apiVersion"].as_str().unwrap_or(""),
        doc["kind"].as_str().unwrap_or(""),
    );
    let (group, version) = api_version.split_once('/').unwrap_or(("", api_version));
    let plural = if group == "apps.kruise.io" {
        let crd = kubectl_kruise::api::crd_for_kind(kind).unwrap_or_else(|| panic!("no CRD for {kind}"));
        crd.spec.names.plural
    } else {
        format!("{}s", kind.to_lowercase())
    };
    ApiResource::from_gvk_with_plural(&GroupVersionKind::gvk(group, version, kind), &plural)
}

pub fn strict_apply() -> PatchParams {
    let mut params = PatchParams::apply("kruise-manifest-test").force();
    params.field_validation = Some(ValidationDirective::Strict);
    params
}

/// Applies `doc` into the test namespace and returns what the server stored. A SidecarSet,
/// being cluster-scoped, gets a name unique to the namespace and is deleted again.
pub async fn apply(ns: &TestNamespace, doc: &Value) -> Result<DynamicObject, kube::Error> {
    let resource = resource_of(doc);
    let cluster_scoped = doc["kind"] == "SidecarSet";
    let api: Api<DynamicObject> = if cluster_scoped {
        Api::all_with(ns.client.clone(), &resource)
    } else {
        Api::namespaced_with(ns.client.clone(), &ns.name, &resource)
    };
    let mut body = doc.clone();
    if cluster_scoped {
        let name = doc["metadata"]["name"].as_str().unwrap_or("sidecarset");
        body["metadata"]["name"] = format!("{name}-{}", ns.name).into();
    }
    let name = body["metadata"]["name"]
        .as_str()
        .expect("manifest has a name")
        .to_string();
    let result = api.patch(&name, &strict_apply(), &Patch::Apply(&body)).await;
    if cluster_scoped && result.is_ok() {
        let _ = api.delete(&name, &Default::default()).await;
    }
    result
}

/// Every field `want` sets has the same value in `have` (what the server returned).
pub fn assert_contains(path: &str, want: &Value, have: &Value) {
    match (want, have) {
        (Value::Object(w), Value::Object(h)) => {
            for (k, v) in w {
                let next = format!("{path}.{k}");
                let got = h
                    .get(k)
                    .unwrap_or_else(|| panic!("{next} was dropped by the server"));
                assert_contains(&next, v, got);
            }
        }
        (Value::Array(w), Value::Array(h)) => {
            assert_eq!(w.len(), h.len(), "{path}: list length changed");
            for (i, (a, b)) in w.iter().zip(h).enumerate() {
                assert_contains(&format!("{path}[{i}]"), a, b);
            }
        }
        (Value::Null, _) => {}
        _ => assert_eq!(want, have, "{path} changed"),
    }
}

/// Creates `doc` in the test namespace with `fieldValidation=Strict`, as `kubectl create`
/// and a first `kubectl apply` do: every unknown field is named in one 4xx answer. (The
/// server-side-apply path may instead answer with the first unknown field only, and with
/// a 500 while a CRD was just updated.)
pub async fn create_strict(ns: &TestNamespace, doc: &Value) -> Result<Value, kube::Error> {
    let resource = resource_of(doc);
    let base = if resource.group.is_empty() {
        format!("/api/{}", resource.version)
    } else {
        format!("/apis/{}/{}", resource.group, resource.version)
    };
    let url = format!(
        "{base}/namespaces/{}/{}?fieldValidation=Strict",
        ns.name, resource.plural
    );
    let body = serde_json::to_vec(doc).unwrap_or_default();
    let request = http::Request::post(url)
        .header("content-type", "application/json")
        .body(body)
        .expect("a valid request");
    let text = ns.client.request_text(request).await?;
    Ok(serde_json::from_str(&text).unwrap_or(Value::Null))
}
