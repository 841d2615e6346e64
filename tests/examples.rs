//! Every manifest under `examples/` works as shipped: each file opens with a comment block
//! saying what to try, and every document in it is accepted by server-side apply under
//! strict field validation and reads back with every field it set unchanged.
mod support;

use std::path::{Path, PathBuf};

use support::manifests::{apply, assert_contains, documents};
use support::{TestNamespace, kruise};

const EXAMPLES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/examples");

/// The `*.yaml` files of `examples/`, sorted by name.
fn example_files() -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(EXAMPLES)
        .unwrap_or_else(|e| panic!("read {EXAMPLES}: {e}"))
        .map(|entry| entry.expect("directory entry").path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "yaml"))
        .collect();
    files.sort();
    files
}

fn file_name(path: &Path) -> String {
    path.file_name()
        .unwrap_or_default()
        .to_string_lossy()
        .into_owned()
}

/// The comment block a file opens with (consecutive lines starting with `#`).
fn leading_comment(text: &str) -> String {
    text.lines()
        .take_while(|line| line.trim_start().starts_with('#'))
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn every_example_opens_with_a_comment_saying_what_to_try() {
    let files = example_files();
    assert!(
        files
            .iter()
            .any(|f| file_name(f) == "01-cloneset-guestbook-inplace.yaml"),
        "the guestbook CloneSet example is missing: {files:?}"
    );
    for path in &files {
        let file = file_name(path);
        let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("read {file}: {e}"));
        assert!(text.starts_with('#'), "{file} does not begin with a comment");
        let comment = leading_comment(&text);
        assert!(
            comment.contains("Try"),
            "the opening comment of {file} does not say what to try:\n{comment}"
        );
        for doc in documents(path) {
            assert!(
                doc["metadata"].get("namespace").is_none(),
                "{file}: {} sets a namespace",
                doc["kind"]
            );
        }
    }
}

#[test]
fn every_kind_has_an_example_and_names_are_unique_per_file() {
    let mut kinds = std::collections::BTreeSet::new();
    for path in example_files() {
        let file = file_name(&path);
        let mut seen = std::collections::BTreeSet::new();
        for doc in documents(&path) {
            let kind = doc["kind"].as_str().unwrap_or_default().to_string();
            let name = doc["metadata"]["name"].as_str().unwrap_or_default().to_string();
            assert!(!name.is_empty(), "{file}: a {kind} without a name");
            assert!(
                seen.insert((kind.clone(), name.clone())),
                "{file}: {kind}/{name} twice"
            );
            if doc["apiVersion"]
                .as_str()
                .unwrap_or_default()
                .starts_with("apps.kruise.io/")
            {
                kinds.insert(kind);
            }
        }
    }
    for kind in kubectl_kruise::api::KINDS {
        assert!(kinds.contains(kind), "no example shows a {kind}");
    }
}

#[tokio::test]
async fn every_example_is_accepted_strictly_and_reads_back_unchanged() {
    let (code, out, err) = kruise(support::kubeconfig(), &["install"]);
    assert_eq!(code, 0, "install failed:\n{out}\n{err}");
    let ns = TestNamespace::create("examples").await;
    let mut applied = 0;
    for path in example_files() {
        let file = file_name(&path);
        for doc in documents(&path) {
            let kind = doc["kind"].as_str().unwrap_or_default().to_string();
            let back = apply(&ns, &doc)
                .await
                .unwrap_or_else(|e| panic!("{file}: {kind} rejected: {e}"));
            let back = serde_json::to_value(&back).expect("serializable");
            let mut want = doc.clone();
            // The SidecarSet was renamed to stay unique across namespaces.
            if kind == "SidecarSet" {
                want["metadata"]
                    .as_object_mut()
                    .expect("metadata is a map")
                    .remove("name");
            }
            assert_contains(&format!("{file}:{kind}"), &want, &back);
            applied += 1;
        }
    }
    assert!(applied >= 10, "only {applied} example documents applied");
}
