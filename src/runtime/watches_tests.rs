use std::time::Duration;

use kube::runtime::reflector;
use kube::runtime::watcher::Event;

use super::*;

/// Several reconciles wait at start (one per worker, one per controller); every one of them
/// must go on once the stores have their first lists. kube's own `wait_until_ready` would
/// wake only the last waiter polled.
#[tokio::test]
async fn every_waiter_goes_on_once_the_first_lists_are_in() {
    let (pods, mut pod_writer) = reflector::store::<CachedPod>();
    let (claims, mut claim_writer) = reflector::store::<PersistentVolumeClaim>();
    let (revisions, mut revision_writer) = reflector::store::<ControllerRevision>();
    let (nodes, mut node_writer) = reflector::store::<Node>();
    let ready = first_lists(pods, claims, revisions, nodes);
    let waiters: Vec<_> = (0..4).map(|_| tokio::spawn(ready.clone())).collect();
    tokio::time::sleep(Duration::from_millis(50)).await;
    assert!(waiters.iter().all(|w| !w.is_finished()), "ready before any list");

    pod_writer.apply_watcher_event(&Event::Init);
    pod_writer.apply_watcher_event(&Event::InitDone);
    claim_writer.apply_watcher_event(&Event::Init);
    claim_writer.apply_watcher_event(&Event::InitDone);
    tokio::time::sleep(Duration::from_millis(50)).await;
    assert!(
        waiters.iter().all(|w| !w.is_finished()),
        "ready before the revisions list"
    );

    revision_writer.apply_watcher_event(&Event::Init);
    revision_writer.apply_watcher_event(&Event::InitDone);
    tokio::time::sleep(Duration::from_millis(50)).await;
    assert!(
        waiters.iter().all(|w| !w.is_finished()),
        "ready before the nodes list (an unlisted node store loses every DaemonSet pod)"
    );

    node_writer.apply_watcher_event(&Event::Init);
    node_writer.apply_watcher_event(&Event::InitDone);
    for waiter in waiters {
        tokio::time::timeout(Duration::from_secs(5), waiter)
            .await
            .expect("a waiter was never woken")
            .expect("waiter task");
    }
}
