//! `migrate cloneset/NAME --from deployment/NAME` on the real control plane: the
//! Deployment's pods move to a CloneSet one at a time, never more than one pod above the
//! total (an independent poller counts them), and a migration stopped with Ctrl-C goes on
//! when run again.
mod support;

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use k8s_openapi::api::apps::v1::Deployment;
use k8s_openapi::api::core::v1::Pod;
use kube::api::{ListParams, PostParams};
use kubectl_kruise::api::cloneset::CloneSet;
use serde_json::json;
use support::controller::RunningController;
use support::{CLI, TestNamespace, wait_for};

#[tokio::test]
async fn a_deployments_pods_move_to_a_cloneset_one_at_a_time_and_a_stopped_migration_goes_on() {
    let ns = TestNamespace::create("migrate").await;
    let controller = RunningController::start(&ns);
    ns.api::<Deployment>()
        .create(
            &PostParams::default(),
            &support::object(
                json!({ "metadata": { "name": "web", "labels": { "team": "shop" } },
                "spec": { "replicas": 3, "selector": { "matchLabels": { "app": "web" } },
                    "template": { "metadata": { "labels": { "app": "web" } },
                        "spec": { "containers": [{ "name": "app", "image": "nginx:1.25" }] } } } }),
            ),
        )
        .await
        .expect("Deployment");
    let deployments = ns.api::<Deployment>();
    wait_for(
        "the Deployment's 3 pods ready",
        support::clonesets::LONG,
        || async {
            let d = deployments.get("web").await.map_err(|e| e.to_string())?;
            let ready = d.status.and_then(|s| s.ready_replicas).unwrap_or(0);
            if ready == 3 {
                Ok(())
            } else {
                Err(format!("{ready} ready"))
            }
        },
    )
    .await;

    let (code, out, err) = support::plugin_in(
        &ns,
        &["migrate", "cloneset/web", "--from", "deploy/web", "--dry-run"],
    )
    .await;
    assert_eq!(code, 0, "{err}");
    assert!(
        out.starts_with(
            "create cloneset/web with 0 replicas from deployment/web\n1. scale cloneset/web to 1"
        ),
        "{out}"
    );
    assert!(out.ends_with("6. scale deployment/web to 0\n"), "{out}");

    // An independent poller: live pods of app=web, never more than 3 + 1.
    let most = Arc::new(AtomicUsize::new(0));
    let poller = {
        let (pods, most) = (ns.api::<Pod>(), most.clone());
        tokio::spawn(async move {
            loop {
                if let Ok(list) = pods.list(&ListParams::default().labels("app=web")).await {
                    let live = list
                        .items
                        .iter()
                        .filter(|p| p.metadata.deletion_timestamp.is_none())
                        .count();
                    most.fetch_max(live, Ordering::Relaxed);
                }
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
        })
    };

    // Stopped with Ctrl-C once its first CloneSet pod is ready.
    let mut first = Command::new(CLI)
        .args([
            "migrate",
            "cloneset/web",
            "--from",
            "deploy/web",
            "-n",
            &ns.name,
            "--kubeconfig",
        ])
        .arg(&ns.kubeconfig)
        .stderr(Stdio::piped())
        .stdout(Stdio::null())
        .spawn()
        .expect("migrate");
    let stderr = first.stderr.take().expect("stderr");
    let pid = first.id().to_string();
    // The reader sends Ctrl-C (SIGINT) at the line and reads on to the end: a closed pipe
    // would make the next line the command writes fail.
    let seen = tokio::task::spawn_blocking(move || {
        let mut seen = String::new();
        for line in BufReader::new(stderr).lines().map_while(Result::ok) {
            if line.contains("1 of 1 ready") && !seen.contains("1 of 1 ready") {
                let _ = Command::new("kill").args(["-INT", &pid]).status();
            }
            seen.push_str(&line);
            seen.push('\n');
        }
        seen
    })
    .await
    .expect("reader");
    assert!(seen.contains("cloneset/web created with 0 replicas"), "{seen}");
    let status = first.wait().expect("wait");
    assert_eq!(status.code(), Some(130), "{seen}");
    let sets = ns.api::<CloneSet>();
    let set = sets.get("web").await.expect("the CloneSet stays");
    assert_eq!(
        set.metadata
            .annotations
            .as_ref()
            .and_then(|a| a.get("kubectl-kruise.io/migrated-replicas"))
            .map(String::as_str),
        Some("3")
    );
    assert_eq!(
        set.metadata
            .labels
            .as_ref()
            .and_then(|l| l.get("team"))
            .map(String::as_str),
        Some("shop")
    );

    // Run again, as users do (through kubectl, as a plugin, on a terminal): it goes on from
    // what is stored, showing each step live with a bar per workload, cleared at the end.
    let command = format!(
        "PATH={} kubectl kruise migrate cloneset/web --from deploy/web -n {} --kubeconfig {}",
        support::path_with_plugin(),
        ns.name,
        ns.kubeconfig.display()
    );
    let session = tokio::task::spawn_blocking(move || support::terminal::run(&command, 24, 100, &[]))
        .await
        .expect("terminal");
    let screen = session.screen();
    assert_eq!(session.code, 0, "{}", session.text());
    assert!(screen.contains("cloneset/web migrated: 3 pods"), "{screen}");
    assert!(!screen.contains("step "), "the live area is cleared: {screen}");
    let frames = session.frames(64);
    let live = frames.iter().find(|f| {
        f.contains("step ")
            && f.lines()
                .any(|l| l.trim_start().starts_with("deployment/web") && l.contains(" pods"))
            && f.lines()
                .any(|l| l.trim_start().starts_with("cloneset/web") && l.contains(" ready"))
    });
    assert!(
        live.is_some(),
        "no live frame with both bars:\n{}",
        frames.join("\n----\n")
    );
    let set = sets.get("web").await.expect("CloneSet");
    let status = set.status.expect("status");
    assert_eq!((set.spec.replicas, status.ready_replicas), (Some(3), 3));
    let deployment = deployments.get("web").await.expect("the Deployment stays");
    assert_eq!(deployment.spec.replicas, Some(0));
    wait_for("the Deployment's pods gone", support::clonesets::LONG, || async {
        let pods = ns
            .api::<Pod>()
            .list(&ListParams::default().labels("app=web"))
            .await
            .map_err(|e| e.to_string())?;
        let owned_by_cloneset = pods
            .items
            .iter()
            .filter(|p| p.metadata.deletion_timestamp.is_none())
            .all(|p| {
                p.metadata
                    .owner_references
                    .iter()
                    .flatten()
                    .any(|o| o.kind == "CloneSet")
            });
        if owned_by_cloneset {
            Ok(())
        } else {
            Err("a Deployment pod is left".to_string())
        }
    })
    .await;
    poller.abort();
    let most = most.load(Ordering::Relaxed);
    assert!(
        most <= 4,
        "{most} live pods at once: more than the total plus the surge"
    );
    assert_eq!(controller.stop(), 0);
}
