//! The watch loop of `rollout status`: reflectors on the workload (by name), its pods and,
//! for a Deployment, its ReplicaSets (by the workload's selector); a report on each change
//! (at most every 250 ms) and on each second.
//!
//! Invariants: no report is made before every watch has listed once; the pods of the
//! report are the ones the workload controls (owner uid; a Deployment's through its
//! ReplicaSets); a deleted workload or a moved `--revision` stops with exit 1; pods are
//! held as the pod cache's compact record (what the report reads), never as whole pods.
use std::collections::HashMap;
use std::io::IsTerminal;
use std::time::{Duration, Instant};

use futures::{StreamExt, stream::BoxStream};
use k8s_openapi::api::apps::v1::{ControllerRevision, ReplicaSet};
use k8s_openapi::api::core::v1::Pod;
use k8s_openapi::apimachinery::pkg::apis::meta::v1::LabelSelector;
use k8s_openapi::jiff::Timestamp;
use kube::api::{Api, DynamicObject};
use kube::runtime::reflector::{self, Store};
use kube::runtime::{WatchStreamExt, watcher};
use kube::{Client, ResourceExt};
use serde_json::Value;

use super::assess::{self, Observed};
use super::render::{Mode, Renderer};
use super::{ExitWith, StatusArgs, StatusOutput, decide};
use crate::cli::UsageError;
use crate::cli::connection::ConnectionArgs;
use crate::cli::glyphs;
use crate::cli::target::{self, Kind, Target};
use crate::runtime::cached_pod::CachedPod;

const REVISION_ANNOTATION: &str = "deployment.kubernetes.io/revision";

fn mode(args: &StatusArgs) -> Mode {
    match args.output {
        Some(StatusOutput::Json) => Mode::Json,
        Some(StatusOutput::Yaml) => Mode::Yaml,
        Some(StatusOutput::Jsonl) => Mode::Jsonl,
        None if !args.plain && args.watch && std::io::stdout().is_terminal() => Mode::Live,
        None => Mode::Plain,
    }
}

fn selector(object: &Value, id: &str) -> anyhow::Result<String> {
    let parsed: LabelSelector = serde_json::from_value(object["spec"]["selector"].clone())
        .map_err(|e| anyhow::anyhow!("{id}: spec.selector is not a label selector: {e}"))?;
    let selector =
        kube::core::Selector::try_from(parsed).map_err(|e| anyhow::anyhow!("{id}: spec.selector: {e}"))?;
    Ok(selector.to_string())
}

/// One merged stream of "something changed" (true once a watch has listed).
fn changes<K>(
    api: Api<K>,
    config: watcher::Config,
    writer: reflector::store::Writer<K>,
) -> BoxStream<'static, bool>
where
    K: kube::Resource + Clone + std::fmt::Debug + serde::de::DeserializeOwned + Send + Sync + 'static,
    K::DynamicType: Eq + std::hash::Hash + Clone,
{
    watcher(api, config)
        .default_backoff()
        .reflect(writer)
        .filter_map(|event| async move {
            match event {
                Ok(watcher::Event::InitDone) => Some(true),
                Ok(_) => Some(false),
                Err(e) => {
                    tracing::debug!(error = %e, "status watch error; retrying");
                    None
                }
            }
        })
        .boxed()
}

/// The Deployment's update revision: its newest ReplicaSet's (hash, number).
fn newest_replica_set(sets: &[std::sync::Arc<ReplicaSet>], uid: &str) -> Option<(String, i64, String)> {
    sets.iter()
        .filter(|rs| rs.owner_references().iter().any(|o| o.uid == uid))
        .filter_map(|rs| {
            let number = rs.annotations().get(REVISION_ANNOTATION)?.parse::<i64>().ok()?;
            let hash = rs.labels().get("pod-template-hash")?.clone();
            Some((hash, number, rs.uid().unwrap_or_default()))
        })
        .max_by_key(|(_, n, _)| *n)
}

pub async fn run(args: StatusArgs, connection: &ConnectionArgs) -> anyhow::Result<()> {
    let selection = target::parse_selection(std::slice::from_ref(&args.target), args.selector.as_deref())?;
    if let target::Selection::Named(named) = &selection
        && named.len() != 1
    {
        return Err(
            UsageError("rollout status takes one workload, or a type with -l (see --help)".into()).into(),
        );
    }
    let (client, namespace) = target::connect(connection).await?;
    let targets = selection.resolve(&client, &namespace).await?;
    if let Some(t) = targets.iter().find(|t| t.kind.status_view().is_none()) {
        let hint = if t.kind.is_job() {
            " (an AdvancedCronJob has no rollout; `kubectl kruise get --tree acj/NAME` shows its runs)"
        } else {
            ""
        };
        return Err(UsageError(format!(
            "rollout status supports cloneset, asts, ads, deployment, bcj, sidecarset and ud, not {}{hint}",
            t.kind.qualified()
        ))
        .into());
    }
    let by_object = |kind: Kind| kind.status_view().and_then(crate::cli::views::judged);
    if let Some(judged) = targets.first().and_then(|t| by_object(t.kind)) {
        // One kind per call (a name, or a type with -l).
        for t in &targets {
            super::by_object::follow(&args, judged, t, &client, &namespace).await?;
        }
        return Ok(());
    }
    let glyphs = glyphs::for_locale();
    let colour = glyphs::colour(std::io::stdout().is_terminal(), args.no_color, |k| {
        std::env::var(k).ok()
    });
    // With -l, one after the other (as kubectl): the first that does not succeed decides.
    for t in &targets {
        let mut renderer = Renderer::new(mode(&args), glyphs, colour);
        let outcome = follow(&args, t, &client, &namespace, &mut renderer).await;
        renderer.finish()?;
        outcome?;
    }
    Ok(())
}

/// Watches `t` until [`decide`] stops: Ok when done, an [`ExitWith`] otherwise.
pub async fn follow(
    args: &StatusArgs,
    t: &Target,
    client: &Client,
    namespace: &str,
    renderer: &mut Renderer,
) -> anyhow::Result<()> {
    let api: Api<DynamicObject> = t.api(client, namespace);
    let first = api.get(&t.name).await?;
    let id = format!("{}/{}", assess::kind_word(t.kind), t.name);
    let labels = selector(&serde_json::to_value(&first)?, &id)?;
    let uid = first.uid().unwrap_or_default();

    let resource = t.kind.resource();
    let object_writer = reflector::store::Writer::<DynamicObject>::new(resource.clone());
    let objects: Store<DynamicObject> = object_writer.as_reader();
    let by_name = watcher::Config::default().fields(&format!("metadata.name={}", t.name));
    let pod_writer = reflector::store::Writer::<CachedPod>::default();
    let pods: Store<CachedPod> = pod_writer.as_reader();
    let by_labels = watcher::Config::default().labels(&labels);
    let set_writer = reflector::store::Writer::<ReplicaSet>::default();
    let replica_sets: Store<ReplicaSet> = set_writer.as_reader();
    let mut streams = vec![
        changes(api.clone(), by_name, object_writer),
        changes(
            Api::namespaced(client.clone(), namespace),
            by_labels.clone(),
            pod_writer,
        ),
    ];
    if t.kind == Kind::Deployment {
        streams.push(changes(
            Api::namespaced(client.clone(), namespace),
            by_labels,
            set_writer,
        ));
    }
    let needed = streams.len();
    let mut events = futures::stream::select_all(streams);
    let mut listed = 0;
    let mut dirty = true;
    let mut numbers: HashMap<String, i64> = HashMap::new();
    let revisions: Api<ControllerRevision> = Api::namespaced(client.clone(), namespace);
    let mut budget_reads = crate::cli::views::budgets::Reads::new(client, namespace);
    let started = Instant::now();
    let mut tick = tokio::time::interval(Duration::from_millis(250));
    let mut last_report = Instant::now();
    loop {
        tokio::select! {
            event = events.next() => match event {
                Some(init) => { listed += usize::from(init); dirty = true; }
                None => anyhow::bail!("the watches of {id} ended"),
            },
            _ = tick.tick() => {}
        }
        if listed < needed || !(dirty || last_report.elapsed() >= Duration::from_secs(1)) {
            continue;
        }
        if !args.timeout.is_zero() && started.elapsed() >= args.timeout {
            return Err(ExitWith {
                code: 4,
                message: format!("timed out after {:?} waiting for {id}", args.timeout),
            }
            .into());
        }
        dirty = false;
        last_report = Instant::now();
        let Some(object) = objects.state().into_iter().next() else {
            return Err(ExitWith {
                code: 1,
                message: format!("{}/{} was deleted while watched", t.kind.qualified(), t.name),
            }
            .into());
        };
        let value = serde_json::to_value(&*object)?;
        let (hash, number, owners) = if t.kind == Kind::Deployment {
            let sets = replica_sets.state();
            let owners: Vec<String> = sets
                .iter()
                .filter(|rs| rs.owner_references().iter().any(|o| o.uid == uid))
                .filter_map(|rs| rs.uid())
                .collect();
            match newest_replica_set(&sets, &uid) {
                Some((hash, number, _)) => (Some(hash), Some(number), owners),
                None => (None, None, owners),
            }
        } else {
            let hash = value["status"]["updateRevision"].as_str().map(str::to_string);
            // A DaemonSet reports the hash alone; its revision is `<name>-<hash>`.
            let revision_name = |hash: &str| t.kind.facts().revision_name(&t.name, hash);
            let number = match &hash {
                Some(name) if !numbers.contains_key(name) => {
                    let found = revisions
                        .get_opt(&revision_name(name))
                        .await?
                        .and_then(|r| r.revision);
                    if let Some(n) = found {
                        numbers.insert(name.clone(), n);
                    }
                    found
                }
                Some(name) => numbers.get(name).copied(),
                None => None,
            };
            (hash, number, vec![uid.clone()])
        };
        let owned: Vec<Pod> = pods
            .state()
            .iter()
            .filter(|p| p.owner_references().iter().any(|o| owners.contains(&o.uid)))
            .map(|p| p.pod())
            .collect();
        let budgets = budget_reads.budgets(&owned).await;
        let now = Timestamp::now();
        let report = assess::assess(&Observed {
            kind: t.kind,
            name: &t.name,
            object: &value,
            pods: &owned,
            update_hash: hash.as_deref(),
            revision_number: number,
            now,
            stuck_after: (!args.no_fail_fast).then_some(args.stuck_after),
            budgets: &budgets,
        });
        renderer.show(&report, &now.to_string())?;
        let caught_up =
            value["status"]["observedGeneration"].as_i64() >= value["metadata"]["generation"].as_i64();
        if let (Some(want), Some(have), true) = (args.revision, number, caught_up)
            && want != have
        {
            return Err(ExitWith {
                code: 1,
                message: format!(
                    "{id} is now at revision {have} ({}), not revision {want}",
                    hash.unwrap_or_default()
                ),
            }
            .into());
        }
        match decide(&report, args) {
            None => {}
            Some(0) => return Ok(()),
            Some(code) => {
                return Err(ExitWith {
                    code,
                    message: report.line.clone(),
                }
                .into());
            }
        }
    }
}
