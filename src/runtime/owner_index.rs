//! Cached objects by the uid of their controller owner, so a reconcile finds a set's pods
//! without scanning every pod in the cache; and the objects with no controller at all, by
//! namespace, so a kind that adopts by selector (the Advanced DaemonSet) finds its orphans
//! without that scan either.
//!
//! Invariants:
//! - Every cached object is in exactly one place: under its controller's uid, or among its
//!   namespace's uncontrolled objects.
//! - The index is updated BEFORE the store for each watch event (see
//!   [`super::watches::fanned_out`]). A reader that checks an expectation against the store
//!   and then reads the index therefore never misses an object the store already showed.
//! - A re-list builds a fresh index and swaps it in when the list is done, as the store does,
//!   so objects deleted while the watch was down leave the index too.
use std::collections::{BTreeSet, HashMap};
use std::sync::{Arc, RwLock};

use k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta;
use kube::Resource;
use kube::runtime::watcher::Event;

/// `(namespace, name)` of a cached object.
pub type Key = (String, String);

/// The entries: each object's key is held once (shared by the two places it is listed
/// in), and each owner's uid once (10,000 pods of 100 owners: 10,000 keys, 100 uids).
#[derive(Debug, Default)]
struct Entries {
    by_owner: HashMap<Arc<str>, BTreeSet<Arc<Key>>>,
    owner_of: HashMap<Arc<Key>, Arc<str>>,
    /// Objects without a controller, by namespace.
    uncontrolled: HashMap<String, BTreeSet<Arc<Key>>>,
}

impl Entries {
    fn remove(&mut self, key: &Key) {
        if let Some(set) = self.uncontrolled.get_mut(&key.0)
            && set.remove(key)
            && set.is_empty()
        {
            self.uncontrolled.remove(&key.0);
        }
        if let Some(owner) = self.owner_of.remove(key)
            && let Some(set) = self.by_owner.get_mut(&owner)
        {
            set.remove(key);
            if set.is_empty() {
                self.by_owner.remove(&owner);
            }
        }
    }

    fn apply(&mut self, meta: &ObjectMeta) {
        let key = key_of(meta);
        self.remove(&key);
        let key = Arc::new(key);
        let owner = meta
            .owner_references
            .iter()
            .flatten()
            .find(|o| o.controller == Some(true))
            .map(|o| o.uid.as_str());
        if let Some(owner) = owner {
            let owner = match self.by_owner.get_key_value(owner) {
                Some((held, _)) => held.clone(),
                None => Arc::from(owner),
            };
            self.by_owner
                .entry(owner.clone())
                .or_default()
                .insert(key.clone());
            self.owner_of.insert(key, owner);
        } else {
            self.uncontrolled.entry(key.0.clone()).or_default().insert(key);
        }
    }
}

fn key_of(meta: &ObjectMeta) -> Key {
    (
        meta.namespace.clone().unwrap_or_default(),
        meta.name.clone().unwrap_or_default(),
    )
}

#[derive(Debug, Default)]
pub struct OwnerIndex {
    live: RwLock<Entries>,
    relist: RwLock<Option<Entries>>,
}

impl OwnerIndex {
    /// Follows one watch event.
    pub fn observe<K: Resource>(&self, event: &Event<K>) {
        let write =
            |f: &mut dyn FnMut(&mut Entries)| f(&mut self.live.write().unwrap_or_else(|e| e.into_inner()));
        match event {
            Event::Apply(o) => write(&mut |e| e.apply(o.meta())),
            Event::Delete(o) => write(&mut |e| e.remove(&key_of(o.meta()))),
            Event::Init => *self.relist.write().unwrap_or_else(|e| e.into_inner()) = Some(Entries::default()),
            Event::InitApply(o) => {
                if let Some(fresh) = self.relist.write().unwrap_or_else(|e| e.into_inner()).as_mut() {
                    fresh.apply(o.meta());
                }
            }
            Event::InitDone => {
                if let Some(fresh) = self.relist.write().unwrap_or_else(|e| e.into_inner()).take() {
                    *self.live.write().unwrap_or_else(|e| e.into_inner()) = fresh;
                }
            }
        }
    }

    /// The objects whose controller owner has `uid`.
    pub fn owned(&self, uid: &str) -> Vec<Key> {
        let live = self.live.read().unwrap_or_else(|e| e.into_inner());
        live.by_owner
            .get(uid)
            .map(|set| set.iter().map(|key| Key::clone(key)).collect())
            .unwrap_or_default()
    }

    /// The cached objects of `store` whose controller (of any kind) has `uid`, as this
    /// index and the store both say (an object whose owner changed since is left out).
    pub fn controlled<K>(
        &self,
        store: &kube::runtime::reflector::Store<K>,
        uid: &str,
    ) -> Vec<std::sync::Arc<K>>
    where
        K: Resource<DynamicType = ()> + Clone,
    {
        self.owned(uid)
            .into_iter()
            .filter_map(|(ns, name)| store.get(&kube::runtime::reflector::ObjectRef::new(&name).within(&ns)))
            .filter(|o| {
                o.meta()
                    .owner_references
                    .iter()
                    .flatten()
                    .any(|r| r.controller == Some(true) && r.uid == uid)
            })
            .collect()
    }

    /// The objects in `namespace` that have no controller owner.
    pub fn uncontrolled(&self, namespace: &str) -> Vec<Key> {
        let live = self.live.read().unwrap_or_else(|e| e.into_inner());
        live.uncontrolled
            .get(namespace)
            .map(|set| set.iter().map(|key| Key::clone(key)).collect())
            .unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use k8s_openapi::api::core::v1::Pod;

    use super::*;

    fn pod(name: &str, owner: Option<&str>) -> Pod {
        serde_json::from_value(serde_json::json!({
            "metadata": {
                "name": name,
                "namespace": "ns",
                "ownerReferences": owner.map(|uid| vec![serde_json::json!({
                    "apiVersion": "apps.kruise.io/v1alpha1", "kind": "CloneSet",
                    "name": "web", "uid": uid, "controller": true,
                })]),
            }
        }))
        .expect("pod")
    }

    fn names(index: &OwnerIndex, uid: &str) -> Vec<String> {
        index.owned(uid).into_iter().map(|(_, n)| n).collect()
    }

    #[test]
    fn applies_deletes_and_owner_changes_are_followed() {
        let index = OwnerIndex::default();
        index.observe(&Event::Apply(pod("a", Some("u1"))));
        index.observe(&Event::Apply(pod("b", Some("u1"))));
        assert_eq!(names(&index, "u1"), ["a", "b"]);
        index.observe(&Event::Apply(pod("b", None)));
        assert_eq!(names(&index, "u1"), ["a"]);
        index.observe(&Event::Delete(pod("a", Some("u1"))));
        assert!(names(&index, "u1").is_empty());
    }

    fn orphans(index: &OwnerIndex) -> Vec<String> {
        index.uncontrolled("ns").into_iter().map(|(_, n)| n).collect()
    }

    #[test]
    fn objects_without_a_controller_are_listed_by_namespace_until_adopted_or_deleted() {
        let index = OwnerIndex::default();
        index.observe(&Event::Apply(pod("a", None)));
        index.observe(&Event::Apply(pod("b", None)));
        index.observe(&Event::Apply(pod("c", Some("u1"))));
        assert_eq!(orphans(&index), ["a", "b"]);
        assert!(index.uncontrolled("other").is_empty());
        index.observe(&Event::Apply(pod("a", Some("u2"))));
        assert_eq!(orphans(&index), ["b"]);
        assert_eq!(names(&index, "u2"), ["a"]);
        index.observe(&Event::Apply(pod("c", None)));
        assert_eq!(orphans(&index), ["b", "c"]);
        assert!(names(&index, "u1").is_empty());
        index.observe(&Event::Delete(pod("b", None)));
        index.observe(&Event::Delete(pod("c", None)));
        assert!(orphans(&index).is_empty());
    }

    #[test]
    fn a_relist_replaces_the_index_when_it_is_done() {
        let index = OwnerIndex::default();
        index.observe(&Event::Apply(pod("gone", Some("u1"))));
        index.observe(&Event::<Pod>::Init);
        index.observe(&Event::InitApply(pod("kept", Some("u1"))));
        assert_eq!(
            names(&index, "u1"),
            ["gone"],
            "the old index serves until the list is done"
        );
        index.observe(&Event::<Pod>::InitDone);
        assert_eq!(names(&index, "u1"), ["kept"]);
    }
}
