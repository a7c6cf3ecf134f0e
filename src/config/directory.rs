//! `[directory]`: where staff accounts are looked up, the embedded LDIF file or an LDAP server.

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

/// `[directory]`
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DirectorySettings {
    pub backend: DirectoryBackend,
    /// LDIF file of the embedded directory; unset uses the demo directory built into the binary.
    pub ldif_path: Option<PathBuf>,
    /// `ldap://host:389` or `ldaps://host:636`.
    pub url: String,
    /// Service account used for searches.
    pub bind_dn: String,
    /// Its password (or `bind_password_file`).
    pub bind_password: Option<SecretString>,
    /// File holding the service account password (first line).
    pub bind_password_file: Option<PathBuf>,
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
    #[serde(
        rename = "connect_timeout_ms",
        deserialize_with = "value::positive_millis"
    )]
    pub connect_timeout: Duration,
    /// `directory.operation_timeout_ms`: timeout of one directory operation (bind or search).
    #[serde(
        rename = "operation_timeout_ms",
        deserialize_with = "value::positive_millis"
    )]
    pub operation_timeout: Duration,
    /// Service connections kept for searches.
    #[serde(deserialize_with = "value::positive")]
    pub pool_size: usize,
}

impl DirectorySettings {
    /// The LDAP keys, when the LDAP backend reads them.
    pub(super) fn check(&self) -> Result<(), ConfigError> {
        if self.backend == DirectoryBackend::Ldap {
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
        Ok(())
    }
}
