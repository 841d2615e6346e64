use serde_json::{Value, json};

use super::*;
use crate::workloads::common::json_pointer::with;

/// An accepted SidecarSet using most of what the rules look at.
fn baseline() -> Value {
    json!({ "apiVersion": "apps.kruise.io/v1alpha1", "kind": "SidecarSet",
        "metadata": { "name": "log" },
        "spec": {
            "selector": { "matchLabels": { "app": "web" } },
            "namespaceSelector": { "matchLabels": { "env": "prod" } },
            "initContainers": [{ "name": "init-log", "image": "busybox" }],
            "containers": [{
                "name": "fluent", "image": "fluentd:1",
                "ports": [{ "containerPort": 24224 }],
                "volumeMounts": [{ "name": "logs", "mountPath": "/var/log/app" }],
                "transferEnv": [
                    { "sourceContainerName": "app", "envName": "TZ" },
                    { "sourceContainerNameFrom": { "fieldRef": { "apiVersion": "v1",
                        "fieldPath": "metadata.labels['app.kubernetes.io/main']" } }, "envNames": ["LANG"] }
                ]
            }],
            "volumes": [{ "name": "logs", "emptyDir": {} }],
            "updateStrategy": {
                "type": "RollingUpdate", "partition": "10%", "maxUnavailable": "25%",
                "priorityStrategy": { "weightPriority": [
                    { "weight": 50, "matchSelector": { "matchLabels": { "tier": "canary" } } }] },
                "scatterStrategy": [{ "key": "zone", "value": "a" }, { "key": "zone", "value": "b" }]
            },
            "injectionStrategy": { "revision": { "customVersion": "v1", "policy": "Always" } },
            "patchPodMetadata": [
                { "annotations": { "log.example.com/format": "json" }, "patchPolicy": "Overwrite" },
                { "annotations": { "log.example.com/level": "info" } }
            ]
        }
    })
}

fn sidecarset(value: Value) -> SidecarSet {
    serde_json::from_value(value).expect("a SidecarSet")
}

/// Another SidecarSet named `name`: selects `app: web`, injects container `other`.
fn other(name: &str, changes: &[(&str, Value)]) -> SidecarSet {
    let base = json!({ "apiVersion": "apps.kruise.io/v1alpha1", "kind": "SidecarSet",
        "metadata": { "name": name },
        "spec": { "selector": { "matchLabels": { "app": "web" } },
            "containers": [{ "name": "other", "image": "busybox" }] } });
    sidecarset(with(base, changes))
}

/// (what, object, old, others, field the refusal must name).
type Refused<'a> = (&'a str, Value, Option<&'a Value>, &'a [SidecarSet], &'a str);

/// (what, changes to the baseline, field the refusal must name).
type Variant<'a> = (&'a str, Vec<(&'a str, Value)>, &'a str);

/// Asserts every case is refused with a message naming the object and containing `field`.
fn assert_refused(cases: &[Refused]) {
    for (what, object, old, others, field) in cases {
        let name = object["metadata"]["name"].as_str().unwrap_or_default();
        let message = refusal(object, *old, others).unwrap_or_else(|| panic!("{what}: accepted"));
        assert!(
            message.starts_with(&format!("SidecarSet {name}: ")),
            "{what}: {message}"
        );
        assert!(
            message.contains(field),
            "{what}: {message:?} does not name {field:?}"
        );
    }
}

/// One refused variant of the baseline per case.
fn assert_variants_refused(cases: &[Variant]) {
    let cases: Vec<_> = cases
        .iter()
        .map(|(what, changes, field)| (*what, with(baseline(), changes), None, &[][..], *field))
        .collect();
    assert_refused(&cases);
}

#[test]
fn the_baseline_is_accepted_on_create_and_update() {
    assert_eq!(refusal(&baseline(), None, &[]), None);
    assert_eq!(
        refusal(&baseline(), Some(&baseline()), &[sidecarset(baseline())]),
        None
    );
}

#[test]
fn rule_1_the_name_must_be_letters_digits_and_dashes() {
    let long = "a".repeat(64);
    assert_variants_refused(&[
        ("dot", vec![("/metadata/name", json!("log.v2"))], "metadata.name"),
        ("too long", vec![("/metadata/name", json!(long))], "metadata.name"),
        ("missing", vec![("/metadata/name", Value::Null)], "metadata.name"),
    ]);
    let upper = with(baseline(), &[("/metadata/name", json!("Log-2"))]);
    assert_eq!(refusal(&upper, None, &[]), None, "upper case is allowed");
}

#[test]
fn rule_2_an_unreadable_object_is_refused_naming_the_field() {
    assert_variants_refused(&[
        (
            "inject policy",
            vec![("/spec/containers/0/podInjectPolicy", json!("Sideways"))],
            "podInjectPolicy",
        ),
        (
            "replicas type",
            vec![("/spec/revisionHistoryLimit", json!("ten"))],
            "spec.revisionHistoryLimit",
        ),
    ]);
}

#[test]
fn rule_3_the_scope_needs_a_valid_selector_and_one_namespace_spelling() {
    let bad_operator = json!({ "matchExpressions": [{ "key": "app", "operator": "Near" }] });
    let no_values = json!({ "matchExpressions": [{ "key": "app", "operator": "In", "values": [] }] });
    assert_variants_refused(&[
        (
            "no selector",
            vec![("/spec/selector", Value::Null)],
            "spec.selector: is required",
        ),
        (
            "empty selector",
            vec![("/spec/selector", json!({}))],
            "spec.selector: must have",
        ),
        (
            "bad operator",
            vec![("/spec/selector", bad_operator)],
            "spec.selector: is invalid",
        ),
        (
            "no values",
            vec![("/spec/selector", no_values)],
            "spec.selector.matchExpressions[0].values",
        ),
        (
            "bad key",
            vec![("/spec/selector", json!({ "matchLabels": { "-app": "web" } }))],
            "spec.selector.matchLabels",
        ),
        (
            "empty namespaces",
            vec![("/spec/namespaceSelector", json!({}))],
            "spec.namespaceSelector: must have",
        ),
        (
            "both namespaces",
            vec![("/spec/namespace", json!("shop"))],
            "spec.namespaceSelector: may not",
        ),
    ]);
}

#[test]
fn rule_4_some_container_is_required() {
    assert_variants_refused(&[(
        "none",
        vec![
            ("/spec/containers", Value::Null),
            ("/spec/initContainers", json!([])),
        ],
        "spec.containers",
    )]);
}

#[test]
fn rule_5_a_native_sidecar_needs_not_update() {
    let native = [("/spec/initContainers/0/restartPolicy", json!("Always"))];
    assert_variants_refused(&[
        ("rolling", native.to_vec(), "spec.initContainers[0].restartPolicy"),
        (
            "default type",
            [native.as_slice(), &[("/spec/updateStrategy", Value::Null)]].concat(),
            "spec.initContainers[0].restartPolicy",
        ),
    ]);
    let not_update = with(
        baseline(),
        &[
            native[0].clone(),
            ("/spec/updateStrategy", json!({ "type": "NotUpdate" })),
        ],
    );
    assert_eq!(refusal(&not_update, None, &[]), None);
}

#[test]
fn rule_6_transfer_env_needs_a_source_a_name_and_a_pod_metadata_path() {
    let at = "/spec/containers/0/transferEnv/1";
    let field_ref = |api: Value, path: &str| json!({ "sourceContainerNameFrom": { "fieldRef": { "apiVersion": api, "fieldPath": path } }, "envName": "A" });
    let labels = "metadata.labels['app']";
    assert_variants_refused(&[
        (
            "no source",
            vec![(at, json!({ "envName": "A" }))],
            "transferEnv[1]: needs sourceContainerName",
        ),
        (
            "no env",
            vec![(at, json!({ "sourceContainerName": "app" }))],
            "transferEnv[1]: needs envName",
        ),
        (
            "no api version",
            vec![(at, field_ref(Value::Null, labels))],
            "fieldRef.apiVersion: is required",
        ),
        (
            "api version",
            vec![(at, field_ref(json!("v2"), labels))],
            "fieldRef.apiVersion: \"v2\"",
        ),
        (
            "no path",
            vec![(at, field_ref(json!("v1"), ""))],
            "fieldRef.fieldPath: is required",
        ),
        (
            "name path",
            vec![(at, field_ref(json!("v1"), "metadata.name"))],
            "fieldRef.fieldPath",
        ),
        (
            "bad key",
            vec![(at, field_ref(json!("v1"), "metadata.labels['-x']"))],
            "fieldRef.fieldPath",
        ),
    ]);
    let annotation = with(
        baseline(),
        &[(
            at,
            field_ref(json!("v1"), "metadata.annotations['Example.com/Main']"),
        )],
    );
    assert_eq!(
        refusal(&annotation, None, &[]),
        None,
        "annotation keys are checked lowercased"
    );
}

#[test]
fn rule_7_containers_and_volumes_fail_pod_validation() {
    assert_variants_refused(&[
        (
            "upper name",
            vec![("/spec/containers/0/name", json!("Fluent"))],
            "spec.containers[0].name",
        ),
        (
            "twice",
            vec![("/spec/initContainers/0/name", json!("fluent"))],
            "spec.containers[0].name: \"fluent\" is used twice",
        ),
        (
            "no image",
            vec![("/spec/containers/0/image", Value::Null)],
            "spec.containers[0].image: is required",
        ),
        (
            "hot without an empty image",
            vec![(
                "/spec/containers/0/upgradeStrategy",
                json!({ "upgradeType": "HotUpgrade" }),
            )],
            "spec.containers[0].upgradeStrategy.hotUpgradeEmptyImage",
        ),
        (
            "port 0",
            vec![("/spec/containers/0/ports/0/containerPort", json!(0))],
            "spec.containers[0].ports[0].containerPort",
        ),
        (
            "port high",
            vec![("/spec/containers/0/ports/0/containerPort", json!(70000))],
            "ports[0].containerPort",
        ),
        (
            "host port",
            vec![("/spec/containers/0/ports/0/hostPort", json!(-1))],
            "ports[0].hostPort",
        ),
        (
            "mount",
            vec![("/spec/containers/0/volumeMounts/0/name", json!("data"))],
            "spec.containers[0].volumeMounts[0].name",
        ),
        (
            "volume twice",
            vec![("/spec/volumes/1", json!({ "name": "logs", "emptyDir": {} }))],
            "spec.volumes[1].name",
        ),
        (
            "volume name",
            vec![("/spec/volumes/0/name", json!("Logs"))],
            "spec.volumes[0].name",
        ),
    ]);
}

/// Changes putting `policy` on the baseline's container.
fn with_policy(policy: Value) -> Vec<(&'static str, Value)> {
    vec![("/spec/containers/0/resourcesPolicy", policy)]
}

fn policy(regex: Value, expr: Value) -> Value {
    json!({ "targetContainersMode": "sum", "targetContainersNameRegex": regex, "resourcesExpr": expr })
}

#[test]
fn rule_8_a_resources_policy_is_placed_alone_with_a_regex_and_expressions() {
    let good = policy(json!("^app"), json!({ "limits": { "cpu": "max(cpu*50%, 50m)" } }));
    let accepted = with(baseline(), &with_policy(good.clone()));
    assert_eq!(refusal(&accepted, None, &[]), None);
    let native = with(
        baseline(),
        &[
            ("/spec/updateStrategy", json!({ "type": "NotUpdate" })),
            ("/spec/initContainers/0/restartPolicy", json!("Always")),
            ("/spec/initContainers/0/resourcesPolicy", good.clone()),
            (
                "/spec/containers/0/resources",
                json!({ "limits": {}, "requests": {} }),
            ),
        ],
    );
    assert_eq!(refusal(&native, None, &[]), None, "a native sidecar may have one");
    let mut explicit = with_policy(good.clone());
    explicit.push((
        "/spec/containers/0/resources",
        json!({ "limits": { "cpu": "100m" } }),
    ));
    let expr = |e: Value| with_policy(policy(json!(".*"), e));
    assert_variants_refused(&[
        (
            "plain init container",
            vec![("/spec/initContainers/0/resourcesPolicy", good.clone())],
            "spec.initContainers[0].resourcesPolicy: only containers and native sidecar",
        ),
        (
            "explicit resources",
            explicit,
            "spec.containers[0].resourcesPolicy: cannot be combined",
        ),
        (
            "empty regex",
            with_policy(policy(json!(""), json!({ "limits": { "cpu": "cpu" } }))),
            "spec.containers[0].resourcesPolicy.targetContainersNameRegex: must not be empty",
        ),
        (
            "bad regex",
            with_policy(policy(json!("[app("), json!({ "limits": { "cpu": "cpu" } }))),
            "spec.containers[0].resourcesPolicy.targetContainersNameRegex",
        ),
        (
            "neither limits nor requests",
            expr(json!({})),
            "spec.containers[0].resourcesPolicy.resourcesExpr: needs",
        ),
        (
            "bad cpu limit",
            expr(json!({ "limits": { "cpu": "max(cpu*50%)" } })),
            "spec.containers[0].resourcesPolicy.resourcesExpr.limits.cpu",
        ),
        (
            "bad memory request",
            expr(json!({ "requests": { "cpu": "cpu", "memory": "cpu * 2" } })),
            "spec.containers[0].resourcesPolicy.resourcesExpr.requests.memory",
        ),
    ]);
}

#[test]
fn rule_9_an_injection_revision_names_a_revision_or_a_version() {
    assert_variants_refused(&[(
        "neither",
        vec![("/spec/injectionStrategy/revision", json!({ "policy": "Partial" }))],
        "spec.injectionStrategy.revision",
    )]);
    let named = with(
        baseline(),
        &[(
            "/spec/injectionStrategy/revision",
            json!({ "revisionName": "log-abc" }),
        )],
    );
    assert_eq!(refusal(&named, None, &[]), None, "existence is not checked");
}

#[test]
fn rule_10_a_rolling_update_s_numbers_selectors_and_orders() {
    let selector = || {
        (
            ("/spec/updateStrategy/selector"),
            json!({ "matchLabels": { "canary": "true" } }),
        )
    };
    let weight =
        |w: i32, selector: Value| json!({ "weightPriority": [{ "weight": w, "matchSelector": selector }] });
    let tier = json!({ "matchLabels": { "tier": "a" } });
    assert_variants_refused(&[
        (
            "percent with selector",
            vec![selector()],
            "spec.updateStrategy.partition: may not",
        ),
        (
            "int with selector",
            vec![selector(), ("/spec/updateStrategy/partition", json!(2))],
            "spec.updateStrategy.partition",
        ),
        (
            "negative",
            vec![("/spec/updateStrategy/partition", json!(-1))],
            "spec.updateStrategy.partition: \"-1\"",
        ),
        (
            "bad percent",
            vec![("/spec/updateStrategy/maxUnavailable", json!("abc%"))],
            "spec.updateStrategy.maxUnavailable",
        ),
        (
            "bad selector",
            vec![
                ("/spec/updateStrategy/partition", json!(0)),
                (
                    "/spec/updateStrategy/selector",
                    json!({ "matchExpressions": [{ "key": "a", "operator": "Exists", "values": ["x"] }] }),
                ),
            ],
            "spec.updateStrategy.selector.matchExpressions[0].values",
        ),
        (
            "both priorities",
            vec![(
                "/spec/updateStrategy/priorityStrategy/orderPriority",
                json!([{ "orderedKey": "rank" }]),
            )],
            "spec.updateStrategy.priorityStrategy: weightPriority and orderPriority",
        ),
        (
            "weight",
            vec![("/spec/updateStrategy/priorityStrategy", weight(101, tier))],
            "weightPriority[0].weight",
        ),
        (
            "empty weight selector",
            vec![("/spec/updateStrategy/priorityStrategy", weight(1, json!({})))],
            "weightPriority[0].matchSelector",
        ),
        (
            "empty ordered key",
            vec![(
                "/spec/updateStrategy/priorityStrategy",
                json!({ "orderPriority": [{ "orderedKey": "" }] }),
            )],
            "orderPriority[0].orderedKey",
        ),
        (
            "scatter key",
            vec![("/spec/updateStrategy/scatterStrategy/1/key", json!(""))],
            "scatterStrategy[1].key",
        ),
        (
            "scatter twice",
            vec![("/spec/updateStrategy/scatterStrategy/1/value", json!("a"))],
            "scatterStrategy[1]: zone=a",
        ),
    ]);
    let not_update = with(
        baseline(),
        &[selector(), ("/spec/updateStrategy/type", json!("NotUpdate"))],
    );
    assert_eq!(
        refusal(&not_update, None, &[]),
        None,
        "only RollingUpdate is checked"
    );
    let zero = with(
        baseline(),
        &[selector(), ("/spec/updateStrategy/partition", json!(0))],
    );
    assert_eq!(
        refusal(&zero, None, &[]),
        None,
        "partition 0 goes with a selector"
    );
}

#[test]
fn rule_11_patch_pod_metadata_keys_are_valid_and_patched_once() {
    let entry = |annotations: Value| json!({ "annotations": annotations, "patchPolicy": "Retain" });
    assert_variants_refused(&[
        (
            "no annotations",
            vec![("/spec/patchPodMetadata/1", json!({ "patchPolicy": "Retain" }))],
            "spec.patchPodMetadata[1].annotations: must not be empty",
        ),
        (
            "bad key",
            vec![("/spec/patchPodMetadata/1", entry(json!({ "a/b/c": "x" })))],
            "spec.patchPodMetadata[1].annotations: \"a/b/c\"",
        ),
        (
            "long key",
            vec![("/spec/patchPodMetadata/1", entry(json!({ "a".repeat(64): "x" })))],
            "spec.patchPodMetadata[1].annotations",
        ),
        (
            "twice",
            vec![(
                "/spec/patchPodMetadata/1",
                entry(json!({ "log.example.com/format": "x" })),
            )],
            "spec.patchPodMetadata[1].annotations: \"log.example.com/format\" is also patched by spec.patchPodMetadata[0]",
        ),
    ]);
}

fn canary(base: &str) -> Value {
    with(
        baseline(),
        &[
            ("/metadata/name", json!("log-canary")),
            (
                "/metadata/annotations",
                json!({ CANARY_ANNOTATION: "true", BASE_ANNOTATION: base }),
            ),
            ("/spec/updateStrategy", json!({ "type": "NotUpdate" })),
        ],
    )
}

#[test]
fn rule_12_a_canary_names_an_existing_plain_base_and_does_not_update() {
    let base = sidecarset(baseline());
    let canary_base = other(
        "mesh",
        &[(
            "/metadata/annotations",
            json!({ CANARY_ANNOTATION: "true", BASE_ANNOTATION: "x" }),
        )],
    );
    assert_eq!(
        refusal(&canary("log"), None, std::slice::from_ref(&base)),
        None,
        "not compared with its base"
    );
    assert_eq!(
        refusal(&canary("log"), Some(&canary("log")), std::slice::from_ref(&base)),
        None
    );
    let rolling = with(
        canary("log"),
        &[("/spec/updateStrategy/type", json!("RollingUpdate"))],
    );
    let others = [base.clone(), other("log2", &[]), canary_base];
    let at = "metadata.annotations[apps.kruise.io/sidecarset-base]";
    assert_refused(&[
        ("no base", with(canary(""), &[]), None, &others, at),
        (
            "itself",
            canary("log-canary"),
            None,
            &others,
            "cannot be its own base",
        ),
        (
            "missing",
            canary("gone"),
            None,
            &others,
            "the base SidecarSet gone does not exist",
        ),
        (
            "base canary",
            canary("mesh"),
            None,
            &others,
            "the base SidecarSet mesh is itself a canary",
        ),
        ("rolling", rolling, None, &others, "spec.updateStrategy.type"),
        (
            "changed",
            canary("log2"),
            Some(&canary("log")),
            &others,
            "may not change (was \"log\")",
        ),
    ]);
}

#[test]
fn rule_13_containers_may_not_be_added_renamed_or_change_upgrade_type() {
    let old = baseline();
    let two = with(
        old.clone(),
        &[(
            "/spec/containers/1",
            json!({ "name": "extra", "image": "busybox" }),
        )],
    );
    assert_eq!(refusal(&old, Some(&two), &[]), None, "removing is allowed");
    let hot = json!({ "upgradeType": "HotUpgrade", "hotUpgradeEmptyImage": "empty:1" });
    let cold = with(
        old.clone(),
        &[(
            "/spec/containers/0/upgradeStrategy",
            json!({ "upgradeType": "ColdUpgrade" }),
        )],
    );
    assert_eq!(refusal(&old, Some(&cold), &[]), None, "absent means ColdUpgrade");
    assert_refused(&[
        (
            "added",
            two.clone(),
            Some(&old),
            &[],
            "spec.containers[1].name: \"extra\" is new",
        ),
        (
            "renamed",
            with(old.clone(), &[("/spec/containers/0/name", json!("fluent-bit"))]),
            Some(&old),
            &[],
            "spec.containers[0].name: \"fluent-bit\" is new",
        ),
        (
            "upgrade type",
            with(old.clone(), &[("/spec/containers/0/upgradeStrategy", hot)]),
            Some(&old),
            &[],
            "spec.containers[0].upgradeStrategy.upgradeType: may not change (ColdUpgrade to HotUpgrade)",
        ),
    ]);
}

#[test]
fn rule_14_conflicts_with_sidecarsets_injecting_into_the_same_pods() {
    let me = baseline();
    let fluent = ("/spec/containers/0/name", json!("fluent"));
    let same_volume = ("/spec/volumes", json!([{ "name": "logs", "emptyDir": {} }]));
    let other_volume = (
        "/spec/volumes",
        json!([{ "name": "logs", "hostPath": { "path": "/var/log" } }]),
    );
    let patch = |policy: &str| {
        (
            "/spec/patchPodMetadata",
            json!([{ "annotations": { "log.example.com/format": "x" }, "patchPolicy": policy }]),
        )
    };
    let accepted = [
        ("no clash", other("audit", &[])),
        (
            "other pods",
            other(
                "audit",
                &[fluent.clone(), ("/spec/selector/matchLabels/app", json!("api"))],
            ),
        ),
        (
            "other namespaces",
            other(
                "audit",
                &[
                    fluent.clone(),
                    (
                        "/spec/namespaceSelector",
                        json!({ "matchLabels": { "env": "dev" } }),
                    ),
                ],
            ),
        ),
        ("same volume", other("audit", &[same_volume])),
        ("retain", other("audit", &[patch("Retain")])),
        ("itself", sidecarset(me.clone())),
        ("its canary", sidecarset(with(canary("log"), &[]))),
    ];
    for (what, set) in accepted {
        assert_eq!(refusal(&me, None, &[set]), None, "{what}");
    }
    let named = |a: &str, b: &str| {
        let one = with(
            me.clone(),
            &[
                ("/spec/namespaceSelector", Value::Null),
                ("/spec/namespace", json!(a)),
            ],
        );
        (
            one,
            other("audit", &[fluent.clone(), ("/spec/namespace", json!(b))]),
        )
    };
    let (shop, bank) = named("shop", "bank");
    assert_eq!(refusal(&shop, None, &[bank]), None, "different namespaces");
    let merge = with(
        me.clone(),
        &[("/spec/patchPodMetadata/0/patchPolicy", json!("MergePatchJson"))],
    );
    assert_eq!(
        refusal(&merge, None, &[other("audit", &[patch("MergePatchJson")])]),
        None
    );

    let (shop, shop_too) = named("shop", "shop");
    let init = (
        "/spec/initContainers",
        json!([{ "name": "init-log", "image": "busybox" }]),
    );
    let clash = "is also injected by SidecarSet audit into the same pods";
    let first = [
        other("zeta", std::slice::from_ref(&fluent)),
        other("audit", std::slice::from_ref(&fluent)),
    ];
    assert_refused(&[
        (
            "container",
            me.clone(),
            None,
            &[other("audit", std::slice::from_ref(&fluent))],
            &format!("spec.containers[0].name \"fluent\" {clash}"),
        ),
        (
            "same namespace",
            shop,
            None,
            &[shop_too],
            "spec.containers[0].name",
        ),
        (
            "init container",
            me.clone(),
            None,
            &[other("audit", &[init])],
            &format!("spec.initContainers[0].name \"init-log\" {clash}"),
        ),
        (
            "volume",
            me.clone(),
            None,
            &[other("audit", &[other_volume])],
            "spec.volumes[0] \"logs\" is defined differently by SidecarSet audit",
        ),
        (
            "overwrite",
            me.clone(),
            None,
            &[
                other("audit", &[patch("Retain")]),
                other("b", &[patch("MergePatchJson")]),
            ],
            "spec.patchPodMetadata[0].annotations[log.example.com/format] is also patched by SidecarSet b",
        ),
        (
            "their overwrite",
            merge,
            None,
            &[other("audit", &[patch("Overwrite")])],
            "spec.patchPodMetadata[0].annotations[log.example.com/format]",
        ),
        ("name order", me.clone(), None, &first, "SidecarSet audit"),
    ]);
}

fn selector(value: Value) -> LabelSelector {
    serde_json::from_value(value).expect("a selector")
}

#[test]
fn disjointness_of_two_selectors() {
    let expression = |key: &str, operator: &str, values: &[&str]| json!({ "matchExpressions": [{ "key": key, "operator": operator, "values": values }] });
    let web = json!({ "matchLabels": { "app": "web" } });
    let cases = [
        (
            "different values",
            web.clone(),
            json!({ "matchLabels": { "app": "api" } }),
            true,
        ),
        ("same label", web.clone(), web.clone(), false),
        (
            "different keys",
            web.clone(),
            json!({ "matchLabels": { "tier": "front" } }),
            false,
        ),
        ("empty selects all", json!({}), web.clone(), false),
        (
            "in includes",
            expression("app", "In", &["web", "api"]),
            json!({ "matchLabels": { "app": "api" } }),
            false,
        ),
        (
            "in excludes",
            expression("app", "In", &["web"]),
            expression("app", "In", &["api", "db"]),
            true,
        ),
        (
            "exists",
            json!({ "matchExpressions": [{ "key": "app", "operator": "Exists" }] }),
            web.clone(),
            false,
        ),
        (
            "not in all",
            web.clone(),
            expression("app", "NotIn", &["web"]),
            true,
        ),
        (
            "not in some",
            expression("app", "In", &["web", "api"]),
            expression("app", "NotIn", &["web"]),
            false,
        ),
        (
            "exists elsewhere",
            web.clone(),
            json!({ "matchExpressions": [{ "key": "tier", "operator": "Exists" }] }),
            true,
        ),
        (
            "does not exist",
            web.clone(),
            json!({ "matchExpressions": [{ "key": "app", "operator": "DoesNotExist" }] }),
            true,
        ),
        (
            "does not exist elsewhere",
            web.clone(),
            json!({ "matchExpressions": [{ "key": "tier", "operator": "DoesNotExist" }] }),
            false,
        ),
    ];
    for (what, a, b, expected) in cases {
        let (a, b) = (selector(a), selector(b));
        assert_eq!(disjoint(&a, &b), expected, "{what}");
        assert_eq!(disjoint(&b, &a), expected, "{what}, swapped");
    }
}

#[test]
fn keys_and_names() {
    for (key, ok) in [
        ("app", true),
        ("app.kubernetes.io/name", true),
        ("A_b.c-d", true),
        ("-app", false),
        ("app-", false),
        ("/app", false),
        ("a/b/c", false),
        ("Example.com/app", false),
        ("", false),
    ] {
        assert_eq!(label_key(key), ok, "{key:?}");
    }
    assert!(annotation_key("Example.com/app"));
    assert!(!label_value("a b"));
    assert!(label_value(""));
}

#[test]
fn no_input_panics() {
    for object in [
        json!(null),
        json!([]),
        json!({ "metadata": { "name": 3 } }),
        json!({ "metadata": { "name": "x" }, "spec": 1 }),
    ] {
        let _ = refusal(&object, Some(&json!("old")), &[]);
    }
}
