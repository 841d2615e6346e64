//! What `migrate` shows while it waits. On a terminal (stderr), a live area redrawn by
//! indicatif at most 4 times a second: the step (`step 3 of 6: scale cloneset/web to 2`)
//! and one bar per workload (the Deployment's pods, the CloneSet's ready pods, each out of
//! the total moved), cleared at the end. Elsewhere, plain lines on stderr, one per change
//! of the step's word (`  cloneset/web: 1 of 2 ready`).
//!
//! Invariants: only a terminal gets the live area; plain lines are never repeated in a
//! row; [`live_lines`] is pure (table-tested) and fits each line to the width.
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use crate::cli::glyphs::Glyphs;

/// What the two workloads count now.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Counts {
    /// The Deployment's pods (its status).
    pub deployment_pods: i32,
    /// The CloneSet's pods, and the ready ones.
    pub cloneset_pods: i32,
    pub cloneset_ready: i32,
}

/// The step being waited on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Step {
    pub number: usize,
    pub of: usize,
    /// `scale cloneset/web to 2`.
    pub what: String,
    /// The workload waited on (`cloneset/web`) and its word now (`1 of 2 ready`).
    pub waiting_on: String,
    pub word: String,
}

fn bar(done: i32, total: i32, g: &Glyphs, cells: usize) -> String {
    let filled = match total {
        ..=0 => cells,
        _ => (done.clamp(0, total) as usize * cells) / total as usize,
    };
    let (full, empty) = if g.unicode { ("█", "░") } else { ("#", ".") };
    format!("[{}{}]", full.repeat(filled), empty.repeat(cells - filled))
}

fn fit(line: String, width: usize) -> String {
    match line.chars().count() > width {
        true => line.chars().take(width).collect(),
        false => line,
    }
}

/// The live area: the step, then the Deployment's and the CloneSet's bars out of `total`.
pub fn live_lines(
    step: &Step,
    counts: &Counts,
    names: (&str, &str),
    total: i32,
    g: &Glyphs,
    width: usize,
) -> Vec<String> {
    let width = width.max(20);
    let (deployment, cloneset) = names;
    let label = deployment.len().max(cloneset.len());
    let cells = width.saturating_sub(label + 24).clamp(4, 40);
    vec![
        format!(
            "{} step {} of {}: {} ({})",
            g.progress, step.number, step.of, step.what, step.word
        ),
        format!(
            "  {deployment:label$} {} {} of {total} pods",
            bar(counts.deployment_pods, total, g, cells),
            counts.deployment_pods
        ),
        format!(
            "  {cloneset:label$} {} {} of {total} ready",
            bar(counts.cloneset_ready, total, g, cells),
            counts.cloneset_ready
        ),
    ]
    .into_iter()
    .map(|line| fit(line, width))
    .collect()
}

/// Shows the migration's progress live or as plain lines.
pub struct View {
    glyphs: Glyphs,
    names: (String, String),
    total: i32,
    live: Option<ProgressBar>,
    last: String,
}

impl View {
    /// Live when stderr is a terminal.
    pub fn new(glyphs: Glyphs, deployment: String, cloneset: String, total: i32) -> Self {
        let live = console::Term::stderr().is_term().then(|| {
            let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr_with_hz(4));
            bar.set_style(
                ProgressStyle::with_template("{msg}").unwrap_or_else(|_| ProgressStyle::default_bar()),
            );
            bar
        });
        View {
            glyphs,
            names: (deployment, cloneset),
            total,
            live,
            last: String::new(),
        }
    }

    /// Shows `step` with `counts` (a plain line only when the step's word changed).
    pub fn show(&mut self, step: &Step, counts: &Counts) {
        match &self.live {
            Some(bar) => {
                let width = console::Term::stderr().size().1 as usize;
                let names = (self.names.0.as_str(), self.names.1.as_str());
                let lines = live_lines(step, counts, names, self.total, &self.glyphs, width);
                bar.set_message(lines.join("\n"));
            }
            None => {
                let line = format!("  {}: {}", step.waiting_on, step.word);
                if line != self.last {
                    eprintln!("{line}");
                    self.last = line;
                }
            }
        }
    }

    /// Clears the live area.
    pub fn finish(&mut self) {
        if let Some(bar) = self.live.take() {
            bar.finish_and_clear();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::glyphs::{ASCII, UNICODE};

    fn step() -> Step {
        Step {
            number: 3,
            of: 6,
            what: "scale cloneset/web to 2".into(),
            waiting_on: "cloneset/web".into(),
            word: "1 of 2 ready".into(),
        }
    }

    #[test]
    fn the_area_is_the_step_then_one_bar_per_workload_out_of_the_total() {
        let counts = Counts {
            deployment_pods: 2,
            cloneset_pods: 2,
            cloneset_ready: 1,
        };
        let lines = live_lines(
            &step(),
            &counts,
            ("deployment/web", "cloneset/web"),
            4,
            &ASCII,
            80,
        );
        assert_eq!(
            lines,
            [
                ".. step 3 of 6: scale cloneset/web to 2 (1 of 2 ready)",
                "  deployment/web [####################....................] 2 of 4 pods",
                "  cloneset/web   [##########..............................] 1 of 4 ready",
            ]
        );
        let narrow = live_lines(
            &step(),
            &counts,
            ("deployment/web", "cloneset/web"),
            4,
            &UNICODE,
            30,
        );
        assert!(narrow.iter().all(|l| l.chars().count() <= 30), "{narrow:?}");
        assert!(
            narrow[2].starts_with("  cloneset/web   [█░░░]"),
            "the bar shrinks first: {narrow:?}"
        );
    }

    #[test]
    fn a_bar_of_nothing_to_move_is_full_and_counts_never_overflow_it() {
        assert_eq!(bar(0, 0, &ASCII, 10), "[##########]");
        assert_eq!(bar(7, 4, &ASCII, 10), "[##########]");
        assert_eq!(bar(-1, 4, &ASCII, 10), "[..........]");
    }
}
