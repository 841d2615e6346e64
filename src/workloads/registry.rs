//! Every controller described once, with its kind's facts (one line per kind, read by
//! [`facts`]): `run --controllers` and its help, the check that the
//! CRDs are established, the metrics labels (the name) and the RBAC rules (the ClusterRole
//! of `install --manager`, the permission check of `run`) are all read from
//! [`CONTROLLERS`], never from string matches elsewhere.
//!
//! Invariant: names are OpenKruise's, as its enable list spells them; a controller that
//! does not exist yet is listed with no `start`, so asking for it says "not available yet"
//! rather than "unknown".
use std::future::Future;
use std::pin::Pin;

use futures::future::BoxFuture;

use kube::core::object::HasStatus;

use crate::api::KruiseKind;
use crate::runtime::controller::{Interest, Serve};
use crate::runtime::driver::Reconciled;
use crate::runtime::rbac::Rule;
use crate::runtime::scope::Scoped;
use crate::workloads::facts::{Defaults, HasFacts, KindFacts};
use crate::workloads::pod_hooks::{HookSetup, KindHook, WatchHook};

/// What stops a running controller (resolves once, on Ctrl-C, SIGTERM or a lost lease).
pub type Shutdown = Pin<Box<dyn Future<Output = ()> + Send + Sync>>;

/// Runs one controller until its shutdown resolves.
pub type Start = fn(Serve<Shutdown>) -> BoxFuture<'static, ()>;

/// One controller.
#[derive(Clone, Copy)]
pub struct Described {
    /// The OpenKruise kind it drives (None: a kind of this project's tests).
    pub kind: Option<KruiseKind>,
    /// What the webhooks and the rollout verbs know of its kind.
    pub facts: &'static dyn KindFacts,
    /// Its part in the pod webhooks, if it has one.
    pub pod_hook: Option<WatchHook>,
    /// As OpenKruise names it (and metrics label it).
    pub name: &'static str,
    /// What it drives, for help texts.
    pub drives: &'static str,
    /// The CRD its objects live in.
    pub crd: &'static str,
    /// None: not available yet.
    pub start: Option<Start>,
    /// The permissions it needs beyond the shared runtime's ([`crate::runtime::rbac::SHARED`]),
    /// in groups (what it shares with other kinds is one group).
    pub rules: &'static [&'static [Rule]],
}

impl std::fmt::Debug for Described {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Described")
            .field("name", &self.name)
            .field("kind", &self.kind)
            .field("crd", &self.crd)
            .finish_non_exhaustive()
    }
}

impl Described {
    /// Every rule it declares.
    pub fn rules(&self) -> impl Iterator<Item = &'static Rule> {
        self.rules.iter().flat_map(|group| group.iter())
    }
}

/// The one start function: runs kind `K` on the shared driver until its shutdown resolves.
pub fn start<K>(serve: Serve<Shutdown>) -> BoxFuture<'static, ()>
where
    K: Reconciled + Interest + HasStatus,
    K::Scope: Scoped,
    <K as HasStatus>::Status: Default + serde::Serialize,
{
    Box::pin(crate::runtime::driver::run::<K, _>(serve))
}

/// Kind `K` as the registry lists it: everything read from its [`Reconciled`] description
/// and its facts ([`HasFacts`]).
pub const fn of<K>() -> Described
where
    K: Reconciled + Interest + HasStatus + HasFacts,
    K::Scope: Scoped,
    <K as HasStatus>::Status: Default + serde::Serialize,
{
    Described {
        kind: K::KIND,
        facts: K::FACTS,
        pod_hook: K::POD_HOOK,
        name: K::CONTROLLER,
        drives: K::DRIVES,
        crd: K::CRD,
        start: Some(start::<K>),
        rules: K::RULES,
    }
}

/// What every controller asks before it updates a pod in place or deletes it: the pod's
/// PodUnavailableBudget judges and records it.
pub const BEFORE_TAKE_DOWN: crate::runtime::context::BeforeTakeDown =
    crate::workloads::podunavailablebudget::guard::before_take_down_boxed;

/// Every kind, one line each, in `run --controllers` order.
pub const CONTROLLERS: &[Described] = &[
    of::<crate::api::cloneset::CloneSet>(),
    of::<crate::api::statefulset::v1beta1::StatefulSet>(),
    of::<crate::api::daemonset::DaemonSet>(),
    of::<crate::api::broadcastjob::BroadcastJob>(),
    of::<crate::api::cronjob::AdvancedCronJob>(),
    of::<crate::api::sidecarset::SidecarSet>(),
    of::<crate::api::workloadspread::WorkloadSpread>(),
    of::<crate::api::uniteddeployment::UnitedDeployment>(),
    of::<crate::api::podunavailablebudget::PodUnavailableBudget>(),
];

/// What the webhooks and the rollout verbs know of `kind`: the facts its registry line
/// names (every kind has one, tested; a kind with none would get the defaults).
pub fn facts(kind: KruiseKind) -> &'static dyn KindFacts {
    CONTROLLERS
        .iter()
        .find(|c| c.kind == Some(kind))
        .map_or(&Defaults, |c| c.facts)
}

/// Every kind's pod hook, built (its watches started) and in [`crate::workloads::pod_hooks::Stage`]
/// order, with its kind.
pub fn pod_hooks(setup: &HookSetup<'_>) -> Vec<KindHook> {
    let mut hooks: Vec<_> = CONTROLLERS
        .iter()
        .filter_map(|c| Some((c.kind, (c.pod_hook?)(setup))))
        .collect();
    hooks.sort_by_key(|(_, hook)| hook.stage());
    hooks
}

/// The controller named `name` (case-insensitive), available or not.
pub fn find(name: &str) -> Option<&'static Described> {
    CONTROLLERS
        .iter()
        .find(|c| c.name.eq_ignore_ascii_case(name.trim()))
}

/// The controllers that exist, in list order.
pub fn available() -> impl Iterator<Item = &'static Described> {
    CONTROLLERS.iter().filter(|c| c.start.is_some())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_kind_judged_among_its_peers_has_a_pod_hook_that_serves_them() {
        for line in CONTROLLERS {
            if line.facts.judged_in_context() {
                assert!(line.pod_hook.is_some(), "{}", line.name);
            }
        }
    }

    #[test]
    fn every_openkruise_kind_is_registered_once_with_its_own_crd() {
        for kind in KruiseKind::ALL {
            let lines: Vec<_> = CONTROLLERS.iter().filter(|c| c.kind == Some(kind)).collect();
            assert_eq!(lines.len(), 1, "{kind:?}");
            assert_eq!(lines[0].crd, kind.crd_name(), "{kind:?}");
        }
    }

    #[test]
    fn names_are_unique_and_each_crd_is_of_a_kruise_group() {
        let mut names: Vec<&str> = CONTROLLERS.iter().map(|c| c.name).collect();
        names.sort();
        names.dedup();
        assert_eq!(names.len(), CONTROLLERS.len());
        assert!(
            CONTROLLERS
                .iter()
                .all(|c| c.crd.ends_with(".apps.kruise.io") || c.crd.ends_with(".policy.kruise.io"))
        );
        assert_eq!(find("clONESet").map(|c| c.name), Some("CloneSet"));
        assert_eq!(
            available().map(|c| c.name).collect::<Vec<_>>(),
            [
                "CloneSet",
                "StatefulSet",
                "DaemonSet",
                "BroadcastJob",
                "AdvancedCronJob",
                "SidecarSet",
                "WorkloadSpread",
                "UnitedDeployment",
                "PodUnavailableBudget"
            ]
        );
    }

    #[test]
    fn every_crd_the_registry_names_is_one_the_project_installs() {
        let installed: Vec<String> = crate::api::crds()
            .iter()
            .filter_map(|c| c.metadata.name.clone())
            .collect();
        for c in CONTROLLERS {
            assert!(
                installed.iter().any(|n| n == c.crd),
                "{} not installed: {installed:?}",
                c.crd
            );
        }
    }
}
