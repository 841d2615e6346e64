//! What wakes a controller's objects besides their own changes: its pods and claims
//! (every pod-owning kind), Nodes (per-node kinds), and children of any other kind (Jobs,
//! workloads). One rule decides whom an event wakes ([`woken`]), for every trigger.
//!
//! ```text
//! event of an object ──controlled by a K?──yes──> that K
//!                     └─no──> every K with an expectation on it
//!                             + (no controller at all) every K interested in it
//! ```
//!
//! Invariants: a child event wakes its controller without a look at the expectations or a
//! scan of the kind's objects (the common case costs nothing); an uncontrolled object
//! (an orphan pod, a Node) is offered to each object of the kind that could care, in its
//! namespace when both are namespaced; a cluster-scoped owner is woken by its name alone.
use std::sync::Arc;

use futures::future::BoxFuture;
use futures::stream::BoxStream;
use futures::{Stream, StreamExt};
use k8s_openapi::api::core::v1::Node;
use k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta;
use kube::runtime::reflector::{ObjectRef, Store};
use kube::{Client, Resource};
use serde::de::DeserializeOwned;

use crate::runtime::children::{ChildWatch, Children, key_of};
use crate::runtime::context::{Context, controller_in};
use crate::runtime::decoded::Decoded;
use crate::runtime::expectations::{ObjectKind, Watched};
use crate::runtime::scope::Scoped;

/// Counts a woken object in the queue-depth metric.
pub type Mark<K> = Arc<dyn Fn(&ObjectRef<Decoded<K>>) + Send + Sync>;

/// What a trigger needs once the controller runs.
pub struct Wake<K: Resource<DynamicType = ()> + Clone + 'static> {
    pub ctx: Arc<Context>,
    pub objects: Store<Decoded<K>>,
    pub mark: Mark<K>,
}

impl<K: Resource<DynamicType = ()> + Clone + 'static> Clone for Wake<K> {
    fn clone(&self) -> Self {
        Self {
            ctx: self.ctx.clone(),
            objects: self.objects.clone(),
            mark: self.mark.clone(),
        }
    }
}

type Waker<K> = Box<dyn FnOnce(Wake<K>) -> BoxStream<'static, ObjectRef<Decoded<K>>> + Send>;
pub(crate) type NodeInterest<K> = Arc<dyn Fn(&K, &Node) -> bool + Send + Sync>;

/// The triggers of one controller beyond its own objects, and the watches it started for
/// them.
pub struct Triggers<K: Resource<DynamicType = ()> + Clone + 'static> {
    pub(crate) children: Children,
    pub(crate) wakers: Vec<Waker<K>>,
    pub(crate) drives: Vec<BoxFuture<'static, ()>>,
    pub(crate) nodes: Option<NodeInterest<K>>,
}

impl<K> Default for Triggers<K>
where
    K: Resource<DynamicType = ()> + Clone + Send + Sync + 'static,
    K::Scope: Scoped,
{
    fn default() -> Self {
        Self {
            children: Children::default(),
            wakers: Vec::new(),
            drives: Vec::new(),
            nodes: None,
        }
    }
}

impl<K> Triggers<K>
where
    K: Resource<DynamicType = ()> + Clone + Send + Sync + 'static,
    K::Scope: Scoped,
{
    /// Only pods and claims (which every controller triggers on).
    pub fn new() -> Self {
        Self::default()
    }

    /// Node changes (not status-only ones) wake the objects `interested` in the node as it
    /// is now or as it was before the change (a node that stops matching wakes the objects it used to match:
    /// an Advanced DaemonSet must remove its pod there); the planner reads
    /// `ctx.watches.nodes`. Per-node kinds: Advanced DaemonSet, BroadcastJob.
    pub fn nodes(mut self, interested: impl Fn(&K, &Node) -> bool + Send + Sync + 'static) -> Self {
        self.nodes = Some(Arc::new(interested));
        self
    }

    /// Watches children of kind `C` (in `namespace`, or everywhere): the planner reads
    /// them from `ctx.children.get::<C>()`, their events wake their controller (and, for an
    /// uncontrolled one, the objects `interested` in it), and expectations on them are
    /// checked against this watch.
    pub fn children<C>(
        self,
        client: &Client,
        namespace: Option<&str>,
        interested: impl Fn(&K, &C) -> bool + Send + Sync + 'static,
    ) -> Self
    where
        C: Resource<DynamicType = ()> + Clone + DeserializeOwned + std::fmt::Debug + Send + Sync + 'static,
        C::Scope: Scoped,
    {
        self.watched(client, namespace, false, interested)
    }

    /// [`Triggers::children`] of objects another controller may control (a
    /// WorkloadSpread reads the workload it spreads and that workload's ReplicaSets):
    /// `interested` is asked about every event.
    pub fn followed<C>(
        self,
        client: &Client,
        namespace: Option<&str>,
        interested: impl Fn(&K, &C) -> bool + Send + Sync + 'static,
    ) -> Self
    where
        C: Resource<DynamicType = ()> + Clone + DeserializeOwned + std::fmt::Debug + Send + Sync + 'static,
        C::Scope: Scoped,
    {
        self.watched(client, namespace, true, interested)
    }

    fn watched<C>(
        mut self,
        client: &Client,
        namespace: Option<&str>,
        controlled_too: bool,
        interested: impl Fn(&K, &C) -> bool + Send + Sync + 'static,
    ) -> Self
    where
        C: Resource<DynamicType = ()> + Clone + DeserializeOwned + std::fmt::Debug + Send + Sync + 'static,
        C::Scope: Scoped,
    {
        let api = crate::runtime::watches::scoped::<C>(client, namespace);
        let (store, owners, fanout, drive) = crate::runtime::watches::fanned_out(api, key_of::<C>());
        self.children.register(ChildWatch { store, owners });
        let events = fanout.subscribe();
        self.drives.push(drive);
        self.on_any(
            ObjectKind::Child(key_of::<C>()),
            events,
            controlled_too,
            interested,
        )
    }

    /// Watches objects of `resource`, a kind known only at run time (a whitelisted custom
    /// workload): the planner reads them from `ctx.children.dynamic(..)`, and their events
    /// wake the objects `interested` in them, controlled or not.
    pub fn dynamic(
        mut self,
        client: &Client,
        namespace: Option<&str>,
        resource: &kube::core::ApiResource,
        interested: impl Fn(&K, &kube::core::DynamicObject) -> bool + Send + Sync + 'static,
    ) -> Self {
        let api = match namespace {
            Some(ns) => kube::Api::namespaced_with(client.clone(), ns, resource),
            None => kube::Api::all_with(client.clone(), resource),
        };
        let what = crate::runtime::children::key(resource);
        let (store, fanout, drive) =
            crate::runtime::watches::fanned_out_dynamic(api, resource.clone(), what.clone());
        self.children.register_dynamic(resource, store);
        let events = fanout.subscribe();
        self.drives.push(drive);
        self.on_any(ObjectKind::Child(what), events, true, interested)
    }

    /// Node events (with the selection-relevant part of each node's previous version, see
    /// [`Triggers::nodes`]) wake whom [`woken`] names.
    pub(crate) fn on_nodes(
        mut self,
        events: impl Stream<Item = Arc<Node>> + Send + 'static,
        interested: NodeInterest<K>,
    ) -> Self {
        self.wakers.push(Box::new(move |wake: Wake<K>| {
            let mut history = NodeHistory::default();
            events
                .flat_map(move |node| {
                    let exists = |n: &str| wake.ctx.watches.nodes.get(&ObjectRef::new(n)).is_some();
                    let previous = history.observe(&node, exists);
                    // A status-only change (heartbeats, images) of a node still there
                    // changes nobody's selection: no wake-up.
                    let name = node.metadata.name.as_deref().unwrap_or_default();
                    if previous.as_ref() == Some(&selection_part(&node)) && exists(name) {
                        return futures::stream::iter(Vec::new());
                    }
                    let refs = woken(
                        &node.metadata,
                        &ObjectKind::Child("nodes".into()),
                        &wake,
                        |k: &K| interested(k, &node) || previous.as_ref().is_some_and(|p| interested(k, p)),
                    );
                    refs.iter().for_each(|r| (wake.mark)(r));
                    futures::stream::iter(refs)
                })
                .boxed()
        }));
        self
    }

    /// Events of `C` (objects of `kind`) wake whom [`woken`] names.
    pub fn on<C>(
        self,
        kind: ObjectKind,
        events: impl Stream<Item = Arc<C>> + Send + 'static,
        interested: impl Fn(&K, &C) -> bool + Send + Sync + 'static,
    ) -> Self
    where
        C: Resource + Send + Sync + 'static,
    {
        self.on_any(kind, events, false, interested)
    }

    /// [`Triggers::on`]; with `controlled_too`, `interested` is also asked about objects
    /// another controller controls (a SidecarSet follows the pods it injected, whatever
    /// workload owns them).
    pub fn on_any<C>(
        mut self,
        kind: ObjectKind,
        events: impl Stream<Item = Arc<C>> + Send + 'static,
        controlled_too: bool,
        interested: impl Fn(&K, &C) -> bool + Send + Sync + 'static,
    ) -> Self
    where
        C: Resource + Send + Sync + 'static,
    {
        self.wakers.push(Box::new(move |wake: Wake<K>| {
            events
                .flat_map(move |object| {
                    // Its store holds this event already: a create of it is seen, even when
                    // this is its deletion (a pod created and garbage-collected before a
                    // round looked would otherwise be waited for until the timeout).
                    let meta = object.meta();
                    wake.ctx.expectations.seen(&Watched::new(
                        kind.clone(),
                        meta.namespace.as_deref().unwrap_or_default(),
                        meta.name.as_deref().unwrap_or_default(),
                    ));
                    let refs = woken_any(object.meta(), &kind, &wake, controlled_too, |k: &K| {
                        interested(k, &object)
                    });
                    refs.iter().for_each(|r| (wake.mark)(r));
                    futures::stream::iter(refs)
                })
                .boxed()
        }));
        self
    }
}

/// The selection-relevant part of the last version seen of every node, so that a node's
/// event can also be judged as the node was before it (pure but for `exists`).
///
/// Invariant: every node seen is kept, even when the store does not show it: during the
/// watch's first list the store holds nothing yet (it swaps the list in at the end), and a
/// node skipped then would have no previous version when it later loses a label. Entries
/// of deleted nodes are dropped whenever the map doubles (no scan per event).
#[derive(Debug)]
struct NodeHistory {
    before: std::collections::HashMap<String, Node>,
    limit: usize,
}

impl Default for NodeHistory {
    fn default() -> Self {
        Self {
            before: std::collections::HashMap::new(),
            limit: 64,
        }
    }
}

impl NodeHistory {
    /// Records `node` and returns its previous version, if one was seen.
    fn observe(&mut self, node: &Node, exists: impl Fn(&str) -> bool) -> Option<Node> {
        let name = node.metadata.name.clone().unwrap_or_default();
        let previous = self.before.insert(name, selection_part(node));
        if self.before.len() > self.limit {
            self.before.retain(|n, _| exists(n));
            self.limit = (2 * self.before.len()).max(64);
        }
        previous
    }
}

/// What a node's selection can depend on (name, labels, annotations, spec: taints,
/// unschedulable; and `status.allocatable`, which a BroadcastJob's fit reads), without the
/// rest of its status (images, conditions, heartbeats: most of its bytes and changes).
fn selection_part(node: &Node) -> Node {
    let mut metadata = ObjectMeta {
        name: node.metadata.name.clone(),
        labels: node.metadata.labels.clone(),
        annotations: node.metadata.annotations.clone(),
        ..ObjectMeta::default()
    };
    metadata.uid = node.metadata.uid.clone();
    let allocatable = node.status.as_ref().and_then(|s| s.allocatable.clone());
    Node {
        metadata,
        spec: node.spec.clone(),
        status: allocatable.map(|allocatable| k8s_openapi::api::core::v1::NodeStatus {
            allocatable: Some(allocatable),
            ..Default::default()
        }),
    }
}

/// Whether the kind of `K` is namespaced.
fn namespaced<K: Resource<DynamicType = ()>>() -> bool
where
    K::Scope: Scoped,
{
    <K::Scope as Scoped>::NAMESPACED
}

/// The reference of the `K` named `name` seen from an object in `namespace`.
fn reference<K>(namespace: &str, name: &str) -> ObjectRef<Decoded<K>>
where
    K: Resource<DynamicType = ()> + Clone,
    K::Scope: Scoped,
{
    let r = ObjectRef::new(name);
    if namespaced::<K>() { r.within(namespace) } else { r }
}

/// The name of the `K` that controls the object with `meta`, if any.
pub fn controlled_by<K: Resource<DynamicType = ()>>(meta: &ObjectMeta) -> Option<String> {
    controller_in(meta, &K::group(&()), &K::kind(&())).map(|(name, _)| name)
}

/// The objects of kind `K` an event of the object with `meta` (a `kind`) must wake (pure,
/// given the stores; see the module documentation).
pub fn woken<K>(
    meta: &ObjectMeta,
    kind: &ObjectKind,
    wake: &Wake<K>,
    interested: impl Fn(&K) -> bool,
) -> Vec<ObjectRef<Decoded<K>>>
where
    K: Resource<DynamicType = ()> + Clone,
    K::Scope: Scoped,
{
    woken_any(meta, kind, wake, false, interested)
}

/// [`woken`]; with `controlled_too`, objects another controller controls are offered to
/// the interested objects too.
pub fn woken_any<K>(
    meta: &ObjectMeta,
    kind: &ObjectKind,
    wake: &Wake<K>,
    controlled_too: bool,
    interested: impl Fn(&K) -> bool,
) -> Vec<ObjectRef<Decoded<K>>>
where
    K: Resource<DynamicType = ()> + Clone,
    K::Scope: Scoped,
{
    let namespace = meta.namespace.as_deref().unwrap_or_default();
    let name = meta.name.as_deref().unwrap_or_default();
    if let Some(owner) = controlled_by::<K>(meta) {
        return vec![reference(namespace, &owner)];
    }
    let watched = Watched::new(kind.clone(), namespace, name);
    let mut refs: Vec<ObjectRef<Decoded<K>>> = wake
        .ctx
        .expectations
        .owners_expecting(&watched)
        .into_iter()
        .filter_map(|owner| owner.split_once('/').map(|(ns, n)| reference(ns, n)))
        .collect();
    let uncontrolled = !meta
        .owner_references
        .iter()
        .flatten()
        .any(|o| o.controller == Some(true));
    if uncontrolled || controlled_too {
        let same_namespace = namespaced::<K>() && !namespace.is_empty();
        refs.extend(
            wake.objects
                .state()
                .iter()
                .filter(|o| !same_namespace || o.meta.namespace.as_deref() == Some(namespace))
                .filter(|o| o.object.as_ref().is_ok_and(|k| interested(k)))
                .map(|o| {
                    reference(
                        o.meta.namespace.as_deref().unwrap_or_default(),
                        o.meta.name.as_deref().unwrap_or_default(),
                    )
                }),
        );
    }
    refs.sort_by(|a, b| (&a.namespace, &a.name).cmp(&(&b.namespace, &b.name)));
    refs.dedup();
    refs
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::cloneset::CloneSet;
    use k8s_openapi::apimachinery::pkg::apis::meta::v1::OwnerReference;

    fn owned(api_version: &str, kind: &str, controller: bool) -> ObjectMeta {
        ObjectMeta {
            owner_references: Some(vec![OwnerReference {
                api_version: api_version.into(),
                kind: kind.into(),
                name: "web".into(),
                uid: "u1".into(),
                controller: Some(controller),
                ..OwnerReference::default()
            }]),
            ..ObjectMeta::default()
        }
    }

    #[test]
    fn a_controller_is_known_by_kind_and_group_in_any_version() {
        let by = controlled_by::<CloneSet>;
        assert_eq!(
            by(&owned("apps.kruise.io/v1alpha1", "CloneSet", true)).as_deref(),
            Some("web")
        );
        assert_eq!(
            by(&owned("apps.kruise.io/v1beta1", "CloneSet", true)).as_deref(),
            Some("web")
        );
        assert_eq!(by(&owned("apps/v1", "CloneSet", true)), None, "another group");
        assert_eq!(by(&owned("apps.kruise.io/v1alpha1", "StatefulSet", true)), None);
        assert_eq!(
            by(&owned("apps.kruise.io/v1alpha1", "CloneSet", false)),
            None,
            "not the controller"
        );
    }

    fn labelled(name: &str, labels: serde_json::Value) -> Node {
        serde_json::from_value(serde_json::json!({ "metadata": { "name": name, "labels": labels } }))
            .expect("node")
    }

    #[test]
    fn a_node_first_seen_while_the_store_is_empty_still_has_a_previous_version() {
        let mut history = NodeHistory::default();
        let nowhere = |_: &str| false;
        assert!(
            history
                .observe(&labelled("a", serde_json::json!({ "pool": "x" })), nowhere)
                .is_none()
        );
        let previous = history
            .observe(&labelled("a", serde_json::json!({})), nowhere)
            .expect("previous");
        assert_eq!(previous.metadata.labels.expect("labels")["pool"], "x");
    }

    #[test]
    fn deleted_nodes_leave_the_history_when_it_doubles() {
        let mut history = NodeHistory::default();
        for i in 0..65 {
            history.observe(&labelled(&format!("gone-{i}"), serde_json::json!({})), |_| false);
        }
        assert!(history.before.is_empty(), "none of them exists any more");
        history.observe(&labelled("kept", serde_json::json!({})), |_| true);
        assert_eq!(history.before.len(), 1);
    }

    #[test]
    fn a_nodes_previous_version_keeps_what_selection_reads_and_drops_the_rest_of_its_status() {
        let node: Node = serde_json::from_value(serde_json::json!({
            "metadata": { "name": "n1", "labels": { "zone": "a" }, "resourceVersion": "7" },
            "spec": { "unschedulable": true, "taints": [{ "key": "k", "effect": "NoSchedule" }] },
            "status": { "images": [{ "names": ["big"] }] },
        }))
        .expect("node");
        let kept = selection_part(&node);
        assert_eq!(kept.metadata.labels, node.metadata.labels);
        assert_eq!(kept.spec, node.spec);
        assert!(kept.status.is_none() && kept.metadata.resource_version.is_none());
    }

    /// A node created bare and given its capacity by the kubelet afterwards: the second
    /// version is not status-only for whoever reads allocatable (a BroadcastJob's fit).
    #[test]
    fn a_node_that_gains_its_allocatable_is_a_selection_change() {
        let bare: Node =
            serde_json::from_value(serde_json::json!({ "metadata": { "name": "n1" } })).expect("node");
        let mut ready = bare.clone();
        ready.status = serde_json::from_value(serde_json::json!({
            "allocatable": { "pods": "110" },
            "conditions": [{ "type": "Ready", "status": "True" }] }))
        .expect("status");
        assert_ne!(selection_part(&bare), selection_part(&ready));
        let mut heartbeat = ready.clone();
        heartbeat.status.as_mut().expect("status").conditions = Some(Vec::new());
        assert_eq!(
            selection_part(&ready),
            selection_part(&heartbeat),
            "a heartbeat is not"
        );
    }
}
