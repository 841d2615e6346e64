//! The UnitedDeployment (reference §3): one workload per topology subset, rendered from
//! the template, with the replicas split between them and partitions per subset.
//!
//! - [`allocate`]: the replica split (specific, capacity, adaptive, reservation);
//! - [`adaptive`]: which subsets can take pods under the Adaptive strategy;
//! - [`render`]: a subset's workload rendered from the template, and read back;
//! - [`revisions`] (pure) and [`revision_sync`] (writes): the UnitedDeployment's history;
//! - [`plan`] and [`status`]: one round, pure; [`controller`]: the driver glue;
//! - [`validation`]: what upstream's webhook refuses and defaults.
//!
//! Not built yet: the reservation mode's reserved-pod labels and substitutes (its
//! allocator is here; the controller runs it as the default adaptive mode).
pub mod adaptive;
pub mod allocate;
pub mod controller;
pub mod plan;
pub mod render;
pub mod revision_sync;
pub mod revisions;
pub mod status;
pub mod validation;
