//! Naming the objects a rollout verb acts on (docs/cli.md, naming targets): `TYPE/NAME ...` or
//! `TYPE NAME [NAME ...]`, with type tokens matched case-insensitively against kind,
//! singular, plural, `plural.group` and short names.
//!
//! Invariant: a bare `sts`/`statefulset` (and `ds`/`daemonset`) is the built-in `apps/v1`
//! kind, as in kubectl; the Advanced kinds are `asts`/`ads` or group-qualified.
use serde_json::Value;

use super::UsageError;
pub use super::kinds::{Kind, View};
pub use crate::workloads::facts::{StatusNumbers, value_at};

/// `value`, the object `id` as fetched, read as its kind `K`. The error names the object and
/// the first bad field (an object stored before the CRD's validation, or in a field the
/// schema leaves open, can be unreadable).
pub fn read_as<K: serde::de::DeserializeOwned>(value: &serde_json::Value, id: &str) -> anyhow::Result<K> {
    crate::workloads::facts::read_as(value, id).map_err(anyhow::Error::msg)
}

/// One named object.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Target {
    pub kind: Kind,
    pub name: String,
}

impl Target {
    /// `<plural>.<group>/<name>`, as every verb names the object.
    pub fn id(&self) -> String {
        format!("{}/{}", self.kind.qualified(), self.name)
    }

    /// The object's API in `namespace` (cluster-wide for a cluster-scoped kind).
    pub fn api(&self, client: &kube::Client, namespace: &str) -> kube::Api<kube::api::DynamicObject> {
        self.kind.api(client, namespace)
    }
}

/// Sends the spec change `merge` (a merge patch worked out from `object` as read) as a JSON
/// patch whose first operation tests `metadata.generation`. Status writes (a busy
/// controller) leave the generation alone, so they never make the write fail or retry;
/// any spec change since the read bumps it, and then nothing is written, because the
/// change may no longer be what was planned.
pub async fn patch_unchanged_spec(
    api: &kube::Api<kube::api::DynamicObject>,
    name: &str,
    params: &kube::api::PatchParams,
    object: &kube::api::DynamicObject,
    merge: &Value,
    id: &str,
) -> anyhow::Result<kube::api::DynamicObject> {
    let patch = guarded_by_generation(object, merge)?;
    match api
        .patch(name, params, &kube::api::Patch::<()>::Json(patch))
        .await
    {
        Ok(updated) => Ok(updated),
        Err(error) => {
            let fresh = api.get(name).await?;
            if fresh.metadata.generation != object.metadata.generation {
                anyhow::bail!(
                    "{id} changed since it was checked; nothing was written, run the command again"
                );
            }
            Err(error.into())
        }
    }
}

/// The JSON patch that applies `merge` to `object` only while its spec is the one read:
/// a test of `metadata.generation` (of `metadata.resourceVersion` for an object without a
/// generation), then the operations that turn `object` into `object` merged with `merge`.
pub fn guarded_by_generation(
    object: &kube::api::DynamicObject,
    merge: &Value,
) -> anyhow::Result<json_patch::Patch> {
    let current = serde_json::to_value(object)?;
    let mut desired = current.clone();
    json_patch::merge(&mut desired, merge);
    let test = match object.metadata.generation {
        Some(generation) => {
            serde_json::json!({ "op": "test", "path": "/metadata/generation", "value": generation })
        }
        None => serde_json::json!({
            "op": "test", "path": "/metadata/resourceVersion",
            "value": object.metadata.resource_version,
        }),
    };
    let mut ops = vec![test];
    ops.extend(
        serde_json::to_value(json_patch::diff(&current, &desired))?
            .as_array()
            .cloned()
            .unwrap_or_default(),
    );
    Ok(serde_json::from_value(Value::Array(ops))?)
}

/// Sends the guarded spec `patch` of `t` (`object` as read; see [`patch_unchanged_spec`]),
/// or prints it with `--dry-run=client`, then says `<id> <verb>` (`partitioned`, `scaled`).
pub async fn send_spec_patch(
    api: &kube::Api<kube::api::DynamicObject>,
    t: &Target,
    object: &kube::api::DynamicObject,
    patch: &Value,
    dry_run: super::install::DryRun,
    output: Option<super::install::Output>,
    verb: &str,
) -> anyhow::Result<()> {
    let id = t.id();
    if dry_run == super::install::DryRun::Client {
        println!("{}", serde_json::to_string(patch)?);
        eprintln!("{id} {verb} (dry run: nothing sent)");
        return Ok(());
    }
    let params = dry_run.patch_params();
    let updated = patch_unchanged_spec(api, &t.name, &params, object, patch, &id).await?;
    let suffix = if params.dry_run { " (server dry run)" } else { "" };
    print(&updated, &id, &format!("{verb}{suffix}"), output)
}

/// Prints the outcome of a write: `<id> <verb>`, or the object with `-o`.
pub fn print(
    object: &kube::api::DynamicObject,
    id: &str,
    verb: &str,
    output: Option<super::install::Output>,
) -> anyhow::Result<()> {
    match output {
        None => println!("{id} {verb}"),
        Some(super::install::Output::Name) => println!("{id}"),
        Some(super::install::Output::Json) => println!("{}", serde_json::to_string_pretty(object)?),
        Some(super::install::Output::Yaml) => print!("{}", serde_saphyr::to_string(object)?),
    }
    Ok(())
}

/// Creates `object` through `api` as `dry_run` asks (`client`: nothing is sent) and prints
/// it as `output` asks, else `{id} {verb}` with the dry run said.
pub async fn create_and_print<K>(
    api: &kube::Api<K>,
    object: K,
    id: &str,
    verb: &str,
    dry_run: super::install::DryRun,
    output: Option<super::install::Output>,
) -> anyhow::Result<()>
where
    K: Clone + serde::Serialize + serde::de::DeserializeOwned + std::fmt::Debug,
{
    use super::install::{DryRun, Output};
    let created = match dry_run {
        DryRun::Client => object,
        mode => {
            let params = kube::api::PostParams {
                dry_run: mode == DryRun::Server,
                field_manager: Some(crate::runtime::context::FIELD_MANAGER.into()),
            };
            api.create(&params, &object).await?
        }
    };
    let suffix = match dry_run {
        DryRun::None => "",
        DryRun::Client => " (dry run)",
        DryRun::Server => " (server dry run)",
    };
    match output {
        Some(Output::Yaml) => print!("{}", serde_saphyr::to_string(&created)?),
        Some(Output::Json) => println!("{}", serde_json::to_string_pretty(&created)?),
        Some(Output::Name) => println!("{id}"),
        None => println!("{id} {verb}{suffix}"),
    }
    Ok(())
}

/// The client, and the namespace: `-n`, else the context's, else `default`.
pub async fn connect(
    connection: &super::connection::ConnectionArgs,
) -> anyhow::Result<(kube::Client, String)> {
    let client = connection.client().await?;
    let namespace = connection
        .namespace
        .clone()
        .unwrap_or_else(|| client.default_namespace().to_string());
    Ok((client, namespace))
}

fn unknown(token: &str) -> UsageError {
    UsageError(format!(
        "unknown resource type {token:?}; use one of clone, asts, ads, deploy, sts, ds, bcj, acj, sidecarset (see --help)"
    ))
}

/// Parses `TYPE/NAME ...` or `TYPE NAME [NAME ...]`.
pub fn parse(words: &[String]) -> Result<Vec<Target>, UsageError> {
    let Some(first) = words.first() else {
        return Err(UsageError(
            "name a workload, e.g. cloneset/web (see --help)".into(),
        ));
    };
    if first.contains('/') {
        return words
            .iter()
            .map(|w| {
                let (kind, name) = w
                    .split_once('/')
                    .filter(|(_, n)| !n.is_empty())
                    .ok_or_else(|| UsageError(format!("{w:?}: expected TYPE/NAME (see --help)")))?;
                let kind = Kind::from_token(kind).ok_or_else(|| unknown(kind))?;
                Ok(Target {
                    kind,
                    name: name.to_string(),
                })
            })
            .collect();
    }
    let kind = Kind::from_token(first).ok_or_else(|| unknown(first))?;
    if words.len() < 2 {
        return Err(UsageError(format!(
            "{first}: name at least one object (see --help)"
        )));
    }
    Ok(words[1..]
        .iter()
        .map(|name| Target {
            kind,
            name: name.clone(),
        })
        .collect())
}

/// What the words and `-l` name: objects by name, or every object of a kind that matches
/// a label selector (resolved against the cluster).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Selection {
    Named(Vec<Target>),
    Labelled { kind: Kind, selector: String },
}

/// Refuses the job kinds for a verb that needs replicas, revisions or a partition (`verb`
/// as typed, e.g. `set image`).
pub fn no_jobs(targets: &[Target], verb: &str) -> Result<(), UsageError> {
    match targets.iter().find(|t| t.kind.is_job()) {
        None => Ok(()),
        Some(t) => Err(UsageError(format!(
            "{verb} works on workloads with pods to roll out; {} is a job (it has rollout pause|resume, `rollout status` for a bcj, and get --tree)",
            t.id()
        ))),
    }
}

/// Refuses what has no pod template of its own to roll out (jobs, a SidecarSet) for a
/// verb about that template's revisions or replicas (`rollout undo`, `scale`, ...).
pub fn templates_only(targets: &[Target], verb: &str) -> Result<(), UsageError> {
    no_jobs(targets, verb)?;
    match targets.iter().find(|t| !t.kind.rolls_out_a_template()) {
        None => Ok(()),
        Some(t) if t.kind.facts().partitions_per_subset() => Err(UsageError(format!(
            "{verb} works on workloads with a pod template of their own; {} rolls out through its subset workloads (it has rollout status, set partition SUBSET=N, scale and get --tree)",
            t.id()
        ))),
        Some(t) => Err(UsageError(format!(
            "{verb} works on workloads with a pod template; {} injects containers into other workloads' pods (it has rollout status|pause|resume, set image, set partition and get --tree)",
            t.id()
        ))),
    }
}

/// Parses the words with an optional `-l SELECTOR`: with a selector the words are exactly
/// one type (`clone -l app=web`); without one, as [`parse`].
pub fn parse_selection(words: &[String], selector: Option<&str>) -> Result<Selection, UsageError> {
    let Some(selector) = selector else {
        return parse(words).map(Selection::Named);
    };
    match words {
        [token] if !token.contains('/') => {
            let kind = Kind::from_token(token).ok_or_else(|| unknown(token))?;
            Ok(Selection::Labelled {
                kind,
                selector: selector.to_string(),
            })
        }
        _ => Err(UsageError(
            "with -l, name only the type (e.g. `clone -l app=web`), not objects (see --help)".into(),
        )),
    }
}

impl Selection {
    /// The named objects, or the ones the selector matches now (sorted by name); no match
    /// is an error naming the kind and the selector.
    pub async fn resolve(self, client: &kube::Client, namespace: &str) -> anyhow::Result<Vec<Target>> {
        let (kind, selector) = match self {
            Selection::Named(targets) => return Ok(targets),
            Selection::Labelled { kind, selector } => (kind, selector),
        };
        let api = kind.api(client, namespace);
        let listed = api
            .list(&kube::api::ListParams::default().labels(&selector))
            .await?;
        let mut names: Vec<String> = listed.items.into_iter().filter_map(|o| o.metadata.name).collect();
        names.sort();
        if names.is_empty() {
            let place = if kind.cluster_scoped() {
                String::new()
            } else {
                format!(" in namespace {namespace}")
            };
            anyhow::bail!("no {}{place} matches -l {selector}", kind.qualified());
        }
        Ok(names.into_iter().map(|name| Target { kind, name }).collect())
    }
}

/// `leaf` nested under `path` (`["spec", "paused"]`, true -> `{"spec":{"paused":true}}`).
pub fn nested(path: &[&str], leaf: serde_json::Value) -> serde_json::Value {
    path.iter()
        .rev()
        .fold(leaf, |inner, key| serde_json::json!({ *key: inner }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::KruiseKind;

    fn words(w: &[&str]) -> Vec<String> {
        w.iter().map(|s| s.to_string()).collect()
    }

    fn stored(generation: i64, ready: i64, image: &str) -> serde_json::Value {
        serde_json::json!({
            "apiVersion": "apps/v1", "kind": "Deployment",
            "metadata": { "name": "front", "generation": generation, "resourceVersion": "7" },
            "spec": { "replicas": 3, "template": { "spec": { "containers": [
                { "name": "app", "image": image }, { "name": "log", "image": "busybox" },
            ] } } },
            "status": { "readyReplicas": ready },
        })
    }

    /// Status writes between the read and the write (the built-in Deployment controller
    /// makes several while pods start) must not fail the write; a spec change must.
    #[test]
    fn a_spec_write_survives_status_writes_and_is_refused_after_a_spec_change() {
        let read: kube::api::DynamicObject = serde_json::from_value(stored(1, 0, "nginx")).expect("object");
        let merge = serde_json::json!({ "spec": { "template": { "spec": { "containers": [
            { "name": "app", "image": "nginx:2" }, { "name": "log", "image": "busybox" },
        ] } } } });
        let patch = guarded_by_generation(&read, &merge).expect("patch");
        let mut busy = stored(1, 2, "nginx");
        busy["metadata"]["resourceVersion"] = "9".into();
        json_patch::patch(&mut busy, &patch).expect("status writes do not stop it");
        assert_eq!(
            busy["spec"]["template"]["spec"]["containers"][0]["image"],
            "nginx:2"
        );
        assert_eq!(
            busy["spec"]["template"]["spec"]["containers"][1]["image"],
            "busybox"
        );
        assert_eq!(busy["status"]["readyReplicas"], 2, "status is not written back");
        let mut edited = stored(2, 0, "nginx:3");
        let before = edited.clone();
        assert!(json_patch::patch(&mut edited, &patch).is_err());
        assert_eq!(edited, before, "nothing is written after a spec change");
    }

    #[test]
    fn both_forms_and_every_token_resolve() {
        let t = parse(&words(&["cloneset/web", "clone/api"])).expect("parse");
        assert_eq!(
            t.iter().map(|t| t.name.as_str()).collect::<Vec<_>>(),
            ["web", "api"]
        );
        let t = parse(&words(&["Deploy", "a", "b"])).expect("parse");
        assert!(t.iter().all(|t| t.kind == Kind::Deployment) && t.len() == 2);
        assert_eq!(
            Kind::from_token("CLONESETS.APPS.KRUISE.IO"),
            Some(Kind::Kruise(KruiseKind::CloneSet))
        );
    }

    /// Every name the CLI took when each kind listed its own (the names of the OpenKruise
    /// kinds are now read from their CRD): each still means the same kind.
    #[test]
    fn every_name_a_kind_had_still_resolves_to_it() {
        let table: &[(Kind, &[&str])] = &[
            (
                Kind::Kruise(KruiseKind::CloneSet),
                &["clone", "cloneset", "clonesets", "clonesets.apps.kruise.io"],
            ),
            (
                Kind::Kruise(KruiseKind::StatefulSet),
                &[
                    "asts",
                    "statefulsets.apps.kruise.io",
                    "statefulset.apps.kruise.io",
                ],
            ),
            (
                Kind::Kruise(KruiseKind::DaemonSet),
                &[
                    "ads",
                    "daemon",
                    "daemonsets.apps.kruise.io",
                    "daemonset.apps.kruise.io",
                ],
            ),
            (
                Kind::Deployment,
                &["deploy", "deployment", "deployments", "deployments.apps"],
            ),
            (
                Kind::StatefulSet,
                &["sts", "statefulset", "statefulsets", "statefulset.apps"],
            ),
            (
                Kind::DaemonSet,
                &["ds", "daemonset", "daemonsets", "daemonsets.apps"],
            ),
            (
                Kind::Kruise(KruiseKind::BroadcastJob),
                &[
                    "bcj",
                    "broadcastjob",
                    "broadcastjobs",
                    "broadcastjob.apps.kruise.io",
                ],
            ),
            (
                Kind::Kruise(KruiseKind::AdvancedCronJob),
                &[
                    "acj",
                    "advancedcronjob",
                    "advancedcronjobs",
                    "advancedcronjobs.apps.kruise.io",
                ],
            ),
            (
                Kind::Kruise(KruiseKind::UnitedDeployment),
                &[
                    "ud",
                    "uniteddeployment",
                    "uniteddeployments",
                    "uniteddeployment.apps.kruise.io",
                ],
            ),
            (
                Kind::Kruise(KruiseKind::SidecarSet),
                &[
                    "sidecarset",
                    "sidecarsets",
                    "sidecarsets.apps.kruise.io",
                    "sidecarset.apps.kruise.io",
                ],
            ),
        ];
        for (kind, names) in table {
            for name in *names {
                assert_eq!(Kind::from_token(name), Some(*kind), "{name}");
            }
            let r = kind.resource();
            assert_eq!(kind.qualified(), format!("{}.{}", r.plural, r.group), "{kind:?}");
        }
        assert_eq!(
            Kind::Kruise(KruiseKind::StatefulSet).resource().api_version,
            "apps.kruise.io/v1beta1"
        );
        assert_eq!(
            Kind::Kruise(KruiseKind::CloneSet).resource().api_version,
            "apps.kruise.io/v1alpha1"
        );
        assert_eq!(Kind::StatefulSet.resource().api_version, "apps/v1");
        assert!(
            Kind::Kruise(KruiseKind::SidecarSet).cluster_scoped()
                && !Kind::Kruise(KruiseKind::CloneSet).cluster_scoped()
        );
        assert_eq!(
            Kind::from_token("ws"),
            None,
            "no rollout verb takes a WorkloadSpread"
        );
    }

    #[test]
    fn bare_sts_is_the_built_in_kind_and_asts_the_advanced_one() {
        assert_eq!(Kind::from_token("sts"), Some(Kind::StatefulSet));
        assert_eq!(Kind::from_token("statefulset"), Some(Kind::StatefulSet));
        assert_eq!(
            Kind::from_token("asts"),
            Some(Kind::Kruise(KruiseKind::StatefulSet))
        );
        assert_eq!(
            Kind::from_token("statefulsets.apps.kruise.io"),
            Some(Kind::Kruise(KruiseKind::StatefulSet))
        );
        assert_eq!(Kind::from_token("ds"), Some(Kind::DaemonSet));
        assert_eq!(Kind::from_token("ads"), Some(Kind::Kruise(KruiseKind::DaemonSet)));
    }

    #[test]
    fn a_selector_takes_one_bare_type() {
        assert_eq!(
            parse_selection(&words(&["clone"]), Some("app=web")).expect("parse"),
            Selection::Labelled {
                kind: Kind::Kruise(KruiseKind::CloneSet),
                selector: "app=web".into()
            }
        );
        assert!(parse_selection(&words(&["clone/web"]), Some("app=web")).is_err());
        assert!(parse_selection(&words(&["clone", "web"]), Some("app=web")).is_err());
        assert!(matches!(
            parse_selection(&words(&["clone", "web"]), None),
            Ok(Selection::Named(_))
        ));
    }

    #[test]
    fn bad_names_are_usage_errors_with_a_hint() {
        for bad in [&["widget/web"][..], &["clone"], &[], &["clone/"]] {
            let e = parse(&words(bad)).expect_err("refused");
            assert!(e.0.contains("--help"), "{}", e.0);
        }
    }
}
