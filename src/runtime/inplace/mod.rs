//! The in-place update engine shared by CloneSet, Advanced StatefulSet, Advanced
//! DaemonSet and SidecarSet (reference §1). This part is pure: [`decide`] says whether a
//! pod can move between two revisions in place and what changes; [`state`] is the state
//! kept on the pod and the completion rule. The writes (readiness gate, pod patch) come
//! with the controllers and go through the shared executor.
pub mod decide;
pub mod patch;
pub mod state;

pub use decide::{Decision, MetadataChanges, decide};
pub use state::{InPlaceUpdateState, is_update_complete};
