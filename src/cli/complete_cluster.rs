//! Completion candidates that come from the cluster (docs/cli.md, shell completion): workload names
//! for the type already typed (WorkloadSpread and PodUnavailableBudget names too, after `get ws`, `get pub`), revisions for
//! `--revision`/`--to-revision`, pod names for `scale --delete`, container names for
//! `set image`.
//!
//! Invariants: the connection is the one the typed words name (`--kubeconfig`,
//! `--context`, `-n`); every lookup has a 2-second limit; any error gives no candidates.
use std::time::Duration;

use clap::Command;
use k8s_openapi::api::core::v1::Pod;
use kube::ResourceExt;
use kube::api::{Api, ApiResource, DynamicObject, ListParams};

use super::connection::ConnectionArgs;
use super::kinds::listed_only;
use super::target::{self, Kind, Target};
use crate::runtime::cached_pod::{self, CachedPod};

/// Verbs whose positional words are workloads.
const TARGET_VERBS: &[&str] = &[
    "status",
    "pause",
    "resume",
    "history",
    "undo",
    "restart",
    "step",
    "partition",
    "image",
    "env",
    "resources",
    "serviceaccount",
    "expose",
    "scale",
    "get",
];

/// The value of `flag` (`--flag V` or `--flag=V`) among the typed words.
pub fn flag_value(words: &[String], names: &[&str]) -> Option<String> {
    words.iter().enumerate().find_map(|(i, w)| {
        names.iter().find_map(|n| {
            if w == n {
                words.get(i + 1).cloned()
            } else {
                w.strip_prefix(&format!("{n}=")).map(str::to_string)
            }
        })
    })
}

/// The connection the typed words point at.
pub fn connection_of(words: &[String]) -> ConnectionArgs {
    ConnectionArgs {
        kubeconfig: flag_value(words, &["--kubeconfig"]).map(Into::into),
        context: flag_value(words, &["--context"]),
        namespace: flag_value(words, &["-n", "--namespace"]),
        request_timeout: "2s".into(),
        ..Default::default()
    }
}

/// The positional words after the subcommand `command` was found by (flags and their
/// values skipped).
fn positionals(command: &Command, root: &Command, words: &[String]) -> Vec<String> {
    let takes_value = |flag: &str| {
        let find = |c: &Command| {
            c.get_arguments()
                .find(|a| {
                    flag.strip_prefix("--").is_some_and(|l| a.get_long() == Some(l))
                        || (flag.len() == 2
                            && flag.strip_prefix('-').and_then(|s| s.chars().next()) == a.get_short())
                })
                .map(|a| a.get_action().takes_values() && a.get_num_args().is_none_or(|n| n.min_values() > 0))
        };
        find(command).or_else(|| find(root)).unwrap_or(false)
    };
    let start = words
        .iter()
        .position(|w| w == command.get_name())
        .map(|i| i + 1)
        .unwrap_or(words.len());
    let mut out = Vec::new();
    let mut skip = false;
    for w in &words[start..] {
        if skip {
            skip = false;
        } else if w.starts_with('-') {
            skip = !w.contains('=') && takes_value(w);
        } else {
            out.push(w.clone());
        }
    }
    out
}

/// The workload the typed positionals name, if any (`TYPE/NAME` or `TYPE NAME`).
fn typed_target(positionals: &[String]) -> Option<Target> {
    target::parse(positionals).ok()?.into_iter().next()
}

async fn within<T>(lookup: impl Future<Output = Option<T>>) -> Option<T> {
    tokio::time::timeout(Duration::from_secs(2), lookup)
        .await
        .ok()
        .flatten()
}

/// A type whose names `verb` completes: its API resource and whether it is cluster-scoped.
/// WorkloadSpreads and PodUnavailableBudgets only for `get` (no rollout verb acts on them).
fn listed_type(verb: &str, token: &str) -> Option<(ApiResource, bool)> {
    if let Some(kind) = Kind::from_token(token) {
        return Some((kind.resource(), kind.cluster_scoped()));
    }
    let kind = listed_only(token).filter(|_| verb == "get")?;
    Some((kind.resource(), !kind.namespaced()))
}

/// The description shown beside a kind token.
fn qualified(token: &str) -> String {
    match Kind::from_token(token) {
        Some(kind) => kind.qualified(),
        None => listed_only(token).map_or_else(String::new, |k| super::kinds::qualified(k.resource())),
    }
}

async fn names(
    connection: &ConnectionArgs,
    (resource, cluster_scoped): (ApiResource, bool),
) -> Option<Vec<String>> {
    let (client, namespace) = target::connect(connection).await.ok()?;
    let api: Api<DynamicObject> = if cluster_scoped {
        Api::all_with(client, &resource)
    } else {
        Api::namespaced_with(client, &namespace, &resource)
    };
    let list = api.list_metadata(&ListParams::default()).await.ok()?;
    Some(list.items.into_iter().filter_map(|o| o.metadata.name).collect())
}

async fn owned_pods(connection: &ConnectionArgs, t: &Target) -> Option<Vec<Pod>> {
    let (client, namespace) = target::connect(connection).await.ok()?;
    let object = t.api(&client, &namespace).get(&t.name).await.ok()?;
    let uid = object.uid()?;
    let pods: Api<CachedPod> = Api::namespaced(client, &namespace);
    let list = cached_pod::list(&pods, &ListParams::default()).await.ok()?;
    Some(
        list.into_iter()
            .filter(|p| p.owner_references().iter().any(|o| o.uid == uid))
            .collect(),
    )
}

async fn revisions(connection: &ConnectionArgs, t: &Target) -> Option<Vec<(String, String)>> {
    let (client, namespace) = target::connect(connection).await.ok()?;
    let object = t.api(&client, &namespace).get(&t.name).await.ok()?;
    let list = super::history::revisions(&client, &namespace, t.kind, &object)
        .await
        .ok()?;
    Some(
        list.into_iter()
            .rev()
            .map(|r| (r.number.to_string(), r.name))
            .collect(),
    )
}

async fn containers(connection: &ConnectionArgs, t: &Target) -> Option<Vec<String>> {
    let (client, namespace) = target::connect(connection).await.ok()?;
    let object = t.api(&client, &namespace).get(&t.name).await.ok()?;
    let value = serde_json::to_value(&object).ok()?;
    let list = target::value_at(&value, t.kind.containers_path(&value))["containers"]
        .as_array()?
        .clone();
    Some(
        list.iter()
            .filter_map(|c| c["name"].as_str().map(|n| format!("{n}=")))
            .collect(),
    )
}

/// Candidates from the cluster for `partial`, or None when the cluster has nothing to say
/// here (the caller then offers subcommands and flags).
pub async fn candidates(
    root: &Command,
    command: &Command,
    done: &[String],
    partial: &str,
) -> Option<Vec<(String, String)>> {
    let connection = connection_of(done);
    let positionals = positionals(command, root, done);
    let previous = done.last().map(String::as_str).unwrap_or("");
    let plain = |list: Vec<String>| list.into_iter().map(|c| (c, String::new())).collect::<Vec<_>>();
    if matches!(previous, "--revision" | "--to-revision") {
        let t = typed_target(&positionals)?;
        return within(revisions(&connection, &t)).await;
    }
    if matches!(previous, "--delete" | "--pods") {
        let t = typed_target(&positionals)?;
        let pods = within(owned_pods(&connection, &t)).await?;
        let (head, _) = partial.rsplit_once(',').unwrap_or(("", partial));
        let head = if head.is_empty() {
            String::new()
        } else {
            format!("{head},")
        };
        return Some(plain(
            pods.iter().map(|p| format!("{head}{}", p.name_any())).collect(),
        ));
    }
    let rollout_status = command.get_name() != "status" || done.iter().any(|w| w == "rollout");
    if partial.starts_with('-') || !TARGET_VERBS.contains(&command.get_name()) || !rollout_status {
        return None;
    }
    if command.get_name() == "image"
        && let Some(t) = typed_target(&positionals)
    {
        return within(containers(&connection, &t)).await.map(plain);
    }
    let verb = command.get_name();
    if let Some((token, _)) = partial.split_once('/') {
        let listed = listed_type(verb, token)?;
        let list = within(names(&connection, listed)).await?;
        return Some(plain(list.into_iter().map(|n| format!("{token}/{n}")).collect()));
    }
    match positionals.as_slice() {
        [] => Some(
            kinds_for(verb)
                .iter()
                .map(|k| (k.to_string(), qualified(k)))
                .collect(),
        ),
        [token, ..] if !token.contains('/') => {
            let listed = listed_type(verb, token)?;
            within(names(&connection, listed)).await.map(plain)
        }
        _ => None,
    }
}

/// The kind tokens a verb takes: the job kinds only where they mean something.
fn kinds_for(verb: &str) -> &'static [&'static str] {
    const WORKLOADS: &[&str] = &["clone", "asts", "ads", "deploy", "sts", "ds"];
    match verb {
        "pause" | "resume" => &[
            "clone",
            "asts",
            "ads",
            "deploy",
            "sts",
            "ds",
            "bcj",
            "acj",
            "sidecarset",
        ],
        "get" => &[
            "clone",
            "asts",
            "ads",
            "deploy",
            "sts",
            "ds",
            "bcj",
            "acj",
            "sidecarset",
            "ws",
            "pub",
            "ud",
        ],
        "status" => &[
            "clone",
            "asts",
            "ads",
            "deploy",
            "sts",
            "ds",
            "bcj",
            "sidecarset",
            "ud",
        ],
        "image" | "env" | "resources" => &["clone", "asts", "ads", "ud", "deploy", "sts", "ds", "sidecarset"],
        "serviceaccount" | "expose" => &["clone", "asts", "ads", "ud", "deploy", "sts", "ds"],
        "partition" => &["clone", "asts", "ads", "deploy", "sts", "ds", "sidecarset", "ud"],
        "scale" => &["clone", "asts", "ads", "deploy", "sts", "ds", "ud"],
        _ => WORKLOADS,
    }
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory;

    use super::*;

    fn words(text: &[&str]) -> Vec<String> {
        text.iter().map(|w| w.to_string()).collect()
    }

    #[test]
    fn flags_and_their_values_are_not_positionals() {
        let root = crate::cli::Cli::command();
        let rollout = root.find_subcommand("rollout").expect("rollout");
        let status = rollout.find_subcommand("status").expect("status");
        let typed = words(&[
            "rollout",
            "status",
            "-n",
            "shop",
            "--timeout=5m",
            "clone",
            "--watch",
        ]);
        assert_eq!(positionals(status, &root, &typed), ["clone"]);
        let typed = words(&[
            "rollout",
            "status",
            "--kubeconfig",
            "k",
            "cloneset/web",
            "--revision",
        ]);
        assert_eq!(positionals(status, &root, &typed), ["cloneset/web"]);
    }

    #[test]
    fn get_alone_offers_and_lists_workloadspreads_and_budgets() {
        assert!(kinds_for("get").contains(&"ws"));
        assert!(kinds_for("get").contains(&"pub"));
        assert!(!kinds_for("pause").contains(&"ws"));
        assert!(!kinds_for("pause").contains(&"pub"));
        for verb in ["get", "status", "partition", "scale", "image", "env", "expose"] {
            assert!(kinds_for(verb).contains(&"ud"), "{verb}");
        }
        assert!(!kinds_for("expose").contains(&"sidecarset"));
        assert_eq!(qualified("ws"), "workloadspreads.apps.kruise.io");
        assert_eq!(qualified("clone"), "clonesets.apps.kruise.io");
        let (resource, cluster_scoped) = listed_type("get", "ws").expect("get lists ws");
        assert_eq!(
            (resource.plural.as_str(), cluster_scoped),
            ("workloadspreads", false)
        );
        assert!(listed_type("restart", "ws").is_none());
        assert_eq!(qualified("pub"), "podunavailablebudgets.policy.kruise.io");
        assert!(
            listed_type("get", "pub")
                .is_some_and(|(r, scoped)| r.plural == "podunavailablebudgets" && !scoped)
        );
        assert!(listed_type("status", "pub").is_none());
        assert!(listed_type("restart", "clone").is_some());
    }

    #[test]
    fn the_connection_comes_from_the_typed_flags() {
        let c = connection_of(&words(&[
            "get",
            "--context=prod",
            "-n",
            "shop",
            "--kubeconfig",
            "/k",
        ]));
        assert_eq!(c.context.as_deref(), Some("prod"));
        assert_eq!(c.namespace.as_deref(), Some("shop"));
        assert_eq!(c.kubeconfig.as_deref(), Some(std::path::Path::new("/k")));
    }
}
