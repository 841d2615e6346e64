//! `kubectl kruise rollout history KIND/NAME [--revision N]`: the revisions of a workload,
//! oldest first, with the change cause and the images of each; `--revision N` shows one
//! revision's pod template.
//!
//! CloneSet, Advanced StatefulSet/DaemonSet and the built-in StatefulSet/DaemonSet keep
//! ControllerRevisions (owned by the workload); a Deployment keeps ReplicaSets with the
//! `deployment.kubernetes.io/revision` annotation.
use clap::Args;
use k8s_openapi::api::apps::v1::{ControllerRevision, ReplicaSet};
use k8s_openapi::api::core::v1::PodTemplateSpec;
use kube::ResourceExt;
use kube::api::{Api, DynamicObject, ListParams};

use super::UsageError;
use super::connection::ConnectionArgs;
use super::target::{self, Kind};

pub const HELP: &str = "\
Kinds: cloneset (clone), asts, ads, deployment (deploy), statefulset (sts), daemonset (ds).
The CHANGE-CAUSE column is the workload's kubernetes.io/change-cause annotation when the
revision was made.

Examples:
  kubectl kruise rollout history cloneset/web
  kubectl kruise rollout history deploy/front --revision 2";

const CHANGE_CAUSE: &str = "kubernetes.io/change-cause";

#[derive(Debug, Args)]
pub struct HistoryArgs {
    /// TYPE/NAME
    #[arg(value_name = "TYPE/NAME")]
    pub target: String,
    /// Show the pod template of this revision
    #[arg(long, value_name = "N")]
    pub revision: Option<i64>,
}

/// One revision, whatever object keeps it.
#[derive(Debug, Clone)]
pub struct Revision {
    pub number: i64,
    pub name: String,
    pub cause: String,
    pub template: PodTemplateSpec,
}

fn images(template: &PodTemplateSpec) -> String {
    template
        .spec
        .iter()
        .flat_map(|s| &s.containers)
        .map(|c| format!("{}={}", c.name, c.image.as_deref().unwrap_or("")))
        .collect::<Vec<_>>()
        .join(",")
}

/// The revision name `pod` of `owner` (a `kind`) runs, from its revision label: a kind
/// whose revisions are `<owner>-<hash>` labels its pods with the hash (an Advanced
/// DaemonSet).
pub fn pod_revision(kind: Kind, owner: &str, pod: &k8s_openapi::api::core::v1::Pod) -> Option<String> {
    pod.labels()
        .get(crate::runtime::revision::REVISION_LABEL)
        .map(|label| kind.facts().revision_name(owner, label))
}

/// The revisions of a workload, oldest first.
pub async fn revisions(
    client: &kube::Client,
    namespace: &str,
    kind: Kind,
    object: &DynamicObject,
) -> anyhow::Result<Vec<Revision>> {
    let uid = object.uid().unwrap_or_default();
    let owned = |refs: &[k8s_openapi::apimachinery::pkg::apis::meta::v1::OwnerReference]| {
        refs.iter().any(|o| o.controller == Some(true) && o.uid == uid)
    };
    let mut out = Vec::new();
    if kind == Kind::Deployment {
        let api: Api<ReplicaSet> = Api::namespaced(client.clone(), namespace);
        for rs in api.list(&ListParams::default()).await?.items {
            if !owned(rs.owner_references()) {
                continue;
            }
            let number = rs
                .annotations()
                .get("deployment.kubernetes.io/revision")
                .and_then(|v| v.parse().ok())
                .unwrap_or(0);
            out.push(Revision {
                number,
                name: rs.name_any(),
                cause: rs.annotations().get(CHANGE_CAUSE).cloned().unwrap_or_default(),
                template: rs.spec.template.clone().unwrap_or_default(),
            });
        }
    } else {
        let api: Api<ControllerRevision> = Api::namespaced(client.clone(), namespace);
        for cr in api.list(&ListParams::default()).await?.items {
            if !owned(cr.owner_references()) {
                continue;
            }
            let mut template = cr.data.0["spec"]["template"].clone();
            if let Some(o) = template.as_object_mut() {
                o.remove("$patch");
            }
            out.push(Revision {
                number: cr.revision.unwrap_or(0),
                name: cr.name_any(),
                cause: cr.annotations().get(CHANGE_CAUSE).cloned().unwrap_or_default(),
                template: serde_json::from_value(template).unwrap_or_default(),
            });
        }
    }
    out.sort_by_key(|r| r.number);
    Ok(out)
}

pub async fn run(args: HistoryArgs, connection: &ConnectionArgs) -> anyhow::Result<()> {
    let targets = target::parse(std::slice::from_ref(&args.target))?;
    target::templates_only(&targets, "rollout history")?;
    let [t] = targets.as_slice() else {
        return Err(UsageError("rollout history takes one workload (see --help)".into()).into());
    };
    let (client, namespace) = target::connect(connection).await?;
    let api: Api<DynamicObject> = t.api(&client, &namespace);
    let object = api.get(&t.name).await?;
    let list = revisions(&client, &namespace, t.kind, &object).await?;
    let id = t.id();
    if let Some(n) = args.revision {
        let Some(r) = list.iter().find(|r| r.number == n) else {
            let known: Vec<String> = list.iter().map(|r| r.number.to_string()).collect();
            anyhow::bail!("{id} has no revision {n} (revisions: {})", known.join(", "));
        };
        println!("{id} with revision #{n} ({})", r.name);
        print!("{}", serde_saphyr::to_string(&r.template)?);
        return Ok(());
    }
    println!("{id}");
    let rows: Vec<Vec<String>> = list
        .iter()
        .map(|r| {
            let cause = if r.cause.is_empty() { "<none>" } else { &r.cause };
            vec![
                r.number.to_string(),
                r.name.clone(),
                images(&r.template),
                cause.to_string(),
            ]
        })
        .collect();
    print!(
        "{}",
        super::table::render(&["revision", "name", "images", "change-cause"], &rows)
    );
    Ok(())
}
