//! The supervisor (`kubectl kruise testenv serve`): starts the components in order,
//! runs the simulated kubelet and provisioner in-process, writes `ready.json` once a
//! canary pod is Ready, and on SIGTERM/SIGINT (or a component dying) stops everything.
//! SIGUSR1 restarts the kube-apiserver (same port and etcd data) and counts the restart in
//! `apiserver-restarts` once the new one is ready.
//!
//! Order and readiness: PKI -> etcd (`/health`) -> kube-apiserver (`/readyz`) -> Nodes
//! -> controller-manager, scheduler, kubelet, provisioner -> canary pod Running + Ready.
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use k8s_openapi::api::core::v1::{Namespace, Pod};
use kube::api::{Api, DeleteParams, PostParams};
use serde_json::json;

use super::components::{Component, apiserver_ready, free_port, http_ok};
use super::kubelet::plan::Defaults;
use super::{Error, ReadyState, RunDir, client_for, kubelet, nodes, pki, provisioner};

/// The controllers kube-controller-manager runs. Benchmarks add the StatefulSet and
/// DaemonSet controllers to compare against them.
pub const BASE_CONTROLLERS: &[&str] = &[
    "garbage-collector-controller",
    "namespace-controller",
    "job-controller",
    "deployment-controller",
    "replicaset-controller",
    "persistentvolume-binder-controller",
    "persistentvolumeclaim-protection-controller",
    "persistentvolume-protection-controller",
    // Every namespace gets its `default` ServiceAccount and its `kube-root-ca.crt`, as on
    // a real cluster (OpenKruise's e2e framework waits for both).
    "serviceaccount-controller",
    "root-ca-certificate-publisher-controller",
];
pub const COMPARISON_CONTROLLERS: &[&str] = &["statefulset-controller", "daemonset-controller"];

#[derive(Debug, Clone)]
pub struct ServeOptions {
    pub bin_dir: PathBuf,
    pub run_dir: RunDir,
    pub nodes: usize,
    /// The labels and taints of the simulated nodes.
    pub shape: super::nodes::Shape,
    pub defaults: Defaults,
    /// What the simulated registry knows of images.
    pub images: super::kubelet::plan::Images,
    /// Also run the built-in StatefulSet and DaemonSet controllers.
    pub builtin_workload_controllers: bool,
    /// Keep an audit log of every write (`RunDir::audit_log`).
    pub audit: bool,
}

/// Every write at metadata level (who, what, when, by which user agent); nothing else.
const AUDIT_POLICY: &str = "apiVersion: audit.k8s.io/v1
kind: Policy
omitStages: [\"RequestReceived\"]
rules:
- level: Metadata
  verbs: [\"create\", \"update\", \"patch\", \"delete\", \"deletecollection\"]
- level: None
";

/// Runs the control plane in the foreground until a signal or a component failure.
pub async fn serve(opts: ServeOptions) -> Result<(), Error> {
    let started = Instant::now();
    let run = &opts.run_dir;
    for dir in [run.root.clone(), run.logs_dir(), run.pki_dir()] {
        std::fs::create_dir_all(&dir).map_err(|source| Error::Write {
            path: dir.clone(),
            source,
        })?;
    }
    write(&run.pid_file(), &std::process::id().to_string())?;
    // Handlers first: a signal that comes before them would kill the supervisor.
    let signals = Signals::new()?;
    let pki = pki::write_pki(&run.pki_dir())?;
    let etcd_data = etcd_data_dir(&run.root);
    let _ = std::fs::remove_dir_all(&etcd_data);

    let (etcd_port, peer_port, api_port) = (free_port()?, free_port()?, free_port()?);
    let bin = |name: &str| opts.bin_dir.join(name);
    let mut etcd = Component::spawn(
        "etcd",
        &bin("etcd"),
        &etcd_args(&etcd_data, etcd_port, peer_port),
        &run.log("etcd"),
    )?;
    etcd.wait_ready(Duration::from_secs(60), || http_ok(etcd_port, "/health"))
        .await?;

    let server = format!("https://127.0.0.1:{api_port}");
    let mut args = apiserver_args(&pki, etcd_port, api_port);
    if opts.audit {
        write(&run.audit_policy(), AUDIT_POLICY)?;
        args.push(format!("--audit-policy-file={}", run.audit_policy().display()));
        args.push(format!("--audit-log-path={}", run.audit_log().display()));
        args.push("--audit-log-format=json".into());
        // Never rotated: readers count lines from a mark in this one file. The default
        // rotates at 100 MB (a rollout of 10,000 pods writes more), and `0` only means
        // "never" from Kubernetes v1.36 on.
        args.push("--audit-log-maxsize=1000000".into());
    }
    let mut apiserver = Component::spawn(
        "kube-apiserver",
        &bin("kube-apiserver"),
        &args,
        &run.log("kube-apiserver"),
    )?;
    pki::write_kubeconfig(&run.kubeconfig(), &server, &pki)?;
    let client = client_for(&run.kubeconfig()).await?;
    apiserver
        .wait_ready(Duration::from_secs(90), || apiserver_ready(&client))
        .await?;
    let version = client.apiserver_version().await?.git_version;

    let node_names = nodes::create_nodes(&client, opts.nodes, &opts.shape).await?;
    let kubeconfig = run.kubeconfig().display().to_string();
    let mut controllers: Vec<&str> = BASE_CONTROLLERS.to_vec();
    if opts.builtin_workload_controllers {
        controllers.extend_from_slice(COMPARISON_CONTROLLERS);
    }
    let kcm = Component::spawn(
        "kube-controller-manager",
        &bin("kube-controller-manager"),
        &controller_manager_args(&kubeconfig, &controllers, &pki.ca_cert),
        &run.log("kube-controller-manager"),
    )?;
    let scheduler = Component::spawn(
        "kube-scheduler",
        &bin("kube-scheduler"),
        &scheduler_args(&kubeconfig),
        &run.log("kube-scheduler"),
    )?;
    let kubelet_task = tokio::spawn(kubelet::run(client.clone(), opts.defaults, opts.images.clone()));
    let provisioner_task = tokio::spawn(provisioner::run(client.clone()));
    let mut components = vec![etcd, apiserver, kcm, scheduler];

    let outcome = async {
        wait_for_canary(&client, &mut components).await?;
        let state = ReadyState {
            kubeconfig: run.kubeconfig(),
            server: server.clone(),
            supervisor_pid: std::process::id(),
            etcd_data_dir: etcd_data.clone(),
            kubernetes_version: version,
            nodes: node_names,
            start_seconds: started.elapsed().as_secs_f64(),
        };
        let text = serde_json::to_string_pretty(&state).map_err(|e| Error::Other(e.to_string()))?;
        write(&run.ready_file(), &text)?;
        tracing::info!(seconds = state.start_seconds, %server, "control plane ready");
        watch_until_stopped(&mut components, signals, &client, run).await
    }
    .await;

    kubelet_task.abort();
    provisioner_task.abort();
    let _ = std::fs::remove_file(run.ready_file());
    for component in components.iter_mut().rev() {
        component.stop(Duration::from_secs(10)).await;
    }
    let _ = std::fs::remove_dir_all(&etcd_data);
    outcome
}

/// etcd keeps its data on tmpfs when the machine has one: fsync-free and fast.
fn etcd_data_dir(run_root: &Path) -> PathBuf {
    let shm = Path::new("/dev/shm");
    if shm.is_dir() {
        let tag: String = run_root
            .display()
            .to_string()
            .chars()
            .map(|c| if c.is_alphanumeric() { c } else { '-' })
            .collect();
        shm.join(format!("kubectl-kruise-etcd{tag}"))
    } else {
        run_root.join("etcd")
    }
}

fn etcd_args(data: &Path, client: u16, peer: u16) -> Vec<String> {
    let client_url = format!("http://127.0.0.1:{client}");
    let peer_url = format!("http://127.0.0.1:{peer}");
    vec![
        "--name=testenv".into(),
        format!("--data-dir={}", data.display()),
        format!("--listen-client-urls={client_url}"),
        format!("--advertise-client-urls={client_url}"),
        format!("--listen-peer-urls={peer_url}"),
        format!("--initial-advertise-peer-urls={peer_url}"),
        format!("--initial-cluster=testenv={peer_url}"),
        "--unsafe-no-fsync".into(),
        "--log-level=warn".into(),
    ]
}

fn apiserver_args(pki: &pki::Pki, etcd_port: u16, port: u16) -> Vec<String> {
    let path = |p: &Path| p.display().to_string();
    vec![
        "--bind-address=127.0.0.1".into(),
        "--advertise-address=127.0.0.1".into(),
        format!("--secure-port={port}"),
        format!("--etcd-servers=http://127.0.0.1:{etcd_port}"),
        format!("--tls-cert-file={}", path(&pki.server_cert)),
        format!("--tls-private-key-file={}", path(&pki.server_key)),
        format!("--client-ca-file={}", path(&pki.ca_cert)),
        "--authorization-mode=RBAC".into(),
        "--service-account-issuer=https://kubernetes.default.svc.cluster.local".into(),
        format!(
            "--service-account-key-file={}",
            path(&pki.service_account_public_key)
        ),
        format!(
            "--service-account-signing-key-file={}",
            path(&pki.service_account_key)
        ),
        "--service-cluster-ip-range=10.96.0.0/16".into(),
        "--endpoint-reconciler-type=none".into(),
        "--disable-admission-plugins=ServiceAccount,TaintNodesByCondition".into(),
        // As hardened clusters (OpenShift) run it: a controller that makes an object block
        // its owner's deletion needs `update` on the owner's `finalizers`, which the
        // in-cluster manager's RBAC must therefore grant (tests/manager.rs shows it).
        "--enable-admission-plugins=OwnerReferencesPermissionEnforcement".into(),
        "--allow-privileged=true".into(),
        "--max-requests-inflight=1000".into(),
        "--max-mutating-requests-inflight=500".into(),
        "--profiling=false".into(),
        "--v=1".into(),
    ]
}

fn controller_manager_args(kubeconfig: &str, controllers: &[&str], ca: &Path) -> Vec<String> {
    vec![
        format!("--kubeconfig={kubeconfig}"),
        // What the root-ca-certificate-publisher publishes as `kube-root-ca.crt`.
        format!("--root-ca-file={}", ca.display()),
        "--leader-elect=false".into(),
        "--secure-port=0".into(),
        format!("--controllers={}", controllers.join(",")),
        "--kube-api-qps=200".into(),
        "--kube-api-burst=400".into(),
        "--v=1".into(),
    ]
}

fn scheduler_args(kubeconfig: &str) -> Vec<String> {
    vec![
        format!("--kubeconfig={kubeconfig}"),
        "--leader-elect=false".into(),
        "--secure-port=0".into(),
        "--v=1".into(),
    ]
}

const CANARY_NAMESPACE: &str = "testenv-canary";

/// A pod must go Pending -> bound -> Running + Ready: proves apiserver, scheduler and kubelet.
async fn wait_for_canary(client: &kube::Client, components: &mut [Component]) -> Result<(), Error> {
    let namespaces: Api<Namespace> = Api::all(client.clone());
    let ns = json!({ "apiVersion": "v1", "kind": "Namespace", "metadata": { "name": CANARY_NAMESPACE } });
    let ns: Namespace = serde_json::from_value(ns).map_err(|e| Error::Other(e.to_string()))?;
    match namespaces.create(&PostParams::default(), &ns).await {
        Ok(_) | Err(kube::Error::Api(_)) => {}
        Err(e) => return Err(e.into()),
    }
    let pods: Api<Pod> = Api::namespaced(client.clone(), CANARY_NAMESPACE);
    let pod = json!({
        "apiVersion": "v1", "kind": "Pod",
        "metadata": { "name": "canary" },
        "spec": { "containers": [ { "name": "main", "image": "registry.invalid/canary:1" } ] },
    });
    let pod: Pod = serde_json::from_value(pod).map_err(|e| Error::Other(e.to_string()))?;
    let _ = pods
        .delete("canary", &DeleteParams::default().grace_period(0))
        .await;
    let deadline = Instant::now() + Duration::from_secs(90);
    loop {
        match pods.create(&PostParams::default(), &pod).await {
            Ok(_) => break,
            Err(kube::Error::Api(s)) if Instant::now() < deadline => {
                tracing::debug!(reason = %s.message, "canary pod not created yet");
                tokio::time::sleep(Duration::from_millis(300)).await;
            }
            Err(e) => return Err(e.into()),
        }
    }
    loop {
        for component in components.iter_mut() {
            component.check_alive()?;
        }
        if let Ok(p) = pods.get("canary").await
            && is_running_ready(&p)
        {
            let _ = pods
                .delete("canary", &DeleteParams::default().grace_period(0))
                .await;
            return Ok(());
        }
        if Instant::now() > deadline {
            let logs: Vec<String> = components.iter().map(|c| c.log.display().to_string()).collect();
            return Err(Error::Other(format!(
                "canary pod {CANARY_NAMESPACE}/canary did not become Running and Ready in 90s; see {}",
                logs.join(", ")
            )));
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

pub fn is_running_ready(pod: &Pod) -> bool {
    let Some(status) = pod.status.as_ref() else {
        return false;
    };
    let ready = status
        .conditions
        .as_ref()
        .is_some_and(|cs| cs.iter().any(|c| c.type_ == "Ready" && c.status == "True"));
    status.phase.as_deref() == Some("Running") && ready
}

/// The signals the supervisor answers: TERM and INT stop it, USR1 restarts the API server.
struct Signals {
    term: tokio::signal::unix::Signal,
    interrupt: tokio::signal::unix::Signal,
    restart: tokio::signal::unix::Signal,
}

impl Signals {
    fn new() -> Result<Self, Error> {
        use tokio::signal::unix::{SignalKind, signal};
        let handler = |kind: SignalKind, name: &str| {
            signal(kind).map_err(|e| Error::Other(format!("{name} handler: {e}")))
        };
        Ok(Signals {
            term: handler(SignalKind::terminate(), "SIGTERM")?,
            interrupt: handler(SignalKind::interrupt(), "SIGINT")?,
            restart: handler(SignalKind::user_defined1(), "SIGUSR1")?,
        })
    }
}

/// How often the controller manager and the scheduler are brought back, in all.
const MAX_COMPONENT_RESTARTS: u32 = 5;

async fn watch_until_stopped(
    components: &mut [Component],
    mut signals: Signals,
    client: &kube::Client,
    run: &RunDir,
) -> Result<(), Error> {
    let mut tick = tokio::time::interval(Duration::from_secs(1));
    let mut restarts = 0u32;
    let mut crashes = 0u32;
    loop {
        tokio::select! {
            _ = signals.term.recv() => {
                tracing::info!("SIGTERM: stopping the control plane");
                return Ok(());
            }
            _ = signals.interrupt.recv() => {
                tracing::info!("SIGINT: stopping the control plane");
                return Ok(());
            }
            _ = signals.restart.recv() => {
                let Some(apiserver) = components.iter_mut().find(|c| c.name == "kube-apiserver") else {
                    continue;
                };
                tracing::info!("restarting kube-apiserver on request");
                apiserver.restart(Duration::from_secs(10)).await?;
                apiserver
                    .wait_ready(Duration::from_secs(90), || apiserver_ready(client))
                    .await?;
                restarts += 1;
                write(&run.apiserver_restarts(), &restarts.to_string())?;
            }
            _ = tick.tick() => {
                for component in components.iter_mut() {
                    let Err(error) = component.check_alive() else { continue };
                    // As a kubelet restarts a crashed static pod: the controller manager and
                    // the scheduler come back (either may exit while the API server is away
                    // for a restart); etcd or the API server going is fatal.
                    let restartable = matches!(component.name.as_str(), "kube-controller-manager" | "kube-scheduler");
                    if restartable && crashes < MAX_COMPONENT_RESTARTS {
                        crashes += 1;
                        tracing::warn!(%error, component = component.name, "component exited; restarting it");
                        component.restart(Duration::from_secs(10)).await?;
                        continue;
                    }
                    tracing::error!(%error, component = component.name, "component exited; stopping the control plane");
                    return Err(error);
                }
            }
        }
    }
}

fn write(path: &Path, text: &str) -> Result<(), Error> {
    std::fs::write(path, text).map_err(|source| Error::Write {
        path: path.to_path_buf(),
        source,
    })
}
