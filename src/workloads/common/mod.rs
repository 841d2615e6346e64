//! What several workload kinds share: when a pod counts as ready and available
//! ([`availability`]), and when a planner waiting on time must look again.
pub mod availability;
