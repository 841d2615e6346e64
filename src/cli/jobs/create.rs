//! `kubectl kruise create job NAME --from acj/NAME`: run an AdvancedCronJob now, as
//! `kubectl create job --from=cronjob/NAME` does for the built-in kind. The child is the
//! one a scheduled run would create (a Job or a BroadcastJob, from the template), named
//! NAME, marked `apps.kruise.io/instantiate: manual` and controlled by the cron job, so
//! it counts as an active run (Forbid waits for it) and its history limits apply.
use clap::{Args, Subcommand};
use kube::api::{Api, DynamicObject, PostParams};

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
  kubectl kruise create job report-now --from acj/report --dry-run=client -o yaml";

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
    let CreateVerb::Job(args) = verb;
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
    let object = child_object(&cron, kind, None, &args.name).ok_or_else(|| {
        anyhow::anyhow!(
            "{}: spec.template has no jobTemplate or broadcastJobTemplate to run (an imageListPullJobTemplate is not run by kubectl-kruise)",
            source.id()
        )
    })?;
    let resource = kind.resource();
    let id = format!("{}/{}", qualified(&resource), args.name);
    let created = match args.dry_run {
        DryRun::Client => object,
        mode => {
            let api: Api<DynamicObject> = Api::namespaced_with(client, &namespace, &resource);
            let params = PostParams {
                dry_run: mode == DryRun::Server,
                field_manager: Some(crate::runtime::context::FIELD_MANAGER.into()),
            };
            api.create(&params, &object).await?
        }
    };
    let suffix = match args.dry_run {
        DryRun::None => "",
        DryRun::Client => " (dry run)",
        DryRun::Server => " (server dry run)",
    };
    match args.output {
        Some(Output::Yaml) => print!("{}", serde_saphyr::to_string(&created)?),
        Some(Output::Json) => println!("{}", serde_json::to_string_pretty(&created)?),
        Some(Output::Name) => println!("{id}"),
        None => println!("{id} created{suffix}"),
    }
    Ok(())
}

fn qualified(resource: &kube::core::ApiResource) -> String {
    let kind = resource.kind.to_lowercase();
    if resource.group.is_empty() {
        kind
    } else {
        format!("{kind}.{}", resource.group)
    }
}
