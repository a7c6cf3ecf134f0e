//! Settings, and the only code that reads configuration files and the environment.
//!
//! Layers, later wins: built-in defaults, `--config FILE` (TOML), then environment variables
//! `SSO_BRIDGE__<SECTION>__<KEY>`. A bad value stops start-up with one line naming the key.

use secrecy::SecretString;
use serde::Deserialize;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};

mod claims;
mod mfa;
mod oidc;
pub use claims::ClaimMapping;
pub use mfa::{GroupLookup, LimitSettings, MfaSettings};
pub use oidc::OidcSettings;

/// Every setting of the service.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Settings {
    pub server: ServerSettings,
    pub store: StoreSettings,
    pub directory: DirectorySettings,
    #[serde(default)]
    pub claims: ClaimMapping,
    pub tokens: TokenSettings,
    pub session: SessionSettings,
    pub admin: AdminSettings,
    // --- second factor and attempt limits ---
    pub mfa: MfaSettings,
    pub limits: LimitSettings,
    // --- audit log ---
    pub audit: AuditSettings,
    // --- OpenID Connect -------------------------------------------------------------------
    #[serde(default)]
    pub oidc: OidcSettings,
}

/// `[server]`
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ServerSettings {
    /// Socket address to listen on; port 0 picks a free port.
    pub listen: SocketAddr,
    /// Public base address: the issuer; endpoints are at `{base_url}/oauth/...`. Unset:
    /// `http://<listen>`, which suits only a service used on the machine it runs on.
    pub base_url: Option<url::Url>,
}

/// Which store backend.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum StoreBackend {
    Memory,
    Redis,
}

/// `[store]`
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StoreSettings {
    pub backend: StoreBackend,
    /// `redis://` or `rediss://` URL (may carry a password; never logged).
    pub redis_url: SecretString,
    /// Prefix of every key, so several deployments can share one Redis.
    pub key_prefix: String,
    /// Connections in the Redis pool.
    pub pool_size: usize,
    /// Timeout of one store operation, including waiting for a pooled connection.
    pub timeout_ms: u64,
}

/// Which directory backend.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum DirectoryBackend {
    Ldif,
    Ldap,
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
    /// Connect timeout.
    pub connect_timeout_ms: u64,
    /// Timeout of one directory operation (bind or search).
    pub operation_timeout_ms: u64,
    /// Service connections kept for searches.
    pub pool_size: usize,
}

/// `[tokens]` lifetimes, in seconds.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TokenSettings {
    pub access_ttl_secs: u64,
    pub refresh_ttl_secs: u64,
    pub code_ttl_secs: u64,
    /// A retried refresh within this window gets the same successor instead of a theft alarm.
    pub refresh_grace_secs: u64,
}

/// `[session]` browser sign-in.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SessionSettings {
    /// How long a sign-in lasts for single sign-on.
    pub ttl_secs: u64,
    /// How long an unfinished authorize request (sign-in, consent) waits.
    pub request_ttl_secs: u64,
    /// How long an approval is remembered; 0 asks every time.
    pub consent_ttl_secs: u64,
}

/// `[admin]` API.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AdminSettings {
    /// Lifetime of an admin API token.
    pub token_ttl_secs: u64,
    /// The admin screen signs out after this long without a request.
    pub session_idle_secs: u64,
}

/// `[audit]` log.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AuditSettings {
    /// How long audit events are kept in the store.
    pub retention_days: u64,
    /// How many audit events the store keeps at most (the newest); the log has every one.
    pub max_events: usize,
}

/// Built-in defaults: the embedded demo setup.
pub const DEFAULTS: &str = include_str!("../config/default.toml");

/// A setting could not be used.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    #[error("configuration: {0}")]
    Invalid(String),
    #[error("configuration: `{key}`: {reason}")]
    Key { key: String, reason: String },
}

impl Settings {
    /// Loads defaults, then `file`, then the environment.
    pub fn load(file: Option<&Path>) -> Result<Self, ConfigError> {
        Self::load_from(file, std::env::vars())
    }

    /// Like [`Settings::load`], with the environment given (for tests).
    pub fn load_from(
        file: Option<&Path>,
        env: impl IntoIterator<Item = (String, String)>,
    ) -> Result<Self, ConfigError> {
        let mut builder = config::Config::builder()
            .add_source(config::File::from_str(DEFAULTS, config::FileFormat::Toml));
        if let Some(path) = file {
            if !path.exists() {
                return Err(ConfigError::Invalid(format!(
                    "file {} does not exist",
                    path.display()
                )));
            }
            builder = builder.add_source(config::File::from(path).format(config::FileFormat::Toml));
        }
        let env: config::Map<String, String> = env
            .into_iter()
            .filter(|(k, _)| k.starts_with("SSO_BRIDGE__"))
            .collect();
        builder = builder.add_source(
            config::Environment::with_prefix("SSO_BRIDGE")
                .prefix_separator("__")
                .separator("__")
                .source(Some(env)),
        );
        let settings: Settings = builder
            .build()
            .and_then(|c| c.try_deserialize())
            .map_err(describe)?;
        settings.validate()?;
        Ok(settings)
    }

    fn validate(&self) -> Result<(), ConfigError> {
        let key = |key: &str, reason: &str| ConfigError::Key {
            key: key.into(),
            reason: reason.into(),
        };
        let base = self.base_url();
        if !matches!(base.scheme(), "http" | "https") {
            return Err(key("server.base_url", "must be an http:// or https:// URL"));
        }
        if base.query().is_some() || base.fragment().is_some() {
            return Err(key("server.base_url", "must not have a query or fragment"));
        }
        for (name, value) in [
            ("tokens.access_ttl_secs", self.tokens.access_ttl_secs),
            ("tokens.refresh_ttl_secs", self.tokens.refresh_ttl_secs),
            ("tokens.code_ttl_secs", self.tokens.code_ttl_secs),
            ("session.ttl_secs", self.session.ttl_secs),
            ("session.request_ttl_secs", self.session.request_ttl_secs),
            ("admin.token_ttl_secs", self.admin.token_ttl_secs),
            ("admin.session_idle_secs", self.admin.session_idle_secs),
            ("audit.retention_days", self.audit.retention_days),
            ("oidc.id_token_ttl_secs", self.oidc.id_token_ttl_secs),
            ("store.timeout_ms", self.store.timeout_ms),
            (
                "directory.connect_timeout_ms",
                self.directory.connect_timeout_ms,
            ),
            (
                "directory.operation_timeout_ms",
                self.directory.operation_timeout_ms,
            ),
        ] {
            if value == 0 {
                return Err(key(name, "must be greater than 0"));
            }
        }
        if !matches!(self.oidc.signing_alg.as_str(), "RS256" | "ES256") {
            return Err(key("oidc.signing_alg", "must be RS256 or ES256"));
        }
        if self.store.pool_size == 0 {
            return Err(key("store.pool_size", "must be greater than 0"));
        }
        if self.directory.pool_size == 0 {
            return Err(key("directory.pool_size", "must be greater than 0"));
        }
        if self.directory.backend == DirectoryBackend::Ldap {
            if !self.directory.user_filter.contains("{username}") {
                return Err(key("directory.user_filter", "must contain {username}"));
            }
            if !self.directory.lookup_filter.contains("{sub}") {
                return Err(key("directory.lookup_filter", "must contain {sub}"));
            }
            if !(self.directory.url.starts_with("ldap://")
                || self.directory.url.starts_with("ldaps://"))
            {
                return Err(key("directory.url", "must start with ldap:// or ldaps://"));
            }
        }
        self.mfa.validate()?;
        self.limits.validate()?;
        Ok(())
    }

    /// Whether this is the embedded demo setup (memory store or LDIF directory).
    pub fn is_demo(&self) -> bool {
        self.store.backend == StoreBackend::Memory
            || self.directory.backend == DirectoryBackend::Ldif
    }

    /// Whether cookies must carry `Secure` (the public address is https).
    pub fn secure_cookies(&self) -> bool {
        self.base_url().scheme() == "https"
    }

    /// The public base address: `server.base_url`, else `http://<server.listen>`.
    #[allow(clippy::expect_used)] // "http://" + a socket address is always a valid URL
    pub fn base_url(&self) -> url::Url {
        match &self.server.base_url {
            Some(url) => url.clone(),
            None => url::Url::parse(&format!("http://{}", self.server.listen))
                .expect("a socket address makes a valid URL"),
        }
    }

    /// The public base address without a trailing slash.
    pub fn issuer(&self) -> String {
        self.base_url().as_str().trim_end_matches('/').to_owned()
    }
}

/// Turns the config crate's error into one line that names the key.
fn describe(err: config::ConfigError) -> ConfigError {
    let text = err.to_string();
    ConfigError::Invalid(text.replace('\n', " "))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    #[test]
    fn defaults_are_the_embedded_demo() {
        let s = Settings::load_from(None, env(&[])).unwrap();
        assert_eq!(s.server.listen.to_string(), "127.0.0.1:8080");
        assert_eq!(s.issuer(), "http://127.0.0.1:8080");
        assert_eq!(s.store.backend, StoreBackend::Memory);
        assert_eq!(s.directory.backend, DirectoryBackend::Ldif);
        assert_eq!(s.tokens.access_ttl_secs, 3600);
        assert_eq!(s.tokens.refresh_ttl_secs, 30 * 24 * 3600);
        assert_eq!(s.tokens.code_ttl_secs, 60);
        assert!(s.is_demo());
    }

    #[test]
    fn the_base_url_follows_the_listen_address_unless_set() {
        let s = Settings::load_from(None, env(&[("SSO_BRIDGE__SERVER__LISTEN", "[::1]:9000")]))
            .unwrap();
        assert_eq!(s.issuer(), "http://[::1]:9000");
        let s = Settings::load_from(
            None,
            env(&[("SSO_BRIDGE__SERVER__BASE_URL", "https://sso.example.com/")]),
        )
        .unwrap();
        assert_eq!(s.issuer(), "https://sso.example.com");
        assert!(s.secure_cookies());
    }

    #[test]
    fn environment_overrides_defaults() {
        let s = Settings::load_from(
            None,
            env(&[
                ("SSO_BRIDGE__STORE__BACKEND", "redis"),
                ("SSO_BRIDGE__STORE__REDIS_URL", "redis://127.0.0.1:7000"),
                ("SSO_BRIDGE__CLAIMS__EMAIL", "proxyAddress"),
            ]),
        )
        .unwrap();
        assert_eq!(s.store.backend, StoreBackend::Redis);
        assert_eq!(s.claims.email, "proxyAddress");
    }

    #[test]
    fn a_bad_value_names_its_key() {
        let err = Settings::load_from(None, env(&[("SSO_BRIDGE__SERVER__LISTEN", "nowhere")]))
            .unwrap_err()
            .to_string();
        assert!(err.contains("listen"), "{err}");
        let err = Settings::load_from(None, env(&[("SSO_BRIDGE__TOKENS__CODE_TTL_SECS", "0")]))
            .unwrap_err()
            .to_string();
        assert!(err.contains("tokens.code_ttl_secs"), "{err}");
    }

    #[test]
    fn an_unknown_key_is_refused() {
        let err = Settings::load_from(None, env(&[("SSO_BRIDGE__STORE__REDIS_ULR", "x")]))
            .unwrap_err()
            .to_string();
        assert!(err.contains("redis_ulr"), "{err}");
    }
}
