//! Every manifest under `examples/` works as shipped: each file opens with a comment block
//! saying what to try, and every document in it is accepted by server-side apply under
//! strict field validation and reads back with every field it set unchanged.
mod support;

use std::path::{Path, PathBuf};

use support::diffs::{apply_all, assert_batches_seen, diff, edited, said_per_subset, wait_images};
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
                || doc["apiVersion"]
                    .as_str()
                    .unwrap_or_default()
                    .starts_with("policy.kruise.io/")
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

/// The UnitedDeployment example on a local control plane whose nodes `testenv up
/// --node-label` put in its three node pools: no hand-written Node objects, and every
/// subset's pods on its own pool's nodes, in the counts the example gives (1, 50% of 6, the
/// rest).
#[tokio::test]
async fn the_uniteddeployment_example_runs_on_nodes_shaped_by_testenv() {
    use k8s_openapi::api::core::v1::{Node, Pod};
    use kube::api::{Api, ListParams};

    let plane = support::PrivateControlPlane::start_with(
        "pools",
        &["--nodes", "3", "--node-label", "node-pool=pool-a,pool-b,pool-c"],
    );
    let client = plane.client().await;
    let ns = TestNamespace::create_on(client.clone(), &plane.kubeconfig, "ud-example").await;
    let controller = support::controller::RunningController::start_everywhere(&ns, &["--leader-elect=false"]);
    let path = Path::new(EXAMPLES).join("uniteddeployment.yaml");
    for doc in documents(&path) {
        apply(&ns, &doc)
            .await
            .unwrap_or_else(|e| panic!("{}: {e}", doc["kind"]));
    }
    let pools: std::collections::BTreeMap<String, String> = Api::<Node>::all(client.clone())
        .list(&ListParams::default())
        .await
        .expect("nodes")
        .items
        .into_iter()
        .filter_map(|n| {
            let pool = n.metadata.labels.as_ref()?.get("node-pool")?.clone();
            Some((n.metadata.name?, pool))
        })
        .collect();
    assert_eq!(pools.len(), 3, "every node is in a pool: {pools:?}");
    let pods = ns.api::<Pod>();
    let placed = support::wait_for(
        "six running pods, each on its subset's pool",
        support::clonesets::LONG,
        || async {
            let list = pods
                .list(&ListParams::default().labels("app=united-web"))
                .await
                .map_err(|e| e.to_string())?;
            let mut per_pool: std::collections::BTreeMap<String, usize> = Default::default();
            for pod in &list.items {
                let node = pod
                    .spec
                    .as_ref()
                    .and_then(|s| s.node_name.clone())
                    .ok_or("a pod not scheduled yet")?;
                let subset = pod
                    .metadata
                    .labels
                    .as_ref()
                    .and_then(|l| l.get("apps.kruise.io/subset-name"))
                    .cloned()
                    .unwrap_or_default();
                if pools.get(&node) != Some(&subset) {
                    return Err(format!("{:?} of subset {subset} is on {node}", pod.metadata.name));
                }
                *per_pool.entry(subset).or_default() += 1;
            }
            match list.items.len() {
                6 => Ok(per_pool),
                n => Err(format!("{n} pods: {per_pool:?}\n{}", controller.log_tail())),
            }
        },
    )
    .await;
    assert_eq!(
        placed,
        [
            ("pool-a".to_string(), 1),
            ("pool-b".to_string(), 3),
            ("pool-c".to_string(), 2)
        ]
        .into()
    );

    // `diff -f` of the example with a new image names, subset by subset, the pods its
    // CloneSet then updates, in its batches: pool-a's one pod; pool-c's two, one at a time
    // (maxUnavailable 20% of 2); pool-b's three held by its partition of 3.
    let docs = documents(&path);
    // Again, now that the run's defaulting webhook is surely registered.
    apply_all(&ns, &docs).await;
    let v2 = edited(&docs, "UnitedDeployment", |doc| {
        doc["spec"]["template"]["cloneSetTemplate"]["spec"]["template"]["spec"]["containers"][0]["image"] =
            serde_json::json!("nginx:1.26");
    });
    let (code, out) = diff(&ns, &v2).await;
    assert_eq!(code, 1, "{out}");
    let subsets = said_per_subset(&out);
    let shape = |subset: &str| -> (Vec<usize>, usize) {
        let said = &subsets[subset];
        (said.batches.iter().map(|b| b.len()).collect(), said.kept.len())
    };
    assert_eq!(
        (shape("pool-a"), shape("pool-b"), shape("pool-c")),
        ((vec![1], 0), (vec![], 3), (vec![1, 1], 0)),
        "{out}"
    );
    let watcher = support::controller::PodWatcher::start(&ns);
    apply_all(&ns, &v2).await;
    let held = subsets["pool-b"].kept.clone();
    let image_of = |name: &str| match held.contains(name) {
        true => "nginx:1.25",
        false => "nginx:1.26",
    };
    wait_images(&ns, "app=united-web", 6, image_of, || controller.log_tail()).await;
    for said in subsets.values() {
        assert_batches_seen(said, &watcher);
    }
}
