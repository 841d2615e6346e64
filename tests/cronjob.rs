//! The AdvancedCronJob controller end to end: `kubectl kruise run -n NS` on
//! the real control plane, whose built-in Job controller runs the Jobs; `@every` schedules
//! keep the tests short (one test waits for a real minute). Schedule arithmetic (zones,
//! DST, leap days) is proven by the pure tests in `workloads::cronjob`. The behaviour
//! expected is OpenKruise's: <https://openkruise.io/docs/user-manuals/advancedcronjob>.
mod support;

use std::collections::BTreeSet;
use std::time::Duration;

use k8s_openapi::api::batch::v1::Job;
use kube::ResourceExt;
use kube::api::{DynamicObject, ListParams, Patch, PatchParams, PostParams};
use serde_json::{Value, json};
use support::controller::RunningController;
use support::nodes::TestNodes;
use support::{TestNamespace, kruise_api, wait_for};

const LONG: Duration = Duration::from_secs(90);

/// An AdvancedCronJob with a Job template whose pod runs `run_for` (the simulated
/// kubelet's completion delay); `extra` merged into its spec.
fn cron(name: &str, schedule: &str, run_for: &str, extra: Value) -> DynamicObject {
    let spec = support::merged(
        json!({
            "schedule": schedule,
            "template": { "jobTemplate": {
                "metadata": { "labels": { "cron": name } },
                "spec": { "backoffLimit": 0, "template": {
                    "metadata": { "annotations": { "sim.kubectl-kruise.io/completion-delay": run_for } },
                    "spec": { "restartPolicy": "Never",
                        "containers": [{ "name": "main", "image": "busybox" }] } } } } },
        }),
        extra,
    );
    support::object(
        json!({ "apiVersion": "apps.kruise.io/v1alpha1", "kind": "AdvancedCronJob",
        "metadata": { "name": name }, "spec": spec }),
    )
}

async fn jobs_of(ns: &TestNamespace, cron: &str) -> Vec<Job> {
    let mut jobs = ns
        .api::<Job>()
        .list(&ListParams::default().labels(&format!("cron={cron}")))
        .await
        .expect("jobs")
        .items;
    jobs.retain(|j| j.metadata.deletion_timestamp.is_none());
    jobs.sort_by_key(|j| j.name_any());
    jobs
}

fn finished(job: &Job) -> bool {
    job.status
        .as_ref()
        .and_then(|s| s.conditions.as_ref())
        .is_some_and(|c| {
            c.iter()
                .any(|c| (c.type_ == "Complete" || c.type_ == "Failed") && c.status == "True")
        })
}

#[tokio::test]
async fn an_every_minute_schedule_creates_its_job_on_the_minute() {
    let ns = TestNamespace::create("acj-minute").await;
    let controller = RunningController::start(&ns);
    let api = kruise_api(&ns, "AdvancedCronJob", "v1alpha1");
    api.create(
        &PostParams::default(),
        &cron("tick", "* * * * *", "1s", json!({})),
    )
    .await
    .expect("AdvancedCronJob tick");
    let job = wait_for("a Job within a minute", Duration::from_secs(80), || async {
        jobs_of(&ns, "tick")
            .await
            .into_iter()
            .next()
            .ok_or_else(|| controller.log_tail())
    })
    .await;
    let at: k8s_openapi::jiff::Timestamp = job.annotations()["apps.kruise.io/scheduled-at"]
        .parse()
        .expect("scheduled-at");
    assert_eq!(at.as_second() % 60, 0, "on the minute: {at}");
    assert_eq!(job.name_any(), format!("tick-{}", at.as_second()));
    let owner = job
        .owner_references()
        .iter()
        .find(|o| o.controller == Some(true))
        .cloned()
        .expect("owner");
    assert_eq!(
        (owner.kind.as_str(), owner.name.as_str()),
        ("AdvancedCronJob", "tick")
    );
    // The Job runs and finishes; the status follows it (Job events wake the cron job).
    wait_for("the status shows the run, then no active run", LONG, || async {
        let acj = api.get("tick").await.map_err(|e| e.to_string())?;
        let s = &acj.data["status"];
        let done = s["type"] == "Job" && s["lastScheduleTime"].is_string() && s["active"].is_null();
        let job_done = jobs_of(&ns, "tick").await.iter().any(finished);
        if done && job_done {
            Ok(())
        } else {
            Err(format!("{s}"))
        }
    })
    .await;
    assert_eq!(controller.stop(), 0);
}

#[tokio::test]
async fn forbid_skips_while_a_run_is_active_and_replace_replaces_it() {
    let ns = TestNamespace::create("acj-concurrency").await;
    let controller = RunningController::start(&ns);
    let api = kruise_api(&ns, "AdvancedCronJob", "v1alpha1");
    for (name, policy) in [("forbid", "Forbid"), ("replace", "Replace")] {
        api.create(
            &PostParams::default(),
            &cron(name, "@every 3s", "60s", json!({ "concurrencyPolicy": policy })),
        )
        .await
        .expect("AdvancedCronJob");
    }
    // Replace: each run deletes the one before, so newer and newer single Jobs.
    let first = wait_for("a first replace run", LONG, || async {
        jobs_of(&ns, "replace")
            .await
            .into_iter()
            .next()
            .map(|j| j.name_any())
            .ok_or_else(String::new)
    })
    .await;
    let replaced = wait_for("the first run replaced", LONG, || async {
        let jobs = jobs_of(&ns, "replace").await;
        let names: Vec<String> = jobs.iter().map(|j| j.name_any()).collect();
        if names.len() == 1 && names[0] != first {
            Ok(names)
        } else {
            Err(format!("{names:?}"))
        }
    })
    .await;
    assert!(replaced[0] > first, "a later run: {first} then {replaced:?}");
    // Forbid: in the same time, the long first run blocked every later one.
    let forbid = jobs_of(&ns, "forbid").await;
    assert_eq!(
        forbid.len(),
        1,
        "{:?}",
        forbid.iter().map(|j| j.name_any()).collect::<Vec<_>>()
    );
    assert!(!finished(&forbid[0]));
    assert_eq!(controller.stop(), 0);
}

#[tokio::test]
async fn history_limits_prune_finished_runs_and_paused_stops_new_ones() {
    let ns = TestNamespace::create("acj-history").await;
    let controller = RunningController::start(&ns);
    let api = kruise_api(&ns, "AdvancedCronJob", "v1alpha1");
    api.create(
        &PostParams::default(),
        &cron(
            "tidy",
            "@every 2s",
            "500ms",
            json!({ "successfulJobsHistoryLimit": 2 }),
        ),
    )
    .await
    .expect("AdvancedCronJob tidy");
    let seen = std::sync::Mutex::new(BTreeSet::<String>::new());
    wait_for("five runs, at most two finished kept", LONG, || async {
        let jobs = jobs_of(&ns, "tidy").await;
        let mut seen = seen.lock().expect("seen");
        seen.extend(jobs.iter().map(|j| j.name_any()));
        let kept = jobs.iter().filter(|j| finished(j)).count();
        if kept > 2 {
            // A round may run between the Job finishing and its pruning: not yet.
            return Err(format!("{kept} finished kept"));
        }
        if seen.len() >= 5 {
            Ok(())
        } else {
            Err(format!("{} runs so far", seen.len()))
        }
    })
    .await;
    wait_for("at most two finished runs kept", LONG, || async {
        let kept = jobs_of(&ns, "tidy").await.iter().filter(|j| finished(j)).count();
        if kept <= 2 { Ok(()) } else { Err(format!("{kept}")) }
    })
    .await;
    api.patch(
        "tidy",
        &PatchParams::default(),
        &Patch::Merge(json!({ "spec": { "paused": true } })),
    )
    .await
    .expect("pause");
    tokio::time::sleep(Duration::from_secs(3)).await;
    let before: BTreeSet<String> = jobs_of(&ns, "tidy").await.iter().map(|j| j.name_any()).collect();
    tokio::time::sleep(Duration::from_secs(6)).await;
    let after: BTreeSet<String> = jobs_of(&ns, "tidy").await.iter().map(|j| j.name_any()).collect();
    assert!(
        after.is_subset(&before),
        "no run while paused: {before:?} then {after:?}"
    );
    assert_eq!(controller.stop(), 0);
}

#[tokio::test]
async fn a_broadcastjob_template_starts_broadcastjobs_that_run_on_every_node() {
    let ns = TestNamespace::create("acj-broadcast").await;
    let nodes = TestNodes::create(&ns, 2).await;
    let controller = RunningController::start(&ns);
    let api = kruise_api(&ns, "AdvancedCronJob", "v1alpha1");
    let manifest: DynamicObject = support::object(json!({
        "apiVersion": "apps.kruise.io/v1alpha1", "kind": "AdvancedCronJob",
        "metadata": { "name": "sweep" },
        "spec": { "schedule": "@every 5s", "concurrencyPolicy": "Forbid",
            "template": { "broadcastJobTemplate": { "spec": {
                "completionPolicy": { "type": "Always" },
                "template": { "spec": { "nodeSelector": { "ds-test": ns.name }, "tolerations": [support::nodes::toleration()], "restartPolicy": "Never",
                    "containers": [{ "name": "main", "image": "busybox" }] } } } } } } }));
    api.create(&PostParams::default(), &manifest)
        .await
        .expect("AdvancedCronJob sweep");
    let bcj = kruise_api(&ns, "BroadcastJob", "v1alpha1");
    let done = wait_for("a BroadcastJob run completes on both nodes", LONG, || async {
        let list = bcj
            .list(&ListParams::default())
            .await
            .map_err(|e| e.to_string())?;
        list.items
            .into_iter()
            .find(|b| b.data["status"]["phase"] == "completed")
            .ok_or_else(|| controller.log_tail())
    })
    .await;
    assert_eq!(done.data["status"]["succeeded"], 2);
    assert!(done.name_any().starts_with("sweep-"));
    let acj = api.get("sweep").await.expect("sweep");
    assert_eq!(acj.data["status"]["type"], "BroadcastJob");
    assert_eq!(controller.stop(), 0);
    nodes.remove_all(2).await;
}

#[tokio::test]
async fn create_job_from_runs_the_template_now_and_the_tree_shows_it() {
    let ns = TestNamespace::create("acj-manual").await;
    let controller = RunningController::start(&ns);
    let api = kruise_api(&ns, "AdvancedCronJob", "v1alpha1");
    // A schedule far away: only the manual run happens.
    api.create(
        &PostParams::default(),
        &cron("yearly", "@yearly", "1s", json!({})),
    )
    .await
    .expect("AdvancedCronJob yearly");
    let (code, out, err) =
        support::kruise_in(&ns, &["create", "job", "yearly-now", "--from", "acj/yearly"]).await;
    assert_eq!(code, 0, "{out}{err}");
    assert_eq!(out.trim(), "job.batch/yearly-now created");
    // kruise-tools' `create broadcastjob`: only from a cron job of BroadcastJobs.
    let (code, _, err) =
        support::plugin_in(&ns, &["create", "broadcastjob", "b-now", "--from", "acj/yearly"]).await;
    assert_ne!(code, 0);
    assert!(
        err.contains("runs Jobs (spec.template has no broadcastJobTemplate)"),
        "{err}"
    );
    let broadcast = json!({ "apiVersion": "apps.kruise.io/v1alpha1", "kind": "AdvancedCronJob",
        "metadata": { "name": "sweep" },
        "spec": { "schedule": "@yearly", "template": { "broadcastJobTemplate": { "spec": {
            "completionPolicy": { "type": "Always" },
            "template": { "spec": { "restartPolicy": "Never",
                "containers": [{ "name": "main", "image": "busybox" }] } } } } } } });
    api.create(&PostParams::default(), &support::object(broadcast))
        .await
        .expect("AdvancedCronJob sweep");
    let (code, out, err) = support::plugin_in(
        &ns,
        &[
            "create",
            "bcj",
            "sweep-now",
            "--from",
            "acj/sweep",
            "--dry-run=client",
            "-o",
            "json",
        ],
    )
    .await;
    assert_eq!(code, 0, "{err}");
    let child: Value = serde_json::from_str(&out).expect("json");
    assert_eq!(child["kind"], "BroadcastJob");
    assert_eq!(child["metadata"]["name"], "sweep-now");
    assert_eq!(child["metadata"]["ownerReferences"][0]["name"], "sweep");
    let job = wait_for("the manual Job finished", LONG, || async {
        let jobs = jobs_of(&ns, "yearly").await;
        let seen = format!(
            "{:?}",
            jobs.iter().map(|j| (j.name_any(), &j.status)).collect::<Vec<_>>()
        );
        jobs.into_iter()
            .find(|j| j.name_any() == "yearly-now" && finished(j))
            .ok_or(seen)
    })
    .await;
    assert_eq!(
        job.annotations()
            .get("apps.kruise.io/instantiate")
            .map(String::as_str),
        Some("manual")
    );
    let (code, tree, err) = support::kruise_in(&ns, &["get", "acj/yearly", "--tree"]).await;
    assert_eq!(code, 0, "{err}");
    assert!(
        tree.lines()
            .any(|l| l.contains("yearly-now") && l.contains("succeeded") && l.contains("started by hand")),
        "{tree}"
    );
    assert_eq!(controller.stop(), 0);
}

#[tokio::test]
async fn bad_schedules_zones_and_template_changes_are_refused_naming_the_field() {
    let ns = TestNamespace::create("acj-refused").await;
    let controller = RunningController::start(&ns);
    let api = kruise_api(&ns, "AdvancedCronJob", "v1alpha1");
    // Until the run has registered its webhook, a bad object may still be stored: retry.
    let refusal = |manifest: DynamicObject| {
        let api = api.clone();
        async move {
            wait_for("a refusal", LONG, || async {
                match api.create(&PostParams::default(), &manifest).await {
                    Err(e) => Ok(e.to_string()),
                    Ok(stored) => {
                        let _ = api.delete(&stored.name_any(), &Default::default()).await;
                        Err("stored".to_string())
                    }
                }
            })
            .await
        }
    };
    let e = refusal(cron("sunday", "0 2 * * 7", "1s", json!({}))).await;
    assert!(e.contains("spec.schedule: field 5 (day of week) \"7\""), "{e}");
    let e = refusal(cron(
        "mars",
        "0 2 * * *",
        "1s",
        json!({ "timeZone": "Mars/Olympus" }),
    ))
    .await;
    assert!(e.contains("spec.timeZone"), "{e}");
    let bcj = kruise_api(&ns, "BroadcastJob", "v1alpha1");
    let preset: DynamicObject = support::object(json!({
        "apiVersion": "apps.kruise.io/v1alpha1", "kind": "BroadcastJob", "metadata": { "name": "preset" },
        "spec": { "template": { "metadata": { "labels": { "broadcastjob-name": "other" } },
            "spec": { "restartPolicy": "Never", "containers": [{ "name": "c", "image": "busybox" }] } } } }));
    let e = bcj
        .create(&PostParams::default(), &preset)
        .await
        .expect_err("refused")
        .to_string();
    assert!(
        e.contains("spec.template.metadata.labels.broadcastjob-name"),
        "{e}"
    );
    api.create(&PostParams::default(), &cron("fixed", "@yearly", "1s", json!({})))
        .await
        .expect("AdvancedCronJob fixed");
    let changed = json!({ "spec": { "template": { "jobTemplate": { "spec": { "parallelism": 2 } } } } });
    let e = api
        .patch("fixed", &PatchParams::default(), &Patch::Merge(changed))
        .await
        .expect_err("refused")
        .to_string();
    assert!(e.contains("spec.template.jobTemplate may not change"), "{e}");
    assert_eq!(controller.stop(), 0);
}

#[tokio::test]
async fn a_template_the_job_api_refuses_leaves_a_condition_and_the_schedule_goes_on() {
    let ns = TestNamespace::create("acj-failing").await;
    let controller = RunningController::start(&ns);
    let api = kruise_api(&ns, "AdvancedCronJob", "v1alpha1");
    // No restartPolicy: stored (upstream's webhook does not look), refused by the Job API.
    let mut manifest = cron("broken", "@every 3s", "1s", json!({}));
    manifest.data["spec"]["template"]["jobTemplate"]["spec"]["template"]["spec"]
        .as_object_mut()
        .map(|s| s.remove("restartPolicy"));
    api.create(&PostParams::default(), &manifest)
        .await
        .expect("AdvancedCronJob broken");
    let status = wait_for("the FailedCreate condition", LONG, || async {
        let acj = api.get("broken").await.map_err(|e| e.to_string())?;
        let s = acj.data["status"].clone();
        let failed = s["conditions"].as_array().is_some_and(|c| {
            c.iter()
                .any(|c| c["type"] == "FailedCreate" && c["status"] == "True")
        });
        if failed {
            Ok(s)
        } else {
            Err(format!("{s}\n{}", controller.log_tail()))
        }
    })
    .await;
    let message = status["conditions"][0]["message"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    assert!(
        message.contains("restartPolicy"),
        "the Job API's reason: {message}"
    );
    assert!(jobs_of(&ns, "broken").await.is_empty());
    assert!(status["lastScheduleTime"].is_null(), "no run counted: {status}");
    // The schedule goes on: fixed, the next run is created and the condition clears.
    let fixed = json!({ "spec": { "template": { "jobTemplate": { "spec": { "template": { "spec": { "restartPolicy": "Never" } } } } } } });
    // The template is immutable through the webhook: fix it with the run stopped.
    assert_eq!(controller.stop(), 0);
    api.patch("broken", &PatchParams::default(), &Patch::Merge(fixed))
        .await
        .expect("fix the template");
    let controller = RunningController::start(&ns);
    wait_for(
        "a run once the template is fixed, the condition gone",
        LONG,
        || async {
            let acj = api.get("broken").await.map_err(|e| e.to_string())?;
            let s = &acj.data["status"];
            let clear = s["conditions"].is_null();
            let runs = jobs_of(&ns, "broken").await.len();
            if clear && runs >= 1 {
                Ok(())
            } else {
                Err(format!("{s} {runs} runs\n{}", controller.log_tail()))
            }
        },
    )
    .await;
    assert_eq!(controller.stop(), 0);
}
