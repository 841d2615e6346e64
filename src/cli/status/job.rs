//! `rollout status bcj/NAME`: a BroadcastJob has no rollout; its status is "until complete
//! or failed". The job object is watched (not polled) and one line is printed per change;
//! the exit codes are `rollout status`'s ([`super::decide`]): 0 completed, 3 failed, 1 gone,
//! 4 `--timeout`, 5 paused with `--fail-on-pause`.
//!
//! Invariant: the judgement is the pure [`judge`]; the same phase never prints twice.
use std::time::{Duration, Instant};

use futures::StreamExt;
use kube::api::{Api, DynamicObject};
use kube::runtime::watcher;
use serde_json::{Value, json};

use super::assess::{Counts, Phase, Report};
use super::{ExitWith, StatusArgs, StatusOutput, decide};
use crate::cli::target::Target;

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

fn report(name: &str, phase: Phase, line: String) -> Report {
    Report {
        kind: "bcj",
        name: name.to_string(),
        phase,
        line,
        revision: String::new(),
        revision_number: None,
        counts: Counts::default(),
        pods: Vec::new(),
    }
}

fn print(args: &StatusArgs, name: &str, job: &Value, line: &str) {
    match args.output {
        Some(StatusOutput::Jsonl | StatusOutput::Json) => {
            let s = &job["status"];
            println!(
                "{}",
                json!({ "kind": "bcj", "name": name, "phase": s["phase"], "line": line,
                    "desired": s["desired"], "active": s["active"], "succeeded": s["succeeded"],
                    "failed": s["failed"] })
            );
        }
        Some(StatusOutput::Yaml) | None => println!("{line}"),
    }
}

/// Follows the BroadcastJob `t` until [`decide`] stops.
pub async fn follow(
    args: &StatusArgs,
    t: &Target,
    client: &kube::Client,
    namespace: &str,
) -> anyhow::Result<()> {
    let api: Api<DynamicObject> = t.api(client, namespace);
    let id = format!("bcj/{}", t.name);
    api.get(&t.name).await?;
    let config = watcher::Config::default().fields(&format!("metadata.name={}", t.name));
    let mut events = std::pin::pin!(watcher(api.clone(), config));
    let started = Instant::now();
    let mut shown = String::new();
    loop {
        let left = if args.timeout.is_zero() {
            Duration::from_secs(3600)
        } else {
            args.timeout.saturating_sub(started.elapsed())
        };
        let event = match tokio::time::timeout(left, events.next()).await {
            Ok(Some(event)) => event,
            Ok(None) => continue,
            Err(_) if args.timeout.is_zero() => continue,
            Err(_) => {
                return Err(ExitWith {
                    code: 4,
                    message: format!("timed out after {:?} waiting for {id}", args.timeout),
                }
                .into());
            }
        };
        let job = match event {
            Ok(watcher::Event::Apply(o) | watcher::Event::InitApply(o)) => serde_json::to_value(o)?,
            Ok(watcher::Event::Delete(_)) => {
                return Err(ExitWith {
                    code: 1,
                    message: format!("{id} was deleted"),
                }
                .into());
            }
            Ok(_) => continue,
            Err(e) => {
                tracing::debug!(%e, "watch error; retrying");
                tokio::time::sleep(Duration::from_secs(1)).await;
                continue;
            }
        };
        let (phase, line) = judge(&t.name, &job);
        if line != shown {
            print(args, &t.name, &job, &line);
            shown = line.clone();
        }
        match decide(&report(&t.name, phase, line.clone()), args) {
            None => {}
            Some(0) => return Ok(()),
            Some(code) => return Err(ExitWith { code, message: line }.into()),
        }
    }
}

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
