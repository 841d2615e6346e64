//! Simulated Nodes: created by the supervisor across three zones, kept Ready by the
//! simulated kubelet, shaped by `testenv up --node-label` and `--node-taint`.
//!
//! Invariants: every simulated node carries [`SIMULATED_NODE_LABEL`]`=true`, a hostname
//! label and a `topology.kubernetes.io/zone`; it has large capacity and a loopback
//! InternalIP (nothing ever connects to it; a stray connection stays on the machine). It
//! has the labels and taints its [`Shape`] gives it, and no others: a node kept from an
//! earlier start gets them too. A node a test creates with the label but no status gets
//! the same status.
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

/// Labels and taints given to the simulated nodes.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Shape {
    /// A label key and its values: node `i` gets value `i % len` (`node-pool=a,b,c`).
    pub labels: Vec<(String, Vec<String>)>,
    pub taints: Vec<Taint>,
}

/// A taint, on the nodes of these indexes (None: every node).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Taint {
    pub key: String,
    pub value: Option<String>,
    pub effect: String,
    pub nodes: Option<Vec<usize>>,
}

impl Shape {
    /// `--node-label KEY=V1[,V2...]`.
    pub fn parse_label(text: &str) -> Result<(String, Vec<String>), String> {
        let (key, values) = text
            .split_once('=')
            .filter(|(k, _)| !k.is_empty())
            .ok_or_else(|| format!("{text:?}: expected KEY=VALUE[,VALUE...]"))?;
        let values: Vec<String> = values.split(',').map(str::to_string).collect();
        Ok((key.to_string(), values))
    }

    /// `--node-taint KEY[=VALUE]:EFFECT[@I,J...]`.
    pub fn parse_taint(text: &str) -> Result<Taint, String> {
        let bad = || {
            format!(
                "{text:?}: expected KEY[=VALUE]:EFFECT[@NODE,...] (EFFECT: NoSchedule, PreferNoSchedule, NoExecute)"
            )
        };
        let (taint, nodes) = match text.split_once('@') {
            Some((taint, nodes)) => {
                let indexes: Result<Vec<usize>, _> = nodes.split(',').map(str::parse).collect();
                (taint, Some(indexes.map_err(|_| bad())?))
            }
            None => (text, None),
        };
        let (pair, effect) = taint.rsplit_once(':').ok_or_else(bad)?;
        if !["NoSchedule", "PreferNoSchedule", "NoExecute"].contains(&effect) {
            return Err(bad());
        }
        let (key, value) = match pair.split_once('=') {
            Some((k, v)) => (k, Some(v.to_string())),
            None => (pair, None),
        };
        if key.is_empty() {
            return Err(bad());
        }
        Ok(Taint {
            key: key.to_string(),
            value,
            effect: effect.to_string(),
            nodes,
        })
    }

    /// The labels it gives node `index`.
    fn labels_of(&self, index: usize) -> impl Iterator<Item = (&str, &str)> {
        self.labels
            .iter()
            .filter(|(_, values)| !values.is_empty())
            .map(move |(key, values)| (key.as_str(), values[index % values.len()].as_str()))
    }

    /// The taints of node `index`, as the Node's `spec.taints`.
    fn taints_of(&self, index: usize) -> Vec<Value> {
        self.taints
            .iter()
            .filter(|t| t.nodes.as_ref().is_none_or(|n| n.contains(&index)))
            .map(|t| {
                let mut taint = json!({ "key": t.key, "effect": t.effect });
                if let Some(value) = &t.value {
                    taint["value"] = json!(value);
                }
                taint
            })
            .collect()
    }

    /// As `testenv serve` arguments.
    pub fn to_args(&self) -> Vec<String> {
        let labels = self
            .labels
            .iter()
            .map(|(k, v)| format!("--node-label={k}={}", v.join(",")));
        let taints = self.taints.iter().map(|t| {
            let value = t.value.as_ref().map(|v| format!("={v}")).unwrap_or_default();
            let nodes = t.nodes.as_ref().map(|n| {
                let list: Vec<String> = n.iter().map(usize::to_string).collect();
                format!("@{}", list.join(","))
            });
            format!(
                "--node-taint={}{value}:{}{}",
                t.key,
                t.effect,
                nodes.unwrap_or_default()
            )
        });
        labels.chain(taints).collect()
    }
}

/// The Node object for the `index`-th simulated node.
pub fn simulated_node(index: usize, shape: &Shape) -> Result<Node, Error> {
    let name = node_name(index);
    let mut node = json!({
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
        "spec": { "taints": shape.taints_of(index) },
    });
    for (key, value) in shape.labels_of(index) {
        node["metadata"]["labels"][key] = json!(value);
    }
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

/// Creates the simulated nodes; an existing one (an earlier start's) is given the shape's
/// labels and its taints.
pub async fn create_nodes(client: &kube::Client, count: usize, shape: &Shape) -> Result<Vec<String>, Error> {
    let api: Api<Node> = Api::all(client.clone());
    let mut names = Vec::with_capacity(count);
    for index in 0..count {
        let node = simulated_node(index, shape)?;
        match api.create(&PostParams::default(), &node).await {
            Ok(_) => {}
            Err(kube::Error::Api(s)) if s.code == 409 => {
                let patch = json!({
                    "metadata": { "labels": node.metadata.labels },
                    "spec": { "taints": shape.taints_of(index) },
                });
                let params = kube::api::PatchParams::default();
                api.patch(&node_name(index), &params, &kube::api::Patch::Merge(&patch))
                    .await?;
            }
            Err(e) => return Err(e.into()),
        }
        names.push(node_name(index));
    }
    Ok(names)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_go_round_the_nodes_and_taints_to_the_nodes_named() {
        let shape = Shape {
            labels: vec![Shape::parse_label("node-pool=pool-a,pool-b,pool-c").expect("label")],
            taints: vec![Shape::parse_taint("dedicated=gpu:NoSchedule@1,4").expect("taint")],
        };
        let node = |i| simulated_node(i, &shape).expect("node");
        let pools: Vec<String> = (0..4)
            .map(|i| node(i).metadata.labels.expect("labels")["node-pool"].clone())
            .collect();
        assert_eq!(pools, ["pool-a", "pool-b", "pool-c", "pool-a"]);
        let taints = |i| node(i).spec.and_then(|s| s.taints).unwrap_or_default();
        assert!(taints(0).is_empty());
        assert_eq!(taints(1)[0].key, "dedicated");
        assert_eq!(taints(1)[0].value.as_deref(), Some("gpu"));
        assert_eq!(taints(4)[0].effect, "NoSchedule");
        let all = Shape::parse_taint("maintenance:NoExecute").expect("taint");
        assert_eq!((all.value, all.nodes), (None, None));
        for bad in ["x", "k=v:Sometimes", ":NoSchedule", "k:NoSchedule@a"] {
            assert!(Shape::parse_taint(bad).is_err(), "{bad}");
        }
        assert!(Shape::parse_label("=a").is_err());
        assert_eq!(
            shape.to_args(),
            [
                "--node-label=node-pool=pool-a,pool-b,pool-c",
                "--node-taint=dedicated=gpu:NoSchedule@1,4"
            ]
        );
    }
}
