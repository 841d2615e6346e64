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
//! another (one task each), and one that sends nothing is not held: a TLS handshake not
//! done within [`HANDSHAKE_TIMEOUT`] drops the connection (after the handshake, an idle
//! connection is the API server's keep-alive and stays); a failed accept (no file
//! descriptor left) is retried after a pause that doubles up to [`ACCEPT_PAUSE_MAX`], not
//! at once.
use std::net::SocketAddr;
use std::sync::{Arc, RwLock};
use std::time::Duration;

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
        .route("/validate-deletion", post(super::protection::validate_deletion))
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

/// How long a connection may take to complete its TLS handshake.
pub const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(5);
/// The longest pause after a failed accept.
pub const ACCEPT_PAUSE_MAX: Duration = Duration::from_secs(1);

/// The pause after a failed accept that follows `last` (zero: the one before succeeded).
fn accept_pause(last: Duration) -> Duration {
    if last.is_zero() {
        Duration::from_millis(10)
    } else {
        (last * 2).min(ACCEPT_PAUSE_MAX)
    }
}

/// Serves `router` over TLS on `listener` until the task is dropped.
pub async fn serve_tls(listener: TcpListener, router: Router, config: Arc<ServerConfig>) {
    serve_tls_within(listener, router, config, HANDSHAKE_TIMEOUT).await
}

/// [`serve_tls`], dropping a connection whose handshake takes longer than `handshake`.
async fn serve_tls_within(
    listener: TcpListener,
    router: Router,
    config: Arc<ServerConfig>,
    handshake: Duration,
) {
    let acceptor = TlsAcceptor::from(config);
    let mut pause = Duration::ZERO;
    loop {
        let (tcp, peer) = match listener.accept().await {
            Ok(accepted) => {
                pause = Duration::ZERO;
                accepted
            }
            Err(error) => {
                pause = accept_pause(pause);
                tracing::warn!(%error, ?pause, "accepting a webhook connection failed; trying again after a pause");
                tokio::time::sleep(pause).await;
                continue;
            }
        };
        let (acceptor, router) = (acceptor.clone(), router.clone());
        tokio::spawn(async move {
            let tls = match tokio::time::timeout(handshake, acceptor.accept(tcp)).await {
                Ok(Ok(tls)) => tls,
                Ok(Err(error)) => {
                    tracing::debug!(%peer, %error, "TLS handshake failed");
                    return;
                }
                Err(_) => {
                    tracing::debug!(%peer, ?handshake, "TLS handshake not done in time; connection dropped");
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

#[cfg(test)]
mod tests {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    use tokio_rustls::TlsConnector;
    use tokio_rustls::rustls::pki_types::ServerName;

    use super::*;

    #[test]
    fn a_failed_accept_pauses_doubling_up_to_a_second() {
        let mut pause = Duration::ZERO;
        let mut seen = Vec::new();
        for _ in 0..10 {
            pause = accept_pause(pause);
            seen.push(pause.as_millis());
        }
        assert_eq!(seen, [10, 20, 40, 80, 160, 320, 640, 1000, 1000, 1000]);
    }

    /// Closed by the server: a read ends (EOF or reset) instead of waiting.
    async fn closed(stream: &mut tokio::net::TcpStream) -> bool {
        let mut byte = [0u8; 1];
        matches!(
            tokio::time::timeout(Duration::from_secs(2), stream.read(&mut byte)).await,
            Ok(Ok(0) | Err(_))
        )
    }

    /// Issue 35: connections that open and send nothing (no handshake) are dropped, and the
    /// server still answers a real request.
    #[tokio::test]
    async fn idle_connections_are_dropped_and_requests_are_still_answered() {
        let now = k8s_openapi::jiff::Timestamp::now();
        let (ca_cert, ca_key) = super::super::certs::new_ca(now).expect("CA");
        let (cert, key, _) = super::super::certs::new_serving(
            &ca_key,
            &["127.0.0.1".to_string()],
            now,
            Duration::from_secs(3600),
        )
        .expect("serving certificate");
        let config = tls_config(Arc::new(Rotating::new(&cert, &key).expect("rotating"))).expect("config");
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
        let addr = listener.local_addr().expect("addr");
        let router = Router::new().route("/ping", get(|| async { "pong" }));
        let limit = Duration::from_millis(300);
        tokio::spawn(serve_tls_within(listener, router, config, limit));

        let mut roots = rustls::RootCertStore::empty();
        for ca in CertificateDer::pem_slice_iter(ca_cert.as_bytes()) {
            roots.add(ca.expect("CA PEM")).expect("trust the CA");
        }
        let provider = Arc::new(rustls::crypto::ring::default_provider());
        let client = rustls::ClientConfig::builder_with_provider(provider)
            .with_safe_default_protocol_versions()
            .expect("versions")
            .with_root_certificates(roots)
            .with_no_client_auth();
        let connector = TlsConnector::from(Arc::new(client));
        let name = ServerName::try_from("127.0.0.1").expect("name");
        let connect = || async { tokio::net::TcpStream::connect(addr).await.expect("connect") };

        let mut silent = Vec::new();
        for _ in 0..20 {
            silent.push(connect().await);
        }
        tokio::time::sleep(limit * 2).await;
        for stream in &mut silent {
            assert!(
                closed(stream).await,
                "a connection without a handshake stays open"
            );
        }

        let mut tls = connector.connect(name, connect().await).await.expect("handshake");
        tls.write_all(b"GET /ping HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            .await
            .expect("request");
        let mut answer = String::new();
        let _ = tls.read_to_string(&mut answer).await;
        assert!(
            answer.starts_with("HTTP/1.1 200") && answer.ends_with("pong"),
            "{answer}"
        );
    }
}
