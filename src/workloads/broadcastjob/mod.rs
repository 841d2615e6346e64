//! The BroadcastJob controller (<https://openkruise.io/docs/user-manuals/broadcastjob>): one
//! pod to completion on every node that fits. [`controller`] wires it to the shared runtime
//! (`kubectl kruise run --controllers BroadcastJob`). Pure parts: which nodes fit
//! ([`fitness`]), the pods it creates ([`pods`]) and the planner ([`plan`]), which emits the
//! shared [`crate::runtime::actions::Action`]s.
pub mod controller;
pub mod defaults;
pub mod facts;
pub mod fitness;
pub mod plan;
pub mod pods;
pub mod validation;
