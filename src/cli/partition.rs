//! `kubectl kruise set partition KIND/NAME N|P%`: hold N pods (or P% of them) at the old
//! revision. Prints the absolute number with the raw value (`partition 2 (40%)`), and, for a
//! CloneSet, which pods the controller updates next, in its own update order.
//!
//! Invariants: lowering the partition so that more pods start updating than the rollout's
//! maxUnavailable lets through at once is risky: it is confirmed on a terminal (`--yes`
//! skips; no terminal and no `--yes` refuses with exit 2). The patch is guarded by the
//! generation it was planned from: a spec change meanwhile is refused, status writes are not.
use clap::Args;
use k8s_openapi::api::core::v1::{Node, Pod};
use k8s_openapi::apimachinery::pkg::apis::meta::v1::LabelSelector;
use k8s_openapi::apimachinery::pkg::util::intstr::IntOrString;
use k8s_openapi::jiff::Timestamp;
use kube::ResourceExt;
use kube::api::{Api, DynamicObject, ListParams};
use serde_json::{Value, json};

use super::UsageError;
use super::connection::ConnectionArgs;
use super::install::{DryRun, Output, confirm};
use super::target::{self, Kind};
use crate::runtime::cached_pod::{self, CachedPod};
use crate::workloads::common::int_or_percent as numbers;
use crate::workloads::facts::{Listed, PercentPartition};

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
        if let PercentPartition::Refused(why) = kind.facts().percent_partition() {
            return Err(UsageError(why.into()));
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
        IntOrString::String(_) if kind.facts().percent_partition() != PercentPartition::Kept => {
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
    if t.kind.facts().partitions_per_subset() {
        let united = super::views::subset_partition::Partition {
            text: &args.partition,
            dry_run: args.dry_run,
            output: args.output,
        };
        return super::views::subset_partition::run(united, t, connection).await;
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
        IntOrString::String(p) if t.kind.facts().percent_partition() != PercentPartition::Kept => {
            format!("partition {absolute} ({p} resolved: the field is a number of pods)")
        }
        IntOrString::String(p) => format!("partition {absolute} ({p})"),
        IntOrString::Int(_) => format!("partition {absolute}"),
    };
    let value = stored(t.kind, value, absolute);
    let unit = t.kind.facts().counts();
    eprintln!("{id}: {shown} of {replicas} {unit}");

    // The kinds with a preview print what updates next (an empty list included).
    let next = next_pods(&client, &namespace, t.kind, &raw, absolute).await?;
    if let Some(next) = &next {
        let shown: Vec<String> = next
            .iter()
            .map(|(pod, node)| match node {
                Some(node) => format!("{pod} ({node})"),
                None => pod.clone(),
            })
            .collect();
        if shown.is_empty() {
            let unit = if t.kind.facts().preview_needs_nodes() {
                "node"
            } else {
                "pod"
            };
            eprintln!("no {unit} starts updating");
        } else {
            eprintln!("updates next, in this order: {}", shown.join(", "));
        }
    }
    let next = next.unwrap_or_default();
    let confirmed = t.kind.facts().confirmed_batch(&raw, &id, replicas);
    if let Some(budget) = confirmed.map_err(anyhow::Error::msg)?
        && next.len() as i64 > budget.max(1)
        && args.dry_run == DryRun::None
    {
        confirm(
            &format!(
                "{} pods start updating, more than one batch ({budget}); go on?",
                next.len()
            ),
            args.yes,
        )?;
    }

    let path = t.kind.partition_path(&raw).unwrap_or_default();
    let patch = target::nested(path, json!(value));
    target::send_spec_patch(&api, t, &object, &patch, args.dry_run, args.output, "partitioned").await
}

/// The pods `object` (as JSON) updates next once its partition is `partition`, in its
/// controller's order: the kind's own preview through its planner
/// (`workloads::<kind>::preview`), each with its node where the kind places pods on nodes.
/// Its pods are listed once, by its selector, and kept when it is their controller. None
/// for a kind with no preview; empty before a first status names the update revision.
pub(crate) async fn next_pods(
    client: &kube::Client,
    namespace: &str,
    kind: Kind,
    object: &Value,
    partition: i64,
) -> anyhow::Result<Option<Vec<(String, Option<String>)>>> {
    if !kind.facts().steps() {
        return Ok(None);
    }
    let status = &object["status"];
    let Some(update) = status["updateRevision"]
        .as_str()
        .or_else(|| status["daemonSetHash"].as_str())
    else {
        // No update revision yet: nothing to preview, and no pods listed for it.
        return Ok(Some(Vec::new()));
    };
    let pods = owned_pods(client, namespace, kind, object).await?;
    preview_of(client, kind, object, update, &pods, partition)
        .await
        .map(Some)
}

/// `object`'s name as the verbs print it (`clonesets.apps.kruise.io/web`).
fn id_of(kind: Kind, object: &Value) -> String {
    format!(
        "{}/{}",
        kind.qualified(),
        object["metadata"]["name"].as_str().unwrap_or_default()
    )
}

/// The pods `object` (as JSON) controls: listed once, by its selector, and kept when it is
/// their controller.
pub(crate) async fn owned_pods(
    client: &kube::Client,
    namespace: &str,
    kind: Kind,
    object: &Value,
) -> anyhow::Result<Vec<Pod>> {
    let selector: LabelSelector = target::read_as(&object["spec"]["selector"], &id_of(kind, object))?;
    let uid = object["metadata"]["uid"].as_str().map(str::to_string);
    controlled_pods(client, namespace, &selector, &uid).await
}

/// The pods of `pods` that `object` updates next to revision `update` once its partition is
/// `partition`, in its controller's order, through the kind's own preview (empty for a kind
/// with none), each with its node where the kind places pods on nodes.
pub(crate) async fn preview_of(
    client: &kube::Client,
    kind: Kind,
    object: &Value,
    update: &str,
    pods: &[Pod],
    partition: i64,
) -> anyhow::Result<Vec<(String, Option<String>)>> {
    let facts = kind.facts();
    let nodes: Vec<Node> = if facts.preview_needs_nodes() {
        Api::all(client.clone()).list(&ListParams::default()).await?.items
    } else {
        Vec::new()
    };
    let listed = Listed { pods, nodes: &nodes };
    facts
        .preview(
            object,
            &id_of(kind, object),
            update,
            &listed,
            partition,
            Timestamp::now(),
        )
        .transpose()
        .map_err(anyhow::Error::msg)
        .map(Option::unwrap_or_default)
}

/// The pods of `pods` that `object` deletes to come down to its replicas, in its
/// controller's order, through the kind's own preview (None for a kind with none).
pub(crate) fn scale_in_of(
    kind: Kind,
    object: &Value,
    update: &str,
    pods: &[Pod],
) -> anyhow::Result<Option<Vec<String>>> {
    let listed = Listed { pods, nodes: &[] };
    kind.facts()
        .scale_in_preview(object, &id_of(kind, object), update, &listed, Timestamp::now())
        .transpose()
        .map_err(anyhow::Error::msg)
}

/// The pods in `namespace` that `selector` matches and whose controller has `uid`.
async fn controlled_pods(
    client: &kube::Client,
    namespace: &str,
    selector: &LabelSelector,
    uid: &Option<String>,
) -> anyhow::Result<Vec<Pod>> {
    let selector = kube::core::Selector::try_from(selector.clone())
        .map(|s| s.to_string())
        .unwrap_or_default();
    let pods: Api<CachedPod> = Api::namespaced(client.clone(), namespace);
    Ok(cached_pod::list(&pods, &ListParams::default().labels(&selector))
        .await?
        .into_iter()
        .filter(|p| {
            p.owner_references()
                .iter()
                .any(|o| Some(&o.uid) == uid.as_ref() && o.controller == Some(true))
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::KruiseKind;

    #[test]
    fn values_are_numbers_or_percentages() {
        assert_eq!(
            parse_value("3", Kind::Kruise(KruiseKind::CloneSet)).expect("ok"),
            IntOrString::Int(3)
        );
        assert_eq!(
            parse_value("40%", Kind::Kruise(KruiseKind::CloneSet)).expect("ok"),
            IntOrString::String("40%".into())
        );
        for bad in ["-1", "x", "140%", "%"] {
            assert!(
                parse_value(bad, Kind::Kruise(KruiseKind::CloneSet)).is_err(),
                "{bad}"
            );
        }
        assert!(parse_value("40%", Kind::StatefulSet).is_err());
        let ads = parse_value("40%", Kind::Kruise(KruiseKind::DaemonSet)).expect_err("refused");
        assert!(
            ads.0.contains("rollingUpdate.partition is an integer"),
            "{}",
            ads.0
        );
    }

    #[test]
    fn a_percentage_is_sent_as_its_count_where_the_field_is_an_integer() {
        let forty = || IntOrString::String("40%".into());
        assert_eq!(
            stored(Kind::Kruise(KruiseKind::StatefulSet), forty(), 2),
            IntOrString::Int(2)
        );
        assert_eq!(
            stored(Kind::Kruise(KruiseKind::CloneSet), forty(), 2),
            forty(),
            "CloneSet keeps the percentage"
        );
        assert_eq!(
            stored(Kind::Kruise(KruiseKind::StatefulSet), IntOrString::Int(3), 3),
            IntOrString::Int(3)
        );
    }
}
