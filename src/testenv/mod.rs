//! The local control plane: a real etcd, kube-apiserver, kube-controller-manager and
//! kube-scheduler (compiled from Go modules by `tests/testenv/build.sh`), simulated nodes,
//! a simulated kubelet and a fake volume provisioner, all on 127.0.0.1.
//!
//! ```text
//!  testenv up ──spawns──> supervisor (own process group, `testenv serve`)
//!                           ├─ etcd            (data on tmpfs)
//!                           ├─ kube-apiserver  (TLS, RBAC, admin = system:masters)
//!                           ├─ kube-controller-manager, kube-scheduler
//!                           ├─ simulated kubelet  (tokio tasks: pods + nodes)
//!                           └─ fake provisioner   (one PV per PVC, pre-bound)
//!  testenv down ─SIGTERM──> supervisor stops every child, then the run directory goes
//! ```
//!
//! Invariants: everything lives in one run directory (plus the etcd data directory on
//! tmpfs that the run directory's state file names); the supervisor is the only parent of
//! the components and takes them down with it; `ready.json` appears only once the
//! canary pod has become Ready, so whoever sees it may use the cluster at once.

pub mod components;
pub mod control;
pub mod kubelet;
pub mod nodes;
pub mod pki;
pub mod provisioner;
pub mod supervisor;

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

/// Label on every simulated Node; the simulated kubelet serves only pods on such nodes.
pub const SIMULATED_NODE_LABEL: &str = "kubectl-kruise.io/simulated";
/// Prefix of the per-pod annotations that tune the simulated kubelet.
pub const SIM_ANNOTATION_PREFIX: &str = "sim.kubectl-kruise.io/";
/// The environment variable that hands a running control plane's kubeconfig to tests.
pub const KUBECONFIG_ENV: &str = "KRUISE_TESTENV_KUBECONFIG";
/// Field manager of every write the test environment makes.
pub const FIELD_MANAGER: &str = "kubectl-kruise-testenv";

#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error("cannot generate certificates: {0}")]
    Certificate(#[source] rcgen::Error),
    #[error("cannot write {path}: {source}")]
    Write { path: PathBuf, source: std::io::Error },
    #[error("cannot read {path}: {source}")]
    Read { path: PathBuf, source: std::io::Error },
    #[error("binary {0} not found; run tests/testenv/build.sh first (or pass --bin-dir)")]
    MissingBinary(PathBuf),
    #[error("cannot start {name}: {source}")]
    Spawn { name: String, source: std::io::Error },
    #[error("{name} exited before it was ready ({status}); last lines of {log}:\n{tail}")]
    Exited {
        name: String,
        status: String,
        log: PathBuf,
        tail: String,
    },
    #[error("{name} was not ready after {seconds}s; last lines of {log}:\n{tail}")]
    NotReady {
        name: String,
        seconds: u64,
        log: PathBuf,
        tail: String,
    },
    #[error("no free loopback port: {0}")]
    Port(#[source] std::io::Error),
    #[error("kubernetes client: {0}")]
    Kube(#[from] kube::Error),
    #[error("kubeconfig {path}: {message}")]
    Kubeconfig { path: PathBuf, message: String },
    #[error("no control plane is running in {0}")]
    NotRunning(PathBuf),
    #[error("state file {path} is unreadable: {source}")]
    State {
        path: PathBuf,
        source: serde_json::Error,
    },
    #[error("{0}")]
    Other(String),
}

impl Error {
    /// A short stable reason, for logs and metrics.
    pub fn reason(&self) -> &'static str {
        match self {
            Error::Certificate(_) => "Certificate",
            Error::Write { .. } => "Write",
            Error::Read { .. } => "Read",
            Error::MissingBinary(_) => "MissingBinary",
            Error::Spawn { .. } => "Spawn",
            Error::Exited { .. } => "Exited",
            Error::NotReady { .. } => "NotReady",
            Error::Port(_) => "Port",
            Error::Kube(_) => "Kube",
            Error::Kubeconfig { .. } => "Kubeconfig",
            Error::NotRunning(_) => "NotRunning",
            Error::State { .. } => "State",
            Error::Other(_) => "Other",
        }
    }
}

/// The files of one run directory.
#[derive(Debug, Clone)]
pub struct RunDir {
    pub root: PathBuf,
}

impl RunDir {
    pub fn new(root: impl Into<PathBuf>) -> Self {
        RunDir { root: root.into() }
    }
    pub fn kubeconfig(&self) -> PathBuf {
        self.root.join("admin.kubeconfig")
    }
    pub fn pki_dir(&self) -> PathBuf {
        self.root.join("pki")
    }
    pub fn logs_dir(&self) -> PathBuf {
        self.root.join("logs")
    }
    pub fn log(&self, component: &str) -> PathBuf {
        self.logs_dir().join(format!("{component}.log"))
    }
    pub fn ready_file(&self) -> PathBuf {
        self.root.join("ready.json")
    }
    pub fn pid_file(&self) -> PathBuf {
        self.root.join("supervisor.pid")
    }
    /// The API server's audit log (JSON lines; written with `--audit` only).
    pub fn audit_log(&self) -> PathBuf {
        self.logs_dir().join("audit.log")
    }
    pub fn audit_policy(&self) -> PathBuf {
        self.root.join("audit-policy.yaml")
    }
    /// How many times the API server was restarted on request (`testenv restart-apiserver`).
    pub fn apiserver_restarts(&self) -> PathBuf {
        self.root.join("apiserver-restarts")
    }
}

/// What `ready.json` records about a running control plane.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ReadyState {
    pub kubeconfig: PathBuf,
    pub server: String,
    pub supervisor_pid: u32,
    pub etcd_data_dir: PathBuf,
    pub kubernetes_version: String,
    pub nodes: Vec<String>,
    /// Seconds from the supervisor's start to the canary pod being Ready.
    pub start_seconds: f64,
}

impl ReadyState {
    pub fn read(run: &RunDir) -> Result<Self, Error> {
        let path = run.ready_file();
        let text = std::fs::read_to_string(&path).map_err(|source| Error::Read {
            path: path.clone(),
            source,
        })?;
        serde_json::from_str(&text).map_err(|source| Error::State { path, source })
    }
}

/// A kube client for the admin kubeconfig at `path`.
pub async fn client_for(path: &Path) -> Result<kube::Client, Error> {
    let bad = |message: String| Error::Kubeconfig {
        path: path.to_path_buf(),
        message,
    };
    let kubeconfig = kube::config::Kubeconfig::read_from(path).map_err(|e| bad(e.to_string()))?;
    let config = kube::Config::from_custom_kubeconfig(kubeconfig, &Default::default())
        .await
        .map_err(|e| bad(e.to_string()))?;
    Ok(kube::Client::try_from(config)?)
}

/// The last `lines` lines of a log file (for error messages).
pub fn log_tail(path: &Path, lines: usize) -> String {
    match std::fs::read_to_string(path) {
        Ok(text) => {
            let all: Vec<&str> = text.lines().collect();
            all[all.len().saturating_sub(lines)..].join("\n")
        }
        Err(e) => format!("(cannot read {}: {e})", path.display()),
    }
}
