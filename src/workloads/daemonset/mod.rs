//! The Advanced DaemonSet controller
//! (<https://openkruise.io/docs/user-manuals/advanceddaemonset>): [`controller`] wires it to
//! the shared runtime (`kubectl kruise run --controllers DaemonSet`). Pure parts: which nodes
//! run a pod and how a pod is pinned to its node ([`nodes`]), the pod it creates ([`pods`]),
//! and the planner ([`plan`] with [`plan_manage`], [`plan_update`] and [`plan_status`], over
//! what a round works with in [`round`]), which emits the shared
//! [`crate::runtime::actions::Action`]s.
pub mod controller;
pub mod defaults;
pub mod facts;
pub mod nodes;
pub mod plan;
pub mod plan_manage;
pub mod plan_status;
pub mod plan_update;
pub mod pods;
pub mod preview;
pub mod round;
