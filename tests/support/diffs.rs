//! Reading `diff -f`'s output and checking it against what a controller then does.
use std::collections::{BTreeMap, BTreeSet};

use serde_json::Value;

use super::TestNamespace;
use super::controller::{PodView, PodWatcher};
use super::manifests::{apply, resource_of, strict_apply};

/// What `diff -f` said of one workload.
#[derive(Debug, Default)]
pub struct Said {
    pub batches: Vec<BTreeSet<String>>,
    pub outcomes: BTreeSet<String>,
    pub nodes: BTreeSet<String>,
    pub kept: BTreeSet<String>,
    pub updated: BTreeSet<String>,
    pub deleted: BTreeSet<String>,
}

/// The pods of a list, without a `namespace/` (a SidecarSet names its pods so).
fn names(list: &str) -> BTreeSet<String> {
    list.split(", ")
        .map(|pod| pod.rsplit_once('/').map_or(pod, |(_, name)| name).to_string())
        .collect()
}

/// Reads the pod lines of `diff -f`'s output.
pub fn said(out: &str) -> Said {
    let mut said = Said::default();
    for line in out.lines().map(str::trim) {
        if let Some(rest) = line.strip_prefix("batch ") {
            let (n, rest) = rest.split_once(": ").expect("batch N: POD: OUTCOME");
            let (pod, outcome) = rest.split_once(": ").expect("POD: OUTCOME");
            let n: usize = n.parse().expect("batch number");
            if said.batches.len() < n {
                said.batches.resize(n, BTreeSet::new());
            }
            let (pod, node) = pod.split_once(" on ").unwrap_or((pod, ""));
            // A SidecarSet's pods are `namespace/name`.
            let pod = pod.rsplit_once('/').map_or(pod, |(_, name)| name);
            said.batches[n - 1].insert(pod.to_string());
            said.nodes.insert(node.to_string());
            said.outcomes.insert(outcome.to_string());
        } else if let Some(rest) = line.strip_prefix("kept (partition ") {
            said.kept = names(rest.split_once("): ").expect("kept list").1);
        } else if let Some(rest) = line.strip_prefix("already updated: ") {
            said.updated = names(rest);
        } else if line.contains("pods deleted, in the controller's scale-in order") {
            said.deleted = names(line.split_once("): ").expect("deleted list").1);
        }
    }
    said
}

/// `kubectl kruise diff -f` of `docs` (written to a file), through kubectl as a plugin:
/// exit code and stdout.
pub async fn diff(ns: &TestNamespace, docs: &[Value]) -> (i32, String) {
    let file = std::env::temp_dir().join(format!("kruise-diff-{}.yaml", ns.name));
    let text: Vec<String> = docs
        .iter()
        .map(|d| serde_json::to_string(d).expect("json"))
        .collect();
    std::fs::write(&file, text.join("\n---\n")).expect("manifest");
    let (code, out, err) = super::plugin_in(ns, &["diff", "-f", &file.display().to_string()]).await;
    let _ = std::fs::remove_file(&file);
    assert!(code == 0 || code == 1, "exit {code}: {err}");
    (code, out)
}

/// `docs` with `edit` applied to the document of `kind`.
pub fn edited(docs: &[Value], kind: &str, edit: impl Fn(&mut Value)) -> Vec<Value> {
    docs.iter()
        .map(|doc| {
            let mut doc = doc.clone();
            if doc["kind"] == kind {
                edit(&mut doc);
            }
            doc
        })
        .collect()
}

/// Applies `docs` into the test namespace; a SidecarSet (cluster-scoped) as it is named,
/// and kept (the test deletes it).
pub async fn apply_all(ns: &TestNamespace, docs: &[Value]) {
    for doc in docs {
        let applied = match doc["kind"] == "SidecarSet" {
            true => {
                let api: kube::Api<kube::api::DynamicObject> =
                    kube::Api::all_with(ns.client.clone(), &resource_of(doc));
                let name = doc["metadata"]["name"].as_str().expect("a name");
                api.patch(name, &strict_apply(), &kube::api::Patch::Apply(doc))
                    .await
            }
            false => apply(ns, doc).await,
        };
        applied.unwrap_or_else(|e| panic!("{}: {e}", doc["kind"]));
    }
}

/// The watcher saw the pods the diff named enter their update (readiness gate False)
/// batch by batch, as it said: the first `len(batch 1)` of them are batch 1, and so on.
pub fn assert_batches_seen(said: &Said, watcher: &PodWatcher) {
    assert_batches_seen_by(said, watcher, |v| v.gate.as_deref() == Some("False"));
}

/// Like [`assert_batches_seen`], a pod's update seen when `updating` first holds.
pub fn assert_batches_seen_by(said: &Said, watcher: &PodWatcher, updating: impl Fn(&PodView) -> bool) {
    let named: BTreeSet<&String> = said
        .batches
        .iter()
        .flatten()
        .chain(&said.kept)
        .chain(&said.updated)
        .collect();
    let mut order = watcher.first_seen(updating);
    order.retain(|pod| named.contains(pod));
    let mut seen = order.iter();
    for (i, batch) in said.batches.iter().enumerate() {
        let got: BTreeSet<String> = seen.by_ref().take(batch.len()).cloned().collect();
        assert_eq!(&got, batch, "batch {}\n{}", i + 1, watcher.timeline());
    }
    assert_eq!(
        seen.next(),
        None,
        "no pod beyond the diff's\n{}",
        watcher.timeline()
    );
}

/// What `diff -f` said of each subset of a UnitedDeployment, by subset name.
pub fn said_per_subset(out: &str) -> BTreeMap<String, Said> {
    let mut sections: BTreeMap<String, String> = BTreeMap::new();
    let mut current: Option<String> = None;
    for line in out.lines() {
        if let Some(rest) = line.trim().strip_prefix("subset ") {
            let name = rest.split([' ', ':']).next().unwrap_or_default().to_string();
            sections.entry(name.clone()).or_default();
            current = Some(name);
        } else if !line.starts_with("    ") {
            current = None;
        } else if let Some(name) = &current {
            let text = sections.entry(name.clone()).or_default();
            text.push_str(line);
            text.push('\n');
        }
    }
    sections
        .into_iter()
        .map(|(name, text)| (name, said(&text)))
        .collect()
}

/// Waits until the pods with `label` are `count`, not terminating, each Ready on the image
/// `image_of(name)` gives; `log` is shown while they are not.
pub async fn wait_images(
    ns: &TestNamespace,
    label: &str,
    count: usize,
    image_of: impl Fn(&str) -> &'static str,
    log: impl Fn() -> String,
) {
    use k8s_openapi::api::core::v1::Pod;
    use kube::ResourceExt;
    let what = format!("{count} pods {label} ready on their images");
    super::wait_for(&what, std::time::Duration::from_secs(120), || async {
        let list = ns
            .api::<Pod>()
            .list(&kube::api::ListParams::default().labels(label))
            .await
            .map_err(|e| e.to_string())?;
        let views: Vec<(String, super::controller::PodView)> = list
            .items
            .iter()
            .filter(|p| p.metadata.deletion_timestamp.is_none())
            .map(|p| (p.name_any(), super::controller::PodView::of(p)))
            .collect();
        let done = views.len() == count && views.iter().all(|(name, v)| v.ready && v.image == image_of(name));
        match done {
            true => Ok(()),
            false => Err(format!("{views:?}\n{}", log())),
        }
    })
    .await
}
