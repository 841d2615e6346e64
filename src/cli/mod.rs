//! Command line: clap definitions and dispatch. The binary calls [`main`] and nothing else.
//!
//! Exit codes (docs/cli.md, exit codes): 0 success, 1 failure, 2 bad usage or a refused
//! confirmation, 3-6 rollout outcomes (`rollout status`), 130 interrupted (Ctrl-C).
pub mod builtin_kinds;
pub mod cloneset;
pub mod complete;
pub mod complete_cluster;
pub mod completion;
pub mod connection;
pub mod diff;
pub mod expose;
pub mod get;
pub mod glyphs;
pub mod history;
pub mod install;
pub mod install_manager;
pub mod jobs;
pub mod kinds;
pub mod manager;
pub mod partition;
pub mod pod_groups;
pub mod podunavailablebudget;
pub mod rollout;
pub mod run;
pub mod scale;
pub mod set;
pub mod sidecarset;
pub mod status;
pub mod step;
pub mod step_kinds;
pub mod table;
pub mod takeover;
pub mod target;
mod testenv;
pub mod tree;
pub mod undo;
pub mod uniteddeployment;
pub mod views;
pub mod workloadspread;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// OpenKruise-compatible advanced workloads in one kubectl plugin.
#[derive(Debug, Parser)]
#[command(
    name = "kubectl-kruise",
    bin_name = "kubectl kruise",
    version,
    propagate_version = true
)]
pub struct Cli {
    #[command(flatten)]
    pub connection: connection::ConnectionArgs,
    #[command(subcommand)]
    pub command: Command,
}

/// The name the tool is shown under; one constant, so a rename touches one line.
pub const PLUGIN_NAME: &str = "kruise";

/// `kubectl kruise` when run as a kubectl plugin (argv[0] starts with `kubectl-`, or
/// `KUBECTL_PATH` is set), else the executable's own name.
pub fn display_name() -> String {
    let argv0 = std::env::args_os().next().map(std::path::PathBuf::from);
    let file = argv0
        .as_ref()
        .and_then(|p| p.file_stem())
        .map(|f| f.to_string_lossy().into_owned());
    let plugin = std::env::var_os("KUBECTL_PATH").is_some()
        || file.as_deref().is_some_and(|f| f.starts_with("kubectl-"));
    if plugin {
        format!("kubectl {PLUGIN_NAME}")
    } else {
        file.unwrap_or_else(|| format!("kubectl-{PLUGIN_NAME}"))
    }
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Print the client version and, when the API server answers, the server version
    #[command(
        after_help = "Examples:\n  kubectl kruise version\n  kubectl kruise version --kubeconfig ~/.kube/staging"
    )]
    Version,
    /// Install (or update) the apps.kruise.io CRDs with server-side apply (--manager: and run
    /// the controllers in the cluster)
    ///
    /// Kinds: CloneSet, StatefulSet (Advanced), DaemonSet (Advanced), BroadcastJob,
    /// AdvancedCronJob, SidecarSet, WorkloadSpread, UnitedDeployment.
    Install(install::InstallArgs),
    /// Remove the apps.kruise.io CRDs (--manager: and the in-cluster controllers); refuses
    /// while custom resources of them exist
    Uninstall(install::UninstallArgs),
    /// Print a shell completion script (bash, zsh, fish, powershell, elvish)
    #[command(after_help = completion::AFTER_HELP)]
    Completion {
        /// The shell to print the script for
        shell: completion::ShellArg,
    },
    /// Completion candidates in kubectl's plugin protocol (used by kubectl_complete-kruise)
    #[command(name = "__complete", hide = true)]
    Complete {
        /// The words typed after `kubectl kruise`; the last one is partial
        #[arg(allow_hyphen_values = true, trailing_var_arg = true)]
        words: Vec<String>,
    },
    /// List workloads with the columns the API server prints for their kind
    #[command(after_help = get::HELP)]
    Get(get::GetArgs),
    /// Manage rollouts of workloads (status, step, pause, resume, restart, history, undo)
    #[command(
        subcommand,
        after_help = "Examples:\n  kubectl kruise rollout pause cloneset/web\n  kubectl kruise rollout history cloneset/web"
    )]
    Rollout(rollout::RolloutVerb),
    /// Set a field of a workload's rollout (partition, image, env, resources, serviceaccount)
    #[command(
        subcommand,
        after_help = "Examples:\n  kubectl kruise set partition cloneset/web 3\n  kubectl kruise set partition cloneset/web 40% --yes\n  kubectl kruise set env cloneset/web LOG_LEVEL=debug\n  kubectl kruise set resources cloneset/web --limits=cpu=500m"
    )]
    Set(SetVerb),
    /// Set the replicas of a workload, optionally naming the pods to remove
    #[command(after_help = scale::SCALE_HELP)]
    Scale(scale::ScaleArgs),
    /// Remove the named pods of a CloneSet and lower its replicas (kruise-tools spelling)
    #[command(after_help = scale::SCALEDOWN_HELP)]
    Scaledown(scale::ScaledownArgs),
    /// kubectl exec into a pod; -S SIDECAR: into a sidecar (a hot-upgrade pair's working half)
    #[command(after_help = views::exec::HELP)]
    Exec(views::exec::ExecArgs),
    /// Move a Deployment's pods to a CloneSet, a few at a time (resumable)
    #[command(after_help = views::migrate::HELP)]
    Migrate(views::migrate::MigrateArgs),
    /// What applying a manifest would do: each pod kept, updated in place or recreated, in
    /// the controller's order and batches, then the object's diff (exit 1: a change)
    #[command(after_help = diff::HELP)]
    Diff(diff::DiffArgs),
    /// Make a Service for a workload's pods (its selector and container ports)
    #[command(after_help = expose::HELP)]
    Expose(expose::ExposeArgs),
    /// Create an object from another (a Job or BroadcastJob from an AdvancedCronJob)
    #[command(subcommand, after_help = jobs::create::CREATE_HELP)]
    Create(jobs::create::CreateVerb),
    /// Run the controllers in the foreground against the current kubeconfig
    #[command(after_help = run::after_help())]
    Run(run::RunArgs),
    /// Local control plane for demos and tests (etcd, kube-apiserver, controller-manager,
    /// scheduler built from Go modules, with simulated nodes).
    Testenv(testenv::TestenvArgs),
}

pub fn main() -> ExitCode {
    use clap::{CommandFactory, FromArgMatches};
    crate::runtime::heap::one_arena();
    let matches = Cli::command().bin_name(display_name()).get_matches();
    let cli = match Cli::from_arg_matches(&matches) {
        Ok(cli) => cli,
        Err(e) => e.exit(),
    };
    // `run` is a long-running process: it logs what it does at info level by default.
    let floor = u8::from(matches!(cli.command, Command::Run(_)));
    init_logging(cli.connection.verbosity.max(floor));
    let runtime = match tokio::runtime::Builder::new_multi_thread().enable_all().build() {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("error: cannot start the async runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    // The supervisor of `testenv` handles SIGINT itself, to stop its components cleanly.
    // So does `run`, to finish in-flight writes and exit 0.
    let interruptible = !matches!(cli.command, Command::Testenv(_) | Command::Run(_));
    let work = async {
        match cli.command {
            Command::Version => version(&cli.connection).await,
            Command::Completion { shell } => {
                use clap::CommandFactory;
                print!("{}", completion::script(Cli::command(), shell.into()));
                Ok(())
            }
            Command::Install(args) => install::install(args, &cli.connection).await,
            Command::Uninstall(args) => install::uninstall(args, &cli.connection).await,
            Command::Complete { words } => {
                complete::run(complete::with_connection_flags(words, &cli.connection)).await;
                Ok(())
            }
            Command::Testenv(args) => testenv::run(args).await,
            Command::Run(args) => run::run(args, &cli.connection).await,
            Command::Get(args) => get::run(args, &cli.connection).await,
            Command::Rollout(verb) => rollout::run(verb, &cli.connection).await,
            Command::Set(SetVerb::Partition(args)) => partition::run(args, &cli.connection).await,
            Command::Set(SetVerb::Image(args)) => set::image::run(args, &cli.connection).await,
            Command::Set(SetVerb::Env(args)) => set::env::run(args, &cli.connection).await,
            Command::Set(SetVerb::Resources(args)) => set::resources::run(args, &cli.connection).await,
            Command::Set(SetVerb::Serviceaccount(args)) => {
                set::service_account::run(args, &cli.connection).await
            }
            Command::Scale(args) => scale::run(args, &cli.connection).await,
            Command::Scaledown(args) => scale::run(args.into(), &cli.connection).await,
            Command::Create(verb) => jobs::create::run(verb, &cli.connection).await,
            Command::Expose(args) => expose::run(args, &cli.connection).await,
            Command::Diff(args) => diff::run(args, &cli.connection).await,
            Command::Exec(args) => views::exec::run(args, &cli.connection).await,
            Command::Migrate(args) => views::migrate::run(args, &cli.connection).await,
        }
    };
    let outcome = runtime.block_on(async {
        if !interruptible {
            return Some(work.await);
        }
        // The handler is in place before any work starts (its first poll registers it): a
        // Ctrl-C that comes once the command has said anything is never lost, even when the
        // process was started with SIGINT ignored (a background job of a script).
        let mut interrupted = std::pin::pin!(tokio::signal::ctrl_c());
        if futures::poll!(interrupted.as_mut()).is_ready() {
            return None;
        }
        tokio::select! {
            outcome = work => Some(outcome),
            _ = interrupted => None,
        }
    });
    let Some(outcome) = outcome else {
        eprintln!("interrupted");
        return ExitCode::from(130);
    };
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            let text = describe_error(&e);
            // kubectl's own form for a bare API error; every other error starts with `error: `.
            if text.starts_with("error from server") {
                eprintln!("{text}")
            } else {
                eprintln!("error: {text}")
            }
            if let Some(exit) = e.downcast_ref::<status::ExitWith>() {
                ExitCode::from(exit.code)
            } else if e.downcast_ref::<UsageError>().is_some() {
                ExitCode::from(2)
            } else {
                ExitCode::FAILURE
            }
        }
    }
}

/// The error chain as one line; API errors read as kubectl prints them:
/// `error from server (Reason): message`, without the raw Status dump.
fn describe_error(error: &anyhow::Error) -> String {
    let mut parts = Vec::new();
    for cause in error.chain() {
        if let Some(kube::Error::Api(status)) = cause.downcast_ref::<kube::Error>() {
            parts.push(format!(
                "error from server ({}): {}",
                status.reason, status.message
            ));
            break;
        }
        parts.push(cause.to_string());
    }
    parts.join(": ")
}

#[derive(Debug, Subcommand)]
pub enum SetVerb {
    /// Keep N pods (or P% of them) at the old revision; shows which pods update next
    #[command(after_help = partition::HELP)]
    Partition(partition::PartitionArgs),
    /// Change container images (CONTAINER=IMAGE ...)
    #[command(after_help = set::image::HELP)]
    Image(set::image::ImageArgs),
    /// Set or remove environment variables of the pod template's containers
    #[command(after_help = set::env::HELP)]
    Env(set::env::EnvArgs),
    /// Set resource limits and requests of the pod template's containers
    #[command(after_help = set::resources::HELP)]
    Resources(set::resources::ResourcesArgs),
    /// Set the pod template's service account
    #[command(visible_alias = "sa", after_help = set::service_account::HELP)]
    Serviceaccount(set::service_account::ServiceAccountArgs),
}

/// A bad argument found after parsing, or a refusal to act without confirmation: exit 2.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct UsageError(pub String);

/// A clap value parser for durations such as `500ms`, `30s`, `5m`.
pub fn duration(text: &str) -> Result<std::time::Duration, String> {
    crate::duration::parse(text)
        .ok_or_else(|| format!("`{text}` is not a duration (examples: 500ms, 30s, 5m, 1h30m)"))
}

/// `k=v,k2=v2` (a flag's value) as a map, keys and values trimmed; an error names the
/// flag and the bad entry, `shape` saying what one should look like (`KEY=VALUE`). An
/// empty value is an error unless `empty_values`.
pub fn key_values(
    flag: &str,
    text: &str,
    shape: &str,
    empty_values: bool,
) -> Result<std::collections::BTreeMap<String, String>, UsageError> {
    text.split(',')
        .filter(|e| !e.trim().is_empty())
        .map(|entry| {
            entry
                .split_once('=')
                .map(|(k, v)| (k.trim(), v.trim()))
                .filter(|(k, v)| !k.is_empty() && (empty_values || !v.is_empty()))
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .ok_or_else(|| UsageError(format!("--{flag} {entry:?}: expected {shape}")))
        })
        .collect()
}

async fn version(connection: &connection::ConnectionArgs) -> anyhow::Result<()> {
    let commit = option_env!("KRUISE_GIT_COMMIT").unwrap_or("unknown");
    println!("Client Version: v{} (commit {commit})", env!("CARGO_PKG_VERSION"));
    // The server part is best effort: an unreachable cluster is not an error for `version`.
    let server = async { connection.client().await.ok()?.apiserver_version().await.ok() };
    if let Ok(Some(info)) = tokio::time::timeout(std::time::Duration::from_secs(5), server).await {
        println!("Server Version: {}", info.git_version);
    }
    Ok(())
}

/// `-v N` as kubectl: 0 warnings, 1-2 info, 3-5 debug, 6+ trace; RUST_LOG wins when set.
fn init_logging(verbosity: u8) {
    let level = match verbosity {
        0 => "warn",
        1 | 2 => "info",
        3..=5 => "debug",
        _ => "trace",
    };
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new(level));
    let ansi = std::io::IsTerminal::is_terminal(&std::io::stderr());
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_ansi(ansi)
        .with_writer(std::io::stderr)
        .try_init();
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory;

    #[test]
    fn every_visible_command_has_a_summary_and_at_least_two_examples() {
        fn walk(command: &clap::Command, path: &str, missing: &mut Vec<String>) {
            for sub in command
                .get_subcommands()
                .filter(|c| !c.is_hide_set() && c.get_name() != "help")
            {
                let name = format!("{path} {}", sub.get_name());
                let after = sub.get_after_help().map(|h| h.to_string()).unwrap_or_default();
                let examples = after
                    .split("Examples:")
                    .nth(1)
                    .map(|e| e.lines().filter(|l| !l.trim().is_empty()).count());
                if sub.get_about().is_none() || examples.unwrap_or(0) < 2 {
                    missing.push(name.clone());
                }
                walk(sub, &name, missing);
            }
        }
        let mut missing = Vec::new();
        walk(&super::Cli::command(), "kubectl kruise", &mut missing);
        assert!(
            missing.is_empty(),
            "commands without a summary and two examples: {missing:?}"
        );
    }
}
