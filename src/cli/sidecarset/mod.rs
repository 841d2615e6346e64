//! The SidecarSet's own views: `get --tree` (the pods it selects, grouped by the sidecars
//! they run, [`tree`]) and `rollout status` (its in-place sidecar upgrade, judged from its
//! status counters, [`status`]); and its verb `exec -S` (into a sidecar, a hot-upgrade
//! pair's working half, [`exec`]).
pub mod exec;
pub mod status;
pub mod tree;
