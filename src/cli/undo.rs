//! `kubectl kruise rollout undo KIND/NAME [--to-revision N]`: put an earlier revision's pod
//! template back. Before asking, it previews what happens to each pod of a CloneSet: in
//! place (which images), recreated (and why), or refused under InPlaceOnly.
//!
//! Invariants: the template is replaced as a whole by a JSON patch that first tests the
//! generation the preview was computed from, so what was confirmed is what is written;
//! undoing to the revision already running writes nothing and says so; confirmation as for
//! every risky verb (terminal, `--yes`, or exit 2).
use anyhow::Context as _;
use clap::Args;
use k8s_openapi::api::core::v1::{Pod, PodTemplateSpec};
use kube::ResourceExt;
use kube::api::{Api, DynamicObject, ListParams, Patch};
use serde_json::json;

use super::UsageError;
use super::connection::ConnectionArgs;
use super::history::{Revision, revisions};
use super::install::{DryRun, Output, confirm};
use super::target::{self, Kind};
use crate::api::common::PodUpdatePolicy;
use crate::runtime::inplace::{Decision, decide};
use crate::runtime::revision::{payload, same_template};

pub const HELP: &str = "\
Kinds: cloneset (clone), asts, ads, deployment (deploy), statefulset (sts), daemonset (ds).
Without --to-revision: the revision before the newest. A CloneSet's pods are listed first
with what happens to each (in place, recreated, or refused under InPlaceOnly).

Examples:
  kubectl kruise rollout undo cloneset/web
  kubectl kruise rollout undo cloneset/web --to-revision 2 --yes";

#[derive(Debug, Args)]
pub struct UndoArgs {
    /// TYPE/NAME
    #[arg(value_name = "TYPE/NAME")]
    pub target: String,
    /// The revision to go back to (default: the one before the newest)
    #[arg(long, value_name = "N")]
    pub to_revision: Option<i64>,
    /// Skip the confirmation
    #[arg(short = 'y', long)]
    pub yes: bool,
    /// `client` prints the patch without sending it; `server` sends it with dry-run
    #[arg(long, value_enum, default_value = "none", num_args = 0..=1, default_missing_value = "client")]
    pub dry_run: DryRun,
    /// Print the updated object in this format instead of one line
    #[arg(short = 'o', long, value_enum)]
    pub output: Option<Output>,
}

fn chosen(list: &[Revision], to: Option<i64>, id: &str) -> anyhow::Result<Revision> {
    let known = || {
        list.iter()
            .map(|r| r.number.to_string())
            .collect::<Vec<_>>()
            .join(", ")
    };
    match to {
        Some(n) => list
            .iter()
            .find(|r| r.number == n)
            .cloned()
            .ok_or_else(|| anyhow::anyhow!("{id} has no revision {n} (revisions: {})", known())),
        None => list.iter().rev().nth(1).cloned().ok_or_else(|| {
            anyhow::anyhow!(
                "{id} has no earlier revision to go back to (revisions: {})",
                known()
            )
        }),
    }
}

/// What a pod spec change does to the pods of `kind` when it has no in-place policy to
/// judge each pod by: the kind's own sentence, or that they are replaced.
pub(crate) fn without_policy(kind: Kind) -> &'static str {
    kind.facts()
        .pod_spec_change()
        .unwrap_or("its pods are replaced as its rollout strategy allows")
}

/// What happens to one CloneSet pod (a line of the preview).
pub(crate) fn pod_outcome(
    from: Option<&PodTemplateSpec>,
    to: &PodTemplateSpec,
    policy: PodUpdatePolicy,
) -> String {
    let Some(from) = from else {
        return "recreated (its revision is no longer in the history)".into();
    };
    match (decide(from, to), policy) {
        (Decision::Unchanged, _) => "unchanged (already at that template)".into(),
        (_, PodUpdatePolicy::ReCreate) => "recreated (updateStrategy ReCreate)".into(),
        (Decision::InPlace { images, .. }, _) if images.is_empty() => "in place (metadata only)".into(),
        (Decision::InPlace { images, .. }, _) => {
            let list: Vec<String> = images.iter().map(|(c, i)| format!("{c}={i}")).collect();
            format!("in place ({})", list.join(", "))
        }
        (Decision::Recreate { reason }, PodUpdatePolicy::InPlaceOnly) => {
            format!("refused: {reason}, and updateStrategy is InPlaceOnly (the pod stays as it is)")
        }
        (Decision::Recreate { reason }, _) => format!("recreated ({reason})"),
    }
}

pub async fn run(args: UndoArgs, connection: &ConnectionArgs) -> anyhow::Result<()> {
    let targets = target::parse(std::slice::from_ref(&args.target))?;
    target::templates_only(&targets, "rollout undo")?;
    let [t] = targets.as_slice() else {
        return Err(UsageError("rollout undo takes one workload (see --help)".into()).into());
    };
    let (client, namespace) = target::connect(connection).await?;
    let api: Api<DynamicObject> = t.api(&client, &namespace);
    let id = t.id();
    let object = api.get(&t.name).await?;
    let list = revisions(&client, &namespace, t.kind, &object).await?;
    let target = chosen(&list, args.to_revision, &id)?;
    let mut template = target.template.clone();
    if t.kind == Kind::Deployment
        && let Some(labels) = template.metadata.as_mut().and_then(|m| m.labels.as_mut())
    {
        // A ReplicaSet's template carries the hash the Deployment controller added.
        labels.remove("pod-template-hash");
    }
    let value = serde_json::to_value(&object)?;
    let current: PodTemplateSpec =
        serde_json::from_value(value["spec"]["template"].clone()).unwrap_or_default();
    if same_template(&payload(&current), &payload(&template)) {
        println!("{id} already at revision {} (nothing to undo)", target.number);
        return Ok(());
    }
    eprintln!("{id}: back to revision {} ({})", target.number, target.name);
    let policy = t.kind.facts().pod_update_policy(&value, &id);
    if let Some(policy) = policy.map_err(anyhow::Error::msg)? {
        let pods: Api<Pod> = Api::namespaced(client.clone(), &namespace);
        let uid = value["metadata"]["uid"].as_str().unwrap_or_default();
        let mut owned: Vec<Pod> = pods
            .list(&ListParams::default())
            .await?
            .items
            .into_iter()
            .filter(|p| p.metadata.deletion_timestamp.is_none())
            .filter(|p| p.owner_references().iter().any(|o| o.uid == uid))
            .collect();
        owned.sort_by_key(|p| p.name_any());
        for pod in &owned {
            let from = super::history::pod_revision(t.kind, &t.name, pod)
                .and_then(|name| list.iter().find(|r| r.name == name))
                .map(|r| &r.template);
            eprintln!("  {}: {}", pod.name_any(), pod_outcome(from, &template, policy));
        }
    } else {
        eprintln!("  {}", without_policy(t.kind));
    }
    if args.dry_run == DryRun::None {
        confirm("Undo?", args.yes)?;
    }
    let patch = json!([
        // The generation, not the resourceVersion: status writes (a busy controller) bump the
        // latter without changing what was previewed; any spec change bumps the former.
        { "op": "test", "path": "/metadata/generation", "value": object.metadata.generation },
        { "op": "replace", "path": "/spec/template", "value": template },
    ]);
    if args.dry_run == DryRun::Client {
        println!("{}", serde_json::to_string(&patch)?);
        eprintln!("{id} rolled back (dry run: nothing sent)");
        return Ok(());
    }
    let patch: json_patch::Patch = serde_json::from_value(patch)?;
    let params = args.dry_run.patch_params();
    let updated = api
        .patch(&t.name, &params, &Patch::<()>::Json(patch))
        .await
        .with_context(|| {
            format!("rolling back {id} (if it changed since the preview, run the command again)")
        })?;
    let suffix = if params.dry_run { " (server dry run)" } else { "" };
    let verb = format!("rolled back to revision {}{suffix}", target.number);
    target::print(&updated, &id, &verb, args.output)
}
