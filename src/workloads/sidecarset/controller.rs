//! The SidecarSet on the shared reconcile driver ([`crate::runtime::driver`]): the pods it
//! selects (all cached pods, filtered by its selector and namespace scope: a scan, no
//! index yet), the Namespaces (a child watch, for `namespaceSelector`), and the pure
//! [`super::plan`]. A run scoped to a
//! namespace (`run -n NS`) drives only the SidecarSets scoped to that namespace (by
//! `spec.namespace` or a `kubernetes.io/metadata.name` namespace selector): it sees no
//! other namespace's pods, and two runs must not write one status from different views. A round whose hash
//! annotations are stale (the containers just changed) upgrades nothing: the annotations
//! are written first, and their event starts the next round. Its status already counts
//! against the new hashes, so `observedGeneration` never comes with the old counts.
//!
//! ```text
//! SidecarSet event ─┐
//! any pod event     ├─> driver ─> in-place sidecar upgrade (pure plan_update) ─> executor
//! Namespace change  ┘             ─> hash annotations (spec patch) ─> status ─> events
//!   (a pod wakes the SidecarSets whose selector matches its labels)
//! ```
use k8s_openapi::api::core::v1::Namespace;
use k8s_openapi::jiff::Timestamp;
use kube::ResourceExt;
use kube::core::{Selector, SelectorExt};
use kube::runtime::reflector::ObjectRef;

use super::matching;
use crate::api::sidecarset::{SidecarSet, SidecarSetStatus};
use crate::runtime::controller::{Context, Serve};
use crate::runtime::rbac::{KRUISE, Rule, rule};

/// What it needs beyond the shared runtime's permissions and the shared groups below.
const OWN_RULES: &[Rule] = &[
    // patch: the hash annotations.
    rule(KRUISE, &["sidecarsets"], &["list", "watch", "patch"]),
    rule(KRUISE, &["sidecarsets/status"], &["patch"]),
    rule("", &["namespaces"], &["list", "watch"]),
    rule("", &["pods"], &["patch"]),
    rule("", &["pods/status"], &["patch"]),
    rule("apps", &["controllerrevisions"], &["create", "patch", "delete"]),
];

pub const CONTROLLER: &str = "SidecarSet";

impl crate::runtime::driver::Reconciled for SidecarSet {
    const CONTROLLER: &'static str = CONTROLLER;
    const DRIVES: &'static str = "SidecarSet";
    const CRD: &'static str = "sidecarsets.apps.kruise.io";
    const RULES: &'static [&'static [Rule]] = &[OWN_RULES];
    type Revisions = super::revision_sync::SidecarSetRevisions;
    type Status = SidecarSetStatus;

    /// Namespaces (their labels), for the sets with a `namespaceSelector`.
    fn triggers<F>(serve: &Serve<F>) -> crate::runtime::triggers::Triggers<Self> {
        crate::runtime::triggers::Triggers::new().children::<Namespace>(
            &serve.client,
            None,
            |set: &SidecarSet, _| set.spec.namespace_selector.is_some(),
        )
    }

    fn plan(
        &self,
        ctx: &Context,
        history: &crate::runtime::history::History,
        now: Timestamp,
    ) -> crate::runtime::driver::Planned<SidecarSetStatus> {
        // A run scoped to one namespace sees only that namespace's pods: it drives only
        // the SidecarSets scoped to that namespace (another run drives the others).
        if let Some(scope) = ctx.scope.as_deref()
            && matching::scoped_to(self) != Some(scope)
        {
            return crate::runtime::driver::Planned::default();
        }
        let namespaces = ctx.children.get::<Namespace>();
        let labels_of = |ns: &str| {
            namespaces
                .as_ref()
                .and_then(|w| w.store.get(&ObjectRef::new(ns)))
                .and_then(|n| n.metadata.labels.clone())
        };
        // Chosen by their metadata (a record keeps its labels apart from its `meta()`: read
        // them from its metadata as a pod), then assembled: only the pods the set selects.
        let records: Vec<_> = ctx
            .watches
            .pods
            .state()
            .into_iter()
            .filter(|p| {
                let p = p.metadata_only();
                matching::selects_pod(self, &p, labels_of(&matching::pod_namespace(&p)).as_ref())
            })
            .collect();
        let pods = crate::runtime::cached_pod::pods(&records);
        let selected: Vec<&k8s_openapi::api::core::v1::Pod> = pods.iter().map(AsRef::as_ref).collect();
        super::plan::plan(&super::plan::Snapshot {
            set: self,
            selected,
            latest_revision: &history.update,
            collision_count: history.collision_count,
            now,
        })
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
