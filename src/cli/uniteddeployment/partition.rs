//! `kubectl kruise set partition ud/NAME SUBSET=N`: a UnitedDeployment keeps one partition
//! per subset (`spec.updateStrategy.manualUpdate.partitions`), which its controller writes
//! into that subset's workload. N is a number of pods (capped by the controller at the
//! subset's replicas); 0 releases the subset.
//!
//! Invariants: the subset must be one of the topology's (else nothing is written and the
//! error lists them); only that subset's entry changes; the patch is guarded by the
//! generation it was planned from, as every spec write of the CLI.
use kube::api::{Api, DynamicObject};
use serde_json::{Value, json};

use crate::cli::UsageError;
use crate::cli::connection::ConnectionArgs;
use crate::cli::install::{DryRun, Output};
use crate::cli::target::{self, Target};

/// `SUBSET=N`, checked.
fn parse(text: &str) -> Result<(String, i64), UsageError> {
    let bad = || {
        UsageError(format!(
            "partition {text:?}: a UnitedDeployment's partition is per subset: SUBSET=N (a number of pods, e.g. zone-a=2)"
        ))
    };
    let (subset, n) = text.split_once('=').ok_or_else(bad)?;
    let n: i64 = n
        .parse()
        .ok()
        .filter(|n| (0..=i64::from(i32::MAX)).contains(n))
        .ok_or_else(bad)?;
    if subset.is_empty() {
        return Err(bad());
    }
    Ok((subset.to_string(), n))
}

/// The names of `ud`'s topology subsets.
fn subsets(ud: &Value) -> Vec<String> {
    ud["spec"]["topology"]["subsets"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|s| s["name"].as_str().map(String::from))
        .collect()
}

/// What `set partition` was given.
pub struct Partition<'a> {
    /// `SUBSET=N`.
    pub text: &'a str,
    pub dry_run: DryRun,
    pub output: Option<Output>,
}

pub async fn run(args: Partition<'_>, t: &Target, connection: &ConnectionArgs) -> anyhow::Result<()> {
    let (subset, partition) = parse(args.text)?;
    let (client, namespace) = target::connect(connection).await?;
    let api: Api<DynamicObject> = t.api(&client, &namespace);
    let id = t.id();
    let object = api.get(&t.name).await?;
    let raw = serde_json::to_value(&object)?;
    let names = subsets(&raw);
    if !names.contains(&subset) {
        return Err(UsageError(format!(
            "{id} has no subset {subset:?} (its subsets: {}); nothing was changed",
            names.join(", ")
        ))
        .into());
    }
    let replicas = raw["status"]["subsetReplicas"][&subset].as_i64();
    let of = replicas.map_or(String::new(), |r| format!(" of its {r} replicas"));
    eprintln!("{id}: subset {subset} partition {partition}{of}");
    let patch = json!({ "spec": { "updateStrategy": { "manualUpdate": { "partitions": { (subset): partition } } } } });
    target::send_spec_patch(&api, t, &object, &patch, args.dry_run, args.output, "partitioned").await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_subset_partition_is_subset_equals_a_number() {
        assert_eq!(parse("zone-a=2").expect("parsed"), ("zone-a".into(), 2));
        for bad in ["2", "zone-a=", "=2", "zone-a=-1", "zone-a=40%"] {
            let error = parse(bad).expect_err(bad);
            assert!(error.0.contains("SUBSET=N"), "{bad}: {}", error.0);
        }
    }
}
