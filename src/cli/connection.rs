//! kubectl's connection flags and kubeconfig resolution (docs/cli.md, connection flags).
//!
//! Resolution order, as kubectl: `--kubeconfig`, then `KUBECONFIG` (a path list merged in
//! order, first value wins), then `~/.kube/config`; in-cluster credentials only when none
//! of these exists. Flags then override parts of the chosen context. Namespace: `-n`, then
//! the context's namespace, then `default`. Exec credential plugins come from kube-rs.
use std::path::PathBuf;
use std::time::Duration;

use clap::Args;
use kube::config::{KubeConfigOptions, Kubeconfig};

#[derive(Debug, thiserror::Error)]
pub enum ConnectionError {
    #[error("cannot read kubeconfig {path}: {source}")]
    ReadKubeconfig {
        path: PathBuf,
        source: kube::config::KubeconfigError,
    },
    #[error("kubeconfig: {0}")]
    Kubeconfig(#[source] kube::config::KubeconfigError),
    #[error(
        "no kubeconfig found (looked at --kubeconfig, $KUBECONFIG, ~/.kube/config) and not running in a \
         cluster; hint: pass --kubeconfig or --server, or start a local one: eval \"$(tests/testenv/up)\""
    )]
    NoConfig,
    #[error("--server {0}: not a valid URL")]
    BadServer(String),
    #[error("--certificate-authority {path}: {message}")]
    BadCertificateAuthority { path: PathBuf, message: String },
    #[error("--request-timeout {0}: expected a duration such as 30s, 1m or 0")]
    BadTimeout(String),
    #[error("cannot build the API client: {0}")]
    Client(#[source] kube::Error),
}

/// Global connection flags, valid on every subcommand; `--help` lists them under their own
/// heading, after the command's own options.
#[derive(Debug, Clone, Default, Args)]
#[command(next_help_heading = "Connection options (as kubectl's)")]
pub struct ConnectionArgs {
    /// Path to the kubeconfig file to use
    #[arg(long, global = true, value_name = "PATH")]
    pub kubeconfig: Option<PathBuf>,
    /// The name of the kubeconfig context to use
    #[arg(long, global = true, value_name = "NAME")]
    pub context: Option<String>,
    /// The name of the kubeconfig cluster to use
    #[arg(long, global = true, value_name = "NAME")]
    pub cluster: Option<String>,
    /// The name of the kubeconfig user to use
    #[arg(long, global = true, value_name = "NAME")]
    pub user: Option<String>,
    /// Namespace for namespaced objects (default: the context's, then `default`)
    #[arg(short = 'n', long, global = true, value_name = "NS")]
    pub namespace: Option<String>,
    /// The address and port of the Kubernetes API server
    #[arg(short = 's', long, global = true, value_name = "URL")]
    pub server: Option<String>,
    /// Bearer token for authentication to the API server
    #[arg(long, global = true, value_name = "TOKEN")]
    pub token: Option<String>,
    /// User to impersonate for the operation
    #[arg(long = "as", global = true, value_name = "USER")]
    pub as_user: Option<String>,
    /// Group to impersonate (repeatable)
    #[arg(long = "as-group", global = true, value_name = "GROUP")]
    pub as_group: Vec<String>,
    /// Path to a certificate file for the certificate authority
    #[arg(long, global = true, value_name = "PATH")]
    pub certificate_authority: Option<PathBuf>,
    /// Path to a client certificate file for TLS
    #[arg(long, global = true, value_name = "PATH")]
    pub client_certificate: Option<PathBuf>,
    /// Path to a client key file for TLS
    #[arg(long, global = true, value_name = "PATH")]
    pub client_key: Option<PathBuf>,
    /// Do not verify the server's certificate (insecure)
    #[arg(long, global = true)]
    pub insecure_skip_tls_verify: bool,
    /// Server name to use for server certificate validation
    #[arg(long, global = true, value_name = "NAME")]
    pub tls_server_name: Option<String>,
    /// Limit for one API request, e.g. 30s (0 = no limit)
    #[arg(long, global = true, value_name = "DUR", default_value = "0")]
    pub request_timeout: String,
    /// Log verbosity 0-9 (logs go to stderr)
    #[arg(short = 'v', long = "v", global = true, value_name = "N", default_value_t = 0)]
    pub verbosity: u8,
}

impl ConnectionArgs {
    /// These flags as `kubectl` takes them, for a verb that hands over to kubectl (`exec`).
    pub fn kubectl_flags(&self) -> Vec<String> {
        let mut flags = Vec::new();
        let mut flag = |name: &str, value: Option<String>| {
            if let Some(value) = value {
                flags.push(format!("--{name}={value}"));
            }
        };
        let path = |p: &Option<PathBuf>| p.as_ref().map(|p| p.display().to_string());
        flag("kubeconfig", path(&self.kubeconfig));
        flag("context", self.context.clone());
        flag("cluster", self.cluster.clone());
        flag("user", self.user.clone());
        flag("namespace", self.namespace.clone());
        flag("server", self.server.clone());
        flag("token", self.token.clone());
        flag("as", self.as_user.clone());
        for group in &self.as_group {
            flag("as-group", Some(group.clone()));
        }
        flag("certificate-authority", path(&self.certificate_authority));
        flag("client-certificate", path(&self.client_certificate));
        flag("client-key", path(&self.client_key));
        flag("tls-server-name", self.tls_server_name.clone());
        if self.insecure_skip_tls_verify {
            flag("insecure-skip-tls-verify", Some("true".into()));
        }
        if self.request_timeout != "0" {
            flag("request-timeout", Some(self.request_timeout.clone()));
        }
        flags
    }

    /// The client configuration these flags select.
    pub async fn config(&self) -> Result<kube::Config, ConnectionError> {
        let options = KubeConfigOptions {
            context: self.context.clone(),
            cluster: self.cluster.clone(),
            user: self.user.clone(),
        };
        let mut config = match self.kubeconfig_source()? {
            Some(kubeconfig) => kube::Config::from_custom_kubeconfig(kubeconfig, &options)
                .await
                .map_err(ConnectionError::Kubeconfig)?,
            None => match kube::Config::incluster() {
                Ok(config) => config,
                Err(_) => match &self.server {
                    Some(server) => kube::Config::new(parse_server(server)?),
                    None => return Err(ConnectionError::NoConfig),
                },
            },
        };
        self.apply_overrides(&mut config)?;
        Ok(config)
    }

    /// A client for the selected cluster.
    pub async fn client(&self) -> Result<kube::Client, ConnectionError> {
        kube::Client::try_from(self.config().await?).map_err(ConnectionError::Client)
    }

    /// The kubeconfig to use, merged as kubectl merges it; None when there is none.
    fn kubeconfig_source(&self) -> Result<Option<Kubeconfig>, ConnectionError> {
        if let Some(path) = &self.kubeconfig {
            return Kubeconfig::read_from(path)
                .map(Some)
                .map_err(|source| ConnectionError::ReadKubeconfig {
                    path: path.clone(),
                    source,
                });
        }
        if let Some(list) = std::env::var_os("KUBECONFIG").filter(|v| !v.is_empty()) {
            let mut merged: Option<Kubeconfig> = None;
            for path in std::env::split_paths(&list).filter(|p| p.exists()) {
                let next =
                    Kubeconfig::read_from(&path).map_err(|source| ConnectionError::ReadKubeconfig {
                        path: path.clone(),
                        source,
                    })?;
                merged = Some(match merged {
                    None => next,
                    Some(first) => first.merge(next).map_err(ConnectionError::Kubeconfig)?,
                });
            }
            if merged.is_some() {
                return Ok(merged);
            }
        }
        let home = std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".kube").join("config"));
        match home.filter(|p| p.exists()) {
            Some(path) => Kubeconfig::read_from(&path)
                .map(Some)
                .map_err(|source| ConnectionError::ReadKubeconfig { path, source }),
            None => Ok(None),
        }
    }

    fn apply_overrides(&self, config: &mut kube::Config) -> Result<(), ConnectionError> {
        if let Some(server) = &self.server {
            config.cluster_url = parse_server(server)?;
        }
        if let Some(namespace) = &self.namespace {
            config.default_namespace = namespace.clone();
        }
        if let Some(token) = &self.token {
            config.auth_info.token = Some(token.clone().into());
            config.auth_info.client_certificate = None;
            config.auth_info.client_certificate_data = None;
        }
        if let Some(user) = &self.as_user {
            config.auth_info.impersonate = Some(user.clone());
        }
        if !self.as_group.is_empty() {
            config.auth_info.impersonate_groups = Some(self.as_group.clone());
        }
        if let Some(path) = &self.client_certificate {
            config.auth_info.client_certificate = Some(path.display().to_string());
            config.auth_info.client_certificate_data = None;
        }
        if let Some(path) = &self.client_key {
            config.auth_info.client_key = Some(path.display().to_string());
            config.auth_info.client_key_data = None;
        }
        if let Some(path) = &self.certificate_authority {
            config.root_cert = Some(read_certificates(path)?);
        }
        if self.insecure_skip_tls_verify {
            config.accept_invalid_certs = true;
        }
        if let Some(name) = &self.tls_server_name {
            config.tls_server_name = Some(name.clone());
        }
        if let Some(timeout) = parse_request_timeout(&self.request_timeout)? {
            config.read_timeout = Some(timeout);
            config.write_timeout = Some(timeout);
            config.connect_timeout = Some(timeout);
        }
        Ok(())
    }
}

fn parse_server(server: &str) -> Result<http::Uri, ConnectionError> {
    let with_scheme = if server.contains("://") {
        server.to_string()
    } else {
        format!("https://{server}")
    };
    with_scheme
        .parse()
        .map_err(|_| ConnectionError::BadServer(server.to_string()))
}

/// `0` (or empty) means no limit; otherwise a duration such as `30s`, `1m`, `500ms`.
pub fn parse_request_timeout(text: &str) -> Result<Option<Duration>, ConnectionError> {
    let text = text.trim();
    if text.is_empty() || text == "0" {
        return Ok(None);
    }
    crate::duration::parse(text)
        .filter(|d| !d.is_zero())
        .map(Some)
        .ok_or_else(|| ConnectionError::BadTimeout(text.to_string()))
}

/// DER certificates from a PEM file.
fn read_certificates(path: &std::path::Path) -> Result<Vec<Vec<u8>>, ConnectionError> {
    let bad = |message: String| ConnectionError::BadCertificateAuthority {
        path: path.to_path_buf(),
        message,
    };
    let text = std::fs::read_to_string(path).map_err(|e| bad(e.to_string()))?;
    let mut certs = Vec::new();
    let mut body: Option<String> = None;
    for line in text.lines().map(str::trim) {
        match line {
            "-----BEGIN CERTIFICATE-----" => body = Some(String::new()),
            "-----END CERTIFICATE-----" => {
                let b64 = body.take().unwrap_or_default();
                let der = base64::Engine::decode(&base64::engine::general_purpose::STANDARD, b64.as_bytes());
                certs.push(der.map_err(|e| bad(format!("invalid base64 in a certificate: {e}")))?);
            }
            _ => {
                if let Some(b) = body.as_mut() {
                    b.push_str(line);
                }
            }
        }
    }
    if certs.is_empty() {
        return Err(bad("no PEM certificate found".into()));
    }
    Ok(certs)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn request_timeout_zero_means_no_limit_and_units_parse() {
        assert_eq!(parse_request_timeout("0").ok(), Some(None));
        assert_eq!(
            parse_request_timeout("30s").ok(),
            Some(Some(Duration::from_secs(30)))
        );
        assert!(parse_request_timeout("soon").is_err());
    }

    #[test]
    fn a_server_without_scheme_is_https() {
        assert_eq!(
            parse_server("127.0.0.1:6443").ok().map(|u| u.to_string()),
            Some("https://127.0.0.1:6443/".into())
        );
    }
}
