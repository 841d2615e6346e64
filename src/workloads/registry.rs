//! Every controller described once: `run --controllers` and its help, the check that the
//! CRDs are established, the metrics labels (the name) and, later, the RBAC rules are all
//! read from [`CONTROLLERS`], never from string matches elsewhere.
//!
//! Invariant: names are OpenKruise's, as its enable list spells them; a controller that
//! does not exist yet is listed with no `start`, so asking for it says "not available yet"
//! rather than "unknown".
use std::future::Future;
use std::pin::Pin;

use futures::future::BoxFuture;

use crate::runtime::controller::Serve;

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
}

fn start_cloneset(serve: Serve<Shutdown>) -> BoxFuture<'static, ()> {
    Box::pin(super::cloneset::run(serve))
}

fn start_statefulset(serve: Serve<Shutdown>) -> BoxFuture<'static, ()> {
    Box::pin(super::statefulset::controller::run(serve))
}

fn start_daemonset(serve: Serve<Shutdown>) -> BoxFuture<'static, ()> {
    Box::pin(super::daemonset::controller::run(serve))
}

fn start_broadcastjob(serve: Serve<Shutdown>) -> BoxFuture<'static, ()> {
    Box::pin(super::broadcastjob::controller::run(serve))
}

fn start_cronjob(serve: Serve<Shutdown>) -> BoxFuture<'static, ()> {
    Box::pin(super::cronjob::controller::run(serve))
}

fn start_sidecarset(serve: Serve<Shutdown>) -> BoxFuture<'static, ()> {
    Box::pin(super::sidecarset::controller::run(serve))
}

fn start_workloadspread(serve: Serve<Shutdown>) -> BoxFuture<'static, ()> {
    Box::pin(super::workloadspread::controller::run(serve))
}

fn start_uniteddeployment(serve: Serve<Shutdown>) -> BoxFuture<'static, ()> {
    Box::pin(super::uniteddeployment::controller::run(serve))
}

pub const CONTROLLERS: &[Described] = &[
    Described {
        name: "CloneSet",
        drives: "CloneSet",
        crd: "clonesets.apps.kruise.io",
        start: Some(start_cloneset),
    },
    Described {
        name: "StatefulSet",
        drives: "Advanced StatefulSet",
        crd: "statefulsets.apps.kruise.io",
        start: Some(start_statefulset),
    },
    Described {
        name: "DaemonSet",
        drives: "Advanced DaemonSet",
        crd: "daemonsets.apps.kruise.io",
        start: Some(start_daemonset),
    },
    Described {
        name: "BroadcastJob",
        drives: "BroadcastJob",
        crd: "broadcastjobs.apps.kruise.io",
        start: Some(start_broadcastjob),
    },
    Described {
        name: "AdvancedCronJob",
        drives: "AdvancedCronJob",
        crd: "advancedcronjobs.apps.kruise.io",
        start: Some(start_cronjob),
    },
    Described {
        name: "SidecarSet",
        drives: "SidecarSet",
        crd: "sidecarsets.apps.kruise.io",
        start: Some(start_sidecarset),
    },
    Described {
        name: "WorkloadSpread",
        drives: "WorkloadSpread",
        crd: "workloadspreads.apps.kruise.io",
        start: Some(start_workloadspread),
    },
    Described {
        name: "UnitedDeployment",
        drives: "UnitedDeployment",
        crd: "uniteddeployments.apps.kruise.io",
        start: Some(start_uniteddeployment),
    },
];

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
