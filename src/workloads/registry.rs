//! Every controller described once: `run --controllers` and its help, the check that the
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

use crate::runtime::controller::Serve;
use crate::runtime::rbac::{KRUISE, Rule, rule};

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

/// A kind that updates its pods through the shared in-place engine and keeps revisions.
const IN_PLACE_POD_OWNER: &[Rule] = &[
    rule("", &["pods"], &["create", "patch", "delete"]),
    // The InPlaceUpdateReady condition.
    rule("", &["pods/status"], &["patch"]),
    rule(
        "apps",
        &["controllerrevisions"],
        &["get", "create", "patch", "delete"],
    ),
];

/// A kind whose pods have claims from volumeClaimTemplates.
const CLAIM_OWNER: &[Rule] = &[rule("", &["persistentvolumeclaims"], &["create", "delete"])];

const CLONESET_RULES: &[Rule] = &[
    rule(KRUISE, &["clonesets"], &["list", "watch", "patch"]),
    rule(KRUISE, &["clonesets/status"], &["patch"]),
    // Pods and claims block their owner's deletion (OwnerReferencesPermissionEnforcement).
    rule(KRUISE, &["clonesets/finalizers"], &["update"]),
];

const STATEFULSET_RULES: &[Rule] = &[
    rule(KRUISE, &["statefulsets"], &["list", "watch"]),
    rule(KRUISE, &["statefulsets/status"], &["patch"]),
    rule(KRUISE, &["statefulsets/finalizers"], &["update"]),
];

const DAEMONSET_RULES: &[Rule] = &[
    rule(KRUISE, &["daemonsets"], &["list", "watch"]),
    rule(KRUISE, &["daemonsets/status"], &["patch"]),
    rule(KRUISE, &["daemonsets/finalizers"], &["update"]),
];

const BROADCASTJOB_RULES: &[Rule] = &[
    // delete: a finished job past its ttlSecondsAfterFinished.
    rule(KRUISE, &["broadcastjobs"], &["list", "watch", "delete"]),
    rule(KRUISE, &["broadcastjobs/status"], &["patch"]),
    rule(KRUISE, &["broadcastjobs/finalizers"], &["update"]),
    rule("", &["pods"], &["create", "delete"]),
];

const CRONJOB_RULES: &[Rule] = &[
    rule(KRUISE, &["advancedcronjobs"], &["list", "watch"]),
    rule(KRUISE, &["advancedcronjobs/status"], &["patch"]),
    rule(KRUISE, &["advancedcronjobs/finalizers"], &["update"]),
    // What it runs: a Job or a BroadcastJob.
    rule("batch", &["jobs"], &["list", "watch", "create", "delete"]),
    rule(KRUISE, &["broadcastjobs"], &["list", "watch", "create", "delete"]),
];

const SIDECARSET_RULES: &[Rule] = &[
    // patch: the hash annotations.
    rule(KRUISE, &["sidecarsets"], &["list", "watch", "patch"]),
    rule(KRUISE, &["sidecarsets/status"], &["patch"]),
    rule("", &["namespaces"], &["list", "watch"]),
    rule("", &["pods"], &["patch"]),
    rule("", &["pods/status"], &["patch"]),
    rule("apps", &["controllerrevisions"], &["create", "patch", "delete"]),
];

const WORKLOADSPREAD_RULES: &[Rule] = &[
    rule(KRUISE, &["workloadspreads"], &["list", "watch"]),
    rule(KRUISE, &["workloadspreads/status"], &["patch"]),
    // Every kind a WorkloadSpread can target (read only).
    rule(
        "apps",
        &["deployments", "replicasets", "statefulsets"],
        &["list", "watch"],
    ),
    rule("batch", &["jobs"], &["list", "watch"]),
    rule(KRUISE, &["clonesets", "statefulsets"], &["list", "watch"]),
    // The subset and deletion-cost annotations; pods stuck in a subset go.
    rule("", &["pods"], &["patch", "delete"]),
];

const UNITEDDEPLOYMENT_RULES: &[Rule] = &[
    rule(KRUISE, &["uniteddeployments"], &["list", "watch"]),
    rule(KRUISE, &["uniteddeployments/status"], &["patch"]),
    rule(KRUISE, &["uniteddeployments/finalizers"], &["update"]),
    // Its subset workloads, of every kind it supports.
    rule(
        "apps",
        &["statefulsets", "deployments"],
        &["list", "watch", "create", "patch", "delete"],
    ),
    rule(
        KRUISE,
        &["statefulsets", "clonesets"],
        &["list", "watch", "create", "patch", "delete"],
    ),
    rule("apps", &["replicasets"], &["list", "watch"]),
    rule("", &["pods"], &["patch", "delete"]),
    rule("apps", &["controllerrevisions"], &["create", "patch", "delete"]),
];

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
        rules: &[CLONESET_RULES, IN_PLACE_POD_OWNER, CLAIM_OWNER],
    },
    Described {
        name: "StatefulSet",
        drives: "Advanced StatefulSet",
        crd: "statefulsets.apps.kruise.io",
        start: Some(start_statefulset),
        rules: &[STATEFULSET_RULES, IN_PLACE_POD_OWNER, CLAIM_OWNER],
    },
    Described {
        name: "DaemonSet",
        drives: "Advanced DaemonSet",
        crd: "daemonsets.apps.kruise.io",
        start: Some(start_daemonset),
        rules: &[DAEMONSET_RULES, IN_PLACE_POD_OWNER],
    },
    Described {
        name: "BroadcastJob",
        drives: "BroadcastJob",
        crd: "broadcastjobs.apps.kruise.io",
        start: Some(start_broadcastjob),
        rules: &[BROADCASTJOB_RULES],
    },
    Described {
        name: "AdvancedCronJob",
        drives: "AdvancedCronJob",
        crd: "advancedcronjobs.apps.kruise.io",
        start: Some(start_cronjob),
        rules: &[CRONJOB_RULES],
    },
    Described {
        name: "SidecarSet",
        drives: "SidecarSet",
        crd: "sidecarsets.apps.kruise.io",
        start: Some(start_sidecarset),
        rules: &[SIDECARSET_RULES],
    },
    Described {
        name: "WorkloadSpread",
        drives: "WorkloadSpread",
        crd: "workloadspreads.apps.kruise.io",
        start: Some(start_workloadspread),
        rules: &[WORKLOADSPREAD_RULES],
    },
    Described {
        name: "UnitedDeployment",
        drives: "UnitedDeployment",
        crd: "uniteddeployments.apps.kruise.io",
        start: Some(start_uniteddeployment),
        rules: &[UNITEDDEPLOYMENT_RULES],
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
