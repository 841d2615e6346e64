//! The SidecarSet's own views: `get --tree` (the pods it selects, grouped by the sidecars
//! they run, [`tree`]) and `rollout status` (its in-place sidecar upgrade, judged from its
//! status counters, [`status`]).
pub mod status;
pub mod tree;
