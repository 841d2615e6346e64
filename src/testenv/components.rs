//! Spawning the Go-built components and waiting until each is ready.
//!
//! Invariants: every component writes stdout and stderr to its own log in the run
//! directory; a component that exits while we wait for it is reported with its log
//! tail at once (no waiting out the timeout); children are killed when dropped
//! (`kill_on_drop`), so a supervisor that returns takes its components with it.
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::{Duration, Instant};

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::process::{Child, Command};

use super::{Error, log_tail};

/// A started component.
pub struct Component {
    pub name: String,
    pub log: PathBuf,
    pub child: Child,
    binary: PathBuf,
    args: Vec<String>,
}

impl Component {
    /// Starts `bin_dir/binary` with `args`, logging to `log`.
    pub fn spawn(name: &str, binary: &Path, args: &[String], log: &Path) -> Result<Self, Error> {
        let out = std::fs::File::create(log).map_err(|source| Error::Write {
            path: log.to_path_buf(),
            source,
        })?;
        Self::spawn_logging(name, binary, args, log, out)
    }

    /// Stops the component and starts it again with the same arguments, appending to its log.
    pub async fn restart(&mut self, grace: Duration) -> Result<(), Error> {
        self.stop(grace).await;
        let out = std::fs::OpenOptions::new()
            .append(true)
            .create(true)
            .open(&self.log)
            .map_err(|source| Error::Write {
                path: self.log.clone(),
                source,
            })?;
        let (name, binary, args, log) = (
            self.name.clone(),
            self.binary.clone(),
            self.args.clone(),
            self.log.clone(),
        );
        *self = Self::spawn_logging(&name, &binary, &args, &log, out)?;
        Ok(())
    }

    fn spawn_logging(
        name: &str,
        binary: &Path,
        args: &[String],
        log: &Path,
        out: std::fs::File,
    ) -> Result<Self, Error> {
        if !binary.is_file() {
            return Err(Error::MissingBinary(binary.to_path_buf()));
        }
        let err = out.try_clone().map_err(|source| Error::Write {
            path: log.to_path_buf(),
            source,
        })?;
        let child = Command::new(binary)
            .args(args)
            .stdin(Stdio::null())
            .stdout(out)
            .stderr(err)
            .kill_on_drop(true)
            .spawn()
            .map_err(|source| Error::Spawn {
                name: name.to_string(),
                source,
            })?;
        tracing::info!(component = name, pid = child.id(), "started");
        Ok(Component {
            name: name.to_string(),
            log: log.to_path_buf(),
            child,
            binary: binary.to_path_buf(),
            args: args.to_vec(),
        })
    }

    /// Fails with the log tail if the component has exited.
    pub fn check_alive(&mut self) -> Result<(), Error> {
        match self.child.try_wait() {
            Ok(Some(status)) => Err(self.exited(status.to_string())),
            Ok(None) => Ok(()),
            Err(e) => Err(self.exited(format!("wait failed: {e}"))),
        }
    }

    fn exited(&self, status: String) -> Error {
        Error::Exited {
            name: self.name.clone(),
            status,
            log: self.log.clone(),
            tail: log_tail(&self.log, 30),
        }
    }

    /// Polls `probe` every 200 ms until it returns true, the component exits, or `timeout`.
    pub async fn wait_ready<F, Fut>(&mut self, timeout: Duration, mut probe: F) -> Result<Duration, Error>
    where
        F: FnMut() -> Fut,
        Fut: std::future::Future<Output = bool>,
    {
        let start = Instant::now();
        loop {
            self.check_alive()?;
            if probe().await {
                tracing::info!(component = %self.name, elapsed = ?start.elapsed(), "ready");
                return Ok(start.elapsed());
            }
            if start.elapsed() > timeout {
                return Err(Error::NotReady {
                    name: self.name.clone(),
                    seconds: timeout.as_secs(),
                    log: self.log.clone(),
                    tail: log_tail(&self.log, 30),
                });
            }
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
    }

    /// Asks the component to stop (SIGTERM via `kill`), then kills it after `grace`.
    pub async fn stop(&mut self, grace: Duration) {
        if let Some(pid) = self.child.id() {
            let _ = Command::new("kill")
                .arg("-TERM")
                .arg(pid.to_string())
                .status()
                .await;
            if tokio::time::timeout(grace, self.child.wait()).await.is_ok() {
                return;
            }
        }
        let _ = self.child.kill().await;
    }
}

/// A loopback port that was free a moment ago.
pub fn free_port() -> Result<u16, Error> {
    let listener = TcpListener::bind("127.0.0.1:0").map_err(Error::Port)?;
    Ok(listener.local_addr().map_err(Error::Port)?.port())
}

/// Plain-HTTP GET on loopback; true when the answer is `200` (used for etcd's /health).
pub async fn http_ok(port: u16, path: &str) -> bool {
    let attempt = async {
        let mut stream = tokio::net::TcpStream::connect(("127.0.0.1", port)).await.ok()?;
        let request = format!("GET {path} HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n");
        stream.write_all(request.as_bytes()).await.ok()?;
        let mut answer = Vec::new();
        stream.read_to_end(&mut answer).await.ok()?;
        let text = String::from_utf8_lossy(&answer);
        Some(text.starts_with("HTTP/1.0 200") || text.starts_with("HTTP/1.1 200"))
    };
    matches!(
        tokio::time::timeout(Duration::from_secs(2), attempt).await,
        Ok(Some(true))
    )
}

/// True when the apiserver answers `/readyz` with `ok`.
pub async fn apiserver_ready(client: &kube::Client) -> bool {
    let Ok(request) = http::Request::get("/readyz").body(Vec::new()) else {
        return false;
    };
    let answer = tokio::time::timeout(Duration::from_secs(3), client.request_text(request)).await;
    matches!(answer, Ok(Ok(text)) if text.trim() == "ok")
}
