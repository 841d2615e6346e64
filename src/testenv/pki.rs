//! Certificates and the admin kubeconfig of the local control plane.
//!
//! Invariants: one CA signs everything; the apiserver serving certificate is valid for
//! 127.0.0.1, ::1, localhost and the in-cluster names, so a webhook or a client on loopback
//! verifies it; the admin client certificate is in `system:masters`, so RBAC allows it
//! everything. The same service-account key both signs and verifies tokens.
use std::path::{Path, PathBuf};

use rcgen::{
    BasicConstraints, CertificateParams, DnType, ExtendedKeyUsagePurpose, IsCa, Issuer, KeyPair,
    KeyUsagePurpose, SanType,
};

use super::Error;

/// Paths of the files written by [`write_pki`], all inside one directory.
#[derive(Debug, Clone)]
pub struct Pki {
    pub ca_cert: PathBuf,
    pub ca_key: PathBuf,
    pub server_cert: PathBuf,
    pub server_key: PathBuf,
    pub admin_cert: PathBuf,
    pub admin_key: PathBuf,
    pub service_account_key: PathBuf,
    pub service_account_public_key: PathBuf,
}

impl Pki {
    pub fn in_dir(dir: &Path) -> Self {
        Pki {
            ca_cert: dir.join("ca.crt"),
            ca_key: dir.join("ca.key"),
            server_cert: dir.join("apiserver.crt"),
            server_key: dir.join("apiserver.key"),
            admin_cert: dir.join("admin.crt"),
            admin_key: dir.join("admin.key"),
            service_account_key: dir.join("service-account.key"),
            service_account_public_key: dir.join("service-account.pub"),
        }
    }
}

/// A certificate authority that can sign further certificates (webhook serving certs too).
pub struct CertificateAuthority {
    pub cert_pem: String,
    issuer: Issuer<'static, KeyPair>,
}

impl CertificateAuthority {
    pub fn generate(common_name: &str) -> Result<Self, Error> {
        let key = KeyPair::generate().map_err(Error::Certificate)?;
        let mut params = CertificateParams::default();
        params.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
        params.distinguished_name.push(DnType::CommonName, common_name);
        params.key_usages = vec![
            KeyUsagePurpose::KeyCertSign,
            KeyUsagePurpose::CrlSign,
            KeyUsagePurpose::DigitalSignature,
        ];
        let cert = params.self_signed(&key).map_err(Error::Certificate)?;
        Ok(CertificateAuthority {
            cert_pem: cert.pem(),
            issuer: Issuer::new(params, key),
        })
    }

    pub fn key_pem(&self) -> String {
        self.issuer.key().serialize_pem()
    }

    /// A serving certificate for the given DNS names and IP addresses: (cert PEM, key PEM).
    pub fn serving_cert(&self, dns: &[&str], ips: &[std::net::IpAddr]) -> Result<(String, String), Error> {
        let key = KeyPair::generate().map_err(Error::Certificate)?;
        let mut params = CertificateParams::new(dns.iter().map(|d| d.to_string()).collect::<Vec<_>>())
            .map_err(Error::Certificate)?;
        params
            .subject_alt_names
            .extend(ips.iter().map(|ip| SanType::IpAddress(*ip)));
        params
            .distinguished_name
            .push(DnType::CommonName, dns.first().copied().unwrap_or("localhost"));
        params.extended_key_usages = vec![ExtendedKeyUsagePurpose::ServerAuth];
        params.key_usages = vec![
            KeyUsagePurpose::DigitalSignature,
            KeyUsagePurpose::KeyEncipherment,
        ];
        let cert = params.signed_by(&key, &self.issuer).map_err(Error::Certificate)?;
        Ok((cert.pem(), key.serialize_pem()))
    }

    /// A client certificate with the given user name and groups (organisations).
    pub fn client_cert(&self, user: &str, groups: &[&str]) -> Result<(String, String), Error> {
        let key = KeyPair::generate().map_err(Error::Certificate)?;
        let mut params = CertificateParams::default();
        params.distinguished_name.push(DnType::CommonName, user);
        for group in groups {
            params.distinguished_name.push(DnType::OrganizationName, *group);
        }
        params.extended_key_usages = vec![ExtendedKeyUsagePurpose::ClientAuth];
        params.key_usages = vec![
            KeyUsagePurpose::DigitalSignature,
            KeyUsagePurpose::KeyEncipherment,
        ];
        let cert = params.signed_by(&key, &self.issuer).map_err(Error::Certificate)?;
        Ok((cert.pem(), key.serialize_pem()))
    }
}

/// Generates the CA, the apiserver serving pair, the admin client pair and the
/// service-account key into `dir`.
pub fn write_pki(dir: &Path) -> Result<Pki, Error> {
    let pki = Pki::in_dir(dir);
    let ca = CertificateAuthority::generate("kubectl-kruise-testenv-ca")?;
    let ips = [
        std::net::IpAddr::from([127, 0, 0, 1]),
        std::net::IpAddr::from(std::net::Ipv6Addr::LOCALHOST),
        std::net::IpAddr::from([10, 96, 0, 1]),
    ];
    let dns = [
        "localhost",
        "kubernetes",
        "kubernetes.default",
        "kubernetes.default.svc",
    ];
    let (server_cert, server_key) = ca.serving_cert(&dns, &ips)?;
    let (admin_cert, admin_key) = ca.client_cert("kubectl-kruise-admin", &["system:masters"])?;
    let sa = KeyPair::generate().map_err(Error::Certificate)?;
    for (path, pem) in [
        (&pki.ca_cert, ca.cert_pem.clone()),
        (&pki.ca_key, ca.key_pem()),
        (&pki.server_cert, server_cert),
        (&pki.server_key, server_key),
        (&pki.admin_cert, admin_cert),
        (&pki.admin_key, admin_key),
        (&pki.service_account_key, sa.serialize_pem()),
        (&pki.service_account_public_key, sa.public_key_pem()),
    ] {
        write_file(path, &pem)?;
    }
    Ok(pki)
}

/// Writes a kubeconfig for the admin user that points at `server`.
pub fn write_kubeconfig(path: &Path, server: &str, pki: &Pki) -> Result<(), Error> {
    let text = format!(
        "apiVersion: v1\nkind: Config\nclusters:\n- name: kruise-testenv\n  cluster:\n    server: {server}\n    \
         certificate-authority: {ca}\nusers:\n- name: kruise-testenv-admin\n  user:\n    \
         client-certificate: {cert}\n    client-key: {key}\ncontexts:\n- name: kruise-testenv\n  context:\n    \
         cluster: kruise-testenv\n    user: kruise-testenv-admin\n    namespace: default\n\
         current-context: kruise-testenv\n",
        ca = pki.ca_cert.display(),
        cert = pki.admin_cert.display(),
        key = pki.admin_key.display(),
    );
    write_file(path, &text)
}

fn write_file(path: &Path, text: &str) -> Result<(), Error> {
    std::fs::write(path, text).map_err(|source| Error::Write {
        path: path.to_path_buf(),
        source,
    })
}
