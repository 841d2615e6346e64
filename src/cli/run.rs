//! `kubectl kruise run`: the controllers, in the foreground, against the current kubeconfig.
//!
//! ```text
//! kubeconfig -> one client (qps/burst, write counters) -> shared watches -> controllers
//!                                                      -> metrics on --metrics-addr
//! ```
//!
//! Invariants: it refuses to start while a needed CRD is missing or not yet established;
//! Ctrl-C or SIGTERM stops taking new work, lets in-flight reconciles finish their writes,
//! and exits 0 (a second signal exits 130 at once).
use std::io::IsTerminal;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use anyhow::Context as _;
use clap::Args;
use futures::FutureExt;
use k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition;
use kube::Api;

use super::UsageError;
use super::connection::ConnectionArgs;
use crate::admission::Admission;
use crate::admission::server;
use crate::admission::shared::{Health, Shared};
use crate::api::KruiseKind;
use crate::runtime::controller::Serve;
use crate::runtime::{client, leader, metrics, watches};
use crate::workloads::registry::{self, Described, Shutdown};

/// `run --help`'s text after the options; the controller list comes from the registry.
pub fn after_help() -> String {
    let available: Vec<String> = registry::available()
        .map(|c| {
            if c.drives == c.name {
                c.name.to_string()
            } else {
                format!("{} ({})", c.name, c.drives)
            }
        })
        .collect();
    let later: Vec<&str> = registry::CONTROLLERS
        .iter()
        .filter(|c| c.start.is_none())
        .map(|c| c.name)
        .collect();
    let later = if later.is_empty() {
        String::new()
    } else {
        format!("; later: {}", later.join(", "))
    };
    format!("Controllers: {}{later}.\n{AFTER_HELP_REST}", available.join(", "))
}

const AFTER_HELP_REST: &str = "\
With -n NAMESPACE only that namespace is watched; without it, all namespaces.
Leader election (on by default): the run holds the Lease --leader-elect-name in
--leader-elect-namespace (default: the -n namespace, else `default`); a second run waits as
a standby and takes over once the first stops renewing (a graceful exit releases the lease
at once). Losing the lease stops the run with exit 1.
Ctrl-C or SIGTERM stops gracefully: in-flight writes finish, then exit 0.
Credentials: the kubeconfig, else (in a pod) the pod's service account. Running as a service
account (in a pod, or --as system:serviceaccount:NS:NAME), it says at start which of the
permissions its controllers need it lacks; any request refused later (403) is said once.
`kubectl kruise install --manager` runs it in the cluster under least-privilege RBAC.
Webhooks (on by default): run serves HTTPS on --webhook-addr (/mutate writes defaults,
/validate refuses what the controllers would refuse, plus /metrics, /healthz, /readyz;
/readyz?exclude=leader is ready on a standby too) under a CA kept in the Secret
kubectl-kruise-webhook-certs of the lease namespace; the leader registers the webhook configurations `kubectl-kruise` (every one
fails open: a stopped run never blocks a request) and a graceful exit removes them. The API
server must reach --webhook-host: the local control plane and an API server on this host do;
for a remote cluster give --webhook-host, --webhook-service, or --webhooks=false (the
controllers still apply the same defaults and refusals; you lose them only in `kubectl get`
and at admission).

Examples:
  # run every available controller against the current context
  kubectl kruise run
  # only CloneSets in one namespace, with a faster client and metrics
  kubectl kruise run --controllers CloneSet -n web --qps 100 --burst 200 --metrics-addr 127.0.0.1:8080
  # only the Advanced StatefulSet controller, with 8 concurrent reconciles
  kubectl kruise run --controllers StatefulSet --workers StatefulSet=8";

#[derive(Debug, Args)]
pub struct RunArgs {
    /// Controllers to start, comma separated (default: all that exist)
    #[arg(long, value_delimiter = ',', value_name = "NAMES")]
    pub controllers: Vec<String>,
    /// Client requests per second (0: no limit)
    #[arg(long, default_value_t = 50.0, value_name = "N")]
    pub qps: f64,
    /// Client burst above --qps
    #[arg(long, default_value_t = 100, value_name = "N")]
    pub burst: u32,
    /// Concurrent reconciles per controller: N, or KIND=N for one controller (repeatable)
    ///
    /// Objects past the cap wait their turn first come, first served, and are read again
    /// when it comes (a busy object never holds a changed one back for long); an object
    /// never has two reconciles at once. The cap bounds memory (each reconcile holds its
    /// snapshot); 0 sets none, and --qps still bounds the API load
    #[arg(long, value_delimiter = ',', value_name = "N|KIND=N", default_value = "8")]
    pub workers: Vec<String>,
    /// Also serve /metrics, /healthz and /readyz over plain HTTP on this address (e.g. 127.0.0.1:8080)
    #[arg(long, value_name = "ADDR")]
    pub metrics_addr: Option<SocketAddr>,
    /// Serve and register the admission webhooks (--webhooks=false: neither)
    #[arg(long, default_value_t = true, action = clap::ArgAction::Set, num_args = 0..=1,
        default_missing_value = "true", value_name = "BOOL")]
    pub webhooks: bool,
    /// Where the HTTPS server listens (port 0: any free port)
    #[arg(long, default_value = "127.0.0.1:0", value_name = "ADDR")]
    pub webhook_addr: SocketAddr,
    /// The host (IP or DNS name) the API server dials to reach the webhooks
    #[arg(long, default_value = "127.0.0.1", value_name = "HOST")]
    pub webhook_host: String,
    /// In-cluster: the configurations point at this Service instead of a URL
    #[arg(long, value_name = "NS/NAME[:PORT]", value_parser = parse_webhook_service)]
    pub webhook_service: Option<(String, String, i32)>,
    /// Hold a Lease so that only one run writes at a time (--leader-elect=false: no lease)
    #[arg(long, default_value_t = true, action = clap::ArgAction::Set, num_args = 0..=1,
        default_missing_value = "true", value_name = "BOOL")]
    pub leader_elect: bool,
    /// Namespace of the Lease (default: the -n namespace, else `default`)
    #[arg(long, value_name = "NS")]
    pub leader_elect_namespace: Option<String>,
    /// Name of the Lease
    #[arg(long, default_value = "kubectl-kruise", value_name = "NAME")]
    pub leader_elect_name: String,
    /// How long the Lease holds without a renewal (a standby takes over after it)
    #[arg(long, default_value = "15s", value_parser = super::duration, value_name = "DURATION")]
    pub leader_elect_lease_duration: std::time::Duration,
    /// A controller with an object waiting this long, and no reconcile finished in as long, is stalled
    ///
    /// /healthz then answers 503 naming it (the in-cluster manager's liveness probe restarts
    /// the pod), and run stops with exit code 3 naming it (0s: never judged stalled)
    #[arg(long, default_value = "2m", value_parser = super::duration, value_name = "DURATION")]
    pub stall_after: std::time::Duration,
    /// OpenKruise's feature gates, as kruise-manager takes them (NAME=true|false,...; AllAlpha, AllBeta)
    ///
    /// Upstream's names and defaults (v1.9.0). CloneSetPartitionRollback,
    /// PreparingUpdateAsUpdate, RecreatePodWhenChangeVCTInCloneSetGate and
    /// SidecarSetPatchPodMetadataDefaultsAllowed change what the run does; a gate this binary cannot follow is accepted and named in a warning at start
    /// (node-agent features, for one)
    #[arg(long, value_name = "GATES", value_parser = parse_feature_gates)]
    pub feature_gates: Option<crate::runtime::features::FeatureGates>,
}

fn parse_feature_gates(value: &str) -> Result<crate::runtime::features::FeatureGates, String> {
    crate::runtime::features::FeatureGates::parse(value)
}

fn parse_webhook_service(value: &str) -> Result<(String, String, i32), String> {
    crate::admission::parse_service(value)
}

fn chosen_controllers(args: &RunArgs) -> Result<Vec<&'static Described>, UsageError> {
    let names = |list: &mut dyn Iterator<Item = &'static Described>| {
        list.map(|c| c.name).collect::<Vec<_>>().join(", ")
    };
    if args.controllers.is_empty() {
        return Ok(registry::available().collect());
    }
    let mut chosen: Vec<&'static Described> = Vec::new();
    for asked in &args.controllers {
        let Some(found) = registry::find(asked) else {
            return Err(UsageError(format!(
                "unknown controller {asked:?} in --controllers (known: {})",
                names(&mut registry::CONTROLLERS.iter())
            )));
        };
        if found.start.is_none() {
            return Err(UsageError(format!(
                "controller {} in --controllers is not available yet (available: {})",
                found.name,
                names(&mut registry::available())
            )));
        }
        if !chosen.iter().any(|c| c.name == found.name) {
            chosen.push(found);
        }
    }
    Ok(chosen)
}

/// Concurrent reconciles per controller unless `--workers` says otherwise (the same as its
/// default value).
const DEFAULT_WORKERS: u16 = 8;

fn workers_for(args: &RunArgs, controller: &str) -> Result<u16, UsageError> {
    let mut default = DEFAULT_WORKERS;
    let mut specific = None;
    for item in &args.workers {
        let bad = || {
            UsageError(format!(
                "--workers {item:?}: expected N or KIND=N (N >= 0; 0: no cap)"
            ))
        };
        match item.split_once('=') {
            Some((kind, n)) => {
                let n: u16 = n.trim().parse().ok().ok_or_else(bad)?;
                if kind.trim().eq_ignore_ascii_case(controller) {
                    specific = Some(n);
                }
            }
            None => default = item.trim().parse().ok().ok_or_else(bad)?,
        }
    }
    Ok(specific.unwrap_or(default))
}

/// Every CRD the run reads, with who needs it: each controller's own, the Kruise kinds its
/// rules name (a WorkloadSpread follows CloneSets, a cron job creates BroadcastJobs), and
/// the kinds the webhooks cache. A watch of a kind whose CRD is missing retries forever:
/// without this check such a controller would stall with no word.
fn needed_crds(controllers: &[&'static Described], webhooks: bool) -> Vec<(String, String)> {
    use crate::runtime::rbac;
    let mut needed: Vec<(String, String)> = Vec::new();
    let mut add = |crd: String, who: &str| {
        if !needed.iter().any(|(c, _)| *c == crd) {
            needed.push((crd, who.to_string()));
        }
    };
    for c in controllers {
        add(c.crd.to_string(), c.name);
        for crd in rbac::kruise_crds(c.rules()) {
            add(crd, c.name);
        }
    }
    if webhooks {
        for crd in rbac::kruise_crds(crate::admission::RULES) {
            add(crd, "the webhooks");
        }
    }
    needed
}

/// Refuses while OpenKruise's kruise-manager runs (its Deployment wants pods, or its
/// webhook Service has ready endpoints), as `install` does: the two would fight over every
/// object. A run as a service account (the in-cluster manager, which `install --manager`
/// put there after the same check) does not look: its rules do not reach OpenKruise's
/// namespace. A look that fails is said and the run goes on.
async fn refuse_beside_kruise_manager(client: &kube::Client) -> anyhow::Result<()> {
    if crate::runtime::access::service_account(client).await.is_some() {
        return Ok(());
    }
    match super::takeover::find(client).await {
        Ok(found) => match found.run_refusal() {
            Some(refusal) => Err(UsageError(refusal).into()),
            None => Ok(()),
        },
        Err(error) => {
            eprintln!(
                "warning: could not check whether OpenKruise's kruise-manager runs ({error}); going on"
            );
            Ok(())
        }
    }
}

/// Refuses when a CRD the run needs is missing or not established.
async fn require_crds(client: &kube::Client, needed: &[(String, String)]) -> anyhow::Result<()> {
    let api: Api<CustomResourceDefinition> = Api::all(client.clone());
    for (crd, who) in needed {
        let found = api
            .get_opt(crd)
            .await
            .with_context(|| format!("checking that CRD {crd} is installed"))?;
        let established = found
            .as_ref()
            .and_then(|c| c.status.as_ref())
            .and_then(|s| s.conditions.as_ref())
            .is_some_and(|cs| cs.iter().any(|c| c.type_ == "Established" && c.status == "True"));
        if !established {
            anyhow::bail!(
                "CRD {crd} (needed by {who}) is {} on this cluster; install the CRDs first: kubectl kruise install",
                if found.is_some() {
                    "not established yet"
                } else {
                    "not installed"
                }
            );
        }
    }
    Ok(())
}

pub async fn run(args: RunArgs, connection: &ConnectionArgs) -> anyhow::Result<()> {
    let controllers = chosen_controllers(&args)?;
    let gates = args.feature_gates.clone().unwrap_or_default();
    for warning in gates.unsupported() {
        eprintln!("warning: {warning}");
    }
    let features = gates.features();
    let workers: Vec<u16> = controllers
        .iter()
        .map(|c| workers_for(&args, c.name))
        .collect::<Result<_, _>>()?;
    // -n scopes the controllers to one namespace; without it they watch all namespaces.
    let namespace = connection.namespace.clone();
    let config = connection.config().await?;
    let server = config.cluster_url.to_string();
    // One identity per process: the lease holder's name and the User-Agent of every request.
    let identity = leader::identity();
    let (client, counters) = client::build(config, args.qps, args.burst, client::user_agent(&identity))?;
    refuse_beside_kruise_manager(&client).await?;
    let lease_namespace = args
        .leader_elect_namespace
        .clone()
        .or_else(|| namespace.clone())
        .unwrap_or_else(|| "default".into());
    check_access(
        &client,
        &controllers,
        &args,
        namespace.as_deref(),
        &lease_namespace,
    )
    .await;
    require_crds(&client, &needed_crds(&controllers, args.webhooks)).await?;

    let metrics = Arc::new(metrics::Metrics::new(counters));
    let health = Arc::new(Health::default());
    // Where cluster-scoped kinds keep namespaced children (SidecarSet revisions).
    let system_namespace = system_namespace(namespace.as_deref(), args.leader_elect_namespace.as_deref());
    if namespace.is_none() {
        ensure_namespace(&client, &system_namespace).await;
    }
    let configuration = crate::runtime::configuration::read(&client, &system_namespace).await;
    // The pod hooks (each kind's, with its caches), watched for as long as the webhooks serve.
    let pods = args.webhooks.then(|| {
        crate::admission::shared::PodHooks::watched(
            &client,
            namespace.as_deref(),
            &system_namespace,
            &configuration,
            &health,
        )
    });
    if !args.webhooks {
        health.serving.store(true, std::sync::atomic::Ordering::Relaxed);
    }
    let shared = Shared {
        metrics: metrics.clone(),
        health: health.clone(),
        pods,
        features,
        configuration: configuration.clone(),
        system_namespace: system_namespace.clone(),
        scope: namespace.clone(),
    };
    if let Some(addr) = args.metrics_addr {
        let listener = tokio::net::TcpListener::bind(addr)
            .await
            .with_context(|| format!("binding --metrics-addr {addr}"))?;
        let bound = listener.local_addr()?;
        tracing::info!(%bound, "serving metrics");
        eprintln!("metrics on http://{bound}/metrics");
        tokio::spawn(server::serve_plain(listener, server::probes(shared.clone())));
    }
    let hooks_listed = shared.pods.as_ref().map(|p| p.listed());
    let admission = match args.webhooks {
        true => Some(start_admission(&client, namespace.as_deref(), &lease_namespace, &args, shared).await?),
        false => None,
    };
    // The pod hooks answer from their caches: the API server is pointed at this run (or
    // this standby becomes an endpoint) once they have their first lists, bounded.
    if admission.is_some() {
        tokio::select! {
            listed = health.serving_within(WEBHOOK_CACHES_WAIT) => if !listed {
                eprintln!(
                    "warning: the webhooks' caches (SidecarSets, Namespaces, WorkloadSpreads) have no first list after {}s; \
        going on (a pod admitted before they do gets no sidecars and no subset, with a warning)",
                    WEBHOOK_CACHES_WAIT.as_secs()
                );
            },
            _ = stop_signal() => {
                eprintln!("stopped before the webhooks were registered");
                return Ok(());
            }
        }
    }

    let elector = args.leader_elect.then(|| {
        leader::Elector::new(
            client.clone(),
            leader::Settings::new(
                &lease_namespace,
                &args.leader_elect_name,
                identity.clone(),
                args.leader_elect_lease_duration,
            ),
        )
    });
    if let Some(elector) = &elector {
        let s = elector.settings();
        let others = leader::overlapping(&client, s, namespace.as_deref()).await;
        if !others.is_empty() {
            let what = match namespace.as_deref() {
                Some(ns) => format!("an all-namespaces run also reconciles namespace {ns}"),
                None => "namespace-scoped runs reconcile namespaces this run would".to_string(),
            };
            anyhow::bail!(
                "{what}: lease {}; two controllers of one object fight over it. Stop the other run, or give both \
the same lease with --leader-elect-namespace so one waits for the other",
                others.join(", lease ")
            );
        }
        let lease = format!("{}/{}", s.namespace, s.name);
        let acquire = elector.acquire(|holder| {
            eprintln!("standby: the lease {lease} is held by {holder}; waiting to take over (Ctrl-C stops)");
        });
        tokio::select! {
            acquired = acquire => acquired.with_context(|| format!("taking the lease {lease}"))?,
            _ = stop_signal() => {
                eprintln!("stopped while standby; nothing was written");
                return Ok(());
            }
        }
        eprintln!("leading: holding the lease {lease} as {}", s.identity);
    }
    health.leading.store(true, std::sync::atomic::Ordering::Relaxed);
    if let Some(admission) = &admission {
        match admission.register().await {
            Ok(()) => eprintln!(
                "webhooks registered: configurations {} -> {}",
                admission.name(),
                admission.endpoint.describe()
            ),
            // The controllers do not depend on the webhooks: go on without them.
            Err(error) => {
                eprintln!("warning: registering the webhooks failed ({error}); going on without them")
            }
        }
    }
    let lost = async {
        match &elector {
            Some(elector) => elector.keep().await,
            None => futures::future::pending().await,
        }
    };
    let mut lost = std::pin::pin!(lost);

    let (shutdown_tx, shutdown_rx) = futures::channel::oneshot::channel::<()>();
    let shutdown = shutdown_rx.map(|_| ()).shared();
    let (stores, drives) = watches::new(&client, namespace.as_deref());
    let synced = (stores.clone(), health.clone());
    tokio::spawn(async move {
        synced.0.ready().await;
        // The pod hooks answer from their caches (a WorkloadSpread places pods from its):
        // ready once they are listed.
        if let Some(listed) = hooks_listed {
            listed.await;
        }
        synced.1.synced.store(true, std::sync::atomic::Ordering::Relaxed);
    });
    // Every subscription is taken before the watches run, and each one is consumed.
    let serve = |workers: u16| Serve {
        client: client.clone(),
        watches: stores.clone(),
        subscriptions: stores.subscribe(),
        namespace: namespace.clone(),
        system_namespace: system_namespace.clone(),
        features,
        configuration: configuration.clone(),
        workers,
        metrics: metrics.clone(),
        before_take_down: Some(crate::workloads::registry::BEFORE_TAKE_DOWN),
        shutdown: Box::pin(shutdown.clone()) as Shutdown,
    };
    // Each controller is a task of its own: one busy controller never holds another's
    // reconciles, and one that ends (a panic) is noticed at once (see `watchdog`).
    let mut running: Vec<futures::future::BoxFuture<'static, Result<(), String>>> = Vec::new();
    for (controller, workers) in controllers.iter().zip(workers) {
        if let Some(start) = controller.start {
            let (name, task) = (controller.name, tokio::spawn(start(serve(workers))));
            running.push(Box::pin(async move {
                task.await.map_err(|e| format!("controller {name} ended: {e}"))
            }));
        }
    }
    for drive in drives {
        tokio::spawn(drive);
    }
    let scope = namespace.as_deref().unwrap_or("all namespaces");
    eprintln!(
        "running controllers {} against {server} ({scope}); Ctrl-C stops",
        controllers.iter().map(|c| c.name).collect::<Vec<_>>().join(", ")
    );
    let summarized: Vec<KruiseKind> = controllers
        .iter()
        .filter_map(|c| KruiseKind::named(c.name))
        .filter(|k| registry::facts(*k).steps())
        .collect();
    let summary_client = client.clone();
    let summary_scope = namespace.clone();
    let summary = async move {
        if !std::io::stderr().is_terminal() {
            return futures::future::pending().await;
        }
        live_summary(&summary_client, summary_scope.as_deref(), &summarized).await
    };
    *health.stall_after.lock().unwrap_or_else(|e| e.into_inner()) = args.stall_after;
    if running.is_empty() {
        running.push(Box::pin(futures::future::pending()));
    }
    // Unpin (boxed futures): polled by reference below, then taken apart for the shutdown.
    let mut controller = futures::future::select_all(running);
    let mut summary = std::pin::pin!(summary);
    let mut lost_lease = None;
    let mut stalled = None;
    tokio::select! {
        (ended, _, _) = &mut controller => {
            // A controller stops only on shutdown: ending before it is a failure.
            let _ = shutdown_tx.send(());
            return Err(crate::cli::status::ExitWith {
                code: 3,
                message: ended.err().unwrap_or_else(|| "a controller ended".into()),
            }
            .into());
        }
        _ = &mut summary => {}
        _ = stop_signal() => {}
        why = &mut lost => lost_lease = Some(why),
        why = watchdog(health.clone(), metrics.clone()) => stalled = Some(why),
    }
    if let Some(why) = lost_lease {
        // Stop writing at once: another run may hold the lease already.
        let _ = shutdown_tx.send(());
        anyhow::bail!("{why}");
    }
    if let Some(why) = stalled {
        let _ = shutdown_tx.send(());
        return Err(crate::cli::status::ExitWith {
            code: 3,
            message: why,
        }
        .into());
    }
    eprintln!("stopping: finishing in-flight writes (Ctrl-C again to exit at once)");
    let _ = shutdown_tx.send(());
    let all = futures::future::join_all(controller.into_inner());
    tokio::select! {
        _ = all => {}
        _ = stop_signal() => {
            eprintln!("interrupted");
            std::process::exit(130);
        }
    }
    if let Some(admission) = &admission
        && let Err(error) = admission.remove().await
    {
        eprintln!("warning: removing the webhook configurations failed: {error}");
    }
    if let Some(elector) = &elector {
        elector.release().await;
    }
    eprintln!("stopped; {} API writes in this run", metrics.api.writes());
    Ok(())
}

/// When the run is a service account: says which of the permissions its controllers,
/// webhooks and lease need it lacks (it goes on; what needs them stalls and says so).
/// OpenKruise's namespace, where it keeps a SidecarSet's revisions.
pub const KRUISE_NAMESPACE: &str = "kruise-system";

/// Where a run keeps the namespaced children of cluster-scoped kinds: the namespace it is
/// scoped to (`-n`), else the one it runs in (`--leader-elect-namespace`, as the in-cluster
/// manager is started), else OpenKruise's `kruise-system`, so tools that read a SidecarSet's
/// revisions where kruise-manager keeps them find them, and a hand-back keeps them.
fn system_namespace(scope: Option<&str>, lease: Option<&str>) -> String {
    scope.or(lease).unwrap_or(KRUISE_NAMESPACE).to_string()
}

/// Creates the namespace when it does not exist; a failure is a warning (the writes into
/// it then fail visibly, per object).
async fn ensure_namespace(client: &kube::Client, name: &str) {
    use k8s_openapi::api::core::v1::Namespace;
    let api: kube::Api<Namespace> = kube::Api::all(client.clone());
    if matches!(api.get_opt(name).await, Ok(Some(_))) {
        return;
    }
    let namespace: Namespace =
        match serde_json::from_value(serde_json::json!({ "metadata": { "name": name } })) {
            Ok(n) => n,
            Err(_) => return,
        };
    match api.create(&kube::api::PostParams::default(), &namespace).await {
        Ok(_) => eprintln!("created namespace {name} (SidecarSet revisions live there, as with OpenKruise)"),
        Err(kube::Error::Api(s)) if s.code == 409 => {}
        Err(e) => eprintln!("warning: namespace {name} (for SidecarSet revisions) cannot be made: {e}"),
    }
}

async fn check_access(
    client: &kube::Client,
    controllers: &[&'static Described],
    args: &RunArgs,
    scope: Option<&str>,
    lease_namespace: &str,
) {
    use crate::runtime::{access, rbac};
    let Some(account) = access::service_account(client).await else {
        return;
    };
    let cluster = super::manager::run_rules(controllers, args.webhooks);
    let local = super::manager::lease_namespace_rules(args.leader_elect, args.webhooks);
    let mut wanted = access::needed(rbac::permissions(cluster), scope);
    wanted.extend(access::needed(rbac::permissions(local), Some(lease_namespace)));
    let total = wanted.len();
    let lacking = access::lacking(client, wanted).await;
    if lacking.is_empty() {
        eprintln!("service account {account}: all {total} permissions this run needs are granted");
    } else {
        eprintln!(
            "warning: service account {account} lacks {} of the {total} permissions this run needs \
(the rules: kubectl kruise install --manager --dry-run=client -o yaml):\n  {}",
            lacking.len(),
            lacking.join("\n  ")
        );
    }
}

/// Starts the HTTPS server with its certificates and keeps them renewed (registration
/// waits until this run leads).
async fn start_admission(
    client: &kube::Client,
    scope: Option<&str>,
    lease_namespace: &str,
    args: &RunArgs,
    shared: Shared,
) -> anyhow::Result<Arc<Admission>> {
    let options = crate::admission::Options {
        addr: args.webhook_addr,
        host: args.webhook_host.clone(),
        service: args.webhook_service.clone(),
        scope: scope.map(String::from),
    };
    let admission = Admission::start(client.clone(), lease_namespace, &options, shared)
        .await
        .context("starting the webhook server (--webhooks=false runs without it)")?;
    eprintln!(
        "webhooks served for {} (CA in Secret {lease_namespace}/{})",
        admission.endpoint.describe(),
        crate::admission::certs::SECRET
    );
    tokio::spawn(admission.clone().keep_renewed());
    Ok(admission)
}

/// How long `run` waits for the webhooks' caches before it competes for the lease and
/// registers the webhooks (then goes on, saying so).
const WEBHOOK_CACHES_WAIT: std::time::Duration = std::time::Duration::from_secs(60);

/// Resolves with what to say once a controller is stalled (see
/// [`crate::runtime::workqueue::WorkQueue::stall`]); never while none is.
async fn watchdog(health: Arc<Health>, metrics: Arc<crate::runtime::metrics::Metrics>) -> String {
    loop {
        tokio::time::sleep(std::time::Duration::from_secs(5)).await;
        let stalls = health.stalls(&metrics);
        if !stalls.is_empty() {
            let said: Vec<String> = stalls.iter().map(ToString::to_string).collect();
            return format!(
                "{}; stopping (a restart recovers: the in-cluster manager's liveness probe does it)",
                said.join("; ")
            );
        }
    }
}

/// Ctrl-C or SIGTERM.
async fn stop_signal() {
    #[cfg(unix)]
    {
        let mut term = match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(s) => s,
            Err(_) => return futures::future::pending().await,
        };
        tokio::select! {
            _ = tokio::signal::ctrl_c() => {}
            _ = term.recv() => {}
        }
    }
    #[cfg(not(unix))]
    {
        let _ = tokio::signal::ctrl_c().await;
    }
}

/// One line per workload of `kinds` (those rolled out batch by batch: CloneSet, Advanced
/// StatefulSet, Advanced DaemonSet) whenever its progress changes (stderr is a terminal),
/// from watches of its own, with the numbers its kind's facts read.
async fn live_summary(client: &kube::Client, namespace: Option<&str>, kinds: &[KruiseKind]) {
    use futures::StreamExt;
    use kube::api::DynamicObject;
    use kube::runtime::{WatchStreamExt, reflector, watcher};
    let mut stores = Vec::new();
    for kind in kinds {
        let resource = kind.resource();
        let api: Api<DynamicObject> = match namespace {
            Some(ns) if kind.namespaced() => Api::namespaced_with(client.clone(), ns, &resource),
            _ => Api::all_with(client.clone(), &resource),
        };
        let writer = reflector::store::Writer::new(resource);
        stores.push((*kind, writer.as_reader()));
        let drive = reflector(writer, watcher(api, watcher::Config::default()))
            .default_backoff()
            .applied_objects()
            .for_each(|_| futures::future::ready(()));
        tokio::spawn(drive);
    }
    let mut last: std::collections::BTreeMap<String, String> = Default::default();
    loop {
        tokio::time::sleep(Duration::from_secs(2)).await;
        for (kind, store) in &stores {
            let facts = registry::facts(*kind);
            for object in store.state() {
                let key = format!(
                    "{} {}/{}",
                    kind.name(),
                    object.metadata.namespace.as_deref().unwrap_or_default(),
                    object.metadata.name.as_deref().unwrap_or_default()
                );
                let n = facts.numbers(&serde_json::to_value(object.as_ref()).unwrap_or_default());
                // The updated pods' readiness where the kind reports it.
                let updated_ready = n.updated_ready.map_or_else(String::new, |ready| {
                    let available = n.updated_available.unwrap_or(0);
                    format!(" ({ready} ready, {available} available)")
                });
                let line = format!(
                    "{key}: {} desired, {} updated{updated_ready}, {} ready of {} total",
                    n.replicas, n.updated, n.ready, n.current
                );
                if last.get(&key) != Some(&line) {
                    eprintln!("{line}");
                    last.insert(key, line);
                }
            }
        }
    }
}

#[cfg(test)]
mod workers_tests {
    use clap::Parser;

    use super::*;

    #[derive(Parser)]
    struct Wrapped {
        #[command(flatten)]
        run: RunArgs,
    }

    fn workers(args: &[&str], controller: &str) -> Result<u16, UsageError> {
        let parsed = Wrapped::try_parse_from(std::iter::once("run").chain(args.iter().copied()))
            .expect("arguments parse");
        workers_for(&parsed.run, controller)
    }

    #[test]
    fn the_cap_is_eight_unless_set_for_all_or_one_controller() {
        assert_eq!(workers(&[], "CloneSet").expect("test input"), DEFAULT_WORKERS);
        assert_eq!(workers(&["--workers", "0"], "CloneSet").expect("test input"), 0);
        assert_eq!(
            workers(&["--workers", "CloneSet=2"], "CloneSet").expect("test input"),
            2
        );
        assert_eq!(
            workers(&["--workers", "CloneSet=2"], "StatefulSet").expect("test input"),
            DEFAULT_WORKERS,
            "a cap for one controller leaves the others at the default"
        );
        assert_eq!(
            workers(&["--workers", "3,StatefulSet=1"], "StatefulSet").expect("test input"),
            1
        );
        assert!(workers(&["--workers", "many"], "CloneSet").is_err());
    }
}

#[cfg(test)]
mod system_namespace_tests {
    use super::*;

    #[test]
    fn sidecarset_revisions_go_to_the_scope_else_the_runs_own_namespace_else_kruise_system() {
        assert_eq!(system_namespace(Some("web"), Some("ops")), "web");
        assert_eq!(system_namespace(None, Some("ops")), "ops");
        assert_eq!(system_namespace(None, None), "kruise-system");
    }
}
