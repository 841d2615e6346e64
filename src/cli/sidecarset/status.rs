//! `rollout status sidecarset/NAME`: a SidecarSet's rollout is the in-place upgrade of the
//! sidecars it injected, judged from its own status counters ([`crate::cli::status::by_object`] follows
//! the object): complete once the generation is observed and the pods its partition lets
//! through are updated and ready.
//!
//! Invariants: the judgement is the pure [`judge`]; `type: NotUpdate` is complete at once
//! (injected pods are never upgraded, there is nothing to wait for) and says so; `paused`
//! is the paused phase; matching pods created without the sidecars (the webhook was down)
//! are named in the line, since no rollout reaches them.
use serde_json::{Value, json};

use crate::api::KruiseKind;
use crate::cli::status::assess::Phase;
use crate::cli::target::Kind;

fn count(v: &Value) -> i64 {
    v.as_i64().unwrap_or(0)
}

/// The phase and the line of the SidecarSet `set` (as JSON). Pure.
pub fn judge(name: &str, set: &Value) -> (Phase, String) {
    let id = format!("sidecarset/{name}");
    if let Some(problem) = Kind::Kruise(KruiseKind::SidecarSet).spec_refusal(set, &id) {
        return (
            Phase::Failed,
            format!("{problem}; nothing is rolled out until it is fixed"),
        );
    }
    let status = &set["status"];
    if count(&status["observedGeneration"]) < count(&set["metadata"]["generation"]) {
        return (
            Phase::Progressing,
            format!("Waiting for {id}: spec update to be observed..."),
        );
    }
    let numbers = Kind::Kruise(KruiseKind::SidecarSet).numbers(set);
    let (matched, updated) = (numbers.replicas, numbers.updated);
    let updated_ready = numbers.updated_ready.unwrap_or(0);
    let expected = Kind::Kruise(KruiseKind::SidecarSet).expected_updated(set);
    let missing = match count(&status["notInjectedPods"]) {
        0 => String::new(),
        n => format!(
            "; {n} matching pods lack its sidecars (created while the webhook was down: kubectl kruise get --tree {id})"
        ),
    };
    let strategy = &set["spec"]["updateStrategy"];
    if strategy["type"] == "NotUpdate" {
        let line = format!(
            "{id} does not upgrade injected pods (updateStrategy NotUpdate): {updated}/{matched} have its latest sidecars{missing}"
        );
        return (Phase::Complete, line);
    }
    let held = match matched - expected {
        n if n > 0 && strategy["selector"].is_object() => format!(", the update selector holds {n}"),
        n if n > 0 => format!(", partition holds {n}"),
        _ => String::new(),
    };
    if updated >= expected && updated_ready >= expected {
        let ready = count(&status["readyPods"]);
        let line = format!("{id} successfully rolled out ({ready}/{matched} ready{held}){missing}");
        return (Phase::Complete, line);
    }
    if strategy["paused"] == true {
        let line = format!(
            "{id} paused at {updated}/{matched} updated; resume with: kubectl kruise rollout resume {id}{missing}"
        );
        return (Phase::Paused, line);
    }
    let line = format!(
        "Waiting for {id}: {updated}/{matched} updated, {updated_ready}/{expected} updated ready{held}...{missing}"
    );
    (Phase::Progressing, line)
}

/// What `rollout status sidecarset/NAME` judges and prints.
pub const SIDECARSET: crate::cli::status::by_object::Judged = crate::cli::status::by_object::Judged {
    word: "sidecarset",
    judge,
    details: |set| {
        let s = &set["status"];
        json!({ "matchedPods": s["matchedPods"], "updatedPods": s["updatedPods"],
            "readyPods": s["readyPods"], "updatedReadyPods": s["updatedReadyPods"],
            "notInjectedPods": s["notInjectedPods"] })
    },
};

#[cfg(test)]
mod tests {
    use super::*;

    fn set(strategy: Value, status: Value) -> Value {
        json!({ "apiVersion": "apps.kruise.io/v1alpha1", "kind": "SidecarSet",
            "metadata": { "name": "log", "generation": 2 },
            "spec": { "selector": { "matchLabels": { "app": "web" } },
                "containers": [{ "name": "log", "image": "busybox" }],
                "updateStrategy": strategy },
            "status": status })
    }

    fn status(updated: i64, updated_ready: i64) -> Value {
        json!({ "observedGeneration": 2, "matchedPods": 4, "updatedPods": updated,
            "readyPods": 4, "updatedReadyPods": updated_ready })
    }

    #[test]
    fn complete_once_the_pods_the_partition_lets_through_are_updated_and_ready() {
        let (phase, line) = judge("log", &set(json!({}), status(2, 2)));
        assert_eq!(phase, Phase::Progressing);
        assert_eq!(
            line,
            "Waiting for sidecarset/log: 2/4 updated, 2/4 updated ready..."
        );
        let (phase, line) = judge("log", &set(json!({ "partition": 2 }), status(2, 2)));
        assert_eq!(phase, Phase::Complete);
        assert_eq!(
            line,
            "sidecarset/log successfully rolled out (4/4 ready, partition holds 2)"
        );
        let (phase, _) = judge("log", &set(json!({ "partition": 2 }), status(2, 1)));
        assert_eq!(phase, Phase::Progressing, "an updated pod not ready yet");
    }

    #[test]
    fn an_unobserved_spec_paused_not_update_and_missing_injections_are_said() {
        let mut unobserved = set(json!({}), status(4, 4));
        unobserved["status"]["observedGeneration"] = json!(1);
        assert_eq!(judge("log", &unobserved).0, Phase::Progressing);
        let (phase, line) = judge("log", &set(json!({ "paused": true }), status(1, 1)));
        assert_eq!(phase, Phase::Paused);
        assert!(line.contains("paused at 1/4 updated"), "{line}");
        let (phase, line) = judge("log", &set(json!({ "type": "NotUpdate" }), status(1, 1)));
        assert_eq!(phase, Phase::Complete);
        assert!(line.contains("NotUpdate"), "{line}");
        let mut missing = set(json!({}), status(4, 4));
        missing["status"]["notInjectedPods"] = json!(2);
        let (_, line) = judge("log", &missing);
        assert!(line.contains("2 matching pods lack its sidecars"), "{line}");
    }
}
