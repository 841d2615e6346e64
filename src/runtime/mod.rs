//! Runtime shared by every controller: the one rate-limited client with write counters
//! ([`client`]), metrics ([`metrics`]), shared watches and stores ([`watches`]),
//! expectations ([`expectations`]), events ([`events`]), the in-place update engine
//! ([`inplace`]), lifecycle hooks ([`lifecycle`]) and revision history ([`revision`]).
pub mod client;
pub mod events;
pub mod expectations;
pub mod inplace;
pub mod lifecycle;
pub mod metrics;
pub mod owner_index;
pub mod revision;
pub mod watches;
