//! `kubectl kruise get KIND/NAME --tree`: one workload, its newest revisions and the pods at
//! each, drawn with box-drawing branches (docs/cli.md, output: trees).
//!
//! ```text
//! cloneset/web  (2/3 updated, 3/3 ready, partition 1)
//! ├─ revision 2  web-6b8d7f  [update]  nginx:1.26
//! │  ├─ ✔ web-abc12  Ready  node-1  updated in place
//! │  └─ ✔ web-def34  Ready  node-2  updated in place
//! │  ── partition: 1 pod held at older revisions ──
//! └─ revision 1  web-5d8f9c  nginx:1.25
//!    └─ • web-ghi56  Ready  node-0
//! ```
//!
//! Where the revisions come from ([`load`]): a CloneSet's, (Advanced) StatefulSet's and
//! (Advanced) DaemonSet's are the ControllerRevisions it controls, and a pod names its own in
//! the `controller-revision-hash` label; a Deployment's are the ReplicaSets it controls
//! (number from `deployment.kubernetes.io/revision`), and a pod names its own in
//! `pod-template-hash`. The pods are the ones the workload controls (owner uid; a
//! Deployment's through its ReplicaSets).
//!
//! Invariants of [`render_tree`] (pure and deterministic):
//! - revisions are newest first (highest number), at most `limit` of them; the update
//!   revision is always shown, even when it is older than those;
//! - a pod is drawn under the revision whose hash (the text after the last `-`) is its own
//!   revision's hash; every other pod is counted in one last `+N pods at older revisions`
//!   line, so no pod disappears silently;
//! - pods under a revision are sorted by name, and every pod line carries an icon *and* a
//!   word, so the tree reads without colour;
//! - the partition marker follows the update revision's pods, and only when the partition
//!   holds pods back;
//! - with a non-unicode glyph set, icons and branches are ASCII.
use k8s_openapi::api::core::v1::{Pod, PodTemplateSpec};
use k8s_openapi::apimachinery::pkg::apis::meta::v1::LabelSelector;
use k8s_openapi::apimachinery::pkg::util::intstr::IntOrString;
use kube::api::{Api, ListParams};
use kube::{Client, ResourceExt};
use serde_json::Value;

use super::glyphs::Glyphs;
use super::history;
use super::status::assess::{FAILING, kind_word};
use super::target::{Kind, Target};
use crate::runtime::cached_pod;
use crate::runtime::inplace::state::{InPlaceUpdateState, READINESS_GATE, pod_condition};
use crate::runtime::revision::REVISION_LABEL;
use crate::workloads::common::int_or_percent as numbers;

/// Everything the tree shows, distilled from the cluster.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TreeInput {
    /// `cloneset/web`.
    pub id: String,
    pub replicas: i64,
    pub updated: i64,
    pub ready: i64,
    /// Pods the partition holds at older revisions (absolute).
    pub partition: i64,
    /// The partition as written, when it is a percentage (`40%`).
    pub partition_raw: Option<String>,
    /// The update revision's name (or hash), when known.
    pub update_revision: Option<String>,
    /// Every revision, in any order.
    pub revisions: Vec<RevisionNode>,
    /// Every pod of the workload, in any order.
    pub pods: Vec<PodNode>,
    /// How many revisions to show (`--revisions`).
    pub limit: usize,
}

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RevisionNode {
    pub number: i64,
    /// The ControllerRevision's or ReplicaSet's name.
    pub name: String,
    /// `nginx:1.26`, or `app=nginx:1.26,log=fluentd:1` with several containers.
    pub images: String,
}

impl RevisionNode {
    pub fn from_revision(revision: &history::Revision) -> Self {
        RevisionNode {
            number: revision.number,
            name: revision.name.clone(),
            images: images(&revision.template),
        }
    }
}

/// The facts of one pod the tree uses.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PodNode {
    pub name: String,
    /// Its revision label's value (a revision name or hash); empty when unlabelled.
    pub revision: String,
    pub node: String,
    /// `status.phase`; empty when the pod has no status yet.
    pub phase: String,
    /// Ready condition True and no in-place update running.
    pub ready: bool,
    pub terminating: bool,
    /// `InPlaceUpdateReady` is False: containers are being updated in place.
    pub updating_in_place: bool,
    /// The first failing waiting reason of a container (`CrashLoopBackOff`, ...).
    pub failing: Option<String>,
    /// Container restarts, summed.
    pub restarts: i64,
    /// The pod reached its revision by an in-place update (its in-place state names it).
    pub updated_in_place: bool,
}

impl PodNode {
    /// The pod's facts; `revision_label` is the label naming its revision.
    pub fn from_resource(pod: &Pod, revision_label: &str) -> Self {
        let revision = pod.labels().get(revision_label).cloned().unwrap_or_default();
        let status = pod.status.as_ref();
        let containers = status
            .and_then(|s| s.container_statuses.as_deref())
            .unwrap_or_default();
        let is = |kind: &str, want: &str| pod_condition(pod, kind).is_some_and(|c| c.status == want);
        let updating_in_place = is(READINESS_GATE, "False");
        let updated_in_place = match InPlaceUpdateState::of(pod) {
            Some(Ok(state)) => !revision.is_empty() && same_revision(&state.revision, &revision),
            _ => false,
        };
        PodNode {
            name: pod.name_any(),
            node: pod
                .spec
                .as_ref()
                .and_then(|s| s.node_name.clone())
                .unwrap_or_default(),
            phase: status.and_then(|s| s.phase.clone()).unwrap_or_default(),
            ready: is("Ready", "True") && !updating_in_place,
            terminating: pod.metadata.deletion_timestamp.is_some(),
            updating_in_place,
            failing: containers.iter().find_map(|c| {
                let reason = c.state.as_ref()?.waiting.as_ref()?.reason.as_deref()?;
                FAILING.contains(&reason).then(|| reason.to_string())
            }),
            restarts: containers.iter().map(|c| i64::from(c.restart_count)).sum(),
            updated_in_place,
            revision,
        }
    }
}

/// A revision's hash: the text after the last `-` (`web-5d8f` and `5d8f` are the same).
fn hash(revision: &str) -> &str {
    revision.rsplit('-').next().unwrap_or(revision)
}

fn same_revision(a: &str, b: &str) -> bool {
    !a.is_empty() && !b.is_empty() && hash(a) == hash(b)
}

fn images(template: &PodTemplateSpec) -> String {
    let containers = template
        .spec
        .iter()
        .flat_map(|s| &s.containers)
        .collect::<Vec<_>>();
    let image = |c: &k8s_openapi::api::core::v1::Container| c.image.clone().unwrap_or_default();
    match containers.as_slice() {
        [one] => image(one),
        many => many
            .iter()
            .map(|c| format!("{}={}", c.name, image(c)))
            .collect::<Vec<_>>()
            .join(","),
    }
}

/// The branch pieces of one glyph set; every piece is three columns wide.
pub(super) struct Branches {
    pub mid: &'static str,
    pub last: &'static str,
    pub through: &'static str,
    pub blank: &'static str,
    pub rule: &'static str,
}

impl Branches {
    pub(super) fn of(glyphs: Glyphs) -> Self {
        if glyphs.unicode {
            Branches {
                mid: "├─ ",
                last: "└─ ",
                through: "│  ",
                blank: "   ",
                rule: "──",
            }
        } else {
            Branches {
                mid: "|- ",
                last: "`- ",
                through: "|  ",
                blank: "   ",
                rule: "--",
            }
        }
    }
}

fn pods(n: usize) -> String {
    if n == 1 {
        "1 pod".into()
    } else {
        format!("{n} pods")
    }
}

/// The icon and the word of a pod; `updated`: it is at the update revision.
fn pod_state(pod: &PodNode, updated: bool, g: Glyphs) -> (&'static str, String) {
    if let Some(reason) = &pod.failing {
        return (g.failed, reason.clone());
    }
    if pod.terminating {
        return (g.progress, "Terminating".into());
    }
    if pod.updating_in_place {
        return (g.progress, "UpdatingInPlace".into());
    }
    match pod.phase.as_str() {
        "Failed" => return (g.failed, "Failed".into()),
        "" | "Unknown" => return (g.unknown, "Unknown".into()),
        _ => {}
    }
    if !pod.ready {
        let word = if pod.phase == "Running" {
            "NotReady"
        } else {
            &pod.phase
        };
        return (g.progress, word.to_string());
    }
    (if updated { g.done } else { g.idle }, "Ready".into())
}

/// The newest `limit` revisions, plus the update revision if it is not among them.
fn shown_revisions(input: &TreeInput) -> Vec<&RevisionNode> {
    let mut all: Vec<&RevisionNode> = input.revisions.iter().collect();
    all.sort_by(|a, b| b.number.cmp(&a.number).then_with(|| a.name.cmp(&b.name)));
    let is_update = |r: &RevisionNode| {
        input
            .update_revision
            .as_deref()
            .is_some_and(|u| same_revision(&r.name, u))
    };
    let mut shown: Vec<&RevisionNode> = all.iter().copied().take(input.limit).collect();
    if !shown.iter().any(|r| is_update(r))
        && let Some(update) = all.iter().find(|r| is_update(r))
    {
        shown.push(update);
    }
    shown
}

/// The tree, one line per node, each ending in a newline.
pub fn render_tree(input: &TreeInput, glyphs: Glyphs) -> String {
    let b = Branches::of(glyphs);
    let mut lines = Vec::new();
    let partition = match (&input.partition_raw, input.partition) {
        (_, 0) => String::new(),
        (Some(raw), n) => format!(", partition {n} ({raw})"),
        (None, n) => format!(", partition {n}"),
    };
    lines.push(format!(
        "{}  ({}/{} updated, {}/{} ready{partition})",
        input.id, input.updated, input.replicas, input.ready, input.replicas
    ));

    let shown = shown_revisions(input);
    let update = input.update_revision.as_deref().unwrap_or_default();
    let mut groups: Vec<Vec<&PodNode>> = vec![Vec::new(); shown.len()];
    let mut elsewhere = 0;
    for pod in &input.pods {
        match shown.iter().position(|r| same_revision(&r.name, &pod.revision)) {
            Some(i) => groups[i].push(pod),
            None => elsewhere += 1,
        }
    }
    // Columns: icon, name, word, node; aligned over the whole tree.
    let mut rows: Vec<Vec<[String; 5]>> = Vec::new();
    for (revision, group) in shown.iter().zip(groups.iter_mut()) {
        group.sort_by(|a, b| a.name.cmp(&b.name));
        let updated = same_revision(&revision.name, update);
        rows.push(
            group
                .iter()
                .map(|pod| {
                    let (icon, word) = pod_state(pod, updated, glyphs);
                    let mut notes = Vec::new();
                    if pod.updated_in_place {
                        notes.push("updated in place".to_string());
                    }
                    if pod.restarts > 0 {
                        notes.push(format!("restarts {}", pod.restarts));
                    }
                    let node = if pod.node.is_empty() { "<none>" } else { &pod.node };
                    [icon.into(), pod.name.clone(), word, node.into(), notes.join(", ")]
                })
                .collect(),
        );
    }
    let mut widths = [0usize; 4];
    for row in rows.iter().flatten() {
        for (w, cell) in widths.iter_mut().zip(row) {
            *w = (*w).max(cell.chars().count());
        }
    }

    let children = shown.len() + usize::from(elsewhere > 0);
    for (i, (revision, rows)) in shown.iter().zip(&rows).enumerate() {
        let last = i + 1 == children;
        let updated = same_revision(&revision.name, update);
        let tag = if updated { "  [update]" } else { "" };
        lines.push(format!(
            "{}revision {}  {}{tag}  {}",
            if last { b.last } else { b.mid },
            revision.number,
            revision.name,
            revision.images
        ));
        let indent = if last { b.blank } else { b.through };
        for (j, row) in rows.iter().enumerate() {
            let branch = if j + 1 == rows.len() { b.last } else { b.mid };
            let cells: Vec<String> = row
                .iter()
                .enumerate()
                .map(|(c, cell)| match widths.get(c) {
                    Some(&width) => format!("{cell:<width$}"),
                    None => cell.clone(),
                })
                .collect();
            lines.push(format!("{indent}{branch}{} {}", cells[0], cells[1..].join("  ")));
        }
        if updated && input.partition > 0 {
            let held = usize::try_from(input.partition).unwrap_or(0);
            lines.push(format!(
                "{indent}{rule} partition: {} held at older revisions {rule}",
                pods(held),
                rule = b.rule
            ));
        }
    }
    if elsewhere > 0 {
        lines.push(format!("{}+{} at older revisions", b.last, pods(elsewhere)));
    }
    lines.iter().map(|l| format!("{}\n", l.trim_end())).collect()
}

/// `spec.selector` as a label-selector string; None when absent or unreadable (then every
/// pod of the namespace is listed and filtered by owner).
fn selector(object: &Value) -> Option<String> {
    let parsed: LabelSelector = serde_json::from_value(object["spec"]["selector"].clone()).ok()?;
    kube::core::Selector::try_from(parsed).ok().map(|s| s.to_string())
}

/// Reads the workload, its revisions and its pods. A missing workload is the server's
/// NotFound error.
pub async fn load(
    client: &Client,
    namespace: &str,
    target: &Target,
    limit: usize,
) -> anyhow::Result<TreeInput> {
    let object = target.api(client, namespace).get(&target.name).await?;
    let value = serde_json::to_value(&object)?;
    let kind = target.kind;
    let revisions = history::revisions(client, namespace, kind, &object).await?;

    let params = selector(&value).map_or_else(ListParams::default, |s| ListParams::default().labels(&s));
    let listed = cached_pod::list(&Api::namespaced(client.clone(), namespace), &params).await?;
    let uid = object.uid().unwrap_or_default();
    let controlled = |pod: &Pod| {
        pod.owner_references().iter().any(|o| {
            o.controller == Some(true)
                && if kind == Kind::Deployment {
                    o.kind == "ReplicaSet" && revisions.iter().any(|r| r.name == o.name)
                } else {
                    o.uid == uid
                }
        })
    };
    let label = if kind == Kind::Deployment {
        "pod-template-hash"
    } else {
        REVISION_LABEL
    };
    let pods = listed
        .iter()
        .filter(|p| controlled(p))
        .map(|p| PodNode::from_resource(p, label))
        .collect();

    let (spec, status) = (&value["spec"], &value["status"]);
    let newest = revisions.iter().max_by_key(|r| r.number).map(|r| r.name.clone());
    let update_revision = match kind.facts().reports_update_revision() {
        false => newest,
        true => status["updateRevision"]
            .as_str()
            .or_else(|| status["daemonSetHash"].as_str())
            .filter(|s| !s.is_empty())
            .map(str::to_string)
            .or(newest),
    };
    let numbers = kind.numbers(&value);
    let (replicas, updated, ready) = (numbers.replicas, numbers.updated, numbers.ready);
    // Where the kind keeps it (paths start at `spec`).
    let raw = kind
        .partition_path(&value)
        .map_or(&Value::Null, |path| super::target::value_at(spec, &path[1..]));
    // An unreadable partition is shown as none rather than failing the whole view.
    let raw: Option<IntOrString> = serde_json::from_value(raw.clone()).ok().flatten();
    Ok(TreeInput {
        id: format!("{}/{}", kind_word(kind), target.name),
        replicas,
        updated,
        ready,
        partition: numbers::partition(raw.as_ref(), replicas).unwrap_or(0),
        partition_raw: match raw {
            Some(IntOrString::String(p)) => Some(p),
            _ => None,
        },
        update_revision,
        revisions: revisions.iter().map(RevisionNode::from_revision).collect(),
        pods,
        limit,
    })
}

#[cfg(test)]
#[path = "tree_tests.rs"]
mod tests;
