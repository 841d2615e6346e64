//! `kubectl kruise diff -f FILE`: what applying a manifest would do. For each workload in
//! it: its pods, in the controller's order and batches (the kind's own preview through its
//! planner, as `set partition` shows), each kept, updated in place or recreated (the
//! in-place engine's rule under the kind's update policy), and the pods created or deleted
//! by a replica change; then the object as the server would store it, as a unified diff
//! against the live one (a server-side apply, dry run, with `--force-conflicts`'s force).
//! Exit codes are kubectl diff's: 0 nothing would change, 1 something would, 2 an error.
//!
//! Invariants: nothing is written (every request is a read or a dry run); a document of a
//! kind that is not a workload here is named and skipped (kubectl diff shows it); the
//! object diff leaves out what every write changes (`managedFields`, `resourceVersion`,
//! `generation`) and the status.
use std::path::PathBuf;

use clap::Args;
use k8s_openapi::api::core::v1::PodTemplateSpec;
use kube::ResourceExt;
use kube::api::{Api, DynamicObject, Patch, PatchParams};
use serde_json::Value;

use super::connection::ConnectionArgs;
use super::kinds::Kind;
use super::status::ExitWith;
use super::target;

pub const HELP: &str = "\
Kinds: cloneset (clone), asts, ads and the built-in deployment, statefulset, daemonset; for
each, the pods its controller would update next (kept, in place or recreated, batch by
batch, in the controller's order) and the server-side diff of the object. Other documents
are named and skipped. Exit 0: no change; 1: a change; 2: an error (kubectl diff's codes).

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

/// What moving a pod from `from` to `to` does under `policy`; for a kind with no in-place
/// policy, what its facts say a pod spec change does (as `set env` says it).
fn outcome(
    from: Option<&PodTemplateSpec>,
    to: &PodTemplateSpec,
    policy: Option<crate::api::common::PodUpdatePolicy>,
    kind: Kind,
) -> String {
    match policy {
        Some(policy) => super::undo::pod_outcome(from, to, policy),
        None => kind
            .facts()
            .pod_spec_change()
            .unwrap_or("replaced as its rollout strategy allows")
            .to_string(),
    }
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
    let live = serde_json::to_value(live_object)?;
    let mut lines = Vec::new();
    let path = kind.containers_path(applied);
    let template_path = &path[..path.len().saturating_sub(1)];
    let template_of = |object: &Value| -> PodTemplateSpec {
        serde_json::from_value(target::value_at(object, template_path).clone()).unwrap_or_default()
    };
    let (old_template, new_template) = (template_of(&live), template_of(applied));
    let changed = target::value_at(&live, template_path) != target::value_at(applied, template_path);
    let (old_replicas, new_replicas) = (kind.numbers(&live).replicas, kind.numbers(applied).replicas);
    let steps = facts.step(applied, id).transpose().map_err(anyhow::Error::msg)?;
    let old_steps = facts.step(&live, id).transpose().map_err(anyhow::Error::msg)?;
    match (steps, old_steps) {
        (Some(new), Some(old)) if changed || new.partition != old.partition => {
            let pods = super::partition::owned_pods(client, namespace, kind, &live).await?;
            let update = match changed {
                true => NEW_REVISION.to_string(),
                false => new.update_revision.clone(),
            };
            let order =
                super::partition::preview_of(client, kind, applied, &update, &pods, new.partition).await?;
            let revisions = super::history::revisions(client, namespace, kind, live_object).await?;
            let policy = facts.pod_update_policy(applied, id).map_err(anyhow::Error::msg)?;
            let budget = usize::try_from(new.budget.max(1)).unwrap_or(1);
            for (i, (pod, node)) in order.iter().enumerate() {
                let from = pods
                    .iter()
                    .find(|p| p.name_any() == *pod)
                    .and_then(|p| p.labels().get(crate::runtime::revision::REVISION_LABEL).cloned())
                    .and_then(|label| revisions.iter().find(|r| r.name == label))
                    .map(|r| &r.template);
                let on = node.as_ref().map(|n| format!(" on {n}")).unwrap_or_default();
                let to = if changed { &new_template } else { &old_template };
                lines.push(format!(
                    "  batch {}: {pod}{on}: {}",
                    i / budget + 1,
                    outcome(from, to, policy, kind)
                ));
            }
            let mut kept: Vec<String> = pods
                .iter()
                .map(|p| p.name_any())
                .filter(|name| !order.iter().any(|(pod, _)| pod == name))
                .collect();
            kept.sort();
            if !kept.is_empty() {
                lines.push(format!(
                    "  kept (partition {}): {}",
                    new.partition,
                    kept.join(", ")
                ));
            }
        }
        (None, _) if changed => {
            lines.push("  its pods are replaced as its rollout strategy allows".to_string());
        }
        _ => {}
    }
    match new_replicas.cmp(&old_replicas) {
        std::cmp::Ordering::Greater => {
            lines.push(format!("  {} pods created (replicas {old_replicas} -> {new_replicas})", new_replicas - old_replicas))
        }
        std::cmp::Ordering::Less => lines.push(format!(
            "  {} pods deleted, in the controller's scale-in order (replicas {old_replicas} -> {new_replicas})",
            old_replicas - new_replicas
        )),
        std::cmp::Ordering::Equal => {}
    }
    Ok(lines)
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
}
