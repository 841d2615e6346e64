//! `kubectl kruise rollout step KIND/NAME`: an interactive release, one batch at a time.
//! For each batch it shows the plan (the pods that update next, in the controller's order,
//! and whether each changes in place or is recreated), asks, lowers the partition by the
//! batch size, and follows that batch with `rollout status` until it is ready.
//!
//! Invariants: it never lowers the partition while the previous batch is unfinished or
//! failing (a failing batch stops with exit 3, a paused rollout with exit 5, `--timeout`
//! per batch with exit 4); "no" stops cleanly (exit 0) and says how to continue; no
//! terminal and no `--yes` refuses with exit 2; the partition is written as a number by a
//! merge patch carrying the resourceVersion, retried while the generation is unchanged.
use std::time::Duration;

use clap::Args;
use k8s_openapi::apimachinery::pkg::util::intstr::IntOrString;
use kube::api::{Api, DynamicObject, ListParams};
use kube::{Client, ResourceExt};
use serde_json::{Value, json};

use super::UsageError;
use super::connection::ConnectionArgs;
use super::history::revisions;
use super::install::{DryRun, ask};
use super::status::render::{Mode, Renderer};
use super::status::{StatusArgs, Until};
use super::target::{self, Kind, Target};
use crate::api::cloneset::{CloneSet, CloneSetUpdateStrategyType};
use crate::workloads::cloneset::numbers;
use crate::workloads::cloneset::status::REVISION_LABEL;

pub const HELP: &str = "\
Kinds: cloneset (clone). Hold the rollout first with a partition (set partition cloneset/web
100%, or partition in the manifest), change the template, then step: each batch lists the
pods that update next (in place or recreated), asks, lowers the partition by --batch and
waits for those pods to be ready. It stops at a failing batch (exit 3). The default batch
is the CloneSet's maxUnavailable.

Examples:
  kubectl kruise rollout step cloneset/web
  kubectl kruise rollout step cloneset/web --batch 25% --yes
  kubectl kruise rollout step cloneset/web --dry-run=client";

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
    set: &CloneSet,
    next: i64,
) -> anyhow::Result<Vec<String>> {
    let names = super::partition::next_pods(client, namespace, set, next).await?;
    let history = revisions(client, namespace, Kind::CloneSet, object).await?;
    let update = set
        .status
        .as_ref()
        .and_then(|s| s.update_revision.clone())
        .unwrap_or_default();
    let Some(to) = history.iter().find(|r| r.name == update) else {
        return Ok(names.iter().map(|n| format!("  {n}")).collect());
    };
    let policy = set
        .spec
        .update_strategy
        .as_ref()
        .and_then(|s| s.type_)
        .unwrap_or(CloneSetUpdateStrategyType::ReCreate);
    let pods: Api<k8s_openapi::api::core::v1::Pod> = Api::namespaced(client.clone(), namespace);
    let listed = pods.list(&ListParams::default()).await?.items;
    Ok(names
        .iter()
        .map(|name| {
            let from = listed
                .iter()
                .find(|p| &p.name_any() == name)
                .and_then(|p| p.labels().get(REVISION_LABEL).cloned())
                .and_then(|label| history.iter().find(|r| r.name == label))
                .map(|r| &r.template);
            format!(
                "  {name}: {}",
                super::undo::pod_outcome(from, &to.template, policy)
            )
        })
        .collect())
}

/// Has the controller caught up, and are the pods the partition lets through ready?
fn batch_done(value: &Value) -> bool {
    let status = &value["status"];
    let expected = status["expectedUpdatedReplicas"].as_i64().unwrap_or(0);
    status["observedGeneration"].as_i64() >= value["metadata"]["generation"].as_i64()
        && status["updatedReadyReplicas"].as_i64().unwrap_or(0) >= expected
}

pub async fn run(args: StepArgs, connection: &ConnectionArgs) -> anyhow::Result<()> {
    let targets = target::parse(std::slice::from_ref(&args.target))?;
    let [t] = targets.as_slice() else {
        return Err(UsageError("rollout step takes one workload (see --help)".into()).into());
    };
    if t.kind != Kind::CloneSet {
        return Err(UsageError(format!(
            "rollout step works on cloneset so far, not {}{}",
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
    let id = format!("cloneset/{}", t.name);
    let continue_hint = format!("continue with: kubectl kruise rollout step {id}");
    let mut step = 0;
    loop {
        let object = api.get(&t.name).await?;
        let value = serde_json::to_value(&object)?;
        let set: CloneSet = serde_json::from_value(value.clone())
            .map_err(|e| anyhow::anyhow!("{id} cannot be read as a CloneSet: {e}"))?;
        let strategy = set.spec.update_strategy.clone().unwrap_or_default();
        if strategy.paused == Some(true) {
            anyhow::bail!("{id} is paused; resume it first: kubectl kruise rollout resume {id}");
        }
        if !batch_done(&value) {
            eprintln!("{id}: waiting for the current batch first");
            follow(&args, t, &client, &namespace).await?;
            continue;
        }
        let replicas = i64::from(set.spec.replicas.unwrap_or(1));
        let partition = numbers::partition(strategy.partition.as_ref(), replicas)
            .map_err(|e| anyhow::anyhow!("{id}: {e}"))?;
        let s = set.status.clone().unwrap_or_default();
        if partition == 0 || i64::from(s.updated_replicas) >= replicas {
            println!(
                "{id} fully rolled out (revision {})",
                s.update_revision.unwrap_or_default()
            );
            return Ok(());
        }
        let surge = numbers::max_surge(strategy.max_surge.as_ref(), replicas, false).unwrap_or(0);
        let budget =
            numbers::max_unavailable(strategy.max_unavailable.as_ref(), replicas, surge).unwrap_or(1);
        let batch = batch_size(args.batch.as_deref(), replicas, budget)?;
        let (next, left) = next_partition(partition, batch);
        step += 1;
        let shown = match &strategy.partition {
            Some(IntOrString::String(p)) => format!("{partition} ({p})"),
            _ => partition.to_string(),
        };
        eprintln!(
            "Batch {step} of {}: partition {shown} -> {next}; these pods update:",
            step - 1 + left
        );
        for line in plan(&client, &namespace, &object, &set, next).await? {
            eprintln!("{line}");
        }
        let mut patch = json!({ "spec": { "updateStrategy": { "partition": next } } });
        patch["metadata"] = json!({ "resourceVersion": object.metadata.resource_version });
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
        target::patch_unchanged_spec(&api, &t.name, &params, patch, object.metadata.generation, &id).await?;
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

    #[test]
    fn a_batch_is_done_when_the_generation_is_observed_and_the_updated_pods_are_ready() {
        let v = |generation: i64, observed: i64, ready: i64| {
            json!({ "metadata": { "generation": generation }, "status": {
                "observedGeneration": observed, "expectedUpdatedReplicas": 2, "updatedReadyReplicas": ready } })
        };
        assert!(batch_done(&v(2, 2, 2)));
        assert!(!batch_done(&v(3, 2, 2)));
        assert!(!batch_done(&v(2, 2, 1)));
    }
}
