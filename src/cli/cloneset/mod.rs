//! The CloneSet's own verbs: `migrate` (a Deployment's pods to a CloneSet, [`migrate`],
//! shown as [`migrate_view`] says).
pub mod migrate;
pub mod migrate_view;
