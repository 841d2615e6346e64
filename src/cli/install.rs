//! `kubectl kruise install | uninstall`: the `apps.kruise.io` CRDs, and with `--manager` the
//! in-cluster manager ([`super::install_manager`]).
//!
//! Invariants: `install` is a server-side apply under field manager `kubectl-kruise`, so
//! running it twice changes nothing; it returns only when every CRD is Established and
//! each served version answers. Over OpenKruise's CRDs it keeps every stored version served
//! (ours serve both versions) and replaces a webhook conversion by `None`; OpenKruise's
//! fail-closed webhook configurations and a running kruise-manager stop it first
//! ([`super::takeover`]).
//! `uninstall` never deletes a CRD that still has objects unless `--force` was given and
//! confirmed (on a terminal) or `--yes` was passed: deleting a CRD deletes every object of
//! it, and the garbage collector then deletes their pods.
use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use clap::{Args, ValueEnum};
use k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition;
use kube::api::{Api, DeleteParams, DynamicObject, ListParams, Patch, PatchParams};
use kube::{Client, ResourceExt};

use super::UsageError;
use super::connection::ConnectionArgs;
use super::takeover;
use crate::api;

/// Every write of this tool is under one field manager.
pub use crate::runtime::context::FIELD_MANAGER;

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum DryRun {
    None,
    Client,
    Server,
}

impl DryRun {
    /// Patch parameters for a write under this dry-run mode (field manager `kubectl-kruise`).
    pub fn patch_params(self) -> kube::api::PatchParams {
        kube::api::PatchParams {
            field_manager: Some(FIELD_MANAGER.into()),
            dry_run: self == DryRun::Server,
            ..kube::api::PatchParams::default()
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Output {
    Yaml,
    Json,
    Name,
}

#[derive(Debug, Args)]
#[command(
    after_help = "Examples:\n  kubectl kruise install\n  kubectl kruise install --only CloneSet,StatefulSet\n  \
kubectl kruise install --dry-run=client -o yaml > kruise-crds.yaml\n  \
kubectl kruise install --take-over   # over OpenKruise, once kruise-manager is stopped\n  \
kubectl kruise install --manager   # and run the controllers in the cluster (namespace kruise-system)\n  \
kubectl kruise install --manager --dry-run=client -o yaml > kruise.yaml   # for GitOps"
)]
pub struct InstallArgs {
    /// Install only these kinds (comma-separated, as OpenKruise names them)
    #[arg(long, value_delimiter = ',', value_name = "KINDS")]
    only: Vec<String>,
    /// `client` prints the CRDs (with --manager, the manager's objects too) without sending
    /// them; `server` sends them with dry-run
    #[arg(long, value_enum, default_value = "none", num_args = 0..=1, default_missing_value = "client")]
    dry_run: DryRun,
    /// Print the CRDs in this format instead of one line each (with --dry-run=client and
    /// --manager, the manager's objects too)
    #[arg(short = 'o', long, value_enum)]
    output: Option<Output>,
    /// How long to wait for the CRDs to become Established
    #[arg(long, default_value = "60s", value_parser = super::duration)]
    timeout: Duration,
    /// Over an OpenKruise install: remove its fail-closed webhook configurations (only
    /// when kruise-manager is not running)
    #[arg(long)]
    take_over: bool,
    /// Do not ask for confirmation
    #[arg(short = 'y', long)]
    yes: bool,
    /// Also run the controllers in the cluster: a Deployment of `kubectl-kruise run` under
    /// its own service account and least-privilege RBAC, in the -n namespace (default
    /// kruise-system)
    #[arg(long)]
    manager: bool,
    /// The manager's image
    #[arg(long, value_name = "IMAGE", default_value = super::manager::DEFAULT_IMAGE, requires = "manager")]
    image: String,
    /// The manager's replicas (one leads, the others stand by and serve the webhooks)
    #[arg(long, value_name = "N", default_value_t = 2, requires = "manager",
        value_parser = clap::value_parser!(i32).range(1..))]
    replicas: i32,
}

#[derive(Debug, Args)]
#[command(
    after_help = "Examples:\n  kubectl kruise uninstall\n  kubectl kruise uninstall --only BroadcastJob\n  \
kubectl kruise uninstall --force --yes   # deletes every custom resource of these kinds too\n  \
kubectl kruise uninstall --manager --keep-crds   # stop the in-cluster controllers, keep everything else\n\n\
Deletion protection is honoured: a CRD labelled policy.kruise.io/delete-protection (Always, or Cascading \
while objects of it exist), or an object of it labelled so, stops the uninstall, --force or not."
)]
pub struct UninstallArgs {
    /// Also remove the in-cluster manager (of the -n namespace, default kruise-system)
    #[arg(long)]
    manager: bool,
    /// With --manager: remove only the manager, not the CRDs
    #[arg(long, requires = "manager")]
    keep_crds: bool,
    /// Uninstall only these kinds (comma-separated)
    #[arg(long, value_delimiter = ',', value_name = "KINDS")]
    only: Vec<String>,
    /// Delete the CRDs even though objects of them exist (they are deleted with them)
    #[arg(long)]
    force: bool,
    /// Do not ask for confirmation
    #[arg(short = 'y', long)]
    yes: bool,
    /// How long to wait for the CRDs to be gone
    #[arg(long, default_value = "120s", value_parser = super::duration)]
    timeout: Duration,
}

/// The CRDs selected by `--only` (all when empty); an unknown kind is a usage error.
fn selected(only: &[String]) -> Result<Vec<CustomResourceDefinition>, UsageError> {
    if only.is_empty() {
        return Ok(api::crds());
    }
    only.iter()
        .map(|kind| {
            let known = api::KINDS.iter().find(|k| k.eq_ignore_ascii_case(kind.trim()));
            known.and_then(|k| api::crd_for_kind(k)).ok_or_else(|| {
                UsageError(format!(
                    "--only: unknown kind {kind:?}; known kinds: {}",
                    api::KINDS.join(", ")
                ))
            })
        })
        .collect()
}

fn crd_line(crd: &CustomResourceDefinition, verb: &str) -> String {
    format!(
        "customresourcedefinition.apiextensions.k8s.io/{} {verb}",
        crd.name_any()
    )
}

fn render(crds: &[CustomResourceDefinition], output: Output) -> anyhow::Result<String> {
    let mut out = String::new();
    for crd in crds {
        let mut value = serde_json::to_value(crd)?;
        value["apiVersion"] = "apiextensions.k8s.io/v1".into();
        value["kind"] = "CustomResourceDefinition".into();
        match output {
            Output::Yaml => {
                out.push_str("---\n");
                out.push_str(&serde_saphyr::to_string(&value)?);
            }
            Output::Json => {
                out.push_str(&serde_json::to_string_pretty(&value)?);
                out.push('\n');
            }
            Output::Name => {
                out.push_str(&format!(
                    "customresourcedefinition.apiextensions.k8s.io/{}\n",
                    crd.name_any()
                ));
            }
        }
    }
    Ok(out)
}

/// The manager `install --manager` / `uninstall --manager` is about.
fn manager_options(args: &InstallArgs, connection: &ConnectionArgs) -> super::manager::Options {
    super::manager::Options {
        namespace: manager_namespace(connection),
        image: args.image.clone(),
        replicas: args.replicas,
    }
}

/// `-n`, else [`super::manager::DEFAULT_NAMESPACE`] (not the context's namespace: the
/// manager has a home of its own).
fn manager_namespace(connection: &ConnectionArgs) -> String {
    connection
        .namespace
        .clone()
        .unwrap_or_else(|| super::manager::DEFAULT_NAMESPACE.into())
}

pub async fn install(args: InstallArgs, connection: &ConnectionArgs) -> anyhow::Result<()> {
    let crds = selected(&args.only)?;
    if args.manager && !args.only.is_empty() {
        return Err(UsageError(
            "--manager runs every controller: it needs every CRD (leave out --only)".into(),
        )
        .into());
    }
    if args.dry_run == DryRun::Client {
        let output = args.output.unwrap_or(Output::Yaml);
        print!("{}", render(&crds, output)?);
        if args.manager {
            let opts = manager_options(&args, connection);
            match output {
                Output::Yaml => print!("{}", super::install_manager::render_yaml(&opts)?),
                Output::Json => {
                    for object in super::manager::objects(&opts) {
                        println!("{}", serde_json::to_string_pretty(&object)?);
                    }
                }
                Output::Name => {
                    for object in super::manager::objects(&opts) {
                        println!("{}", super::install_manager::shown(&object));
                    }
                }
            }
        }
        return Ok(());
    }
    let client = connection.client().await?;
    let api: Api<CustomResourceDefinition> = Api::all(client.clone());
    let mut params = PatchParams::apply(FIELD_MANAGER).force();
    params.dry_run = args.dry_run == DryRun::Server;
    let openkruise = takeover::find(&client).await?;
    if let Some(refusal) = openkruise.refusal(args.take_over) {
        return Err(UsageError(refusal).into());
    }
    if !openkruise.configurations.is_empty() && !params.dry_run {
        confirm(
            &format!(
                "Delete OpenKruise's webhook configurations ({})? kruise-manager is not running.",
                openkruise.configurations.join(", ")
            ),
            args.yes,
        )?;
        takeover::remove_configurations(&client, &openkruise).await?;
    }
    let mut applied = Vec::new();
    for crd in &crds {
        let name = crd.name_any();
        let existing = api.get_opt(&name).await?;
        if let Some(service) = existing.as_ref().and_then(takeover::webhook_conversion) {
            takeover::drop_webhook_conversion(&api, crd, params.dry_run).await?;
            eprintln!(
                "{name}: conversion webhook ({service}) replaced by None: both versions share one schema"
            );
        }
        let before = existing.and_then(|c| c.metadata.resource_version);
        let mut body = crd.clone();
        body.metadata.managed_fields = None;
        let after = api.patch(&name, &params, &Patch::Apply(&body)).await?;
        let verb = match (&before, &after.metadata.resource_version) {
            (None, _) => "created",
            (Some(a), Some(b)) if a == b => "unchanged",
            _ => "configured",
        };
        let verb = if params.dry_run {
            format!("{verb} (server dry run)")
        } else {
            verb.to_string()
        };
        if args.output.is_none() {
            println!("{}", crd_line(crd, &verb));
        }
        applied.push(after);
    }
    if !params.dry_run {
        wait_established(&client, &api, &crds, args.timeout).await?;
    }
    if let Some(output) = args.output {
        print!("{}", render(&applied, output)?);
    }
    if args.manager {
        let opts = manager_options(&args, connection);
        super::install_manager::apply(&client, &opts, params.dry_run, args.output.is_some()).await?;
    }
    Ok(())
}

/// Waits until every CRD is Established and then until each served version answers a
/// list: the API server sets Established a moment before its handler serves the resource,
/// and a `kubectl apply` right after `install` would otherwise meet "404 page not found".
async fn wait_established(
    client: &Client,
    api: &Api<CustomResourceDefinition>,
    crds: &[CustomResourceDefinition],
    timeout: Duration,
) -> anyhow::Result<()> {
    let start = Instant::now();
    for crd in crds {
        let name = crd.name_any();
        loop {
            let current = api.get(&name).await?;
            let conditions = current.status.as_ref().and_then(|s| s.conditions.as_ref());
            let established = conditions
                .is_some_and(|cs| cs.iter().any(|c| c.type_ == "Established" && c.status == "True"));
            if established {
                break;
            }
            if start.elapsed() > timeout {
                anyhow::bail!(
                    "customresourcedefinition {name} not Established after {timeout:?}: {conditions:?}"
                );
            }
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
        for resource in api::versions::served_resources(crd) {
            let objects: Api<DynamicObject> = Api::all_with(client.clone(), &resource);
            loop {
                match objects.list_metadata(&ListParams::default().limit(1)).await {
                    Ok(_) => break,
                    Err(kube::Error::Api(s)) if s.code == 404 && start.elapsed() <= timeout => {
                        tokio::time::sleep(Duration::from_millis(200)).await;
                    }
                    Err(error) => {
                        anyhow::bail!("{} {} is not served: {error}", name, resource.api_version)
                    }
                }
            }
        }
    }
    Ok(())
}

/// Objects of each installed CRD, counted per namespace ("" for cluster-scoped).
async fn count_objects(
    client: &Client,
    crds: &[CustomResourceDefinition],
) -> anyhow::Result<Vec<(String, BTreeMap<String, usize>)>> {
    let mut counts = Vec::new();
    for crd in crds {
        let Some(resource) = api::versions::served_resources(crd).next() else {
            continue;
        };
        let api: Api<DynamicObject> = Api::all_with(client.clone(), &resource);
        let list = api.list_metadata(&ListParams::default()).await?;
        let mut per_namespace = BTreeMap::new();
        for item in list.items {
            *per_namespace
                .entry(item.metadata.namespace.unwrap_or_default())
                .or_insert(0) += 1;
        }
        if !per_namespace.is_empty() {
            counts.push((crd.name_any(), per_namespace));
        }
    }
    Ok(counts)
}

/// What deletion protection refuses of deleting `crds`: a CRD labelled for it (with its
/// objects counted in `counts`), and each object of theirs labelled for it (deleting the
/// CRD would delete it).
async fn protection_refusals(
    client: &Client,
    crds: &[CustomResourceDefinition],
    counts: &[(String, BTreeMap<String, usize>)],
) -> anyhow::Result<Vec<String>> {
    use crate::admission::protection::{LABEL, protection, refusal, workload_pods};
    let mut refusals = Vec::new();
    for crd in crds {
        let objects: usize = counts
            .iter()
            .filter(|(name, _)| *name == crd.name_any())
            .flat_map(|(_, per_namespace)| per_namespace.values())
            .sum();
        if let Some(asked) = protection(&serde_json::to_value(crd)?) {
            let what = format!("CustomResourceDefinition {}", crd.name_any());
            refusals.extend(refusal(&what, asked, &[(objects as i64, "custom resources")]));
        }
        let Some(resource) = api::versions::served_resources(crd).next() else {
            continue;
        };
        let api: Api<DynamicObject> = Api::all_with(client.clone(), &resource);
        for object in api.list(&ListParams::default().labels(LABEL)).await?.items {
            let value = serde_json::to_value(&object)?;
            let Some(asked) = protection(&value) else {
                continue;
            };
            let name = match object.metadata.namespace.as_deref() {
                Some(namespace) => format!("{namespace}/{}", object.name_any()),
                None => object.name_any(),
            };
            let what = format!("{} {name}", crd.spec.names.kind);
            refusals.extend(refusal(&what, asked, &[(workload_pods(&value), "pods")]));
        }
    }
    Ok(refusals)
}

fn describe_counts(counts: &[(String, BTreeMap<String, usize>)]) -> String {
    counts
        .iter()
        .map(|(crd, per_ns)| {
            let total: usize = per_ns.values().sum();
            let where_: Vec<String> = per_ns
                .iter()
                .map(|(ns, n)| {
                    if ns.is_empty() {
                        format!("{n} cluster-scoped")
                    } else {
                        format!("{ns}: {n}")
                    }
                })
                .collect();
            format!("  {crd}: {total} ({})", where_.join(", "))
        })
        .collect::<Vec<_>>()
        .join("\n")
}

pub async fn uninstall(args: UninstallArgs, connection: &ConnectionArgs) -> anyhow::Result<()> {
    let wanted = selected(&args.only)?;
    let client = connection.client().await?;
    if args.manager && args.keep_crds {
        return super::install_manager::remove(&client, &manager_namespace(connection)).await;
    }
    let api: Api<CustomResourceDefinition> = Api::all(client.clone());
    let mut installed = Vec::new();
    for crd in &wanted {
        if let Some(found) = api.get_opt(&crd.name_any()).await? {
            installed.push(found);
        }
    }
    if installed.is_empty() {
        if args.manager {
            super::install_manager::remove(&client, &manager_namespace(connection)).await?;
        }
        println!("no apps.kruise.io CRDs of these kinds are installed");
        return Ok(());
    }
    let counts = count_objects(&client, &installed).await?;
    // Deletion protection holds whatever is asked: a protected CRD, or a protected object
    // its CRD's deletion would delete with it.
    let held = protection_refusals(&client, &installed, &counts).await?;
    if !held.is_empty() {
        anyhow::bail!(
            "refusing to uninstall: deletion protection ({}) holds:\n  {}\n\
             hint: remove the label from these objects first",
            crate::admission::protection::LABEL,
            held.join("\n  ")
        );
    }
    if !counts.is_empty() {
        let listing = describe_counts(&counts);
        if !args.force {
            anyhow::bail!(
                "refusing to uninstall: custom resources still exist:\n{listing}\n\
                 Deleting a CRD deletes every object of it, and their pods are then deleted too.\n\
                 hint: delete those objects first, or pass --force to delete them with the CRDs{}",
                if args.manager {
                    " (--manager --keep-crds removes only the manager)"
                } else {
                    ""
                }
            );
        }
        confirm(
            &format!("This deletes these custom resources and their pods:\n{listing}\nContinue?"),
            args.yes,
        )?;
    }
    // Refused or confirmed above: only now does anything go.
    if args.manager {
        super::install_manager::remove(&client, &manager_namespace(connection)).await?;
    }
    for crd in &installed {
        match api.delete(&crd.name_any(), &DeleteParams::default()).await {
            Ok(_) => println!("{}", crd_line(crd, "deleted")),
            Err(kube::Error::Api(s)) if s.code == 404 => {}
            Err(e) => return Err(e.into()),
        }
    }
    let start = Instant::now();
    for crd in &installed {
        while api.get_opt(&crd.name_any()).await?.is_some() {
            if start.elapsed() > args.timeout {
                anyhow::bail!(
                    "customresourcedefinition {} still exists after {:?}",
                    crd.name_any(),
                    args.timeout
                );
            }
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
    }
    Ok(())
}

/// Asks on a terminal; `--yes` skips; no terminal and no `--yes` is a usage error (exit 2).
pub fn confirm(question: &str, yes: bool) -> anyhow::Result<()> {
    if ask(question, yes)? {
        Ok(())
    } else {
        anyhow::bail!("cancelled")
    }
}

/// Like [`confirm`], but "no" is an answer (false), not an error.
pub fn ask(question: &str, yes: bool) -> anyhow::Result<bool> {
    use std::io::IsTerminal;
    if yes {
        return Ok(true);
    }
    if !(std::io::stdin().is_terminal() && std::io::stderr().is_terminal()) {
        return Err(
            UsageError("this needs confirmation and there is no terminal; hint: pass --yes".into()).into(),
        );
    }
    Ok(dialoguer::Confirm::new()
        .with_prompt(question)
        .default(false)
        .interact()?)
}
