//! What several workload kinds share: when a pod counts as ready and available
//! ([`availability`]), int-or-percent fields ([`int_or_percent`]), the orders pods are
//! deleted and updated in ([`order`]), the specs upstream's webhook refuses and CEL
//! cannot express ([`refusals`]) and Kubernetes' name, key and value rules they use
//! ([`names`]), random pod-name ids ([`pod_names`]), the workload a `targetRef` names
//! ([`targets`]), and the labels a user sets on pods.
pub mod availability;
#[cfg(test)]
mod cached_reads_tests;
pub mod defaults;
pub mod field_faults;
pub mod int_or_percent;
#[cfg(test)]
pub mod json_pointer;
pub mod names;
pub mod node_fit;
pub mod order;
pub mod pod_names;
pub mod quantity;
pub mod refusals;
pub mod scatter;
pub mod targets;
#[cfg(test)]
pub mod test_views;

/// Any value: the workload should delete (and replace) this pod (CloneSet, Advanced
/// StatefulSet and Advanced DaemonSet alike).
pub const SPECIFIED_DELETE_LABEL: &str = "apps.kruise.io/specified-delete";
