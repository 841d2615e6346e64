//! Tools of the chaos suite: an independent watcher that checks the workload invariants on
//! every pod change it sees, a seeded random source, the audit-log reader that attributes
//! writes to processes, and the summary every chaos test appends to.
//!
//! The watcher is not the controller: it has its own watch and judges availability by each
//! pod's own Ready condition. A broken watch (the API server restarting) re-lists; checks
//! pause during the re-list and resume on its full picture, so a half-listed namespace
//! never counts as a violation (nor hides one that the full picture shows).
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use futures::StreamExt;
use k8s_openapi::api::core::v1::Pod;
use kube::ResourceExt;
use kube::api::Api;
use kube::runtime::{WatchStreamExt, watcher};

use super::TestNamespace;
use super::controller::PodView;

/// The bounds a rollout must keep, from the workload's spec.
#[derive(Debug, Clone, Copy)]
pub struct Bounds {
    pub replicas: usize,
    pub max_unavailable: usize,
    pub max_surge: usize,
    /// At most this many live pods not Ready at once (`scaleStrategy.maxUnavailable` while
    /// the replica count moves).
    pub max_not_ready: Option<usize>,
}

/// What identifies a pod's slot: the ordinal of an Advanced StatefulSet pod, the instance
/// id of a CloneSet pod. Two live pods never share one.
#[derive(Debug, Clone, Copy)]
pub enum Slot {
    Ordinal,
    InstanceId,
    /// A DaemonSet's: the node the pod is pinned to.
    Node,
}

/// A pod as the watcher last saw it: its view, its slot, and whether it is terminating.
type PodSeen = (PodView, Option<String>, bool);

#[derive(Default)]
struct Seen {
    pods: BTreeMap<String, PodSeen>,
    relisting: Option<BTreeMap<String, PodSeen>>,
    timeline: Vec<String>,
    checks: u64,
    violations: Vec<String>,
}

/// Records every pod change in a namespace and checks [`Bounds`] on each, once armed.
pub struct InvariantWatcher {
    seen: Arc<Mutex<Seen>>,
    armed: Arc<AtomicBool>,
    task: tokio::task::JoinHandle<()>,
}

fn slot_of(pod: &Pod, slot: Slot) -> Option<String> {
    match slot {
        Slot::InstanceId => pod.labels().get("apps.kruise.io/cloneset-instance-id").cloned(),
        Slot::Ordinal => pod.name_any().rsplit_once('-').map(|(_, o)| o.to_string()),
        Slot::Node => kubectl_kruise::workloads::common::node_fit::node_of(pod).map(str::to_string),
    }
}

fn check(seen: &mut Seen, bounds: Bounds, at: f64) {
    seen.checks += 1;
    let live: Vec<&PodSeen> = seen.pods.values().filter(|(_, _, gone)| !gone).collect();
    let available = live.iter().filter(|(v, _, _)| v.ready).count();
    let mut problems = Vec::new();
    if available + bounds.max_unavailable < bounds.replicas {
        problems.push(format!(
            "{} of {} replicas unavailable (maxUnavailable {})",
            bounds.replicas - available,
            bounds.replicas,
            bounds.max_unavailable
        ));
    }
    let not_ready = live.len() - available;
    if let Some(max) = bounds.max_not_ready
        && not_ready > max
    {
        problems.push(format!(
            "{not_ready} live pods not Ready (scaleStrategy.maxUnavailable {max})"
        ));
    }
    if live.len() > bounds.replicas + bounds.max_surge {
        problems.push(format!(
            "{} live pods, more than replicas {} + maxSurge {}",
            live.len(),
            bounds.replicas,
            bounds.max_surge
        ));
    }
    let mut slots = BTreeSet::new();
    for (_, slot, _) in &live {
        if let Some(slot) = slot
            && !slots.insert(slot.clone())
        {
            problems.push(format!("two live pods in slot {slot}"));
        }
    }
    for problem in problems {
        seen.violations.push(format!("{at:7.2}s {problem}"));
    }
}

impl InvariantWatcher {
    pub fn start(ns: &TestNamespace, bounds: Bounds, slot: Slot) -> Self {
        let api: Api<Pod> = ns.api();
        let seen = Arc::new(Mutex::new(Seen::default()));
        let armed = Arc::new(AtomicBool::new(false));
        let (shared, arm) = (seen.clone(), armed.clone());
        let start = Instant::now();
        let task = tokio::spawn(async move {
            let mut stream = std::pin::pin!(watcher(api, watcher::Config::default()).default_backoff());
            while let Some(event) = stream.next().await {
                let at = start.elapsed().as_secs_f64();
                let mut s = shared.lock().expect("seen");
                let entry = |pod: &Pod| {
                    let mut view = PodView::of(pod);
                    let terminating = pod.metadata.deletion_timestamp.is_some();
                    if terminating {
                        view.ready = false;
                    }
                    (view, slot_of(pod, slot), terminating)
                };
                match event {
                    Ok(watcher::Event::Init) => {
                        s.timeline.push(format!("{at:7.2}s (re-list)"));
                        s.relisting = Some(BTreeMap::new());
                        continue;
                    }
                    Ok(watcher::Event::InitApply(pod)) => {
                        let e = entry(&pod);
                        if let Some(list) = s.relisting.as_mut() {
                            list.insert(pod.name_any(), e);
                        }
                        continue;
                    }
                    Ok(watcher::Event::InitDone) => {
                        if let Some(list) = s.relisting.take() {
                            s.pods = list;
                        }
                    }
                    Ok(watcher::Event::Apply(pod)) => {
                        let e = entry(&pod);
                        s.timeline.push(format!(
                            "{at:7.2}s {} ready={} image={} gate={:?}{}",
                            pod.name_any(),
                            e.0.ready,
                            e.0.image,
                            e.0.gate,
                            if e.2 { " terminating" } else { "" }
                        ));
                        s.pods.insert(pod.name_any(), e);
                    }
                    Ok(watcher::Event::Delete(pod)) => {
                        s.timeline.push(format!("{at:7.2}s {} deleted", pod.name_any()));
                        s.pods.remove(&pod.name_any());
                    }
                    Err(e) => {
                        s.timeline.push(format!("{at:7.2}s (watch error: {e})"));
                        continue;
                    }
                }
                if arm.load(Ordering::SeqCst) {
                    check(&mut s, bounds, at);
                }
            }
        });
        InvariantWatcher { seen, armed, task }
    }

    /// From now on every change is checked.
    pub fn arm(&self) {
        self.armed.store(true, Ordering::SeqCst);
        let mut s = self.seen.lock().expect("seen");
        s.timeline.push("-- armed --".into());
    }

    pub fn checks(&self) -> u64 {
        self.seen.lock().expect("seen").checks
    }

    pub fn violations(&self) -> Vec<String> {
        self.seen.lock().expect("seen").violations.clone()
    }

    /// The last `n` lines of the timeline.
    pub fn timeline_tail(&self, n: usize) -> String {
        let s = self.seen.lock().expect("seen");
        s.timeline[s.timeline.len().saturating_sub(n)..].join("\n")
    }
}

impl Drop for InvariantWatcher {
    fn drop(&mut self) {
        self.task.abort();
    }
}

/// A seeded xorshift: `KRUISE_CHAOS_SEED` replays a run; otherwise the clock picks a seed,
/// which the test prints.
pub struct Dice(u64);

impl Dice {
    pub fn new() -> Self {
        let seed = std::env::var("KRUISE_CHAOS_SEED")
            .ok()
            .and_then(|s| s.parse().ok())
            .unwrap_or_else(|| {
                std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .map_or(7, |d| d.as_nanos() as u64)
            });
        Dice(seed.max(1))
    }

    pub fn seed(&self) -> u64 {
        self.0
    }

    /// Uniform in `[low, high)` milliseconds.
    pub fn millis(&mut self, low: u64, high: u64) -> std::time::Duration {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        std::time::Duration::from_millis(low + x % (high - low).max(1))
    }
}

/// One write of the API server's audit log.
#[derive(Debug, Clone)]
pub struct AuditedWrite {
    pub at: String,
    pub user_agent: String,
    pub verb: String,
    pub resource: String,
    pub name: String,
}

/// The writes in an audit log (`testenv up --audit`) made in `namespace`.
pub fn audited_writes(log: &Path, namespace: &str) -> Vec<AuditedWrite> {
    let text = std::fs::read_to_string(log).unwrap_or_else(|e| panic!("audit log {}: {e}", log.display()));
    text.lines()
        .filter_map(|line| serde_json::from_str::<serde_json::Value>(line).ok())
        .filter(|e| e["objectRef"]["namespace"] == namespace)
        .map(|e| {
            let sub = e["objectRef"]["subresource"]
                .as_str()
                .map(|s| format!("/{s}"))
                .unwrap_or_default();
            AuditedWrite {
                at: e["requestReceivedTimestamp"]
                    .as_str()
                    .unwrap_or_default()
                    .to_string(),
                user_agent: e["userAgent"].as_str().unwrap_or_default().to_string(),
                verb: e["verb"].as_str().unwrap_or_default().to_string(),
                resource: format!("{}{sub}", e["objectRef"]["resource"].as_str().unwrap_or_default()),
                name: e["objectRef"]["name"].as_str().unwrap_or_default().to_string(),
            }
        })
        .collect()
}

/// Appends one line to the chaos summary that `tests/run` prints at the end.
pub fn summarize(line: &str) {
    use std::io::Write;
    println!("{line}");
    let path = Path::new(env!("CARGO_TARGET_TMPDIR")).join("chaos-summary.txt");
    if let Ok(mut file) = std::fs::OpenOptions::new().create(true).append(true).open(&path) {
        let _ = writeln!(file, "{line}");
    }
}
