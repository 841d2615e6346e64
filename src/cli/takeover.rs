//! What `install` finds of an OpenKruise installation, and `--take-over`.
//!
//! Invariants:
//! - OpenKruise's webhook configurations (`kruise-mutating-webhook-configuration`,
//!   `kruise-validating-webhook-configuration`) fail closed on pod create, update and
//!   eviction: once kruise-manager is gone, they block every pod in the cluster. `install`
//!   refuses while they exist unless `--take-over` is given.
//! - `--take-over` removes them only when no kruise-manager runs: no
//!   `kruise-controller-manager` Deployment with pods in the namespaces their services
//!   live in, and no ready endpoint behind those services. It asks first on a terminal
//!   (`--yes` skips the question; no terminal and no `--yes` is a usage error).
//! - A running kruise-manager is always a refusal, with or without `--take-over`: it would
//!   put its webhook conversion back into the CRDs and fight `run` over every object.
//! - Nothing else of OpenKruise is touched (its Deployment, Service, RBAC, kruise-daemon):
//!   the README says how to remove them.
use std::collections::BTreeSet;

use k8s_openapi::api::admissionregistration::v1::{
    MutatingWebhookConfiguration, ValidatingWebhookConfiguration,
};
use k8s_openapi::api::apps::v1::Deployment;
use k8s_openapi::api::discovery::v1::EndpointSlice;
use k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition;
use kube::api::{Api, DeleteParams, ListParams, Patch, PatchParams};
use kube::{Client, ResourceExt};

use crate::runtime::context::FIELD_MANAGER;

/// OpenKruise's mutating webhook configuration.
pub const MUTATING: &str = "kruise-mutating-webhook-configuration";
/// OpenKruise's validating webhook configuration.
pub const VALIDATING: &str = "kruise-validating-webhook-configuration";
/// kruise-manager's Deployment.
pub const MANAGER: &str = "kruise-controller-manager";
/// Where OpenKruise installs itself unless told otherwise.
pub const DEFAULT_NAMESPACE: &str = "kruise-system";

/// What of OpenKruise is in the cluster.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct Found {
    /// `mutatingwebhookconfiguration/NAME` and `validatingwebhookconfiguration/NAME` present.
    pub configurations: Vec<String>,
    /// Why kruise-manager counts as running (empty: it does not).
    pub running: Vec<String>,
}

impl Found {
    /// Nothing of OpenKruise that matters to `install`.
    pub fn is_empty(&self) -> bool {
        self.configurations.is_empty() && self.running.is_empty()
    }

    /// The refusal `run` gives while kruise-manager runs (`None`: it may go on). Its
    /// webhook configurations alone do not stop `run` (with no manager behind them they
    /// are `install --take-over`'s business).
    pub fn run_refusal(&self) -> Option<String> {
        (!self.running.is_empty()).then(|| {
            format!(
                "refusing to run: OpenKruise's kruise-manager is running ({}).\n\
                 Both would reconcile the same objects and overwrite each other's status.\n\
                 hint: stop it first: kubectl -n {DEFAULT_NAMESPACE} scale deployment {MANAGER} --replicas=0\n\
                 hint: to move its objects over for good: kubectl kruise install --take-over",
                self.running.join("; ")
            )
        })
    }

    /// The refusal `install` gives without `--take-over` (or with it, while kruise-manager
    /// runs); `None` when it may go on.
    pub fn refusal(&self, take_over: bool) -> Option<String> {
        if !self.running.is_empty() {
            return Some(format!(
                "refusing to install: OpenKruise's kruise-manager is running ({}).\n\
                 It would put its conversion webhook back into the CRDs and reconcile the same objects as `run`.\n\
                 hint: stop it first (kubectl -n {DEFAULT_NAMESPACE} scale deployment {MANAGER} --replicas=0), \
                 then run: kubectl kruise install --take-over",
                self.running.join("; ")
            ));
        }
        if !self.configurations.is_empty() && !take_over {
            return Some(format!(
                "refusing to install: OpenKruise's webhook configurations are still present ({}).\n\
                 Their pod webhooks fail closed: with kruise-manager gone, no pod could be created, updated or evicted.\n\
                 hint: kubectl kruise install --take-over   # removes them (kruise-manager is not running)",
                self.configurations.join(", ")
            ));
        }
        None
    }
}

/// The services OpenKruise's webhooks call (namespace, name), plus the default one.
fn services<'a>(
    configs: impl Iterator<Item = &'a k8s_openapi::api::admissionregistration::v1::WebhookClientConfig>,
) -> BTreeSet<(String, String)> {
    let mut out: BTreeSet<(String, String)> = configs
        .filter_map(|c| c.service.as_ref())
        .map(|s| (s.namespace.clone(), s.name.clone()))
        .collect();
    out.insert((DEFAULT_NAMESPACE.into(), "kruise-webhook-service".into()));
    out
}

/// Looks for OpenKruise's webhook configurations and a running kruise-manager.
pub async fn find(client: &Client) -> anyhow::Result<Found> {
    let mutating: Api<MutatingWebhookConfiguration> = Api::all(client.clone());
    let validating: Api<ValidatingWebhookConfiguration> = Api::all(client.clone());
    let mut found = Found::default();
    let mut clients = Vec::new();
    if let Some(m) = mutating.get_opt(MUTATING).await? {
        found
            .configurations
            .push(format!("mutatingwebhookconfiguration/{MUTATING}"));
        clients.extend(
            m.webhooks
                .unwrap_or_default()
                .into_iter()
                .map(|w| w.client_config),
        );
    }
    if let Some(v) = validating.get_opt(VALIDATING).await? {
        found
            .configurations
            .push(format!("validatingwebhookconfiguration/{VALIDATING}"));
        clients.extend(
            v.webhooks
                .unwrap_or_default()
                .into_iter()
                .map(|w| w.client_config),
        );
    }
    for (namespace, service) in services(clients.iter()) {
        let deployments: Api<Deployment> = Api::namespaced(client.clone(), &namespace);
        if let Some(d) = deployments.get_opt(MANAGER).await? {
            let pods = d.status.as_ref().and_then(|s| s.replicas).unwrap_or(0);
            let wanted = d.spec.replicas.unwrap_or(1);
            if pods > 0 || wanted > 0 {
                found.running.push(format!(
                    "deployment {namespace}/{MANAGER} has {wanted} replicas wanted, {pods} pods"
                ));
            }
        }
        let slices: Api<EndpointSlice> = Api::namespaced(client.clone(), &namespace);
        let params = ListParams::default().labels(&format!("kubernetes.io/service-name={service}"));
        let ready = slices
            .list(&params)
            .await?
            .items
            .iter()
            .flat_map(|s| s.endpoints.iter().flatten())
            .filter(|e| e.conditions.as_ref().and_then(|c| c.ready) != Some(false))
            .count();
        if ready > 0 {
            found.running.push(format!(
                "service {namespace}/{service} has {ready} ready endpoints"
            ));
        }
    }
    Ok(found)
}

/// Removes OpenKruise's webhook configurations (those in `found`); absent ones are fine.
pub async fn remove_configurations(client: &Client, found: &Found) -> anyhow::Result<()> {
    let mutating: Api<MutatingWebhookConfiguration> = Api::all(client.clone());
    let validating: Api<ValidatingWebhookConfiguration> = Api::all(client.clone());
    for name in &found.configurations {
        let result = if name.starts_with("mutating") {
            mutating
                .delete(MUTATING, &DeleteParams::default())
                .await
                .map(|_| ())
        } else {
            validating
                .delete(VALIDATING, &DeleteParams::default())
                .await
                .map(|_| ())
        };
        match result {
            Ok(()) => println!("{name} deleted (OpenKruise's, fail-closed)"),
            Err(kube::Error::Api(s)) if s.code == 404 => {}
            Err(e) => return Err(e.into()),
        }
    }
    Ok(())
}

/// A webhook conversion on an installed CRD (OpenKruise's points at kruise-manager): the
/// service it calls, for the message.
pub fn webhook_conversion(crd: &CustomResourceDefinition) -> Option<String> {
    let conversion = crd.spec.conversion.as_ref()?;
    if conversion.strategy != "Webhook" && conversion.webhook.is_none() {
        return None;
    }
    let service = conversion
        .webhook
        .as_ref()
        .and_then(|w| w.client_config.as_ref())
        .and_then(|c| c.service.as_ref())
        .map(|s| format!("service {}/{}", s.namespace, s.name))
        .unwrap_or_else(|| "a URL".into());
    Some(service)
}

/// Replaces a webhook conversion by `None` with a merge patch (an apply alone would leave
/// the other manager's `webhook` block beside our `strategy: None`, which is invalid).
pub async fn drop_webhook_conversion(
    api: &Api<CustomResourceDefinition>,
    crd: &CustomResourceDefinition,
    dry_run: bool,
) -> anyhow::Result<()> {
    let patch = serde_json::json!({ "spec": { "conversion": { "strategy": "None", "webhook": null } } });
    let params = PatchParams {
        field_manager: Some(FIELD_MANAGER.into()),
        dry_run,
        ..PatchParams::default()
    };
    api.patch(&crd.name_any(), &params, &Patch::Merge(&patch)).await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_running_manager_is_refused_even_with_take_over() {
        let found = Found {
            configurations: vec![format!("mutatingwebhookconfiguration/{MUTATING}")],
            running: vec![
                "deployment kruise-system/kruise-controller-manager has 1 replicas wanted, 1 pods".into(),
            ],
        };
        for take_over in [false, true] {
            let refusal = found.refusal(take_over).expect("refused");
            assert!(refusal.contains("kruise-manager is running"), "{refusal}");
            assert!(refusal.contains("--replicas=0"), "{refusal}");
        }
    }

    #[test]
    fn leftover_configurations_need_take_over() {
        let found = Found {
            configurations: vec![format!("validatingwebhookconfiguration/{VALIDATING}")],
            running: vec![],
        };
        let refusal = found.refusal(false).expect("refused");
        assert!(
            refusal.contains(VALIDATING) && refusal.contains("--take-over"),
            "{refusal}"
        );
        assert_eq!(found.refusal(true), None);
        assert_eq!(Found::default().refusal(false), None);
    }
}
