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
