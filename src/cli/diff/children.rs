//! `diff` of a kind that renders workloads from its template (a UnitedDeployment's
//! subsets): one round of its own planner says what it would write to each of them, and
//! each changed workload is diffed as its own kind is (its pods, batches, scale-in), under
//! a line naming the subset.
//!
//! Invariants: only reads (lists of its workloads, their pods, its revisions); a workload
//! is its child when the object is its controller; the lines of a child are those `diff`
//! prints for that child alone, indented under its subset.
use k8s_openapi::api::apps::v1::ControllerRevision;
use k8s_openapi::api::core::v1::Pod;
use kube::ResourceExt;
use kube::api::{Api, DynamicObject, ListParams};
use serde_json::Value;

use super::super::kinds::Kind;

fn controlled_by(object: &impl ResourceExt, uid: &str) -> bool {
    object
        .owner_references()
        .iter()
        .any(|o| o.controller == Some(true) && o.uid == uid)
}

/// The lines about `applied`'s child workloads, each under `subset NAME (ID):`.
pub(super) async fn lines(
    client: &kube::Client,
    namespace: &str,
    kind: Kind,
    live_object: &DynamicObject,
    applied: &Value,
    id: &str,
) -> anyhow::Result<Vec<String>> {
    let facts = kind.facts();
    let uid = live_object.uid().unwrap_or_default();
    let pods: Vec<Pod> = Api::<Pod>::namespaced(client.clone(), namespace)
        .list(&ListParams::default())
        .await?
        .items;
    let mut live_children: Vec<DynamicObject> = Vec::new();
    for resource in facts.child_resources() {
        let api: Api<DynamicObject> = Api::namespaced_with(client.clone(), namespace, &resource);
        for mut child in api.list(&ListParams::default()).await?.items {
            if controlled_by(&child, &uid) {
                // A list's items carry no type: the child kind is read from them.
                child.types = Some(kube::core::TypeMeta {
                    api_version: resource.api_version.clone(),
                    kind: resource.kind.clone(),
                });
                live_children.push(child);
            }
        }
    }
    let children: Vec<(Value, Vec<Pod>)> = live_children
        .iter()
        .map(|child| {
            let child_uid = child.uid().unwrap_or_default();
            let owned = pods
                .iter()
                .filter(|p| controlled_by(*p, &child_uid))
                .cloned()
                .collect();
            Ok((serde_json::to_value(child)?, owned))
        })
        .collect::<anyhow::Result<_>>()?;
    let revisions: Vec<_> = Api::<ControllerRevision>::namespaced(client.clone(), namespace)
        .list(&ListParams::default())
        .await?
        .items
        .iter()
        .filter(|r| controlled_by(*r, &uid))
        .map(crate::runtime::history::known)
        .collect();
    let Some(changes) = facts.child_changes(
        applied,
        id,
        &revisions,
        &children,
        k8s_openapi::jiff::Timestamp::now(),
    ) else {
        return Ok(Vec::new());
    };
    let mut lines = Vec::new();
    for change in changes.map_err(anyhow::Error::msg)? {
        let object = change.after.as_ref().or(change.before.as_ref());
        let (api_version, kind_name, name) = object
            .map(|o| {
                (
                    o["apiVersion"].as_str().unwrap_or_default(),
                    o["kind"].as_str().unwrap_or_default(),
                    o["metadata"]["name"].as_str().unwrap_or_default(),
                )
            })
            .unwrap_or_default();
        let Some((child_kind, _)) = Kind::of_manifest(api_version, kind_name) else {
            continue;
        };
        let child_id = match name {
            "" => child_kind.qualified().to_string(),
            name => format!("{}/{name}", child_kind.qualified()),
        };
        let subset = &change.subset;
        let live = live_children
            .iter()
            .find(|c| !name.is_empty() && c.name_any() == name);
        match (change.before.is_some(), &change.after, live) {
            (true, Some(after), Some(live)) => {
                lines.push(format!("  subset {subset} ({child_id}):"));
                let nested = Box::pin(super::pod_lines(
                    client, namespace, child_kind, live, after, &child_id,
                ))
                .await?;
                lines.extend(nested.into_iter().map(|l| format!("  {l}")));
            }
            (false, Some(after), _) => lines.push(format!(
                "  subset {subset}: {child_id} created, with {} pods",
                child_kind.numbers(after).replicas
            )),
            _ => lines.push(format!("  subset {subset} ({child_id}): deleted, with its pods")),
        }
    }
    Ok(lines)
}
