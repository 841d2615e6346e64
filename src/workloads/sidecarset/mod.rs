//! The SidecarSet controller (reference §1), in progress. [`controller`] wires it to the
//! shared runtime (`kubectl kruise run --controllers SidecarSet`): its status and hash
//! annotations. Pure parts: which pods a SidecarSet injects ([`matching`]), a pod as
//! injected at its creation ([`inject`], served by the pod webhook in
//! `crate::admission::pods`), the hash annotations ([`hash`]) and the status ([`status`]).
//! Not there yet: ControllerRevisions, the in-place sidecar upgrade, hot upgrade,
//! `resourcesPolicy`, injecting a pinned revision, the CLI verbs.
pub mod controller;
pub mod hash;
pub mod inject;
pub mod matching;
pub mod status;
