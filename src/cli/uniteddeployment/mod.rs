//! The UnitedDeployment's own views and verbs: `get --tree` (its subsets, each a
//! workload, [`tree`]), `rollout status` (every subset, from its status, [`status`]) and
//! `set partition SUBSET=N` ([`partition`]).
pub mod partition;
pub mod status;
pub mod tree;
