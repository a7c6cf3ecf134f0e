//! TLS for directory connections: the rustls client configuration (ring provider) and the
//! roots it trusts.

use super::LdapConfigError;
use rustls::pki_types::CertificateDer;
use rustls::{ClientConfig, RootCertStore};
use std::io::BufReader;
use std::path::Path;
use std::sync::Arc;

/// Builds the client configuration trusting the CA in `ca_file`, or the system roots.
///
/// Called at construction so a missing or unreadable CA file stops start-up instead of failing
/// every sign-in later. The provider is named explicitly rather than taken from the process
/// default, which is ambiguous once another crate enables a second provider.
pub(super) fn client_config(ca_file: Option<&Path>) -> Result<Arc<ClientConfig>, LdapConfigError> {
    let roots = match ca_file {
        Some(path) => roots_from_file(path)?,
        None => system_roots()?,
    };
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let config = ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(|err| LdapConfigError::Tls(err.to_string()))?
        .with_root_certificates(roots)
        .with_no_client_auth();
    Ok(Arc::new(config))
}

/// Every certificate of a PEM file; the file must hold at least one.
fn roots_from_file(path: &Path) -> Result<RootCertStore, LdapConfigError> {
    let ca_error = |reason: String| LdapConfigError::CaFile {
        path: path.to_path_buf(),
        reason,
    };
    let file = std::fs::File::open(path).map_err(|err| ca_error(err.to_string()))?;
    let certs: Vec<CertificateDer<'static>> = rustls_pemfile::certs(&mut BufReader::new(file))
        .collect::<Result<_, _>>()
        .map_err(|err| ca_error(format!("not a PEM file: {err}")))?;
    if certs.is_empty() {
        return Err(ca_error("holds no PEM certificate".into()));
    }
    let mut roots = RootCertStore::empty();
    for cert in certs {
        roots
            .add(cert)
            .map_err(|err| ca_error(format!("unusable certificate: {err}")))?;
    }
    Ok(roots)
}

/// The operating system's trusted roots; certificates it cannot parse are skipped, but none at
/// all is an error because every handshake would then fail.
fn system_roots() -> Result<RootCertStore, LdapConfigError> {
    let loaded = rustls_native_certs::load_native_certs();
    for err in &loaded.errors {
        tracing::warn!(error = %err, "could not load some system CA certificates");
    }
    let mut roots = RootCertStore::empty();
    let (added, _ignored) = roots.add_parsable_certificates(loaded.certs);
    if added == 0 {
        return Err(LdapConfigError::NoSystemRoots);
    }
    Ok(roots)
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use std::io::Write;

    #[test]
    fn a_missing_ca_file_is_a_configuration_error_naming_it() {
        let err = client_config(Some(Path::new("/nonexistent/ca.pem"))).unwrap_err();
        assert!(err.to_string().contains("/nonexistent/ca.pem"), "{err}");
    }

    #[test]
    fn a_ca_file_without_certificates_is_refused() {
        let mut file = tempfile::NamedTempFile::new().unwrap();
        writeln!(file, "not a certificate").unwrap();
        let err = client_config(Some(file.path())).unwrap_err();
        assert!(err.to_string().contains("no PEM certificate"), "{err}");
    }
}
