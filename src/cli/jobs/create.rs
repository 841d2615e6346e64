//! `kubectl kruise create job NAME --from acj/NAME` (and `create broadcastjob`, kruise-tools'
//! spelling for a cron job of BroadcastJobs): run an AdvancedCronJob now, as
//! `kubectl create job --from=cronjob/NAME` does for the built-in kind. The child is the
//! one a scheduled run would create (a Job or a BroadcastJob, from the template), named
//! NAME, marked `apps.kruise.io/instantiate: manual` and controlled by the cron job, so
//! it counts as an active run (Forbid waits for it) and its history limits apply.
use clap::{Args, Subcommand};
use kube::api::{Api, DynamicObject};

use crate::api::KruiseKind;
use crate::api::cronjob::AdvancedCronJob;
use crate::cli::UsageError;
use crate::cli::connection::ConnectionArgs;
use crate::cli::install::{DryRun, Output};
use crate::cli::target::{self, Kind};
use crate::workloads::cronjob::plan::{ChildKind, child_object};

pub const CREATE_HELP: &str = "\
Examples:
  kubectl kruise create job report-now --from acj/report
  kubectl kruise create job report-now --from acj/report --dry-run=client -o yaml
  kubectl kruise create broadcastjob sweep-now --from acj/sweep";

pub const BROADCAST_JOB_HELP: &str = "\
Creates the BroadcastJob an AdvancedCronJob's broadcastJobTemplate describes, now (`create
job` does the same for either template). An AdvancedCronJob of Jobs is refused, naming its
template. The child is controlled by the AdvancedCronJob, as a scheduled run's is.

Examples:
  kubectl kruise create broadcastjob sweep-now --from acj/sweep
  kubectl kruise create bcj sweep-now --from acj/sweep --dry-run=client -o yaml";

pub const JOB_HELP: &str = "\
Creates the Job (or BroadcastJob) an AdvancedCronJob's template describes, now. The child
is controlled by the AdvancedCronJob: it shows in `get acj/NAME --tree` and status.active,
a Forbid policy waits for it, and the history limits prune it once it finished.

Examples:
  kubectl kruise create job report-now --from acj/report
  kubectl kruise create job sweep-now --from advancedcronjob/sweep --dry-run=client -o yaml";

#[derive(Debug, Subcommand)]
pub enum CreateVerb {
    /// Create a Job (or BroadcastJob) from an AdvancedCronJob's template, now
    #[command(after_help = JOB_HELP)]
    Job(CreateJobArgs),
    /// Create a BroadcastJob from an AdvancedCronJob's broadcastJobTemplate, now
    #[command(visible_alias = "bcj", after_help = BROADCAST_JOB_HELP)]
    Broadcastjob(CreateJobArgs),
}

#[derive(Debug, Args)]
pub struct CreateJobArgs {
    /// The name of the new Job
    pub name: String,
    /// The AdvancedCronJob to take the template from (acj/NAME)
    #[arg(long, value_name = "acj/NAME")]
    pub from: String,
    /// `client` prints the object without sending it; `server` sends it with dry-run
    #[arg(long, value_enum, default_value = "none", num_args = 0..=1, default_missing_value = "client")]
    pub dry_run: DryRun,
    /// Print the created object in this format instead of one line
    #[arg(short = 'o', long, value_enum)]
    pub output: Option<Output>,
}

pub async fn run(verb: CreateVerb, connection: &ConnectionArgs) -> anyhow::Result<()> {
    let (args, broadcast_only) = match verb {
        CreateVerb::Job(args) => (args, false),
        CreateVerb::Broadcastjob(args) => (args, true),
    };
    let from = target::parse(std::slice::from_ref(&args.from))?;
    let [source] = from.as_slice() else {
        return Err(UsageError("--from names one AdvancedCronJob, e.g. acj/report".into()).into());
    };
    if source.kind != Kind::Kruise(KruiseKind::AdvancedCronJob) {
        return Err(UsageError(format!(
            "--from must name an AdvancedCronJob (acj/NAME), not {}",
            source.id()
        ))
        .into());
    }
    let (client, namespace) = target::connect(connection).await?;
    let cron: AdvancedCronJob = Api::namespaced(client.clone(), &namespace)
        .get(&source.name)
        .await?;
    let kind = ChildKind::of(&cron);
    if broadcast_only && kind != ChildKind::BroadcastJob {
        return Err(UsageError(format!(
            "{} runs {}s (spec.template has no broadcastJobTemplate); use `create job` for it",
            source.id(),
            kind.name()
        ))
        .into());
    }
    let object = child_object(&cron, kind, None, &args.name).ok_or_else(|| {
        anyhow::anyhow!(
            "{}: spec.template has no jobTemplate or broadcastJobTemplate to run (an imageListPullJobTemplate is not run by kubectl-kruise)",
            source.id()
        )
    })?;
    let resource = kind.resource();
    let id = format!("{}/{}", qualified(&resource), args.name);
    let api: Api<DynamicObject> = Api::namespaced_with(client, &namespace, &resource);
    target::create_and_print(&api, object, &id, "created", args.dry_run, args.output).await
}

fn qualified(resource: &kube::core::ApiResource) -> String {
    let kind = resource.kind.to_lowercase();
    if resource.group.is_empty() {
        kind
    } else {
        format!("{kind}.{}", resource.group)
    }
}
