//! `kubectl kruise migrate cloneset/NAME --from deployment/NAME`: move a Deployment's pods
//! to a CloneSet step by step. The CloneSet is created (at 0 replicas, the Deployment's
//! selector, template, minReadySeconds and labels) unless it exists; then, each step, the
//! CloneSet grows by at most `--max-surge` pods, and once they are all ready the
//! Deployment shrinks by as many, until the CloneSet has them all and the Deployment none.
//! The Deployment is kept (at 0 replicas): deleting it is the user's call. While a step
//! waits, a terminal shows it live with a bar per workload ([`super::migrate_view`]).
//!
//! Invariants:
//! - The plan ([`plan`]) is pure: the CloneSet only grows and the Deployment only shrinks;
//!   together they never ask for more than the total plus the surge; it ends at (total, 0).
//! - Resumable: the total is recorded on the CloneSet ([`TOTAL_ANNOTATION`]) when it is
//!   created, and every step is planned from the replicas stored now, so a run stopped
//!   at any point (Ctrl-C between or inside a step) goes on from where it is when run
//!   again; a CloneSet that grew without the Deployment shrinking waits for its pods, then
//!   the Deployment shrinks.
//! - Each wait is bounded (`--timeout` per step); a timeout stops with what is stored, to
//!   be resumed. The selector of an existing CloneSet must equal the Deployment's.
use std::time::Duration;

use clap::Args;
use k8s_openapi::api::apps::v1::Deployment;
use k8s_openapi::apimachinery::pkg::util::intstr::IntOrString;
use kube::api::{Api, Patch, PostParams};
use serde_json::json;

use super::migrate_view::{Counts, Step, View};
use crate::api::KruiseKind;
use crate::api::cloneset::CloneSet;
use crate::cli::UsageError;
use crate::cli::connection::ConnectionArgs;
use crate::cli::install::DryRun;
use crate::cli::target::{self, Kind};
use crate::workloads::common::int_or_percent::{self, Amount, Rounding};

/// On the CloneSet: how many pods the migration moves (its end state).
pub const TOTAL_ANNOTATION: &str = "kubectl-kruise.io/migrated-replicas";
/// On the CloneSet: the Deployment it takes the pods of.
pub const FROM_ANNOTATION: &str = "kubectl-kruise.io/migrated-from";

pub const HELP: &str = "\
Moves the pods of a Deployment to a CloneSet, at most --max-surge at a time: the CloneSet
grows, its new pods become ready, then the Deployment shrinks by as many. The CloneSet is
created (at 0 replicas) from the Deployment unless it exists. Stopped (Ctrl-C, a timeout),
it goes on from where it is when run again. The Deployment is left at 0 replicas.

Examples:
  kubectl kruise migrate cloneset/web --from deployment/web
  kubectl kruise migrate cloneset/web --from deploy/web --max-surge 25% --dry-run
  kubectl kruise migrate cloneset/web-v2 --from deploy/web --replicas 4   # move only 4 pods";

#[derive(Debug, Args)]
pub struct MigrateArgs {
    /// The CloneSet to move the pods to (cloneset/NAME)
    #[arg(value_name = "cloneset/NAME")]
    pub target: String,
    /// The Deployment to take them from (deployment/NAME)
    #[arg(long, value_name = "deployment/NAME")]
    pub from: String,
    /// How many pods to move (default: the Deployment's replicas when the migration starts)
    #[arg(long)]
    pub replicas: Option<i32>,
    /// Pods added before as many are removed: a number or a percentage of the total
    #[arg(long, default_value = "1")]
    pub max_surge: String,
    /// How long one step may wait for its pods
    #[arg(long, default_value = "5m", value_parser = crate::cli::duration)]
    pub timeout: Duration,
    /// `client` prints the steps and writes nothing
    #[arg(long, value_enum, default_value = "none", num_args = 0..=1, default_missing_value = "client")]
    pub dry_run: DryRun,
}

/// One write of the migration: the replicas it sets.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Move {
    /// The CloneSet to this many (then wait until they are all ready).
    CloneSet(i32),
    /// The Deployment to this many (then wait until it has no more).
    Deployment(i32),
}

/// The writes that take (CloneSet `c`, Deployment `d`) to (`total`, 0), at most `surge`
/// pods above `total` at a time. Pure.
pub fn plan(total: i32, c: i32, d: i32, surge: i32) -> Vec<Move> {
    let surge = surge.max(1);
    let (mut c, mut d) = (c.max(0), d.max(0));
    let mut moves = Vec::new();
    loop {
        // The Deployment first gives back the pods beyond the total (a step that grew the
        // CloneSet and stopped, or a CloneSet already complete).
        let room = (total - c).max(0);
        if d > room {
            d = room;
            moves.push(Move::Deployment(d));
            continue;
        }
        if c >= total {
            return moves;
        }
        c = (c + surge).min(total);
        moves.push(Move::CloneSet(c));
    }
}

/// `--max-surge` as a pod count of `total` (a percentage rounds up; at least one).
fn surge_of(text: &str, total: i32) -> Result<i32, UsageError> {
    let value = match text.parse::<i32>() {
        Ok(n) => IntOrString::Int(n),
        Err(_) => IntOrString::String(text.to_string()),
    };
    let amount = int_or_percent::parse("--max-surge", &value).map_err(|e| UsageError(e.to_string()))?;
    let pods = match amount {
        Amount::Int(n) => n,
        Amount::Percent(p) => int_or_percent::percent_of(i64::from(total), p, Rounding::Up),
    };
    Ok(i32::try_from(pods.max(1)).unwrap_or(i32::MAX))
}

/// The CloneSet a Deployment's pods move to: its selector, template, minReadySeconds,
/// revisionHistoryLimit and labels, at 0 replicas, recording the total and the source.
fn cloneset_from(deployment: &Deployment, name: &str, total: i32) -> anyhow::Result<CloneSet> {
    let spec = deployment.spec.clone();
    let source = deployment.metadata.name.clone().unwrap_or_default();
    let mut template = serde_json::to_value(&spec.template)?;
    // The Deployment controller's hash label is not the CloneSet's.
    if let Some(labels) = template["metadata"]["labels"].as_object_mut() {
        labels.remove("pod-template-hash");
    }
    let mut cloneset = json!({
        "apiVersion": "apps.kruise.io/v1alpha1", "kind": "CloneSet",
        "metadata": { "name": name, "labels": deployment.metadata.labels,
            "annotations": { TOTAL_ANNOTATION: total.to_string(), FROM_ANNOTATION: format!("deployment/{source}") } },
        "spec": { "replicas": 0, "selector": spec.selector, "template": template },
    });
    if let Some(ready) = spec.min_ready_seconds {
        cloneset["spec"]["minReadySeconds"] = json!(ready);
    }
    if let Some(limit) = spec.revision_history_limit {
        cloneset["spec"]["revisionHistoryLimit"] = json!(limit);
    }
    Ok(serde_json::from_value(cloneset)?)
}

fn one_of(word: &str, kind: Kind, flag: &str) -> Result<String, UsageError> {
    let parsed = target::parse(std::slice::from_ref(&word.to_string()))?;
    match parsed.as_slice() {
        [t] if t.kind == kind => Ok(t.name.clone()),
        _ => Err(UsageError(format!(
            "{flag}: expected {}/NAME, got {word:?}",
            kind.word()
        ))),
    }
}

pub async fn run(args: MigrateArgs, connection: &ConnectionArgs) -> anyhow::Result<()> {
    let name = one_of(&args.target, Kind::Kruise(KruiseKind::CloneSet), "migrate")?;
    let source = one_of(&args.from, Kind::Deployment, "--from")?;
    let (client, namespace) = target::connect(connection).await?;
    let deployments: Api<Deployment> = Api::namespaced(client.clone(), &namespace);
    let clonesets: Api<CloneSet> = Api::namespaced(client.clone(), &namespace);
    let deployment = deployments.get(&source).await?;
    let stored_d = deployment.spec.replicas.unwrap_or(1);
    let existing = clonesets.get_opt(&name).await?;
    let recorded = existing.as_ref().and_then(|c| {
        c.metadata
            .annotations
            .as_ref()?
            .get(TOTAL_ANNOTATION)?
            .parse::<i32>()
            .ok()
    });
    let total = args.replicas.or(recorded).unwrap_or(stored_d);
    let id = format!("cloneset/{name}");
    let stored_c = match &existing {
        Some(set) => {
            if serde_json::to_value(&set.spec.selector)? != serde_json::to_value(&deployment.spec.selector)? {
                anyhow::bail!(
                    "{id}: spec.selector differs from deployment/{source}'s; a migration moves pods between workloads that select the same pods"
                );
            }
            set.spec.replicas.unwrap_or(1)
        }
        None => 0,
    };
    let surge = surge_of(&args.max_surge, total)?;
    let moves = plan(total, stored_c, stored_d, surge);
    eprintln!(
        "migrating {total} pods from deployment/{source} ({stored_d} now) to {id} ({stored_c} now), at most {surge} extra at a time: {} steps",
        moves.len()
    );
    if args.dry_run != DryRun::None {
        if existing.is_none() {
            println!("create {id} with 0 replicas from deployment/{source}");
        }
        for (i, step) in moves.iter().enumerate() {
            match step {
                Move::CloneSet(n) => println!("{}. scale {id} to {n}, wait until {n} are ready", i + 1),
                Move::Deployment(n) => println!("{}. scale deployment/{source} to {n}", i + 1),
            }
        }
        return Ok(());
    }
    if existing.is_none() {
        let created = cloneset_from(&deployment, &name, total)?;
        let params = PostParams {
            field_manager: Some(crate::runtime::context::FIELD_MANAGER.into()),
            ..PostParams::default()
        };
        clonesets.create(&params, &created).await?;
        eprintln!("{id} created with 0 replicas");
    }
    let params = DryRun::None.patch_params();
    let mut view = View::new(
        crate::cli::glyphs::for_locale(),
        format!("deployment/{source}"),
        id.clone(),
        total,
    );
    let steps = moves.len();
    for (i, step) in moves.into_iter().enumerate() {
        let (what, waiting_on) = match step {
            Move::CloneSet(n) => {
                clonesets
                    .patch(
                        &name,
                        &params,
                        &Patch::Merge(json!({ "spec": { "replicas": n } })),
                    )
                    .await?;
                (format!("scale {id} to {n}"), id.clone())
            }
            Move::Deployment(n) => {
                deployments
                    .patch(
                        &source,
                        &params,
                        &Patch::Merge(json!({ "spec": { "replicas": n } })),
                    )
                    .await?;
                let d = format!("deployment/{source}");
                (format!("scale {d} to {n}"), d)
            }
        };
        let mut shown = Step {
            number: i + 1,
            of: steps,
            what,
            waiting_on,
            word: String::new(),
        };
        let until = tokio::time::Instant::now() + args.timeout;
        loop {
            let (set, d) = (clonesets.get(&name).await?, deployments.get(&source).await?);
            let (cs, ds) = (
                set.status.clone().unwrap_or_default(),
                d.status.clone().unwrap_or_default(),
            );
            let counts = Counts {
                deployment_pods: ds.replicas.unwrap_or(0),
                cloneset_pods: cs.replicas,
                cloneset_ready: cs.ready_replicas,
            };
            let (done, word) = match step {
                Move::CloneSet(n) => (
                    cs.observed_generation == set.metadata.generation
                        && cs.ready_replicas >= n
                        && cs.replicas == n,
                    format!("{} of {n} ready", cs.ready_replicas),
                ),
                Move::Deployment(n) => (
                    ds.observed_generation == d.metadata.generation && counts.deployment_pods == n,
                    format!("{} pods", counts.deployment_pods),
                ),
            };
            shown.word = word;
            view.show(&shown, &counts);
            if done {
                break;
            }
            if tokio::time::Instant::now() >= until {
                view.finish();
                anyhow::bail!(
                    "waiting for {}: not done after {}s ({}); run the same command again to go on",
                    shown.waiting_on,
                    args.timeout.as_secs(),
                    shown.word
                );
            }
            tokio::time::sleep(Duration::from_secs(1)).await;
        }
    }
    view.finish();
    println!(
        "{id} migrated: {total} pods; deployment/{source} is at 0 replicas (delete it when you are done)"
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fresh_migration_grows_then_shrinks_by_the_surge() {
        use Move::*;
        assert_eq!(
            plan(3, 0, 3, 1),
            [
                CloneSet(1),
                Deployment(2),
                CloneSet(2),
                Deployment(1),
                CloneSet(3),
                Deployment(0)
            ]
        );
        assert_eq!(
            plan(5, 0, 5, 2),
            [
                CloneSet(2),
                Deployment(3),
                CloneSet(4),
                Deployment(1),
                CloneSet(5),
                Deployment(0)
            ]
        );
        assert_eq!(plan(3, 3, 0, 1), []);
    }

    #[test]
    fn a_stopped_migration_goes_on_from_what_is_stored() {
        use Move::*;
        // Stopped after the CloneSet grew: the Deployment gives the pods back first.
        assert_eq!(plan(3, 2, 2, 1), [Deployment(1), CloneSet(3), Deployment(0)]);
        // The Deployment already at 0 early (the user scaled it): only the CloneSet grows.
        assert_eq!(plan(3, 1, 0, 1), [CloneSet(2), CloneSet(3)]);
        assert_eq!(plan(2, 2, 2, 1), [Deployment(0)]);
    }

    #[test]
    fn every_plan_only_grows_the_cloneset_shrinks_the_deployment_and_stays_within_the_surge() {
        for total in 0..8 {
            for c in 0..=total + 2 {
                for d in 0..=total + 2 {
                    for surge in 1..4 {
                        let (mut cc, mut dd) = (c, d);
                        for step in plan(total, c, d, surge) {
                            match step {
                                Move::CloneSet(n) => {
                                    assert!(n > cc, "{total} {c} {d} {surge}: grows");
                                    cc = n;
                                    assert!(
                                        cc + dd <= (total + surge).max(c + d),
                                        "{total} {c} {d} {surge}: surge"
                                    );
                                }
                                Move::Deployment(n) => {
                                    assert!(n < dd, "{total} {c} {d} {surge}: shrinks");
                                    dd = n;
                                }
                            }
                        }
                        if c <= total {
                            assert_eq!((cc, dd), (total, 0), "{total} {c} {d} {surge}: ends");
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn the_surge_is_a_count_or_a_percentage_of_the_total_and_at_least_one() {
        assert_eq!(surge_of("2", 10).expect("n"), 2);
        assert_eq!(surge_of("25%", 10).expect("p"), 3);
        assert_eq!(surge_of("0", 10).expect("n"), 1);
        assert!(surge_of("lots", 10).is_err());
    }
}
