//! `kubectl kruise diff -f FILE`: what applying a manifest would do. For each workload in
//! it: its pods, in the controller's order and batches (the kind's own preview through its
//! planner, as `set partition` shows; the first batch takes the pods unavailable now, which
//! cost none of the budget, then each batch the budget), each updated in place or
//! recreated (the in-place engine's rule under the kind's update policy), already updated
//! or held by the partition; the pods a replica change creates or deletes (which ones, in
//! its scale-in order, through the kind's planner where it has that preview); then the
//! object as the server would store it, as a unified diff against the live one (a
//! server-side apply, dry run, with `--force-conflicts`'s force). A kind that renders
//! workloads from its template (a UnitedDeployment) says what one round of its planner
//! would write to each, and each changed one is diffed as its own kind ([`children`]); a
//! kind that upgrades the pods it matches (a SidecarSet) lists its own upgrade candidates
//! ([`matched`]).
//! Exit codes are kubectl diff's: 0 nothing would change, 1 something would, 2 an error.
//!
//! Invariants: nothing is written (every request is a read or a dry run); a document of a
//! kind that is not a workload here is named and skipped (kubectl diff shows it); the
//! object diff leaves out what every write changes (`managedFields`, `resourceVersion`,
//! `generation`) and the status.
mod children;
mod matched;

use std::path::PathBuf;

use clap::Args;
use k8s_openapi::api::core::v1::{Pod, PodTemplateSpec};
use kube::ResourceExt;
use kube::api::{Api, DynamicObject, Patch, PatchParams};
use serde_json::Value;

use super::connection::ConnectionArgs;
use super::kinds::Kind;
use super::status::ExitWith;
use super::target;
use crate::runtime::template_defaults;
use crate::workloads::common::availability;

pub const HELP: &str = "\
Kinds: cloneset (clone), asts, ads, ud (subset by subset, each as its own kind), sidecarset
(the injected pods it upgrades in place) and the built-in deployment, statefulset,
daemonset; for each, the pods its controller would update next (kept, in place or
recreated, batch by batch, in the controller's order; a pod not available now goes in the
first batch), the pods a scale-in deletes (cloneset, asts: which ones, in order) and the
server-side diff of the object. Other documents are named and skipped. Exit 0: no change;
1: a change; 2: an error (kubectl diff's codes).

Examples:
  kubectl kruise diff -f examples/01-cloneset-guestbook-inplace.yaml
  sed 's/:v1/:v2/' web.yaml | kubectl kruise diff -f -";

/// The revision a changed template would be (no pod has it yet).
const NEW_REVISION: &str = "(the new template)";

#[derive(Debug, Args)]
pub struct DiffArgs {
    /// The manifest (`-` for stdin)
    #[arg(short = 'f', long = "filename", value_name = "FILE")]
    pub file: PathBuf,
}

/// A document's object with what every write changes, and the status, left out.
fn comparable(object: &Value) -> Value {
    let mut object = object.clone();
    if let Some(map) = object.as_object_mut() {
        map.remove("status");
    }
    if let Some(meta) = object["metadata"].as_object_mut() {
        for field in ["managedFields", "resourceVersion", "generation"] {
            meta.remove(field);
        }
    }
    object
}

/// The unified diff of two objects as YAML (empty: the same).
fn object_diff(live: Option<&Value>, applied: &Value, id: &str) -> anyhow::Result<String> {
    let before = match live {
        Some(live) => serde_saphyr::to_string(&comparable(live))?,
        None => String::new(),
    };
    let after = serde_saphyr::to_string(&comparable(applied))?;
    if before == after {
        return Ok(String::new());
    }
    Ok(similar::TextDiff::from_lines(&before, &after)
        .unified_diff()
        .context_radius(3)
        .header(&format!("{id} (live)"), &format!("{id} (applied)"))
        .to_string())
}

/// The lines about `applied`'s pods: who updates, in which batch, to what; who is kept;
/// what a replica change creates or deletes. Empty when no pod would change.
async fn pod_lines(
    client: &kube::Client,
    namespace: &str,
    kind: Kind,
    live_object: &DynamicObject,
    applied: &Value,
    id: &str,
) -> anyhow::Result<Vec<String>> {
    let facts = kind.facts();
    if !facts.child_resources().is_empty() {
        return children::lines(client, namespace, kind, live_object, applied, id).await;
    }
    if facts.matches_pods() {
        return matched::lines(client, kind, applied, id).await;
    }
    let live = serde_json::to_value(live_object)?;
    let mut lines = Vec::new();
    let path = kind.containers_path(applied);
    let template_path = &path[..path.len().saturating_sub(1)];
    // Defaulted as the revisions are (OpenKruise's webhook defaults), so the in-place rule
    // compares what the controller will: a default filled in is no change.
    let template_of = |object: &Value| -> PodTemplateSpec {
        let template = template_defaults::defaulted(target::value_at(object, template_path));
        serde_json::from_value(template).unwrap_or_default()
    };
    let (old_template, new_template) = (template_of(&live), template_of(applied));
    // A default written by the API server or a webhook on one side only is no change (a
    // UnitedDeployment's merge patch to its subset drops them; the server fills them again).
    let changed = old_template != new_template;
    let (old_replicas, new_replicas) = (kind.numbers(&live).replicas, kind.numbers(applied).replicas);
    let steps = facts.step(applied, id).transpose().map_err(anyhow::Error::msg)?;
    let old_steps = facts.step(&live, id).transpose().map_err(anyhow::Error::msg)?;
    let update = match (&steps, changed) {
        (_, true) => NEW_REVISION.to_string(),
        (Some(new), false) => new.update_revision.clone(),
        (None, false) => String::new(),
    };
    let moves =
        matches!((&steps, &old_steps), (Some(new), Some(old)) if changed || new.partition != old.partition);
    let shrinks = new_replicas < old_replicas;
    let mut pods = match moves || shrinks {
        true => super::partition::owned_pods(client, namespace, kind, &live).await?,
        false => Vec::new(),
    };
    // The controller scales in before it updates: the pods it deletes take no update.
    let deleted = match shrinks {
        true => super::partition::scale_in_of(kind, applied, &update, &pods)?,
        false => None,
    };
    if let Some(deleted) = &deleted {
        pods.retain(|p| !deleted.contains(&p.name_any()));
    }
    match (steps, moves) {
        (Some(new), true) => {
            let order =
                super::partition::preview_of(client, kind, applied, &update, &pods, new.partition).await?;
            let revisions = super::history::revisions(client, namespace, kind, live_object).await?;
            let owner = live_object.name_any();
            let revision_of = |pod: &Pod| super::history::pod_revision(kind, &owner, pod);
            let now = k8s_openapi::jiff::Timestamp::now();
            let available = |pod: &Pod| availability::is_available(pod, new.min_ready_seconds, now);
            let named = |name: &str| pods.iter().find(|p| p.name_any() == name);
            let in_order: Vec<bool> = order
                .iter()
                .map(|(pod, _)| named(pod).is_some_and(available))
                .collect();
            let down_elsewhere = pods
                .iter()
                .filter(|p| !order.iter().any(|(pod, _)| *pod == p.name_any()) && !available(p))
                .count();
            let budget = usize::try_from(new.budget.max(1)).unwrap_or(1);
            let batches = batch_numbers(&in_order, budget, down_elsewhere);
            let mut batch_lines: Vec<(usize, String)> = Vec::new();
            for ((pod, node), batch) in order.iter().zip(batches) {
                let from = named(pod)
                    .and_then(revision_of)
                    .and_then(|name| revisions.iter().find(|r| r.name == name))
                    .map(|r| &r.template);
                let on = node.as_ref().map(|n| format!(" on {n}")).unwrap_or_default();
                let to = if changed { &new_template } else { &old_template };
                let outcome = super::undo::pod_outcome(from, to, new.policy);
                batch_lines.push((batch, format!("  batch {batch}: {pod}{on}: {outcome}")));
            }
            batch_lines.sort_by_key(|(batch, _)| *batch);
            lines.extend(batch_lines.into_iter().map(|(_, line)| line));
            let (mut done, mut kept) = (Vec::new(), Vec::new());
            for pod in pods
                .iter()
                .filter(|p| !order.iter().any(|(pod, _)| *pod == p.name_any()))
            {
                match !changed && revision_of(pod).as_deref() == Some(update.as_str()) {
                    true => done.push(pod.name_any()),
                    false => kept.push(pod.name_any()),
                }
            }
            done.sort();
            kept.sort();
            if !done.is_empty() {
                lines.push(format!("  already updated: {}", done.join(", ")));
            }
            if !kept.is_empty() {
                lines.push(format!(
                    "  kept (partition {}): {}",
                    new.partition,
                    kept.join(", ")
                ));
            }
        }
        (None, _) if changed => {
            lines.push(format!("  {}", super::undo::without_policy(kind)));
        }
        _ => {}
    }
    let change = format!("replicas {old_replicas} -> {new_replicas}");
    match (new_replicas.cmp(&old_replicas), deleted) {
        (std::cmp::Ordering::Greater, _) => lines.push(format!(
            "  {} pods created ({change})",
            new_replicas - old_replicas
        )),
        (std::cmp::Ordering::Less, Some(deleted)) => lines.push(format!(
            "  {} pods deleted, in the controller's scale-in order ({change}): {}",
            deleted.len(),
            deleted.join(", ")
        )),
        (std::cmp::Ordering::Less, None) => lines.push(format!(
            "  {} pods deleted ({change})",
            old_replicas - new_replicas
        )),
        (std::cmp::Ordering::Equal, _) => {}
    }
    Ok(lines)
}

/// The batch (from 1) of each pod of an update order, given which are `available` now: the
/// first batch takes every pod unavailable now (updating it costs none of the budget, in
/// each kind's planner) and the available ones the budget has room for beside the
/// `down_elsewhere` pods of the workload already unavailable; each later batch takes
/// `budget` pods, those before it having come back.
fn batch_numbers(available: &[bool], budget: usize, down_elsewhere: usize) -> Vec<usize> {
    let budget = budget.max(1);
    let mut room = budget.saturating_sub(down_elsewhere);
    let mut later = 0usize;
    let mut numbers: Vec<usize> = available
        .iter()
        .map(|available| match (available, room) {
            (false, _) => 1,
            (true, 1..) => {
                room -= 1;
                1
            }
            (true, 0) => {
                later += 1;
                2 + (later - 1) / budget
            }
        })
        .collect();
    if !numbers.contains(&1) {
        numbers.iter_mut().for_each(|n| *n -= 1);
    }
    numbers
}

/// The documents of `file` (`-`: stdin).
fn documents(file: &PathBuf) -> anyhow::Result<Vec<Value>> {
    let text = match file.to_str() {
        Some("-") => std::io::read_to_string(std::io::stdin())?,
        _ => std::fs::read_to_string(file).map_err(|e| anyhow::anyhow!("reading {}: {e}", file.display()))?,
    };
    let docs: Vec<Value> =
        serde_saphyr::from_multiple(&text).map_err(|e| anyhow::anyhow!("{}: {e}", file.display()))?;
    Ok(docs.into_iter().filter(Value::is_object).collect())
}

/// Whether applying `doc` would change anything, after printing what.
async fn diff_one(client: &kube::Client, namespace: &str, doc: &Value) -> anyhow::Result<bool> {
    let (api_version, kind_name) = (
        doc["apiVersion"].as_str().unwrap_or_default(),
        doc["kind"].as_str().unwrap_or_default(),
    );
    let name = doc["metadata"]["name"].as_str().unwrap_or_default();
    let Some((kind, resource)) = Kind::of_manifest(api_version, kind_name) else {
        eprintln!("{kind_name}/{name}: not a workload kubectl kruise diffs; skipped (kubectl diff shows it)");
        return Ok(false);
    };
    let namespace = doc["metadata"]["namespace"].as_str().unwrap_or(namespace);
    let api: Api<DynamicObject> = match kind.cluster_scoped() {
        true => Api::all_with(client.clone(), &resource),
        false => Api::namespaced_with(client.clone(), namespace, &resource),
    };
    let id = format!("{}/{name}", kind.qualified());
    let live = api.get_opt(name).await?;
    let params = PatchParams::apply(crate::runtime::context::FIELD_MANAGER)
        .force()
        .dry_run();
    let applied = serde_json::to_value(api.patch(name, &params, &Patch::Apply(doc)).await?)?;
    let lines = match &live {
        None => vec![format!(
            "  created, with {} pods",
            kind.numbers(&applied).replicas
        )],
        Some(live) => pod_lines(client, namespace, kind, live, &applied, &id).await?,
    };
    let live_value = live.as_ref().map(serde_json::to_value).transpose()?;
    let diff = object_diff(live_value.as_ref(), &applied, &id)?;
    if lines.is_empty() && diff.is_empty() {
        println!("{id}: no change");
        return Ok(false);
    }
    println!("{id}:");
    for line in lines {
        println!("{line}");
    }
    print!("{diff}");
    Ok(true)
}

pub async fn run(args: DiffArgs, connection: &ConnectionArgs) -> anyhow::Result<()> {
    let outcome = async {
        let docs = documents(&args.file)?;
        let (client, namespace) = target::connect(connection).await?;
        let mut changed = false;
        for doc in &docs {
            changed |= diff_one(&client, &namespace, doc).await?;
        }
        anyhow::Ok(changed)
    }
    .await;
    match outcome {
        Ok(false) => Ok(()),
        Ok(true) => {
            use std::io::Write as _;
            let _ = std::io::stdout().flush();
            std::process::exit(1)
        }
        Err(error) => Err(ExitWith {
            code: 2,
            message: format!("{error:#}"),
        }
        .into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_object_diff_leaves_out_what_every_write_changes() {
        let live = json!({ "metadata": { "name": "web", "resourceVersion": "7", "generation": 2,
            "managedFields": [{}] }, "spec": { "replicas": 3 }, "status": { "replicas": 3 } });
        let mut applied = live.clone();
        applied["metadata"]["resourceVersion"] = json!("8");
        applied["status"]["replicas"] = json!(1);
        assert_eq!(object_diff(Some(&live), &applied, "web").expect("diff"), "");
        applied["spec"]["replicas"] = json!(5);
        let diff = object_diff(Some(&live), &applied, "web").expect("diff");
        assert!(diff.contains("-  replicas: 3\n+  replicas: 5"), "{diff}");
        assert!(diff.starts_with("--- web (live)\n+++ web (applied)"), "{diff}");
    }

    #[test]
    fn batches_take_the_budget_and_pods_down_now_go_first() {
        let all_up = [true; 5];
        assert_eq!(batch_numbers(&all_up, 2, 0), [1, 1, 2, 2, 3]);
        assert_eq!(
            batch_numbers(&all_up, 2, 1),
            [1, 2, 2, 3, 3],
            "one down elsewhere"
        );
        assert_eq!(
            batch_numbers(&all_up, 1, 1),
            [1, 2, 3, 4, 5],
            "no room now: renumbered"
        );
        assert_eq!(
            batch_numbers(&[true, false, true, false], 1, 0),
            [1, 1, 2, 1],
            "a pod down now goes at once, outside the budget"
        );
        assert_eq!(batch_numbers(&[], 3, 0), Vec::<usize>::new());
    }
}
