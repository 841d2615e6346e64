//! The classes behind issue-15 defects, on the Advanced StatefulSet planner: missing and
//! terminating pods count as unavailable, a round waiting on minReadySeconds names its
//! wake-up, OrderedReady scale-down waits on unhealthy pods, a Pending pod's missing claim
//! is made again, a cancelled delete goes back to Normal. Uses the builders of `plan_tests`.
use std::collections::BTreeSet;
use std::time::Duration;

use k8s_openapi::api::core::v1::Pod;
use proptest::prelude::*;
use serde_json::{Value, json};

use super::*;

/// `pod(i, revision, true)` whose Ready condition turned True at `since`.
fn ready_since(i: i32, revision: &str, since: &str) -> Pod {
    let mut p = pod(i, revision, true);
    if let Some(c) = p
        .status
        .as_mut()
        .and_then(|s| s.conditions.as_mut())
        .and_then(|c| c.iter_mut().find(|c| c.type_ == "Ready"))
    {
        c.last_transition_time = Some(k8s_openapi::apimachinery::pkg::apis::meta::v1::Time(
            since.parse().expect("time"),
        ));
    }
    p
}

fn terminating(mut p: Pod) -> Pod {
    p.metadata.deletion_timestamp = Some(k8s_openapi::apimachinery::pkg::apis::meta::v1::Time(now()));
    p
}

fn pending(mut p: Pod) -> Pod {
    if let Some(s) = p.status.as_mut() {
        s.phase = Some("Pending".into());
        s.conditions = None;
        s.container_statuses = None;
    }
    p
}

#[test]
fn a_recreating_update_counts_missing_and_terminating_replicas_against_max_unavailable() {
    let s = set(
        5,
        json!({ "podManagementPolicy": "Parallel",
            "updateStrategy": { "rollingUpdate": { "maxUnavailable": 2 } } }),
    );
    // web-4 and web-3 were deleted to be recreated; web-3's pod is not back yet and web-4's
    // is still terminating: the budget of 2 is used, so web-2 must wait.
    let pods = vec![
        pod(0, OLD, true),
        pod(1, OLD, true),
        pod(2, OLD, true),
        terminating(pod(4, OLD, true)),
    ];
    let plan = run(&s, &pods);
    assert_eq!(created(&plan), [("web-3".to_string(), NEW.to_string())]);
    assert!(deleted(&plan).is_empty(), "{:?}", plan.actions);
    // One missing only: one more may go.
    let pods = vec![
        pod(0, OLD, true),
        pod(1, OLD, true),
        pod(2, OLD, true),
        pod(4, NEW, true),
    ];
    assert_eq!(deleted(&run(&s, &pods)), ["web-2"]);
}

#[test]
fn ordered_ready_scale_down_removes_an_unhealthy_pod_only_when_it_is_the_first_unhealthy_one() {
    let s = set(0, json!({}));
    let none_ready: Vec<Pod> = (0..3).map(|i| pod(i, NEW, false)).collect();
    assert!(
        deleted(&run(&s, &none_ready)).is_empty(),
        "web-2 is not Ready and web-0 is the first unhealthy pod: wait"
    );
    let all_ready: Vec<Pod> = (0..3).map(|i| pod(i, NEW, true)).collect();
    assert_eq!(deleted(&run(&s, &all_ready)), ["web-2"], "one at a time");
    let top_unready = vec![pod(0, NEW, true), pod(1, NEW, true), pod(2, NEW, false)];
    assert_eq!(
        deleted(&run(&s, &top_unready)),
        ["web-2"],
        "the first unhealthy pod may go"
    );
    let s = set(1, json!({}));
    let replica_unready = vec![pod(0, NEW, false), pod(1, NEW, true)];
    assert!(
        deleted(&run(&s, &replica_unready)).is_empty(),
        "a replica is unhealthy"
    );
}

#[test]
fn parallel_scaling_wakes_when_min_ready_seconds_will_have_passed() {
    let s = set(
        2,
        json!({ "podManagementPolicy": "Parallel", "scaleStrategy": { "maxUnavailable": 1 },
            "updateStrategy": { "rollingUpdate": { "minReadySeconds": 3 } } }),
    );
    // web-0 has been Ready for 1 s of its 3: web-1 waits, and the set must look again in 2 s.
    let plan = run(&s, &[ready_since(0, NEW, "2026-12-03T11:59:59Z")]);
    assert!(
        created(&plan).is_empty(),
        "scale maxUnavailable 1 is used by web-0"
    );
    let after = plan.requeue_after.expect("a wake-up for minReadySeconds");
    assert!(
        after >= Duration::from_secs(2) && after <= Duration::from_secs(3),
        "{after:?}"
    );
    let status = plan.status.expect("status");
    assert_eq!((status.ready_replicas, status.available_replicas), (1, 0));
}

#[test]
fn a_pending_pod_whose_claim_was_deleted_gets_the_claim_made_again() {
    let claims = json!([{ "metadata": { "name": "data" }, "spec": { "accessModes": ["ReadWriteOnce"] } }]);
    let s = set(2, json!({ "volumeClaimTemplates": claims }));
    let pods = vec![pod(0, NEW, true), pending(pod(1, NEW, false))];
    let t = templates();
    let only_first: BTreeSet<String> = ["data-web-0".to_string()].into();
    let snapshot = Snapshot {
        set: &s,
        pods: pods.iter().collect(),
        orphans: Vec::new(),
        claims: &only_first,
        update: Revision {
            name: NEW,
            template: &t[NEW],
        },
        current: Revision {
            name: OLD,
            template: &t[OLD],
        },
        templates: &t,
        collision_count: 0,
        now: now(),
    };
    let made: Vec<String> = plan(&snapshot)
        .actions
        .iter()
        .filter_map(|a| match a {
            Action::CreateClaim { claim } => claim.metadata.name.clone(),
            _ => None,
        })
        .collect();
    assert_eq!(made, ["data-web-1"], "a running pod's claim is not touched");
    assert!(
        !run(&s, &pods)
            .actions
            .iter()
            .any(|a| matches!(a, Action::CreateClaim { .. })),
        "nothing missing, nothing made"
    );
}

/// A pod state for the property tests: absent, or present with a revision, readiness,
/// Ready-since offset (seconds before now) and whether it is terminating.
fn arbitrary_pod() -> impl Strategy<Value = Option<(bool, bool, i64, bool)>> {
    proptest::option::weighted(
        0.8,
        (
            any::<bool>(),
            any::<bool>(),
            0i64..8,
            proptest::bool::weighted(0.15),
        ),
    )
}

fn build(states: &[Option<(bool, bool, i64, bool)>]) -> Vec<Pod> {
    states
        .iter()
        .enumerate()
        .filter_map(|(i, s)| {
            let (updated, ready, ago, gone) = (*s)?;
            let revision = if updated { NEW } else { OLD };
            let since = (now() - k8s_openapi::jiff::SignedDuration::from_secs(ago)).to_string();
            let p = if ready {
                ready_since(i as i32, revision, &since)
            } else {
                pod(i as i32, revision, false)
            };
            Some(if gone { terminating(p) } else { p })
        })
        .collect()
}

proptest! {
    /// Unavailable means unavailable: missing, terminating, not ready and not yet available
    /// replicas all count against maxUnavailable, whatever the update policy.
    #[test]
    fn an_update_round_never_exceeds_max_unavailable_counting_missing_and_terminating_pods(
        states in proptest::collection::vec(arbitrary_pod(), 1..10),
        max_unavailable in 1i32..4,
        min_ready in 0i32..5,
        in_place in any::<bool>(),
    ) {
        let replicas = states.len() as i32;
        let policy = if in_place { "InPlaceIfPossible" } else { "ReCreate" };
        let s = set(replicas, json!({ "podManagementPolicy": "Parallel",
            "updateStrategy": { "rollingUpdate": { "maxUnavailable": max_unavailable,
                "minReadySeconds": min_ready, "podUpdatePolicy": policy } } }));
        let pods = build(&states);
        let plan = run(&s, &pods);
        let unavailable_before = states
            .iter()
            .filter(|st| match st {
                None => true,
                Some((_, ready, ago, gone)) => *gone || !*ready || *ago < i64::from(min_ready),
            })
            .count();
        let touched: BTreeSet<String> = patched_in_place(&plan).into_iter().chain(deleted(&plan)).collect();
        let newly = touched
            .iter()
            .filter(|name| {
                let i: usize = name.trim_start_matches("web-").parse().expect("ordinal");
                matches!(states[i], Some((_, true, ago, false)) if ago >= i64::from(min_ready))
            })
            .count();
        prop_assert!(
            newly == 0 || unavailable_before + newly <= max_unavailable as usize,
            "before {unavailable_before}, newly {newly}, touched {touched:?}"
        );
    }

    /// No stall: a round that writes nothing while a pod waits on minReadySeconds names the
    /// moment it can go on (for either pod management policy).
    #[test]
    fn a_round_waiting_on_min_ready_seconds_always_asks_to_be_woken(
        states in proptest::collection::vec(arbitrary_pod(), 1..8),
        min_ready in 1i32..6,
        parallel in any::<bool>(),
        scale_budget in proptest::option::of(1i32..3),
    ) {
        let mut spec = json!({ "updateStrategy": { "rollingUpdate": { "minReadySeconds": min_ready } } });
        if parallel {
            spec["podManagementPolicy"] = json!("Parallel");
            if let Some(b) = scale_budget {
                spec["scaleStrategy"] = json!({ "maxUnavailable": b });
            }
        }
        let s = set(states.len() as i32, spec);
        let pods = build(&states);
        let plan = run(&s, &pods);
        let waiting = states
            .iter()
            .flatten()
            .filter(|(_, ready, ago, gone)| *ready && !*gone && *ago < i64::from(min_ready))
            .map(|(_, _, ago, _)| i64::from(min_ready) - ago)
            .min();
        if let Some(left) = waiting {
            let after = plan.requeue_after;
            prop_assert!(
                after.is_some_and(|a| a <= Duration::from_secs(left.unsigned_abs()) + Duration::from_secs(1)),
                "a pod becomes available in {left} s, the plan wakes after {after:?}"
            );
        }
    }
}

#[test]
fn a_held_pod_whose_specified_delete_label_was_taken_off_goes_back_to_normal() {
    let s = set(
        3,
        json!({ "lifecycle": { "preDelete": { "labelsHandler": { "example.com/hold": "true" } } } }),
    );
    let held = |labels: Value| {
        let mut p = pod(1, NEW, true);
        let mut l = p.metadata.labels.clone().unwrap_or_default();
        l.insert("lifecycle.apps.kruise.io/state".into(), "PreparingDelete".into());
        l.insert("example.com/hold".into(), "true".into());
        for (k, v) in labels.as_object().into_iter().flatten() {
            l.insert(k.clone(), v.as_str().unwrap_or_default().into());
        }
        p.metadata.labels = Some(l);
        p
    };
    let state_patches = |plan: &Plan| -> Vec<(String, Value)> {
        plan.actions
            .iter()
            .filter_map(|a| match a {
                Action::PatchPod { name, patch, .. } => Some((
                    name.clone(),
                    patch["metadata"]["labels"]["lifecycle.apps.kruise.io/state"].clone(),
                )),
                _ => None,
            })
            .collect()
    };
    let marked = vec![
        pod(0, NEW, true),
        held(json!({ "apps.kruise.io/specified-delete": "true" })),
        pod(2, NEW, true),
    ];
    assert!(
        state_patches(&run(&s, &marked)).is_empty(),
        "still marked: it waits for the hook"
    );
    let unmarked = vec![pod(0, NEW, true), held(json!({})), pod(2, NEW, true)];
    assert_eq!(
        state_patches(&run(&s, &unmarked)),
        [("web-1".to_string(), json!("PreparingNormal"))],
        "the delete is cancelled"
    );
    // An old pod held while the rolling update recreates it stays held.
    let mut old = held(json!({}));
    if let Some(l) = old.metadata.labels.as_mut() {
        l.insert("controller-revision-hash".into(), OLD.into());
    }
    let updating = vec![pod(0, NEW, true), old, pod(2, NEW, true)];
    assert!(state_patches(&run(&s, &updating)).is_empty());
}
