//! Container launch priority, and the batches an in-place update of several containers
//! goes in (OpenKruise's rule): the containers with the highest priority are updated
//! first, together with every container that has no priority; each later batch starts
//! once the containers of the one before run their new image and are ready.
//!
//! A container's priority is read as OpenKruise's controller reads it, so pods made
//! by either controller behave alike:
//! - the `KRUISE_CONTAINER_BARRIER` env OpenKruise's pod webhook injects (its
//!   `configMapKeyRef.key` is `p_<priority>`), else
//! - the pod annotation `apps.kruise.io/container-launch-priority: Ordered`: the first
//!   container highest, each next one lower, else
//! - each container's `KRUISE_CONTAINER_PRIORITY` env (0 when absent), unless every
//!   container has the same value (then there is no order).
//!
//! Invariants: a first batch is never empty when something changes; every changed
//! container is in exactly one of (now, later); with no priorities everything goes now.
use std::collections::{BTreeMap, BTreeSet};

use k8s_openapi::api::core::v1::{Container, Pod};

pub const PRIORITY_ENV: &str = "KRUISE_CONTAINER_PRIORITY";
pub const BARRIER_ENV: &str = "KRUISE_CONTAINER_BARRIER";
pub const LAUNCH_PRIORITY_ANNOTATION: &str = "apps.kruise.io/container-launch-priority";
pub const ORDERED: &str = "Ordered";

fn barrier_priority(container: &Container) -> Option<i32> {
    let env = container.env.as_ref()?.iter().find(|e| e.name == BARRIER_ENV)?;
    let key = &env.value_from.as_ref()?.config_map_key_ref.as_ref()?.key;
    key.strip_prefix("p_")?.parse().ok()
}

fn env_priority(container: &Container) -> Option<i32> {
    let env = container.env.as_ref()?.iter().find(|e| e.name == PRIORITY_ENV)?;
    env.value.as_deref()?.trim().parse().ok()
}

/// Each container's priority by name (None: no priority).
pub fn priorities(pod: &Pod) -> BTreeMap<String, Option<i32>> {
    let containers = pod
        .spec
        .as_ref()
        .map(|s| s.containers.as_slice())
        .unwrap_or_default();
    let barriers: Vec<Option<i32>> = containers.iter().map(barrier_priority).collect();
    let ordered = pod
        .metadata
        .annotations
        .as_ref()
        .and_then(|a| a.get(LAUNCH_PRIORITY_ANNOTATION))
        .is_some_and(|v| v == ORDERED);
    let from_env: Vec<i32> = containers.iter().map(|c| env_priority(c).unwrap_or(0)).collect();
    let env_orders = from_env.iter().any(|p| *p != from_env[0]);
    containers
        .iter()
        .enumerate()
        .map(|(i, c)| {
            let priority = if barriers.iter().any(Option::is_some) {
                barriers[i]
            } else if ordered && containers.len() > 1 {
                i32::try_from(i).ok().map(|i| -i)
            } else if env_orders {
                Some(from_env[i])
            } else {
                None
            };
            (c.name.clone(), priority)
        })
        .collect()
}

/// Splits the containers to change into the batch to change now and the ones left for
/// later batches.
pub fn first_batch<'a>(
    pod: &Pod,
    changed: impl IntoIterator<Item = &'a String>,
) -> (BTreeSet<String>, BTreeSet<String>) {
    let priorities = priorities(pod);
    let changed: Vec<&String> = changed.into_iter().collect();
    let of = |name: &String| priorities.get(name).copied().flatten();
    let highest = changed.iter().filter_map(|n| of(n)).max();
    changed
        .into_iter()
        .cloned()
        .partition(|name| of(name).is_none() || of(name) == highest)
}

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    use super::*;

    fn pod(containers: Value, annotations: Value) -> Pod {
        serde_json::from_value(json!({
            "metadata": { "name": "p", "annotations": annotations },
            "spec": { "containers": containers },
        }))
        .expect("pod")
    }

    fn names(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    fn split(p: &Pod, changed: &[&str]) -> (Vec<String>, Vec<String>) {
        let changed = names(changed);
        let (now, later) = first_batch(p, &changed);
        (now.into_iter().collect(), later.into_iter().collect())
    }

    #[test]
    fn the_highest_env_priority_goes_first_and_a_container_without_one_counts_zero() {
        let p = pod(
            json!([
                { "name": "nginx", "image": "nginx:1" },
                { "name": "redis", "image": "redis:1", "env": [{ "name": PRIORITY_ENV, "value": "10" }] },
            ]),
            json!({}),
        );
        assert_eq!(
            split(&p, &["nginx", "redis"]),
            (names(&["redis"]), names(&["nginx"]))
        );
        // Only the lower one changes: it goes at once.
        assert_eq!(split(&p, &["nginx"]), (names(&["nginx"]), vec![]));
    }

    #[test]
    fn equal_env_priorities_are_no_order() {
        let env = json!([{ "name": PRIORITY_ENV, "value": "5" }]);
        let p = pod(
            json!([{ "name": "a", "image": "a", "env": env }, { "name": "b", "image": "b", "env": env }]),
            json!({}),
        );
        assert_eq!(split(&p, &["a", "b"]), (names(&["a", "b"]), vec![]));
    }

    #[test]
    fn ordered_launch_puts_the_first_container_first() {
        let p = pod(
            json!([{ "name": "b", "image": "b" }, { "name": "a", "image": "a" }, { "name": "c", "image": "c" }]),
            json!({ LAUNCH_PRIORITY_ANNOTATION: ORDERED }),
        );
        assert_eq!(split(&p, &["a", "b", "c"]), (names(&["b"]), names(&["a", "c"])));
        assert_eq!(split(&p, &["a", "c"]), (names(&["a"]), names(&["c"])));
    }

    #[test]
    fn openkruises_barrier_env_wins_and_a_container_without_it_goes_with_the_first_batch() {
        let barrier = |key: &str| json!([{ "name": BARRIER_ENV, "valueFrom": { "configMapKeyRef": { "name": "p-barrier", "key": key } } }]);
        let p = pod(
            json!([
                { "name": "low", "image": "l", "env": barrier("p_-1") },
                { "name": "high", "image": "h", "env": barrier("p_3") },
                { "name": "free", "image": "f", "env": [{ "name": PRIORITY_ENV, "value": "100" }] },
            ]),
            json!({}),
        );
        assert_eq!(
            split(&p, &["low", "high", "free"]),
            (names(&["free", "high"]), names(&["low"]))
        );
    }

    #[test]
    fn an_unreadable_priority_is_no_priority() {
        let p = pod(
            json!([
                { "name": "a", "image": "a", "env": [{ "name": PRIORITY_ENV, "value": "high" }] },
                { "name": "b", "image": "b" },
            ]),
            json!({}),
        );
        assert_eq!(split(&p, &["a", "b"]), (names(&["a", "b"]), vec![]));
    }
}
