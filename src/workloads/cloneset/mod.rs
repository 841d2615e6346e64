//! CloneSet (reference §3). So far the pure parts of the scale and update steps:
//! resolving the rollout numbers ([`numbers`]), the scale/update diffs ([`diffs`]) the pod
//! orders for deletion and update ([`order`]) and the update batch limit ([`update_limit`]).
pub mod diffs;
pub mod numbers;
pub mod order;
pub mod update_limit;
