//! Controller metrics (prometheus-client), served by `run`'s one server
//! ([`crate::admission::server`]) on `/metrics`.
//!
//! Series:
//! - `kruise_reconcile_total{controller}` / `kruise_reconcile_errors_total{controller,reason}`;
//! - `kruise_reconcile_active{controller}`: reconciles running now;
//! - `kruise_queue_depth{controller}`: objects waiting for a reconcile (triggered or requeued,
//!   not yet started);
//! - `kruise_api_requests_total{verb,resource}` and `kruise_api_writes_total`, from the
//!   shared client's counters (read when scraped);
//! - `kruise_admission_total{operation,kind,result}`: admission calls answered.
//!
//! Invariant: updating a metric is an atomic operation on a series; reading metrics never
//! blocks a reconcile for longer than one map copy.
use std::collections::BTreeMap;
use std::sync::Arc;

use prometheus_client::collector::Collector;
use prometheus_client::encoding::{DescriptorEncoder, EncodeLabelSet, EncodeMetric};
use prometheus_client::metrics::MetricType;
use prometheus_client::metrics::counter::{ConstCounter, Counter};
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::registry::Registry;

use super::client::ApiCounters;

/// The content type of [`Metrics::render`].
pub const CONTENT_TYPE: &str = "application/openmetrics-text; version=1.0.0; charset=utf-8";

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct ByController {
    controller: String,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct ByReason {
    controller: String,
    reason: String,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct ByAdmission {
    operation: String,
    kind: String,
    result: String,
}

/// The API counters of the shared client, as series (read when scraped).
#[derive(Debug)]
struct ApiSeries(Arc<ApiCounters>);

impl Collector for ApiSeries {
    fn encode(&self, mut encoder: DescriptorEncoder) -> Result<(), std::fmt::Error> {
        let counts = self.0.snapshot();
        let mut requests = encoder.encode_descriptor(
            "kruise_api_requests",
            "API requests sent, by verb and resource.",
            None,
            MetricType::Counter,
        )?;
        for ((verb, resource), n) in &counts {
            let labels = [("verb", *verb), ("resource", resource.as_str())];
            ConstCounter::new(*n).encode(requests.encode_family(&labels)?)?;
        }
        // As `ApiCounters::writes`: reviews store nothing and are not writes.
        let writes = self.0.writes();
        let total = encoder.encode_descriptor(
            "kruise_api_writes",
            "API writes sent (create, update, patch, delete).",
            None,
            MetricType::Counter,
        )?;
        ConstCounter::new(writes).encode(total)
    }
}

/// All metrics of one `run` process.
#[derive(Debug)]
pub struct Metrics {
    registry: Registry,
    reconciles: Family<ByController, Counter>,
    errors: Family<ByReason, Counter>,
    active: Family<ByController, Gauge>,
    queued: Family<ByController, Gauge>,
    admissions: Family<ByAdmission, Counter>,
    pub api: Arc<ApiCounters>,
}

impl Default for Metrics {
    fn default() -> Self {
        Self::new(Arc::default())
    }
}

impl Metrics {
    pub fn new(api: Arc<ApiCounters>) -> Self {
        let mut registry = Registry::default();
        let reconciles = Family::<ByController, Counter>::default();
        let errors = Family::<ByReason, Counter>::default();
        let active = Family::<ByController, Gauge>::default();
        let queued = Family::<ByController, Gauge>::default();
        let admissions = Family::<ByAdmission, Counter>::default();
        registry.register("kruise_reconcile", "Reconciles started.", reconciles.clone());
        registry.register(
            "kruise_reconcile_errors",
            "Reconciles that failed, by reason.",
            errors.clone(),
        );
        registry.register(
            "kruise_reconcile_active",
            "Reconciles running now.",
            active.clone(),
        );
        registry.register(
            "kruise_queue_depth",
            "Objects waiting for a reconcile.",
            queued.clone(),
        );
        registry.register(
            "kruise_admission",
            "Admission calls answered, by operation, kind and result.",
            admissions.clone(),
        );
        registry.register_collector(Box::new(ApiSeries(api.clone())));
        Self {
            registry,
            reconciles,
            errors,
            active,
            queued,
            admissions,
            api,
        }
    }

    fn controller(controller: &str) -> ByController {
        ByController {
            controller: controller.to_string(),
        }
    }

    pub fn reconcile_started(&self, controller: &'static str) {
        self.reconciles.get_or_create(&Self::controller(controller)).inc();
        self.active.get_or_create(&Self::controller(controller)).inc();
    }

    pub fn reconcile_finished(&self, controller: &'static str, error: Option<&str>) {
        self.active.get_or_create(&Self::controller(controller)).dec();
        if let Some(reason) = error {
            let labels = ByReason {
                controller: controller.to_string(),
                reason: reason.to_string(),
            };
            self.errors.get_or_create(&labels).inc();
        }
    }

    pub fn queue_changed(&self, controller: &'static str, delta: i64) {
        let gauge = self.queued.get_or_create(&Self::controller(controller));
        let now = gauge.inc_by(delta) + delta;
        if now < 0 {
            gauge.set(0);
        }
    }

    /// One admission call answered (`result`: allowed, denied, patched, error).
    pub fn admission(&self, operation: &str, kind: &str, result: &str) {
        let labels = ByAdmission {
            operation: operation.to_string(),
            kind: kind.to_string(),
            result: result.to_string(),
        };
        self.admissions.get_or_create(&labels).inc();
    }

    /// The OpenMetrics text exposition.
    pub fn render(&self) -> String {
        let mut out = String::new();
        if prometheus_client::encoding::text::encode(&mut out, &self.registry).is_err() {
            tracing::warn!("encoding the metrics failed");
        }
        out
    }
}

/// Parses a Prometheus or OpenMetrics text exposition into `series -> value` (for tests
/// and the CLI).
pub fn parse(text: &str) -> BTreeMap<String, f64> {
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .filter_map(|l| {
            let (series, value) = l.rsplit_once(' ')?;
            Some((series.to_string(), value.parse().ok()?))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_exposition_parses_back() {
        let metrics = Metrics::default();
        metrics.reconcile_started("CloneSet");
        metrics.reconcile_finished("CloneSet", Some("CreatePod"));
        metrics.queue_changed("CloneSet", 2);
        metrics.queue_changed("CloneSet", -5);
        metrics.admission("CREATE", "CloneSet", "patched");
        let text = metrics.render();
        let parsed = parse(&text);
        assert_eq!(
            parsed["kruise_reconcile_total{controller=\"CloneSet\"}"], 1.0,
            "{text}"
        );
        assert_eq!(
            parsed["kruise_reconcile_errors_total{controller=\"CloneSet\",reason=\"CreatePod\"}"],
            1.0
        );
        assert_eq!(parsed["kruise_reconcile_active{controller=\"CloneSet\"}"], 0.0);
        assert_eq!(
            parsed["kruise_queue_depth{controller=\"CloneSet\"}"], 0.0,
            "never below 0"
        );
        assert_eq!(parsed["kruise_api_writes_total"], 0.0);
        assert_eq!(
            parsed["kruise_admission_total{operation=\"CREATE\",kind=\"CloneSet\",result=\"patched\"}"],
            1.0
        );
    }

    #[test]
    fn api_requests_are_series_by_verb_and_resource() {
        let (client_counters, text) = {
            let api = Arc::new(ApiCounters::default());
            let metrics = Metrics::new(api.clone());
            (api, metrics.render())
        };
        assert!(client_counters.snapshot().is_empty());
        assert!(text.contains("# TYPE kruise_api_requests counter"), "{text}");
    }
}
