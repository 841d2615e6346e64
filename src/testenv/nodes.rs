//! Simulated Nodes: created by the supervisor across three zones, kept Ready by the
//! simulated kubelet.
//!
//! Invariants: every simulated node carries [`SIMULATED_NODE_LABEL`]`=true`, a hostname
//! label and a `topology.kubernetes.io/zone`; it has no taints, large capacity, and a
//! loopback InternalIP (nothing ever connects to it; a stray connection stays on the
//! machine). A node a test creates with the label but no status gets the same status.
use k8s_openapi::api::core::v1::Node;
use kube::api::{Api, PostParams};
use serde_json::{Value, json};

use super::{Error, SIMULATED_NODE_LABEL};

pub const ZONE_LABEL: &str = "topology.kubernetes.io/zone";
pub const ZONES: [&str; 3] = ["zone-a", "zone-b", "zone-c"];

/// Name of the `index`-th simulated node created by the supervisor.
pub fn node_name(index: usize) -> String {
    format!("sim-node-{index}")
}

/// The Node object for the `index`-th simulated node.
pub fn simulated_node(index: usize) -> Result<Node, Error> {
    let name = node_name(index);
    let node = json!({
        "apiVersion": "v1",
        "kind": "Node",
        "metadata": {
            "name": name,
            "labels": {
                SIMULATED_NODE_LABEL: "true",
                "kubernetes.io/hostname": name,
                "kubernetes.io/os": "linux",
                "kubernetes.io/arch": "amd64",
                ZONE_LABEL: ZONES[index % ZONES.len()],
            },
            "annotations": { "kubectl-kruise.io/node-ip": loopback_ip(index) },
        },
        "spec": {},
    });
    serde_json::from_value(node).map_err(|e| Error::Other(format!("node {name}: {e}")))
}

fn loopback_ip(index: usize) -> String {
    format!("127.0.1.{}", index % 250 + 1)
}

/// The node's InternalIP as recorded in its status.
pub fn internal_ip(node: &Node) -> Option<String> {
    let addresses = node.status.as_ref()?.addresses.as_ref()?;
    addresses
        .iter()
        .find(|a| a.type_ == "InternalIP")
        .map(|a| a.address.clone())
}

fn is_ready(node: &Node) -> bool {
    let conditions = node.status.as_ref().and_then(|s| s.conditions.as_ref());
    conditions.is_some_and(|cs| cs.iter().any(|c| c.type_ == "Ready" && c.status == "True"))
}

fn has_capacity(node: &Node) -> bool {
    node.status
        .as_ref()
        .and_then(|s| s.allocatable.as_ref())
        .is_some_and(|a| a.contains_key("pods"))
}

/// A merge patch that makes the node Ready with capacity, or None if it already is.
pub fn status_patch_if_needed(node: &Node) -> Option<Value> {
    if is_ready(node) && has_capacity(node) && internal_ip(node).is_some() {
        return None;
    }
    let name = node.metadata.name.clone().unwrap_or_default();
    let ip = node
        .metadata
        .annotations
        .as_ref()
        .and_then(|a| a.get("kubectl-kruise.io/node-ip").cloned())
        .or_else(|| internal_ip(node))
        .unwrap_or_else(|| "127.0.1.254".to_string());
    let now = k8s_openapi::jiff::Timestamp::now().to_string();
    let resources = json!({ "cpu": "1000", "memory": "4Ti", "pods": "10000", "ephemeral-storage": "10Ti" });
    let condition = |kind: &str, status: &str, reason: &str| {
        json!({ "type": kind, "status": status, "reason": reason, "message": "simulated by kubectl-kruise testenv",
                "lastHeartbeatTime": now, "lastTransitionTime": now })
    };
    Some(json!({ "status": {
        "capacity": resources,
        "allocatable": resources,
        "conditions": [
            condition("Ready", "True", "KubeletReady"),
            condition("MemoryPressure", "False", "KubeletHasSufficientMemory"),
            condition("DiskPressure", "False", "KubeletHasNoDiskPressure"),
            condition("PIDPressure", "False", "KubeletHasSufficientPID"),
        ],
        "addresses": [ { "type": "InternalIP", "address": ip }, { "type": "Hostname", "address": name } ],
        "daemonEndpoints": { "kubeletEndpoint": { "Port": 10250 } },
        "nodeInfo": {
            "machineID": name, "systemUUID": name, "bootID": name,
            "kernelVersion": "simulated", "osImage": "kubectl-kruise simulated node",
            "containerRuntimeVersion": "sim://1.0", "kubeletVersion": "v1.36.3", "kubeProxyVersion": "",
            "operatingSystem": "linux", "architecture": "amd64",
        },
    }}))
}

/// Creates the simulated nodes (existing ones are kept).
pub async fn create_nodes(client: &kube::Client, count: usize) -> Result<Vec<String>, Error> {
    let api: Api<Node> = Api::all(client.clone());
    let mut names = Vec::with_capacity(count);
    for index in 0..count {
        let node = simulated_node(index)?;
        match api.create(&PostParams::default(), &node).await {
            Ok(_) => {}
            Err(kube::Error::Api(s)) if s.code == 409 => {}
            Err(e) => return Err(e.into()),
        }
        names.push(node_name(index));
    }
    Ok(names)
}
