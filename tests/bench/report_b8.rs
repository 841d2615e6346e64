//! B8 in `results.md`: ours against OpenKruise's kruise-manager on the same CloneSets, each
//! on a fresh plane at the same client QPS and burst: time and CPU to every pod ready
//! (from the moment the controller and the CloneSets both exist), peak RSS, idle CPU per
//! minute, the in-place rollout's seconds and CPU, and the controller's writes per pod
//! during it, audited, by verb and resource. Ratios: ours over kruise-manager's, medians.
use std::collections::BTreeMap;
use std::fmt::Write as _;

use crate::footprint::{Footprint, IDLE, Shape};
use crate::report::{ratio, show, spread};
use crate::workloads::Contender;

pub fn section(out: &mut String, runs: &[Footprint]) {
    if runs.is_empty() {
        return;
    }
    let _ = writeln!(out, "\n## B8: against OpenKruise's kruise-manager\n");
    let _ = writeln!(
        out,
        "OpenKruise's kruise-manager at the release pinned in `tests/bench/kruise-manager/go.mod`, \
         built from its Go module and started outside the cluster on a plane of its own (its \
         CRDs, webhooks and conversion webhook), against `kubectl kruise run`, on CloneSets of \
         the same shape (`InPlaceIfPossible`, maxUnavailable 10%), at the same client QPS and \
         burst. *ready*: from the moment the controller and the CloneSets both exist to every \
         pod ready (kruise-manager starts first: its webhooks judge the CloneSets); *CPU to \
         ready* includes the process's start; *rollout*: an image change on every CloneSet to \
         every pod rolled; writes: the controller's, audited, to the benchmark's namespace.\n"
    );
    let _ = writeln!(
        out,
        "| CloneSets x pods | controller | s to ready | CPU s to ready | peak RSS MiB | CPU s idle per minute | rollout s | CPU s rollout | writes / pod in the rollout |"
    );
    let _ = writeln!(out, "|---|---|---|---|---|---|---|---|---|");
    let shapes: std::collections::BTreeSet<Shape> = runs.iter().map(|f| f.shape).collect();
    let per_minute = 60.0 / IDLE.as_secs_f64();
    for &shape in &shapes {
        let of = |c: Contender| -> Vec<&Footprint> {
            runs.iter()
                .filter(|f| f.contender == c && f.shape == shape)
                .collect()
        };
        let figures = |c: Contender| {
            let r = of(c);
            let pods = shape.pods().max(1) as f64;
            [
                spread(r.iter().map(|f| f.ready_seconds)),
                spread(r.iter().map(|f| f.settled.cpu_seconds)),
                spread(r.iter().map(|f| f.rolled.peak_rss_mib)),
                spread(
                    r.iter()
                        .map(|f| (f.idle.cpu_seconds - f.settled.cpu_seconds) * per_minute),
                ),
                spread(r.iter().map(|f| f.rollout_seconds)),
                spread(r.iter().map(|f| f.rolled.cpu_seconds - f.idle.cpu_seconds)),
                spread(r.iter().map(|f| f.rollout_writes as f64 / pods)),
            ]
        };
        let digits = [1, 2, 1, 3, 1, 2, 2];
        let (ours, theirs) = (figures(Contender::InPlace), figures(Contender::KruiseManager));
        for (c, row) in [(Contender::InPlace, &ours), (Contender::KruiseManager, &theirs)] {
            let cells: Vec<String> = row.iter().zip(digits).map(|(s, d)| show(*s, d)).collect();
            let _ = writeln!(
                out,
                "| {shape} | {} | {} |",
                c.controller_name(),
                cells.join(" | ")
            );
        }
        let ratios: Vec<String> = ours.iter().zip(&theirs).map(|(a, b)| ratio(*a, *b)).collect();
        let _ = writeln!(
            out,
            "| {shape} | ours / kruise-manager | {} |",
            ratios.join(" | ")
        );
    }
    let _ = writeln!(
        out,
        "\nWrites in the rollout by verb and resource (median per run):\n"
    );
    let _ = writeln!(out, "| CloneSets x pods | controller | writes |");
    let _ = writeln!(out, "|---|---|---|");
    for &shape in &shapes {
        for c in [Contender::InPlace, Contender::KruiseManager] {
            let mut by: BTreeMap<&str, Vec<f64>> = BTreeMap::new();
            for f in runs.iter().filter(|f| f.contender == c && f.shape == shape) {
                for (key, n) in &f.rollout_writes_by {
                    by.entry(key.as_str()).or_default().push(*n as f64);
                }
            }
            let text: Vec<String> = by
                .into_iter()
                .map(|(key, ns)| format!("{key} {}", show(spread(ns), 0)))
                .collect();
            let _ = writeln!(out, "| {shape} | {} | {} |", c.controller_name(), text.join(", "));
        }
    }
}
