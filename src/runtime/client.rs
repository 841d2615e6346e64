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
//! - A request the API server refuses (403) is told by its cause ([`refusal`], read from
//!   the response's Status): an RBAC refusal is said once per permission, on stderr, as
//!   `forbidden: ... to VERB RESOURCE.GROUP in namespace NS` (a watch refused retries with
//!   backoff forever, and without it a missing RBAC rule is a silent stall); a create
//!   refused because its namespace is being deleted is no permission problem and is not
//!   said: the namespace is remembered for [`TERMINATING_FOR`] so that no controller sends
//!   creates there meanwhile ([`ApiCounters::terminating`]); any other refusal (an
//!   admission rule's, a quota's) is said once per permission with the server's words. One
//!   cause never hides another: each has its own "said once" record.
//! - Every request carries the process's User-Agent (`kubectl-kruise/VERSION run (IDENTITY)`
//!   for `run`, IDENTITY being the lease holder's), so the API server's audit log attributes
//!   each write to one process even when several use the same credentials.
use std::collections::{BTreeMap, BTreeSet};
use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use bytes::Bytes;
use http::header::{HeaderValue, USER_AGENT};
use http::{Method, Request};
use http_body_util::{BodyExt, Either, Full};
use tower::{Layer, Service};

/// How long a namespace whose create was refused as being deleted is taken to be so (a
/// namespace of the same name made again is written to at most this much later).
pub const TERMINATING_FOR: Duration = Duration::from_secs(10);

/// Requests sent, by `(verb, resource)`, the permissions the API server refused, and the
/// namespaces it said are being deleted.
#[derive(Debug, Default)]
pub struct ApiCounters {
    counts: Mutex<BTreeMap<(&'static str, String), u64>>,
    denied: Mutex<BTreeSet<String>>,
    refused: Mutex<BTreeSet<String>>,
    terminating: Mutex<BTreeMap<String, Instant>>,
}

impl ApiCounters {
    /// Records a refusal for another cause than RBAC; true the first time for `permission`.
    fn refuse(&self, permission: String) -> bool {
        self.refused
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(permission)
    }

    /// Records that the API server refused a create in `namespace` because it is being
    /// deleted.
    pub fn namespace_terminating(&self, namespace: &str) {
        self.namespace_terminating_at(namespace, Instant::now());
    }

    fn namespace_terminating_at(&self, namespace: &str, now: Instant) {
        let mut all = self.terminating.lock().unwrap_or_else(|e| e.into_inner());
        all.retain(|_, since| now.saturating_duration_since(*since) < TERMINATING_FOR);
        all.insert(namespace.to_string(), now);
    }

    /// Whether a create in `namespace` was refused as being deleted within the last
    /// [`TERMINATING_FOR`].
    pub fn terminating(&self, namespace: &str) -> bool {
        self.terminating_at(namespace, Instant::now())
    }

    fn terminating_at(&self, namespace: &str, now: Instant) -> bool {
        let all = self.terminating.lock().unwrap_or_else(|e| e.into_inner());
        all.get(namespace)
            .is_some_and(|since| now.saturating_duration_since(*since) < TERMINATING_FOR)
    }

    /// Records a refused permission; true the first time it is refused.
    fn deny(&self, permission: String) -> bool {
        self.denied
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(permission)
    }

    /// The permissions refused so far (as [`denial`] names them).
    pub fn denied(&self) -> Vec<String> {
        self.denied
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .iter()
            .cloned()
            .collect()
    }

    fn record(&self, verb: &'static str, resource: String) {
        let mut counts = self.counts.lock().unwrap_or_else(|e| e.into_inner());
        *counts.entry((verb, resource)).or_default() += 1;
    }

    /// A copy of all counters.
    pub fn snapshot(&self) -> BTreeMap<(&'static str, String), u64> {
        self.counts.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }

    /// Writes (create, update, patch, delete) sent so far; reviews (a SelfSubjectAccessReview
    /// at start) are POSTs that store nothing, and are not counted.
    pub fn writes(&self) -> u64 {
        self.snapshot()
            .iter()
            .filter(|((verb, resource), _)| is_write(verb) && !resource.ends_with("reviews"))
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

/// The API group of a request path: "" for `/api/...`, else the segment after `/apis/`.
pub fn api_group(path: &str) -> &str {
    let mut segments = path.split('/').filter(|s| !s.is_empty());
    match segments.next() {
        Some("apis") => segments.next().unwrap_or_default(),
        _ => "",
    }
}

/// The namespace a request path is in, if it is in one (`/api/v1/namespaces/web` is the
/// namespace object itself, in none).
pub fn namespace_of(path: &str) -> Option<&str> {
    let segments: Vec<&str> = path.split('/').filter(|s| !s.is_empty()).collect();
    let rest = match segments.first() {
        Some(&"api") => segments.get(2..)?,
        Some(&"apis") => segments.get(3..)?,
        _ => return None,
    };
    match rest {
        ["namespaces", ns, _, ..] => Some(ns),
        _ => None,
    }
}

/// A refused permission as a user reads it: `list pods in namespace web`,
/// `patch clonesets/status.apps.kruise.io in namespace web`, `list nodes cluster-wide`.
pub fn denial(verb: &str, group: &str, resource: &str, namespace: Option<&str>) -> String {
    let resource = match group {
        "" => resource.to_string(),
        group => format!("{resource}.{group}"),
    };
    match namespace {
        Some(ns) => format!("{verb} {resource} in namespace {ns}"),
        None => format!("{verb} {resource} cluster-wide"),
    }
}

/// Why the API server refused a request (403), from the Status it answered with.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refusal {
    /// The authorizer's: the identity lacks the permission (also an admission plugin's that
    /// names a missing permission, as `blockOwnerDeletion` without `update` on finalizers).
    Rbac,
    /// A create in a namespace being deleted.
    NamespaceTerminating,
    /// A refusal known to be no permission problem (an admission webhook, pod security, a
    /// quota): the server's message.
    Other(String),
}

/// Words of the refusals that are no missing permission (an admission webhook's, pod
/// security's, a quota's).
const NOT_RBAC: &[&str] = &["admission webhook", "violates PodSecurity", "exceeded quota"];

/// The cause of a 403 from its response body (a `Status`); a refusal not known to have
/// another cause is taken as a missing permission, as before causes were told apart.
pub fn refusal(body: &[u8]) -> Refusal {
    let status: serde_json::Value = serde_json::from_slice(body).unwrap_or_default();
    let message = status["message"].as_str().unwrap_or_default();
    let causes = status["details"]["causes"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    if causes.iter().any(|c| c["reason"] == "NamespaceTerminating")
        || message.contains("because it is being terminated")
    {
        Refusal::NamespaceTerminating
    } else if NOT_RBAC.iter().any(|cause| message.contains(cause)) {
        Refusal::Other(message.to_string())
    } else {
        // The authorizer's refusal, and admission rules that stand for a permission (the
        // owner-reference plugin's `blockOwnerDeletion` needs `update` on finalizers).
        Refusal::Rbac
    }
}

/// Says a refusal by its cause (see the module's invariants).
fn report_refusal(counters: &ApiCounters, permission: String, namespace: Option<&str>, cause: Refusal) {
    match cause {
        Refusal::Rbac => {
            if counters.deny(permission.clone()) {
                report_denial(&permission);
            }
        }
        Refusal::NamespaceTerminating => {
            tracing::debug!(permission, "refused: the namespace is being deleted");
            if let Some(namespace) = namespace {
                counters.namespace_terminating(namespace);
            }
        }
        Refusal::Other(message) => {
            if counters.refuse(permission.clone()) {
                eprintln!("refused: the API server refused this run to {permission}: {message}");
            }
        }
    }
}

/// What a refused permission prints, once per permission.
fn report_denial(permission: &str) {
    tracing::debug!(permission, "forbidden");
    // The refusal may be an admission rule's (setting blockOwnerDeletion needs `update` on
    // the owner's finalizers): the permission missing is then another than the request's.
    eprintln!(
        "forbidden: the API server refused this run to {permission}: the identity it runs as lacks \
         a permission it needs (RBAC). The rules it needs: kubectl kruise install --manager --dry-run=client -o yaml"
    );
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

impl<S, B, R> Service<Request<B>> for ApiService<S>
where
    S: Service<Request<B>, Response = http::Response<R>>,
    S::Future: Send + 'static,
    S::Error: 'static,
    R: http_body::Body<Data = Bytes> + Send + 'static,
{
    /// The body as the API server sent it, or, for a refusal (whose Status was read here
    /// to tell its cause), the same bytes again.
    type Response = http::Response<Either<R, Full<Bytes>>>;
    type Error = S::Error;
    type Future = Pin<Box<dyn Future<Output = Result<Self::Response, S::Error>> + Send>>;

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
        let counters = self.layer.counters.clone();
        // A cheap handle (the URI shares its bytes): the refusal is named only on a 403.
        let (method, uri) = (request.method().clone(), request.uri().clone());
        let response = self.inner.call(request);
        Box::pin(async move {
            let response = response.await?;
            if response.status() != http::StatusCode::FORBIDDEN {
                return Ok(response.map(Either::Left));
            }
            let (parts, body) = response.into_parts();
            // A Status of a few hundred bytes; a body that breaks off reads as empty.
            let bytes = body.collect().await.map(|b| b.to_bytes()).unwrap_or_default();
            let path = uri.path();
            let (verb, resource) = classify(&method, path, uri.query());
            let permission = denial(verb, api_group(path), &resource, namespace_of(path));
            report_refusal(&counters, permission, namespace_of(path), refusal(&bytes));
            Ok(http::Response::from_parts(parts, Either::Right(Full::new(bytes))))
        })
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
    fn a_refused_request_names_its_verb_resource_group_and_namespace() {
        let named = |method: Method, path: &str, query: Option<&str>| {
            let (verb, resource) = classify(&method, path, query);
            denial(verb, api_group(path), &resource, namespace_of(path))
        };
        assert_eq!(
            named(Method::GET, "/api/v1/pods", Some("watch=true")),
            "watch pods cluster-wide"
        );
        assert_eq!(
            named(
                Method::PATCH,
                "/apis/apps.kruise.io/v1alpha1/namespaces/web/clonesets/a/status",
                None
            ),
            "patch clonesets/status.apps.kruise.io in namespace web"
        );
        assert_eq!(
            named(Method::GET, "/api/v1/namespaces/web", None),
            "get namespaces cluster-wide"
        );
        assert_eq!(
            named(
                Method::POST,
                "/apis/events.k8s.io/v1/namespaces/default/events",
                None
            ),
            "create events.events.k8s.io in namespace default"
        );
        let counters = ApiCounters::default();
        assert!(counters.deny("list pods cluster-wide".into()));
        assert!(!counters.deny("list pods cluster-wide".into()));
        assert_eq!(counters.denied(), ["list pods cluster-wide"]);
    }

    #[test]
    fn a_refusal_is_told_by_its_cause() {
        let terminating = br#"{"kind":"Status","status":"Failure","message":"pods \"web-x\" is forbidden: unable to create new content in namespace churn-1-a because it is being terminated","reason":"Forbidden","details":{"name":"web-x","kind":"pods","causes":[{"reason":"NamespaceTerminating","message":"namespace churn-1-a is being terminated","field":"metadata.namespace"}]},"code":403}"#;
        assert_eq!(refusal(terminating), Refusal::NamespaceTerminating);
        let rbac = br#"{"kind":"Status","message":"pods is forbidden: User \"system:serviceaccount:kruise:run\" cannot create resource \"pods\" in API group \"\" in the namespace \"web\"","reason":"Forbidden","code":403}"#;
        assert_eq!(refusal(rbac), Refusal::Rbac);
        let owner = br#"{"message":"pods \"x\" is forbidden: cannot set blockOwnerDeletion if an ownerReference refers to a resource you can't set finalizers on: User \"u\" cannot update resource \"clonesets/finalizers\" in API group \"apps.kruise.io\" in the namespace \"web\"","code":403}"#;
        assert_eq!(refusal(owner), Refusal::Rbac);
        let quota = br#"{"message":"pods \"x\" is forbidden: exceeded quota: q, requested: pods=1, used: pods=2, limited: pods=2","code":403}"#;
        assert!(matches!(refusal(quota), Refusal::Other(m) if m.contains("exceeded quota")));
        let webhook = br#"{"message":"admission webhook \"v.kb.io\" denied the request: no","code":403}"#;
        assert!(matches!(refusal(webhook), Refusal::Other(_)));
        // Newer API servers leave the user out of the owner-reference plugin's words.
        let owner_short = br#"{"message":"pods \"x\" is forbidden: cannot set blockOwnerDeletion if an ownerReference refers to a resource you can't set finalizers on: , <nil>","code":403}"#;
        assert_eq!(refusal(owner_short), Refusal::Rbac);
        assert_eq!(
            refusal(b"not json"),
            Refusal::Rbac,
            "a 403 without words is taken as a permission"
        );
    }

    #[test]
    fn a_terminating_namespace_is_remembered_briefly_and_never_hides_an_rbac_refusal() {
        let counters = ApiCounters::default();
        let t0 = Instant::now();
        let permission = "create pods in namespace churn-1-a".to_string();
        counters.namespace_terminating_at("churn-1-a", t0);
        assert!(counters.terminating_at("churn-1-a", t0 + TERMINATING_FOR / 2));
        assert!(!counters.terminating_at("churn-1-a", t0 + TERMINATING_FOR));
        assert!(!counters.terminating_at("alive", t0));
        report_refusal(
            &counters,
            permission.clone(),
            Some("churn-1-a"),
            Refusal::NamespaceTerminating,
        );
        assert!(counters.denied().is_empty(), "no RBAC refusal was said");
        assert!(
            counters.deny(permission),
            "a real RBAC refusal there is still said"
        );
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
