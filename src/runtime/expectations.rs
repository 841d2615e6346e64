//! Expectations: what a controller wrote and has not yet seen in its cache (reference
//! §3.10, upstream `pkg/util/expectations/`). A stale cache must never make a controller
//! create a pod twice or delete one twice.
//!
//! Each expectation is checked against the cache at the start of a reconcile:
//! - `Created(name)` is met once the cache holds an object of that name;
//! - `Deleted(name, uid)` once the cache has no object of that name with that uid;
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
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ObjectKind {
    Pod,
    Claim,
}

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Expect {
    Created {
        kind: ObjectKind,
        name: String,
    },
    Deleted {
        kind: ObjectKind,
        name: String,
        uid: String,
    },
    Version {
        kind: ObjectKind,
        name: String,
        resource_version: u64,
    },
}

/// What the cache holds for a name: its uid and resourceVersion.
pub type Lookup<'a> = dyn Fn(ObjectKind, &str) -> Option<(String, u64)> + 'a;

impl Expect {
    pub fn is_met(&self, lookup: &Lookup<'_>) -> bool {
        match self {
            Expect::Created { kind, name } => lookup(*kind, name).is_some(),
            Expect::Deleted { kind, name, uid } => lookup(*kind, name).is_none_or(|(u, _)| &u != uid),
            Expect::Version {
                kind,
                name,
                resource_version,
            } => lookup(*kind, name).is_none_or(|(_, rv)| rv >= *resource_version),
        }
    }
}

/// Parses a resourceVersion; etcd's are decimal integers (0 for anything else).
pub fn resource_version(rv: Option<&str>) -> u64 {
    rv.and_then(|v| v.parse().ok()).unwrap_or(0)
}

/// Expectations of every owner (key: `namespace/name`).
#[derive(Debug, Default)]
pub struct Expectations {
    owners: Mutex<HashMap<String, HashMap<Expect, Instant>>>,
}

impl Expect {
    fn object(&self) -> (ObjectKind, &str) {
        match self {
            Expect::Created { kind, name }
            | Expect::Deleted { kind, name, .. }
            | Expect::Version { kind, name, .. } => (*kind, name),
        }
    }
}

/// The namespace part of an owner key (`namespace/name`).
fn namespace_of(owner: &str) -> &str {
    owner.split_once('/').map_or("", |(ns, _)| ns)
}

impl Expectations {
    pub fn expect(&self, owner: &str, expectation: Expect) {
        let mut owners = self.owners.lock().unwrap_or_else(|e| e.into_inner());
        owners
            .entry(owner.to_string())
            .or_default()
            .insert(expectation, Instant::now());
    }

    /// The owners (keys `namespace/name`) with an unmet expectation on the `kind` object
    /// `name` in `namespace`: an event of that object may be what they wait for.
    pub fn owners_expecting(&self, kind: ObjectKind, namespace: &str, name: &str) -> Vec<String> {
        let owners = self.owners.lock().unwrap_or_else(|e| e.into_inner());
        owners
            .iter()
            .filter(|(owner, _)| namespace_of(owner) == namespace)
            .filter(|(_, set)| set.keys().any(|e| e.object() == (kind, name)))
            .map(|(owner, _)| owner.clone())
            .collect()
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

    fn pod(name: &str) -> String {
        name.to_string()
    }

    #[test]
    fn a_create_is_met_once_the_cache_has_the_name() {
        let e = Expectations::default();
        e.expect(
            "ns/web",
            Expect::Created {
                kind: ObjectKind::Pod,
                name: pod("web-a"),
            },
        );
        assert_eq!(e.pending("ns/web", &|_, _| None), 1);
        assert_eq!(
            e.pending("ns/web", &|_, n| (n == "web-a").then(|| ("u1".into(), 5))),
            0
        );
    }

    #[test]
    fn a_delete_is_met_when_the_name_is_gone_or_belongs_to_a_new_object() {
        let deleted = Expect::Deleted {
            kind: ObjectKind::Pod,
            name: pod("web-a"),
            uid: "u1".into(),
        };
        assert!(!deleted.is_met(&|_, _| Some(("u1".into(), 1))));
        assert!(deleted.is_met(&|_, _| Some(("u2".into(), 1))));
        assert!(deleted.is_met(&|_, _| None));
    }

    #[test]
    fn a_version_is_met_at_or_after_the_written_resource_version() {
        let version = Expect::Version {
            kind: ObjectKind::Pod,
            name: pod("web-a"),
            resource_version: 10,
        };
        assert!(!version.is_met(&|_, _| Some(("u".into(), 9))));
        assert!(version.is_met(&|_, _| Some(("u".into(), 10))));
        assert!(version.is_met(&|_, _| None));
    }

    #[test]
    fn an_expectation_past_the_timeout_is_dropped() {
        let e = Expectations::default();
        let created = Expect::Created {
            kind: ObjectKind::Claim,
            name: pod("data-web-a"),
        };
        e.expect("ns/web", created);
        let later = Instant::now() + TIMEOUT + Duration::from_secs(1);
        assert_eq!(e.pending_at("ns/web", &|_, _| None, later), 0);
    }

    #[test]
    fn an_event_of_an_expected_object_names_the_owners_waiting_for_it() {
        let e = Expectations::default();
        let claim = Expect::Deleted {
            kind: ObjectKind::Claim,
            name: pod("data-web-2"),
            uid: "c2".into(),
        };
        e.expect("ns/web", claim.clone());
        assert_eq!(
            e.owners_expecting(ObjectKind::Claim, "ns", "data-web-2"),
            ["ns/web"]
        );
        assert!(
            e.owners_expecting(ObjectKind::Pod, "ns", "data-web-2").is_empty(),
            "kind"
        );
        assert!(
            e.owners_expecting(ObjectKind::Claim, "other", "data-web-2")
                .is_empty(),
            "namespace"
        );
        e.forget("ns/web", &claim);
        assert!(
            e.owners_expecting(ObjectKind::Claim, "ns", "data-web-2")
                .is_empty()
        );
    }

    #[test]
    fn a_failed_write_is_forgotten() {
        let e = Expectations::default();
        let created = Expect::Created {
            kind: ObjectKind::Pod,
            name: pod("web-a"),
        };
        e.expect("ns/web", created.clone());
        e.forget("ns/web", &created);
        assert_eq!(e.pending("ns/web", &|_, _| None), 0);
    }
}
