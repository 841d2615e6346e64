//! `kubectl kruise set resources KIND/NAME --limits cpu=200m,memory=512Mi --requests ...`,
//! kubectl's verb on every kind with a pod template: `-c` (wildcards) chooses containers
//! and init containers, each named resource is set (others kept), `--dry-run`, `-o`.
//!
//! Invariants: a quantity that does not parse is an error naming it before anything is
//! read; a chosen container left with a request above its limit is an error naming the
//! container and the resource (the pods could not be created), and nothing is written.
use std::collections::BTreeMap;

use clap::Args;
use kube_quantity::ParsedQuantity;
use serde_json::{Value, json};

use super::pod_spec;
use crate::cli::UsageError;
use crate::cli::connection::ConnectionArgs;
use crate::cli::install::{DryRun, Output};

pub const HELP: &str = "\
Kinds: cloneset (clone), asts, ads, uniteddeployment (ud: its subset template), sidecarset
(its sidecar containers), deployment (deploy), statefulset (sts), daemonset (ds). A
resources change is not an in-place update here: the pods are recreated as the rollout
allows. The line after the result says which.

Examples:
  kubectl kruise set resources cloneset/web --limits=cpu=500m,memory=512Mi
  kubectl kruise set resources asts/db -c app --requests=cpu=250m --limits=cpu=1
  kubectl kruise set resources ud/shop --requests=memory=256Mi --dry-run";

#[derive(Debug, Args)]
pub struct ResourcesArgs {
    /// TYPE/NAME
    #[arg(value_name = "TYPE/NAME")]
    pub target: String,
    /// The containers to change (wildcards: `*`, `?`)
    #[arg(short = 'c', long, default_value = "*", value_name = "NAMES")]
    pub containers: String,
    /// Limits to set, e.g. cpu=200m,memory=512Mi
    #[arg(long, value_name = "NAME=QUANTITY,...")]
    pub limits: Option<String>,
    /// Requests to set, e.g. cpu=100m,memory=256Mi
    #[arg(long, value_name = "NAME=QUANTITY,...")]
    pub requests: Option<String>,
    /// Print the updated object in this format instead of one line
    #[arg(short = 'o', long, value_enum)]
    pub output: Option<Output>,
    /// `client` prints the patch without sending it; `server` sends it with dry-run
    #[arg(long, value_enum, default_value = "none", num_args = 0..=1, default_missing_value = "client")]
    pub dry_run: DryRun,
}

/// `cpu=200m,memory=512Mi` as names and quantities; an error names a bad entry.
fn parse(flag: &str, text: &str) -> Result<BTreeMap<String, String>, UsageError> {
    let quantities = crate::cli::key_values(flag, text, "NAME=QUANTITY", false)?;
    for (name, value) in &quantities {
        ParsedQuantity::try_from(value.as_str()).map_err(|_| {
            UsageError(format!(
                "--{flag} {name}={value:?}: not a quantity (e.g. 500m, 1.5, 256Mi)"
            ))
        })?;
    }
    Ok(quantities)
}

/// Sets `limits` and `requests` on `container`; an error names a request left above its
/// limit.
fn apply(
    container: &mut Value,
    limits: &BTreeMap<String, String>,
    requests: &BTreeMap<String, String>,
) -> Result<(), String> {
    let resources = pod_spec::field_of(container, "resources");
    for (field, set) in [("limits", limits), ("requests", requests)] {
        if set.is_empty() {
            continue;
        }
        let list = pod_spec::field_of(resources, field);
        for (name, value) in set {
            list[name] = json!(value);
        }
    }
    let quantity = |field: &str, name: &str| {
        resources[field][name]
            .as_str()
            .and_then(|q| ParsedQuantity::try_from(q).ok())
    };
    for name in resources["requests"]
        .as_object()
        .into_iter()
        .flat_map(|r| r.keys())
    {
        if let (Some(request), Some(limit)) = (quantity("requests", name), quantity("limits", name))
            && request > limit
        {
            return Err(format!(
                "resources.requests.{name} ({}) is above resources.limits.{name} ({})",
                resources["requests"][name].as_str().unwrap_or_default(),
                resources["limits"][name].as_str().unwrap_or_default(),
            ));
        }
    }
    Ok(())
}

pub async fn run(args: ResourcesArgs, connection: &ConnectionArgs) -> anyhow::Result<()> {
    let limits = parse("limits", args.limits.as_deref().unwrap_or_default())?;
    let requests = parse("requests", args.requests.as_deref().unwrap_or_default())?;
    if limits.is_empty() && requests.is_empty() {
        return Err(UsageError("set resources: give --limits or --requests (see --help)".into()).into());
    }
    let read = pod_spec::read(std::slice::from_ref(&args.target), connection, "set resources").await?;
    let mut spec = read.pod_spec().clone();
    for container in
        pod_spec::choose(&mut spec, &args.containers).map_err(|e| anyhow::anyhow!("{}: {e}", read.id))?
    {
        let name = container["name"].as_str().unwrap_or_default().to_string();
        apply(container, &limits, &requests)
            .map_err(|e| anyhow::anyhow!("{}: container {name}: {e}; nothing was changed", read.id))?;
    }
    read.write(&spec, "resource requirements", args.dry_run, args.output)
        .await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_parse_and_a_bad_quantity_is_named() {
        let parsed = parse("limits", "cpu=200m, memory=512Mi").expect("parsed");
        assert_eq!(parsed["cpu"], "200m");
        assert_eq!(parsed["memory"], "512Mi");
        let err = parse("limits", "cpu=lots").expect_err("bad").0;
        assert!(err.contains("--limits cpu=\"lots\""), "{err}");
        assert!(parse("requests", "cpu").is_err());
    }

    #[test]
    fn named_resources_are_set_others_kept_and_a_request_above_its_limit_is_refused() {
        let mut container = json!({ "name": "app",
            "resources": { "limits": { "cpu": "1", "memory": "1Gi" } } });
        let requests = BTreeMap::from([("cpu".to_string(), "500m".to_string())]);
        apply(&mut container, &BTreeMap::new(), &requests).expect("applied");
        assert_eq!(
            container["resources"],
            json!({ "limits": { "cpu": "1", "memory": "1Gi" }, "requests": { "cpu": "500m" } })
        );
        let too_much = BTreeMap::from([("memory".to_string(), "2Gi".to_string())]);
        let err = apply(&mut container, &BTreeMap::new(), &too_much).expect_err("above");
        assert!(
            err.contains("resources.requests.memory (2Gi) is above resources.limits.memory (1Gi)"),
            "{err}"
        );
    }
}
