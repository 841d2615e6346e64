//! Pod lifecycle hooks (OpenKruise's `lifecycle.preDelete`, `preNormal` and
//! `inPlaceUpdate`): the state label and whether a hook holds a pod. Pure. Shared by
//! CloneSet, Advanced StatefulSet, Advanced DaemonSet and the in-place update engine.
//!
//! A hook holds ("hooks") a pod while ANY of its labels (same value) or finalizers is on the
//! pod; it is "all hooked" when ALL of them are. A hook with no labels and no finalizers
//! never holds a pod, and every pod is "all hooked" by it.
use k8s_openapi::api::core::v1::Pod;

use crate::api::common::LifecycleHook;

pub const STATE_LABEL: &str = "lifecycle.apps.kruise.io/state";
pub const TIMESTAMP_ANNOTATION: &str = "lifecycle.apps.kruise.io/timestamp";

pub const PREPARING_NORMAL: &str = "PreparingNormal";
pub const NORMAL: &str = "Normal";
pub const PREPARING_UPDATE: &str = "PreparingUpdate";
pub const UPDATING: &str = "Updating";
pub const UPDATED: &str = "Updated";
pub const PREPARING_DELETE: &str = "PreparingDelete";

/// The pod's lifecycle state (`""` when unset).
pub fn state(pod: &Pod) -> &str {
    pod.metadata
        .labels
        .as_ref()
        .and_then(|l| l.get(STATE_LABEL))
        .map_or("", String::as_str)
}

/// Only `""` and `Normal` count as available.
pub fn allows_available(pod: &Pod) -> bool {
    matches!(state(pod), "" | NORMAL)
}

fn holds(pod: &Pod, hook: &LifecycleHook) -> (usize, usize) {
    let labels = pod.metadata.labels.as_ref();
    let finalizers = pod.metadata.finalizers.as_deref().unwrap_or_default();
    let mut total = 0;
    let mut present = 0;
    for (k, v) in hook.labels_handler.iter().flatten() {
        total += 1;
        if labels.and_then(|l| l.get(k)) == Some(v) {
            present += 1;
        }
    }
    for f in hook.finalizers_handler.iter().flatten() {
        total += 1;
        if finalizers.contains(f) {
            present += 1;
        }
    }
    (present, total)
}

/// Does any of the hook's labels or finalizers hold the pod?
pub fn is_hooked(pod: &Pod, hook: Option<&LifecycleHook>) -> bool {
    hook.is_some_and(|h| holds(pod, h).0 > 0)
}

/// Are all of the hook's labels and finalizers on the pod? (true when there is no hook)
pub fn is_all_hooked(pod: &Pod, hook: Option<&LifecycleHook>) -> bool {
    hook.is_none_or(|h| {
        let (present, total) = holds(pod, h);
        present == total
    })
}

/// Does the hook name anything at all?
pub fn is_configured(hook: Option<&LifecycleHook>) -> bool {
    hook.is_some_and(|h| {
        h.labels_handler.as_ref().is_some_and(|l| !l.is_empty())
            || h.finalizers_handler.as_ref().is_some_and(|f| !f.is_empty())
    })
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use super::*;

    fn pod(labels: &[(&str, &str)], finalizers: &[&str]) -> Pod {
        let mut pod = Pod::default();
        pod.metadata.labels = Some(
            labels
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
        );
        pod.metadata.finalizers = Some(finalizers.iter().map(|f| f.to_string()).collect());
        pod
    }

    fn hook(labels: &[(&str, &str)], finalizers: &[&str]) -> LifecycleHook {
        LifecycleHook {
            labels_handler: Some(
                labels
                    .iter()
                    .map(|(k, v)| (k.to_string(), v.to_string()))
                    .collect::<BTreeMap<_, _>>(),
            ),
            finalizers_handler: Some(finalizers.iter().map(|f| f.to_string()).collect()),
            mark_pod_not_ready: None,
        }
    }

    #[test]
    fn any_label_or_finalizer_hooks_and_all_of_them_all_hook() {
        let h = hook(&[("drain", "true")], &["example.com/hold"]);
        let none = pod(&[], &[]);
        let one = pod(&[("drain", "true")], &[]);
        let wrong_value = pod(&[("drain", "false")], &[]);
        let both = pod(&[("drain", "true")], &["example.com/hold"]);
        assert!(!is_hooked(&none, Some(&h)) && !is_all_hooked(&none, Some(&h)));
        assert!(is_hooked(&one, Some(&h)) && !is_all_hooked(&one, Some(&h)));
        assert!(!is_hooked(&wrong_value, Some(&h)));
        assert!(is_hooked(&both, Some(&h)) && is_all_hooked(&both, Some(&h)));
    }

    #[test]
    fn no_hook_never_holds_and_always_counts_as_all_hooked() {
        let p = pod(&[("drain", "true")], &[]);
        assert!(!is_hooked(&p, None));
        assert!(is_all_hooked(&p, None));
        assert!(!is_configured(Some(&hook(&[], &[]))));
    }

    #[test]
    fn only_unset_and_normal_allow_available() {
        for (state, available) in [
            ("", true),
            (NORMAL, true),
            (PREPARING_NORMAL, false),
            (UPDATING, false),
        ] {
            let p = if state.is_empty() {
                pod(&[], &[])
            } else {
                pod(&[(STATE_LABEL, state)], &[])
            };
            assert_eq!(allows_available(&p), available, "{state}");
        }
    }
}
