//! `kubectl kruise set partition KIND/NAME N|P%`: hold N pods (or P% of them) at the old
//! revision. Prints the absolute number with the raw value (`partition 2 (40%)`), and, for a
//! CloneSet, which pods the controller updates next, in its own update order.
//!
//! Invariants: lowering the partition so that more pods start updating than the rollout's
//! maxUnavailable lets through at once is risky: it is confirmed on a terminal (`--yes`
//! skips; no terminal and no `--yes` refuses with exit 2). The patch is guarded by the
//! generation it was planned from: a spec change meanwhile is refused, status writes are not.
use clap::Args;
use k8s_openapi::api::core::v1::Pod;
use k8s_openapi::apimachinery::pkg::util::intstr::IntOrString;
use k8s_openapi::jiff::Timestamp;
use kube::ResourceExt;
use kube::api::{Api, DynamicObject, ListParams};
use serde_json::{Value, json};

use super::UsageError;
use super::connection::ConnectionArgs;
use super::install::{DryRun, Output, confirm};
use super::target::{self, Kind};
use crate::api::cloneset::CloneSet;
use crate::workloads::cloneset::numbers;
use crate::workloads::cloneset::plan as cs_plan;
use crate::workloads::cloneset::status::is_at_revision;

pub const HELP: &str = "\
Kinds: cloneset (clone), asts, ads, statefulset (sts; a number only), sidecarset (of the
pods it injected), ud (per subset: SUBSET=N). Deployments have no partition. For a CloneSet
the pods that update next are listed, in update order.

Examples:
  kubectl kruise set partition cloneset/web 3
  kubectl kruise set partition cloneset/web 40% --yes
  kubectl kruise set partition sts/db 1 --dry-run=client
  kubectl kruise set partition sidecarset/log-agent 50%
  kubectl kruise set partition ud/web zone-a=2";

#[derive(Debug, Args)]
pub struct PartitionArgs {
    /// TYPE/NAME
    #[arg(value_name = "TYPE/NAME")]
    pub target: String,
    /// Pods to keep at the old revision: a number or a percentage (`40%`; an Advanced
    /// StatefulSet's is sent as the number of pods it resolves to); for a UnitedDeployment
    /// `SUBSET=N`
    #[arg(value_name = "N|P%|SUBSET=N")]
    pub partition: String,
    /// Skip the confirmation
    #[arg(short = 'y', long)]
    pub yes: bool,
    /// Print the updated object in this format instead of one line
    #[arg(short = 'o', long, value_enum)]
    pub output: Option<Output>,
    /// `client` prints the patch without sending it; `server` sends it with dry-run
    #[arg(long, value_enum, default_value = "none", num_args = 0..=1, default_missing_value = "client")]
    pub dry_run: DryRun,
}

fn parse_value(text: &str, kind: Kind) -> Result<IntOrString, UsageError> {
    let bad = || {
        UsageError(format!(
            "partition {text:?}: expected a number or a percentage like 40% (see --help)"
        ))
    };
    if let Some(p) = text.strip_suffix('%') {
        match kind {
            Kind::StatefulSet => {
                return Err(UsageError(
                    "the built-in StatefulSet takes a number of pods, not a percentage".into(),
                ));
            }
            Kind::AdvancedDaemonSet => {
                return Err(UsageError(
                    "an Advanced DaemonSet's partition is a number of pods (spec.updateStrategy.rollingUpdate.partition is an integer), not a percentage".into(),
                ));
            }
            _ => {}
        }
        p.parse::<u32>().ok().filter(|p| *p <= 100).ok_or_else(bad)?;
        return Ok(IntOrString::String(text.to_string()));
    }
    text.parse::<i32>()
        .ok()
        .filter(|n| *n >= 0)
        .map(IntOrString::Int)
        .ok_or_else(bad)
}

/// What goes into the field: a CloneSet keeps an int-or-percent partition; the other kinds'
/// field is an integer, so a percentage is sent as the count it resolves to (40% of 5
/// replicas: 2), never as a string the API server would refuse.
fn stored(kind: Kind, value: IntOrString, absolute: i64) -> IntOrString {
    match value {
        IntOrString::String(_) if !kind.partition_takes_percent() => {
            IntOrString::Int(i32::try_from(absolute).unwrap_or(i32::MAX))
        }
        value => value,
    }
}

pub async fn run(args: PartitionArgs, connection: &ConnectionArgs) -> anyhow::Result<()> {
    let targets = target::parse(std::slice::from_ref(&args.target))?;
    target::no_jobs(&targets, "set partition")?;
    let [t] = targets.as_slice() else {
        return Err(UsageError("set partition takes one workload (see --help)".into()).into());
    };
    if t.kind == Kind::UnitedDeployment {
        let united = super::partition_united::Partition {
            text: &args.partition,
            dry_run: args.dry_run,
            output: args.output,
        };
        return super::partition_united::run(united, t, connection).await;
    }
    if t.kind.partition_path(&Value::Null).is_none() {
        return Err(UsageError(format!(
            "{}/{} has no partition; pause it instead (kubectl kruise rollout pause)",
            t.kind.qualified(),
            t.name
        ))
        .into());
    }
    let value = parse_value(&args.partition, t.kind)?;
    let (client, namespace) = target::connect(connection).await?;
    let api: Api<DynamicObject> = t.api(&client, &namespace);
    let id = t.id();
    let object = api.get(&t.name).await?;
    let raw = serde_json::to_value(&object)?;
    // A DaemonSet's "replicas" are its nodes (desiredNumberScheduled).
    let replicas = t.kind.numbers(&raw).replicas;
    let absolute = numbers::partition(Some(&value), replicas).map_err(|e| UsageError(e.to_string()))?;
    let shown = match &value {
        IntOrString::String(p) if !t.kind.partition_takes_percent() => {
            format!("partition {absolute} ({p} resolved: the field is a number of pods)")
        }
        IntOrString::String(p) => format!("partition {absolute} ({p})"),
        IntOrString::Int(_) => format!("partition {absolute}"),
    };
    let value = stored(t.kind, value, absolute);
    let unit = match t.kind {
        Kind::AdvancedDaemonSet => "nodes",
        Kind::SidecarSet => "injected pods",
        _ => "replicas",
    };
    eprintln!("{id}: {shown} of {replicas} {unit}");

    if t.kind == Kind::CloneSet {
        let set: CloneSet = target::read_as(&raw, &id)?;
        let next = next_pods(&client, &namespace, &set, absolute).await?;
        if next.is_empty() {
            eprintln!("no pod starts updating");
        } else {
            eprintln!("updates next, in this order: {}", next.join(", "));
        }
        let strategy = set.spec.update();
        let surge = numbers::max_surge(strategy.max_surge.as_ref(), replicas, false).unwrap_or(0);
        let budget =
            numbers::max_unavailable(strategy.max_unavailable.as_ref(), replicas, surge).unwrap_or(1);
        if next.len() as i64 > budget.max(1) && args.dry_run == DryRun::None {
            confirm(
                &format!(
                    "{} pods start updating, more than one batch ({budget}); go on?",
                    next.len()
                ),
                args.yes,
            )?;
        }
    }

    if t.kind == Kind::AdvancedDaemonSet {
        let set: crate::api::daemonset::DaemonSet = target::read_as(&raw, &id)?;
        let next: Vec<String> = next_ads_pods(&client, &namespace, &set, absolute)
            .await?
            .into_iter()
            .map(|(pod, node)| format!("{pod} ({node})"))
            .collect();
        if next.is_empty() {
            eprintln!("no node starts updating");
        } else {
            eprintln!("updates next, in this order: {}", next.join(", "));
        }
    }

    let path = t.kind.partition_path(&raw).unwrap_or_default();
    let patch = target::nested(path, json!(value));
    target::send_spec_patch(&api, t, &object, &patch, args.dry_run, args.output, "partitioned").await
}

/// The CloneSet's pods that start updating with `partition`, in the controller's order:
/// the planner's own candidates and order (scatter, priority, PreparingUpdate first, the
/// candidate filters), of which the partition lets the first `old - partition` through.
pub(crate) async fn next_pods(
    client: &kube::Client,
    namespace: &str,
    set: &CloneSet,
    partition: i64,
) -> anyhow::Result<Vec<String>> {
    let Some(update) = set.status.as_ref().and_then(|s| s.update_revision.clone()) else {
        return Ok(Vec::new());
    };
    let selector = kube::core::Selector::try_from(set.spec.selector.clone())
        .map(|s| s.to_string())
        .unwrap_or_default();
    let pods: Api<Pod> = Api::namespaced(client.clone(), namespace);
    let uid = set.uid().unwrap_or_default();
    let list: Vec<Pod> = pods
        .list(&ListParams::default().labels(&selector))
        .await?
        .items
        .into_iter()
        .filter(|p| p.owner_references().iter().any(|o| o.uid == uid))
        .collect();
    let active: Vec<&Pod> = list.iter().filter(|p| cs_plan::is_active(p)).collect();
    Ok(preview(set, &update, &active, partition, Timestamp::now()))
}

/// The pure part of [`next_pods`]: the names the planner would update, through `partition`.
pub(crate) fn preview(
    set: &CloneSet,
    update: &str,
    active: &[&Pod],
    partition: i64,
    now: Timestamp,
) -> Vec<String> {
    let Ok(numbers) = cs_plan::checked_numbers(set) else {
        return Vec::new();
    };
    let templates = std::collections::BTreeMap::new();
    let revision = cs_plan::Revision {
        name: update,
        template: &set.spec.template,
    };
    let snapshot = cs_plan::Snapshot {
        set,
        pods: active.to_vec(),
        claims: Vec::new(),
        update: revision,
        current: revision,
        templates: &templates,
        collision_count: 0,
        node_labels: &std::collections::BTreeMap::new(),
        now,
        // The CLI does not know the run's gates: upstream's defaults.
        features: Default::default(),
    };
    let old = active.iter().filter(|p| !is_at_revision(p, update)).count() as i64;
    let moving = usize::try_from((old - partition).max(0)).unwrap_or(0);
    crate::workloads::cloneset::plan_update::candidates_in_order(&snapshot, &numbers, active, true)
        .into_iter()
        .take(moving)
        .map(|p| p.name_any())
        .collect()
}

/// The pods of an Advanced StatefulSet that update once the partition is `partition`, in
/// the controller's order (the planner's own candidate order: highest ordinal first, or
/// by priority for an unordered update), skipping those already updated.
/// The pods an Advanced DaemonSet updates next through `partition`, with their nodes, in
/// its planner's order.
pub(crate) async fn next_ads_pods(
    client: &kube::Client,
    namespace: &str,
    set: &crate::api::daemonset::DaemonSet,
    partition: i64,
) -> anyhow::Result<Vec<(String, String)>> {
    use crate::workloads::daemonset::{plan, plan_update};
    let Some(update) = set
        .status
        .as_ref()
        .and_then(|s| s.update_revision.clone().or(s.daemon_set_hash.clone()))
    else {
        return Ok(Vec::new());
    };
    let pods: Api<Pod> = Api::namespaced(client.clone(), namespace);
    let uid = set.uid().unwrap_or_default();
    let selector = kube::core::Selector::try_from(set.spec.selector.clone())
        .map(|s| s.to_string())
        .unwrap_or_default();
    let list: Vec<Pod> = pods
        .list(&ListParams::default().labels(&selector))
        .await?
        .items
        .into_iter()
        .filter(|p| {
            p.owner_references()
                .iter()
                .any(|o| o.uid == uid && o.controller == Some(true))
        })
        .collect();
    let nodes: Vec<k8s_openapi::api::core::v1::Node> =
        Api::all(client.clone()).list(&ListParams::default()).await?.items;
    let templates = std::collections::BTreeMap::new();
    let snapshot = plan::Snapshot {
        set,
        pods: list.iter().collect(),
        orphans: Vec::new(),
        nodes: nodes.iter().collect(),
        update: plan::Revision {
            name: &update,
            template: &set.spec.template,
        },
        templates: &templates,
        collision_count: 0,
        now: Timestamp::now(),
        failed_backoff: &std::collections::BTreeMap::new(),
    };
    Ok(plan_update::next_to_update(&snapshot, partition))
}

pub(crate) async fn next_asts_pods(
    client: &kube::Client,
    namespace: &str,
    set: &crate::api::statefulset::v1beta1::StatefulSet,
    partition: i64,
) -> anyhow::Result<Vec<String>> {
    use crate::workloads::statefulset::{ordinals, plan, plan_update};
    let Some(update) = set.status.as_ref().and_then(|s| s.update_revision.clone()) else {
        return Ok(Vec::new());
    };
    let mut set = set.clone();
    let rolling = set
        .spec
        .update_strategy
        .get_or_insert_default()
        .rolling_update
        .get_or_insert_default();
    rolling.partition = Some(i32::try_from(partition).unwrap_or(0));
    let reserved = ordinals::ReservedOrdinals::of(&set).unwrap_or_default();
    let n = plan::Numbers::of(&set, &reserved)?;
    let pods: Api<Pod> = Api::namespaced(client.clone(), namespace);
    let uid = set.uid().unwrap_or_default();
    let selector = kube::core::Selector::try_from(set.spec.selector.clone())
        .map(|s| s.to_string())
        .unwrap_or_default();
    let list: Vec<Pod> = pods
        .list(&ListParams::default().labels(&selector))
        .await?
        .items
        .into_iter()
        .filter(|p| p.owner_references().iter().any(|o| o.uid == uid))
        .collect();
    let split = ordinals::split(&list, &set.name_any(), &n.valid);
    let templates = std::collections::BTreeMap::new();
    let revision = plan::Revision {
        name: &update,
        template: &set.spec.template,
    };
    let snapshot = plan::Snapshot {
        set: &set,
        pods: split.replicas.values().copied().collect(),
        orphans: Vec::new(),
        claims: &Default::default(),
        update: revision,
        current: revision,
        templates: &templates,
        collision_count: 0,
        now: Timestamp::now(),
    };
    Ok(plan_update::candidates(&snapshot, &n, &split.replicas)
        .into_iter()
        .filter(|p| !is_at_revision(p, &update))
        .map(|p| p.name_any())
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_are_numbers_or_percentages() {
        assert_eq!(parse_value("3", Kind::CloneSet).expect("ok"), IntOrString::Int(3));
        assert_eq!(
            parse_value("40%", Kind::CloneSet).expect("ok"),
            IntOrString::String("40%".into())
        );
        for bad in ["-1", "x", "140%", "%"] {
            assert!(parse_value(bad, Kind::CloneSet).is_err(), "{bad}");
        }
        assert!(parse_value("40%", Kind::StatefulSet).is_err());
        let ads = parse_value("40%", Kind::AdvancedDaemonSet).expect_err("refused");
        assert!(
            ads.0.contains("rollingUpdate.partition is an integer"),
            "{}",
            ads.0
        );
    }

    #[test]
    fn a_percentage_is_sent_as_its_count_where_the_field_is_an_integer() {
        let forty = || IntOrString::String("40%".into());
        assert_eq!(stored(Kind::AdvancedStatefulSet, forty(), 2), IntOrString::Int(2));
        assert_eq!(
            stored(Kind::CloneSet, forty(), 2),
            forty(),
            "CloneSet keeps the percentage"
        );
        assert_eq!(
            stored(Kind::AdvancedStatefulSet, IntOrString::Int(3), 3),
            IntOrString::Int(3)
        );
    }
}
