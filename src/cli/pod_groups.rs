//! The shape the pod-grouping tree views share (`get sidecarset/NAME --tree`, `get
//! ws/NAME --tree`): a root line, then groups of pods, each pod one line of icon, name,
//! word and detail, the names and words in aligned columns. Pure.
//!
//! Invariant: every pod line carries an icon and a word, so the tree reads without colour;
//! trailing spaces are trimmed.
use k8s_openapi::api::core::v1::Pod;
use kube::ResourceExt;

use super::glyphs::Glyphs;
use super::tree::Branches;
use crate::workloads::common::availability::running_ready;

/// One pod line: icon, name, word, detail.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PodLine {
    pub icon: &'static str,
    pub name: String,
    pub word: String,
    pub detail: String,
}

/// One group of pods under the root.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Group {
    pub title: String,
    pub pods: Vec<PodLine>,
}

/// `1 pod`, `N pods`.
pub fn plural(n: usize) -> String {
    if n == 1 {
        "1 pod".into()
    } else {
        format!("{n} pods")
    }
}

/// The icon and word of a pod: ready, its phase, or Terminating.
fn state(pod: &Pod, glyphs: Glyphs) -> (&'static str, String) {
    if pod.metadata.deletion_timestamp.is_some() {
        return (glyphs.progress, "Terminating".into());
    }
    if running_ready(pod) {
        return (glyphs.done, "ready".into());
    }
    match phase(pod).as_str() {
        "Failed" => (glyphs.failed, "Failed".into()),
        "Succeeded" => (glyphs.idle, "Succeeded".into()),
        "Unknown" => (glyphs.unknown, "Unknown".into()),
        "Running" => (glyphs.progress, "not ready".into()),
        other => (glyphs.progress, other.into()),
    }
}

/// `status.phase`, `Pending` when the pod has no status yet.
pub fn phase(pod: &Pod) -> String {
    pod.status
        .as_ref()
        .and_then(|s| s.phase.clone())
        .unwrap_or_else(|| "Pending".into())
}

pub fn node_of(pod: &Pod) -> String {
    pod.spec
        .as_ref()
        .and_then(|s| s.node_name.clone())
        .unwrap_or_default()
}

/// A pod's line: its state, name and node.
pub fn pod_line(pod: &Pod, glyphs: Glyphs) -> PodLine {
    let (icon, word) = state(pod, glyphs);
    PodLine {
        icon,
        name: pod.name_any(),
        word,
        detail: node_of(pod),
    }
}

/// Draws the root line and the groups.
pub fn draw(root: &str, groups: &[Group], glyphs: Glyphs) -> String {
    let b = Branches::of(glyphs);
    let lines = || groups.iter().flat_map(|g| &g.pods);
    let name_width = lines().map(|p| p.name.chars().count()).max().unwrap_or(0);
    let word_width = lines().map(|p| p.word.chars().count()).max().unwrap_or(0);
    let mut out = format!("{root}\n");
    for (i, group) in groups.iter().enumerate() {
        let last_group = i + 1 == groups.len();
        let branch = if last_group { b.last } else { b.mid };
        out.push_str(&format!("{branch}{}\n", group.title));
        let indent = if last_group { b.blank } else { b.through };
        for (j, pod) in group.pods.iter().enumerate() {
            let branch = if j + 1 == group.pods.len() { b.last } else { b.mid };
            let line = format!(
                "{indent}{branch}{} {:name_width$}  {:word_width$}  {}",
                pod.icon, pod.name, pod.word, pod.detail
            );
            out.push_str(line.trim_end());
            out.push('\n');
        }
    }
    out
}
