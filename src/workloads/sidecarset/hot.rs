//! Hot upgrade: a sidecar whose `upgradeStrategy.upgradeType` is
//! `HotUpgrade` runs as two containers, `NAME-1` and `NAME-2`. One is working; the other
//! idles on `hotUpgradeEmptyImage`. An image change goes into the idle half, which becomes
//! the working one; once it has started and the pod is ready, the old half is reset to the
//! empty image (the flip). Handing traffic and state from one half to the other is the
//! sidecar's own business. Pure.
//!
//! Invariants:
//! - At injection `NAME-1` works (the real image) and `NAME-2` idles (the empty image),
//!   both at the sidecar's position; the pod's annotations record which half works
//!   ([`WORKING_ANNOTATION`], `{NAME: "NAME-1"}`) and each half's version
//!   (`version.sidecarset.kruise.io/NAME-1` "1", `versionalt...` "0"; `NAME-2` "0" and
//!   "1"), which both halves read through the env `SIDECARSET_VERSION` and
//!   `SIDECARSET_VERSION_ALT`.
//! - The half an upgrade writes: the one on the empty image; else the one not ready (or
//!   not started); else the one not working. Nothing is written when the other half
//!   already runs the new image.
//! - A flip resets only an idle half that does not carry the empty image, and zeroes its
//!   version and the working half's alternate version.
use std::collections::BTreeMap;

use k8s_openapi::api::core::v1::{Container, EnvVar, EnvVarSource, ObjectFieldSelector, Pod};
use kube::ResourceExt;

use crate::api::sidecarset::{SidecarContainer, SidecarSet};

/// Which half of each hot-upgrade sidecar works: JSON `{NAME: "NAME-1"}`.
pub const WORKING_ANNOTATION: &str = "kruise.io/sidecarset-working-hotupgrade-container";
pub const VERSION_ENV: &str = "SIDECARSET_VERSION";
pub const VERSION_ALT_ENV: &str = "SIDECARSET_VERSION_ALT";

pub fn version_key(container: &str) -> String {
    format!("version.sidecarset.kruise.io/{container}")
}

pub fn version_alt_key(container: &str) -> String {
    format!("versionalt.sidecarset.kruise.io/{container}")
}

/// Is `sidecar` upgraded hot?
pub fn is_hot(sidecar: &SidecarContainer) -> bool {
    sidecar
        .upgrade_strategy
        .as_ref()
        .and_then(|s| s.upgrade_type.as_deref())
        == Some("HotUpgrade")
}

/// The image an idle half carries.
pub fn empty_image(sidecar: &SidecarContainer) -> &str {
    sidecar
        .upgrade_strategy
        .as_ref()
        .and_then(|s| s.hot_upgrade_empty_image.as_deref())
        .unwrap_or_default()
}

/// `(NAME-1, NAME-2)`.
pub fn halves(name: &str) -> (String, String) {
    (format!("{name}-1"), format!("{name}-2"))
}

/// The working-half map of `pod`.
pub fn working(pod: &Pod) -> BTreeMap<String, String> {
    pod.annotations()
        .get(WORKING_ANNOTATION)
        .and_then(|v| serde_json::from_str(v).ok())
        .unwrap_or_default()
}

/// `(working, idle)` halves of the sidecar `name` in `pod` (`NAME-2` works only when the
/// annotation says so).
pub fn roles(name: &str, pod: &Pod) -> (String, String) {
    let (one, two) = halves(name);
    if working(pod).get(name) == Some(&one) {
        (one, two)
    } else {
        (two, one)
    }
}

/// The names the set's containers have in a pod (both halves of a hot sidecar).
pub fn pod_names(set: &SidecarSet) -> Vec<String> {
    set.spec
        .containers
        .iter()
        .flatten()
        .flat_map(|c| {
            if is_hot(c) {
                let (one, two) = halves(&c.container.name);
                vec![one, two]
            } else {
                vec![c.container.name.clone()]
            }
        })
        .collect()
}

/// The idle halves of the set's hot sidecars in `pod`, with the image each should carry.
pub fn idle_halves(set: &SidecarSet, pod: &Pod) -> Vec<(String, String)> {
    set.spec
        .containers
        .iter()
        .flatten()
        .filter(|c| is_hot(c))
        .map(|c| (roles(&c.container.name, pod).1, empty_image(c).to_string()))
        .collect()
}

fn version_env(name: &str, key: String) -> EnvVar {
    EnvVar {
        name: name.into(),
        value: None,
        value_from: Some(EnvVarSource {
            field_ref: Some(ObjectFieldSelector {
                api_version: None,
                field_path: format!("metadata.annotations['{key}']"),
            }),
            ..EnvVarSource::default()
        }),
    }
}

/// The two containers `built` (the sidecar as injected) becomes, and the annotations that
/// go with them (added to `annotations`; `working` is the pod's working-half map).
pub fn pair(
    built: Container,
    sidecar: &SidecarContainer,
    working: &mut BTreeMap<String, String>,
    annotations: &mut BTreeMap<String, String>,
) -> [Container; 2] {
    let (one, two) = halves(&sidecar.container.name);
    let half = |name: &str, image: Option<String>| {
        let mut c = built.clone();
        c.name = name.into();
        c.image = image;
        let env = c.env.get_or_insert_default();
        env.push(version_env(VERSION_ENV, version_key(name)));
        env.push(version_env(VERSION_ALT_ENV, version_alt_key(name)));
        c
    };
    let first = half(&one, built.image.clone());
    let second = half(&two, Some(empty_image(sidecar).to_string()));
    annotations.insert(version_key(&one), "1".into());
    annotations.insert(version_alt_key(&one), "0".into());
    annotations.insert(version_key(&two), "0".into());
    annotations.insert(version_alt_key(&two), "1".into());
    working.insert(sidecar.container.name.clone(), one);
    annotations.insert(
        WORKING_ANNOTATION.into(),
        serde_json::to_string(working).unwrap_or_default(),
    );
    [first, second]
}

/// The half an upgrade of `sidecar` writes in `pod`, and the other one. `started(name)`:
/// that half is ready and runs its spec image.
pub fn target(sidecar: &SidecarContainer, pod: &Pod, started: impl Fn(&str) -> bool) -> (String, String) {
    let (one, two) = halves(&sidecar.container.name);
    let image = |name: &str| {
        pod.spec
            .iter()
            .flat_map(|s| &s.containers)
            .find(|c| c.name == name)
            .and_then(|c| c.image.clone())
            .unwrap_or_default()
    };
    let empty = empty_image(sidecar);
    if image(&one) == empty {
        return (one, two);
    }
    if image(&two) == empty {
        return (two, one);
    }
    match (started(&one), started(&two)) {
        (true, false) => return (two, one),
        (false, true) => return (one, two),
        _ => {}
    }
    let (working, idle) = roles(&sidecar.container.name, pod);
    (idle, working)
}

/// The annotations an upgrade that wrote `upgraded` (the other half: `other`) of the hot
/// sidecar `name` sets, `version` being the SidecarSet's resourceVersion.
pub fn upgraded_annotations(
    pod: &Pod,
    name: &str,
    upgraded: &str,
    other: &str,
    version: &str,
) -> BTreeMap<String, String> {
    let mut map = working(pod);
    map.insert(name.to_string(), upgraded.to_string());
    let previous = pod
        .annotations()
        .get(&version_key(other))
        .cloned()
        .unwrap_or_default();
    [
        (
            WORKING_ANNOTATION.to_string(),
            serde_json::to_string(&map).unwrap_or_default(),
        ),
        (version_key(upgraded), version.to_string()),
        (version_alt_key(upgraded), previous),
        (version_alt_key(other), version.to_string()),
    ]
    .into()
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn mesh() -> SidecarContainer {
        serde_json::from_value(json!({ "name": "mesh", "image": "envoy:2",
            "upgradeStrategy": { "upgradeType": "HotUpgrade", "hotUpgradeEmptyImage": "empty:1" } }))
        .expect("sidecar")
    }

    fn pod(one: &str, two: &str, working: &str) -> Pod {
        serde_json::from_value(json!({ "metadata": { "name": "p", "annotations": {
                WORKING_ANNOTATION: format!("{{\"mesh\":\"{working}\"}}"),
                "version.sidecarset.kruise.io/mesh-1": "1", "version.sidecarset.kruise.io/mesh-2": "0" } },
            "spec": { "containers": [{ "name": "mesh-1", "image": one }, { "name": "mesh-2", "image": two }] } }))
        .expect("pod")
    }

    #[test]
    fn injection_makes_a_working_and_an_idle_half_with_their_versions() {
        let sidecar = mesh();
        let (mut working, mut annotations) = (BTreeMap::new(), BTreeMap::new());
        let [one, two] = pair(
            sidecar.container.clone(),
            &sidecar,
            &mut working,
            &mut annotations,
        );
        assert_eq!(
            (one.name.as_str(), one.image.as_deref()),
            ("mesh-1", Some("envoy:2"))
        );
        assert_eq!(
            (two.name.as_str(), two.image.as_deref()),
            ("mesh-2", Some("empty:1"))
        );
        let env: Vec<&str> = two.env.iter().flatten().map(|e| e.name.as_str()).collect();
        assert_eq!(env, [VERSION_ENV, VERSION_ALT_ENV]);
        assert_eq!(
            two.env
                .as_ref()
                .and_then(|e| e[0].value_from.as_ref())
                .and_then(|v| v.field_ref.as_ref())
                .map(|f| f.field_path.as_str()),
            Some("metadata.annotations['version.sidecarset.kruise.io/mesh-2']")
        );
        assert_eq!(annotations[WORKING_ANNOTATION], r#"{"mesh":"mesh-1"}"#);
        assert_eq!(annotations["version.sidecarset.kruise.io/mesh-1"], "1");
        assert_eq!(annotations["versionalt.sidecarset.kruise.io/mesh-2"], "1");
    }

    #[test]
    fn the_empty_half_then_the_unstarted_one_then_the_idle_one_is_upgraded() {
        let sidecar = mesh();
        assert_eq!(
            target(&sidecar, &pod("envoy:1", "empty:1", "mesh-1"), |_| true).0,
            "mesh-2"
        );
        assert_eq!(
            target(&sidecar, &pod("empty:1", "envoy:1", "mesh-2"), |_| true).0,
            "mesh-1"
        );
        let both = pod("envoy:1", "envoy:1.5", "mesh-2");
        assert_eq!(
            target(&sidecar, &both, |n| n == "mesh-1").0,
            "mesh-2",
            "the unstarted half"
        );
        assert_eq!(target(&sidecar, &both, |_| true).0, "mesh-1", "the idle half");
        let annotations = upgraded_annotations(
            &pod("envoy:1", "empty:1", "mesh-1"),
            "mesh",
            "mesh-2",
            "mesh-1",
            "77",
        );
        assert_eq!(annotations[WORKING_ANNOTATION], r#"{"mesh":"mesh-2"}"#);
        assert_eq!(annotations["version.sidecarset.kruise.io/mesh-2"], "77");
        assert_eq!(annotations["versionalt.sidecarset.kruise.io/mesh-2"], "1");
        assert_eq!(annotations["versionalt.sidecarset.kruise.io/mesh-1"], "77");
    }
}
