//! The `SidecarSetUpgradable` pod condition, written by the upgrade: whether each
//! SidecarSet that injected a pod can still upgrade it in place. Its message is a JSON map
//! `{sidecarSetName: bool}` shared by every SidecarSet of the pod; the condition is True
//! (reason `AllSidecarsetUpgradable`) only when every value is true, else False (reason
//! `UpdateImmutableField`). Pure.
//!
//! Invariants: a patch is planned only when this set's entry changes (a pod that stays
//! not upgradable costs no write per round, a pod upgraded again costs none either); as
//! upstream, an upgraded pod records this set as upgradable, so its first upgrade writes
//! the condition True (OpenKruise's e2e reads it); the other SidecarSets' entries are kept.
use std::collections::BTreeMap;

use k8s_openapi::api::core::v1::Pod;
use k8s_openapi::jiff::Timestamp;
use serde_json::{Value, json};

pub const CONDITION: &str = "SidecarSetUpgradable";

fn entries(pod: &Pod) -> Option<BTreeMap<String, bool>> {
    let condition = pod
        .status
        .as_ref()?
        .conditions
        .as_ref()?
        .iter()
        .find(|c| c.type_ == CONDITION)?;
    Some(
        condition
            .message
            .as_deref()
            .and_then(|m| serde_json::from_str(m).ok())
            .unwrap_or_default(),
    )
}

/// The status patch that records `upgradable` for `set` on `pod`, if it changes anything.
pub fn patch(set: &str, pod: &Pod, upgradable: bool, now: Timestamp) -> Option<Value> {
    let mut map = entries(pod).unwrap_or_default();
    if map.get(set) == Some(&upgradable) {
        return None;
    }
    map.insert(set.to_string(), upgradable);
    let all = map.values().all(|v| *v);
    let (status, reason) = if all {
        ("True", "AllSidecarsetUpgradable")
    } else {
        ("False", "UpdateImmutableField")
    };
    let message = serde_json::to_string(&map).unwrap_or_default();
    let time = crate::runtime::inplace::step::rfc3339(now);
    Some(json!({ "status": { "conditions": [{
        "type": CONDITION, "status": status, "reason": reason, "message": message,
        "lastTransitionTime": time,
    }] } }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pod(message: Option<&str>) -> Pod {
        let conditions = match message {
            Some(m) => json!([{ "type": CONDITION, "status": "False", "message": m }]),
            None => json!([]),
        };
        serde_json::from_value(json!({ "metadata": { "name": "p" },
            "status": { "conditions": conditions } }))
        .expect("pod")
    }

    fn now() -> Timestamp {
        "2026-12-04T12:00:00Z".parse().expect("time")
    }

    #[test]
    fn not_upgradable_is_recorded_once_and_an_upgrade_records_upgradable_once() {
        let fresh = pod(None);
        let written = patch("log", &fresh, false, now()).expect("recorded");
        let condition = &written["status"]["conditions"][0];
        assert_eq!(condition["status"], "False");
        assert_eq!(condition["reason"], "UpdateImmutableField");
        assert_eq!(condition["message"], r#"{"log":false}"#);
        assert_eq!(patch("log", &pod(Some(r#"{"log":false}"#)), false, now()), None);
        let first = patch("log", &fresh, true, now()).expect("a first upgrade records it");
        assert_eq!(first["status"]["conditions"][0]["status"], "True");
        assert_eq!(first["status"]["conditions"][0]["message"], r#"{"log":true}"#);
        assert_eq!(
            patch("log", &pod(Some(r#"{"log":true}"#)), true, now()),
            None,
            "an upgrade of a pod recorded upgradable writes nothing"
        );
        let cleared = patch("log", &pod(Some(r#"{"log":false,"mesh":true}"#)), true, now()).expect("cleared");
        let condition = &cleared["status"]["conditions"][0];
        assert_eq!(condition["status"], "True");
        assert_eq!(condition["reason"], "AllSidecarsetUpgradable");
        assert_eq!(condition["message"], r#"{"log":true,"mesh":true}"#);
        let other_false =
            patch("log", &pod(Some(r#"{"log":false,"mesh":false}"#)), true, now()).expect("kept");
        assert_eq!(other_false["status"]["conditions"][0]["status"], "False");
    }
}
