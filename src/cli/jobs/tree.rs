//! `kubectl kruise get bcj/NAME --tree` and `get acj/NAME --tree`: a BroadcastJob with its
//! pods by node, an AdvancedCronJob with its runs (newest first) and each run's state.
//!
//! ```text
//! bcj/warm  (running: 2/3 succeeded, 1 active, 0 failed)
//! ├─ ✔ warm-abc12  Succeeded  node-0
//! ├─ ◌ warm-def34  Running    node-1
//! └─ ✔ warm-ghi56  Succeeded  node-2
//!
//! acj/report  (Job, schedule "0 * * * *", last 2026-12-04T12:00:00Z, 1 active)
//! ├─ ◌ report-1796400000  running    scheduled 2026-12-04T12:00:00Z
//! └─ ✔ report-1796396400  succeeded  scheduled 2026-12-04T11:00:00Z
//! ```
//!
//! Invariants of the renderers (pure and deterministic): every line carries an icon and a
//! word, so the tree reads without colour; pods are ordered by node, then name; runs newest
//! first by scheduled time, then name; nothing the job controls is left out.
use k8s_openapi::api::batch::v1::Job;
use k8s_openapi::api::core::v1::Pod;
use kube::api::{Api, DynamicObject, ListParams};
use kube::{Client, ResourceExt};
use serde_json::Value;

use crate::api::KruiseKind;
use crate::api::cronjob::SCHEDULED_AT_ANNOTATION;
use crate::cli::glyphs::Glyphs;
use crate::cli::target::{Kind, Target};
use crate::cli::tree::Branches;
use crate::runtime::cached_pod;

/// One line under the root: icon, name, word, detail.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Leaf {
    pub name: String,
    /// `Succeeded`, `Running`, `failed`, ...
    pub word: String,
    pub detail: String,
    pub icon: LeafIcon,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LeafIcon {
    Done,
    Running,
    Failed,
    Paused,
}

/// Draws `root` and its `leaves` as a tree.
pub fn render(root: &str, leaves: &[Leaf], glyphs: Glyphs) -> String {
    let b = Branches::of(glyphs);
    let mut out = format!("{root}\n");
    let name_width = leaves.iter().map(|l| l.name.len()).max().unwrap_or(0);
    let word_width = leaves.iter().map(|l| l.word.len()).max().unwrap_or(0);
    for (i, leaf) in leaves.iter().enumerate() {
        let branch = if i + 1 == leaves.len() { b.last } else { b.mid };
        let icon = match leaf.icon {
            LeafIcon::Done => glyphs.done,
            LeafIcon::Running => glyphs.progress,
            LeafIcon::Failed => glyphs.failed,
            LeafIcon::Paused => glyphs.paused,
        };
        let line = format!(
            "{branch}{icon} {:name_width$}  {:word_width$}  {}",
            leaf.name, leaf.word, leaf.detail
        );
        out.push_str(line.trim_end());
        out.push('\n');
    }
    if leaves.is_empty() {
        out.push_str(&format!("{}(nothing yet)\n", b.last));
    }
    out
}

/// A BroadcastJob's root line and its pods, by node.
pub fn broadcastjob(name: &str, job: &Value, pods: &[Pod]) -> (String, Vec<Leaf>) {
    let (_, line) = super::status::judge(name, job);
    let root = line.replacen(&format!("bcj/{name} "), &format!("bcj/{name}  ("), 1) + ")";
    let mut leaves: Vec<(String, Leaf)> = pods
        .iter()
        .map(|p| {
            let node = crate::workloads::common::node_fit::node_of(p)
                .unwrap_or("-")
                .to_string();
            let phase = p
                .status
                .as_ref()
                .and_then(|s| s.phase.clone())
                .unwrap_or_else(|| "Pending".into());
            let icon = match phase.as_str() {
                "Succeeded" => LeafIcon::Done,
                "Failed" => LeafIcon::Failed,
                _ => LeafIcon::Running,
            };
            let word = if p.metadata.deletion_timestamp.is_some() {
                "Terminating".into()
            } else {
                phase
            };
            (
                node.clone(),
                Leaf {
                    name: p.name_any(),
                    word,
                    detail: node,
                    icon,
                },
            )
        })
        .collect();
    leaves.sort_by(|a, b| (&a.0, &a.1.name).cmp(&(&b.0, &b.1.name)));
    (root, leaves.into_iter().map(|(_, l)| l).collect())
}

/// One run of an AdvancedCronJob: its name, scheduled time and conditions.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Run {
    pub name: String,
    pub scheduled_at: Option<String>,
    /// `Complete` / `Failed` with status True, if any.
    pub finished: Option<String>,
}

/// An AdvancedCronJob's root line and its runs, newest first.
pub fn advancedcronjob(name: &str, cron: &Value, runs: &[Run]) -> (String, Vec<Leaf>) {
    let spec = &cron["spec"];
    let status = &cron["status"];
    let mut parts = vec![
        status["type"].as_str().unwrap_or("Job").to_string(),
        format!("schedule {:?}", spec["schedule"].as_str().unwrap_or_default()),
    ];
    if let Some(zone) = spec["timeZone"].as_str() {
        parts.push(zone.to_string());
    }
    if let Some(last) = status["lastScheduleTime"].as_str() {
        parts.push(format!("last {last}"));
    }
    let active = status["active"].as_array().map_or(0, Vec::len);
    parts.push(format!("{active} active"));
    if spec["paused"] == true {
        parts.push("paused".into());
    }
    let root = format!("acj/{name}  ({})", parts.join(", "));
    let mut sorted = runs.to_vec();
    sorted.sort_by(|a, b| (&b.scheduled_at, &b.name).cmp(&(&a.scheduled_at, &a.name)));
    let leaves = sorted
        .into_iter()
        .map(|r| {
            let (icon, word) = match r.finished.as_deref() {
                Some("Complete") => (LeafIcon::Done, "succeeded"),
                Some(_) => (LeafIcon::Failed, "failed"),
                None => (LeafIcon::Running, "running"),
            };
            Leaf {
                detail: r
                    .scheduled_at
                    .map_or_else(|| "started by hand".into(), |at| format!("scheduled {at}")),
                name: r.name,
                word: word.into(),
                icon,
            }
        })
        .collect();
    (root, leaves)
}

fn finished_of(conditions: impl IntoIterator<Item = (String, String)>) -> Option<String> {
    conditions
        .into_iter()
        .find(|(kind, status)| (kind == "Complete" || kind == "Failed") && status == "True")
        .map(|(kind, _)| kind)
}

/// Reads what the tree of `target` (a bcj or an acj) shows and draws it.
pub async fn load_and_render(
    client: &Client,
    namespace: &str,
    target: &Target,
    glyphs: Glyphs,
) -> anyhow::Result<String> {
    let api: Api<DynamicObject> = target.api(client, namespace);
    let object = serde_json::to_value(api.get(&target.name).await?)?;
    let uid = object["metadata"]["uid"].as_str().unwrap_or_default().to_string();
    let owned = |refs: &[k8s_openapi::apimachinery::pkg::apis::meta::v1::OwnerReference]| {
        refs.iter().any(|o| o.controller == Some(true) && o.uid == uid)
    };
    let (root, leaves) = match target.kind {
        Kind::Kruise(KruiseKind::BroadcastJob) => {
            let by_job = ListParams::default().labels(&format!("broadcastjob-controller-uid={uid}"));
            let pods: Vec<Pod> = cached_pod::list(&Api::namespaced(client.clone(), namespace), &by_job)
                .await?
                .into_iter()
                .filter(|p| owned(p.owner_references()))
                .collect();
            broadcastjob(&target.name, &object, &pods)
        }
        _ => {
            let scheduled = |meta: &k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta| {
                meta.annotations
                    .as_ref()
                    .and_then(|a| a.get(SCHEDULED_AT_ANNOTATION).cloned())
            };
            let mut runs: Vec<Run> = Api::<Job>::namespaced(client.clone(), namespace)
                .list(&ListParams::default())
                .await?
                .items
                .into_iter()
                .filter(|j| owned(j.owner_references()))
                .map(|j| Run {
                    name: j.name_any(),
                    scheduled_at: scheduled(&j.metadata),
                    finished: finished_of(
                        j.status
                            .and_then(|s| s.conditions)
                            .unwrap_or_default()
                            .into_iter()
                            .map(|c| (c.type_, c.status)),
                    ),
                })
                .collect();
            let bcj: Api<DynamicObject> = Api::namespaced_with(
                client.clone(),
                namespace,
                &Kind::Kruise(KruiseKind::BroadcastJob).resource(),
            );
            for b in bcj.list(&ListParams::default()).await?.items {
                if !owned(b.owner_references()) {
                    continue;
                }
                let conditions = b.data["status"]["conditions"]
                    .as_array()
                    .cloned()
                    .unwrap_or_default();
                runs.push(Run {
                    name: b.name_any(),
                    scheduled_at: scheduled(&b.metadata),
                    finished: finished_of(conditions.iter().map(|c| {
                        (
                            c["type"].as_str().unwrap_or_default().to_string(),
                            c["status"].as_str().unwrap_or_default().to_string(),
                        )
                    })),
                });
            }
            advancedcronjob(&target.name, &object, &runs)
        }
    };
    Ok(render(&root, &leaves, glyphs))
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::cli::glyphs::{ASCII, UNICODE};

    fn pod(name: &str, node: &str, phase: &str) -> Pod {
        serde_json::from_value(json!({ "metadata": { "name": name },
            "spec": { "nodeName": node, "containers": [] }, "status": { "phase": phase } }))
        .expect("pod")
    }

    #[test]
    fn a_broadcastjob_tree_lists_its_pods_by_node() {
        let job = json!({ "status": { "phase": "running", "desired": 3, "active": 1, "succeeded": 1, "failed": 1 } });
        let pods = [
            pod("w-c", "node-2", "Failed"),
            pod("w-a", "node-0", "Succeeded"),
            pod("w-b", "node-1", "Running"),
        ];
        let (root, leaves) = broadcastjob("w", &job, &pods);
        assert_eq!(
            render(&root, &leaves, UNICODE),
            "bcj/w  (running: 1/3 succeeded, 1 active, 1 failed)\n\
             ├─ ✔ w-a  Succeeded  node-0\n\
             ├─ ◌ w-b  Running    node-1\n\
             └─ ✖ w-c  Failed     node-2\n"
        );
        assert!(render(&root, &leaves, ASCII).is_ascii());
    }

    #[test]
    fn a_cron_tree_lists_its_runs_newest_first() {
        let cron = json!({ "spec": { "schedule": "0 * * * *" },
            "status": { "type": "Job", "lastScheduleTime": "2026-12-04T12:00:00Z", "active": [{ "name": "r-2" }] } });
        let runs = [
            Run {
                name: "r-1".into(),
                scheduled_at: Some("2026-12-04T11:00:00Z".into()),
                finished: Some("Complete".into()),
            },
            Run {
                name: "r-2".into(),
                scheduled_at: Some("2026-12-04T12:00:00Z".into()),
                finished: None,
            },
            Run {
                name: "r-manual".into(),
                scheduled_at: None,
                finished: Some("Failed".into()),
            },
        ];
        let (root, leaves) = advancedcronjob("r", &cron, &runs);
        assert_eq!(
            render(&root, &leaves, UNICODE),
            "acj/r  (Job, schedule \"0 * * * *\", last 2026-12-04T12:00:00Z, 1 active)\n\
             ├─ ◌ r-2       running    scheduled 2026-12-04T12:00:00Z\n\
             ├─ ✔ r-1       succeeded  scheduled 2026-12-04T11:00:00Z\n\
             └─ ✖ r-manual  failed     started by hand\n"
        );
        assert_eq!(render("acj/r", &[], UNICODE), "acj/r\n└─ (nothing yet)\n");
    }
}
