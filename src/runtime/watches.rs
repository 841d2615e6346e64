//! Shared watches and stores: every controller reads Pods, PVCs and ControllerRevisions
//! from one watch each, so N controllers cost the API server one watch per kind, not N.
//!
//! ```text
//! watch pods ──reflect──> Store<CachedPod> ──subscribe──> CloneSet controller (triggers)
//!                                          └─subscribe──> later controllers
//! ```
//!
//! Invariants:
//! - `managedFields` are dropped before an object reaches a store (they are most of an
//!   object's bytes and nobody reads them).
//! - The pod store holds compact records ([`CachedPod`]: of spec and status only the fields a
//!   controller reads), not whole pods; a snapshot assembles the pods of the object it plans
//!   ([`Watches::pod`]).
//!   Subscribers get each changed pod's metadata only (owners, labels and annotations
//!   decide whom it wakes; the planner reads the pod itself from the store).
//! - Subscribers see every applied AND deleted object (kube's shared reflector drops
//!   deletes, and a controller that never hears of a deleted pod never replaces it).
//! - A subscription that is handed out must be consumed: the watch waits for its slowest
//!   subscriber (bounded channels, no event is dropped).
//! - [`Watches::ready`] wakes every waiter. kube's `Store::wait_until_ready` does not: its
//!   oneshot keeps one waker, so of several reconciles waiting at start only the last one
//!   polled would ever go on. One shared future polls the stores for all of them.
//! - A broken watch re-lists with backoff (kube's watcher); the stores stay usable and only
//!   lag meanwhile, which the expectations cover.
use std::fmt::Debug;
use std::sync::{Arc, Mutex};

use futures::channel::mpsc;
use futures::future::{BoxFuture, Shared};
use futures::{FutureExt, SinkExt, StreamExt};
use k8s_openapi::api::apps::v1::ControllerRevision;
use k8s_openapi::api::core::v1::{Namespace, Node, PersistentVolumeClaim, Pod};
use kube::api::{Api, ApiResource, DynamicObject};
use kube::runtime::reflector::{self, Store};
use kube::runtime::{WatchStreamExt, watcher};
use kube::{Client, Resource};

use super::cached_pod::CachedPod;
use super::owner_index::OwnerIndex;
use serde::de::DeserializeOwned;

/// Events a slow subscriber may lag behind before the watch waits for it.
const SUBSCRIBER_BUFFER: usize = 1024;

/// The stores (cheap to clone; every clone reads the same cache) and the fan-outs that
/// hand out subscriptions.
#[derive(Clone)]
pub struct Watches {
    /// Pods as compact records (assemble one with [`CachedPod::pod`]). A record's `meta()`
    /// has no labels or annotations: select on [`CachedPod::metadata_only`].
    pub pods: Store<CachedPod>,
    pub claims: Store<PersistentVolumeClaim>,
    pub revisions: Store<ControllerRevision>,
    /// Nodes (topology-spread ranks read their labels; per-node kinds read all of them).
    pub nodes: Store<Node>,
    /// Namespaces: nothing is created in one being deleted ([`Watches::terminating`]).
    pub namespaces: Store<Namespace>,
    /// Pods, PVCs and ControllerRevisions by controller owner uid.
    pub pod_owners: Arc<OwnerIndex>,
    pub claim_owners: Arc<OwnerIndex>,
    pub revision_owners: Arc<OwnerIndex>,
    pod_fanout: Fanout<Pod>,
    claim_fanout: Fanout<PersistentVolumeClaim>,
    node_fanout: Fanout<Node>,
    /// Resolves once pods, claims, revisions and nodes have their first list (see `ready`).
    ready: Shared<BoxFuture<'static, ()>>,
}

/// The change streams one controller triggers on.
pub struct Subscriptions {
    /// Changed pods, metadata only (see the module's invariants).
    pub pod_events: mpsc::Receiver<Arc<Pod>>,
    pub claim_events: mpsc::Receiver<Arc<PersistentVolumeClaim>>,
    /// Node changes, for a kind that triggers on them (Advanced DaemonSet, BroadcastJob);
    /// a kind that does not simply drops it.
    pub node_events: mpsc::Receiver<Arc<Node>>,
}

/// Sends every applied or deleted object to each subscriber.
pub struct Fanout<K> {
    senders: Arc<Mutex<Vec<mpsc::Sender<Arc<K>>>>>,
}

impl<K> Clone for Fanout<K> {
    fn clone(&self) -> Self {
        Self {
            senders: self.senders.clone(),
        }
    }
}

impl<K> Default for Fanout<K> {
    fn default() -> Self {
        Self {
            senders: Arc::default(),
        }
    }
}

impl<K> Fanout<K> {
    pub fn subscribe(&self) -> mpsc::Receiver<Arc<K>> {
        let (tx, rx) = mpsc::channel(SUBSCRIBER_BUFFER);
        self.senders.lock().unwrap_or_else(|e| e.into_inner()).push(tx);
        rx
    }

    async fn send(&self, object: Arc<K>) {
        let senders: Vec<mpsc::Sender<Arc<K>>> =
            self.senders.lock().unwrap_or_else(|e| e.into_inner()).clone();
        for mut sender in senders {
            // A dropped subscriber (its controller stopped) is simply skipped.
            let _ = sender.send(object.clone()).await;
        }
    }
}

impl Watches {
    /// Subscriptions for one more controller; take them before the watches run.
    pub fn subscribe(&self) -> Subscriptions {
        Subscriptions {
            pod_events: self.pod_fanout.subscribe(),
            claim_events: self.claim_fanout.subscribe(),
            node_events: self.node_fanout.subscribe(),
        }
    }
}

/// The API to watch kind `K` through: `namespace` when one is given and the kind is
/// namespaced, else every object (see [`crate::runtime::scope`]).
pub fn scoped<K>(client: &Client, namespace: Option<&str>) -> Api<K>
where
    K: Resource<DynamicType = ()>,
    K::Scope: crate::runtime::scope::Scoped,
{
    <K::Scope as crate::runtime::scope::Scoped>::api(client, namespace)
}

fn strip<K: Resource>(object: &mut K) {
    object.meta_mut().managed_fields = None;
}

/// A store whose changes (deletes included) go to a [`Fanout`], and the future that drives
/// its watch (`what` names it in warnings).
pub fn fanned_out<K>(
    api: Api<K>,
    what: impl Into<Arc<str>>,
) -> (Store<K>, Arc<OwnerIndex>, Fanout<K>, BoxFuture<'static, ()>)
where
    K: Resource<DynamicType = ()> + Clone + DeserializeOwned + Debug + Send + Sync + 'static,
{
    fanned_out_as(api, what, Arc::new)
}

/// [`fanned_out`], the fanout carrying `event(object)` rather than the stored object.
pub fn fanned_out_as<K, E>(
    api: Api<K>,
    what: impl Into<Arc<str>>,
    to_event: fn(K) -> Arc<E>,
) -> (Store<K>, Arc<OwnerIndex>, Fanout<E>, BoxFuture<'static, ()>)
where
    K: Resource<DynamicType = ()> + Clone + DeserializeOwned + Debug + Send + Sync + 'static,
    E: Send + Sync + 'static,
{
    let (store, writer) = reflector::store();
    let (index, fanout, drive) = fanned_out_into(api, writer, what, to_event);
    (store, index, fanout, drive)
}

/// [`fanned_out`] for a kind known only at run time (`resource`, found by discovery: a
/// custom workload a WorkloadSpread targets).
pub fn fanned_out_dynamic(
    api: Api<DynamicObject>,
    resource: ApiResource,
    what: impl Into<Arc<str>>,
) -> (
    Store<DynamicObject>,
    Fanout<DynamicObject>,
    BoxFuture<'static, ()>,
) {
    let writer = reflector::store::Writer::new(resource);
    let store = writer.as_reader();
    let (_, fanout, drive) = fanned_out_into(api, writer, what, Arc::new);
    (store, fanout, drive)
}

/// The watch of `api` kept in `writer`'s store and an owner index, its changes (deletes
/// included) sent to a [`Fanout`] as `to_event(object)`; returns the index, the fanout and
/// the future that drives the watch.
fn fanned_out_into<K, E>(
    api: Api<K>,
    mut writer: reflector::store::Writer<K>,
    what: impl Into<Arc<str>>,
    to_event: fn(K) -> Arc<E>,
) -> (Arc<OwnerIndex>, Fanout<E>, BoxFuture<'static, ()>)
where
    K: Resource + Clone + DeserializeOwned + Debug + Send + Sync + 'static,
    K::DynamicType: Eq + std::hash::Hash + Clone + Send + Sync,
    E: Send + Sync + 'static,
{
    let index = Arc::new(OwnerIndex::default());
    let fanout = Fanout::default();
    let out = fanout.clone();
    let observer = index.clone();
    let what: Arc<str> = what.into();
    let drive = watcher(api, watcher::Config::default())
        .default_backoff()
        .modify(strip)
        .map(move |event| {
            // The index first, then the store (see `owner_index`'s invariant).
            if let Ok(e) = &event {
                observer.observe(e);
                writer.apply_watcher_event(e);
            }
            event
        })
        .for_each(move |event| forward(out.clone(), what.clone(), event, to_event))
        .boxed();
    (index, fanout, drive)
}

/// Sends the object of a watch event (an apply or a delete) to `out`; a watch error is
/// logged (the watcher retries with backoff).
async fn forward<K, E>(
    out: Fanout<E>,
    what: Arc<str>,
    event: Result<watcher::Event<K>, watcher::Error>,
    to_event: fn(K) -> Arc<E>,
) {
    match event {
        Ok(watcher::Event::Apply(o) | watcher::Event::InitApply(o) | watcher::Event::Delete(o)) => {
            out.send(to_event(o)).await
        }
        Ok(_) => {}
        Err(error) => tracing::warn!(what = &*what, %error, "watch failed; retrying with backoff"),
    }
}

/// A change of one of a controller's own objects, as its watch saw it.
#[derive(Debug)]
pub enum Change<K> {
    /// Created or changed (or listed).
    Applied(Arc<K>),
    /// Deleted (a Delete event, or gone from a re-list).
    Deleted(Arc<K>),
}

/// A controller's own kind: its store, the stream of its changes (the object itself, never
/// a reference to look up again), and the future that drives its watch (`what` names it in
/// warnings).
///
/// Not kube's `reflect_shared`: its subscription stream looks each object up in the store
/// when it is read, and an object deleted in between (a namespace being deleted) makes it
/// answer `Pending` with no wake-up registered; under kube's `select_all` of triggers that
/// stream is then never polled again and the controller hears of none of its objects.
pub fn own<K>(
    api: Api<K>,
    what: &'static str,
) -> (Store<K>, mpsc::Receiver<Change<K>>, BoxFuture<'static, ()>)
where
    K: Resource<DynamicType = ()> + Clone + DeserializeOwned + Debug + Send + Sync + 'static,
{
    let events = watcher(api, watcher::Config::default())
        .default_backoff()
        .modify(strip);
    relay(events, what)
}

/// [`own`] from any stream of watch events (tests give it one of their own).
pub(crate) fn relay<K, S>(
    events: S,
    what: &'static str,
) -> (Store<K>, mpsc::Receiver<Change<K>>, BoxFuture<'static, ()>)
where
    K: Resource<DynamicType = ()> + Clone + Debug + Send + Sync + 'static,
    S: futures::Stream<Item = Result<watcher::Event<K>, watcher::Error>> + Send + 'static,
{
    let (store, mut writer) = reflector::store();
    let reader = store.clone();
    let (tx, rx) = mpsc::channel(SUBSCRIBER_BUFFER);
    let drive = events
        .for_each(move |event| {
            let changes = match event {
                Ok(event) => {
                    // A (re-)list: every object listed is a change (a create or update may
                    // have been missed), and so is every cached one the list no longer has.
                    let before = matches!(event, watcher::Event::InitDone).then(|| reader.state());
                    writer.apply_watcher_event(&event);
                    let cached = |o: &K| reader.get(&reflector::ObjectRef::from_obj(o));
                    match event {
                        watcher::Event::Apply(o) => {
                            vec![Change::Applied(cached(&o).unwrap_or_else(|| Arc::new(o)))]
                        }
                        watcher::Event::Delete(o) => vec![Change::Deleted(Arc::new(o))],
                        watcher::Event::InitDone => {
                            let gone = before
                                .unwrap_or_default()
                                .into_iter()
                                .filter(|o| cached(o).is_none())
                                .map(Change::Deleted);
                            let listed = reader.state().into_iter().map(Change::Applied);
                            gone.chain(listed).collect()
                        }
                        watcher::Event::Init | watcher::Event::InitApply(_) => Vec::new(),
                    }
                }
                Err(error) => {
                    tracing::warn!(what, %error, "watch failed; retrying with backoff");
                    Vec::new()
                }
            };
            let mut tx = tx.clone();
            async move {
                for change in changes {
                    // The controller stopped: nobody to tell.
                    let _ = tx.send(change).await;
                }
            }
        })
        .boxed();
    (store, rx, drive)
}

/// A plain store (no subscription), and the future that drives its watch.
pub fn plain<K>(api: Api<K>, what: &'static str) -> (Store<K>, BoxFuture<'static, ()>)
where
    K: Resource<DynamicType = ()> + Clone + DeserializeOwned + Debug + Send + Sync + 'static,
{
    plain_with(api, watcher::Config::default(), what)
}

/// A plain store of the objects that carry the label `key` (any value).
pub fn plain_labelled<K>(api: Api<K>, key: &str, what: &'static str) -> (Store<K>, BoxFuture<'static, ()>)
where
    K: Resource<DynamicType = ()> + Clone + DeserializeOwned + Debug + Send + Sync + 'static,
{
    plain_with(api, watcher::Config::default().labels(key), what)
}

fn plain_with<K>(
    api: Api<K>,
    config: watcher::Config,
    what: &'static str,
) -> (Store<K>, BoxFuture<'static, ()>)
where
    K: Resource<DynamicType = ()> + Clone + DeserializeOwned + Debug + Send + Sync + 'static,
{
    let (store, writer) = reflector::store();
    let drive = watcher(api, config)
        .default_backoff()
        .modify(strip)
        .reflect(writer)
        .for_each(move |event| async move {
            if let Err(error) = event {
                tracing::warn!(what, %error, "watch failed; retrying with backoff");
            }
        })
        .boxed();
    (store, drive)
}

/// One future for the first lists of the stores the controllers read, shared by all waiters.
fn first_lists(
    pods: Store<CachedPod>,
    claims: Store<PersistentVolumeClaim>,
    revisions: Store<ControllerRevision>,
    nodes: Store<Node>,
) -> Shared<BoxFuture<'static, ()>> {
    async move {
        let _ = pods.wait_until_ready().await;
        let _ = claims.wait_until_ready().await;
        let _ = revisions.wait_until_ready().await;
        let _ = nodes.wait_until_ready().await;
    }
    .boxed()
    .shared()
}

/// Starts nothing yet: returns the stores and the futures to poll (the caller runs them
/// after taking its subscriptions).
pub fn new(client: &Client, namespace: Option<&str>) -> (Watches, Vec<BoxFuture<'static, ()>>) {
    let (pods, pod_owners, pod_fanout, pods_drive) =
        fanned_out_as(scoped::<CachedPod>(client, namespace), "pods", |p| {
            Arc::new(p.metadata_only())
        });
    let (claims, claim_owners, claim_fanout, claims_drive) = fanned_out(
        scoped::<PersistentVolumeClaim>(client, namespace),
        "persistentvolumeclaims",
    );
    // Fanned out only for its owner index: no controller subscribes to revisions.
    let (revisions, revision_owners, _, revisions_drive) = fanned_out(
        scoped::<ControllerRevision>(client, namespace),
        "controllerrevisions",
    );
    let (nodes, _, node_fanout, nodes_drive) = fanned_out(Api::<Node>::all(client.clone()), "nodes");
    // Not waited for: unlisted, it says no namespace is being deleted (as before it lists).
    let (namespaces, namespaces_drive) = plain(Api::<Namespace>::all(client.clone()), "namespaces");
    let ready = first_lists(pods.clone(), claims.clone(), revisions.clone(), nodes.clone());
    let watches = Watches {
        namespaces,
        ready,
        pods,
        claims,
        revisions,
        nodes,
        pod_owners,
        claim_owners,
        revision_owners,
        pod_fanout,
        claim_fanout,
        node_fanout,
    };
    (
        watches,
        vec![
            pods_drive,
            claims_drive,
            revisions_drive,
            nodes_drive,
            namespaces_drive,
        ],
    )
}

impl Watches {
    /// The cached pod `namespace/name`, assembled.
    pub fn pod(&self, namespace: &str, name: &str) -> Option<Arc<Pod>> {
        let record = self
            .pods
            .get(&reflector::ObjectRef::new(name).within(namespace))?;
        Some(Arc::new(record.pod()))
    }

    /// Whether the cached namespace `name` is being deleted.
    pub fn terminating(&self, name: &str) -> bool {
        self.namespaces
            .get(&reflector::ObjectRef::new(name))
            .is_some_and(|n| n.metadata.deletion_timestamp.is_some())
    }

    /// Waits until every store has its first full list. Any number of callers may wait at
    /// once; all of them go on.
    pub async fn ready(&self) {
        self.ready.clone().await;
    }
}

#[cfg(test)]
#[path = "watches_tests.rs"]
mod tests;
