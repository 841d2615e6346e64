//! What the server's handlers share: the metrics and the health `/readyz` reports. Its own
//! module so that the routes ([`super::server`]) and the admission handlers
//! ([`super::review`]) both depend on it and not on each other.
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use crate::runtime::metrics::Metrics;

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
    /// The caches of the pod webhooks (WorkloadSpread placement, SidecarSet injection); None:
    /// pods are not mutated.
    pub pods: Option<PodInjection>,
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

/// The caches the pod webhooks read (watched while the server runs), and the client the
/// WorkloadSpread placement writes its status with.
#[derive(Clone)]
pub struct PodInjection {
    pub client: kube::Client,
    /// WorkloadSpreads (placement at create, release at delete and eviction).
    pub spreads: crate::workloads::workloadspread::webhook::Spreads,
    pub sidecarsets:
        kube::runtime::reflector::Store<crate::runtime::decoded::Decoded<crate::api::sidecarset::SidecarSet>>,
    pub namespaces: kube::runtime::reflector::Store<k8s_openapi::api::core::v1::Namespace>,
    /// The SidecarSets' ControllerRevisions (in the run's system namespace).
    pub revisions: kube::runtime::reflector::Store<k8s_openapi::api::apps::v1::ControllerRevision>,
}

impl PodInjection {
    /// The kinds [`PodInjection::stored`] serves: those judged among their peers (tested).
    pub const CACHED: [crate::api::KruiseKind; 2] = [
        crate::api::KruiseKind::SidecarSet,
        crate::api::KruiseKind::WorkloadSpread,
    ];

    /// The pod webhooks' caches, watched from now on (on the tasks it spawns) for as long
    /// as the process runs: the SidecarSets, the Namespaces, the SidecarSets' revisions in
    /// `system_namespace` and the WorkloadSpreads in `namespace` (None: all). `health`
    /// reports `serving` once each has its first list.
    pub fn watched(
        client: &kube::Client,
        namespace: Option<&str>,
        system_namespace: &str,
        configuration: &crate::runtime::configuration::Configuration,
        health: &Arc<Health>,
    ) -> PodInjection {
        let (sidecarsets, drive_sets) = crate::runtime::watches::plain(
            kube::Api::<crate::runtime::decoded::Decoded<crate::api::sidecarset::SidecarSet>>::all(
                client.clone(),
            ),
            "sidecarsets",
        );
        let (namespaces, drive_namespaces) =
            crate::runtime::watches::plain(kube::Api::all(client.clone()), "namespaces");
        let (revisions, drive_revisions) = crate::runtime::watches::plain_labelled(
            kube::Api::namespaced(client.clone(), system_namespace),
            crate::workloads::sidecarset::revisions::NAME_LABEL,
            "sidecarset revisions",
        );
        let (workloadspreads, drive_spreads) = crate::runtime::watches::plain(
            crate::runtime::watches::scoped::<
                crate::runtime::decoded::Decoded<crate::api::workloadspread::WorkloadSpread>,
            >(client, namespace),
            "workloadspreads",
        );
        tokio::spawn(drive_sets);
        tokio::spawn(drive_namespaces);
        tokio::spawn(drive_revisions);
        tokio::spawn(drive_spreads);
        let serving = (
            sidecarsets.clone(),
            namespaces.clone(),
            revisions.clone(),
            workloadspreads.clone(),
            health.clone(),
        );
        tokio::spawn(async move {
            let (sets, namespaces, revisions, spreads, health) = serving;
            let _ = sets.wait_until_ready().await;
            let _ = namespaces.wait_until_ready().await;
            let _ = revisions.wait_until_ready().await;
            let _ = spreads.wait_until_ready().await;
            health.serving.store(true, std::sync::atomic::Ordering::Relaxed);
        });
        PodInjection {
            client: client.clone(),
            spreads: crate::workloads::workloadspread::webhook::Spreads::new(
                workloadspreads,
                configuration.clone(),
            ),
            sidecarsets,
            namespaces,
            revisions,
        }
    }

    /// The workload `reference` (a `targetRef` as JSON) names in `namespace`, as JSON, for
    /// a kind whose refusal reads its target (a WorkloadSpread's); None when it is not a
    /// kind that can be targeted, does not exist or cannot be read.
    pub async fn target_of(
        &self,
        configuration: &crate::runtime::configuration::Configuration,
        namespace: &str,
        reference: &serde_json::Value,
    ) -> Option<serde_json::Value> {
        crate::workloads::workloadspread::webhook::target_of(
            &self.client,
            configuration,
            namespace,
            reference,
        )
        .await
    }

    /// The stored objects of `kind` these caches hold, in scope of an object in `namespace`
    /// (a namespaced kind's in that namespace, a cluster-scoped kind's all), as JSON; empty
    /// for a kind not cached here.
    pub fn stored(&self, kind: crate::api::KruiseKind, namespace: &str) -> Vec<serde_json::Value> {
        use crate::api::KruiseKind;
        match kind {
            KruiseKind::SidecarSet => self
                .sidecarsets
                .state()
                .iter()
                .filter_map(|s| s.object.as_deref().ok())
                .filter_map(|s| serde_json::to_value(s).ok())
                .collect(),
            KruiseKind::WorkloadSpread => self
                .spreads
                .store
                .state()
                .iter()
                .filter(|d| d.meta.namespace.as_deref() == Some(namespace))
                .filter_map(|d| d.object.as_deref().ok())
                .filter_map(|s| serde_json::to_value(s).ok())
                .collect(),
            // No other kind is cached here (none asks to be judged among its peers).
            _ => Vec::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_kinds_judged_among_their_peers_are_the_cached_ones() {
        let judged: Vec<_> = crate::api::KruiseKind::ALL
            .into_iter()
            .filter(|k| crate::workloads::registry::facts(*k).judged_in_context())
            .collect();
        assert_eq!(judged, PodInjection::CACHED);
    }

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
