//! kruise-tools' verbs beside `set image`: `set env`, `set resources`, `set
//! serviceaccount` and `expose`, called as users call them (through a real `kubectl`, as a
//! plugin), on a CloneSet whose controller runs (the pods get what was set, the Service
//! selects its pods), on a UnitedDeployment's subset template and on a built-in
//! Deployment; and `exec -S` into a hot-upgrade sidecar's working half.
mod support;

use k8s_openapi::api::apps::v1::Deployment;
use k8s_openapi::api::core::v1::{ConfigMap, Service, ServiceAccount};
use k8s_openapi::apimachinery::pkg::util::intstr::IntOrString;
use kube::api::{ListParams, PostParams};
use serde_json::json;
use support::clonesets::{cloneset, create, pods, wait_settled};
use support::controller::RunningController;
use support::{TestNamespace, plugin};

#[tokio::test]
async fn env_resources_and_service_account_reach_a_clonesets_pods_through_kubectl() {
    let ns = TestNamespace::create("set-verbs").await;
    let controller = RunningController::start(&ns);
    ns.api::<ConfigMap>()
        .create(
            &PostParams::default(),
            &support::object(json!({ "metadata": { "name": "cfg" },
                "data": { "log.level": "debug", "mode": "fast" } })),
        )
        .await
        .expect("ConfigMap");
    ns.api::<ServiceAccount>()
        .create(
            &PostParams::default(),
            &support::object(json!({ "metadata": { "name": "runner" } })),
        )
        .await
        .expect("ServiceAccount");
    create(
        &ns,
        &cloneset(
            "web",
            2,
            json!({ "type": "InPlaceIfPossible", "maxUnavailable": 1 }),
            json!({}),
        ),
    )
    .await;
    wait_settled(&ns, "web", 2, 2, &controller).await;

    let (code, out, err) = plugin(&ns, &["set", "env", "cloneset/web", "A=1", "B=2"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.ends_with("/web env updated\n"), "{out}");
    assert!(err.contains("recreated"), "the consequence is said: {err}");
    let (code, _, err) = plugin(
        &ns,
        &[
            "set",
            "env",
            "cloneset/web",
            "B-",
            "--from=configmap/cfg",
            "--prefix=APP_",
        ],
    );
    assert_eq!(code, 0, "{err}");
    let (code, out, err) = plugin(&ns, &["set", "env", "cloneset/web", "--list"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        out,
        "# CloneSet web, container app\nA=1\n\
         # APP_LOG_LEVEL from configmap cfg, key log.level\n# APP_MODE from configmap cfg, key mode\n"
    );
    let (_, out, _) = plugin(&ns, &["set", "env", "cloneset/web", "--list", "--resolve"]);
    assert!(out.contains("APP_LOG_LEVEL=debug\nAPP_MODE=fast\n"), "{out}");
    let (code, _, err) = plugin(&ns, &["set", "env", "cloneset/web", "A=9", "--overwrite=false"]);
    assert_ne!(code, 0);
    assert!(
        err.contains("A already has a value (1), and --overwrite is false"),
        "{err}"
    );
    let (code, _, err) = plugin(&ns, &["set", "env", "cloneset/web", "-c", "db", "A=2"]);
    assert_ne!(code, 0);
    assert!(
        err.contains("no container matches \"db\" (containers: app)"),
        "{err}"
    );

    let (code, _, err) = plugin(
        &ns,
        &[
            "set",
            "resources",
            "cloneset/web",
            "--limits=cpu=200m,memory=256Mi",
            "--requests=cpu=100m",
        ],
    );
    assert_eq!(code, 0, "{err}");
    let (code, _, err) = plugin(&ns, &["set", "resources", "cloneset/web", "--requests=cpu=1"]);
    assert_ne!(code, 0);
    assert!(
        err.contains("container app: resources.requests.cpu (1) is above resources.limits.cpu (200m)"),
        "{err}"
    );
    let (code, out, err) = plugin(&ns, &["set", "sa", "cloneset/web", "runner"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.ends_with("/web serviceaccount updated\n"), "{out}");

    wait_settled(&ns, "web", 2, 2, &controller).await;
    for pod in pods(&ns, "web").await {
        let spec = pod.spec.expect("spec");
        assert_eq!(spec.service_account_name.as_deref(), Some("runner"));
        let app = &spec.containers[0];
        let env: Vec<(String, Option<String>)> = app
            .env
            .iter()
            .flatten()
            .map(|e| (e.name.clone(), e.value.clone()))
            .collect();
        assert_eq!(
            env,
            vec![
                ("A".into(), Some("1".into())),
                ("APP_LOG_LEVEL".into(), None),
                ("APP_MODE".into(), None),
            ]
        );
        let resources = app.resources.clone().expect("resources");
        assert_eq!(resources.limits.expect("limits")["cpu"].0, "200m");
        assert_eq!(resources.requests.expect("requests")["cpu"].0, "100m");
    }

    // `expose`: a Service whose endpoints are the CloneSet's pods.
    let (code, out, err) = plugin(
        &ns,
        &["expose", "cloneset/web", "--port=80", "--target-port=8080"],
    );
    assert_eq!((code, out.as_str()), (0, "service/web exposed\n"), "{err}");
    let service = ns.api::<Service>().get("web").await.expect("Service");
    let spec = service.spec.expect("spec");
    assert_eq!(
        spec.selector,
        Some([("app".to_string(), "web".to_string())].into())
    );
    // The test plane runs no EndpointSlice controller: the Service's selector is shown
    // to pick exactly the CloneSet's pods, which is what its endpoints would be.
    let selector = spec
        .selector
        .iter()
        .flatten()
        .map(|(k, v)| format!("{k}={v}"))
        .collect::<Vec<_>>()
        .join(",");
    let selected = ns
        .api::<k8s_openapi::api::core::v1::Pod>()
        .list(&ListParams::default().labels(&selector))
        .await
        .expect("pods");
    let names = |pods: Vec<k8s_openapi::api::core::v1::Pod>| {
        let mut names: Vec<String> = pods.into_iter().filter_map(|p| p.metadata.name).collect();
        names.sort();
        names
    };
    assert_eq!(names(selected.items), names(pods(&ns, "web").await));
    let port = &spec.ports.expect("ports")[0];
    assert_eq!(
        (port.port, port.target_port.clone()),
        (80, Some(IntOrString::Int(8080)))
    );
    let (code, _, err) = plugin(&ns, &["expose", "cloneset/web", "--name=web2"]);
    assert_ne!(code, 0);
    assert!(
        err.contains("its template has no container ports; give --port"),
        "{err}"
    );
    assert_eq!(controller.stop(), 0);
}

#[tokio::test]
async fn a_uniteddeployments_subset_template_and_a_deployment_are_set_too() {
    let ns = TestNamespace::create("set-verbs-ud").await;
    let (code, _, err) = support::kruise(&ns.kubeconfig, &["install"]);
    assert_eq!(code, 0, "{err}");
    let uds = support::kruise_api(&ns, "UnitedDeployment", "v1alpha1");
    uds.create(
        &PostParams::default(),
        &support::object(json!({
            "apiVersion": "apps.kruise.io/v1alpha1", "kind": "UnitedDeployment",
            "metadata": { "name": "shop" },
            "spec": { "replicas": 2, "selector": { "matchLabels": { "app": "shop" } },
                "template": { "cloneSetTemplate": {
                    "metadata": { "labels": { "app": "shop" } },
                    "spec": { "selector": { "matchLabels": { "app": "shop" } },
                        "template": { "metadata": { "labels": { "app": "shop" } },
                            "spec": { "containers": [{ "name": "app", "image": "nginx:1.25" }] } } } } },
                "topology": { "subsets": [{ "name": "a" }] } },
        })),
    )
    .await
    .expect("UnitedDeployment");
    let (code, out, err) = plugin(&ns, &["set", "env", "ud/shop", "A=1", "--dry-run=client"]);
    assert_eq!(code, 0, "{err}");
    let patch: serde_json::Value = serde_json::from_str(out.trim()).expect("patch");
    assert_eq!(
        patch,
        json!({ "spec": { "template": { "cloneSetTemplate": { "spec": { "template": { "spec": {
            "containers": [{ "name": "app", "image": "nginx:1.25", "env": [{ "name": "A", "value": "1" }] }],
        } } } } } } })
    );
    let (code, _, err) = plugin(&ns, &["set", "resources", "ud/shop", "--limits=memory=1Gi"]);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("every subset workload rolls it out"), "{err}");
    let stored = uds.get("shop").await.expect("get");
    let container =
        &stored.data["spec"]["template"]["cloneSetTemplate"]["spec"]["template"]["spec"]["containers"][0];
    assert_eq!(container["resources"]["limits"]["memory"], "1Gi");

    // An Advanced StatefulSet says what its pods do under its podUpdatePolicy.
    let mut asts = support::kruise_workload("StatefulSet", "v1beta1", "db", "db");
    asts.data["spec"]["updateStrategy"] =
        json!({ "type": "RollingUpdate", "rollingUpdate": { "podUpdatePolicy": "InPlaceIfPossible" } });
    support::kruise_api(&ns, "StatefulSet", "v1beta1")
        .create(&PostParams::default(), &asts)
        .await
        .expect("Advanced StatefulSet");
    let (code, _, err) = plugin(&ns, &["set", "image", "asts/db", "main=nginx:1.26"]);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("its pods: in place (main=nginx:1.26)"), "{err}");
    let (code, _, err) = plugin(&ns, &["set", "env", "asts/db", "A=1"]);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("its pods: recreated ("), "{err}");

    ns.api::<Deployment>()
        .create(
            &PostParams::default(),
            &support::object(json!({ "metadata": { "name": "front" },
                "spec": { "replicas": 0, "selector": { "matchLabels": { "app": "front" } },
                    "template": { "metadata": { "labels": { "app": "front" } },
                        "spec": { "containers": [{ "name": "app", "image": "nginx" }] } } } })),
        )
        .await
        .expect("Deployment");
    let (code, _, err) = plugin(&ns, &["set", "env", "deploy/front", "MODE=x", "-o", "name"]);
    assert_eq!(code, 0, "{err}");
    let deployment = ns.api::<Deployment>().get("front").await.expect("get");
    let env = deployment.spec.template.spec.expect("pod spec").containers[0]
        .env
        .clone()
        .unwrap_or_default();
    assert_eq!(env.len(), 1);
    assert_eq!(
        (env[0].name.as_str(), env[0].value.as_deref()),
        ("MODE", Some("x"))
    );
}

/// `exec -S`: the working half of a hot-upgrade sidecar, handed to kubectl's exec with
/// the connection flags. The simulated kubelet runs no processes, so kubectl here is a
/// stand-in (`KRUISE_KUBECTL`) that records what it was asked; the pod is a real one.
#[tokio::test]
async fn exec_into_a_sidecar_goes_into_its_working_half_through_kubectl() {
    use k8s_openapi::api::core::v1::Pod;

    let ns = TestNamespace::create("exec-sidecar").await;
    let pod: Pod = support::object(json!({
        "metadata": { "name": "web-0", "annotations": {
            "kruise.io/sidecarset-working-hotupgrade-container": "{\"mesh\":\"mesh-2\"}" } },
        "spec": { "containers": [
            { "name": "app", "image": "nginx" },
            { "name": "mesh-1", "image": "empty:1" },
            { "name": "mesh-2", "image": "envoy:1.30" },
        ] },
    }));
    ns.api::<Pod>()
        .create(&PostParams::default(), &pod)
        .await
        .expect("pod");
    let dir = std::env::temp_dir().join(format!("kruise-exec-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let stub = dir.join("kubectl-stand-in");
    let said = dir.join("args");
    std::fs::write(
        &stub,
        format!("#!/bin/sh\nprintf '%s\\n' \"$@\" > {}\nexit 7\n", said.display()),
    )
    .expect("stub");
    std::fs::set_permissions(&stub, std::os::unix::fs::PermissionsExt::from_mode(0o755)).expect("chmod");
    let kubeconfig = ns.kubeconfig.display().to_string();
    let run = |args: &[&str]| {
        let out = std::process::Command::new("kubectl")
            .args(["kruise", "exec", "-n", &ns.name, "--kubeconfig", &kubeconfig])
            .args(args)
            .env("PATH", support::path_with_plugin())
            .env("KRUISE_KUBECTL", &stub)
            .output()
            .expect("kubectl");
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    let (code, err) = run(&["web-0", "-S", "mesh", "--", "cat", "/etc/envoy.yaml"]);
    assert_eq!(code, Some(7), "kubectl's exit code is ours: {err}");
    assert!(
        err.contains("exec into mesh-2 (the working half of sidecar mesh)"),
        "{err}"
    );
    let args = std::fs::read_to_string(&said).expect("the stand-in ran");
    let args: Vec<&str> = args.lines().collect();
    assert_eq!(args[..2], ["exec", "web-0"]);
    assert!(args.contains(&"--container=mesh-2"), "{args:?}");
    assert!(
        args.contains(&format!("--namespace={}", ns.name).as_str()),
        "{args:?}"
    );
    assert!(
        args.contains(&format!("--kubeconfig={kubeconfig}").as_str()),
        "{args:?}"
    );
    assert_eq!(args[args.len() - 3..], ["--", "cat", "/etc/envoy.yaml"]);
    let (code, err) = run(&["web-0", "-S", "log", "--", "sh"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("no sidecar \"log\" (hot-upgrade sidecars and containers: mesh, app, mesh-1, mesh-2)"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
