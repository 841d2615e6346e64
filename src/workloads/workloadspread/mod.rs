//! The WorkloadSpread (reference §2), in progress: the pure placement of a new pod into a
//! subset ([`place`]: which subset, the status bookkeeping that keeps concurrent creates
//! from overfilling one, and the pod as injected). Not there yet: the pod webhook that
//! serves it, the DELETE/eviction bookkeeping, the controller (status, deletion costs,
//! adaptive rescheduling), the CLI.
pub mod cost;
pub mod place;
