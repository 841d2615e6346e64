//! `testenv up | down | status`: start the supervisor detached, stop it, ask about it.
//!
//! Invariants: `up` returns only once `ready.json` exists (or fails with the
//! supervisor's log tail); `up` on a run directory whose control plane answers reuses it;
//! `down` leaves no process of the run behind (SIGTERM to the supervisor, which stops its
//! children; after a grace period SIGKILL to the whole process group) and removes the
//! run directory and the etcd data directory.
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::{Duration, Instant};

use super::components::apiserver_ready;
use super::{Error, ReadyState, RunDir, client_for, log_tail};

/// The run directory used when none is given: one per machine user, shared by the
/// `tests/testenv/up` script and the test harness, so either reuses the other's.
pub fn default_run_dir() -> PathBuf {
    if let Some(dir) = std::env::var_os("KRUISE_TESTENV_RUN_DIR") {
        return PathBuf::from(dir);
    }
    let user = std::env::var("USER").unwrap_or_else(|_| "user".to_string());
    std::env::temp_dir().join(format!("kubectl-kruise-testenv-{user}"))
}

#[derive(Debug, Clone)]
pub struct UpOptions {
    pub run_dir: RunDir,
    /// Arguments passed through to `testenv serve` (bin dir, node count, delays).
    pub serve_args: Vec<String>,
    pub timeout: Duration,
}

/// Starts a control plane in `run_dir` unless one already answers there.
pub async fn up(opts: &UpOptions) -> Result<ReadyState, Error> {
    let run = &opts.run_dir;
    if let Some(state) = running(run).await {
        tracing::info!(dir = %run.root.display(), "reusing the running control plane");
        return Ok(state);
    }
    // A stale run (crashed supervisor): clear it before starting anew.
    down(run).await?;
    let logs = run.logs_dir();
    std::fs::create_dir_all(&logs).map_err(|source| Error::Write {
        path: logs.clone(),
        source,
    })?;
    let log_path = run.log("supervisor");
    let log = std::fs::File::create(&log_path).map_err(|source| Error::Write {
        path: log_path.clone(),
        source,
    })?;
    let log_err = log.try_clone().map_err(|source| Error::Write {
        path: log_path.clone(),
        source,
    })?;
    let exe =
        std::env::current_exe().map_err(|e| Error::Other(format!("cannot find own executable: {e}")))?;
    let mut child = std::process::Command::new(exe)
        .args(["testenv", "serve", "--run-dir"])
        .arg(&run.root)
        .args(&opts.serve_args)
        .stdin(Stdio::null())
        .stdout(log)
        .stderr(log_err)
        .env(
            "RUST_LOG",
            std::env::var("RUST_LOG").unwrap_or_else(|_| "info,kube_client=off".into()),
        )
        .process_group(0)
        .spawn()
        .map_err(|source| Error::Spawn {
            name: "testenv supervisor".into(),
            source,
        })?;
    let started = Instant::now();
    loop {
        if let Ok(state) = ReadyState::read(run) {
            return Ok(state);
        }
        if let Ok(Some(status)) = child.try_wait() {
            return Err(Error::Exited {
                name: "testenv supervisor".into(),
                status: status.to_string(),
                log: log_path.clone(),
                tail: log_tail(&log_path, 40),
            });
        }
        if started.elapsed() > opts.timeout {
            let _ = down(run).await;
            return Err(Error::NotReady {
                name: "testenv supervisor".into(),
                seconds: opts.timeout.as_secs(),
                log: log_path.clone(),
                tail: log_tail(&log_path, 40),
            });
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

/// The state of the control plane in `run`, if its supervisor lives and the apiserver is ready.
pub async fn running(run: &RunDir) -> Option<ReadyState> {
    let state = ReadyState::read(run).ok()?;
    if !alive(state.supervisor_pid) {
        return None;
    }
    let client = client_for(&state.kubeconfig).await.ok()?;
    apiserver_ready(&client).await.then_some(state)
}

/// Stops the control plane in `run` (if any) and removes the run directory.
pub async fn down(run: &RunDir) -> Result<(), Error> {
    let etcd_data = ReadyState::read(run).ok().map(|s| s.etcd_data_dir);
    if let Some(pid) = read_pid(&run.pid_file()) {
        if alive(pid) {
            signal(&["-TERM", &pid.to_string()]);
            let deadline = Instant::now() + Duration::from_secs(30);
            while alive(pid) && Instant::now() < deadline {
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
        }
        // The supervisor leads its process group; anything left in it goes now.
        signal(&["-KILL", "--", &format!("-{pid}")]);
    }
    if let Some(dir) = etcd_data {
        let _ = std::fs::remove_dir_all(dir);
    }
    match std::fs::remove_dir_all(&run.root) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
        Err(source) => Err(Error::Write {
            path: run.root.clone(),
            source,
        }),
    }
}

/// Asks the supervisor in `run` to restart its kube-apiserver (SIGUSR1) and waits until it
/// reports the restarted one ready; returns the seconds that took.
pub async fn restart_apiserver(run: &RunDir, timeout: Duration) -> Result<f64, Error> {
    let state = running(run)
        .await
        .ok_or_else(|| Error::Other(format!("no control plane is running in {}", run.root.display())))?;
    let restarts = || read_pid(&run.apiserver_restarts()).unwrap_or(0);
    let before = restarts();
    let started = Instant::now();
    signal(&["-USR1", &state.supervisor_pid.to_string()]);
    while restarts() == before {
        if !alive(state.supervisor_pid) {
            return Err(Error::Other(format!(
                "the supervisor stopped while restarting the API server; see {}",
                run.log("supervisor").display()
            )));
        }
        if started.elapsed() > timeout {
            return Err(Error::NotReady {
                name: "kube-apiserver (restarted)".into(),
                seconds: timeout.as_secs(),
                log: run.log("kube-apiserver"),
                tail: log_tail(&run.log("kube-apiserver"), 30),
            });
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    Ok(started.elapsed().as_secs_f64())
}

fn read_pid(path: &Path) -> Option<u32> {
    std::fs::read_to_string(path).ok()?.trim().parse().ok()
}

/// True while process `pid` exists (and is not a zombie).
pub fn alive(pid: u32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        // Field 3 is the state; Z is a zombie that only waits for its parent to reap it.
        Ok(stat) => {
            stat.rsplit(')')
                .next()
                .and_then(|rest| rest.split_whitespace().next())
                != Some("Z")
        }
        Err(_) => std::process::Command::new("kill")
            .args(["-0", &pid.to_string()])
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success()),
    }
}

fn signal(args: &[&str]) {
    let _ = std::process::Command::new("kill")
        .args(args)
        .stderr(Stdio::null())
        .status();
}
