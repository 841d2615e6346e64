//! Leader election of `kubectl kruise run` on the real control plane: two runs in one
//! namespace, one writer at a time, failover after a crash, release on a graceful exit.
mod support;

use std::time::Duration;

use k8s_openapi::api::coordination::v1::Lease;
use kube::api::Api;
use serde_json::json;
use support::clonesets::*;
use support::controller::RunningController;
use support::{TestNamespace, wait_for};

const SHORT_LEASE: &[&str] = &["--leader-elect-lease-duration", "3s"];

#[tokio::test]
async fn one_run_writes_at_a_time_and_the_standby_takes_over_after_a_crash() {
    let ns = TestNamespace::create("leader").await;
    let first = RunningController::start_with(&ns, SHORT_LEASE);
    wait_for("the first run leads", Duration::from_secs(20), || async {
        if first.log_text().contains("leading: holding the lease") {
            Ok(())
        } else {
            Err(first.log_tail())
        }
    })
    .await;
    let second = RunningController::start_with(&ns, SHORT_LEASE);
    wait_for("the second run is a standby", Duration::from_secs(20), || async {
        let log = second.log_text();
        if log.contains(&format!(
            "standby: the lease {}/kubectl-kruise is held by",
            ns.name
        )) {
            Ok(())
        } else {
            Err(log)
        }
    })
    .await;
    // Not ready as a leader, but it serves the webhooks: `/readyz?exclude=leader`, the
    // in-cluster manager's readiness probe, makes every replica an endpoint of their Service.
    let (status, body) = second.get("/readyz").expect("/readyz answers");
    assert!(status.contains("503"), "{status} {body}");
    wait_for(
        "the standby ready for its webhooks",
        Duration::from_secs(30),
        || async {
            let (status, body) = second
                .get("/readyz?exclude=leader")
                .ok_or_else(|| "no answer".to_string())?;
            if status.contains("200") {
                Ok(())
            } else {
                Err(format!("{status} {body}"))
            }
        },
    )
    .await;

    let set = cloneset("lead", 3, json!({ "type": "InPlaceIfPossible" }), json!({}));
    create(&ns, &set).await;
    wait_settled(&ns, "lead", 3, 3, &first).await;
    assert_eq!(
        second.writes_to("pods"),
        0.0,
        "the standby wrote:\n{}",
        second.log_tail()
    );
    assert!(first.writes_to("pods") > 0.0);

    first.kill();
    set_image(&ns, "lead", "nginx:1.26").await;
    wait_settled(&ns, "lead", 3, 3, &second).await;
    assert!(
        second.log_text().contains("leading: holding the lease"),
        "{}",
        second.log_tail()
    );
    assert!(second.writes_to("pods") > 0.0, "the new leader did the rollout");

    let leases: Api<Lease> = ns.api();
    let held = leases.get("kubectl-kruise").await.expect("lease");
    let spec = held.spec.clone().unwrap_or_default();
    assert!(
        spec.holder_identity.is_some() && spec.lease_transitions >= Some(1),
        "{spec:?}"
    );
    assert_eq!(second.stop(), 0, "graceful stop");
    let released = leases.get("kubectl-kruise").await.expect("lease");
    assert_eq!(
        released.spec.and_then(|s| s.holder_identity),
        None,
        "a graceful exit releases the lease"
    );
}

#[tokio::test]
async fn without_leader_election_no_lease_is_written() {
    let ns = TestNamespace::create("no-leader").await;
    let run = RunningController::start_with(&ns, &["--leader-elect=false"]);
    let set = cloneset("free", 1, json!({}), json!({}));
    create(&ns, &set).await;
    wait_settled(&ns, "free", 1, 1, &run).await;
    let leases: Api<Lease> = ns.api();
    assert!(leases.get_opt("kubectl-kruise").await.expect("read").is_none());
    assert!(!run.log_text().contains("leading:"));
}

/// `run` on the private plane: (exit code, stderr) once it exits by itself.
fn run_to_exit(kubeconfig: &std::path::Path, args: &[&str]) -> (i32, String) {
    let (code, _, err) = support::kruise(
        kubeconfig,
        &[&["run", "--metrics-addr", "127.0.0.1:0"], args].concat(),
    );
    (code, err)
}

#[tokio::test]
async fn a_namespaced_run_and_an_all_namespaces_run_refuse_to_overlap() {
    // All namespaces: a control plane of its own, so no other test's objects are touched.
    let plane = support::PrivateControlPlane::start("leader-scopes");
    let ns = TestNamespace::create_on(plane.client().await, &plane.kubeconfig, "scoped").await;
    let scoped = RunningController::start_with(&ns, SHORT_LEASE);
    wait_for("the scoped run leads", Duration::from_secs(20), || async {
        let log = scoped.log_text();
        if log.contains("leading:") {
            Ok(())
        } else {
            Err(log)
        }
    })
    .await;
    let (code, err) = run_to_exit(&plane.kubeconfig, &[]);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains(&format!("lease {}/kubectl-kruise held by", ns.name))
            && err.contains("--leader-elect-namespace"),
        "{err}"
    );
    assert_eq!(scoped.stop(), 0);

    let mut everywhere = std::process::Command::new(support::CLI)
        .args(["run", "--metrics-addr", "127.0.0.1:0", "--kubeconfig"])
        .arg(&plane.kubeconfig)
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("all-namespaces run");
    let leases: Api<Lease> = Api::namespaced(plane.client().await, "default");
    wait_for(
        "the all-namespaces run leads",
        Duration::from_secs(20),
        || async {
            let lease = leases
                .get_opt("kubectl-kruise")
                .await
                .map_err(|e| e.to_string())?;
            lease
                .and_then(|l| l.spec)
                .and_then(|s| s.holder_identity)
                .map(|_| ())
                .ok_or_else(|| "no holder yet".to_string())
        },
    )
    .await;
    let (code, err) = run_to_exit(&plane.kubeconfig, &["-n", &ns.name]);
    let _ = everywhere.kill();
    let _ = everywhere.wait();
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("an all-namespaces run also reconciles namespace")
            && err.contains("lease default/kubectl-kruise held by"),
        "{err}"
    );
}
