//! How `rollout status` shows a [`Report`] (docs/cli.md, output):
//!
//! - *live*: stdout is a terminal — a fixed-height area redrawn by indicatif at most 4
//!   times a second: the progress line, an overall bar (updated ready / expected) and one
//!   line per pod, trimmed to the terminal height with a `+N more` line and to its width;
//!   on exit the area is cleared and one summary line is left behind;
//! - *plain*: lines only appended, one per change of the progress line, never the same
//!   line twice in a row;
//! - *jsonl*: one JSON object per change of the report (with `time`); *json*/*yaml*: the
//!   final report as one document.
//!
//! Invariant: only the live view draws, and only on a terminal; every other mode writes
//! whole lines to stdout. [`live_lines`] is pure so the screen layout is table-tested.
use console::Style;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use serde_json::json;

use super::assess::{Phase, PodState, Report};
use crate::cli::glyphs::Glyphs;

/// Where the reports go.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    Live,
    Plain,
    Json,
    Yaml,
    Jsonl,
}

fn phase_icon(phase: Phase, g: &Glyphs) -> &'static str {
    match phase {
        Phase::Progressing => g.progress,
        Phase::Paused => g.paused,
        Phase::Complete => g.done,
        Phase::Failed => g.failed,
    }
}

fn pod_icon(state: PodState, g: &Glyphs) -> &'static str {
    match state {
        PodState::Old => g.idle,
        PodState::Ready => g.done,
        PodState::Failing => g.failed,
        PodState::UpdatingInPlace | PodState::Terminating | PodState::Starting | PodState::WaitingForGate => {
            g.progress
        }
    }
}

fn pod_style(state: PodState, colour: bool) -> Style {
    let style = Style::new().force_styling(colour);
    match state {
        PodState::Ready => style.green(),
        PodState::Failing => style.red(),
        PodState::Old => style.dim(),
        _ => style.yellow(),
    }
}

/// The overall bar: `[#####.....] 5/10 updated ready`.
fn bar(done: i64, total: i64, g: &Glyphs, width: usize) -> String {
    let cells = width.clamp(10, 40);
    let filled = if total <= 0 {
        cells
    } else {
        (done.clamp(0, total) as usize * cells) / total as usize
    };
    let (full, empty) = if g.unicode { ("█", "░") } else { ("#", ".") };
    format!(
        "[{}{}] {done}/{total} updated ready",
        full.repeat(filled),
        empty.repeat(cells - filled)
    )
}

/// The live area for a terminal of `width` x `height`: at most `height - 1` lines (one is
/// left for the cursor), each at most `width` columns.
pub fn live_lines(report: &Report, g: &Glyphs, colour: bool, width: usize, height: usize) -> Vec<String> {
    let width = width.max(20);
    let room = height.saturating_sub(1).max(3);
    let mut lines = vec![
        format!("{} {}", phase_icon(report.phase, g), report.line),
        bar(
            report.counts.updated_ready,
            report.counts.expected_updated,
            g,
            width / 3,
        ),
    ];
    let name_width = report.pods.iter().map(|p| p.name.len()).max().unwrap_or(0);
    let state_width = report
        .pods
        .iter()
        .map(|p| p.state.words().len())
        .max()
        .unwrap_or(0);
    let node_width = report.pods.iter().map(|p| p.node.len()).max().unwrap_or(0);
    let pod_lines: Vec<(PodState, String)> = report
        .pods
        .iter()
        .map(|p| {
            let text = format!(
                "  {} {:<name_width$}  {:<state_width$}  {:<node_width$}  {}",
                pod_icon(p.state, g),
                p.name,
                p.state.words(),
                p.node,
                p.detail
            );
            (p.state, text.trim_end().to_string())
        })
        .collect();
    let fits = room - lines.len();
    let (shown, hidden) = if pod_lines.len() > fits {
        (fits.saturating_sub(1), pod_lines.len() - fits.saturating_sub(1))
    } else {
        (pod_lines.len(), 0)
    };
    lines.extend(pod_lines.iter().take(shown).map(|(state, text)| {
        let cut = console::truncate_str(text, width, "…").into_owned();
        pod_style(*state, colour).apply_to(cut).to_string()
    }));
    if hidden > 0 {
        lines.push(format!("  +{hidden} more"));
    }
    lines
        .into_iter()
        .map(|l| console::truncate_str(&l, width, "…").into_owned())
        .collect()
}

/// Draws reports in one mode; `finish` leaves the last word behind.
pub struct Renderer {
    mode: Mode,
    glyphs: Glyphs,
    colour: bool,
    bar: Option<ProgressBar>,
    last: Option<String>,
    final_report: Option<Report>,
}

impl Renderer {
    pub fn new(mode: Mode, glyphs: Glyphs, colour: bool) -> Self {
        let bar = (mode == Mode::Live).then(|| {
            let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stdout_with_hz(4));
            bar.set_style(
                ProgressStyle::with_template("{msg}").unwrap_or_else(|_| ProgressStyle::default_bar()),
            );
            bar
        });
        Renderer {
            mode,
            glyphs,
            colour,
            bar,
            last: None,
            final_report: None,
        }
    }

    /// Shows `report` (a no-op when nothing visible changed).
    pub fn show(&mut self, report: &Report, now: &str) -> anyhow::Result<()> {
        match self.mode {
            Mode::Live => {
                let (width, height) = terminal_size();
                let text = live_lines(report, &self.glyphs, self.colour, width, height).join("\n");
                if self.last.as_deref() != Some(&text) {
                    if let Some(bar) = &self.bar {
                        bar.set_message(text.clone());
                    }
                    self.last = Some(text);
                }
            }
            Mode::Plain => {
                if self.last.as_deref() != Some(&report.line) {
                    println!("{}", report.line);
                    self.last = Some(report.line.clone());
                }
            }
            Mode::Jsonl => {
                let same = serde_json::to_string(report)?;
                if self.last.as_deref() != Some(&same) {
                    let mut value = serde_json::to_value(report)?;
                    if let Some(o) = value.as_object_mut() {
                        o.insert("time".into(), json!(now));
                    }
                    println!("{}", serde_json::to_string(&value)?);
                    self.last = Some(same);
                }
            }
            Mode::Json | Mode::Yaml => {}
        }
        self.final_report = Some(report.clone());
        Ok(())
    }

    /// Clears the live area and leaves the summary (or the final document) on stdout.
    pub fn finish(&mut self) -> anyhow::Result<()> {
        if let Some(bar) = self.bar.take() {
            bar.finish_and_clear();
            if let Some(report) = &self.final_report {
                println!("{} {}", phase_icon(report.phase, &self.glyphs), report.line);
            }
        }
        match (self.mode, &self.final_report) {
            (Mode::Json, Some(r)) => println!("{}", serde_json::to_string_pretty(r)?),
            (Mode::Yaml, Some(r)) => print!("{}", serde_saphyr::to_string(r)?),
            _ => {}
        }
        Ok(())
    }
}

fn terminal_size() -> (usize, usize) {
    let (rows, cols) = console::Term::stdout().size();
    (cols as usize, rows as usize)
}

#[cfg(test)]
mod tests {
    use super::super::assess::{Counts, PodRow};
    use super::*;
    use crate::cli::glyphs::{ASCII, UNICODE};

    fn report(pods: usize) -> Report {
        Report {
            kind: "cloneset",
            name: "web".into(),
            phase: Phase::Progressing,
            line: "Waiting for cloneset/web: 1/5 updated, 1/5 updated ready...".into(),
            revision: "web-2".into(),
            revision_number: Some(2),
            counts: Counts {
                replicas: 5,
                updated: 1,
                updated_ready: 1,
                expected_updated: 5,
                ..Counts::default()
            },
            pods: (0..pods)
                .map(|i| PodRow {
                    name: format!("web-{i}"),
                    state: if i == 0 {
                        PodState::UpdatingInPlace
                    } else {
                        PodState::Old
                    },
                    revision: "web-1".into(),
                    node: "node-1".into(),
                    detail: String::new(),
                })
                .collect(),
            held_by: Vec::new(),
        }
    }

    #[test]
    fn the_live_area_shows_the_line_the_bar_and_one_line_per_pod() {
        let lines = live_lines(&report(2), &UNICODE, false, 100, 24);
        assert_eq!(lines.len(), 4);
        assert!(lines[0].starts_with("◌ Waiting for cloneset/web"), "{}", lines[0]);
        assert!(
            lines[1].contains("1/5 updated ready") && lines[1].contains('█'),
            "{}",
            lines[1]
        );
        assert!(
            lines[2].starts_with("  ◌ web-0  updating in place"),
            "{}",
            lines[2]
        );
        assert!(lines[3].starts_with("  • web-1  old revision"), "{}", lines[3]);
    }

    #[test]
    fn the_live_area_is_trimmed_to_the_terminal_with_a_more_line() {
        let lines = live_lines(&report(10), &ASCII, false, 100, 8);
        assert_eq!(lines.len(), 7, "{lines:#?}");
        assert_eq!(lines[6], "  +6 more");
        assert!(lines[1].contains('#') && !lines[1].contains('█'));
        let narrow = live_lines(&report(2), &ASCII, false, 30, 24);
        assert!(
            narrow.iter().all(|l| console::measure_text_width(l) <= 30),
            "{narrow:#?}"
        );
    }

    #[test]
    fn colour_wraps_pod_lines_only_when_asked() {
        let plain = live_lines(&report(1), &UNICODE, false, 100, 24);
        assert!(!plain[2].contains('\u{1b}'));
        let coloured = live_lines(&report(1), &UNICODE, true, 100, 24);
        assert!(coloured[2].contains('\u{1b}'));
    }
}
