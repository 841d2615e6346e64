//! `kubectl kruise exec POD -S SIDECAR [-c CONTAINER] [-i] [-t] -- COMMAND ...`
//! (kruise-tools' verb): `kubectl exec` into a pod, where `-S` names a sidecar by its
//! SidecarSet name. A hot-upgrade sidecar runs as two containers (`NAME-1`, `NAME-2`), and
//! the pod's annotation `kruise.io/sidecarset-working-hotupgrade-container` says which one
//! works: `-S NAME` goes into that one. The exec itself is kubectl's (`KRUISE_KUBECTL`, else
//! `KUBECTL_PATH`, else `kubectl` on PATH), with this command's connection flags; its exit code is this one's.
//!
//! Invariants: the pod is read once to choose the container; an unknown sidecar is an error
//! naming the sidecars and containers the pod has; the chosen container is said on stderr.
use std::collections::BTreeMap;

use clap::Args;
use k8s_openapi::api::core::v1::Pod;
use kube::api::Api;

use crate::cli::UsageError;
use crate::cli::connection::ConnectionArgs;
use crate::workloads::sidecarset::hot::WORKING_ANNOTATION;

pub const HELP: &str = "\
-S names a sidecar as its SidecarSet does: for a hot-upgrade sidecar (two containers,
NAME-1 and NAME-2) the one working now, from the pod's annotation
kruise.io/sidecarset-working-hotupgrade-container. The rest is kubectl exec's.

Examples:
  kubectl kruise exec web-x7k2p -S log-agent -it -- sh
  kubectl kruise exec web-x7k2p -S mesh -- cat /etc/envoy/envoy.yaml
  kubectl kruise exec web-x7k2p -c app -- ls /";

#[derive(Debug, Args)]
pub struct ExecArgs {
    /// The pod
    pub pod: String,
    /// The sidecar, by its SidecarSet name (a hot-upgrade pair: its working half)
    #[arg(
        short = 'S',
        long = "sidecar",
        value_name = "NAME",
        conflicts_with = "container"
    )]
    pub sidecar: Option<String>,
    /// The container, by its own name
    #[arg(short = 'c', long)]
    pub container: Option<String>,
    /// Pass stdin to the container
    #[arg(short = 'i', long)]
    pub stdin: bool,
    /// Stdin is a TTY
    #[arg(short = 't', long)]
    pub tty: bool,
    /// The command and its arguments (after --)
    #[arg(last = true, required = true, value_name = "COMMAND")]
    pub command: Vec<String>,
}

/// The container `-S sidecar` means in a pod with these containers and annotations: the
/// working half of a hot-upgrade pair, else the container of that name; an error names
/// what there is.
fn sidecar_container(
    sidecar: &str,
    containers: &[String],
    annotations: &BTreeMap<String, String>,
) -> Result<String, String> {
    let working: BTreeMap<String, String> = annotations
        .get(WORKING_ANNOTATION)
        .and_then(|a| serde_json::from_str(a).ok())
        .unwrap_or_default();
    if let Some(half) = working.get(sidecar).filter(|h| containers.contains(h)) {
        return Ok(half.clone());
    }
    if containers.iter().any(|c| c == sidecar) {
        return Ok(sidecar.to_string());
    }
    let mut known: Vec<String> = working.keys().cloned().collect();
    known.extend(containers.iter().cloned());
    Err(format!(
        "no sidecar {sidecar:?} (hot-upgrade sidecars and containers: {})",
        known.join(", ")
    ))
}

pub async fn run(args: ExecArgs, connection: &ConnectionArgs) -> anyhow::Result<()> {
    let (client, namespace) = crate::cli::target::connect(connection).await?;
    let container = match &args.sidecar {
        None => args.container.clone(),
        Some(sidecar) => {
            let pod = Api::<Pod>::namespaced(client, &namespace).get(&args.pod).await?;
            let containers: Vec<String> = pod
                .spec
                .iter()
                .flat_map(|s| s.containers.iter())
                .map(|c| c.name.clone())
                .collect();
            let annotations = pod.metadata.annotations.unwrap_or_default();
            let chosen = sidecar_container(sidecar, &containers, &annotations)
                .map_err(|e| UsageError(format!("pod {namespace}/{}: {e}", args.pod)))?;
            if &chosen != sidecar {
                eprintln!("exec into {chosen} (the working half of sidecar {sidecar})");
            }
            Some(chosen)
        }
    };
    let kubectl = std::env::var_os("KRUISE_KUBECTL")
        .or_else(|| std::env::var_os("KUBECTL_PATH"))
        .unwrap_or_else(|| "kubectl".into());
    let mut command = std::process::Command::new(&kubectl);
    command
        .arg("exec")
        .arg(&args.pod)
        .args(connection.kubectl_flags());
    if connection.namespace.is_none() {
        command.arg(format!("--namespace={namespace}"));
    }
    if let Some(container) = &container {
        command.arg(format!("--container={container}"));
    }
    if args.stdin {
        command.arg("--stdin");
    }
    if args.tty {
        command.arg("--tty");
    }
    command.arg("--").args(&args.command);
    let status = command
        .status()
        .map_err(|e| anyhow::anyhow!("running {}: {e}", kubectl.to_string_lossy()))?;
    match status.code() {
        Some(0) => Ok(()),
        code => std::process::exit(code.unwrap_or(1)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_hot_upgrade_sidecar_is_its_working_half_and_an_unknown_one_is_named() {
        let containers: Vec<String> = ["app", "mesh-1", "mesh-2", "log"].map(String::from).into();
        let annotations =
            BTreeMap::from([(WORKING_ANNOTATION.to_string(), r#"{"mesh":"mesh-2"}"#.to_string())]);
        assert_eq!(
            sidecar_container("mesh", &containers, &annotations),
            Ok("mesh-2".into())
        );
        assert_eq!(
            sidecar_container("log", &containers, &annotations),
            Ok("log".into())
        );
        let err = sidecar_container("db", &containers, &annotations).expect_err("unknown");
        assert!(err.contains("mesh, app, mesh-1, mesh-2, log"), "{err}");
    }
}
