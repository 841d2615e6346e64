//! The control plane's own lifecycle: `up` then `down` leaves no process and no files,
//! and a component that cannot start fails `up` with that component's log tail.
//! These start their own control planes in private run directories.
mod support;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use kubectl_kruise::testenv::{ReadyState, RunDir};
use support::{CLI, control_plane_bin_dir};

fn private_run_dir(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("kruise-lifecycle-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn testenv(args: &[&str], run_dir: &Path) -> Output {
    Command::new(CLI)
        .arg("testenv")
        .args(args)
        .arg("--run-dir")
        .arg(run_dir)
        .output()
        .expect("run kubectl-kruise")
}

/// Processes whose process group is `pgid`, with their resident memory in KiB.
fn group_members(pgid: u32) -> Vec<(u32, String, u64)> {
    let mut members = Vec::new();
    for entry in std::fs::read_dir("/proc").into_iter().flatten().flatten() {
        let Ok(pid) = entry.file_name().to_string_lossy().parse::<u32>() else {
            continue;
        };
        let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
            continue;
        };
        let Some((head, rest)) = stat.rsplit_once(')') else {
            continue;
        };
        let fields: Vec<&str> = rest.split_whitespace().collect();
        // After the name: state, ppid, pgrp, ... ; field 24 of the line is rss in pages.
        if fields.get(2).and_then(|g| g.parse::<u32>().ok()) != Some(pgid) || fields.first() == Some(&"Z") {
            continue;
        }
        let name = head
            .split_once('(')
            .map(|(_, n)| n.to_string())
            .unwrap_or_default();
        let rss_pages: u64 = fields.get(21).and_then(|r| r.parse().ok()).unwrap_or(0);
        members.push((pid, name, rss_pages * 4));
    }
    members
}

#[test]
fn up_then_down_starts_every_component_and_leaves_nothing_behind() {
    let bin = control_plane_bin_dir();
    let run_dir = private_run_dir("updown");
    let up = testenv(&["up", "--bin-dir", &bin], &run_dir);
    assert!(
        up.status.success(),
        "up failed: {}",
        String::from_utf8_lossy(&up.stderr)
    );
    let state = ReadyState::read(&RunDir::new(&run_dir)).expect("ready.json after up");
    assert_eq!(state.nodes.len(), 6);
    assert!(
        state.kubernetes_version.starts_with("v1.36."),
        "version {}",
        state.kubernetes_version
    );

    let members = group_members(state.supervisor_pid);
    let names: Vec<&str> = members.iter().map(|(_, n, _)| n.as_str()).collect();
    for component in [
        "etcd",
        "kube-apiserver",
        "kube-controll",
        "kube-scheduler",
        "kubectl-kruise",
    ] {
        assert!(
            names.iter().any(|n| n.starts_with(component)),
            "{component} not running; group has {names:?}"
        );
    }
    let rss_mib: u64 = members.iter().map(|(_, _, kib)| kib).sum::<u64>() / 1024;
    println!(
        "control plane started in {:.1}s, resident memory {rss_mib} MiB idle ({names:?})",
        state.start_seconds
    );

    // `status` sees it; a second `up` reuses it instead of starting another.
    assert!(testenv(&["status"], &run_dir).status.success());
    let again = testenv(&["up", "--bin-dir", &bin], &run_dir);
    assert!(again.status.success());
    let state_again = ReadyState::read(&RunDir::new(&run_dir)).expect("ready.json");
    assert_eq!(
        state_again.supervisor_pid, state.supervisor_pid,
        "a second up started another control plane"
    );

    let down = testenv(&["down"], &run_dir);
    assert!(
        down.status.success(),
        "down failed: {}",
        String::from_utf8_lossy(&down.stderr)
    );
    let left = group_members(state.supervisor_pid);
    assert!(left.is_empty(), "processes left after down: {left:?}");
    assert!(!run_dir.exists(), "run directory left after down");
    assert!(!state.etcd_data_dir.exists(), "etcd data left after down");
    assert!(
        !testenv(&["status"], &run_dir).status.success(),
        "status says running after down"
    );
}

#[test]
fn a_component_that_cannot_start_fails_up_with_its_log_tail() {
    let run_dir = private_run_dir("broken");
    let bin = private_run_dir("broken-bin");
    std::fs::create_dir_all(&bin).expect("bin dir");
    let etcd = bin.join("etcd");
    std::fs::write(
        &etcd,
        "#!/bin/sh\necho 'etcd: simulated disk failure on /data' >&2\nexit 3\n",
    )
    .expect("write fake etcd");
    Command::new("chmod")
        .arg("+x")
        .arg(&etcd)
        .status()
        .expect("chmod");

    let up = testenv(
        &["up", "--bin-dir", &bin.display().to_string(), "--timeout", "60s"],
        &run_dir,
    );
    let stderr = String::from_utf8_lossy(&up.stderr);
    assert!(!up.status.success(), "up succeeded with a broken etcd");
    assert!(
        stderr.contains("etcd exited before it was ready"),
        "no component named: {stderr}"
    );
    assert!(
        stderr.contains("simulated disk failure on /data"),
        "no log tail: {stderr}"
    );
    let _ = testenv(&["down"], &run_dir);
    let _ = std::fs::remove_dir_all(&bin);
}

#[test]
fn a_missing_binary_fails_up_with_how_to_build_it() {
    let run_dir = private_run_dir("missing");
    let bin = private_run_dir("missing-bin");
    std::fs::create_dir_all(&bin).expect("bin dir");
    let up = testenv(
        &["up", "--bin-dir", &bin.display().to_string(), "--timeout", "60s"],
        &run_dir,
    );
    let stderr = String::from_utf8_lossy(&up.stderr);
    assert!(!up.status.success());
    assert!(
        stderr.contains("etcd not found") && stderr.contains("tests/testenv/build.sh"),
        "unhelpful error: {stderr}"
    );
    let _ = testenv(&["down"], &run_dir);
    let _ = std::fs::remove_dir_all(&bin);
}
