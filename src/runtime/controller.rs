//! Serving a workload controller: the watches that trigger a reconcile ([`serve`], with
//! [`Interest`] for objects a kind does not control), the retry backoff, the events of a
//! reconcile's writes ([`publish_outcome`]) and how a reconcile ends ([`requeue`]). What a
//! reconcile shares lives in [`crate::runtime::context`] and is re-exported here.
//!
//! Invariants:
//! - An event of a pod, claim, node or other child wakes every object that may be waiting
//!   for it (its controller, owners expecting it, objects interested in an uncontrolled
//!   one), by the one rule of [`crate::runtime::triggers`].
//! - Every wait of a reconcile ends: the gate's (every permit holder is bounded), the
//!   caches' first lists ([`STORES_WAIT`]), the reconcile itself ([`RECONCILE_TIMEOUT`]),
//!   an expectation ([`crate::runtime::expectations::TIMEOUT`]); the permit, the queue's
//!   "running" mark and the queue entry are given back on every path, a future dropped
//!   mid-way included; a deleted object's bookkeeping goes with its delete event.
//! - A failed object waits out its backoff whatever event wakes it, unless its spec
//!   changed; a write refused because its namespace is being deleted is no failure.
use std::sync::{Arc, Mutex};

use k8s_openapi::api::core::v1::{PersistentVolumeClaim, Pod};
use kube::runtime::reflector::ObjectRef;
use kube::{Client, Resource};

pub use crate::runtime::context::{
    Context, Error, FIELD_MANAGER, Failures, controller_of, fresh_problems, key, owned_by, uncontrolled_in,
    write_status,
};
use crate::runtime::decoded::{self, Decoded};
use crate::runtime::events::Events;
use crate::runtime::expectations::ObjectKind;
use crate::runtime::metrics::Metrics;
use crate::runtime::scope::Scoped;
use crate::runtime::triggers::{Triggers, Wake};
use crate::runtime::watches::{Change, Subscriptions, Watches};
use crate::runtime::workqueue::Running;

/// The longest a reconcile runs: past it, it is stopped and retried with backoff, so no
/// reconcile holds one of the `--workers` permits for good (a write that never answers).
/// Far above any reconcile seen (the 1,000-pod benchmark's longest takes seconds at the
/// default --qps), and below the 5-minute read timeout of a request.
pub const RECONCILE_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(120);

/// A fault for tests: `KRUISE_FAULT_HANG_RECONCILE=KIND` makes every reconcile of
/// controller KIND hang before it plans (bounded by [`RECONCILE_TIMEOUT`] like any other),
/// so that a test can show a stall reported by `/healthz` and by `run`'s exit.
fn hangs(kind: &str) -> bool {
    std::env::var("KRUISE_FAULT_HANG_RECONCILE").is_ok_and(|k| k == kind)
}

/// The longest a reconcile waits for the caches' first lists before it gives its permit
/// back and comes again.
pub const STORES_WAIT: std::time::Duration = std::time::Duration::from_secs(10);

/// The retry delay after the `failures`-th failure in a row of one object: 500 ms doubled
/// per failure, at most 60 s, scaled by `jitter` in [0.5, 1.5) so that many objects
/// failing together (an API server restart) do not retry in step. Pure.
pub fn backoff(failures: u32, jitter: f64) -> std::time::Duration {
    let base = 0.5_f64 * 2_f64.powi(failures.saturating_sub(1).min(16) as i32);
    let capped = base.min(60.0);
    std::time::Duration::from_secs_f64(capped * jitter.clamp(0.5, 1.5))
}

/// A jitter factor in [0.5, 1.5) from the object, the attempt and the clock (no RNG needed).
fn jitter(owner: &str, failures: u32) -> f64 {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    owner.hash(&mut h);
    failures.hash(&mut h);
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.subsec_nanos())
        .unwrap_or(0)
        .hash(&mut h);
    0.5 + (h.finish() % 1000) as f64 / 1000.0
}

/// One event per kind of write a reconcile made, naming the pods (not one per pod: events
/// are API writes too, and a 200-pod batch would cost 200 of them; see
/// [`Events::publish_pods`] for how a rollout's waves share one), and one for its first
/// failed write.
pub async fn publish_outcome(
    ctx: &Context,
    reference: &k8s_openapi::api::core::v1::ObjectReference,
    update_revision: &str,
    outcome: &crate::runtime::executor::Outcome,
) {
    use crate::runtime::actions::Why;
    let events = &ctx.events;
    if !outcome.created.is_empty() {
        events
            .publish_pods(
                reference,
                "SuccessfulCreate",
                "created pod(s) {pods}",
                &outcome.created,
            )
            .await;
    }
    if !outcome.deleted.is_empty() {
        events
            .publish_pods(
                reference,
                "SuccessfulDelete",
                "deleted pod(s) {pods}",
                &outcome.deleted,
            )
            .await;
    }
    for (why, names) in &outcome.done {
        let Some(reason) = why.event() else { continue };
        let note = match why {
            Why::UpdatePodInPlace => {
                format!("updated pod(s) {{pods}} in place to revision {update_revision}")
            }
            Why::UpdatePodReCreate => {
                format!("marked pod(s) {{pods}} for recreation at revision {update_revision}")
            }
            Why::RecreatePod => {
                format!("deleted pod(s) {{pods}} to recreate them at revision {update_revision}")
            }
            Why::Adopt => "adopted orphaned pod(s) {pods}".to_string(),
            Why::ResetContainer => {
                "reset the idle hot-upgrade sidecar of pod(s) {pods} to its empty image".to_string()
            }
            _ => "released pod(s) {pods} (labels no longer match the selector)".to_string(),
        };
        events
            .publish_pods(reference, &format!("Successful{reason}"), &note, names)
            .await;
    }
    for ((verb, child_kind), names) in &outcome.children {
        let note = format!("{} {child_kind}(s) {}", verb.done(), name_list(names));
        events.publish(reference, false, verb.event(), note).await;
    }
    if let Some(error) = &outcome.first_error {
        let reason = format!("Failed{}", error.reason());
        events.publish(reference, true, &reason, error.to_string()).await;
    }
}

pub use crate::runtime::events::name_list;

/// Which objects of a kind want to hear of a pod or PVC they do not control: an orphan
/// they would adopt, a claim of theirs that carries no owner reference (an Advanced
/// StatefulSet's claims under the Retain policy). Without it such an event wakes nobody
/// and the object waits for an unrelated change. Default: none. A pod is judged on its
/// metadata: the pod passed has no spec or status (see [`crate::runtime::watches`]).
pub trait Interest {
    fn wants_orphan(&self, _pod: &k8s_openapi::api::core::v1::Pod) -> bool {
        false
    }
    /// A kind that follows pods whatever controls them (a SidecarSet): `wants_orphan` is
    /// asked about every pod event, not only about pods with no controller.
    fn follows_controlled_pods() -> bool
    where
        Self: Sized,
    {
        false
    }
    fn wants_claim(&self, _claim: &k8s_openapi::api::core::v1::PersistentVolumeClaim) -> bool {
        false
    }
}

/// What one workload controller needs to be served.
pub struct Serve<F> {
    pub client: Client,
    pub watches: Watches,
    pub subscriptions: Subscriptions,
    pub namespace: Option<String>,
    /// Where objects of cluster-scoped kinds keep their namespaced children (a
    /// SidecarSet's ControllerRevisions): upstream's "Kruise namespace".
    pub system_namespace: String,
    /// OpenKruise's feature gates the planners read (`run --feature-gates`).
    pub features: crate::runtime::features::Features,
    /// What `run` read of OpenKruise's `kruise-configuration` at start.
    pub configuration: crate::runtime::configuration::Configuration,
    /// Concurrent reconciles; 0: no cap (see `run --workers`).
    pub workers: u16,
    pub metrics: Arc<Metrics>,
    /// Asked before each in-place update and pod delete (see [`crate::runtime::context::BeforeTakeDown`]).
    pub before_take_down: Option<crate::runtime::context::BeforeTakeDown>,
    pub shutdown: F,
}

/// Runs the controller of `kind` until `shutdown` resolves: its objects are watched (one
/// shared watch), owned pods and PVCs trigger their owner, and each reconcile goes through
/// `reconcile` with the queue-depth and reconcile metrics kept. An object the controller
/// cannot read gets an `InvalidSpec` condition and event instead (see [`decoded`]); the
/// others go on. Runs at once, never after
/// waiting for the stores: a shared watch waits for its slowest subscriber, so an unpolled
/// controller would stall the watches it waits for.
pub async fn serve<K, R, Fut, F>(
    kind: &'static str,
    what: &'static str,
    s: Serve<F>,
    triggers: Triggers<K>,
    reconcile: R,
) where
    K: Resource<DynamicType = ()>
        + kube::core::object::HasStatus
        + Interest
        + Clone
        + serde::de::DeserializeOwned
        + std::fmt::Debug
        + Send
        + Sync
        + 'static,
    K::Scope: Scoped,
    K::Status: Default + serde::Serialize,
    R: Fn(Arc<K>, Arc<Context>) -> Fut + Send + Sync + Clone + 'static,
    Fut: std::future::Future<Output = Result<kube::runtime::controller::Action, Error>> + Send + 'static,
    F: std::future::Future<Output = ()> + Send + Sync + 'static,
{
    use futures::StreamExt;
    use kube::runtime::controller::{Action as Requeue, Config, Controller};
    let (objects, changes, drive) = crate::runtime::watches::own(
        crate::runtime::watches::scoped::<Decoded<K>>(&s.client, s.namespace.as_deref()),
        what,
    );
    let Subscriptions {
        pod_events,
        claim_events,
        node_events,
    } = s.subscriptions;
    let node_interest = triggers.nodes.clone();
    let triggers = triggers
        .on_any(
            ObjectKind::Pod,
            pod_events,
            K::follows_controlled_pods(),
            |k: &K, p: &Pod| k.wants_orphan(p),
        )
        .on(
            ObjectKind::Claim,
            claim_events,
            |k: &K, c: &PersistentVolumeClaim| k.wants_claim(c),
        );
    // A kind that does not trigger on nodes drops its subscription (the watch skips it).
    let triggers = match node_interest {
        Some(interested) => triggers.on_nodes(node_events, interested),
        None => {
            drop(node_events);
            triggers
        }
    };
    let ctx = Arc::new(Context {
        events: Events::new(s.client.clone()).skipping_terminating(s.metrics.api.clone()),
        client: s.client,
        watches: s.watches,
        expectations: Arc::default(),
        queue: s.metrics.queue(kind),
        metrics: s.metrics,
        children: triggers.children.clone(),
        failures: Mutex::default(),
        announced: Mutex::default(),
        backoffs: Default::default(),
        own_writes: Default::default(),
        status_window: Default::default(),
        scope: s.namespace.clone(),
        system_namespace: s.system_namespace.clone(),
        features: s.features,
        configuration: s.configuration.clone(),
        before_take_down: s.before_take_down,
    });
    ctx.queue.count_expectations(ctx.expectations.clone());
    let queue = ctx.queue.clone();
    let mark = Arc::new(move |r: &ObjectRef<Decoded<K>>| {
        queue.add(&format!(
            "{}/{}",
            r.namespace.as_deref().unwrap_or_default(),
            r.name
        ));
    });
    let mark_objects = mark.clone();
    let deleted = ctx.clone();
    // A deleted object's bookkeeping goes at once (its expectations, backoff and queue
    // entry); only live objects are reconciled.
    let object_events = changes.filter_map(move |change| {
        let live = match change {
            Change::Applied(object) => {
                mark_objects(&ObjectRef::from_obj(object.as_ref()));
                Some(object)
            }
            Change::Deleted(object) => {
                deleted.forget_object(&key(object.as_ref()));
                None
            }
        };
        futures::future::ready(live)
    });
    let wake = Wake {
        ctx: ctx.clone(),
        objects: objects.clone(),
        mark,
    };
    // kube-runtime's own cap holds objects back in hash order (a busy set starves a changed
    // one); the cap is a FIFO gate in front of the reconcile instead.
    let gate = (s.workers > 0).then(|| Arc::new(tokio::sync::Semaphore::new(usize::from(s.workers))));
    let latest = objects.clone();
    let mut controller =
        Controller::for_shared_stream(object_events, objects).with_config(Config::default().concurrency(0));
    for waker in triggers.wakers {
        controller = controller.reconcile_on(waker(wake.clone()));
    }
    let controller = controller.graceful_shutdown_on(s.shutdown);
    // The child watches run as long as the controller (never "done": an empty list would
    // end the select below at once).
    let drives = triggers.drives;
    let child_drives = async move {
        futures::future::join_all(drives).await;
        futures::future::pending::<()>().await;
    };
    let reconcile_one = move |object: Arc<Decoded<K>>, ctx: Arc<Context>| {
        let (reconcile, gate, latest) = (reconcile.clone(), gate.clone(), latest.clone());
        async move {
            let owner = key(object.as_ref());
            let queue = ctx.queue.clone();
            // A failed object waits out its backoff whatever event woke it (its own
            // status write, a pod of its own), unless its spec changed.
            let generation = object.meta().generation;
            if let Some(wait) = ctx.backing_off(&owner, generation, std::time::Instant::now()) {
                drop(Running::start(&queue, &owner));
                return Ok(Requeue::requeue(wait));
            }
            // First come, first served (the semaphore is fair); the object is read again
            // after the wait, so a change made meanwhile is planned now, not next round.
            // The wait is bounded: every permit holder is (below).
            let _permit = match &gate {
                Some(gate) => gate.clone().acquire_owned().await.ok(),
                None => None,
            };
            let object = match &gate {
                Some(_) => latest
                    .get(&ObjectRef::from_obj(object.as_ref()))
                    .unwrap_or(object),
                None => object,
            };
            let _running = Running::start(&queue, &owner);
            // Every store a planner reads has listed once: an unlisted one reads as empty
            // (no nodes: every DaemonSet pod "lost"; no children: all made again). A store
            // that cannot list (a watch refused) holds no permit for longer than this.
            let listed = async {
                ctx.watches.ready().await;
                ctx.children.ready().await;
            };
            if tokio::time::timeout(STORES_WAIT, listed).await.is_err() {
                tracing::warn!(
                    kind,
                    object = owner,
                    "the caches have not listed yet; trying again"
                );
                return Ok(Requeue::requeue(STORES_WAIT));
            }
            ctx.metrics.reconcile_started(kind);
            let planned = async {
                if hangs(kind) {
                    futures::future::pending::<()>().await;
                }
                match &object.object {
                    Ok(read) => reconcile(read.clone(), ctx.clone()).await,
                    Err(unreadable) => decoded::report(&ctx, kind, object.as_ref(), unreadable).await,
                }
            };
            let result = tokio::time::timeout(RECONCILE_TIMEOUT, planned)
                .await
                .unwrap_or_else(|_| {
                    Err(Error::Internal(format!(
                        "the reconcile of {kind} {owner} took longer than {}s; it was stopped and is retried \
                         (its writes so far are expected, none is repeated)",
                        RECONCILE_TIMEOUT.as_secs()
                    )))
                });
            // A write refused because the object's namespace is being deleted is no failure
            // to retry: the object goes with its namespace, and its deletion ends it.
            let namespace = object.meta().namespace.as_deref().unwrap_or_default();
            let result = match result {
                Err(error) if !namespace.is_empty() && ctx.namespace_terminating(namespace) => {
                    tracing::debug!(kind, object = owner, %error, "its namespace is being deleted; waiting for its deletion");
                    Ok(Requeue::await_change())
                }
                result => result,
            };
            ctx.metrics
                .reconcile_finished(kind, result.as_ref().err().map(Error::reason));
            if result.is_ok() {
                ctx.failures
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .remove(&owner);
            }
            result
        }
    };
    let error_policy = move |object: Arc<Decoded<K>>, error: &Error, ctx: Arc<Context>| {
        let owner = key(object.as_ref());
        let (failures, delay) = {
            let mut all = ctx.failures.lock().unwrap_or_else(|e| e.into_inner());
            let count = all.get(&owner).map_or(0, |f| f.count).saturating_add(1);
            let delay = backoff(count, jitter(&owner, count));
            let retry_at = std::time::Instant::now() + delay;
            let generation = object.meta().generation;
            all.insert(
                owner.clone(),
                Failures {
                    count,
                    retry_at,
                    generation,
                },
            );
            (count, delay)
        };
        ctx.queue.retry();
        tracing::warn!(%error, object = owner, failures, ?delay, "{kind} reconcile failed; retrying");
        Requeue::requeue(delay)
    };
    let forget = ctx.clone();
    let reconciles = controller
        .run(reconcile_one, error_policy, ctx)
        .for_each(move |result| {
            // Woken, but gone from the cache before its turn: it waits no longer.
            if let Err(kube::runtime::controller::Error::ObjectNotFound(object)) = &result {
                forget.queue.forget(&format!(
                    "{}/{}",
                    object.namespace.as_deref().unwrap_or_default(),
                    object.name
                ));
            }
            async {}
        });
    tokio::select! {
        _ = reconciles => {}
        _ = drive => {}
        _ = child_drives => {}
    }
}

/// How a reconcile ends after its writes: the first write error, a quick retry when the
/// cache was stale, the planner's wake-up, or waiting for the next change.
pub fn requeue(
    outcome: crate::runtime::executor::Outcome,
    after: Option<std::time::Duration>,
) -> Result<kube::runtime::controller::Action, Error> {
    use kube::runtime::controller::Action;
    use std::time::Duration;
    if let Some(error) = outcome.first_error {
        return Err(error);
    }
    // A cache behind, or a budget with no room yet (upstream's CloneSet looks again after
    // a second too): soon, without a failure's backoff.
    if outcome.stale || !outcome.held.is_empty() {
        return Ok(Action::requeue(Duration::from_secs(1)));
    }
    Ok(match after {
        Some(after) => Action::requeue(after.max(Duration::from_millis(100))),
        None => Action::await_change(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn the_backoff_doubles_from_half_a_second_to_a_minute_and_jitter_spreads_it() {
        assert_eq!(backoff(1, 1.0), Duration::from_millis(500));
        assert_eq!(backoff(2, 1.0), Duration::from_secs(1));
        assert_eq!(backoff(5, 1.0), Duration::from_secs(8));
        assert_eq!(backoff(10, 1.0), Duration::from_secs(60));
        assert_eq!(backoff(u32::MAX, 1.0), Duration::from_secs(60));
        assert_eq!(backoff(3, 0.5), Duration::from_secs(1));
        assert_eq!(backoff(3, 9.0), Duration::from_secs(3), "jitter is clamped");
        for n in 1..20 {
            let j = jitter("ns/web", n);
            assert!((0.5..1.5).contains(&j), "{j}");
        }
    }
}
