//! The SidecarSet on the shared reconcile driver ([`crate::runtime::driver`]), so far its
//! status and hash annotations: the pods it selects (all cached pods, filtered by its
//! selector and namespace scope: a scan, no index yet), the Namespaces (a child watch,
//! for `namespaceSelector`), the pure [`super::status`] and [`super::hash`].
//!
//! ```text
//! SidecarSet event ─┐
//! any pod event     ├─> driver ─> hash annotations (spec patch) ─> status ─> events
//! Namespace change  ┘   (a pod wakes the SidecarSets whose selector matches its labels)
//! ```
use k8s_openapi::api::core::v1::Namespace;
use k8s_openapi::jiff::Timestamp;
use kube::ResourceExt;
use kube::core::{Selector, SelectorExt};
use kube::runtime::reflector::ObjectRef;

use super::{hash, matching, status};
use crate::api::sidecarset::{SidecarSet, SidecarSetStatus};
use crate::runtime::controller::{Context, Serve};

pub const CONTROLLER: &str = "SidecarSet";

impl crate::runtime::driver::Reconciled for SidecarSet {
    const CONTROLLER: &'static str = CONTROLLER;
    type Revisions = crate::runtime::driver::NoRevisions;
    type Status = SidecarSetStatus;

    fn plan(
        &self,
        ctx: &Context,
        _history: &crate::runtime::history::History,
        _now: Timestamp,
    ) -> crate::runtime::driver::Planned<SidecarSetStatus> {
        let namespaces = ctx.children.get::<Namespace>();
        let labels_of = |ns: &str| {
            namespaces
                .as_ref()
                .and_then(|w| w.store.get(&ObjectRef::new(ns)))
                .and_then(|n| n.metadata.labels.clone())
        };
        let pods = ctx.watches.pods.state();
        let selected: Vec<&k8s_openapi::api::core::v1::Pod> = pods
            .iter()
            .map(AsRef::as_ref)
            .filter(|p| matching::selects_pod(self, p, labels_of(&matching::pod_namespace(p)).as_ref()))
            .collect();
        let plan = status::plan(&status::Snapshot {
            set: self,
            pods: selected,
        });
        crate::runtime::driver::Planned {
            problems: plan.problems,
            status: plan.status,
            spec_patch: hash::annotations_patch(self),
            ..Default::default()
        }
    }
}

/// A pod event wakes the SidecarSets whose selector matches its labels, whatever
/// controls the pod.
impl crate::runtime::controller::Interest for SidecarSet {
    fn wants_orphan(&self, pod: &k8s_openapi::api::core::v1::Pod) -> bool {
        self.spec
            .selector
            .clone()
            .and_then(|s| Selector::try_from(s).ok())
            .is_some_and(|s| !s.selects_all() && s.matches(pod.labels()))
    }

    fn follows_controlled_pods() -> bool {
        true
    }
}

/// Runs the SidecarSet controller until `shutdown` resolves.
pub async fn run<F>(serve: Serve<F>)
where
    F: std::future::Future<Output = ()> + Send + Sync + 'static,
{
    let client = serve.client.clone();
    let triggers = crate::runtime::triggers::Triggers::new().children::<Namespace>(
        &client,
        None,
        |set: &SidecarSet, _| set.spec.namespace_selector.is_some(),
    );
    crate::runtime::driver::run::<SidecarSet, _>("sidecarsets.apps.kruise.io", serve, triggers).await;
}
