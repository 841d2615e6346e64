//! Table tests for the in-place sidecar upgrade.
use serde_json::{Value, json};

use super::*;

fn now() -> Timestamp {
    "2026-12-04T12:00:00Z".parse().expect("time")
}

fn set(strategy: Value) -> SidecarSet {
    serde_json::from_value(json!({ "apiVersion": "apps.kruise.io/v1alpha1", "kind": "SidecarSet",
        "metadata": { "name": "log", "annotations": { HASH_ANNOTATION: "new", HASH_WITHOUT_IMAGE_ANNOTATION: "bare" } },
        "spec": { "selector": { "matchLabels": { "app": "web" } }, "updateStrategy": strategy,
            "containers": [{ "name": "log", "image": "fluentbit:2" }] } }))
    .expect("set")
}

/// An injected pod at `hash` (sidecar image `image`), ready or not.
fn pod(i: usize, hash: &str, bare: &str, image: &str, ready: bool) -> Pod {
    let entry = |h: &str| {
        format!(
            "{{\"log\":{{\"updateTimestamp\":\"2026-12-04T11:00:00Z\",\"hash\":\"{h}\",\"sidecarSetName\":\"log\",\"sidecarList\":[\"log\"]}}}}"
        )
    };
    serde_json::from_value(json!({
        "metadata": { "name": format!("web-{i}"), "namespace": "shop", "resourceVersion": "5",
            "labels": { "app": "web", "canary": if i == 0 { "yes" } else { "no" } },
            "annotations": { HASH_ANNOTATION: entry(hash), HASH_WITHOUT_IMAGE_ANNOTATION: entry(bare),
                "kruise.io/sidecarset-injected-list": "log" } },
        "spec": { "containers": [{ "name": "log", "image": image }, { "name": "app", "image": "nginx" }] },
        "status": { "phase": "Running",
            "conditions": [{ "type": "Ready", "status": if ready { "True" } else { "False" } }],
            "containerStatuses": [
                { "name": "log", "image": image, "imageID": format!("id-{image}"), "ready": ready, "restartCount": 0 },
                { "name": "app", "image": "nginx", "imageID": "id-nginx", "ready": true, "restartCount": 0 }] } }))
    .expect("pod")
}

/// The patches of `u`, unwrapped from their namespace.
fn patches(u: &Upgrade) -> Vec<(&String, &Value)> {
    u.actions
        .iter()
        .filter_map(|a| match a {
            Action::Elsewhere { namespace, action } if namespace == "shop" => match action.as_ref() {
                Action::PatchPod { name, patch, .. } => Some((name, patch)),
                _ => None,
            },
            _ => None,
        })
        .collect()
}

fn upgraded(u: &Upgrade) -> Vec<String> {
    patches(u).into_iter().map(|(n, _)| n.clone()).collect()
}

fn old(i: usize) -> Pod {
    pod(i, "old", "bare", "fluentbit:1", true)
}

#[test]
fn one_pod_at_a_time_by_default_and_only_the_sidecar_image_is_written() {
    let pods = [old(0), old(1), old(2)];
    let refs: Vec<&Pod> = pods.iter().collect();
    let u = plan_update(&set(json!({})), &refs, now());
    assert_eq!(upgraded(&u), ["web-0"]);
    let (_, patch) = patches(&u)[0];
    assert_eq!(
        patch["spec"]["containers"],
        json!([{ "name": "log", "image": "fluentbit:2" }])
    );
    let state: BTreeMap<String, InPlaceState> = serde_json::from_str(
        patch["metadata"]["annotations"][INPLACE_STATE_ANNOTATION]
            .as_str()
            .expect("state"),
    )
    .expect("json");
    assert_eq!(
        state["log"].last_container_statuses["log"].image_id,
        "id-fluentbit:1"
    );
    let hashes = read_hashes(
        patch["metadata"]["annotations"][HASH_ANNOTATION]
            .as_str()
            .map(str::to_owned)
            .as_ref(),
    )
    .expect("hashes");
    assert_eq!(hashes["log"].hash, "new");
    assert_eq!(patch["metadata"]["resourceVersion"], "5");
}

#[test]
fn max_unavailable_counts_updated_pods_whose_sidecar_has_not_started() {
    // web-0 is updated but its sidecar still runs the old image (the kubelet has not
    // restarted it): it is unavailable, and the budget of 2 leaves room for one more.
    let mut rolling = pod(0, "new", "bare", "fluentbit:2", true);
    rolling
        .status
        .as_mut()
        .expect("status")
        .container_statuses
        .as_mut()
        .expect("statuses")[0]
        .image = "fluentbit:1".into();
    rolling
        .status
        .as_mut()
        .expect("status")
        .container_statuses
        .as_mut()
        .expect("statuses")[0]
        .image_id = "id-fluentbit:1".into();
    rolling.metadata.annotations.as_mut().expect("annotations").insert(
        INPLACE_STATE_ANNOTATION.into(),
        "{\"log\":{\"revision\":\"new\",\"updateTimestamp\":\"2026-12-04T11:59:00Z\",\"lastContainerStatuses\":{\"log\":{\"imageID\":\"id-fluentbit:1\"}}}}".into(),
    );
    let set_ = set(json!({ "maxUnavailable": 2 }));
    assert!(!consistent(&set_, &rolling));
    let pods = [rolling, old(1), old(2), old(3)];
    let refs: Vec<&Pod> = pods.iter().collect();
    assert_eq!(upgraded(&plan_update(&set_, &refs, now())), ["web-1"]);
    // A not-ready pod is taken without using the budget.
    let pods = [old(0), pod(1, "old", "bare", "fluentbit:1", false)];
    let refs: Vec<&Pod> = pods.iter().collect();
    assert_eq!(
        upgraded(&plan_update(&set(json!({})), &refs, now())),
        ["web-1", "web-0"]
    );
}

#[test]
fn partition_selector_paused_not_update_and_not_upgradable_pods() {
    let pods = [old(0), old(1), old(2), old(3)];
    let refs: Vec<&Pod> = pods.iter().collect();
    let held = plan_update(&set(json!({ "partition": 3, "maxUnavailable": 4 })), &refs, now());
    assert_eq!(upgraded(&held), ["web-0"], "partition 3 of 4 leaves three old");
    let canary = plan_update(
        &set(json!({ "selector": { "matchLabels": { "canary": "yes" } }, "maxUnavailable": 4 })),
        &refs,
        now(),
    );
    assert_eq!(upgraded(&canary), ["web-0"]);
    assert!(
        plan_update(&set(json!({ "paused": true })), &refs, now())
            .actions
            .is_empty()
    );
    assert!(
        plan_update(&set(json!({ "type": "NotUpdate" })), &refs, now())
            .actions
            .is_empty()
    );
    let changed = [pod(0, "old", "other-bare", "fluentbit:1", true)];
    let refs: Vec<&Pod> = changed.iter().collect();
    let u = plan_update(&set(json!({})), &refs, now());
    assert!(upgraded(&u).is_empty(), "not upgraded in place");
    assert_eq!(u.not_upgradable, ["web-0"]);
    let conditions: Vec<&Value> = u
        .actions
        .iter()
        .filter_map(|a| match a {
            Action::Elsewhere { action, .. } => match action.as_ref() {
                Action::PatchPodStatus {
                    patch,
                    why: Why::PodCondition,
                    ..
                } => Some(patch),
                _ => None,
            },
            _ => None,
        })
        .collect();
    assert_eq!(conditions.len(), 1, "{:?}", u.actions);
    assert_eq!(
        conditions[0]["status"]["conditions"][0]["type"],
        "SidecarSetUpgradable"
    );
}

#[test]
fn percentages_too_large_to_scale_hold_every_pod_or_take_them_all() {
    let pods = [old(0), old(1), old(2)];
    let refs: Vec<&Pod> = pods.iter().collect();
    let huge = "9223372036854775807%";
    let held = plan_update(&set(json!({ "partition": huge })), &refs, now());
    assert!(upgraded(&held).is_empty(), "{:?}", held.actions);
    let all = plan_update(&set(json!({ "maxUnavailable": huge })), &refs, now());
    assert_eq!(upgraded(&all), ["web-0", "web-1", "web-2"]);
}

/// The order of the upgrade: the priority strategy first among equally ready pods, then
/// the scatter strategy, a `*` value standing for every value.
#[test]
fn priority_then_scatter_decide_which_pods_go_first() {
    let labelled = |i: usize, zone: &str| {
        let mut p = old(i);
        p.metadata
            .labels
            .get_or_insert_default()
            .insert("zone".into(), zone.into());
        p
    };
    let pods = [
        labelled(0, "a"),
        labelled(1, "a"),
        labelled(2, "b"),
        labelled(3, "b"),
    ];
    let refs: Vec<&Pod> = pods.iter().collect();
    // Weight: the pod labelled canary=yes (web-0) goes last.
    let weighted = set(
        json!({ "maxUnavailable": 4, "priorityStrategy": { "weightPriority": [
        { "weight": 50, "matchSelector": { "matchLabels": { "canary": "no" } } }] } }),
    );
    let order = upgraded(&plan_update(&weighted, &refs, now()));
    assert_eq!(order.last().map(String::as_str), Some("web-0"), "{order:?}");
    // Scatter by zone: the two zones alternate instead of going back to back.
    let scattered = set(json!({ "maxUnavailable": 4, "scatterStrategy": [{ "key": "zone", "value": "*" }] }));
    let order = upgraded(&plan_update(&scattered, &refs, now()));
    assert_eq!(order.len(), 4);
    let zones: Vec<&str> = order
        .iter()
        .map(|n| if n == "web-0" || n == "web-1" { "a" } else { "b" })
        .collect();
    assert!(zones.windows(2).any(|w| w[0] != w[1]), "{order:?}");
    assert_ne!(zones[0], zones[1], "scattered: {order:?}");
}

/// A hot-upgrade pod: `mesh-1` works on `envoy` image `one`, `mesh-2` idles on `two`.
fn hot_pod(one: &str, two: &str, working: &str, hash: &str) -> Pod {
    let entry = |h: &str| {
        format!(
            "{{\"mesh\":{{\"updateTimestamp\":\"2026-12-04T11:00:00Z\",\"hash\":\"{h}\",\"sidecarSetName\":\"mesh\",\"sidecarList\":[\"mesh\"]}}}}"
        )
    };
    let status = |name: &str, image: &str| json!({ "name": name, "image": image, "imageID": format!("id-{image}"), "ready": true, "restartCount": 0 });
    serde_json::from_value(json!({
        "metadata": { "name": "web-0", "namespace": "shop", "resourceVersion": "5", "labels": { "app": "web" },
            "annotations": { HASH_ANNOTATION: entry(hash), HASH_WITHOUT_IMAGE_ANNOTATION: entry("bare"),
                "kruise.io/sidecarset-injected-list": "mesh",
                hot::WORKING_ANNOTATION: format!("{{\"mesh\":\"{working}\"}}"),
                "version.sidecarset.kruise.io/mesh-1": "1", "version.sidecarset.kruise.io/mesh-2": "0" } },
        "spec": { "containers": [{ "name": "mesh-1", "image": one }, { "name": "mesh-2", "image": two },
            { "name": "app", "image": "nginx" }] },
        "status": { "phase": "Running", "conditions": [{ "type": "Ready", "status": "True" }],
            "containerStatuses": [status("mesh-1", one), status("mesh-2", two), status("app", "nginx")] } }))
    .expect("pod")
}

#[test]
fn a_hot_upgrade_writes_the_idle_half_then_flips_the_old_one_to_the_empty_image() {
    let mesh: SidecarSet = serde_json::from_value(
        json!({ "apiVersion": "apps.kruise.io/v1alpha1", "kind": "SidecarSet",
        "metadata": { "name": "mesh", "resourceVersion": "77",
            "annotations": { HASH_ANNOTATION: "new", HASH_WITHOUT_IMAGE_ANNOTATION: "bare" } },
        "spec": { "selector": { "matchLabels": { "app": "web" } },
            "containers": [{ "name": "mesh", "image": "envoy:2",
                "upgradeStrategy": { "upgradeType": "HotUpgrade", "hotUpgradeEmptyImage": "empty:1" } }] } }),
    )
    .expect("set");
    let before = hot_pod("envoy:1", "empty:1", "mesh-1", "old");
    let u = plan_update(&mesh, &[&before], now());
    let (_, patch) = patches(&u)[0];
    assert_eq!(
        patch["spec"]["containers"],
        json!([{ "name": "mesh-2", "image": "envoy:2" }])
    );
    let annotations = &patch["metadata"]["annotations"];
    assert_eq!(annotations[hot::WORKING_ANNOTATION], r#"{"mesh":"mesh-2"}"#);
    assert_eq!(annotations["version.sidecarset.kruise.io/mesh-2"], "77");

    // Upgraded, started and ready: the old half goes back to the empty image, alone.
    let upgraded = hot_pod("envoy:1", "envoy:2", "mesh-2", "new");
    let u = plan_update(&mesh, &[&upgraded], now());
    let (_, patch) = patches(&u)[0];
    assert_eq!(
        patch["spec"]["containers"],
        json!([{ "name": "mesh-1", "image": "empty:1" }])
    );
    assert_eq!(
        patch["metadata"]["annotations"]["version.sidecarset.kruise.io/mesh-1"],
        "0"
    );
    assert!(!available(&mesh, &upgraded), "not ready until flipped");
    let flipped = hot_pod("empty:1", "envoy:2", "mesh-2", "new");
    assert!(plan_update(&mesh, &[&flipped], now()).actions.is_empty());
    assert!(available(&mesh, &flipped));
}

proptest::proptest! {
    /// Whatever the pods' states, an upgrade round never takes a ready pod while the
    /// updated-but-unavailable pods already fill `maxUnavailable` (so at most
    /// `max(budget, already unavailable)` are down after it), and leaves at least
    /// `partition` of the pods waiting for the new sidecars untouched.
    #[test]
    fn a_round_keeps_to_max_unavailable_and_the_partition(
        states in proptest::collection::vec((proptest::bool::ANY, proptest::bool::ANY), 1..12),
        budget in 1i64..4,
        partition in 0i64..6,
    ) {
        // (updated, ready) per pod; an updated pod runs the new image.
        let pods: Vec<Pod> = states
            .iter()
            .enumerate()
            .map(|(i, (updated, ready))| {
                if *updated {
                    pod(i, "new", "bare", "fluentbit:2", *ready)
                } else {
                    pod(i, "old", "bare", "fluentbit:1", *ready)
                }
            })
            .collect();
        let refs: Vec<&Pod> = pods.iter().collect();
        let set = set(json!({ "maxUnavailable": budget, "partition": partition }));
        let taken = upgraded(&plan_update(&set, &refs, now()));
        let down_before = states.iter().filter(|(u, r)| *u && !*r).count() as i64;
        let ready_taken = taken
            .iter()
            .filter(|name| {
                let i: usize = name.trim_start_matches("web-").parse().expect("index");
                states[i].1
            })
            .count() as i64;
        proptest::prop_assert!(
            down_before + ready_taken <= budget.max(down_before),
            "down {down_before} + ready taken {ready_taken} over budget {budget}: {taken:?}"
        );
        let waiting = states.iter().filter(|(u, _)| !*u).count() as i64;
        let total = states.len() as i64;
        proptest::prop_assert!(
            waiting - taken.len() as i64 >= partition.min(total).min(waiting),
            "partition {partition}: {waiting} waiting, took {taken:?}"
        );
    }
}

/// An upgrade applies the set's `patchPodMetadata` again: an `Overwrite` key that changed
/// is written with the images, a `Retain` one already there is left alone.
#[test]
fn an_upgrade_applies_patch_pod_metadata_again() {
    let mut with_patches = set(json!({}));
    with_patches.spec.patch_pod_metadata = serde_json::from_value(json!([
        { "annotations": { "mesh/version": "2" }, "patchPolicy": "Overwrite" },
        { "annotations": { "mesh/owner": "platform" }, "patchPolicy": "Retain" },
    ]))
    .ok();
    let mut before = old(0);
    before.annotations_mut().insert("mesh/version".into(), "1".into());
    before
        .annotations_mut()
        .insert("mesh/owner".into(), "team".into());
    let u = plan_update(&with_patches, &[&before], now());
    let (_, patch) = patches(&u)[0];
    let annotations = &patch["metadata"]["annotations"];
    assert_eq!(annotations["mesh/version"], "2");
    assert!(annotations.get("mesh/owner").is_none(), "{annotations}");
}

proptest::proptest! {
    /// `diff` previews what an upgrade takes: for random pods (old or updated, ready or not,
    /// some not upgradable), a partition and a budget, the pods a round upgrades are the
    /// front of the candidates' order, in that order, and none the partition holds; the
    /// pods a cache hands over in any order are taken in the same order.
    #[test]
    fn the_upgrade_takes_the_front_of_its_candidates_in_any_cache_order(
        states in proptest::collection::vec((0u8..3, proptest::bool::weighted(0.8)), 1..7),
        partition in 0i32..4,
        budget in 1i32..4,
        rotate in 0usize..7,
    ) {
        let pods: Vec<Pod> = states
            .iter()
            .enumerate()
            .map(|(i, (state, ready))| match state {
                0 => pod(i, "old", "bare", "fluentbit:1", *ready),
                1 => pod(i, "new", "bare", "fluentbit:2", *ready),
                _ => pod(i, "old", "other", "fluentbit:1", *ready),
            })
            .collect();
        let set = set(json!({ "partition": partition, "maxUnavailable": budget }));
        let mut refs: Vec<&Pod> = pods.iter().collect();
        let candidates = candidates(&set, &refs, now()).unwrap_or_default();
        let order: Vec<String> = candidates.order.iter().map(|p| p.name_any()).collect();
        let upgraded = upgraded(&plan_update(&set, &refs, now()));
        proptest::prop_assert!(order.starts_with(&upgraded), "{upgraded:?} not the front of {order:?}");
        let held: Vec<String> = candidates.held.iter().map(|p| p.name_any()).collect();
        proptest::prop_assert!(upgraded.iter().all(|p| !held.contains(p)));
        let n = refs.len();
        refs.rotate_left(rotate % n);
        let again: Vec<String> = candidates_order(&set, &refs);
        proptest::prop_assert_eq!(again, order);
    }
}

fn candidates_order(set: &SidecarSet, refs: &[&Pod]) -> Vec<String> {
    candidates(set, refs, now())
        .unwrap_or_default()
        .order
        .iter()
        .map(|p| p.name_any())
        .collect()
}
