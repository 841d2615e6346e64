//! The webhook configurations `run` registers (its own names, never OpenKruise's) and
//! removes on a graceful exit. Built by pure functions ([`mutating`], [`validating`]),
//! written by server-side apply.
//!
//! Invariants: every webhook has `failurePolicy: Ignore`, no side effects on a dry run and a short
//! timeout, so a `run` that is gone (SIGKILL, a sleeping laptop) costs a request at most
//! the connection-refused time and never fails it; the controllers apply the same defaults
//! and refusals themselves, so nothing depends on a webhook having run; only the kinds this
//! run serves are sent to it.
use k8s_openapi::ByteString;
use k8s_openapi::api::admissionregistration::v1::{
    MutatingWebhook, MutatingWebhookConfiguration, RuleWithOperations, ServiceReference, ValidatingWebhook,
    ValidatingWebhookConfiguration, WebhookClientConfig,
};
use k8s_openapi::apimachinery::pkg::apis::meta::v1::LabelSelector;
use kube::api::{Api, DeleteParams, Patch, PatchParams};
use kube::{Client, Resource};

/// The name of both configurations of an all-namespaces run; a run scoped to namespace NS
/// (`run -n NS`) registers `kubectl-kruise.NS`, for that namespace only ([`name`]).
pub const NAME: &str = "kubectl-kruise";
/// Seconds the API server waits for an answer.
pub const TIMEOUT_SECONDS: i32 = 3;

/// Where the API server reaches the admission server.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Endpoint {
    /// `https://HOST:PORT` (the local control plane, or an API server that can dial us).
    Url(String),
    /// An in-cluster Service in front of the run.
    Service {
        namespace: String,
        name: String,
        port: i32,
    },
}

impl Endpoint {
    fn client_config(&self, path: &str, ca_bundle: &str) -> WebhookClientConfig {
        let ca_bundle = Some(ByteString(ca_bundle.as_bytes().to_vec()));
        match self {
            Endpoint::Url(base) => WebhookClientConfig {
                url: Some(format!("{base}{path}")),
                ca_bundle,
                service: None,
            },
            Endpoint::Service {
                namespace,
                name,
                port,
            } => WebhookClientConfig {
                url: None,
                ca_bundle,
                service: Some(ServiceReference {
                    namespace: namespace.clone(),
                    name: name.clone(),
                    path: Some(path.into()),
                    port: Some(*port),
                }),
            },
        }
    }

    /// For messages.
    pub fn describe(&self) -> String {
        match self {
            Endpoint::Url(base) => base.clone(),
            Endpoint::Service {
                namespace,
                name,
                port,
            } => format!("service {namespace}/{name}:{port}"),
        }
    }
}

/// The kinds whose defaults and refusals the server answers: every OpenKruise kind, one
/// rule per API group and scope (a run's namespace selector applies to the namespaced
/// ones; a cluster-scoped one, a SidecarSet, is judged by every run's server).
fn workload_rules() -> Vec<RuleWithOperations> {
    let mut rules: Vec<RuleWithOperations> = Vec::new();
    for kind in crate::api::KruiseKind::ALL {
        let resource = kind.resource();
        let scope = if kind.namespaced() {
            "Namespaced"
        } else {
            "Cluster"
        };
        let same = |r: &&mut RuleWithOperations| {
            r.scope.as_deref() == Some(scope)
                && r.api_groups.as_deref() == Some(std::slice::from_ref(&resource.group))
        };
        match rules.iter_mut().find(same) {
            Some(rule) => rule.resources.get_or_insert_default().push(resource.plural),
            None => rules.push(RuleWithOperations {
                api_groups: Some(vec![resource.group.clone()]),
                api_versions: Some(vec!["*".into()]),
                operations: Some(vec!["CREATE".into(), "UPDATE".into()]),
                resources: Some(vec![resource.plural]),
                scope: Some(scope.into()),
            }),
        }
    }
    rules
}

/// The configurations' name for a run scoped to `scope` (None: all namespaces).
pub fn name(scope: Option<&str>) -> String {
    match scope {
        Some(ns) => format!("{NAME}.{ns}"),
        None => NAME.to_string(),
    }
}

/// Only the run's namespace, when it is scoped to one.
fn namespace_selector(scope: Option<&str>) -> Option<LabelSelector> {
    scope.map(|ns| LabelSelector {
        match_labels: Some([("kubernetes.io/metadata.name".to_string(), ns.to_string())].into()),
        ..LabelSelector::default()
    })
}

fn labelled<K: Resource>(object: &mut K, scope: Option<&str>) {
    object.meta_mut().name = Some(name(scope));
    object.meta_mut().labels = Some(
        [(
            "app.kubernetes.io/managed-by".to_string(),
            "kubectl-kruise".to_string(),
        )]
        .into(),
    );
}

/// One webhook of this run: fails open, fast, without side effects (the fields both kinds
/// of webhook share).
fn hook(
    name: &str,
    path: &str,
    endpoint: &Endpoint,
    ca_bundle: &str,
    scope: Option<&str>,
) -> ValidatingWebhook {
    ValidatingWebhook {
        name: name.into(),
        client_config: endpoint.client_config(path, ca_bundle),
        rules: Some(workload_rules()),
        namespace_selector: namespace_selector(scope),
        failure_policy: Some("Ignore".into()),
        side_effects: "None".into(),
        admission_review_versions: vec!["v1".into()],
        timeout_seconds: Some(TIMEOUT_SECONDS),
        match_policy: Some("Equivalent".into()),
        ..ValidatingWebhook::default()
    }
}

/// The mutating configuration (defaults) for `endpoint`, trusting `ca_bundle` (PEM).
pub fn mutating(endpoint: &Endpoint, ca_bundle: &str, scope: Option<&str>) -> MutatingWebhookConfiguration {
    let shared = hook(
        "workloads.defaults.kubectl-kruise.io",
        "/mutate",
        endpoint,
        ca_bundle,
        scope,
    );
    let webhook = as_mutating(shared);
    let mut config = MutatingWebhookConfiguration {
        webhooks: Some(vec![webhook, pod_injection(endpoint, ca_bundle, scope)]),
        ..MutatingWebhookConfiguration::default()
    };
    labelled(&mut config, scope);
    config
}

/// The pod webhook: WorkloadSpread placement and SidecarSet injection at pod creation. Fails open like the others, so
/// a stopped `run` never blocks a pod (the pod is created without its sidecars).
fn pod_injection(endpoint: &Endpoint, ca_bundle: &str, scope: Option<&str>) -> MutatingWebhook {
    let rules = vec![RuleWithOperations {
        api_groups: Some(vec![String::new()]),
        api_versions: Some(vec!["v1".into()]),
        operations: Some(vec!["CREATE".into()]),
        resources: Some(vec!["pods".into()]),
        scope: Some("Namespaced".into()),
    }];
    let shared = ValidatingWebhook {
        rules: Some(rules),
        // Placing a pod writes its WorkloadSpread's status; a dry run writes nothing.
        side_effects: "NoneOnDryRun".into(),
        ..hook(
            "pods.sidecarset.kubectl-kruise.io",
            "/mutate-pod",
            endpoint,
            ca_bundle,
            scope,
        )
    };
    as_mutating(shared)
}

/// The pod release webhook: a pod deleted, evicted or changed is judged by its
/// PodUnavailableBudget, and one deleted or evicted gives its WorkloadSpread subset its
/// room back. Fails open; a stopped `run` only leaves the room to the controller, which
/// finds the pod gone, and protects nothing.
fn pod_release(endpoint: &Endpoint, ca_bundle: &str, scope: Option<&str>) -> ValidatingWebhook {
    let rule = |operation: &str, resource: &str| RuleWithOperations {
        api_groups: Some(vec![String::new()]),
        api_versions: Some(vec!["v1".into()]),
        operations: Some(vec![operation.into()]),
        resources: Some(vec![resource.into()]),
        scope: Some("Namespaced".into()),
    };
    ValidatingWebhook {
        rules: Some(vec![
            rule("DELETE", "pods"),
            rule("CREATE", "pods/eviction"),
            // A PodUnavailableBudget judges a pod's spec change (an in-place update).
            rule("UPDATE", "pods"),
        ]),
        side_effects: "NoneOnDryRun".into(),
        ..hook(
            "pods.workloadspread.kubectl-kruise.io",
            "/validate-pod",
            endpoint,
            ca_bundle,
            scope,
        )
    }
}

/// Deletion protection: a namespace, a CRD or a workload labelled
/// `policy.kruise.io/delete-protection` is sent on DELETE (the object selector: nothing
/// else is). Fails open: a stopped `run` protects nothing.
fn deletion_protection(endpoint: &Endpoint, ca_bundle: &str, scope: Option<&str>) -> ValidatingWebhook {
    let rule = |group: &str, resources: Vec<String>, scope: &str| RuleWithOperations {
        api_groups: Some(vec![group.into()]),
        api_versions: Some(vec!["*".into()]),
        operations: Some(vec!["DELETE".into()]),
        resources: Some(resources),
        scope: Some(scope.into()),
    };
    let mut rules = vec![
        rule("", vec!["namespaces".into()], "Cluster"),
        rule(
            "apiextensions.k8s.io",
            vec!["customresourcedefinitions".into()],
            "Cluster",
        ),
        rule(
            "apps",
            ["deployments", "statefulsets", "replicasets", "daemonsets"]
                .map(String::from)
                .to_vec(),
            "Namespaced",
        ),
    ];
    // Every kind of ours, as the workload rules group them (a DELETE instead).
    rules.extend(workload_rules().into_iter().map(|mut r| {
        r.operations = Some(vec!["DELETE".into()]);
        r
    }));
    ValidatingWebhook {
        rules: Some(rules),
        object_selector: Some(LabelSelector {
            match_expressions: Some(vec![
                k8s_openapi::apimachinery::pkg::apis::meta::v1::LabelSelectorRequirement {
                    key: crate::admission::protection::LABEL.into(),
                    operator: "Exists".into(),
                    values: None,
                },
            ]),
            ..LabelSelector::default()
        }),
        ..hook(
            "deletion.protection.kubectl-kruise.io",
            "/validate-deletion",
            endpoint,
            ca_bundle,
            scope,
        )
    }
}

/// A mutating webhook has every field of a validating one, plus its reinvocation policy.
fn as_mutating(hook: ValidatingWebhook) -> MutatingWebhook {
    let mut webhook: MutatingWebhook = serde_json::to_value(hook)
        .and_then(serde_json::from_value)
        .unwrap_or_default();
    webhook.reinvocation_policy = Some("Never".into());
    webhook
}

/// The validating configuration (refusals CEL cannot express) for `endpoint`.
pub fn validating(
    endpoint: &Endpoint,
    ca_bundle: &str,
    scope: Option<&str>,
) -> ValidatingWebhookConfiguration {
    let webhook = hook(
        "workloads.validation.kubectl-kruise.io",
        "/validate",
        endpoint,
        ca_bundle,
        scope,
    );
    let mut config = ValidatingWebhookConfiguration {
        webhooks: Some(vec![
            webhook,
            pod_release(endpoint, ca_bundle, scope),
            deletion_protection(endpoint, ca_bundle, scope),
        ]),
        ..ValidatingWebhookConfiguration::default()
    };
    labelled(&mut config, scope);
    config
}

fn apply_params() -> PatchParams {
    PatchParams::apply(crate::runtime::context::FIELD_MANAGER).force()
}

/// Writes both configurations (server-side apply: a re-registration replaces ours).
pub async fn register(
    client: &Client,
    endpoint: &Endpoint,
    ca_bundle: &str,
    scope: Option<&str>,
) -> Result<(), kube::Error> {
    let name = name(scope);
    let mutating_api: Api<MutatingWebhookConfiguration> = Api::all(client.clone());
    let config = mutating(endpoint, ca_bundle, scope);
    let body = serde_json::json!({
        "apiVersion": "admissionregistration.k8s.io/v1", "kind": "MutatingWebhookConfiguration",
        "metadata": config.metadata, "webhooks": config.webhooks,
    });
    mutating_api
        .patch(&name, &apply_params(), &Patch::Apply(&body))
        .await?;
    let validating_api: Api<ValidatingWebhookConfiguration> = Api::all(client.clone());
    let config = validating(endpoint, ca_bundle, scope);
    let body = serde_json::json!({
        "apiVersion": "admissionregistration.k8s.io/v1", "kind": "ValidatingWebhookConfiguration",
        "metadata": config.metadata, "webhooks": config.webhooks,
    });
    validating_api
        .patch(&name, &apply_params(), &Patch::Apply(&body))
        .await?;
    Ok(())
}

/// Deletes both configurations of `scope` (already gone is fine).
pub async fn remove(client: &Client, scope: Option<&str>) -> Result<(), kube::Error> {
    let name = name(scope);
    let gone = |r: Result<(), kube::Error>| match r {
        Err(kube::Error::Api(s)) if s.is_not_found() => Ok(()),
        other => other,
    };
    let mutating_api: Api<MutatingWebhookConfiguration> = Api::all(client.clone());
    gone(
        mutating_api
            .delete(&name, &DeleteParams::default())
            .await
            .map(|_| ()),
    )?;
    let validating_api: Api<ValidatingWebhookConfiguration> = Api::all(client.clone());
    gone(
        validating_api
            .delete(&name, &DeleteParams::default())
            .await
            .map(|_| ()),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_webhook_fails_open_fast_and_writes_nothing_on_a_dry_run() {
        let endpoint = Endpoint::Url("https://127.0.0.1:9443".into());
        let m = mutating(&endpoint, "CA", None);
        let v = validating(&endpoint, "CA", None);
        let hook = &m.webhooks.as_ref().expect("webhooks")[0];
        assert_eq!(hook.failure_policy.as_deref(), Some("Ignore"));
        assert_eq!(hook.side_effects, "None");
        assert_eq!(hook.reinvocation_policy.as_deref(), Some("Never"));
        assert_eq!(hook.name, "workloads.defaults.kubectl-kruise.io");
        assert_eq!(hook.timeout_seconds, Some(TIMEOUT_SECONDS));
        assert_eq!(
            hook.client_config.url.as_deref(),
            Some("https://127.0.0.1:9443/mutate")
        );
        let hook = &v.webhooks.as_ref().expect("webhooks")[0];
        assert_eq!(hook.failure_policy.as_deref(), Some("Ignore"));
        assert_eq!(
            hook.client_config.url.as_deref(),
            Some("https://127.0.0.1:9443/validate")
        );
        let rules = hook.rules.as_ref().expect("rules");
        assert_eq!(
            rules[0].resources.as_deref(),
            Some(
                &[
                    "clonesets".to_string(),
                    "statefulsets".to_string(),
                    "daemonsets".to_string(),
                    "broadcastjobs".to_string(),
                    "advancedcronjobs".to_string(),
                    "workloadspreads".to_string(),
                    "uniteddeployments".to_string()
                ][..]
            )
        );
        // The pod webhooks write a WorkloadSpread's status, never on a dry run.
        let pod_hooks = [
            &m.webhooks.as_ref().expect("webhooks")[1].side_effects,
            &v.webhooks.as_ref().expect("webhooks")[1].side_effects,
        ];
        assert_eq!(pod_hooks, ["NoneOnDryRun", "NoneOnDryRun"]);
        let release = &v.webhooks.as_ref().expect("webhooks")[1];
        assert_eq!(release.failure_policy.as_deref(), Some("Ignore"));
        assert_eq!(
            release.client_config.url.as_deref(),
            Some("https://127.0.0.1:9443/validate-pod")
        );
        assert_eq!(m.metadata.name.as_deref(), Some(NAME));
        assert!(
            hook.namespace_selector.is_none(),
            "an all-namespaces run judges every namespace"
        );
    }

    #[test]
    fn a_namespace_scoped_run_registers_for_its_namespace_only() {
        let endpoint = Endpoint::Url("https://127.0.0.1:9443".into());
        let v = validating(&endpoint, "CA", Some("web"));
        assert_eq!(v.metadata.name.as_deref(), Some("kubectl-kruise.web"));
        let selector = v.webhooks.as_ref().expect("webhooks")[0]
            .namespace_selector
            .clone()
            .expect("selector");
        assert_eq!(
            selector.match_labels.expect("labels")["kubernetes.io/metadata.name"],
            "web"
        );
    }

    #[test]
    fn an_in_cluster_run_is_reached_through_its_service() {
        let endpoint = Endpoint::Service {
            namespace: "kruise-system".into(),
            name: "kubectl-kruise".into(),
            port: 443,
        };
        let m = mutating(&endpoint, "CA", None);
        let config = &m.webhooks.as_ref().expect("webhooks")[0].client_config;
        assert!(config.url.is_none());
        let service = config.service.as_ref().expect("service");
        assert_eq!(
            (service.name.as_str(), service.port, service.path.as_deref()),
            ("kubectl-kruise", Some(443), Some("/mutate"))
        );
        assert_eq!(
            config.ca_bundle.as_ref().map(|b| b.0.clone()),
            Some(b"CA".to_vec())
        );
    }
}
