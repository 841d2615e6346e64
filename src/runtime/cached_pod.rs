//! The pod cache's compact record: a pod's metadata as it is (owners, labels, annotations,
//! uid and resourceVersion are read on every event and lookup), and of its spec and status
//! only the fields a controller reads. A parsed `Pod` costs about five times its JSON
//! (k8s-openapi's structs hold every optional field inline: a `Container` is 2.3 KB before
//! any of its text), and most of it is never read: probes, ports, volumes, mounts, security
//! contexts, running and terminated container states, addresses. The record is read
//! straight off the watch's JSON (what it does not keep is skipped, never built), and a
//! snapshot assembles the pods of the object it plans from it: field copies, no parse.
//! What pods have in common (label keys and values, node names, images, a workload's
//! containers, the tolerations every pod gets, the conditions of pods that changed in the
//! same second, the container statuses of pods that run the same images) is held once for
//! all of them ([`shared`]).
//!
//! What is kept (every field a planner, status, trigger or the in-place engine reads):
//! - metadata: all of it but `managedFields`;
//! - spec: `containers[]` and `initContainers[]` (`name`, `image`, `env`, `resources`),
//!   `nodeName`, `readinessGates`, `restartPolicy`, `nodeSelector`, `affinity`,
//!   `tolerations`, `priorityClassName` (a WorkloadSpread subset's patch commonly sets it:
//!   whether the patch is already on a pod is read from it);
//! - status: `phase`, `conditions`, `containerStatuses[]` and `initContainerStatuses[]`
//!   (`name`, `image`, `imageID`, `ready`, `restartCount`, and `state.waiting`'s `reason`
//!   and `message`: how the rollout views tell a failing pod, `CrashLoopBackOff` or a pull
//!   error; a running container keeps nothing of its state).
//!
//! The CLI's views (`rollout status`, `get --tree`) list and watch pods as this record too.
//!
//! Invariants:
//! - [`CachedPod::pod`] gives back the pod as the watch delivered it, less the fields not
//!   kept: a planner reading a kept field cannot tell a cached pod from a listed one. A
//!   planner that starts reading another field adds it here (the test
//!   `every_field_read_is_kept` lists them; `workloads::common::cached_reads_tests` checks
//!   that the shared readers answer the same on a cached pod as on a whole one).
//! - The record's own `ObjectMeta` (what [`Resource::meta`] gives kube's watch and store
//!   and the owner index: name, namespace, uid, resourceVersion, owners, timestamps) has
//!   no labels and no annotations: they are held apart, as shared pairs. Whoever reads
//!   them reads the pod ([`CachedPod::pod`], [`CachedPod::metadata_only`]).
//! - No cached pod is the base of a write: writes are patches built from kept fields.
//! - The record is built once per watch event, in the watch (never per read).
use std::borrow::Cow;
use std::collections::BTreeMap;
use std::sync::Arc;

use k8s_openapi::api::core::v1::{
    Affinity, ContainerState, ContainerStateWaiting, EnvVar, Pod, PodReadinessGate, PodSpec, PodStatus,
    ResourceRequirements, Toleration,
};
use k8s_openapi::apimachinery::pkg::apis::meta::v1::{ObjectMeta, OwnerReference, Time};
use kube::Resource;
use serde::{Deserialize, Deserializer};

mod condition;
mod shared;
use condition::{Condition, Word};
use shared::{Pairs, Shared, Text, shareable, string, text};

/// A cached pod: metadata parsed, the kept fields of its spec and status (see the module).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct CachedPod {
    /// Less labels and annotations (see the module's invariants).
    metadata: ObjectMeta,
    labels: Option<Pairs>,
    annotations: Option<Pairs>,
    spec: Option<Spec>,
    status: Option<Status>,
}

/// A pod as a watch sends it, read into the record's fields (`managedFields` and the fields
/// not kept skipped unparsed).
#[derive(Deserialize)]
struct Wire {
    #[serde(default)]
    metadata: Meta,
    #[serde(default)]
    spec: Option<Spec>,
    #[serde(default)]
    status: Option<Status>,
}

/// `ObjectMeta` without `managedFields`, its labels and annotations as shared pairs.
#[derive(Default, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Meta {
    annotations: Option<Pairs>,
    creation_timestamp: Option<Time>,
    deletion_grace_period_seconds: Option<i64>,
    deletion_timestamp: Option<Time>,
    finalizers: Option<Vec<String>>,
    generate_name: Option<String>,
    generation: Option<i64>,
    labels: Option<Pairs>,
    name: Option<String>,
    namespace: Option<String>,
    owner_references: Option<Vec<OwnerReference>>,
    resource_version: Option<String>,
    self_link: Option<String>,
    uid: Option<String>,
}

/// `items` without spare capacity (a list read from JSON grows to four slots at its
/// first item; a pod has one owner).
fn fitted<T>(items: Option<Vec<T>>) -> Option<Vec<T>> {
    items.map(|mut items| {
        items.shrink_to_fit();
        items
    })
}

impl<'de> Deserialize<'de> for CachedPod {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let Wire {
            metadata: m,
            spec,
            status,
        } = Wire::deserialize(deserializer)?;
        Ok(Self {
            metadata: ObjectMeta {
                annotations: None,
                creation_timestamp: m.creation_timestamp,
                deletion_grace_period_seconds: m.deletion_grace_period_seconds,
                deletion_timestamp: m.deletion_timestamp,
                finalizers: fitted(m.finalizers),
                generate_name: m.generate_name,
                generation: m.generation,
                labels: None,
                managed_fields: None,
                name: m.name,
                namespace: m.namespace,
                owner_references: fitted(m.owner_references),
                resource_version: m.resource_version,
                self_link: m.self_link,
                uid: m.uid,
            },
            labels: m.labels,
            annotations: m.annotations,
            spec,
            status,
        })
    }
}

/// The kept fields of a `PodSpec`.
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Spec {
    #[serde(default)]
    containers: Shared<[Container]>,
    init_containers: Option<Shared<[Container]>>,
    node_name: Option<Text>,
    readiness_gates: Option<Shared<[PodReadinessGate]>>,
    restart_policy: Option<Word>,
    node_selector: Option<Shared<BTreeMap<String, String>>>,
    affinity: Option<Shared<Affinity>>,
    tolerations: Option<Shared<[Toleration]>>,
    priority_class_name: Option<Text>,
}

/// The kept fields of a `Container`.
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
struct Container {
    #[serde(default)]
    name: Text,
    image: Option<Text>,
    env: Option<Box<[EnvVar]>>,
    resources: Option<Box<ResourceRequirements>>,
}

shareable! {
    CONTAINERS: [Container],
    READINESS_GATES: [PodReadinessGate],
    NODE_SELECTORS: BTreeMap<String, String>,
    AFFINITIES: Affinity,
    TOLERATIONS: [Toleration],
}

/// The kept fields of a `PodStatus`.
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Status {
    phase: Option<Word>,
    conditions: Option<Shared<[Condition]>>,
    container_statuses: Option<Shared<[ContainerStatus]>>,
    init_container_statuses: Option<Shared<[ContainerStatus]>>,
}

// Pods that became ready in the same second, or run the same images, have equal
// conditions or container statuses.
shareable! {
    CONDITIONS: [Condition],
    CONTAINER_STATUSES: [ContainerStatus],
}

/// The kept fields of a `ContainerStatus`.
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
struct ContainerStatus {
    #[serde(default)]
    name: Text,
    #[serde(default)]
    image: Text,
    #[serde(default, rename = "imageID")]
    image_id: Text,
    #[serde(default)]
    ready: bool,
    #[serde(default)]
    restart_count: i32,
    #[serde(default)]
    state: State,
}

/// Of a container's state, the waiting one alone (boxed: most containers are running).
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
struct State {
    waiting: Option<Box<Waiting>>,
}

/// Why a container waits.
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
struct Waiting {
    reason: Option<Text>,
    message: Option<Text>,
}

impl From<k8s_openapi::api::core::v1::Container> for Container {
    fn from(c: k8s_openapi::api::core::v1::Container) -> Self {
        Self {
            name: Text::of(&c.name),
            image: text(c.image),
            env: c.env.map(Vec::into_boxed_slice),
            resources: c.resources.map(Box::new),
        }
    }
}

impl From<&Container> for k8s_openapi::api::core::v1::Container {
    fn from(c: &Container) -> Self {
        Self {
            name: c.name.as_str().to_string(),
            image: string(&c.image),
            env: c.env.as_deref().map(<[_]>::to_vec),
            resources: c.resources.as_deref().cloned(),
            ..Default::default()
        }
    }
}

impl From<k8s_openapi::api::core::v1::ContainerStatus> for ContainerStatus {
    fn from(c: k8s_openapi::api::core::v1::ContainerStatus) -> Self {
        Self {
            name: Text::of(&c.name),
            image: Text::of(&c.image),
            image_id: Text::of(&c.image_id),
            ready: c.ready,
            restart_count: c.restart_count,
            state: State {
                waiting: c.state.and_then(|s| s.waiting).map(|w| {
                    Box::new(Waiting {
                        reason: text(w.reason),
                        message: text(w.message),
                    })
                }),
            },
        }
    }
}

impl From<&ContainerStatus> for k8s_openapi::api::core::v1::ContainerStatus {
    fn from(c: &ContainerStatus) -> Self {
        Self {
            name: c.name.as_str().to_string(),
            image: c.image.as_str().to_string(),
            image_id: c.image_id.as_str().to_string(),
            ready: c.ready,
            restart_count: c.restart_count,
            state: c.state.waiting.as_deref().map(|w| ContainerState {
                waiting: Some(ContainerStateWaiting {
                    reason: string(&w.reason),
                    message: string(&w.message),
                }),
                ..ContainerState::default()
            }),
            ..Default::default()
        }
    }
}

/// Each of `items`, kept.
fn kept<T, K: From<T>>(items: Vec<T>) -> Box<[K]> {
    items.into_iter().map(K::from).collect()
}

/// Each of `items`, given back in the API's type.
fn given<'a, K: 'a, T: From<&'a K>>(items: &'a [K]) -> Vec<T> {
    items.iter().map(T::from).collect()
}

impl Spec {
    fn keep(spec: PodSpec) -> Self {
        Self {
            containers: Shared::of(kept(spec.containers)),
            init_containers: spec.init_containers.map(|c| Shared::of(kept(c))),
            node_name: text(spec.node_name),
            readiness_gates: spec.readiness_gates.map(|g| Shared::of(g.into_boxed_slice())),
            restart_policy: spec.restart_policy.as_deref().map(Word::of),
            node_selector: spec.node_selector.map(|s| Shared::of(Box::new(s))),
            affinity: spec.affinity.map(|a| Shared::of(Box::new(a))),
            tolerations: spec.tolerations.map(|t| Shared::of(t.into_boxed_slice())),
            priority_class_name: text(spec.priority_class_name),
        }
    }

    fn pod_spec(&self) -> PodSpec {
        PodSpec {
            containers: given(&self.containers),
            init_containers: self.init_containers.as_deref().map(given),
            node_name: string(&self.node_name),
            readiness_gates: self.readiness_gates.as_deref().map(<[_]>::to_vec),
            restart_policy: self.restart_policy.as_ref().map(Word::text),
            node_selector: self.node_selector.as_deref().cloned(),
            affinity: self.affinity.as_deref().cloned(),
            tolerations: self.tolerations.as_deref().map(<[_]>::to_vec),
            priority_class_name: string(&self.priority_class_name),
            ..PodSpec::default()
        }
    }
}

impl Status {
    fn keep(status: PodStatus) -> Self {
        Self {
            phase: status.phase.as_deref().map(Word::of),
            conditions: status.conditions.map(|c| Shared::of(kept(c))),
            container_statuses: status.container_statuses.map(|c| Shared::of(kept(c))),
            init_container_statuses: status.init_container_statuses.map(|c| Shared::of(kept(c))),
        }
    }

    fn pod_status(&self) -> PodStatus {
        PodStatus {
            phase: self.phase.as_ref().map(Word::text),
            conditions: self.conditions.as_deref().map(given),
            container_statuses: self.container_statuses.as_deref().map(given),
            init_container_statuses: self.init_container_statuses.as_deref().map(given),
            ..PodStatus::default()
        }
    }
}

impl CachedPod {
    /// The record of `pod`: its metadata less `managedFields`, the kept fields of its spec
    /// and status.
    pub fn new(pod: Pod) -> Self {
        let Pod {
            mut metadata,
            spec,
            status,
        } = pod;
        metadata.managed_fields = None;
        let labels = metadata.labels.take().map(Pairs::of);
        let annotations = metadata.annotations.take().map(Pairs::of);
        Self {
            metadata,
            labels,
            annotations,
            spec: spec.map(Spec::keep),
            status: status.map(Status::keep),
        }
    }

    /// The pod, assembled from the record (see the module's invariants).
    pub fn pod(&self) -> Pod {
        Pod {
            metadata: self.whole_metadata(),
            spec: self.spec.as_ref().map(Spec::pod_spec),
            status: self.status.as_ref().map(Status::pod_status),
        }
    }

    /// The pod's annotation `key`, read without assembling anything.
    pub fn annotation(&self, key: &str) -> Option<&str> {
        self.annotations.as_ref()?.get(key)
    }

    /// The pod's labels, read without assembling its metadata (a selector matches them).
    pub fn labels(&self) -> std::collections::BTreeMap<String, String> {
        self.labels.as_ref().map(Pairs::map).unwrap_or_default()
    }

    /// The pod's metadata alone, as a pod with no spec or status: what a watch event tells
    /// its subscribers (whom it wakes is decided by owners, labels and annotations).
    pub fn metadata_only(&self) -> Pod {
        Pod {
            metadata: self.whole_metadata(),
            ..Pod::default()
        }
    }

    fn whole_metadata(&self) -> ObjectMeta {
        ObjectMeta {
            labels: self.labels.as_ref().map(Pairs::map),
            annotations: self.annotations.as_ref().map(Pairs::map),
            ..self.metadata.clone()
        }
    }
}
/// The pods of `records`, assembled (a snapshot's pods).
pub fn pods(records: &[Arc<CachedPod>]) -> Vec<Arc<Pod>> {
    records.iter().map(|r| Arc::new(r.pod())).collect()
}

/// The pods `params` lists, each read as the record and assembled: a listing of many pods
/// never holds them whole (the CLI's views).
pub async fn list(api: &kube::Api<CachedPod>, params: &kube::api::ListParams) -> kube::Result<Vec<Pod>> {
    Ok(api.list(params).await?.items.iter().map(CachedPod::pod).collect())
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
                    "ports": [{ "containerPort": 80 }],
                    "readinessProbe": { "httpGet": { "path": "/", "port": 80 } },
                    "volumeMounts": [{ "name": "data", "mountPath": "/data" }] }],
                "nodeName": "node-3",
                "readinessGates": [{ "conditionType": "InPlaceUpdateReady" }],
                "volumes": [{ "name": "data", "persistentVolumeClaim": { "claimName": "data-web" } }]
            },
            "status": {
                "phase": "Running",
                "podIP": "10.0.0.7",
                "startTime": "2026-12-04T10:00:01Z",
                "conditions": [{ "type": "Ready", "status": "True" }],
                "containerStatuses": [{ "name": "web", "image": "registry.local/web:2",
                    "imageID": "sha256:1", "ready": true, "restartCount": 1, "started": true,
                    "state": { "running": { "startedAt": "2026-12-04T10:00:04Z" } } }]
            }
        })
    }

    /// `listed()` less what the record does not keep.
    fn kept_json() -> serde_json::Value {
        let mut pod = listed();
        let meta = pod["metadata"].as_object_mut().expect("object");
        meta.remove("managedFields");
        let container = pod["spec"]["containers"][0].as_object_mut().expect("object");
        container.remove("volumeMounts");
        container.remove("ports");
        container.remove("readinessProbe");
        pod["spec"].as_object_mut().expect("object").remove("volumes");
        let status = pod["status"].as_object_mut().expect("object");
        status.remove("podIP");
        status.remove("startTime");
        let container = pod["status"]["containerStatuses"][0]
            .as_object_mut()
            .expect("object");
        container.remove("state");
        container.remove("started");
        pod
    }

    #[test]
    fn a_cached_pod_is_the_listed_pod_less_what_no_controller_reads() {
        let cached: CachedPod = serde_json::from_value(listed()).expect("test input");
        let expected: Pod = serde_json::from_value(kept_json()).expect("test input");
        assert_eq!(cached.pod(), expected);
        assert_eq!(cached.meta().uid.as_deref(), Some("9b2c"));
        let meta = cached.metadata_only();
        assert_eq!(
            (meta.metadata, meta.spec, meta.status),
            (expected.metadata, None, None)
        );
    }

    #[test]
    fn reading_the_watch_json_keeps_what_keeping_a_parsed_pod_keeps() {
        let pod: Pod = serde_json::from_value(listed()).expect("test input");
        let read: CachedPod = serde_json::from_value(listed()).expect("test input");
        assert_eq!(read, CachedPod::new(pod.clone()));
        let kept = read.pod();
        assert_eq!(CachedPod::new(kept.clone()).pod(), kept);
    }

    /// Every field a controller or a view reads (see the module's list), each set: none is lost.
    #[test]
    fn every_field_read_is_kept() {
        let full: Pod = serde_json::from_value(json!({
            "metadata": {
                "name": "p", "namespace": "ns", "uid": "u", "resourceVersion": "7",
                "generateName": "p-", "generation": 2, "finalizers": ["f"],
                "creationTimestamp": "2026-12-04T10:00:00Z",
                "deletionTimestamp": "2026-12-04T10:05:00Z", "deletionGracePeriodSeconds": 30,
                "labels": { "a": "b" }, "annotations": { "c": "d" },
                "ownerReferences": [{ "apiVersion": "v1", "kind": "K", "name": "o", "uid": "ou",
                    "controller": true, "blockOwnerDeletion": true }]
            },
            "spec": {
                "containers": [{ "name": "main", "image": "i:1",
                    "env": [{ "name": "E", "valueFrom": { "configMapKeyRef": { "name": "cm", "key": "k" } } }],
                    "resources": { "requests": { "cpu": "100m" }, "limits": { "memory": "1Gi" } } }],
                "initContainers": [{ "name": "init", "image": "i:0",
                    "resources": { "requests": { "cpu": "50m" } } }],
                "nodeName": "n1",
                "readinessGates": [{ "conditionType": "InPlaceUpdateReady" }],
                "restartPolicy": "OnFailure",
                "nodeSelector": { "zone": "a" },
                "affinity": { "nodeAffinity": { "requiredDuringSchedulingIgnoredDuringExecution": {
                    "nodeSelectorTerms": [{ "matchFields": [{ "key": "metadata.name",
                        "operator": "In", "values": ["n1"] }] }] } } },
                "tolerations": [{ "key": "t", "operator": "Exists", "effect": "NoSchedule" }],
                "priorityClassName": "high"
            },
            "status": {
                "phase": "Running",
                "conditions": [
                    { "type": "Ready", "status": "True", "lastTransitionTime": "2026-12-04T10:01:00Z" },
                    { "type": "InPlaceUpdateReady", "status": "False", "reason": "r", "message": "m" },
                    { "type": "PodScheduled", "status": "False", "reason": "Unschedulable" }
                ],
                "containerStatuses": [{ "name": "main", "image": "i:1", "imageID": "sha256:1",
                    "ready": false, "restartCount": 3, "state": { "waiting": {
                        "reason": "CrashLoopBackOff", "message": "back-off restarting" } } }],
                "initContainerStatuses": [{ "name": "init", "image": "i:0", "imageID": "sha256:0",
                    "ready": false, "restartCount": 1 }]
            }
        }))
        .expect("test input");
        assert_eq!(CachedPod::new(full.clone()).pod(), full);
        let read: CachedPod =
            serde_json::from_value(serde_json::to_value(&full).expect("serializable")).expect("test input");
        assert_eq!(read.pod(), full);
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
        let read: CachedPod =
            serde_json::from_value(json!({ "metadata": { "name": "bare" } })).expect("test input");
        assert_eq!(read.pod(), bare);
    }

    /// Two pods of one workload hold their common text and spec parts once; the record's
    /// own `ObjectMeta` has no labels or annotations, and the pod has them back.
    #[test]
    fn pods_of_one_workload_share_what_they_have_in_common() {
        let mut other = listed();
        other["metadata"]["name"] = json!("web-q4m8z");
        other["metadata"]["labels"]["apps.kruise.io/cloneset-instance-id"] = json!("q4m8z");
        other["spec"]["tolerations"] = json!([{ "key": "node.kubernetes.io/not-ready",
            "operator": "Exists", "effect": "NoExecute", "tolerationSeconds": 300 }]);
        let mut one = listed();
        one["spec"]["tolerations"] = other["spec"]["tolerations"].clone();
        let one: CachedPod = serde_json::from_value(one).expect("test input");
        let other: CachedPod = serde_json::from_value(other).expect("test input");
        let (a, b) = (
            one.spec.as_ref().expect("spec"),
            other.spec.as_ref().expect("spec"),
        );
        assert!(std::ptr::eq(&*a.containers, &*b.containers));
        assert!(std::ptr::eq(
            &**a.tolerations.as_ref().expect("tolerations"),
            &**b.tolerations.as_ref().expect("tolerations")
        ));
        let (a, b) = (
            one.status.as_ref().expect("status"),
            other.status.as_ref().expect("status"),
        );
        assert!(std::ptr::eq(
            &**a.conditions.as_ref().expect("conditions"),
            &**b.conditions.as_ref().expect("conditions")
        ));
        assert!(std::ptr::eq(
            &**a.container_statuses.as_ref().expect("statuses"),
            &**b.container_statuses.as_ref().expect("statuses")
        ));
        let app = |p: &CachedPod| p.labels.as_ref().expect("labels").map()["app"].clone();
        assert_eq!(app(&one), "web");
        assert_eq!(app(&one), app(&other));
        assert_eq!(
            (one.meta().labels.as_ref(), one.meta().annotations.as_ref()),
            (None, None)
        );
        assert_eq!(
            one.pod().metadata.labels,
            serde_json::from_value(listed()["metadata"]["labels"].clone()).expect("labels")
        );
        assert_eq!(
            Some(one.labels()),
            one.pod().metadata.labels,
            "read without assembling"
        );
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
