//! The UnitedDeployment (reference §3), in progress: pure parts first. The replica split
//! between subsets ([`allocate`]), each subset's workload as rendered from the template
//! ([`render`]), and what upstream's webhook refuses and defaults ([`validation`]).
//! Not there yet: revisions, the adaptive bookkeeping, the controller, the CLI.
pub mod allocate;
pub mod render;
pub mod validation;
