//! `rollout status` of the kinds judged from their own object alone (a BroadcastJob: until
//! complete or failed; a SidecarSet: its status counters). The object is watched (not
//! polled) and one line is printed per change; the exit codes are `rollout status`'s
//! ([`super::decide`]): 0 complete, 3 failed, 1 gone, 4 `--timeout`, 5 paused with
//! `--fail-on-pause`.
//!
//! Invariant: the judgement is the kind's pure [`Judged::judge`]; the same line never
//! prints twice.
use std::time::{Duration, Instant};

use futures::StreamExt;
use kube::api::{Api, DynamicObject};
use kube::runtime::watcher;
use serde_json::{Value, json};

use super::assess::{Counts, Phase, Report};
use super::{ExitWith, StatusArgs, StatusOutput, decide};
use crate::cli::target::Target;

/// How one kind is judged from its object.
pub struct Judged {
    /// The kind's word in lines and JSON (`bcj`).
    pub word: &'static str,
    /// The phase and the line of the object (as JSON) named so. Pure.
    pub judge: fn(&str, &Value) -> (Phase, String),
    /// The fields `-o json` adds to each line.
    pub details: fn(&Value) -> Value,
}

fn report(word: &'static str, name: &str, phase: Phase, line: String) -> Report {
    Report {
        kind: word,
        name: name.to_string(),
        phase,
        line,
        revision: String::new(),
        revision_number: None,
        counts: Counts::default(),
        pods: Vec::new(),
        held_by: Vec::new(),
    }
}

fn print(args: &StatusArgs, judged: &Judged, name: &str, object: &Value, line: &str) {
    match args.output {
        Some(StatusOutput::Jsonl | StatusOutput::Json) => {
            let mut fields = json!({ "kind": judged.word, "name": name, "line": line });
            if let (Some(all), Value::Object(details)) = (fields.as_object_mut(), (judged.details)(object)) {
                all.extend(details);
            }
            println!("{fields}");
        }
        Some(StatusOutput::Yaml) | None => println!("{line}"),
    }
}

/// Follows `t`, judged by `judged`, until [`decide`] stops.
pub async fn follow(
    args: &StatusArgs,
    judged: &Judged,
    t: &Target,
    client: &kube::Client,
    namespace: &str,
) -> anyhow::Result<()> {
    let api: Api<DynamicObject> = t.api(client, namespace);
    let id = format!("{}/{}", judged.word, t.name);
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
        let object = match event {
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
        let (phase, line) = (judged.judge)(&t.name, &object);
        if line != shown {
            print(args, judged, &t.name, &object, &line);
            shown = line.clone();
        }
        match decide(&report(judged.word, &t.name, phase, line.clone()), args) {
            None => {}
            Some(0) => return Ok(()),
            Some(code) => return Err(ExitWith { code, message: line }.into()),
        }
    }
}
