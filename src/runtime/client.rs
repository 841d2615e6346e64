//! The one API client every controller shares: a kube `Client` with a tower layer that
//! (1) waits on a token bucket (`--qps`, `--burst`) before each request and (2) counts
//! every request by verb and resource, so writes per pod are a number we can report.
//!
//! Invariants:
//! - Every request goes through the limiter, watches included (as client-go does); a QPS of
//!   0 or less turns the limiter off.
//! - Counting happens when a request is sent, before its outcome is known: a failed write
//!   still cost the API server a request.
//! - A resource is named as in RBAC: `pods`, `pods/status`, `clonesets`; the verb as in
//!   audit logs: `create`, `update`, `patch`, `delete`, `get`, `list`, `watch`.
//! - Every request carries the process's User-Agent (`kubectl-kruise/VERSION run (IDENTITY)`
//!   for `run`, IDENTITY being the lease holder's), so the API server's audit log attributes
//!   each write to one process even when several use the same credentials.
use std::collections::BTreeMap;
use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use http::header::{HeaderValue, USER_AGENT};
use http::{Method, Request};
use tower::{Layer, Service};

/// Requests sent, by `(verb, resource)`.
#[derive(Debug, Default)]
pub struct ApiCounters {
    counts: Mutex<BTreeMap<(&'static str, String), u64>>,
}

impl ApiCounters {
    fn record(&self, verb: &'static str, resource: String) {
        let mut counts = self.counts.lock().unwrap_or_else(|e| e.into_inner());
        *counts.entry((verb, resource)).or_default() += 1;
    }

    /// A copy of all counters.
    pub fn snapshot(&self) -> BTreeMap<(&'static str, String), u64> {
        self.counts.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }

    /// Writes (create, update, patch, delete) sent so far.
    pub fn writes(&self) -> u64 {
        self.snapshot()
            .iter()
            .filter(|((verb, _), _)| is_write(verb))
            .map(|(_, n)| n)
            .sum()
    }
}

pub fn is_write(verb: &str) -> bool {
    matches!(
        verb,
        "create" | "update" | "patch" | "delete" | "deletecollection"
    )
}

/// The verb and resource of an API request, from its method and path.
///
/// `/api/v1/namespaces/web/pods/web-x/status` -> `("update", "pods/status")` for a PUT;
/// `/apis/apps.kruise.io/v1alpha1/clonesets?watch=true` -> `("watch", "clonesets")`.
pub fn classify(method: &Method, path: &str, query: Option<&str>) -> (&'static str, String) {
    let segments: Vec<&str> = path.split('/').filter(|s| !s.is_empty()).collect();
    let rest = match segments.first() {
        Some(&"api") => segments.get(2..).unwrap_or_default(),
        Some(&"apis") => segments.get(3..).unwrap_or_default(),
        _ => &[][..],
    };
    // `namespaces/<ns>/<resource>...`, unless the namespace itself is the object.
    let rest = if rest.first() == Some(&"namespaces") && rest.len() > 2 {
        &rest[2..]
    } else {
        rest
    };
    let resource = match rest {
        [] => "unknown".to_string(),
        [resource] | [resource, _] => resource.to_string(),
        [resource, _, sub, ..] => format!("{resource}/{sub}"),
    };
    let named = rest.len() >= 2;
    let watch = query.is_some_and(|q| q.split('&').any(|kv| kv == "watch=true" || kv == "watch=1"));
    let verb = match *method {
        Method::POST => "create",
        Method::PUT => "update",
        Method::PATCH => "patch",
        Method::DELETE if named => "delete",
        Method::DELETE => "deletecollection",
        Method::GET if watch => "watch",
        Method::GET if named => "get",
        Method::GET => "list",
        _ => "other",
    };
    (verb, resource)
}

/// A token bucket: `burst` tokens, refilled at `qps` per second.
#[derive(Debug)]
pub struct TokenBucket {
    qps: f64,
    burst: f64,
    state: Mutex<(f64, Instant)>,
}

impl TokenBucket {
    pub fn new(qps: f64, burst: u32) -> Self {
        let burst = f64::from(burst.max(1));
        Self {
            qps,
            burst,
            state: Mutex::new((burst, Instant::now())),
        }
    }

    /// How long the caller must wait before its request may go; takes the token now.
    fn reserve(&self) -> Duration {
        if self.qps <= 0.0 {
            return Duration::ZERO;
        }
        let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        let now = Instant::now();
        let (tokens, last) = *state;
        let refilled = (tokens + now.duration_since(last).as_secs_f64() * self.qps).min(self.burst);
        let after = refilled - 1.0;
        *state = (after, now);
        if after >= 0.0 {
            Duration::ZERO
        } else {
            Duration::from_secs_f64(-after / self.qps)
        }
    }
}

/// The tower layer: limiter plus counters.
#[derive(Clone, Debug)]
pub struct ApiLayer {
    pub limiter: Arc<TokenBucket>,
    pub counters: Arc<ApiCounters>,
    pub user_agent: HeaderValue,
}

impl<S> Layer<S> for ApiLayer {
    type Service = ApiService<S>;
    fn layer(&self, inner: S) -> Self::Service {
        ApiService {
            inner,
            layer: self.clone(),
            wait: None,
            permitted: false,
        }
    }
}

/// The service: takes a token in `poll_ready` (sleeping when the bucket is empty), counts
/// the request in `call`.
pub struct ApiService<S> {
    inner: S,
    layer: ApiLayer,
    wait: Option<Pin<Box<tokio::time::Sleep>>>,
    permitted: bool,
}

impl<S, B> Service<Request<B>> for ApiService<S>
where
    S: Service<Request<B>>,
{
    type Response = S::Response;
    type Error = S::Error;
    type Future = S::Future;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        if !self.permitted {
            if self.wait.is_none() {
                let delay = self.layer.limiter.reserve();
                if delay.is_zero() {
                    self.permitted = true;
                } else {
                    self.wait = Some(Box::pin(tokio::time::sleep(delay)));
                }
            }
            if let Some(wait) = self.wait.as_mut() {
                if wait.as_mut().poll(cx).is_pending() {
                    return Poll::Pending;
                }
                self.wait = None;
                self.permitted = true;
            }
        }
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, mut request: Request<B>) -> Self::Future {
        let (verb, resource) = classify(request.method(), request.uri().path(), request.uri().query());
        self.layer.counters.record(verb, resource);
        request
            .headers_mut()
            .insert(USER_AGENT, self.layer.user_agent.clone());
        self.permitted = false;
        self.inner.call(request)
    }
}

/// `kubectl-kruise/VERSION run (IDENTITY)`; an identity that is not a valid header value
/// (it comes from the host name) is left out.
pub fn user_agent(identity: &str) -> HeaderValue {
    let version = env!("CARGO_PKG_VERSION");
    HeaderValue::from_str(&format!("kubectl-kruise/{version} run ({identity})")).unwrap_or_else(|_| {
        HeaderValue::from_static(concat!("kubectl-kruise/", env!("CARGO_PKG_VERSION"), " run"))
    })
}

/// Builds the shared client from a kube config; every request says `user_agent`.
pub fn build(
    config: kube::Config,
    qps: f64,
    burst: u32,
    user_agent: HeaderValue,
) -> Result<(kube::Client, Arc<ApiCounters>), kube::Error> {
    let layer = ApiLayer {
        limiter: Arc::new(TokenBucket::new(qps, burst)),
        counters: Arc::new(ApiCounters::default()),
        user_agent,
    };
    let counters = layer.counters.clone();
    let client = kube::client::ClientBuilder::try_from(config)?
        .with_layer(&layer)
        .build();
    Ok((client, counters))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn requests_are_named_by_verb_and_resource() {
        let cases = [
            (
                Method::PUT,
                "/api/v1/namespaces/web/pods/web-x/status",
                None,
                ("update", "pods/status"),
            ),
            (
                Method::PATCH,
                "/api/v1/namespaces/web/pods/web-x",
                None,
                ("patch", "pods"),
            ),
            (
                Method::POST,
                "/api/v1/namespaces/web/pods",
                None,
                ("create", "pods"),
            ),
            (
                Method::DELETE,
                "/api/v1/namespaces/web/pods/web-x",
                None,
                ("delete", "pods"),
            ),
            (
                Method::GET,
                "/apis/apps.kruise.io/v1alpha1/clonesets",
                Some("watch=true&resourceVersion=1"),
                ("watch", "clonesets"),
            ),
            (
                Method::GET,
                "/apis/apps.kruise.io/v1alpha1/namespaces/a/clonesets",
                None,
                ("list", "clonesets"),
            ),
            (Method::GET, "/api/v1/namespaces/web", None, ("get", "namespaces")),
            (
                Method::DELETE,
                "/api/v1/namespaces/web",
                None,
                ("delete", "namespaces"),
            ),
            (Method::GET, "/api/v1/nodes/n1", None, ("get", "nodes")),
            (
                Method::PUT,
                "/apis/apps.kruise.io/v1alpha1/namespaces/a/clonesets/web/scale",
                None,
                ("update", "clonesets/scale"),
            ),
        ];
        for (method, path, query, (verb, resource)) in cases {
            assert_eq!(
                classify(&method, path, query),
                (verb, resource.to_string()),
                "{method} {path}"
            );
        }
    }

    #[test]
    fn the_bucket_lets_a_burst_through_then_paces_at_qps() {
        let bucket = TokenBucket::new(10.0, 3);
        for _ in 0..3 {
            assert_eq!(bucket.reserve(), Duration::ZERO);
        }
        let wait = bucket.reserve();
        assert!(
            wait > Duration::from_millis(80) && wait <= Duration::from_millis(100),
            "{wait:?}"
        );
    }

    #[test]
    fn a_qps_of_zero_never_waits() {
        let bucket = TokenBucket::new(0.0, 1);
        for _ in 0..100 {
            assert_eq!(bucket.reserve(), Duration::ZERO);
        }
    }

    #[test]
    fn counters_sum_writes_only() {
        let counters = ApiCounters::default();
        counters.record("patch", "pods".into());
        counters.record("patch", "pods/status".into());
        counters.record("get", "pods".into());
        counters.record("watch", "pods".into());
        assert_eq!(counters.writes(), 2);
    }
}
