//! The workload a `targetRef` names and the pods it controls, found in a controller's
//! caches (the kinds it may name must be watched by the controller: see each kind's
//! triggers). Shared by the kinds with a `targetRef`.
//!
//! Invariants: pods are found through their controller (by owner uid, no scans): a
//! Deployment's through its ReplicaSets, those of its current template first found by
//! template; a workload of a kind this module does not know is looked up among the custom
//! workloads the run watches; a kind of ours that cannot be read counts as missing.
use std::sync::Arc;

use k8s_openapi::api::apps::v1::{Deployment, ReplicaSet, StatefulSet};
use k8s_openapi::api::batch::v1::Job;
use k8s_openapi::api::core::v1::Pod;
use kube::runtime::reflector::ObjectRef;
use kube::{Resource, ResourceExt};
use serde_json::Value;

use crate::api::cloneset::CloneSet;
use crate::api::common::TargetReference;
use crate::api::statefulset::v1beta1::StatefulSet as AdvancedStatefulSet;
use crate::api::uniteddeployment::UnitedDeployment;
use crate::runtime::context::pods_controlled_by;
use crate::runtime::controller::Context;
use crate::runtime::decoded::Decoded;

/// The version recorded for the pods of a workload whose versions are not told apart.
pub const VERSION_IGNORED: &str = "versionIgnored";

/// The API group of an `apiVersion` (`apps/v1` -> `apps`, `v1` -> ``).
pub fn group_of(api_version: &str) -> &str {
    api_version.rsplit_once('/').map_or("", |(g, _)| g)
}

/// Whether `owner` is the workload `target` names (group, kind and name; the version is
/// ignored).
pub fn is_target(
    owner: &k8s_openapi::apimachinery::pkg::apis::meta::v1::OwnerReference,
    target: &TargetReference,
) -> bool {
    owner.kind == target.kind
        && owner.name == target.name
        && group_of(&owner.api_version) == group_of(&target.api_version)
}

/// The target as found in the caches.
pub struct Found {
    /// The workload, as JSON.
    pub object: Value,
    /// Its latest version, as a WorkloadSpread records it per pod (Deployments and
    /// ReplicaSets only; [`VERSION_IGNORED`] for the others).
    pub latest_version: Result<String, String>,
    /// The pods it controls (a Deployment: through its ReplicaSets), any state.
    pub pods: Vec<Arc<Pod>>,
}

/// The cached object of kind `C` named `name` in `namespace` (None: not there, or `C` not
/// watched by this controller).
pub fn cached<C>(ctx: &Context, namespace: &str, name: &str) -> Option<Arc<C>>
where
    C: Resource<DynamicType = ()> + Clone + Send + Sync + 'static,
{
    ctx.children
        .get::<C>()?
        .store
        .get(&ObjectRef::new(name).within(namespace))
}

/// A template without the `pod-template-hash` label (how a Deployment's template and its
/// ReplicaSet's are compared).
fn without_hash(template: &impl serde::Serialize) -> Value {
    let mut value = serde_json::to_value(template).unwrap_or_default();
    if let Some(labels) = value["metadata"]["labels"].as_object_mut() {
        labels.remove("pod-template-hash");
    }
    value
}

fn deployment(ctx: &Context, namespace: &str, name: &str) -> Option<Found> {
    let deployment: Arc<Deployment> = cached(ctx, namespace, name)?;
    let replicasets = replicasets_of(ctx, &deployment);
    let wanted = without_hash(&deployment.spec.template);
    let latest = replicasets
        .iter()
        .filter(|rs| rs.metadata.deletion_timestamp.is_none())
        .find(|rs| without_hash(&rs.spec.template) == wanted)
        .and_then(|rs| rs.labels().get("pod-template-hash").cloned())
        .ok_or_else(|| format!("Deployment {namespace}/{name}: no ReplicaSet of its template yet"));
    Some(Found {
        object: serde_json::to_value(deployment.as_ref()).unwrap_or_default(),
        latest_version: latest,
        pods: pods_of_replicasets(ctx, &replicasets),
    })
}

/// The cached ReplicaSets `deployment` controls.
fn replicasets_of(ctx: &Context, deployment: &Deployment) -> Vec<Arc<ReplicaSet>> {
    let uid = deployment.uid().unwrap_or_default();
    ctx.children
        .get::<ReplicaSet>()
        .map(|w| w.controlled_by(&uid))
        .unwrap_or_default()
}

/// The pods `replicasets` control.
fn pods_of_replicasets(ctx: &Context, replicasets: &[Arc<ReplicaSet>]) -> Vec<Arc<Pod>> {
    replicasets
        .iter()
        .flat_map(|rs| pods_controlled_by(ctx, &rs.uid().unwrap_or_default()))
        .collect()
}

/// A workload whose pods it controls itself; `latest`: its latest version.
fn direct<C>(
    ctx: &Context,
    namespace: &str,
    name: &str,
    latest: impl Fn(&C) -> Result<String, String>,
) -> Option<Found>
where
    C: Resource<DynamicType = ()> + Clone + serde::Serialize + Send + Sync + 'static,
{
    let object: Arc<C> = cached(ctx, namespace, name)?;
    Some(found(ctx, object.as_ref(), latest))
}

/// [`direct`] for a kind of ours, cached as read or not ([`Decoded`]: an unreadable one
/// does not stop the watch; it counts as missing here).
fn decoded<C>(
    ctx: &Context,
    namespace: &str,
    name: &str,
    latest: impl Fn(&C) -> Result<String, String>,
) -> Option<Found>
where
    C: Resource<DynamicType = ()> + Clone + serde::Serialize + Send + Sync + 'static,
{
    let cached: Arc<Decoded<C>> = cached(ctx, namespace, name)?;
    let object = cached.object.as_ref().ok()?;
    Some(found(ctx, object.as_ref(), latest))
}

fn found<C: Resource + serde::Serialize>(
    ctx: &Context,
    object: &C,
    latest: impl Fn(&C) -> Result<String, String>,
) -> Found {
    Found {
        object: serde_json::to_value(object).unwrap_or_default(),
        latest_version: latest(object),
        pods: pods_controlled_by(ctx, object.meta().uid.as_deref().unwrap_or_default()),
    }
}

fn ignored<C>(_: &C) -> Result<String, String> {
    Ok(VERSION_IGNORED.into())
}

/// The target of `reference` in `namespace`, from the caches (None: not there).
pub fn find(ctx: &Context, namespace: &str, reference: &TargetReference) -> Option<Found> {
    let name = reference.name.as_str();
    match (group_of(&reference.api_version), reference.kind.as_str()) {
        ("apps", "Deployment") => deployment(ctx, namespace, name),
        ("apps", "ReplicaSet") => direct::<ReplicaSet>(ctx, namespace, name, |rs| {
            Ok(rs.labels().get("pod-template-hash").cloned().unwrap_or_default())
        }),
        ("apps", "StatefulSet") => direct::<StatefulSet>(ctx, namespace, name, ignored),
        ("batch", "Job") => direct::<Job>(ctx, namespace, name, ignored),
        ("apps.kruise.io", "StatefulSet") => decoded::<AdvancedStatefulSet>(ctx, namespace, name, ignored),
        // As upstream: only Deployment and ReplicaSet pods are versioned.
        ("apps.kruise.io", "CloneSet") => decoded::<CloneSet>(ctx, namespace, name, ignored),
        ("apps.kruise.io", "UnitedDeployment") => united(ctx, namespace, name),
        // A custom workload of the whitelist, from its run-time watch.
        (group, kind) => {
            let object = ctx.children.dynamic(group, kind, namespace, name)?;
            let uid = object.metadata.uid.clone().unwrap_or_default();
            Some(Found {
                object: serde_json::to_value(object.as_ref()).unwrap_or_default(),
                latest_version: Ok(VERSION_IGNORED.into()),
                pods: pods_controlled_by(ctx, &uid),
            })
        }
    }
}

/// The uids of the cached `W`s `owner_uid` controls (none when `W` is not watched).
fn controlled_uids<W>(ctx: &Context, owner_uid: &str) -> Vec<String>
where
    W: Resource<DynamicType = ()> + Clone + Send + Sync + 'static,
{
    ctx.children.get::<W>().map_or_else(Vec::new, |watch| {
        watch
            .controlled_by(owner_uid)
            .iter()
            .filter_map(|w| w.meta().uid.clone())
            .collect()
    })
}

/// A UnitedDeployment's pods: those of the workloads it runs its subsets as (of the kinds
/// the controller watches); its object for its replica total.
fn united(ctx: &Context, namespace: &str, name: &str) -> Option<Found> {
    let cached: Arc<Decoded<UnitedDeployment>> = cached(ctx, namespace, name)?;
    let united = cached.object.as_ref().ok()?;
    let uid = united.uid().unwrap_or_default();
    let subsets = [
        controlled_uids::<Decoded<CloneSet>>(ctx, &uid),
        controlled_uids::<Decoded<AdvancedStatefulSet>>(ctx, &uid),
        controlled_uids::<StatefulSet>(ctx, &uid),
    ]
    .concat();
    let mut pods: Vec<Arc<Pod>> = subsets
        .iter()
        .flat_map(|uid| pods_controlled_by(ctx, uid))
        .collect();
    if let Some(watch) = ctx.children.get::<Deployment>() {
        for deployment in watch.controlled_by(&uid) {
            pods.extend(pods_of_replicasets(ctx, &replicasets_of(ctx, &deployment)));
        }
    }
    Some(Found {
        object: serde_json::to_value(united.as_ref()).unwrap_or_default(),
        latest_version: Ok(VERSION_IGNORED.into()),
        pods,
    })
}
