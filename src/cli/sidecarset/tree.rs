//! `kubectl kruise get sidecarset/NAME --tree`: the pods a SidecarSet selects, grouped by the
//! sidecars they run: the latest (its current hash), each older hash (with the revision the
//! pod was injected or upgraded at, when recorded), and the pods that match but were created
//! without its sidecars (the webhook was down), which no upgrade will ever reach.
//!
//! ```text
//! sidecarset/log  (Waiting for sidecarset/log: 1/3 updated, 1/3 updated ready...)
//! ├─ latest sidecars (hash 5d8f...)  1 pod
//! │  └─ ✔ shop/web-abc12  ready      log=fluent-bit:3.1
//! ├─ older sidecars (hash 9b2c..., revision log-7d9b8)  2 pods
//! │  ├─ • shop/web-def34  ready      log=fluent-bit:3.0
//! │  └─ ◌ shop/web-ghi56  upgrading  log=fluent-bit:3.0
//! └─ not injected (created while the webhook was down; recreate them)  1 pod
//!    └─ ⚠ shop/web-jkl78  Running
//! ```
//!
//! Invariants: the grouping is the controller's own ([`status::split`],
//! [`pod_facts::updated`]); the renderer is pure and deterministic (groups: latest, older by
//! hash, not injected; pods by namespace, then name); every pod line carries an icon and a
//! word, so the tree reads without colour.
use std::collections::BTreeMap;

use k8s_openapi::api::core::v1::{Namespace, Pod};
use kube::api::{Api, ListParams};
use kube::{Client, ResourceExt};
use serde_json::Value;

use crate::api::KruiseKind;
use crate::api::sidecarset::SidecarSet;
use crate::cli::glyphs::Glyphs;
use crate::cli::pod_groups::{Group, PodLine, draw, plural};
use crate::runtime::cached_pod::{self, CachedPod};
use crate::workloads::sidecarset::inject::{HASH_ANNOTATION, read_hashes};
use crate::workloads::sidecarset::{matching, pod_facts, status};

fn short(hash: &str) -> String {
    let cut: String = hash.chars().take(8).collect();
    if cut.len() < hash.len() {
        format!("{cut}...")
    } else {
        cut
    }
}

/// `name=image` of the set's sidecar containers as the pod runs them (both halves of a
/// hot-upgrade sidecar).
fn sidecar_images(set: &SidecarSet, pod: &Pod) -> String {
    let names = crate::workloads::sidecarset::hot::pod_names(set);
    pod.spec
        .iter()
        .flat_map(|s| &s.containers)
        .filter(|c| names.contains(&c.name))
        .map(|c| format!("{}={}", c.name, c.image.as_deref().unwrap_or("")))
        .collect::<Vec<_>>()
        .join(" ")
}

fn injected_line(set: &SidecarSet, pod: &Pod, latest: bool, glyphs: Glyphs) -> PodLine {
    let (icon, word) = if !pod_facts::consistent(set, pod) {
        (glyphs.progress, "upgrading")
    } else if pod_facts::running_ready(pod) {
        (if latest { glyphs.done } else { glyphs.idle }, "ready")
    } else {
        (glyphs.progress, "not ready")
    };
    PodLine {
        icon,
        name: format!("{}/{}", matching::pod_namespace(pod), pod.name_any()),
        word: word.into(),
        detail: sidecar_images(set, pod),
    }
}

/// The groups of `selected` (the pods the set's selector and namespace scope pick). Pure.
pub fn groups(set: &SidecarSet, selected: &[&Pod], glyphs: Glyphs) -> Vec<Group> {
    let (matched, missing) = status::split(set, selected);
    let name = set.name_any();
    let entry = |pod: &Pod| {
        read_hashes(pod.annotations().get(HASH_ANNOTATION))
            .ok()
            .and_then(|h| h.get(&name).cloned())
    };
    let sorted = |mut lines: Vec<PodLine>| {
        lines.sort_by(|a, b| a.name.cmp(&b.name));
        lines
    };
    let mut groups = Vec::new();
    let latest: Vec<PodLine> = matched
        .iter()
        .filter(|p| pod_facts::updated(set, p))
        .map(|p| injected_line(set, p, true, glyphs))
        .collect();
    let current = set
        .annotations()
        .get(HASH_ANNOTATION)
        .map(|h| short(h))
        .unwrap_or_else(|| "not computed yet".into());
    groups.push(Group {
        title: format!("latest sidecars (hash {current})  {}", plural(latest.len())),
        pods: sorted(latest),
    });
    let mut older: BTreeMap<(String, String), Vec<PodLine>> = BTreeMap::new();
    for pod in matched.iter().filter(|p| !pod_facts::updated(set, p)) {
        let (hash, revision) = entry(pod)
            .map(|e| (e.hash, e.controller_revision))
            .unwrap_or_default();
        older
            .entry((hash, revision))
            .or_default()
            .push(injected_line(set, pod, false, glyphs));
    }
    for ((hash, revision), pods) in older {
        let revision = if revision.is_empty() {
            String::new()
        } else {
            format!(", revision {revision}")
        };
        groups.push(Group {
            title: format!(
                "older sidecars (hash {}{revision})  {}",
                short(&hash),
                plural(pods.len())
            ),
            pods: sorted(pods),
        });
    }
    if !missing.is_empty() {
        let pods = missing
            .iter()
            .map(|p| PodLine {
                icon: glyphs.warning,
                name: format!("{}/{}", matching::pod_namespace(*p), p.name_any()),
                word: p
                    .status
                    .as_ref()
                    .and_then(|s| s.phase.clone())
                    .unwrap_or_else(|| "Pending".into()),
                detail: String::new(),
            })
            .collect();
        groups.push(Group {
            title: format!(
                "not injected (created while the webhook was down; recreate them)  {}",
                plural(missing.len())
            ),
            pods: sorted(pods),
        });
    }
    groups
}

/// Draws the root line and the groups. Pure.
pub fn render(root: &str, groups: &[Group], glyphs: Glyphs) -> String {
    draw(root, groups, glyphs)
}

/// Loads the SidecarSet `name` and the pods it selects, and draws them.
pub async fn load_and_render(client: &Client, name: &str, glyphs: Glyphs) -> anyhow::Result<String> {
    let api = crate::cli::target::Kind::Kruise(KruiseKind::SidecarSet).api(client, "");
    let raw: Value = serde_json::to_value(api.get(name).await?)?;
    let id = format!("sidecarsets.apps.kruise.io/{name}");
    let set: SidecarSet = crate::cli::target::read_as(&raw, &id)?;
    let pods: Api<CachedPod> = match matching::scoped_to(&set) {
        Some(namespace) => Api::namespaced(client.clone(), namespace),
        None => Api::all(client.clone()),
    };
    let pods = cached_pod::list(&pods, &ListParams::default()).await?;
    let namespaces: BTreeMap<String, BTreeMap<String, String>> = if set.spec.namespace_selector.is_some() {
        Api::<Namespace>::all(client.clone())
            .list(&ListParams::default())
            .await?
            .items
            .into_iter()
            .map(|n| (n.name_any(), n.metadata.labels.unwrap_or_default()))
            .collect()
    } else {
        BTreeMap::new()
    };
    let selected: Vec<&Pod> = pods
        .iter()
        .filter(|p| matching::selects_pod(&set, *p, namespaces.get(&matching::pod_namespace(*p))))
        .collect();
    let (_, line) = super::status::judge(name, &raw);
    let root = format!("sidecarset/{name}  ({line})");
    Ok(render(&root, &groups(&set, &selected, glyphs), glyphs))
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::cli::glyphs::UNICODE;

    fn pod(name: &str, entry_hash: Option<&str>, image: &str, injected: bool) -> Pod {
        let mut annotations = json!({});
        if injected {
            annotations["kruise.io/sidecarset-injected-list"] = json!("log");
        }
        if let Some(hash) = entry_hash {
            annotations[HASH_ANNOTATION] = json!(json!({ "log": { "updateTimestamp": "2026-12-04T00:00:00Z",
                "hash": hash, "sidecarSetName": "log", "sidecarList": ["log"], "controllerRevision": "log-abc" } })
            .to_string());
        }
        let mut containers = vec![json!({ "name": "app", "image": "nginx" })];
        if injected {
            containers.insert(0, json!({ "name": "log", "image": image }));
        }
        let statuses: Vec<Value> = containers
            .iter()
            .map(|c| {
                json!({ "name": c["name"], "image": c["image"], "imageID": "", "ready": true,
                "restartCount": 0 })
            })
            .collect();
        serde_json::from_value(json!({
            "metadata": { "name": name, "namespace": "shop", "labels": { "app": "web" }, "annotations": annotations },
            "spec": { "containers": containers },
            "status": { "phase": "Running", "conditions": [{ "type": "Ready", "status": "True" }],
                "containerStatuses": statuses },
        }))
        .expect("pod")
    }

    #[test]
    fn pods_are_grouped_latest_older_and_not_injected() {
        let set: SidecarSet = serde_json::from_value(json!({
            "apiVersion": "apps.kruise.io/v1alpha1", "kind": "SidecarSet",
            "metadata": { "name": "log", "annotations": { HASH_ANNOTATION: "newhash123" } },
            "spec": { "selector": { "matchLabels": { "app": "web" } },
                "containers": [{ "name": "log", "image": "fluent-bit:3.1" }] },
        }))
        .expect("set");
        let pods = [
            pod("web-b", Some("newhash123"), "fluent-bit:3.1", true),
            pod("web-a", Some("oldhash456"), "fluent-bit:3.0", true),
            pod("web-c", None, "", false),
        ];
        let selected: Vec<&Pod> = pods.iter().collect();
        let drawn = render("sidecarset/log", &groups(&set, &selected, UNICODE), UNICODE);
        assert_eq!(
            drawn,
            "sidecarset/log
├─ latest sidecars (hash newhash1...)  1 pod
│  └─ ✔ shop/web-b  ready    log=fluent-bit:3.1
├─ older sidecars (hash oldhash4..., revision log-abc)  1 pod
│  └─ • shop/web-a  ready    log=fluent-bit:3.0
└─ not injected (created while the webhook was down; recreate them)  1 pod
   └─ ⚠ shop/web-c  Running
"
        );
    }
}
