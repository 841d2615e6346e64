//! Figures as median (min–max) over runs, the markdown results file and the PNG plots.
//!
//! Invariants:
//! - Every figure printed comes with the runs it summarizes; nothing is a single run
//!   unless `--runs 1` was asked for, and the header says how many.
//! - A ratio is median over median, always against the built-in controller.
use std::fmt::Write as _;
use std::path::Path;

use anyhow::{Context as _, Result};
use plotters::prelude::*;

use crate::footprint::Footprint;
use crate::rollout::Rollout;
use crate::workloads::Contender;

/// Median, min, max.
#[derive(Debug, Clone, Copy)]
pub struct Spread {
    pub median: f64,
    pub min: f64,
    pub max: f64,
}

pub fn spread(values: impl IntoIterator<Item = f64>) -> Option<Spread> {
    let mut sorted: Vec<f64> = values.into_iter().filter(|v| v.is_finite()).collect();
    if sorted.is_empty() {
        return None;
    }
    sorted.sort_by(f64::total_cmp);
    let n = sorted.len();
    let median = if n % 2 == 1 {
        sorted[n / 2]
    } else {
        (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0
    };
    Some(Spread {
        median,
        min: sorted[0],
        max: sorted[n - 1],
    })
}

/// The `q` quantile (0..=1) by nearest rank.
pub fn quantile(values: &[f64], q: f64) -> Option<f64> {
    let mut sorted: Vec<f64> = values.to_vec();
    if sorted.is_empty() {
        return None;
    }
    sorted.sort_by(f64::total_cmp);
    let rank = ((q * sorted.len() as f64).ceil() as usize).clamp(1, sorted.len());
    Some(sorted[rank - 1])
}

pub fn show(s: Option<Spread>, digits: usize) -> String {
    match s {
        Some(s) if s.min == s.max => format!("{:.*}", digits, s.median),
        Some(s) => format!(
            "{:.*} ({:.*}–{:.*})",
            digits, s.median, digits, s.min, digits, s.max
        ),
        None => "n/a".into(),
    }
}

pub fn ratio(ours: Option<Spread>, builtin: Option<Spread>) -> String {
    match (ours, builtin) {
        (Some(a), Some(b)) if b.median > 0.0 => format!("{:.2}×", a.median / b.median),
        _ => "n/a".into(),
    }
}

pub struct Header {
    pub command: String,
    pub machine: Vec<String>,
    pub runs: usize,
}

pub fn markdown(header: &Header, rollouts: &[Rollout], footprints: &[Footprint]) -> String {
    let (b8, footprints): (Vec<Footprint>, Vec<Footprint>) = footprints.iter().cloned().partition(|f| f.b8);
    let footprints = &footprints[..];
    let mut out = String::new();
    let _ = writeln!(out, "# Benchmark results\n");
    let _ = writeln!(
        out,
        "Written by `{}`. Each figure: median (min–max) of {} runs.\n",
        header.command, header.runs
    );
    for line in &header.machine {
        let _ = writeln!(out, "- {line}");
    }
    let sizes: std::collections::BTreeSet<usize> = rollouts
        .iter()
        .filter(|r| !r.contender.per_node())
        .map(|r| r.pods)
        .collect();
    let of = |c: Contender, n: usize| -> Vec<&Rollout> {
        rollouts
            .iter()
            .filter(|r| r.contender == c && r.pods == n)
            .collect()
    };

    let _ = writeln!(
        out,
        "\n## B1: rollout of N pods (seconds until all updated and ready)\n"
    );
    let _ = writeln!(out, "| N | contender | seconds | vs Deployment | plot |");
    let _ = writeln!(out, "|---|---|---|---|---|");
    for &n in &sizes {
        let builtin = spread(of(Contender::Deployment, n).iter().map(|r| r.seconds));
        for c in Contender::ALL {
            let s = spread(of(c, n).iter().map(|r| r.seconds));
            let _ = writeln!(
                out,
                "| {n} | {} | {} | {} | [b1-n{n}.png](b1-n{n}.png) |",
                c.label(),
                show(s, 1),
                ratio(s, builtin)
            );
        }
    }
    for &n in &sizes {
        let _ = writeln!(out, "\n![B1 N={n}](b1-n{n}.png)");
    }

    let _ = writeln!(out, "\n## B2: API writes per updated pod\n");
    let _ = writeln!(
        out,
        "Counted over the rollout window. *ours*: our client's counter; *audited*: the API server's \
         audit log, writes by the contender's controller (user agent) to the namespace; *all \
         clients*: `apiserver_request_total` (mutating verbs), which also counts the simulated \
         kubelets' status patches, the scheduler's bindings and the other controllers.\n"
    );
    let _ = writeln!(
        out,
        "| N | contender | ours | audited | vs Deployment | audited, on the pods only | all clients | audited writes by kind (per pod, median run) |"
    );
    let _ = writeln!(out, "|---|---|---|---|---|---|---|---|");
    for &n in &sizes {
        let per = |r: &Rollout, v: f64| v / r.pods as f64;
        let builtin = spread(
            of(Contender::Deployment, n)
                .iter()
                .map(|r| per(r, r.audited as f64)),
        );
        for c in Contender::ALL {
            let runs = of(c, n);
            let ours = spread(runs.iter().filter_map(|r| r.counted.map(|v| per(r, v))));
            let audited = spread(runs.iter().map(|r| per(r, r.audited as f64)));
            let all = spread(runs.iter().map(|r| per(r, r.apiserver_all)));
            let on_pods = spread(runs.iter().map(|r| per(r, pod_writes(r) as f64)));
            let kinds = by_kind(&runs);
            let _ = writeln!(
                out,
                "| {n} | {} | {} | {} | {} | {} | {} | {kinds} |",
                c.label(),
                show(ours, 2),
                show(audited, 2),
                ratio(audited, builtin),
                show(on_pods, 2),
                show(all, 2)
            );
        }
    }

    daemonsets(&mut out, rollouts);
    crate::report_b8::section(&mut out, &b8);

    let _ = writeln!(
        out,
        "\n## B3/B4 (B7 at 10,000 pods): controller footprint ({} workloads)\n",
        crate::footprint::WORKLOADS
    );
    let _ = writeln!(
        out,
        "Ours: `kubectl kruise run` managing CloneSets, started with the CloneSets already there. \
         Built-in: the plane's kube-controller-manager (all its controllers) managing the \
         equivalent Deployments; its baseline is the same process before the Deployments existed. \
         *settled*: all pods up and ready; *idle*: CPU over the idle period after that; \
         *rolled*: after an image change on every workload.\n"
    );
    let _ = writeln!(
        out,
        "| pods | controller | peak RSS MiB | RSS growth over baseline MiB | CPU s to settle | CPU s idle | CPU s to rolled | idle writes in {}s (ours / audited) | start to first pod s |",
        crate::footprint::IDLE.as_secs()
    );
    let _ = writeln!(out, "|---|---|---|---|---|---|---|---|---|");
    let foot_sizes: std::collections::BTreeSet<usize> = footprints.iter().map(|f| f.pods).collect();
    for &n in &foot_sizes {
        for c in [Contender::InPlace, Contender::Deployment] {
            let runs: Vec<&Footprint> = footprints
                .iter()
                .filter(|f| f.contender == c && f.pods == n)
                .collect();
            if runs.is_empty() {
                continue;
            }
            let base_cpu = |f: &Footprint| f.baseline.map_or(0.0, |b| b.cpu_seconds);
            let peak = spread(runs.iter().map(|f| f.rolled.peak_rss_mib));
            let growth = spread(
                runs.iter()
                    .filter_map(|f| f.baseline.map(|b| f.rolled.peak_rss_mib - b.rss_mib)),
            );
            let settle = spread(runs.iter().map(|f| f.settled.cpu_seconds - base_cpu(f)));
            let rolled = spread(runs.iter().map(|f| f.rolled.cpu_seconds - base_cpu(f)));
            let idle = spread(runs.iter().map(|f| f.idle.cpu_seconds - f.settled.cpu_seconds));
            let idle_ours = spread(runs.iter().filter_map(|f| f.idle_counted));
            let idle_audit = spread(runs.iter().map(|f| f.idle_audited as f64));
            let first = spread(runs.iter().filter_map(|f| f.first_action));
            let name = c.controller_name();
            let _ = writeln!(
                out,
                "| {n} | {name} | {} | {} | {} | {} | {} | {} / {} | {} |",
                show(peak, 1),
                if c == Contender::Deployment {
                    show(growth, 1)
                } else {
                    "(all of it)".into()
                },
                show(settle, 2),
                show(idle, 2),
                show(rolled, 2),
                show(idle_ours, 0),
                show(idle_audit, 0),
                show(first, 2)
            );
        }
    }

    let _ = writeln!(
        out,
        "\n## Bytes per cached pod, and a round's cost per pod (heap)\n"
    );
    let _ = writeln!(
        out,
        "Measured in the benchmark's own process with a counting allocator, on the pods of each \
         B3 or B8 run of ours once they are ready: the pod's JSON as served (less managedFields), \
         a parsed `Pod` behind an `Arc` (what a kube-runtime store holds per pod), and our pod \
         cache's record (metadata parsed, of spec and status only the fields a controller \
         reads). Then what a planning round pays per pod for its snapshot's `Pod`: parsing a \
         whole pod from its JSON (what each round paid while the record kept spec and status \
         as text) against assembling it from the record (microseconds, best of 5).\n"
    );
    let _ = writeln!(
        out,
        "| pods | JSON bytes | parsed `Pod` bytes | cached record bytes | record / parsed | parse µs / pod | assemble µs / pod |"
    );
    let _ = writeln!(out, "|---|---|---|---|---|---|---|");
    let measured: Vec<&Footprint> = footprints
        .iter()
        .chain(&b8)
        .filter(|f| f.cache.is_some())
        .collect();
    let mut cache_sizes: Vec<usize> = measured.iter().map(|f| f.pods).collect();
    cache_sizes.sort_unstable();
    cache_sizes.dedup();
    for &n in &cache_sizes {
        let caches: Vec<_> = measured
            .iter()
            .filter(|f| f.pods == n)
            .filter_map(|f| f.cache)
            .collect();
        let json = spread(caches.iter().map(|c| c.json));
        let parsed = spread(caches.iter().map(|c| c.parsed));
        let cached = spread(caches.iter().map(|c| c.cached));
        let _ = writeln!(
            out,
            "| {n} | {} | {} | {} | {} | {} | {} |",
            show(json, 0),
            show(parsed, 0),
            show(cached, 0),
            ratio(cached, parsed),
            show(spread(caches.iter().map(|c| c.parse_micros)), 2),
            show(spread(caches.iter().map(|c| c.assemble_micros)), 2),
        );
    }

    let _ = writeln!(out, "\n## B5: set image to the first pod touched (seconds)\n");
    let _ = writeln!(
        out,
        "One image change per workload, {} workloads {} ms apart, per run. First pod touched: \
         its spec image changed (in place), or a pod created with the new image or an old one \
         deleted (Deployment). p50/p99 of each run's samples, then median (min–max) over runs.\n",
        crate::footprint::WORKLOADS,
        crate::footprint::PACE.as_millis()
    );
    let _ = writeln!(
        out,
        "| pods | controller | samples per run | p50 | p99 | p99 vs built-in |"
    );
    let _ = writeln!(out, "|---|---|---|---|---|---|");
    for &n in &foot_sizes {
        let q = |c: Contender, q: f64| {
            spread(
                footprints
                    .iter()
                    .filter(|f| f.contender == c && f.pods == n)
                    .filter_map(|f| quantile(&f.latencies, q)),
            )
        };
        for c in [Contender::InPlace, Contender::Deployment] {
            let samples = spread(
                footprints
                    .iter()
                    .filter(|f| f.contender == c && f.pods == n)
                    .map(|f| f.latencies.len() as f64),
            );
            let name = c.controller_name();
            let _ = writeln!(
                out,
                "| {n} | {name} | {} | {} | {} | {} |",
                show(samples, 0),
                show(q(c, 0.5), 3),
                show(q(c, 0.99), 3),
                ratio(q(c, 0.99), q(Contender::Deployment, 0.99))
            );
        }
    }
    out
}

/// B6: the Advanced DaemonSet's in-place rollout against the built-in DaemonSet's.
fn daemonsets(out: &mut String, rollouts: &[Rollout]) {
    let of = |c: Contender| -> Vec<&Rollout> { rollouts.iter().filter(|r| r.contender == c).collect() };
    let Some(nodes) = of(Contender::DaemonSetInPlace).first().map(|r| r.pods) else {
        return;
    };
    let _ = writeln!(
        out,
        "\n## B6: DaemonSet rollout over {nodes} nodes (one pod each)\n\nThe same image change, \
         maxUnavailable 10%: the Advanced DaemonSet updates in place (`kubectl kruise run`), the \
         built-in DaemonSet recreates (kube-controller-manager). Seconds until every node runs the \
         new image ready; writes audited from each controller, per pod.\n"
    );
    let _ = writeln!(
        out,
        "| contender | seconds | vs DaemonSet | audited writes/pod | vs DaemonSet | on the pods only | audited writes by kind (per pod, median run) |"
    );
    let _ = writeln!(out, "|---|---|---|---|---|---|---|");
    let per = |r: &Rollout, v: f64| v / r.pods as f64;
    let builtin = of(Contender::BuiltinDaemonSet);
    let builtin_seconds = spread(builtin.iter().map(|r| r.seconds));
    let builtin_writes = spread(builtin.iter().map(|r| per(r, r.audited as f64)));
    for c in Contender::DAEMONS {
        let runs = of(c);
        let seconds = spread(runs.iter().map(|r| r.seconds));
        let writes = spread(runs.iter().map(|r| per(r, r.audited as f64)));
        let on_pods = spread(runs.iter().map(|r| per(r, pod_writes(r) as f64)));
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {} | {} | {} |",
            c.label(),
            show(seconds, 1),
            ratio(seconds, builtin_seconds),
            show(writes, 2),
            ratio(writes, builtin_writes),
            show(on_pods, 2),
            by_kind(&runs)
        );
    }
}

/// The median run's audited writes by verb and resource, per pod.
fn by_kind(runs: &[&Rollout]) -> String {
    median_run(runs)
        .map(|r| {
            r.audited_by_kind
                .iter()
                .map(|(k, v)| format!("{k} {:.2}", *v as f64 / r.pods as f64))
                .collect::<Vec<_>>()
                .join(", ")
        })
        .unwrap_or_default()
}

/// Audited writes to the pods themselves (pods and pods/status: create, patch, delete).
fn pod_writes(r: &Rollout) -> usize {
    r.audited_by_kind
        .iter()
        .filter(|(k, _)| {
            k.split_whitespace()
                .nth(1)
                .is_some_and(|res| res == "pods" || res.starts_with("pods/"))
        })
        .map(|(_, v)| v)
        .sum()
}

/// The run whose duration is the median (the one plotted and broken down).
fn median_run<'a>(runs: &[&'a Rollout]) -> Option<&'a Rollout> {
    let mut sorted = runs.to_vec();
    sorted.sort_by(|a, b| a.seconds.total_cmp(&b.seconds));
    sorted.get(sorted.len() / 2).copied()
}

/// Registers the system's DejaVu Sans for the plots' text.
pub fn load_font() -> Result<()> {
    const CANDIDATES: [&str; 2] = [
        "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
        "/usr/share/fonts/TTF/DejaVuSans.ttf",
    ];
    let path = CANDIDATES
        .iter()
        .find(|p| Path::new(p).exists())
        .context("no DejaVuSans.ttf for the plots (Debian package fonts-dejavu-core)")?;
    let bytes: &'static [u8] = Box::leak(std::fs::read(path)?.into_boxed_slice());
    plotters::style::register_font("sans-serif", FontStyle::Normal, bytes)
        .map_err(|_| anyhow::anyhow!("{path} is not a font"))?;
    Ok(())
}

/// B1's plot for size `n`: updated-ready pods over seconds, the median run of each contender.
pub fn plot(path: &Path, n: usize, rollouts: &[Rollout]) -> Result<()> {
    let lines: Vec<(Contender, Vec<(f64, usize)>)> = Contender::ALL
        .iter()
        .filter_map(|&c| {
            let runs: Vec<&Rollout> = rollouts
                .iter()
                .filter(|r| r.contender == c && r.pods == n)
                .collect();
            median_run(&runs).map(|r| (c, r.timeline.clone()))
        })
        .collect();
    let max_t = lines
        .iter()
        .flat_map(|(_, t)| t.iter().map(|(s, _)| *s))
        .fold(1.0_f64, f64::max)
        * 1.05;
    let root = BitMapBackend::new(path, (960, 540)).into_drawing_area();
    root.fill(&WHITE)?;
    let mut chart = ChartBuilder::on(&root)
        .caption(
            format!("Rollout of {n} pods: updated and ready over time (median run)"),
            ("sans-serif", 22),
        )
        .margin(16)
        .x_label_area_size(44)
        .y_label_area_size(60)
        .build_cartesian_2d(0.0..max_t, 0..n + n / 20)?;
    chart
        .configure_mesh()
        .x_desc("seconds since the image change")
        .y_desc("pods updated and ready")
        .label_style(("sans-serif", 15))
        .draw()?;
    // The built-in first and widest, so a contender on the same line still shows.
    let style = |c: Contender| match c {
        Contender::InPlace | Contender::DaemonSetInPlace => (RGBColor(214, 39, 40), 3),
        Contender::KruiseManager => (RGBColor(44, 160, 44), 4),
        Contender::Recreate => (RGBColor(31, 119, 180), 2),
        Contender::Deployment | Contender::BuiltinDaemonSet => (RGBColor(150, 150, 150), 7),
    };
    for (contender, timeline) in lines.iter().rev() {
        let (color, width) = style(*contender);
        // A step line: each count holds until the next change.
        let mut points = Vec::new();
        for pair in timeline.windows(2) {
            points.push(pair[0]);
            points.push((pair[1].0, pair[0].1));
        }
        if let Some(last) = timeline.last() {
            points.push(*last);
        }
        chart
            .draw_series(LineSeries::new(points, color.stroke_width(width)))?
            .label(contender.label())
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 24, y)], color.stroke_width(width)));
    }
    chart
        .configure_series_labels()
        .background_style(WHITE.mix(0.9))
        .border_style(BLACK)
        .position(SeriesLabelPosition::LowerRight)
        .label_font(("sans-serif", 16))
        .draw()?;
    root.present()?;
    Ok(())
}
