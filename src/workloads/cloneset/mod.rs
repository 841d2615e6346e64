//! CloneSet (reference §3). So far the pure parts of the scale and update steps:
//! resolving the rollout numbers ([`numbers`]), the scale/update diffs ([`diffs`]) the pod
//! orders for deletion and update ([`order`]) the update batch limit ([`update_limit`]) and the
//! status counters ([`status`]).
pub mod diffs;
pub mod numbers;
pub mod order;
pub mod status;
pub mod update_limit;
