//! `diff` of a kind that upgrades in place the pods it matches across namespaces (a
//! SidecarSet): its own planner's candidates among every pod, batch by batch, those its
//! partition holds, and those it cannot upgrade in place.
//!
//! Invariants: only reads (every pod and namespace); batches follow the same rule as a
//! workload's (a pod not ready now goes in the first batch, the others within the budget
//! beside the pods already unavailable).
use k8s_openapi::api::core::v1::{Namespace, Pod};
use kube::api::{Api, ListParams};
use serde_json::Value;

use super::super::kinds::Kind;

/// The lines about the pods `applied` would upgrade.
pub(super) async fn lines(
    client: &kube::Client,
    kind: Kind,
    applied: &Value,
    id: &str,
) -> anyhow::Result<Vec<String>> {
    let pods: Vec<Pod> = Api::<Pod>::all(client.clone())
        .list(&ListParams::default())
        .await?
        .items;
    let namespaces: Vec<Namespace> = Api::<Namespace>::all(client.clone())
        .list(&ListParams::default())
        .await?
        .items;
    let now = k8s_openapi::jiff::Timestamp::now();
    let Some(upgrade) = kind.facts().matched_upgrade(applied, id, &pods, &namespaces, now) else {
        return Ok(Vec::new());
    };
    let upgrade = upgrade.map_err(anyhow::Error::msg)?;
    let ready: Vec<bool> = upgrade.order.iter().map(|(_, ready)| *ready).collect();
    let budget = usize::try_from(upgrade.budget.max(1)).unwrap_or(1);
    let down = usize::try_from(upgrade.unavailable.max(0)).unwrap_or(0);
    let mut lines: Vec<(usize, String)> = upgrade
        .order
        .iter()
        .zip(super::batch_numbers(&ready, budget, down))
        .map(|((pod, _), batch)| {
            (
                batch,
                format!("  batch {batch}: {pod}: in place ({})", upgrade.images),
            )
        })
        .collect();
    lines.sort_by_key(|(batch, _)| *batch);
    let mut lines: Vec<String> = lines.into_iter().map(|(_, line)| line).collect();
    if !upgrade.held.is_empty() {
        lines.push(format!(
            "  kept (partition {}): {}",
            upgrade.held.len(),
            upgrade.held.join(", ")
        ));
    }
    if !upgrade.not_upgradable.is_empty() {
        lines.push(format!(
            "  not upgradable in place (their sidecars differ in more than images; they keep theirs until recreated): {}",
            upgrade.not_upgradable.join(", ")
        ));
    }
    Ok(lines)
}
