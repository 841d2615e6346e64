//! The in-place update engine shared by CloneSet, Advanced StatefulSet, Advanced
//! DaemonSet and SidecarSet, speaking OpenKruise's protocol on the pod. This part is pure:
//! [`decide`] says whether a pod can move between two revisions in place and what
//! changes; [`state`] is the state kept on the pod and the completion rule; [`patch`]
//! builds the writes and [`step`] plans them for one pod (refresh, update in place or
//! recreate). The workloads choose which pods to update; the shared executor sends the
//! writes.
pub mod decide;
pub mod patch;
pub mod priority;
pub mod state;
pub mod step;

pub use decide::{Decision, MetadataChanges, decide};
pub use state::{InPlaceUpdateState, is_update_complete};
