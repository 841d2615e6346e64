//! The pure judgement of `rollout status`: from the workload (as JSON), its pods and the
//! clock to a [`Report`] — the phase, the progress line and one row per pod.
//!
//! Completion rule (docs/cli.md, waiting): the observed generation caught up; the updated
//! pods reached the number expected after the partition; those pods are ready and
//! available; no pod has its `InPlaceUpdateReady` gate False; no surplus pod is left.
//!
//! Fail fast (unless disabled): the progress deadline passed; an *updated* pod waits in
//! CrashLoopBackOff / ImagePullBackOff / ErrImagePull / InvalidImageName; or an in-place
//! update has had its gate False for longer than `stuck_after`. The message names the pod,
//! the container and the reason. Pods still at an older revision never fail the rollout.
//! A Kruise workload whose spec cannot be read, or that the planner refuses (`InvalidSpec`),
//! fails at once naming the field (no controller rolls it out, so it would never
//! complete); with fail fast off it is waited for.
use std::time::Duration;

use k8s_openapi::api::core::v1::Pod;
use k8s_openapi::jiff::Timestamp;
use kube::ResourceExt;
use serde::Serialize;
use serde_json::Value;

use crate::cli::target::Kind;
use crate::runtime::inplace::patch::GraceSpec;
use crate::runtime::inplace::state::{READINESS_GATE, pod_condition};

/// What the report is made from.
#[derive(Debug, Clone)]
pub struct Observed<'a> {
    pub kind: Kind,
    pub name: &'a str,
    pub object: &'a Value,
    /// The workload's pods, terminating ones included.
    pub pods: &'a [Pod],
    /// The label value an updated pod carries (CloneSet: `status.updateRevision`; a
    /// Deployment: its newest ReplicaSet's `pod-template-hash`).
    pub update_hash: Option<&'a str>,
    /// The update revision's number, when known.
    pub revision_number: Option<i64>,
    pub now: Timestamp,
    /// None: no fail fast (`--no-fail-fast`).
    pub stuck_after: Option<Duration>,
    /// The PodUnavailableBudgets the pods name, as read.
    pub budgets: &'a [Budget],
}

/// A PodUnavailableBudget's numbers, as its status gives them, and the pods that name it
/// (their `related-pub` annotation).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Budget {
    pub name: String,
    pub unavailable_allowed: i64,
    pub current_available: i64,
    pub desired_available: i64,
    pub pods: Vec<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Phase {
    Progressing,
    Paused,
    Complete,
    Failed,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum PodState {
    /// At an older revision (held by the partition, or not reached yet).
    Old,
    /// Its in-place update is running (`InPlaceUpdateReady` False).
    UpdatingInPlace,
    /// Being deleted to be recreated (or scaled away).
    Terminating,
    /// At the update revision, containers not ready yet.
    Starting,
    /// Containers ready, a readiness gate still False.
    WaitingForGate,
    Ready,
    /// A container waits in a failing state, or the in-place update is stuck.
    Failing,
}

impl PodState {
    pub fn words(self) -> &'static str {
        match self {
            PodState::Old => "old revision",
            PodState::UpdatingInPlace => "updating in place",
            PodState::Terminating => "recreating (terminating)",
            PodState::Starting => "starting",
            PodState::WaitingForGate => "waiting for readiness gate",
            PodState::Ready => "ready",
            PodState::Failing => "failing",
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PodRow {
    pub name: String,
    pub state: PodState,
    pub revision: String,
    pub node: String,
    /// Why it is in that state, when there is more to say (reason, images).
    #[serde(skip_serializing_if = "String::is_empty")]
    pub detail: String,
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Counts {
    pub replicas: i64,
    pub updated: i64,
    pub updated_ready: i64,
    pub ready: i64,
    pub available: i64,
    /// Updated pods expected once the partition is applied.
    pub expected_updated: i64,
    /// Pods held back at older revisions by the partition.
    pub partition: i64,
    /// Pods that exist, terminating ones excluded.
    pub total: i64,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Report {
    pub kind: &'static str,
    pub name: String,
    pub phase: Phase,
    /// The progress, done, paused or failure line (docs/cli.md, message style).
    pub line: String,
    pub revision: String,
    #[serde(rename = "revisionNumber", skip_serializing_if = "Option::is_none")]
    pub revision_number: Option<i64>,
    pub counts: Counts,
    pub pods: Vec<PodRow>,
    /// The PodUnavailableBudgets that allow no more unavailable pods while pods still wait
    /// for the update (named in the progress line).
    #[serde(rename = "heldBy", skip_serializing_if = "Vec::is_empty")]
    pub held_by: Vec<String>,
}

/// Waiting reasons that mean a container will not start by itself.
pub const FAILING: &[&str] = &[
    "CrashLoopBackOff",
    "ImagePullBackOff",
    "ErrImagePull",
    "InvalidImageName",
];

/// The word used in progress lines for each kind.
pub fn kind_word(kind: Kind) -> &'static str {
    kind.word()
}

fn count(v: &Value) -> i64 {
    v.as_i64().unwrap_or(0)
}

fn revision_of(kind: Kind, pod: &Pod) -> String {
    let label = if kind == Kind::Deployment {
        "pod-template-hash"
    } else {
        crate::runtime::revision::REVISION_LABEL
    };
    pod.labels().get(label).cloned().unwrap_or_default()
}

/// `(container, reason)` of the first container waiting in a failing state *for its spec
/// image*. A failure left over from an earlier image (the pod was just updated again and
/// the kubelet has not acted yet) does not count: a pull failure whose message names
/// another image, or a crash loop of another image.
fn failing_container(pod: &Pod) -> Option<(String, String)> {
    let statuses = pod.status.as_ref()?.container_statuses.as_ref()?;
    let spec = pod.spec.as_ref()?;
    statuses.iter().find_map(|c| {
        let waiting = c.state.as_ref()?.waiting.as_ref()?;
        let reason = waiting.reason.clone()?;
        if !FAILING.contains(&reason.as_str()) {
            return None;
        }
        let want = spec
            .containers
            .iter()
            .find(|s| s.name == c.name)?
            .image
            .as_deref()?;
        let about = match reason.as_str() {
            "CrashLoopBackOff" => Some(c.image.as_str()),
            _ => waiting.message.as_deref().and_then(quoted),
        };
        if about.is_some_and(|image| !same_image(image, want)) {
            return None;
        }
        Some((c.name.clone(), reason))
    })
}

/// The first `"..."` in a kubelet message (`Back-off pulling image "nginx:broken"`).
fn quoted(message: &str) -> Option<&str> {
    let (_, rest) = message.split_once('"')?;
    rest.split_once('"').map(|(image, _)| image)
}

/// Image references equal once a runtime's normalisation is undone
/// (`docker.io/library/nginx:1` is `nginx:1`; no tag is `:latest`).
fn same_image(a: &str, b: &str) -> bool {
    fn normal(image: &str) -> String {
        let short = image
            .strip_prefix("docker.io/library/")
            .or_else(|| image.strip_prefix("docker.io/"))
            .unwrap_or(image);
        let last = short.rsplit('/').next().unwrap_or(short);
        if last.contains(':') || last.contains('@') {
            short.to_string()
        } else {
            format!("{short}:latest")
        }
    }
    normal(a) == normal(b)
}

/// The containers whose running image differs from the spec (an in-place update's work).
fn changing_containers(pod: &Pod) -> Vec<(String, String, String)> {
    let statuses = pod
        .status
        .as_ref()
        .and_then(|s| s.container_statuses.clone())
        .unwrap_or_default();
    pod.spec
        .iter()
        .flat_map(|s| &s.containers)
        .filter_map(|c| {
            let want = c.image.clone().unwrap_or_default();
            let have = statuses.iter().find(|s| s.name == c.name)?.image.clone();
            (have != want).then(|| (c.name.clone(), have, want))
        })
        .collect()
}

/// The containers a grace period will change: `(container, spec image, pending image)`.
fn pending_images(pod: &Pod, grace: &GraceSpec) -> Vec<(String, String, String)> {
    let spec = pod.spec.iter().flat_map(|s| &s.containers);
    spec.filter_map(|c| {
        let want = grace.container_images.get(&c.name)?;
        let have = c.image.clone().unwrap_or_default();
        (&have != want).then(|| (c.name.clone(), have, want.clone()))
    })
    .collect()
}

/// One container's image change, short when the repository stays the same
/// (`guestbook v1 -> v2`), else in full (`app: nginx:1 -> httpd:2`).
fn image_change(container: &str, have: &str, want: &str) -> String {
    fn split(image: &str) -> (&str, &str) {
        let name_end = image.rfind('/').map(|i| i + 1).unwrap_or(0);
        match image[name_end..].find(['@', ':']) {
            Some(i) => {
                let (repo, tag) = image.split_at(name_end + i);
                (repo, &tag[1..])
            }
            None => (image, ""),
        }
    }
    let ((have_repo, have_tag), (want_repo, want_tag)) = (split(have), split(want));
    if have_repo == want_repo && !have_tag.is_empty() && !want_tag.is_empty() {
        format!("{container} {have_tag} -> {want_tag}")
    } else {
        format!("{container}: {have} -> {want}")
    }
}

fn is_true(pod: &Pod, kind: &str) -> bool {
    pod_condition(pod, kind).is_some_and(|c| c.status == "True")
}

/// How long the pod's in-place gate has been False, if it is.
fn gate_down_for(pod: &Pod, now: Timestamp) -> Option<Duration> {
    let gate = pod_condition(pod, READINESS_GATE).filter(|c| c.status == "False")?;
    let since = gate.last_transition_time.as_ref().map(|t| t.0).unwrap_or(now);
    Some(Duration::try_from(now.duration_since(since)).unwrap_or(Duration::ZERO))
}

fn pod_row(kind: Kind, pod: &Pod, update_hash: Option<&str>, now: Timestamp) -> PodRow {
    let revision = revision_of(kind, pod);
    let updated = update_hash.is_some_and(|h| h == revision);
    let grace = GraceSpec::of(pod);
    let changing = match &grace {
        // During a grace period the spec still has the old images; the pending ones are
        // in the grace annotation.
        Some(g) => pending_images(pod, g),
        None => changing_containers(pod),
    };
    let images = changing
        .iter()
        .map(|(c, have, want)| image_change(c, have, want))
        .collect::<Vec<_>>()
        .join(", ");
    let (state, detail) = if pod.metadata.deletion_timestamp.is_some() {
        (PodState::Terminating, String::new())
    } else if let Some((container, reason)) = failing_container(pod) {
        (PodState::Failing, format!("{container}: {reason}"))
    } else if let Some(down) = gate_down_for(pod, now) {
        let secs = down.as_secs();
        let detail = match &grace {
            Some(g) => format!("{images}, grace {secs}/{}s", g.grace_seconds),
            // Gate closed, images not yet patched: the update's first write.
            None if images.is_empty() && !updated => format!("gate closed, images next ({secs}s)"),
            None if images.is_empty() => format!("new images running, gate not reopened yet ({secs}s)"),
            None => format!("{images} ({secs}s)"),
        };
        (PodState::UpdatingInPlace, detail)
    } else if !updated {
        (PodState::Old, String::new())
    } else if is_true(pod, "Ready") {
        (PodState::Ready, String::new())
    } else if is_true(pod, "ContainersReady") {
        (PodState::WaitingForGate, String::new())
    } else {
        (PodState::Starting, String::new())
    };
    PodRow {
        name: pod.name_any(),
        state,
        revision,
        node: pod
            .spec
            .as_ref()
            .and_then(|s| s.node_name.clone())
            .unwrap_or_default(),
        detail,
    }
}

/// Why no controller rolls a Kruise workload out, if none does: its spec cannot be read
/// (`cannot be read: spec.replicas: invalid type ...`), or it reads but the planner
/// refuses it (the same `InvalidSpec` message the controller's event has: a bad
/// int-or-percent, too many replicas). An Advanced StatefulSet's missing readiness gate is
/// not one: it holds only the update, and a set with nothing to update still completes.
/// Built-in kinds are validated by the API server.
fn invalid_spec(o: &Observed<'_>, id: &str) -> Option<String> {
    o.kind.spec_refusal(o.object, id)
}

/// Why the rollout fails now, if it does.
fn failure(o: &Observed<'_>, id: &str) -> Option<String> {
    let stuck_after = o.stuck_after?;
    let deadline = o.object["status"]["conditions"]
        .as_array()
        .into_iter()
        .flatten()
        .any(|c| c["type"] == "Progressing" && c["reason"] == "ProgressDeadlineExceeded");
    if deadline {
        return Some(format!("{id} has exceeded its progress deadline"));
    }
    let live = o.pods.iter().filter(|p| p.metadata.deletion_timestamp.is_none());
    for pod in live {
        let updated = o.update_hash.is_some_and(|h| h == revision_of(o.kind, pod));
        if !updated {
            continue;
        }
        if let Some((container, reason)) = failing_container(pod) {
            return Some(format!(
                "{id} is failing: pod {} container {container}: {reason}",
                pod.name_any()
            ));
        }
        if let Some(down) = gate_down_for(pod, o.now).filter(|d| *d >= stuck_after) {
            let container = changing_containers(pod)
                .first()
                .map(|c| c.0.clone())
                .or_else(|| pod.spec.as_ref()?.containers.first().map(|c| c.name.clone()))
                .unwrap_or_default();
            return Some(format!(
                "{id} is failing: pod {} container {container}: in-place update not finished after {}s (--stuck-after {}s)",
                pod.name_any(),
                down.as_secs(),
                stuck_after.as_secs()
            ));
        }
    }
    None
}

fn counts(kind: Kind, object: &Value, pods: &[Pod]) -> Counts {
    let n = kind.numbers(object);
    let expected = kind.expected_updated(object);
    Counts {
        replicas: n.replicas,
        updated: n.updated,
        updated_ready: n.updated_ready.unwrap_or_else(|| n.available.min(n.updated)),
        ready: n.ready,
        available: n.available,
        expected_updated: expected,
        partition: (n.replicas - expected).max(0),
        total: pods
            .iter()
            .filter(|p| p.metadata.deletion_timestamp.is_none())
            .count() as i64,
    }
}

/// Judges the rollout.
pub fn assess(o: &Observed<'_>) -> Report {
    let id = format!("{}/{}", kind_word(o.kind), o.name);
    let status = &o.object["status"];
    let c = counts(o.kind, o.object, o.pods);
    let revision = o.update_hash.unwrap_or("").to_string();
    let mut pods: Vec<PodRow> = o
        .pods
        .iter()
        .map(|p| pod_row(o.kind, p, o.update_hash, o.now))
        .collect();
    pods.sort_by(|a, b| (a.state == PodState::Old, &a.name).cmp(&(b.state == PodState::Old, &b.name)));
    let report = |phase, line: String| Report {
        kind: kind_word(o.kind),
        name: o.name.to_string(),
        phase,
        line,
        revision: revision.clone(),
        revision_number: o.revision_number,
        counts: c.clone(),
        pods: pods.clone(),
        held_by: Vec::new(),
    };
    if let Some(problem) = invalid_spec(o, &id) {
        // No controller rolls it out (nor observes its generation) until it is fixed.
        let line = format!("{problem}; nothing is rolled out until it is fixed");
        return match o.stuck_after {
            Some(_) => report(Phase::Failed, line),
            None => report(Phase::Progressing, format!("Waiting for {line}")),
        };
    }
    let generation = count(&o.object["metadata"]["generation"]);
    if count(&status["observedGeneration"]) < generation {
        let line = format!("Waiting for {id}: spec update to be observed...");
        return report(Phase::Progressing, line);
    }
    if let Some(message) = failure(o, &id) {
        return report(Phase::Failed, message);
    }
    let held = if c.partition > 0 {
        let path = o.kind.partition_path(o.object).unwrap_or_default();
        let raw = crate::cli::target::value_at(o.object, path);
        let raw = raw.as_str().map(|p| format!(" ({p})")).unwrap_or_default();
        format!(", partition holds {}{raw}", c.partition)
    } else {
        String::new()
    };
    let gate_down = o.pods.iter().any(|p| gate_down_for(p, o.now).is_some());
    let numbers = o.kind.numbers(o.object);
    let kruise_counts = numbers.updated_available.is_some();
    let updated_available = numbers.updated_available.unwrap_or(c.updated_ready);
    let status_total = numbers.current;
    let done = c.updated >= c.expected_updated
        && c.updated_ready >= c.expected_updated
        && updated_available >= c.expected_updated
        && !gate_down
        && status_total == c.replicas
        && (kruise_counts || c.available >= c.replicas);
    if done {
        let number = o.revision_number.map(|n| format!(" {n}")).unwrap_or_default();
        let named = if revision.is_empty() {
            String::new()
        } else {
            format!("revision{number} {revision}, ")
        };
        let line = format!(
            "{id} successfully rolled out ({named}{}/{} ready{held})",
            c.ready, c.replicas
        );
        return report(Phase::Complete, line);
    }
    let paused = o
        .kind
        .paused_path(o.object)
        .is_some_and(|path| crate::cli::target::value_at(o.object, path).as_bool() == Some(true));
    if paused {
        let line = format!(
            "{id} paused at {}/{} updated; resume with: kubectl kruise rollout resume {id}",
            c.updated, c.replicas
        );
        return report(Phase::Paused, line);
    }
    let in_place = pods
        .iter()
        .filter(|p| p.state == PodState::UpdatingInPlace)
        .count();
    let in_place = if in_place > 0 {
        format!(", {in_place} updating in place")
    } else {
        String::new()
    };
    let holding = holding_budgets(o);
    let budget_line: String = holding
        .iter()
        .map(|b| {
            format!(
                ", PodUnavailableBudget {} allows no more unavailable pods ({} available, {} desired)",
                b.name, b.current_available, b.desired_available
            )
        })
        .collect();
    let line = format!(
        "Waiting for {id}: {}/{} updated, {}/{} updated ready{in_place}{held}{budget_line}...",
        c.updated, c.replicas, c.updated_ready, c.expected_updated
    );
    let mut progressing = report(Phase::Progressing, line);
    progressing.held_by = holding.iter().map(|b| b.name.clone()).collect();
    progressing
}

/// The budgets that hold the rollout: named by a live pod still at an older revision, and
/// allowing no more unavailable pods.
fn holding_budgets<'a>(o: &Observed<'a>) -> Vec<&'a Budget> {
    let waiting: Vec<String> = o
        .pods
        .iter()
        .filter(|p| p.metadata.deletion_timestamp.is_none())
        .filter(|p| o.update_hash.is_none_or(|h| h != revision_of(o.kind, p)))
        .map(|p| p.name_any())
        .collect();
    o.budgets
        .iter()
        .filter(|b| b.unavailable_allowed <= 0)
        .filter(|b| b.pods.iter().any(|n| waiting.contains(n)))
        .collect()
}

#[cfg(test)]
#[path = "assess_tests.rs"]
mod tests;
