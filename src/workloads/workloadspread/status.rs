//! One subset's status (`status.subsetStatuses[]`: replicas, missing, creating and
//! deleting pods), from the pods the controller found in it and the status it wrote
//! before. Pure.
//!
//! Invariants:
//! - `replicas` counts the subset's active pods; `missingReplicas` is the subset's capacity
//!   less the pods that hold room (active pods not being deleted, pods being created),
//!   within `[0, capacity]` (-1: unlimited, and stays -1). It does not depend on the order
//!   the pods come in (a round that adopts a pod lists it last, the next by name).
//! - A pod the webhook recorded as being created is forgotten once it is seen (by its
//!   annotation's generated uid, else its name); one not seen within 30 s is dropped with a
//!   `CreatePodFailed` warning, one younger still holds its room.
//! - A pod recorded as being deleted and still there holds no room for 15 s (a replacement
//!   may take it); after that it is dropped with a `DeletePodFailed` warning.
//! - The round comes back when the first recorded entry expires.
use std::collections::BTreeMap;
use std::time::Duration;

use k8s_openapi::api::core::v1::Pod;
use k8s_openapi::apimachinery::pkg::apis::meta::v1::Time;
use k8s_openapi::jiff::Timestamp;
use kube::ResourceExt;

use crate::api::workloadspread::{MATCHED_WORKLOADSPREAD_ANNOTATION, WorkloadSpreadSubsetStatus};
use crate::workloads::common::availability::is_active as active;

/// How long a pod the webhook admitted may take to be seen.
pub const CREATE_TIMEOUT: Duration = Duration::from_secs(30);
/// How long a pod the webhook saw leave may take to be gone.
pub const DELETE_TIMEOUT: Duration = Duration::from_secs(15);

/// A warning about one recorded pod.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Warning {
    pub reason: &'static str,
    pub pod: String,
}

/// A subset's new status, the warnings, and when to look again.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct SubsetOutcome {
    pub status: WorkloadSpreadSubsetStatus,
    pub warnings: Vec<Warning>,
    pub recheck: Option<Duration>,
}

/// The uid the webhook generated for a pod admitted without a name, if any.
fn generated_uid(pod: &Pod) -> Option<String> {
    let value: serde_json::Value =
        serde_json::from_str(pod.annotations().get(MATCHED_WORKLOADSPREAD_ANNOTATION)?).ok()?;
    value["uid"]
        .as_str()
        .filter(|u| !u.is_empty())
        .map(str::to_string)
}

/// How long until `at + timeout`, or None when it has passed.
fn left(at: &Time, timeout: Duration, now: Timestamp) -> Option<Duration> {
    let expiry = at.0.checked_add(timeout).ok()?;
    let remaining = expiry.duration_since(now);
    (remaining.is_positive()).then(|| remaining.unsigned_abs())
}

/// The status of the subset `name` of capacity `capacity` holding `pods`.
pub fn subset_status(
    name: &str,
    capacity: i32,
    previous: Option<&WorkloadSpreadSubsetStatus>,
    pods: &[&Pod],
    now: Timestamp,
) -> SubsetOutcome {
    let mut out = SubsetOutcome {
        status: WorkloadSpreadSubsetStatus {
            name: name.into(),
            missing_replicas: capacity,
            ..WorkloadSpreadSubsetStatus::default()
        },
        ..SubsetOutcome::default()
    };
    let mut creating: BTreeMap<String, Time> =
        previous.and_then(|p| p.creating_pods.clone()).unwrap_or_default();
    let deleting_before = previous.and_then(|p| p.deleting_pods.as_ref());
    let mut deleting: BTreeMap<String, Time> = BTreeMap::new();
    let mut recheck = |d: Duration| {
        out.recheck = Some(out.recheck.map_or(d, |r| r.min(d)));
    };
    let status = &mut out.status;
    for pod in pods {
        let pod_name = pod.name_any();
        creating.remove(&generated_uid(pod).unwrap_or_else(|| pod_name.clone()));
        if !active(pod) {
            continue;
        }
        status.replicas += 1;
        let Some(at) = deleting_before.and_then(|d| d.get(&pod_name)) else {
            continue;
        };
        match left(at, DELETE_TIMEOUT, now) {
            None => out.warnings.push(Warning {
                reason: "DeletePodFailed",
                pod: pod_name,
            }),
            Some(remaining) => {
                deleting.insert(pod_name, at.clone());
                recheck(remaining);
            }
        }
    }
    let mut still_creating = BTreeMap::new();
    for (pod, at) in creating {
        match left(&at, CREATE_TIMEOUT, now) {
            None => out.warnings.push(Warning {
                reason: "CreatePodFailed",
                pod,
            }),
            Some(remaining) => {
                still_creating.insert(pod, at);
                recheck(remaining);
            }
        }
    }
    if capacity >= 0 {
        let holding = i64::from(status.replicas) - deleting.len() as i64 + still_creating.len() as i64;
        status.missing_replicas = (i64::from(capacity) - holding).clamp(0, i64::from(capacity)) as i32;
    }
    status.creating_pods = (!still_creating.is_empty()).then_some(still_creating);
    status.deleting_pods = (!deleting.is_empty()).then_some(deleting);
    out
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn now() -> Timestamp {
        "2026-12-04T12:00:30Z".parse().expect("time")
    }

    fn time(at: &str) -> Time {
        Time(at.parse().expect("time"))
    }

    fn pod(name: &str, phase: &str, uid: Option<&str>) -> Pod {
        let marker = match uid {
            Some(u) => json!({ "name": "spread", "subset": "a", "uid": u }),
            None => json!({ "name": "spread", "subset": "a" }),
        };
        serde_json::from_value(json!({ "metadata": { "name": name,
                "annotations": { MATCHED_WORKLOADSPREAD_ANNOTATION: marker.to_string() } },
            "spec": { "containers": [] }, "status": { "phase": phase } }))
        .expect("pod")
    }

    #[test]
    fn seen_pods_take_room_recorded_ones_hold_it_until_they_expire() {
        let previous = WorkloadSpreadSubsetStatus {
            name: "a".into(),
            replicas: 1,
            missing_replicas: 0,
            creating_pods: Some(
                [
                    ("uid-seen".to_string(), time("2026-12-04T12:00:20Z")),
                    ("web-young".to_string(), time("2026-12-04T12:00:20Z")),
                    ("web-lost".to_string(), time("2026-12-04T11:59:00Z")),
                ]
                .into(),
            ),
            deleting_pods: Some(
                [
                    ("web-going".to_string(), time("2026-12-04T12:00:25Z")),
                    ("web-stuck".to_string(), time("2026-12-04T11:59:00Z")),
                ]
                .into(),
            ),
            conditions: None,
        };
        let pods = [
            pod("web-1", "Running", Some("uid-seen")),
            pod("web-going", "Running", None),
            pod("web-stuck", "Running", None),
            pod("web-done", "Succeeded", None),
        ];
        let refs: Vec<&Pod> = pods.iter().collect();
        let out = subset_status("a", 5, Some(&previous), &refs, now());
        let s = &out.status;
        assert_eq!(s.replicas, 3, "active pods");
        // 5 - 3 active + 1 (web-going leaving) - 1 (web-young being created) = 2.
        assert_eq!(s.missing_replicas, 2);
        assert_eq!(
            s.creating_pods
                .as_ref()
                .map(|m| m.keys().cloned().collect::<Vec<_>>()),
            Some(vec!["web-young".into()])
        );
        assert_eq!(
            s.deleting_pods
                .as_ref()
                .map(|m| m.keys().cloned().collect::<Vec<_>>()),
            Some(vec!["web-going".into()])
        );
        let reasons: Vec<(&str, &str)> = out.warnings.iter().map(|w| (w.reason, w.pod.as_str())).collect();
        assert_eq!(
            reasons,
            [("DeletePodFailed", "web-stuck"), ("CreatePodFailed", "web-lost")]
        );
        assert_eq!(
            out.recheck,
            Some(Duration::from_secs(10)),
            "web-going expires first"
        );
        let unlimited = subset_status("b", -1, None, &refs, now());
        assert_eq!(
            (unlimited.status.replicas, unlimited.status.missing_replicas),
            (3, -1)
        );
    }
}
