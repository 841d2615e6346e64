//! `rollout status ud/NAME`: a UnitedDeployment rolls out through its subset workloads; it
//! is judged from its own status ([`crate::cli::status::by_object`] follows the object), which sums
//! every subset: complete once the generation is observed, every replica exists and is
//! ready, the pods the partitions let through are updated and ready, and every subset has
//! its allocation ready with no pod reserved (in reservation mode, substitutes in other
//! subsets keep the total up while a subset is short). Each line names every subset with
//! its ready pods, its allocation, its partition and its reserved pods.
//!
//! Invariants: the judgement is the pure [`judge`]; a spec the controller refuses fails
//! with its message; partitions hold pods only at an older revision (a subset whose pods
//! are all updated holds none).
use serde_json::{Value, json};

use crate::api::KruiseKind;
use crate::cli::status::assess::Phase;
use crate::cli::target::Kind;

fn count(v: &Value) -> i64 {
    v.as_i64().unwrap_or(0)
}

/// `name ready/replicas[, partition P]` for every subset the status lists.
fn subsets(status: &Value) -> String {
    let lines: Vec<String> = status["subsetStatuses"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|s| {
            let name = s["name"].as_str().unwrap_or("?");
            let partition = match count(&s["partition"]) {
                0 => String::new(),
                p => format!(" (partition {p})"),
            };
            let reserved = match count(&s["reservedPods"]) {
                0 => String::new(),
                r => format!(" ({r} reserved)"),
            };
            format!(
                "{name} {}/{}{partition}{reserved}",
                count(&s["readyReplicas"]),
                count(&s["replicas"])
            )
        })
        .collect();
    if lines.is_empty() {
        String::new()
    } else {
        format!(" [{}]", lines.join(", "))
    }
}

/// The phase and the line of the UnitedDeployment `ud` (as JSON). Pure.
pub fn judge(name: &str, ud: &Value) -> (Phase, String) {
    let id = format!("ud/{name}");
    if let Some(problem) = Kind::Kruise(KruiseKind::UnitedDeployment).spec_refusal(ud, &id) {
        return (
            Phase::Failed,
            format!("{problem}; nothing is rolled out until it is fixed"),
        );
    }
    let status = &ud["status"];
    if count(&status["observedGeneration"]) < count(&ud["metadata"]["generation"]) {
        return (
            Phase::Progressing,
            format!("Waiting for {id}: spec update to be observed..."),
        );
    }
    let numbers = Kind::Kruise(KruiseKind::UnitedDeployment).numbers(ud);
    let (replicas, current, ready) = (numbers.replicas, numbers.current, numbers.ready);
    let updated = numbers.updated;
    let updated_ready = numbers.updated_ready.unwrap_or(0);
    let expected = Kind::Kruise(KruiseKind::UnitedDeployment).expected_updated(ud);
    let subsets = subsets(status);
    let held = match replicas - expected {
        n if n > 0 => format!(", partitions hold {n}"),
        _ => String::new(),
    };
    // Every subset holds its allocation ready: substitutes elsewhere (reservation mode)
    // keep the total up, but the spread the spec asks for is not there yet.
    let subsets_short = status["subsetStatuses"]
        .as_array()
        .into_iter()
        .flatten()
        .any(|s| count(&s["readyReplicas"]) < count(&s["replicas"]) || count(&s["reservedPods"]) > 0);
    if current == replicas
        && ready >= replicas
        && updated >= expected
        && updated_ready >= expected
        && !subsets_short
    {
        return (
            Phase::Complete,
            format!("{id} successfully rolled out ({ready}/{replicas} ready{held}){subsets}"),
        );
    }
    let line = format!(
        "Waiting for {id}: {updated}/{replicas} updated, {updated_ready}/{expected} updated ready, {ready}/{replicas} ready{held}...{subsets}"
    );
    (Phase::Progressing, line)
}

/// What `rollout status ud/NAME` judges and prints.
pub const UNITED_DEPLOYMENT: crate::cli::status::by_object::Judged = crate::cli::status::by_object::Judged {
    word: "ud",
    judge,
    details: |ud| {
        let s = &ud["status"];
        json!({ "replicas": s["replicas"], "readyReplicas": s["readyReplicas"],
            "updatedReplicas": s["updatedReplicas"], "updatedReadyReplicas": s["updatedReadyReplicas"],
            "subsetStatuses": s["subsetStatuses"] })
    },
};

#[cfg(test)]
mod tests {
    use super::*;

    fn ud(partitions: Value, status: Value) -> Value {
        json!({ "apiVersion": "apps.kruise.io/v1alpha1", "kind": "UnitedDeployment",
            "metadata": { "name": "web", "generation": 2 },
            "spec": { "replicas": 4, "selector": { "matchLabels": { "app": "web" } },
                "template": { "cloneSetTemplate": { "metadata": { "labels": { "app": "web" } },
                    "spec": { "selector": { "matchLabels": { "app": "web" } },
                        "template": { "metadata": { "labels": { "app": "web" } },
                            "spec": { "containers": [{ "name": "app", "image": "nginx" }] } } } } },
                "topology": { "subsets": [{ "name": "a" }, { "name": "b" }] },
                "updateStrategy": { "type": "Manual", "manualUpdate": { "partitions": partitions } } },
            "status": status })
    }

    fn status(updated: i64, updated_ready: i64, partitions: Value) -> Value {
        json!({ "observedGeneration": 2, "replicas": 4, "readyReplicas": 4,
            "updatedReplicas": updated, "updatedReadyReplicas": updated_ready,
            "updateStatus": { "currentPartitions": partitions },
            "subsetStatuses": [
                { "name": "a", "replicas": 2, "readyReplicas": 2, "partition": partitions["a"] },
                { "name": "b", "replicas": 2, "readyReplicas": 2 }] })
    }

    #[test]
    fn complete_once_the_pods_the_partitions_let_through_are_updated_and_ready() {
        let (phase, line) = judge("web", &ud(json!({}), status(2, 2, json!({}))));
        assert_eq!(phase, Phase::Progressing);
        assert_eq!(
            line,
            "Waiting for ud/web: 2/4 updated, 2/4 updated ready, 4/4 ready... [a 2/2, b 2/2]"
        );
        let held = json!({ "a": 2, "b": 0 });
        let (phase, line) = judge("web", &ud(held.clone(), status(2, 2, held)));
        assert_eq!(phase, Phase::Complete);
        assert_eq!(
            line,
            "ud/web successfully rolled out (4/4 ready, partitions hold 2) [a 2/2 (partition 2), b 2/2]"
        );
    }

    #[test]
    fn reserved_pods_and_substitutes_elsewhere_are_not_a_finished_rollout() {
        // Reservation mode: two subsets' pods are unschedulable and reserved; substitutes in
        // `a` keep six pods ready.
        let mut reserved = ud(json!({}), status(6, 6, json!({})));
        reserved["status"] = json!({ "observedGeneration": 2, "replicas": 6, "readyReplicas": 6,
            "updatedReplicas": 6, "updatedReadyReplicas": 6, "reservedPods": 4,
            "subsetStatuses": [
                { "name": "a", "replicas": 6, "readyReplicas": 6 },
                { "name": "b", "replicas": 2, "readyReplicas": 0, "reservedPods": 2 },
                { "name": "c", "replicas": 2, "readyReplicas": 0, "reservedPods": 2 }] });
        let (phase, line) = judge("web", &reserved);
        assert_eq!(phase, Phase::Progressing, "{line}");
        assert!(
            line.ends_with("[a 6/6, b 0/2 (2 reserved), c 0/2 (2 reserved)]"),
            "{line}"
        );
    }

    #[test]
    fn an_unobserved_or_refused_spec_is_said() {
        let mut unobserved = ud(json!({}), status(4, 4, json!({})));
        unobserved["status"]["observedGeneration"] = json!(1);
        assert_eq!(judge("web", &unobserved).0, Phase::Progressing);
        let mut refused = ud(json!({}), status(4, 4, json!({})));
        refused["spec"]["topology"]["subsets"][1]["name"] = json!("a");
        let (phase, line) = judge("web", &refused);
        assert_eq!(phase, Phase::Failed);
        assert!(line.contains("spec.topology.subsets[1].name"), "{line}");
    }
}
