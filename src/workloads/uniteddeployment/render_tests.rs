use k8s_openapi::api::core::v1::Pod;
use serde_json::{Value, json};

use super::*;
use crate::api::uniteddeployment::UnitedDeployment;

const REV: &str = "web-6b8d7c9f5";

fn owner(name: &str) -> Value {
    json!({ "apiVersion": "apps.kruise.io/v1alpha1", "kind": "UnitedDeployment", "name": name,
        "uid": "uid-1", "controller": true, "blockOwnerDeletion": true })
}

fn with_identity(mut doc: Value, name: &str) -> UnitedDeployment {
    doc["metadata"] = json!({ "name": name, "namespace": "ns", "uid": "uid-1" });
    serde_json::from_value(doc).expect("a UnitedDeployment")
}

/// A UnitedDeployment `web` (selector `app: web`) with `template` and `subsets`.
fn ud(template: Value, subsets: Value) -> UnitedDeployment {
    with_identity(
        json!({ "apiVersion": "apps.kruise.io/v1alpha1", "kind": "UnitedDeployment",
            "spec": { "replicas": 4, "selector": { "matchLabels": { "app": "web" } },
                "template": template, "topology": { "subsets": subsets } } }),
        "web",
    )
}

fn pod_template() -> Value {
    json!({ "metadata": { "labels": { "app": "web" } },
        "spec": { "containers": [{ "name": "app", "image": "nginx" }] } })
}

/// A template of `kind` whose spec is `pod_template()` plus `extra` spec fields.
fn template(kind: ChildKind, extra: Value) -> Value {
    let mut spec = json!({ "selector": { "matchLabels": { "app": "web" } }, "template": pod_template() });
    if let (Some(spec), Some(extra)) = (spec.as_object_mut(), extra.as_object()) {
        spec.extend(extra.clone());
    }
    json!({ (kind.template_field()): { "metadata": { "labels": { "app": "web" } }, "spec": spec } })
}

fn subset<'a>(ud: &'a UnitedDeployment, name: &str) -> &'a Subset {
    ud.spec
        .topology
        .as_ref()
        .and_then(|t| t.subsets.as_ref())
        .and_then(|s| s.iter().find(|s| s.name == name))
        .expect("subset")
}

fn render_new(ud: &UnitedDeployment, name: &str, replicas: i32, partition: i32) -> Value {
    render(ud, subset(ud, name), REV, replicas, partition, None).expect("rendered")
}

fn sample() -> Value {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/uniteddeployment-sample.yaml"
    );
    let text = std::fs::read_to_string(path).expect("fixture");
    serde_saphyr::from_str(&text).expect("yaml")
}

fn pod(revision: Option<&str>) -> Pod {
    let labels = match revision {
        Some(r) => json!({ "app": "web", (REVISION_LABEL): r }),
        None => json!({ "app": "web" }),
    };
    serde_json::from_value(json!({ "metadata": { "name": "p", "labels": labels } })).expect("pod")
}

#[test]
fn the_handbook_sample_renders_one_statefulset_per_subset() {
    let ud = with_identity(sample(), "sample");
    assert_eq!(template_kind(&ud), Some(ChildKind::StatefulSet));
    for (name, zone, replicas) in [
        ("subset-a", "zone-a", 1),
        ("subset-b", "zone-b", 3),
        ("subset-c", "zone-c", 2),
    ] {
        let out = render(&ud, subset(&ud, name), "sample-7c9d6b5f4", replicas, 0, None).expect("rendered");
        assert_eq!(
            out,
            json!({
                "apiVersion": "apps/v1", "kind": "StatefulSet",
                "metadata": {
                    "namespace": "ns", "generateName": format!("sample-{name}-"),
                    "labels": { "app": "sample", (REVISION_LABEL): "sample-7c9d6b5f4", (SUBSET_NAME_LABEL): name },
                    "annotations": { (SUBSET_PATCH_ANNOTATION): "" },
                    "ownerReferences": [owner("sample")],
                },
                "spec": {
                    "selector": { "matchLabels": { "app": "sample", (SUBSET_NAME_LABEL): name } },
                    "replicas": replicas,
                    "updateStrategy": { "type": "RollingUpdate", "rollingUpdate": { "partition": 0 } },
                    "template": {
                        "metadata": { "labels": { "app": "sample", (SUBSET_NAME_LABEL): name,
                            (REVISION_LABEL): "sample-7c9d6b5f4" } },
                        "spec": { "containers": [{ "image": "nginx:alpine", "name": "nginx" }],
                            "affinity": { "nodeAffinity": { "requiredDuringSchedulingIgnoredDuringExecution": {
                                "nodeSelectorTerms": [{ "matchExpressions": [
                                    { "key": "node", "operator": "In", "values": [zone] }] }] } } } },
                    },
                },
            }),
            "{name}: the deprecated subsets[].nodeSelector places it"
        );
    }
}

#[test]
fn the_handbook_sample_in_the_current_spelling_pins_each_subset_to_its_zone() {
    let mut doc = sample();
    for subset in doc["spec"]["topology"]["subsets"]
        .as_array_mut()
        .expect("subsets")
    {
        let term = subset["nodeSelector"]["nodeSelectorTerms"][0].clone();
        subset.as_object_mut().expect("subset").remove("nodeSelector");
        subset["nodeSelectorTerm"] = term;
        subset["tolerations"] = json!([{ "key": "dedicated", "operator": "Exists", "effect": "NoSchedule" }]);
    }
    let ud = with_identity(doc, "sample");
    for (name, zone) in [
        ("subset-a", "zone-a"),
        ("subset-b", "zone-b"),
        ("subset-c", "zone-c"),
    ] {
        let out = render(&ud, subset(&ud, name), "r1", 2, 1, None).expect("rendered");
        assert_eq!(
            out["spec"]["template"]["spec"],
            json!({
                "containers": [{ "image": "nginx:alpine", "name": "nginx" }],
                "affinity": { "nodeAffinity": { "requiredDuringSchedulingIgnoredDuringExecution": {
                    "nodeSelectorTerms": [{ "matchExpressions": [{ "key": "node", "operator": "In", "values": [zone] }] }] } } },
                "tolerations": [{ "key": "dedicated", "operator": "Exists", "effect": "NoSchedule" }],
            }),
            "{name}"
        );
        assert_eq!(out["spec"]["updateStrategy"]["rollingUpdate"]["partition"], 1);
    }
}

#[test]
fn a_statefulset_gets_rolling_update_with_the_partition_unless_on_delete() {
    for written in [
        json!({}),
        json!({ "updateStrategy": { "type": "RollingUpdate" } }),
    ] {
        let ud = ud(
            template(ChildKind::StatefulSet, written),
            json!([{ "name": "a" }]),
        );
        let out = render_new(&ud, "a", 3, 2);
        assert_eq!(
            (out["apiVersion"].clone(), out["kind"].clone()),
            (json!("apps/v1"), json!("StatefulSet"))
        );
        assert_eq!(out["spec"]["replicas"], 3);
        assert_eq!(
            out["spec"]["updateStrategy"],
            json!({ "type": "RollingUpdate", "rollingUpdate": { "partition": 2 } })
        );
    }
    let on_delete = json!({ "updateStrategy": { "type": "OnDelete" } });
    let ud = ud(
        template(ChildKind::StatefulSet, on_delete),
        json!([{ "name": "a" }]),
    );
    assert_eq!(
        render_new(&ud, "a", 3, 2)["spec"]["updateStrategy"],
        json!({ "type": "OnDelete" })
    );
}

#[test]
fn an_advanced_statefulset_gets_the_partition_and_keeps_its_strategy_type() {
    let cases = [
        (json!({}), json!({ "rollingUpdate": { "partition": 2 } })),
        (
            json!({ "updateStrategy": { "type": "RollingUpdate", "rollingUpdate": { "maxUnavailable": 2 } } }),
            json!({ "type": "RollingUpdate", "rollingUpdate": { "maxUnavailable": 2, "partition": 2 } }),
        ),
        (
            json!({ "updateStrategy": { "type": "OnDelete" } }),
            json!({ "type": "OnDelete" }),
        ),
    ];
    for (written, expected) in cases {
        let ud = ud(
            template(ChildKind::AdvancedStatefulSet, written),
            json!([{ "name": "a" }]),
        );
        let out = render_new(&ud, "a", 3, 2);
        assert_eq!(out["apiVersion"], "apps.kruise.io/v1beta1");
        assert_eq!(out["kind"], "StatefulSet");
        assert_eq!(out["spec"]["updateStrategy"], expected);
    }
}

#[test]
fn a_cloneset_gets_an_integer_partition_in_both_spellings() {
    let flat = json!({ "updateStrategy": { "type": "InPlaceIfPossible", "partition": "50%" } });
    let ud1 = ud(template(ChildKind::CloneSet, flat), json!([{ "name": "a" }]));
    let out = render_new(&ud1, "a", 4, 1);
    assert_eq!(
        (out["apiVersion"].clone(), out["kind"].clone()),
        (json!("apps.kruise.io/v1alpha1"), json!("CloneSet"))
    );
    assert_eq!(
        out["spec"]["updateStrategy"],
        json!({ "type": "InPlaceIfPossible", "partition": 1 })
    );

    let nested = json!({ "updateStrategy": { "rollingUpdate": { "partition": 3, "maxSurge": 1 } } });
    let ud2 = ud(template(ChildKind::CloneSet, nested), json!([{ "name": "a" }]));
    assert_eq!(
        render_new(&ud2, "a", 4, 1)["spec"]["updateStrategy"],
        json!({ "partition": 1, "rollingUpdate": { "partition": 1, "maxSurge": 1 } }),
        "the v1beta1 knob wins in this crate's CloneSet, so it carries the partition too"
    );
}

#[test]
fn a_deployment_has_no_partition() {
    let strategy = json!({ "strategy": { "type": "RollingUpdate" } });
    let ud = ud(
        template(ChildKind::Deployment, strategy),
        json!([{ "name": "a" }]),
    );
    let out = render_new(&ud, "a", 2, 5);
    assert_eq!(
        (out["apiVersion"].clone(), out["kind"].clone()),
        (json!("apps/v1"), json!("Deployment"))
    );
    assert_eq!(out["spec"]["replicas"], 2);
    assert_eq!(out["spec"]["strategy"], json!({ "type": "RollingUpdate" }));
    assert!(out["spec"].get("updateStrategy").is_none());
}

#[test]
fn every_kind_labels_the_pod_template_and_narrows_the_selector() {
    for kind in ChildKind::all() {
        let ud = ud(template(kind, json!({})), json!([{ "name": "zone-a" }]));
        let out = render_new(&ud, "zone-a", 1, 0);
        assert_eq!(out["kind"], kind.kind());
        assert_eq!(
            out["spec"]["selector"],
            json!({ "matchLabels": { "app": "web", (SUBSET_NAME_LABEL): "zone-a" } })
        );
        assert_eq!(
            out["spec"]["template"]["metadata"]["labels"],
            json!({ "app": "web", (SUBSET_NAME_LABEL): "zone-a", (REVISION_LABEL): REV })
        );
        assert_eq!(out["metadata"]["generateName"], "web-zone-a-");
    }
}

#[test]
fn subset_expressions_are_anded_into_every_required_term_and_tolerations_appended() {
    let mut pod = pod_template();
    pod["spec"]["affinity"] = json!({ "nodeAffinity": { "requiredDuringSchedulingIgnoredDuringExecution": {
        "nodeSelectorTerms": [
            { "matchExpressions": [{ "key": "disk", "operator": "In", "values": ["ssd"] }] },
            { "matchFields": [{ "key": "metadata.name", "operator": "In", "values": ["n1"] }] },
        ] } } });
    pod["spec"]["tolerations"] = json!([{ "key": "gpu", "operator": "Exists" }]);
    let template = json!({ "deploymentTemplate": { "spec": { "selector": { "matchLabels": { "app": "web" } }, "template": pod } } });
    let subsets = json!([{ "name": "a",
        "nodeSelectorTerm": {
            "matchExpressions": [
                { "key": "zone", "operator": "In", "values": ["a"] },
                { "key": "arch", "operator": "Exists" }],
            "matchFields": [{ "key": "metadata.name", "operator": "In", "values": ["ignored"] }] },
        "tolerations": [{ "key": "zone-a", "operator": "Equal", "value": "yes", "effect": "NoSchedule" }] }]);
    let ud = ud(template, subsets);
    let spec = &render_new(&ud, "a", 1, 0)["spec"]["template"]["spec"];
    let zone = json!({ "key": "zone", "operator": "In", "values": ["a"] });
    let arch = json!({ "key": "arch", "operator": "Exists" });
    assert_eq!(
        spec["affinity"]["nodeAffinity"]["requiredDuringSchedulingIgnoredDuringExecution"]["nodeSelectorTerms"],
        json!([
            { "matchExpressions": [{ "key": "disk", "operator": "In", "values": ["ssd"] }, zone, arch] },
            { "matchFields": [{ "key": "metadata.name", "operator": "In", "values": ["n1"] }],
              "matchExpressions": [zone, arch] },
        ])
    );
    assert_eq!(
        spec["tolerations"],
        json!([{ "key": "gpu", "operator": "Exists" },
            { "key": "zone-a", "operator": "Equal", "value": "yes", "effect": "NoSchedule" }])
    );
}

#[test]
fn a_subset_term_with_only_match_fields_adds_no_affinity() {
    let subsets = json!([{ "name": "a", "nodeSelectorTerm": {
        "matchFields": [{ "key": "metadata.name", "operator": "In", "values": ["n1"] }] }, "tolerations": [] }]);
    let ud = ud(template(ChildKind::CloneSet, json!({})), subsets);
    let spec = &render_new(&ud, "a", 1, 0)["spec"]["template"]["spec"];
    assert_eq!(
        spec,
        &json!({ "containers": [{ "name": "app", "image": "nginx" }] })
    );
}

#[test]
fn the_patch_is_applied_last_and_overrides_the_subset_affinity() {
    let patch = json!({
        "metadata": { "labels": { "tier": "gold" } },
        "spec": {
            "affinity": { "nodeAffinity": { "requiredDuringSchedulingIgnoredDuringExecution": {
                "nodeSelectorTerms": [{ "matchExpressions": [{ "key": "zone", "operator": "In", "values": ["x"] }] }] } } },
            "containers": [{ "name": "app", "env": [{ "name": "ZONE", "value": "x" }] }] } });
    let subsets = json!([{ "name": "a",
        "nodeSelectorTerm": { "matchExpressions": [{ "key": "zone", "operator": "In", "values": ["a"] }] },
        "patch": patch }]);
    let ud = ud(template(ChildKind::AdvancedStatefulSet, json!({})), subsets);
    let out = render_new(&ud, "a", 1, 0);
    assert_eq!(
        out["spec"]["template"],
        json!({
            "metadata": { "labels": { "app": "web", "tier": "gold", (SUBSET_NAME_LABEL): "a", (REVISION_LABEL): REV } },
            "spec": {
                "containers": [{ "name": "app", "image": "nginx", "env": [{ "name": "ZONE", "value": "x" }] }],
                "affinity": { "nodeAffinity": { "requiredDuringSchedulingIgnoredDuringExecution": {
                    "nodeSelectorTerms": [{ "matchExpressions": [{ "key": "zone", "operator": "In", "values": ["x"] }] }] } } } } })
    );
    assert_eq!(
        out["metadata"]["annotations"][SUBSET_PATCH_ANNOTATION],
        patch_text(Some(&patch))
    );
}

#[test]
fn a_patch_that_is_not_an_object_or_not_a_pod_template_is_refused_naming_the_field() {
    let subsets = json!([{ "name": "a" }, { "name": "b", "patch": ["x"] }]);
    let ud1 = ud(template(ChildKind::CloneSet, json!({})), subsets);
    assert_eq!(
        render(&ud1, subset(&ud1, "b"), REV, 1, 0, None),
        Err(
            "UnitedDeployment web: spec.topology.subsets[1].patch: must be a JSON object, not an array"
                .into()
        )
    );
    let subsets = json!([{ "name": "a", "patch": { "spec": { "containers": "app" } } }]);
    let ud2 = ud(template(ChildKind::CloneSet, json!({})), subsets);
    let err = render(&ud2, subset(&ud2, "a"), REV, 1, 0, None).expect_err("refused");
    assert!(
        err.starts_with("UnitedDeployment web: spec.topology.subsets[0].patch: the patched pod template"),
        "{err}"
    );
}

#[test]
fn an_update_keeps_the_fetched_metadata_and_replaces_the_spec() {
    let ud = ud(
        json!({ "cloneSetTemplate": { "metadata": { "labels": { "app": "web" }, "annotations": { "team": "a" } },
            "spec": { "selector": { "matchLabels": { "app": "web" } }, "template": pod_template() } } }),
        json!([{ "name": "a", "patch": { "metadata": { "labels": { "x": "1" } } } }]),
    );
    let existing = json!({
        "apiVersion": "apps.kruise.io/v1alpha1", "kind": "CloneSet",
        "metadata": { "name": "web-a-x7k2p", "generateName": "web-a-", "namespace": "ns", "resourceVersion": "42",
            "labels": { "app": "web", "kept": "yes", (REVISION_LABEL): "old" },
            "annotations": { "kept": "yes", "team": "b", (SUBSET_PATCH_ANNOTATION): "" },
            "ownerReferences": [
                { "apiVersion": "v1", "kind": "ConfigMap", "name": "cm", "uid": "u2" },
                { "apiVersion": "apps.kruise.io/v1beta1", "kind": "UnitedDeployment", "name": "web", "uid": "old-uid", "controller": true }] },
        "spec": { "replicas": 9, "scaleStrategy": { "podsToDelete": ["p"] } },
        "status": { "replicas": 9 } });
    let out = render(&ud, subset(&ud, "a"), REV, 2, 1, Some(&existing)).expect("rendered");
    assert_eq!(
        out["metadata"],
        json!({ "name": "web-a-x7k2p", "generateName": "web-a-", "namespace": "ns", "resourceVersion": "42",
            "labels": { "app": "web", "kept": "yes", (REVISION_LABEL): REV, (SUBSET_NAME_LABEL): "a" },
            "annotations": { "kept": "yes", "team": "a", (SUBSET_PATCH_ANNOTATION): r#"{"metadata":{"labels":{"x":"1"}}}"# },
            "ownerReferences": [{ "apiVersion": "v1", "kind": "ConfigMap", "name": "cm", "uid": "u2" }, owner("web")] })
    );
    assert_eq!(out["status"], json!({ "replicas": 9 }), "status is the server's");
    assert!(
        out["spec"].get("scaleStrategy").is_none(),
        "the spec is the template's"
    );
    assert_eq!(out["spec"]["replicas"], 2);
}

#[test]
fn an_object_controlled_by_another_owner_is_refused() {
    let ud = ud(
        template(ChildKind::Deployment, json!({})),
        json!([{ "name": "a" }]),
    );
    let existing = json!({ "metadata": { "name": "web-a-1", "ownerReferences": [
        { "apiVersion": "apps.kruise.io/v1alpha1", "kind": "UnitedDeployment", "name": "other", "uid": "u9", "controller": true }] } });
    assert_eq!(
        render(&ud, subset(&ud, "a"), REV, 1, 0, Some(&existing)),
        Err(
            "UnitedDeployment web: the existing subset workload: is controlled by UnitedDeployment other, \
             not by this UnitedDeployment"
                .into()
        )
    );
}

#[test]
fn a_long_united_deployment_and_subset_name_falls_back_to_the_ud_prefix() {
    let long = "u".repeat(200);
    let subset63 = "s".repeat(63);
    let ud = with_identity(
        json!({ "spec": { "selector": { "matchLabels": { "app": "web" } },
            "template": template(ChildKind::StatefulSet, json!({})),
            "topology": { "subsets": [{ "name": subset63 }] } } }),
        &long,
    );
    let out = render(&ud, subset(&ud, &subset63), REV, 1, 0, None).expect("rendered");
    assert_eq!(out["metadata"]["generateName"], format!("{long}-"));
    assert_eq!(out["metadata"]["labels"][SUBSET_NAME_LABEL], subset63.as_str());
}

#[test]
fn the_prefix_rule_masks_the_trailing_dash_and_allows_long_runs() {
    // 254 characters, 253 once the trailing dash is masked: still a prefix.
    let ud = "u".repeat(189);
    assert_eq!(
        subset_prefix(&ud, &"s".repeat(63)),
        format!("{ud}-{}-", "s".repeat(63))
    );
    assert_eq!(
        subset_prefix(&ud, &"s".repeat(64)),
        format!("{ud}-"),
        "255 (254 masked) is too long"
    );
    assert_eq!(subset_prefix("web.v2", "a"), "web.v2-a-");
    assert_eq!(subset_prefix("web", "Ab"), "web-", "not lowercase");
    assert_eq!(
        subset_prefix("web", "bA"),
        "web-bA-",
        "the mask replaces the character before the dash too, so it is never checked (as Kubernetes)"
    );
}

#[test]
fn rendering_needs_one_template_a_known_subset_and_a_uid() {
    let two = json!({ "statefulSetTemplate": { "spec": {} }, "deploymentTemplate": { "spec": {} } });
    let ud1 = ud(two, json!([{ "name": "a" }]));
    assert_eq!(template_kind(&ud1), None);
    let err = render(&ud1, subset(&ud1, "a"), REV, 1, 0, None).expect_err("refused");
    assert!(
        err.starts_with("UnitedDeployment web: spec.template: must set exactly one"),
        "{err}"
    );

    let ud2 = ud(
        template(ChildKind::Deployment, json!({})),
        json!([{ "name": "a" }]),
    );
    let stranger = Subset {
        name: "b".into(),
        ..Subset::default()
    };
    assert_eq!(
        render(&ud2, &stranger, REV, 1, 0, None),
        Err("UnitedDeployment web: spec.topology.subsets: no subset named \"b\"".into())
    );

    let mut ud3 = ud2.clone();
    ud3.metadata.uid = None;
    let err = render(&ud3, subset(&ud3, "a"), REV, 1, 0, None).expect_err("refused");
    assert!(
        err.starts_with("UnitedDeployment web: metadata.uid: not set"),
        "{err}"
    );
}

#[test]
fn child_kinds_name_their_resources() {
    let names: Vec<_> = ChildKind::all()
        .into_iter()
        .map(|k| (k.api_version(), k.kind(), k.plural()))
        .collect();
    assert_eq!(
        names,
        [
            ("apps/v1", "StatefulSet", "statefulsets"),
            ("apps.kruise.io/v1beta1", "StatefulSet", "statefulsets"),
            ("apps.kruise.io/v1alpha1", "CloneSet", "clonesets"),
            ("apps/v1", "Deployment", "deployments"),
        ]
    );
    for kind in ChildKind::all() {
        let ud = ud(template(kind, json!({})), json!([]));
        assert_eq!(template_kind(&ud), Some(kind));
    }
}

#[test]
fn the_patch_annotation_is_compact_sorted_and_html_escaped_as_the_api_server_serves_it() {
    assert_eq!(patch_text(None), "");
    assert_eq!(patch_text(Some(&Value::Null)), "");
    let patch = json!({ "spec": { "b": 1, "a": "x<y>&z" } });
    assert_eq!(
        patch_text(Some(&patch)),
        r#"{"spec":{"a":"x\u003cy\u003e\u0026z","b":1}}"#
    );
}

fn workload(kind: ChildKind, spec: Value) -> Value {
    json!({ "apiVersion": kind.api_version(), "kind": kind.kind(),
        "metadata": { "name": "web-a-1",
            "labels": { (SUBSET_NAME_LABEL): "a", (REVISION_LABEL): "r2" },
            "annotations": { (SUBSET_PATCH_ANNOTATION): "" } },
        "spec": spec, "status": { "replicas": 4, "readyReplicas": 3 } })
}

#[test]
fn read_back_a_statefulset_rolling_partition_or_the_pods_behind_on_delete() {
    let (r1, r2, none) = (pod(Some("r1")), pod(Some("r2")), pod(None));
    let pods = [&r1, &r2, &none, &r2];
    for kind in [ChildKind::StatefulSet, ChildKind::AdvancedStatefulSet] {
        let rolling = workload(
            kind,
            json!({ "replicas": 4, "updateStrategy": { "type": "RollingUpdate", "rollingUpdate": { "partition": 3 } } }),
        );
        assert_eq!(
            read_back(kind, &rolling, &pods),
            Some(SubsetRead {
                subset: "a".into(),
                replicas: 4,
                partition: 3,
                status_replicas: 4,
                ready_replicas: 3,
                revision: Some("r2".into()),
                patch: Some(String::new()),
            })
        );
        let on_delete = workload(
            kind,
            json!({ "replicas": 4, "updateStrategy": { "type": "OnDelete" } }),
        );
        let read = read_back(kind, &on_delete, &pods).expect("read");
        assert_eq!(read.partition, 2, "{kind:?}: the pods not at r2");
        let unset = workload(kind, json!({ "replicas": 4 }));
        assert_eq!(read_back(kind, &unset, &pods).map(|r| r.partition), Some(0));
    }
}

#[test]
fn read_back_a_cloneset_partition_scaled_against_its_replicas() {
    let cases = [
        (json!({ "partition": 2 }), 2),
        (json!({ "partition": "50%" }), 3),
        (json!({ "partition": "10%" }), 1),
        (json!({ "partition": "x" }), 0),
        (json!({ "partition": 1, "rollingUpdate": { "partition": 4 } }), 4),
        (json!({}), 0),
    ];
    for (strategy, expected) in cases {
        let object = workload(
            ChildKind::CloneSet,
            json!({ "replicas": 5, "updateStrategy": strategy }),
        );
        let read = read_back(ChildKind::CloneSet, &object, &[]).expect("read");
        assert_eq!(read.partition, expected, "{strategy}");
        assert_eq!(read.replicas, 5);
    }
}

#[test]
fn read_back_a_deployment_and_refuse_an_unlabelled_workload() {
    let object = workload(ChildKind::Deployment, json!({ "replicas": 2 }));
    let read = read_back(ChildKind::Deployment, &object, &[]).expect("read");
    assert_eq!((read.subset.as_str(), read.replicas, read.partition), ("a", 2, 0));
    assert_eq!((read.status_replicas, read.ready_replicas), (4, 3));

    let mut unlabelled = object.clone();
    unlabelled["metadata"]["labels"][SUBSET_NAME_LABEL] = json!("");
    assert_eq!(read_back(ChildKind::Deployment, &unlabelled, &[]), None);
    unlabelled["metadata"]["labels"] = json!({});
    assert_eq!(read_back(ChildKind::Deployment, &unlabelled, &[]), None);
}

#[test]
fn what_render_writes_read_back_returns() {
    for kind in ChildKind::all() {
        let subsets = json!([{ "name": "a", "patch": { "metadata": { "labels": { "x": "1" } } } }]);
        let ud = ud(template(kind, json!({})), subsets);
        let out = render_new(&ud, "a", 5, 2);
        let read = read_back(kind, &out, &[]).expect("read");
        let partition = if kind == ChildKind::Deployment { 0 } else { 2 };
        assert_eq!(
            (read.subset.as_str(), read.replicas, read.partition),
            ("a", 5, partition),
            "{kind:?}"
        );
        assert_eq!(read.revision.as_deref(), Some(REV));
        assert_eq!(read.patch, Some(patch_text(subset(&ud, "a").patch.as_ref())));
    }
}

#[test]
fn several_deprecated_node_selector_terms_pair_with_every_pod_term() {
    let pod_terms = json!({ "nodeSelectorTerms": [
        { "matchExpressions": [{ "key": "disk", "operator": "In", "values": ["ssd"] }] },
        { "matchExpressions": [{ "key": "disk", "operator": "In", "values": ["nvme"] }] }] });
    let mut pod = pod_template();
    pod["spec"]["affinity"] =
        json!({ "nodeAffinity": { "requiredDuringSchedulingIgnoredDuringExecution": pod_terms } });
    let mut template = template(ChildKind::CloneSet, json!({}));
    template["cloneSetTemplate"]["spec"]["template"] = pod;
    let zone = |z: &str| json!({ "key": "zone", "operator": "In", "values": [z] });
    let ud = ud(
        template,
        json!([{ "name": "a", "nodeSelector": { "nodeSelectorTerms": [
            { "matchExpressions": [zone("x")] }, { "matchExpressions": [zone("y")] }] } }]),
    );
    let out = render_new(&ud, "a", 1, 0);
    let terms = &out["spec"]["template"]["spec"]["affinity"]["nodeAffinity"]["requiredDuringSchedulingIgnoredDuringExecution"]
        ["nodeSelectorTerms"];
    let disk = |d: &str| json!({ "key": "disk", "operator": "In", "values": [d] });
    assert_eq!(
        terms,
        &json!([
            { "matchExpressions": [disk("ssd"), zone("x")] },
            { "matchExpressions": [disk("ssd"), zone("y")] },
            { "matchExpressions": [disk("nvme"), zone("x")] },
            { "matchExpressions": [disk("nvme"), zone("y")] },
        ])
    );
}
