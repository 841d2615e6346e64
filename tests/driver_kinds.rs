//! The runtime the next kinds need, proven with a test kind on the real control plane:
//! a cluster-scoped owner (as SidecarSet is), woken by Node changes (as Advanced DaemonSet
//! and BroadcastJob are), that creates and deletes children that are not pods (as
//! AdvancedCronJob's Jobs and UnitedDeployment's workloads are), through the one driver.
//!
//! The test kind, `NodeNote` (`test.kubectl-kruise.io/v1`, cluster-scoped): one ConfigMap
//! `<note>-<node>` in `spec.namespace` for every Node labelled `spec.nodeLabel`, and
//! `status.notes` counting them.
mod support;

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;
use std::time::Duration;

use k8s_openapi::api::core::v1::{ConfigMap, Node};
use k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition;
use k8s_openapi::jiff::Timestamp;
use kube::api::{Api, DeleteParams, DynamicObject, Patch, PatchParams, PostParams};
use kube::core::ApiResource;
use kube::{Client, CustomResource, CustomResourceExt, Resource, ResourceExt};
use kubectl_kruise::api::KruiseKind;
use kubectl_kruise::runtime::actions::{Action, ChildAction};
use kubectl_kruise::runtime::context::Context;
use kubectl_kruise::runtime::controller::{Interest, Serve};
use kubectl_kruise::runtime::driver::{NoRevisions, Planned, Reconciled};
use kubectl_kruise::runtime::history::History;
use kubectl_kruise::runtime::metrics::Metrics;
use kubectl_kruise::runtime::rbac::{Rule, rule};
use kubectl_kruise::runtime::triggers::Triggers;
use kubectl_kruise::runtime::{client, watches};
use kubectl_kruise::workloads::facts::{Defaults, HasFacts, KindFacts};
use kubectl_kruise::workloads::registry::{self, Described};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::json;

#[derive(CustomResource, Deserialize, Serialize, Clone, Debug, JsonSchema)]
#[kube(
    group = "test.kubectl-kruise.io",
    version = "v1",
    kind = "NodeNote",
    status = "NodeNoteStatus"
)]
#[serde(rename_all = "camelCase")]
pub struct NodeNoteSpec {
    /// Where the notes go.
    namespace: String,
    /// Nodes carrying this label (any value) get a note.
    node_label: String,
}

#[derive(Deserialize, Serialize, Clone, Debug, Default, PartialEq, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct NodeNoteStatus {
    notes: i32,
}

impl NodeNote {
    fn selects(&self, node: &Node) -> bool {
        node.labels().contains_key(&self.spec.node_label)
    }

    fn note(&self, node: &str) -> DynamicObject {
        let owner = self
            .controller_owner_ref(&())
            .expect("a stored NodeNote has a uid");
        serde_json::from_value(json!({
            "apiVersion": "v1", "kind": "ConfigMap",
            "metadata": {
                "name": format!("{}-{node}", self.name_any()),
                "namespace": self.spec.namespace,
                "ownerReferences": [owner],
            },
            "data": { "node": node },
        }))
        .expect("a ConfigMap literal")
    }
}

impl Interest for NodeNote {}

/// Not an OpenKruise kind: no defaults, no refusals, no rollout facts.
impl HasFacts for NodeNote {
    const KIND: Option<KruiseKind> = None;
    const FACTS: &'static dyn KindFacts = &Defaults;
}

impl Reconciled for NodeNote {
    const CONTROLLER: &'static str = "NodeNote";
    const DRIVES: &'static str = "NodeNote";
    const CRD: &'static str = "nodenotes.test.kubectl-kruise.io";
    const RULES: &'static [&'static [Rule]] = &[&[
        rule("test.kubectl-kruise.io", &["nodenotes"], &["list", "watch"]),
        rule("test.kubectl-kruise.io", &["nodenotes/status"], &["patch"]),
        rule("", &["configmaps"], &["list", "watch", "create", "delete"]),
    ]];
    type Status = NodeNoteStatus;
    type Revisions = NoRevisions;

    /// Labelled nodes, and the notes (ConfigMaps) it keeps.
    fn triggers<F>(serve: &Serve<F>) -> Triggers<Self> {
        Triggers::new()
            .nodes(|note: &NodeNote, node: &Node| note.selects(node))
            .children::<ConfigMap>(&serve.client, serve.namespace.as_deref(), |_, _| false)
    }

    fn plan(&self, ctx: &Context, _: &History, _: Timestamp) -> Planned<NodeNoteStatus> {
        let resource = ApiResource::erase::<ConfigMap>(&());
        let notes = ctx
            .children
            .get::<ConfigMap>()
            .expect("the NodeNote controller watches ConfigMaps")
            .controlled_by(&self.uid().unwrap_or_default());
        let have: BTreeMap<String, Arc<ConfigMap>> = notes
            .into_iter()
            .filter(|c| c.metadata.deletion_timestamp.is_none())
            .map(|c| {
                (
                    c.data
                        .clone()
                        .unwrap_or_default()
                        .remove("node")
                        .unwrap_or_default(),
                    c,
                )
            })
            .collect();
        let want: BTreeSet<String> = ctx
            .watches
            .nodes
            .state()
            .iter()
            .filter(|n| self.selects(n))
            .map(|n| n.name_any())
            .collect();
        let mut actions = Vec::new();
        for node in want.iter().filter(|n| !have.contains_key(*n)) {
            actions.push(Action::Child(ChildAction::Create {
                resource: resource.clone(),
                object: Box::new(self.note(node)),
            }));
        }
        for (_, note) in have.iter().filter(|(n, _)| !want.contains(*n)) {
            actions.push(Action::Child(ChildAction::Delete {
                resource: resource.clone(),
                namespace: self.spec.namespace.clone(),
                name: note.name_any(),
                uid: note.uid().unwrap_or_default(),
            }));
        }
        let kept = have.keys().filter(|n| want.contains(*n)).count() as i32;
        let status = NodeNoteStatus { notes: kept };
        Planned {
            actions,
            problems: Vec::new(),
            status: (self.status.as_ref() != Some(&status)).then_some(status),
            ..Planned::default()
        }
    }
}

async fn install_crd(client: &Client) {
    let crds: Api<CustomResourceDefinition> = Api::all(client.clone());
    match crds.create(&PostParams::default(), &NodeNote::crd()).await {
        Ok(_) => {}
        Err(kube::Error::Api(s)) if s.is_already_exists() => {}
        Err(e) => panic!("cannot install the NodeNote CRD: {e}"),
    }
    support::wait_for(
        "the NodeNote CRD to be established",
        Duration::from_secs(60),
        || {
            let crds = crds.clone();
            async move {
                let crd = crds
                    .get("nodenotes.test.kubectl-kruise.io")
                    .await
                    .map_err(|e| e.to_string())?;
                let conditions = crd.status.and_then(|s| s.conditions).unwrap_or_default();
                conditions
                    .iter()
                    .any(|c| c.type_ == "Established" && c.status == "True")
                    .then_some(())
                    .ok_or_else(|| format!("conditions {conditions:?}"))
            }
        },
    )
    .await;
}

async fn node(nodes: &Api<Node>, name: &str, label: &str) {
    let node: Node = serde_json::from_value(json!({
        "apiVersion": "v1", "kind": "Node",
        "metadata": { "name": name, "labels": { label: "yes", "testenv": "1" } },
    }))
    .expect("a Node literal");
    nodes
        .create(&PostParams::default(), &node)
        .await
        .unwrap_or_else(|e| panic!("cannot create node {name}: {e}"));
}

/// The nodes a note exists for, once `status.notes` agrees with them and they are `want`.
async fn wait_notes(
    notes: &Api<NodeNote>,
    maps: &Api<ConfigMap>,
    name: &str,
    want: &[&str],
) -> BTreeMap<String, String> {
    let want: BTreeSet<String> = want.iter().map(|s| s.to_string()).collect();
    support::wait_for(&format!("notes for {want:?}"), Duration::from_secs(60), || {
        let (notes, maps, want) = (notes.clone(), maps.clone(), want.clone());
        async move {
            let list = maps.list(&Default::default()).await.map_err(|e| e.to_string())?;
            let by_node: BTreeMap<String, String> = list
                .items
                .iter()
                .filter(|c| c.metadata.deletion_timestamp.is_none())
                .filter_map(|c| Some((c.data.clone()?.remove("node")?, c.uid()?)))
                .collect();
            let status = notes.get(name).await.map_err(|e| e.to_string())?.status;
            let nodes: BTreeSet<String> = by_node.keys().cloned().collect();
            let notes = status.as_ref().map(|s| s.notes as usize);
            if nodes == want && notes == Some(want.len()) {
                Ok(by_node)
            } else {
                Err(format!("notes for {nodes:?}, status {status:?}"))
            }
        }
    })
    .await
}

/// NodeNotes and Nodes an earlier failed run of this test left behind (cluster-scoped:
/// deleting the test namespace does not remove them, and their requests would be counted).
async fn remove_leftovers(client: &Client) {
    let notes: Api<NodeNote> = Api::all(client.clone());
    for note in notes
        .list(&Default::default())
        .await
        .expect("list NodeNotes")
        .items
    {
        let _ = notes.delete(&note.name_any(), &DeleteParams::default()).await;
    }
    let nodes: Api<Node> = Api::all(client.clone());
    for node in nodes.list(&Default::default()).await.expect("list nodes").items {
        if node.name_any().starts_with("driver-kinds-") {
            let _ = nodes.delete(&node.name_any(), &DeleteParams::default()).await;
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cluster_scoped_kind_woken_by_nodes_keeps_one_child_per_node_through_the_driver() {
    // The driver's own log, shown when the test fails.
    let _ = tracing_subscriber::fmt()
        .with_env_filter("kubectl_kruise=debug")
        .with_writer(std::io::stderr)
        .try_init();
    let admin = support::client().await;
    install_crd(&admin).await;
    remove_leftovers(&admin).await;
    let ns = support::TestNamespace::create("driver-kinds").await;
    let label = format!("notes.test.kubectl-kruise.io/{}", ns.name);

    // Two labelled nodes exist before the controller starts: they reach it in its first
    // list, while the node cache is still empty (the unlabel step below depends on it).
    let nodes: Api<Node> = Api::all(admin.clone());
    let (first, second, third) = (
        format!("{}-a", ns.name),
        format!("{}-b", ns.name),
        format!("{}-c", ns.name),
    );
    node(&nodes, &first, &label).await;
    node(&nodes, &second, &label).await;

    // The controller, in this process, with a client that counts its requests.
    let config = kube::Config::from_custom_kubeconfig(
        kube::config::Kubeconfig::read_from(support::kubeconfig()).expect("kubeconfig"),
        &Default::default(),
    )
    .await
    .expect("config");
    let (client, counters) =
        client::build(config, 200.0, 400, client::user_agent("driver-kinds-test")).expect("client");
    let (stores, drives) = watches::new(&client, None);
    let (stop, stopped) = futures::channel::oneshot::channel::<()>();
    let serve: Serve<registry::Shutdown> = Serve {
        client: client.clone(),
        watches: stores.clone(),
        subscriptions: stores.subscribe(),
        namespace: None,
        system_namespace: "default".into(),
        features: Default::default(),
        configuration: Default::default(),
        workers: 2,
        metrics: Arc::new(Metrics::new(counters.clone())),
        before_take_down: None,
        shutdown: Box::pin(async move {
            let _ = stopped.await;
        }),
    };
    // A kind is one line of the registry: this one, started as `run` starts every kind.
    const NODE_NOTES: Described = registry::of::<NodeNote>();
    let start = NODE_NOTES.start.expect("a described kind has a start");
    let controller = tokio::spawn(start(serve));
    for drive in drives {
        tokio::spawn(drive);
    }

    let notes: Api<NodeNote> = Api::all(admin.clone());
    let note_name = ns.name.clone();
    let note: NodeNote = serde_json::from_value(json!({
        "apiVersion": "test.kubectl-kruise.io/v1", "kind": "NodeNote",
        "metadata": { "name": note_name },
        "spec": { "namespace": ns.name, "nodeLabel": label },
    }))
    .expect("a NodeNote literal");
    notes
        .create(&PostParams::default(), &note)
        .await
        .expect("create the NodeNote");
    let maps: Api<ConfigMap> = ns.api();

    // A cluster-scoped owner gets its children and its status.
    let before = wait_notes(&notes, &maps, &note_name, &[&first, &second]).await;

    // A new Node is the only event: the node trigger wakes the note.
    node(&nodes, &third, &label).await;
    let after = wait_notes(&notes, &maps, &note_name, &[&first, &second, &third]).await;
    assert_eq!(after[&first], before[&first], "a kept child is not recreated");

    // A child deleted by hand: its event wakes its cluster-scoped controller.
    let lost = format!("{note_name}-{second}");
    maps.delete(&lost, &DeleteParams::default())
        .await
        .expect("delete a note");
    let again = wait_notes(&notes, &maps, &note_name, &[&first, &second, &third]).await;
    assert_ne!(
        again[&second], after[&second],
        "the deleted child was created anew"
    );

    // A node that loses the label: its child goes.
    let unlabel = json!({ "metadata": { "labels": { label.clone(): null } } });
    nodes
        .patch(&first, &PatchParams::default(), &Patch::Merge(&unlabel))
        .await
        .expect("unlabel a node");
    wait_notes(&notes, &maps, &note_name, &[&second, &third]).await;

    // Expectations: every child was created once and deleted once, never twice.
    let counts = counters.snapshot();
    let count = |verb: &'static str| {
        counts
            .get(&(verb, "configmaps".to_string()))
            .copied()
            .unwrap_or(0)
    };
    assert_eq!(
        count("create"),
        4,
        "2 + the new node's + the recreated one: {counts:?}"
    );
    assert_eq!(count("delete"), 1, "{counts:?}");

    let _ = stop.send(());
    let _ = tokio::time::timeout(Duration::from_secs(10), controller).await;
    notes
        .delete(&note_name, &DeleteParams::default())
        .await
        .expect("delete the NodeNote");
    for name in [&first, &second, &third] {
        let _ = nodes.delete(name, &DeleteParams::default()).await;
    }
}
