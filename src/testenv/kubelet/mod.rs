//! The simulated kubelet: gives pods on simulated nodes their status, by the rules in
//! [`plan`], and keeps simulated Nodes Ready.
//!
//! Watches: Nodes labelled [`SIMULATED_NODE_LABEL`]; Pods with a `spec.nodeName`. Writes:
//! strategic-merge patches of pod status (so conditions written by controllers, such as
//! `InPlaceUpdateReady`, survive), pod deletes with grace 0, node status patches.
//!
//! Invariants: a pod on a node that is not simulated is never touched; delays are
//! measured from the first time this process saw the pod in the waited-on state, so a
//! restarted kubelet waits again rather than skipping a delay.
pub mod plan;

use std::collections::HashMap;
use std::net::Ipv4Addr;
use std::sync::Arc;
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::{Duration, Instant};

use futures::StreamExt;
use k8s_openapi::api::core::v1::{Node, Pod};
use k8s_openapi::jiff::Timestamp;
use kube::api::{DeleteParams, Patch, PatchParams, Preconditions};
use kube::runtime::controller::{Action, Controller};
use kube::runtime::reflector::{ObjectRef, Store};
use kube::runtime::watcher;
use kube::{Api, Client, ResourceExt};
use tokio::sync::Mutex;

use super::{Error, FIELD_MANAGER, SIMULATED_NODE_LABEL, nodes};
use plan::{Context, Defaults, Images, Step, WaitKey};

struct State {
    client: Client,
    defaults: Defaults,
    images: Images,
    nodes: Store<Node>,
    /// Every bound pod (for the host ports a node's pods hold).
    pods: Store<Pod>,
    /// Per pod UID: the state waited on and when it was first seen.
    waits: Mutex<HashMap<String, (WaitKey, Instant)>>,
    /// Per pod UID: the IP it was given.
    ips: Mutex<HashMap<String, Ipv4Addr>>,
    next_ip: AtomicU32,
}

/// Runs the simulated kubelet until the watches end (they do not, unless the process stops).
pub async fn run(client: Client, defaults: Defaults, images: Images) -> Result<(), Error> {
    let node_api: Api<Node> = Api::all(client.clone());
    let selector = watcher::Config::default().labels(&format!("{SIMULATED_NODE_LABEL}=true"));
    let node_controller = Controller::new(node_api, selector);
    let node_store = node_controller.store();
    let pod_api: Api<Pod> = Api::all(client.clone());
    let bound = watcher::Config::default().fields("spec.nodeName!=");
    let pod_controller = Controller::new(pod_api, bound)
        .with_config(kube::runtime::controller::Config::default().concurrency(32));
    let state = Arc::new(State {
        client: client.clone(),
        defaults,
        images,
        nodes: node_store.clone(),
        pods: pod_controller.store(),
        waits: Mutex::new(HashMap::new()),
        ips: Mutex::new(HashMap::new()),
        next_ip: AtomicU32::new(0),
    });
    let nodes_done = node_controller
        .run(reconcile_node, |_, e, _| on_error("node", e), state.clone())
        .for_each(|_| async {});

    let pods = pod_controller
        .run(reconcile_pod, |_, e, _| on_error("pod", e), state.clone())
        .for_each(|_| async {});
    let pods_after_nodes = async {
        // Pods are judged by their node, so the node cache must be filled first.
        let _ = node_store.wait_until_ready().await;
        pods.await
    };
    futures::join!(nodes_done, pods_after_nodes);
    Ok(())
}

fn on_error(kind: &str, error: &Error) -> Action {
    tracing::warn!(kind, %error, "simulated kubelet write failed; retrying");
    Action::requeue(Duration::from_millis(500))
}

async fn reconcile_node(node: Arc<Node>, state: Arc<State>) -> Result<Action, Error> {
    if let Some(patch) = nodes::status_patch_if_needed(&node) {
        let api: Api<Node> = Api::all(state.client.clone());
        api.patch_status(&node.name_any(), &PatchParams::default(), &Patch::Merge(patch))
            .await?;
    }
    Ok(Action::await_change())
}

async fn reconcile_pod(pod: Arc<Pod>, state: Arc<State>) -> Result<Action, Error> {
    let node_name = pod
        .spec
        .as_ref()
        .and_then(|s| s.node_name.clone())
        .unwrap_or_default();
    let Some(node) = state.nodes.get(&ObjectRef::new(&node_name)) else {
        return Ok(Action::await_change()); // not a simulated node: a real kubelet's business
    };
    let uid = pod.metadata.uid.clone().unwrap_or_default();
    let key = plan::wait_key(&pod);
    let starting = key == Some(WaitKey::Start);
    let waited = match key {
        Some(key) => {
            let mut waits = state.waits.lock().await;
            let entry = waits
                .entry(uid.clone())
                .or_insert_with(|| (key.clone(), Instant::now()));
            if entry.0 != key {
                *entry = (key, Instant::now());
            }
            entry.1.elapsed()
        }
        None => Duration::ZERO,
    };
    // Only a pod about to start needs an IP; running pods keep theirs in their status.
    let pod_ip = if starting {
        state.pod_ip(&uid).await.to_string()
    } else {
        String::new()
    };
    let host_ip = nodes::internal_ip(&node).unwrap_or_else(|| "127.0.1.1".to_string());
    // Only a pod about to start that asks for host ports is judged by those of its node's
    // other pods (the scan of the pod cache is skipped for every other pod).
    let host_ports_taken = if starting && !plan::host_ports(&pod).is_empty() {
        state.host_ports_taken(&node_name, &uid)
    } else {
        Default::default()
    };
    let ctx = Context {
        now: Timestamp::now(),
        waited,
        host_ip: &host_ip,
        pod_ip: &pod_ip,
        defaults: state.defaults,
        images: &state.images,
        host_ports_taken: &host_ports_taken,
    };
    let api: Api<Pod> = Api::namespaced(state.client.clone(), &pod.namespace().unwrap_or_default());
    match plan::plan(&pod, &ctx) {
        Step::Nothing => Ok(Action::await_change()),
        Step::Wait { remaining, .. } => Ok(Action::requeue(remaining + Duration::from_millis(20))),
        Step::PatchStatus(patch) => {
            let params = PatchParams {
                field_manager: Some(FIELD_MANAGER.into()),
                ..Default::default()
            };
            match api
                .patch_status(&pod.name_any(), &params, &Patch::Strategic(patch))
                .await
            {
                Ok(_) => Ok(Action::await_change()),
                Err(e) if is_not_found(&e) => Ok(Action::await_change()),
                Err(e) => Err(e.into()),
            }
        }
        Step::Delete => {
            let params = DeleteParams {
                grace_period_seconds: Some(0),
                preconditions: Some(Preconditions {
                    uid: Some(uid.clone()),
                    resource_version: None,
                }),
                ..Default::default()
            };
            state.forget(&uid).await;
            match api.delete(&pod.name_any(), &params).await {
                Ok(_) => Ok(Action::await_change()),
                Err(e) if is_not_found(&e) || is_conflict(&e) => Ok(Action::await_change()),
                Err(e) => Err(e.into()),
            }
        }
    }
}

impl State {
    /// The IP of pod `uid`: 10.244.0.0/16, handed out in order and remembered.
    async fn pod_ip(&self, uid: &str) -> Ipv4Addr {
        let mut ips = self.ips.lock().await;
        *ips.entry(uid.to_string()).or_insert_with(|| {
            let n = self.next_ip.fetch_add(1, Ordering::Relaxed) % (256 * 254);
            Ipv4Addr::new(10, 244, (n / 254) as u8, (n % 254 + 1) as u8)
        })
    }

    /// The host ports the live pods of `node` other than `uid` hold (a pod that failed,
    /// finished or is being deleted holds none).
    fn host_ports_taken(&self, node: &str, uid: &str) -> std::collections::BTreeSet<(String, i32)> {
        self.pods
            .state()
            .iter()
            .filter(|p| p.spec.as_ref().and_then(|s| s.node_name.as_deref()) == Some(node))
            .filter(|p| p.metadata.uid.as_deref() != Some(uid) && p.metadata.deletion_timestamp.is_none())
            .filter(|p| {
                let phase = p.status.as_ref().and_then(|s| s.phase.as_deref());
                !matches!(phase, Some("Failed" | "Succeeded"))
            })
            .filter(|p| p.status.as_ref().and_then(|s| s.start_time.as_ref()).is_some())
            .flat_map(|p| plan::host_ports(p))
            .collect()
    }

    async fn forget(&self, uid: &str) {
        self.waits.lock().await.remove(uid);
        self.ips.lock().await.remove(uid);
    }
}

fn is_not_found(e: &kube::Error) -> bool {
    matches!(e, kube::Error::Api(s) if s.code == 404)
}

fn is_conflict(e: &kube::Error) -> bool {
    matches!(e, kube::Error::Api(s) if s.code == 409)
}
