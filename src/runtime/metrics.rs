//! Controller metrics (prometheus-client), served by `run`'s one server
//! ([`crate::admission::server`]) on `/metrics`.
//!
//! Series:
//! - `kruise_reconcile_total{controller}` / `kruise_reconcile_errors_total{controller,reason}`;
//! - `kruise_reconcile_active{controller}`: reconciles running now (from the queue: one
//!   dropped mid-way is not counted as running);
//! - `kruise_queue_depth{controller}`: objects woken and not yet reconciled (nor deleted);
//! - per controller, controller-runtime's workqueue figures with a `name` label
//!   ([`crate::runtime::workqueue`]): `workqueue_depth`, `workqueue_adds_total`,
//!   `workqueue_queue_duration_seconds`, `workqueue_work_duration_seconds`,
//!   `workqueue_unfinished_work_seconds`, `workqueue_longest_running_processor_seconds`,
//!   `workqueue_retries_total`;
//! - `kruise_expectations_waiting{controller}` / `kruise_expectation_oldest_seconds{controller}`
//!   (objects waiting for the cache to show their
//!   writes, and the longest such wait);
//! - `kruise_api_requests_total{verb,resource}` and `kruise_api_writes_total`, from the
//!   shared client's counters (read when scraped);
//! - `kruise_admission_total{operation,kind,result}`: admission calls answered.
//!
//! Invariant: updating a metric is an atomic operation on a series; reading metrics never
//! blocks a reconcile for longer than one map copy.
use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

use prometheus_client::collector::Collector;
use prometheus_client::encoding::{DescriptorEncoder, EncodeLabelSet, EncodeMetric};
use prometheus_client::metrics::MetricType;
use prometheus_client::metrics::counter::{ConstCounter, Counter};
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::ConstGauge;
use prometheus_client::registry::Registry;

use super::client::ApiCounters;
use prometheus_client::metrics::histogram::Histogram;

use super::workqueue::{Figures, Stall, WorkQueue};

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

/// Every controller's queue, by controller name.
type Queues = Arc<Mutex<BTreeMap<&'static str, Arc<WorkQueue>>>>;

/// A series of the queues: its name, its help and how it reads one queue.
type QueueSeriesOf<F> = (&'static str, &'static str, F);
type Reading<V> = fn(&Figures) -> V;
type HistogramOf = fn(&WorkQueue) -> &Histogram;

/// The queues' figures, read when scraped.
#[derive(Debug)]
struct QueueSeries(Queues);

impl Collector for QueueSeries {
    fn encode(&self, mut encoder: DescriptorEncoder) -> Result<(), std::fmt::Error> {
        let queues: Vec<Arc<WorkQueue>> = self
            .0
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .values()
            .cloned()
            .collect();
        let figures: Vec<_> = queues.iter().map(|q| (q.name, q.figures())).collect();
        let gauges: [QueueSeriesOf<Reading<f64>>; 3] = [
            ("workqueue_depth", "Objects waiting for a reconcile.", |f| {
                f.depth as f64
            }),
            (
                "workqueue_unfinished_work_seconds",
                "Seconds the reconciles running now have run, summed.",
                |f| f.unfinished_work,
            ),
            (
                "workqueue_longest_running_processor_seconds",
                "Seconds the longest running reconcile has run.",
                |f| f.longest_running,
            ),
        ];
        for (name, help, value) in gauges {
            let mut family = encoder.encode_descriptor(name, help, None, MetricType::Gauge)?;
            for (queue, f) in &figures {
                let gauge = ConstGauge::new(value(f));
                gauge.encode(family.encode_family(&[("name", *queue)])?)?;
            }
        }
        let counters: [QueueSeriesOf<Reading<u64>>; 2] = [
            ("workqueue_adds", "Objects woken into the queue.", |f| f.adds),
            ("workqueue_retries", "Reconciles retried after a failure.", |f| {
                f.retries
            }),
        ];
        for (name, help, value) in counters {
            let mut family = encoder.encode_descriptor(name, help, None, MetricType::Counter)?;
            for (queue, f) in &figures {
                ConstCounter::new(value(f)).encode(family.encode_family(&[("name", *queue)])?)?;
            }
        }
        let histograms: [QueueSeriesOf<HistogramOf>; 2] = [
            (
                "workqueue_queue_duration_seconds",
                "Seconds an object waited from its wake-up to its reconcile.",
                |q| &q.queue_latency,
            ),
            (
                "workqueue_work_duration_seconds",
                "Seconds a reconcile took.",
                |q| &q.work_duration,
            ),
        ];
        for (name, help, histogram) in histograms {
            let mut family = encoder.encode_descriptor(name, help, None, MetricType::Histogram)?;
            for queue in &queues {
                histogram(queue).encode(family.encode_family(&[("name", queue.name)])?)?;
            }
        }
        // Our own names for two of them, by `controller` (older than the workqueue series).
        let ours: [QueueSeriesOf<Reading<usize>>; 2] = [
            ("kruise_reconcile_active", "Reconciles running now.", |f| {
                f.running
            }),
            ("kruise_queue_depth", "Objects waiting for a reconcile.", |f| {
                f.depth
            }),
        ];
        for (name, help, value) in ours {
            let mut family = encoder.encode_descriptor(name, help, None, MetricType::Gauge)?;
            for (queue, f) in &figures {
                let gauge = ConstGauge::new(value(f));
                gauge.encode(family.encode_family(&[("controller", *queue)])?)?;
            }
        }
        Ok(())
    }
}

/// All metrics of one `run` process.
#[derive(Debug)]
pub struct Metrics {
    registry: Registry,
    reconciles: Family<ByController, Counter>,
    errors: Family<ByReason, Counter>,
    queues: Queues,
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
        let queues = Queues::default();
        let admissions = Family::<ByAdmission, Counter>::default();
        registry.register("kruise_reconcile", "Reconciles started.", reconciles.clone());
        registry.register(
            "kruise_reconcile_errors",
            "Reconciles that failed, by reason.",
            errors.clone(),
        );
        registry.register(
            "kruise_admission",
            "Admission calls answered, by operation, kind and result.",
            admissions.clone(),
        );
        registry.register_collector(Box::new(ApiSeries(api.clone())));
        registry.register_collector(Box::new(QueueSeries(queues.clone())));
        Self {
            registry,
            reconciles,
            errors,
            queues,
            admissions,
            api,
        }
    }

    fn controller(controller: &str) -> ByController {
        ByController {
            controller: controller.to_string(),
        }
    }

    /// A reconcile starts planning (what runs is counted by the controller's queue).
    pub fn reconcile_started(&self, controller: &'static str) {
        self.reconciles.get_or_create(&Self::controller(controller)).inc();
    }

    pub fn reconcile_finished(&self, controller: &'static str, error: Option<&str>) {
        if let Some(reason) = error {
            let labels = ByReason {
                controller: controller.to_string(),
                reason: reason.to_string(),
            };
            self.errors.get_or_create(&labels).inc();
        }
    }

    /// The queue of `controller` (made on first use).
    pub fn queue(&self, controller: &'static str) -> Arc<WorkQueue> {
        self.queues
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .entry(controller)
            .or_insert_with(|| Arc::new(WorkQueue::new(controller)))
            .clone()
    }

    /// The controllers stalled at `now` (see [`WorkQueue::stall`]).
    pub fn stalls(&self, now: std::time::Instant, limit: std::time::Duration) -> Vec<Stall> {
        let queues: Vec<Arc<WorkQueue>> = self
            .queues
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .values()
            .cloned()
            .collect();
        queues.iter().filter_map(|q| q.stall(now, limit)).collect()
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
        let queue = metrics.queue("CloneSet");
        queue.add("ns/a");
        queue.add("ns/b");
        queue.start("ns/a");
        queue.retry();
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
        assert_eq!(parsed["kruise_reconcile_active{controller=\"CloneSet\"}"], 1.0);
        assert_eq!(parsed["kruise_queue_depth{controller=\"CloneSet\"}"], 1.0);
        assert_eq!(parsed["workqueue_depth{name=\"CloneSet\"}"], 1.0);
        assert_eq!(parsed["workqueue_adds_total{name=\"CloneSet\"}"], 2.0);
        assert_eq!(parsed["workqueue_retries_total{name=\"CloneSet\"}"], 1.0);
        assert_eq!(
            parsed["workqueue_queue_duration_seconds_count{name=\"CloneSet\"}"],
            1.0
        );
        assert_eq!(
            parsed["workqueue_work_duration_seconds_count{name=\"CloneSet\"}"],
            0.0
        );
        assert!(
            parsed.contains_key("workqueue_unfinished_work_seconds{name=\"CloneSet\"}"),
            "{text}"
        );
        assert!(parsed.contains_key("workqueue_longest_running_processor_seconds{name=\"CloneSet\"}"));
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
