//! Where a kind is named. A kind's code lives in its own modules (`src/api/<kind>.rs`,
//! `src/workloads/<kind>/`, `src/cli/<kind>/`); everything else reaches it through the
//! dispatch files: the registry (`registry::of`, whose line carries its facts) and the
//! routes to a kind's own CLI views (`cli/views.rs`). The CLI's kind table (`cli/kinds.rs`)
//! names no OpenKruise kind: it reads them from `KruiseKind` and their facts. This test reads the source and fails when a kind's name (or its
//! module path, `cloneset::`) appears in code anywhere else, unless [`ALLOWED`] says why;
//! it also fails when an allowed place no longer names the kind, so the list only shrinks.
//!
//! What counts is code: comments, test modules, `_tests.rs` files and prose strings (a
//! string with a space in it: help texts, messages) are left out; a string without one
//! (`"CloneSet"`) is a name used as data and counts.
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use crate::api::KruiseKind;

/// The dispatch files: the registry (every kind's line) and the routes from a view to a
/// kind's own CLI module (a file apart from the CLI's kind table, which those modules use:
/// routing from the table would be an import circle).
const DISPATCH: [&str; 2] = ["src/workloads/registry.rs", "src/cli/views.rs"];

/// Other places that name a kind, and why.
const ALLOWED: &[(KruiseKind, &str, &str)] = &[
    (
        KruiseKind::CloneSet,
        "src/workloads/common/targets.rs",
        "a workload a `targetRef` may name (WorkloadSpread, PodUnavailableBudget), read from its cache",
    ),
    (
        KruiseKind::StatefulSet,
        "src/workloads/common/targets.rs",
        "a workload a `targetRef` may name (WorkloadSpread, PodUnavailableBudget), read from its cache",
    ),
    (
        KruiseKind::UnitedDeployment,
        "src/workloads/common/targets.rs",
        "a workload a `targetRef` may name (PodUnavailableBudget): its pods are its subsets'",
    ),
    (
        KruiseKind::SidecarSet,
        "src/workloads/podunavailablebudget/budget.rs",
        "a pod is consistent once the sidecars SidecarSets injected run their images (upstream's budget reads the same annotations)",
    ),
    (
        KruiseKind::WorkloadSpread,
        "src/runtime/features.rs",
        "OpenKruise's feature gate of the same name (a gate, not the kind)",
    ),
    (
        KruiseKind::StatefulSet,
        "src/cli/builtin_kinds.rs",
        "the built-in apps/v1 StatefulSet of the same name",
    ),
    (
        KruiseKind::StatefulSet,
        "src/cli/kinds.rs",
        "the CLI's kinds include the built-in apps/v1 StatefulSet of the same name",
    ),
    (
        KruiseKind::DaemonSet,
        "src/cli/kinds.rs",
        "the CLI's kinds include the built-in apps/v1 DaemonSet of the same name",
    ),
    (
        KruiseKind::DaemonSet,
        "src/cli/builtin_kinds.rs",
        "the built-in apps/v1 DaemonSet of the same name",
    ),
];

/// The module name of a kind's folders.
fn module(kind: KruiseKind) -> &'static str {
    match kind {
        KruiseKind::CloneSet => "cloneset",
        KruiseKind::StatefulSet => "statefulset",
        KruiseKind::DaemonSet => "daemonset",
        KruiseKind::BroadcastJob => "broadcastjob",
        KruiseKind::AdvancedCronJob => "cronjob",
        KruiseKind::SidecarSet => "sidecarset",
        KruiseKind::WorkloadSpread => "workloadspread",
        KruiseKind::UnitedDeployment => "uniteddeployment",
        KruiseKind::PodUnavailableBudget => "podunavailablebudget",
    }
}

/// The folders that are a kind's own: its module's, the job kinds' shared CLI folder, and
/// those of the kinds that drive it (an AdvancedCronJob runs BroadcastJobs; a
/// UnitedDeployment and a WorkloadSpread drive CloneSets and StatefulSets; a
/// PodUnavailableBudget targets those and UnitedDeployments).
fn own_folders(kind: KruiseKind) -> Vec<String> {
    let mut modules = vec![module(kind)];
    match kind {
        KruiseKind::BroadcastJob => modules.extend(["jobs", "cronjob"]),
        KruiseKind::AdvancedCronJob => modules.push("jobs"),
        KruiseKind::CloneSet | KruiseKind::StatefulSet => {
            modules.extend(["uniteddeployment", "workloadspread", "podunavailablebudget"])
        }
        KruiseKind::UnitedDeployment => modules.push("podunavailablebudget"),
        KruiseKind::DaemonSet
        | KruiseKind::SidecarSet
        | KruiseKind::WorkloadSpread
        | KruiseKind::PodUnavailableBudget => {}
    }
    modules
        .into_iter()
        .flat_map(|m| [format!("src/workloads/{m}/"), format!("src/cli/{m}/")])
        .collect()
}

/// `source` without comments, and with every prose string (one holding whitespace) empty.
fn code_of(source: &str) -> String {
    let chars: Vec<char> = source.chars().collect();
    let (mut out, mut i) = (String::new(), 0);
    let at = |i: usize, text: &str| {
        text.chars()
            .enumerate()
            .all(|(k, c)| chars.get(i + k) == Some(&c))
    };
    while i < chars.len() {
        let c = chars[i];
        if at(i, "//") {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
        } else if c == '\'' && chars.get(i + 2) == Some(&'\'') {
            out.extend(&chars[i..i + 3]);
            i += 3;
        } else if c == '\'' && chars.get(i + 1) == Some(&'\\') {
            let end = (i + 2..chars.len())
                .find(|&j| chars[j] == '\'')
                .unwrap_or(chars.len() - 1);
            out.extend(&chars[i..=end]);
            i = end + 1;
        } else if c == 'r'
            && matches!(chars.get(i + 1), Some('"' | '#'))
            && (i == 0 || !(chars[i - 1].is_alphanumeric() || chars[i - 1] == '_'))
        {
            let hashes = chars[i + 1..].iter().take_while(|c| **c == '#').count();
            let start = i + 2 + hashes;
            let close: String = std::iter::once('"')
                .chain(std::iter::repeat_n('#', hashes))
                .collect();
            let end = (start..chars.len())
                .find(|&j| at(j, &close))
                .unwrap_or(chars.len());
            let body: String = chars[start..end.min(chars.len())].iter().collect();
            push_string(&mut out, &body);
            i = end + close.len();
        } else if c == '"' {
            let mut j = i + 1;
            while j < chars.len() && chars[j] != '"' {
                j += if chars[j] == '\\' { 2 } else { 1 };
            }
            let body: String = chars[i + 1..j.min(chars.len())].iter().collect();
            push_string(&mut out, &body);
            i = j + 1;
        } else {
            out.push(c);
            i += 1;
        }
    }
    out
}

fn push_string(out: &mut String, body: &str) {
    if body.chars().any(char::is_whitespace) {
        out.push_str("\"\"");
    } else {
        out.push('"');
        out.push_str(body);
        out.push('"');
    }
}

/// The code of `path`: none for a `_tests.rs` file, and nothing from its first test module
/// (`#[cfg(test)] mod ...`) on.
fn code_of_file(path: &Path) -> String {
    if path.to_string_lossy().ends_with("_tests.rs") {
        return String::new();
    }
    let source = std::fs::read_to_string(path).expect("a source file");
    let code = code_of(&source);
    let test_module = code.match_indices("#[cfg(test)]").find(|(at, attribute)| {
        let mut rest = code[at + attribute.len()..].trim_start();
        while rest.starts_with("#[") {
            rest = rest[rest.find(']').map_or(rest.len(), |end| end + 1)..].trim_start();
        }
        rest.starts_with("mod ")
    });
    match test_module {
        Some((at, _)) => code[..at].to_string(),
        None => code,
    }
}

fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("a source folder").flatten() {
        let path = entry.path();
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// Whether `code` names `kind`: its name as a word, or its module path (`cloneset::`).
fn names(code: &str, kind: KruiseKind) -> bool {
    let word = |at: usize, len: usize| {
        let before = code[..at].chars().next_back();
        let after = code[at + len..].chars().next();
        let part = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() || c == '_');
        !part(before) && !part(after)
    };
    let name = kind.name();
    let path = format!("{}::", module(kind));
    code.match_indices(name).any(|(at, _)| word(at, name.len()))
        || code.match_indices(&path).any(|(at, _)| {
            let before = code[..at].chars().next_back();
            !before.is_some_and(|c| c.is_alphanumeric() || c == '_')
        })
}

#[test]
fn a_kind_is_named_only_in_its_own_modules_and_the_dispatch_files() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    sources(&root.join("src"), &mut files);
    let files: Vec<(String, String)> = files
        .iter()
        .map(|f| {
            let relative = f.strip_prefix(root).expect("under the root");
            (relative.to_string_lossy().replace('\\', "/"), code_of_file(f))
        })
        .collect();
    let mut unexplained = Vec::new();
    let mut used = BTreeSet::new();
    for kind in KruiseKind::ALL {
        let own = own_folders(kind);
        for (file, code) in &files {
            let skipped = file.starts_with("src/api/")
                || DISPATCH.contains(&file.as_str())
                || own.iter().any(|folder| file.starts_with(folder.as_str()));
            if skipped || !names(code, kind) {
                continue;
            }
            match ALLOWED.iter().position(|(k, f, _)| *k == kind && f == file) {
                Some(entry) => {
                    used.insert(entry);
                }
                None => unexplained.push(format!("{} in {file}", kind.name())),
            }
        }
    }
    assert!(
        unexplained.is_empty(),
        "a kind named outside its own modules and the dispatch files {DISPATCH:?}: {unexplained:#?} \
         (ask the kind's facts, route through cli/kinds.rs, or say why in ALLOWED)"
    );
    let stale: Vec<_> = ALLOWED
        .iter()
        .enumerate()
        .filter(|(i, _)| !used.contains(i))
        .map(|(_, (k, f, _))| format!("{} in {f}", k.name()))
        .collect();
    assert!(stale.is_empty(), "ALLOWED entries no longer needed: {stale:?}");
    for (kind, _, why) in ALLOWED {
        assert!(!why.is_empty(), "{} needs a reason", kind.name());
    }
}

#[test]
fn prose_strings_and_comments_are_not_code() {
    let code = code_of("let a = \"a CloneSet\"; // CloneSet\nlet b = \"CloneSet\"; let c = '\"';");
    assert!(!code.contains("a CloneSet"));
    assert_eq!(code.matches("CloneSet").count(), 1, "{code}");
    assert!(names(&code, KruiseKind::CloneSet));
    assert!(!names("CloneSetPartitionRollback", KruiseKind::CloneSet));
    assert!(names("crate::workloads::cloneset::facts", KruiseKind::CloneSet));
    assert!(!names("my_cloneset::x", KruiseKind::CloneSet));
}
