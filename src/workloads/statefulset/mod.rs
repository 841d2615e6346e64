//! The Advanced StatefulSet controller
//! (<https://openkruise.io/docs/user-manuals/advancedstatefulset>): [`controller`] wires it
//! to the shared runtime (`kubectl kruise run --controllers StatefulSet`). Pure parts: which
//! ordinals the set wants ([`ordinals`]), what the pod and claims of one ordinal look like
//! ([`identity`]), and the planner ([`plan`] with [`plan_update`] and [`plan_status`], over
//! what a round works with in [`round`]), which emits the shared
//! [`crate::runtime::actions::Action`]s.
pub mod controller;
pub mod defaults;
pub mod facts;
pub mod identity;
pub mod ordinals;
pub mod plan;
pub mod plan_status;
pub mod plan_update;
pub mod preview;
pub mod round;
