//! Shared watches and stores: every controller reads Pods, PVCs and ControllerRevisions
//! from one watch each, so N controllers cost the API server one watch per kind, not N.
//!
//! ```text
//! watch pods ──reflect──> Store<Pod> ──subscribe──> CloneSet controller (triggers)
//!                                    └─subscribe──> later controllers
//! ```
//!
//! Invariants:
//! - `managedFields` are dropped before an object reaches a store (they are most of an
//!   object's bytes and nobody reads them).
//! - A subscription that is handed out must be consumed (a shared reflector waits for its
//!   slowest subscriber); revisions therefore have a store but no subscription.
//! - A broken watch re-lists with backoff (kube's watcher); the stores stay usable and only
//!   lag meanwhile, which the expectations cover.
use std::fmt::Debug;

use futures::future::BoxFuture;
use futures::{FutureExt, StreamExt};
use k8s_openapi::api::apps::v1::ControllerRevision;
use k8s_openapi::api::core::v1::{PersistentVolumeClaim, Pod};
use kube::api::Api;
use kube::runtime::reflector::{self, ReflectHandle, Store};
use kube::runtime::{WatchStreamExt, watcher};
use kube::{Client, Resource};
use serde::de::DeserializeOwned;

/// Events a slow subscriber may lag behind before the watch waits for it.
const SUBSCRIBER_BUFFER: usize = 1024;

/// The stores (cheap to clone; every clone reads the same cache).
#[derive(Clone)]
pub struct Watches {
    pub pods: Store<Pod>,
    pub claims: Store<PersistentVolumeClaim>,
    pub revisions: Store<ControllerRevision>,
}

/// The subscriptions controllers trigger on. Not `Clone` on purpose: every subscription
/// must be consumed, so each controller gets its own with [`Subscriptions::split`].
pub struct Subscriptions {
    pub pod_events: ReflectHandle<Pod>,
    pub claim_events: ReflectHandle<PersistentVolumeClaim>,
}

impl Subscriptions {
    /// A second set of subscriptions for another controller.
    pub fn split(&self) -> Subscriptions {
        Subscriptions {
            pod_events: self.pod_events.clone(),
            claim_events: self.claim_events.clone(),
        }
    }
}

/// `Api::namespaced` when a namespace scope is given, else `Api::all`.
pub fn scoped<K>(client: &Client, namespace: Option<&str>) -> Api<K>
where
    K: Resource<Scope = k8s_openapi::NamespaceResourceScope, DynamicType = ()>,
{
    match namespace {
        Some(ns) => Api::namespaced(client.clone(), ns),
        None => Api::all(client.clone()),
    }
}

fn strip<K: Resource>(object: &mut K) {
    object.meta_mut().managed_fields = None;
}

/// A shared store with one subscription, and the future that drives its watch.
pub fn shared<K>(api: Api<K>, what: &'static str) -> (Store<K>, ReflectHandle<K>, BoxFuture<'static, ()>)
where
    K: Resource<DynamicType = ()> + Clone + DeserializeOwned + Debug + Send + Sync + 'static,
{
    let (store, writer) = reflector::store_shared(SUBSCRIBER_BUFFER);
    // Invariant: a store made by `store_shared` always hands out subscriptions.
    let events = writer.subscribe().expect("a shared store has subscriptions");
    let drive = watcher(api, watcher::Config::default())
        .default_backoff()
        .modify(strip)
        .reflect_shared(writer)
        .for_each(move |event| async move {
            if let Err(error) = event {
                tracing::warn!(what, %error, "watch failed; retrying with backoff");
            }
        })
        .boxed();
    (store, events, drive)
}

/// A plain store (no subscription), and the future that drives its watch.
pub fn plain<K>(api: Api<K>, what: &'static str) -> (Store<K>, BoxFuture<'static, ()>)
where
    K: Resource<DynamicType = ()> + Clone + DeserializeOwned + Debug + Send + Sync + 'static,
{
    let (store, writer) = reflector::store();
    let drive = watcher(api, watcher::Config::default())
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

/// Starts nothing yet: returns the stores and the futures to poll (the caller runs them).
pub fn new(
    client: &Client,
    namespace: Option<&str>,
) -> (Watches, Subscriptions, Vec<BoxFuture<'static, ()>>) {
    let (pods, pod_events, pods_drive) = shared(scoped::<Pod>(client, namespace), "pods");
    let (claims, claim_events, claims_drive) = shared(
        scoped::<PersistentVolumeClaim>(client, namespace),
        "persistentvolumeclaims",
    );
    let (revisions, revisions_drive) = plain(
        scoped::<ControllerRevision>(client, namespace),
        "controllerrevisions",
    );
    let watches = Watches {
        pods,
        claims,
        revisions,
    };
    let subscriptions = Subscriptions {
        pod_events,
        claim_events,
    };
    (
        watches,
        subscriptions,
        vec![pods_drive, claims_drive, revisions_drive],
    )
}

impl Watches {
    /// Waits until every store has its first full list.
    pub async fn ready(&self) {
        let _ = self.pods.wait_until_ready().await;
        let _ = self.claims.wait_until_ready().await;
        let _ = self.revisions.wait_until_ready().await;
    }
}
