//! The in-cluster manager (`install --manager`): its manifests are valid and safe, it
//! installs and uninstalls cleanly, and its generated RBAC is no wider than needed (each
//! rule taken away in turn makes some request of `run` refused, and `run` says which).
//! That the RBAC is enough is shown by the CloneSet, Advanced StatefulSet and rollout suites,
//! whose runs are its service account (`tests/support/controller.rs`).
mod support;

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use kube::api::{Api, DeleteParams, DynamicObject, Patch, PatchParams, PostParams};
use kube::core::GroupVersionKind;
use serde_json::{Value, json};
use support::{CLI, TestNamespace, kruise, wait_for};

/// `install --manager -n NS --dry-run=client -o yaml`, one JSON value per document.
fn manifests(kubeconfig: &Path, namespace: &str, extra: &[&str]) -> Vec<Value> {
    let mut args = vec![
        "install",
        "--manager",
        "-n",
        namespace,
        "--dry-run=client",
        "-o",
        "yaml",
    ];
    args.extend(extra);
    let (code, out, err) = kruise(kubeconfig, &args);
    assert_eq!(code, 0, "{err}");
    out.split("---\n")
        .filter(|d| !d.trim().is_empty())
        .map(|d| serde_saphyr::from_str(d).unwrap_or_else(|e| panic!("not YAML ({e}):\n{d}")))
        .collect()
}

fn of_kind<'a>(docs: &'a [Value], kind: &str) -> &'a Value {
    docs.iter()
        .find(|d| d["kind"] == kind)
        .unwrap_or_else(|| panic!("no {kind}"))
}

/// The API of a manifest object, found by discovery (not by the project's own mapping).
async fn api_of(client: &kube::Client, doc: &Value) -> Api<DynamicObject> {
    let api_version = doc["apiVersion"].as_str().expect("apiVersion");
    let (group, version) = api_version.split_once('/').unwrap_or(("", api_version));
    let gvk = GroupVersionKind::gvk(group, version, doc["kind"].as_str().expect("kind"));
    let (resource, caps) = kube::discovery::pinned_kind(client, &gvk)
        .await
        .unwrap_or_else(|e| panic!("discovering {gvk:?}: {e}"));
    match (caps.scope, doc["metadata"]["namespace"].as_str()) {
        (kube::discovery::Scope::Namespaced, Some(ns)) => Api::namespaced_with(client.clone(), ns, &resource),
        _ => Api::all_with(client.clone(), &resource),
    }
}

#[tokio::test]
async fn the_manifests_pass_a_server_dry_run_and_the_pod_security_check() {
    let ns = TestNamespace::create("mgr-dry").await;
    let docs = manifests(
        &ns.kubeconfig,
        &ns.name,
        &["--image", "registry.example/kruise:1"],
    );
    let crds = docs
        .iter()
        .filter(|d| d["kind"] == "CustomResourceDefinition")
        .count();
    assert_eq!(
        crds,
        kubectl_kruise::api::KINDS.len(),
        "every CRD comes with the manager"
    );
    for doc in &docs {
        let api = api_of(&ns.client, doc).await;
        let name = doc["metadata"]["name"].as_str().expect("name");
        let mut params = PatchParams::apply("manager-test").force();
        params.dry_run = true;
        api.patch(name, &params, &Patch::Apply(doc))
            .await
            .unwrap_or_else(|e| panic!("server dry run refused {} {name}: {e}", doc["kind"]));
    }
    // The pod's security, field by field (the Pod Security Standards' restricted profile).
    let deployment = of_kind(&docs, "Deployment");
    let pod = &deployment["spec"]["template"]["spec"];
    assert_eq!(pod["securityContext"]["runAsNonRoot"], true);
    assert!(
        pod["securityContext"]["runAsUser"]
            .as_i64()
            .is_some_and(|u| u > 0)
    );
    assert_eq!(pod["securityContext"]["seccompProfile"]["type"], "RuntimeDefault");
    assert!(pod["hostNetwork"].is_null() && pod["hostPID"].is_null() && pod["hostIPC"].is_null());
    assert_eq!(pod["serviceAccountName"], "kubectl-kruise");
    let containers = pod["containers"].as_array().expect("containers");
    assert_eq!(containers.len(), 1);
    let c = &containers[0];
    assert_eq!(c["image"], "registry.example/kruise:1");
    let sc = &c["securityContext"];
    assert_eq!(sc["readOnlyRootFilesystem"], true);
    assert_eq!(sc["allowPrivilegeEscalation"], false);
    assert_ne!(sc["privileged"], true);
    assert_eq!(sc["capabilities"]["drop"], json!(["ALL"]));
    assert!(sc["capabilities"]["add"].is_null());
    for field in ["requests", "limits"] {
        for resource in ["cpu", "memory"] {
            assert!(c["resources"][field][resource].is_string(), "{field}.{resource}");
        }
    }
    assert_eq!(c["livenessProbe"]["httpGet"]["path"], "/healthz");
    assert_eq!(c["readinessProbe"]["httpGet"]["path"], "/readyz?exclude=leader");
    let args: Vec<&str> = c["args"]
        .as_array()
        .expect("args")
        .iter()
        .filter_map(Value::as_str)
        .collect();
    assert_eq!(args[0], "run");
    assert!(args.contains(&format!("--webhook-service={}/kubectl-kruise-webhook:443", ns.name).as_str()));
    // No rule is a wildcard; secrets only in the Role.
    let cluster = of_kind(&docs, "ClusterRole");
    for rule in cluster["rules"]
        .as_array()
        .expect("rules")
        .iter()
        .chain(of_kind(&docs, "Role")["rules"].as_array().expect("rules"))
    {
        for field in ["apiGroups", "resources", "verbs"] {
            assert!(
                !rule[field].as_array().expect(field).contains(&json!("*")),
                "{rule}"
            );
        }
    }
    assert!(!cluster["rules"].to_string().contains("\"secrets\""));
    assert_eq!(of_kind(&docs, "PodDisruptionBudget")["spec"]["maxUnavailable"], 1);
}

#[tokio::test]
async fn install_manager_is_idempotent_and_uninstall_removes_only_the_manager() {
    let ns = TestNamespace::create("mgr-install").await;
    // A server dry run into a namespace that does not exist yet sends what it can.
    let absent = format!("{}-absent", ns.name);
    let (code, out, err) = kruise(
        &ns.kubeconfig,
        &["install", "--manager", "-n", &absent, "--dry-run=server"],
    );
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains(&format!("namespace/{absent} created (server dry run)")),
        "{out}"
    );
    assert!(
        out.contains(&format!("deployment.apps/kubectl-kruise-manager not sent (server dry run: namespace {absent} does not exist yet)")),
        "{out}"
    );
    let install = ["install", "--manager", "-n", ns.name.as_str(), "--replicas", "2"];
    let (code, out, err) = kruise(&ns.kubeconfig, &install);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("deployment.apps/kubectl-kruise-manager created"),
        "{out}"
    );
    let deployments: Api<k8s_openapi::api::apps::v1::Deployment> = ns.api();
    wait_for(
        "the manager's 2 replicas available",
        Duration::from_secs(90),
        || async {
            let d = deployments
                .get("kubectl-kruise-manager")
                .await
                .map_err(|e| e.to_string())?;
            let available = d.status.and_then(|s| s.available_replicas).unwrap_or(0);
            (available == 2)
                .then_some(())
                .ok_or(format!("{available} available"))
        },
    )
    .await;
    let (code, again, err) = kruise(&ns.kubeconfig, &install);
    assert_eq!(code, 0, "{err}");
    let manager_lines: Vec<&str> = again
        .lines()
        .filter(|l| !l.starts_with("customresourcedefinition"))
        .collect();
    assert_eq!(manager_lines.len(), 9, "{again}");
    assert!(manager_lines.iter().all(|l| l.ends_with(" unchanged")), "{again}");

    let (code, out, err) = kruise(
        &ns.kubeconfig,
        &["uninstall", "--manager", "--keep-crds", "-n", ns.name.as_str()],
    );
    assert_eq!(code, 0, "{err}");
    assert!(out.contains(&format!("namespace/{} kept", ns.name)), "{out}");
    assert!(
        deployments
            .get_opt("kubectl-kruise-manager")
            .await
            .expect("get")
            .is_none()
    );
    let roles: Api<k8s_openapi::api::rbac::v1::ClusterRole> = Api::all(ns.client.clone());
    let cluster_role = format!("kubectl-kruise-manager:{}", ns.name);
    assert!(roles.get_opt(&cluster_role).await.expect("get").is_none());
    let namespaces: Api<k8s_openapi::api::core::v1::Namespace> = Api::all(ns.client.clone());
    assert!(
        namespaces.get_opt(&ns.name).await.expect("get").is_some(),
        "the namespace stays"
    );
    let crds: Api<
        k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition,
    > = Api::all(ns.client.clone());
    assert!(
        crds.get_opt("clonesets.apps.kruise.io")
            .await
            .expect("get")
            .is_some(),
        "--keep-crds"
    );
}

/// A permission `run` reported refused, from its line `forbidden: ... to PERMISSION: ...`.
fn refused(log: &str) -> Vec<String> {
    const LEAD: &str = "forbidden: the API server refused this run to ";
    log.lines()
        .filter_map(|l| l.strip_prefix(LEAD))
        .filter_map(|rest| rest.split(": the identity").next())
        .map(String::from)
        .collect()
}

/// The permissions a rule grants, as `run` names them (`VERB RESOURCE[.GROUP]`).
fn granted(rule: &Value) -> Vec<String> {
    let list = |f: &str| -> Vec<String> {
        rule[f]
            .as_array()
            .expect(f)
            .iter()
            .filter_map(|v| v.as_str().map(String::from))
            .collect()
    };
    let mut out = Vec::new();
    for group in list("apiGroups") {
        for resource in list("resources") {
            for verb in list("verbs") {
                let named = if group.is_empty() {
                    resource.clone()
                } else {
                    format!("{resource}.{group}")
                };
                out.push(format!("{verb} {named} "));
            }
        }
    }
    out
}

/// A CloneSet of one pod that `run` has to create, report and update in place.
fn cloneset(name: &str, image: &str) -> DynamicObject {
    support::object(
        json!({ "apiVersion": "apps.kruise.io/v1alpha1", "kind": "CloneSet",
        "metadata": { "name": name },
        "spec": { "replicas": 1, "selector": { "matchLabels": { "app": name } },
            "updateStrategy": { "type": "InPlaceIfPossible" },
            "template": { "metadata": { "labels": { "app": name } },
                "spec": { "containers": [{ "name": "main", "image": image }] } } } }),
    )
}

struct Trial<'a> {
    home: &'a TestNamespace,
    account: String,
    cluster_rules: Vec<Value>,
    role_rules: Vec<Value>,
}

impl Trial<'_> {
    /// Binds the account to these rules, runs the controllers as it over a CloneSet that
    /// it creates and then updates in place, and returns the run's log once it reported a
    /// refused request (or after a minute).
    async fn run(&self) -> String {
        let home = &self.home.name;
        let client = &self.home.client;
        let create = |doc: Value| async move {
            let api = api_of(client, &doc).await;
            api.create(&PostParams::default(), &support::object(doc))
                .await
                .expect("create");
        };
        let meta = |ns: Option<&str>| {
            let mut m = json!({ "name": self.account });
            if let Some(ns) = ns {
                m["namespace"] = json!(ns);
            }
            m
        };
        let subject = json!([{ "kind": "ServiceAccount", "name": self.account, "namespace": home }]);
        create(json!({ "apiVersion": "v1", "kind": "ServiceAccount", "metadata": meta(Some(home)) })).await;
        create(
            json!({ "apiVersion": "rbac.authorization.k8s.io/v1", "kind": "ClusterRole",
            "metadata": meta(None), "rules": self.cluster_rules }),
        )
        .await;
        create(json!({ "apiVersion": "rbac.authorization.k8s.io/v1", "kind": "ClusterRoleBinding",
            "metadata": meta(None), "subjects": subject,
            "roleRef": { "apiGroup": "rbac.authorization.k8s.io", "kind": "ClusterRole", "name": self.account } })).await;
        create(
            json!({ "apiVersion": "rbac.authorization.k8s.io/v1", "kind": "Role",
            "metadata": meta(Some(home)), "rules": self.role_rules }),
        )
        .await;
        create(
            json!({ "apiVersion": "rbac.authorization.k8s.io/v1", "kind": "RoleBinding",
            "metadata": meta(Some(home)), "subjects": subject,
            "roleRef": { "apiGroup": "rbac.authorization.k8s.io", "kind": "Role", "name": self.account } }),
        )
        .await;

        let work = TestNamespace::create("mgr-trial").await;
        let sets = support::kruise_api(&work, "CloneSet", "v1alpha1");
        sets.create(&PostParams::default(), &cloneset("web", "nginx:1.25"))
            .await
            .expect("CloneSet");
        // A budget over it, so that its controller (and the pod webhook, and the in-place
        // guard) read the budget and patch its status.
        let budgets = support::dynamic_api(
            &work,
            "policy.kruise.io/v1alpha1",
            "PodUnavailableBudget",
            "podunavailablebudgets",
        );
        let budget = json!({ "apiVersion": "policy.kruise.io/v1alpha1", "kind": "PodUnavailableBudget",
            "metadata": { "name": "web" },
            "spec": { "targetRef": { "apiVersion": "apps.kruise.io/v1alpha1", "kind": "CloneSet", "name": "web" },
                "maxUnavailable": 1 } });
        budgets
            .create(&PostParams::default(), &support::object(budget))
            .await
            .expect("PodUnavailableBudget");
        let log = std::env::temp_dir().join(format!("kruise-run-{}.log", work.name));
        let file = std::fs::File::create(&log).expect("log");
        let mut child = Command::new(CLI)
            .args(["run", "-n", &work.name, "--as"])
            .arg(format!("system:serviceaccount:{home}:{}", self.account))
            .args([
                "--leader-elect-namespace",
                home,
                "--leader-elect-name",
                &self.account,
            ])
            .arg("--kubeconfig")
            .arg(&work.kubeconfig)
            .env("RUST_LOG", "warn")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(file)
            .spawn()
            .expect("run");
        let deadline = Instant::now() + Duration::from_secs(60);
        let mut updated = false;
        // A SidecarSet that patches pod metadata makes the webhook read OpenKruise's
        // whitelist ConfigMap (refused without it: no whitelist exists here).
        let sidecarsets = support::cluster_api(&work, "apps.kruise.io/v1alpha1", "SidecarSet", "sidecarsets");
        let sidecarset = format!("{}-patch", work.name);
        let mut judged = false;
        let text = loop {
            tokio::time::sleep(Duration::from_millis(250)).await;
            let text = std::fs::read_to_string(&log).unwrap_or_default();
            if !refused(&text).is_empty() || Instant::now() > deadline {
                break text;
            }
            if !updated
                && let Ok(set) = sets.get("web").await
                && set.data["status"]["updatedReadyReplicas"] == 1
            {
                let patch = json!([{ "op": "replace", "path": "/spec/template/spec/containers/0/image", "value": "nginx:1.26" }]);
                sets.patch(
                    "web",
                    &PatchParams::default(),
                    &Patch::<Value>::Json(serde_json::from_value(patch).expect("patch")),
                )
                .await
                .expect("image");
                updated = true;
            }
            if updated && !judged && text.contains("webhooks registered") {
                let set = json!({ "apiVersion": "apps.kruise.io/v1alpha1", "kind": "SidecarSet",
                    "metadata": { "name": sidecarset },
                    "spec": { "namespace": work.name, "selector": { "matchLabels": { "app": "none" } },
                        "containers": [{ "name": "side", "image": "busybox" }],
                        "patchPodMetadata": [{ "annotations": { "key": "{}" } }] } });
                let _ = sidecarsets
                    .create(&PostParams::default(), &support::object(set))
                    .await;
                judged = true;
            }
        };
        let _ = sidecarsets.delete(&sidecarset, &DeleteParams::default()).await;
        let _ = child.kill();
        let _ = child.wait();
        for kind in ["ClusterRoleBinding", "ClusterRole"] {
            let doc =
                json!({ "apiVersion": "rbac.authorization.k8s.io/v1", "kind": kind, "metadata": meta(None) });
            let _ = api_of(client, &doc)
                .await
                .delete(&self.account, &DeleteParams::default())
                .await;
        }
        text
    }
}

/// Each rule of the generated ClusterRole (and of the Role in the manager's namespace),
/// taken away in turn, makes `run` report a refused request that the rule grants (for a
/// `finalizers` rule: a create refused because the object blocks its owner's deletion, as
/// the admission plugin OwnerReferencesPermissionEnforcement rules), and the check at
/// start names what is missing.
#[tokio::test]
async fn every_rule_of_the_generated_rbac_is_needed() {
    let home = TestNamespace::create("mgr-rbac").await;
    let docs = manifests(&home.kubeconfig, &home.name, &[]);
    let cluster: Vec<Value> = of_kind(&docs, "ClusterRole")["rules"]
        .as_array()
        .expect("rules")
        .clone();
    let role: Vec<Value> = of_kind(&docs, "Role")["rules"].as_array().expect("rules").clone();
    let (code, _, err) = kruise(&home.kubeconfig, &["install"]);
    assert_eq!(code, 0, "{err}");
    let mut failures = Vec::new();
    let trials = (0..cluster.len())
        .map(|i| (true, i))
        .chain((0..role.len()).map(|i| (false, i)));
    for (n, (in_cluster, i)) in trials.enumerate() {
        let without = |rules: &[Value], skip: Option<usize>| -> Vec<Value> {
            rules
                .iter()
                .enumerate()
                .filter(|(j, _)| Some(*j) != skip)
                .map(|(_, r)| r.clone())
                .collect()
        };
        let removed = if in_cluster { &cluster[i] } else { &role[i] };
        let trial = Trial {
            home: &home,
            account: format!("trial-{}-{n}", home.name),
            cluster_rules: without(&cluster, in_cluster.then_some(i)),
            role_rules: without(&role, (!in_cluster).then_some(i)),
        };
        let log = trial.run().await;
        let permissions = granted(removed);
        let refusals = refused(&log);
        let finalizers = removed["resources"].to_string().contains("/finalizers");
        let explained = refusals.first().is_some_and(|r| {
            let r = format!("{r} ");
            permissions.iter().any(|p| r.starts_with(p.as_str()))
                || (finalizers && r.starts_with("create pods "))
        });
        let checked = log.lines().any(|l| {
            permissions
                .iter()
                .any(|p| l.trim_start().starts_with(p.trim_end()))
        });
        println!("without {removed}: refused {refusals:?}");
        if !(explained && checked) {
            let tail: Vec<&str> = log.lines().rev().take(15).collect();
            failures.push(format!(
                "without {removed}: refused {refusals:?}, named at start: {checked}\n{}",
                tail.into_iter().rev().collect::<Vec<_>>().join("\n")
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}
