//! Command line: clap definitions and dispatch. The binary calls [`main`] and nothing else.
//!
//! Exit codes (see `cli-conventions.md`): 0 success, 1 failure, 2 bad usage.
pub mod completion;
pub mod connection;
mod testenv;

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
    /// Print a shell completion script (bash, zsh, fish, powershell, elvish)
    #[command(after_help = completion::AFTER_HELP)]
    Completion {
        /// The shell to print the script for
        shell: completion::ShellArg,
    },
    /// Local control plane for demos and tests (etcd, kube-apiserver, controller-manager,
    /// scheduler built from Go modules, with simulated nodes).
    Testenv(testenv::TestenvArgs),
}

pub fn main() -> ExitCode {
    use clap::{CommandFactory, FromArgMatches};
    let matches = Cli::command().bin_name(display_name()).get_matches();
    let cli = match Cli::from_arg_matches(&matches) {
        Ok(cli) => cli,
        Err(e) => e.exit(),
    };
    init_logging(cli.connection.verbosity);
    let runtime = match tokio::runtime::Builder::new_multi_thread().enable_all().build() {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("error: cannot start the async runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    let outcome = runtime.block_on(async {
        match cli.command {
            Command::Version => version(&cli.connection).await,
            Command::Completion { shell } => {
                use clap::CommandFactory;
                print!("{}", completion::script(Cli::command(), shell.into()));
                Ok(())
            }
            Command::Testenv(args) => testenv::run(args).await,
        }
    });
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
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
