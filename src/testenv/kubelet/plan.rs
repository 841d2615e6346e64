//! What the simulated kubelet does next for one pod: a pure function of the pod, the
//! clock and how long the pod has been waiting in its current state.
//!
//! The rules, first match wins (they are mutually exclusive by construction):
//!
//! | rule             | when                                                          | result |
//! |------------------|---------------------------------------------------------------|--------|
//! | delete           | deletionTimestamp set                                         | delete with grace 0 |
//! | (ignore)         | not bound, or phase Succeeded/Failed                          | nothing |
//! | reject           | bound, Pending, a host port another live pod of the node holds | Failed (`NodePorts`), as kubelet admission |
//! | start            | bound, phase Pending/unset, after start + image-pull delay    | Running, containers ready, imageIDs |
//! | in-place restart | Running, a container's status image differs from its spec     | new image/imageID, restartCount + 1 |
//! | complete         | Running, restartPolicy Never/OnFailure, after completion delay | Succeeded; with a non-zero exit-code Failed (Never) or every container restarted, restartCount + 1, Running again (OnFailure) |
//! | post-start       | Running, a running container not ready, its postStart hook over | that container ready |
//! | gates            | Running, images in sync, Ready differs from what gates say    | Ready True/False |
//!
//! A container whose `lifecycle.postStart` is an exec of `sleep N` (or `sh -c "sleep N"`)
//! is reported running but not ready until the first whole second after N seconds from
//! its start: the kubelet reports it on the sync after the hook returns.
//!
//! "Gates say" means: every container ready and every `spec.readinessGates[]`
//! condition True. The kubelet never writes a readiness-gate condition itself.
//!
//! Failures, asked for by pod annotations (comma-separated image lists):
//!
//! | annotation      | on start                                          | on an in-place image change |
//! |-----------------|---------------------------------------------------|-----------------------------|
//! | `pull-fails`    | Pending; that container waiting `ImagePullBackOff` | waiting `ImagePullBackOff`, *old* image and imageID kept, restartCount unchanged |
//! | `crash-images`  | Running; waiting `CrashLoopBackOff`, restartCount 1 | new image and imageID, waiting `CrashLoopBackOff`, restartCount + 1 (once) |
//! | `restart-hangs` | -                                                  | `"true"`: never finished; only gates are applied |
//!
//! The simulated registry (`testenv up`) may also say that two tags share one digest (the
//! same imageID is reported for both) and that an image exits at once without a `command`
//! (as `crash-images`, for the containers that set none).
//!
//! A failing container is not ready, so ContainersReady and Ready turn False. Every failure
//! is idempotent: a pod already showing it gets no further patch. A container waiting
//! `ImagePullBackOff` is retried as soon as its spec image changes (to any other image, the
//! old one included), which is how an undo recovers it.
use std::collections::BTreeMap;
use std::time::Duration;

use k8s_openapi::api::core::v1::{ContainerStatus, Pod};
use k8s_openapi::jiff::Timestamp;
use serde_json::{Value, json};
use sha2::{Digest, Sha256};

use crate::testenv::SIM_ANNOTATION_PREFIX;

/// Delays that apply when a pod carries no annotation of its own.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Defaults {
    pub start_delay: Duration,
    pub image_pull_delay: Duration,
    pub completion_delay: Duration,
}

impl Default for Defaults {
    fn default() -> Self {
        Defaults {
            start_delay: Duration::ZERO,
            image_pull_delay: Duration::ZERO,
            completion_delay: Duration::from_secs(1),
        }
    }
}

/// What the simulated registry knows of images (`testenv up --same-image`,
/// `--exits-without-command`): tags that name one digest, and images whose default command
/// exits at once.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Images {
    /// Image -> the image whose digest it has (reported as its imageID).
    pub same_digest: BTreeMap<String, String>,
    /// Images that exit at once when run without a `command` (busybox's `sh` without a TTY).
    pub exit_without_command: std::collections::BTreeSet<String>,
    /// Images no registry has: pulling them fails (as the `pull-fails` annotation).
    pub missing: std::collections::BTreeSet<String>,
}

impl Images {
    /// The imageID the kubelet reports for `image`.
    pub fn id(&self, image: &str) -> String {
        image_id(self.same_digest.get(image).map_or(image, String::as_str))
    }

    /// Does the container `name` of `pod` exit at once when it runs `image`?
    fn exits(&self, pod: &Pod, name: &str, image: &str) -> bool {
        let container = pod
            .spec
            .as_ref()
            .and_then(|s| s.containers.iter().find(|c| c.name == name));
        let commanded = container.is_some_and(|c| c.command.as_ref().is_some_and(|c| !c.is_empty()));
        !commanded && self.exit_without_command.contains(image)
    }
}

/// What the planner needs besides the pod.
#[derive(Debug, Clone)]
pub struct Context<'a> {
    pub now: Timestamp,
    /// How long the pod has been in the state the chosen rule waits on (see [`WaitKey`]).
    pub waited: Duration,
    pub host_ip: &'a str,
    /// The IP given to the pod if this step starts it.
    pub pod_ip: &'a str,
    pub defaults: Defaults,
    pub images: &'a Images,
    /// Host ports (protocol, port) used by the other live pods of this pod's node.
    pub host_ports_taken: &'a std::collections::BTreeSet<(String, i32)>,
}

/// The state a delay is measured from; the caller remembers when it first saw each.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum WaitKey {
    Start,
    /// Waiting to restart with these spec images (container name -> image).
    Restart(BTreeMap<String, String>),
    /// Running to completion; the restarts so far (an OnFailure restart waits again).
    Completion(i32),
    /// A postStart hook runs (measured from the container's start, not from this key).
    PostStart,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Step {
    Nothing,
    /// Call again after this long (a delay is running); `key` names the state waited on.
    Wait {
        key: WaitKey,
        remaining: Duration,
    },
    /// Strategic-merge patch of the status subresource.
    PatchStatus(Value),
    Delete,
}

/// The wait state the pod is in, if a rule for it has a delay; the caller uses it to
/// measure `Context::waited`.
pub fn wait_key(pod: &Pod) -> Option<WaitKey> {
    let spec = pod.spec.as_ref()?;
    if pod.metadata.deletion_timestamp.is_some() || spec.node_name.as_deref().unwrap_or("").is_empty() {
        return None;
    }
    match phase(pod) {
        "" | "Pending" => Some(WaitKey::Start),
        "Running" if !changed_containers(pod).is_empty() => Some(WaitKey::Restart(spec_images(pod))),
        "Running" if restarts_never(pod) => Some(WaitKey::Completion(restarts(pod))),
        _ => None,
    }
}

/// The next step for `pod`.
pub fn plan(pod: &Pod, ctx: &Context<'_>) -> Step {
    if pod.metadata.deletion_timestamp.is_some() {
        // A pod that still has finalizers stays until they are removed; asking again changes nothing.
        let already = pod.metadata.deletion_grace_period_seconds == Some(0);
        return if already { Step::Nothing } else { Step::Delete };
    }
    let Some(key) = wait_key(pod) else {
        return match phase(pod) {
            "Running" => post_start_step(pod, ctx).unwrap_or_else(|| gates_step(pod, ctx)),
            _ => Step::Nothing,
        };
    };
    if key == WaitKey::Start && start_already_failed(pod, ctx) {
        return Step::Nothing;
    }
    if matches!(key, WaitKey::Restart(_)) && annotation(pod, "restart-hangs").as_deref() == Some("true") {
        return gates_step(pod, ctx);
    }
    let delay = match &key {
        WaitKey::Start => annotation_delay(pod, "start-delay", ctx.defaults.start_delay).saturating_add(
            annotation_delay(pod, "image-pull-delay", ctx.defaults.image_pull_delay),
        ),
        WaitKey::Restart(_) => annotation_delay(pod, "image-pull-delay", ctx.defaults.image_pull_delay),
        WaitKey::Completion(_) => annotation_delay(pod, "completion-delay", ctx.defaults.completion_delay),
        WaitKey::PostStart => Duration::ZERO,
    };
    if ctx.waited < delay {
        // Gates may still flip while a completion delay runs.
        if matches!(key, WaitKey::Completion(_))
            && let step @ Step::PatchStatus(_) = gates_step(pod, ctx)
        {
            return step;
        }
        return Step::Wait {
            key,
            remaining: delay - ctx.waited,
        };
    }
    match key {
        WaitKey::Start if !conflicting_host_ports(pod, ctx).is_empty() => {
            Step::PatchStatus(rejected_patch(pod, ctx))
        }
        WaitKey::Start => Step::PatchStatus(start_patch(pod, ctx)),
        WaitKey::Restart(_) => Step::PatchStatus(restart_patch(pod, ctx)),
        WaitKey::Completion(_) => Step::PatchStatus(completion_patch(pod, ctx)),
        WaitKey::PostStart => Step::Nothing,
    }
}

/// How long the container's postStart hook runs: an exec of `sleep N`, directly or
/// through `sh -c`; zero for any other hook.
fn post_start_delay(pod: &Pod, container: &str) -> Duration {
    let spec = pod
        .spec
        .as_ref()
        .and_then(|s| s.containers.iter().find(|c| c.name == container));
    let command = spec
        .and_then(|c| c.lifecycle.as_ref())
        .and_then(|l| l.post_start.as_ref())
        .and_then(|h| h.exec.as_ref())
        .and_then(|e| e.command.as_deref())
        .unwrap_or_default();
    let words: Vec<&str> = match command {
        [shell, flag, script] if shell.ends_with("sh") && flag == "-c" => script.split_whitespace().collect(),
        _ => command.iter().map(String::as_str).collect(),
    };
    match words.as_slice() {
        ["sleep", n] => n
            .parse::<f64>()
            .ok()
            .filter(|n| n.is_finite() && *n > 0.0)
            .map_or(Duration::ZERO, Duration::from_secs_f64),
        _ => Duration::ZERO,
    }
}

/// Marks ready the running containers whose postStart hook is over, or says how long
/// until the next one is; None when no container waits on its hook.
fn post_start_step(pod: &Pod, ctx: &Context<'_>) -> Option<Step> {
    let mut due = Vec::new();
    let mut next: Option<Duration> = None;
    for s in statuses(pod) {
        let delay = post_start_delay(pod, &s.name);
        let started = s
            .state
            .as_ref()
            .and_then(|st| st.running.as_ref())
            .and_then(|r| r.started_at.as_ref());
        let (false, Some(started), false) = (s.ready, started, delay.is_zero()) else {
            continue;
        };
        let ready_at = started.0 + delay + Duration::from_secs(1);
        match ready_at.duration_since(ctx.now).try_into() {
            Ok(left) if left > Duration::ZERO => next = Some(next.map_or(left, |n: Duration| n.min(left))),
            _ => due.push(s.name.clone()),
        }
    }
    if due.is_empty() {
        return next.map(|remaining| Step::Wait {
            key: WaitKey::PostStart,
            remaining,
        });
    }
    let list: Vec<Value> = statuses(pod)
        .iter()
        .map(|s| {
            let mut value = serde_json::to_value(s).unwrap_or(Value::Null);
            if due.contains(&s.name) {
                value["ready"] = json!(true);
                value["started"] = json!(true);
            }
            value
        })
        .collect();
    let conditions = readiness_conditions(pod, &list, ctx);
    if conditions.is_empty() {
        return Some(Step::PatchStatus(
            json!({ "status": { "containerStatuses": list } }),
        ));
    }
    Some(Step::PatchStatus(
        json!({ "status": { "conditions": conditions, "containerStatuses": list } }),
    ))
}

/// `sim://<image>@sha256:<hex sha256 of the image string>`: stable per image, new per change.
pub fn image_id(image: &str) -> String {
    let digest = Sha256::digest(image.as_bytes());
    let hex: String = digest.iter().map(|b| format!("{b:02x}")).collect();
    format!("sim://{image}@sha256:{hex}")
}

fn phase(pod: &Pod) -> &str {
    pod.status.as_ref().and_then(|s| s.phase.as_deref()).unwrap_or("")
}

fn restarts_never(pod: &Pod) -> bool {
    let policy = pod
        .spec
        .as_ref()
        .and_then(|s| s.restart_policy.as_deref())
        .unwrap_or("Always");
    policy == "Never" || policy == "OnFailure"
}

/// The restarts of the pod's containers, summed.
fn restarts(pod: &Pod) -> i32 {
    statuses(pod).iter().map(|s| s.restart_count).sum()
}

fn annotation(pod: &Pod, name: &str) -> Option<String> {
    let key = format!("{SIM_ANNOTATION_PREFIX}{name}");
    pod.metadata.annotations.as_ref()?.get(&key).cloned()
}

/// Reads a delay such as `1500ms`, `2s`, `1m` or a bare number of seconds.
fn annotation_delay(pod: &Pod, name: &str, default: Duration) -> Duration {
    annotation(pod, name)
        .and_then(|v| crate::duration::parse(&v))
        .unwrap_or(default)
}

fn containers(pod: &Pod) -> &[k8s_openapi::api::core::v1::Container] {
    pod.spec
        .as_ref()
        .map(|s| s.containers.as_slice())
        .unwrap_or_default()
}

fn spec_images(pod: &Pod) -> BTreeMap<String, String> {
    containers(pod)
        .iter()
        .map(|c| (c.name.clone(), c.image.clone().unwrap_or_default()))
        .collect()
}

fn statuses(pod: &Pod) -> &[ContainerStatus] {
    pod.status
        .as_ref()
        .and_then(|s| s.container_statuses.as_deref())
        .unwrap_or_default()
}

/// Names of containers that must be restarted for their spec image: the reported image
/// differs, except for a container already failing to pull exactly that image (it keeps
/// its old image in the status until the spec changes again).
fn changed_containers(pod: &Pod) -> Vec<String> {
    let statuses = statuses(pod);
    spec_images(pod)
        .into_iter()
        .filter(|(name, image)| {
            statuses
                .iter()
                .find(|s| &s.name == name)
                .is_some_and(|s| match pull_failure(s) {
                    Some(failed) => failed != *image,
                    None => &s.image != image,
                })
        })
        .map(|(name, _)| name)
        .collect()
}

const PULL_BACK_OFF: &str = "ImagePullBackOff";
const CRASH_BACK_OFF: &str = "CrashLoopBackOff";

/// Does pulling `image` fail for `pod` (its `pull-fails` annotation, or a missing image)?
fn pull_fails(pod: &Pod, image: &str, ctx: &Context<'_>) -> bool {
    listed(pod, "pull-fails", image) || ctx.images.missing.contains(image)
}

/// Is `image` in the pod's comma-separated `list` annotation?
fn listed(pod: &Pod, list: &str, image: &str) -> bool {
    annotation(pod, list).is_some_and(|v| v.split(',').any(|i| i.trim() == image))
}

fn pull_back_off_message(image: &str) -> String {
    format!("Back-off pulling image \"{image}\"")
}

/// The image a container is failing to pull, read back from its waiting state.
fn pull_failure(status: &ContainerStatus) -> Option<String> {
    let waiting = status.state.as_ref()?.waiting.as_ref()?;
    if waiting.reason.as_deref() != Some(PULL_BACK_OFF) {
        return None;
    }
    let message = waiting.message.as_deref()?;
    let image = message
        .strip_prefix("Back-off pulling image \"")?
        .strip_suffix('"')?;
    Some(image.to_string())
}

/// A pending pod whose status already shows every pull failure its start would produce.
fn start_already_failed(pod: &Pod, ctx: &Context<'_>) -> bool {
    let failing: Vec<(String, String)> = spec_images(pod)
        .into_iter()
        .filter(|(_, image)| pull_fails(pod, image, ctx))
        .collect();
    !failing.is_empty()
        && failing.iter().all(|(name, image)| {
            statuses(pod)
                .iter()
                .any(|s| &s.name == name && pull_failure(s).as_deref() == Some(image))
        })
}

/// A container that cannot pull `image`: waiting, not ready; `image`/`image_id` are what the
/// status keeps showing (the spec image on start, the old one on an in-place change).
fn pull_failed_status(name: &str, shown: (&str, &str), failed: &str, restart: i32) -> Value {
    json!({
        "name": name,
        "image": shown.0,
        "imageID": shown.1,
        "ready": false,
        "started": false,
        "restartCount": restart,
        "state": { "waiting": { "reason": PULL_BACK_OFF, "message": pull_back_off_message(failed) } },
    })
}

/// A container that started with `image` and exited: waiting to be restarted again.
fn crashed_status(pod: &Pod, name: &str, image: &str, restart: i32, ctx: &Context<'_>) -> Value {
    json!({
        "name": name,
        "image": image,
        "imageID": ctx.images.id(image),
        "containerID": container_id(pod, name, restart),
        "ready": false,
        "started": false,
        "restartCount": restart,
        "state": { "waiting": { "reason": CRASH_BACK_OFF,
            "message": format!("back-off restarting failed container {name}") } },
        "lastState": { "terminated": { "exitCode": 1, "reason": "Error",
            "containerID": container_id(pod, name, restart),
            "startedAt": ctx.now.to_string(), "finishedAt": ctx.now.to_string() } },
    })
}

/// ContainersReady, and Ready False when a container is not ready (otherwise the gates
/// rule decides Ready once the images are in sync); a condition already at its status is
/// left alone, so its lastTransitionTime stays true.
fn readiness_conditions(pod: &Pod, containers: &[Value], ctx: &Context<'_>) -> Vec<Value> {
    let all_ready = containers.iter().all(|c| c["ready"] == json!(true));
    let wanted = if all_ready {
        vec![("ContainersReady", "True", None)]
    } else {
        vec![
            ("ContainersReady", "False", Some("ContainersNotReady")),
            ("Ready", "False", Some("ContainersNotReady")),
        ]
    };
    wanted
        .into_iter()
        .filter(|(kind, status, _)| condition_status(pod, kind) != Some(*status))
        .map(|(kind, status, reason)| condition(kind, status, ctx, reason))
        .collect()
}

fn gates(pod: &Pod) -> Vec<String> {
    let gates = pod
        .spec
        .as_ref()
        .and_then(|s| s.readiness_gates.as_deref())
        .unwrap_or_default();
    gates.iter().map(|g| g.condition_type.clone()).collect()
}

fn condition_status<'p>(pod: &'p Pod, kind: &str) -> Option<&'p str> {
    let conditions = pod.status.as_ref()?.conditions.as_ref()?;
    conditions
        .iter()
        .find(|c| c.type_ == kind)
        .map(|c| c.status.as_str())
}

/// Ready as the kubelet computes it: containers ready and every gate condition True.
fn gates_met(pod: &Pod) -> bool {
    let containers_ready = statuses(pod).iter().all(|s| s.ready);
    containers_ready
        && gates(pod)
            .iter()
            .all(|g| condition_status(pod, g) == Some("True"))
}

fn gates_step(pod: &Pod, ctx: &Context<'_>) -> Step {
    let want = if gates_met(pod) { "True" } else { "False" };
    if condition_status(pod, "Ready") == Some(want) {
        return Step::Nothing;
    }
    Step::PatchStatus(
        json!({ "status": { "conditions": [ condition("Ready", want, ctx, reason_for(want)) ] } }),
    )
}

fn reason_for(ready: &str) -> Option<&'static str> {
    (ready == "False").then_some("ReadinessGatesNotReady")
}

fn condition(kind: &str, status: &str, ctx: &Context<'_>, reason: Option<&str>) -> Value {
    // The real kubelet writes whole conditions; in a merge patch, null clears what an
    // earlier writer (a controller flipping readiness) left in reason and message.
    json!({
        "type": kind,
        "status": status,
        "lastTransitionTime": ctx.now.to_string(),
        "reason": reason,
        "message": null,
    })
}

fn container_id(pod: &Pod, container: &str, restart: i32) -> String {
    let uid = pod.metadata.uid.as_deref().unwrap_or("no-uid");
    format!("sim://{uid}-{container}-{restart}")
}

fn running_status(pod: &Pod, name: &str, image: &str, restart: i32, ctx: &Context<'_>) -> Value {
    let hooked = !post_start_delay(pod, name).is_zero();
    json!({
        "name": name,
        "image": image,
        "imageID": ctx.images.id(image),
        "containerID": container_id(pod, name, restart),
        "ready": !hooked,
        "started": !hooked,
        "restartCount": restart,
        "state": { "running": { "startedAt": ctx.now.to_string() } },
    })
}

/// The host ports (protocol, port) `pod` asks for.
pub fn host_ports(pod: &Pod) -> Vec<(String, i32)> {
    containers(pod)
        .iter()
        .flat_map(|c| c.ports.iter().flatten())
        .filter_map(|p| {
            let port = p.host_port.filter(|h| *h > 0)?;
            Some((p.protocol.clone().unwrap_or_else(|| "TCP".into()), port))
        })
        .collect()
}

fn conflicting_host_ports(pod: &Pod, ctx: &Context<'_>) -> Vec<(String, i32)> {
    host_ports(pod)
        .into_iter()
        .filter(|p| ctx.host_ports_taken.contains(p))
        .collect()
}

/// The kubelet refuses a pod whose host port another pod of the node holds: the pod fails
/// (as kubelet admission fails it), and its controller replaces it.
fn rejected_patch(pod: &Pod, ctx: &Context<'_>) -> Value {
    let ports: Vec<String> = conflicting_host_ports(pod, ctx)
        .iter()
        .map(|(proto, port)| format!("{port}/{proto}"))
        .collect();
    json!({ "status": {
        "phase": "Failed",
        "reason": "NodePorts",
        "message": format!("Pod was rejected: node didn't have free ports for the requested pod ports {}", ports.join(", ")),
        "hostIP": ctx.host_ip,
        "startTime": ctx.now.to_string(),
    }})
}

fn start_patch(pod: &Pod, ctx: &Context<'_>) -> Value {
    let spec = pod.spec.as_ref();
    let init: Vec<Value> = spec
        .and_then(|s| s.init_containers.as_deref())
        .unwrap_or_default()
        .iter()
        .map(|c| {
            let image = c.image.clone().unwrap_or_default();
            json!({
                "name": c.name, "image": image, "imageID": ctx.images.id(&image),
                "containerID": container_id(pod, &c.name, 0), "ready": true, "restartCount": 0,
                "state": { "terminated": { "exitCode": 0, "reason": "Completed",
                    "startedAt": ctx.now.to_string(), "finishedAt": ctx.now.to_string() } },
            })
        })
        .collect();
    let containers: Vec<Value> = spec_images(pod)
        .iter()
        .map(|(name, image)| {
            if pull_fails(pod, image, ctx) {
                pull_failed_status(name, (image, ""), image, 0)
            } else if listed(pod, "crash-images", image) || ctx.images.exits(pod, name, image) {
                crashed_status(pod, name, image, 1, ctx)
            } else {
                running_status(pod, name, image, 0, ctx)
            }
        })
        .collect();
    let pulled = !containers
        .iter()
        .any(|c| c["state"]["waiting"]["reason"] == PULL_BACK_OFF);
    let all_ready = containers.iter().all(|c| c["ready"] == json!(true));
    let ready = if gates(pod).is_empty() && all_ready {
        "True"
    } else {
        "False"
    };
    let (containers_ready, ready_reason) = if all_ready {
        ("True", reason_for(ready))
    } else {
        ("False", Some("ContainersNotReady"))
    };
    json!({ "status": {
        "phase": if pulled { "Running" } else { "Pending" },
        "hostIP": ctx.host_ip,
        "hostIPs": [ { "ip": ctx.host_ip } ],
        "podIP": ctx.pod_ip,
        "podIPs": [ { "ip": ctx.pod_ip } ],
        "startTime": ctx.now.to_string(),
        "conditions": [
            condition("PodReadyToStartContainers", "True", ctx, None),
            condition("Initialized", "True", ctx, None),
            condition("ContainersReady", containers_ready, ctx, ready_reason.filter(|_| !all_ready)),
            condition("Ready", ready, ctx, ready_reason),
        ],
        "initContainerStatuses": init,
        "containerStatuses": containers,
    }})
}

/// When the container's current run started (now, if the status does not say).
fn running_since(status: &ContainerStatus, ctx: &Context<'_>) -> String {
    let running = status.state.as_ref().and_then(|st| st.running.as_ref());
    running
        .and_then(|r| r.started_at.as_ref())
        .map(|t| t.0.to_string())
        .unwrap_or_else(|| ctx.now.to_string())
}

fn restart_patch(pod: &Pod, ctx: &Context<'_>) -> Value {
    let changed = changed_containers(pod);
    let spec = spec_images(pod);
    let list: Vec<Value> = statuses(pod)
        .iter()
        .map(|s| {
            let Some(image) = spec.get(&s.name).filter(|_| changed.contains(&s.name)) else {
                return serde_json::to_value(s).unwrap_or(Value::Null);
            };
            if pull_fails(pod, image, ctx) {
                // The old container is gone and the new image never arrives: the status
                // keeps the image it last ran, so the update is visibly not done.
                let shown = (s.image.as_str(), s.image_id.as_str());
                return pull_failed_status(&s.name, shown, image, s.restart_count);
            }
            let restart = s.restart_count + 1;
            if listed(pod, "crash-images", image) || ctx.images.exits(pod, &s.name, image) {
                return crashed_status(pod, &s.name, image, restart, ctx);
            }
            let mut next = running_status(pod, &s.name, image, restart, ctx);
            let started = running_since(s, ctx);
            next["lastState"] = json!({ "terminated": {
                "exitCode": 0, "reason": "Completed", "containerID": s.container_id,
                "startedAt": started, "finishedAt": ctx.now.to_string() } });
            next
        })
        .collect();
    let conditions = readiness_conditions(pod, &list, ctx);
    if conditions.is_empty() {
        // An empty list in a strategic-merge patch is better not sent at all.
        return json!({ "status": { "containerStatuses": list } });
    }
    json!({ "status": { "conditions": conditions, "containerStatuses": list } })
}

fn completion_patch(pod: &Pod, ctx: &Context<'_>) -> Value {
    let code: i32 = annotation(pod, "exit-code")
        .and_then(|v| v.trim().parse().ok())
        .unwrap_or(0);
    let on_failure = pod.spec.as_ref().and_then(|s| s.restart_policy.as_deref()) == Some("OnFailure");
    if code != 0 && on_failure {
        return failed_restart_patch(pod, code, ctx);
    }
    let (phase, reason) = if code == 0 {
        ("Succeeded", "Completed")
    } else {
        ("Failed", "Error")
    };
    let list: Vec<Value> = statuses(pod)
        .iter()
        .map(|s| {
            let started = running_since(s, ctx);
            json!({
                "name": s.name, "image": s.image, "imageID": s.image_id, "containerID": s.container_id,
                "ready": false, "started": false, "restartCount": s.restart_count,
                "state": { "terminated": { "exitCode": code, "reason": reason,
                    "startedAt": started, "finishedAt": ctx.now.to_string() } },
            })
        })
        .collect();
    json!({ "status": {
        "phase": phase,
        "conditions": [
            condition("ContainersReady", "False", ctx, Some("PodCompleted")),
            condition("Ready", "False", ctx, Some("PodCompleted")),
        ],
        "containerStatuses": list,
    }})
}

/// Under `restartPolicy: OnFailure` a container that exits non-zero is restarted: it runs
/// again with restartCount + 1 and the exit in `lastState` (no back-off is simulated).
fn failed_restart_patch(pod: &Pod, code: i32, ctx: &Context<'_>) -> Value {
    let list: Vec<Value> = statuses(pod)
        .iter()
        .map(|s| {
            let restart = s.restart_count + 1;
            let mut next = running_status(pod, &s.name, &s.image, restart, ctx);
            next["lastState"] = json!({ "terminated": {
                "exitCode": code, "reason": "Error", "containerID": s.container_id,
                "startedAt": running_since(s, ctx), "finishedAt": ctx.now.to_string() } });
            next
        })
        .collect();
    json!({ "status": { "containerStatuses": list } })
}

#[cfg(test)]
#[path = "plan_tests.rs"]
mod tests;
