//! Property tests: no object shape the API server can store makes the planner of the six
//! other kinds panic (Advanced DaemonSet, BroadcastJob, AdvancedCronJob, SidecarSet,
//! WorkloadSpread, UnitedDeployment; CloneSet and Advanced StatefulSet: `shape_tests.rs`,
//! whose generators these reuse). Each case starts from a valid object, writes random
//! values (negative and huge numbers, malformed percentages, ranges, schedules and times,
//! wrong types, nulls) at the fields its planner reads (spec and stored status, list items
//! included), and plans every shape that still decodes as its controller does: with pods in
//! every state (and nodes, children or subset workloads as the kind has them). A bad value
//! must end up as a refusal naming the field (a refused spec plans nothing), a problem, or
//! the default the kind documents for an unreadable value (SidecarSet), never as a panic.
//! 300 cases each, or `PROPTEST_CASES`.
use std::collections::BTreeMap;

use k8s_openapi::api::core::v1::{Node, Pod};
use k8s_openapi::apimachinery::pkg::apis::meta::v1::{ObjectMeta, Time};
use k8s_openapi::jiff::Timestamp;
use kube::ResourceExt;
use proptest::prelude::*;
use serde_json::{Value, json};

use super::shape_tests::{NOW, odd_value, pod, pods_strategy, set_path, template, templates};
use crate::api::broadcastjob::BroadcastJob;
use crate::api::cronjob::{AdvancedCronJob, SCHEDULED_AT_ANNOTATION};
use crate::api::daemonset::DaemonSet;
use crate::api::sidecarset::SidecarSet;
use crate::api::uniteddeployment::UnitedDeployment;
use crate::api::workloadspread::{MATCHED_WORKLOADSPREAD_ANNOTATION, WorkloadSpread};
use crate::runtime::actions::{Action, ChildAction};
use crate::runtime::configuration::Configuration;
use crate::runtime::history::Revision;

fn now() -> Timestamp {
    NOW.parse().expect("time")
}

/// [`odd_value`], and now and then a value only some kinds choke on: numbers past `i32`,
/// fractions, percentages past 100 or past `i64`, numbers written as strings, or one of
/// `own`: the kind's enum values, times (the ends of the calendar too), schedules,
/// expressions and names, so that a field meets its own odd values and its neighbours'.
fn kind_value(own: &'static [&'static str]) -> impl Strategy<Value = Value> {
    prop_oneof![
        6 => odd_value(),
        1 => proptest::sample::select(vec![
            json!(i64::MIN),
            json!(-2_147_483_649_i64),
            json!(2_147_483_648_i64),
            json!(u64::MAX),
            json!(1e300),
            json!(-0.5),
            json!(2.5),
        ]),
        1 => proptest::sample::select(vec![
            "9223372036854775807%",
            "2147483648%",
            "200%",
            "0%",
            "1%",
            "00050%",
            " 5",
            "1e3",
            "-0",
        ])
        .prop_map(|s| json!(s)),
        3 => proptest::sample::select(own).prop_map(|s| json!(s)),
    ]
}

/// A path of `paths` set to a [`kind_value`], now and then two (one bad value at a time
/// decodes more often, so the planner sees more shapes).
fn kind_mutations(
    paths: &'static [&'static str],
    own: &'static [&'static str],
) -> impl Strategy<Value = Vec<(usize, Value)>> {
    let change = move || (0..paths.len(), kind_value(own));
    prop_oneof![
        3 => proptest::collection::vec(change(), 1),
        1 => proptest::collection::vec(change(), 2),
    ]
}

/// [`set_path`] that also walks into list items: a segment that is a number indexes the
/// list there (when it has that item).
fn set_at(root: &mut Value, path: &str, value: Value) {
    let (head, rest) = match path.split_once('/') {
        Some((head, rest)) => (head, Some(rest)),
        None => (path, None),
    };
    let item = head
        .parse::<usize>()
        .ok()
        .filter(|i| root.as_array().is_some_and(|items| *i < items.len()));
    match (item, rest) {
        (Some(i), None) => root[i] = value,
        (Some(i), Some(rest)) => set_at(&mut root[i], rest, value),
        (None, None) => set_path(root, head, value),
        (None, Some(rest)) => {
            if !root.is_object() {
                *root = json!({});
            }
            if let Some(next) = root
                .as_object_mut()
                .map(|o| o.entry(head.to_string()).or_insert_with(|| json!({})))
            {
                set_at(next, rest, value);
            }
        }
    }
}

fn mutated(mut value: Value, paths: &[&str], changes: Vec<(usize, Value)>) -> Value {
    for (path, v) in changes {
        set_at(&mut value, paths[path], v);
    }
    value
}

/// [`pod`] in more states: a Pending one is unbound, the scheduler finding no node for it
/// since an hour; `state >= 200` has Succeeded; every third restarts on failure, with
/// `state` restarts.
fn kind_pod(i: usize, revision: &str, state: u8) -> Pod {
    let mut pod = pod(i, revision, state);
    pod.metadata.creation_timestamp = Some(Time("2026-12-03T11:00:00Z".parse().expect("time")));
    if let (Some(spec), Some(status)) = (pod.spec.as_mut(), pod.status.as_mut()) {
        states_of(spec, status, state);
    }
    pod
}

fn states_of(
    spec: &mut k8s_openapi::api::core::v1::PodSpec,
    status: &mut k8s_openapi::api::core::v1::PodStatus,
    state: u8,
) {
    if status.phase.as_deref() == Some("Pending") {
        spec.node_name = None;
        status.conditions = serde_json::from_value(json!([
            { "type": "PodScheduled", "status": "False", "reason": "Unschedulable" }]))
        .ok();
    }
    if state >= 200 {
        status.phase = Some("Succeeded".into());
    }
    if state.is_multiple_of(3) {
        spec.restart_policy = Some("OnFailure".into());
        status.container_statuses = serde_json::from_value(json!([{ "name": "app", "image": "nginx:1",
            "imageID": "sim://nginx:1", "ready": state.is_multiple_of(2), "restartCount": state }]))
        .ok();
    }
}

fn labelled(mut pod: Pod, labels: &[(&str, &str)]) -> Pod {
    let all = pod.labels_mut();
    for (k, v) in labels {
        all.insert((*k).into(), (*v).into());
    }
    pod
}

fn bound_to(mut pod: Pod, node: &str) -> Pod {
    if let Some(spec) = pod.spec.as_mut().filter(|s| s.node_name.is_some()) {
        spec.node_name = Some(node.into());
    }
    pod
}

/// Node `node-<i>` in zone `z<state % 3>`, tainted NoSchedule or NoExecute, cordoned, or
/// short of room by `state`.
fn node(i: usize, state: u8) -> Node {
    let mut value = json!({ "metadata": { "name": format!("node-{i}"), "labels": { "zone": format!("z{}", state % 3) } },
        "spec": {}, "status": { "allocatable": { "pods": "110", "cpu": "4", "memory": "8Gi" } } });
    match state % 4 {
        2 => value["spec"]["taints"] = json!([{ "key": "dedicated", "effect": "NoSchedule" }]),
        3 => {
            value["spec"]["taints"] =
                json!([{ "key": "node.kubernetes.io/not-ready", "effect": "NoExecute" }])
        }
        _ => {}
    }
    if state % 5 == 4 {
        value["spec"]["unschedulable"] = json!(true);
    }
    if state % 7 == 6 {
        value["status"]["allocatable"] = json!({ "pods": "0", "cpu": "0" });
    }
    serde_json::from_value(value).unwrap_or_default()
}

fn nodes_strategy() -> impl Strategy<Value = Vec<u8>> {
    proptest::collection::vec(any::<u8>(), 0..5)
}

/// 300 cases, or `PROPTEST_CASES` when it is set.
fn config() -> ProptestConfig {
    let default = ProptestConfig::default();
    if std::env::var_os("PROPTEST_CASES").is_some() {
        default
    } else {
        ProptestConfig {
            cases: 300,
            ..default
        }
    }
}

/// A refusal names the object's field; a refused spec plans nothing.
fn refused_with_the_field(refused: Option<&String>, actions: &[Action]) -> Result<(), TestCaseError> {
    if let Some(why) = refused {
        prop_assert!(why.contains("spec.") || why.contains("spec:"), "{why}");
        prop_assert!(actions.is_empty(), "{why}: {actions:?}");
    }
    Ok(())
}

// ---- Advanced DaemonSet ----

const DAEMONSET_PATHS: &[&str] = &[
    "spec/minReadySeconds",
    "spec/burstReplicas",
    "spec/selector/matchLabels/app",
    "spec/template/spec/nodeSelector/zone",
    "spec/template/spec/restartPolicy",
    "spec/template/spec/activeDeadlineSeconds",
    "spec/updateStrategy/type",
    "spec/updateStrategy/rollingUpdate/rollingUpdateType",
    "spec/updateStrategy/rollingUpdate/maxUnavailable",
    "spec/updateStrategy/rollingUpdate/maxSurge",
    "spec/updateStrategy/rollingUpdate/partition",
    "spec/updateStrategy/rollingUpdate/paused",
    "spec/updateStrategy/rollingUpdate/selector/matchLabels/zone",
    "spec/scaleStrategy/partitionedScaling",
    "spec/lifecycle/preDelete/labelsHandler/hold",
    "spec/lifecycle/inPlaceUpdate",
];

const DAEMONSET_VALUES: &[&str] = &[
    "RollingUpdate",
    "OnDelete",
    "Standard",
    "InPlaceIfPossible",
    "Surging",
    "Always",
    "Never",
    "web",
    "z1",
    "true",
];

fn daemonset() -> Value {
    json!({ "apiVersion": "apps.kruise.io/v1alpha1", "kind": "DaemonSet",
        "metadata": { "name": "web", "namespace": "ns", "uid": "set", "generation": 2 },
        "spec": { "selector": { "matchLabels": { "app": "web" } }, "template": template("nginx:2"),
            "updateStrategy": { "type": "RollingUpdate",
                "rollingUpdate": { "rollingUpdateType": "Standard", "maxUnavailable": 1 } } } })
}

// ---- BroadcastJob ----

const BROADCASTJOB_PATHS: &[&str] = &[
    "spec/parallelism",
    "spec/paused",
    "spec/completionPolicy/type",
    "spec/completionPolicy/activeDeadlineSeconds",
    "spec/completionPolicy/ttlSecondsAfterFinished",
    "spec/failurePolicy/type",
    "spec/failurePolicy/restartLimit",
    "spec/template/spec/restartPolicy",
    "spec/template/spec/nodeName",
    "spec/template/spec/nodeSelector/zone",
    "spec/template/spec/containers/0/resources/requests/cpu",
    "spec/template/spec/containers/0/resources/requests/memory",
    "status/phase",
    "status/startTime",
    "status/completionTime",
    "status/conditions/0/status",
];

const BROADCASTJOB_VALUES: &[&str] = &[
    "Always",
    "Never",
    "OnFailure",
    "Pause",
    "Continue",
    "FailFast",
    "running",
    "paused",
    "completed",
    "failed",
    "True",
    "2026-12-03T11:00:00Z",
    "2026-12-03T12:00:00Z",
    "0001-01-01T00:00:00Z",
    "9999-12-30T22:00:00Z",
    "node-1",
    "z1",
    "100m",
    "1Ei",
    "-1",
    "abc",
];

/// A job of parallelism 2 with a deadline and a TTL; its stored status by `stage`: none,
/// running since 11:00, completed a moment ago, failed, paused.
fn broadcastjob(stage: u8) -> Value {
    let status = match stage % 5 {
        0 => json!({}),
        1 => json!({ "startTime": "2026-12-03T11:00:00Z", "phase": "running", "active": 1 }),
        2 => json!({ "startTime": "2026-12-03T11:00:00Z", "completionTime": "2026-12-03T11:59:30Z",
            "phase": "completed", "conditions": [{ "type": "Complete", "status": "True" }] }),
        3 => json!({ "startTime": "2026-12-03T11:00:00Z", "phase": "failed",
            "conditions": [{ "type": "Failed", "status": "False" }] }),
        _ => json!({ "startTime": "2026-12-03T11:00:00Z", "phase": "paused" }),
    };
    json!({ "apiVersion": "apps.kruise.io/v1alpha1", "kind": "BroadcastJob",
        "metadata": { "name": "web", "namespace": "ns", "uid": "job" },
        "spec": { "parallelism": 2,
            "template": { "metadata": { "labels": { "app": "web" } },
                "spec": { "restartPolicy": "Never",
                    "containers": [{ "name": "app", "image": "busybox", "resources": { "requests": { "cpu": "1" } } }] } },
            "completionPolicy": { "type": "Always", "activeDeadlineSeconds": 3600, "ttlSecondsAfterFinished": 60 },
            "failurePolicy": { "type": "FailFast", "restartLimit": 2 } },
        "status": status })
}

// ---- AdvancedCronJob ----

const CRONJOB_PATHS: &[&str] = &[
    "spec/schedule",
    "spec/timeZone",
    "spec/startingDeadlineSeconds",
    "spec/concurrencyPolicy",
    "spec/paused",
    "spec/successfulJobsHistoryLimit",
    "spec/failedJobsHistoryLimit",
    "spec/template/jobTemplate",
    "spec/template/broadcastJobTemplate",
    "spec/template/imageListPullJobTemplate",
    "spec/template/jobTemplate/metadata/labels/team",
    "spec/template/broadcastJobTemplate/metadata/annotations/note",
    "status/lastScheduleTime",
    "metadata/creationTimestamp",
    "metadata/name",
];

const CRONJOB_VALUES: &[&str] = &[
    "Allow",
    "Forbid",
    "Replace",
    "2026-12-03T11:45:00Z",
    "2026-12-03T12:00:00Z",
    "1970-01-01T00:00:00Z",
    "0001-01-01T00:00:00Z",
    "9999-12-30T22:00:00Z",
    "*/0 * * * *",
    "0 * * * *",
    "* * * * * *",
    "0 0 30 2 *",
    "7 7 7 7 7",
    "@every 0s",
    "@every 1s",
    "@every 2562047788015215h",
    "@hourly",
    "TZ=Mars/Base * * * * *",
    "CRON_TZ=Europe/Berlin 0 3 * * *",
    "Europe/Berlin",
    "Local",
    "web-1",
];

/// A job every quarter hour since 09:30, with a Job or a BroadcastJob template.
fn cronjob(broadcast: bool) -> Value {
    let pod = json!({ "metadata": { "labels": { "app": "web" } },
        "spec": { "restartPolicy": "Never", "containers": [{ "name": "app", "image": "busybox" }] } });
    let template = if broadcast {
        json!({ "broadcastJobTemplate": { "spec": { "template": pod } } })
    } else {
        json!({ "jobTemplate": { "spec": { "template": pod } } })
    };
    json!({ "apiVersion": "apps.kruise.io/v1alpha1", "kind": "AdvancedCronJob",
        "metadata": { "name": "web", "namespace": "ns", "uid": "acj", "creationTimestamp": "2026-12-03T09:30:00Z" },
        "spec": { "schedule": "*/15 * * * *", "startingDeadlineSeconds": 600, "concurrencyPolicy": "Allow",
            "successfulJobsHistoryLimit": 2, "failedJobsHistoryLimit": 1, "template": template },
        "status": { "lastScheduleTime": "2026-12-03T11:15:00Z" } })
}

/// The child of the run `i + 1` quarter hours ago: running, complete or failed by `state`,
/// its scheduled-at annotation unreadable now and then.
fn cron_child(
    kind: crate::workloads::cronjob::plan::ChildKind,
    i: usize,
    state: u8,
) -> crate::workloads::cronjob::plan::Child {
    let at = now() - k8s_openapi::jiff::SignedDuration::from_secs(900 * (i as i64 + 1));
    let scheduled = if state % 5 == 4 {
        "soon".to_string()
    } else {
        at.to_string()
    };
    let meta: ObjectMeta = serde_json::from_value(json!({ "name": format!("web-{}", at.as_second()),
        "namespace": "ns", "uid": format!("c{i}"), "annotations": { SCHEDULED_AT_ANNOTATION: scheduled } }))
    .unwrap_or_default();
    let conditions = match state % 3 {
        0 => vec![],
        1 => vec![("Complete", "True")],
        _ => vec![("Failed", "True")],
    };
    crate::workloads::cronjob::plan::Child::new(&kind.resource(), &meta, conditions, Some(at))
}

// ---- SidecarSet ----

const SIDECARSET_PATHS: &[&str] = &[
    "spec/selector/matchLabels/app",
    "spec/namespace",
    "spec/namespaceSelector/matchLabels/team",
    "spec/containers/0/name",
    "spec/containers/0/image",
    "spec/containers/0/podInjectPolicy",
    "spec/containers/0/upgradeStrategy/upgradeType",
    "spec/containers/0/upgradeStrategy/hotUpgradeEmptyImage",
    "spec/containers/0/shareVolumePolicy/type",
    "spec/containers/0/transferEnv/0/sourceContainerName",
    "spec/containers/0/resourcesPolicy/targetContainersMode",
    "spec/containers/0/resourcesPolicy/targetContainersNameRegex",
    "spec/containers/0/resourcesPolicy/resourcesExpr/limits/cpu",
    "spec/containers/0/resourcesPolicy/resourcesExpr/requests/memory",
    "spec/updateStrategy/type",
    "spec/updateStrategy/paused",
    "spec/updateStrategy/partition",
    "spec/updateStrategy/maxUnavailable",
    "spec/updateStrategy/selector/matchLabels/canary",
    "spec/updateStrategy/priorityStrategy/weightPriority/0/weight",
    "spec/updateStrategy/scatterStrategy/0/value",
    "spec/injectionStrategy/paused",
    "spec/injectionStrategy/revision/policy",
    "spec/injectionStrategy/revision/revisionName",
    "spec/patchPodMetadata/0/patchPolicy",
    "spec/patchPodMetadata/0/annotations/team",
    "spec/strategy/rollingUpdate/maxUnavailable",
];

const SIDECARSET_VALUES: &[&str] = &[
    "HotUpgrade",
    "ColdUpgrade",
    "BeforeAppContainer",
    "AfterAppContainer",
    "enabled",
    "disabled",
    "sum",
    "max",
    "cpu * 50%",
    "max(cpu, 1/0)",
    "memory * 99999999999999999999",
    "((((cpu",
    "[",
    "NotUpdate",
    "RollingUpdate",
    "Always",
    "Partial",
    "Retain",
    "Overwrite",
    "MergePatchJson",
    "log",
    "app",
    "shop",
    "yes",
    "busybox:latest",
];

fn sidecarset() -> Value {
    json!({ "apiVersion": "apps.kruise.io/v1alpha1", "kind": "SidecarSet",
        "metadata": { "name": "log", "resourceVersion": "9" },
        "spec": { "selector": { "matchLabels": { "app": "web" } },
            "containers": [{ "name": "log", "image": "fluentbit:2", "podInjectPolicy": "AfterAppContainer",
                "transferEnv": [{ "sourceContainerName": "app", "envName": "REGION" }],
                "resourcesPolicy": { "targetContainersMode": "sum",
                    "resourcesExpr": { "limits": { "cpu": "cpu * 50%" }, "requests": { "memory": "memory" } } } }],
            "updateStrategy": { "type": "RollingUpdate", "maxUnavailable": 1,
                "priorityStrategy": { "weightPriority": [{ "weight": 50, "matchSelector": { "matchLabels": { "canary": "yes" } } }] },
                "scatterStrategy": [{ "key": "canary", "value": "*" }] },
            "patchPodMetadata": [{ "annotations": { "team": "b" }, "patchPolicy": "Retain" }] } })
}

/// Pod `web-<i>` as [`kind_pod`] with the sidecar `log` injected: at the set's hash
/// (`updated`) or an old one, whose sidecars differ in more than their images now and
/// then, and now and then not injected at all.
fn sidecar_pod(i: usize, updated: bool, state: u8, hash: &str, bare: &str) -> Pod {
    let mut pod = labelled(
        kind_pod(i, "web-new", state),
        &[
            ("app", "web"),
            ("canary", if i.is_multiple_of(2) { "yes" } else { "no" }),
        ],
    );
    pod.metadata.namespace = Some("shop".into());
    pod.metadata.owner_references = None;
    let entry = |h: &str| {
        json!({ "log": { "updateTimestamp": "2026-12-03T11:00:00Z", "hash": h,
            "sidecarSetName": "log", "sidecarList": ["log"] } })
        .to_string()
    };
    let image = if updated { "fluentbit:2" } else { "fluentbit:1" };
    let bare = if state % 4 == 3 { "other" } else { bare };
    let annotations = pod.annotations_mut();
    annotations.insert(
        "kruise.io/sidecarset-hash".into(),
        entry(if updated { hash } else { "old" }),
    );
    annotations.insert("kruise.io/sidecarset-hash-without-image".into(), entry(bare));
    if state % 6 != 5 {
        annotations.insert("kruise.io/sidecarset-injected-list".into(), "log".into());
    }
    let ready = pod
        .status
        .as_ref()
        .and_then(|s| s.conditions.as_ref())
        .is_some_and(|c| c.iter().any(|c| c.type_ == "Ready" && c.status == "True"));
    if let Some(spec) = pod.spec.as_mut() {
        spec.containers.insert(
            0,
            serde_json::from_value(json!({ "name": "log", "image": image })).unwrap_or_default(),
        );
    }
    if let Some(status) = pod.status.as_mut() {
        status.container_statuses = serde_json::from_value(json!([
            { "name": "log", "image": image, "imageID": format!("id-{image}"), "ready": ready, "restartCount": 0 },
            { "name": "app", "image": "nginx:1", "imageID": "id-nginx", "ready": true, "restartCount": 0 }]))
        .ok();
    }
    pod
}

/// A new pod of the namespace `shop`, as the pod webhook receives it.
fn uninjected_pod() -> Value {
    json!({ "metadata": { "name": "web-new", "namespace": "shop", "labels": { "app": "web", "canary": "yes" } },
        "spec": { "containers": [{ "name": "app", "image": "nginx",
            "env": [{ "name": "REGION", "value": "eu" }],
            "resources": { "limits": { "cpu": "2" }, "requests": { "memory": "1Gi" } } }] } })
}

// ---- WorkloadSpread ----

const WORKLOADSPREAD_PATHS: &[&str] = &[
    "spec/subsets/0/maxReplicas",
    "spec/subsets/1/maxReplicas",
    "spec/subsets/2/maxReplicas",
    "spec/subsets/1/name",
    "spec/subsets/0/requiredNodeSelectorTerm/matchExpressions/0/operator",
    "spec/subsets/0/requiredNodeSelectorTerm/matchExpressions/0/values",
    "spec/subsets/1/preferredNodeSelectorTerms/0/weight",
    "spec/subsets/2/tolerations/0/operator",
    "spec/subsets/1/patch",
    "spec/scheduleStrategy/type",
    "spec/scheduleStrategy/adaptive/rescheduleCriticalSeconds",
    "spec/scheduleStrategy/adaptive/disableSimulationSchedule",
    "spec/targetFilter/selector/matchLabels/app",
    "spec/targetFilter/replicasPathList",
    "spec/targetRef/kind",
    "spec/targetRef/apiVersion",
    "status/subsetStatuses/0/missingReplicas",
    "status/subsetStatuses/0/replicas",
    "status/subsetStatuses/0/creatingPods/web-9",
    "status/subsetStatuses/1/deletingPods/web-1",
    "status/subsetStatuses/0/conditions/0/lastTransitionTime",
    "status/versionedSubsetStatuses/v1/0/missingReplicas",
];

const WORKLOADSPREAD_VALUES: &[&str] = &[
    "Adaptive",
    "Fixed",
    "In",
    "NotIn",
    "Exists",
    "Gt",
    "a",
    "c",
    "gone",
    "StatefulSet",
    "CloneSet",
    "Job",
    "Pod",
    "ReplicaSet",
    "apps/v1",
    "apps.kruise.io/v1alpha1",
    "v1",
    "a/b/c",
    "web",
    "2026-12-03T11:59:59Z",
    "0001-01-01T00:00:00Z",
    "9999-12-30T22:00:00Z",
    "50%",
];

const ZONE: &str = "topology.kubernetes.io/zone";

/// Spread of the Deployment `web` over zones a and b (2 each) and c (the rest), adaptive,
/// with a stored status that has a pod being created in a and one being deleted in b.
fn workloadspread() -> Value {
    let zone = |z: &str| json!({ "matchExpressions": [{ "key": ZONE, "operator": "In", "values": [z] }] });
    let subsets = json!({ "name": "a", "replicas": 1, "missingReplicas": 1,
        "creatingPods": { "web-9": "2026-12-03T11:59:50Z" },
        "conditions": [{ "type": "Schedulable", "status": "False", "lastTransitionTime": "2026-12-03T11:58:00Z" }] });
    json!({ "apiVersion": "apps.kruise.io/v1alpha1", "kind": "WorkloadSpread",
        "metadata": { "name": "spread", "namespace": "ns", "generation": 3 },
        "spec": { "targetRef": { "apiVersion": "apps/v1", "kind": "Deployment", "name": "web" },
            "subsets": [
                { "name": "a", "maxReplicas": 2, "requiredNodeSelectorTerm": zone("a") },
                { "name": "b", "maxReplicas": 2, "requiredNodeSelectorTerm": zone("b"),
                    "preferredNodeSelectorTerms": [{ "weight": 10, "preference": zone("b") }] },
                { "name": "c", "requiredNodeSelectorTerm": zone("c"),
                    "tolerations": [{ "key": "dedicated", "operator": "Exists" }] }],
            "scheduleStrategy": { "type": "Adaptive", "adaptive": { "rescheduleCriticalSeconds": 30 } } },
        "status": { "subsetStatuses": [subsets,
            { "name": "b", "replicas": 0, "missingReplicas": 2, "deletingPods": { "web-1": "2026-12-03T11:59:55Z" } }],
            "versionedSubsetStatuses": { "v1": [{ "name": "a", "replicas": 1, "missingReplicas": 1 }] } } })
}

/// Pod `web-<i>` of the Deployment's ReplicaSet `v1` or `v2`, placed by the spread in a
/// subset (one that is gone too), placed by another spread, or not placed, on a node of a
/// zone (one no subset selects too) by `state`.
fn spread_pod(i: usize, new: bool, state: u8) -> Pod {
    let version = if new { "v2" } else { "v1" };
    let mut pod = labelled(
        kind_pod(i, version, state),
        &[("app", "web"), ("pod-template-hash", version)],
    );
    pod.metadata.owner_references = serde_json::from_value(json!([{ "apiVersion": "apps/v1",
        "kind": "ReplicaSet", "name": format!("web-{version}"), "uid": "rs", "controller": true }]))
    .ok();
    let zone = ["a", "b", "c", "z"][usize::from(state / 5) % 4];
    let pod = bound_to(pod, &format!("node-{zone}"));
    let marker = match (state / 20) % 4 {
        0 => None,
        1 => Some(json!({ "name": "spread", "subset": zone })),
        2 => Some(json!({ "name": "spread", "subset": "gone" })),
        _ => Some(json!({ "name": "other", "subset": "a" })),
    };
    let mut pod = pod;
    if let Some(marker) = marker {
        pod.annotations_mut()
            .insert(MATCHED_WORKLOADSPREAD_ANNOTATION.into(), marker.to_string());
    }
    pod
}

fn zone_nodes() -> Vec<Node> {
    ["a", "b", "c", "z"]
        .iter()
        .filter_map(|z| {
            serde_json::from_value(
                json!({ "metadata": { "name": format!("node-{z}"), "labels": { ZONE: z } } }),
            )
            .ok()
        })
        .collect()
}

// ---- UnitedDeployment ----

const UNITEDDEPLOYMENT_PATHS: &[&str] = &[
    "spec/replicas",
    "spec/selector/matchLabels/app",
    "spec/topology/subsets/0/replicas",
    "spec/topology/subsets/1/replicas",
    "spec/topology/subsets/2/replicas",
    "spec/topology/subsets/0/minReplicas",
    "spec/topology/subsets/1/maxReplicas",
    "spec/topology/subsets/2/maxReplicas",
    "spec/topology/subsets/1/name",
    "spec/topology/subsets/0/nodeSelectorTerm/matchExpressions/0/operator",
    "spec/topology/subsets/2/tolerations/0/effect",
    "spec/topology/subsets/1/patch",
    "spec/topology/scheduleStrategy/type",
    "spec/topology/scheduleStrategy/adaptive/rescheduleCriticalSeconds",
    "spec/topology/scheduleStrategy/adaptive/unschedulableDuration",
    "spec/topology/scheduleStrategy/adaptive/reserveUnschedulablePods",
    "spec/updateStrategy/type",
    "spec/updateStrategy/manualUpdate/partitions/a",
    "spec/updateStrategy/manualUpdate/partitions/c",
    "spec/template/deploymentTemplate",
    "spec/template/cloneSetTemplate/spec/updateStrategy/maxUnavailable",
    "status/subsetStatuses/0/conditions/0/lastTransitionTime",
    "status/conditions/0/status",
];

const UNITEDDEPLOYMENT_VALUES: &[&str] = &[
    "Adaptive",
    "Fixed",
    "Manual",
    "In",
    "Exists",
    "NoSchedule",
    "NoExecute",
    "a",
    "c",
    "gone",
    "web",
    "True",
    "False",
    "2026-12-03T11:59:59Z",
    "0001-01-01T00:00:00Z",
    "9999-12-30T22:00:00Z",
    "50%",
    "34%",
];

const UD_TEMPLATES: [&str; 4] = [
    "cloneSetTemplate",
    "advancedStatefulSetTemplate",
    "statefulSetTemplate",
    "deploymentTemplate",
];

/// A UnitedDeployment of 6 over subsets a (1, or 1 to 3 when adaptive), b and c (50%, or
/// at most 50%) of the template kind `kind` (an index of [`UD_TEMPLATES`]), partition 1
/// in a; subset a marked unschedulable a minute ago.
fn uniteddeployment(kind: u8, adaptive: bool) -> Value {
    let name = UD_TEMPLATES[usize::from(kind) % UD_TEMPLATES.len()];
    let zone = |z: &str| json!({ "matchExpressions": [{ "key": ZONE, "operator": "In", "values": [z] }] });
    // Adaptive splits by minReplicas / maxReplicas, the others by fixed replicas.
    let (strategy, a, c) = if adaptive {
        (
            json!({ "type": "Adaptive", "adaptive": { "rescheduleCriticalSeconds": 30, "unschedulableDuration": 300 } }),
            json!({ "minReplicas": 1, "maxReplicas": 3 }),
            json!({ "maxReplicas": "50%" }),
        )
    } else {
        (
            json!({ "type": "Fixed" }),
            json!({ "replicas": 1 }),
            json!({ "replicas": "50%" }),
        )
    };
    let subset = |name: &str, bounds: &Value| {
        let mut subset = json!({ "name": name, "nodeSelectorTerm": zone(name) });
        if let (Some(subset), Some(bounds)) = (subset.as_object_mut(), bounds.as_object()) {
            subset.extend(bounds.clone());
        }
        subset
    };
    let mut c = subset("c", &c);
    c["tolerations"] = json!([{ "key": "dedicated", "operator": "Exists", "effect": "NoSchedule" }]);
    json!({ "apiVersion": "apps.kruise.io/v1alpha1", "kind": "UnitedDeployment",
        "metadata": { "name": "web", "namespace": "ns", "uid": "ud", "generation": 2 },
        "spec": { "replicas": 6, "selector": { "matchLabels": { "app": "web" } },
            "template": { (name): { "metadata": { "labels": { "app": "web" } },
                "spec": { "selector": { "matchLabels": { "app": "web" } }, "template": template("nginx:2") } } },
            "topology": { "subsets": [subset("a", &a), subset("b", &json!({})), c],
                "scheduleStrategy": strategy },
            "updateStrategy": { "type": "Manual", "manualUpdate": { "partitions": { "a": 1 } } } },
        "status": { "replicas": 6, "updatedReplicas": 0, "currentRevision": "web-rev1",
            "subsetStatuses": [{ "name": "a", "conditions": [
                { "type": "Schedulable", "status": "False", "lastTransitionTime": "2026-12-03T11:59:00Z" }] }],
            "conditions": [{ "type": "UnitedDeploymentUpdated", "status": "True",
                "lastTransitionTime": "2026-12-03T11:00:00Z" }] } })
}

/// The subset workloads of `ud` as rendered at revision `web-rev1` with 2 replicas each,
/// stored (name, uid, status).
fn ud_children(ud: &UnitedDeployment) -> Vec<(crate::workloads::uniteddeployment::render::ChildKind, Value)> {
    use crate::workloads::uniteddeployment::render::{render, template_kind};
    let Some(kind) = template_kind(ud) else {
        return Vec::new();
    };
    ud.spec
        .subsets()
        .iter()
        .filter_map(|subset| {
            let mut object = render(ud, subset, "web-rev1", 2, 0, None).ok()?;
            object["metadata"]["name"] = json!(format!("web-{}-x", subset.name));
            object["metadata"]["namespace"] = json!("ns");
            object["metadata"]["uid"] = json!(format!("uid-{}", subset.name));
            object["metadata"]["generation"] = json!(1);
            object["metadata"]["creationTimestamp"] = json!("2026-01-01T00:00:00Z");
            object["status"] =
                json!({ "observedGeneration": 1, "replicas": 2, "readyReplicas": 1, "updatedReplicas": 2 });
            Some((kind, object))
        })
        .collect()
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn no_advanced_daemonset_shape_makes_the_planner_panic(
        changes in kind_mutations(DAEMONSET_PATHS, DAEMONSET_VALUES),
        states in pods_strategy(),
        node_states in nodes_strategy(),
        backoff in any::<bool>(),
    ) {
        let value = mutated(daemonset(), DAEMONSET_PATHS, changes);
        let Ok(set) = serde_json::from_value::<DaemonSet>(value) else { return Ok(()) };
        let nodes: Vec<Node> = node_states.iter().enumerate().map(|(i, s)| node(i, *s)).collect();
        // Pods on the nodes (and one past them: a node that is gone); a few have no
        // controller (orphans the set may adopt).
        let (pods, orphans): (Vec<Pod>, Vec<Pod>) = states.iter().enumerate()
            .map(|(i, (new, s))| {
                let pod = kind_pod(i, if *new { "web-new" } else { "web-old" }, *s);
                let mut pod = bound_to(pod, &format!("node-{}", i % (nodes.len() + 1)));
                if s % 7 == 6 {
                    pod.metadata.owner_references = None;
                }
                pod
            })
            .partition(|p| p.metadata.owner_references.is_some());
        let t = templates();
        let failed_backoff = if backoff {
            BTreeMap::from([("node-0".to_string(), std::time::Duration::from_secs(10))])
        } else {
            BTreeMap::new()
        };
        let snapshot = crate::workloads::daemonset::plan::Snapshot {
            set: &set,
            pods: pods.iter().collect(),
            orphans: orphans.iter().collect(),
            nodes: nodes.iter().collect(),
            update: Revision { name: "web-new", template: &t["web-new"] },
            templates: &t,
            collision_count: 0,
            now: now(),
            failed_backoff: &failed_backoff,
        };
        let plan = crate::workloads::daemonset::plan::plan(&snapshot);
        refused_with_the_field(plan.refused.as_ref(), &plan.actions)?;
    }

    #[test]
    fn no_broadcastjob_shape_makes_the_planner_panic(
        stage in any::<u8>(),
        changes in kind_mutations(BROADCASTJOB_PATHS, BROADCASTJOB_VALUES),
        states in pods_strategy(),
        node_states in nodes_strategy(),
    ) {
        let value = mutated(broadcastjob(stage), BROADCASTJOB_PATHS, changes);
        let Ok(job) = serde_json::from_value::<BroadcastJob>(value) else { return Ok(()) };
        let nodes: Vec<Node> = node_states.iter().enumerate().map(|(i, s)| node(i, *s)).collect();
        let pods: Vec<Pod> = states.iter().enumerate()
            .map(|(i, (_, s))| bound_to(kind_pod(i, "web-new", *s), &format!("node-{}", i % (nodes.len() + 1))))
            .collect();
        let plan = crate::workloads::broadcastjob::plan::plan(&crate::workloads::broadcastjob::plan::Snapshot {
            job: &job,
            pods: pods.iter().collect(),
            nodes: nodes.iter().collect(),
            now: now(),
        });
        refused_with_the_field(plan.refused.as_ref(), &plan.actions)?;
    }

    #[test]
    fn no_advancedcronjob_shape_makes_the_planner_panic(
        broadcast in any::<bool>(),
        changes in kind_mutations(CRONJOB_PATHS, CRONJOB_VALUES),
        children in proptest::collection::vec(any::<u8>(), 0..6),
    ) {
        use crate::workloads::cronjob::plan::{ChildKind, Snapshot, plan};
        let value = mutated(cronjob(broadcast), CRONJOB_PATHS, changes);
        let Ok(job) = serde_json::from_value::<AdvancedCronJob>(value) else { return Ok(()) };
        let kind = ChildKind::of(&job);
        let children = children.iter().enumerate().map(|(i, s)| cron_child(kind, i, *s)).collect();
        let plan = plan(&Snapshot { job: &job, children, now: now() });
        refused_with_the_field(plan.refused.as_ref(), &plan.actions)?;
        let created = plan.actions.iter()
            .filter(|a| matches!(a, Action::Child(ChildAction::Create { .. })))
            .count();
        prop_assert!(created <= 1, "{:?}", plan.actions);
    }

    #[test]
    fn no_sidecarset_shape_makes_its_status_upgrade_or_injection_panic(
        changes in kind_mutations(SIDECARSET_PATHS, SIDECARSET_VALUES),
        states in pods_strategy(),
        roll in 0_u32..100,
    ) {
        use crate::workloads::sidecarset::{hash, matching, plan_update, status};
        let value = mutated(sidecarset(), SIDECARSET_PATHS, changes);
        let Ok(stored) = serde_json::from_value::<SidecarSet>(value) else { return Ok(()) };
        // As the controller: the set with its hash annotations brought up to date.
        let (set, _) = hash::with_fresh_annotations(&stored);
        let (current, bare) = hash::hashes(&set);
        let namespace = BTreeMap::from([("team".to_string(), "b".to_string())]);
        let pods: Vec<Pod> = states.iter().enumerate()
            .map(|(i, (new, s))| sidecar_pod(i, *new, *s, &current, &bare))
            .collect();
        let selected: Vec<&Pod> = pods.iter()
            .filter(|p| matching::selects_pod(&set, *p, Some(&namespace)))
            .collect();
        let (matched, missing) = status::split(&set, &selected);
        let upgrade = plan_update::plan_update(&set, &matched, now());
        let _ = status::plan(&status::Snapshot { set: &set, matched, missing });
        // An upgrade writes only pods the set injected.
        for action in &upgrade.actions {
            if let Action::Elsewhere { action, .. } = action
                && let Action::PatchPod { name, .. } | Action::PatchPodStatus { name, .. } = action.as_ref()
            {
                prop_assert!(selected.iter().any(|p| &p.name_any() == name), "{name}");
            }
        }
        // The pod webhook, with the set as stored.
        let sets = [&stored];
        let _ = crate::workloads::sidecarset::webhook::injection_patch(&uninjected_pod(), &crate::workloads::sidecarset::webhook::Inputs {
            sets: &sets,
            namespace_labels: Some(&namespace),
            revisions: &[],
            roll,
            now: now(),
        });
    }

    #[test]
    fn no_workloadspread_shape_makes_the_planner_panic(
        changes in kind_mutations(WORKLOADSPREAD_PATHS, WORKLOADSPREAD_VALUES),
        states in pods_strategy(),
        target_found in any::<bool>(),
        target_replicas in proptest::option::of(kind_value(WORKLOADSPREAD_VALUES)),
    ) {
        use crate::workloads::workloadspread::plan::{Snapshot, Target, plan};
        use crate::workloads::workloadspread::{target, validation};
        let value = mutated(workloadspread(), WORKLOADSPREAD_PATHS, changes);
        let Ok(ws) = serde_json::from_value::<WorkloadSpread>(value) else { return Ok(()) };
        // As the controller: a spec the admission rules refuse is marked and not planned.
        let configuration = Configuration::default();
        let stored = serde_json::to_value(&ws).unwrap_or_default();
        if let Some(why) = validation::refusal_among(&stored, None, &[], None, &configuration) {
            prop_assert!(why.contains("spec"), "{why}");
            return Ok(());
        }
        let mut deployment = json!({ "apiVersion": "apps/v1", "kind": "Deployment",
            "metadata": { "name": "web", "namespace": "ns" }, "spec": { "replicas": 6 } });
        if let Some(replicas) = target_replicas {
            deployment["spec"]["replicas"] = replicas;
        }
        let target = if target_found {
            Target::Found { total: target::total(&ws, &deployment, &configuration), latest_version: Ok("v2".into()) }
        } else {
            Target::Missing
        };
        let all: Vec<Pod> = states.iter().enumerate().map(|(i, (new, s))| spread_pod(i, *new, *s)).collect();
        let mut pods: Vec<&Pod> = all.iter().filter(|p| target::selects(&ws, p, false)).collect();
        pods.sort_by_key(|p| p.name_any());
        let nodes = zone_nodes();
        let lookup = |name: &str| nodes.iter().find(|n| n.metadata.name.as_deref() == Some(name));
        let planned = plan(&Snapshot { ws: &ws, target, pods, node: &lookup, now: now() });
        // At most one write per pod.
        let mut written: Vec<&String> = planned.actions.iter().filter_map(|a| match a {
            Action::PatchPod { name, .. } | Action::DeletePod { name, .. } => Some(name),
            _ => None,
        }).collect();
        let count = written.len();
        written.sort();
        written.dedup();
        prop_assert_eq!(written.len(), count, "{:?}", planned.actions);
    }

    #[test]
    fn no_uniteddeployment_shape_makes_the_planner_panic(
        kind in any::<u8>(),
        adaptive in any::<bool>(),
        changes in kind_mutations(UNITEDDEPLOYMENT_PATHS, UNITEDDEPLOYMENT_VALUES),
        states in pods_strategy(),
    ) {
        use crate::workloads::uniteddeployment::plan::{Child, Snapshot, plan};
        use crate::workloads::uniteddeployment::render::REVISION_LABEL;
        let base = uniteddeployment(kind, adaptive);
        // The subset workloads were rendered from the spec before the change.
        let before: UnitedDeployment = serde_json::from_value(base.clone()).expect("a UnitedDeployment");
        let rendered = ud_children(&before);
        let value = mutated(base, UNITEDDEPLOYMENT_PATHS, changes);
        let Ok(ud) = serde_json::from_value::<UnitedDeployment>(value) else { return Ok(()) };
        let pods: Vec<Pod> = states.iter().enumerate()
            .map(|(i, (new, s))| labelled(kind_pod(i, "x", *s), &[(REVISION_LABEL, if *new { "web-rev2" } else { "web-rev1" })]))
            .collect();
        let children = rendered.iter().enumerate()
            .map(|(c, (kind, object))| Child {
                kind: *kind,
                object: object.clone(),
                pods: pods.iter().enumerate().filter(|(i, _)| i % 3 == c).map(|(_, p)| p).collect(),
            })
            .collect();
        let planned = plan(&Snapshot {
            ud: &ud,
            update_revision: "web-rev2",
            current_revision: "web-rev1",
            collision_count: 0,
            children,
            now: now(),
        });
        refused_with_the_field(planned.refused.as_ref(), &planned.actions)?;
    }
}

/// How many of 200 shapes mutated at `paths` of `base` still decode as `T`.
fn decoded<T: serde::de::DeserializeOwned>(
    base: &Value,
    paths: &'static [&'static str],
    own: &'static [&'static str],
) -> usize {
    use proptest::strategy::ValueTree;
    let mut runner = proptest::test_runner::TestRunner::deterministic();
    (0..200)
        .filter(|_| {
            let changes = kind_mutations(paths, own)
                .new_tree(&mut runner)
                .expect("tree")
                .current();
            serde_json::from_value::<T>(mutated(base.clone(), paths, changes)).is_ok()
        })
        .count()
}

#[test]
fn most_mutated_shapes_of_the_six_kinds_still_decode_so_their_planners_are_exercised() {
    let counts = [
        (
            "DaemonSet",
            decoded::<DaemonSet>(&daemonset(), DAEMONSET_PATHS, DAEMONSET_VALUES),
        ),
        (
            "BroadcastJob",
            decoded::<BroadcastJob>(&broadcastjob(1), BROADCASTJOB_PATHS, BROADCASTJOB_VALUES),
        ),
        (
            "AdvancedCronJob",
            decoded::<AdvancedCronJob>(&cronjob(false), CRONJOB_PATHS, CRONJOB_VALUES),
        ),
        (
            "SidecarSet",
            decoded::<SidecarSet>(&sidecarset(), SIDECARSET_PATHS, SIDECARSET_VALUES),
        ),
        (
            "WorkloadSpread",
            decoded::<WorkloadSpread>(&workloadspread(), WORKLOADSPREAD_PATHS, WORKLOADSPREAD_VALUES),
        ),
        (
            "UnitedDeployment",
            decoded::<UnitedDeployment>(
                &uniteddeployment(0, true),
                UNITEDDEPLOYMENT_PATHS,
                UNITEDDEPLOYMENT_VALUES,
            ),
        ),
    ];
    assert!(
        counts.iter().all(|(_, count)| *count >= 50),
        "shapes of 200 that decoded: {counts:?}"
    );
}
