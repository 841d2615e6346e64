//! `kubectl kruise rollout status KIND/NAME`: watches a rollout until it completes, and
//! shows it live on a terminal, as appended lines otherwise, or as JSON (docs/cli.md,
//! output and waiting). The judgement is the pure [`assess::assess`]; the drawing is [`render`].
//!
//! Invariants: the workload, its pods (and a Deployment's ReplicaSets) are watched, not
//! polled; a report is made at most every 250 ms and on each second (so `--stuck-after`
//! and `--timeout` fire without events); the object deleted while watched is exit 1;
//! `--revision N` stops with exit 1 once the update revision is another one.
//!
//! Exit codes: 0 done (or a `--watch=false` snapshot, or paused with `--until paused`),
//! 1 gone or revision moved, 3 failed, 4 `--timeout`, 5 paused with `--fail-on-pause`
//! (or a paused `--exit-status` snapshot), 6 a progressing `--exit-status` snapshot.
pub mod assess;
pub(crate) mod by_object;
pub mod render;
mod watch;

pub use watch::follow;

use std::time::Duration;

use clap::{Args, ValueEnum};

use super::connection::ConnectionArgs;
use assess::{Phase, Report};

pub const HELP: &str = "\
Kinds: cloneset (clone), asts, ads, deployment (deploy); bcj (a BroadcastJob: waits until it
completes or fails, one line per change); sidecarset (its in-place sidecar upgrade, from its
status counters, one line per change); ud (a UnitedDeployment: every subset, from its status,
one line per change). Waits until the rollout completes (generation
observed, updated = expected after the partition, updated pods ready and available, no pod
mid in-place update) and prints `successfully rolled out`. On a terminal it draws a live
view: an overall bar and one line per pod (old revision, updating in place, recreating,
starting, waiting for readiness gate, ready, failing). Piped, it appends one line per change.
While pods wait for the update and a PodUnavailableBudget that counts them allows no more
unavailable pods, the progress line names the budget (`heldBy` in JSON).
Fails fast (exit 3) when an updated pod is in CrashLoopBackOff, ImagePullBackOff,
ErrImagePull or InvalidImageName, or its in-place update is not done after --stuck-after,
or a Kruise workload's spec cannot be read or is refused by its controller (the message
names the field).
Exit codes: 0 done, 1 gone, 3 failed, 4 timeout, 5 paused (--fail-on-pause), 6 still
progressing (--watch=false --exit-status).

Examples:
  kubectl kruise rollout status cloneset/web --timeout 5m
  kubectl kruise rollout status cloneset/web --watch=false --exit-status
  kubectl kruise rollout status deploy/front -o jsonl | jq .phase
  kubectl kruise rollout status clone -l tier=frontend --timeout 10m
  kubectl kruise rollout status sidecarset/log-agent";

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Until {
    /// The completion rule (it already stops at the partition)
    Complete,
    /// Also stop (exit 0) when the rollout is paused
    Paused,
    /// The pods the partition lets through are done (the same rule as complete here)
    Batch,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum StatusOutput {
    Json,
    Yaml,
    Jsonl,
}

#[derive(Debug, Args)]
pub struct StatusArgs {
    /// TYPE/NAME (or TYPE with -l)
    #[arg(value_name = "TYPE/NAME")]
    pub target: String,
    /// Every object of the type whose labels match, one after the other
    #[arg(short = 'l', long)]
    pub selector: Option<String>,
    /// Keep watching until done (false: print one snapshot)
    #[arg(short = 'w', long, default_value_t = true, action = clap::ArgAction::Set, num_args = 0..=1, default_missing_value = "true")]
    pub watch: bool,
    /// Give up after this long (0: wait forever)
    #[arg(long, default_value = "0", value_parser = super::duration)]
    pub timeout: Duration,
    /// With --watch=false: exit 0 only when complete (3 failed, 5 paused, 6 progressing)
    #[arg(long)]
    pub exit_status: bool,
    /// Exit 5 when the rollout is paused instead of waiting
    #[arg(long)]
    pub fail_on_pause: bool,
    /// Where to stop
    #[arg(long, value_enum, default_value = "complete")]
    pub until: Until,
    /// Watch this revision only; exit 1 if the update revision becomes another one
    #[arg(long, value_name = "N")]
    pub revision: Option<i64>,
    /// Fail when an in-place update has not finished after this long
    #[arg(long, default_value = "5m", value_parser = super::duration)]
    pub stuck_after: Duration,
    /// Do not fail on failing pods or stuck in-place updates (only the progress deadline)
    #[arg(long)]
    pub no_fail_fast: bool,
    /// Print the final report (json, yaml) or one JSON object per change (jsonl)
    #[arg(short = 'o', long, value_enum)]
    pub output: Option<StatusOutput>,
    /// Appended lines even on a terminal
    #[arg(long)]
    pub plain: bool,
    /// No colour in the live view
    #[arg(long)]
    pub no_color: bool,
}

/// An error that carries its exit code.
#[derive(Debug, thiserror::Error)]
#[error("{message}")]
pub struct ExitWith {
    pub code: u8,
    pub message: String,
}

/// What to do after a report: None keeps watching, `Some(0)` stops with success,
/// `Some(code)` stops with that exit code.
pub fn decide(report: &Report, args: &StatusArgs) -> Option<u8> {
    let snapshot = !args.watch;
    match report.phase {
        Phase::Complete => Some(0),
        Phase::Failed => Some(3),
        Phase::Paused if args.fail_on_pause || (snapshot && args.exit_status) => Some(5),
        Phase::Paused if args.until == Until::Paused => Some(0),
        Phase::Progressing if snapshot && args.exit_status => Some(6),
        _ if snapshot => Some(0),
        _ => None,
    }
}

pub async fn run(args: StatusArgs, connection: &ConnectionArgs) -> anyhow::Result<()> {
    watch::run(args, connection).await
}

#[cfg(test)]
mod tests {
    use clap::Parser;

    use super::assess::{Counts, Phase, Report};
    use super::*;

    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        args: StatusArgs,
    }

    fn args(extra: &[&str]) -> StatusArgs {
        let mut all = vec!["status", "cloneset/web"];
        all.extend_from_slice(extra);
        Cli::parse_from(all).args
    }

    fn report(phase: Phase) -> Report {
        Report {
            kind: "cloneset",
            name: "web".into(),
            phase,
            line: String::new(),
            revision: String::new(),
            revision_number: None,
            counts: Counts::default(),
            pods: vec![],
            held_by: vec![],
        }
    }

    #[test]
    fn exit_codes_follow_the_phase_and_the_flags() {
        use Phase::*;
        let table: &[(&[&str], Phase, Option<u8>)] = &[
            (&[], Complete, Some(0)),
            (&[], Failed, Some(3)),
            (&[], Paused, None),
            (&[], Progressing, None),
            (&["--fail-on-pause"], Paused, Some(5)),
            (&["--until", "paused"], Paused, Some(0)),
            (&["--watch=false"], Progressing, Some(0)),
            (&["--watch=false"], Paused, Some(0)),
            (&["--watch=false", "--exit-status"], Progressing, Some(6)),
            (&["--watch=false", "--exit-status"], Paused, Some(5)),
            (&["--watch=false", "--exit-status"], Failed, Some(3)),
            (&["--watch=false", "--exit-status"], Complete, Some(0)),
        ];
        for (flags, phase, want) in table {
            assert_eq!(
                decide(&report(*phase), &args(flags)),
                *want,
                "{flags:?} {phase:?}"
            );
        }
    }
}
