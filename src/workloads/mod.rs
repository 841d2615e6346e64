//! One module per workload kind. Each plans with pure functions from a snapshot, and no
//! object shape the API server can store makes a planner panic (`shape_tests.rs`,
//! `shape_kinds_tests.rs`).
pub use common::refusals::MAX_REPLICAS;

pub mod broadcastjob;
pub mod cloneset;
pub mod common;
pub mod cronjob;
pub mod daemonset;
pub mod facts;
pub mod pod_hooks;
pub mod podunavailablebudget;
pub mod registry;
pub mod sidecarset;
pub mod statefulset;
pub mod uniteddeployment;
pub mod workloadspread;

#[cfg(test)]
mod kind_names_tests;
#[cfg(test)]
mod shape_kinds_tests;
#[cfg(test)]
mod shape_tests;
