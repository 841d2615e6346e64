//! The OpenKruise kinds this project serves (the workloads of `apps.kruise.io`, the budget of
//! `policy.kruise.io`), each described once: its name, the type the
//! controllers read it as (and so its group, version, plural and short names, from the
//! type's `kube` attributes), its scope, the version OpenKruise 1.9 stores it in, and its
//! declared CRD. The lists elsewhere (the installed CRDs, the webhook rules, the admission
//! dispatch, the CLI's names for a kind) are derived from [`KruiseKind`] with exhaustive
//! matches, so a kind added here and forgotten there does not compile.
//!
//! Invariant: [`KruiseKind::ALL`] is in install order; every fact here agrees with the CRD
//! the kind's type declares (tested).
use k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition;
use kube::CustomResourceExt;
use kube::core::ApiResource;

use super::{
    AdvancedCronJob, BroadcastJob, CloneSet, DaemonSet, Error, PodUnavailableBudget, SidecarSet,
    UnitedDeployment, WorkloadSpread, statefulset,
};

/// One OpenKruise kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum KruiseKind {
    CloneSet,
    /// The Advanced StatefulSet.
    StatefulSet,
    /// The Advanced DaemonSet.
    DaemonSet,
    BroadcastJob,
    AdvancedCronJob,
    SidecarSet,
    WorkloadSpread,
    UnitedDeployment,
    /// Of `policy.kruise.io`.
    PodUnavailableBudget,
}

impl KruiseKind {
    /// Every kind, in install order.
    pub const ALL: [KruiseKind; 9] = [
        KruiseKind::CloneSet,
        KruiseKind::StatefulSet,
        KruiseKind::DaemonSet,
        KruiseKind::BroadcastJob,
        KruiseKind::AdvancedCronJob,
        KruiseKind::SidecarSet,
        KruiseKind::WorkloadSpread,
        KruiseKind::UnitedDeployment,
        KruiseKind::PodUnavailableBudget,
    ];

    /// The kind as OpenKruise names it (`kind:` in a manifest).
    pub const fn name(self) -> &'static str {
        match self {
            KruiseKind::CloneSet => "CloneSet",
            KruiseKind::StatefulSet => "StatefulSet",
            KruiseKind::DaemonSet => "DaemonSet",
            KruiseKind::BroadcastJob => "BroadcastJob",
            KruiseKind::AdvancedCronJob => "AdvancedCronJob",
            KruiseKind::SidecarSet => "SidecarSet",
            KruiseKind::WorkloadSpread => "WorkloadSpread",
            KruiseKind::UnitedDeployment => "UnitedDeployment",
            KruiseKind::PodUnavailableBudget => "PodUnavailableBudget",
        }
    }

    /// The kind named `kind` exactly (None: not one of ours).
    pub fn named(kind: &str) -> Option<KruiseKind> {
        KruiseKind::ALL.into_iter().find(|k| k.name() == kind)
    }

    /// The version OpenKruise 1.9 stores the kind in.
    pub const fn storage_version(self) -> &'static str {
        match self {
            KruiseKind::CloneSet
            | KruiseKind::WorkloadSpread
            | KruiseKind::UnitedDeployment
            | KruiseKind::PodUnavailableBudget => "v1alpha1",
            KruiseKind::StatefulSet
            | KruiseKind::DaemonSet
            | KruiseKind::BroadcastJob
            | KruiseKind::AdvancedCronJob
            | KruiseKind::SidecarSet => "v1beta1",
        }
    }

    /// Whether its objects live in a namespace (a SidecarSet's do not).
    pub const fn namespaced(self) -> bool {
        !matches!(self, KruiseKind::SidecarSet)
    }

    /// The API resource of the version the controllers read (the kind's Rust type).
    pub fn resource(self) -> ApiResource {
        match self {
            KruiseKind::CloneSet => ApiResource::erase::<CloneSet>(&()),
            KruiseKind::StatefulSet => ApiResource::erase::<statefulset::v1beta1::StatefulSet>(&()),
            KruiseKind::DaemonSet => ApiResource::erase::<DaemonSet>(&()),
            KruiseKind::BroadcastJob => ApiResource::erase::<BroadcastJob>(&()),
            KruiseKind::AdvancedCronJob => ApiResource::erase::<AdvancedCronJob>(&()),
            KruiseKind::SidecarSet => ApiResource::erase::<SidecarSet>(&()),
            KruiseKind::WorkloadSpread => ApiResource::erase::<WorkloadSpread>(&()),
            KruiseKind::UnitedDeployment => ApiResource::erase::<UnitedDeployment>(&()),
            KruiseKind::PodUnavailableBudget => ApiResource::erase::<PodUnavailableBudget>(&()),
        }
    }

    /// Its short names (`clone`, `asts`, ...), as its CRD declares them.
    pub fn short_names(self) -> &'static [&'static str] {
        match self {
            KruiseKind::CloneSet => CloneSet::shortnames(),
            KruiseKind::StatefulSet => statefulset::v1beta1::StatefulSet::shortnames(),
            KruiseKind::DaemonSet => DaemonSet::shortnames(),
            KruiseKind::BroadcastJob => BroadcastJob::shortnames(),
            KruiseKind::AdvancedCronJob => AdvancedCronJob::shortnames(),
            KruiseKind::SidecarSet => SidecarSet::shortnames(),
            KruiseKind::WorkloadSpread => WorkloadSpread::shortnames(),
            KruiseKind::UnitedDeployment => UnitedDeployment::shortnames(),
            KruiseKind::PodUnavailableBudget => PodUnavailableBudget::shortnames(),
        }
    }

    /// Its CRD's name, `<plural>.<group>`.
    pub fn crd_name(self) -> String {
        let resource = self.resource();
        format!("{}.{}", resource.plural, resource.group)
    }

    /// The CRD its types declare, before both versions are made served (merging the two
    /// Advanced StatefulSet versions is the only step that can fail).
    pub(crate) fn declared_crd(self) -> Result<CustomResourceDefinition, Error> {
        Ok(match self {
            KruiseKind::CloneSet => CloneSet::crd(),
            KruiseKind::StatefulSet => {
                return statefulset::crd().map_err(|source| Error::MergeCrdVersions {
                    kind: self.name(),
                    source,
                });
            }
            KruiseKind::DaemonSet => DaemonSet::crd(),
            KruiseKind::BroadcastJob => BroadcastJob::crd(),
            KruiseKind::AdvancedCronJob => AdvancedCronJob::crd(),
            KruiseKind::SidecarSet => SidecarSet::crd(),
            KruiseKind::WorkloadSpread => WorkloadSpread::crd(),
            KruiseKind::UnitedDeployment => UnitedDeployment::crd(),
            KruiseKind::PodUnavailableBudget => PodUnavailableBudget::crd(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_fact_agrees_with_the_crd_the_kind_declares() {
        for kind in KruiseKind::ALL {
            let crd = crate::api::crd_for_kind(kind.name()).expect("a CRD");
            let names = &crd.spec.names;
            assert_eq!(names.kind, kind.name());
            assert_eq!(KruiseKind::named(kind.name()), Some(kind));
            assert_eq!(crd.metadata.name.as_deref(), Some(kind.crd_name().as_str()));
            assert_eq!(names.plural, kind.resource().plural);
            assert_eq!(
                names.short_names.as_deref().unwrap_or_default(),
                kind.short_names()
            );
            let scope = if kind.namespaced() {
                "Namespaced"
            } else {
                "Cluster"
            };
            assert_eq!(crd.spec.scope, scope, "{kind:?}");
            let stored: Vec<&str> = crd
                .spec
                .versions
                .iter()
                .filter(|v| v.storage)
                .map(|v| v.name.as_str())
                .collect();
            assert_eq!(stored, [kind.storage_version()], "{kind:?}");
        }
        assert_eq!(KruiseKind::named("Deployment"), None);
        assert_eq!(KruiseKind::named("cloneset"), None);
    }
}
