//! `kubectl kruise testenv up | down | status | serve`.
use std::path::PathBuf;
use std::time::Duration;

use anyhow::Context as _;
use clap::{Args, Subcommand};

use super::duration;
use crate::testenv::control::{self, UpOptions};
use crate::testenv::kubelet::plan::Defaults;
use crate::testenv::supervisor::{self, ServeOptions};
use crate::testenv::{KUBECONFIG_ENV, RunDir};

#[derive(Debug, Args)]
#[command(
    after_help = "Examples:\n  tests/testenv/build.sh            # build the Go components once (cached)\n  \
eval \"$(kubectl kruise testenv up --bin-dir \"$(tests/testenv/build.sh)\")\"\n  \
kubectl --kubeconfig \"$KRUISE_TESTENV_KUBECONFIG\" get nodes\n  kubectl kruise testenv down"
)]
pub struct TestenvArgs {
    #[command(subcommand)]
    command: TestenvCommand,
}

#[derive(Debug, Args, Clone)]
struct RunDirArg {
    /// Run directory holding PKI, kubeconfig, logs and state [default: $TMPDIR/kubectl-kruise-testenv-$USER]
    #[arg(long, env = "KRUISE_TESTENV_RUN_DIR")]
    run_dir: Option<PathBuf>,
}

impl RunDirArg {
    fn get(&self) -> RunDir {
        RunDir::new(self.run_dir.clone().unwrap_or_else(control::default_run_dir))
    }
}

#[derive(Debug, Args, Clone)]
struct ServeArgs {
    /// Directory with etcd, kube-apiserver, kube-controller-manager, kube-scheduler
    /// (printed by tests/testenv/build.sh)
    #[arg(long, env = "KRUISE_TESTENV_BIN")]
    bin_dir: PathBuf,
    /// Number of simulated nodes (spread over zone-a, zone-b, zone-c)
    #[arg(long, default_value_t = 6)]
    nodes: usize,
    /// A label of the simulated nodes, KEY=V1[,V2...] (repeatable): node i gets value
    /// i mod the number of values (node-pool=pool-a,pool-b,pool-c)
    #[arg(long, value_name = "KEY=VALUES", value_parser = crate::testenv::nodes::Shape::parse_label)]
    node_label: Vec<(String, Vec<String>)>,
    /// A taint of the simulated nodes, KEY[=VALUE]:EFFECT, on every node or on those
    /// listed after @ (dedicated=gpu:NoSchedule@4,5; repeatable)
    #[arg(long, value_name = "TAINT", value_parser = crate::testenv::nodes::Shape::parse_taint)]
    node_taint: Vec<crate::testenv::nodes::Taint>,
    /// Default delay before a bound pod starts (per pod: sim.kubectl-kruise.io/start-delay)
    #[arg(long, default_value = "0s", value_parser = duration)]
    start_delay: Duration,
    /// Default image pull delay, paid on start and on an in-place image change
    /// (per pod: sim.kubectl-kruise.io/image-pull-delay)
    #[arg(long, default_value = "0s", value_parser = duration)]
    image_pull_delay: Duration,
    /// Default run time of restartPolicy Never/OnFailure pods (per pod: sim.kubectl-kruise.io/completion-delay)
    #[arg(long, default_value = "1s", value_parser = duration)]
    completion_delay: Duration,
    /// Two tags of one image digest, IMAGE=SAME (repeatable): the kubelet reports SAME's imageID for IMAGE
    #[arg(long, value_name = "IMAGE=SAME", value_parser = image_pair)]
    same_image: Vec<(String, String)>,
    /// An image whose default command exits at once (repeatable): a container that runs it
    /// without a `command` crashes (CrashLoopBackOff)
    #[arg(long, value_name = "IMAGE")]
    exits_without_command: Vec<String>,
    /// An image no registry has (repeatable): pulling it fails (ImagePullBackOff), on start
    /// and on an in-place change
    #[arg(long, value_name = "IMAGE")]
    missing_image: Vec<String>,
    /// Also run the built-in StatefulSet and DaemonSet controllers (for comparisons)
    #[arg(long)]
    builtin_workload_controllers: bool,
    /// Write the API server's audit log of every write (metadata level, JSON lines) to
    /// RUN_DIR/logs/audit.log: who wrote what, by user agent
    #[arg(long)]
    audit: bool,
}

fn image_pair(value: &str) -> Result<(String, String), String> {
    match value.split_once('=') {
        Some((a, b)) if !a.is_empty() && !b.is_empty() => Ok((a.to_string(), b.to_string())),
        _ => Err(format!("{value:?}: expected IMAGE=SAME, two image references")),
    }
}

impl ServeArgs {
    fn shape(&self) -> crate::testenv::nodes::Shape {
        crate::testenv::nodes::Shape {
            labels: self.node_label.clone(),
            taints: self.node_taint.clone(),
        }
    }

    fn to_args(&self) -> Vec<String> {
        let mut args = vec![
            "--bin-dir".into(),
            self.bin_dir.display().to_string(),
            "--nodes".into(),
            self.nodes.to_string(),
            format!("--start-delay={}ms", self.start_delay.as_millis()),
            format!("--image-pull-delay={}ms", self.image_pull_delay.as_millis()),
            format!("--completion-delay={}ms", self.completion_delay.as_millis()),
        ];
        args.extend(self.shape().to_args());
        for (image, same) in &self.same_image {
            args.push(format!("--same-image={image}={same}"));
        }
        for image in &self.exits_without_command {
            args.push(format!("--exits-without-command={image}"));
        }
        for image in &self.missing_image {
            args.push(format!("--missing-image={image}"));
        }
        if self.builtin_workload_controllers {
            args.push("--builtin-workload-controllers".into());
        }
        if self.audit {
            args.push("--audit".into());
        }
        args
    }
}

#[derive(Debug, Subcommand)]
enum TestenvCommand {
    /// Start the control plane in the background (or reuse the running one) and print
    /// `export KRUISE_TESTENV_KUBECONFIG=...` for eval.
    #[command(
        after_help = "Examples:\n  eval \"$(kubectl kruise testenv up --bin-dir \"$(tests/testenv/build.sh)\")\"\n  \
kubectl kruise testenv up --bin-dir ~/.cache/kubectl-kruise/testenv/<key>/bin --nodes 12 --image-pull-delay 2s\n  \
kubectl kruise testenv up --bin-dir ... --node-label node-pool=pool-a,pool-b,pool-c --node-taint dedicated=gpu:NoSchedule@5\n\n\
A running control plane is reused as it is (its flags are not applied again): run `testenv down` first to change them."
    )]
    Up {
        #[command(flatten)]
        dir: RunDirArg,
        #[command(flatten)]
        serve: ServeArgs,
        /// How long to wait for readiness
        #[arg(long, default_value = "300s", value_parser = duration)]
        timeout: Duration,
    },
    /// Stop the control plane and remove its run directory.
    #[command(
        after_help = "Examples:\n  kubectl kruise testenv down\n  kubectl kruise testenv down --run-dir /tmp/my-run"
    )]
    Down {
        #[command(flatten)]
        dir: RunDirArg,
    },
    /// Say whether a control plane is running, and where.
    #[command(
        after_help = "Examples:\n  kubectl kruise testenv status\n  kubectl kruise testenv status --run-dir /tmp/my-run"
    )]
    Status {
        #[command(flatten)]
        dir: RunDirArg,
    },
    /// Restart the kube-apiserver of a running control plane (same port, same etcd data)
    /// and wait until it is ready again: for fault-tolerance tests.
    #[command(
        after_help = "Examples:\n  kubectl kruise testenv restart-apiserver\n  kubectl kruise testenv restart-apiserver --run-dir /tmp/my-run"
    )]
    RestartApiserver {
        #[command(flatten)]
        dir: RunDirArg,
        /// How long to wait for the restarted API server
        #[arg(long, default_value = "120s", value_parser = duration)]
        timeout: Duration,
    },
    /// Run the control plane in the foreground (what `up` starts in the background).
    #[command(hide = true)]
    Serve {
        #[command(flatten)]
        dir: RunDirArg,
        #[command(flatten)]
        serve: ServeArgs,
    },
}

pub async fn run(args: TestenvArgs) -> anyhow::Result<()> {
    match args.command {
        TestenvCommand::Up { dir, serve, timeout } => {
            let run = dir.get();
            let opts = UpOptions {
                run_dir: run.clone(),
                serve_args: serve.to_args(),
                timeout,
            };
            let state = control::up(&opts).await.context("testenv up")?;
            eprintln!(
                "control plane {} ready at {} ({} nodes, started in {:.1}s)\n  kubectl: export KUBECONFIG={}\n  stop:    kubectl kruise testenv down{}",
                state.kubernetes_version,
                state.server,
                state.nodes.len(),
                state.start_seconds,
                state.kubeconfig.display(),
                dir.run_dir
                    .as_ref()
                    .map(|d| format!(" --run-dir {}", d.display()))
                    .unwrap_or_default(),
            );
            println!("export {KUBECONFIG_ENV}={}", state.kubeconfig.display());
            Ok(())
        }
        TestenvCommand::Down { dir } => {
            control::down(&dir.get()).await.context("testenv down")?;
            eprintln!("control plane stopped");
            Ok(())
        }
        TestenvCommand::Status { dir } => {
            let run = dir.get();
            match control::running(&run).await {
                Some(state) => {
                    println!(
                        "running: {} at {}, kubeconfig {}",
                        state.kubernetes_version,
                        state.server,
                        state.kubeconfig.display()
                    );
                    Ok(())
                }
                None => anyhow::bail!("no control plane is running in {}", run.root.display()),
            }
        }
        TestenvCommand::RestartApiserver { dir, timeout } => {
            let seconds = control::restart_apiserver(&dir.get(), timeout)
                .await
                .context("testenv restart-apiserver")?;
            eprintln!("kube-apiserver restarted and ready in {seconds:.1}s");
            Ok(())
        }
        TestenvCommand::Serve { dir, serve } => {
            let defaults = Defaults {
                start_delay: serve.start_delay,
                image_pull_delay: serve.image_pull_delay,
                completion_delay: serve.completion_delay,
            };
            let opts = ServeOptions {
                shape: serve.shape(),
                bin_dir: serve.bin_dir,
                run_dir: dir.get(),
                nodes: serve.nodes,
                defaults,
                images: crate::testenv::kubelet::plan::Images {
                    same_digest: serve.same_image.into_iter().collect(),
                    exit_without_command: serve.exits_without_command.into_iter().collect(),
                    missing: serve.missing_image.into_iter().collect(),
                },
                builtin_workload_controllers: serve.builtin_workload_controllers,
                audit: serve.audit,
            };
            supervisor::serve(opts).await.context("testenv serve")?;
            Ok(())
        }
    }
}
