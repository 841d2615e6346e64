//! `kubectl kruise set image KIND/NAME CONTAINER=IMAGE ...` (kubectl's form; `*=IMAGE` sets
//! every container).
//!
//! Invariants: the change is worked out on the whole container list as read and sent
//! guarded by the generation it was read at ([`super::target::patch_unchanged_spec`]):
//! status writes meanwhile do not stop it, a spec change meanwhile is refused; an unknown
//! container name is an error naming the containers there are, and nothing is written.
use clap::Args;
use kube::api::{Api, DynamicObject};
use serde_json::{Value, json};

use super::UsageError;
use super::connection::ConnectionArgs;
use super::install::{DryRun, Output};
use super::target;

pub const HELP: &str = "\
Kinds: cloneset (clone), asts, ads, deployment (deploy), statefulset (sts), daemonset (ds),
sidecarset. Under CloneSet's InPlaceIfPossible an image change updates the pods in place; a
SidecarSet's image change upgrades the sidecar in the pods it injected, in place.

Examples:
  kubectl kruise set image cloneset/web app=nginx:1.27
  kubectl kruise set image deploy/front app=nginx:1.27 sidecar=envoy:1.30 --dry-run=client
  kubectl kruise set image cloneset/web '*=nginx:1.27'
  kubectl kruise set image sidecarset/log-agent agent=fluent-bit:3.1";

#[derive(Debug, Args)]
pub struct ImageArgs {
    /// TYPE/NAME
    #[arg(value_name = "TYPE/NAME")]
    pub target: String,
    /// CONTAINER=IMAGE pairs (`*` for every container)
    #[arg(required = true, value_name = "CONTAINER=IMAGE")]
    pub images: Vec<String>,
    /// Print the updated object in this format instead of one line
    #[arg(short = 'o', long, value_enum)]
    pub output: Option<Output>,
    /// `client` prints the patch without sending it; `server` sends it with dry-run
    #[arg(long, value_enum, default_value = "none", num_args = 0..=1, default_missing_value = "client")]
    pub dry_run: DryRun,
}

fn pairs(args: &[String]) -> Result<Vec<(String, String)>, UsageError> {
    args.iter()
        .map(|a| {
            a.split_once('=')
                .filter(|(c, i)| !c.is_empty() && !i.is_empty())
                .map(|(c, i)| (c.to_string(), i.to_string()))
                .ok_or_else(|| UsageError(format!("{a:?}: expected CONTAINER=IMAGE (see --help)")))
        })
        .collect()
}

/// Applies `images` to the container lists of a pod spec; errors name unknown containers.
fn apply(spec: &mut Value, images: &[(String, String)]) -> Result<bool, String> {
    let mut changed = false;
    for (container, image) in images {
        let mut found = false;
        for list in ["containers", "initContainers"] {
            for c in spec[list].as_array_mut().into_iter().flatten() {
                if container == "*" && list == "initContainers" {
                    continue;
                }
                if container == "*" || c["name"] == container.as_str() {
                    found = true;
                    if c["image"] != image.as_str() {
                        c["image"] = json!(image);
                        changed = true;
                    }
                }
            }
        }
        if !found {
            let names: Vec<&str> = ["containers", "initContainers"]
                .iter()
                .flat_map(|l| spec[*l].as_array().into_iter().flatten())
                .filter_map(|c| c["name"].as_str())
                .collect();
            return Err(format!(
                "no container {container:?} (containers: {})",
                names.join(", ")
            ));
        }
    }
    Ok(changed)
}

pub async fn run(args: ImageArgs, connection: &ConnectionArgs) -> anyhow::Result<()> {
    let targets = target::parse(std::slice::from_ref(&args.target))?;
    target::no_jobs(&targets, "set image")?;
    let [t] = targets.as_slice() else {
        return Err(UsageError("set image takes one workload (see --help)".into()).into());
    };
    let images = pairs(&args.images)?;
    let (client, namespace) = target::connect(connection).await?;
    let api: Api<DynamicObject> = t.api(&client, &namespace);
    let id = t.id();
    {
        let object = api.get(&t.name).await?;
        let value = serde_json::to_value(&object)?;
        let path = t.kind.containers_path();
        let mut spec = target::value_at(&value, path).clone();
        let changed =
            apply(&mut spec, &images).map_err(|e| anyhow::anyhow!("{id}: {e}; nothing was changed"))?;
        if !changed {
            println!("{id} image already up to date");
            return Ok(());
        }
        let mut template_spec = json!({ "containers": spec["containers"] });
        if spec.get("initContainers").is_some() {
            template_spec["initContainers"] = spec["initContainers"].clone();
        }
        let patch = target::nested(path, template_spec);
        if args.dry_run == DryRun::Client {
            println!("{}", serde_json::to_string(&patch)?);
            eprintln!("{id} image updated (dry run: nothing sent)");
            return Ok(());
        }
        let params = args.dry_run.patch_params();
        // Status writes (the controller's) do not stop it; a spec change since the read is
        // refused by the shared helper, with nothing written.
        let updated = target::patch_unchanged_spec(&api, &t.name, &params, &object, &patch, &id).await?;
        let suffix = if params.dry_run { " (server dry run)" } else { "" };
        target::print(&updated, &id, &format!("image updated{suffix}"), args.output)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn images_apply_by_name_or_to_every_container_and_unknown_names_are_errors() {
        let mut spec = json!({ "containers": [
            { "name": "app", "image": "nginx:1", "ports": [{ "containerPort": 80 }] },
            { "name": "side", "image": "envoy:1" },
        ] });
        assert_eq!(apply(&mut spec, &[("app".into(), "nginx:2".into())]), Ok(true));
        assert_eq!(spec["containers"][0]["image"], "nginx:2");
        assert_eq!(
            spec["containers"][0]["ports"][0]["containerPort"], 80,
            "other fields kept"
        );
        assert_eq!(apply(&mut spec, &[("app".into(), "nginx:2".into())]), Ok(false));
        assert_eq!(apply(&mut spec, &[("*".into(), "x:1".into())]), Ok(true));
        assert_eq!(spec["containers"][1]["image"], "x:1");
        let err = apply(&mut spec, &[("nope".into(), "x:1".into())]).expect_err("unknown");
        assert!(err.contains("app, side"), "{err}");
        assert!(pairs(&["app".into()]).is_err());
    }
}
