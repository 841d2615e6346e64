//! `kubectl kruise rollout step KIND/NAME`: an interactive release, one batch at a time.
//! For each batch it shows the plan (the pods that update next, in the controller's order,
//! and whether each changes in place or is recreated), asks, lowers the partition by the
//! batch size, and follows that batch with `rollout status` until it is ready.
//!
//! Invariants: it never lowers the partition while the previous batch is unfinished or
//! failing (a failing batch stops with exit 3, a paused rollout with exit 5, `--timeout`
//! per batch with exit 4); "no" stops cleanly (exit 0) and says how to continue; no
//! terminal and no `--yes` refuses with exit 2; the partition is written as a number by a
//! patch guarded by the generation it was planned from.
use std::time::Duration;

use clap::Args;
use kube::api::{Api, DynamicObject, ListParams};
use kube::{Client, ResourceExt};

use super::UsageError;
use super::connection::ConnectionArgs;
use super::history::revisions;
use super::install::{DryRun, ask};
use super::status::render::{Mode, Renderer};
use super::status::{StatusArgs, Until};
use super::step_kinds::{Facts, batch_done};
use super::target::{self, Kind, Target};
use crate::runtime::revision::REVISION_LABEL;
use crate::runtime::revision::short_hash;

pub const HELP: &str = "\
Kinds: cloneset (clone), asts (Advanced StatefulSet), ads (Advanced DaemonSet: its batches
are nodes). Hold the rollout first with a partition (set partition cloneset/web 100%, or
partition in the manifest), change the template, then step: each batch lists the pods
that update next (in place or recreated),
asks, lowers the partition by --batch and waits for those pods to be ready. It stops at a
failing batch (exit 3). The default batch is the workload's maxUnavailable.

Examples:
  kubectl kruise rollout step cloneset/web
  kubectl kruise rollout step cloneset/web --batch 25% --yes
  kubectl kruise rollout step cloneset/web --dry-run=client
  kubectl kruise rollout step asts/db --batch 1
  kubectl kruise rollout step ads/node-agent --batch 2";

#[derive(Debug, Args)]
pub struct StepArgs {
    /// TYPE/NAME
    #[arg(value_name = "TYPE/NAME")]
    pub target: String,
    /// Pods per batch: a number or a percentage of replicas (default: maxUnavailable)
    #[arg(long, value_name = "N|P%")]
    pub batch: Option<String>,
    /// Do not ask before each batch
    #[arg(short = 'y', long)]
    pub yes: bool,
    /// Give up on a batch after this long (0: wait forever)
    #[arg(long, default_value = "0", value_parser = super::duration)]
    pub timeout: Duration,
    /// Fail a batch whose in-place update has not finished after this long
    #[arg(long, default_value = "5m", value_parser = super::duration)]
    pub stuck_after: Duration,
    /// `client` prints the next batch and the patch without sending it; `server` sends
    /// the first batch's patch with dry-run
    #[arg(long, value_enum, default_value = "none", num_args = 0..=1, default_missing_value = "client")]
    pub dry_run: DryRun,
    /// Appended lines even on a terminal
    #[arg(long)]
    pub plain: bool,
    /// No colour in the live view
    #[arg(long)]
    pub no_color: bool,
}

/// The batch size in pods (at least 1) from `--batch` or the default.
pub fn batch_size(arg: Option<&str>, replicas: i64, default: i64) -> Result<i64, UsageError> {
    let Some(text) = arg else {
        return Ok(default.max(1));
    };
    let bad = || {
        UsageError(format!(
            "--batch {text:?}: expected a number or a percentage like 25%"
        ))
    };
    let value = match text.strip_suffix('%') {
        Some(p) => {
            let p: i64 = p.parse().ok().filter(|p| (1..=100).contains(p)).ok_or_else(bad)?;
            (replicas * p + 99) / 100
        }
        None => text.parse::<i64>().ok().filter(|n| *n >= 1).ok_or_else(bad)?,
    };
    Ok(value.max(1))
}

/// The partition after the next batch, and how many batches are left from `partition`.
pub fn next_partition(partition: i64, batch: i64) -> (i64, i64) {
    let batch = batch.max(1);
    ((partition - batch).max(0), (partition + batch - 1) / batch)
}

fn follow_args(args: &StepArgs) -> StatusArgs {
    StatusArgs {
        target: args.target.clone(),
        selector: None,
        watch: true,
        timeout: args.timeout,
        exit_status: false,
        fail_on_pause: true,
        until: Until::Complete,
        revision: None,
        stuck_after: args.stuck_after,
        no_fail_fast: false,
        output: None,
        plain: args.plain,
        no_color: args.no_color,
    }
}

async fn follow(args: &StepArgs, t: &Target, client: &Client, namespace: &str) -> anyhow::Result<()> {
    use std::io::IsTerminal;
    let status = follow_args(args);
    let live = !args.plain && std::io::stdout().is_terminal();
    let glyphs = super::glyphs::for_locale();
    let colour = super::glyphs::colour(live, args.no_color, |k| std::env::var(k).ok());
    let mut renderer = Renderer::new(if live { Mode::Live } else { Mode::Plain }, glyphs, colour);
    let outcome = super::status::follow(&status, t, client, namespace, &mut renderer).await;
    renderer.finish()?;
    outcome
}

/// The plan lines of the next batch: one per pod, in update order.
async fn plan(
    client: &Client,
    namespace: &str,
    object: &DynamicObject,
    facts: &Facts,
    next: i64,
) -> anyhow::Result<Vec<String>> {
    let value = serde_json::to_value(object)?;
    let names: Vec<String> = super::partition::next_pods(client, namespace, facts.kind, &value, next)
        .await?
        .unwrap_or_default()
        .into_iter()
        .map(|(pod, _)| pod)
        .collect();
    let history = revisions(client, namespace, facts.kind, object).await?;
    let Some(to) = history.iter().find(|r| r.name == facts.update_revision) else {
        return Ok(names.iter().map(|n| format!("  {n}")).collect());
    };
    let pods: Api<k8s_openapi::api::core::v1::Pod> = Api::namespaced(client.clone(), namespace);
    let listed = pods.list(&ListParams::default()).await?.items;
    Ok(names
        .iter()
        .map(|name| {
            let from = listed
                .iter()
                .find(|p| &p.name_any() == name)
                .and_then(|p| p.labels().get(REVISION_LABEL).cloned())
                .and_then(|label| history.iter().find(|r| short_hash(&r.name) == short_hash(&label)))
                .map(|r| &r.template);
            format!(
                "  {name}: {}",
                super::undo::pod_outcome(from, &to.template, facts.policy)
            )
        })
        .collect())
}

pub async fn run(args: StepArgs, connection: &ConnectionArgs) -> anyhow::Result<()> {
    let targets = target::parse(std::slice::from_ref(&args.target))?;
    target::templates_only(&targets, "rollout step")?;
    let [t] = targets.as_slice() else {
        return Err(UsageError("rollout step takes one workload (see --help)".into()).into());
    };
    if !t.kind.facts().steps() {
        return Err(UsageError(format!(
            "rollout step works on cloneset, asts and ads so far, not {}{}",
            t.kind.qualified(),
            if t.kind == Kind::Deployment {
                " (a Deployment has no partition; use rollout pause/resume)"
            } else {
                ""
            }
        ))
        .into());
    }
    batch_size(args.batch.as_deref(), 100, 1)?;
    let (client, namespace) = target::connect(connection).await?;
    let api: Api<DynamicObject> = t.api(&client, &namespace);
    let id = format!("{}/{}", super::status::assess::kind_word(t.kind), t.name);
    let continue_hint = format!("continue with: kubectl kruise rollout step {id}");
    let mut step = 0;
    loop {
        let object = api.get(&t.name).await?;
        let value = serde_json::to_value(&object)?;
        let facts = Facts::of(t.kind, &value, &id)?;
        if facts.paused {
            anyhow::bail!("{id} is paused; resume it first: kubectl kruise rollout resume {id}");
        }
        if !batch_done(t.kind, &value) {
            eprintln!("{id}: waiting for the current batch first");
            follow(&args, t, &client, &namespace).await?;
            continue;
        }
        let (replicas, partition) = (facts.replicas, facts.partition);
        if partition == 0 || facts.updated >= replicas {
            println!("{id} fully rolled out (revision {})", facts.update_revision);
            return Ok(());
        }
        let batch = batch_size(args.batch.as_deref(), replicas, facts.budget)?;
        let (next, left) = next_partition(partition, batch);
        step += 1;
        let shown = match &facts.partition_raw {
            Some(p) => format!("{partition} ({p})"),
            None => partition.to_string(),
        };
        eprintln!(
            "Batch {step} of {}: partition {shown} -> {next}; these pods update:",
            step - 1 + left
        );
        let lines = plan(&client, &namespace, &object, &facts, next).await?;
        if lines.is_empty() {
            eprintln!("  (none left: the pods this batch lets through are already updated)");
        }
        for line in lines {
            eprintln!("{line}");
        }
        let patch = facts.partition_patch(next);
        if args.dry_run == DryRun::Client {
            println!("{}", serde_json::to_string(&patch)?);
            eprintln!("{id} stepped (dry run: nothing sent)");
            return Ok(());
        }
        if args.dry_run == DryRun::None && !ask(&format!("Update batch {step}?"), args.yes)? {
            println!("{id} stopped at partition {partition}; {continue_hint}");
            return Ok(());
        }
        let params = args.dry_run.patch_params();
        target::patch_unchanged_spec(&api, &t.name, &params, &object, &patch, &id).await?;
        if params.dry_run {
            println!("{id} stepped to partition {next} (server dry run)");
            return Ok(());
        }
        if let Err(e) = follow(&args, t, &client, &namespace).await {
            eprintln!("{id}: batch {step} did not finish; not going on");
            return Err(e);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn batches_are_numbers_or_percentages_of_replicas_and_at_least_one() {
        assert_eq!(batch_size(None, 10, 2).ok(), Some(2));
        assert_eq!(batch_size(None, 10, 0).ok(), Some(1));
        assert_eq!(batch_size(Some("3"), 10, 2).ok(), Some(3));
        assert_eq!(batch_size(Some("25%"), 10, 2).ok(), Some(3));
        assert_eq!(batch_size(Some("1%"), 10, 2).ok(), Some(1));
        for bad in ["0", "-1", "x", "0%", "101%"] {
            assert!(batch_size(Some(bad), 10, 2).is_err(), "{bad}");
        }
    }

    #[test]
    fn the_partition_goes_down_by_one_batch_and_never_below_zero() {
        assert_eq!(next_partition(10, 3), (7, 4));
        assert_eq!(next_partition(3, 3), (0, 1));
        assert_eq!(next_partition(2, 3), (0, 1));
        assert_eq!(next_partition(4, 0), (3, 4));
    }
}
