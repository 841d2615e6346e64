//! `run`'s admission webhooks on the real control plane, where the kube-apiserver itself
//! calls the server: defaults written back, a selector that misses its template refused,
//! the configurations removed by a graceful exit and harmless after a SIGKILL, one CA for a
//! leader and its standby, a certificate renewal that fails no admission call, and the
//! spec defaults of the jobs.
mod support;

use std::time::{Duration, Instant};

use k8s_openapi::api::admissionregistration::v1::{
    MutatingWebhookConfiguration, ValidatingWebhookConfiguration,
};
use k8s_openapi::api::core::v1::{Pod, Secret};
use kube::api::{Api, Patch, PatchParams, PostParams};
use serde_json::{Value, json};
use support::controller::RunningController;
use support::{TestNamespace, kruise_api, kruise_workload, wait_for};

async fn create(
    ns: &TestNamespace,
    kind: &str,
    version: &str,
    name: &str,
    app: &str,
) -> Result<Value, kube::Error> {
    let api = kruise_api(ns, kind, version);
    api.create(&PostParams::default(), &kruise_workload(kind, version, name, app))
        .await
        .map(|o| o.data)
}

/// The run's mutating configuration, once registered.
async fn registered(ns: &TestNamespace) -> MutatingWebhookConfiguration {
    let api: Api<MutatingWebhookConfiguration> = Api::all(ns.client.clone());
    let name = format!("kubectl-kruise.{}", ns.name);
    wait_for("the webhook configurations", Duration::from_secs(30), || async {
        api.get(&name).await.map_err(|e| e.to_string())
    })
    .await
}

/// The configuration once a new run replaced `before`'s URL (its port is another).
async fn reregistered(
    ns: &TestNamespace,
    before: &MutatingWebhookConfiguration,
) -> MutatingWebhookConfiguration {
    let api: Api<MutatingWebhookConfiguration> = Api::all(ns.client.clone());
    let name = format!("kubectl-kruise.{}", ns.name);
    wait_for("a new registration", Duration::from_secs(40), || async {
        match api.get_opt(&name).await {
            Ok(Some(config)) if url_of(&config) != url_of(before) => Ok(config),
            other => Err(format!("{:?}", other.map(|c| c.map(|c| url_of(&c))))),
        }
    })
    .await
}

fn url_of(config: &MutatingWebhookConfiguration) -> String {
    config
        .webhooks
        .as_ref()
        .and_then(|w| w[0].client_config.url.clone())
        .unwrap_or_default()
}

fn ca_of(config: &MutatingWebhookConfiguration) -> Vec<u8> {
    config
        .webhooks
        .as_ref()
        .and_then(|w| w[0].client_config.ca_bundle.clone())
        .map(|b| b.0)
        .unwrap_or_default()
}

async fn gone(ns: &TestNamespace) -> bool {
    let name = format!("kubectl-kruise.{}", ns.name);
    let mutating: Api<MutatingWebhookConfiguration> = Api::all(ns.client.clone());
    let validating: Api<ValidatingWebhookConfiguration> = Api::all(ns.client.clone());
    matches!(mutating.get_opt(&name).await, Ok(None)) && matches!(validating.get_opt(&name).await, Ok(None))
}

fn defaulted(cloneset: &Value) -> bool {
    cloneset["spec"]["updateStrategy"]
        == json!({ "type": "ReCreate", "partition": 0, "maxUnavailable": "20%", "maxSurge": 0 })
        && cloneset["spec"]["revisionHistoryLimit"] == 10
}

#[tokio::test]
async fn while_run_is_up_defaults_come_back_and_a_missed_selector_is_refused_and_a_graceful_exit_cleans_up() {
    let ns = TestNamespace::create("webhooks").await;
    let controller = RunningController::start(&ns);
    support::webhooks::answering(&ns).await;

    let set = create(&ns, "CloneSet", "v1alpha1", "bare", "bare")
        .await
        .expect("a bare CloneSet");
    assert!(defaulted(&set), "{}", set["spec"]);
    let asts = create(&ns, "StatefulSet", "v1beta1", "bare-sts", "bare-sts")
        .await
        .expect("a bare ASTS");
    assert_eq!(
        asts["spec"]["podManagementPolicy"], "OrderedReady",
        "{}",
        asts["spec"]
    );
    assert_eq!(
        asts["spec"]["updateStrategy"],
        json!({ "type": "RollingUpdate", "rollingUpdate": {
            "partition": 0, "maxUnavailable": 1, "podUpdatePolicy": "ReCreate", "minReadySeconds": 0 } })
    );

    let refused = create(&ns, "CloneSet", "v1alpha1", "missed", "other")
        .await
        .expect_err("refused");
    let text = refused.to_string();
    assert!(
        text.contains("spec.selector does not select") && text.contains("denied"),
        "{text}"
    );
    let refused = create(&ns, "StatefulSet", "v1alpha1", "missed-sts", "other")
        .await
        .expect_err("refused");
    assert!(
        refused
            .to_string()
            .contains("StatefulSet missed-sts: spec.selector"),
        "{refused}"
    );

    // An object the controller could not read is refused too, naming the field.
    let mut unreadable = kruise_workload("CloneSet", "v1alpha1", "unreadable", "unreadable");
    unreadable.data["spec"]["template"]["spec"]["containers"][0]["ports"] =
        json!([{ "containerPort": "http" }]);
    let api = kruise_api(&ns, "CloneSet", "v1alpha1");
    let refused = api
        .create(&PostParams::default(), &unreadable)
        .await
        .expect_err("refused");
    assert!(
        refused
            .to_string()
            .contains("spec.template.spec.containers[0].ports[0].containerPort"),
        "{refused}"
    );

    // An Advanced DaemonSet: its defaults come back, and a selector that misses its template
    // is refused (its update-strategy rules are the CRD's, tests/crds.rs).
    let daemons = kruise_api(&ns, "DaemonSet", "v1alpha1");
    let bare: kube::api::DynamicObject = support::object(json!({
        "apiVersion": "apps.kruise.io/v1alpha1", "kind": "DaemonSet", "metadata": { "name": "agent" },
        "spec": { "selector": { "matchLabels": { "app": "agent" } },
            "template": { "metadata": { "labels": { "app": "agent" } },
                "spec": { "nodeSelector": { "none": "none" }, "containers": [{ "name": "c", "image": "i" }] } } } }));
    let stored = daemons
        .create(&PostParams::default(), &bare)
        .await
        .expect("a bare DaemonSet");
    assert_eq!(
        stored.data["spec"]["updateStrategy"]["rollingUpdate"],
        json!({ "rollingUpdateType": "Standard", "maxUnavailable": 1, "maxSurge": 0 })
    );
    let mut both = bare.clone();
    both.metadata.name = Some("both".into());
    both.data["spec"]["template"]["metadata"]["labels"] = json!({ "app": "other" });
    let refused = daemons
        .create(&PostParams::default(), &both)
        .await
        .expect_err("refused");
    assert!(
        refused.to_string().contains("DaemonSet both: spec.selector"),
        "{refused}"
    );

    // The probes and the metrics come from the same server. The webhooks serve before the
    // caches have their first lists; ready once they have (a loaded machine takes a while).
    wait_for("/readyz", Duration::from_secs(60), || async {
        let (status, body) = controller.get("/readyz").ok_or("no answer from /readyz")?;
        if status.contains("200") {
            Ok(())
        } else {
            Err(format!("{status} {body}"))
        }
    })
    .await;
    assert!(controller.get("/healthz").expect("healthz").0.contains("200"));
    let metrics = controller.metrics();
    let answered: f64 = metrics
        .iter()
        .filter(|(k, _)| k.starts_with("kruise_admission_total{"))
        .map(|(_, v)| v)
        .sum();
    assert!(answered >= 4.0, "admission calls counted: {metrics:?}");

    assert_eq!(controller.stop(), 0);
    assert!(gone(&ns).await, "a graceful exit removes the configurations");
}

#[tokio::test]
async fn a_sigkilled_run_leaves_configurations_that_block_and_slow_nothing() {
    let ns = TestNamespace::create("webhooks-kill").await;
    let controller = RunningController::start(&ns);
    let stale = registered(&ns).await;
    controller.kill();
    assert!(!gone(&ns).await, "a SIGKILL cannot remove them");

    let pods: Api<Pod> = ns.api();
    for i in 0..5 {
        let pod: Pod = support::object(json!({ "metadata": { "name": format!("plain-{i}") },
            "spec": { "containers": [{ "name": "main", "image": "nginx:1.25" }] } }));
        let start = Instant::now();
        pods.create(&PostParams::default(), &pod)
            .await
            .expect("a pod create succeeds");
        assert!(
            start.elapsed() < Duration::from_secs(2),
            "pod create took {:?}",
            start.elapsed()
        );
    }
    // The workload hooks fail open too: the create succeeds, undefaulted, in well under 2 s.
    let start = Instant::now();
    let set = create(&ns, "CloneSet", "v1alpha1", "after-kill", "after-kill")
        .await
        .expect("accepted");
    assert!(
        start.elapsed() < Duration::from_secs(2),
        "CloneSet create took {:?}",
        start.elapsed()
    );
    assert!(!defaulted(&set), "nobody defaulted it");

    // A run started again defaults nothing it missed, and plans it the same way.
    let again = RunningController::start(&ns);
    reregistered(&ns, &stale).await;
    support::webhooks::answering(&ns).await;
    let set = create(&ns, "CloneSet", "v1alpha1", "after-restart", "after-restart")
        .await
        .expect("created");
    assert!(defaulted(&set), "{}", set["spec"]);
    // The CloneSet stored undefaulted while run was down rolls out all the same.
    let api = kruise_api(&ns, "CloneSet", "v1alpha1");
    let scale = json!({ "spec": { "replicas": 2 } });
    api.patch("after-kill", &PatchParams::default(), &Patch::Merge(&scale))
        .await
        .expect("scale");
    wait_for(
        "two ready pods of the undefaulted CloneSet",
        Duration::from_secs(60),
        || async {
            let set = api.get("after-kill").await.map_err(|e| e.to_string())?;
            let status = &set.data["status"];
            if status["readyReplicas"] == 2 && status["updatedReplicas"] == 2 {
                Ok(())
            } else {
                Err(status.to_string())
            }
        },
    )
    .await;
    drop(again);
}

#[tokio::test]
async fn a_leader_and_its_standby_serve_under_one_ca_and_the_standby_registers_on_takeover() {
    let ns = TestNamespace::create("webhooks-ha").await;
    let lease = ["--leader-elect-lease-duration", "4s"];
    let leader = RunningController::start_with(&ns, &lease);
    let first = registered(&ns).await;
    let standby = RunningController::start_with(&ns, &lease);
    wait_for("the standby to wait", Duration::from_secs(20), || async {
        if standby.log_text().contains("standby:") {
            Ok(())
        } else {
            Err(standby.log_tail())
        }
    })
    .await;
    let secrets: Api<Secret> = ns.api();
    let secret = secrets
        .get("kubectl-kruise-webhook-certs")
        .await
        .expect("the certificate Secret");
    let ca = secret
        .data
        .as_ref()
        .and_then(|d| d.get("ca.crt"))
        .map(|b| b.0.clone())
        .expect("ca.crt");
    assert_eq!(ca_of(&first), ca, "the configurations trust the CA in the Secret");

    assert_eq!(leader.stop(), 0);
    let second = reregistered(&ns, &first).await;
    assert_eq!(ca_of(&second), ca, "one CA for the leader and the standby");
    support::webhooks::answering(&ns).await;
    let set = create(&ns, "CloneSet", "v1alpha1", "after-takeover", "after-takeover")
        .await
        .expect("created");
    assert!(defaulted(&set), "the new leader answers: {}", set["spec"]);
    drop(standby);
}

#[tokio::test]
async fn a_forced_certificate_renewal_fails_no_admission_call() {
    let ns = TestNamespace::create("webhooks-renew").await;
    // A 9 s serving certificate: renewed every 6 s or so.
    let controller = RunningController::start_with_env(&ns, &[], &[("KRUISE_WEBHOOK_CERT_LIFETIME", "9")]);
    // The renewals are what is measured: the first call comes once the API server calls
    // the run at all (a full run once saw its first create pass uncalled).
    support::webhooks::answering(&ns).await;
    let secrets: Api<Secret> = ns.api();
    let not_after = || async {
        let secret = secrets.get("kubectl-kruise-webhook-certs").await.expect("Secret");
        secret
            .data
            .and_then(|d| d.get("not-after").map(|b| b.0.clone()))
            .unwrap_or_default()
    };
    let mut seen = std::collections::BTreeSet::from([not_after().await]);
    let (mut calls, mut undefaulted) = (0, Vec::new());
    let until = Instant::now() + Duration::from_secs(25);
    while Instant::now() < until {
        let name = format!("r-{calls}");
        let set = create(&ns, "CloneSet", "v1alpha1", &name, &name)
            .await
            .expect("created");
        calls += 1;
        if !defaulted(&set) {
            undefaulted.push(name);
        }
        seen.insert(not_after().await);
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    assert!(seen.len() >= 3, "at least two renewals in 25 s: {seen:?}");
    assert!(
        undefaulted.is_empty(),
        "{} of {calls} admission calls failed: {undefaulted:?}",
        undefaulted.len()
    );
    drop(controller);
}

/// A BroadcastJob and an AdvancedCronJob get OpenKruise's spec defaults at admission, so
/// `kubectl get -o yaml` shows the policies that apply; their pod templates stay as written.
#[tokio::test]
async fn jobs_get_upstreams_spec_defaults_and_keep_their_pod_templates() {
    let ns = TestNamespace::create("webhooks-jobs").await;
    let controller = RunningController::start(&ns);
    support::webhooks::answering(&ns).await;
    let pod = json!({ "spec": { "restartPolicy": "Never",
        "containers": [{ "name": "c", "image": "busybox" }] } });
    let job = support::dynamic_api(&ns, "apps.kruise.io/v1alpha1", "BroadcastJob", "broadcastjobs")
        .create(
            &PostParams::default(),
            &support::object(
                json!({ "apiVersion": "apps.kruise.io/v1alpha1", "kind": "BroadcastJob",
                "metadata": { "name": "bare" }, "spec": { "template": pod.clone(), "paused": true } }),
            ),
        )
        .await
        .expect("a bare BroadcastJob");
    let spec = &job.data["spec"];
    assert_eq!(spec["completionPolicy"]["type"], "Always", "{spec}");
    assert_eq!(spec["parallelism"], 2147483647, "{spec}");
    assert_eq!(spec["failurePolicy"]["type"], "FailFast", "{spec}");
    assert_eq!(spec["template"], pod, "the pod template as written");
    let cron = support::dynamic_api(
        &ns,
        "apps.kruise.io/v1alpha1",
        "AdvancedCronJob",
        "advancedcronjobs",
    )
    .create(
        &PostParams::default(),
        &support::object(
            json!({ "apiVersion": "apps.kruise.io/v1alpha1", "kind": "AdvancedCronJob",
                "metadata": { "name": "bare" }, "spec": { "schedule": "0 0 1 1 *",
                    "template": { "broadcastJobTemplate": { "spec": { "template": pod.clone() } } } } }),
        ),
    )
    .await
    .expect("a bare AdvancedCronJob");
    let spec = &cron.data["spec"];
    assert_eq!(spec["concurrencyPolicy"], "Allow", "{spec}");
    assert_eq!(spec["paused"], false, "{spec}");
    assert_eq!(spec["successfulJobsHistoryLimit"], 3, "{spec}");
    assert_eq!(spec["failedJobsHistoryLimit"], 1, "{spec}");
    assert_eq!(spec["template"]["broadcastJobTemplate"]["spec"]["template"], pod);
    assert_eq!(controller.stop(), 0);
}
