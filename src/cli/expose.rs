//! `kubectl kruise expose KIND/NAME` (or `KIND NAME`): a Service for the pods of a
//! CloneSet, Advanced StatefulSet, Advanced DaemonSet or UnitedDeployment (and the built-in
//! kinds), as `kubectl expose` makes one for a Deployment: its selector is the workload's
//! `spec.selector.matchLabels`, its ports the template's container ports (or `--port`),
//! its labels the workload's.
//!
//! Invariants (kubectl's): a selector with `matchExpressions` cannot be a Service's and is
//! an error naming the field, unless `--selector` is given; with no port given and none in
//! the template, an error says to give `--port`; with several ports they are named
//! `port-1`, `port-2`, ... (a container port's own name when it has one); each port's
//! target is the container port (or `--target-port`). A job kind or a SidecarSet has no
//! pods of its own to expose and is refused.
use std::collections::BTreeMap;

use clap::{Args, ValueEnum};
use k8s_openapi::api::core::v1::Service;
use kube::api::Api;
use serde_json::{Value, json};

use super::UsageError;
use super::connection::ConnectionArgs;
use super::install::{DryRun, Output};
use super::target;

pub const HELP: &str = "\
Kinds: cloneset (clone), asts, ads, uniteddeployment (ud), deployment (deploy), statefulset
(sts), daemonset (ds). The Service selects the workload's pods by its spec.selector's
matchLabels and serves the template's container ports, as kubectl expose does.

Examples:
  kubectl kruise expose cloneset/web
  kubectl kruise expose asts/db --port=5432 --name=db-primary
  kubectl kruise expose cloneset web --type=NodePort --port=80 --target-port=8080
  kubectl kruise expose ud/shop --dry-run=client -o yaml";

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ServiceType {
    #[value(name = "ClusterIP")]
    ClusterIp,
    #[value(name = "NodePort")]
    NodePort,
    #[value(name = "LoadBalancer")]
    LoadBalancer,
}

#[derive(Debug, Args)]
pub struct ExposeArgs {
    /// TYPE/NAME or TYPE NAME
    #[arg(required = true, num_args = 1..=2, value_name = "TYPE/NAME")]
    pub target: Vec<String>,
    /// The Service's name (default: the workload's)
    #[arg(long)]
    pub name: Option<String>,
    /// The port the Service serves (default: the template's container ports)
    #[arg(long)]
    pub port: Option<u16>,
    /// The container port (number or name) the Service sends to (default: the port)
    #[arg(long)]
    pub target_port: Option<String>,
    /// TCP, UDP or SCTP (default: the container port's, else TCP)
    #[arg(long)]
    pub protocol: Option<String>,
    /// The Service's type
    #[arg(long = "type", value_enum, default_value = "ClusterIP")]
    pub service_type: ServiceType,
    /// A selector of labels (k=v,k2=v2) instead of the workload's
    #[arg(long)]
    pub selector: Option<String>,
    /// Labels of the Service (k=v,k2=v2) instead of the workload's
    #[arg(short = 'l', long)]
    pub labels: Option<String>,
    /// `client` prints the Service without sending it; `server` sends it with dry-run
    #[arg(long, value_enum, default_value = "none", num_args = 0..=1, default_missing_value = "client")]
    pub dry_run: DryRun,
    /// Print the created Service in this format instead of one line
    #[arg(short = 'o', long, value_enum)]
    pub output: Option<Output>,
}

/// The Service's selector: `--selector`, else the workload's matchLabels.
fn selector(object: &Value, given: Option<&str>, id: &str) -> Result<BTreeMap<String, String>, String> {
    if let Some(given) = given {
        return crate::cli::key_values("selector", given, "KEY=VALUE", true).map_err(|e| e.0);
    }
    let selector = &object["spec"]["selector"];
    if selector["matchExpressions"]
        .as_array()
        .is_some_and(|e| !e.is_empty())
    {
        return Err(format!(
            "{id}: spec.selector has matchExpressions, which a Service cannot select by; give --selector"
        ));
    }
    let labels: BTreeMap<String, String> = selector["matchLabels"]
        .as_object()
        .into_iter()
        .flatten()
        .filter_map(|(k, v)| Some((k.clone(), v.as_str()?.to_string())))
        .collect();
    match labels.is_empty() {
        true => Err(format!("{id}: spec.selector has no matchLabels; give --selector")),
        false => Ok(labels),
    }
}

/// The Service's ports: `--port`, else every container port of the pod spec.
fn ports(pod_spec: &Value, args: &ExposeArgs, id: &str) -> Result<Vec<Value>, String> {
    let target = |port: &Value| match &args.target_port {
        Some(t) => t.parse::<u16>().map_or_else(|_| json!(t), |n| json!(n)),
        None => port.clone(),
    };
    if let Some(port) = args.port {
        let protocol = args.protocol.clone().unwrap_or_else(|| "TCP".into());
        return Ok(vec![
            json!({ "port": port, "protocol": protocol, "targetPort": target(&json!(port)) }),
        ]);
    }
    let found: Vec<&Value> = pod_spec["containers"]
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|c| c["ports"].as_array().into_iter().flatten())
        .filter(|p| p["containerPort"].is_u64())
        .collect();
    if found.is_empty() {
        return Err(format!("{id}: its template has no container ports; give --port"));
    }
    let several = found.len() > 1;
    Ok(found
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let number = &p["containerPort"];
            let protocol = args
                .protocol
                .clone()
                .or_else(|| p["protocol"].as_str().map(str::to_string))
                .unwrap_or_else(|| "TCP".into());
            let mut port = json!({ "port": number, "protocol": protocol, "targetPort": target(number) });
            if several {
                port["name"] = p["name"]
                    .as_str()
                    .map_or_else(|| json!(format!("port-{}", i + 1)), |n| json!(n));
            }
            port
        })
        .collect())
}

pub async fn run(args: ExposeArgs, connection: &ConnectionArgs) -> anyhow::Result<()> {
    let read = super::set::pod_spec::read(&args.target, connection, "expose").await?;
    let (value, id) = (read.object(), &read.id);
    if !read.has_pod_template() {
        return Err(UsageError(format!(
            "expose: {id} has no pods of its own (its containers go into other workloads' pods)"
        ))
        .into());
    }
    let selector = selector(value, args.selector.as_deref(), id).map_err(anyhow::Error::msg)?;
    let ports = ports(read.pod_spec(), &args, id).map_err(anyhow::Error::msg)?;
    let labels = match &args.labels {
        Some(given) => crate::cli::key_values("labels", given, "KEY=VALUE", true)?,
        None => serde_json::from_value(value["metadata"]["labels"].clone()).unwrap_or_default(),
    };
    let name = args.name.clone().unwrap_or_else(|| read.target.name.clone());
    let service_type = args
        .service_type
        .to_possible_value()
        .map(|v| v.get_name().to_string())
        .unwrap_or_default();
    let service: Service = serde_json::from_value(json!({
        "apiVersion": "v1", "kind": "Service",
        "metadata": { "name": name, "namespace": read.namespace, "labels": labels },
        "spec": { "selector": selector, "ports": ports, "type": service_type },
    }))?;
    let api = Api::<Service>::namespaced(read.client.clone(), &read.namespace);
    let id = format!("service/{name}");
    target::create_and_print(&api, service, &id, "exposed", args.dry_run, args.output).await
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser)]
    struct Wrapper {
        #[command(flatten)]
        args: ExposeArgs,
    }

    fn args(words: &[&str]) -> ExposeArgs {
        let mut all = vec!["expose"];
        all.extend_from_slice(words);
        Wrapper::parse_from(all).args
    }

    #[test]
    fn ports_come_from_the_template_named_when_several_or_from_port() {
        let spec = json!({ "containers": [
            { "name": "app", "ports": [{ "containerPort": 8080, "name": "http" }, { "containerPort": 9090 }] },
            { "name": "dns", "ports": [{ "containerPort": 53, "protocol": "UDP" }] },
        ] });
        let found = ports(&spec, &args(&["clone/web"]), "web").expect("ports");
        assert_eq!(
            found,
            vec![
                json!({ "name": "http", "port": 8080, "protocol": "TCP", "targetPort": 8080 }),
                json!({ "name": "port-2", "port": 9090, "protocol": "TCP", "targetPort": 9090 }),
                json!({ "name": "port-3", "port": 53, "protocol": "UDP", "targetPort": 53 }),
            ]
        );
        let one = ports(
            &spec,
            &args(&["clone/web", "--port", "80", "--target-port", "http"]),
            "web",
        );
        assert_eq!(
            one,
            Ok(vec![
                json!({ "port": 80, "protocol": "TCP", "targetPort": "http" })
            ])
        );
        let err = ports(
            &json!({ "containers": [{ "name": "a" }] }),
            &args(&["clone/web"]),
            "clonesets/web",
        )
        .expect_err("no ports");
        assert!(err.contains("give --port"), "{err}");
    }

    #[test]
    fn the_selector_is_the_workloads_match_labels_and_expressions_are_refused() {
        let object = json!({ "spec": { "selector": { "matchLabels": { "app": "web" } } } });
        assert_eq!(
            selector(&object, None, "web"),
            Ok(BTreeMap::from([("app".into(), "web".into())]))
        );
        let expressions = json!({ "spec": { "selector": { "matchExpressions": [{ "key": "app", "operator": "Exists" }] } } });
        let err = selector(&expressions, None, "clonesets/web").expect_err("refused");
        assert!(err.contains("spec.selector has matchExpressions"), "{err}");
        assert_eq!(
            selector(&expressions, Some("app=web"), "web"),
            Ok(BTreeMap::from([("app".into(), "web".into())]))
        );
    }
}
