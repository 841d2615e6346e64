//! `kubectl kruise get KIND [NAME ...]`: workloads as a borderless table with the columns
//! the API server prints for the kind (a CRD's printer columns, e.g. CloneSet's DESIRED,
//! UPDATED, UPDATED_READY, UPDATED_AVAILABLE, READY, TOTAL, AGE), or `-o wide|json|yaml|name`.
//!
//! Invariant: the table comes from the server (`as=Table`), so the columns are exactly the
//! ones `kubectl get` shows for the same kind and version.
//!
//! `--tree` draws one named workload with its revisions and pods instead ([`super::tree`]);
//! a SidecarSet, a job or a WorkloadSpread its own way ([`super::sidecarset::tree`],
//! [`super::jobs::tree`], [`super::workloadspread::tree`]).
//!
//! WorkloadSpreads (`ws`) and PodUnavailableBudgets (`pub`) are recognised here, before
//! the rollout kinds ([`Kind`], [`super::kinds::listed_only`]): they are listed (and a
//! WorkloadSpread drawn), but no rollout verb acts on them.
use clap::{Args, ValueEnum};
use kube::api::{Api, ApiResource, DynamicObject, ListParams};
use serde_json::Value;

use super::UsageError;
use super::connection::ConnectionArgs;
use super::kinds::listed_only;
use super::target::{self, Kind};
use crate::api::KruiseKind;

pub const HELP: &str = "\
Kinds: cloneset (clone), asts, ads, deployment (deploy), statefulset (sts), daemonset (ds),
bcj, acj, sidecarset, workloadspread (ws), podunavailablebudget (pub).

With --tree, one workload: its revisions (newest first, at most --revisions) and the pods at
each, every pod with an icon: done (ready at the update revision), idle (ready at an older
revision), in progress, failed or unknown; ASCII icons when the locale is not UTF-8.
A SidecarSet shows the pods it selects grouped by the sidecars they run (latest, older) and
the matching pods created without them. A WorkloadSpread shows its subsets in order, each
with its max, actual and missing replicas and the target's pods placed in it, then the
target's pods in no subset.

Examples:
  kubectl kruise get clone
  kubectl kruise get cloneset web -o wide
  kubectl kruise get clone -A --no-headers
  kubectl kruise get cloneset/web --tree --revisions 5
  kubectl kruise get sidecarset/log-agent --tree
  kubectl kruise get ws
  kubectl kruise get ws/spread --tree
  kubectl kruise get pub -A";

/// The kinds `get` takes, as its messages list them.
const KINDS: &str = "clone, asts, ads, deploy, sts, ds, bcj, acj, sidecarset, ws, pub";

fn unknown_type(token: &str) -> UsageError {
    UsageError(format!(
        "unknown resource type {token:?}; use one of {KINDS} (see --help)"
    ))
}

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

/// The type token of each word (`TYPE/NAME`), or of the first (`TYPE NAME ...`).
fn type_tokens(words: &[String]) -> Vec<&str> {
    match words.first() {
        Some(first) if first.contains('/') => words
            .iter()
            .map(|w| w.split_once('/').map_or(w.as_str(), |(t, _)| t))
            .collect(),
        Some(first) => vec![first.as_str()],
        None => Vec::new(),
    }
}

/// The listed-only kind (`ws`, `pub`) and the names `words` give (`ws [NAME ...]` or
/// `ws/NAME ...`), or None when the words name no such kind. Mixing it with another type
/// is refused.
fn listed_only_names(words: &[String]) -> Option<Result<(KruiseKind, Vec<String>), UsageError>> {
    let kind = type_tokens(words).into_iter().find_map(listed_only)?;
    let (first, rest) = words.split_first()?;
    if !first.contains('/') {
        return Some(Ok((kind, rest.to_vec())));
    }
    let token = kind.short_names().first().copied().unwrap_or_default();
    let names: Result<Vec<String>, UsageError> = words
        .iter()
        .map(|w| match w.split_once('/') {
            Some((t, name)) if listed_only(t) == Some(kind) && !name.is_empty() => Ok(name.to_string()),
            _ => Err(UsageError(format!(
                "{w:?}: expected {token}/NAME; get lists one type at a time (see --help)"
            ))),
        })
        .collect();
    Some(names.map(|names| (kind, names)))
}

/// `get ws/NAME --tree` or `get ws NAME --tree`: exactly one object of a listed-only kind.
fn one_name(kind: KruiseKind, names: Vec<String>) -> Result<String, UsageError> {
    match <[String; 1]>::try_from(names) {
        Ok([name]) => Ok(name),
        Err(_) => {
            let token = kind.short_names().first().copied().unwrap_or_default();
            Err(UsageError(format!(
                "--tree shows one {}: name it, e.g. `get {token}/NAME --tree` (see --help)",
                kind.name()
            )))
        }
    }
}

/// `get KIND/NAME --tree` or `get KIND NAME --tree`: exactly one object.
fn tree_target(words: &[String]) -> Result<target::Target, UsageError> {
    let hint = || {
        UsageError("--tree shows one workload: name it, e.g. `get cloneset/web --tree` (see --help)".into())
    };
    if let Some(token) = type_tokens(words)
        .into_iter()
        .find(|t| Kind::from_token(t).is_none() && listed_only(t).is_none())
    {
        return Err(unknown_type(token));
    }
    let mut targets = target::parse(words).map_err(|e| match words {
        [token] if Kind::from_token(token).is_some() => hint(),
        _ => e,
    })?;
    match targets.len() {
        1 => Ok(targets.remove(0)),
        _ => Err(hint()),
    }
}

/// What the table path needs of a type: its API resource and scope.
struct Listed {
    resource: ApiResource,
    cluster_scoped: bool,
}

impl Listed {
    fn of(kind: Kind) -> Self {
        Listed {
            resource: kind.resource(),
            cluster_scoped: kind.cluster_scoped(),
        }
    }

    fn listed_only(kind: KruiseKind) -> Self {
        Listed {
            resource: kind.resource(),
            cluster_scoped: !kind.namespaced(),
        }
    }

    /// `<plural>.<group>`, as `-o name` prints it.
    fn qualified(&self) -> String {
        super::kinds::qualified(self.resource.clone())
    }

    fn api(&self, client: &kube::Client, namespace: &str, all_namespaces: bool) -> Api<DynamicObject> {
        if all_namespaces || self.cluster_scoped {
            Api::all_with(client.clone(), &self.resource)
        } else {
            Api::namespaced_with(client.clone(), namespace, &self.resource)
        }
    }
}

/// The type and the names the words give.
fn listing(words: &[String]) -> Result<(Listed, Vec<String>), UsageError> {
    if let Some(listed) = listed_only_names(words) {
        let (kind, names) = listed?;
        return Ok((Listed::listed_only(kind), names));
    }
    let (token, names) = words
        .split_first()
        .ok_or_else(|| UsageError("name a kind (see --help)".into()))?;
    let kind = Kind::from_token(token).ok_or_else(|| unknown_type(token))?;
    Ok((Listed::of(kind), names.to_vec()))
}

/// Draws the one object `words` name (`--tree`).
async fn tree(args: &GetArgs, connection: &ConnectionArgs) -> anyhow::Result<String> {
    let glyphs = super::glyphs::for_locale();
    if let Some(listed) = listed_only_names(&args.words) {
        let (kind, names) = listed?;
        let name = one_name(kind, names)?;
        let (client, namespace) = target::connect(connection).await?;
        return super::views::listed_tree(kind, &client, &namespace, &name, glyphs)
            .await
            .unwrap_or_else(|| {
                Err(UsageError(format!(
                    "--tree draws workloads and WorkloadSpreads; list a {} without it (see --help)",
                    kind.name()
                ))
                .into())
            });
    }
    let target = tree_target(&args.words)?;
    let (client, namespace) = target::connect(connection).await?;
    let view = target.kind.tree_view();
    if let Some(tree) = super::views::tree(view, &client, &namespace, &target, glyphs).await {
        return tree;
    }
    let input = super::tree::load(&client, &namespace, &target, args.revisions as usize).await?;
    Ok(super::tree::render_tree(&input, glyphs))
}

pub async fn run(args: GetArgs, connection: &ConnectionArgs) -> anyhow::Result<()> {
    if args.tree {
        print!("{}", tree(&args, connection).await?);
        return Ok(());
    }
    let (listed, names) = listing(&args.words)?;
    let (client, namespace) = target::connect(connection).await?;
    let api = listed.api(&client, &namespace, args.all_namespaces);
    let mut objects = Vec::new();
    if names.is_empty() {
        objects = api.list(&ListParams::default()).await?.items;
    } else {
        for name in &names {
            objects.push(api.get(name).await?);
        }
    }
    match args.output {
        Some(GetOutput::Name) => {
            for o in &objects {
                println!(
                    "{}/{}",
                    listed.qualified(),
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
        if listed.cluster_scoped {
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
            args.all_namespaces && !listed.cluster_scoped
        )
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::api::KruiseKind;

    #[test]
    fn a_tree_names_exactly_one_object_in_either_form() {
        let words = |w: &[&str]| w.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        for ok in [&["clone/web"][..], &["cloneset", "web"]] {
            let t = tree_target(&words(ok)).expect("one object");
            assert_eq!(
                (t.kind, t.name.as_str()),
                (Kind::Kruise(KruiseKind::CloneSet), "web")
            );
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
    fn listed_only_kinds_are_named_in_either_form_and_never_mixed() {
        let words = |w: &[&str]| w.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        let names = |w: &[&str]| listed_only_names(&words(w));
        assert!(names(&["clone", "web"]).is_none());
        assert!(names(&["clone/web"]).is_none());
        let ok = |w: &[&str]| names(w).expect("listed only").expect("valid");
        let spread = KruiseKind::WorkloadSpread;
        let budget = KruiseKind::PodUnavailableBudget;
        assert_eq!(ok(&["WS"]), (spread, Vec::new()));
        assert_eq!(ok(&["WorkloadSpreads", "a", "b"]), (spread, words(&["a", "b"])));
        assert_eq!(ok(&["ws/a", "workloadspread/b"]), (spread, words(&["a", "b"])));
        assert_eq!(ok(&["pub"]), (budget, Vec::new()));
        assert_eq!(
            ok(&["podunavailablebudgets.policy.kruise.io", "a"]),
            (budget, words(&["a"]))
        );
        assert_eq!(
            ok(&["pub/a", "PodUnavailableBudget/b"]),
            (budget, words(&["a", "b"]))
        );
        for bad in [
            &["ws/a", "clone/b"][..],
            &["clone/b", "ws/a"],
            &["ws/"],
            &["ws/a", "pub/b"],
        ] {
            let e = names(bad).expect("a ws").expect_err("refused");
            assert!(e.0.contains("ws/NAME"), "{}", e.0);
        }
        let e = names(&["pub/a", "ws/b"]).expect("a pub").expect_err("refused");
        assert!(e.0.contains("pub/NAME"), "{}", e.0);
        assert_eq!(one_name(spread, ok(&["ws/spread"]).1).expect("one"), "spread");
        for many in [&["ws"][..], &["ws", "a", "b"]] {
            let e = one_name(spread, ok(many).1).expect_err("refused");
            assert!(e.0.contains("get ws/NAME --tree"), "{}", e.0);
        }
    }

    #[test]
    fn an_unknown_type_lists_every_kind_get_takes() {
        let words = |w: &[&str]| w.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        let e = listing(&words(&["widget"])).err().expect("refused");
        assert!(e.0.contains("sidecarset, ws, pub"), "{}", e.0);
        let e = tree_target(&words(&["widget/web"])).expect_err("refused");
        assert!(e.0.contains("sidecarset, ws, pub"), "{}", e.0);
        let (listed, names) = listing(&words(&["ws", "spread"])).expect("ws");
        assert_eq!(
            (listed.qualified(), names),
            ("workloadspreads.apps.kruise.io".into(), vec!["spread".into()])
        );
        let (listed, _) = listing(&words(&["pub"])).expect("pub");
        assert_eq!(
            (listed.qualified(), listed.cluster_scoped),
            ("podunavailablebudgets.policy.kruise.io".into(), false)
        );
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
