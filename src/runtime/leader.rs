//! Leader election for `kubectl kruise run`: one `coordination.k8s.io/v1` Lease, so that two
//! runs against the same cluster (two laptops, a CI job and an in-cluster deployment) never
//! both write. The one holding the lease runs the controllers; the others wait as standbys
//! and take over once the holder stops renewing.
//!
//! ```text
//! standby ──(lease free or expired)──> leader ──renew every retry period──┐
//!    ^                                   │  └──────────────<─────────────┘
//!    └──────(graceful exit: released)────┘  renew failing past the deadline: exit 1
//! ```
//!
//! Invariants: every lease write carries the resourceVersion read before it, so two
//! candidates racing for a free or expired lease cannot both win (the loser gets a conflict
//! and stays standby); a leader that cannot renew within the renew deadline, which is
//! shorter than the lease duration, stops before anyone may take over; a graceful exit
//! releases the lease (holder cleared) so a standby takes over at once. The decision
//! ([`decide`]) is pure; [`Elector`] performs it.
use std::time::Duration;

use k8s_openapi::api::coordination::v1::{Lease, LeaseSpec};
use k8s_openapi::apimachinery::pkg::apis::meta::v1::{MicroTime, ObjectMeta};
use k8s_openapi::jiff::{SignedDuration, Timestamp};
use kube::api::{Api, PostParams};
use kube::{Client, ResourceExt};

/// How a candidate elects.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Settings {
    pub namespace: String,
    pub name: String,
    /// Who this candidate is (host, process and a random part).
    pub identity: String,
    /// How long a lease holds without a renewal.
    pub lease_duration: Duration,
    /// A leader that has not renewed for this long gives up (less than the duration).
    pub renew_deadline: Duration,
    /// How often the leader renews and a standby looks again.
    pub retry_period: Duration,
}

impl Settings {
    /// Renew deadline 2/3 of the duration, retry period 1/5 of it (kube's 15s/10s/2s ratios).
    pub fn new(namespace: &str, name: &str, identity: String, lease_duration: Duration) -> Self {
        Settings {
            namespace: namespace.to_string(),
            name: name.to_string(),
            identity,
            lease_duration,
            renew_deadline: lease_duration * 2 / 3,
            retry_period: (lease_duration / 5).max(Duration::from_millis(200)),
        }
    }
}

/// What a candidate does next with the lease it read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Step {
    /// No lease yet: create it holding it.
    Create,
    /// Ours: renew it.
    Renew,
    /// Free (released) or expired: take it (`transitions` is the new count).
    TakeOver { transitions: i32 },
    /// Held by someone else until about `until`.
    Wait { holder: String, until: Timestamp },
}

fn micro(t: &Option<MicroTime>) -> Option<Timestamp> {
    t.as_ref().map(|m| m.0)
}

/// The next step for `me`, given the lease as read (pure).
pub fn decide(lease: Option<&LeaseSpec>, me: &str, now: Timestamp) -> Step {
    let Some(spec) = lease else { return Step::Create };
    let holder = spec.holder_identity.clone().unwrap_or_default();
    if holder == me {
        return Step::Renew;
    }
    let transitions = spec.lease_transitions.unwrap_or(0) + 1;
    if holder.is_empty() {
        return Step::TakeOver { transitions };
    }
    let duration = SignedDuration::from_secs(i64::from(spec.lease_duration_seconds.unwrap_or(15)));
    let renewed = micro(&spec.renew_time).or_else(|| micro(&spec.acquire_time));
    match renewed.and_then(|r| r.checked_add(duration).ok()) {
        Some(until) if until > now => Step::Wait { holder, until },
        _ => Step::TakeOver { transitions },
    }
}

/// The spec written by `me` for `step` at `now`.
pub fn spec_for(step: &Step, previous: Option<&LeaseSpec>, settings: &Settings, now: Timestamp) -> LeaseSpec {
    let seconds = i32::try_from(settings.lease_duration.as_secs().max(1)).unwrap_or(15);
    let mut spec = previous.cloned().unwrap_or_default();
    spec.holder_identity = Some(settings.identity.clone());
    spec.lease_duration_seconds = Some(seconds);
    spec.renew_time = Some(MicroTime(now));
    match step {
        Step::Create => {
            spec.acquire_time = Some(MicroTime(now));
            spec.lease_transitions = Some(0);
        }
        Step::TakeOver { transitions } => {
            spec.acquire_time = Some(MicroTime(now));
            spec.lease_transitions = Some(*transitions);
        }
        Step::Renew | Step::Wait { .. } => {}
    }
    spec
}

/// Why leadership ended.
#[derive(Debug, thiserror::Error)]
pub enum Lost {
    #[error(
        "lost the lease {namespace}/{name}: could not renew it for {deadline:?} (last error: {last}); stopping so another run can take over"
    )]
    RenewFailed {
        namespace: String,
        name: String,
        deadline: Duration,
        last: String,
    },
    #[error("the lease {namespace}/{name} is now held by {holder}; stopping")]
    TakenBy {
        namespace: String,
        name: String,
        holder: String,
    },
}

/// Who holds `lease` now, if someone other than `me` does and has renewed it within its
/// duration (pure).
pub fn live_holder(lease: Option<&LeaseSpec>, me: &str, now: Timestamp) -> Option<String> {
    match decide(lease, me, now) {
        Step::Wait { holder, .. } => Some(holder),
        _ => None,
    }
}

/// Leases of runs whose scope overlaps ours (`namespace/name held by holder`), read once at
/// start. Runs of one scope share one lease and exclude each other by it; a run scoped to a
/// namespace and an all-namespaces run hold different leases, so each looks for the other's:
/// a namespaced run for the all-namespaces lease in `default`, an all-namespaces run for the
/// same name in every other namespace. Unreadable leases (no permission) are skipped.
pub async fn overlapping(client: &Client, settings: &Settings, scope: Option<&str>) -> Vec<String> {
    let now = Timestamp::now();
    let mut found = Vec::new();
    let live = |lease: &Lease| live_holder(lease.spec.as_ref(), &settings.identity, now);
    match scope {
        Some(_) if settings.namespace != "default" => {
            let api: Api<Lease> = Api::namespaced(client.clone(), "default");
            match api.get_opt(&settings.name).await {
                Ok(Some(lease)) => {
                    found.extend(live(&lease).map(|h| format!("default/{} held by {h}", settings.name)))
                }
                Ok(None) => {}
                Err(e) => tracing::debug!(error = %e, "cannot read the all-namespaces lease"),
            }
        }
        Some(_) => {}
        None => {
            let api: Api<Lease> = Api::all(client.clone());
            let params = kube::api::ListParams::default().fields(&format!("metadata.name={}", settings.name));
            match api.list(&params).await {
                Ok(list) => {
                    for lease in list
                        .items
                        .iter()
                        .filter(|l| l.namespace().as_deref() != Some(settings.namespace.as_str()))
                    {
                        if let Some(h) = live(lease) {
                            found.push(format!(
                                "{}/{} held by {h}",
                                lease.namespace().unwrap_or_default(),
                                settings.name
                            ));
                        }
                    }
                }
                Err(e) => tracing::debug!(error = %e, "cannot list the namespace-scoped leases"),
            }
        }
    }
    found
}

/// One candidate.
pub struct Elector {
    api: Api<Lease>,
    settings: Settings,
}

impl Elector {
    pub fn new(client: Client, settings: Settings) -> Self {
        Elector {
            api: Api::namespaced(client, &settings.namespace),
            settings,
        }
    }

    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// One attempt: read, decide, write. `Ok(true)` when we hold the lease afterwards;
    /// `Ok(false)` with the holder when someone else does.
    async fn attempt(&self) -> Result<Result<(), (String, Timestamp)>, kube::Error> {
        let now = Timestamp::now();
        let current = self.api.get_opt(&self.settings.name).await?;
        let step = decide(
            current.as_ref().and_then(|l| l.spec.as_ref()),
            &self.settings.identity,
            now,
        );
        if let Step::Wait { holder, until } = step {
            return Ok(Err((holder, until)));
        }
        let spec = spec_for(
            &step,
            current.as_ref().and_then(|l| l.spec.as_ref()),
            &self.settings,
            now,
        );
        let result = match current {
            None => {
                let lease = Lease {
                    metadata: ObjectMeta {
                        name: Some(self.settings.name.clone()),
                        namespace: Some(self.settings.namespace.clone()),
                        ..ObjectMeta::default()
                    },
                    spec: Some(spec),
                };
                self.api.create(&PostParams::default(), &lease).await.map(|_| ())
            }
            Some(mut lease) => {
                // Replace under the resourceVersion just read: a racing writer conflicts.
                lease.spec = Some(spec);
                self.api
                    .replace(&lease.name_any(), &PostParams::default(), &lease)
                    .await
                    .map(|_| ())
            }
        };
        match result {
            Ok(()) => Ok(Ok(())),
            Err(kube::Error::Api(s)) if s.is_conflict() || s.is_already_exists() => {
                Ok(Err((String::from("another candidate"), now)))
            }
            Err(e) => Err(e),
        }
    }

    /// Waits until this candidate holds the lease; `on_wait` hears who holds it, once per
    /// change of holder.
    pub async fn acquire(&self, mut on_wait: impl FnMut(&str)) -> Result<(), kube::Error> {
        let mut last_holder = String::new();
        loop {
            match self.attempt().await {
                Ok(Ok(())) => return Ok(()),
                Ok(Err((holder, _))) => {
                    if holder != last_holder {
                        on_wait(&holder);
                        last_holder = holder;
                    }
                }
                Err(e) => tracing::warn!(error = %e, "reading the lease failed; retrying"),
            }
            tokio::time::sleep(self.settings.retry_period).await;
        }
    }

    /// Renews until renewal fails for longer than the renew deadline, or another holder
    /// shows up; never returns while leadership holds.
    pub async fn keep(&self) -> Lost {
        let mut last_ok = tokio::time::Instant::now();
        loop {
            tokio::time::sleep(self.settings.retry_period).await;
            match self.attempt().await {
                Ok(Ok(())) => last_ok = tokio::time::Instant::now(),
                Ok(Err((holder, _))) if holder != "another candidate" => {
                    return Lost::TakenBy {
                        namespace: self.settings.namespace.clone(),
                        name: self.settings.name.clone(),
                        holder,
                    };
                }
                Ok(Err(_)) => {}
                Err(e) if last_ok.elapsed() >= self.settings.renew_deadline => {
                    return Lost::RenewFailed {
                        namespace: self.settings.namespace.clone(),
                        name: self.settings.name.clone(),
                        deadline: self.settings.renew_deadline,
                        last: e.to_string(),
                    };
                }
                Err(e) => tracing::warn!(error = %e, "renewing the lease failed; retrying"),
            }
            if last_ok.elapsed() >= self.settings.renew_deadline {
                return Lost::RenewFailed {
                    namespace: self.settings.namespace.clone(),
                    name: self.settings.name.clone(),
                    deadline: self.settings.renew_deadline,
                    last: "conflicts".into(),
                };
            }
        }
    }

    /// Gives the lease up (holder cleared, 1 s duration) so a standby takes over at once.
    pub async fn release(&self) {
        let Ok(Some(mut lease)) = self.api.get_opt(&self.settings.name).await else {
            return;
        };
        let ours = lease.spec.as_ref().and_then(|s| s.holder_identity.as_deref())
            == Some(self.settings.identity.as_str());
        if !ours {
            return;
        }
        if let Some(spec) = lease.spec.as_mut() {
            spec.holder_identity = None;
            spec.lease_duration_seconds = Some(1);
            spec.renew_time = Some(MicroTime(Timestamp::now()));
        }
        if let Err(e) = self
            .api
            .replace(&lease.name_any(), &PostParams::default(), &lease)
            .await
        {
            tracing::warn!(error = %e, "releasing the lease failed; it expires by itself");
        }
    }
}

/// `host/pid-random`: unique per process, readable in `kubectl get lease -o yaml`.
pub fn identity() -> String {
    let host = std::env::var("HOSTNAME")
        .ok()
        .filter(|h| !h.is_empty())
        .or_else(|| {
            std::fs::read_to_string("/etc/hostname")
                .ok()
                .map(|h| h.trim().to_string())
        })
        .unwrap_or_else(|| "unknown-host".into());
    let nanos = Timestamp::now().subsec_nanosecond();
    format!("{host}/{}-{nanos:x}", std::process::id())
}

#[cfg(test)]
#[path = "leader_tests.rs"]
mod tests;
