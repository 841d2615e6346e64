//! `kubectl kruise set serviceaccount KIND/NAME NAME` (kubectl's `set sa`): the pod
//! template's `serviceAccountName`, `--dry-run`, `-o`. A SidecarSet has no pod template of
//! its own, so it is refused.
use clap::Args;
use serde_json::json;

use super::pod_spec;
use crate::cli::UsageError;
use crate::cli::connection::ConnectionArgs;
use crate::cli::install::{DryRun, Output};

pub const HELP: &str = "\
Kinds: cloneset (clone), asts, ads, uniteddeployment (ud: its subset template), deployment
(deploy), statefulset (sts), daemonset (ds). The pods are recreated as the rollout allows.

Examples:
  kubectl kruise set serviceaccount cloneset/web web-runner
  kubectl kruise set sa asts/db db-runner --dry-run=server";

#[derive(Debug, Args)]
pub struct ServiceAccountArgs {
    /// TYPE/NAME
    #[arg(value_name = "TYPE/NAME")]
    pub target: String,
    /// The ServiceAccount's name
    #[arg(value_name = "SERVICE_ACCOUNT")]
    pub service_account: String,
    /// Print the updated object in this format instead of one line
    #[arg(short = 'o', long, value_enum)]
    pub output: Option<Output>,
    /// `client` prints the patch without sending it; `server` sends it with dry-run
    #[arg(long, value_enum, default_value = "none", num_args = 0..=1, default_missing_value = "client")]
    pub dry_run: DryRun,
}

pub async fn run(args: ServiceAccountArgs, connection: &ConnectionArgs) -> anyhow::Result<()> {
    let read = pod_spec::read(
        std::slice::from_ref(&args.target),
        connection,
        "set serviceaccount",
    )
    .await?;
    if !read.has_pod_template() {
        return Err(UsageError(format!(
            "set serviceaccount: {} has no pod template of its own (its containers go into other workloads' pods)",
            read.id
        ))
        .into());
    }
    let mut spec = read.pod_spec().clone();
    spec["serviceAccountName"] = json!(args.service_account);
    read.write(&spec, "serviceaccount", args.dry_run, args.output)
        .await
}
