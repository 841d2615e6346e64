//! B8's rival: OpenKruise's kruise-manager at the release pinned in
//! `tests/bench/kruise-manager/go.mod`, built from its Go module by `build.sh` there and
//! started outside the cluster against a plane of its own: OpenKruise's CRDs (never ours),
//! its namespace, its two webhook configurations (OpenKruise's manifests under the names
//! its install gives them) and the conversion webhook its multi-version CRDs use (a
//! v1alpha1 CloneSet is stored as v1beta1: without it, `InPlaceIfPossible` is lost and
//! every pod is recreated); the manager points them all at its local address and writes
//! its certificates into a directory of the run. Its client QPS is ours.
//!
//! Invariants: it runs only on a plane prepared by [`prepare`]; it is killed on drop; it
//! counts as started once its `/readyz` answers (its webhooks and caches are up).
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use anyhow::{Context as _, Result, bail};
use kube::api::{Api, DynamicObject, PostParams};
use kube::discovery::ApiResource;
use serde_json::{Value, json};

use crate::plane::Plane;

/// Where its webhook configurations point the API server (a name its certificate holds).
const HOST: &str = "localhost";
const NAMESPACE: &str = "kruise-system";

/// The directory of the built kruise-manager (`build.sh`, cached after the first build).
pub fn bin_dir() -> Result<PathBuf> {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/bench/kruise-manager/build.sh");
    let out = Command::new("bash")
        .arg(script)
        .stderr(Stdio::inherit())
        .output()
        .context("running tests/bench/kruise-manager/build.sh")?;
    if !out.status.success() {
        bail!("building kruise-manager failed (see above)");
    }
    let dir = String::from_utf8_lossy(&out.stdout)
        .lines()
        .last()
        .unwrap_or_default()
        .to_string();
    Ok(PathBuf::from(dir))
}

/// Prepares `plane` for kruise-manager: OpenKruise's CRDs, its namespace, its webhook
/// configurations.
pub async fn prepare(plane: &Plane, bin: &Path) -> Result<()> {
    let applied = Command::new("kubectl")
        .args(["apply", "--server-side", "--force-conflicts", "-f"])
        .arg(bin.join("crd"))
        .arg("--kubeconfig")
        .arg(&plane.kubeconfig)
        .output()
        .context("kubectl apply of OpenKruise's CRDs")?;
    if !applied.status.success() {
        bail!("OpenKruise's CRDs: {}", String::from_utf8_lossy(&applied.stderr));
    }
    // Its install converts between served versions through its webhook (v1alpha1 CloneSets
    // are stored as v1beta1): the CRDs of several versions ask for it; the manager fills in
    // where and with which CA.
    use k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition;
    let crds: Api<CustomResourceDefinition> = Api::all(plane.client.clone());
    let conversion = json!({ "spec": { "conversion": { "strategy": "Webhook", "webhook": {
        "conversionReviewVersions": ["v1", "v1beta1"],
        "clientConfig": { "service": { "namespace": NAMESPACE, "name": "kruise-webhook-service", "path": "/convert" } } } } } });
    for crd in crds.list(&Default::default()).await?.items {
        if crd.spec.group.ends_with("kruise.io") && crd.spec.versions.len() > 1 {
            let name = crd.metadata.name.clone().unwrap_or_default();
            crds.patch(
                &name,
                &kube::api::PatchParams::default(),
                &kube::api::Patch::Merge(&conversion),
            )
            .await
            .with_context(|| format!("the conversion webhook of {name}"))?;
        }
    }
    let namespaces: Api<k8s_openapi::api::core::v1::Namespace> = Api::all(plane.client.clone());
    namespaces
        .create(
            &PostParams::default(),
            &serde_json::from_value(json!({ "metadata": { "name": NAMESPACE } }))?,
        )
        .await
        .context("namespace kruise-system")?;
    let text = std::fs::read_to_string(bin.join("webhook-manifests.yaml"))?;
    let docs: Vec<Value> = serde_saphyr::from_multiple(&text)?;
    for mut doc in docs.into_iter().filter(Value::is_object) {
        let kind = doc["kind"].as_str().unwrap_or_default().to_string();
        let name = doc["metadata"]["name"].as_str().unwrap_or_default().to_string();
        doc["metadata"]["name"] = json!(format!("kruise-{name}"));
        for webhook in doc["webhooks"].as_array_mut().into_iter().flatten() {
            let service = &mut webhook["clientConfig"]["service"];
            service["namespace"] = json!(NAMESPACE);
            service["name"] = json!("kruise-webhook-service");
        }
        let resource = ApiResource {
            group: "admissionregistration.k8s.io".into(),
            version: "v1".into(),
            api_version: "admissionregistration.k8s.io/v1".into(),
            plural: format!("{}s", kind.to_lowercase()),
            kind,
        };
        let api: Api<DynamicObject> = Api::all_with(plane.client.clone(), &resource);
        api.create(&PostParams::default(), &serde_json::from_value(doc)?)
            .await
            .with_context(|| format!("webhook configuration kruise-{name}"))?;
    }
    Ok(())
}

/// kruise-manager running against a prepared plane, killed on drop.
pub struct KruiseManager {
    child: Child,
    health_port: u16,
}

fn free_port() -> Result<u16> {
    Ok(std::net::TcpListener::bind("127.0.0.1:0")?.local_addr()?.port())
}

impl KruiseManager {
    /// Starts it with client `qps` and `burst`, as `kubectl kruise run` is.
    pub fn start(plane: &Plane, bin: &Path, qps: u32, burst: u32) -> Result<KruiseManager> {
        let (webhook, metrics, health) = (free_port()?, free_port()?, free_port()?);
        let certs = plane.run_dir.join("kruise-manager-certs");
        std::fs::create_dir_all(&certs)?;
        let log = std::env::temp_dir().join(format!("kruise-bench-manager-{health}.log"));
        eprintln!("  kruise-manager: log {}", log.display());
        let child = Command::new(bin.join("kruise-manager"))
            .arg("--enable-leader-election=false")
            .arg("--enable-pprof=false")
            .arg(format!("--metrics-addr=127.0.0.1:{metrics}"))
            .arg(format!("--health-probe-addr=127.0.0.1:{health}"))
            .arg(format!("--rest-config-qps={qps}"))
            .arg(format!("--rest-config-burst={burst}"))
            .env("KUBECONFIG", &plane.kubeconfig)
            .env("POD_NAMESPACE", NAMESPACE)
            .env("WEBHOOK_HOST", HOST)
            .env("WEBHOOK_PORT", webhook.to_string())
            .env("WEBHOOK_CERT_DIR", &certs)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(std::fs::File::create(&log)?)
            .spawn()
            .context("starting kruise-manager")?;
        let manager = KruiseManager {
            child,
            health_port: health,
        };
        let deadline = Instant::now() + Duration::from_secs(120);
        while !manager.ready() {
            if Instant::now() > deadline {
                bail!("kruise-manager was not ready in 120 s; see {}", log.display());
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        Ok(manager)
    }

    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    fn ready(&self) -> bool {
        crate::plane::local_get(self.health_port, "/readyz").is_some_and(|r| r.starts_with("HTTP/1.1 200"))
    }
}

impl Drop for KruiseManager {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
