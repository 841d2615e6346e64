//! Which nodes a BroadcastJob runs a pod on (upstream's `checkNodeFitness`). Pure.
//!
//! Invariants: a node fits a pod spec when its `nodeName` (if any) is the node, the
//! `nodeSelector` and required node affinity match, every NoSchedule/NoExecute taint is
//! tolerated (no daemon tolerations are added; PreferNoSchedule is ignored), the node is
//! schedulable or the pod tolerates `node.kubernetes.io/unschedulable:NoSchedule`, and the
//! node's allocatable has room for one pod and for the pod's requests (other pods on the
//! node are not subtracted). The node's Ready condition is not looked at: a NotReady node
//! drops out through the node-lifecycle taints.
use std::collections::BTreeMap;

use k8s_openapi::api::core::v1::{Node, PodSpec, Taint, Toleration};
use k8s_openapi::apimachinery::pkg::api::resource::Quantity;
use kube_quantity::ParsedQuantity;

use crate::workloads::common::node_fit as nodes;

/// The taint an unschedulable node is treated as carrying.
const UNSCHEDULABLE_TAINT: &str = "node.kubernetes.io/unschedulable";

/// Does a pod with `spec` fit `node`? (None: it does; Some: why not, for messages.)
pub fn why_not(spec: &PodSpec, node: &Node) -> Option<String> {
    if let Some(reason) = nodes::why_not(spec, node) {
        return Some(reason);
    }
    let unschedulable = node.spec.as_ref().and_then(|s| s.unschedulable) == Some(true);
    if unschedulable && !tolerates_unschedulable(spec.tolerations.as_deref().unwrap_or_default()) {
        return Some("the node is unschedulable".into());
    }
    resources_fit(spec, node)
}

/// Does a pod with `spec` fit `node`?
pub fn fits(spec: &PodSpec, node: &Node) -> bool {
    why_not(spec, node).is_none()
}

fn tolerates_unschedulable(tolerations: &[Toleration]) -> bool {
    let taint = Taint {
        key: UNSCHEDULABLE_TAINT.into(),
        effect: "NoSchedule".into(),
        ..Taint::default()
    };
    tolerations.iter().any(|t| nodes::tolerates(t, &taint))
}

/// The pod's requests as the scheduler counts them: per resource, the larger of the sum
/// over its containers and the largest init container's.
fn requests(spec: &PodSpec) -> BTreeMap<String, ParsedQuantity> {
    let of = |c: &k8s_openapi::api::core::v1::Container| -> BTreeMap<String, Quantity> {
        c.resources
            .as_ref()
            .and_then(|r| r.requests.clone())
            .unwrap_or_default()
    };
    let parse = |q: &Quantity| ParsedQuantity::try_from(q).ok();
    let mut total: BTreeMap<String, ParsedQuantity> = BTreeMap::new();
    for container in &spec.containers {
        for (name, quantity) in of(container) {
            let Some(q) = parse(&quantity) else { continue };
            let sum = match total.remove(&name) {
                Some(before) => before + q,
                None => q,
            };
            total.insert(name, sum);
        }
    }
    for init in spec.init_containers.iter().flatten() {
        for (name, quantity) in of(init) {
            let Some(q) = parse(&quantity) else { continue };
            if total.get(&name).is_none_or(|have| *have < q) {
                total.insert(name, q);
            }
        }
    }
    total
}

/// Room for one more pod and for the pod's requests within the node's allocatable.
fn resources_fit(spec: &PodSpec, node: &Node) -> Option<String> {
    let empty = BTreeMap::new();
    let allocatable = node
        .status
        .as_ref()
        .and_then(|s| s.allocatable.as_ref())
        .unwrap_or(&empty);
    let amount = |name: &str| {
        allocatable
            .get(name)
            .and_then(|q| ParsedQuantity::try_from(q).ok())
    };
    let one = ParsedQuantity::try_from("1").ok();
    if amount("pods").is_none_or(|pods| one.as_ref().is_some_and(|one| pods < *one)) {
        return Some("the node has no room for a pod (status.allocatable.pods)".into());
    }
    requests(spec).into_iter().find_map(|(name, wanted)| {
        let zero = ParsedQuantity::try_from("0").ok();
        if zero.as_ref() == Some(&wanted) {
            return None;
        }
        let enough = amount(&name).is_some_and(|have| have >= wanted);
        (!enough).then(|| format!("the pod requests {wanted} {name}, more than the node's allocatable"))
    })
}

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    use super::*;

    fn node(spec: Value, allocatable: Value) -> Node {
        serde_json::from_value(json!({
            "metadata": { "name": "n1", "labels": { "disk": "ssd" } },
            "spec": spec,
            "status": { "allocatable": allocatable },
        }))
        .expect("node")
    }

    fn pod(spec: Value) -> PodSpec {
        let mut base = json!({ "containers": [{ "name": "c", "image": "busybox" }] });
        if let (Some(b), Some(extra)) = (base.as_object_mut(), spec.as_object()) {
            for (k, v) in extra {
                b.insert(k.clone(), v.clone());
            }
        }
        serde_json::from_value(base).expect("spec")
    }

    fn roomy() -> Value {
        json!({ "pods": "110", "cpu": "4", "memory": "8Gi" })
    }

    #[test]
    fn a_plain_node_with_room_fits_and_one_without_allocatable_does_not() {
        assert!(fits(&pod(json!({})), &node(json!({}), roomy())));
        assert!(!fits(&pod(json!({})), &node(json!({}), json!({}))));
        assert!(!fits(&pod(json!({})), &node(json!({}), json!({ "pods": "0" }))));
    }

    #[test]
    fn selectors_taints_and_unschedulable_decide_as_upstream() {
        let tainted = node(
            json!({ "taints": [{ "key": "k", "value": "v", "effect": "NoSchedule" }] }),
            roomy(),
        );
        assert!(!fits(&pod(json!({})), &tainted));
        let tolerant = pod(json!({ "tolerations": [{ "key": "k", "operator": "Exists" }] }));
        assert!(fits(&tolerant, &tainted));
        let soft = node(
            json!({ "taints": [{ "key": "k", "effect": "PreferNoSchedule" }] }),
            roomy(),
        );
        assert!(fits(&pod(json!({})), &soft), "PreferNoSchedule is ignored");
        let cordoned = node(json!({ "unschedulable": true }), roomy());
        assert!(!fits(&pod(json!({})), &cordoned));
        let accepts = pod(json!({ "tolerations": [
            { "key": UNSCHEDULABLE_TAINT, "operator": "Exists", "effect": "NoSchedule" } ] }));
        assert!(fits(&accepts, &cordoned));
        assert!(!fits(
            &pod(json!({ "nodeSelector": { "disk": "hdd" } })),
            &node(json!({}), roomy())
        ));
        assert!(fits(
            &pod(json!({ "nodeSelector": { "disk": "ssd" } })),
            &node(json!({}), roomy())
        ));
    }

    #[test]
    fn requests_must_fit_allocatable_with_init_containers_counted_as_the_scheduler_does() {
        let wants = |cpu: &str, init: &str| {
            pod(json!({
                "containers": [
                    { "name": "a", "image": "x", "resources": { "requests": { "cpu": cpu } } },
                    { "name": "b", "image": "x", "resources": { "requests": { "cpu": "500m" } } } ],
                "initContainers": [
                    { "name": "i", "image": "x", "resources": { "requests": { "cpu": init } } } ],
            }))
        };
        let small = node(json!({}), json!({ "pods": "10", "cpu": "2" }));
        assert!(fits(&wants("1500m", "1"), &small), "1.5 + 0.5 = 2 cores fit");
        assert!(!fits(&wants("1600m", "1"), &small));
        assert!(
            !fits(&wants("100m", "3"), &small),
            "an init container may need more"
        );
        let gpu = pod(json!({ "containers": [
            { "name": "a", "image": "x", "resources": { "requests": { "nvidia.com/gpu": "1" } } } ] }));
        assert!(!fits(&gpu, &small), "an extended resource the node lacks");
        assert!(
            why_not(&gpu, &small).is_some_and(|m| m.contains("nvidia.com/gpu")),
            "{:?}",
            why_not(&gpu, &small)
        );
    }
}
