//! Admission for `run`: one HTTPS server ([`server`]: `/metrics`, `/healthz`, `/readyz`,
//! `/mutate`, `/validate`; what its handlers share: [`shared`]), its certificates kept in a
//! Secret ([`certs`]), the webhook configurations it registers and removes
//! ([`registration`]), the defaults it writes ([`defaults`]) and the refusals CEL cannot
//! express ([`review`]).
//!
//! ```text
//! run ─> Secret (CA + serving cert) ─> TLS listener --webhook-addr ─> axum routes
//!     └─ leading? ─> register configurations (url or --webhook-service, caBundle = CA)
//!        graceful exit ─> remove them           every few minutes ─> renew the serving cert
//! ```
//!
//! Invariants: the controllers never depend on a webhook having run (they apply the same
//! defaults and refusals); every webhook fails open, so a stopped `run` never blocks a
//! request; only the leader registers, and a graceful exit of the leader removes what it
//! registered; a renewal swaps the certificate in place under the same CA.
pub mod certs;
pub mod defaults;
pub mod pods;
pub mod protection;
pub mod registration;
pub mod review;
pub mod server;
pub mod shared;

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use crate::runtime::rbac::{KRUISE, KRUISE_POLICY, Rule, rule};

/// In the lease's namespace only: the Secret of the webhooks' CA and serving certificate.
pub const CA_SECRET: Rule = rule("", &["secrets"], &["get", "create", "update"]);

/// What the webhooks need, cluster-wide (their [`CA_SECRET`] is in the lease's namespace): the configurations the leader registers, the
/// caches of pod injection and placement, and what a review reads or writes.
pub const RULES: &[Rule] = &[
    // Written by server-side apply: an apply that creates one is a create.
    rule(
        "admissionregistration.k8s.io",
        &["mutatingwebhookconfigurations", "validatingwebhookconfigurations"],
        &["create", "patch", "delete"],
    ),
    rule(KRUISE, &["sidecarsets"], &["list", "watch"]),
    rule("", &["namespaces"], &["list", "watch"]),
    rule(KRUISE, &["workloadspreads"], &["get", "list", "watch"]),
    rule(KRUISE, &["workloadspreads/status"], &["patch"]),
    // The pod webhook's budgets: judged from a cache, recorded in their status (a conflict
    // reads the budget again).
    rule(
        KRUISE_POLICY,
        &["podunavailablebudgets"],
        &["get", "list", "watch"],
    ),
    rule(KRUISE_POLICY, &["podunavailablebudgets/status"], &["patch"]),
    // An eviction's pod; the owner chain and replica count of a WorkloadSpread's target.
    rule("", &["pods"], &["get"]),
    rule("apps", &["deployments", "replicasets", "statefulsets"], &["get"]),
    rule("batch", &["jobs"], &["get"]),
    rule(KRUISE, &["clonesets", "statefulsets"], &["get"]),
    // OpenKruise's `kruise-configuration` ConfigMap in the system namespace (the SidecarSet
    // patch-pod-metadata whitelist, see [`configuration`]); kruise-manager reads ConfigMaps
    // cluster-wide too.
    rule("", &["configmaps"], &["get"]),
];

use kube::Client;
use tokio::net::TcpListener;

use registration::Endpoint;
use server::Rotating;
use shared::Shared;

/// What `run` asks of admission.
#[derive(Debug, Clone)]
pub struct Options {
    /// Where the TLS listener binds (port 0: any free port).
    pub addr: SocketAddr,
    /// The host the API server dials (an IP address or a DNS name).
    pub host: String,
    /// `--webhook-service`: the configurations point at this Service instead of a URL.
    pub service: Option<(String, String, i32)>,
    /// The run's `-n` namespace: only that namespace's objects are sent to it.
    pub scope: Option<String>,
}

/// Parses `--webhook-service NS/NAME[:PORT]` (port 443 when not given).
pub fn parse_service(value: &str) -> Result<(String, String, i32), String> {
    let bad = || format!("--webhook-service {value:?}: expected NAMESPACE/NAME[:PORT]");
    let (namespace, rest) = value.split_once('/').ok_or_else(bad)?;
    let (name, port) = match rest.split_once(':') {
        Some((name, port)) => (name, port.parse::<i32>().map_err(|_| bad())?),
        None => (rest, 443),
    };
    if namespace.is_empty() || name.is_empty() || !(1..=65535).contains(&port) {
        return Err(bad());
    }
    Ok((namespace.to_string(), name.to_string(), port))
}

/// The running admission server of one `run`.
pub struct Admission {
    client: Client,
    /// Where the certificate Secret lives (the lease namespace).
    namespace: String,
    hosts: Vec<String>,
    pub endpoint: Endpoint,
    scope: Option<String>,
    rotating: Arc<Rotating>,
    ca: std::sync::Mutex<String>,
    registered: AtomicBool,
}

impl Admission {
    /// Loads or makes the certificates, binds `options.addr` and serves `shared` over TLS.
    pub async fn start(
        client: Client,
        namespace: &str,
        options: &Options,
        shared: Shared,
    ) -> anyhow::Result<Arc<Self>> {
        use anyhow::Context as _;
        let mut hosts = vec![options.host.clone()];
        if let Some((ns, name, _)) = &options.service {
            hosts.push(format!("{name}.{ns}.svc"));
            hosts.push(format!("{name}.{ns}.svc.cluster.local"));
        }
        let certs = certs::load_or_make(&client, namespace, &hosts).await?;
        let rotating = Arc::new(Rotating::new(&certs.cert, &certs.key)?);
        let listener = TcpListener::bind(options.addr)
            .await
            .with_context(|| format!("binding --webhook-addr {}", options.addr))?;
        let port = listener.local_addr()?.port();
        let endpoint = match &options.service {
            Some((ns, name, port)) => Endpoint::Service {
                namespace: ns.clone(),
                name: name.clone(),
                port: *port,
            },
            None => Endpoint::Url(url(&options.host, port)),
        };
        let config = server::tls_config(rotating.clone())?;
        tokio::spawn(server::serve_tls(listener, server::routes(shared), config));
        Ok(Arc::new(Self {
            client,
            namespace: namespace.to_string(),
            hosts: certs.hosts.clone(),
            endpoint,
            scope: options.scope.clone(),
            rotating,
            ca: std::sync::Mutex::new(certs.ca_cert),
            registered: AtomicBool::new(false),
        }))
    }

    fn ca(&self) -> String {
        self.ca.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }

    /// Registers the configurations (the leader does, once it leads).
    pub async fn register(&self) -> Result<(), kube::Error> {
        registration::register(&self.client, &self.endpoint, &self.ca(), self.scope.as_deref()).await?;
        self.registered.store(true, Ordering::Relaxed);
        Ok(())
    }

    /// The configurations' name.
    pub fn name(&self) -> String {
        registration::name(self.scope.as_deref())
    }

    /// Removes what this run registered (a graceful exit).
    pub async fn remove(&self) -> Result<(), kube::Error> {
        if self.registered.swap(false, Ordering::Relaxed) {
            registration::remove(&self.client, self.scope.as_deref()).await?;
        }
        Ok(())
    }

    /// Keeps the serving certificate renewed (checked every sixth of its lifetime, at most
    /// hourly): a new one is served from the next handshake on; a new CA (the Secret was
    /// deleted) is registered again.
    pub async fn keep_renewed(self: Arc<Self>) {
        let every = (certs::serving_lifetime() / 6).clamp(Duration::from_secs(1), Duration::from_secs(3600));
        loop {
            tokio::time::sleep(every).await;
            let certs = match certs::load_or_make(&self.client, &self.namespace, &self.hosts).await {
                Ok(certs) => certs,
                Err(error) => {
                    tracing::warn!(%error, "renewing the webhook certificate failed; trying again later");
                    continue;
                }
            };
            if let Err(error) = self.rotating.replace(&certs.cert, &certs.key) {
                tracing::warn!(%error, "the renewed webhook certificate is unreadable; keeping the old one");
                continue;
            }
            let new_ca = {
                let mut ca = self.ca.lock().unwrap_or_else(|e| e.into_inner());
                let changed = *ca != certs.ca_cert;
                *ca = certs.ca_cert.clone();
                changed
            };
            if new_ca
                && self.registered.load(Ordering::Relaxed)
                && let Err(error) = self.register().await
            {
                tracing::warn!(%error, "registering the new webhook CA failed");
            }
        }
    }
}

/// `https://HOST:PORT`, with an IPv6 address in brackets.
fn url(host: &str, port: u16) -> String {
    match host.parse::<std::net::IpAddr>() {
        Ok(std::net::IpAddr::V6(ip)) => format!("https://[{ip}]:{port}"),
        _ => format!("https://{host}:{port}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_webhook_service_is_namespace_name_and_an_optional_port() {
        assert_eq!(
            parse_service("kruise-system/kubectl-kruise"),
            Ok(("kruise-system".into(), "kubectl-kruise".into(), 443))
        );
        assert_eq!(
            parse_service("ns/svc:9443"),
            Ok(("ns".into(), "svc".into(), 9443))
        );
        for bad in ["svc", "/svc", "ns/", "ns/svc:x", "ns/svc:0", "ns/svc:70000"] {
            let error = parse_service(bad).expect_err(bad);
            assert!(error.contains("--webhook-service"), "{error}");
        }
    }

    #[test]
    fn an_ipv6_host_is_bracketed_in_the_url() {
        assert_eq!(url("127.0.0.1", 9443), "https://127.0.0.1:9443");
        assert_eq!(url("::1", 9443), "https://[::1]:9443");
        assert_eq!(url("kruise.example", 443), "https://kruise.example:443");
    }
}
