//! A pod leaving its subset (OpenKruise's pod webhook on delete): on a pod DELETE or eviction, the subset the
//! pod's annotation names records it in `deletingPods` and gets its room back
//! (`missingReplicas` + 1), so a replacement created meanwhile may take it. Pure: the caller
//! writes the status under its resourceVersion and retries from a fresh read.
//!
//! Invariants: only a pod placed by this WorkloadSpread (its annotation names it) counts;
//! a pod already recorded (creating or deleting) and an unlimited subset change nothing; a
//! subset no longer in the version's list changes nothing.
use k8s_openapi::api::core::v1::Pod;
use k8s_openapi::apimachinery::pkg::apis::meta::v1::Time;
use k8s_openapi::jiff::Timestamp;
use kube::ResourceExt;

use super::place::{initial_statuses, pod_version};
use crate::api::workloadspread::{MATCHED_WORKLOADSPREAD_ANNOTATION, WorkloadSpread, WorkloadSpreadStatus};

/// The WorkloadSpread and subset a pod's annotation names.
pub fn matched(pod: &Pod) -> Option<(String, String)> {
    let value: serde_json::Value =
        serde_json::from_str(pod.annotations().get(MATCHED_WORKLOADSPREAD_ANNOTATION)?).ok()?;
    Some((
        value["name"].as_str()?.to_string(),
        value["subset"].as_str()?.to_string(),
    ))
}

/// The status that records `pod` leaving, if anything changes; `total` as for placing.
pub fn record_deletion(
    ws: &WorkloadSpread,
    pod: &Pod,
    total: i64,
    now: Timestamp,
) -> Option<WorkloadSpreadStatus> {
    let (name, subset) = matched(pod)?;
    if name != ws.name_any() {
        return None;
    }
    let pod_name = pod.metadata.name.clone()?;
    let mut status = ws.status.clone().unwrap_or_default();
    let list = status
        .versioned_subset_statuses
        .get_or_insert_default()
        .entry(pod_version(pod))
        .or_default();
    if list.is_empty() {
        *list = initial_statuses(ws, total);
    }
    let recorded = list.iter().any(|s| {
        s.creating_pods
            .as_ref()
            .is_some_and(|m| m.contains_key(&pod_name))
            || s.deleting_pods
                .as_ref()
                .is_some_and(|m| m.contains_key(&pod_name))
    });
    if recorded {
        return None;
    }
    let entry = list.iter_mut().find(|s| s.name == subset)?;
    if entry.missing_replicas == -1 {
        return None;
    }
    let time = Time(Timestamp::from_second(now.as_second()).unwrap_or(now));
    entry.deleting_pods.get_or_insert_default().insert(pod_name, time);
    entry.missing_replicas += 1;
    Some(status)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn a_placed_pod_leaving_gives_its_subset_room_back_once() {
        let ws: WorkloadSpread = serde_json::from_value(json!({ "apiVersion": "apps.kruise.io/v1alpha1",
            "kind": "WorkloadSpread", "metadata": { "name": "spread", "namespace": "shop" },
            "spec": { "targetRef": { "apiVersion": "apps.kruise.io/v1alpha1", "kind": "CloneSet", "name": "web" },
                "subsets": [{ "name": "a", "maxReplicas": 2 }, { "name": "b" }] },
            "status": { "versionedSubsetStatuses": { "versionIgnored": [
                { "name": "a", "replicas": 2, "missingReplicas": 0 }, { "name": "b", "replicas": 1, "missingReplicas": -1 }] } } }))
        .expect("ws");
        let pod = |subset: &str, ws_name: &str| -> Pod {
            serde_json::from_value(json!({ "metadata": { "name": format!("web-{subset}"), "annotations": {
                MATCHED_WORKLOADSPREAD_ANNOTATION: format!("{{\"name\":\"{ws_name}\",\"subset\":\"{subset}\"}}") } },
                "spec": { "containers": [] } }))
            .expect("pod")
        };
        let now: Timestamp = "2026-12-04T12:00:00Z".parse().expect("time");
        let status = record_deletion(&ws, &pod("a", "spread"), 0, now).expect("recorded");
        let a = &status.versioned_subset_statuses.as_ref().expect("v")["versionIgnored"][0];
        assert_eq!(a.missing_replicas, 1);
        assert!(a.deleting_pods.as_ref().expect("deleting").contains_key("web-a"));
        let mut again = ws.clone();
        again.status = Some(status);
        assert_eq!(
            record_deletion(&again, &pod("a", "spread"), 0, now),
            None,
            "recorded once"
        );
        assert_eq!(
            record_deletion(&ws, &pod("b", "spread"), 0, now),
            None,
            "unlimited"
        );
        assert_eq!(
            record_deletion(&ws, &pod("a", "other"), 0, now),
            None,
            "another spread's pod"
        );
    }
}
