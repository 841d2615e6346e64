//! Children that are not pods: the Jobs of an AdvancedCronJob, the workloads of a
//! UnitedDeployment, or any object a kind creates and owns. A kind asks for a watch of
//! each child kind when it starts ([`crate::runtime::triggers::Triggers::children`]); its
//! planner reads the children it controls from [`Children::get`] by owner uid (an index,
//! not a scan), and the expectations of its child writes are checked against the same
//! store ([`Children::find`]).
//!
//! Invariants: one watch per child kind and controller, started with the controller and
//! stopped with it; nothing is planned before every child store has its first list
//! ([`Children::ready`]: an unlisted store reads as "no children", and a planner would
//! create them all again); a child kind is known by its [`key`] (`jobs.batch`), the same key its
//! expectations and actions carry; the owner index is updated before the store (see
//! [`crate::runtime::owner_index`]).
use std::any::{Any, TypeId};
use std::collections::HashMap;
use std::sync::{Arc, RwLock};

use kube::Resource;
use kube::core::{ApiResource, DynamicObject};
use kube::runtime::reflector::{ObjectRef, Store};

use crate::runtime::expectations::Cached;
use crate::runtime::owner_index::OwnerIndex;

/// How long a controller waits for the first list of a kind known only at run time.
pub const DYNAMIC_FIRST_LIST: std::time::Duration = std::time::Duration::from_secs(30);

/// The key of a child kind: `plural.group` (`jobs.batch`), or the plural alone for the core
/// group (`configmaps`).
pub fn key(resource: &ApiResource) -> String {
    if resource.group.is_empty() {
        resource.plural.clone()
    } else {
        format!("{}.{}", resource.plural, resource.group)
    }
}

/// The key of the typed child kind `C`.
pub fn key_of<C: Resource<DynamicType = ()>>() -> String {
    key(&ApiResource::erase::<C>(&()))
}

/// The cache of one child kind: its store and its owner index.
#[derive(Clone)]
pub struct ChildWatch<C: Resource<DynamicType = ()> + Clone + 'static> {
    pub store: Store<C>,
    pub owners: Arc<OwnerIndex>,
}

impl<C: Resource<DynamicType = ()> + Clone + 'static> ChildWatch<C> {
    /// The cached children whose controller has `owner_uid` (owner index lookups).
    pub fn controlled_by(&self, owner_uid: &str) -> Vec<Arc<C>> {
        self.owners.controlled(&self.store, owner_uid)
    }
}

/// A kind known only at run time: (group, kind).
type GroupKind = (String, String);
/// Its API resource (the store's keys carry it) and its cache.
type DynamicWatch = (ApiResource, Store<DynamicObject>);
type Finder = Arc<dyn Fn(&str, &str) -> Option<Cached> + Send + Sync>;
type FirstList = futures::future::Shared<futures::future::BoxFuture<'static, ()>>;

/// Every child cache of one controller, by type (for planners) and by key (for
/// expectations). Cheap to clone; clones share the caches.
#[derive(Clone, Default)]
pub struct Children {
    typed: Arc<RwLock<HashMap<TypeId, Arc<dyn Any + Send + Sync>>>>,
    finders: Arc<RwLock<HashMap<String, Finder>>>,
    first_lists: Arc<RwLock<Vec<FirstList>>>,
    /// Caches of kinds known only at run time, by (group, kind).
    dynamic: Arc<RwLock<HashMap<GroupKind, DynamicWatch>>>,
}

impl Children {
    /// Registers the cache of child kind `C`.
    pub fn register<C>(&self, watch: ChildWatch<C>)
    where
        C: Resource<DynamicType = ()> + Clone + Send + Sync + 'static,
    {
        let listed = watch.store.clone();
        self.awaits_first_list(async move {
            let _ = listed.wait_until_ready().await;
        });
        let store = watch.store.clone();
        let finder: Finder = Arc::new(move |namespace: &str, name: &str| {
            let mut reference = ObjectRef::new(name);
            if !namespace.is_empty() {
                reference = reference.within(namespace);
            }
            store
                .get(&reference)
                .map(|c| Cached::of(c.meta(), k8s_openapi::jiff::Timestamp::now()))
        });
        self.finders
            .write()
            .unwrap_or_else(|e| e.into_inner())
            .insert(key_of::<C>(), finder);
        self.typed
            .write()
            .unwrap_or_else(|e| e.into_inner())
            .insert(TypeId::of::<C>(), Arc::new(watch));
    }

    /// Makes [`Children::ready`] wait for `listed` too.
    fn awaits_first_list(&self, listed: impl std::future::Future<Output = ()> + Send + 'static) {
        use futures::FutureExt;
        let first_list: FirstList = listed.boxed().shared();
        self.first_lists
            .write()
            .unwrap_or_else(|e| e.into_inner())
            .push(first_list);
    }

    /// Waits until every registered child store has its first full list.
    pub async fn ready(&self) {
        let waits: Vec<FirstList> = self.first_lists.read().unwrap_or_else(|e| e.into_inner()).clone();
        futures::future::join_all(waits).await;
    }

    /// The cache of child kind `C`, if the controller watches it.
    pub fn get<C>(&self) -> Option<ChildWatch<C>>
    where
        C: Resource<DynamicType = ()> + Clone + Send + Sync + 'static,
    {
        let typed = self.typed.read().unwrap_or_else(|e| e.into_inner());
        typed
            .get(&TypeId::of::<C>())
            .and_then(|w| w.clone().downcast::<ChildWatch<C>>().ok())
            .map(|w| w.as_ref().clone())
    }

    /// Registers the cache of `resource`, a kind known only at run time (see
    /// [`crate::runtime::triggers::Triggers::dynamic`]). Its first list is awaited for
    /// [`DYNAMIC_FIRST_LIST`] at most: a kind the run may not list (no RBAC for a custom
    /// workload) must not hold the controller's other objects; its objects then read as
    /// missing, with a warning.
    pub fn register_dynamic(&self, resource: &ApiResource, store: Store<DynamicObject>) {
        let listed = store.clone();
        let what = key(resource);
        self.awaits_first_list(async move {
            if tokio::time::timeout(DYNAMIC_FIRST_LIST, listed.wait_until_ready())
                .await
                .is_err()
            {
                tracing::warn!(
                    what,
                    "not listed after {DYNAMIC_FIRST_LIST:?}; planning without it (its objects read as missing)"
                );
            }
        });
        self.dynamic.write().unwrap_or_else(|e| e.into_inner()).insert(
            (resource.group.clone(), resource.kind.clone()),
            (resource.clone(), store),
        );
    }

    /// The object `namespace/name` of the run-time kind `group`/`kind`, if it is watched
    /// and cached.
    pub fn dynamic(
        &self,
        group: &str,
        kind: &str,
        namespace: &str,
        name: &str,
    ) -> Option<Arc<DynamicObject>> {
        let dynamic = self.dynamic.read().unwrap_or_else(|e| e.into_inner());
        let (resource, store) = dynamic.get(&(group.to_string(), kind.to_string()))?;
        store.get(&ObjectRef::new_with(name, resource.clone()).within(namespace))
    }

    /// What the cache holds of the child `namespace/name` of kind `key`; None when it is
    /// not cached (or the kind is not watched).
    pub fn find(&self, key: &str, namespace: &str, name: &str) -> Option<Cached> {
        let finders = self.finders.read().unwrap_or_else(|e| e.into_inner());
        finders.get(key).and_then(|f| f(namespace, name))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use k8s_openapi::api::batch::v1::Job;
    use k8s_openapi::api::core::v1::ConfigMap;

    #[test]
    fn a_child_kind_is_known_by_plural_and_group() {
        assert_eq!(key_of::<Job>(), "jobs.batch");
        assert_eq!(key_of::<ConfigMap>(), "configmaps");
    }

    #[test]
    fn a_run_time_kind_is_found_by_group_kind_namespace_and_name() {
        let resource = ApiResource::from_gvk_with_plural(
            &kube::core::GroupVersionKind::gvk("kubeflow.org", "v1", "TFJob"),
            "tfjobs",
        );
        let mut writer = kube::runtime::reflector::store::Writer::new(resource.clone());
        let children = Children::default();
        children.register_dynamic(&resource, writer.as_reader());
        let job = DynamicObject::new("train", &resource).within("ml");
        writer.apply_watcher_event(&kube::runtime::watcher::Event::Apply(job));
        assert!(children.dynamic("kubeflow.org", "TFJob", "ml", "train").is_some());
        assert!(
            children
                .dynamic("kubeflow.org", "TFJob", "other", "train")
                .is_none()
        );
        assert!(
            children
                .dynamic("kubeflow.org", "PyTorchJob", "ml", "train")
                .is_none()
        );
    }

    #[test]
    fn a_registered_cache_is_found_by_type_and_by_key() {
        let children = Children::default();
        assert!(children.get::<Job>().is_none());
        let (store, _writer) = kube::runtime::reflector::store::<Job>();
        children.register(ChildWatch {
            store,
            owners: Arc::default(),
        });
        assert!(children.get::<Job>().is_some());
        assert!(children.get::<ConfigMap>().is_none());
        assert_eq!(children.find("jobs.batch", "ns", "nightly-1"), None);
        assert_eq!(children.find("configmaps", "ns", "x"), None);
    }
}
