//! The in-cluster manager of `install --manager`: the objects that run `kubectl-kruise run`
//! as a Deployment under its own service account. Pure: [`objects`] builds them, `install`
//! applies or prints them.
//!
//! Invariants:
//! - The ClusterRole is the union of what the runtime, the webhooks and every available
//!   controller declare ([`cluster_rules`]); the Lease and the webhook's CA Secret are
//!   granted by a Role in the manager's namespace only. Nothing is `*`.
//! - The pod runs as non-root (uid 65532) with a read-only root filesystem, no privilege
//!   escalation, every capability dropped and the RuntimeDefault seccomp profile.
//! - Every replica serves the webhooks (readiness: `/readyz?exclude=leader`, so a standby is
//!   an endpoint of the Service too); one holds the Lease and runs the controllers. The
//!   Lease is `kubectl-kruise` in the manager's namespace: a `run` elsewhere given
//!   `--leader-elect-namespace NS` waits for it, and the manager for that run.
//! - Resources: the footprint benchmark measured a peak of 57 MiB for 1,000 pods (100
//!   CloneSets, release build); the request is about twice that and the limit leaves room
//!   for ten times the pods.
//! - Every object carries [`MANAGED_BY`] (`uninstall --manager` deletes by name, and never
//!   the namespace: it may hold what is not ours).
use serde_json::{Value, json};

use crate::runtime::rbac::{self, Rule};
use crate::workloads::registry::Described;

/// The namespace when `-n` is not given: OpenKruise's.
pub const DEFAULT_NAMESPACE: &str = "kruise-system";
/// The service account, the Deployment's pods run as it.
pub const SERVICE_ACCOUNT: &str = "kubectl-kruise";
/// The Role, its binding, the Deployment and the PodDisruptionBudget.
pub const NAME: &str = "kubectl-kruise-manager";

/// The ClusterRole and its binding: one pair per manager namespace, so that removing one
/// manager never takes the permissions of another.
pub fn cluster_name(namespace: &str) -> String {
    format!("{NAME}:{namespace}")
}
/// The Service the webhook configurations point at.
pub const SERVICE: &str = "kubectl-kruise-webhook";
/// The image when `--image` is not given.
pub const DEFAULT_IMAGE: &str = concat!(
    "ghcr.io/kubectl-kruise/kubectl-kruise:v",
    env!("CARGO_PKG_VERSION")
);
/// The label every object of the manager carries.
pub const MANAGED_BY: (&str, &str) = ("app.kubernetes.io/managed-by", "kubectl-kruise");
const WEBHOOK_PORT: i32 = 9443;
const PROBE_PORT: i32 = 8080;
const UID: i64 = 65532;

/// What `install --manager` was asked for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Options {
    pub namespace: String,
    pub image: String,
    pub replicas: i32,
}

/// What a run of `controllers` needs cluster-wide: the shared runtime's, theirs, and the
/// webhooks' when it serves them. The manager's ClusterRole and `run`'s start check both
/// read it.
pub fn run_rules(controllers: &[&'static Described], webhooks: bool) -> Vec<&'static Rule> {
    let mut rules: Vec<&'static Rule> = rbac::SHARED
        .iter()
        .chain(controllers.iter().flat_map(|c| c.rules()))
        .collect();
    if webhooks {
        rules.extend(crate::admission::RULES);
    }
    rules
}

/// What a run needs in its lease's namespace: the Lease (with leader election) and the
/// webhooks' CA Secret (with webhooks).
pub fn lease_namespace_rules(leader_elect: bool, webhooks: bool) -> Vec<&'static Rule> {
    let mut rules: Vec<&'static Rule> = Vec::new();
    if leader_elect {
        rules.push(&rbac::LEASE);
    }
    if webhooks {
        rules.push(&crate::admission::CA_SECRET);
    }
    rules
}

/// The ClusterRole's rules: every available controller, with the webhooks.
pub fn cluster_rules() -> Vec<Value> {
    let all: Vec<&'static Described> = crate::workloads::registry::available().collect();
    to_values(rbac::normalize(run_rules(&all, true)))
}

/// The Role's rules (the manager's namespace).
pub fn namespace_rules() -> Vec<Value> {
    to_values(rbac::normalize(lease_namespace_rules(true, true)))
}

fn to_values(rules: Vec<k8s_openapi::api::rbac::v1::PolicyRule>) -> Vec<Value> {
    rules
        .into_iter()
        .map(|r| serde_json::to_value(r).unwrap_or_default())
        .collect()
}

fn labels() -> Value {
    json!({
        "app.kubernetes.io/name": "kubectl-kruise",
        "app.kubernetes.io/component": "manager",
        MANAGED_BY.0: MANAGED_BY.1,
    })
}

fn meta(name: &str, namespace: Option<&str>) -> Value {
    let mut meta = json!({ "name": name, "labels": labels() });
    if let Some(ns) = namespace {
        meta["namespace"] = json!(ns);
    }
    meta
}

/// The pods' labels (the Service's and the PodDisruptionBudget's selector).
fn selector() -> Value {
    json!({ "app.kubernetes.io/name": "kubectl-kruise", "app.kubernetes.io/component": "manager" })
}

/// The objects in the order they are applied (a binding after what it binds, the
/// Deployment after its service account and roles).
pub fn objects(opts: &Options) -> Vec<Value> {
    let ns = opts.namespace.as_str();
    let subject = json!([{ "kind": "ServiceAccount", "name": SERVICE_ACCOUNT, "namespace": ns }]);
    vec![
        json!({ "apiVersion": "v1", "kind": "Namespace", "metadata": meta(ns, None) }),
        json!({ "apiVersion": "v1", "kind": "ServiceAccount", "metadata": meta(SERVICE_ACCOUNT, Some(ns)) }),
        json!({ "apiVersion": "rbac.authorization.k8s.io/v1", "kind": "ClusterRole",
            "metadata": meta(&cluster_name(ns), None), "rules": cluster_rules() }),
        json!({ "apiVersion": "rbac.authorization.k8s.io/v1", "kind": "ClusterRoleBinding",
            "metadata": meta(&cluster_name(ns), None),
            "roleRef": { "apiGroup": "rbac.authorization.k8s.io", "kind": "ClusterRole", "name": cluster_name(ns) },
            "subjects": subject }),
        json!({ "apiVersion": "rbac.authorization.k8s.io/v1", "kind": "Role",
            "metadata": meta(NAME, Some(ns)), "rules": namespace_rules() }),
        json!({ "apiVersion": "rbac.authorization.k8s.io/v1", "kind": "RoleBinding",
            "metadata": meta(NAME, Some(ns)),
            "roleRef": { "apiGroup": "rbac.authorization.k8s.io", "kind": "Role", "name": NAME },
            "subjects": subject }),
        json!({ "apiVersion": "v1", "kind": "Service", "metadata": meta(SERVICE, Some(ns)),
            "spec": { "selector": selector(),
                "ports": [{ "name": "webhook", "port": 443, "targetPort": WEBHOOK_PORT, "protocol": "TCP" }] } }),
        deployment(opts),
        json!({ "apiVersion": "policy/v1", "kind": "PodDisruptionBudget", "metadata": meta(NAME, Some(ns)),
            "spec": { "maxUnavailable": 1, "selector": { "matchLabels": selector() } } }),
    ]
}

/// The `run` arguments of the manager's container.
pub fn run_args(namespace: &str) -> Vec<String> {
    vec![
        "run".into(),
        format!("--leader-elect-namespace={namespace}"),
        format!("--metrics-addr=0.0.0.0:{PROBE_PORT}"),
        format!("--webhook-addr=0.0.0.0:{WEBHOOK_PORT}"),
        format!("--webhook-service={namespace}/{SERVICE}:443"),
    ]
}

fn deployment(opts: &Options) -> Value {
    let ns = opts.namespace.as_str();
    let probe = |path: &str| json!({ "httpGet": { "path": path, "port": "probes" }, "periodSeconds": 10 });
    let mut pod_labels = labels();
    if let (Some(map), Some(sel)) = (pod_labels.as_object_mut(), selector().as_object()) {
        map.extend(sel.clone());
    }
    json!({ "apiVersion": "apps/v1", "kind": "Deployment", "metadata": meta(NAME, Some(ns)),
        "spec": {
            "replicas": opts.replicas,
            "selector": { "matchLabels": selector() },
            "template": {
                "metadata": { "labels": pod_labels },
                "spec": {
                    "serviceAccountName": SERVICE_ACCOUNT,
                    "securityContext": {
                        "runAsNonRoot": true, "runAsUser": UID, "runAsGroup": UID,
                        "seccompProfile": { "type": "RuntimeDefault" } },
                    "affinity": { "podAntiAffinity": { "preferredDuringSchedulingIgnoredDuringExecution": [{
                        "weight": 100, "podAffinityTerm": {
                            "topologyKey": "kubernetes.io/hostname",
                            "labelSelector": { "matchLabels": selector() } } }] } },
                    "terminationGracePeriodSeconds": 30,
                    "containers": [{
                        "name": "manager",
                        "image": opts.image,
                        "args": run_args(ns),
                        "ports": [
                            { "name": "webhook", "containerPort": WEBHOOK_PORT, "protocol": "TCP" },
                            { "name": "probes", "containerPort": PROBE_PORT, "protocol": "TCP" }],
                        "livenessProbe": probe("/healthz"),
                        "readinessProbe": probe("/readyz?exclude=leader"),
                        "resources": {
                            "requests": { "cpu": "100m", "memory": "128Mi" },
                            "limits": { "cpu": "1", "memory": "512Mi" } },
                        "securityContext": {
                            "runAsNonRoot": true,
                            "readOnlyRootFilesystem": true,
                            "allowPrivilegeEscalation": false,
                            "privileged": false,
                            "capabilities": { "drop": ["ALL"] },
                            "seccompProfile": { "type": "RuntimeDefault" } } }] } } } })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The pod's security settings that fail the checks the manager's pod must pass.
    fn security_problems(deployment: &Value) -> Vec<String> {
        let pod = &deployment["spec"]["template"]["spec"];
        let mut problems = Vec::new();
        let mut want = |ok: bool, what: &str| {
            if !ok {
                problems.push(what.to_string());
            }
        };
        want(
            pod["securityContext"]["runAsNonRoot"] == json!(true),
            "pod runAsNonRoot",
        );
        want(
            pod["securityContext"]["runAsUser"]
                .as_i64()
                .is_some_and(|u| u > 0),
            "pod runAsUser non-zero",
        );
        want(
            pod["hostNetwork"].is_null() && pod["hostPID"].is_null(),
            "no host namespaces",
        );
        let containers = pod["containers"].as_array().cloned().unwrap_or_default();
        want(!containers.is_empty(), "a container");
        for c in &containers {
            let s = &c["securityContext"];
            let seccomp = s["seccompProfile"]["type"]
                .as_str()
                .or(pod["securityContext"]["seccompProfile"]["type"].as_str());
            want(
                s["readOnlyRootFilesystem"] == json!(true),
                "readOnlyRootFilesystem",
            );
            want(
                s["allowPrivilegeEscalation"] == json!(false),
                "allowPrivilegeEscalation false",
            );
            want(s["privileged"] != json!(true), "not privileged");
            want(
                s["capabilities"]["drop"] == json!(["ALL"]),
                "capabilities drop ALL",
            );
            want(s["capabilities"]["add"].is_null(), "no capabilities added");
            want(seccomp == Some("RuntimeDefault"), "seccomp RuntimeDefault");
            want(c["resources"]["requests"].is_object(), "resource requests");
            want(c["resources"]["limits"].is_object(), "resource limits");
        }
        problems
    }

    fn opts() -> Options {
        Options {
            namespace: "kruise-system".into(),
            image: DEFAULT_IMAGE.into(),
            replicas: 2,
        }
    }

    #[test]
    fn the_objects_are_the_namespace_account_roles_service_deployment_and_budget() {
        let kinds: Vec<String> = objects(&opts())
            .iter()
            .map(|o| {
                format!(
                    "{}/{}",
                    o["kind"].as_str().unwrap_or(""),
                    o["metadata"]["name"].as_str().unwrap_or("")
                )
            })
            .collect();
        assert_eq!(
            kinds,
            [
                "Namespace/kruise-system",
                "ServiceAccount/kubectl-kruise",
                "ClusterRole/kubectl-kruise-manager:kruise-system",
                "ClusterRoleBinding/kubectl-kruise-manager:kruise-system",
                "Role/kubectl-kruise-manager",
                "RoleBinding/kubectl-kruise-manager",
                "Service/kubectl-kruise-webhook",
                "Deployment/kubectl-kruise-manager",
                "PodDisruptionBudget/kubectl-kruise-manager"
            ]
        );
        for o in objects(&opts()) {
            assert_eq!(
                o["metadata"]["labels"][MANAGED_BY.0], MANAGED_BY.1,
                "{}",
                o["kind"]
            );
        }
    }

    #[test]
    fn the_pod_passes_the_security_checks_and_a_weakened_one_does_not() {
        let objects = objects(&opts());
        let deployment = objects
            .iter()
            .find(|o| o["kind"] == "Deployment")
            .expect("deployment");
        assert_eq!(security_problems(deployment), Vec::<String>::new());
        let mut weak = deployment.clone();
        weak["spec"]["template"]["spec"]["containers"][0]["securityContext"]["readOnlyRootFilesystem"] =
            json!(false);
        weak["spec"]["template"]["spec"]["containers"][0]["securityContext"]["capabilities"]["add"] =
            json!(["NET_ADMIN"]);
        assert_eq!(
            security_problems(&weak),
            ["readOnlyRootFilesystem", "no capabilities added"]
        );
    }

    #[test]
    fn the_container_runs_the_controllers_with_the_lease_and_the_service_of_its_namespace() {
        let objects = objects(&Options {
            namespace: "ops".into(),
            image: "registry.example/kruise:1".into(),
            replicas: 3,
        });
        let deployment = objects
            .iter()
            .find(|o| o["kind"] == "Deployment")
            .expect("deployment");
        let container = &deployment["spec"]["template"]["spec"]["containers"][0];
        assert_eq!(container["image"], "registry.example/kruise:1");
        assert_eq!(deployment["spec"]["replicas"], 3);
        let args: Vec<&str> = container["args"]
            .as_array()
            .expect("args")
            .iter()
            .filter_map(Value::as_str)
            .collect();
        assert!(args.contains(&"--leader-elect-namespace=ops"), "{args:?}");
        assert!(
            args.contains(&"--webhook-service=ops/kubectl-kruise-webhook:443"),
            "{args:?}"
        );
        // The args parse as `run`'s own.
        use clap::Parser;
        let cli =
            crate::cli::Cli::try_parse_from(std::iter::once("kubectl-kruise").chain(args.iter().copied()));
        assert!(cli.is_ok(), "{:?}", cli.err());
        let binding = objects
            .iter()
            .find(|o| o["kind"] == "RoleBinding")
            .expect("binding");
        assert_eq!(binding["metadata"]["namespace"], "ops");
        assert_eq!(binding["subjects"][0]["namespace"], "ops");
    }

    #[test]
    fn no_rule_is_a_wildcard_and_secrets_are_namespaced_only() {
        for rule in cluster_rules().iter().chain(namespace_rules().iter()) {
            for field in ["apiGroups", "resources", "verbs"] {
                let values = rule[field].as_array().cloned().unwrap_or_default();
                assert!(!values.contains(&json!("*")), "{rule}");
            }
        }
        let cluster = serde_json::to_string(&cluster_rules()).unwrap_or_default();
        assert!(!cluster.contains("\"secrets\""), "{cluster}");
        assert!(
            serde_json::to_string(&namespace_rules())
                .unwrap_or_default()
                .contains("\"secrets\"")
        );
    }
}
