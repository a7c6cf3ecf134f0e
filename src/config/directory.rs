//! `[directory]`: where staff accounts are looked up, the embedded LDIF file or an LDAP server.

use super::secret::SecretSetting;
use super::{value, ConfigError};
use secrecy::SecretString;
use serde::Deserialize;
use std::path::PathBuf;
use std::time::Duration;

/// Which directory backend.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DirectoryBackend {
    /// An LDIF file read at start-up (`directory.ldif_path`), or the built-in demo directory.
    Ldif,
    /// An LDAP server (`directory.url`).
    Ldap,
}

impl<'de> Deserialize<'de> for DirectoryBackend {
    fn deserialize<D: serde::Deserializer<'de>>(de: D) -> Result<Self, D::Error> {
        value::choice(de, &[("ldif", Self::Ldif), ("ldap", Self::Ldap)])
    }
}

/// The account LDAP searches run as: `directory.bind_dn` and its password.
#[derive(Debug, Clone)]
pub struct ServiceAccount {
    /// Its DN.
    pub dn: String,
    /// `directory.bind_password`, or the first line of `directory.bind_password_file`.
    pub password: SecretString,
}

/// `[directory]`, checked. The LDAP keys are checked, and the password read, only with the
/// LDAP backend: nothing else uses them.
#[derive(Debug, Clone)]
pub struct DirectorySettings {
    /// Which backend.
    pub backend: DirectoryBackend,
    /// LDIF file of the embedded directory; unset uses the demo directory built into the binary.
    pub ldif_path: Option<PathBuf>,
    /// `ldap://host:389` or `ldaps://host:636`.
    pub url: String,
    /// The service account; `None` (an empty `bind_dn`) searches anonymously.
    pub service_account: Option<ServiceAccount>,
    /// Search base of user entries.
    pub user_base: String,
    /// Filter finding the user who signs in; `{username}` is replaced, RFC 4515-escaped.
    pub user_filter: String,
    /// Filter finding a user again by subject on refresh; `{sub}` is replaced, escaped.
    pub lookup_filter: String,
    /// Upgrade `ldap://` connections with StartTLS.
    pub starttls: bool,
    /// PEM file of the CA that signed the directory's certificate (else the system roots).
    pub ca_file: Option<PathBuf>,
    /// `directory.connect_timeout_ms`: timeout of opening a connection.
    pub connect_timeout: Duration,
    /// `directory.operation_timeout_ms`: timeout of one directory operation (bind or search).
    pub operation_timeout: Duration,
    /// Service connections kept for searches.
    pub pool_size: usize,
}

/// `[directory]` as the layers give it.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct DirectoryKeys {
    backend: DirectoryBackend,
    ldif_path: Option<PathBuf>,
    url: String,
    bind_dn: String,
    bind_password: Option<SecretString>,
    bind_password_file: Option<PathBuf>,
    user_base: String,
    user_filter: String,
    lookup_filter: String,
    starttls: bool,
    ca_file: Option<PathBuf>,
    #[serde(deserialize_with = "value::positive_millis")]
    connect_timeout_ms: Duration,
    #[serde(deserialize_with = "value::positive_millis")]
    operation_timeout_ms: Duration,
    #[serde(deserialize_with = "value::positive")]
    pool_size: usize,
}

impl DirectoryKeys {
    /// Checks the LDAP keys and reads the service password, when the LDAP backend uses them.
    pub(super) fn check(self) -> Result<DirectorySettings, ConfigError> {
        let ldap = self.backend == DirectoryBackend::Ldap;
        if ldap {
            if !self.user_filter.contains("{username}") {
                return Err(ConfigError::key(
                    "directory.user_filter",
                    "must contain {username}",
                ));
            }
            if !self.lookup_filter.contains("{sub}") {
                return Err(ConfigError::key(
                    "directory.lookup_filter",
                    "must contain {sub}",
                ));
            }
            if !(self.url.starts_with("ldap://") || self.url.starts_with("ldaps://")) {
                return Err(ConfigError::key(
                    "directory.url",
                    "must start with ldap:// or ldaps://",
                ));
            }
        }
        let password = SecretSetting {
            value: self.bind_password,
            file: self.bind_password_file,
        };
        let service_account = if ldap && !self.bind_dn.is_empty() {
            let Some(password) = password.resolve("directory.bind_password")? else {
                return Err(ConfigError::key(
                    "directory.bind_password",
                    "bind_dn is set; set bind_password or bind_password_file too",
                ));
            };
            Some(ServiceAccount {
                dn: self.bind_dn,
                password,
            })
        } else {
            None
        };
        Ok(DirectorySettings {
            backend: self.backend,
            ldif_path: self.ldif_path,
            url: self.url,
            service_account,
            user_base: self.user_base,
            user_filter: self.user_filter,
            lookup_filter: self.lookup_filter,
            starttls: self.starttls,
            ca_file: self.ca_file,
            connect_timeout: self.connect_timeout_ms,
            operation_timeout: self.operation_timeout_ms,
            pool_size: self.pool_size,
        })
    }
}

#[cfg(test)]
mod tests {
    use crate::config::{ConfigError, Settings};
    use secrecy::ExposeSecret;
    use std::io::Write;

    const DN: &str = "cn=sso-bridge,ou=services,dc=example,dc=com";

    fn ldap(pairs: &[(&str, &str)]) -> Result<Settings, ConfigError> {
        let mut env = vec![
            (
                "SSO_BRIDGE__DIRECTORY__BACKEND".to_owned(),
                "ldap".to_owned(),
            ),
            ("SSO_BRIDGE__DIRECTORY__BIND_DN".to_owned(), DN.to_owned()),
        ];
        env.extend(pairs.iter().map(|(k, v)| (k.to_string(), v.to_string())));
        Settings::load_from(None, env)
    }

    #[test]
    fn the_service_password_comes_from_the_first_line_of_its_file() {
        let mut file = tempfile::NamedTempFile::new().unwrap();
        write!(file, "from-file\nsecond line\n").unwrap();
        let path = file.path().to_str().unwrap();
        let s = ldap(&[("SSO_BRIDGE__DIRECTORY__BIND_PASSWORD_FILE", path)]).unwrap();
        let account = s.directory.service_account.unwrap();
        assert_eq!(account.dn, DN);
        assert_eq!(account.password.expose_secret(), "from-file");
    }

    #[test]
    fn a_service_account_needs_exactly_one_password_setting() {
        let err = ldap(&[]).unwrap_err().to_string();
        assert!(err.contains("directory.bind_password"), "{err}");
        let file = [(
            "SSO_BRIDGE__DIRECTORY__BIND_PASSWORD_FILE",
            "/nonexistent/pw",
        )];
        let err = ldap(&file).unwrap_err().to_string();
        assert!(err.contains("/nonexistent/pw"), "{err}");
        let both = [file[0], ("SSO_BRIDGE__DIRECTORY__BIND_PASSWORD", "pw")];
        let err = ldap(&both).unwrap_err().to_string();
        assert!(err.contains("not both"), "{err}");
    }

    #[test]
    fn an_empty_bind_dn_searches_anonymously() {
        let s = ldap(&[("SSO_BRIDGE__DIRECTORY__BIND_DN", "")]).unwrap();
        assert!(s.directory.service_account.is_none());
    }

    #[test]
    fn the_ldif_backend_reads_no_ldap_secret() {
        let env = [("SSO_BRIDGE__DIRECTORY__BIND_DN".to_owned(), DN.to_owned())];
        let s = Settings::load_from(None, env).unwrap();
        assert!(s.directory.service_account.is_none());
    }
}
