//! `kubectl kruise set image KIND/NAME CONTAINER=IMAGE ...` (kubectl's form; `*=IMAGE` sets
//! every container).
//!
//! Invariants: written on the shared path ([`super::pod_spec`]: the whole container list,
//! guarded by the generation it was read at); an unknown container name is an error naming
//! the containers there are, and nothing is written.
use clap::Args;
use serde_json::{Value, json};

use super::pod_spec;
use crate::cli::UsageError;
use crate::cli::connection::ConnectionArgs;
use crate::cli::install::{DryRun, Output};

pub const HELP: &str = "\
Kinds: cloneset (clone), asts, ads, uniteddeployment (ud: its subset template), deployment
(deploy), statefulset (sts), daemonset (ds), sidecarset. Under CloneSet's InPlaceIfPossible
an image change updates the pods in place; a SidecarSet's image change upgrades the sidecar
in the pods it injected, in place. The line after the result says what the pods do.

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
            for c in spec
                .get_mut(list)
                .and_then(Value::as_array_mut)
                .into_iter()
                .flatten()
            {
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
            let names = pod_spec::container_names(spec);
            return Err(format!(
                "no container {container:?} (containers: {})",
                names.join(", ")
            ));
        }
    }
    Ok(changed)
}

pub async fn run(args: ImageArgs, connection: &ConnectionArgs) -> anyhow::Result<()> {
    let images = pairs(&args.images)?;
    let read = pod_spec::read(std::slice::from_ref(&args.target), connection, "set image").await?;
    let mut spec = read.pod_spec().clone();
    apply(&mut spec, &images).map_err(|e| anyhow::anyhow!("{}: {e}; nothing was changed", read.id))?;
    read.write(&spec, "image", args.dry_run, args.output).await
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
