//! The `set` verbs that change the pod spec a workload rolls out (kubectl's and
//! kruise-tools' `set image`, `set env`, `set resources`, `set serviceaccount`), on one
//! shared read-change-write path ([`pod_spec`]).
pub mod env;
pub mod image;
pub mod pod_spec;
pub mod resources;
pub mod service_account;
