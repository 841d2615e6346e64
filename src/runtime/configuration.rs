//! OpenKruise's `kruise-configuration` ConfigMap, the parts `run` reads once when it
//! starts (as kruise-manager sets up its watches at start): the custom workloads a
//! WorkloadSpread may target (`WorkloadSpread_Watch_Custom_Workload_WhiteList`, JSON
//! `{"workloads": [{"Group", "Version", "Kind", "ReplicasPath"}]}` as upstream writes it).
//!
//! Invariants: a missing ConfigMap or key is an empty whitelist; an unreadable one is an
//! empty whitelist and a warning naming the ConfigMap and the key (never a failed start);
//! each entry is resolved to its API resource through discovery, and an entry whose kind
//! the API server does not serve stays listed (validation admits it, as upstream's does)
//! without a resource (its targets are then reported missing). A change of the whitelist
//! takes effect at the next start of `run`.
use std::sync::Arc;

use k8s_openapi::api::core::v1::ConfigMap;
use kube::core::{ApiResource, GroupVersionKind};
use kube::{Api, Client};
use serde::Deserialize;

/// The ConfigMap's name (in the run's system namespace).
pub const CONFIGMAP: &str = "kruise-configuration";
/// The key of the WorkloadSpread custom-workload whitelist.
pub const CUSTOM_WORKLOAD_WHITELIST_KEY: &str = "WorkloadSpread_Watch_Custom_Workload_WhiteList";

/// One custom workload kind a WorkloadSpread may target.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct CustomWorkload {
    #[serde(rename = "Group", alias = "group", default)]
    pub group: String,
    #[serde(rename = "Version", alias = "version", default)]
    pub version: String,
    #[serde(rename = "Kind", alias = "kind")]
    pub kind: String,
    /// Dotted path of its replica count (`spec.tfReplicaSpecs.MASTER.replicas`); empty:
    /// the total is 0 unless the WorkloadSpread's `targetFilter.replicasPathList` says.
    #[serde(rename = "ReplicasPath", alias = "replicasPath", default)]
    pub replicas_path: String,
    /// Its API resource, when the API server serves the kind.
    #[serde(skip)]
    pub resource: Option<ApiResource>,
}

#[derive(Deserialize)]
struct Whitelist {
    #[serde(default)]
    workloads: Vec<CustomWorkload>,
}

/// What `run` read of the ConfigMap. Cheap to clone.
#[derive(Debug, Clone, Default)]
pub struct Configuration {
    pub custom_workloads: Arc<Vec<CustomWorkload>>,
}

impl Configuration {
    /// The whitelisted custom workload of `group` and `kind` (any version, as upstream
    /// matches).
    pub fn custom(&self, group: &str, kind: &str) -> Option<&CustomWorkload> {
        self.custom_workloads
            .iter()
            .find(|w| w.group == group && w.kind == kind)
    }
}

/// The whitelist in `text` (the ConfigMap key's value).
pub fn parse_custom_workloads(text: &str) -> Result<Vec<CustomWorkload>, String> {
    serde_json::from_str::<Whitelist>(text)
        .map(|w| w.workloads)
        .map_err(|e| e.to_string())
}

/// Reads the ConfigMap in `namespace` and resolves each whitelisted kind (see the module
/// invariants: problems are warnings).
pub async fn read(client: &Client, namespace: &str) -> Configuration {
    let at = format!("ConfigMap {namespace}/{CONFIGMAP}");
    let maps: Api<ConfigMap> = Api::namespaced(client.clone(), namespace);
    let text = match maps.get_opt(CONFIGMAP).await {
        Ok(map) => map
            .and_then(|m| m.data)
            .and_then(|mut d| d.remove(CUSTOM_WORKLOAD_WHITELIST_KEY)),
        Err(error) => {
            tracing::warn!(%error, "{at} cannot be read; WorkloadSpread custom workloads are off");
            None
        }
    };
    let Some(text) = text else {
        return Configuration::default();
    };
    let mut workloads = match parse_custom_workloads(&text) {
        Ok(w) => w,
        Err(error) => {
            tracing::warn!(%error, "{CUSTOM_WORKLOAD_WHITELIST_KEY} in {at} is not readable; ignored");
            eprintln!("warning: {CUSTOM_WORKLOAD_WHITELIST_KEY} in {at} is not readable ({error}); ignored");
            return Configuration::default();
        }
    };
    for workload in &mut workloads {
        let gvk = GroupVersionKind::gvk(&workload.group, &workload.version, &workload.kind);
        match kube::discovery::pinned_kind(client, &gvk).await {
            Ok((resource, _)) => workload.resource = Some(resource),
            Err(error) => tracing::warn!(
                %error,
                "{}/{} {} of {CUSTOM_WORKLOAD_WHITELIST_KEY} is not served; its WorkloadSpreads find no target",
                workload.group,
                workload.version,
                workload.kind
            ),
        }
    }
    Configuration {
        custom_workloads: Arc::new(workloads),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn openkruises_whitelist_reads_with_its_go_field_names() {
        let text = r#"{ "workloads": [
            { "Group": "kubeflow.org", "Version": "v1", "Kind": "TFJob",
              "ReplicasPath": "spec.tfReplicaSpecs.MASTER.replicas" },
            { "Group": "apps.kruise.io", "Version": "v1alpha1", "Kind": "DaemonSet" } ] }"#;
        let list = parse_custom_workloads(text).expect("whitelist");
        assert_eq!(list.len(), 2);
        assert_eq!(list[0].replicas_path, "spec.tfReplicaSpecs.MASTER.replicas");
        assert_eq!(list[1].replicas_path, "");
        let config = Configuration {
            custom_workloads: Arc::new(list),
        };
        assert!(config.custom("kubeflow.org", "TFJob").is_some());
        assert!(config.custom("apps", "DaemonSet").is_none());
        assert!(parse_custom_workloads("{ \"workloads\": [ { \"Group\": 1 } ] }").is_err());
    }
}
