//! The pod cache's compact record: a pod's metadata as it is (owners, labels, annotations,
//! uid and resourceVersion are read on every event and lookup), its spec and status as
//! the compact JSON the API server sent. A parsed `Pod` costs about six times its JSON
//! (k8s-openapi's structs hold every optional field inline: a `Container` alone is over
//! 2 KB before any of its text), so the store keeps the text and a snapshot parses the
//! pods of the one object it plans, for as long as the round lasts.
//!
//! Invariants:
//! - [`CachedPod::pod`] gives back the pod as the watch delivered it, less its
//!   `managedFields` (nobody reads them): nothing a planner, webhook or trigger reads is
//!   dropped, so a planner cannot tell a cached pod from a listed one.
//! - The record is built once per watch event, in the watch (never per read).
use std::borrow::Cow;
use std::sync::Arc;

use k8s_openapi::api::core::v1::{Pod, PodSpec, PodStatus};
use k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta;
use kube::Resource;
use serde::{Deserialize, Deserializer};

/// A cached pod: metadata parsed, spec and status as JSON text.
#[derive(Clone, Debug, Default)]
pub struct CachedPod {
    metadata: ObjectMeta,
    /// `{"spec":...,"status":...}` as compact JSON.
    body: Box<str>,
}

#[derive(serde::Serialize, Deserialize, Default)]
struct Body {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    spec: Option<PodSpec>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    status: Option<PodStatus>,
}

impl CachedPod {
    /// The record of `pod` (its `managedFields` dropped).
    pub fn new(pod: Pod) -> Self {
        let Pod {
            mut metadata,
            spec,
            status,
        } = pod;
        metadata.managed_fields = None;
        let body = serde_json::to_string(&Body { spec, status }).unwrap_or_default();
        Self {
            metadata,
            body: body.into_boxed_str(),
        }
    }

    /// The pod, parsed again (see the module's invariants).
    pub fn pod(&self) -> Pod {
        let Body { spec, status } = serde_json::from_str(&self.body).unwrap_or_default();
        Pod {
            metadata: self.metadata.clone(),
            spec,
            status,
        }
    }

    /// The pod's metadata alone, as a pod with no spec or status: what a watch event tells
    /// its subscribers (whom it wakes is decided by owners, labels and annotations).
    pub fn metadata_only(&self) -> Pod {
        Pod {
            metadata: self.metadata.clone(),
            ..Pod::default()
        }
    }
}

/// The pods of `records`, parsed (a snapshot's pods).
pub fn pods(records: &[Arc<CachedPod>]) -> Vec<Arc<Pod>> {
    records.iter().map(|r| Arc::new(r.pod())).collect()
}

impl<'de> Deserialize<'de> for CachedPod {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        Pod::deserialize(deserializer).map(Self::new)
    }
}

impl Resource for CachedPod {
    type DynamicType = ();
    type Scope = k8s_openapi::NamespaceResourceScope;

    fn kind(_: &()) -> Cow<'_, str> {
        Cow::Borrowed("Pod")
    }
    fn group(_: &()) -> Cow<'_, str> {
        Cow::Borrowed("")
    }
    fn version(_: &()) -> Cow<'_, str> {
        Cow::Borrowed("v1")
    }
    fn plural(_: &()) -> Cow<'_, str> {
        Cow::Borrowed("pods")
    }
    fn meta(&self) -> &ObjectMeta {
        &self.metadata
    }
    fn meta_mut(&mut self) -> &mut ObjectMeta {
        &mut self.metadata
    }
}

#[cfg(test)]
mod tests {
    use kube::api::ObjectMeta;
    use serde_json::json;

    use super::*;

    fn listed() -> serde_json::Value {
        json!({
            "apiVersion": "v1",
            "kind": "Pod",
            "metadata": {
                "name": "web-x7k2p",
                "namespace": "bench",
                "uid": "9b2c",
                "resourceVersion": "42",
                "labels": { "app": "web" },
                "annotations": { "apps.kruise.io/inplace-update-state": "{\"revision\":\"web-2\"}" },
                "ownerReferences": [{ "apiVersion": "apps.kruise.io/v1alpha1", "kind": "CloneSet",
                    "name": "web", "uid": "4f6a", "controller": true }],
                "managedFields": [{ "manager": "kubelet", "operation": "Update" }]
            },
            "spec": {
                "containers": [{ "name": "web", "image": "registry.local/web:2",
                    "env": [{ "name": "A", "value": "1" }],
                    "volumeMounts": [{ "name": "data", "mountPath": "/data" }] }],
                "nodeName": "node-3",
                "readinessGates": [{ "conditionType": "InPlaceUpdateReady" }],
                "volumes": [{ "name": "data", "persistentVolumeClaim": { "claimName": "data-web" } }]
            },
            "status": {
                "phase": "Running",
                "conditions": [{ "type": "Ready", "status": "True" }],
                "containerStatuses": [{ "name": "web", "image": "registry.local/web:2",
                    "imageID": "sha256:1", "ready": true, "restartCount": 1,
                    "state": { "running": { "startedAt": "2026-12-04T10:00:04Z" } } }]
            }
        })
    }

    #[test]
    fn a_cached_pod_is_the_listed_pod_without_its_managed_fields() {
        let pod: Pod = serde_json::from_value(listed()).expect("test input");
        let cached: CachedPod = serde_json::from_value(listed()).expect("test input");
        let mut expected = pod.clone();
        expected.metadata.managed_fields = None;
        assert_eq!(cached.pod(), expected);
        assert_eq!(cached.meta().uid.as_deref(), Some("9b2c"));
        assert_eq!(CachedPod::new(pod).pod(), expected);
        let meta = cached.metadata_only();
        assert_eq!(
            (meta.metadata, meta.spec, meta.status),
            (expected.metadata, None, None)
        );
        assert!(cached.body.len() < serde_json::to_string(&listed()).expect("test input").len());
    }

    #[test]
    fn a_pod_without_spec_or_status_stays_without() {
        let bare = Pod {
            metadata: ObjectMeta {
                name: Some("bare".into()),
                ..ObjectMeta::default()
            },
            ..Pod::default()
        };
        let cached = CachedPod::new(bare.clone());
        assert_eq!(cached.pod(), bare);
        assert_eq!(&*cached.body, "{}");
    }

    #[test]
    fn it_is_addressed_as_a_pod() {
        assert_eq!(CachedPod::kind(&()), "Pod");
        assert_eq!(CachedPod::api_version(&()), "v1");
        assert_eq!(
            CachedPod::url_path(&(), Some("web")),
            Pod::url_path(&(), Some("web"))
        );
    }
}
