//! Test harness shared by every integration test: one real control plane per test run,
//! one namespace per test.
//!
//! - If `KRUISE_TESTENV_KUBECONFIG` is set (CI and `tests/run` set it), that control
//!   plane is used.
//! - Otherwise the harness takes a file lock (so parallel test binaries agree), reuses the
//!   control plane in the default run directory if it answers, or builds and starts one
//!   there (`tests/testenv/build.sh`, then `kubectl kruise testenv up`). It stays up for
//!   the next run; `kubectl kruise testenv down` stops it.
//! - If the control plane cannot be started or reached, the test FAILS with the reason
//!   and the components' log tails. Nothing here skips.
#![allow(dead_code)]

pub mod chaos;
pub mod clonesets;
pub mod controller;
pub mod diffs;
pub mod manifests;
pub mod nodes;
pub mod pods;
pub mod terminal;
pub mod webhooks;

use std::fs::OpenOptions;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::{Duration, Instant};

use k8s_openapi::api::core::v1::Namespace;
use kube::api::{Api, DeleteParams, PostParams};
use kube::{Client, Resource};
use serde::de::DeserializeOwned;

pub const CLI: &str = env!("CARGO_BIN_EXE_kubectl-kruise");
pub const REPO: &str = env!("CARGO_MANIFEST_DIR");

/// The admin kubeconfig of the control plane this test run uses (started on first use).
pub fn kubeconfig() -> &'static Path {
    static PATH: OnceLock<PathBuf> = OnceLock::new();
    PATH.get_or_init(|| match std::env::var_os("KRUISE_TESTENV_KUBECONFIG") {
        Some(path) => PathBuf::from(path),
        None => start_or_reuse(),
    })
}

fn start_or_reuse() -> PathBuf {
    let run_dir = kubectl_kruise::testenv::control::default_run_dir();
    let lock_path = run_dir.with_extension("lock");
    let lock = OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&lock_path)
        .unwrap_or_else(|e| panic!("cannot open the testenv lock {}: {e}", lock_path.display()));
    lock.lock()
        .unwrap_or_else(|e| panic!("cannot take the testenv lock {}: {e}", lock_path.display()));

    let bin_dir = control_plane_bin_dir();
    let up = Command::new(CLI)
        .args(["testenv", "up", "--bin-dir", &bin_dir, "--run-dir"])
        .arg(&run_dir)
        // Tests compare with the built-in StatefulSet and DaemonSet controllers.
        .arg("--builtin-workload-controllers")
        .output()
        .unwrap_or_else(|e| panic!("cannot run {CLI}: {e}"));
    assert!(
        up.status.success(),
        "the local control plane did not start ({}):\n{}",
        up.status,
        String::from_utf8_lossy(&up.stderr)
    );
    let stdout = String::from_utf8_lossy(&up.stdout);
    let path = stdout
        .lines()
        .find_map(|l| l.strip_prefix("export KRUISE_TESTENV_KUBECONFIG="))
        .unwrap_or_else(|| panic!("testenv up printed no kubeconfig: {stdout}"));
    drop(lock);
    PathBuf::from(path.trim())
}

/// Builds the Go components if needed (`tests/testenv/build.sh`) and returns their directory.
pub fn control_plane_bin_dir() -> String {
    let build = Command::new(Path::new(REPO).join("tests/testenv/build.sh"))
        .output()
        .unwrap_or_else(|e| panic!("cannot run tests/testenv/build.sh: {e}"));
    assert!(
        build.status.success(),
        "tests/testenv/build.sh failed ({}):\n{}",
        build.status,
        String::from_utf8_lossy(&build.stderr)
    );
    String::from_utf8_lossy(&build.stdout)
        .trim()
        .lines()
        .last()
        .unwrap_or_default()
        .to_string()
}

/// A client for the test control plane; fails the test if it cannot be reached.
pub async fn client() -> Client {
    let path = kubeconfig();
    let client = kubectl_kruise::testenv::client_for(path)
        .await
        .unwrap_or_else(|e| panic!("cannot build a client from {}: {e}", path.display()));
    if let Err(e) = client.apiserver_version().await {
        panic!(
            "the test control plane at {} does not answer: {e}",
            path.display()
        );
    }
    client
}

/// A namespace of the test's own (random suffix, label `testenv=1`), deleted on drop
/// without waiting: the namespace controller, GC and the simulated kubelet clean up.
pub struct TestNamespace {
    pub name: String,
    pub client: Client,
    /// The control plane's kubeconfig (the shared one unless made by [`Self::create_on`]).
    pub kubeconfig: PathBuf,
}

impl TestNamespace {
    pub async fn create(prefix: &str) -> Self {
        Self::create_on(client().await, kubeconfig(), prefix).await
    }

    /// A namespace on another control plane (a [`PrivateControlPlane`]).
    pub async fn create_on(client: Client, kubeconfig: &Path, prefix: &str) -> Self {
        static COUNTER: AtomicU32 = AtomicU32::new(0);
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.subsec_nanos())
            .unwrap_or(0);
        let suffix = format!(
            "{:x}{:x}{}",
            std::process::id() % 4096,
            nanos % 65536,
            COUNTER.fetch_add(1, Ordering::Relaxed)
        );
        let name = format!("{prefix}-{suffix}");
        let ns: Namespace = serde_json::from_value(serde_json::json!({
            "apiVersion": "v1", "kind": "Namespace",
            "metadata": { "name": name, "labels": { "testenv": "1" } },
        }))
        .expect("namespace literal is valid");
        Api::<Namespace>::all(client.clone())
            .create(&PostParams::default(), &ns)
            .await
            .unwrap_or_else(|e| panic!("cannot create namespace {name}: {e}"));
        TestNamespace {
            name,
            client,
            kubeconfig: kubeconfig.to_path_buf(),
        }
    }

    pub fn api<K>(&self) -> Api<K>
    where
        K: Resource<Scope = k8s_openapi::NamespaceResourceScope> + Clone + DeserializeOwned + std::fmt::Debug,
        K::DynamicType: Default,
    {
        Api::namespaced(self.client.clone(), &self.name)
    }
}

impl Drop for TestNamespace {
    fn drop(&mut self) {
        let name = self.name.clone();
        let kubeconfig = self.kubeconfig.clone();
        // Drop cannot await, and the test's client is bound to the test's runtime, which
        // this blocks: a short-lived thread with its own runtime and client sends the delete.
        let _ = std::thread::spawn(move || {
            let Ok(rt) = tokio::runtime::Builder::new_current_thread().enable_all().build() else {
                return;
            };
            rt.block_on(async {
                if let Ok(client) = kubectl_kruise::testenv::client_for(&kubeconfig).await {
                    let api: Api<Namespace> = Api::all(client);
                    let _ = api.delete(&name, &DeleteParams::background()).await;
                }
            });
        })
        .join();
    }
}

/// Polls `probe` every 100 ms until it returns `Some`, or fails the test after `timeout`
/// naming `what` and the last thing seen.
pub async fn wait_for<T, F, Fut>(what: &str, timeout: Duration, mut probe: F) -> T
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = Result<T, String>>,
{
    let start = Instant::now();
    loop {
        let last = match probe().await {
            Ok(value) => return value,
            Err(seen) => seen,
        };
        assert!(
            start.elapsed() < timeout,
            "timed out after {timeout:?} waiting for {what}; last seen: {last}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Parses a JSON literal into a typed object (test fixtures).
pub fn object<K: DeserializeOwned>(value: serde_json::Value) -> K {
    serde_json::from_value(value).expect("fixture literal is a valid object")
}

/// A control plane of the test's own, in a private run directory, stopped on drop. For
/// tests that change cluster-wide state others rely on (uninstalling CRDs, restarts).
pub struct PrivateControlPlane {
    pub run_dir: PathBuf,
    pub kubeconfig: PathBuf,
}

impl PrivateControlPlane {
    pub fn start(tag: &str) -> Self {
        Self::start_with(tag, &[])
    }

    /// `testenv up` with `extra` arguments (e.g. `--audit`).
    pub fn start_with(tag: &str, extra: &[&str]) -> Self {
        let run_dir = std::env::temp_dir().join(format!("kruise-private-{tag}-{}", std::process::id()));
        let bin_dir = control_plane_bin_dir();
        let up = Command::new(CLI)
            .args(["testenv", "up", "--bin-dir", &bin_dir, "--run-dir"])
            .arg(&run_dir)
            .args(extra)
            .output()
            .unwrap_or_else(|e| panic!("cannot run {CLI}: {e}"));
        assert!(
            up.status.success(),
            "private control plane {tag} did not start:\n{}",
            String::from_utf8_lossy(&up.stderr)
        );
        let kubeconfig = run_dir.join("admin.kubeconfig");
        PrivateControlPlane { run_dir, kubeconfig }
    }

    pub async fn client(&self) -> Client {
        kubectl_kruise::testenv::client_for(&self.kubeconfig)
            .await
            .unwrap_or_else(|e| panic!("client for {}: {e}", self.kubeconfig.display()))
    }
}

impl Drop for PrivateControlPlane {
    fn drop(&mut self) {
        if std::thread::panicking() {
            // The test failed: say what the control plane itself last logged (a component
            // that died takes the whole plane down, which a test sees only as refused
            // connections), before the run directory goes.
            for component in [
                "kube-apiserver",
                "etcd",
                "kube-controller-manager",
                "kube-scheduler",
                "supervisor",
            ] {
                let log = self.run_dir.join("logs").join(format!("{component}.log"));
                let Ok(text) = std::fs::read_to_string(&log) else {
                    continue;
                };
                let lines: Vec<&str> = text.lines().collect();
                let tail = lines[lines.len().saturating_sub(15)..].join("\n");
                eprintln!("-- {} (last 15 lines) --\n{tail}", log.display());
            }
        }
        let _ = Command::new(CLI)
            .args(["testenv", "down", "--run-dir"])
            .arg(&self.run_dir)
            .output();
    }
}

/// `base` with each top-level field of `extra` set (a test's spec over the default one).
pub fn merged(mut base: serde_json::Value, extra: serde_json::Value) -> serde_json::Value {
    if let (Some(base), Some(extra)) = (base.as_object_mut(), extra.as_object()) {
        for (k, v) in extra {
            base.insert(k.clone(), v.clone());
        }
    }
    base
}

/// `kubectl kruise ARGS -n NS` on the test's control plane, off the test's runtime thread;
/// (exit code, stdout, stderr).
pub async fn kruise_in(ns: &TestNamespace, args: &[&str]) -> (i32, String, String) {
    let mut all: Vec<String> = args.iter().map(|a| a.to_string()).collect();
    all.extend(["-n".to_string(), ns.name.clone()]);
    let kubeconfig = ns.kubeconfig.clone();
    tokio::task::spawn_blocking(move || {
        let refs: Vec<&str> = all.iter().map(String::as_str).collect();
        kruise(&kubeconfig, &refs)
    })
    .await
    .expect("kubectl-kruise")
}

/// PATH with our binary's directory first: kubectl finds it as its `kruise` plugin.
pub fn path_with_plugin() -> String {
    let dir = Path::new(CLI).parent().expect("binary directory");
    format!("{}:{}", dir.display(), std::env::var("PATH").unwrap_or_default())
}

/// Runs the system `kubectl` with our binary first on PATH.
pub fn kubectl(args: &[&str]) -> (i32, String, String) {
    let out = Command::new("kubectl")
        .args(args)
        .env("PATH", path_with_plugin())
        .output()
        .expect("kubectl is not installed (Debian package kubernetes-client); .ci/run installs it");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// `kubectl kruise ARGS -n NS --kubeconfig ...` through kubectl's plugin lookup, as users
/// call it; (exit code, stdout, stderr).
pub fn plugin(ns: &TestNamespace, args: &[&str]) -> (i32, String, String) {
    let kubeconfig = ns.kubeconfig.display().to_string();
    let mut all = vec!["kruise"];
    all.extend_from_slice(args);
    all.extend_from_slice(&["-n", &ns.name, "--kubeconfig", &kubeconfig]);
    kubectl(&all)
}

/// [`plugin`] off the async runtime's thread.
pub async fn plugin_in(ns: &TestNamespace, args: &[&str]) -> (i32, String, String) {
    let kubeconfig = ns.kubeconfig.display().to_string();
    let mut all: Vec<String> = std::iter::once("kruise")
        .chain(args.iter().copied())
        .map(str::to_string)
        .collect();
    all.extend(["-n".into(), ns.name.clone(), "--kubeconfig".into(), kubeconfig]);
    tokio::task::spawn_blocking(move || {
        let refs: Vec<&str> = all.iter().map(String::as_str).collect();
        kubectl(&refs)
    })
    .await
    .expect("kubectl")
}

/// Runs `kubectl-kruise ARGS --kubeconfig KUBECONFIG`; returns (exit code, stdout, stderr).
pub fn kruise(kubeconfig: &Path, args: &[&str]) -> (i32, String, String) {
    let out = Command::new(CLI)
        .args(args)
        .arg("--kubeconfig")
        .arg(kubeconfig)
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap_or_else(|e| panic!("cannot run {CLI}: {e}"));
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The resource of `kind` (`apiVersion`, lowercase plural).
fn resource(api_version: &str, kind: &str, plural: &str) -> kube::discovery::ApiResource {
    let (group, version) = api_version.split_once('/').expect("group/version");
    kube::discovery::ApiResource {
        group: group.into(),
        version: version.into(),
        api_version: api_version.into(),
        kind: kind.into(),
        plural: plural.into(),
    }
}

/// An API for `kind` (`apiVersion`, lowercase plural) in the namespace, read as untyped JSON.
pub fn dynamic_api(
    ns: &TestNamespace,
    api_version: &str,
    kind: &str,
    plural: &str,
) -> Api<kube::api::DynamicObject> {
    Api::namespaced_with(ns.client.clone(), &ns.name, &resource(api_version, kind, plural))
}

/// The API of a cluster-scoped `kind` (a SidecarSet), read as untyped JSON.
pub fn cluster_api(
    ns: &TestNamespace,
    api_version: &str,
    kind: &str,
    plural: &str,
) -> Api<kube::api::DynamicObject> {
    Api::all_with(ns.client.clone(), &resource(api_version, kind, plural))
}

/// The API of an apps.kruise.io `kind` at `version` in the test's namespace (plural: the
/// kind in lower case plus `s`, as every Kruise kind's is).
pub fn kruise_api(ns: &TestNamespace, kind: &str, version: &str) -> Api<kube::api::DynamicObject> {
    let plural = format!("{}s", kind.to_lowercase());
    dynamic_api(ns, &format!("apps.kruise.io/{version}"), kind, &plural)
}

/// A minimal CloneSet, Advanced StatefulSet or Advanced DaemonSet (`kind` at `version`;
/// the first two with no pods): its selector is `app: NAME`, its template's label
/// `app: APP` (another value: it misses).
pub fn kruise_workload(kind: &str, version: &str, name: &str, app: &str) -> kube::api::DynamicObject {
    let mut doc = serde_json::json!({
        "apiVersion": format!("apps.kruise.io/{version}"), "kind": kind,
        "metadata": { "name": name },
        "spec": {
            "replicas": 0,
            "selector": { "matchLabels": { "app": name } },
            "template": { "metadata": { "labels": { "app": app, "tier": "web" } },
                "spec": { "containers": [{ "name": "main", "image": "nginx:1.25" }] } },
        },
    });
    if kind == "StatefulSet" {
        doc["spec"]["serviceName"] = serde_json::json!(name);
    }
    if kind == "DaemonSet" {
        doc["spec"].as_object_mut().map(|spec| spec.remove("replicas"));
    }
    object(doc)
}

/// Sets the first container's image of any workload with a JSON patch (a merge patch of a
/// custom resource would replace the whole container list, volume mounts and all).
pub async fn set_first_image<K>(api: &kube::Api<K>, name: &str, image: &str)
where
    K: Resource + Clone + DeserializeOwned + std::fmt::Debug,
{
    let patch: json_patch::Patch = serde_json::from_value(serde_json::json!([
        { "op": "replace", "path": "/spec/template/spec/containers/0/image", "value": image }
    ]))
    .expect("patch");
    api.patch(
        name,
        &kube::api::PatchParams::default(),
        &kube::api::Patch::<()>::Json(patch),
    )
    .await
    .unwrap_or_else(|e| panic!("setting the image of {name}: {e}"));
}
