use serde_json::{Value, json};

use super::*;
use crate::workloads::common::json_pointer::with;

/// An accepted WorkloadSpread: a CloneSet target, three zones, the last one unlimited.
fn baseline() -> Value {
    let zone = |name: &str, max: Option<i32>| {
        let mut subset = json!({ "name": name,
            "requiredNodeSelectorTerm": { "matchExpressions": [
                { "key": "topology.kubernetes.io/zone", "operator": "In", "values": [name] }] } });
        if let Some(max) = max {
            subset["maxReplicas"] = json!(max);
        }
        subset
    };
    json!({ "apiVersion": "apps.kruise.io/v1alpha1", "kind": "WorkloadSpread",
        "metadata": { "name": "spread-web", "namespace": "default" },
        "spec": {
            "targetRef": { "apiVersion": "apps.kruise.io/v1alpha1", "kind": "CloneSet", "name": "web" },
            "subsets": [zone("zone-a", Some(2)), zone("zone-b", Some(2)), zone("zone-c", None)]
        }
    })
}

/// The baseline's target, as the API server returns it.
fn cloneset() -> Value {
    json!({ "apiVersion": "apps.kruise.io/v1alpha1", "kind": "CloneSet",
        "metadata": { "name": "web", "namespace": "default" },
        "spec": { "replicas": 6, "selector": { "matchLabels": { "app": "web" } },
            "template": { "metadata": { "labels": { "app": "web" } },
                "spec": { "containers": [{ "name": "app", "image": "nginx" }] } } } })
}

fn spread(value: Value) -> WorkloadSpread {
    serde_json::from_value(value).expect("a WorkloadSpread")
}

/// Another WorkloadSpread named `name` on the target `(apiVersion, kind, name)`.
fn other(name: &str, target: (&str, &str, &str)) -> WorkloadSpread {
    let (api_version, kind, target_name) = target;
    spread(with(
        baseline(),
        &[
            ("/metadata/name", json!(name)),
            (
                "/spec/targetRef",
                json!({ "apiVersion": api_version, "kind": kind, "name": target_name }),
            ),
        ],
    ))
}

/// (what, changes to the baseline, field the refusal must name).
type Variant<'a> = (&'a str, Vec<(&'a str, Value)>, &'a str);

/// Asserts the refusal names the object and contains `field`.
fn assert_names(what: &str, message: Option<String>, field: &str) {
    let message = message.unwrap_or_else(|| panic!("{what}: accepted"));
    assert!(
        message.starts_with("WorkloadSpread spread-web: "),
        "{what}: {message}"
    );
    assert!(
        message.contains(field),
        "{what}: {message:?} does not name {field:?}"
    );
}

/// One refused variant of the baseline per case (created, no others, target found).
fn assert_variants_refused(cases: &[Variant]) {
    let target = cloneset();
    for (what, changes, field) in cases {
        let object = with(baseline(), changes);
        assert_names(what, refusal(&object, None, &[], Some(&target)), field);
    }
}

/// Each variant of the baseline is accepted.
fn assert_variants_accepted(cases: &[(&str, Vec<(&str, Value)>)]) {
    let target = cloneset();
    for (what, changes) in cases {
        let object = with(baseline(), changes);
        assert_eq!(refusal(&object, None, &[], Some(&target)), None, "{what}");
    }
}

#[test]
fn the_baseline_is_accepted_on_create_and_update() {
    let target = cloneset();
    assert_eq!(refusal(&baseline(), None, &[], None), None);
    assert_eq!(refusal(&baseline(), None, &[], Some(&target)), None);
    assert_eq!(
        refusal(
            &baseline(),
            Some(&baseline()),
            &[spread(baseline())],
            Some(&target)
        ),
        None,
        "itself among the others is skipped by name"
    );
}

#[test]
fn an_unreadable_object_is_refused_naming_the_field() {
    assert_variants_refused(&[
        (
            "no targetRef",
            vec![("/spec/targetRef", Value::Null)],
            "targetRef",
        ),
        ("no subsets", vec![("/spec/subsets", Value::Null)], "subsets"),
        (
            "unknown strategy type",
            vec![("/spec/scheduleStrategy", json!({ "type": "Random" }))],
            "spec.scheduleStrategy.type",
        ),
        (
            "maxReplicas a list",
            vec![("/spec/subsets/0/maxReplicas", json!([1]))],
            "spec.subsets[0].maxReplicas",
        ),
    ]);
}

#[test]
fn rule_1_the_target_must_be_a_supported_kind_in_its_group() {
    let target = |api_version: &str, kind: &str, name: &str| {
        vec![(
            "/spec/targetRef",
            json!({ "apiVersion": api_version, "kind": kind, "name": name }),
        )]
    };
    assert_variants_refused(&[
        (
            "empty apiVersion",
            target("", "CloneSet", "web"),
            "spec.targetRef.apiVersion",
        ),
        ("empty kind", target("apps/v1", "", "web"), "spec.targetRef.kind"),
        (
            "empty name",
            target("apps/v1", "Deployment", ""),
            "spec.targetRef.name",
        ),
        (
            "CloneSet in apps",
            target("apps/v1", "CloneSet", "web"),
            "spec.targetRef.apiVersion",
        ),
        (
            "Deployment in kruise",
            target("apps.kruise.io/v1alpha1", "Deployment", "web"),
            "spec.targetRef.apiVersion",
        ),
        (
            "ReplicaSet in core",
            target("v1", "ReplicaSet", "web"),
            "spec.targetRef.apiVersion",
        ),
        (
            "Job in apps",
            target("apps/v1", "Job", "web"),
            "spec.targetRef.apiVersion",
        ),
        (
            "StatefulSet elsewhere",
            target("example.com/v1", "StatefulSet", "web"),
            "spec.targetRef.apiVersion",
        ),
        (
            "two slashes",
            target("apps/v1/x", "Deployment", "web"),
            "spec.targetRef.apiVersion",
        ),
        (
            "custom kind",
            target("example.com/v1", "GameServerSet", "web"),
            "spec.targetRef.kind",
        ),
    ]);
    assert_variants_accepted(&[
        ("Deployment", target("apps/v1", "Deployment", "web")),
        ("ReplicaSet", target("apps/v1", "ReplicaSet", "web")),
        ("Job", target("batch/v1", "Job", "web")),
        ("StatefulSet", target("apps/v1", "StatefulSet", "web")),
        (
            "Advanced StatefulSet",
            target("apps.kruise.io/v1beta1", "StatefulSet", "web"),
        ),
    ]);
}

/// OpenKruise's e2e "job-like custom workload": a kind of the whitelist is a target (any
/// version of its group), another kind is refused naming the whitelist.
#[test]
fn rule_1_a_custom_workload_of_openkruises_whitelist_is_a_target() {
    let whitelist = Configuration {
        custom_workloads: std::sync::Arc::new(
            crate::runtime::configuration::parse_custom_workloads(
                r#"{ "workloads": [ { "Group": "kubeflow.org", "Version": "v1", "Kind": "TFJob" },
                    { "Group": "apps.kruise.io", "Version": "v1alpha1", "Kind": "DaemonSet" } ] }"#,
            )
            .expect("whitelist"),
        ),
    };
    let targeting = |api_version: &str, kind: &str| {
        let mut object = baseline();
        object["spec"]["targetRef"] = json!({ "apiVersion": api_version, "kind": kind, "name": "job" });
        object
    };
    for (api_version, kind) in [
        ("kubeflow.org/v1", "TFJob"),
        ("apps.kruise.io/v1beta1", "DaemonSet"),
    ] {
        let object = targeting(api_version, kind);
        assert_eq!(
            refusal_among(&object, None, &[], None, &whitelist),
            None,
            "{kind}"
        );
        let refused = refusal(&object, None, &[], None).expect("not without the whitelist");
        assert!(refused.contains(CUSTOM_WORKLOAD_WHITELIST_KEY), "{refused}");
    }
    let other = targeting("kubeflow.org/v1", "PyTorchJob");
    assert_names(
        "a kind off the whitelist",
        refusal_among(&other, None, &[], None, &whitelist),
        "spec.targetRef.kind",
    );
}

#[test]
fn rule_2_another_spread_of_the_same_target_is_refused() {
    let message = refusal(
        &baseline(),
        None,
        &[other("spread-old", ("apps.kruise.io/v1beta1", "CloneSet", "web"))],
        None,
    );
    assert_names("same target, other version", message.clone(), "spec.targetRef");
    assert!(
        message.is_some_and(|m| m.contains("spread-old")),
        "the other WorkloadSpread is named"
    );
    let elsewhere = [
        other("by-name", ("apps.kruise.io/v1alpha1", "CloneSet", "api")),
        other("by-kind", ("apps/v1", "Deployment", "web")),
        other("by-group", ("example.com/v1", "CloneSet", "web")),
        other("spread-web", ("apps.kruise.io/v1alpha1", "CloneSet", "web")),
    ];
    assert_eq!(refusal(&baseline(), None, &elsewhere, None), None);
}

#[test]
fn rule_3_subsets_names_terms_and_tolerations_are_checked() {
    let expression = |key: &str, operator: &str, values: Value| {
        vec![(
            "/spec/subsets/1/requiredNodeSelectorTerm/matchExpressions/0",
            json!({ "key": key, "operator": operator, "values": values }),
        )]
    };
    let field = |requirement: Value| {
        vec![(
            "/spec/subsets/0/requiredNodeSelectorTerm/matchFields",
            json!([requirement]),
        )]
    };
    let preferred = |weight: i32, operator: &str| {
        vec![(
            "/spec/subsets/2/preferredNodeSelectorTerms",
            json!([{ "weight": weight, "preference": { "matchExpressions": [
                { "key": "disk", "operator": operator, "values": ["ssd"] }] } }]),
        )]
    };
    let toleration = |toleration: Value| vec![("/spec/subsets/1/tolerations", json!([toleration]))];
    assert_variants_refused(&[
        ("no subsets", vec![("/spec/subsets", json!([]))], "spec.subsets"),
        (
            "empty name",
            vec![("/spec/subsets/2/name", json!(""))],
            "spec.subsets[2].name",
        ),
        (
            "duplicated name",
            vec![("/spec/subsets/1/name", json!("zone-a"))],
            "spec.subsets[1].name: \"zone-a\" is used twice",
        ),
        (
            "unknown operator",
            expression("zone", "Near", json!(["a"])),
            "spec.subsets[1].requiredNodeSelectorTerm.matchExpressions[0].operator",
        ),
        (
            "In without values",
            expression("zone", "In", json!([])),
            "spec.subsets[1].requiredNodeSelectorTerm.matchExpressions[0].values",
        ),
        (
            "Exists with values",
            expression("zone", "Exists", json!(["a"])),
            "matchExpressions[0].values",
        ),
        (
            "Gt with two values",
            expression("cpu", "Gt", json!(["1", "2"])),
            "matchExpressions[0].values",
        ),
        (
            "Lt not an integer",
            expression("cpu", "Lt", json!(["many"])),
            "matchExpressions[0].values",
        ),
        (
            "bad key",
            expression("-zone", "In", json!(["a"])),
            "matchExpressions[0].key",
        ),
        (
            "bad value",
            expression("zone", "In", json!(["a b"])),
            "matchExpressions[0].values[0]",
        ),
        (
            "v1beta1 spelling",
            vec![(
                "/spec/subsets/0/requiredNodeSelector",
                json!({ "matchExpressions": [{ "key": "zone", "operator": "In" }] }),
            )],
            "spec.subsets[0].requiredNodeSelector.matchExpressions[0].values",
        ),
        (
            "field not metadata.name",
            field(json!({ "key": "spec.unschedulable", "operator": "In", "values": ["x"] })),
            "spec.subsets[0].requiredNodeSelectorTerm.matchFields[0].key",
        ),
        (
            "field with Exists",
            field(json!({ "key": "metadata.name", "operator": "Exists" })),
            "matchFields[0].operator",
        ),
        (
            "field with two names",
            field(json!({ "key": "metadata.name", "operator": "In", "values": ["a", "b"] })),
            "matchFields[0].values",
        ),
        (
            "weight 0",
            preferred(0, "In"),
            "spec.subsets[2].preferredNodeSelectorTerms[0].weight",
        ),
        (
            "weight 101",
            preferred(101, "In"),
            "preferredNodeSelectorTerms[0].weight",
        ),
        (
            "bad preferred term",
            preferred(10, "Near"),
            "spec.subsets[2].preferredNodeSelectorTerms[0].preference.matchExpressions[0].operator",
        ),
        (
            "v1beta1 preferred spelling",
            vec![(
                "/spec/subsets/2/preferredNodeSelector",
                json!([{ "weight": 200, "preference": {} }]),
            )],
            "spec.subsets[2].preferredNodeSelector[0].weight",
        ),
        (
            "toleration operator",
            toleration(json!({ "key": "spot", "operator": "Maybe" })),
            "spec.subsets[1].tolerations[0].operator",
        ),
        (
            "Exists with a value",
            toleration(json!({ "key": "spot", "operator": "Exists", "value": "yes" })),
            "spec.subsets[1].tolerations[0].value",
        ),
        (
            "unknown effect",
            toleration(json!({ "key": "spot", "operator": "Exists", "effect": "NoRun" })),
            "spec.subsets[1].tolerations[0].effect",
        ),
        (
            "empty key with Equal",
            toleration(json!({ "operator": "Equal", "value": "x" })),
            "spec.subsets[1].tolerations[0].operator",
        ),
        (
            "bad toleration key",
            toleration(json!({ "key": "a/b/c", "operator": "Exists" })),
            "spec.subsets[1].tolerations[0].key",
        ),
        (
            "tolerationSeconds without NoExecute",
            toleration(
                json!({ "key": "spot", "operator": "Exists", "effect": "NoSchedule",
                "tolerationSeconds": 30 }),
            ),
            "spec.subsets[1].tolerations[0].effect",
        ),
    ]);
    assert_variants_accepted(&[
        ("Gt with an integer", expression("cpu", "Gt", json!(["4"]))),
        ("DoesNotExist", expression("spot", "DoesNotExist", json!(null))),
        (
            "node name field",
            field(json!({ "key": "metadata.name", "operator": "NotIn", "values": ["node-1"] })),
        ),
        ("a preferred term", preferred(100, "NotIn")),
        ("match every taint", toleration(json!({ "operator": "Exists" }))),
        (
            "Equal by default",
            toleration(json!({ "key": "spot", "value": "yes", "effect": "NoExecute",
                "tolerationSeconds": 60 })),
        ),
    ]);
}

#[test]
fn rule_4_a_patch_must_merge_onto_the_pod_template_when_the_target_exists() {
    let patch = |patch: Value| vec![("/spec/subsets/1/patch", patch)];
    let cases: &[Variant] = &[
        ("not an object", patch(json!(["x"])), "spec.subsets[1].patch"),
        (
            "metadata a string",
            patch(json!({ "metadata": "x" })),
            "spec.subsets[1].patch.metadata",
        ),
        (
            "metadata name",
            patch(json!({ "metadata": { "name": "other" } })),
            "spec.subsets[1].patch.metadata.name",
        ),
        (
            "label not a string",
            patch(json!({ "metadata": { "labels": { "zone": 1 } } })),
            "spec.subsets[1].patch.metadata.labels.zone",
        ),
        (
            "annotations a list",
            patch(json!({ "metadata": { "annotations": ["a"] } })),
            "spec.subsets[1].patch.metadata.annotations",
        ),
        (
            "spec a list",
            patch(json!({ "spec": [] })),
            "spec.subsets[1].patch.spec",
        ),
        (
            "container without a name",
            patch(json!({ "spec": { "containers": [{ "image": "nginx:2" }] } })),
            "spec.subsets[1].patch.spec.containers[0].name",
        ),
        (
            "volumes not a list",
            patch(json!({ "spec": { "volumes": { "name": "data" } } })),
            "spec.subsets[1].patch.spec.volumes",
        ),
    ];
    assert_variants_refused(cases);
    // Without the target (not created yet), patches are not judged.
    for (what, changes, _) in cases {
        let object = with(baseline(), changes);
        assert_eq!(refusal(&object, None, &[], None), None, "{what}");
    }
    assert_variants_accepted(&[(
        "labels, a removed annotation, a container and a directive",
        patch(json!({
            "metadata": { "labels": { "zone": "b" }, "annotations": { "old": null } },
            "spec": {
                "containers": [{ "name": "app", "resources": { "limits": { "cpu": "2" } } }],
                "volumes": [{ "$patch": "replace" }],
                "priorityClassName": "high"
            }
        })),
    )]);
}

#[test]
fn rule_5_max_replicas_are_one_type_and_percentages_add_up() {
    let max = |values: [Value; 3]| {
        let [a, b, c] = values;
        vec![
            ("/spec/subsets/0/maxReplicas", a),
            ("/spec/subsets/1/maxReplicas", b),
            ("/spec/subsets/2/maxReplicas", c),
        ]
    };
    let statefulset = |mut changes: Vec<(&'static str, Value)>| {
        changes.push((
            "/spec/targetRef",
            json!({ "apiVersion": "apps/v1", "kind": "StatefulSet", "name": "web" }),
        ));
        changes
    };
    assert_variants_refused(&[
        (
            "mixed types",
            max([json!(2), json!("50%"), Value::Null]),
            "spec.subsets[1].maxReplicas",
        ),
        (
            "percent for a StatefulSet",
            statefulset(max([json!("50%"), json!("50%"), Value::Null])),
            "spec.subsets[0].maxReplicas",
        ),
        (
            "negative",
            max([json!(-1), json!(2), Value::Null]),
            "spec.subsets[0].maxReplicas",
        ),
        (
            "negative percent",
            max([json!("-1%"), Value::Null, Value::Null]),
            "spec.subsets[0].maxReplicas",
        ),
        (
            "fraction",
            max([json!("0.2%"), Value::Null, Value::Null]),
            "spec.subsets[0].maxReplicas",
        ),
        (
            "signed",
            max([json!("+5%"), Value::Null, Value::Null]),
            "spec.subsets[0].maxReplicas",
        ),
        (
            "no percent sign",
            max([json!("5"), Value::Null, Value::Null]),
            "spec.subsets[0].maxReplicas",
        ),
        (
            "above 100%",
            max([json!("150%"), Value::Null, Value::Null]),
            "spec.subsets[0].maxReplicas",
        ),
        (
            "sum above 100%",
            max([json!("60%"), json!("50%"), Value::Null]),
            "spec.subsets[1].maxReplicas",
        ),
        (
            "sum below 100% with the last set",
            max([json!("30%"), json!("30%"), json!("30%")]),
            "spec.subsets[2].maxReplicas",
        ),
    ]);
    assert_variants_accepted(&[
        (
            "percentages, last unlimited",
            max([json!("30%"), json!("30%"), Value::Null]),
        ),
        (
            "percentages adding up to 100%",
            max([json!("30%"), json!("30%"), json!("40%")]),
        ),
        ("integers everywhere", max([json!(0), json!(3), json!(5)])),
        (
            "integers for a StatefulSet",
            statefulset(max([json!(1), json!(2), Value::Null])),
        ),
    ]);
}

#[test]
fn rule_6_the_schedule_strategy_fits_the_subsets() {
    let strategy = |strategy: Value| ("/spec/scheduleStrategy", strategy);
    let last_unlimited = ("/spec/subsets/2/maxReplicas", Value::Null);
    let last_capped = ("/spec/subsets/2/maxReplicas", json!(3));
    let seconds = |n: i32| json!({ "type": "Adaptive", "adaptive": { "rescheduleCriticalSeconds": n } });
    assert_variants_refused(&[
        (
            "adaptive with Fixed",
            vec![strategy(json!({ "type": "Fixed", "adaptive": {} }))],
            "spec.scheduleStrategy.type",
        ),
        (
            "adaptive without a type",
            vec![strategy(json!({ "adaptive": {} }))],
            "spec.scheduleStrategy.type",
        ),
        (
            "adaptive with a capped last subset",
            vec![
                last_capped.clone(),
                strategy(json!({ "type": "Adaptive", "adaptive": {} })),
            ],
            "spec.scheduleStrategy.adaptive",
        ),
        (
            "negative seconds",
            vec![strategy(seconds(-1))],
            "spec.scheduleStrategy.adaptive.rescheduleCriticalSeconds",
        ),
        (
            "above 295 / 2",
            vec![strategy(seconds(148))],
            "spec.scheduleStrategy.adaptive.rescheduleCriticalSeconds",
        ),
    ]);
    let one_subset = ("/spec/subsets", json!([{ "name": "only", "maxReplicas": 3 }]));
    assert_variants_accepted(&[
        (
            "at the bound",
            vec![last_unlimited.clone(), strategy(seconds(147))],
        ),
        ("Fixed", vec![last_capped, strategy(json!({ "type": "Fixed" }))]),
        ("empty type", vec![strategy(json!({ "type": "" }))]),
        (
            "one subset, no bound",
            vec![one_subset, strategy(seconds(100_000))],
        ),
    ]);
}

#[test]
fn rule_7_the_target_filter_selector_must_be_valid() {
    let selector = |selector: Value| vec![("/spec/targetFilter", json!({ "selector": selector }))];
    let expression = |operator: &str, values: Value| {
        selector(json!({ "matchExpressions": [{ "key": "app", "operator": operator, "values": values }] }))
    };
    assert_variants_refused(&[
        (
            "unknown operator",
            expression("Gt", json!(["1"])),
            "spec.targetFilter.selector.matchExpressions[0].operator",
        ),
        (
            "In without values",
            expression("In", json!([])),
            "spec.targetFilter.selector.matchExpressions[0].values",
        ),
        (
            "Exists with values",
            expression("Exists", json!(["web"])),
            "spec.targetFilter.selector.matchExpressions[0].values",
        ),
        (
            "bad label key",
            selector(json!({ "matchLabels": { "a b": "web" } })),
            "spec.targetFilter.selector.matchLabels",
        ),
        (
            "bad label value",
            selector(json!({ "matchLabels": { "app": "-web" } })),
            "spec.targetFilter.selector.matchLabels.app",
        ),
    ]);
    assert_variants_accepted(&[
        (
            "matchLabels",
            selector(json!({ "matchLabels": { "app": "web" } })),
        ),
        ("NotIn", expression("NotIn", json!(["api"]))),
        (
            "no selector",
            vec![(
                "/spec/targetFilter",
                json!({ "replicasPathList": ["spec.replicas"] }),
            )],
        ),
    ]);
}

#[test]
fn rule_8_an_update_keeps_the_target() {
    let old = baseline();
    let changed = |api_version: &str, kind: &str, name: &str| {
        with(
            baseline(),
            &[(
                "/spec/targetRef",
                json!({ "apiVersion": api_version, "kind": kind, "name": name }),
            )],
        )
    };
    for (what, object) in [
        ("name", changed("apps.kruise.io/v1alpha1", "CloneSet", "api")),
        ("kind", changed("apps/v1", "Deployment", "web")),
        ("group", changed("apps/v1", "StatefulSet", "web")),
    ] {
        let object_old = with(
            old.clone(),
            &[(
                "/spec/targetRef",
                if what == "group" {
                    json!({ "apiVersion": "apps.kruise.io/v1beta1", "kind": "StatefulSet", "name": "web" })
                } else {
                    old["spec"]["targetRef"].clone()
                },
            )],
        );
        assert_names(
            what,
            refusal(&object, Some(&object_old), &[], None),
            "spec.targetRef",
        );
    }
    let new_version = changed("apps.kruise.io/v1beta1", "CloneSet", "web");
    assert_eq!(
        refusal(&new_version, Some(&old), &[], None),
        None,
        "the version may change"
    );
    assert_eq!(
        refusal(&baseline(), Some(&json!({ "spec": {} })), &[], None),
        None,
        "a stored object without a target is not compared"
    );
}

#[test]
fn rules_are_applied_in_order_first_refusal_wins() {
    let object = with(
        baseline(),
        &[
            ("/spec/targetRef/kind", json!("Pod")),
            ("/spec/subsets/1/name", json!("zone-a")),
        ],
    );
    let message = refusal(&object, None, &[], None).expect("refused");
    assert!(message.contains("spec.targetRef.kind"), "{message}");
    let object = with(
        baseline(),
        &[
            ("/spec/subsets/1/name", json!("zone-a")),
            ("/spec/subsets/0/maxReplicas", json!("200%")),
        ],
    );
    let message = refusal(&object, None, &[], None).expect("refused");
    assert!(message.contains("spec.subsets[1].name"), "{message}");
}

#[test]
fn no_input_panics() {
    let target = cloneset();
    let odd = [
        json!(null),
        json!([]),
        json!("WorkloadSpread"),
        json!({ "metadata": 3 }),
        json!({ "metadata": { "name": "spread-web" }, "spec": null }),
        with(baseline(), &[("/spec/subsets/0/patch", json!(null))]),
        with(
            baseline(),
            &[("/spec/subsets/0/maxReplicas", json!("99999999999999999999999%"))],
        ),
        with(baseline(), &[("/spec/subsets/0/maxReplicas", json!("%"))]),
    ];
    for object in &odd {
        for old in [
            None,
            Some(&json!(null)),
            Some(&json!({ "spec": { "targetRef": 3 } })),
        ] {
            let _ = refusal(object, old, &[], Some(&target));
            let _ = refusal(object, old, &[spread(baseline())], None);
        }
    }
}
