//! The benchmark's control plane and contenders' processes: a private local control plane
//! (`testenv up --audit` with the simulated delays), a `kubectl kruise run` child, and the
//! three ways of counting what they did.
//!
//! Invariants:
//! - Every contender meets the same plane settings: nodes, start and image-pull delays.
//! - A plane is stopped on drop, a controller killed on drop: a failed run leaves nothing.
//! - Counts are read as (before, after) pairs around one phase; nothing is reset.
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use anyhow::{Context as _, Result, bail};
use kube::Client;

pub const CLI: &str = env!("CARGO_BIN_EXE_kubectl-kruise");

/// The simulated node settings every contender runs on.
#[derive(Debug, Clone, Copy)]
pub struct Sim {
    pub nodes: usize,
    pub start_delay: Duration,
    pub image_pull_delay: Duration,
    /// The controllers' client QPS and burst (ours; kruise-manager's in B8).
    pub qps: u32,
    pub burst: u32,
    /// Whether kube-controller-manager also runs its StatefulSet and DaemonSet controllers
    /// (B6 compares with the built-in DaemonSet).
    pub builtin_workloads: bool,
}

pub struct Plane {
    pub run_dir: PathBuf,
    pub kubeconfig: PathBuf,
    pub client: Client,
}

impl Plane {
    /// A plane with our CRDs installed.
    pub async fn start(bin_dir: &str, tag: &str, sim: Sim) -> Result<Plane> {
        let plane = Plane::start_bare(bin_dir, tag, sim).await?;
        let (code, _, err) = plane.kruise(&["install"]);
        if code != 0 {
            bail!("kubectl kruise install: {err}");
        }
        Ok(plane)
    }

    /// A plane with no CRDs of ours (B8's kruise-manager brings OpenKruise's own).
    pub async fn start_bare(bin_dir: &str, tag: &str, sim: Sim) -> Result<Plane> {
        let run_dir = std::env::temp_dir().join(format!("kruise-bench-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&run_dir);
        let up = Command::new(CLI)
            .args(["testenv", "up", "--audit", "--bin-dir", bin_dir, "--run-dir"])
            .arg(&run_dir)
            .arg(format!("--nodes={}", sim.nodes))
            .arg(format!("--start-delay={}ms", sim.start_delay.as_millis()))
            .arg(format!(
                "--image-pull-delay={}ms",
                sim.image_pull_delay.as_millis()
            ))
            .args(sim.builtin_workloads.then_some("--builtin-workload-controllers"))
            .output()
            .context("running testenv up")?;
        if !up.status.success() {
            bail!(
                "control plane {tag} did not start:\n{}",
                String::from_utf8_lossy(&up.stderr)
            );
        }
        let kubeconfig = run_dir.join("admin.kubeconfig");
        let client = kubectl_kruise::testenv::client_for(&kubeconfig).await?;
        Ok(Plane {
            run_dir,
            kubeconfig,
            client,
        })
    }

    pub fn kruise(&self, args: &[&str]) -> (i32, String, String) {
        let out = Command::new(CLI)
            .args(args)
            .arg("--kubeconfig")
            .arg(&self.kubeconfig)
            .stdin(Stdio::null())
            .output();
        match out {
            Ok(out) => (
                out.status.code().unwrap_or(-1),
                String::from_utf8_lossy(&out.stdout).into_owned(),
                String::from_utf8_lossy(&out.stderr).into_owned(),
            ),
            Err(e) => (-1, String::new(), e.to_string()),
        }
    }

    pub fn audit_log(&self) -> PathBuf {
        self.run_dir.join("logs").join("audit.log")
    }

    /// Mutating requests the API server has counted so far (`apiserver_request_total`),
    /// all clients together.
    pub async fn apiserver_writes(&self) -> Result<f64> {
        let request = http::Request::get("/metrics").body(Vec::new())?;
        let text = self.client.request_text(request).await?;
        let metrics = kubectl_kruise::runtime::metrics::parse(&text);
        Ok(metrics
            .iter()
            .filter(|(k, _)| k.starts_with("apiserver_request_total{"))
            .filter(|(k, _)| {
                ["POST", "PUT", "PATCH", "DELETE", "DELETECOLLECTION"]
                    .iter()
                    .any(|v| k.contains(&format!("verb=\"{v}\"")))
            })
            .map(|(_, v)| v)
            .sum())
    }

    /// The pid of this plane's kube-controller-manager.
    pub fn controller_manager_pid(&self) -> Option<u32> {
        let dir = self.run_dir.display().to_string();
        std::fs::read_dir("/proc").ok()?.flatten().find_map(|entry| {
            let pid: u32 = entry.file_name().to_str()?.parse().ok()?;
            let cmdline = std::fs::read(entry.path().join("cmdline")).ok()?;
            let cmdline = String::from_utf8_lossy(&cmdline);
            (cmdline.contains("kube-controller-manager") && cmdline.contains(&dir)).then_some(pid)
        })
    }
}

impl Drop for Plane {
    fn drop(&mut self) {
        let _ = Command::new(CLI)
            .args(["testenv", "down", "--run-dir"])
            .arg(&self.run_dir)
            .output();
    }
}

/// A place in the API server's audit log (its own record of every write).
pub struct Audit {
    pub lines: usize,
}

impl Audit {
    pub fn mark(log: &Path) -> Audit {
        let lines = std::fs::read_to_string(log)
            .map(|t| t.lines().count())
            .unwrap_or(0);
        Audit { lines }
    }

    /// Writes after the mark to objects in `namespace` whose user agent contains one of
    /// `agents`, and the same writes by `verb resource[/subresource]`. An error when the
    /// log holds fewer lines than the mark (it was rotated: nothing after it would count).
    pub fn writes_since(
        &self,
        log: &Path,
        agents: &[&str],
        namespace: &str,
    ) -> anyhow::Result<(usize, BTreeMap<String, usize>)> {
        let text = std::fs::read_to_string(log).unwrap_or_default();
        let lines = text.lines().count();
        if lines < self.lines {
            anyhow::bail!(
                "the audit log {} has {lines} lines, fewer than the {} marked: it was rotated",
                log.display(),
                self.lines
            );
        }
        let mut by_kind = BTreeMap::new();
        let mut total = 0;
        for line in text.lines().skip(self.lines) {
            let Ok(event) = serde_json::from_str::<serde_json::Value>(line) else {
                continue;
            };
            let agent = event["userAgent"].as_str().unwrap_or_default();
            if !agents.iter().any(|a| agent.contains(a)) || event["objectRef"]["namespace"] != namespace {
                continue;
            }
            let sub = event["objectRef"]["subresource"]
                .as_str()
                .map(|s| format!("/{s}"))
                .unwrap_or_default();
            let key = format!(
                "{} {}{sub}",
                event["verb"].as_str().unwrap_or_default(),
                event["objectRef"]["resource"].as_str().unwrap_or_default()
            );
            *by_kind.entry(key).or_insert(0) += 1;
            total += 1;
        }
        Ok((total, by_kind))
    }
}

/// What `ps` would say about a process: peak and current RSS, CPU seconds.
#[derive(Debug, Clone, Copy, Default)]
pub struct Usage {
    pub peak_rss_mib: f64,
    pub rss_mib: f64,
    pub cpu_seconds: f64,
}

pub fn usage(pid: u32) -> Usage {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    let kib = |field: &str| -> f64 {
        status
            .lines()
            .find(|l| l.starts_with(field))
            .and_then(|l| l.split_whitespace().nth(1))
            .and_then(|v| v.parse::<f64>().ok())
            .unwrap_or(0.0)
    };
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    // Fields after the command (which may hold spaces): state is field 3, utime 14, stime 15.
    let after = stat.rsplit_once(')').map(|(_, rest)| rest).unwrap_or_default();
    let fields: Vec<&str> = after.split_whitespace().collect();
    let ticks = |i: usize| fields.get(i).and_then(|v| v.parse::<f64>().ok()).unwrap_or(0.0);
    Usage {
        peak_rss_mib: kib("VmHWM:") / 1024.0,
        rss_mib: kib("VmRSS:") / 1024.0,
        // utime and stime are fields 14 and 15, i.e. 11 and 12 after the state (field 3).
        cpu_seconds: (ticks(11) + ticks(12)) / clock_ticks(),
    }
}

/// Clock ticks per second (asked once).
fn clock_ticks() -> f64 {
    static TICKS: std::sync::OnceLock<f64> = std::sync::OnceLock::new();
    *TICKS.get_or_init(|| {
        Command::new("getconf")
            .arg("CLK_TCK")
            .output()
            .ok()
            .and_then(|o| String::from_utf8_lossy(&o.stdout).trim().parse().ok())
            .unwrap_or(100.0)
    })
}

/// `kubectl kruise run` (all namespaces of the plane), killed on drop.
pub struct Controller {
    child: Child,
    /// `perf record` on the controller when `KRUISE_BENCH_PERF` names a directory.
    profiler: Option<Child>,
    metrics_port: u16,
    pub started: Instant,
}

impl Controller {
    /// `kubectl kruise run --controllers CONTROLLER` (`CloneSet`, `DaemonSet`).
    pub fn start(plane: &Plane, qps: u32, burst: u32, controller: &str) -> Result<Controller> {
        let metrics_port = std::net::TcpListener::bind("127.0.0.1:0")?.local_addr()?.port();
        // Outside the run directory, which `testenv down` removes: kept for a look afterwards.
        let log = std::env::temp_dir().join(format!("kruise-bench-run-{metrics_port}.log"));
        eprintln!("  kubectl kruise run: log {}", log.display());
        let started = Instant::now();
        let child = Command::new(CLI)
            .args(["run", "--leader-elect=false", "--controllers", controller])
            .arg(format!("--metrics-addr=127.0.0.1:{metrics_port}"))
            .arg(format!("--qps={qps}"))
            .arg(format!("--burst={burst}"))
            .arg("--kubeconfig")
            .arg(&plane.kubeconfig)
            .env("RUST_LOG", "kubectl_kruise=debug,warn")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(std::fs::File::create(&log)?)
            .spawn()
            .context("starting kubectl kruise run")?;
        let profiler = std::env::var_os("KRUISE_BENCH_PERF")
            .map(|dir| profile(child.id(), Path::new(&dir), metrics_port))
            .transpose()?;
        let controller = Controller {
            child,
            profiler,
            metrics_port,
            started,
        };
        let deadline = Instant::now() + Duration::from_secs(30);
        while controller.metrics().is_none() {
            if Instant::now() > deadline {
                bail!("run did not serve metrics; see {}", log.display());
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        Ok(controller)
    }

    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    fn metrics(&self) -> Option<BTreeMap<String, f64>> {
        let text = local_get(self.metrics_port, "/metrics")?;
        let (_, body) = text.split_once("\r\n\r\n")?;
        Some(kubectl_kruise::runtime::metrics::parse(body))
    }

    /// Writes sent so far, by our client's own counter.
    pub fn writes(&self) -> f64 {
        self.metrics()
            .and_then(|m| m.get("kruise_api_writes_total").copied())
            .unwrap_or(0.0)
    }
}

/// `perf record` of `pid` into `DIR/perf-PORT.data` (call graphs, 199 Hz), for a look at
/// where the controller's CPU goes (`perf report -i ...`).
fn profile(pid: u32, dir: &Path, port: u16) -> Result<Child> {
    let out = dir.join(format!("perf-{port}.data"));
    eprintln!("  profiling the controller into {}", out.display());
    Command::new("perf")
        .args(["record", "-F", "199", "-g", "-p", &pid.to_string(), "-o"])
        .arg(&out)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .context("starting perf record")
}

impl Drop for Controller {
    fn drop(&mut self) {
        if let Some(mut profiler) = self.profiler.take() {
            // perf writes its data on SIGINT.
            let _ = Command::new("kill")
                .args(["-INT", &profiler.id().to_string()])
                .status();
            let _ = profiler.wait();
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The whole HTTP/1.1 response (status line, headers, body) of `GET path` on a local
/// `port`, if it answers within 5 s.
pub fn local_get(port: u16, path: &str) -> Option<String> {
    use std::io::{Read, Write};
    let mut stream = std::net::TcpStream::connect(("127.0.0.1", port)).ok()?;
    stream.set_read_timeout(Some(Duration::from_secs(5))).ok()?;
    let request = format!("GET {path} HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n");
    stream.write_all(request.as_bytes()).ok()?;
    let mut text = String::new();
    stream.read_to_string(&mut text).ok()?;
    Some(text)
}
