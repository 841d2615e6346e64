use serde_json::{Value, json};

use super::*;
use crate::workloads::common::json_pointer::with;

/// The handbook sample (`tests/fixtures/uniteddeployment-sample.yaml`): 6 replicas over
/// subsets of 1, 50% and the rest, a statefulSetTemplate, Manual partitions.
fn sample() -> Value {
    let text = include_str!("../../../tests/fixtures/uniteddeployment-sample.yaml");
    serde_saphyr::from_str(text).expect("the sample parses")
}

/// A pod template labelled `app: sample`.
fn pod() -> Value {
    json!({ "metadata": { "labels": { "app": "sample" } },
        "spec": { "containers": [{ "name": "nginx", "image": "nginx:alpine" }] } })
}

/// The sample with `spec.template` set to one template of `kind` with `spec`.
fn with_template(kind: &str, spec: Value) -> Value {
    let template = json!({ kind: { "metadata": { "labels": { "app": "sample" } }, "spec": spec } });
    with(sample(), &[("/spec/template", template)])
}

fn advanced() -> Value {
    with_template(
        "advancedStatefulSetTemplate",
        json!({ "selector": { "matchLabels": { "app": "sample" } }, "template": pod() }),
    )
}

fn deployment() -> Value {
    with_template("deploymentTemplate", json!({ "template": pod() }))
}

fn cloneset() -> Value {
    with_template(
        "cloneSetTemplate",
        json!({ "selector": { "matchLabels": { "app": "sample" } }, "template": pod() }),
    )
}

/// The sample in capacity mode: subset-a 1-2, subset-b at least 1, subset-c unbounded.
fn capacity() -> Value {
    with(
        sample(),
        &[(
            "/spec/topology/subsets",
            json!([
                { "name": "subset-a", "minReplicas": 1, "maxReplicas": 2 },
                { "name": "subset-b", "minReplicas": 1 },
                { "name": "subset-c" }
            ]),
        )],
    )
}

/// `base` with an Adaptive strategy and no subset replicas.
fn adaptive(base: Value, reserve: bool) -> Value {
    let strategy = json!({ "type": "Adaptive", "adaptive": { "reserveUnschedulablePods": reserve } });
    with(
        base,
        &[
            ("/spec/topology/scheduleStrategy", strategy),
            ("/spec/topology/subsets/0/replicas", Value::Null),
            ("/spec/topology/subsets/1/replicas", Value::Null),
        ],
    )
}

const STS: &str = "/spec/template/statefulSetTemplate";
const STS_SPEC: &str = "/spec/template/statefulSetTemplate/spec";
const SUBSETS: &str = "/spec/topology/subsets";

/// (what, the object, the field the refusal must name).
type Case<'a> = (&'a str, Value, &'a str);

/// Asserts the refusal names the object and contains `field`.
fn assert_names(what: &str, message: Option<String>, field: &str) {
    let message = message.unwrap_or_else(|| panic!("{what}: accepted"));
    assert!(
        message.starts_with("UnitedDeployment sample: "),
        "{what}: {message}"
    );
    assert!(
        message.contains(field),
        "{what}: {message:?} does not name {field:?}"
    );
}

fn assert_refused(cases: Vec<Case>) {
    for (what, object, field) in cases {
        assert_names(what, refusal(&object, None), field);
    }
}

fn assert_accepted(cases: Vec<(&str, Value)>) {
    for (what, object) in cases {
        assert_eq!(refusal(&object, None), None, "{what}");
    }
}

/// One change to the sample.
fn change(pointer: &str, value: Value) -> Value {
    with(sample(), &[(pointer, value)])
}

#[test]
fn the_handbook_sample_is_accepted_on_create_and_update() {
    assert_eq!(refusal(&sample(), None), None);
    assert_eq!(refusal(&sample(), Some(&sample())), None);
}

#[test]
fn every_template_kind_and_both_modes_are_accepted() {
    assert_accepted(vec![
        ("advanced statefulset", advanced()),
        ("deployment", deployment()),
        ("cloneset", cloneset()),
        ("capacity mode", capacity()),
        ("adaptive", adaptive(sample(), false)),
        ("reservation with a deployment", adaptive(deployment(), true)),
        ("reservation with a cloneset", adaptive(cloneset(), true)),
        (
            "no spec.replicas, every subset sized",
            with(
                sample(),
                &[
                    ("/spec/replicas", Value::Null),
                    ("/spec/topology/subsets/1/replicas", json!(2)),
                    ("/spec/topology/subsets/2/replicas", json!(3)),
                ],
            ),
        ),
        (
            "partition with an unset strategy type (upstream checks RollingUpdate only)",
            change(
                &format!("{STS_SPEC}/updateStrategy"),
                json!({ "rollingUpdate": { "partition": 1 } }),
            ),
        ),
        (
            "statefulset knobs Kubernetes accepts",
            with(
                sample(),
                &[
                    (&format!("{STS_SPEC}/podManagementPolicy"), json!("Parallel")),
                    (
                        &format!("{STS_SPEC}/updateStrategy"),
                        json!({ "type": "RollingUpdate", "rollingUpdate": { "maxUnavailable": "50%" } }),
                    ),
                    (
                        &format!("{STS_SPEC}/persistentVolumeClaimRetentionPolicy"),
                        json!({ "whenDeleted": "Delete", "whenScaled": "Retain" }),
                    ),
                    (&format!("{STS_SPEC}/ordinals"), json!({ "start": 3 })),
                    (&format!("{STS_SPEC}/serviceName"), json!("sample")),
                ],
            ),
        ),
        (
            "node selector term with a value that is no label value (not checked upstream)",
            change(
                &format!("{SUBSETS}/0/nodeSelectorTerm"),
                json!({ "matchExpressions": [{ "key": "node", "operator": "In", "values": ["zone a"] }] }),
            ),
        ),
    ]);
}

#[test]
fn an_unreadable_object_is_refused_naming_the_field() {
    assert_refused(vec![
        (
            "no selector",
            change("/spec/selector", Value::Null),
            "spec.selector",
        ),
        (
            "unknown update strategy type",
            change("/spec/updateStrategy/type", json!("Auto")),
            "spec.updateStrategy.type",
        ),
        (
            "unknown schedule strategy type",
            change("/spec/topology/scheduleStrategy", json!({ "type": "Random" })),
            "spec.topology.scheduleStrategy.type",
        ),
        (
            "subset replicas a list",
            change(&format!("{SUBSETS}/0/replicas"), json!([1])),
            "spec.topology.subsets[0].replicas",
        ),
        (
            "statefulset template containers not a list",
            change(&format!("{STS_SPEC}/template/spec/containers"), json!("nginx")),
            "spec.template.statefulSetTemplate.spec.template.spec.containers",
        ),
        (
            "deployment template spec not an object",
            with(
                deployment(),
                &[("/spec/template/deploymentTemplate/spec", json!(3))],
            ),
            "spec.template.deploymentTemplate.spec",
        ),
    ]);
}

#[test]
fn negative_replicas_and_a_bad_or_empty_selector_are_refused() {
    assert_refused(vec![
        (
            "negative replicas",
            change("/spec/replicas", json!(-1)),
            "spec.replicas",
        ),
        (
            "bad matchLabels key",
            change("/spec/selector/matchLabels", json!({ "a/b/c": "x" })),
            "spec.selector.matchLabels",
        ),
        (
            "bad matchLabels value",
            change("/spec/selector/matchLabels", json!({ "app": "bad value" })),
            "spec.selector.matchLabels.app",
        ),
        (
            "unknown operator",
            change(
                "/spec/selector",
                json!({ "matchExpressions": [{ "key": "app", "operator": "Near", "values": ["x"] }] }),
            ),
            "spec.selector.matchExpressions[0].operator",
        ),
        (
            "In without values",
            change(
                "/spec/selector",
                json!({ "matchExpressions": [{ "key": "app", "operator": "In" }] }),
            ),
            "spec.selector.matchExpressions[0].values",
        ),
        (
            "empty selector",
            change("/spec/selector", json!({})),
            "spec.selector",
        ),
    ]);
}

#[test]
fn reservation_mode_with_a_stateful_template_is_refused() {
    let field = "spec.topology.scheduleStrategy.adaptive.reserveUnschedulablePods";
    assert_refused(vec![
        ("statefulset", adaptive(sample(), true), field),
        ("advanced statefulset", adaptive(advanced(), true), field),
    ]);
}

#[test]
fn the_template_must_be_one_kind_selected_by_the_selector() {
    let two = with(
        sample(),
        &[(
            "/spec/template/deploymentTemplate",
            json!({ "spec": { "template": pod() } }),
        )],
    );
    assert_refused(vec![
        (
            "no template",
            change("/spec/template", Value::Null),
            "spec.template",
        ),
        (
            "empty template",
            change("/spec/template", json!({})),
            "spec.template",
        ),
        ("two templates", two, "statefulSetTemplate and deploymentTemplate"),
        (
            "statefulset labels not selected",
            change(&format!("{STS}/metadata/labels"), json!({ "app": "other" })),
            "spec.template.statefulSetTemplate.metadata.labels",
        ),
        (
            "statefulset without labels",
            change(&format!("{STS}/metadata"), Value::Null),
            "spec.template.statefulSetTemplate.metadata.labels",
        ),
    ]);
}

#[test]
fn a_statefulset_template_is_refused_as_kubernetes_refuses_its_spec() {
    let at = "spec.template.statefulSetTemplate.spec";
    let spec = |pointer: &str, value: Value| change(&format!("{STS_SPEC}{pointer}"), value);
    assert_refused(vec![
        ("replicas", spec("/replicas", json!(2)), &format!("{at}.replicas")),
        (
            "rolling update partition",
            spec(
                "/updateStrategy",
                json!({ "type": "RollingUpdate", "rollingUpdate": { "partition": 1 } }),
            ),
            &format!("{at}.updateStrategy.rollingUpdate.partition"),
        ),
        (
            "pod management policy",
            spec("/podManagementPolicy", json!("Random")),
            &format!("{at}.podManagementPolicy"),
        ),
        (
            "update strategy type",
            spec("/updateStrategy", json!({ "type": "Sometimes" })),
            &format!("{at}.updateStrategy.type"),
        ),
        (
            "rolling update knobs with OnDelete",
            spec(
                "/updateStrategy",
                json!({ "type": "OnDelete", "rollingUpdate": { "maxUnavailable": 1 } }),
            ),
            &format!("{at}.updateStrategy.rollingUpdate"),
        ),
        (
            "maxUnavailable 0",
            spec(
                "/updateStrategy",
                json!({ "rollingUpdate": { "maxUnavailable": 0 } }),
            ),
            &format!("{at}.updateStrategy.rollingUpdate.maxUnavailable"),
        ),
        (
            "maxUnavailable above 100%",
            spec(
                "/updateStrategy",
                json!({ "rollingUpdate": { "maxUnavailable": "120%" } }),
            ),
            &format!("{at}.updateStrategy.rollingUpdate.maxUnavailable"),
        ),
        (
            "retention policy value",
            spec(
                "/persistentVolumeClaimRetentionPolicy",
                json!({ "whenDeleted": "Keep", "whenScaled": "Retain" }),
            ),
            &format!("{at}.persistentVolumeClaimRetentionPolicy.whenDeleted"),
        ),
        (
            "retention policy half set",
            spec(
                "/persistentVolumeClaimRetentionPolicy",
                json!({ "whenDeleted": "Delete" }),
            ),
            &format!("{at}.persistentVolumeClaimRetentionPolicy.whenScaled"),
        ),
        (
            "minReadySeconds",
            spec("/minReadySeconds", json!(-1)),
            &format!("{at}.minReadySeconds"),
        ),
        (
            "ordinals",
            spec("/ordinals", json!({ "start": -1 })),
            &format!("{at}.ordinals.start"),
        ),
        (
            "pod labels not selected",
            spec("/template/metadata/labels", json!({ "app": "other" })),
            &format!("{at}.template.metadata.labels"),
        ),
        (
            "pod label value",
            spec("/template/metadata/labels/tier", json!("front end")),
            &format!("{at}.template.metadata.labels.tier"),
        ),
        (
            "pod annotation key",
            spec("/template/metadata/annotations", json!({ "a/b/c": "x" })),
            &format!("{at}.template.metadata.annotations"),
        ),
        (
            "restart policy",
            spec("/template/spec/restartPolicy", json!("Never")),
            &format!("{at}.template.spec.restartPolicy"),
        ),
        (
            "deadline",
            spec("/template/spec/activeDeadlineSeconds", json!(30)),
            &format!("{at}.template.spec.activeDeadlineSeconds"),
        ),
    ]);
}

#[test]
fn advanced_statefulset_and_deployment_templates_are_refused_naming_the_field() {
    let asts = "/spec/template/advancedStatefulSetTemplate";
    let deploy = "/spec/template/deploymentTemplate";
    let at_asts = "spec.template.advancedStatefulSetTemplate";
    let at_deploy = "spec.template.deploymentTemplate";
    let containers = format!("{deploy}/spec/template/spec/containers");
    assert_refused(vec![
        (
            "advanced labels not selected",
            with(
                advanced(),
                &[(&format!("{asts}/metadata/labels"), json!({ "app": "x" }))],
            ),
            &format!("{at_asts}.metadata.labels"),
        ),
        (
            "advanced replicas",
            with(advanced(), &[(&format!("{asts}/spec/replicas"), json!(1))]),
            &format!("{at_asts}.spec.replicas"),
        ),
        (
            "advanced partition",
            with(
                advanced(),
                &[(
                    &format!("{asts}/spec/updateStrategy"),
                    json!({ "type": "RollingUpdate", "rollingUpdate": { "partition": 2 } }),
                )],
            ),
            &format!("{at_asts}.spec.updateStrategy.rollingUpdate.partition"),
        ),
        (
            "advanced pod labels not selected",
            with(
                advanced(),
                &[(&format!("{asts}/spec/template/metadata/labels"), json!({}))],
            ),
            &format!("{at_asts}.spec.template.metadata.labels"),
        ),
        (
            "advanced restart policy",
            with(
                advanced(),
                &[(
                    &format!("{asts}/spec/template/spec/restartPolicy"),
                    json!("OnFailure"),
                )],
            ),
            &format!("{at_asts}.spec.template.spec.restartPolicy"),
        ),
        (
            "deployment labels not selected",
            with(
                deployment(),
                &[(&format!("{deploy}/metadata/labels"), json!({ "app": "x" }))],
            ),
            &format!("{at_deploy}.metadata.labels"),
        ),
        (
            "deployment replicas",
            with(deployment(), &[(&format!("{deploy}/spec/replicas"), json!(3))]),
            &format!("{at_deploy}.spec.replicas"),
        ),
        (
            "deployment pod labels not selected",
            with(
                deployment(),
                &[(
                    &format!("{deploy}/spec/template/metadata/labels"),
                    json!({ "app": "x" }),
                )],
            ),
            &format!("{at_deploy}.spec.template.metadata.labels"),
        ),
        (
            "deployment without containers",
            with(deployment(), &[(&containers, json!([]))]),
            &format!("{at_deploy}.spec.template.spec.containers"),
        ),
        (
            "deployment container name",
            with(deployment(), &[(&format!("{containers}/0/name"), json!("Web"))]),
            &format!("{at_deploy}.spec.template.spec.containers[0].name"),
        ),
        (
            "deployment container name twice",
            with(
                deployment(),
                &[(
                    &format!("{containers}/1"),
                    json!({ "name": "nginx", "image": "x" }),
                )],
            ),
            &format!("{at_deploy}.spec.template.spec.containers[1].name"),
        ),
        (
            "deployment container image",
            with(deployment(), &[(&format!("{containers}/0/image"), Value::Null)]),
            &format!("{at_deploy}.spec.template.spec.containers[0].image"),
        ),
        (
            "deployment deadline",
            with(
                deployment(),
                &[(
                    &format!("{deploy}/spec/template/spec/activeDeadlineSeconds"),
                    json!(5),
                )],
            ),
            &format!("{at_deploy}.spec.template.spec.activeDeadlineSeconds"),
        ),
    ]);
}

#[test]
fn a_cloneset_template_is_not_checked_as_upstream() {
    let set = "/spec/template/cloneSetTemplate";
    assert_accepted(vec![(
        "unselected labels and replicas",
        with(
            cloneset(),
            &[
                (&format!("{set}/metadata/labels"), json!({ "app": "other" })),
                (&format!("{set}/spec/replicas"), json!(3)),
            ],
        ),
    )]);
}

#[test]
fn subset_amounts_are_refused_naming_the_subset_field() {
    let a = format!("{SUBSETS}/0");
    let amount = |field: &str, value: Value| change(&format!("{a}/{field}"), value);
    let no_total = |field: &str, value: Value| {
        with(
            sample(),
            &[("/spec/replicas", Value::Null), (&format!("{a}/{field}"), value)],
        )
    };
    let at = "spec.topology.subsets[0]";
    let min_over_max = with(
        capacity(),
        &[
            (&format!("{a}/minReplicas"), json!(3)),
            (&format!("{a}/maxReplicas"), json!(2)),
        ],
    );
    assert_refused(vec![
        (
            "negative replicas",
            amount("replicas", json!(-1)),
            &format!("{at}.replicas"),
        ),
        (
            "percentage without spec.replicas",
            no_total("replicas", json!("50%")),
            &format!("{at}.replicas"),
        ),
        ("no %", amount("replicas", json!("50")), &format!("{at}.replicas")),
        (
            "not an integer",
            amount("replicas", json!("1.5%")),
            &format!("{at}.replicas"),
        ),
        (
            "not a number",
            amount("replicas", json!("abc%")),
            &format!("{at}.replicas"),
        ),
        (
            "above 100%",
            amount("replicas", json!("101%")),
            &format!("{at}.replicas"),
        ),
        (
            "below 0%",
            amount("replicas", json!("-1%")),
            &format!("{at}.replicas"),
        ),
        (
            "negative minReplicas",
            with(capacity(), &[(&format!("{a}/minReplicas"), json!(-2))]),
            &format!("{at}.minReplicas"),
        ),
        (
            "bad maxReplicas",
            with(capacity(), &[(&format!("{a}/maxReplicas"), json!("x"))]),
            &format!("{at}.maxReplicas"),
        ),
        ("min above max", min_over_max, &format!("{at}.minReplicas")),
    ]);
}

#[test]
fn mixing_modes_and_capacity_mode_faults_are_refused() {
    let all_max = with(
        capacity(),
        &[
            (&format!("{SUBSETS}/1/maxReplicas"), json!(5)),
            (&format!("{SUBSETS}/2/maxReplicas"), json!(5)),
        ],
    );
    // Upstream's "minimums add up to more than the maximums" cannot fail once each subset's
    // minReplicas <= maxReplicas (an unset maximum counting 1,000,000): at the bounds it passes.
    let at_bounds = with(
        capacity(),
        &[
            (&format!("{SUBSETS}/1/maxReplicas"), json!(1)),
            (&format!("{SUBSETS}/2/minReplicas"), json!(1_000_000)),
        ],
    );
    assert_accepted(vec![("every minimum at its maximum", at_bounds)]);
    assert_refused(vec![
        (
            "replicas and minReplicas",
            change(&format!("{SUBSETS}/2/minReplicas"), json!(1)),
            "spec.topology.subsets[0]) and minReplicas/maxReplicas (spec.topology.subsets[2]",
        ),
        (
            "capacity without spec.replicas",
            with(capacity(), &[("/spec/replicas", Value::Null)]),
            "spec.replicas",
        ),
        (
            "every subset bounded",
            all_max,
            "spec.topology.subsets: every subset sets maxReplicas",
        ),
    ]);
}

#[test]
fn fixed_mode_sums_are_refused() {
    let sized = |a: Value, b: Value, c: Value| {
        with(
            sample(),
            &[
                (&format!("{SUBSETS}/0/replicas"), a),
                (&format!("{SUBSETS}/1/replicas"), b),
                (&format!("{SUBSETS}/2/replicas"), c),
            ],
        )
    };
    assert_refused(vec![
        (
            "above spec.replicas",
            change(&format!("{SUBSETS}/0/replicas"), json!(4)),
            "spec.topology.subsets: the subsets' replicas add up to 7, above spec.replicas 6",
        ),
        (
            "every subset sized, below spec.replicas",
            sized(json!(1), json!(1), json!(1)),
            "spec.topology.subsets: the subsets' replicas add up to 3; when every subset sets replicas",
        ),
        (
            "no spec.replicas, a subset unsized",
            with(
                sample(),
                &[
                    ("/spec/replicas", Value::Null),
                    (&format!("{SUBSETS}/1/replicas"), json!(2)),
                ],
            ),
            "spec.topology.subsets[2].replicas",
        ),
    ]);
    // 50% of 5 is 2.5, counted 3 (half up): with 2 more, exactly 5.
    let five = |a: Value, b: Value| {
        let object = sized(a, b, Value::Null);
        with(object, &[("/spec/replicas", json!(5))])
    };
    assert_accepted(vec![("50% of 5 counts 3", five(json!("50%"), json!(2)))]);
    assert_refused(vec![(
        "50% of 5 and 3",
        five(json!("50%"), json!(3)),
        "add up to 6, above spec.replicas 5",
    )]);
}

#[test]
fn subsets_are_refused_naming_the_subset_field() {
    let b = format!("{SUBSETS}/1");
    let term = |requirement: Value| change(&format!("{b}/nodeSelectorTerm"), requirement);
    let toleration = |toleration: Value| change(&format!("{b}/tolerations"), json!([toleration]));
    let at = "spec.topology.subsets[1]";
    assert_refused(vec![
        (
            "empty name",
            change(&format!("{b}/name"), json!("")),
            &format!("{at}.name"),
        ),
        (
            "duplicated name",
            change(&format!("{b}/name"), json!("subset-a")),
            &format!("{at}.name"),
        ),
        (
            "not a DNS label",
            change(&format!("{b}/name"), json!("Subset_B")),
            &format!("{at}.name"),
        ),
        (
            "term operator",
            term(json!({ "matchExpressions": [{ "key": "node", "operator": "Near", "values": ["a"] }] })),
            &format!("{at}.nodeSelectorTerm.matchExpressions[0].operator"),
        ),
        (
            "term key",
            term(json!({ "matchExpressions": [{ "key": "-node", "operator": "Exists" }] })),
            &format!("{at}.nodeSelectorTerm.matchExpressions[0].key"),
        ),
        (
            "Gt with two values",
            term(json!({ "matchExpressions": [{ "key": "cpu", "operator": "Gt", "values": ["1", "2"] }] })),
            &format!("{at}.nodeSelectorTerm.matchExpressions[0].values"),
        ),
        (
            "field key",
            term(json!({ "matchFields": [{ "key": "metadata.uid", "operator": "In", "values": ["a"] }] })),
            &format!("{at}.nodeSelectorTerm.matchFields[0].key"),
        ),
        (
            "toleration operator",
            toleration(json!({ "key": "gpu", "operator": "Maybe" })),
            &format!("{at}.tolerations[0].operator"),
        ),
        (
            "toleration without key, Equal",
            toleration(json!({ "operator": "Equal", "value": "x" })),
            &format!("{at}.tolerations[0].operator"),
        ),
        (
            "tolerationSeconds without NoExecute",
            toleration(
                json!({ "key": "gpu", "operator": "Exists", "effect": "NoSchedule", "tolerationSeconds": 5 }),
            ),
            &format!("{at}.tolerations[0].effect"),
        ),
        (
            "toleration effect",
            toleration(json!({ "key": "gpu", "operator": "Exists", "effect": "Sometimes" })),
            &format!("{at}.tolerations[0].effect"),
        ),
        (
            "toleration value with Exists",
            toleration(json!({ "key": "gpu", "operator": "Exists", "value": "x" })),
            &format!("{at}.tolerations[0].value"),
        ),
        (
            "replicas with Adaptive",
            with(adaptive(sample(), false), &[(&format!("{b}/replicas"), json!(1))]),
            &format!("{at}.replicas"),
        ),
    ]);
}

#[test]
fn a_partition_for_an_unknown_subset_is_refused() {
    assert_refused(vec![(
        "unknown subset",
        change("/spec/updateStrategy/manualUpdate/partitions/subset-z", json!(1)),
        "spec.updateStrategy.manualUpdate.partitions.subset-z",
    )]);
}

/// (what, stored object, new object, the field the refusal must name).
type Update<'a> = (&'a str, Value, Value, &'a str);

fn assert_updates_refused(cases: Vec<Update>) {
    for (what, old, new, field) in cases {
        assert_eq!(
            refusal(&new, None),
            None,
            "{what}: the new object alone is accepted"
        );
        assert_names(what, refusal(&new, Some(&old)), field);
    }
}

fn assert_updates_accepted(cases: Vec<(&str, Value, Value)>) {
    for (what, old, new) in cases {
        assert_eq!(refusal(&new, Some(&old)), None, "{what}");
    }
}

#[test]
fn an_update_may_not_change_a_subsets_node_selector_term_or_tolerations() {
    let term =
        |zone: &str| json!({ "matchExpressions": [{ "key": "zone", "operator": "In", "values": [zone] }] });
    let gpu = json!([{ "key": "gpu", "operator": "Exists" }]);
    let a = format!("{SUBSETS}/0");
    let old = with(
        sample(),
        &[
            (&format!("{a}/nodeSelectorTerm"), term("a")),
            (&format!("{a}/tolerations"), gpu.clone()),
        ],
    );
    let edited = |pointer: &str, value: Value| with(old.clone(), &[(&format!("{a}/{pointer}"), value)]);
    assert_updates_refused(vec![
        (
            "term changed",
            old.clone(),
            edited("nodeSelectorTerm", term("b")),
            "spec.topology.subsets[0].nodeSelectorTerm",
        ),
        (
            "term removed",
            old.clone(),
            edited("nodeSelectorTerm", Value::Null),
            "spec.topology.subsets[0].nodeSelectorTerm",
        ),
        (
            "tolerations removed",
            old.clone(),
            edited("tolerations", Value::Null),
            "spec.topology.subsets[0].tolerations",
        ),
    ]);
    let renamed = with(
        old.clone(),
        &[
            (&format!("{a}/name"), json!("subset-d")),
            (&format!("{a}/nodeSelectorTerm"), term("d")),
        ],
    );
    let renamed = with(
        renamed,
        &[(
            "/spec/updateStrategy/manualUpdate/partitions/subset-a",
            Value::Null,
        )],
    );
    assert_updates_accepted(vec![
        ("same", old.clone(), old.clone()),
        ("replicas changed", old.clone(), edited("replicas", json!(2))),
        (
            "empty and absent tolerations",
            change(&format!("{a}/tolerations"), json!([])),
            sample(),
        ),
        ("a new subset name is free", old.clone(), renamed),
    ]);
}

#[test]
fn an_update_may_change_only_some_statefulset_template_fields() {
    let old = with(
        sample(),
        &[
            (&format!("{STS_SPEC}/serviceName"), json!("sample")),
            (&format!("{STS_SPEC}/podManagementPolicy"), json!("OrderedReady")),
        ],
    );
    let edited = |pointer: &str, value: Value| with(old.clone(), &[(&format!("{STS_SPEC}{pointer}"), value)]);
    let at = "spec.template.statefulSetTemplate.spec";
    let claims = json!([{ "metadata": { "name": "data" }, "spec": { "accessModes": ["ReadWriteOnce"] } }]);
    assert_updates_refused(vec![
        (
            "serviceName",
            old.clone(),
            edited("/serviceName", json!("other")),
            &format!("{at}.serviceName"),
        ),
        (
            "policy",
            old.clone(),
            edited("/podManagementPolicy", json!("Parallel")),
            &format!("{at}.podManagementPolicy"),
        ),
        (
            "claims",
            old.clone(),
            edited("/volumeClaimTemplates", claims),
            &format!("{at}.volumeClaimTemplates"),
        ),
        (
            "history",
            old.clone(),
            edited("/revisionHistoryLimit", json!(3)),
            &format!("{at}.revisionHistoryLimit"),
        ),
    ]);
    assert_updates_accepted(vec![
        (
            "image",
            old.clone(),
            edited("/template/spec/containers/0/image", json!("nginx:1.27")),
        ),
        (
            "update strategy",
            old.clone(),
            edited("/updateStrategy", json!({ "type": "OnDelete" })),
        ),
        (
            "minReadySeconds",
            old.clone(),
            edited("/minReadySeconds", json!(10)),
        ),
        (
            "ordinals",
            old.clone(),
            edited("/ordinals", json!({ "start": 1 })),
        ),
        (
            "retention",
            old.clone(),
            edited(
                "/persistentVolumeClaimRetentionPolicy",
                json!({ "whenDeleted": "Delete", "whenScaled": "Delete" }),
            ),
        ),
        (
            "policy unset is OrderedReady",
            old.clone(),
            edited("/podManagementPolicy", Value::Null),
        ),
        (
            "an unknown field is ignored",
            old.clone(),
            edited("/somethingNew", json!(true)),
        ),
        ("another template kind is not compared", old.clone(), deployment()),
    ]);
}

#[test]
fn an_update_may_change_only_some_advanced_statefulset_template_fields() {
    let spec = "/spec/template/advancedStatefulSetTemplate/spec";
    let old = advanced();
    let edited = |pointer: &str, value: Value| with(old.clone(), &[(&format!("{spec}{pointer}"), value)]);
    let at = "spec.template.advancedStatefulSetTemplate.spec";
    assert_updates_refused(vec![
        (
            "serviceName",
            old.clone(),
            edited("/serviceName", json!("x")),
            &format!("{at}.serviceName"),
        ),
        (
            "podManagementPolicy",
            old.clone(),
            edited("/podManagementPolicy", json!("Parallel")),
            &format!("{at}.podManagementPolicy"),
        ),
        (
            "selector",
            old.clone(),
            edited(
                "/selector/matchExpressions",
                json!([{ "key": "app", "operator": "Exists" }]),
            ),
            &format!("{at}.selector"),
        ),
    ]);
    assert_updates_accepted(vec![
        (
            "image",
            old.clone(),
            edited("/template/spec/containers/0/image", json!("nginx:1.27")),
        ),
        (
            "update strategy",
            old.clone(),
            edited("/updateStrategy", json!({ "type": "OnDelete" })),
        ),
        (
            "minReadySeconds is no Advanced StatefulSet field (rollingUpdate has it)",
            old.clone(),
            edited("/minReadySeconds", json!(5)),
        ),
    ]);
}

#[test]
fn defaults_fill_what_upstream_defaults_and_clear_the_status() {
    let bare = json!({ "apiVersion": "apps.kruise.io/v1alpha1", "kind": "UnitedDeployment",
        "metadata": { "name": "sample" },
        "spec": { "selector": { "matchLabels": { "app": "sample" } },
            "topology": { "subsets": [{ "name": "a" }] } },
        "status": { "replicas": 3 } });
    let result = defaulted(&bare);
    assert_eq!(result.get("status"), None);
    assert_eq!(result["spec"]["replicas"], json!(1));
    assert_eq!(result["spec"]["revisionHistoryLimit"], json!(10));
    assert_eq!(
        result["spec"]["updateStrategy"],
        json!({ "type": "Manual", "manualUpdate": {} })
    );
    assert_eq!(result["spec"]["topology"]["subsets"], json!([{ "name": "a" }]));
    assert_eq!(
        result["spec"]["topology"].get("scheduleStrategy"),
        None,
        "upstream writes no strategy"
    );
    assert_eq!(result["metadata"], bare["metadata"]);
}

#[test]
fn defaults_keep_what_is_set() {
    let set = with(
        sample(),
        &[
            ("/spec/replicas", json!(4)),
            ("/spec/revisionHistoryLimit", json!(2)),
            (
                "/spec/updateStrategy",
                json!({ "type": "", "manualUpdate": { "partitions": { "subset-a": 1 } } }),
            ),
        ],
    );
    let result = defaulted(&set);
    assert_eq!(result["spec"]["replicas"], json!(4));
    assert_eq!(result["spec"]["revisionHistoryLimit"], json!(2));
    assert_eq!(
        result["spec"]["updateStrategy"],
        json!({ "type": "Manual", "manualUpdate": { "partitions": { "subset-a": 1 } } })
    );
    assert_eq!(
        result["spec"]["template"], set["spec"]["template"],
        "no pod-spec defaults"
    );
    assert_eq!(defaulted(&sample()), sample(), "the sample has every default");
    let unknown = with(sample(), &[("/spec/updateStrategy", json!({ "type": "Auto" }))]);
    assert_eq!(
        defaulted(&unknown)["spec"]["updateStrategy"],
        json!({ "type": "Auto" }),
        "left to the refusal"
    );
    assert_eq!(defaulted(&json!({ "spec": 3 })), json!({ "spec": 3 }));
}

#[test]
fn capacity_mode_defaults_unset_minimums_to_zero() {
    let defaulted_subsets = |object: Value| defaulted(&object)["spec"]["topology"]["subsets"].clone();
    let bounded = with(
        sample(),
        &[(
            SUBSETS,
            json!([{ "name": "a", "maxReplicas": 2 }, { "name": "b", "minReplicas": 1 }, { "name": "c" }]),
        )],
    );
    assert_eq!(
        defaulted_subsets(bounded),
        json!([
            { "name": "a", "maxReplicas": 2, "minReplicas": 0 },
            { "name": "b", "minReplicas": 1 },
            { "name": "c", "minReplicas": 0 }
        ])
    );
    let mixed = with(
        sample(),
        &[(
            SUBSETS,
            json!([{ "name": "a", "maxReplicas": 2 }, { "name": "b", "replicas": 1 }]),
        )],
    );
    assert_eq!(
        defaulted_subsets(mixed),
        json!([{ "name": "a", "maxReplicas": 2 }, { "name": "b", "replicas": 1 }]),
        "not with a fixed subset"
    );
    assert_eq!(
        defaulted_subsets(sample()),
        sample()["spec"]["topology"]["subsets"],
        "fixed mode"
    );
}
