//! `install --manager` and `uninstall --manager`: the in-cluster manager's objects
//! ([`super::manager`]) applied with server-side apply under field manager
//! `kubectl-kruise`, printed for `--dry-run=client`, and removed by name.
//!
//! Invariants: applying twice changes nothing; removal deletes only the objects the
//! manager is made of (and what its runs left in its namespace: the webhook CA Secret, the
//! Lease, the webhook configurations of an all-namespaces run), never the namespace, which
//! may hold what is not ours.
use kube::api::{Api, DeleteParams, DynamicObject, Patch, PatchParams};
use kube::core::{ApiResource, GroupVersionKind};
use serde_json::Value;

use super::manager::{self, Options};
use crate::runtime::context::FIELD_MANAGER;

/// The API of one manifest object (`apiVersion`, `kind`, and its namespace if any).
fn api_for(client: &kube::Client, object: &Value) -> (Api<DynamicObject>, String) {
    let api_version = object["apiVersion"].as_str().unwrap_or_default();
    let kind = object["kind"].as_str().unwrap_or_default();
    let (group, version) = match api_version.split_once('/') {
        Some((g, v)) => (g, v),
        None => ("", api_version),
    };
    // Every kind of the manager pluralizes with an `s`.
    let plural = format!("{}s", kind.to_lowercase());
    let gvk = GroupVersionKind::gvk(group, version, kind);
    let resource = ApiResource::from_gvk_with_plural(&gvk, &plural);
    let api = match object["metadata"]["namespace"].as_str() {
        Some(ns) => Api::namespaced_with(client.clone(), ns, &resource),
        None => Api::all_with(client.clone(), &resource),
    };
    (api, shown(object))
}

/// An object as kubectl names it: `deployment.apps/NAME`, `namespace/NAME`.
pub fn shown(object: &Value) -> String {
    let kind = object["kind"].as_str().unwrap_or_default().to_lowercase();
    let api_version = object["apiVersion"].as_str().unwrap_or_default();
    match api_version.split_once('/') {
        Some((group, _)) => format!("{kind}.{group}/{}", name_of(object)),
        None => format!("{kind}/{}", name_of(object)),
    }
}

fn name_of(object: &Value) -> &str {
    object["metadata"]["name"].as_str().unwrap_or_default()
}

/// The manager's objects as YAML documents (`---` before each).
pub fn render_yaml(opts: &Options) -> anyhow::Result<String> {
    let mut out = String::new();
    for object in manager::objects(opts) {
        out.push_str("---\n");
        out.push_str(&serde_saphyr::to_string(&object)?);
    }
    Ok(out)
}

/// Applies the manager's objects; one line each (`created`, `configured`, `unchanged`)
/// unless `quiet`.
pub async fn apply(
    client: &kube::Client,
    opts: &Options,
    server_dry_run: bool,
    quiet: bool,
) -> anyhow::Result<()> {
    let mut params = PatchParams::apply(FIELD_MANAGER).force();
    params.dry_run = server_dry_run;
    // A server dry run creates no namespace: what would go in a new one cannot be sent.
    let namespaces: Api<k8s_openapi::api::core::v1::Namespace> = Api::all(client.clone());
    let namespace_missing = server_dry_run && namespaces.get_opt(&opts.namespace).await?.is_none();
    for object in manager::objects(opts) {
        let (api, shown) = api_for(client, &object);
        if namespace_missing && object["metadata"]["namespace"].is_string() {
            if !quiet {
                println!(
                    "{shown} not sent (server dry run: namespace {} does not exist yet)",
                    opts.namespace
                );
            }
            continue;
        }
        let name = name_of(&object).to_string();
        let before = api
            .get_opt(&name)
            .await?
            .and_then(|o| o.metadata.resource_version);
        let after = api
            .patch(&name, &params, &Patch::Apply(&object))
            .await
            .map_err(|e| anyhow::anyhow!("applying {shown}: {e}"))?;
        let verb = match (&before, &after.metadata.resource_version) {
            (None, _) => "created",
            (Some(a), Some(b)) if a == b => "unchanged",
            _ => "configured",
        };
        if !quiet {
            let dry = if server_dry_run { " (server dry run)" } else { "" };
            println!("{shown} {verb}{dry}");
        }
    }
    Ok(())
}

/// Deletes the manager's objects in `namespace` (the Deployment first, so that its runs
/// stop and remove what they registered), then what they may have left behind.
pub async fn remove(client: &kube::Client, namespace: &str) -> anyhow::Result<()> {
    let opts = Options {
        namespace: namespace.to_string(),
        image: manager::DEFAULT_IMAGE.into(),
        replicas: 1,
    };
    let mut objects: Vec<Value> = manager::objects(&opts)
        .into_iter()
        .filter(|o| o["kind"] != "Namespace")
        .collect();
    objects.reverse();
    // The Deployment goes first: its pods stop gracefully and remove their webhooks.
    objects.sort_by_key(|o| o["kind"] != "Deployment");
    objects.extend(leftovers(namespace));
    objects.extend(webhooks_of(client, namespace).await?);
    for object in objects {
        let (api, shown) = api_for(client, &object);
        match api.delete(name_of(&object), &DeleteParams::default()).await {
            Ok(_) => println!("{shown} deleted"),
            Err(kube::Error::Api(s)) if s.code == 404 => {}
            Err(e) => anyhow::bail!("deleting {shown}: {e}"),
        }
    }
    println!("namespace/{namespace} kept (it may hold objects that are not the manager's)");
    Ok(())
}

/// What the manager's runs create in its namespace: the CA Secret and the Lease.
fn leftovers(namespace: &str) -> Vec<Value> {
    vec![
        serde_json::json!({ "apiVersion": "v1", "kind": "Secret",
            "metadata": { "name": crate::admission::certs::SECRET, "namespace": namespace } }),
        serde_json::json!({ "apiVersion": "coordination.k8s.io/v1", "kind": "Lease",
            "metadata": { "name": "kubectl-kruise", "namespace": namespace } }),
    ]
}

/// The webhook configurations a killed manager left (a graceful stop removes them; left,
/// they fail open): only those whose webhooks call this manager's Service.
async fn webhooks_of(client: &kube::Client, namespace: &str) -> anyhow::Result<Vec<Value>> {
    let name = crate::admission::registration::name(None);
    let mut found = Vec::new();
    for kind in ["MutatingWebhookConfiguration", "ValidatingWebhookConfiguration"] {
        let object = serde_json::json!({ "apiVersion": "admissionregistration.k8s.io/v1",
            "kind": kind, "metadata": { "name": name } });
        let (api, _) = api_for(client, &object);
        let Some(registered) = api.get_opt(&name).await? else {
            continue;
        };
        let ours = registered.data["webhooks"].as_array().is_some_and(|hooks| {
            hooks.iter().all(|h| {
                let service = &h["clientConfig"]["service"];
                service["namespace"] == namespace && service["name"] == manager::SERVICE
            })
        });
        if ours {
            found.push(object);
        }
    }
    Ok(found)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_yaml_is_one_document_per_object_and_reads_back() {
        let opts = Options {
            namespace: "kruise-system".into(),
            image: "example/kruise:1".into(),
            replicas: 2,
        };
        let yaml = render_yaml(&opts).expect("yaml");
        let docs: Vec<&str> = yaml.split("---\n").filter(|d| !d.trim().is_empty()).collect();
        assert_eq!(docs.len(), manager::objects(&opts).len());
        for (doc, object) in docs.iter().zip(manager::objects(&opts)) {
            let read: Value = serde_saphyr::from_str(doc).expect("parses");
            assert_eq!(read, object);
        }
    }
}
