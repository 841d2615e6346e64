//! One module per workload kind. Each plans with pure functions from a snapshot, and no
//! object shape the API server can store makes a planner panic (`shape_tests.rs`).
/// The most pods one set may ask for. A larger `spec.replicas` (the API server stores up to
/// 2^31 - 1) is refused with an event naming the field, instead of planning billions of pods.
pub const MAX_REPLICAS: i32 = 100_000;

/// The problem message for a `spec.replicas` above [`MAX_REPLICAS`], if it is.
pub fn too_many_replicas(kind: &str, name: &str, replicas: Option<i32>) -> Option<String> {
    let asked = replicas.unwrap_or(1);
    (asked > MAX_REPLICAS).then(|| {
        format!("{kind} {name}: spec.replicas {asked} is above the {MAX_REPLICAS} pods one set may have; nothing is planned until it is lowered")
    })
}

pub mod cloneset;
pub mod common;
pub mod registry;
pub mod statefulset;

#[cfg(test)]
mod shape_tests;
