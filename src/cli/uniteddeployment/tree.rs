//! `kubectl kruise get ud/NAME --tree`: a UnitedDeployment's subsets, each with the
//! workload that runs it and that workload's pods; then the workloads it still controls
//! outside its topology (another template kind mid-switch, a removed subset).
//!
//! ```text
//! ud/web  (CloneSet template, 6 replicas, revision web-6b8d7c9f5)
//! ├─ subset zone-a  CloneSet web-zone-a-x7k2q  2/2 ready  partition 1
//! │  ├─ ✔ web-zone-a-x7k2q-abcde  ready  node-a1  old revision
//! │  └─ ✔ web-zone-a-x7k2q-fghij  ready  node-a1
//! ├─ subset zone-b  no workload yet
//! └─ being replaced: Deployment web-zone-b-9fz2m (subset zone-b)  1 pod
//!    └─ ✔ web-zone-b-9fz2m-6d5f-qwert  ready  node-b1
//! ```
//!
//! Where the facts come from ([`load_and_render`]): the workloads of the four subset kinds
//! in its namespace whose controller is the UnitedDeployment (by uid), and the pods each
//! controls (a Deployment's through its ReplicaSets).
//!
//! Invariants of [`render`] (pure and deterministic): subsets in topology order, each shown
//! even without a workload; workloads outside the topology or of another kind are shown,
//! never hidden; pods sorted by name; a pod labelled with another UnitedDeployment revision
//! than the update revision says `old revision`, a pod the reservation mode keeps
//! (`apps.kruise.io/united-deployment-reserved-pod=true`) says `reserved`.
use crate::runtime::cached_pod;
use crate::workloads::uniteddeployment::reserve::RESERVED_LABEL;
use k8s_openapi::api::core::v1::Pod;
use kube::api::{Api, DynamicObject, ListParams};
use kube::{Client, ResourceExt};
use serde_json::Value;

use crate::api::KruiseKind;
use crate::api::uniteddeployment::{SUBSET_NAME_LABEL, UnitedDeployment};
use crate::cli::glyphs::Glyphs;
use crate::cli::pod_groups::{Group, PodLine, draw, plural, pod_line};
use crate::cli::target::Kind;
use crate::workloads::uniteddeployment::plan::resource;
use crate::workloads::uniteddeployment::render::{ChildKind, REVISION_LABEL, template_kind};

/// A workload the UnitedDeployment controls, with its pods.
#[derive(Debug, Clone)]
pub struct Workload {
    pub kind: ChildKind,
    pub object: Value,
    pub pods: Vec<Pod>,
}

impl Workload {
    fn name(&self) -> &str {
        self.object["metadata"]["name"].as_str().unwrap_or_default()
    }

    fn subset(&self) -> &str {
        self.object["metadata"]["labels"][SUBSET_NAME_LABEL]
            .as_str()
            .unwrap_or_default()
    }

    fn lines(&self, update: &str, glyphs: Glyphs) -> Vec<PodLine> {
        let mut lines: Vec<PodLine> = self
            .pods
            .iter()
            .map(|pod| {
                let mut line = pod_line(pod, glyphs);
                let revision = pod.labels().get(REVISION_LABEL).map(String::as_str);
                if !update.is_empty() && revision != Some(update) {
                    line.detail = format!("{}  old revision", line.detail);
                }
                if pod.labels().get(RESERVED_LABEL).map(String::as_str) == Some("true") {
                    line.detail = format!(
                        "{}  reserved (unschedulable, a substitute runs elsewhere)",
                        line.detail
                    );
                }
                line
            })
            .collect();
        lines.sort_by(|a, b| a.name.cmp(&b.name));
        lines
    }
}

fn count(value: &Value) -> i64 {
    value.as_i64().unwrap_or(0)
}

/// The subset's line: its workload, ready pods and partition.
fn subset_title(name: &str, workload: Option<&Workload>, ud: &UnitedDeployment) -> String {
    let Some(w) = workload else {
        return format!("subset {name}  no workload yet");
    };
    let status = &w.object["status"];
    let mut title = format!(
        "subset {name}  {} {}  {}/{} ready",
        w.kind.kind(),
        w.name(),
        count(&status["readyReplicas"]),
        count(&w.object["spec"]["replicas"])
    );
    let partition = ud
        .status
        .as_ref()
        .and_then(|s| s.subset_statuses.as_ref())
        .and_then(|s| s.iter().find(|s| s.name.as_deref() == Some(name)))
        .and_then(|s| s.partition)
        .unwrap_or(0);
    if partition > 0 {
        title.push_str(&format!("  partition {partition}"));
    }
    title
}

/// The groups: one per topology subset, then each workload outside it. Pure.
pub fn groups(ud: &UnitedDeployment, workloads: &[Workload], glyphs: Glyphs) -> Vec<Group> {
    let kind = template_kind(ud);
    let update = ud
        .status
        .as_ref()
        .and_then(|s| s.updated_revision.clone())
        .unwrap_or_default();
    let subsets: Vec<&str> = ud
        .spec
        .topology
        .as_ref()
        .and_then(|t| t.subsets.as_deref())
        .unwrap_or_default()
        .iter()
        .map(|s| s.name.as_str())
        .collect();
    let current = |w: &&Workload| Some(w.kind) == kind && subsets.contains(&w.subset());
    let mut groups: Vec<Group> = subsets
        .iter()
        .map(|name| {
            let workload = workloads.iter().filter(current).find(|w| w.subset() == *name);
            Group {
                title: subset_title(name, workload, ud),
                pods: workload.map(|w| w.lines(&update, glyphs)).unwrap_or_default(),
            }
        })
        .collect();
    let mut others: Vec<&Workload> = workloads.iter().filter(|w| !current(w)).collect();
    others.sort_by_key(|w| (w.kind.kind(), w.name().to_owned()));
    for w in others {
        groups.push(Group {
            title: format!(
                "being replaced: {} {} (subset {})  {}",
                w.kind.kind(),
                w.name(),
                w.subset(),
                plural(w.pods.len())
            ),
            pods: w.lines(&update, glyphs),
        });
    }
    groups
}

fn root_line(ud: &UnitedDeployment) -> String {
    let kind = template_kind(ud).map_or("no".to_string(), |k| k.kind().to_string());
    let replicas = ud.spec.replicas.unwrap_or(1);
    let revision = ud
        .status
        .as_ref()
        .and_then(|s| s.updated_revision.as_deref())
        .map_or(String::new(), |r| format!(", revision {r}"));
    format!(
        "ud/{}  ({kind} template, {replicas} replicas{revision})",
        ud.name_any()
    )
}

/// The whole tree. Pure.
pub fn render(ud: &UnitedDeployment, workloads: &[Workload], glyphs: Glyphs) -> String {
    draw(&root_line(ud), &groups(ud, workloads, glyphs), glyphs)
}

fn controller_uid(meta: &k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta) -> Option<&str> {
    meta.owner_references
        .iter()
        .flatten()
        .find(|o| o.controller == Some(true))
        .map(|o| o.uid.as_str())
}

/// Reads the UnitedDeployment `namespace/name`, its workloads and their pods, and draws
/// them. A missing UnitedDeployment is an error naming it.
pub async fn load_and_render(
    client: &Client,
    namespace: &str,
    name: &str,
    glyphs: Glyphs,
) -> anyhow::Result<String> {
    let api = Kind::Kruise(KruiseKind::UnitedDeployment).api(client, namespace);
    let Some(object) = api.get_opt(name).await? else {
        anyhow::bail!("uniteddeployment {namespace}/{name} not found");
    };
    let raw = serde_json::to_value(object)?;
    let ud: UnitedDeployment = crate::cli::target::read_as(&raw, &format!("ud/{name}"))?;
    let uid = ud.uid().unwrap_or_default();
    let pods = cached_pod::list(
        &Api::namespaced(client.clone(), namespace),
        &ListParams::default(),
    )
    .await?;
    let replicasets = Api::<k8s_openapi::api::apps::v1::ReplicaSet>::namespaced(client.clone(), namespace)
        .list(&ListParams::default())
        .await?
        .items;
    let mut workloads = Vec::new();
    for kind in ChildKind::all() {
        let api: Api<DynamicObject> = Api::namespaced_with(client.clone(), namespace, &resource(kind));
        // A kind the server does not serve (the CRDs not installed) has no workload here.
        let Ok(list) = api.list(&ListParams::default()).await else {
            continue;
        };
        for object in list.items {
            if controller_uid(&object.metadata) != Some(uid.as_str()) {
                continue;
            }
            let own = object.uid().unwrap_or_default();
            let owners: Vec<String> = if kind == ChildKind::Deployment {
                replicasets
                    .iter()
                    .filter(|rs| controller_uid(&rs.metadata) == Some(own.as_str()))
                    .filter_map(|rs| rs.uid())
                    .collect()
            } else {
                vec![own]
            };
            let mine = pods
                .iter()
                .filter(|p| controller_uid(&p.metadata).is_some_and(|u| owners.iter().any(|o| o == u)))
                .cloned()
                .collect();
            workloads.push(Workload {
                kind,
                object: serde_json::to_value(&object)?,
                pods: mine,
            });
        }
    }
    Ok(render(&ud, &workloads, glyphs))
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn ud() -> UnitedDeployment {
        serde_json::from_value(
            json!({ "apiVersion": "apps.kruise.io/v1alpha1", "kind": "UnitedDeployment",
            "metadata": { "name": "web", "namespace": "ns" },
            "spec": { "replicas": 3, "selector": { "matchLabels": { "app": "web" } },
                "template": { "cloneSetTemplate": { "metadata": { "labels": { "app": "web" } },
                    "spec": { "selector": { "matchLabels": { "app": "web" } },
                        "template": { "metadata": { "labels": { "app": "web" } },
                            "spec": { "containers": [{ "name": "app", "image": "nginx" }] } } } } },
                "topology": { "subsets": [{ "name": "a" }, { "name": "b" }] } },
            "status": { "replicas": 3, "updatedReplicas": 2, "currentRevision": "web-1",
                "updatedRevision": "web-2",
                "subsetStatuses": [{ "name": "a", "replicas": 2, "partition": 1 }] } }),
        )
        .expect("a UnitedDeployment")
    }

    fn pod(name: &str, revision: &str) -> Pod {
        serde_json::from_value(
            json!({ "metadata": { "name": name, "labels": { REVISION_LABEL: revision } },
            "spec": { "nodeName": "n1", "containers": [] },
            "status": { "phase": "Running", "conditions": [{ "type": "Ready", "status": "True" }] } }),
        )
        .expect("a pod")
    }

    fn workload(kind: ChildKind, name: &str, subset: &str, pods: Vec<Pod>) -> Workload {
        Workload {
            kind,
            object: json!({ "metadata": { "name": name, "labels": { SUBSET_NAME_LABEL: subset } },
                "spec": { "replicas": pods.len() }, "status": { "readyReplicas": pods.len() } }),
            pods,
        }
    }

    #[test]
    fn subsets_show_their_workload_and_pods_then_what_is_being_replaced() {
        let workloads = vec![
            workload(
                ChildKind::CloneSet,
                "web-a-x",
                "a",
                vec![pod("web-a-x-2", "web-2"), pod("web-a-x-1", "web-1")],
            ),
            workload(
                ChildKind::Deployment,
                "web-b-y",
                "b",
                vec![pod("web-b-y-1", "web-1")],
            ),
        ];
        let out = render(&ud(), &workloads, crate::cli::glyphs::ASCII);
        assert_eq!(
            out,
            "ud/web  (CloneSet template, 3 replicas, revision web-2)\n\
             |- subset a  CloneSet web-a-x  2/2 ready  partition 1\n\
             |  |- ok web-a-x-1  ready  n1  old revision\n\
             |  `- ok web-a-x-2  ready  n1\n\
             |- subset b  no workload yet\n\
             `- being replaced: Deployment web-b-y (subset b)  1 pod\n\
             \x20  `- ok web-b-y-1  ready  n1  old revision\n"
        );
    }

    #[test]
    fn a_reserved_pod_is_marked() {
        let mut reserved = pod("web-a-x-3", "web-2");
        reserved.labels_mut().insert(RESERVED_LABEL.into(), "true".into());
        let mut kept = pod("web-a-x-2", "web-2");
        kept.labels_mut().insert(RESERVED_LABEL.into(), "false".into());
        let workloads = vec![workload(
            ChildKind::CloneSet,
            "web-a-x",
            "a",
            vec![reserved, kept],
        )];
        let out = render(&ud(), &workloads, crate::cli::glyphs::ASCII);
        assert!(
            out.contains("web-a-x-3  ready  n1  reserved (unschedulable, a substitute runs elsewhere)\n"),
            "{out}"
        );
        assert!(out.contains("web-a-x-2  ready  n1\n"), "{out}");
    }
}
