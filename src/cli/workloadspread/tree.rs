//! `kubectl kruise get ws/NAME --tree`: a WorkloadSpread's subsets, each with its capacity,
//! its counts and the target's pods placed in it, then the target's pods in no subset.
//!
//! ```text
//! workloadspread/spread  (CloneSet web, 6 replicas)
//! ├─ subset zone-a  max 2  actual 2  missing 0
//! │  ├─ ✔ web-abc12  ready    node-a1
//! │  └─ ✔ web-def34  ready    node-a2
//! ├─ subset zone-b  max 2  actual 1  missing 1  unschedulable (PodUnschedulable)
//! │  └─ ◌ web-ghi56  Pending
//! ├─ subset zone-c  max unlimited  actual 3
//! │  └─ ...
//! └─ in no subset (created while the webhook was down, or fitting no subset)  1 pod
//!    └─ ⚠ web-jkl78  Running  node-x
//! ```
//!
//! Where the facts come from ([`load_and_render`]): the pods are the target's in the
//! WorkloadSpread's namespace (the pod's controller is the target, group compared and
//! version ignored, or a ReplicaSet the target Deployment controls); a pod's subset is the
//! one its `apps.kruise.io/matched-workloadspread` annotation names; a subset's `max` is its
//! `maxReplicas` against the target's replica total ([`total`]).
//!
//! Invariants of [`render`] (pure and deterministic):
//! - subsets in spec order, each shown even without pods; then the pods in no subset (the
//!   annotation names another WorkloadSpread, an unknown subset, or nothing), only when
//!   there are some, so no pod of the target disappears silently;
//! - pods within a group sorted by name;
//! - `actual` and `missing` are the controller's (`status.subsetStatuses`) when it wrote
//!   them, else counted from the pods; `missing` is left out for an unlimited subset;
//! - every pod line carries an icon and a word, so the tree reads without colour; with a
//!   non-unicode glyph set, icons and branches are ASCII.
use std::collections::BTreeMap;

use k8s_openapi::api::apps::v1::ReplicaSet;
use k8s_openapi::api::core::v1::Pod;
use kube::api::{Api, ApiResource, DynamicObject, ListParams};
use kube::core::GroupVersionKind;
use kube::{Client, ResourceExt};
use serde_json::Value;

use crate::api::workloadspread::{
    TargetReference, WorkloadSpread, WorkloadSpreadSubset, WorkloadSpreadSubsetStatus,
};
use crate::cli::glyphs::Glyphs;
use crate::cli::pod_groups::{Group, PodLine, draw, node_of, phase, plural, pod_line};
use crate::runtime::cached_pod;
use crate::workloads::workloadspread::deleting::matched;
use crate::workloads::workloadspread::place::capacity;
use crate::workloads::workloadspread::schedulable::CONDITION as SCHEDULABLE;
use crate::workloads::workloadspread::target::{controller, group_of, is_target, total};

/// `<plural>.<group>`, as the verbs name the kind.
const QUALIFIED: &str = "workloadspreads.apps.kruise.io";

/// The WorkloadSpread API resource.
fn resource() -> ApiResource {
    ApiResource::erase::<WorkloadSpread>(&())
}

/// Does the target control `pod`, directly or through a ReplicaSet among `replicasets`
/// (a Deployment's)?
fn controlled_by_target(pod: &Pod, target: &TargetReference, replicasets: &[ReplicaSet]) -> bool {
    let Some(owner) = controller(pod.owner_references()) else {
        return false;
    };
    if is_target(owner, target) {
        return true;
    }
    owner.kind == "ReplicaSet"
        && group_of(&owner.api_version) == "apps"
        && replicasets
            .iter()
            .filter(|rs| rs.name_any() == owner.name)
            .filter_map(|rs| controller(rs.owner_references()))
            .any(|rs_owner| is_target(rs_owner, target))
}

/// The pods among `pods` that the target controls; `replicasets` are the namespace's (only
/// needed for a Deployment target).
pub fn target_pods(target: &TargetReference, pods: Vec<Pod>, replicasets: &[ReplicaSet]) -> Vec<Pod> {
    pods.into_iter()
        .filter(|p| controlled_by_target(p, target, replicasets))
        .collect()
}

fn unplaced_line(pod: &Pod, glyphs: Glyphs) -> PodLine {
    let word = if pod.metadata.deletion_timestamp.is_some() {
        "Terminating".into()
    } else {
        phase(pod)
    };
    PodLine {
        icon: glyphs.warning,
        name: pod.name_any(),
        word,
        detail: node_of(pod),
    }
}

/// `  unschedulable (Reason)` when the controller marked the subset unschedulable.
fn unschedulable_note(status: &WorkloadSpreadSubsetStatus) -> String {
    let condition = status
        .conditions
        .iter()
        .flatten()
        .find(|c| c.type_ == SCHEDULABLE && c.status == "False");
    match condition
        .and_then(|c| c.reason.as_deref())
        .filter(|r| !r.is_empty())
    {
        Some(reason) => format!("  unschedulable ({reason})"),
        None if condition.is_some() => "  unschedulable".into(),
        None => String::new(),
    }
}

/// `  creating N` / `  deleting N` for the pods the webhook recorded and the controller has
/// not seen arrive or leave yet.
fn in_flight_note(status: &WorkloadSpreadSubsetStatus) -> String {
    let mut note = String::new();
    for (word, pods) in [
        ("creating", &status.creating_pods),
        ("deleting", &status.deleting_pods),
    ] {
        let n = pods.as_ref().map_or(0, BTreeMap::len);
        if n > 0 {
            note.push_str(&format!("  {word} {n}"));
        }
    }
    note
}

/// A subset's line: `subset NAME  max M  actual A  missing N` and its notes.
fn subset_title(
    subset: &WorkloadSpreadSubset,
    status: Option<&WorkloadSpreadSubsetStatus>,
    total: i64,
    pods: usize,
) -> String {
    let max = capacity(subset, total);
    let limit = if max < 0 {
        "unlimited".to_string()
    } else {
        max.to_string()
    };
    let counted = i64::try_from(pods).unwrap_or(i64::MAX);
    let (actual, missing) = match status {
        Some(s) => (i64::from(s.replicas), i64::from(s.missing_replicas)),
        None => (counted, (i64::from(max) - counted).max(0)),
    };
    let mut title = format!("subset {}  max {limit}  actual {actual}", subset.name);
    if max >= 0 && missing >= 0 {
        title.push_str(&format!("  missing {missing}"));
    }
    if let Some(status) = status {
        title.push_str(&unschedulable_note(status));
        title.push_str(&in_flight_note(status));
    }
    title
}

fn by_name(mut lines: Vec<PodLine>) -> Vec<PodLine> {
    lines.sort_by(|a, b| a.name.cmp(&b.name));
    lines
}

/// The groups of `pods` (the target's): one per subset, in spec order, then the pods in no
/// subset when there are some. `total`: the target's replica total, None when the target is
/// missing (a percentage then counts against 0). Pure.
pub fn groups(ws: &WorkloadSpread, total: Option<i64>, pods: &[Pod], glyphs: Glyphs) -> Vec<Group> {
    let name = ws.name_any();
    let subsets = &ws.spec.subsets;
    let statuses = ws
        .status
        .as_ref()
        .and_then(|s| s.subset_statuses.as_deref())
        .unwrap_or_default();
    let mut placed: Vec<Vec<PodLine>> = vec![Vec::new(); subsets.len()];
    let mut unplaced = Vec::new();
    for pod in pods {
        let subset = matched(pod)
            .filter(|(ws_name, _)| *ws_name == name)
            .and_then(|(_, subset)| subsets.iter().position(|s| s.name == subset));
        match subset {
            Some(i) => placed[i].push(pod_line(pod, glyphs)),
            None => unplaced.push(unplaced_line(pod, glyphs)),
        }
    }
    let mut groups: Vec<Group> = subsets
        .iter()
        .zip(placed)
        .map(|(subset, lines)| {
            let status = statuses.iter().find(|s| s.name == subset.name);
            Group {
                title: subset_title(subset, status, total.unwrap_or(0), lines.len()),
                pods: by_name(lines),
            }
        })
        .collect();
    if !unplaced.is_empty() {
        groups.push(Group {
            title: format!(
                "in no subset (created while the webhook was down, or fitting no subset)  {}",
                plural(unplaced.len())
            ),
            pods: by_name(unplaced),
        });
    }
    groups
}

/// `workloadspread/NAME  (KIND TARGET, N replicas)`, or `..., not found)` without a target.
fn root_line(ws: &WorkloadSpread, total: Option<i64>) -> String {
    let target = &ws.spec.target_ref;
    let replicas = match total {
        Some(1) => "1 replica".to_string(),
        Some(n) => format!("{n} replicas"),
        None => "not found".to_string(),
    };
    format!(
        "workloadspread/{}  ({} {}, {replicas})",
        ws.name_any(),
        target.kind,
        target.name
    )
}

/// The whole tree of `ws` over the target's `pods`; `total` as for [`groups`]. Pure.
pub fn render(ws: &WorkloadSpread, total: Option<i64>, pods: &[Pod], glyphs: Glyphs) -> String {
    draw(&root_line(ws, total), &groups(ws, total, pods, glyphs), glyphs)
}

/// The target object, or None when it (or its kind) is not there.
async fn load_target(
    client: &Client,
    namespace: &str,
    target: &TargetReference,
) -> anyhow::Result<Option<Value>> {
    let (group, version) = target
        .api_version
        .split_once('/')
        .unwrap_or(("", target.api_version.as_str()));
    let gvk = GroupVersionKind::gvk(group, version, &target.kind);
    // A kind the server does not serve: the target cannot exist.
    let Ok((resource, _)) = kube::discovery::pinned_kind(client, &gvk).await else {
        return Ok(None);
    };
    let api: Api<DynamicObject> = Api::namespaced_with(client.clone(), namespace, &resource);
    let found = api.get_opt(&target.name).await?;
    found.map(serde_json::to_value).transpose().map_err(Into::into)
}

/// Reads the WorkloadSpread `namespace/name`, its target and the target's pods, and draws
/// them. A missing WorkloadSpread is an error naming it.
pub async fn load_and_render(
    client: &Client,
    namespace: &str,
    name: &str,
    glyphs: Glyphs,
) -> anyhow::Result<String> {
    let api: Api<DynamicObject> = Api::namespaced_with(client.clone(), namespace, &resource());
    let Some(object) = api.get_opt(name).await? else {
        anyhow::bail!("workloadspread {namespace}/{name} not found");
    };
    let raw = serde_json::to_value(object)?;
    let ws: WorkloadSpread = crate::cli::target::read_as(&raw, &format!("{QUALIFIED}/{name}"))?;
    let target = &ws.spec.target_ref;
    // A custom workload's replica path is in OpenKruise's whitelist (kruise-system).
    let group = crate::workloads::workloadspread::target::group_of(&target.api_version);
    let configuration = if crate::workloads::workloadspread::target::supported(group, &target.kind) {
        crate::runtime::configuration::Configuration::default()
    } else {
        crate::runtime::configuration::read(client, "kruise-system").await
    };
    let total = load_target(client, namespace, target)
        .await?
        .map(|object| total(&ws, &object, &configuration));
    let listed = cached_pod::list(
        &Api::namespaced(client.clone(), namespace),
        &ListParams::default(),
    )
    .await?;
    let replicasets = if target.kind == "Deployment" {
        Api::<ReplicaSet>::namespaced(client.clone(), namespace)
            .list(&ListParams::default())
            .await?
            .items
    } else {
        Vec::new()
    };
    let pods = target_pods(target, listed, &replicasets);
    Ok(render(&ws, total, &pods, glyphs))
}

#[cfg(test)]
#[path = "tree_tests.rs"]
mod tests;
