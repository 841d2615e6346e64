//! Controller metrics in the Prometheus text format, served on `--metrics-addr`.
//!
//! Series:
//! - `kruise_reconcile_total{controller}` / `kruise_reconcile_errors_total{controller,reason}`;
//! - `kruise_reconcile_active{controller}`: reconciles running now;
//! - `kruise_queue_depth{controller}`: objects waiting for a reconcile (triggered or requeued,
//!   not yet started);
//! - `kruise_api_requests_total{verb,resource}` and `kruise_api_writes_total`, from the
//!   shared client's counters.
//!
//! Invariant: reading metrics never blocks a reconcile for longer than one map copy.
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::sync::{Arc, Mutex};

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpListener;

use super::client::{ApiCounters, is_write};

#[derive(Debug, Default, Clone)]
struct ControllerSeries {
    reconciles: u64,
    errors: BTreeMap<String, u64>,
    active: i64,
    queued: i64,
}

/// All metrics of one `run` process.
#[derive(Debug, Default)]
pub struct Metrics {
    controllers: Mutex<BTreeMap<&'static str, ControllerSeries>>,
    pub api: Arc<ApiCounters>,
}

impl Metrics {
    pub fn new(api: Arc<ApiCounters>) -> Self {
        Self {
            controllers: Mutex::default(),
            api,
        }
    }

    fn with(&self, controller: &'static str, f: impl FnOnce(&mut ControllerSeries)) {
        let mut map = self.controllers.lock().unwrap_or_else(|e| e.into_inner());
        f(map.entry(controller).or_default());
    }

    pub fn reconcile_started(&self, controller: &'static str) {
        self.with(controller, |s| {
            s.reconciles += 1;
            s.active += 1;
        });
    }

    pub fn reconcile_finished(&self, controller: &'static str, error: Option<&str>) {
        self.with(controller, |s| {
            s.active -= 1;
            if let Some(reason) = error {
                *s.errors.entry(reason.to_string()).or_default() += 1;
            }
        });
    }

    pub fn queue_changed(&self, controller: &'static str, delta: i64) {
        self.with(controller, |s| s.queued = (s.queued + delta).max(0));
    }

    /// The Prometheus text exposition.
    pub fn render(&self) -> String {
        let controllers = self.controllers.lock().unwrap_or_else(|e| e.into_inner()).clone();
        let mut out = String::new();
        let _ = writeln!(out, "# HELP kruise_reconcile_total Reconciles started.");
        let _ = writeln!(out, "# TYPE kruise_reconcile_total counter");
        for (name, s) in &controllers {
            let _ = writeln!(
                out,
                "kruise_reconcile_total{{controller=\"{name}\"}} {}",
                s.reconciles
            );
        }
        let _ = writeln!(
            out,
            "# HELP kruise_reconcile_errors_total Reconciles that failed, by reason."
        );
        let _ = writeln!(out, "# TYPE kruise_reconcile_errors_total counter");
        for (name, s) in &controllers {
            for (reason, n) in &s.errors {
                let _ = writeln!(
                    out,
                    "kruise_reconcile_errors_total{{controller=\"{name}\",reason=\"{reason}\"}} {n}"
                );
            }
        }
        let _ = writeln!(out, "# HELP kruise_reconcile_active Reconciles running now.");
        let _ = writeln!(out, "# TYPE kruise_reconcile_active gauge");
        for (name, s) in &controllers {
            let _ = writeln!(
                out,
                "kruise_reconcile_active{{controller=\"{name}\"}} {}",
                s.active
            );
        }
        let _ = writeln!(out, "# HELP kruise_queue_depth Objects waiting for a reconcile.");
        let _ = writeln!(out, "# TYPE kruise_queue_depth gauge");
        for (name, s) in &controllers {
            let _ = writeln!(out, "kruise_queue_depth{{controller=\"{name}\"}} {}", s.queued);
        }
        let api = self.api.snapshot();
        let _ = writeln!(
            out,
            "# HELP kruise_api_requests_total API requests sent, by verb and resource."
        );
        let _ = writeln!(out, "# TYPE kruise_api_requests_total counter");
        for ((verb, resource), n) in &api {
            let _ = writeln!(
                out,
                "kruise_api_requests_total{{verb=\"{verb}\",resource=\"{resource}\"}} {n}"
            );
        }
        let writes: u64 = api.iter().filter(|((v, _), _)| is_write(v)).map(|(_, n)| n).sum();
        let _ = writeln!(
            out,
            "# HELP kruise_api_writes_total API writes sent (create, update, patch, delete)."
        );
        let _ = writeln!(out, "# TYPE kruise_api_writes_total counter");
        let _ = writeln!(out, "kruise_api_writes_total {writes}");
        out
    }
}

/// Parses a Prometheus text exposition into `series -> value` (for tests and the CLI).
pub fn parse(text: &str) -> BTreeMap<String, f64> {
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .filter_map(|l| {
            let (series, value) = l.rsplit_once(' ')?;
            Some((series.to_string(), value.parse().ok()?))
        })
        .collect()
}

/// Serves `GET /metrics` (any path, really) until the task is dropped.
pub async fn serve(listener: TcpListener, metrics: Arc<Metrics>) {
    loop {
        let Ok((mut socket, _)) = listener.accept().await else {
            continue;
        };
        let metrics = metrics.clone();
        tokio::spawn(async move {
            let mut buf = [0u8; 2048];
            // One read is enough for a GET request line and headers; the body is ignored.
            let _ = socket.read(&mut buf).await;
            let body = metrics.render();
            let response = format!(
                "HTTP/1.1 200 OK\r\ncontent-type: text/plain; version=0.0.4\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
                body.len()
            );
            let _ = socket.write_all(response.as_bytes()).await;
            let _ = socket.shutdown().await;
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_exposition_parses_back() {
        let metrics = Metrics::default();
        metrics.reconcile_started("CloneSet");
        metrics.reconcile_finished("CloneSet", Some("CreatePod"));
        let parsed = parse(&metrics.render());
        assert_eq!(parsed["kruise_reconcile_total{controller=\"CloneSet\"}"], 1.0);
        assert_eq!(
            parsed["kruise_reconcile_errors_total{controller=\"CloneSet\",reason=\"CreatePod\"}"],
            1.0
        );
        assert_eq!(parsed["kruise_reconcile_active{controller=\"CloneSet\"}"], 0.0);
        assert_eq!(parsed["kruise_api_writes_total"], 0.0);
    }
}
