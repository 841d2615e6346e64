//! The contenders' objects and what a pod watcher sees of them: the same replicas, image
//! change, maxUnavailable and maxSurge for each, and an independent pod watch that records
//! updated-and-ready pods over time.
//!
//! Invariants:
//! - A pod counts as updated-ready only when its spec image and its running image (the
//!   container status) are the new image and it is Ready; the workload's own status is not
//!   trusted for the timeline.
//! - A rollout is done when N pods are updated-ready, no other pod of the workload is live,
//!   and the workload's status says so (so its last status write falls inside the window).
use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use anyhow::{Context as _, Result, bail};
use futures::StreamExt;
use k8s_openapi::api::core::v1::Pod;
use kube::api::{Api, DynamicObject, Patch, PatchParams, PostParams};
use kube::discovery::ApiResource;
use kube::runtime::{WatchStreamExt, watcher};
use kube::{Client, ResourceExt};
use serde_json::{Value, json};

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Contender {
    InPlace,
    Recreate,
    Deployment,
    /// B6: an Advanced DaemonSet updated in place, one pod per node.
    DaemonSetInPlace,
    /// B6: the built-in DaemonSet's rolling update.
    BuiltinDaemonSet,
    /// B8: a CloneSet updated in place by OpenKruise's own kruise-manager.
    KruiseManager,
}

impl Contender {
    pub const ALL: [Contender; 3] = [Contender::InPlace, Contender::Recreate, Contender::Deployment];
    /// The B6 contenders, ours first.
    pub const DAEMONS: [Contender; 2] = [Contender::DaemonSetInPlace, Contender::BuiltinDaemonSet];

    /// Whether `kubectl kruise run` drives it (else the plane's kube-controller-manager).
    pub fn ours(self) -> bool {
        !matches!(
            self,
            Contender::Deployment | Contender::BuiltinDaemonSet | Contender::KruiseManager
        )
    }

    /// Whether its replicas are nodes (one pod per node).
    pub fn per_node(self) -> bool {
        matches!(self, Contender::DaemonSetInPlace | Contender::BuiltinDaemonSet)
    }

    pub fn label(self) -> &'static str {
        match self {
            Contender::InPlace => "CloneSet InPlaceIfPossible",
            Contender::Recreate => "CloneSet ReCreate",
            Contender::Deployment => "Deployment RollingUpdate",
            Contender::DaemonSetInPlace => "Advanced DaemonSet InPlaceIfPossible",
            Contender::BuiltinDaemonSet => "DaemonSet RollingUpdate",
            Contender::KruiseManager => "CloneSet InPlaceIfPossible (kruise-manager)",
        }
    }

    /// User agents whose writes are this contender's controller's.
    pub fn agents(self) -> &'static [&'static str] {
        match self {
            Contender::KruiseManager => &["kruise-manager/"],
            c if c.ours() => &["kubectl-kruise/"],
            _ => &["kube-controller-manager/"],
        }
    }

    fn api(self, client: &Client, ns: &str) -> Api<DynamicObject> {
        let resource = match self {
            Contender::Deployment => ApiResource::erase::<k8s_openapi::api::apps::v1::Deployment>(&()),
            Contender::BuiltinDaemonSet => ApiResource::erase::<k8s_openapi::api::apps::v1::DaemonSet>(&()),
            Contender::DaemonSetInPlace => ApiResource::erase::<kubectl_kruise::api::DaemonSet>(&()),
            Contender::InPlace | Contender::Recreate | Contender::KruiseManager => {
                ApiResource::erase::<kubectl_kruise::api::CloneSet>(&())
            }
        };
        Api::namespaced_with(client.clone(), ns, &resource)
    }

    /// `kubectl kruise run` or the built-in controller manager.
    pub fn controller_name(self) -> &'static str {
        match self {
            Contender::KruiseManager => "kruise-manager",
            c if c.ours() => "kubectl kruise run",
            _ => "kube-controller-manager",
        }
    }

    /// The object: `replicas` pods of one container (a DaemonSet: one per node), maxUnavailable
    /// 10%, maxSurge 0.
    pub fn manifest(self, name: &str, replicas: usize, image: &str) -> Value {
        let template = json!({
            "metadata": { "labels": { "app": name } },
            "spec": { "containers": [ { "name": "app", "image": image } ] },
        });
        let selector = json!({ "matchLabels": { "app": name } });
        match self {
            Contender::Deployment => json!({
                "apiVersion": "apps/v1", "kind": "Deployment", "metadata": { "name": name },
                "spec": { "replicas": replicas, "selector": selector, "template": template,
                    "strategy": { "type": "RollingUpdate",
                        "rollingUpdate": { "maxUnavailable": "10%", "maxSurge": 0 } } },
            }),
            Contender::BuiltinDaemonSet => json!({
                "apiVersion": "apps/v1", "kind": "DaemonSet", "metadata": { "name": name },
                "spec": { "selector": selector, "template": template,
                    "updateStrategy": { "type": "RollingUpdate",
                        "rollingUpdate": { "maxUnavailable": "10%", "maxSurge": 0 } } },
            }),
            Contender::DaemonSetInPlace => json!({
                "apiVersion": "apps.kruise.io/v1alpha1", "kind": "DaemonSet", "metadata": { "name": name },
                "spec": { "selector": selector, "template": template,
                    "updateStrategy": { "type": "RollingUpdate",
                        "rollingUpdate": { "rollingUpdateType": "InPlaceIfPossible", "maxUnavailable": "10%" } } },
            }),
            Contender::InPlace | Contender::Recreate | Contender::KruiseManager => json!({
                "apiVersion": "apps.kruise.io/v1alpha1", "kind": "CloneSet", "metadata": { "name": name },
                "spec": { "replicas": replicas, "selector": selector, "template": template,
                    "updateStrategy": {
                        "type": if self == Contender::Recreate { "ReCreate" } else { "InPlaceIfPossible" },
                        "maxUnavailable": "10%", "maxSurge": 0 } },
            }),
        }
    }

    pub async fn create(
        self,
        client: &Client,
        ns: &str,
        name: &str,
        replicas: usize,
        image: &str,
    ) -> Result<()> {
        let object: DynamicObject = serde_json::from_value(self.manifest(name, replicas, image))?;
        self.api(client, ns)
            .create(&PostParams::default(), &object)
            .await
            .with_context(|| format!("creating {} {ns}/{name}", self.label()))?;
        Ok(())
    }

    pub async fn set_image(self, client: &Client, ns: &str, name: &str, image: &str) -> Result<()> {
        let patch =
            json!([ { "op": "replace", "path": "/spec/template/spec/containers/0/image", "value": image } ]);
        self.api(client, ns)
            .patch(
                name,
                &PatchParams::default(),
                &Patch::<Value>::Json(serde_json::from_value(patch)?),
            )
            .await
            .with_context(|| format!("setting the image of {ns}/{name}"))?;
        Ok(())
    }

    /// Whether the workload's own status says all `replicas` pods are updated and ready.
    pub async fn status_done(self, client: &Client, ns: &str, name: &str, replicas: usize) -> Result<bool> {
        Ok(self.done(&self.api(client, ns).get(name).await?, replicas))
    }

    /// Whether `count` workloads of the namespace are done (one LIST, not a GET each).
    pub async fn all_done(self, client: &Client, ns: &str, count: usize, replicas: usize) -> Result<bool> {
        let list = self.api(client, ns).list(&Default::default()).await?;
        Ok(list.items.len() == count && list.items.iter().all(|o| self.done(o, replicas)))
    }

    fn done(self, object: &DynamicObject, replicas: usize) -> bool {
        let status = &object.data["status"];
        let generation = object.metadata.generation.unwrap_or(0);
        let observed = status["observedGeneration"].as_i64().unwrap_or(-1) == generation;
        let n = replicas as i64;
        let count = |field: &str| status[field].as_i64().unwrap_or(0);
        if self.per_node() {
            return observed
                && count("desiredNumberScheduled") == n
                && count("updatedNumberScheduled") == n
                && count("numberAvailable") == n
                && count("currentNumberScheduled") == n;
        }
        let updated = match self {
            Contender::Deployment => "updatedReplicas",
            _ => "updatedReadyReplicas",
        };
        let ready = match self {
            Contender::Deployment => "availableReplicas",
            _ => "readyReplicas",
        };
        observed && count(updated) == n && count(ready) == n && count("replicas") == n
    }
}

/// One pod as the watcher last saw it.
#[derive(Debug, Clone)]
struct PodSeen {
    spec_image: String,
    running_image: String,
    ready: bool,
    deleting: bool,
}

fn seen(pod: &Pod) -> PodSeen {
    let spec_image = pod
        .spec
        .as_ref()
        .and_then(|s| s.containers.first())
        .and_then(|c| c.image.clone())
        .unwrap_or_default();
    let status = pod.status.as_ref();
    let running_image = status
        .and_then(|s| s.container_statuses.as_ref())
        .and_then(|cs| cs.first())
        .map(|c| c.image.clone())
        .unwrap_or_default();
    let ready = status
        .and_then(|s| s.conditions.as_ref())
        .is_some_and(|cs| cs.iter().any(|c| c.type_ == "Ready" && c.status == "True"));
    PodSeen {
        spec_image,
        running_image,
        ready,
        deleting: pod.metadata.deletion_timestamp.is_some(),
    }
}

/// What the watch has seen since the last `arm`.
#[derive(Default)]
struct Seen {
    pods: BTreeMap<String, PodSeen>,
    target: String,
    armed: Option<Instant>,
    /// (seconds since arm, updated-ready pods), one point per change.
    timeline: Vec<(f64, usize)>,
}

impl Seen {
    fn updated_ready(&self) -> usize {
        self.pods
            .values()
            .filter(|p| {
                !p.deleting && p.ready && p.spec_image == self.target && p.running_image == self.target
            })
            .count()
    }

    fn observe(&mut self, name: String, pod: Option<PodSeen>) {
        match pod {
            Some(pod) => self.pods.insert(name, pod),
            None => self.pods.remove(&name),
        };
        if let Some(armed) = self.armed {
            let now = self.updated_ready();
            if self.timeline.last().map(|(_, n)| *n) != Some(now) {
                self.timeline.push((armed.elapsed().as_secs_f64(), now));
            }
        }
    }
}

/// An independent watch of the pods of a namespace (all workloads in it).
pub struct PodWatch {
    seen: Arc<Mutex<Seen>>,
    task: tokio::task::JoinHandle<()>,
}

impl PodWatch {
    pub fn start(client: &Client, ns: &str, selector: Option<&str>) -> PodWatch {
        let api: Api<Pod> = Api::namespaced(client.clone(), ns);
        let seen = Arc::new(Mutex::new(Seen::default()));
        let into = seen.clone();
        let mut config = watcher::Config::default();
        if let Some(selector) = selector {
            config = config.labels(selector);
        }
        let task = tokio::spawn(async move {
            let mut events = watcher(api, config).default_backoff().boxed();
            while let Some(event) = events.next().await {
                let mut seen = into.lock().unwrap_or_else(|e| e.into_inner());
                match event {
                    Ok(watcher::Event::Apply(pod) | watcher::Event::InitApply(pod)) => {
                        seen.observe(pod.name_any(), Some(self::seen(&pod)));
                    }
                    Ok(watcher::Event::Delete(pod)) => seen.observe(pod.name_any(), None),
                    _ => {}
                }
            }
        });
        PodWatch { seen, task }
    }

    fn with<T>(&self, f: impl FnOnce(&mut Seen) -> T) -> T {
        f(&mut self.seen.lock().unwrap_or_else(|e| e.into_inner()))
    }

    /// Starts a new timeline towards `image`, with the clock at zero now.
    pub fn arm(&self, image: &str) {
        self.with(|s| {
            s.target = image.to_string();
            s.armed = Some(Instant::now());
            s.timeline = vec![(0.0, s.updated_ready())];
        });
    }

    pub fn updated_ready(&self) -> usize {
        self.with(|s| s.updated_ready())
    }

    pub fn total(&self) -> usize {
        self.with(|s| s.pods.len())
    }

    pub fn timeline(&self) -> Vec<(f64, usize)> {
        self.with(|s| s.timeline.clone())
    }
}

impl Drop for PodWatch {
    fn drop(&mut self) {
        self.task.abort();
    }
}

/// Polls `done` every 100 ms until it holds, failing after `timeout` with `what`.
pub async fn until<F, Fut>(what: &str, timeout: Duration, mut done: F) -> Result<()>
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = Result<bool>>,
{
    let deadline = Instant::now() + timeout;
    loop {
        if done().await.unwrap_or(false) {
            return Ok(());
        }
        if Instant::now() > deadline {
            bail!("timed out after {timeout:?} waiting for {what}");
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Creates namespace `name`.
pub async fn namespace(client: &Client, name: &str) -> Result<()> {
    use k8s_openapi::api::core::v1::Namespace;
    let api: Api<Namespace> = Api::all(client.clone());
    let ns: Namespace = serde_json::from_value(json!({ "metadata": { "name": name } }))?;
    api.create(&PostParams::default(), &ns).await?;
    Ok(())
}

/// Deletes namespace `name` and waits until it and its pods are gone, so the next phase
/// does not share the plane with them.
pub async fn delete_namespace(client: &Client, name: &str) -> Result<()> {
    use k8s_openapi::api::core::v1::Namespace;
    let api: Api<Namespace> = Api::all(client.clone());
    let _ = api.delete(name, &Default::default()).await;
    until(
        &format!("namespace {name} to go"),
        Duration::from_secs(600),
        || async { Ok(api.get_opt(name).await?.is_none()) },
    )
    .await
}

/// Every pod change of a namespace, by the `app` label, as it was seen: for latencies of
/// many workloads at once.
pub struct EventLog {
    events: Arc<Mutex<Vec<PodEvent>>>,
    task: tokio::task::JoinHandle<()>,
}

#[derive(Debug, Clone)]
pub struct PodEvent {
    pub at: Instant,
    pub app: String,
    pub pod: String,
    pub ready: bool,
    pub running_image: String,
    pub spec_image: String,
    /// Marked for deletion or gone.
    pub leaving: bool,
}

impl EventLog {
    pub fn start(client: &Client, ns: &str) -> EventLog {
        let api: Api<Pod> = Api::namespaced(client.clone(), ns);
        let events = Arc::new(Mutex::new(Vec::new()));
        let into = events.clone();
        let task = tokio::spawn(async move {
            let mut stream = watcher(api, watcher::Config::default()).default_backoff().boxed();
            while let Some(event) = stream.next().await {
                let (pod, gone) = match event {
                    Ok(watcher::Event::Apply(pod)) => (pod, false),
                    Ok(watcher::Event::Delete(pod)) => (pod, true),
                    _ => continue,
                };
                let now = seen(&pod);
                let app = pod.labels().get("app").cloned().unwrap_or_default();
                into.lock().unwrap_or_else(|e| e.into_inner()).push(PodEvent {
                    at: Instant::now(),
                    app,
                    pod: pod.name_any(),
                    ready: now.ready,
                    running_image: now.running_image.clone(),
                    spec_image: now.spec_image,
                    leaving: gone || now.deleting,
                });
            }
        });
        EventLog { events, task }
    }

    /// Seconds from `since` to the first change of a pod of `app` towards `image` (its
    /// spec image set to it, or an old pod leaving), if any.
    pub fn first_action(&self, app: &str, image: &str, since: Instant) -> Option<f64> {
        let events = self.events.lock().unwrap_or_else(|e| e.into_inner());
        events
            .iter()
            .find(|e| e.at >= since && e.app == app && (e.spec_image == image || e.leaving))
            .map(|e| e.at.duration_since(since).as_secs_f64())
    }
}

impl EventLog {
    /// The pod changes of `app` from `since` on, one line each (for a look at outliers).
    pub fn trace(&self, app: &str, since: Instant) -> Vec<String> {
        let events = self.events.lock().unwrap_or_else(|e| e.into_inner());
        events
            .iter()
            .filter(|e| e.app == app && e.at + Duration::from_secs(5) >= since)
            .map(|e| {
                let t = if e.at >= since {
                    e.at.duration_since(since).as_secs_f64()
                } else {
                    -since.duration_since(e.at).as_secs_f64()
                };
                format!(
                    "{t:+.3}s {} ready={} spec={} running={} leaving={}",
                    e.pod, e.ready, e.spec_image, e.running_image, e.leaving
                )
            })
            .collect()
    }
}

impl Drop for EventLog {
    fn drop(&mut self) {
        self.task.abort();
    }
}
