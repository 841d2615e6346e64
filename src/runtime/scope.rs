//! Namespaced and cluster-scoped kinds through one code path: every API handle of a
//! controller's own objects comes from [`Scoped::api`], so the driver, the status write and
//! the watch serve a cluster-scoped kind (SidecarSet) the same way as a namespaced one.
//!
//! Invariant: a namespaced object is always addressed in its own namespace (never through
//! `Api::all`, whose URLs have no namespace); a cluster-scoped kind ignores the `--namespace`
//! scope of `run` (it has no namespace to be scoped to).
use k8s_openapi::{ClusterResourceScope, NamespaceResourceScope};
use kube::{Api, Client, Resource};

/// How a kind of this scope is addressed.
pub trait Scoped {
    /// Whether objects of this scope live in a namespace.
    const NAMESPACED: bool;
    /// The API of kind `K` in `namespace` (None: every namespace, or no namespace).
    fn api<K>(client: &Client, namespace: Option<&str>) -> Api<K>
    where
        K: Resource<Scope = Self, DynamicType = ()>;
}

impl Scoped for NamespaceResourceScope {
    const NAMESPACED: bool = true;
    fn api<K>(client: &Client, namespace: Option<&str>) -> Api<K>
    where
        K: Resource<Scope = Self, DynamicType = ()>,
    {
        match namespace {
            Some(ns) => Api::namespaced(client.clone(), ns),
            None => Api::all(client.clone()),
        }
    }
}

impl Scoped for ClusterResourceScope {
    const NAMESPACED: bool = false;
    fn api<K>(client: &Client, _namespace: Option<&str>) -> Api<K>
    where
        K: Resource<Scope = Self, DynamicType = ()>,
    {
        Api::all(client.clone())
    }
}

/// The API that addresses `object` itself (its namespace, or none).
pub fn api_of<K>(client: &Client, object: &K) -> Api<K>
where
    K: Resource<DynamicType = ()>,
    K::Scope: Scoped,
{
    <K::Scope as Scoped>::api(
        client,
        Some(object.meta().namespace.as_deref().unwrap_or_default()),
    )
}
