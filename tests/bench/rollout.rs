//! B1 (rollout of N pods over time) and B2 (API writes per updated pod), for one contender
//! and one size: the workload is created once, then rolled `runs` times to a new image.
//!
//! Invariants:
//! - Our controller runs only for our contenders (CloneSet, Advanced DaemonSet), by default with the client
//!   limits of kube-controller-manager (QPS 200, burst 400). Those are per client there,
//!   and it has one client per controller; ours is one client for the process.
//! - Writes are counted over the rollout window only: from just before the image change to
//!   the moment the workload's status says done.
use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use anyhow::{Result, bail};

use crate::plane::{Audit, Controller, Plane};
use crate::workloads::{Contender, PodWatch, delete_namespace, namespace, until};

#[derive(Debug, Clone)]
pub struct Rollout {
    pub contender: Contender,
    pub pods: usize,
    /// Seconds from the image change until all pods were updated and ready.
    pub seconds: f64,
    pub timeline: Vec<(f64, usize)>,
    /// Writes by our client's own counter (CloneSet contenders only).
    pub counted: Option<f64>,
    /// Writes the API server audited from the contender's controller, in the namespace.
    pub audited: usize,
    pub audited_by_kind: BTreeMap<String, usize>,
    /// Every write `apiserver_request_total` counted meanwhile, all clients (the simulated
    /// kubelets' status patches and the scheduler's bindings included).
    pub apiserver_all: f64,
}

pub async fn rollouts(
    plane: &Plane,
    qps: u32,
    contender: Contender,
    pods: usize,
    runs: usize,
) -> Result<Vec<Rollout>> {
    let client = &plane.client;
    let ns = format!(
        "b1-{}-{pods}",
        match contender {
            Contender::InPlace => "inplace",
            Contender::Recreate => "recreate",
            Contender::Deployment => "deploy",
            Contender::DaemonSetInPlace => "ads",
            Contender::BuiltinDaemonSet => "ds",
            Contender::KruiseManager => "km",
        }
    );
    namespace(client, &ns).await?;
    let controller = if contender.ours() {
        Some(Controller::start(
            plane,
            qps,
            qps * 2,
            if contender.per_node() {
                "DaemonSet"
            } else {
                "CloneSet"
            },
        )?)
    } else {
        None
    };
    let watch = PodWatch::start(client, &ns, Some("app=web"));
    let timeout = Duration::from_secs(120 + pods as u64);
    let image = |i: usize| format!("registry.local/web:{i}");
    watch.arm(&image(1));
    contender.create(client, &ns, "web", pods, &image(1)).await?;
    until(&format!("{pods} pods of {ns}/web ready"), timeout, || async {
        Ok(watch.updated_ready() == pods && contender.status_done(client, &ns, "web", pods).await?)
    })
    .await?;

    let mut results = Vec::new();
    for run in 0..runs {
        let target = image(run + 2);
        let audit = Audit::mark(&plane.audit_log());
        let all_before = plane.apiserver_writes().await?;
        let counted_before = controller.as_ref().map(Controller::writes);
        watch.arm(&target);
        contender.set_image(client, &ns, "web", &target).await?;
        until(
            &format!("the rollout of {ns}/web to {target}"),
            timeout,
            || async {
                Ok(watch.updated_ready() == pods
                    && watch.total() == pods
                    && contender.status_done(client, &ns, "web", pods).await?)
            },
        )
        .await?;
        let timeline = watch.timeline();
        let Some(&(seconds, _)) = timeline.iter().find(|(_, n)| *n == pods) else {
            bail!("{ns}: the timeline never reached {pods}");
        };
        // The last writes of a rollout (status) may still be in flight at the API server.
        tokio::time::sleep(Duration::from_millis(500)).await;
        let (audited, audited_by_kind) = audit.writes_since(&plane.audit_log(), contender.agents(), &ns)?;
        let all_after = plane.apiserver_writes().await?;
        results.push(Rollout {
            contender,
            pods,
            seconds,
            timeline,
            counted: controller
                .as_ref()
                .zip(counted_before)
                .map(|(c, before)| c.writes() - before),
            audited,
            audited_by_kind,
            apiserver_all: all_after - all_before,
        });
        eprintln!(
            "  {} N={pods} run {}: {seconds:.1}s, {:.2} audited writes/pod",
            contender.label(),
            run + 1,
            audited as f64 / pods as f64
        );
    }
    drop(controller);
    let started = Instant::now();
    delete_namespace(client, &ns).await?;
    eprintln!(
        "  (namespace {ns} gone after {:.0}s)",
        started.elapsed().as_secs_f64()
    );
    Ok(results)
}
