//! The SidecarSet controller, in progress. [`controller`] wires it to the
//! shared runtime (`kubectl kruise run --controllers SidecarSet`): its status and hash
//! annotations. Pure parts: which pods a SidecarSet injects ([`matching`]), a pod as
//! injected at its creation ([`inject`], served by the pod webhook in
//! `crate::admission::pods`), the hash annotations ([`hash`]), the status ([`status`]) and
//! the in-place sidecar upgrade ([`plan_update`]), its ControllerRevisions ([`revisions`],
//! written by [`revision_sync`]) and the `SidecarSetUpgradable` pod condition
//! ([`upgradable`]). Which revision a new pod gets: [`pinned`]; hot-upgrade pairs:
//! [`hot`]. OpenKruise's user manual: <https://openkruise.io/docs/user-manuals/sidecarset>.
pub mod controller;
pub mod defaults;
pub mod facts;
pub mod go_json;
pub mod hash;
pub mod hot;
pub mod image_ref;
pub mod inject;
pub mod matching;
pub mod pinned;
pub mod plan;
pub mod plan_update;
pub mod pod_facts;
pub mod pod_hook;
pub mod preview;
pub mod resources;
pub mod revision_sync;
pub mod revisions;
pub mod status;
pub mod upgradable;
pub mod validation;
pub mod webhook;
pub mod whitelist;
