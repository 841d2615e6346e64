//! `kubectl kruise get KIND [NAME ...]`: workloads as a borderless table with the columns
//! the API server prints for the kind (a CRD's printer columns, e.g. CloneSet's DESIRED,
//! UPDATED, UPDATED_READY, UPDATED_AVAILABLE, READY, TOTAL, AGE), or `-o wide|json|yaml|name`.
//!
//! Invariant: the table comes from the server (`as=Table`), so the columns are exactly the
//! ones `kubectl get` shows for the same kind and version.
//!
//! `--tree` draws one named workload with its revisions and pods instead ([`super::tree`]).
use clap::{Args, ValueEnum};
use kube::api::{Api, DynamicObject, ListParams};
use serde_json::Value;

use super::UsageError;
use super::connection::ConnectionArgs;
use super::target::{self, Kind};

pub const HELP: &str = "\
Kinds: cloneset (clone), asts, ads, deployment (deploy), statefulset (sts), daemonset (ds),
bcj, acj, sidecarset. With --tree, a SidecarSet shows the pods it selects grouped by the
sidecars they run (latest, older) and the matching pods created without them. One workload: its revisions (newest first, at most --revisions) and the pods at
each, every pod with an icon: done (ready at the update revision), idle (ready at an older
revision), in progress, failed or unknown; ASCII icons when the locale is not UTF-8.

Examples:
  kubectl kruise get clone
  kubectl kruise get cloneset web -o wide
  kubectl kruise get clone -A --no-headers
  kubectl kruise get cloneset/web --tree --revisions 5
  kubectl kruise get sidecarset/log-agent --tree";

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum GetOutput {
    Wide,
    Json,
    Yaml,
    Name,
}

#[derive(Debug, Args)]
pub struct GetArgs {
    /// The kind, then optionally names
    #[arg(required = true, value_name = "TYPE [NAME ...]")]
    pub words: Vec<String>,
    /// Output format
    #[arg(short = 'o', long, value_enum)]
    pub output: Option<GetOutput>,
    /// List in every namespace
    #[arg(short = 'A', long)]
    pub all_namespaces: bool,
    /// Omit the header line
    #[arg(long)]
    pub no_headers: bool,
    /// Draw one named workload as a tree: its revisions, newest first, and the pods at each
    #[arg(long, conflicts_with_all = ["output", "all_namespaces", "no_headers"])]
    pub tree: bool,
    /// With --tree: how many revisions to show
    #[arg(
        long,
        value_name = "N",
        default_value_t = 3,
        requires = "tree",
        value_parser = clap::value_parser!(u32).range(1..)
    )]
    pub revisions: u32,
}

/// Renders a `meta.k8s.io/v1` Table: UPPER_SNAKE headers, columns two spaces apart.
pub fn render_table(table: &Value, wide: bool, no_headers: bool, namespace_column: bool) -> String {
    let columns: Vec<(usize, String)> = table["columnDefinitions"]
        .as_array()
        .into_iter()
        .flatten()
        .enumerate()
        .filter(|(_, c)| wide || c["priority"].as_i64().unwrap_or(0) == 0)
        .map(|(i, c)| {
            (
                i,
                c["name"].as_str().unwrap_or("").to_uppercase().replace(' ', "_"),
            )
        })
        .collect();
    let mut rows: Vec<Vec<String>> = Vec::new();
    let mut header: Vec<String> = columns.iter().map(|(_, n)| n.clone()).collect();
    if namespace_column {
        header.insert(0, "NAMESPACE".into());
    }
    if !no_headers {
        rows.push(header);
    }
    for row in table["rows"].as_array().into_iter().flatten() {
        let cells = row["cells"].as_array().cloned().unwrap_or_default();
        let mut line: Vec<String> = columns
            .iter()
            .map(|(i, _)| match cells.get(*i) {
                Some(Value::String(s)) => s.clone(),
                Some(Value::Null) | None => "<none>".into(),
                Some(other) => other.to_string(),
            })
            .collect();
        if namespace_column {
            line.insert(
                0,
                row["object"]["metadata"]["namespace"]
                    .as_str()
                    .unwrap_or("")
                    .to_string(),
            );
        }
        rows.push(line);
    }
    super::table::render_rows(&rows)
}

/// `get KIND/NAME --tree` or `get KIND NAME --tree`: exactly one object.
fn tree_target(words: &[String]) -> Result<target::Target, UsageError> {
    let hint = || {
        UsageError("--tree shows one workload: name it, e.g. `get cloneset/web --tree` (see --help)".into())
    };
    let mut targets = target::parse(words).map_err(|e| match words {
        [token] if Kind::from_token(token).is_some() => hint(),
        _ => e,
    })?;
    match targets.len() {
        1 => Ok(targets.remove(0)),
        _ => Err(hint()),
    }
}

pub async fn run(args: GetArgs, connection: &ConnectionArgs) -> anyhow::Result<()> {
    if args.tree {
        let target = tree_target(&args.words)?;
        let (client, namespace) = target::connect(connection).await?;
        if target.kind == Kind::SidecarSet {
            let glyphs = super::glyphs::for_locale();
            print!(
                "{}",
                super::sidecarset_tree::load_and_render(&client, &target.name, glyphs).await?
            );
            return Ok(());
        }
        if target.kind.is_job() {
            let glyphs = super::glyphs::for_locale();
            print!(
                "{}",
                super::job_tree::load_and_render(&client, &namespace, &target, glyphs).await?
            );
            return Ok(());
        }
        let input = super::tree::load(&client, &namespace, &target, args.revisions as usize).await?;
        print!(
            "{}",
            super::tree::render_tree(&input, super::glyphs::for_locale())
        );
        return Ok(());
    }
    let (token, names) = args
        .words
        .split_first()
        .ok_or_else(|| UsageError("name a kind (see --help)".into()))?;
    let kind = Kind::from_token(token).ok_or_else(|| {
        UsageError(format!(
            "unknown resource type {token:?}; use one of clone, asts, ads, deploy, sts, ds, bcj, acj, sidecarset (see --help)"
        ))
    })?;
    let (client, namespace) = target::connect(connection).await?;
    let resource = kind.resource();
    let api: Api<DynamicObject> = if args.all_namespaces {
        Api::all_with(client.clone(), &resource)
    } else {
        kind.api(&client, &namespace)
    };
    let mut objects = Vec::new();
    if names.is_empty() {
        objects = api.list(&ListParams::default()).await?.items;
    } else {
        for name in names {
            objects.push(api.get(name).await?);
        }
    }
    match args.output {
        Some(GetOutput::Name) => {
            for o in &objects {
                println!(
                    "{}/{}",
                    kind.qualified(),
                    o.metadata.name.as_deref().unwrap_or_default()
                );
            }
            return Ok(());
        }
        Some(format @ (GetOutput::Json | GetOutput::Yaml)) => {
            let value = if names.len() == 1 {
                serde_json::to_value(&objects[0])?
            } else {
                serde_json::json!({ "apiVersion": "v1", "kind": "List", "items": objects })
            };
            if format == GetOutput::Json {
                println!("{}", serde_json::to_string_pretty(&value)?);
            } else {
                print!("{}", serde_saphyr::to_string(&value)?);
            }
            return Ok(());
        }
        None | Some(GetOutput::Wide) => {}
    }
    if objects.is_empty() {
        if kind.cluster_scoped() {
            eprintln!("No resources found.");
        } else {
            eprintln!(
                "No resources found in {} namespace.",
                if args.all_namespaces { "any" } else { &namespace }
            );
        }
        return Ok(());
    }
    // The server's table of the same objects.
    let base = api.resource_url();
    let mut url = if names.len() == 1 {
        format!("{base}/{}", names[0])
    } else {
        base.to_string()
    };
    url.push_str("?includeObject=Metadata");
    let request = http::Request::get(url)
        .header("Accept", "application/json;as=Table;v=v1;g=meta.k8s.io")
        .body(Vec::new())?;
    let mut table: Value = serde_json::from_str(&client.request_text(request).await?)?;
    if names.len() > 1
        && let Some(rows) = table["rows"].as_array_mut()
    {
        rows.retain(|r| {
            r["object"]["metadata"]["name"]
                .as_str()
                .is_some_and(|n| names.iter().any(|x| x == n))
        });
    }
    print!(
        "{}",
        render_table(
            &table,
            args.output == Some(GetOutput::Wide),
            args.no_headers,
            args.all_namespaces && !kind.cluster_scoped()
        )
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn a_tree_names_exactly_one_object_in_either_form() {
        let words = |w: &[&str]| w.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        for ok in [&["clone/web"][..], &["cloneset", "web"]] {
            let t = tree_target(&words(ok)).expect("one object");
            assert_eq!((t.kind, t.name.as_str()), (Kind::CloneSet, "web"));
        }
        for bad in [
            &["clone"][..],
            &["clone", "a", "b"],
            &["clone/a", "clone/b"],
            &["widget/web"],
        ] {
            let e = tree_target(&words(bad)).expect_err("refused");
            assert!(e.0.contains("--help"), "{}", e.0);
        }
    }

    #[test]
    fn the_table_is_borderless_with_wide_columns_only_when_asked() {
        let table = json!({
            "columnDefinitions": [
                { "name": "Name", "priority": 0 }, { "name": "UPDATED_READY", "priority": 0 },
                { "name": "IMAGES", "priority": 1 },
            ],
            "rows": [
                { "cells": ["web", 3, "nginx:1"], "object": { "metadata": { "namespace": "a" } } },
                { "cells": ["api-server", 10, null], "object": { "metadata": { "namespace": "b" } } },
            ],
        });
        assert_eq!(
            render_table(&table, false, false, false),
            "NAME        UPDATED_READY\nweb         3\napi-server  10\n"
        );
        assert_eq!(
            render_table(&table, true, true, true),
            "a  web         3   nginx:1\nb  api-server  10  <none>\n"
        );
    }
}
