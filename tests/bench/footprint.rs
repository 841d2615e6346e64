//! B3/B4 (controller footprint while it brings up and rolls 100 workloads) and B5 (set
//! image to the first pod touched), for our controller and for kube-controller-manager
//! running the equivalent Deployments; B8, the same measures against OpenKruise's own
//! kruise-manager on CloneSets of a given shape (one of 1000 pods, 100 of 100). Each run
//! gets a fresh control plane, so a controller's peak RSS is its own for this run.
//!
//! Invariants:
//! - Both contenders manage the same 100 workloads of `pods / 100` replicas, see the same
//!   image change on each, paced the same.
//! - Idle writes are counted over a quiet period after everything is ready: the audit log
//!   (writes to the benchmark's namespace by the contender's user agent) and, for ours, our
//!   client's counter too.
use std::time::{Duration, Instant};

use anyhow::{Context as _, Result};
use futures::future::try_join_all;

use std::collections::BTreeMap;
use std::path::Path;

use crate::kruise_manager::{self, KruiseManager};
use crate::plane::{Audit, Controller, Plane, Sim, Usage, usage};
use crate::workloads::{Contender, EventLog, PodWatch, namespace, until};

pub const WORKLOADS: usize = 100;
pub const IDLE: Duration = Duration::from_secs(30);
/// Time between two workloads' image changes in B5.
pub const PACE: Duration = Duration::from_millis(100);

/// The workloads of a run: how many, of how many pods each.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Shape {
    pub workloads: usize,
    pub per: usize,
}

impl Shape {
    pub fn pods(self) -> usize {
        self.workloads * self.per
    }
}

impl std::fmt::Display for Shape {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} x {}", self.workloads, self.per)
    }
}

#[derive(Debug, Clone)]
pub struct Footprint {
    pub contender: Contender,
    pub pods: usize,
    pub shape: Shape,
    /// A B8 run (against kruise-manager), not B3/B4.
    pub b8: bool,
    /// Seconds from the moment the controller and the workloads both exist to every pod
    /// up and ready.
    pub ready_seconds: f64,
    /// Seconds from the first image change to every pod rolled.
    pub rollout_seconds: f64,
    /// The controller's writes to the namespace during the rollout (audit log), in all and
    /// by `verb resource[/subresource]`.
    pub rollout_writes: usize,
    pub rollout_writes_by: BTreeMap<String, usize>,
    /// The process before the workloads existed (kube-controller-manager runs many
    /// controllers; ours is started with the workloads already there, so it has none).
    pub baseline: Option<Usage>,
    /// After all pods were up and ready.
    pub settled: Usage,
    /// After the idle period that follows.
    pub idle: Usage,
    /// Heap bytes per pod as our pod cache holds it and as a store of parsed pods would
    /// (measured on this run's pods, in the benchmark's own process).
    pub cache: Option<CacheBytes>,
    /// After the image change of every workload was rolled out.
    pub rolled: Usage,
    /// From process start to its first pod created (ours only: the controller-manager is
    /// up before the API server has any workload).
    pub first_action: Option<f64>,
    pub idle_counted: Option<f64>,
    pub idle_audited: usize,
    /// B5: seconds from each workload's image change to its first pod touched.
    pub latencies: Vec<f64>,
}

pub async fn footprint(
    bin_dir: &str,
    sim: Sim,
    contender: Contender,
    pods: usize,
    run: usize,
) -> Result<Footprint> {
    let shape = Shape {
        workloads: WORKLOADS,
        per: pods / WORKLOADS,
    };
    measure(bin_dir, None, sim, contender, shape, run).await
}

/// B8: `contender` (ours or kruise-manager, built in `manager_bin`) on CloneSets of `shape`.
pub async fn b8(
    bin_dir: &str,
    manager_bin: &Path,
    sim: Sim,
    contender: Contender,
    shape: Shape,
    run: usize,
) -> Result<Footprint> {
    measure(bin_dir, Some(manager_bin), sim, contender, shape, run).await
}

async fn measure(
    bin_dir: &str,
    manager_bin: Option<&Path>,
    sim: Sim,
    contender: Contender,
    shape: Shape,
    run: usize,
) -> Result<Footprint> {
    let pods = shape.pods();
    let short = match contender {
        Contender::Deployment => "kcm",
        Contender::KruiseManager => "km",
        _ => "ours",
    };
    let b8 = manager_bin.is_some();
    let tag = format!(
        "{}-{short}-{}x{}-{run}",
        if b8 { "b8" } else { "b3" },
        shape.workloads,
        shape.per
    );
    let plane = match contender {
        Contender::KruiseManager => Plane::start_bare(bin_dir, &tag, sim).await?,
        _ => Plane::start(bin_dir, &tag, sim).await?,
    };
    let client = &plane.client;
    let ns = "b3";
    namespace(client, ns).await?;
    let per = shape.per;
    let names: Vec<String> = (0..shape.workloads).map(|i| format!("w{i:03}")).collect();
    let watch = PodWatch::start(client, ns, None);
    let events = EventLog::start(client, ns);
    let kcm = plane
        .controller_manager_pid()
        .context("no kube-controller-manager process")?;
    let baseline = (contender == Contender::Deployment).then(|| usage(kcm));
    // kruise-manager's webhooks judge the CloneSets as they are created: it starts first.
    let manager = match (contender, manager_bin) {
        (Contender::KruiseManager, Some(bin)) => {
            kruise_manager::prepare(&plane, bin).await?;
            Some(KruiseManager::start(&plane, bin, sim.qps, sim.burst)?)
        }
        (Contender::KruiseManager, None) => anyhow::bail!("kruise-manager runs only in B8"),
        _ => None,
    };
    try_join_all(
        names
            .iter()
            .map(|name| contender.create(client, ns, name, per, "registry.local/web:1")),
    )
    .await?;
    let (pid, controller, first_action, from) = match (contender, &manager) {
        (Contender::Deployment, _) => (kcm, None, None, Instant::now()),
        (_, Some(manager)) => (manager.pid(), None, None, Instant::now()),
        _ => {
            let controller = Controller::start(&plane, sim.qps, sim.burst, "CloneSet")?;
            let deadline = Instant::now() + Duration::from_secs(60);
            while watch.total() == 0 && Instant::now() < deadline {
                tokio::time::sleep(Duration::from_millis(5)).await;
            }
            let first = controller.started.elapsed().as_secs_f64();
            let from = controller.started;
            (controller.pid(), Some(controller), Some(first), from)
        }
    };
    let timeout = Duration::from_secs(300 + pods as u64 / 5);
    watch.arm("registry.local/web:1");
    until(&format!("{pods} pods ready"), timeout, || async {
        Ok(watch.updated_ready() == pods)
    })
    .await?;
    until("every workload's status", timeout, || {
        contender.all_done(client, ns, shape.workloads, per)
    })
    .await?;
    let ready_seconds = from.elapsed().as_secs_f64();
    let settled = usage(pid);
    let cache = match contender.ours() {
        true => Some(cache_bytes(client, ns).await?),
        false => None,
    };

    let audit = Audit::mark(&plane.audit_log());
    let counted_before = controller.as_ref().map(Controller::writes);
    tokio::time::sleep(IDLE).await;
    let idle = usage(pid);
    let (idle_audited, _) = audit.writes_since(&plane.audit_log(), contender.agents(), ns)?;
    let idle_counted = controller
        .as_ref()
        .zip(counted_before)
        .map(|(c, before)| c.writes() - before);

    let target = "registry.local/web:2";
    watch.arm(target);
    let rollout_audit = Audit::mark(&plane.audit_log());
    let rollout_from = Instant::now();
    let mut sent = Vec::new();
    for name in &names {
        let at = Instant::now();
        contender.set_image(client, ns, name, target).await?;
        sent.push((name.clone(), at));
        tokio::time::sleep(PACE).await;
    }
    until(&format!("{pods} pods rolled to {target}"), timeout, || async {
        Ok(watch.updated_ready() == pods && watch.total() == pods)
    })
    .await?;
    let rolled = usage(pid);
    let rollout_seconds = rollout_from.elapsed().as_secs_f64();
    // The last status writes land just after the pods: counted once the statuses say so.
    until("every workload's status after the rollout", timeout, || {
        contender.all_done(client, ns, shape.workloads, per)
    })
    .await?;
    let (rollout_writes, rollout_writes_by) =
        rollout_audit.writes_since(&plane.audit_log(), contender.agents(), ns)?;
    let latencies: Vec<f64> = sent
        .iter()
        .filter_map(|(name, at)| events.first_action(name, target, *at))
        .collect();
    if std::env::var_os("KRUISE_BENCH_TRACE").is_some() {
        let mut slowest: Vec<(f64, &String, Instant)> = sent
            .iter()
            .filter_map(|(name, at)| Some((events.first_action(name, target, *at)?, name, *at)))
            .collect();
        slowest.sort_by(|a, b| b.0.total_cmp(&a.0));
        for (latency, name, at) in slowest.iter().take(3) {
            eprintln!("  slow: {name} {latency:.3}s");
            for line in events.trace(name, *at).iter().take(40) {
                eprintln!("    {line}");
            }
        }
    }
    drop(controller);
    drop(manager);
    Ok(Footprint {
        contender,
        pods,
        shape,
        b8,
        ready_seconds,
        rollout_seconds,
        rollout_writes,
        rollout_writes_by,
        baseline,
        settled,
        idle,
        cache,
        rolled,
        first_action,
        idle_counted,
        idle_audited,
        latencies,
    })
}

/// Heap bytes per pod: the pod's JSON as served (less `managedFields`), a parsed `Pod` (what
/// a kube store holds) and our cache's record; and what a planning round pays per pod to
/// get its `Pod`s: a whole pod parsed from its JSON (what a round paid when the record kept
/// spec and status as text), or assembled from the record (microseconds, best of 5).
#[derive(Debug, Clone, Copy)]
pub struct CacheBytes {
    pub json: f64,
    pub parsed: f64,
    pub cached: f64,
    pub parse_micros: f64,
    pub assemble_micros: f64,
}

/// Lists the pods of `ns` and measures, with the counting allocator, what holding each of
/// them costs (see [`CacheBytes`]).
async fn cache_bytes(client: &kube::Client, ns: &str) -> Result<CacheBytes> {
    use k8s_openapi::api::core::v1::Pod;
    use kubectl_kruise::runtime::cached_pod::CachedPod;
    use std::sync::Arc;
    let api: kube::Api<Pod> = kube::Api::namespaced(client.clone(), ns);
    let pods = api.list(&Default::default()).await?.items;
    let texts: Vec<String> = pods
        .into_iter()
        .map(|mut p| {
            p.metadata.managed_fields = None;
            serde_json::to_string(&p)
        })
        .collect::<Result<_, _>>()?;
    let n = texts.len().max(1) as f64;
    let held = |parse: &dyn Fn(&str) -> Box<dyn std::any::Any>| {
        let region = stats_alloc::Region::new(crate::GLOBAL);
        let all: Vec<Box<dyn std::any::Any>> = texts.iter().map(|t| parse(t)).collect();
        let change = region.change();
        drop(all);
        (change.bytes_allocated as f64 - change.bytes_deallocated as f64 + change.bytes_reallocated as f64)
            / n
    };
    let parsed = held(&|t| Box::new(serde_json::from_str::<Pod>(t).map(Arc::new).ok()));
    let cached = held(&|t| Box::new(serde_json::from_str::<CachedPod>(t).map(Arc::new).ok()));
    let records: Vec<Arc<CachedPod>> = texts
        .iter()
        .map(|t| serde_json::from_str(t).map(Arc::new))
        .collect::<Result<_, _>>()?;
    let per_pod = |round: &dyn Fn() -> usize| {
        (0..5)
            .map(|_| {
                let at = std::time::Instant::now();
                std::hint::black_box(round());
                at.elapsed().as_secs_f64() * 1e6 / n
            })
            .fold(f64::INFINITY, f64::min)
    };
    let parse_micros = per_pod(&|| {
        texts
            .iter()
            .filter_map(|t| serde_json::from_str::<Pod>(t).ok())
            .map(Arc::new)
            .count()
    });
    let assemble_micros = per_pod(&|| kubectl_kruise::runtime::cached_pod::pods(&records).len());
    Ok(CacheBytes {
        json: texts.iter().map(String::len).sum::<usize>() as f64 / n,
        parsed,
        cached,
        parse_micros,
        assemble_micros,
    })
}
