//! What the server's handlers share: the metrics and the health `/readyz` reports. Its own
//! module so that the routes ([`super::server`]) and the admission handlers
//! ([`super::review`]) both depend on it and not on each other.
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use futures::future::BoxFuture;

use crate::api::KruiseKind;
use crate::runtime::metrics::Metrics;
use crate::workloads::pod_hooks::{HookSetup, KindHook, PodHook};

/// What `/readyz` reports.
#[derive(Debug, Default)]
pub struct Health {
    /// The caches have their first lists.
    pub synced: AtomicBool,
    /// This run may write (it leads, or leader election is off).
    pub leading: AtomicBool,
    /// The webhooks' own caches have their first lists (or no webhooks are served): this
    /// run answers admission requests, standby or not.
    pub serving: AtomicBool,
    /// How long a controller may have work waiting and finish nothing before it is stalled
    /// (`run --stall-after`; zero: never).
    pub stall_after: std::sync::Mutex<std::time::Duration>,
}

impl Health {
    /// The controllers stalled now, as `/healthz` and `run` say them (see
    /// [`crate::runtime::workqueue::WorkQueue::stall`]).
    pub fn stalls(&self, metrics: &Metrics) -> Vec<crate::runtime::workqueue::Stall> {
        let limit = *self.stall_after.lock().unwrap_or_else(|e| e.into_inner());
        if limit.is_zero() {
            return Vec::new();
        }
        metrics.stalls(std::time::Instant::now(), limit)
    }

    /// Whether the webhooks' caches have their first lists within `limit` (polled every
    /// 20 ms): a pod hook answers from them, so it waits this long before it answers
    /// without them.
    pub async fn serving_within(&self, limit: std::time::Duration) -> bool {
        let until = tokio::time::Instant::now() + limit;
        while !self.serving.load(Ordering::Relaxed) {
            if tokio::time::Instant::now() >= until {
                return false;
            }
            tokio::time::sleep(std::time::Duration::from_millis(20)).await;
        }
        true
    }

    /// Why the run is not ready, if it is not. `exclude_leader` (`/readyz?exclude=leader`,
    /// the in-cluster manager's readiness probe): ready once it serves the webhooks, so
    /// that every replica, standby or not, is an endpoint of their Service.
    pub fn not_ready(&self, exclude_leader: bool) -> Option<&'static str> {
        if exclude_leader {
            return (!self.serving.load(Ordering::Relaxed)).then_some("webhook caches not synced yet");
        }
        if !self.synced.load(Ordering::Relaxed) {
            Some("caches not synced yet")
        } else if !self.leading.load(Ordering::Relaxed) {
            Some("standby: another run holds the lease")
        } else {
            None
        }
    }
}

/// What the handlers share.
#[derive(Clone)]
pub struct Shared {
    pub metrics: Arc<Metrics>,
    pub health: Arc<Health>,
    /// The pod webhooks' hooks; None: pods are not mutated.
    pub pods: Option<PodHooks>,
    /// OpenKruise's feature gates (`run --feature-gates`).
    pub features: crate::runtime::features::Features,
    /// What `run` read of OpenKruise's `kruise-configuration` at start.
    pub configuration: crate::runtime::configuration::Configuration,
    /// Where OpenKruise's `kruise-configuration` ConfigMap is read (the run's system
    /// namespace).
    pub system_namespace: String,
    /// The namespace the run is scoped to (`run -n NS`); None: all namespaces.
    pub scope: Option<String>,
}

/// The pod webhooks' hooks: each kind's part ([`PodHook`], from the registry), in the order
/// they run at pod create, with the client the validating webhook reads with.
#[derive(Clone)]
pub struct PodHooks {
    pub client: kube::Client,
    hooks: Arc<[KindHook]>,
}

impl PodHooks {
    /// Every kind's hook, its watches started (on the tasks it spawns) for as long as the
    /// process runs: a namespaced kind's in `namespace` (None: all), a cluster-scoped kind's
    /// children in `system_namespace`. `health` reports `serving` once each hook has its
    /// first lists.
    pub fn watched(
        client: &kube::Client,
        namespace: Option<&str>,
        system_namespace: &str,
        configuration: &crate::runtime::configuration::Configuration,
        health: &Arc<Health>,
    ) -> PodHooks {
        let setup = HookSetup {
            client,
            namespace,
            system_namespace,
            configuration,
        };
        let hooks = PodHooks {
            client: client.clone(),
            hooks: crate::workloads::registry::pod_hooks(&setup).into(),
        };
        let (listed, health) = (hooks.listed(), health.clone());
        tokio::spawn(async move {
            listed.await;
            health.serving.store(true, Ordering::Relaxed);
        });
        hooks
    }

    /// Resolves once every hook's caches have their first lists.
    pub fn listed(&self) -> BoxFuture<'static, ()> {
        let each: Vec<_> = self.hooks.iter().map(|(_, hook)| hook.listed()).collect();
        Box::pin(async move {
            futures::future::join_all(each).await;
        })
    }

    /// The hooks, in the order they run at pod create.
    pub fn in_order(&self) -> impl Iterator<Item = &dyn PodHook> {
        self.hooks.iter().map(|(_, hook)| hook.as_ref())
    }

    /// The hook of `kind`, if it has one.
    pub fn of(&self, kind: KruiseKind) -> Option<&dyn PodHook> {
        self.hooks
            .iter()
            .find(|(k, _)| *k == Some(kind))
            .map(|(_, hook)| hook.as_ref())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_standby_that_serves_the_webhooks_is_ready_when_the_leader_check_is_excluded() {
        let health = Health::default();
        assert!(health.not_ready(true).is_some());
        health.serving.store(true, Ordering::Relaxed);
        health.synced.store(true, Ordering::Relaxed);
        assert_eq!(health.not_ready(true), None);
        assert_eq!(
            health.not_ready(false),
            Some("standby: another run holds the lease")
        );
        health.leading.store(true, Ordering::Relaxed);
        assert_eq!(health.not_ready(false), None);
    }

    #[tokio::test]
    async fn a_hook_waits_for_the_webhook_caches_a_bounded_time() {
        use std::time::Duration;
        let health = Arc::new(Health::default());
        assert!(!health.serving_within(Duration::from_millis(60)).await);
        let listed = health.clone();
        tokio::spawn(async move {
            tokio::time::sleep(Duration::from_millis(50)).await;
            listed.serving.store(true, Ordering::Relaxed);
        });
        assert!(health.serving_within(Duration::from_secs(30)).await);
    }
}
