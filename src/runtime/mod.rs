//! Runtime shared by every controller: the writes planners ask for ([`actions`]) and the
//! one place that sends them ([`executor`]), the reconcile context and errors
//! ([`context`]), serving a controller ([`controller`]) and the one reconcile of every
//! kind ([`driver`]), the one rate-limited client with write counters
//! ([`client`]), leader election ([`leader`]), metrics ([`metrics`]), shared watches and stores ([`watches`]),
//! expectations ([`expectations`]), the malloc arena ([`heap`]), events ([`events`]), the in-place update engine
//! ([`inplace`]), lifecycle hooks ([`lifecycle`]) and revision history ([`revision`]).
pub mod access;
pub mod actions;
pub mod backoff;
pub mod cached_pod;
pub mod children;
pub mod client;
pub mod coalesce;
pub mod configuration;
pub mod context;
pub mod controller;
pub mod decoded;
pub mod driver;
pub mod events;
pub mod executor;
pub mod expectations;
pub mod features;
pub mod heap;
pub mod history;
pub mod inplace;
pub mod leader;
pub mod lifecycle;
pub mod merge_patch;
pub mod metrics;
pub mod owner_index;
pub mod rbac;
pub mod revision;
pub mod scope;
pub mod strategic_merge;
pub mod template_defaults;
pub mod triggers;
pub mod watches;
pub mod workqueue;
