//! The `apps.kruise.io` CRDs on a real apiserver: `install` is idempotent and waits for
//! Established; every valid handbook fixture is accepted by server-side apply under strict
//! field validation and reads back identically; the invalid fixture, and a table of typical
//! mistakes for every kind, are rejected with the bad fields named; `uninstall` refuses while
//! objects exist and round-trips otherwise.
mod support;

use std::path::Path;

/// The documents of a handbook fixture.
fn documents(file: &str) -> Vec<Value> {
    support::manifests::documents(&Path::new(FIXTURES).join(file))
}

use k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition;
use kube::api::{Api, DynamicObject, Patch};
use kube::core::{ApiResource, GroupVersionKind};
use serde_json::Value;
use support::manifests::{apply, assert_contains, create_strict, resource_of, strict_apply};
use support::{PrivateControlPlane, TestNamespace, kruise};

const FIXTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures");

async fn install(kubeconfig: &Path) {
    let (code, out, err) = kruise(kubeconfig, &["install"]);
    assert_eq!(code, 0, "install failed:\n{out}\n{err}");
}

#[tokio::test]
async fn install_is_idempotent_and_every_crd_is_established() {
    let kubeconfig = support::kubeconfig();
    install(kubeconfig).await;
    let (code, out, err) = kruise(kubeconfig, &["install"]);
    assert_eq!(code, 0, "second install failed: {err}");
    for crd in kubectl_kruise::api::crds() {
        let name = crd.metadata.name.clone().unwrap_or_default();
        assert!(
            out.contains(&format!("{name} unchanged")),
            "second install changed {name}:\n{out}"
        );
    }
    let api: Api<CustomResourceDefinition> = Api::all(support::client().await);
    for crd in kubectl_kruise::api::crds() {
        let name = crd.metadata.name.clone().unwrap_or_default();
        let live = api
            .get(&name)
            .await
            .unwrap_or_else(|e| panic!("{name} not installed: {e}"));
        let established = live.status.and_then(|s| s.conditions).unwrap_or_default();
        assert!(
            established
                .iter()
                .any(|c| c.type_ == "Established" && c.status == "True"),
            "{name}"
        );
    }
}

#[tokio::test]
async fn install_dry_run_client_prints_the_crds_without_a_cluster() {
    let (code, out, err) = kruise(
        Path::new("/nonexistent/kubeconfig"),
        &["install", "--dry-run=client", "-o", "yaml"],
    );
    assert_eq!(code, 0, "{err}");
    for crd in kubectl_kruise::api::crds() {
        assert!(
            out.contains(&format!("name: {}", crd.metadata.name.unwrap_or_default())),
            "{out}"
        );
    }
    let docs: Vec<Value> = serde_saphyr::from_multiple(&out).expect("valid YAML");
    assert_eq!(
        docs.iter()
            .filter(|d| d["kind"] == "CustomResourceDefinition")
            .count(),
        kubectl_kruise::api::crds().len()
    );
}

#[tokio::test]
async fn every_valid_handbook_fixture_is_accepted_strictly_and_reads_back_identically() {
    install(support::kubeconfig()).await;
    let ns = TestNamespace::create("crd-fixtures").await;
    let mut applied = 0;
    for entry in std::fs::read_dir(FIXTURES).expect("fixtures directory") {
        let file = entry.expect("entry").file_name().to_string_lossy().into_owned();
        if !file.ends_with(".yaml") || file == "cloneset-sample-data.yaml" {
            continue;
        }
        for doc in documents(&file) {
            let back = apply(&ns, &doc)
                .await
                .unwrap_or_else(|e| panic!("{file}: {} rejected: {e}", doc["kind"]));
            let back = serde_json::to_value(&back).expect("serializable");
            let kind = doc["kind"].as_str().unwrap_or_default();
            assert_contains(&format!("{file}:{kind}.spec"), &doc["spec"], &back["spec"]);
            applied += 1;
        }
    }
    assert!(applied >= 8, "only {applied} fixture documents applied");
}

#[tokio::test]
async fn the_misplaced_fields_fixture_is_rejected_naming_each_bad_field() {
    install(support::kubeconfig()).await;
    let ns = TestNamespace::create("crd-invalid").await;
    let doc = documents("cloneset-sample-data.yaml").remove(0);
    let error = create_strict(&ns, &doc)
        .await
        .expect_err("the misplaced-fields CloneSet was accepted")
        .to_string();
    for field in [
        "spec.updateStrategy.updateStrategy",
        "spec.updateStrategy.priorityStrategy.scatterStrategy",
    ] {
        assert!(error.contains(field), "error does not name {field}: {error}");
    }
}

#[tokio::test]
async fn uninstall_refuses_while_objects_exist_and_round_trips_after() {
    let plane = PrivateControlPlane::start("uninstall");
    install(&plane.kubeconfig).await;
    let client = plane.client().await;
    let doc = documents("cloneset-guestbook.yaml")
        .into_iter()
        .find(|d| d["kind"] == "CloneSet")
        .expect("CloneSet");
    let api: Api<DynamicObject> = Api::namespaced_with(client.clone(), "default", &resource_of(&doc));
    api.patch("guestbook-clone", &strict_apply(), &Patch::Apply(&doc))
        .await
        .expect("apply guestbook");

    let (code, _, err) = kruise(&plane.kubeconfig, &["uninstall"]);
    assert_eq!(code, 1, "uninstall with objects present: {err}");
    assert!(
        err.contains("clonesets.apps.kruise.io: 1 (default: 1)") && err.contains("deletes every object"),
        "{err}"
    );
    let (code, _, err) = kruise(&plane.kubeconfig, &["uninstall", "--force"]);
    assert_eq!(code, 2, "--force without a terminal or --yes must refuse: {err}");
    assert!(
        api.get_opt("guestbook-clone").await.expect("get").is_some(),
        "a refusal deleted the object"
    );

    api.delete("guestbook-clone", &Default::default())
        .await
        .expect("delete guestbook");
    let (code, out, err) = kruise(&plane.kubeconfig, &["uninstall"]);
    assert_eq!(code, 0, "uninstall of empty CRDs: {err}");
    let crds: Api<CustomResourceDefinition> = Api::all(client);
    for crd in kubectl_kruise::api::crds() {
        let name = crd.metadata.name.unwrap_or_default();
        assert!(out.contains(&format!("{name} deleted")), "{out}");
        assert!(
            crds.get_opt(&name).await.expect("get").is_none(),
            "{name} still installed"
        );
    }
    install(&plane.kubeconfig).await;
}

/// A minimal valid object of `kind` with `spec_patch` merged into its spec.
fn with_spec(kind: &str, name: &str, spec_patch: Value) -> Value {
    let template = serde_json::json!({
        "metadata": { "labels": { "app": name } },
        "spec": { "containers": [ { "name": "app", "image": "nginx:1" } ] },
    });
    // Pods of BroadcastJobs and Jobs run to completion.
    let job_template = serde_json::json!({
        "spec": { "restartPolicy": "Never", "containers": [ { "name": "job", "image": "busybox:1" } ] },
    });
    let (api_version, mut spec) = match kind {
        "CloneSet" => (
            "apps.kruise.io/v1alpha1",
            serde_json::json!({
            "replicas": 1, "selector": { "matchLabels": { "app": name } }, "template": template }),
        ),
        "StatefulSet" => (
            "apps.kruise.io/v1beta1",
            serde_json::json!({
            "replicas": 1, "serviceName": name, "selector": { "matchLabels": { "app": name } }, "template": template }),
        ),
        "DaemonSet" => (
            "apps.kruise.io/v1alpha1",
            serde_json::json!({ "selector": { "matchLabels": { "app": name } }, "template": template }),
        ),
        "BroadcastJob" => (
            "apps.kruise.io/v1alpha1",
            serde_json::json!({ "template": job_template }),
        ),
        "AdvancedCronJob" => (
            "apps.kruise.io/v1alpha1",
            serde_json::json!({
            "schedule": "*/5 * * * *", "template": { "jobTemplate": { "spec": { "template": job_template } } } }),
        ),
        "SidecarSet" => (
            "apps.kruise.io/v1alpha1",
            serde_json::json!({
            "selector": { "matchLabels": { "app": name } },
            "containers": [ { "name": "sidecar", "image": "busybox:1" } ] }),
        ),
        "WorkloadSpread" => (
            "apps.kruise.io/v1alpha1",
            serde_json::json!({
            "targetRef": { "apiVersion": "apps/v1", "kind": "Deployment", "name": name },
            "subsets": [ { "name": "zone-a", "maxReplicas": 1 }, { "name": "zone-b" } ] }),
        ),
        "UnitedDeployment" => (
            "apps.kruise.io/v1alpha1",
            serde_json::json!({
            "replicas": 2, "selector": { "matchLabels": { "app": name } },
            "template": { "statefulSetTemplate": { "metadata": { "labels": { "app": name } },
                "spec": { "selector": { "matchLabels": { "app": name } }, "template": template } } },
            "topology": { "subsets": [ { "name": "subset-a" }, { "name": "subset-b" } ] } }),
        ),
        "PodUnavailableBudget" => (
            "policy.kruise.io/v1alpha1",
            serde_json::json!({ "selector": { "matchLabels": { "app": name } }, "maxUnavailable": 1 }),
        ),
        other => panic!("no base object for {other}"),
    };
    merge(&mut spec, spec_patch);
    serde_json::json!({ "apiVersion": api_version, "kind": kind, "metadata": { "name": name }, "spec": spec })
}

/// JSON merge patch (RFC 7386): objects merge, `null` removes the key, anything else replaces.
fn merge(base: &mut Value, patch: Value) {
    match (base, patch) {
        (Value::Object(b), Value::Object(p)) => {
            for (k, v) in p {
                if v.is_null() {
                    b.remove(&k);
                } else {
                    merge(b.entry(k).or_insert(Value::Null), v);
                }
            }
        }
        (b, p) => *b = p,
    }
}

/// `create_strict`, also for the cluster-scoped SidecarSet: that one is created outside the
/// namespace under a name unique to it (`<name>-<namespace>`) and deleted again if accepted.
async fn create_strict_in_scope(ns: &TestNamespace, doc: &Value) -> Result<Value, kube::Error> {
    if doc["kind"] != "SidecarSet" {
        return create_strict(ns, doc).await;
    }
    let resource = resource_of(doc);
    let name = format!(
        "{}-{}",
        doc["metadata"]["name"].as_str().unwrap_or("sidecarset"),
        ns.name
    );
    let mut body = doc.clone();
    body["metadata"]["name"] = name.clone().into();
    let url = format!(
        "/apis/{}/{}/{}?fieldValidation=Strict",
        resource.group, resource.version, resource.plural
    );
    let request = http::Request::post(url)
        .header("content-type", "application/json")
        .body(serde_json::to_vec(&body).unwrap_or_default())
        .expect("a valid request");
    let text = ns.client.request_text(request).await?;
    let api: Api<DynamicObject> = Api::all_with(ns.client.clone(), &resource);
    let _ = api.delete(&name, &Default::default()).await;
    Ok(serde_json::from_str(&text).unwrap_or(Value::Null))
}

#[tokio::test]
async fn bad_input_is_rejected_with_a_message_naming_the_field() {
    use serde_json::json;
    install(support::kubeconfig()).await;
    let ns = TestNamespace::create("crd-bad-input").await;
    // (kind, what is wrong, spec patch, words the error must contain)
    let table: Vec<(&str, &str, Value, Vec<&str>)> = vec![
        (
            "CloneSet",
            "partition neither int nor percent",
            json!({ "updateStrategy": { "partition": "half" } }),
            vec!["spec.updateStrategy.partition"],
        ),
        (
            "CloneSet",
            "maxUnavailable string without %",
            json!({ "updateStrategy": { "maxUnavailable": "50" } }),
            vec!["spec.updateStrategy.maxUnavailable"],
        ),
        (
            "CloneSet",
            "maxSurge negative",
            json!({ "updateStrategy": { "maxSurge": -1 } }),
            vec!["spec.updateStrategy.maxSurge"],
        ),
        (
            "CloneSet",
            "negative replicas",
            json!({ "replicas": -1 }),
            vec!["spec.replicas"],
        ),
        (
            "CloneSet",
            "empty selector",
            json!({ "selector": { "matchLabels": null } }),
            vec!["spec.selector", "empty selector"],
        ),
        (
            "CloneSet",
            "maxUnavailable and maxSurge both 0",
            json!({ "updateStrategy": { "maxUnavailable": 0, "maxSurge": "0%" } }),
            vec!["spec.updateStrategy.maxUnavailable", "maxSurge"],
        ),
        (
            "CloneSet",
            "a pod named twice in podsToDelete",
            json!({ "scaleStrategy": { "podsToDelete": ["web-a", "web-a"] } }),
            vec!["spec.scaleStrategy.podsToDelete", "Duplicate"],
        ),
        (
            "StatefulSet",
            "empty selector",
            json!({ "selector": { "matchLabels": null } }),
            vec!["spec.selector", "empty selector"],
        ),
        (
            "CloneSet",
            "both priority kinds",
            json!({ "updateStrategy": { "priorityStrategy": {
            "weightPriority": [ { "weight": 50, "matchSelector": { "matchLabels": { "a": "b" } } } ],
            "orderPriority": [ { "orderedKey": "k" } ] } } }),
            vec![
                "spec.updateStrategy.priorityStrategy",
                "weightPriority",
                "orderPriority",
            ],
        ),
        (
            "CloneSet",
            "unknown update strategy type (RollingUpdate and OnDelete are v1beta1's)",
            json!({ "updateStrategy": { "type": "Rolling" } }),
            vec!["spec.updateStrategy.type", "Unsupported value"],
        ),
        (
            "CloneSet",
            "misplaced field",
            json!({ "updateStrategy": { "strategy": { "type": "ReCreate" } } }),
            vec!["spec.updateStrategy.strategy"],
        ),
        (
            "StatefulSet",
            "unknown pod management policy",
            json!({ "podManagementPolicy": "Sometimes" }),
            vec!["spec.podManagementPolicy", "Unsupported value"],
        ),
        (
            "StatefulSet",
            "unknown pod update policy",
            json!({ "updateStrategy": { "type": "RollingUpdate",
            "rollingUpdate": { "podUpdatePolicy": "Whenever" } } }),
            vec!["spec.updateStrategy.rollingUpdate.podUpdatePolicy"],
        ),
        (
            "StatefulSet",
            "negative partition",
            json!({ "updateStrategy": { "type": "RollingUpdate",
            "rollingUpdate": { "partition": -2 } } }),
            vec!["spec.updateStrategy.rollingUpdate.partition"],
        ),
        (
            "DaemonSet",
            "unknown rolling update type",
            json!({ "updateStrategy": { "type": "RollingUpdate",
            "rollingUpdate": { "rollingUpdateType": "InPlaceOnly" } } }),
            vec![
                "spec.updateStrategy.rollingUpdate.rollingUpdateType",
                "Unsupported value",
            ],
        ),
        (
            "DaemonSet",
            "both maxUnavailable and maxSurge non-zero",
            json!({ "updateStrategy": { "rollingUpdate": { "maxUnavailable": 1, "maxSurge": "10%" } } }),
            vec!["spec.updateStrategy.rollingUpdate.maxSurge", "maxUnavailable"],
        ),
        (
            "DaemonSet",
            "maxUnavailable 0 without a surge",
            json!({ "updateStrategy": { "rollingUpdate": { "maxUnavailable": 0 } } }),
            vec!["spec.updateStrategy.rollingUpdate.maxUnavailable", "maxSurge"],
        ),
        (
            "DaemonSet",
            "maxUnavailable set on updateStrategy instead of rollingUpdate",
            json!({ "updateStrategy": { "maxUnavailable": 1 } }),
            vec!["spec.updateStrategy.maxUnavailable", "unknown field"],
        ),
        (
            "BroadcastJob",
            "ttlSecondsAfterFinished with completion type Never",
            json!({ "completionPolicy": { "type": "Never", "ttlSecondsAfterFinished": 30 } }),
            vec!["spec.completionPolicy.ttlSecondsAfterFinished", "Always"],
        ),
        (
            "BroadcastJob",
            "activeDeadlineSeconds with completion type Never",
            json!({ "completionPolicy": { "type": "Never", "activeDeadlineSeconds": 600 } }),
            vec!["spec.completionPolicy.activeDeadlineSeconds", "Always"],
        ),
        (
            "BroadcastJob",
            "pods that restart forever",
            json!({ "template": { "spec": { "restartPolicy": "Always" } } }),
            vec!["spec.template.spec.restartPolicy", "Never", "OnFailure"],
        ),
        (
            "BroadcastJob",
            "ttlSecondsAfterFinished at the top of the spec, as in a Job",
            json!({ "ttlSecondsAfterFinished": 30 }),
            vec!["spec.ttlSecondsAfterFinished", "unknown field"],
        ),
        (
            "AdvancedCronJob",
            "unknown concurrency policy",
            json!({ "concurrencyPolicy": "Skip" }),
            vec!["spec.concurrencyPolicy", "Unsupported value"],
        ),
        (
            "AdvancedCronJob",
            "both a Job and a BroadcastJob template",
            json!({ "template": { "broadcastJobTemplate": { "spec": { "template": {
            "spec": { "restartPolicy": "Never", "containers": [ { "name": "b", "image": "busybox:1" } ] } } } } } }),
            vec!["spec.template", "jobTemplate", "broadcastJobTemplate"],
        ),
        (
            "AdvancedCronJob",
            "a TZ= schedule together with timeZone",
            json!({ "schedule": "TZ=UTC 0 * * * *", "timeZone": "Europe/Berlin" }),
            vec!["spec.schedule", "timeZone"],
        ),
        (
            "AdvancedCronJob",
            "jobTemplate at the top of the spec, as in a CronJob",
            json!({ "jobTemplate": { "spec": {} } }),
            vec!["spec.jobTemplate", "unknown field"],
        ),
        (
            "SidecarSet",
            "unknown update strategy type",
            json!({ "updateStrategy": { "type": "OnDelete" } }),
            vec!["spec.updateStrategy.type", "Unsupported value"],
        ),
        (
            "SidecarSet",
            "both partition and selector",
            json!({ "updateStrategy": { "partition": 2,
            "selector": { "matchLabels": { "canary": "true" } } } }),
            vec!["spec.updateStrategy.partition", "selector"],
        ),
        (
            "SidecarSet",
            "empty selector (would inject into every pod)",
            json!({ "selector": { "matchLabels": null } }),
            vec!["spec.selector"],
        ),
        (
            "SidecarSet",
            "no containers at all",
            json!({ "containers": [] }),
            vec!["spec.containers", "initContainers"],
        ),
        (
            "WorkloadSpread",
            "adaptive knobs without type Adaptive",
            json!({ "scheduleStrategy": { "type": "Fixed", "adaptive": { "rescheduleCriticalSeconds": 30 } } }),
            vec!["spec.scheduleStrategy.type", "Adaptive", "adaptive"],
        ),
        (
            "WorkloadSpread",
            "negative maxReplicas percent",
            json!({ "subsets": [ { "name": "zone-a", "maxReplicas": "-50%" }, { "name": "zone-b" } ] }),
            vec!["spec.subsets[0].maxReplicas"],
        ),
        (
            "WorkloadSpread",
            "UnitedDeployment's nodeSelectorTerm instead of requiredNodeSelectorTerm",
            json!({ "subsets": [ { "name": "zone-a", "nodeSelectorTerm": { "matchExpressions": [
            { "key": "zone", "operator": "In", "values": ["a"] } ] } }, { "name": "zone-b" } ] }),
            vec!["spec.subsets[0].nodeSelectorTerm", "unknown field"],
        ),
        (
            "WorkloadSpread",
            "target without a name",
            json!({ "targetRef": { "name": "" } }),
            vec!["spec.targetRef.name"],
        ),
        (
            "UnitedDeployment",
            "subset replicas above 100%",
            json!({ "topology": { "subsets": [ { "name": "subset-a", "replicas": "150%" }, { "name": "subset-b" } ] } }),
            vec!["spec.topology.subsets[0].replicas"],
        ),
        (
            "UnitedDeployment",
            "unknown update strategy type",
            json!({ "updateStrategy": { "type": "RollingUpdate" } }),
            vec!["spec.updateStrategy.type", "Unsupported value"],
        ),
        (
            "UnitedDeployment",
            "subset name not a DNS label",
            json!({ "topology": { "subsets": [ { "name": "Subset_A" }, { "name": "subset-b" } ] } }),
            vec!["spec.topology.subsets[0].name"],
        ),
        (
            "UnitedDeployment",
            "replicas inside the subset template",
            json!({ "template": { "statefulSetTemplate": { "spec": { "replicas": 3 } } } }),
            vec!["spec.template.statefulSetTemplate.spec.replicas"],
        ),
    ];
    let mut failures = Vec::new();
    for (i, (kind, wrong, patch, words)) in table.into_iter().enumerate() {
        let doc = with_spec(kind, &format!("bad-{i}"), patch);
        match create_strict_in_scope(&ns, &doc).await {
            Ok(_) => failures.push(format!("{kind} with {wrong}: accepted")),
            Err(e) => {
                let text = e.to_string();
                if let Some(missing) = words.iter().find(|w| !text.contains(**w)) {
                    failures.push(format!(
                        "{kind} with {wrong}: error does not name {missing:?}: {text}"
                    ));
                }
            }
        }
    }
    assert!(
        failures.is_empty(),
        "bad inputs not refused as they should be:\n{}",
        failures.join("\n")
    );
}

#[tokio::test]
async fn a_valid_minimal_object_passes_the_same_checks() {
    install(support::kubeconfig()).await;
    let ns = TestNamespace::create("crd-good-input").await;
    for kind in kubectl_kruise::api::KINDS {
        let has_update_strategy = ![
            "BroadcastJob",
            "AdvancedCronJob",
            "WorkloadSpread",
            "PodUnavailableBudget",
        ]
        .contains(&kind);
        let patch = match has_update_strategy {
            true => serde_json::json!({ "updateStrategy": {} }),
            false => serde_json::json!({}),
        };
        create_strict_in_scope(&ns, &with_spec(kind, "good-created", patch.clone()))
            .await
            .unwrap_or_else(|e| panic!("minimal {kind} rejected by create: {e}"));
        apply(&ns, &with_spec(kind, "good", patch))
            .await
            .unwrap_or_else(|e| panic!("minimal {kind} rejected by apply: {e}"));
    }
}

#[tokio::test]
async fn advanced_statefulset_fields_written_through_v1beta1_are_never_lost() {
    use serde_json::json;
    install(support::kubeconfig()).await;
    let ns = TestNamespace::create("crd-sts-versions").await;
    let doc = with_spec(
        "StatefulSet",
        "keep",
        json!({
            "reserveOrdinals": [1, 3],
            "scaleStrategy": { "maxUnavailable": 1 },
            "persistentVolumeClaimRetentionPolicy": { "whenDeleted": "Retain", "whenScaled": "Delete" },
            "lifecycle": { "preDelete": { "finalizersHandler": ["example.com/hold"] } },
        }),
    );
    apply(&ns, &doc).await.expect("v1beta1 StatefulSet accepted");
    for version in ["v1beta1", "v1alpha1"] {
        let gvk = GroupVersionKind::gvk("apps.kruise.io", version, "StatefulSet");
        let resource = ApiResource::from_gvk_with_plural(&gvk, "statefulsets");
        let api: Api<DynamicObject> = Api::namespaced_with(ns.client.clone(), &ns.name, &resource);
        let back = serde_json::to_value(api.get("keep").await.expect("read back")).expect("json");
        assert_contains(&format!("read as {version}: spec"), &doc["spec"], &back["spec"]);
    }
}
