//! The WorkloadSpread (reference §2), in progress. Pure parts so far: the placement of a
//! new pod into a subset ([`place`]: which subset, the status bookkeeping that keeps
//! concurrent creates from overfilling one, and the pod as injected), a placed pod leaving
//! ([`deleting`]), a subset's status from the pods found in it ([`status`]), the adaptive
//! `Schedulable` condition and the stuck pods it moves on ([`schedulable`]), and the
//! deletion costs that steer the workload's scale-in ([`cost`]).
//! Not there yet: the pod webhooks that serve them, the controller (status, adoption,
//! adaptive rescheduling), validation wiring, the CLI.
pub mod cost;
pub mod deleting;
pub mod place;
pub mod schedulable;
pub mod status;
