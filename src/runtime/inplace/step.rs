//! The per-pod half of a rolling update, shared by every workload that updates pods in
//! place: grace periods, the readiness gate and the lifecycle hooks, as OpenKruise runs
//! them. Pure: it reads the pod and a [`StepContext`] and returns the writes in [`Steps`];
//! which pods to update, and how many at once, is the workload's.
//!
//! - [`refresh`]: finish or drop grace periods, move lifecycle states on, add a missing
//!   hash label, and set `InPlaceUpdateReady=True` on pods whose in-place update finished
//!   (or that never had one).
//! - [`update_pod`]: move one pod to the target revision in place (readiness gate False,
//!   then one pod patch), or say it must be recreated, or that the policy refuses.
//!
//! Invariants: a pod in a grace period or with an unfinished in-place update gets no
//! refresh write except the grace step; the gate goes False before the images change,
//! and only when images change; the `Updating` lifecycle state is entered only when an
//! inPlaceUpdate hook is configured (it costs a write to leave again).
use std::collections::BTreeMap;
use std::time::Duration;

use k8s_openapi::api::core::v1::{Pod, PodTemplateSpec};
use k8s_openapi::jiff::Timestamp;
use kube::ResourceExt;
use serde_json::{Value, json};

use super::patch::{self, GraceStep, InPlaceUpdate};
use super::state::{self, InPlaceUpdateState};
use super::{Decision, decide};
use crate::api::common::{Lifecycle, PodUpdatePolicy};
use crate::runtime::actions::{Action, Why};
use crate::runtime::lifecycle;
use crate::runtime::revision::{REVISION_LABEL, is_at_revision, short_hash, template_of};

/// What the step reads besides the pod.
#[derive(Debug, Clone, Copy)]
pub struct StepContext<'a> {
    pub hooks: &'a Lifecycle,
    /// Every known revision's template by name.
    pub templates: &'a BTreeMap<String, PodTemplateSpec>,
    pub update_revision: &'a str,
    /// `inPlaceUpdateStrategy.gracePeriodSeconds`.
    pub grace_seconds: i32,
    pub now: Timestamp,
    /// A label that carries the short hash of the pod's revision (CloneSet:
    /// `pod-template-hash`), added when missing and set with each update.
    pub hash_label: Option<&'static str>,
}

/// The writes planned, and when to look again.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Steps {
    pub actions: Vec<Action>,
    pub wake: Option<Duration>,
}

impl Steps {
    pub fn wake(&mut self, after: Duration) {
        self.wake = Some(self.wake.map_or(after, |d| d.min(after)));
    }

    /// Moves the actions into `actions`; returns the wake-up, if any.
    pub fn drain_into(self, actions: &mut Vec<Action>) -> Option<Duration> {
        actions.extend(self.actions);
        self.wake
    }
}

/// What [`update_pod`] decided for one pod.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Update {
    /// Writes were planned (in place, or a lifecycle hook step before it).
    Planned,
    /// The pod must be recreated at the target revision; the workload does it its way.
    Recreate,
    /// `InPlaceOnly` and the change cannot go in place: the pod is left alone.
    Refused { reason: String },
    /// Nothing to do now (a hook holds the pod, or it is in a state that is not updated).
    Held,
}

pub fn rfc3339(now: Timestamp) -> String {
    now.strftime("%Y-%m-%dT%H:%M:%SZ").to_string()
}

/// A label patch of one pod (values to set, `None` to remove), under its resourceVersion.
pub fn label_patch(
    pod: &Pod,
    labels: &[(&str, Option<&str>)],
    annotations: &[(&str, Option<&str>)],
) -> Value {
    let labels: serde_json::Map<String, Value> =
        labels.iter().map(|(k, v)| (k.to_string(), json!(v))).collect();
    let annotations: serde_json::Map<String, Value> = annotations
        .iter()
        .map(|(k, v)| (k.to_string(), json!(v)))
        .collect();
    json!({ "metadata": {
        "resourceVersion": pod.metadata.resource_version,
        "labels": labels,
        "annotations": annotations,
    } })
}

fn seconds_since(timestamp: &str, now: Timestamp) -> i64 {
    timestamp
        .parse::<Timestamp>()
        .map_or(i64::MAX, |t| now.duration_since(t).as_secs())
}

/// Refresh writes for `pods` (grace periods, readiness gate, lifecycle states); a workload
/// ends its update phase when any action was planned.
pub fn refresh(ctx: &StepContext<'_>, pods: &[&Pod]) -> Steps {
    let mut steps = Steps::default();
    let now = rfc3339(ctx.now);
    for pod in pods {
        let name = pod.name_any();
        let inplace_state = InPlaceUpdateState::of(pod).and_then(Result::ok);
        if state::in_grace_period(pod) {
            let elapsed = inplace_state
                .as_ref()
                .map_or(i64::MAX, |s| seconds_since(&s.update_timestamp, ctx.now));
            match patch::grace_step(
                pod,
                pod.labels().get(REVISION_LABEL).map(String::as_str),
                elapsed,
                &now,
            ) {
                Some(GraceStep::Wait(seconds)) => steps.wake(Duration::from_secs(seconds)),
                Some(GraceStep::Drop(p) | GraceStep::Apply(p)) => steps.actions.push(Action::PatchPod {
                    name,
                    patch: p,
                    why: Why::Grace,
                }),
                None => {}
            }
            continue;
        }
        if let Some(s) = inplace_state.as_ref()
            && !s.next_container_images.is_empty()
        {
            // A later container batch waits for the one before it (launch priority).
            if let Some(p) = patch::next_batch(pod, s, &now) {
                steps.actions.push(Action::PatchPod {
                    name,
                    patch: p,
                    why: Why::UpdatePodInPlace,
                });
            }
            continue;
        }
        if inplace_state
            .as_ref()
            .is_some_and(|s| !state::is_update_complete(pod, s))
        {
            continue;
        }
        let mut labels: Vec<(&str, Option<&str>)> = Vec::new();
        let next = next_lifecycle_state(ctx, pod);
        if let Some(next) = next {
            labels.push((lifecycle::STATE_LABEL, Some(next)));
        }
        let hash = pod
            .labels()
            .get(REVISION_LABEL)
            .map(|r| short_hash(r).to_string());
        if let Some(label) = ctx.hash_label
            && !pod.labels().contains_key(label)
            && let Some(hash) = hash.as_deref()
        {
            labels.push((label, Some(hash)));
        }
        if !labels.is_empty() {
            let annotations: Vec<(&str, Option<&str>)> = if next.is_some() {
                vec![(lifecycle::TIMESTAMP_ANNOTATION, Some(&now))]
            } else {
                Vec::new()
            };
            steps.actions.push(Action::PatchPod {
                name: name.clone(),
                patch: label_patch(pod, &labels, &annotations),
                why: if next.is_some() {
                    Why::Lifecycle
                } else {
                    Why::TemplateHash
                },
            });
        }
        if patch::needs_gate_true(pod) {
            steps.actions.push(Action::PatchPodStatus {
                name,
                patch: patch::gate_true(&now),
                why: Why::ReadinessGate,
            });
        }
    }
    steps
}

/// The lifecycle state a settled pod moves to, if any (`lifecycle.apps.kruise.io/state`).
fn next_lifecycle_state(ctx: &StepContext<'_>, pod: &Pod) -> Option<&'static str> {
    let hooks = ctx.hooks;
    let update_hook = hooks.in_place_update.as_ref();
    let settled = if lifecycle::is_configured(update_hook) && !lifecycle::is_all_hooked(pod, update_hook) {
        lifecycle::UPDATED
    } else {
        lifecycle::NORMAL
    };
    match lifecycle::state(pod) {
        lifecycle::PREPARING_NORMAL => {
            let pre_normal = hooks.pre_normal.as_ref();
            let ready_to_go = if lifecycle::is_configured(pre_normal) {
                lifecycle::is_all_hooked(pod, pre_normal)
            } else {
                pod.spec
                    .as_ref()
                    .and_then(|s| s.node_name.as_deref())
                    .is_some_and(|n| !n.is_empty())
            };
            ready_to_go.then_some(lifecycle::NORMAL)
        }
        lifecycle::UPDATING => Some(settled),
        lifecycle::UPDATED => lifecycle::is_all_hooked(pod, update_hook).then_some(lifecycle::NORMAL),
        lifecycle::PREPARING_UPDATE if is_at_revision(pod, ctx.update_revision) => Some(settled),
        _ => None,
    }
}

/// Deletes `pod` (with `claims`; `why` names a delete with its own event), or, while the
/// preDelete `hook` holds it, moves it to PreparingDelete once (None: it is there already
/// and waits until the hook lets go).
pub fn delete_or_hold(
    pod: &Pod,
    hook: Option<&crate::api::common::LifecycleHook>,
    now: Timestamp,
    claims: Vec<String>,
    why: Option<Why>,
) -> Option<Action> {
    let name = pod.name_any();
    if !lifecycle::is_hooked(pod, hook) {
        return Some(Action::DeletePod {
            uid: pod.uid().unwrap_or_default(),
            name,
            claims,
            why,
        });
    }
    (lifecycle::state(pod) != lifecycle::PREPARING_DELETE).then(|| Action::PatchPod {
        name,
        patch: label_patch(
            pod,
            &[(lifecycle::STATE_LABEL, Some(lifecycle::PREPARING_DELETE))],
            &[(lifecycle::TIMESTAMP_ANNOTATION, Some(&rfc3339(now)))],
        ),
        why: Why::Lifecycle,
    })
}

/// Plans the move of `pod` to the revision `target` (named `target_name`) under `policy`.
pub fn update_pod(
    ctx: &StepContext<'_>,
    pod: &Pod,
    target_name: &str,
    target: &PodTemplateSpec,
    policy: PodUpdatePolicy,
    steps: &mut Steps,
) -> Update {
    let name = pod.name_any();
    let now = rfc3339(ctx.now);
    let decision = match template_of(ctx.templates, pod) {
        Some(from) => decide(from, target),
        None => Decision::Recreate {
            reason: "the pod's revision is no longer in the history".into(),
        },
    };
    let (images, metadata) = match (&decision, policy) {
        (_, PodUpdatePolicy::ReCreate) | (Decision::Recreate { .. }, PodUpdatePolicy::InPlaceIfPossible) => {
            return Update::Recreate;
        }
        (Decision::Recreate { reason }, PodUpdatePolicy::InPlaceOnly) => {
            return Update::Refused {
                reason: reason.clone(),
            };
        }
        (Decision::InPlace { images, metadata }, _) => (images.clone(), metadata.clone()),
        (Decision::Unchanged, _) => (Default::default(), Default::default()),
    };

    // The inPlaceUpdate hook: a hooked pod waits in PreparingUpdate until the hook lets go.
    let hook = ctx.hooks.in_place_update.as_ref();
    match lifecycle::state(pod) {
        "" | lifecycle::PREPARING_NORMAL | lifecycle::NORMAL if lifecycle::is_hooked(pod, hook) => {
            steps.actions.push(Action::PatchPod {
                name,
                patch: label_patch(
                    pod,
                    &[(lifecycle::STATE_LABEL, Some(lifecycle::PREPARING_UPDATE))],
                    &[(lifecycle::TIMESTAMP_ANNOTATION, Some(&now))],
                ),
                why: Why::Lifecycle,
            });
            return Update::Planned;
        }
        lifecycle::UPDATED if lifecycle::is_configured(hook) => {
            let mut patch = label_patch(
                pod,
                &[(lifecycle::STATE_LABEL, Some(lifecycle::PREPARING_UPDATE))],
                &[(lifecycle::TIMESTAMP_ANNOTATION, Some(&now))],
            );
            if let Some(h) = hook {
                for (k, v) in h.labels_handler.iter().flatten() {
                    patch["metadata"]["labels"][k] = json!(v);
                }
                if let Some(f) = h.finalizers_handler.as_ref() {
                    patch["metadata"]["finalizers"] = json!(f);
                }
            }
            steps.actions.push(Action::PatchPod {
                name,
                patch,
                why: Why::Lifecycle,
            });
            return Update::Planned;
        }
        lifecycle::PREPARING_UPDATE if lifecycle::is_hooked(pod, hook) => return Update::Held,
        ""
        | lifecycle::PREPARING_NORMAL
        | lifecycle::NORMAL
        | lifecycle::PREPARING_UPDATE
        | lifecycle::UPDATING
        | lifecycle::UPDATED => {}
        _ => return Update::Held,
    }

    if !images.is_empty()
        && let Some(p) = patch::gate_false(pod, &now)
    {
        steps.actions.push(Action::PatchPodStatus {
            name: name.clone(),
            patch: p,
            why: Why::UpdatePodInPlace,
        });
    }
    let mut extra_labels = BTreeMap::new();
    if let Some(label) = ctx.hash_label {
        extra_labels.insert(label.to_string(), Some(short_hash(target_name).to_string()));
    }
    let mut extra_annotations = BTreeMap::new();
    if lifecycle::is_configured(hook) {
        extra_labels.insert(
            lifecycle::STATE_LABEL.to_string(),
            Some(lifecycle::UPDATING.to_string()),
        );
        extra_annotations.insert(lifecycle::TIMESTAMP_ANNOTATION.to_string(), Some(now.clone()));
    }
    let update = InPlaceUpdate {
        target_revision: target_name,
        images: &images,
        metadata: &metadata,
        grace_seconds: ctx.grace_seconds,
        extra_labels,
        extra_annotations,
    };
    steps.actions.push(Action::PatchPod {
        name,
        patch: patch::update_pod(pod, &update, &now),
        why: Why::UpdatePodInPlace,
    });
    if ctx.grace_seconds > 0 && !images.is_empty() {
        steps.wake(Duration::from_secs(ctx.grace_seconds.unsigned_abs().into()));
    }
    Update::Planned
}
