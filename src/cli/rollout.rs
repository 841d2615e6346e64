//! `kubectl kruise rollout ...`: the verbs release engineers use on a rollout. This module
//! holds `pause` and `resume` (docs/cli.md, output and mutations), for CloneSet, Advanced
//! StatefulSet and DaemonSet, the built-in Deployment, BroadcastJob, AdvancedCronJob and
//! SidecarSet, and `restart` (every kind with a pod template); the other verbs live in
//! their own modules and are only dispatched here: `status` ([`super::status`]), `step`
//! ([`super::step`]: one batch at a time, through the partition), `history`
//! ([`super::history`]) and `undo` ([`super::undo`]).
//!
//! Invariants: pause and resume are guarded by the generation read just before (status
//! writes meanwhile do not stop them, a spec change does); pausing what is paused (or
//! resuming what runs) writes nothing and says `already ...`; `--dry-run=client` sends
//! nothing and prints the patch.
use anyhow::Context as _;
use clap::{Args, Subcommand};
use kube::api::{Api, DynamicObject, Patch};
use serde_json::json;

use super::connection::ConnectionArgs;
use super::install::{DryRun, Output, confirm};
use super::target::{self, Target};

#[derive(Debug, Subcommand)]
pub enum RolloutVerb {
    /// Wait for a rollout to finish, one line per change
    #[command(after_help = super::status::HELP)]
    Status(super::status::StatusArgs),
    /// Pause the rollout of workloads: no more pods are updated (scaling continues)
    #[command(after_help = PAUSE_HELP)]
    Pause(PauseArgs),
    /// Resume paused rollouts
    #[command(after_help = RESUME_HELP)]
    Resume(PauseArgs),
    /// List the revisions of a workload, or show one with --revision N
    #[command(after_help = super::history::HELP)]
    History(super::history::HistoryArgs),
    /// Go back to an earlier revision, previewing what happens to each pod
    #[command(after_help = super::undo::HELP)]
    Undo(super::undo::UndoArgs),
    /// Restart every pod of workloads (recreated, respecting maxUnavailable)
    #[command(after_help = RESTART_HELP)]
    Restart(RestartArgs),
    /// Release one batch at a time: show the next pods, ask, lower the partition, wait
    #[command(after_help = super::step::HELP)]
    Step(super::step::StepArgs),
}

const RESTART_HELP: &str = "\
Kinds: cloneset (clone), asts, ads, deployment (deploy), statefulset (sts), daemonset (ds).
Sets the pod template annotation kubectl.kubernetes.io/restartedAt (as kubectl does; container
env is never touched). Pods are recreated, in place-capable or not: restarting containers is
the point. Asks on a terminal; --yes skips; no terminal and no --yes refuses.

Examples:
  kubectl kruise rollout restart cloneset/web --yes
  kubectl kruise rollout restart deploy/front --dry-run=client
  kubectl kruise rollout restart clone -l app=web --yes";

#[derive(Debug, Args)]
pub struct RestartArgs {
    /// TYPE/NAME ... or TYPE NAME ... (or TYPE with -l)
    #[arg(required = true, value_name = "TYPE/NAME")]
    pub targets: Vec<String>,
    /// Every object of the type whose labels match this selector
    #[arg(short = 'l', long)]
    pub selector: Option<String>,
    /// Print the updated object in this format instead of one line
    #[arg(short = 'o', long, value_enum)]
    pub output: Option<Output>,
    /// Skip the confirmation
    #[arg(short = 'y', long)]
    pub yes: bool,
    /// `client` prints the patch without sending it; `server` sends it with dry-run
    #[arg(long, value_enum, default_value = "none", num_args = 0..=1, default_missing_value = "client")]
    pub dry_run: DryRun,
}

const PAUSE_HELP: &str = "\
Kinds: cloneset (clone), asts, ads, deployment (deploy); bcj and acj (spec.paused: a
BroadcastJob starts no more pods, an AdvancedCronJob no more runs); sidecarset (its
in-place upgrade stops; injection into new pods goes on). The built-in
StatefulSet and DaemonSet cannot be paused; hold them with a partition instead.

Examples:
  kubectl kruise rollout pause cloneset/web
  kubectl kruise rollout pause clone web api -n shop
  kubectl kruise rollout pause clone -l tier=frontend
  kubectl kruise rollout pause deploy/frontend --dry-run=client";

const RESUME_HELP: &str = "\
Kinds: cloneset (clone), asts, ads, deployment (deploy), bcj, acj, sidecarset.

Examples:
  kubectl kruise rollout resume cloneset/web
  kubectl kruise rollout resume deploy/frontend -o yaml";

#[derive(Debug, Args)]
pub struct PauseArgs {
    /// TYPE/NAME ... or TYPE NAME ... (or TYPE with -l)
    #[arg(required = true, value_name = "TYPE/NAME")]
    pub targets: Vec<String>,
    /// Every object of the type whose labels match this selector
    #[arg(short = 'l', long)]
    pub selector: Option<String>,
    /// `client` prints the patch without sending it; `server` sends it with dry-run
    #[arg(long, value_enum, default_value = "none", num_args = 0..=1, default_missing_value = "client")]
    pub dry_run: DryRun,
    /// Print the updated object in this format instead of one line
    #[arg(short = 'o', long, value_enum)]
    pub output: Option<Output>,
}

pub async fn run(verb: RolloutVerb, connection: &ConnectionArgs) -> anyhow::Result<()> {
    let (args, pause) = match verb {
        RolloutVerb::Pause(a) => (a, true),
        RolloutVerb::Resume(a) => (a, false),
        RolloutVerb::Restart(a) => return restart(a, connection).await,
        RolloutVerb::History(a) => return super::history::run(a, connection).await,
        RolloutVerb::Status(a) => return super::status::run(a, connection).await,
        RolloutVerb::Undo(a) => return super::undo::run(a, connection).await,
        RolloutVerb::Step(a) => return super::step::run(a, connection).await,
    };
    let selection = target::parse_selection(&args.targets, args.selector.as_deref())?;
    let (client, namespace) = target::connect(connection).await?;
    let targets = selection.resolve(&client, &namespace).await?;
    for t in &targets {
        if t.kind.paused_path(&serde_json::Value::Null).is_none() {
            anyhow::bail!(
                "{}/{} cannot be {}: the built-in kind has no pause; hold it with a partition \
                 (kubectl kruise set partition, or spec.updateStrategy.rollingUpdate.partition)",
                t.kind.qualified(),
                t.name,
                if pause { "paused" } else { "resumed" }
            );
        }
    }
    for t in &targets {
        set_paused(&client, &namespace, t, pause, &args).await?;
    }
    Ok(())
}

async fn set_paused(
    client: &kube::Client,
    namespace: &str,
    t: &Target,
    pause: bool,
    args: &PauseArgs,
) -> anyhow::Result<()> {
    let api: Api<DynamicObject> = t.api(client, namespace);
    let id = t.id();
    let (done, already) = if pause {
        ("paused", "already paused")
    } else {
        ("resumed", "already resumed")
    };
    let object = api.get(&t.name).await?;
    let value = serde_json::to_value(&object)?;
    let path = t.kind.paused_path(&value).unwrap_or_default();
    let current = path.iter().fold(&value, |v, k| &v[*k]).as_bool().unwrap_or(false);
    if current == pause {
        return target::print(&object, &id, already, args.output);
    }
    let patch = target::nested(path, json!(pause));
    if args.dry_run == DryRun::Client {
        println!("{}", serde_json::to_string(&patch)?);
        eprintln!("{id} {done} (dry run: nothing sent)");
        return Ok(());
    }
    let params = args.dry_run.patch_params();
    let updated = target::patch_unchanged_spec(&api, &t.name, &params, &object, &patch, &id)
        .await
        .with_context(|| format!("patching {id}"))?;
    let verb = if params.dry_run {
        format!("{done} (server dry run)")
    } else {
        done.to_string()
    };
    target::print(&updated, &id, &verb, args.output)
}

async fn restart(args: RestartArgs, connection: &ConnectionArgs) -> anyhow::Result<()> {
    let selection = target::parse_selection(&args.targets, args.selector.as_deref())?;
    let (client, namespace) = target::connect(connection).await?;
    let targets = selection.resolve(&client, &namespace).await?;
    target::templates_only(&targets, "rollout restart")?;
    let mut objects = Vec::new();
    for t in &targets {
        let api: Api<DynamicObject> = t.api(&client, &namespace);
        let object = api.get(&t.name).await?;
        let value = serde_json::to_value(&object)?;
        let replicas = value["spec"]["replicas"].as_i64();
        let id = t.id();
        match replicas {
            Some(n) => {
                eprintln!("{id}: all {n} pods will be recreated, as many at a time as its rollout allows")
            }
            None => eprintln!("{id}: every pod will be recreated, as many at a time as its rollout allows"),
        }
        objects.push((t, api, id));
    }
    if args.dry_run == DryRun::None {
        confirm("Restart these workloads?", args.yes)?;
    }
    let now = k8s_openapi::jiff::Timestamp::now()
        .strftime("%Y-%m-%dT%H:%M:%SZ")
        .to_string();
    let patch = json!({ "spec": { "template": { "metadata": { "annotations": {
        crate::runtime::inplace::decide::RESTARTED_AT_ANNOTATION: now,
    } } } } });
    for (t, api, id) in objects {
        let name = &t.name;
        if args.dry_run == DryRun::Client {
            println!("{}", serde_json::to_string(&patch)?);
            eprintln!("{id} restarted (dry run: nothing sent)");
            continue;
        }
        let params = args.dry_run.patch_params();
        // Setting one annotation needs no precondition: whatever else changed meanwhile,
        // the restart still applies to it.
        let updated = api
            .patch(name, &params, &Patch::Merge(&patch))
            .await
            .with_context(|| format!("restarting {id}"))?;
        let suffix = if params.dry_run { " (server dry run)" } else { "" };
        target::print(&updated, &id, &format!("restarted{suffix}"), args.output)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::KruiseKind;
    use crate::cli::target::Kind;

    #[test]
    fn the_patch_nests_the_switch_at_the_kind_s_path() {
        let path = Kind::Kruise(KruiseKind::CloneSet)
            .paused_path(&json!({}))
            .expect("pausable");
        assert_eq!(
            target::nested(path, json!(true)),
            json!({ "spec": { "updateStrategy": { "paused": true } } })
        );
        assert_eq!(
            target::nested(
                Kind::Deployment.paused_path(&json!({})).expect("pausable"),
                json!(false)
            ),
            json!({ "spec": { "paused": false } })
        );
        assert!(Kind::StatefulSet.paused_path(&json!({})).is_none());
        let nested = json!({ "spec": { "updateStrategy": { "type": "RollingUpdate" } } });
        assert_eq!(
            target::nested(
                Kind::Kruise(KruiseKind::CloneSet)
                    .paused_path(&nested)
                    .expect("pausable"),
                json!(true)
            ),
            json!({ "spec": { "updateStrategy": { "rollingUpdate": { "paused": true } } } })
        );
    }
}
