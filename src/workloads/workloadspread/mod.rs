//! The WorkloadSpread (<https://openkruise.io/docs/user-manuals/workloadspread>): the pods
//! of another workload spread over subsets. Its part of the pod webhook ([`webhook`], called
//! by the admission server's `/mutate-pod` and `/validate-pod`) places each new pod ([`place`]: which
//! subset, the status bookkeeping that keeps concurrent creates from overfilling one, the
//! pod as injected) and records each deleted one ([`deleting`]); the controller
//! ([`controller`], planning in [`plan`]) counts each subset ([`status`]), adopts scheduled
//! pods no webhook placed ([`adopt`]), moves pods stuck unschedulable on ([`schedulable`])
//! and writes the deletion costs that steer the workload's scale-in ([`cost`]). What may be
//! targeted and how its pods and replica total are found: [`target`]; what is refused
//! ([`validation`], for `/validate` and the controller alike); the node selector fields
//! written under both versions' names at admission ([`spelling`]).
pub mod adopt;
pub mod controller;
pub mod cost;
pub mod deleting;
pub mod facts;
pub mod place;
pub mod plan;
pub mod pod_hook;
pub mod schedulable;
pub mod spelling;
pub mod status;
pub mod target;
pub mod validation;
pub mod webhook;
