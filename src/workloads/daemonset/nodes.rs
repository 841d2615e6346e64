//! The daemon pod's spec (upstream's daemon tolerations added to the template's), the one
//! a DaemonSet's nodes are judged with by [`crate::workloads::common::node_fit`]. Pure.
//!
//! Invariant: every daemon pod tolerates the node-lifecycle taints (not ready, unreachable,
//! pressure, unschedulable; the network one only with `hostNetwork`), each added once.
use k8s_openapi::api::core::v1::{PodSpec, Toleration};

/// The tolerations every daemon pod gets, as `(key, effect)`; the network one only
/// with `hostNetwork`.
fn daemon_tolerations(host_network: bool) -> Vec<(&'static str, &'static str)> {
    let mut out = vec![
        ("node.kubernetes.io/not-ready", "NoExecute"),
        ("node.kubernetes.io/unreachable", "NoExecute"),
        ("node.kubernetes.io/disk-pressure", "NoSchedule"),
        ("node.kubernetes.io/memory-pressure", "NoSchedule"),
        ("node.kubernetes.io/pid-pressure", "NoSchedule"),
        ("node.kubernetes.io/unschedulable", "NoSchedule"),
    ];
    if host_network {
        out.push(("node.kubernetes.io/network-unavailable", "NoSchedule"));
    }
    out
}

/// `spec` with the daemon tolerations added where an equal one is missing.
pub fn with_daemon_tolerations(spec: &PodSpec) -> PodSpec {
    let mut spec = spec.clone();
    let tolerations = spec.tolerations.get_or_insert_with(Vec::new);
    for (key, effect) in daemon_tolerations(spec.host_network == Some(true)) {
        let wanted = Toleration {
            key: Some(key.into()),
            operator: Some("Exists".into()),
            effect: Some(effect.into()),
            ..Toleration::default()
        };
        if !tolerations.contains(&wanted) {
            tolerations.push(wanted);
        }
    }
    spec
}

/// The pod spec a DaemonSet's nodes are judged with: its template's, with the daemon
/// tolerations.
pub fn daemon_spec(set: &crate::api::daemonset::DaemonSet) -> PodSpec {
    with_daemon_tolerations(set.spec.template.spec.as_ref().unwrap_or(&PodSpec::default()))
}

#[cfg(test)]
#[path = "nodes_tests.rs"]
mod tests;
