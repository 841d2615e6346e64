//! Simulated nodes a test creates for itself, labelled with the test's namespace so that
//! its per-node workloads (Advanced DaemonSet, BroadcastJob) select only them, and tainted
//! so that no other test's pod lands there: a test removes its nodes at the end, and a pod
//! of another test left on a removed node would never finish (a Job's pod, say).
use k8s_openapi::api::core::v1::Node;
use kube::api::{Api, DeleteParams, Patch, PatchParams, PostParams};
use serde_json::{Value, json};

use super::TestNamespace;

/// The taint key of every test node (value: the test's namespace, effect NoSchedule).
pub const TAINT_KEY: &str = "kubectl-kruise.io/test-node";

/// The toleration a pod needs to run on test nodes.
pub fn toleration() -> Value {
    json!({ "key": TAINT_KEY, "operator": "Exists", "effect": "NoSchedule" })
}

/// Simulated nodes for one test: `<ns>-n<i>`, labelled `ds-test=<ns>`, tainted
/// [`TAINT_KEY`]`=<ns>:NoSchedule`.
pub struct TestNodes {
    api: Api<Node>,
    prefix: String,
}

/// The zone label the zoned nodes carry.
pub const ZONE: &str = "topology.kubernetes.io/zone";

impl TestNodes {
    /// Three nodes, one per zone (`<ns>-a`, `-b`, `-c`, in [`ZONE`]), plus `extra` without
    /// a zone.
    pub async fn zoned(ns: &TestNamespace, extra: usize) -> Self {
        let nodes = Self::create(ns, 3 + extra).await;
        for (i, zone) in ["a", "b", "c"].iter().enumerate() {
            nodes
                .patch(
                    i,
                    json!({ "metadata": { "labels": { ZONE: format!("{}-{zone}", ns.name) } } }),
                )
                .await;
        }
        nodes
    }

    pub async fn create(ns: &TestNamespace, count: usize) -> Self {
        let nodes = TestNodes {
            api: Api::all(ns.client.clone()),
            prefix: ns.name.clone(),
        };
        for i in 0..count {
            nodes.add(i).await;
        }
        nodes
    }

    pub fn name(&self, i: usize) -> String {
        format!("{}-n{i}", self.prefix)
    }

    pub async fn add(&self, i: usize) {
        let node: Node = super::object(json!({ "apiVersion": "v1", "kind": "Node",
            "metadata": { "name": self.name(i), "labels": {
                "kubectl-kruise.io/simulated": "true", "ds-test": self.prefix,
                "kubernetes.io/hostname": self.name(i) } },
            "spec": { "taints": [{ "key": TAINT_KEY, "value": self.prefix, "effect": "NoSchedule" }] } }));
        self.api
            .create(&PostParams::default(), &node)
            .await
            .unwrap_or_else(|e| panic!("node {}: {e}", self.name(i)));
    }

    pub async fn patch(&self, i: usize, patch: Value) {
        self.api
            .patch(&self.name(i), &PatchParams::default(), &Patch::Merge(patch))
            .await
            .unwrap_or_else(|e| panic!("node {}: {e}", self.name(i)));
    }

    pub async fn remove(&self, i: usize) {
        let _ = self.api.delete(&self.name(i), &DeleteParams::default()).await;
    }

    pub async fn remove_all(&self, count: usize) {
        for i in 0..count {
            self.remove(i).await;
        }
    }
}
