//! The UnitedDeployment: one workload per topology subset, rendered from the template,
//! with the replicas split between them and partitions per subset. OpenKruise's user
//! manual: <https://openkruise.io/docs/user-manuals/uniteddeployment>.
//!
//! - [`allocate`]: the replica split (specific, capacity, adaptive, reservation);
//! - [`adaptive`] and [`reserve`]: which subsets can take pods under the Adaptive strategy
//!   (the default mode, and the reservation mode with its substitutes);
//! - [`render`]: a subset's workload rendered from the template, and read back;
//! - [`revisions`] (pure) and [`revision_sync`] (writes): the UnitedDeployment's history;
//! - [`plan`], [`status`] and [`conditions`]: one round, pure; [`controller`]: the driver
//!   glue;
//! - [`validation`]: what upstream's webhook refuses and defaults.
pub mod adaptive;
pub mod allocate;
pub mod conditions;
pub mod controller;
pub mod facts;
pub mod plan;
pub mod preview;
pub mod render;
pub mod reserve;
pub mod revision_sync;
pub mod revisions;
pub mod status;
pub mod validation;
