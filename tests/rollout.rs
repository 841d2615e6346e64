//! Rollout verbs on the real control plane: `rollout pause|resume` on CloneSet and on the
//! built-in Deployment (idempotence, dry runs, refusals and exit codes).
mod support;

use k8s_openapi::api::apps::v1::Deployment;
use kube::api::PostParams;
use kubectl_kruise::api::cloneset::CloneSet;
use serde_json::json;
use support::{TestNamespace, kruise, kubeconfig};

async fn objects(ns: &TestNamespace) {
    let (code, _, err) = kruise(kubeconfig(), &["install", "--only", "CloneSet"]);
    assert_eq!(code, 0, "{err}");
    let set: CloneSet = support::object(json!({
        "apiVersion": "apps.kruise.io/v1alpha1", "kind": "CloneSet",
        "metadata": { "name": "web" },
        "spec": {
            "selector": { "matchLabels": { "app": "web" } },
            "template": { "metadata": { "labels": { "app": "web" } }, "spec": { "containers": [{ "name": "app", "image": "nginx" }] } },
        },
    }));
    ns.api::<CloneSet>()
        .create(&PostParams::default(), &set)
        .await
        .expect("create CloneSet");
    let deploy: Deployment = support::object(json!({
        "apiVersion": "apps/v1", "kind": "Deployment",
        "metadata": { "name": "front" },
        "spec": {
            "selector": { "matchLabels": { "app": "front" } },
            "template": { "metadata": { "labels": { "app": "front" } }, "spec": { "containers": [{ "name": "app", "image": "nginx" }] } },
        },
    }));
    ns.api::<Deployment>()
        .create(&PostParams::default(), &deploy)
        .await
        .expect("create Deployment");
}

fn rollout(ns: &TestNamespace, args: &[&str]) -> (i32, String, String) {
    let mut all = vec!["rollout"];
    all.extend_from_slice(args);
    all.extend_from_slice(&["-n", &ns.name]);
    kruise(kubeconfig(), &all)
}

#[tokio::test]
async fn pause_and_resume_a_cloneset_and_a_deployment_idempotently() {
    let ns = TestNamespace::create("rollout-pause").await;
    objects(&ns).await;
    let (code, out, err) = rollout(&ns, &["pause", "cloneset/web", "deploy/front"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        out,
        "clonesets.apps.kruise.io/web paused\ndeployments.apps/front paused\n"
    );
    let set = ns.api::<CloneSet>().get("web").await.expect("get");
    assert_eq!(set.spec.update_strategy.and_then(|s| s.paused), Some(true));
    let deploy = ns.api::<Deployment>().get("front").await.expect("get");
    assert_eq!(deploy.spec.paused, Some(true));

    let (code, out, _) = rollout(&ns, &["pause", "clone", "web"]);
    assert_eq!(
        (code, out.as_str()),
        (0, "clonesets.apps.kruise.io/web already paused\n")
    );

    let (code, out, _) = rollout(&ns, &["resume", "cloneset/web", "deployment/front"]);
    assert_eq!(code, 0);
    assert_eq!(
        out,
        "clonesets.apps.kruise.io/web resumed\ndeployments.apps/front resumed\n"
    );
    let (code, out, _) = rollout(&ns, &["resume", "deploy/front"]);
    assert_eq!(
        (code, out.as_str()),
        (0, "deployments.apps/front already resumed\n")
    );
}

#[tokio::test]
async fn dry_runs_change_nothing() {
    let ns = TestNamespace::create("rollout-dry").await;
    objects(&ns).await;
    let (code, out, err) = rollout(&ns, &["pause", "cloneset/web", "--dry-run=client"]);
    assert_eq!(code, 0, "{err}");
    let patch: serde_json::Value = serde_json::from_str(out.trim()).expect("the patch as JSON");
    assert_eq!(patch["spec"]["updateStrategy"]["paused"], true);
    let (code, out, err) = rollout(&ns, &["pause", "cloneset/web", "--dry-run=server"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("paused (server dry run)"), "{out}");
    let set = ns.api::<CloneSet>().get("web").await.expect("get");
    assert_ne!(
        set.spec.update_strategy.and_then(|s| s.paused),
        Some(true),
        "still running"
    );
}

#[tokio::test]
async fn bad_targets_exit_2_and_missing_or_unpausable_objects_exit_1() {
    let ns = TestNamespace::create("rollout-bad").await;
    // The CloneSet CRD served: a missing CloneSet is then NotFound, whichever test ran first
    // on this control plane.
    let (code, _, err) = kruise(kubeconfig(), &["install", "--only", "CloneSet"]);
    assert_eq!(code, 0, "{err}");
    let (code, _, err) = rollout(&ns, &["pause", "widget/web"]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("unknown resource type") && err.contains("--help"),
        "{err}"
    );
    let (code, _, err) = rollout(&ns, &["pause", "cloneset/nope"]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("NotFound"), "{err}");
    let (code, _, err) = rollout(&ns, &["pause", "sts/db"]);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("statefulsets.apps/db cannot be paused") && err.contains("partition"),
        "{err}"
    );
}

#[tokio::test]
async fn restart_marks_the_deployment_template_and_never_its_env() {
    let ns = TestNamespace::create("rollout-restart").await;
    objects(&ns).await;
    let (code, out, err) = rollout(&ns, &["restart", "deploy/front", "--yes"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out, "deployments.apps/front restarted\n");
    let deploy = ns.api::<Deployment>().get("front").await.expect("get");
    let template = deploy.spec.template;
    let annotations = template.metadata.and_then(|m| m.annotations).unwrap_or_default();
    assert!(
        annotations.contains_key("kubectl.kubernetes.io/restartedAt"),
        "{annotations:?}"
    );
    let env = template.spec.expect("pod spec").containers[0].env.clone();
    assert!(env.is_none(), "container env untouched: {env:?}");
}

#[tokio::test]
async fn history_of_a_deployment_reads_its_replica_sets() {
    let ns = TestNamespace::create("rollout-history").await;
    objects(&ns).await;
    let what = "the Deployment's first ReplicaSet in the history";
    let out = support::wait_for(what, std::time::Duration::from_secs(30), || async {
        let (code, out, err) = rollout(&ns, &["history", "deploy/front"]);
        if code == 0
            && out
                .lines()
                .any(|l| l.starts_with("1 ") && l.contains("app=nginx"))
        {
            Ok(out)
        } else {
            Err(format!("{code} {out} {err}"))
        }
    })
    .await;
    assert!(out.starts_with("deployments.apps/front\nREVISION"), "{out}");
}

#[tokio::test]
async fn get_prints_the_printer_columns_of_each_kind() {
    let ns = TestNamespace::create("get").await;
    objects(&ns).await;
    let get = |args: &[&str]| {
        let mut all = vec!["get"];
        all.extend_from_slice(args);
        all.extend_from_slice(&["-n", &ns.name]);
        kruise(kubeconfig(), &all)
    };
    let (code, out, err) = get(&["clone"]);
    assert_eq!(code, 0, "{err}");
    let header: Vec<&str> = out
        .lines()
        .next()
        .unwrap_or_default()
        .split_whitespace()
        .collect();
    assert_eq!(
        header,
        [
            "NAME",
            "DESIRED",
            "UPDATED",
            "UPDATED_READY",
            "UPDATED_AVAILABLE",
            "READY",
            "TOTAL",
            "AGE"
        ]
    );
    assert!(out.lines().nth(1).is_some_and(|l| l.starts_with("web ")), "{out}");
    let (code, out, _) = get(&["cloneset", "web", "-o", "wide"]);
    assert_eq!(code, 0);
    assert!(
        out.contains("CONTAINERS") && out.contains("IMAGES") && out.contains("nginx"),
        "{out}"
    );
    let (code, out, _) = get(&["deploy", "-o", "name"]);
    assert_eq!((code, out.as_str()), (0, "deployments.apps/front\n"));
    let (code, out, _) = get(&["clone", "web", "-o", "json"]);
    assert_eq!(code, 0);
    let value: serde_json::Value = serde_json::from_str(&out).expect("json");
    assert_eq!(value["kind"], "CloneSet");
    let (code, _, err) = get(&["widgets"]);
    assert_eq!(code, 2, "{err}");
}

#[tokio::test]
async fn rollout_status_of_a_deployment_completes() {
    let ns = TestNamespace::create("rollout-status").await;
    objects(&ns).await;
    let (code, out, err) = rollout(&ns, &["status", "deploy/front", "--timeout", "60s"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("deployment/front successfully rolled out"), "{out}");
}

#[tokio::test]
async fn undo_puts_a_deployment_s_earlier_template_back() {
    let ns = TestNamespace::create("rollout-undo").await;
    objects(&ns).await;
    let deployments = ns.api::<Deployment>();
    let image = || async {
        deployments
            .get("front")
            .await
            .expect("get")
            .spec
            .template
            .spec
            .expect("pod spec")
            .containers[0]
            .image
            .clone()
    };
    let (code, _, err) = kruise(
        kubeconfig(),
        &["set", "image", "deploy/front", "app=nginx:2", "-n", &ns.name],
    );
    assert_eq!(code, 0, "{err}");
    support::wait_for(
        "two ReplicaSets in the history",
        std::time::Duration::from_secs(30),
        || async {
            let (_, out, _) = rollout(&ns, &["history", "deploy/front"]);
            if out.lines().any(|l| l.starts_with("2 ")) {
                Ok(())
            } else {
                Err(out)
            }
        },
    )
    .await;
    let (code, out, err) = rollout(&ns, &["undo", "deploy/front", "--yes"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out, "deployments.apps/front rolled back to revision 1\n");
    assert_eq!(image().await.as_deref(), Some("nginx"));
    let labels = deployments
        .get("front")
        .await
        .expect("get")
        .spec
        .template
        .metadata
        .and_then(|m| m.labels)
        .unwrap_or_default();
    assert!(
        !labels.contains_key("pod-template-hash"),
        "the ReplicaSet's hash label is not copied back: {labels:?}"
    );
}

#[tokio::test]
async fn mutating_verbs_print_the_object_with_o() {
    let ns = TestNamespace::create("rollout-output").await;
    objects(&ns).await;
    let run = |args: &[&str]| {
        let mut all = args.to_vec();
        all.extend_from_slice(&["-n", &ns.name]);
        kruise(kubeconfig(), &all)
    };
    let (code, out, err) = run(&["scale", "deploy/front", "--replicas", "2", "-o", "name"]);
    assert_eq!((code, out.as_str()), (0, "deployments.apps/front\n"), "{err}");
    let (code, out, err) = run(&["set", "image", "deploy/front", "app=nginx:2", "-o", "json"]);
    assert_eq!(code, 0, "{err}");
    let value: serde_json::Value = serde_json::from_str(&out).expect("json");
    assert_eq!(value["spec"]["replicas"], 2);
    assert_eq!(
        value["spec"]["template"]["spec"]["containers"][0]["image"],
        "nginx:2"
    );
    let (code, out, err) = run(&["rollout", "restart", "deploy/front", "--yes", "-o", "yaml"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("kubectl.kubernetes.io/restartedAt"), "{out}");
    support::wait_for(
        "two ReplicaSet revisions",
        std::time::Duration::from_secs(30),
        || async {
            let (_, out, _) = run(&["rollout", "history", "deploy/front"]);
            (out.lines().count() >= 4).then_some(()).ok_or(out)
        },
    )
    .await;
    let (code, out, err) = run(&["rollout", "undo", "deploy/front", "--yes", "-o", "name"]);
    assert_eq!((code, out.as_str()), (0, "deployments.apps/front\n"), "{err}");
}

#[tokio::test]
async fn a_label_selector_picks_the_objects_of_a_type() {
    let ns = TestNamespace::create("rollout-selector").await;
    let (code, _, err) = kruise(kubeconfig(), &["install", "--only", "CloneSet"]);
    assert_eq!(code, 0, "{err}");
    for (name, tier) in [("a", "fe"), ("b", "fe"), ("c", "be")] {
        let set: CloneSet = support::object(json!({
            "apiVersion": "apps.kruise.io/v1alpha1", "kind": "CloneSet",
            "metadata": { "name": name, "labels": { "tier": tier } },
            "spec": {
                "replicas": 0,
                "selector": { "matchLabels": { "app": name } },
                "template": { "metadata": { "labels": { "app": name } }, "spec": { "containers": [{ "name": "app", "image": "nginx" }] } },
            },
        }));
        ns.api::<CloneSet>()
            .create(&PostParams::default(), &set)
            .await
            .expect("create CloneSet");
    }
    let (code, out, err) = rollout(&ns, &["pause", "clone", "-l", "tier=fe"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        out,
        "clonesets.apps.kruise.io/a paused\nclonesets.apps.kruise.io/b paused\n"
    );
    let c = ns.api::<CloneSet>().get("c").await.expect("get");
    assert_ne!(
        c.spec.update_strategy.and_then(|s| s.paused),
        Some(true),
        "c is not selected"
    );
    let (code, out, err) = rollout(&ns, &["restart", "clone", "-l", "tier=be", "--yes"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out, "clonesets.apps.kruise.io/c restarted\n");
    let (code, _, err) = rollout(&ns, &["status", "clone", "-l", "tier=nope"]);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("no clonesets.apps.kruise.io in namespace") && err.contains("-l tier=nope"),
        "{err}"
    );
    let (code, _, err) = rollout(&ns, &["pause", "clone/a", "-l", "tier=fe"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("with -l, name only the type"), "{err}");
}

/// `kubectl-kruise __complete WORDS...` against the test cluster: the candidates.
fn complete(ns: &TestNamespace, words: &[&str]) -> Vec<String> {
    let config = kubeconfig().display().to_string();
    let mut all = vec!["__complete", "--kubeconfig", &config, "-n", &ns.name];
    all.extend_from_slice(words);
    let out = std::process::Command::new(support::CLI)
        .args(&all)
        .output()
        .expect("run __complete");
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(str::to_string)
        .collect()
}

#[tokio::test]
async fn completion_offers_workloads_revisions_and_containers_from_the_cluster() {
    let ns = TestNamespace::create("rollout-complete").await;
    objects(&ns).await;
    let names = complete(&ns, &["get", "clone", ""]);
    assert_eq!(names, ["web", ":4"]);
    let slashed = complete(&ns, &["rollout", "pause", "deploy/f"]);
    assert_eq!(slashed, ["deploy/front", ":4"]);
    let kinds = complete(&ns, &["rollout", "status", ""]);
    assert!(kinds.iter().any(|k| k.starts_with("clone\t")), "{kinds:?}");
    let containers = complete(&ns, &["set", "image", "deploy/front", ""]);
    assert_eq!(containers, ["app=", ":4"]);
    support::wait_for(
        "the Deployment's first ReplicaSet",
        std::time::Duration::from_secs(30),
        || async {
            let revisions = complete(&ns, &["rollout", "history", "deploy/front", "--revision", ""]);
            if revisions.iter().any(|r| r.starts_with("1\tfront-")) {
                Ok(())
            } else {
                Err(format!("{revisions:?}"))
            }
        },
    )
    .await;
}

/// A busy controller writes status many times a second (the built-in Deployment controller
/// does while pods start). Spec writes from the CLI must go through regardless: before,
/// they carried the resourceVersion and gave up after three conflicts in a row (CI saw
/// `set image deploy/front` fail so).
#[tokio::test]
async fn spec_writes_go_through_while_status_is_written_continuously() {
    let ns = TestNamespace::create("rollout-busy").await;
    objects(&ns).await;
    let sets = ns.api::<CloneSet>();
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    // Status writes landed so far (each verb waits for fresh ones: no timing assumed).
    let landed = std::sync::Arc::new(std::sync::atomic::AtomicU64::new(0));
    let writer = tokio::spawn({
        let (sets, stop, landed) = (sets.clone(), stop.clone(), landed.clone());
        async move {
            let mut writes = 0u64;
            while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                let status = json!({ "status": {
                    "observedGeneration": writes as i64 % 1000, "replicas": 0,
                    "readyReplicas": 0, "availableReplicas": 0, "updatedReplicas": 0,
                    "updatedReadyReplicas": 0,
                } });
                let params = kube::api::PatchParams::default();
                if sets
                    .patch_status("web", &params, &kube::api::Patch::Merge(&status))
                    .await
                    .is_ok()
                {
                    writes += 1;
                    landed.store(writes, std::sync::atomic::Ordering::Relaxed);
                }
            }
            writes
        }
    });
    let generation = || async { sets.get("web").await.expect("get").metadata.generation };
    let before = generation().await;
    for args in [
        &["set", "image", "cloneset/web", "app=nginx:2"][..],
        &["scale", "cloneset/web", "--replicas", "2"],
        &["set", "partition", "cloneset/web", "1", "--yes"],
        &["rollout", "pause", "cloneset/web"],
        &["rollout", "resume", "cloneset/web"],
    ] {
        // Two more status writes first: the verb reads a copy the writer then changes.
        let seen = landed.load(std::sync::atomic::Ordering::Relaxed);
        support::wait_for(
            "two more status writes",
            std::time::Duration::from_secs(30),
            || async {
                let now = landed.load(std::sync::atomic::Ordering::Relaxed);
                if now >= seen + 2 {
                    Ok(())
                } else {
                    Err(format!("{now} writes"))
                }
            },
        )
        .await;
        let (code, out, err) = support::kruise_in(&ns, args).await;
        assert_eq!(code, 0, "{args:?}: {out}{err}");
    }
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    let writes = writer.await.expect("status writer");
    assert!(writes >= 10, "the status writer kept writing ({writes} writes)");
    assert_eq!(
        generation().await,
        before.map(|g| g + 5),
        "each spec write landed once"
    );
    let set = sets.get("web").await.expect("get");
    assert_eq!(
        set.spec
            .template
            .spec
            .as_ref()
            .map(|s| s.containers[0].image.clone()),
        Some(Some("nginx:2".into()))
    );
}
