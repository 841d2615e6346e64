//! `kubectl kruise scale KIND/NAME --replicas N [--delete POD,...]` and kruise-tools'
//! `scaledown KIND/NAME --pods POD,...` spelling.
//!
//! Invariants:
//! - `--delete` names exactly the pods that go: for a CloneSet they are added to
//!   `scaleStrategy.podsToDelete` in the same patch that lowers `replicas`, so the controller
//!   removes those pods and no others. Kinds that cannot delete a chosen pod refuse
//!   `--delete` (exit 2) instead of deleting some other pod.
//! - Every named pod must exist, not be terminating, and be controlled by the workload;
//!   otherwise nothing is written and the error names the pod.
//! - Deleting named pods is risky: the plan is printed, then confirmed on a terminal;
//!   `--yes` skips the question; no terminal and no `--yes` refuses with exit 2.
use anyhow::Context as _;
use clap::Args;
use k8s_openapi::api::core::v1::Pod;
use kube::ResourceExt;
use kube::api::{Api, DynamicObject};
use serde_json::json;

use super::UsageError;
use super::connection::ConnectionArgs;
use super::install::{DryRun, Output, confirm};
use super::target;

pub const SCALE_HELP: &str = "\
Kinds: cloneset (clone), asts, deployment (deploy), statefulset (sts). --delete works on
CloneSets only: the named pods are the ones removed (scaleStrategy.podsToDelete).

Examples:
  kubectl kruise scale cloneset/web --replicas 5
  kubectl kruise scale cloneset/web --delete web-x7k2p,web-b4ml9 --yes
  kubectl kruise scale deploy/front --replicas 3 --dry-run=server";

pub const SCALEDOWN_HELP: &str = "\
The kruise-tools spelling of `scale --delete`: lowers replicas by the number of pods named.

Examples:
  kubectl kruise scaledown cloneset/web --pods web-x7k2p
  kubectl kruise scaledown cloneset/web --pods web-x7k2p,web-b4ml9 --yes";

#[derive(Debug, Args)]
pub struct ScaleArgs {
    /// TYPE/NAME (or TYPE NAME)
    #[arg(required = true, value_name = "TYPE/NAME")]
    pub target: Vec<String>,
    /// Print the updated object in this format instead of one line
    #[arg(short = 'o', long, value_enum)]
    pub output: Option<Output>,
    /// The new number of replicas (default with --delete: current minus the pods named)
    #[arg(long, value_name = "N")]
    pub replicas: Option<i32>,
    /// Pods to remove, comma separated (CloneSet only)
    #[arg(long, value_delimiter = ',', value_name = "POD,...")]
    pub delete: Vec<String>,
    /// Skip the confirmation
    #[arg(short = 'y', long)]
    pub yes: bool,
    /// `client` prints the patch without sending it; `server` sends it with dry-run
    #[arg(long, value_enum, default_value = "none", num_args = 0..=1, default_missing_value = "client")]
    pub dry_run: DryRun,
}

#[derive(Debug, Args)]
pub struct ScaledownArgs {
    /// TYPE/NAME (or TYPE NAME)
    #[arg(required = true, value_name = "TYPE/NAME")]
    pub target: Vec<String>,
    /// Pods to remove, comma separated
    #[arg(long, required = true, value_delimiter = ',', value_name = "POD,...")]
    pub pods: Vec<String>,
    /// Skip the confirmation
    #[arg(short = 'y', long)]
    pub yes: bool,
    /// `client` prints the patch without sending it; `server` sends it with dry-run
    #[arg(long, value_enum, default_value = "none", num_args = 0..=1, default_missing_value = "client")]
    pub dry_run: DryRun,
}

impl From<ScaledownArgs> for ScaleArgs {
    fn from(a: ScaledownArgs) -> Self {
        ScaleArgs {
            target: a.target,
            replicas: None,
            delete: a.pods,
            yes: a.yes,
            dry_run: a.dry_run,
            output: None,
        }
    }
}

pub async fn run(args: ScaleArgs, connection: &ConnectionArgs) -> anyhow::Result<()> {
    let targets = target::parse(&args.target)?;
    // A UnitedDeployment scales too: its controller splits the replicas between subsets.
    let others: Vec<target::Target> = targets
        .iter()
        .filter(|t| !t.kind.facts().partitions_per_subset())
        .cloned()
        .collect();
    target::templates_only(&others, "scale")?;
    let [t] = targets.as_slice() else {
        return Err(UsageError("scale takes one workload (see --help)".into()).into());
    };
    if !args.delete.is_empty() && !t.kind.facts().deletes_chosen_pods() {
        return Err(UsageError(format!(
            "{}/{}: --delete needs a CloneSet; this kind cannot delete a chosen pod (it would remove \
             whichever pod it picks); use --replicas alone",
            t.kind.qualified(),
            t.name
        ))
        .into());
    }
    if args.delete.is_empty() && args.replicas.is_none() {
        return Err(UsageError("give --replicas N or --delete POD,... (see --help)".into()).into());
    }
    if args.replicas.is_some_and(|r| r < 0) {
        return Err(UsageError("--replicas must be 0 or more".into()).into());
    }
    let (client, namespace) = target::connect(connection).await?;
    let api: Api<DynamicObject> = t.api(&client, &namespace);
    let id = t.id();
    let object = api.get(&t.name).await?;
    let value = serde_json::to_value(&object)?;
    let current = value["spec"]["replicas"].as_i64().unwrap_or(1) as i32;

    let mut to_delete: Vec<String> = Vec::new();
    for name in &args.delete {
        if !to_delete.contains(name) {
            to_delete.push(name.clone());
        }
    }
    if !to_delete.is_empty() {
        let pods: Api<Pod> = Api::namespaced(client.clone(), &namespace);
        let uid = object.uid().unwrap_or_default();
        for name in &to_delete {
            let pod = pods.get_opt(name).await?.ok_or_else(|| {
                anyhow::anyhow!("pod {name} not found in namespace {namespace}; nothing was changed")
            })?;
            let owned = pod
                .owner_references()
                .iter()
                .any(|o| o.controller == Some(true) && o.uid == uid);
            if !owned {
                anyhow::bail!("pod {name} is not controlled by {id}; nothing was changed");
            }
            if pod.metadata.deletion_timestamp.is_some() {
                anyhow::bail!("pod {name} is already terminating; nothing was changed");
            }
        }
    }
    let replicas = args
        .replicas
        .unwrap_or_else(|| (current - to_delete.len() as i32).max(0));
    let mut patch = json!({ "spec": { "replicas": replicas } });
    if !to_delete.is_empty() {
        let mut listed: Vec<String> = value["spec"]["scaleStrategy"]["podsToDelete"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|v| v.as_str().map(String::from))
            .collect();
        for name in &to_delete {
            if !listed.contains(name) {
                listed.push(name.clone());
            }
        }
        patch["spec"]["scaleStrategy"] = json!({ "podsToDelete": listed });
        eprintln!(
            "{id}: replicas {current} -> {replicas}; these pods will be deleted: {}",
            to_delete.join(", ")
        );
        if args.dry_run == DryRun::None {
            confirm("Delete these pods?", args.yes)?;
        }
    }
    target::send_spec_patch(&api, t, &object, &patch, args.dry_run, args.output, "scaled")
        .await
        .with_context(|| format!("scaling {id}"))?;
    Ok(())
}
