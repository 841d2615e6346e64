//! The writes a planner asks for, shared by every workload controller: typed [`Action`]s
//! (each names its pod), why each pod write happens ([`Why`], which names its event) and
//! the warnings a planner raises ([`Problem`]). Planners only build these values; the
//! executor is the one place that sends them.
//!
//! Invariant: every action names the object it writes, so the executor can group the
//! writes of one pod and run them in plan order.
use k8s_openapi::api::core::v1::{PersistentVolumeClaim, Pod};
use kube::core::{ApiResource, DynamicObject};
use serde_json::Value;

/// One write. Pods are named; the executor records an expectation for each.
#[derive(Debug, Clone, PartialEq)]
pub enum Action {
    /// Create the PVCs (skipping existing names), then the pod.
    CreatePod {
        pod: Box<Pod>,
        claims: Vec<PersistentVolumeClaim>,
    },
    /// Delete the pod, then its PVCs (the controller deleted it, so nothing will reuse them).
    DeletePod {
        name: String,
        uid: String,
        claims: Vec<String>,
        /// Why, when the delete has its own event (a recreation); None: `SuccessfulDelete`.
        why: Option<Why>,
    },
    DeleteClaim {
        name: String,
    },
    /// Create a claim a live pod needs and that is missing (deleted by a user while the pod
    /// waited); an existing name is left alone.
    CreateClaim {
        claim: Box<PersistentVolumeClaim>,
    },
    /// Strategic-merge patch of the pod (carries the cached resourceVersion when it must).
    PatchPod {
        name: String,
        patch: Value,
        why: Why,
    },
    /// Strategic-merge patch of the pod's status subresource.
    PatchPodStatus {
        name: String,
        patch: Value,
        why: Why,
    },
    /// A write of a child that is not a pod (a Job, a workload), in its own namespace.
    Child(ChildAction),
    /// A pod write (not a create) in another namespace than the owner's: a cluster-scoped
    /// SidecarSet upgrades pods anywhere.
    Elsewhere {
        namespace: String,
        action: Box<Action>,
    },
}

/// A write of a child that is not a pod. The child kind is named by its [`ApiResource`]
/// (`ApiResource::erase::<Job>(&())`); expectations are checked against the watch the
/// kind registered for it ([`crate::runtime::children`]).
#[derive(Debug, Clone, PartialEq)]
pub enum ChildAction {
    /// Create the child (an existing name is left alone: it is what was wanted).
    Create {
        resource: ApiResource,
        object: Box<DynamicObject>,
    },
    /// Delete the child if it still has `uid`.
    Delete {
        resource: ApiResource,
        namespace: String,
        name: String,
        uid: String,
    },
    /// Merge-patch the child (its spec: a partition, a replica count, a suspend flag).
    Patch {
        resource: ApiResource,
        namespace: String,
        name: String,
        patch: Value,
    },
}

impl ChildAction {
    /// `namespace/name` of the child written (`name` for a cluster-scoped one).
    pub fn target(&self) -> String {
        let (namespace, name) = match self {
            ChildAction::Create { object, .. } => (
                object.metadata.namespace.clone().unwrap_or_default(),
                object.metadata.name.clone().unwrap_or_default(),
            ),
            ChildAction::Delete { namespace, name, .. } | ChildAction::Patch { namespace, name, .. } => {
                (namespace.clone(), name.clone())
            }
        };
        if namespace.is_empty() {
            name
        } else {
            format!("{namespace}/{name}")
        }
    }

    pub fn resource(&self) -> &ApiResource {
        match self {
            ChildAction::Create { resource, .. }
            | ChildAction::Delete { resource, .. }
            | ChildAction::Patch { resource, .. } => resource,
        }
    }
}

/// Why a pod write happens: names the event reason (`Successful<why>` / `Failed<why>`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Why {
    Release,
    Lifecycle,
    ReadinessGate,
    TemplateHash,
    UpdatePodInPlace,
    /// Marking a pod for recreation (the scale phase deletes it later).
    UpdatePodReCreate,
    /// Deleting a pod to recreate it at the update revision.
    RecreatePod,
    Grace,
    /// Restoring a pod's identity labels (Advanced StatefulSet).
    Identity,
    /// A claim's owner references, per the PVC retention policy (Advanced StatefulSet).
    ClaimOwners,
    /// Taking an orphaned pod whose name and labels are the set's (Advanced StatefulSet).
    Adopt,
    /// A pod condition a controller reports on pods it does not own (a SidecarSet's
    /// `SidecarSetUpgradable`).
    PodCondition,
    /// Resetting the idle half of a hot-upgrade sidecar to its empty image (SidecarSet).
    ResetContainer,
    /// A WorkloadSpread's annotations on a pod of another workload: the subset it adopted
    /// the pod into, the pod's deletion cost. No event (a scale can rewrite every cost).
    Spread,
    /// A UnitedDeployment's reserved-pod label on a pod of its subset workload (reservation
    /// mode). No event, as upstream.
    Reserve,
    /// A PodUnavailableBudget's name on a pod it counts (`pub.kruise.io/related-pub`). No
    /// event, as upstream.
    RelatedBudget,
}

impl Why {
    /// The event reason suffix (`None`: no event for this kind of write).
    pub fn event(self) -> Option<&'static str> {
        match self {
            Why::UpdatePodInPlace => Some("UpdatePodInPlace"),
            Why::UpdatePodReCreate | Why::RecreatePod => Some("UpdatePodReCreate"),
            Why::Release => Some("ReleasePod"),
            Why::Adopt => Some("AdoptPod"),
            Why::ResetContainer => Some("ResetContainer"),
            _ => None,
        }
    }
}

/// A warning the planner wants recorded (an event and, for updates, a condition).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    pub reason: &'static str,
    pub message: String,
}
