//! kubectl-kruise: OpenKruise-compatible advanced workloads in one kubectl plugin.
//!
//! Layout (see also the README's Layout section):
//! - [`admission`]: `run`'s HTTPS server (metrics, probes, admission webhooks).
//! - [`api`]: CRD types of `apps.kruise.io`, one file per kind.
//! - [`cli`]: clap definitions and command dispatch; the binary only calls [`cli::main`].
//! - [`runtime`]: the machinery every controller shares: one reconcile driver, the shared
//!   watches and caches, expectations, the executor of pod writes, revisions and history,
//!   lifecycle hooks and the in-place update engine.
//! - [`workloads`]: one module per kind (CloneSet, Advanced StatefulSet, Advanced
//!   DaemonSet, BroadcastJob, AdvancedCronJob, SidecarSet, WorkloadSpread,
//!   UnitedDeployment), each planning with a pure function from a snapshot to a plan.
//! - [`testenv`]: the local control plane (etcd, kube-apiserver, controller-manager,
//!   scheduler built from Go modules, plus a simulated kubelet) used for demos and tests.

pub mod admission;
pub mod api;
pub mod cli;
pub mod duration;
pub mod runtime;
pub mod testenv;
pub mod workloads;
