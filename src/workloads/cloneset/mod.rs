//! CloneSet (reference §3). So far: resolving the rollout numbers ([`numbers`]) and the
//! update batch limit ([`update_limit`]), the pure parts of the scale and update steps.
pub mod numbers;
pub mod update_limit;
