//! The admission server's certificates: one CA and a serving certificate it signs (rcgen),
//! kept in a Secret so that a restarted `run`, a standby and a leader serve under the same
//! CA and the webhook configurations' `caBundle` stays valid across them.
//!
//! ```text
//! Secret kubectl-kruise-webhook-certs (lease namespace)
//!   ca.crt ca.key           the CA (10 years), made once, reused by every run
//!   tls.crt tls.key         the serving certificate, renewed at 2/3 of its lifetime
//!   hosts                   the names and addresses it is valid for
//!   not-after               when it expires (RFC 3339)
//! ```
//!
//! Invariants: the CA never changes while it is valid, so renewing the serving certificate
//! never changes the `caBundle` and no admission call fails across a renewal; a serving
//! certificate is renewed long before it expires ([`needs_renewal`], pure); two runs racing
//! to write the Secret converge on one (a create that finds the Secret reads it again; an
//! update carries the resourceVersion it read).
use std::collections::BTreeMap;
use std::net::IpAddr;
use std::time::Duration;

use k8s_openapi::ByteString;
use k8s_openapi::api::core::v1::Secret;
use k8s_openapi::jiff::{SignedDuration, Timestamp};
use kube::api::{Api, PostParams};
use kube::{Client, ResourceExt};
use rcgen::{
    BasicConstraints, CertificateParams, DnType, ExtendedKeyUsagePurpose, IsCa, Issuer, KeyPair,
    KeyUsagePurpose, SanType,
};

/// The Secret's name (in the lease namespace).
pub const SECRET: &str = "kubectl-kruise-webhook-certs";
const CA_NAME: &str = "kubectl-kruise-webhook-ca";
const CA_LIFETIME: Duration = Duration::from_secs(10 * 365 * 24 * 3600);
/// The serving certificate's lifetime (`KRUISE_WEBHOOK_CERT_LIFETIME`, in seconds, shortens
/// it, so that a test sees renewals).
pub const SERVING_LIFETIME: Duration = Duration::from_secs(365 * 24 * 3600);

#[derive(Debug, thiserror::Error)]
pub enum CertError {
    #[error("making a certificate: {0}")]
    Generate(#[from] rcgen::Error),
    #[error("reading Secret {namespace}/{SECRET}: {source}")]
    Read { namespace: String, source: kube::Error },
    #[error("writing Secret {namespace}/{SECRET}: {source}")]
    Write { namespace: String, source: kube::Error },
    #[error("Secret {namespace}/{SECRET} has an unreadable {field}")]
    Unreadable { namespace: String, field: &'static str },
}

/// The CA and the serving pair, as PEM.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Certs {
    pub ca_cert: String,
    pub ca_key: String,
    pub cert: String,
    pub key: String,
    /// The names and addresses the serving certificate is valid for (sorted).
    pub hosts: Vec<String>,
    pub not_after: Timestamp,
}

/// The serving certificate's lifetime for this process.
pub fn serving_lifetime() -> Duration {
    std::env::var("KRUISE_WEBHOOK_CERT_LIFETIME")
        .ok()
        .and_then(|s| s.parse::<u64>().ok())
        .map(Duration::from_secs)
        .unwrap_or(SERVING_LIFETIME)
}

fn ca_params() -> CertificateParams {
    let mut params = CertificateParams::default();
    params.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
    params.distinguished_name.push(DnType::CommonName, CA_NAME);
    params.key_usages = vec![
        KeyUsagePurpose::KeyCertSign,
        KeyUsagePurpose::CrlSign,
        KeyUsagePurpose::DigitalSignature,
    ];
    params
}

fn offset(now: Timestamp, by: Duration) -> time::OffsetDateTime {
    let seconds = now.as_second().saturating_add(by.as_secs() as i64);
    time::OffsetDateTime::from_unix_timestamp(seconds).unwrap_or(time::OffsetDateTime::UNIX_EPOCH)
}

/// A new CA (valid from a minute ago, for clock skew).
pub fn new_ca(now: Timestamp) -> Result<(String, String), CertError> {
    let key = KeyPair::generate()?;
    let mut params = ca_params();
    params.not_before = offset(now, Duration::ZERO) - time::Duration::minutes(1);
    params.not_after = offset(now, CA_LIFETIME);
    let cert = params.self_signed(&key)?;
    Ok((cert.pem(), key.serialize_pem()))
}

/// A serving certificate for `hosts` (IP addresses and DNS names) signed by the CA.
pub fn new_serving(
    ca_key: &str,
    hosts: &[String],
    now: Timestamp,
    lifetime: Duration,
) -> Result<(String, String, Timestamp), CertError> {
    let issuer = Issuer::new(ca_params(), KeyPair::from_pem(ca_key)?);
    let key = KeyPair::generate()?;
    let dns: Vec<String> = hosts
        .iter()
        .filter(|h| h.parse::<IpAddr>().is_err())
        .cloned()
        .collect();
    let mut params = CertificateParams::new(dns)?;
    params.subject_alt_names.extend(
        hosts
            .iter()
            .filter_map(|h| h.parse::<IpAddr>().ok())
            .map(SanType::IpAddress),
    );
    params
        .distinguished_name
        .push(DnType::CommonName, "kubectl-kruise-webhook");
    params.extended_key_usages = vec![ExtendedKeyUsagePurpose::ServerAuth];
    params.key_usages = vec![
        KeyUsagePurpose::DigitalSignature,
        KeyUsagePurpose::KeyEncipherment,
    ];
    params.not_before = offset(now, Duration::ZERO) - time::Duration::minutes(1);
    params.not_after = offset(now, lifetime);
    let cert = params.signed_by(&key, &issuer)?;
    let not_after = now
        .checked_add(SignedDuration::from_secs(lifetime.as_secs() as i64))
        .unwrap_or(now);
    Ok((cert.pem(), key.serialize_pem(), not_after))
}

/// Whether `certs` must be renewed at `now` for `hosts`: other hosts, or two thirds of its
/// `lifetime` gone (pure).
pub fn needs_renewal(certs: &Certs, hosts: &[String], now: Timestamp, lifetime: Duration) -> bool {
    let left = certs.not_after.as_second() - now.as_second();
    certs.hosts != hosts || left < (lifetime.as_secs() / 3) as i64
}

impl Certs {
    fn to_data(&self) -> BTreeMap<String, ByteString> {
        let b = |s: &str| ByteString(s.as_bytes().to_vec());
        BTreeMap::from([
            ("ca.crt".to_string(), b(&self.ca_cert)),
            ("ca.key".to_string(), b(&self.ca_key)),
            ("tls.crt".to_string(), b(&self.cert)),
            ("tls.key".to_string(), b(&self.key)),
            ("hosts".to_string(), b(&self.hosts.join(","))),
            ("not-after".to_string(), b(&self.not_after.to_string())),
        ])
    }

    fn from_secret(secret: &Secret, namespace: &str) -> Result<Self, CertError> {
        let data = secret.data.clone().unwrap_or_default();
        let field = |name: &'static str| -> Result<String, CertError> {
            data.get(name)
                .and_then(|b| String::from_utf8(b.0.clone()).ok())
                .ok_or(CertError::Unreadable {
                    namespace: namespace.to_string(),
                    field: name,
                })
        };
        let not_after = field("not-after")?.parse().map_err(|_| CertError::Unreadable {
            namespace: namespace.to_string(),
            field: "not-after",
        })?;
        let hosts = field("hosts")?;
        Ok(Certs {
            ca_cert: field("ca.crt")?,
            ca_key: field("ca.key")?,
            cert: field("tls.crt")?,
            key: field("tls.key")?,
            hosts: hosts
                .split(',')
                .filter(|h| !h.is_empty())
                .map(String::from)
                .collect(),
            not_after,
        })
    }
}

/// The certificates for `hosts` from the Secret in `namespace`: read, renewed when
/// [`needs_renewal`] says so (same CA), or made with a new CA when there is none.
pub async fn load_or_make(client: &Client, namespace: &str, hosts: &[String]) -> Result<Certs, CertError> {
    let mut hosts = hosts.to_vec();
    hosts.sort();
    hosts.dedup();
    let api: Api<Secret> = Api::namespaced(client.clone(), namespace);
    let lifetime = serving_lifetime();
    loop {
        let now = Timestamp::now();
        let stored = api.get_opt(SECRET).await.map_err(|source| CertError::Read {
            namespace: namespace.to_string(),
            source,
        })?;
        let current = stored
            .as_ref()
            .map(|s| Certs::from_secret(s, namespace))
            .transpose();
        let (ca_cert, ca_key) = match &current {
            Ok(Some(certs)) if !needs_renewal(certs, &hosts, now, lifetime) => {
                return Ok(certs.clone());
            }
            Ok(Some(certs)) => (certs.ca_cert.clone(), certs.ca_key.clone()),
            // No Secret, or one this run cannot read: a new CA.
            Ok(None) | Err(_) => new_ca(now)?,
        };
        let (cert, key, not_after) = new_serving(&ca_key, &hosts, now, lifetime)?;
        let certs = Certs {
            ca_cert,
            ca_key,
            cert,
            key,
            hosts: hosts.clone(),
            not_after,
        };
        let mut secret = Secret {
            data: Some(certs.to_data()),
            type_: Some("Opaque".into()),
            ..Secret::default()
        };
        secret.metadata.name = Some(SECRET.into());
        secret.metadata.namespace = Some(namespace.into());
        secret.metadata.labels = Some(BTreeMap::from([(
            "app.kubernetes.io/managed-by".to_string(),
            "kubectl-kruise".to_string(),
        )]));
        let written = match &stored {
            Some(old) => {
                secret.metadata.resource_version = old.resource_version();
                api.replace(SECRET, &PostParams::default(), &secret).await
            }
            None => api.create(&PostParams::default(), &secret).await,
        };
        match written {
            Ok(_) => return Ok(certs),
            // Another run wrote it first: read what it wrote.
            Err(kube::Error::Api(s)) if s.is_conflict() || s.is_already_exists() => continue,
            Err(source) => {
                return Err(CertError::Write {
                    namespace: namespace.to_string(),
                    source,
                });
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hosts() -> Vec<String> {
        vec!["127.0.0.1".into(), "webhook.kruise.svc".into()]
    }

    #[test]
    fn a_serving_certificate_is_signed_by_the_ca_kept_in_pem() {
        let now = Timestamp::now();
        let (ca_cert, ca_key) = new_ca(now).expect("ca");
        let (cert, key, not_after) = new_serving(&ca_key, &hosts(), now, SERVING_LIFETIME).expect("serving");
        assert!(ca_cert.starts_with("-----BEGIN CERTIFICATE-----"));
        assert!(cert.starts_with("-----BEGIN CERTIFICATE-----") && key.contains("PRIVATE KEY"));
        assert_eq!(
            not_after.as_second() - now.as_second(),
            SERVING_LIFETIME.as_secs() as i64
        );
        // A second serving certificate from the same stored CA key works too (a renewal).
        assert!(new_serving(&ca_key, &hosts(), now, SERVING_LIFETIME).is_ok());
    }

    #[test]
    fn renewal_comes_at_two_thirds_of_the_lifetime_or_for_other_hosts() {
        let now = Timestamp::now();
        let lifetime = Duration::from_secs(300);
        let certs = Certs {
            ca_cert: String::new(),
            ca_key: String::new(),
            cert: String::new(),
            key: String::new(),
            hosts: hosts(),
            not_after: now.checked_add(SignedDuration::from_secs(300)).expect("time"),
        };
        assert!(!needs_renewal(&certs, &hosts(), now, lifetime));
        let later = now.checked_add(SignedDuration::from_secs(150)).expect("time");
        assert!(!needs_renewal(&certs, &hosts(), later, lifetime), "half gone");
        let late = now.checked_add(SignedDuration::from_secs(201)).expect("time");
        assert!(needs_renewal(&certs, &hosts(), late, lifetime), "two thirds gone");
        assert!(
            needs_renewal(&certs, &["10.0.0.1".to_string()], now, lifetime),
            "other hosts"
        );
    }

    #[test]
    fn certs_round_trip_through_the_secret_data() {
        let certs = Certs {
            ca_cert: "ca".into(),
            ca_key: "cak".into(),
            cert: "c".into(),
            key: "k".into(),
            hosts: hosts(),
            not_after: "2030-01-01T00:00:00Z".parse().expect("time"),
        };
        let secret = Secret {
            data: Some(certs.to_data()),
            ..Secret::default()
        };
        assert_eq!(Certs::from_secret(&secret, "ns").expect("read"), certs);
        let broken = Secret::default();
        let error = Certs::from_secret(&broken, "ns").expect_err("unreadable");
        assert!(
            error.to_string().contains("ns/kubectl-kruise-webhook-certs"),
            "{error}"
        );
    }
}
