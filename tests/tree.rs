//! `kubectl kruise get KIND/NAME --tree` on the real control plane: a CloneSet held by a
//! partition (our controller, scoped to the test's namespace) and a built-in Deployment
//! (kube-controller-manager), in a UTF-8 and in a C locale.
mod support;

use std::process::{Command, Stdio};
use std::time::Duration;

use k8s_openapi::api::apps::v1::Deployment;
use kube::ResourceExt;
use kube::api::{Patch, PatchParams, PostParams};
use serde_json::json;
use support::clonesets::*;
use support::controller::RunningController;
use support::{CLI, TestNamespace, kubeconfig, wait_for};

/// `kubectl-kruise ARGS -n NS` with the locale set to `lang` alone (LC_ALL and LC_CTYPE
/// removed): (exit code, stdout, stderr).
fn kruise_lang(ns: &TestNamespace, lang: &str, args: &[&str]) -> (i32, String, String) {
    let out = Command::new(CLI)
        .args(args)
        .args(["-n", &ns.name, "--kubeconfig"])
        .arg(kubeconfig())
        .env_remove("LC_ALL")
        .env_remove("LC_CTYPE")
        .env("LANG", lang)
        .stdin(Stdio::null())
        .output()
        .unwrap_or_else(|e| panic!("cannot run {CLI}: {e}"));
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[tokio::test]
async fn a_partitioned_cloneset_shows_its_updated_pods_the_marker_and_the_held_pod() {
    let ns = TestNamespace::create("tree-cs").await;
    let controller = RunningController::start(&ns);
    let strategy = json!({ "type": "InPlaceIfPossible", "maxUnavailable": 1 });
    create(&ns, &cloneset("tree", 3, strategy, json!({}))).await;
    wait_settled(&ns, "tree", 3, 3, &controller).await;
    merge_patch(
        &ns,
        "tree",
        json!({ "spec": { "updateStrategy": { "partition": 1 } } }),
    )
    .await;
    set_image(&ns, "tree", "nginx:1.26").await;
    let set = wait_settled(&ns, "tree", 3, 2, &controller).await;
    let update = set
        .status
        .and_then(|s| s.update_revision)
        .expect("update revision");
    let (mut updated, mut held) = (Vec::new(), Vec::new());
    for pod in pods(&ns, "tree").await {
        let at_update = pod.labels().get("controller-revision-hash") == Some(&update);
        if at_update { &mut updated } else { &mut held }.push(pod.name_any());
    }
    assert_eq!((updated.len(), held.len()), (2, 1), "{updated:?} {held:?}");

    let (code, out, err) = kruise_lang(&ns, "C.UTF-8", &["get", "cloneset/tree", "--tree"]);
    assert_eq!(code, 0, "{err}");
    println!("{out}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 7, "{out}");
    assert_eq!(lines[0], "cloneset/tree  (2/3 updated, 3/3 ready, partition 1)");
    assert!(
        lines[1].starts_with(&format!("├─ revision 2  {update}  [update]  nginx:1.26")),
        "{out}"
    );
    for (line, (branch, name)) in lines[2..4].iter().zip([("├─", &updated[0]), ("└─", &updated[1])]) {
        assert!(line.starts_with(&format!("│  {branch} ✔ {name} ")), "{out}");
        assert!(line.contains(" Ready "), "{out}");
    }
    assert_eq!(lines[4], "│  ── partition: 1 pod held at older revisions ──");
    assert!(
        lines[5].starts_with("└─ revision 1  tree-") && lines[5].ends_with("  nginx:1.25"),
        "{out}"
    );
    assert!(lines[6].starts_with(&format!("   └─ • {} ", held[0])), "{out}");

    let (code, ascii, err) = kruise_lang(&ns, "C", &["get", "clone", "tree", "--tree"]);
    assert_eq!(code, 0, "{err}");
    println!("{ascii}");
    assert!(ascii.is_ascii(), "{ascii}");
    let lines: Vec<&str> = ascii.lines().collect();
    assert_eq!(lines.len(), 7, "{ascii}");
    assert!(lines[1].starts_with("|- revision 2  "), "{ascii}");
    assert!(
        lines[2].starts_with(&format!("|  |- ok {} ", updated[0])),
        "{ascii}"
    );
    assert!(
        lines[3].starts_with(&format!("|  `- ok {} ", updated[1])),
        "{ascii}"
    );
    assert_eq!(lines[4], "|  -- partition: 1 pod held at older revisions --");
    assert!(lines[5].starts_with("`- revision 1  "), "{ascii}");
    assert!(lines[6].starts_with(&format!("   `- -  {} ", held[0])), "{ascii}");

    // One revision: the held pod is summarised.
    let (code, out, err) = kruise_lang(
        &ns,
        "C.UTF-8",
        &["get", "clone/tree", "--tree", "--revisions", "1"],
    );
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.lines().last(), Some("└─ +1 pod at older revisions"), "{out}");

    let (code, _, err) = kruise_lang(&ns, "C.UTF-8", &["get", "clone", "--tree"]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("--tree shows one workload") && err.contains("--help"),
        "{err}"
    );
    let (code, _, err) = kruise_lang(&ns, "C.UTF-8", &["get", "cloneset/nope", "--tree"]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("NotFound"), "{err}");
}

#[tokio::test]
async fn a_deployment_tree_shows_its_replica_sets_as_revisions() {
    let ns = TestNamespace::create("tree-deploy").await;
    let deploy: Deployment = support::object(json!({
        "apiVersion": "apps/v1", "kind": "Deployment",
        "metadata": { "name": "front" },
        "spec": {
            "replicas": 2,
            "selector": { "matchLabels": { "app": "front" } },
            "template": {
                "metadata": { "labels": { "app": "front" } },
                "spec": { "containers": [{ "name": "app", "image": "nginx:1.25" }] },
            },
        },
    }));
    let api = ns.api::<Deployment>();
    api.create(&PostParams::default(), &deploy)
        .await
        .expect("create Deployment");
    let rolled_out = |image: &'static str| {
        let api = api.clone();
        async move {
            let d = api.get("front").await.map_err(|e| e.to_string())?;
            let s = d.status.clone().unwrap_or_default();
            let done = s.observed_generation == d.metadata.generation
                && s.updated_replicas == Some(2)
                && s.ready_replicas == Some(2)
                && s.replicas == Some(2);
            let image_now = d
                .spec
                .template
                .spec
                .and_then(|s| s.containers.first()?.image.clone());
            if done && image_now.as_deref() == Some(image) {
                Ok(())
            } else {
                Err(format!("{s:?}"))
            }
        }
    };
    wait_for("Deployment front ready", LONG, || rolled_out("nginx:1.25")).await;
    let containers = json!([{ "name": "app", "image": "nginx:1.26" }]);
    let patch = json!({ "spec": { "template": { "spec": { "containers": containers } } } });
    api.patch("front", &PatchParams::default(), &Patch::Strategic(&patch))
        .await
        .expect("patch image");
    wait_for("Deployment front rolled out", LONG, || rolled_out("nginx:1.26")).await;

    // The old ReplicaSet's pods may still be terminating for a moment.
    let out = wait_for(
        "a tree with no pod left at revision 1",
        Duration::from_secs(30),
        || async {
            let (code, out, err) = kruise_lang(&ns, "en_US.UTF-8", &["get", "deploy/front", "--tree"]);
            let settled = code == 0
                && out.lines().count() == 5
                && out.lines().last().is_some_and(|l| l.starts_with("└─ revision 1"));
            if settled {
                Ok(out)
            } else {
                Err(format!("{code} {out} {err}"))
            }
        },
    )
    .await;
    println!("{out}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], "deployment/front  (2/2 updated, 2/2 ready)");
    assert!(
        lines[1].starts_with("├─ revision 2  front-") && lines[1].ends_with("  [update]  nginx:1.26"),
        "{out}"
    );
    assert!(
        lines[2].starts_with("│  ├─ ✔ front-") && lines[2].contains(" Ready "),
        "{out}"
    );
    assert!(
        lines[3].starts_with("│  └─ ✔ front-") && lines[3].contains(" Ready "),
        "{out}"
    );
    assert!(
        lines[4].ends_with("  nginx:1.25") && !lines[4].contains("[update]"),
        "{out}"
    );
    assert!(!out.contains("partition"), "{out}");
}
