//! CloneSet (reference §3). So far the pure parts of the scale and update steps:
//! resolving the rollout numbers ([`numbers`]), the scale/update diffs ([`diffs`]) the pod
//! orders for deletion and update ([`order`]) the update batch limit ([`update_limit`]) the
//! status counters ([`status`]) and the Progressing condition ([`progressing`]).
pub mod diffs;
pub mod numbers;
pub mod order;
pub mod progressing;
pub mod status;
pub mod update_limit;
