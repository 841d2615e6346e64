//! Simulated nodes a test creates for itself, labelled with the test's namespace so that
//! its per-node workloads (Advanced DaemonSet, BroadcastJob) select only them.
use k8s_openapi::api::core::v1::Node;
use kube::api::{Api, DeleteParams, Patch, PatchParams, PostParams};
use serde_json::{Value, json};

use super::TestNamespace;

/// Simulated nodes for one test: `<ns>-n<i>`, labelled `ds-test=<ns>`.
pub struct TestNodes {
    api: Api<Node>,
    prefix: String,
}

impl TestNodes {
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
            "spec": {} }));
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
