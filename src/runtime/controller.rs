//! What every workload controller shares at run time: the [`Context`] of its reconciles
//! (client, watches, expectations, events, metrics), the [`Error`] of a reconcile (each
//! names the object and the write that failed) and who owns what ([`controller_of`]).
//!
//! Invariant: every error names the object it was writing, so an event or a log line
//! says which pod, claim, revision or workload failed.
use std::collections::HashSet;
use std::sync::{Arc, Mutex};

use k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta;
use kube::Client;

use crate::runtime::events::Events;
use crate::runtime::expectations::Expectations;
use crate::runtime::metrics::Metrics;
use crate::runtime::watches::Watches;

pub const FIELD_MANAGER: &str = "kubectl-kruise";

#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error("creating pod {name}: {source}")]
    CreatePod { name: String, source: kube::Error },
    #[error("creating PVC {name}: {source}")]
    CreateClaim { name: String, source: kube::Error },
    #[error("deleting pod {name}: {source}")]
    DeletePod { name: String, source: kube::Error },
    #[error("deleting PVC {name}: {source}")]
    DeleteClaim { name: String, source: kube::Error },
    #[error("patching pod {name}: {source}")]
    PatchPod { name: String, source: kube::Error },
    #[error("patching the status of pod {name}: {source}")]
    PatchPodStatus { name: String, source: kube::Error },
    #[error("writing revision {name}: {source}")]
    WriteRevision { name: String, source: kube::Error },
    #[error("writing the status of {kind} {name}: {source}")]
    PatchStatus {
        kind: &'static str,
        name: String,
        source: kube::Error,
    },
    #[error("pruning spec.scaleStrategy.podsToDelete of CloneSet {name}: {source}")]
    PrunePodsToDelete { name: String, source: kube::Error },
    #[error("{0}")]
    Internal(String),
}

impl Error {
    /// A short stable reason, for events and metrics.
    pub fn reason(&self) -> &'static str {
        match self {
            Error::CreatePod { .. } => "CreatePod",
            Error::CreateClaim { .. } => "CreateClaim",
            Error::DeletePod { .. } => "DeletePod",
            Error::DeleteClaim { .. } => "DeleteClaim",
            Error::PatchPod { .. } => "PatchPod",
            Error::PatchPodStatus { .. } => "PatchPodStatus",
            Error::WriteRevision { .. } => "WriteRevision",
            Error::PatchStatus { .. } => "PatchStatus",
            Error::PrunePodsToDelete { .. } => "PrunePodsToDelete",
            Error::Internal(_) => "Internal",
        }
    }
}

/// What every reconcile shares.
pub struct Context {
    pub client: Client,
    pub watches: Watches,
    pub expectations: Expectations,
    pub events: Events,
    pub metrics: Arc<Metrics>,
    /// Objects triggered and not yet reconciled (the queue depth metric).
    pub queued: Mutex<HashSet<String>>,
}

/// `(name, uid)` of the object's controller when it is a `kind` of apps.kruise.io (any
/// served version).
pub fn controller_of(meta: &ObjectMeta, kind: &str) -> Option<(String, String)> {
    meta.owner_references.iter().flatten().find_map(|o| {
        (o.controller == Some(true) && o.kind == kind && o.api_version.starts_with("apps.kruise.io/"))
            .then(|| (o.name.clone(), o.uid.clone()))
    })
}
