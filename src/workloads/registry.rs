//! Every controller described once, and the one dispatch from a kind to its facts
//! ([`facts`]): `run --controllers` and its help, the check that the
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
use crate::workloads::facts::KindFacts;

/// What stops a running controller (resolves once, on Ctrl-C, SIGTERM or a lost lease).
pub type Shutdown = Pin<Box<dyn Future<Output = ()> + Send + Sync>>;

/// Runs one controller until its shutdown resolves.
pub type Start = fn(Serve<Shutdown>) -> BoxFuture<'static, ()>;

/// One controller.
#[derive(Debug, Clone, Copy)]
pub struct Described {
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

/// Kind `K` as the registry lists it: everything read from its [`Reconciled`] description.
pub const fn of<K>() -> Described
where
    K: Reconciled + Interest + HasStatus,
    K::Scope: Scoped,
    <K as HasStatus>::Status: Default + serde::Serialize,
{
    Described {
        name: K::CONTROLLER,
        drives: K::DRIVES,
        crd: K::CRD,
        start: Some(start::<K>),
        rules: K::RULES,
    }
}

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
];

/// What the webhooks and the rollout verbs know of `kind`: the one dispatch from an
/// OpenKruise kind to its own module's facts.
pub fn facts(kind: KruiseKind) -> &'static dyn KindFacts {
    use crate::workloads::*;
    match kind {
        KruiseKind::CloneSet => &cloneset::facts::Facts,
        KruiseKind::StatefulSet => &statefulset::facts::Facts,
        KruiseKind::DaemonSet => &daemonset::facts::Facts,
        KruiseKind::BroadcastJob => &broadcastjob::facts::Facts,
        KruiseKind::AdvancedCronJob => &cronjob::facts::Facts,
        KruiseKind::SidecarSet => &sidecarset::facts::Facts,
        KruiseKind::WorkloadSpread => &workloadspread::facts::Facts,
        KruiseKind::UnitedDeployment => &uniteddeployment::facts::Facts,
    }
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
    fn names_are_unique_and_each_crd_is_of_the_kruise_group() {
        let mut names: Vec<&str> = CONTROLLERS.iter().map(|c| c.name).collect();
        names.sort();
        names.dedup();
        assert_eq!(names.len(), CONTROLLERS.len());
        assert!(CONTROLLERS.iter().all(|c| c.crd.ends_with(".apps.kruise.io")));
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
                "UnitedDeployment"
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
