//! `kubectl kruise run` as a child process scoped to a test's namespace, and an independent
//! pod watcher that records every pod state change for invariant checks.
//!
//! The watcher is not the controller: it has its own watch, and judges availability by the
//! pod's own Ready condition, so a controller bug cannot hide from it.
use std::collections::BTreeMap;
use std::net::TcpListener;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use futures::StreamExt;
use k8s_openapi::api::core::v1::Pod;
use kube::ResourceExt;
use kube::api::Api;
use kube::runtime::{WatchStreamExt, watcher};

use super::{CLI, TestNamespace};

/// The suites whose runs are the in-cluster manager's service account (`run --as
/// system:serviceaccount:...`), under the RBAC `install --manager` generates: they pass only
/// if it grants all they need. The others run as the administrator.
const AS_MANAGER: bool = matches!(
    env!("CARGO_CRATE_NAME").as_bytes(),
    b"cloneset" | b"statefulset" | b"rollout"
);

/// Where those suites install the manager's RBAC (and keep their leases and webhook CA).
pub const MANAGER_NAMESPACE: &str = "kruise-tests-manager";

/// The arguments that make a run the manager's service account, with a lease of its own
/// in the manager's namespace (its Role grants leases there only).
pub fn as_manager_args(ns: &str) -> Vec<String> {
    vec![
        "--as".into(),
        format!("system:serviceaccount:{MANAGER_NAMESPACE}:kubectl-kruise"),
        "--leader-elect-namespace".into(),
        MANAGER_NAMESPACE.into(),
        "--leader-elect-name".into(),
        format!("kubectl-kruise-{ns}"),
    ]
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free port")
}

/// A running `kubectl kruise run -n NS`; killed on drop.
pub struct RunningController {
    child: Option<Child>,
    pub metrics_port: u16,
    pub log: std::path::PathBuf,
}

impl RunningController {
    pub fn start(ns: &TestNamespace) -> Self {
        Self::start_with(ns, &[])
    }

    /// `run -n NS` with `extra` arguments (e.g. a short `--leader-elect-lease-duration`),
    /// on the namespace's control plane.
    pub fn start_with(ns: &TestNamespace, extra: &[&str]) -> Self {
        Self::start_with_env(ns, extra, &[])
    }

    /// A run of every namespace (no `-n`), with `extra` flags; `ns` names its log and gives
    /// the kubeconfig. For a control plane of the test's own: it reconciles every object.
    pub fn start_everywhere(ns: &TestNamespace, extra: &[&str]) -> Self {
        let (code, _, err) = super::kruise(ns.kubeconfig.as_path(), &["install"]);
        assert_eq!(code, 0, "kubectl kruise install failed: {err}");
        Self::spawn_in(ns, None, extra, &[])
            .unwrap_or_else(|lost| panic!("run lost its metrics port: {lost}"))
    }

    /// [`Self::start_with`] with environment variables set for the run.
    ///
    /// A port found free may be taken before the run binds it (another test's run or
    /// webhook server): the run is known started only once its own log says it serves
    /// metrics on that port, and a run that lost its port is started again on another.
    pub fn start_with_env(ns: &TestNamespace, extra: &[&str], env: &[(&str, &str)]) -> Self {
        let kubeconfig = ns.kubeconfig.as_path();
        // Idempotent; the CRDs may already be there from another test.
        let (code, _, err) = super::kruise(kubeconfig, &["install"]);
        assert_eq!(code, 0, "kubectl kruise install failed: {err}");
        if AS_MANAGER {
            // One replica: its pods only stand on simulated nodes (nothing runs in them).
            let (code, _, err) = super::kruise(
                kubeconfig,
                &["install", "--manager", "--replicas", "1", "-n", MANAGER_NAMESPACE],
            );
            assert_eq!(code, 0, "kubectl kruise install --manager failed: {err}");
        }
        let mut attempts = 0;
        loop {
            attempts += 1;
            match Self::spawn(ns, extra, env) {
                Ok(controller) => return controller,
                Err(lost) if attempts < 5 => eprintln!("run lost its metrics port, starting again: {lost}"),
                Err(lost) => panic!("run could not bind a metrics port 5 times: {lost}"),
            }
        }
    }

    /// One start; Err(log) when the run's metrics port was taken before it bound it.
    fn spawn(ns: &TestNamespace, extra: &[&str], env: &[(&str, &str)]) -> Result<Self, String> {
        Self::spawn_in(ns, Some(&ns.name), extra, env)
    }

    /// One start, scoped to `scope` (None: every namespace).
    fn spawn_in(
        ns: &TestNamespace,
        scope: Option<&str>,
        extra: &[&str],
        env: &[(&str, &str)],
    ) -> Result<Self, String> {
        let kubeconfig = ns.kubeconfig.as_path();
        let scope: Vec<&str> = scope.map(|s| vec!["-n", s]).unwrap_or_default();
        let metrics_port = free_port();
        let log = std::env::temp_dir().join(format!("kruise-run-{}-{metrics_port}.log", ns.name));
        let file = std::fs::File::create(&log).expect("log file");
        let child = Command::new(CLI)
            .arg("run")
            .args(&scope)
            .args(["--metrics-addr", &format!("127.0.0.1:{metrics_port}")])
            .args(extra)
            .args(if AS_MANAGER && !scope.is_empty() {
                as_manager_args(&ns.name)
            } else {
                Vec::new()
            })
            .arg("--kubeconfig")
            .arg(kubeconfig)
            .env("RUST_LOG", "kubectl_kruise=debug,warn")
            .envs(env.iter().copied())
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(file)
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {CLI} run: {e}"));
        let mut controller = RunningController {
            child: Some(child),
            metrics_port,
            log,
        };
        let serving = format!("metrics on http://127.0.0.1:{metrics_port}/metrics");
        let deadline = Instant::now() + Duration::from_secs(20);
        while !(controller.log_text().contains(&serving) && controller.metrics_text().is_some()) {
            let exited = controller
                .child
                .as_mut()
                .and_then(|c| c.try_wait().ok().flatten());
            if exited.is_some() {
                let text = controller.log_text();
                if text.contains("Address already in use") {
                    return Err(text);
                }
                panic!("run exited at start ({exited:?}):\n{}", controller.log_tail());
            }
            assert!(
                Instant::now() < deadline,
                "run did not serve metrics:\n{}",
                controller.log_tail()
            );
            std::thread::sleep(Duration::from_millis(100));
        }
        Ok(controller)
    }

    /// The process id (part of its lease identity and User-Agent).
    pub fn pid(&self) -> u32 {
        self.child.as_ref().map_or(0, Child::id)
    }

    /// The whole log so far.
    pub fn log_text(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }

    pub fn log_tail(&self) -> String {
        let text = std::fs::read_to_string(&self.log).unwrap_or_default();
        let lines: Vec<&str> = text.lines().collect();
        lines[lines.len().saturating_sub(40)..].join("\n")
    }

    fn metrics_text(&self) -> Option<String> {
        self.get("/metrics").map(|(_, body)| body)
    }

    /// `GET path` on the run's plain HTTP listener: (status line, body).
    pub fn get(&self, path: &str) -> Option<(String, String)> {
        use std::io::{Read, Write};
        let mut stream = std::net::TcpStream::connect(("127.0.0.1", self.metrics_port)).ok()?;
        stream.set_read_timeout(Some(Duration::from_secs(2))).ok()?;
        let request = format!("GET {path} HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n");
        stream.write_all(request.as_bytes()).ok()?;
        let mut text = String::new();
        stream.read_to_string(&mut text).ok()?;
        let (head, body) = text.split_once("\r\n\r\n")?;
        Some((
            head.lines().next().unwrap_or_default().to_string(),
            body.to_string(),
        ))
    }

    /// Parsed metrics (`series -> value`).
    pub fn metrics(&self) -> BTreeMap<String, f64> {
        let text = self
            .metrics_text()
            .unwrap_or_else(|| panic!("metrics unreachable:\n{}", self.log_tail()));
        kubectl_kruise::runtime::metrics::parse(&text)
    }

    /// Writes to `resource` (e.g. `pods`, `pods/status`) so far.
    pub fn writes_to(&self, resource: &str) -> f64 {
        self.metrics()
            .iter()
            .filter(|(k, _)| {
                k.starts_with("kruise_api_requests_total{")
                    && k.contains(&format!("resource=\"{resource}\""))
                    && ["create", "update", "patch", "delete"]
                        .iter()
                        .any(|v| k.contains(&format!("verb=\"{v}\"")))
            })
            .map(|(_, v)| v)
            .sum()
    }

    /// SIGTERM, then waits; returns the exit code.
    /// The exit code, once the run has exited by itself (None while it runs).
    pub fn exit_code(&mut self) -> Option<i32> {
        let child = self.child.as_mut()?;
        child.try_wait().ok().flatten().map(|s| s.code().unwrap_or(-1))
    }

    pub fn stop(mut self) -> i32 {
        let mut child = self.child.take().expect("running");
        let _ = Command::new("kill")
            .args(["-TERM", &child.id().to_string()])
            .status();
        let deadline = Instant::now() + Duration::from_secs(20);
        loop {
            if let Ok(Some(status)) = child.try_wait() {
                return status.code().unwrap_or(-1);
            }
            assert!(Instant::now() < deadline, "run did not stop after SIGTERM");
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// SIGKILL, as a crash.
    pub fn kill(mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

impl Drop for RunningController {
    fn drop(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

/// One pod as the watcher last saw it.
#[derive(Debug, Clone, PartialEq)]
pub struct PodView {
    pub uid: String,
    pub ready: bool,
    pub revision: String,
    pub image: String,
    pub node: String,
    pub ip: String,
    pub restarts: i32,
    pub gate: Option<String>,
}

impl PodView {
    pub fn of(pod: &Pod) -> Self {
        let status = pod.status.as_ref();
        let condition = |t: &str| {
            status
                .and_then(|s| s.conditions.as_ref())
                .and_then(|cs| cs.iter().find(|c| c.type_ == t))
                .map(|c| c.status.clone())
        };
        PodView {
            uid: pod.uid().unwrap_or_default(),
            ready: condition("Ready").as_deref() == Some("True"),
            revision: pod
                .labels()
                .get("controller-revision-hash")
                .cloned()
                .unwrap_or_default(),
            image: pod
                .spec
                .as_ref()
                .and_then(|s| s.containers.first())
                .and_then(|c| c.image.clone())
                .unwrap_or_default(),
            node: pod
                .spec
                .as_ref()
                .and_then(|s| s.node_name.clone())
                .unwrap_or_default(),
            ip: status.and_then(|s| s.pod_ip.clone()).unwrap_or_default(),
            restarts: status
                .and_then(|s| s.container_statuses.as_ref())
                .and_then(|cs| cs.first())
                .map_or(0, |c| c.restart_count),
            gate: condition("InPlaceUpdateReady"),
        }
    }
}

#[derive(Debug, Default)]
struct Record {
    pods: BTreeMap<String, PodView>,
    /// (seconds since start, pod name, view or None when deleted)
    timeline: Vec<(f64, String, Option<PodView>)>,
    max_pods: usize,
    max_unavailable: usize,
    checks: usize,
    /// How many pods the workload should have: a missing one counts as unavailable.
    expected: Option<usize>,
}

impl Record {
    /// Not Ready (or terminating), plus the pods missing from `expected`.
    fn unavailable(&self) -> usize {
        let not_ready = self.pods.values().filter(|p| !p.ready).count();
        let ready = self.pods.len() - not_ready;
        let missing = self.expected.map_or(0, |e| e.saturating_sub(ready));
        not_ready.max(missing)
    }
}

/// Records every pod change in a namespace; unavailable = not Ready (or terminating).
pub struct PodWatcher {
    record: Arc<Mutex<Record>>,
    task: tokio::task::JoinHandle<()>,
}

impl PodWatcher {
    pub fn start(ns: &TestNamespace) -> Self {
        Self::watch(ns, None)
    }

    /// Like [`PodWatcher::start`] for a workload of `replicas` pods: a pod that is deleted
    /// and not yet recreated counts as unavailable too.
    pub fn start_expecting(ns: &TestNamespace, replicas: usize) -> Self {
        Self::watch(ns, Some(replicas))
    }

    fn watch(ns: &TestNamespace, expected: Option<usize>) -> Self {
        let api: Api<Pod> = ns.api();
        let record = Arc::new(Mutex::new(Record {
            expected,
            ..Record::default()
        }));
        let shared = record.clone();
        let start = Instant::now();
        let task = tokio::spawn(async move {
            let mut stream = std::pin::pin!(watcher(api, watcher::Config::default()).default_backoff());
            while let Some(event) = stream.next().await {
                let (pod, deleted) = match event {
                    Ok(watcher::Event::Apply(pod) | watcher::Event::InitApply(pod)) => (pod, false),
                    Ok(watcher::Event::Delete(pod)) => (pod, true),
                    _ => continue,
                };
                let mut r = shared.lock().expect("record");
                let name = pod.name_any();
                let at = start.elapsed().as_secs_f64();
                if deleted {
                    r.pods.remove(&name);
                    r.timeline.push((at, name, None));
                } else {
                    let mut view = PodView::of(&pod);
                    // A terminating pod still counts towards the total, and is unavailable.
                    if pod.metadata.deletion_timestamp.is_some() {
                        view.ready = false;
                    }
                    r.pods.insert(name.clone(), view.clone());
                    r.timeline.push((at, name, Some(view)));
                }
                let total = r.pods.len();
                let unavailable = r.unavailable();
                r.max_pods = r.max_pods.max(total);
                r.max_unavailable = r.max_unavailable.max(unavailable);
                r.checks += 1;
            }
        });
        PodWatcher { record, task }
    }

    pub fn max_pods(&self) -> usize {
        self.record.lock().expect("record").max_pods
    }

    pub fn max_unavailable(&self) -> usize {
        self.record.lock().expect("record").max_unavailable
    }

    pub fn reset_maxima(&self) {
        let mut r = self.record.lock().expect("record");
        r.max_pods = r.pods.len();
        r.max_unavailable = r.unavailable();
    }

    /// Every view of one pod, in order.
    pub fn history(&self, pod: &str) -> Vec<PodView> {
        let r = self.record.lock().expect("record");
        r.timeline
            .iter()
            .filter(|(_, n, _)| n == pod)
            .filter_map(|(_, _, v)| v.clone())
            .collect()
    }

    /// The pods in the order each was first seen as `matches` says (a pod never seen so is
    /// left out).
    pub fn first_seen(&self, matches: impl Fn(&PodView) -> bool) -> Vec<String> {
        let r = self.record.lock().expect("record");
        let mut order: Vec<String> = Vec::new();
        for (_, name, view) in &r.timeline {
            if view.as_ref().is_some_and(&matches) && !order.contains(name) {
                order.push(name.clone());
            }
        }
        order
    }

    pub fn timeline(&self) -> String {
        let r = self.record.lock().expect("record");
        r.timeline
            .iter()
            .map(|(t, n, v)| match v {
                Some(v) => format!(
                    "{t:7.2}s {n} ready={} rev={} image={} gate={:?}",
                    v.ready, v.revision, v.image, v.gate
                ),
                None => format!("{t:7.2}s {n} deleted"),
            })
            .collect::<Vec<_>>()
            .join("\n")
    }
}

impl Drop for PodWatcher {
    fn drop(&mut self) {
        self.task.abort();
    }
}
