//! A SidecarSet's status, and the pods it should have injected and did not. Pure.
//!
//! Invariants:
//! - `matchedPods` counts active pods the SidecarSet injected: its name in the pod's
//!   `kruise.io/sidecarset-injected-list` and every one of its containers (and native
//!   sidecar init containers) present; `updatedPods` those whose hash entry is the set's
//!   current hash; `readyPods` those ready with their sidecars started; `updatedReadyPods`
//!   both (the per-pod facts: [`super::pod_facts`]).
//! - `notInjectedPods` (this project's field) counts active pods the selector matches that
//!   lack the injection (created while no webhook ran); a warning event names them (the
//!   first five), once while it lasts.
use k8s_openapi::api::core::v1::Pod;
use kube::ResourceExt;

use super::pod_facts;
use crate::api::sidecarset::{SidecarSet, SidecarSetStatus};
use crate::runtime::actions::Problem;
use crate::workloads::common::availability::is_active as active;

/// Everything the status is judged from: the set's selected active pods, split by
/// [`split`] into those it injected and those it did not.
#[derive(Debug, Clone)]
pub struct Snapshot<'a> {
    pub set: &'a SidecarSet,
    pub matched: Vec<&'a Pod>,
    pub missing: Vec<&'a Pod>,
}

/// The active pods among `selected` (the set's selector, in the namespaces it covers):
/// those the set injected, and those it did not.
pub fn split<'a>(set: &SidecarSet, selected: &[&'a Pod]) -> (Vec<&'a Pod>, Vec<&'a Pod>) {
    selected
        .iter()
        .copied()
        .filter(|p| active(p))
        .partition(|p| pod_facts::injected(set, p))
}

/// The status part of a round: the driver's [`Planned`](crate::runtime::driver::Planned)
/// with only its status and problems filled ([`super::plan`] adds the rest).
pub type Plan = crate::runtime::driver::Planned<SidecarSetStatus>;

/// The set's status and the problems to report.
pub fn plan(snapshot: &Snapshot<'_>) -> Plan {
    let (set, matched, missing) = (snapshot.set, &snapshot.matched, &snapshot.missing);
    let count = |f: &dyn Fn(&Pod) -> bool| matched.iter().filter(|p| f(p)).count() as i32;
    let stored = set.status.clone().unwrap_or_default();
    let status = SidecarSetStatus {
        observed_generation: set.metadata.generation,
        matched_pods: matched.len() as i32,
        updated_pods: count(&|p| pod_facts::updated(set, p)),
        ready_pods: count(&|p| super::pod_facts::available(set, p)),
        updated_ready_pods: Some(count(&|p| {
            pod_facts::updated(set, p) && pod_facts::available(set, p)
        })),
        not_injected_pods: (!missing.is_empty()).then_some(missing.len() as i32),
        ..stored.clone()
    };
    let mut plan = Plan::default();
    if !missing.is_empty() {
        let mut names: Vec<String> = missing
            .iter()
            .map(|p| format!("{}/{}", p.namespace().unwrap_or_default(), p.name_any()))
            .collect();
        names.sort();
        let more = names.len().saturating_sub(5);
        names.truncate(5);
        let tail = if more > 0 {
            format!(" and {more} more")
        } else {
            String::new()
        };
        plan.problems.push(Problem {
            reason: "PodsNotInjected",
            message: format!(
                "SidecarSet {}: {} matching pod(s) were created without its sidecars (no injection webhook ran): {}{tail}; recreate them to inject",
                set.name_any(),
                missing.len(),
                names.join(", ")
            ),
        });
    }
    if status != stored {
        plan.status = Some(status);
    }
    plan
}

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    use super::*;
    use crate::workloads::sidecarset::inject::{HASH_ANNOTATION, INJECTED_LIST_ANNOTATION};

    fn set() -> SidecarSet {
        serde_json::from_value(
            json!({ "apiVersion": "apps.kruise.io/v1alpha1", "kind": "SidecarSet",
            "metadata": { "name": "log", "generation": 2, "annotations": { HASH_ANNOTATION: "h2" } },
            "spec": { "selector": { "matchLabels": { "app": "web" } },
                "containers": [{ "name": "log", "image": "fluentbit:2" }] } }),
        )
        .expect("set")
    }

    fn pod(name: &str, annotations: Value, containers: &[&str], ready: bool) -> Pod {
        let containers: Vec<Value> = containers
            .iter()
            .map(|c| json!({ "name": c, "image": "x" }))
            .collect();
        let statuses: Vec<Value> = containers
            .iter()
            .map(|c| json!({ "name": c["name"], "image": "x", "imageID": "id-x", "ready": ready, "restartCount": 0 }))
            .collect();
        serde_json::from_value(
            json!({ "metadata": { "name": name, "namespace": "shop", "annotations": annotations },
            "spec": { "containers": containers },
            "status": { "phase": "Running", "containerStatuses": statuses,
                "conditions": [{ "type": "Ready", "status": if ready { "True" } else { "False" } }] } }),
        )
        .expect("pod")
    }

    fn entry(hash: &str) -> Value {
        json!({ INJECTED_LIST_ANNOTATION: "log",
            HASH_ANNOTATION: format!("{{\"log\":{{\"updateTimestamp\":\"2026-12-04T12:00:00Z\",\"hash\":\"{hash}\",\"sidecarSetName\":\"log\",\"sidecarList\":[\"log\"]}}}}") })
    }

    #[test]
    fn counts_matched_updated_ready_and_the_pods_created_without_injection() {
        let s = set();
        let pods = [
            pod("a", entry("h2"), &["log", "app"], true),
            pod("b", entry("h1"), &["log", "app"], true),
            pod("c", entry("h2"), &["log", "app"], false),
            pod("d", json!({}), &["app"], true),
        ];
        let selected: Vec<&Pod> = pods.iter().collect();
        let (matched, missing) = split(&s, &selected);
        let plan = plan(&Snapshot {
            set: &s,
            matched,
            missing,
        });
        let status = plan.status.expect("status");
        assert_eq!(
            (
                status.matched_pods,
                status.updated_pods,
                status.ready_pods,
                status.updated_ready_pods
            ),
            (3, 2, 2, Some(1))
        );
        assert_eq!(status.not_injected_pods, Some(1));
        assert_eq!(status.observed_generation, Some(2));
        assert!(
            plan.problems[0].message.contains("shop/d"),
            "{}",
            plan.problems[0].message
        );
    }
}
