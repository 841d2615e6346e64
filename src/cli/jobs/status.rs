//! `rollout status bcj/NAME`: a BroadcastJob has no rollout; its status is "until complete
//! or failed", judged from the job object alone ([`crate::cli::status::by_object`] follows it).
//!
//! Invariant: the judgement is the pure [`judge`].
use serde_json::{Value, json};

use crate::cli::status::assess::Phase;

/// The phase and the line of a BroadcastJob (as JSON). Pure.
pub fn judge(name: &str, job: &Value) -> (Phase, String) {
    let s = &job["status"];
    let n = |f: &str| s[f].as_i64().unwrap_or(0);
    let counts = format!(
        "{}/{} succeeded, {} active, {} failed",
        n("succeeded"),
        n("desired"),
        n("active"),
        n("failed")
    );
    let last = s["conditions"].as_array().and_then(|c| c.last());
    let message = last.and_then(|c| c["message"].as_str()).unwrap_or_default();
    match s["phase"].as_str().unwrap_or_default() {
        "completed" => (Phase::Complete, format!("bcj/{name} completed: {counts}")),
        "failed" => (Phase::Failed, format!("bcj/{name} failed: {message} ({counts})")),
        "paused" => (Phase::Paused, format!("bcj/{name} paused: {counts}")),
        _ => (Phase::Progressing, format!("bcj/{name} running: {counts}")),
    }
}

/// What `rollout status bcj/NAME` judges and prints.
pub const BROADCAST_JOB: crate::cli::status::by_object::Judged = crate::cli::status::by_object::Judged {
    word: "bcj",
    judge,
    details: |job| {
        let s = &job["status"];
        json!({ "phase": s["phase"], "desired": s["desired"], "active": s["active"],
            "succeeded": s["succeeded"], "failed": s["failed"] })
    },
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn phases_map_to_rollout_phases_with_a_line_that_counts_the_nodes() {
        let job = |phase: &str| {
            json!({ "status": { "phase": phase, "desired": 3, "active": 1, "succeeded": 2, "failed": 0,
                "conditions": [{ "type": "Failed", "status": "True", "message": "failed pod is found" }] } })
        };
        assert_eq!(
            judge("w", &job("running")),
            (
                Phase::Progressing,
                "bcj/w running: 2/3 succeeded, 1 active, 0 failed".into()
            )
        );
        assert_eq!(judge("w", &job("completed")).0, Phase::Complete);
        assert_eq!(judge("w", &job("paused")).0, Phase::Paused);
        let (phase, line) = judge("w", &job("failed"));
        assert_eq!(phase, Phase::Failed);
        assert!(line.contains("failed pod is found"), "{line}");
        assert_eq!(judge("w", &json!({})).0, Phase::Progressing, "no status yet");
    }
}
