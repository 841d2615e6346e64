//! Command line: clap definitions and dispatch. The binary calls [`main`] and nothing else.
//!
//! Exit codes (see `cli-conventions.md`): 0 success, 1 failure, 2 bad usage.
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
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Print the client version.
    Version,
    /// Local control plane for demos and tests (etcd, kube-apiserver, controller-manager,
    /// scheduler built from Go modules, with simulated nodes).
    Testenv(testenv::TestenvArgs),
}

pub fn main() -> ExitCode {
    let cli = Cli::parse();
    init_logging();
    let runtime = match tokio::runtime::Builder::new_multi_thread().enable_all().build() {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("error: cannot start the async runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    let outcome = runtime.block_on(async {
        match cli.command {
            Command::Version => {
                println!("kubectl-kruise {}", env!("CARGO_PKG_VERSION"));
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

fn init_logging() {
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("warn"));
    let ansi = std::io::IsTerminal::is_terminal(&std::io::stderr());
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_ansi(ansi)
        .with_writer(std::io::stderr)
        .try_init();
}
