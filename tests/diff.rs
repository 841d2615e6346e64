//! `diff -f`: what applying a manifest would do, checked against what the controller then
//! does. The guestbook example (5 pods, partition 2, maxUnavailable 2, in place) goes from
//! v1 to v2: the diff names the three pods that update, in two batches of the budget, and
//! the two kept; then the manifest is applied and an independent watcher sees the same
//! pods go into their update in that order and batches, and the kept ones stay.
mod support;

use std::collections::BTreeSet;
use std::path::Path;

use kubectl_kruise::api::cloneset::CloneSet;
use serde_json::{Value, json};
use support::clonesets::wait_settled;
use support::controller::{PodWatcher, RunningController};
use support::manifests::{apply, documents};
use support::{TestNamespace, kruise_in};

const EXAMPLE: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/examples/01-cloneset-guestbook-inplace.yaml"
);

#[tokio::test]
async fn diff_lists_the_pods_the_controller_then_updates_in_its_order_and_batches() {
    let ns = TestNamespace::create("diff").await;
    let controller = RunningController::start(&ns);
    let docs = documents(Path::new(EXAMPLE));
    for doc in &docs {
        apply(&ns, doc)
            .await
            .unwrap_or_else(|e| panic!("{}: {e}", doc["kind"]));
    }
    let name = "guestbook-inplace";
    wait_settled(&ns, name, 5, 5, &controller).await;
    // Applied again now that the run's defaulting webhook is surely registered (the first
    // apply may have come before it): a diff of the same manifest is then no change.
    for doc in &docs {
        apply(&ns, doc)
            .await
            .unwrap_or_else(|e| panic!("{}: {e}", doc["kind"]));
    }

    let (code, out, err) = kruise_in(&ns, &["diff", "-f", EXAMPLE]).await;
    assert_eq!(
        (code, out.trim()),
        (0, "clonesets.apps.kruise.io/guestbook-inplace: no change"),
        "{err}"
    );
    assert!(
        err.contains("Service/guestbook-inplace-svc: not a workload"),
        "{err}"
    );

    let v2: Vec<Value> = docs
        .iter()
        .map(|doc| {
            let mut doc = doc.clone();
            if doc["kind"] == "CloneSet" {
                doc["spec"]["template"]["spec"]["containers"][0]["image"] = json!("openkruise/guestbook:v2");
            }
            doc
        })
        .collect();
    let file = std::env::temp_dir().join(format!("kruise-diff-{}.yaml", ns.name));
    let text: Vec<String> = v2
        .iter()
        .map(|d| serde_json::to_string(d).expect("json"))
        .collect();
    std::fs::write(&file, text.join("\n---\n")).expect("manifest");
    let (code, out, err) = kruise_in(&ns, &["diff", "-f", &file.display().to_string()]).await;
    assert_eq!(code, 1, "a change is exit 1: {err}");
    let changed = |sign: char, text: &str| out.lines().any(|l| l.starts_with(sign) && l.contains(text));
    assert!(
        changed('-', "image: openkruise/guestbook:v1") && changed('+', "image: openkruise/guestbook:v2"),
        "{out}"
    );
    let batch = |n: usize| -> BTreeSet<String> {
        out.lines()
            .filter_map(|l| l.trim().strip_prefix(&format!("batch {n}: ")))
            .map(|rest| {
                let (pod, outcome) = rest.split_once(": ").expect("POD: OUTCOME");
                assert_eq!(outcome, "in place (guestbook=openkruise/guestbook:v2)", "{out}");
                pod.to_string()
            })
            .collect()
    };
    let (first, second) = (batch(1), batch(2));
    assert_eq!((first.len(), second.len()), (2, 1), "{out}");
    let kept: BTreeSet<String> = out
        .lines()
        .find_map(|l| l.trim().strip_prefix("kept (partition 2): "))
        .expect("kept pods")
        .split(", ")
        .map(str::to_string)
        .collect();
    assert_eq!(kept.len(), 2, "{out}");

    let watcher = PodWatcher::start(&ns);
    for doc in &v2 {
        apply(&ns, doc)
            .await
            .unwrap_or_else(|e| panic!("{}: {e}", doc["kind"]));
    }
    let set: CloneSet = wait_settled(&ns, name, 5, 3, &controller).await;
    let order = watcher.first_seen(|v| v.gate.as_deref() == Some("False"));
    assert_eq!(order.len(), 3, "{}", watcher.timeline());
    assert_eq!(
        order[..2].iter().cloned().collect::<BTreeSet<_>>(),
        first,
        "{}",
        watcher.timeline()
    );
    assert_eq!(
        BTreeSet::from([order[2].clone()]),
        second,
        "{}",
        watcher.timeline()
    );
    let update = set
        .status
        .and_then(|s| s.update_revision)
        .expect("update revision");
    let pods = ns
        .api::<k8s_openapi::api::core::v1::Pod>()
        .list(&kube::api::ListParams::default().labels("app.kubernetes.io/name=guestbook-inplace"))
        .await
        .expect("pods");
    for pod in pods.items {
        let pod_name = pod.metadata.name.clone().unwrap_or_default();
        let revision = pod
            .metadata
            .labels
            .as_ref()
            .and_then(|l| l.get("controller-revision-hash"))
            .cloned();
        assert_eq!(
            revision.as_deref() == Some(update.as_str()),
            !kept.contains(&pod_name),
            "{pod_name}"
        );
    }
    let _ = std::fs::remove_file(&file);
    assert_eq!(controller.stop(), 0);
}
