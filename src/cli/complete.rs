//! The hidden completion entry point (`kubectl-kruise __complete WORDS...`) behind
//! `kubectl kruise <TAB>`, speaking kubectl's plugin line protocol
//! (kubernetes/kubectl: pkg/cmd/plugin/plugin_completion.go): the words typed after the
//! plugin name come as arguments, the last one partial (maybe empty); one candidate per
//! line, `candidate<TAB>description`; last line `:<directive bitmask>`.
//!
//! Invariants: never fails and never waits long: cluster lookups (namespaces, and the
//! workloads, revisions, pods and containers of `complete_cluster`) have a
//! 2-second limit, and on any error the answer is no candidates plus "no file completion".
use std::time::Duration;

use clap::{Command, CommandFactory};

use super::Cli;

/// Directive bits of the protocol.
const NO_FILE_COMPLETION: u32 = 4;

/// Flags whose values come from somewhere we can list.
fn value_candidates(flag: &str) -> Option<ValueSource> {
    match flag {
        "--only" => Some(ValueSource::Kinds),
        "--context" => Some(ValueSource::Contexts),
        "-n" | "--namespace" => Some(ValueSource::Namespaces),
        _ => None,
    }
}

enum ValueSource {
    Kinds,
    Contexts,
    Namespaces,
}

/// Candidates (with descriptions) for the partial last word of `words`.
pub async fn candidates(words: &[String]) -> Vec<(String, String)> {
    let (done, partial) = match words.split_last() {
        Some((last, rest)) => (rest, last.as_str()),
        None => (&[][..], ""),
    };
    if let Some(source) = done.last().and_then(|previous| value_candidates(previous)) {
        let all = match source {
            ValueSource::Kinds => crate::api::KINDS
                .iter()
                .map(|k| (k.to_string(), String::new()))
                .collect(),
            ValueSource::Contexts => contexts(),
            ValueSource::Namespaces => namespaces(done).await,
        };
        // `--only` takes a comma list: complete the item after the last comma.
        let (head, item) = partial
            .rsplit_once(',')
            .map(|(h, i)| (format!("{h},"), i))
            .unwrap_or_default();
        let item = if head.is_empty() { partial } else { item };
        return all
            .into_iter()
            .filter(|(c, _)| c.starts_with(item))
            .map(|(c, d)| (format!("{head}{c}"), d))
            .collect();
    }
    let root = Cli::command();
    let command = deepest_subcommand(&root, done);
    if let Some(found) = super::complete_cluster::candidates(&root, command, done, partial).await {
        return found
            .into_iter()
            .filter(|(c, _)| c.starts_with(partial))
            .collect();
    }
    if partial.starts_with('-') {
        return command
            .get_arguments()
            .chain(root.get_arguments().filter(|a| a.is_global_set()))
            .filter(|a| !a.is_hide_set())
            .filter_map(|a| a.get_long().map(|l| (format!("--{l}"), about(a.get_help()))))
            .filter(|(c, _)| c.starts_with(partial))
            .collect();
    }
    command
        .get_subcommands()
        .filter(|c| !c.is_hide_set() && c.get_name() != "help")
        .filter(|c| c.get_name().starts_with(partial))
        .map(|c| (c.get_name().to_string(), about(c.get_about())))
        .collect()
}

fn about(text: Option<&clap::builder::StyledStr>) -> String {
    text.map(|t| t.to_string().lines().next().unwrap_or_default().to_string())
        .unwrap_or_default()
}

/// The subcommand the typed words lead to (flags and their values are skipped).
fn deepest_subcommand<'c>(root: &'c Command, words: &[String]) -> &'c Command {
    let mut command = root;
    for word in words.iter().filter(|w| !w.starts_with('-')) {
        match command.find_subcommand(word) {
            Some(sub) => command = sub,
            None => continue,
        }
    }
    command
}

fn contexts() -> Vec<(String, String)> {
    let Ok(config) = kube::config::Kubeconfig::read() else {
        return Vec::new();
    };
    config
        .contexts
        .into_iter()
        .map(|c| (c.name, String::new()))
        .collect()
}

/// Namespaces of the cluster the typed words point at (`--kubeconfig`, `--context`).
async fn namespaces(words: &[String]) -> Vec<(String, String)> {
    let connection = super::complete_cluster::connection_of(words);
    let lookup = async {
        let client = connection.client().await.ok()?;
        let api: kube::Api<k8s_openapi::api::core::v1::Namespace> = kube::Api::all(client);
        let list = api.list_metadata(&Default::default()).await.ok()?;
        Some(
            list.items
                .into_iter()
                .filter_map(|n| n.metadata.name)
                .map(|n| (n, String::new()))
                .collect(),
        )
    };
    tokio::time::timeout(Duration::from_secs(2), lookup)
        .await
        .ok()
        .flatten()
        .unwrap_or_default()
}

/// The typed words with the connection flags clap took as global ones put back in front
/// (`__complete --kubeconfig K get clone ""` parses `--kubeconfig K` itself).
pub fn with_connection_flags(
    words: Vec<String>,
    connection: &super::connection::ConnectionArgs,
) -> Vec<String> {
    let mut front = Vec::new();
    if let Some(path) = &connection.kubeconfig {
        front.extend(["--kubeconfig".to_string(), path.display().to_string()]);
    }
    if let Some(context) = &connection.context {
        front.extend(["--context".to_string(), context.clone()]);
    }
    if let Some(namespace) = &connection.namespace {
        front.extend(["--namespace".to_string(), namespace.clone()]);
    }
    front.extend(words);
    front
}

/// Prints the answer in the line protocol.
pub async fn run(words: Vec<String>) {
    for (candidate, description) in candidates(&words).await {
        if description.is_empty() {
            println!("{candidate}");
        } else {
            println!("{candidate}\t{description}");
        }
    }
    println!(":{NO_FILE_COMPLETION}");
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(text: &[&str]) -> Vec<String> {
        text.iter().map(|w| w.to_string()).collect()
    }

    async fn names(text: &[&str]) -> Vec<String> {
        candidates(&words(text))
            .await
            .into_iter()
            .map(|(c, _)| c)
            .collect()
    }

    #[tokio::test]
    async fn an_empty_word_lists_the_visible_subcommands() {
        let all = names(&[""]).await;
        for verb in ["install", "uninstall", "version", "completion"] {
            assert!(all.contains(&verb.to_string()), "{verb} missing from {all:?}");
        }
        assert!(
            !all.iter().any(|c| c == "__complete"),
            "the hidden entry point is offered"
        );
    }

    #[tokio::test]
    async fn a_prefix_narrows_and_flags_include_the_global_ones() {
        assert_eq!(names(&["un"]).await, vec!["uninstall"]);
        let flags = names(&["install", "--"]).await;
        assert!(
            flags.contains(&"--only".to_string()) && flags.contains(&"--kubeconfig".to_string()),
            "{flags:?}"
        );
    }

    #[tokio::test]
    async fn only_completes_kinds_after_the_last_comma() {
        assert_eq!(names(&["install", "--only", "Clo"]).await, vec!["CloneSet"]);
        assert_eq!(
            names(&["install", "--only", "CloneSet,Sta"]).await,
            vec!["CloneSet,StatefulSet"]
        );
    }
}
