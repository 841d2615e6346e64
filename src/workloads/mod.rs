//! One module per workload kind. Each plans with pure functions from a snapshot; the
//! controllers that execute the plans arrive with `kubectl kruise run` (issue 4).
pub mod cloneset;
pub mod statefulset;
