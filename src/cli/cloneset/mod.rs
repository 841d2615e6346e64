//! The CloneSet's own verbs: `migrate` (a Deployment's pods to a CloneSet, [`migrate`]).
pub mod migrate;
