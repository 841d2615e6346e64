//! The benchmark runner: `cargo bench --bench kruise -- [--sizes 100,1000] [--runs 3]`.
//!
//! B1/B2 roll N pods with each contender on one control plane; B3/B4/B5 start a fresh
//! control plane per run; B6 rolls an Advanced DaemonSet and a built-in one over
//! `--daemonset-nodes` nodes on a plane of their own. Prints progress, writes `results.md` and the B1 plots (PNG) to
//! `--out` (tests/bench/report). Figures are median (min–max) of `--runs` runs and ratios
//! against the built-in controllers measured in the same invocation.
//!
//! Invariants:
//! - Every contender meets the same simulated nodes and delays (one `Sim` for the run).
//! - A failed scenario fails the runner (exit 1) and writes no report: no partial figures.
mod footprint;
mod kruise_manager;
mod plane;
mod report;
mod report_b8;
mod rollout;
mod workloads;

use std::path::PathBuf;
use std::process::Command;
use std::time::Duration;

use anyhow::{Context as _, Result, bail};
use clap::Parser;

use plane::{Plane, Sim};
use workloads::Contender;

/// Counts heap bytes, for the bytes per cached pod (B3).
#[global_allocator]
static GLOBAL: &stats_alloc::StatsAlloc<std::alloc::System> = &stats_alloc::INSTRUMENTED_SYSTEM;

#[derive(Parser, Debug)]
#[command(about = "kubectl-kruise benchmarks against the built-in controllers (B1-B6)")]
struct Args {
    /// B1/B2 rollout sizes (pods); 0 skips them
    #[arg(long, value_delimiter = ',', default_value = "100,1000")]
    sizes: Vec<usize>,
    /// B3/B4/B5 sizes (pods across 100 workloads); 0 skips them
    #[arg(long, value_delimiter = ',', default_value = "1000")]
    footprint_pods: Vec<usize>,
    /// Runs per figure (the median, min and max are reported)
    #[arg(long, default_value_t = 3)]
    runs: usize,
    /// Simulated delay before a new pod's containers start
    #[arg(long, default_value = "1s", value_parser = humantime)]
    start_delay: Duration,
    /// Simulated image pull, paid on start and on an in-place image change
    #[arg(long, default_value = "2s", value_parser = humantime)]
    image_pull_delay: Duration,
    /// Simulated nodes
    #[arg(long, default_value_t = 10)]
    nodes: usize,
    /// B6: nodes of the DaemonSet rollouts (one pod each, on a plane of their own); 0 skips it
    #[arg(long, default_value_t = 100)]
    daemonset_nodes: usize,
    /// Our controller's client QPS (burst: twice that); kube-controller-manager has 200 per
    /// controller
    #[arg(long, default_value_t = 200)]
    qps: u32,
    /// B8: CloneSet shapes (WORKLOADSxPODS) run by ours and by OpenKruise's kruise-manager,
    /// each on a fresh plane; 0 skips B8
    #[arg(long, value_delimiter = ',', default_value = "1x1000,100x100", value_parser = shape)]
    b8: Vec<Option<footprint::Shape>>,
    /// B8: both controllers' client QPS and burst (kruise-manager's defaults: 30 and 50)
    #[arg(long, default_value_t = 30)]
    b8_qps: u32,
    #[arg(long, default_value_t = 50)]
    b8_burst: u32,
    /// B8: measure our controller alone (a before/after look at a change of ours; the
    /// report then has no kruise-manager figures)
    #[arg(long)]
    b8_ours_only: bool,
    /// Where results.md and the plots go
    #[arg(long, default_value = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/bench/report"))]
    out: PathBuf,
    /// Passed by `cargo bench`; ignored
    #[arg(long, hide = true)]
    bench: bool,
}

/// `WORKLOADSxPODS` (pods per workload); `0`: none.
fn shape(text: &str) -> Result<Option<footprint::Shape>, String> {
    if text == "0" {
        return Ok(None);
    }
    let bad = || format!("not a shape (WORKLOADSxPODS, e.g. 100x100): {text}");
    let (w, p) = text.split_once('x').ok_or_else(bad)?;
    let (workloads, per) = (w.parse().map_err(|_| bad())?, p.parse().map_err(|_| bad())?);
    match workloads > 0 && per > 0 {
        true => Ok(Some(footprint::Shape { workloads, per })),
        false => Err(bad()),
    }
}

fn humantime(text: &str) -> Result<Duration, String> {
    let (number, unit) = text.split_at(text.find(|c: char| !c.is_ascii_digit()).unwrap_or(text.len()));
    let n: u64 = number.parse().map_err(|_| format!("not a duration: {text}"))?;
    match unit {
        "ms" => Ok(Duration::from_millis(n)),
        "s" | "" => Ok(Duration::from_secs(n)),
        _ => Err(format!("not a duration (use ms or s): {text}")),
    }
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    if let Err(error) = run(Args::parse()).await {
        eprintln!("benchmark failed: {error:#}");
        std::process::exit(1);
    }
}

async fn run(args: Args) -> Result<()> {
    if args.runs == 0 {
        bail!("--runs must be at least 1");
    }
    report::load_font()?;
    let sim = Sim {
        nodes: args.nodes,
        start_delay: args.start_delay,
        image_pull_delay: args.image_pull_delay,
        qps: args.qps,
        burst: args.qps * 2,
        builtin_workloads: false,
    };
    // Read before the runs: the commit checked out now is the one cargo just built (an hour
    // later it may not be).
    let machine = machine(sim);
    let bin_dir = control_plane_bin_dir()?;
    let command = format!(
        "cargo bench --bench kruise -- --sizes {} --footprint-pods {} --runs {} --start-delay {}ms --image-pull-delay {}ms --nodes {} --daemonset-nodes {} --qps {} --b8 {} --b8-qps {} --b8-burst {}{}",
        join(&args.sizes),
        join(&args.footprint_pods),
        args.runs,
        args.start_delay.as_millis(),
        args.image_pull_delay.as_millis(),
        args.nodes,
        args.daemonset_nodes,
        args.qps,
        match args
            .b8
            .iter()
            .flatten()
            .map(|s| format!("{}x{}", s.workloads, s.per))
            .collect::<Vec<_>>()
        {
            shapes if shapes.is_empty() => "0".to_string(),
            shapes => shapes.join(","),
        },
        args.b8_qps,
        args.b8_burst,
        if args.b8_ours_only { " --b8-ours-only" } else { "" }
    );

    let mut footprints = Vec::new();
    for &pods in args.footprint_pods.iter().filter(|&&p| p > 0) {
        for run in 0..args.runs {
            for contender in [Contender::InPlace, Contender::Deployment] {
                eprintln!("B3/B4/B5: {} pods, {}, run {}", pods, contender.label(), run + 1);
                footprints.push(footprint::footprint(&bin_dir, sim, contender, pods, run).await?);
            }
        }
    }

    let b8_shapes: Vec<footprint::Shape> = args.b8.iter().flatten().copied().collect();
    if !b8_shapes.is_empty() {
        let manager_bin = kruise_manager::bin_dir()?;
        let b8_sim = Sim {
            qps: args.b8_qps,
            burst: args.b8_burst,
            ..sim
        };
        for &shape in &b8_shapes {
            for run in 0..args.runs {
                let contenders = match args.b8_ours_only {
                    true => &[Contender::InPlace][..],
                    false => &[Contender::InPlace, Contender::KruiseManager][..],
                };
                for &contender in contenders {
                    eprintln!("B8: {shape} pods, {}, run {}", contender.label(), run + 1);
                    footprints
                        .push(footprint::b8(&bin_dir, &manager_bin, b8_sim, contender, shape, run).await?);
                }
            }
        }
    }

    let mut rollouts = Vec::new();
    let sizes: Vec<usize> = args.sizes.iter().copied().filter(|&n| n > 0).collect();
    if !sizes.is_empty() {
        let plane = Plane::start(&bin_dir, "b1", sim).await?;
        for &pods in &sizes {
            for contender in Contender::ALL {
                eprintln!("B1/B2: {} N={pods}, {} runs", contender.label(), args.runs);
                rollouts.extend(rollout::rollouts(&plane, sim.qps, contender, pods, args.runs).await?);
            }
        }
    }

    if args.daemonset_nodes > 0 {
        let nodes = args.daemonset_nodes;
        let b6 = Sim {
            nodes,
            builtin_workloads: true,
            ..sim
        };
        let plane = Plane::start(&bin_dir, "b6", b6).await?;
        for contender in Contender::DAEMONS {
            eprintln!("B6: {} over {nodes} nodes, {} runs", contender.label(), args.runs);
            rollouts.extend(rollout::rollouts(&plane, sim.qps, contender, nodes, args.runs).await?);
        }
    }

    std::fs::create_dir_all(&args.out)?;
    for &pods in &sizes {
        report::plot(&args.out.join(format!("b1-n{pods}.png")), pods, &rollouts)?;
    }
    let header = report::Header {
        command,
        machine,
        runs: args.runs,
    };
    let text = report::markdown(&header, &rollouts, &footprints);
    std::fs::write(args.out.join("results.md"), &text)?;
    println!("{text}");
    eprintln!("wrote {}", args.out.join("results.md").display());
    Ok(())
}

fn join(values: &[usize]) -> String {
    values.iter().map(usize::to_string).collect::<Vec<_>>().join(",")
}

/// tests/testenv/build.sh: builds (or finds cached) the control plane, prints its bin dir.
fn control_plane_bin_dir() -> Result<String> {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/testenv/build.sh");
    let out = Command::new(script)
        .stderr(std::process::Stdio::inherit())
        .output()
        .with_context(|| format!("running {script}"))?;
    if !out.status.success() {
        bail!("{script} failed");
    }
    Ok(String::from_utf8_lossy(&out.stdout).trim().to_string())
}

fn first_line(program: &str, args: &[&str]) -> String {
    Command::new(program)
        .args(args)
        .output()
        .map(|o| {
            String::from_utf8_lossy(&o.stdout)
                .lines()
                .next()
                .unwrap_or_default()
                .to_string()
        })
        .unwrap_or_else(|_| format!("{program}: not found"))
}

/// The machine and versions, for the report's header.
fn machine(sim: Sim) -> Vec<String> {
    let cpuinfo = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    let model = cpuinfo
        .lines()
        .find(|l| l.starts_with("model name"))
        .and_then(|l| l.split_once(':'))
        .map(|(_, m)| m.trim().to_string())
        .unwrap_or_default();
    let memory = std::fs::read_to_string("/proc/meminfo")
        .unwrap_or_default()
        .lines()
        .next()
        .unwrap_or_default()
        .split_whitespace()
        .nth(1)
        .and_then(|kib| kib.parse::<f64>().ok())
        .map_or_else(String::new, |kib| format!("{:.0} GiB", kib / 1024.0 / 1024.0));
    let go_mod = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/testenv/k8s/go.mod"))
        .unwrap_or_default();
    let kubernetes = go_mod
        .lines()
        .find_map(|l| {
            // `require k8s.io/kubernetes v1.36.3 // indirect`: the version word only.
            l.split_once("k8s.io/kubernetes v")
                .and_then(|(_, v)| v.split_whitespace().next())
                .map(|v| format!("v{v}"))
        })
        .unwrap_or_default();
    vec![
        format!(
            "machine: {} × {model}, {memory}, {}",
            std::thread::available_parallelism().map_or(0, |n| n.get()),
            first_line("uname", &["-sr"])
        ),
        format!(
            "versions: kubectl-kruise {} (release build of commit {}), Kubernetes {kubernetes} (etcd, kube-apiserver, kube-controller-manager, kube-scheduler built from Go modules), {}, {}",
            env!("CARGO_PKG_VERSION"),
            first_line(
                "git",
                &[
                    "-C",
                    env!("CARGO_MANIFEST_DIR"),
                    "describe",
                    "--always",
                    "--dirty"
                ]
            ),
            first_line("rustc", &["-V"]),
            first_line("go", &["version"])
        ),
        format!(
            "simulated nodes: {}; every new pod waits {} ms (start) + {} ms (image pull); an in-place image change waits the image pull only",
            sim.nodes,
            sim.start_delay.as_millis(),
            sim.image_pull_delay.as_millis()
        ),
        format!(
            "client limits: our controller QPS {} / burst {} (one client for the process), kube-controller-manager QPS 200 / burst 400 per controller's client",
            sim.qps,
            sim.qps * 2
        ),
        "contenders: maxUnavailable 10%, maxSurge 0, one container, the same image change".into(),
    ]
}
