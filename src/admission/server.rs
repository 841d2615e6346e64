//! The one HTTP server of `run` (axum): `/metrics`, `/healthz`, `/readyz` and the admission
//! endpoints, over TLS on `--webhook-addr` (the API server only calls webhooks over HTTPS)
//! and, for scrapers, `/metrics` and the probes over plain HTTP on `--metrics-addr`.
//!
//! `/healthz` fails (503) while a controller is stalled ([`super::shared::Health::stalls`]).
//!
//! Invariants: the serving certificate is swapped in place ([`Rotating`]): a renewal never
//! closes the listener and a handshake always gets a valid certificate; `/readyz` answers
//! 200 only once the caches have their first lists and, when leader election is on, this
//! run leads (a standby is live but not ready); a slow or broken connection never holds
//! another (one task each).
use std::net::SocketAddr;
use std::sync::{Arc, RwLock};

use axum::Router;
use axum::http::{StatusCode, header};
use axum::response::IntoResponse;
use axum::routing::{get, post};
use hyper_util::rt::TokioIo;
use hyper_util::service::TowerToHyperService;
use tokio::net::TcpListener;
use tokio_rustls::TlsAcceptor;
use tokio_rustls::rustls::pki_types::pem::PemObject;
use tokio_rustls::rustls::pki_types::{CertificateDer, PrivateKeyDer};
use tokio_rustls::rustls::server::{ClientHello, ResolvesServerCert};
use tokio_rustls::rustls::sign::CertifiedKey;
use tokio_rustls::rustls::{self, ServerConfig};

use super::review;
use super::shared::Shared;

async fn metrics(axum::extract::State(s): axum::extract::State<Shared>) -> impl IntoResponse {
    (
        [(header::CONTENT_TYPE, crate::runtime::metrics::CONTENT_TYPE)],
        s.metrics.render(),
    )
}

/// `/healthz`: 503 naming each stalled controller (work waiting, none finished within
/// `run --stall-after`), else 200.
async fn healthz(axum::extract::State(s): axum::extract::State<Shared>) -> (StatusCode, String) {
    let stalls = s.health.stalls(&s.metrics);
    if stalls.is_empty() {
        (StatusCode::OK, "ok".to_string())
    } else {
        let said: Vec<String> = stalls.iter().map(ToString::to_string).collect();
        (StatusCode::SERVICE_UNAVAILABLE, said.join("\n"))
    }
}

/// `/readyz`, or `/readyz?exclude=leader` (as the API server's own `exclude` checks).
async fn readyz(
    axum::extract::State(s): axum::extract::State<Shared>,
    axum::extract::RawQuery(query): axum::extract::RawQuery,
) -> (StatusCode, &'static str) {
    let exclude_leader = query
        .as_deref()
        .is_some_and(|q| q.split('&').any(|kv| kv == "exclude=leader"));
    match s.health.not_ready(exclude_leader) {
        None => (StatusCode::OK, "ok"),
        Some(why) => (StatusCode::SERVICE_UNAVAILABLE, why),
    }
}

fn probe_routes() -> Router<Shared> {
    Router::new()
        .route("/metrics", get(metrics))
        .route("/healthz", get(healthz))
        .route("/readyz", get(readyz))
}

/// The probes and `/metrics` (both listeners serve these).
pub fn probes(shared: Shared) -> Router {
    probe_routes().with_state(shared)
}

/// The probes, `/metrics` and the admission endpoints (the TLS listener).
pub fn routes(shared: Shared) -> Router {
    probe_routes()
        .route("/mutate", post(review::mutate))
        .route("/validate", post(review::validate))
        .route("/mutate-pod", post(super::pods::mutate_pod))
        .route("/validate-pod", post(super::pods::validate_pod))
        .with_state(shared)
}

/// A serving certificate that can be replaced while the server runs.
#[derive(Debug)]
pub struct Rotating(RwLock<Arc<CertifiedKey>>);

impl Rotating {
    pub fn new(cert_pem: &str, key_pem: &str) -> Result<Self, rustls::Error> {
        Ok(Self(RwLock::new(certified(cert_pem, key_pem)?)))
    }

    /// Serves `cert_pem` from the next handshake on.
    pub fn replace(&self, cert_pem: &str, key_pem: &str) -> Result<(), rustls::Error> {
        let next = certified(cert_pem, key_pem)?;
        *self.0.write().unwrap_or_else(|e| e.into_inner()) = next;
        Ok(())
    }
}

impl ResolvesServerCert for Rotating {
    fn resolve(&self, _: ClientHello<'_>) -> Option<Arc<CertifiedKey>> {
        Some(self.0.read().unwrap_or_else(|e| e.into_inner()).clone())
    }
}

fn certified(cert_pem: &str, key_pem: &str) -> Result<Arc<CertifiedKey>, rustls::Error> {
    let bad = |what: &str| rustls::Error::General(format!("unreadable {what} PEM"));
    let chain: Vec<CertificateDer<'static>> = CertificateDer::pem_slice_iter(cert_pem.as_bytes())
        .collect::<Result<_, _>>()
        .map_err(|_| bad("certificate"))?;
    let key = PrivateKeyDer::from_pem_slice(key_pem.as_bytes()).map_err(|_| bad("key"))?;
    let signer = rustls::crypto::ring::sign::any_supported_type(&key)?;
    Ok(Arc::new(CertifiedKey::new(chain, signer)))
}

/// The TLS configuration serving the certificate `rotating` holds (HTTP/1.1).
pub fn tls_config(rotating: Arc<Rotating>) -> Result<Arc<ServerConfig>, rustls::Error> {
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let mut config = ServerConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()?
        .with_no_client_auth()
        .with_cert_resolver(rotating);
    config.alpn_protocols = vec![b"http/1.1".to_vec()];
    Ok(Arc::new(config))
}

/// Serves `router` over TLS on `listener` until the task is dropped.
pub async fn serve_tls(listener: TcpListener, router: Router, config: Arc<ServerConfig>) {
    let acceptor = TlsAcceptor::from(config);
    loop {
        let Ok((tcp, peer)) = listener.accept().await else {
            continue;
        };
        let (acceptor, router) = (acceptor.clone(), router.clone());
        tokio::spawn(async move {
            let tls = match acceptor.accept(tcp).await {
                Ok(tls) => tls,
                Err(error) => {
                    tracing::debug!(%peer, %error, "TLS handshake failed");
                    return;
                }
            };
            let service = TowerToHyperService::new(router);
            let served = hyper::server::conn::http1::Builder::new()
                .serve_connection(TokioIo::new(tls), service)
                .await;
            if let Err(error) = served {
                tracing::debug!(%peer, %error, "connection ended with an error");
            }
        });
    }
}

/// Serves `router` over plain HTTP on `listener` until the task is dropped.
pub async fn serve_plain(listener: TcpListener, router: Router) {
    if let Err(error) = axum::serve(listener, router).await {
        tracing::warn!(%error, "the metrics listener stopped");
    }
}

/// The address a listener is bound to, for messages.
pub fn bound(listener: &TcpListener) -> Option<SocketAddr> {
    listener.local_addr().ok()
}
