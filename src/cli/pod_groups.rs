//! The shape the pod-grouping tree views share (`get sidecarset/NAME --tree`, `get
//! ws/NAME --tree`): a root line, then groups of pods, each pod one line of icon, name,
//! word and detail, the names and words in aligned columns. Pure.
//!
//! Invariant: every pod line carries an icon and a word, so the tree reads without colour;
//! trailing spaces are trimmed.
use super::glyphs::Glyphs;
use super::tree::Branches;

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
