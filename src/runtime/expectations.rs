//! Expectations: what a controller wrote and has not yet seen in its cache (as upstream's
//! `pkg/util/expectations/` keeps them). A stale cache must never make a controller
//! create a pod twice or delete one twice.
//!
//! Each expectation is checked against the cache at the start of a reconcile:
//! - `Created(name)` is met once the cache holds an object of that name, or once the watch
//!   delivered an event of it ([`Expectations::seen`]: it may be gone again, a pod created
//!   on a node that went away);
//! - `Deleted(name, uid)` once the cache has no object of that name with that uid, or holds
//!   it stuck in its deletion: [`STUCK_AFTER`] past its `deletionTimestamp` (the end of its
//!   grace period). A pod whose node went away, or one a finalizer holds, may stay
//!   terminating for good, and its owner must not wait for it; a pod still in its grace
//!   period is waited for (surge and maxUnavailable count it);
//! - `Version(name, rv)` once the cached object's resourceVersion is at least `rv`, or the
//!   object is gone.
//!
//! Invariants:
//! - While an owner has unmet expectations younger than [`TIMEOUT`], its planner does not run.
//! - An expectation older than the timeout is dropped with a warning, and planning goes on
//!   from the cache as it is (the watch re-lists on its own when it broke): a lost event
//!   delays a controller by at most the timeout and never blocks it for good.
//! - Whoever waits is woken: [`Expectations::owners_expecting`] names the owners with an
//!   expectation on an object, so every event of that object (a claim deleted long after
//!   its pod, whose owner reference points at the pod, not the set) triggers them.
use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// How long an expectation is waited for.
pub const TIMEOUT: Duration = Duration::from_secs(5 * 60);

/// While an owner waits on expectations, it looks at the cache again this often even
/// without an event: a watch that re-listed shows a deletion without a Delete event.
pub const RECHECK: Duration = Duration::from_secs(5);

/// The kind of cached object an expectation is about.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum ObjectKind {
    Pod,
    Claim,
    /// A child that is not a pod (a Job, a workload): its watch's key
    /// ([`crate::runtime::children::key`]).
    Child(String),
}

/// The cached object an expectation is about: its kind, namespace and name (an owner may
/// write objects in other namespaces: a cluster-scoped SidecarSet writes pods anywhere).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Watched {
    pub kind: ObjectKind,
    pub namespace: String,
    pub name: String,
}

impl Watched {
    pub fn new(kind: ObjectKind, namespace: &str, name: &str) -> Self {
        Self {
            kind,
            namespace: namespace.to_string(),
            name: name.to_string(),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Expect {
    Created(Watched),
    Deleted(Watched, String),
    /// Written at this resourceVersion.
    Version(Watched, u64),
}

/// How long past the end of its grace period an object still being deleted is taken as
/// stuck there (its kubelet is gone, a finalizer holds it): a kubelet that runs confirms a
/// pod's end within seconds of it.
pub const STUCK_AFTER: Duration = Duration::from_secs(15);

/// What the cache holds of an object.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cached {
    pub uid: String,
    pub version: u64,
    /// It is being deleted and is [`STUCK_AFTER`] past its `deletionTimestamp`.
    pub stuck_deleting: bool,
}

impl Cached {
    /// The cached facts of an object's metadata, at the wall-clock time `now`.
    pub fn of(
        meta: &k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta,
        now: k8s_openapi::jiff::Timestamp,
    ) -> Self {
        let stuck = meta.deletion_timestamp.as_ref().is_some_and(|t| {
            now.duration_since(t.0)
                .try_into()
                .is_ok_and(|past: Duration| past >= STUCK_AFTER)
        });
        Self {
            uid: meta.uid.clone().unwrap_or_default(),
            version: resource_version(meta.resource_version.as_deref()),
            stuck_deleting: stuck,
        }
    }
}

/// What the cache holds for an object, if anything.
pub type Lookup<'a> = dyn Fn(&Watched) -> Option<Cached> + 'a;

impl Expect {
    pub fn is_met(&self, lookup: &Lookup<'_>) -> bool {
        match self {
            Expect::Created(object) => lookup(object).is_some(),
            Expect::Deleted(object, uid) => lookup(object).is_none_or(|c| &c.uid != uid || c.stuck_deleting),
            Expect::Version(object, resource_version) => {
                lookup(object).is_none_or(|c| c.version >= *resource_version)
            }
        }
    }

    fn object(&self) -> &Watched {
        match self {
            Expect::Created(object) | Expect::Deleted(object, _) | Expect::Version(object, _) => object,
        }
    }
}

/// Parses a resourceVersion; etcd's are decimal integers (0 for anything else).
pub fn resource_version(rv: Option<&str>) -> u64 {
    rv.and_then(|v| v.parse().ok()).unwrap_or(0)
}

/// The newer of a cached object and the one our last write of it returned (the same uid,
/// a higher resourceVersion): what a writer that cannot wait for its watch plans from.
pub fn freshest<K: kube::Resource + Clone>(cached: &K, written: Option<&K>) -> K {
    let version = |k: &K| resource_version(k.meta().resource_version.as_deref());
    match written {
        Some(w) if w.meta().uid == cached.meta().uid && version(w) > version(cached) => w.clone(),
        _ => cached.clone(),
    }
}

/// Expectations of every owner (key: `namespace/name`, `/name` for a cluster-scoped one).
#[derive(Debug, Default)]
pub struct Expectations {
    owners: Mutex<HashMap<String, HashMap<Expect, Instant>>>,
}

impl Expectations {
    pub fn expect(&self, owner: &str, expectation: Expect) {
        let mut owners = self.owners.lock().unwrap_or_else(|e| e.into_inner());
        owners
            .entry(owner.to_string())
            .or_default()
            .insert(expectation, Instant::now());
    }

    /// The owners (their keys) with an unmet expectation on `object`: an event of that
    /// object may be what they wait for.
    pub fn owners_expecting(&self, object: &Watched) -> Vec<String> {
        let owners = self.owners.lock().unwrap_or_else(|e| e.into_inner());
        owners
            .iter()
            .filter(|(_, set)| set.keys().any(|e| e.object() == object))
            .map(|(owner, _)| owner.clone())
            .collect()
    }

    /// The watch delivered an event of `object` (applied or deleted) after its store took
    /// it: every `Created` expectation on it is met, whether or not the store still holds
    /// it. The owners are woken by the same event.
    pub fn seen(&self, object: &Watched) {
        let mut owners = self.owners.lock().unwrap_or_else(|e| e.into_inner());
        for set in owners.values_mut() {
            set.retain(|e, _| !matches!(e, Expect::Created(o) if o == object));
        }
        owners.retain(|_, set| !set.is_empty());
    }

    /// How many owners wait on an unmet expectation, and how long the oldest one has
    /// waited at `now` (the `kruise_expectations_*` figures: an expectation that is never
    /// met is visible long before it times out).
    pub fn waiting(&self, now: Instant) -> (usize, Duration) {
        let owners = self.owners.lock().unwrap_or_else(|e| e.into_inner());
        let oldest = owners
            .values()
            .flat_map(|set| set.values())
            .map(|since| now.saturating_duration_since(*since))
            .max()
            .unwrap_or_default();
        (owners.len(), oldest)
    }

    /// Forgets one expectation (the write it was for failed).
    pub fn forget(&self, owner: &str, expectation: &Expect) {
        let mut owners = self.owners.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(set) = owners.get_mut(owner) {
            set.remove(expectation);
        }
    }

    /// Drops everything about an owner (it was deleted).
    pub fn forget_owner(&self, owner: &str) {
        self.owners
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(owner);
    }

    /// Drops the met and the timed-out expectations of `owner`; returns how many are still
    /// pending (so the caller waits for the watch to catch up).
    pub fn pending(&self, owner: &str, lookup: &Lookup<'_>) -> usize {
        self.pending_at(owner, lookup, Instant::now())
    }

    fn pending_at(&self, owner: &str, lookup: &Lookup<'_>, now: Instant) -> usize {
        let mut owners = self.owners.lock().unwrap_or_else(|e| e.into_inner());
        let Some(set) = owners.get_mut(owner) else {
            return 0;
        };
        set.retain(|expectation, since| {
            if expectation.is_met(lookup) {
                return false;
            }
            if now.duration_since(*since) >= TIMEOUT {
                tracing::warn!(
                    owner,
                    ?expectation,
                    "expectation timed out; planning from the cache as it is"
                );
                return false;
            }
            true
        });
        let left = set.len();
        if left == 0 {
            owners.remove(owner);
        }
        left
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pod(name: &str) -> Watched {
        Watched::new(ObjectKind::Pod, "ns", name)
    }

    fn cached(name: &'static str, uid: &'static str, rv: u64) -> impl Fn(&Watched) -> Option<Cached> {
        move |o: &Watched| {
            (o.name == name && o.namespace == "ns").then(|| Cached {
                uid: uid.to_string(),
                version: rv,
                stuck_deleting: false,
            })
        }
    }

    #[test]
    fn a_create_is_met_once_the_cache_has_the_name() {
        let e = Expectations::default();
        e.expect("ns/web", Expect::Created(pod("web-a")));
        assert_eq!(e.pending("ns/web", &|_| None), 1);
        assert_eq!(e.pending("ns/web", &cached("web-a", "u1", 5)), 0);
    }

    #[test]
    fn a_create_seen_by_the_watch_is_met_even_once_the_object_is_gone_again() {
        let e = Expectations::default();
        e.expect("ns/agent", Expect::Created(pod("agent-n5")));
        e.expect("ns/agent", Expect::Deleted(pod("agent-n4"), "u4".into()));
        e.expect("ns/other", Expect::Created(pod("agent-n6")));
        // Created and garbage-collected (its node went) before a round looked: the store
        // never shows it again.
        assert_eq!(e.pending("ns/agent", &cached("agent-n4", "u4", 1)), 2);
        e.seen(&pod("agent-n5"));
        assert_eq!(e.pending("ns/agent", &cached("agent-n4", "u4", 1)), 1);
        e.seen(&pod("agent-n4"));
        assert_eq!(
            e.pending("ns/agent", &cached("agent-n4", "u4", 1)),
            1,
            "an event does not meet a delete the store does not show"
        );
        assert_eq!(e.pending("ns/other", &|_| None), 1);
    }

    #[test]
    fn a_delete_is_met_when_the_name_is_gone_or_belongs_to_a_new_object() {
        let deleted = Expect::Deleted(pod("web-a"), "u1".into());
        assert!(!deleted.is_met(&cached("web-a", "u1", 1)));
        assert!(deleted.is_met(&cached("web-a", "u2", 1)));
        assert!(deleted.is_met(&|_| None));
    }

    #[test]
    fn a_delete_is_met_once_the_object_is_stuck_past_its_grace_period() {
        use k8s_openapi::apimachinery::pkg::apis::meta::v1::{ObjectMeta, Time};
        use k8s_openapi::jiff::{SignedDuration, Timestamp};
        // A pod whose node went away stays terminating until something force-deletes it:
        // its owner does not wait for that (tests/daemonset.rs waited 5 minutes).
        let now = Timestamp::now();
        let meta = |grace_ends: Timestamp| ObjectMeta {
            uid: Some("u2".into()),
            resource_version: Some("7".into()),
            deletion_timestamp: Some(Time(grace_ends)),
            ..ObjectMeta::default()
        };
        let in_grace = Cached::of(&meta(now + SignedDuration::from_secs(20)), now);
        let just_past = Cached::of(&meta(now - SignedDuration::from_secs(5)), now);
        let stuck = Cached::of(&meta(now - SignedDuration::from_secs(16)), now);
        assert!(!in_grace.stuck_deleting && !just_past.stuck_deleting && stuck.stuck_deleting);
        let deleted = Expect::Deleted(pod("agent-n2"), "u2".into());
        let held = |c: Cached| move |o: &Watched| (o.name == "agent-n2").then(|| c.clone());
        assert!(
            !deleted.is_met(&held(in_grace)),
            "a pod in its grace period is waited for"
        );
        assert!(!deleted.is_met(&held(just_past)));
        let terminating = held(stuck);
        assert!(deleted.is_met(&terminating));
        assert!(
            !Expect::Version(pod("agent-n2"), 8).is_met(&terminating),
            "only a delete is met by it"
        );
    }

    #[test]
    fn a_version_is_met_at_or_after_the_written_resource_version() {
        let version = Expect::Version(pod("web-a"), 10);
        assert!(!version.is_met(&cached("web-a", "u", 9)));
        assert!(version.is_met(&cached("web-a", "u", 10)));
        assert!(version.is_met(&|_| None));
    }

    #[test]
    fn an_expectation_past_the_timeout_is_dropped() {
        let e = Expectations::default();
        e.expect(
            "ns/web",
            Expect::Created(Watched::new(ObjectKind::Claim, "ns", "data-web-a")),
        );
        let later = Instant::now() + TIMEOUT + Duration::from_secs(1);
        assert_eq!(e.pending_at("ns/web", &|_| None, later), 0);
    }

    #[test]
    fn an_event_of_an_expected_object_names_the_owners_waiting_for_it() {
        let e = Expectations::default();
        let object = Watched::new(ObjectKind::Claim, "ns", "data-web-2");
        let claim = Expect::Deleted(object.clone(), "c2".into());
        e.expect("ns/web", claim.clone());
        assert_eq!(e.owners_expecting(&object), ["ns/web"]);
        let as_pod = Watched::new(ObjectKind::Pod, "ns", "data-web-2");
        assert!(e.owners_expecting(&as_pod).is_empty(), "kind");
        let elsewhere = Watched::new(ObjectKind::Claim, "other", "data-web-2");
        assert!(e.owners_expecting(&elsewhere).is_empty(), "namespace");
        e.forget("ns/web", &claim);
        assert!(e.owners_expecting(&object).is_empty());
    }

    #[test]
    fn a_cluster_scoped_owner_waits_for_its_children_in_any_namespace() {
        let e = Expectations::default();
        let job = Watched::new(ObjectKind::Child("jobs.batch".into()), "team-a", "nightly-1");
        e.expect("/nightly", Expect::Created(job.clone()));
        assert_eq!(e.owners_expecting(&job), ["/nightly"]);
        assert_eq!(e.pending("/nightly", &|_| None), 1);
        let found = |o: &Watched| {
            (o == &job).then(|| Cached {
                uid: "j1".to_string(),
                version: 3,
                stuck_deleting: false,
            })
        };
        assert_eq!(e.pending("/nightly", &found), 0);
    }

    #[test]
    fn the_owners_waiting_and_the_oldest_wait_are_counted() {
        let e = Expectations::default();
        assert_eq!(e.waiting(Instant::now()), (0, Duration::ZERO));
        e.expect("ns/a", Expect::Created(pod("a-1")));
        e.expect("ns/a", Expect::Created(pod("a-2")));
        e.expect("ns/b", Expect::Created(pod("b-1")));
        let now = Instant::now();
        let (owners, oldest) = e.waiting(now + Duration::from_secs(30));
        assert_eq!(owners, 2);
        assert!(oldest >= Duration::from_secs(30), "{oldest:?}");
    }

    #[test]
    fn a_failed_write_is_forgotten() {
        let e = Expectations::default();
        let created = Expect::Created(pod("web-a"));
        e.expect("ns/web", created.clone());
        e.forget("ns/web", &created);
        assert_eq!(e.pending("ns/web", &|_| None), 0);
    }
}
