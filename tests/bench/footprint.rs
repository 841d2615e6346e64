//! B3/B4 (controller footprint while it brings up and rolls 100 workloads) and B5 (set
//! image to the first pod touched), for our controller and for kube-controller-manager
//! running the equivalent Deployments. Each run gets a fresh control plane, so the
//! controller-manager's peak RSS is its own for this run.
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

use crate::plane::{Audit, Controller, Plane, Sim, Usage, usage};
use crate::workloads::{Contender, EventLog, PodWatch, namespace, until};

pub const WORKLOADS: usize = 100;
pub const IDLE: Duration = Duration::from_secs(30);
/// Time between two workloads' image changes in B5.
pub const PACE: Duration = Duration::from_millis(100);

#[derive(Debug, Clone)]
pub struct Footprint {
    pub contender: Contender,
    pub pods: usize,
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
    let tag = format!(
        "b3-{}-{pods}-{run}",
        if contender == Contender::Deployment {
            "kcm"
        } else {
            "ours"
        }
    );
    let plane = Plane::start(bin_dir, &tag, sim).await?;
    let client = &plane.client;
    let ns = "b3";
    namespace(client, ns).await?;
    let per = pods / WORKLOADS;
    let names: Vec<String> = (0..WORKLOADS).map(|i| format!("w{i:03}")).collect();
    let watch = PodWatch::start(client, ns, None);
    let events = EventLog::start(client, ns);
    let kcm = plane
        .controller_manager_pid()
        .context("no kube-controller-manager process")?;
    let baseline = (contender == Contender::Deployment).then(|| usage(kcm));
    try_join_all(
        names
            .iter()
            .map(|name| contender.create(client, ns, name, per, "registry.local/web:1")),
    )
    .await?;
    let (pid, controller, first_action) = match contender {
        Contender::Deployment => (kcm, None, None),
        _ => {
            let controller = Controller::start(&plane, sim.qps, "CloneSet")?;
            let deadline = Instant::now() + Duration::from_secs(60);
            while watch.total() == 0 && Instant::now() < deadline {
                tokio::time::sleep(Duration::from_millis(5)).await;
            }
            let first = controller.started.elapsed().as_secs_f64();
            (controller.pid(), Some(controller), Some(first))
        }
    };
    let timeout = Duration::from_secs(300 + pods as u64 / 5);
    watch.arm("registry.local/web:1");
    until(&format!("{pods} pods ready"), timeout, || async {
        Ok(watch.updated_ready() == pods)
    })
    .await?;
    until("every workload's status", timeout, || {
        contender.all_done(client, ns, WORKLOADS, per)
    })
    .await?;
    let settled = usage(pid);
    let cache = match contender {
        Contender::Deployment => None,
        _ => Some(cache_bytes(client, ns).await?),
    };

    let audit = Audit::mark(&plane.audit_log());
    let counted_before = controller.as_ref().map(Controller::writes);
    tokio::time::sleep(IDLE).await;
    let idle = usage(pid);
    let (idle_audited, _) = audit.writes_since(&plane.audit_log(), contender.agents(), ns);
    let idle_counted = controller
        .as_ref()
        .zip(counted_before)
        .map(|(c, before)| c.writes() - before);

    let target = "registry.local/web:2";
    watch.arm(target);
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
    Ok(Footprint {
        contender,
        pods,
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
/// a kube store holds) and our cache's record.
#[derive(Debug, Clone, Copy)]
pub struct CacheBytes {
    pub json: f64,
    pub parsed: f64,
    pub cached: f64,
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
    Ok(CacheBytes {
        json: texts.iter().map(String::len).sum::<usize>() as f64 / n,
        parsed,
        cached,
    })
}
