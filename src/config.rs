//! Settings, and the only code that reads configuration files and the environment.
//!
//! Layers, later wins: built-in defaults, `--config FILE` (TOML), then environment variables
//! `SSO_BRIDGE__<SECTION>__<KEY>`. A bad value stops start-up with one line naming the key.
//!
//! The defaults are `config/default.toml` alone. Each section lives in its own module and is
//! read into checked types once, here: durations as `Duration`, choices as enums, URLs parsed,
//! value-or-file secrets read (`secret`), so the rest of the service never checks a setting.

use serde::Deserialize;
use std::path::Path;

mod admin;
mod audit;
mod claims;
mod directory;
mod limits;
mod log;
mod mfa;
mod oidc;
mod roles;
mod secret;
mod server;
mod session;
mod store;
mod tokens;
mod value;
pub use admin::AdminSettings;
pub use audit::AuditSettings;
pub use claims::ClaimMapping;
pub use directory::{
    DirectoryBackend, DirectoryFlavor, DirectorySettings, GroupLookup, GroupSettings,
    ServiceAccount,
};
pub use limits::LimitSettings;
pub use log::{LogFormat, LogSettings};
pub use mfa::MfaSettings;
pub use oidc::OidcSettings;
pub use roles::RoleGroups;
pub use server::{ServerSettings, TrustedProxies};
pub use session::SessionSettings;
pub use store::{SentinelSettings, StoreBackend, StoreSettings};
pub use tokens::TokenSettings;

/// Every setting of the service, read and checked once at start-up.
#[derive(Debug, Clone)]
pub struct Settings {
    /// `[server]`: listen address and public address.
    pub server: ServerSettings,
    /// `[store]`: memory or Redis.
    pub store: StoreSettings,
    /// `[directory]`: LDIF or LDAP, with the LDAP service account resolved.
    pub directory: DirectorySettings,
    /// `[claims]`: the attribute behind each claim.
    pub claims: ClaimMapping,
    /// `[roles]`: the groups that give each role.
    pub roles: RoleGroups,
    /// `[tokens]`: code and token lifetimes.
    pub tokens: TokenSettings,
    /// `[session]`: browser sign-in and consent lifetimes.
    pub session: SessionSettings,
    /// `[admin]`: admin API token and screen idle time.
    pub admin: AdminSettings,
    /// `[mfa]`: the second-factor policy and the resolved encryption key.
    pub mfa: MfaSettings,
    /// `[limits]`: failed-attempt limits.
    pub limits: LimitSettings,
    /// `[audit]`: audit event retention.
    pub audit: AuditSettings,
    /// `[oidc]`: id_token signing, with the key encryption secret resolved.
    pub oidc: OidcSettings,
    /// `[log]`: how log lines are written.
    pub log: LogSettings,
    /// What start-up should warn of in the settings: earlier key names still in use.
    pub notices: Vec<String>,
}

/// The settings as the layers give them: the sections whose keys need more than a type to be
/// usable (a secret's file to read, keys checked together) in their raw form.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Layers {
    server: ServerSettings,
    store: store::StoreKeys,
    directory: directory::DirectoryKeys,
    claims: ClaimMapping,
    roles: RoleGroups,
    tokens: TokenSettings,
    session: SessionSettings,
    admin: AdminSettings,
    mfa: mfa::MfaKeys,
    limits: LimitSettings,
    audit: AuditSettings,
    oidc: oidc::OidcKeys,
    log: LogSettings,
    /// The defaults of `directory.flavor = "active_directory"`, already merged in by `load_from`.
    #[serde(rename = "active_directory")]
    _active_directory: serde::de::IgnoredAny,
}

impl Layers {
    /// Checks each section; each checks its own keys.
    fn check(self) -> Result<Settings, ConfigError> {
        self.server.check()?;
        Ok(Settings {
            server: self.server,
            store: self.store.check()?,
            directory: self.directory.check()?,
            claims: self.claims,
            roles: self.roles,
            tokens: self.tokens,
            session: self.session,
            admin: self.admin,
            mfa: self.mfa.check()?,
            limits: self.limits,
            audit: self.audit,
            oidc: self.oidc.check()?,
            log: self.log,
            notices: Vec::new(),
        })
    }
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

impl ConfigError {
    /// The value of `key` cannot be used, because of `reason`.
    pub(crate) fn key(key: &str, reason: impl Into<String>) -> Self {
        Self::Key {
            key: key.into(),
            reason: reason.into(),
        }
    }
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
        if let Some(path) = file {
            if !path.exists() {
                return Err(ConfigError::Invalid(format!(
                    "file {} does not exist",
                    path.display()
                )));
            }
        }
        let env: config::Map<String, String> = env
            .into_iter()
            .filter(|(k, _)| k.starts_with("SSO_BRIDGE__"))
            .collect();
        let first = layered(file, &env, None).map_err(describe)?;
        // The flavor's defaults sit just above the built-in ones, so a file or the environment
        // still overrides each; which flavor it is can only be known once every layer is read.
        let merged = match first.get_string("directory.flavor") {
            Ok(flavor) if flavor == "active_directory" => {
                let preset = preset(&first, "active_directory").map_err(describe)?;
                layered(file, &env, Some(preset)).map_err(describe)?
            }
            _ => first,
        };
        let given = given_layers(file, &env).map_err(describe)?;
        let (merged, notices) = with_earlier_names(merged, &given).map_err(describe)?;
        let layers: Layers = merged.try_deserialize().map_err(describe)?;
        let mut settings = layers.check()?;
        settings.notices = notices;
        let lookup_given = given
            .get::<config::Value>("directory.lookup_filter")
            .is_ok();
        settings.follow_subject(lookup_given)?;
        Ok(settings)
    }

    /// Makes the directory find people again by the attribute behind `claims.sub`: a
    /// `directory.lookup_filter` left at its default compares that attribute with `{sub}`
    /// (`objectGUID`, `entryUUID`...), and one the operator set (`given`) that compares only
    /// others is refused, naming the filter to use.
    fn follow_subject(&mut self, given: bool) -> Result<(), ConfigError> {
        if self.directory.backend != DirectoryBackend::Ldap {
            return Ok(());
        }
        let subject = self.claims.sub.to_ascii_lowercase();
        let filter = &self.directory.lookup_filter;
        let compared = directory::sub_attributes(filter);
        if compared.is_empty() || compared.contains(&subject) {
            return Ok(());
        }
        let following = directory::with_sub_attribute(filter, &self.claims.sub);
        if given {
            return Err(ConfigError::key(
                "directory.lookup_filter",
                format!(
                    "`{filter}` finds people by {} but claims.sub is {}: a refresh or a re-check would find no one; use `{following}`",
                    compared.join(", "),
                    self.claims.sub
                ),
            ));
        }
        self.directory.lookup_filter = following;
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

    /// The name the cookie `name` goes by: `__Host-<name>` when the public address is https at
    /// the root path, else `name`. A browser keeps a `__Host-` cookie only with `Secure`,
    /// `Path=/` and no `Domain`, so no other host of the domain and no plain-http page can
    /// plant or overwrite it; a base address with a path cannot meet `Path=/`, and plain http
    /// cannot meet `Secure`.
    pub fn cookie_name(&self, name: &str) -> String {
        let base = self.base_url();
        if self.secure_cookies() && base.path().trim_end_matches('/').is_empty() {
            format!("__Host-{name}")
        } else {
            name.to_owned()
        }
    }

    /// The public base address: `server.base_url`, else `http://<server.listen>`.
    pub fn base_url(&self) -> url::Url {
        self.server.base_url()
    }

    /// The public base address without a trailing slash.
    pub fn issuer(&self) -> String {
        self.base_url().as_str().trim_end_matches('/').to_owned()
    }
}

/// The built-in defaults alone, for tests that need a whole section.
#[cfg(test)]
pub(crate) fn defaults() -> Settings {
    Settings::load_from(None, Vec::new()).expect("the built-in defaults load")
}

/// The built-in defaults, then `preset` (a flavor's defaults), then `file`, then `env`.
fn layered(
    file: Option<&Path>,
    env: &config::Map<String, String>,
    preset: Option<config::Config>,
) -> Result<config::Config, config::ConfigError> {
    let mut builder = config::Config::builder()
        .add_source(config::File::from_str(DEFAULTS, config::FileFormat::Toml));
    if let Some(preset) = preset {
        builder = builder.add_source(preset);
    }
    if let Some(path) = file {
        builder = builder.add_source(config::File::from(path).format(config::FileFormat::Toml));
    }
    builder
        .add_source(
            config::Environment::with_prefix("SSO_BRIDGE")
                .prefix_separator("__")
                .separator("__")
                .source(Some(env.clone())),
        )
        .build()
}

/// Earlier names of settings, still read: (earlier key, key).
const EARLIER_NAMES: [(&str, &str); 4] = [
    ("mfa.group_lookup", "directory.group_lookup"),
    ("mfa.member_attribute", "directory.member_attribute"),
    ("mfa.group_base", "directory.group_base"),
    ("mfa.group_filter", "directory.group_filter"),
];

/// What the operator set: `file`, then `env`, without the built-in defaults.
fn given_layers(
    file: Option<&Path>,
    env: &config::Map<String, String>,
) -> Result<config::Config, config::ConfigError> {
    let mut given = config::Config::builder();
    if let Some(path) = file {
        given = given.add_source(config::File::from(path).format(config::FileFormat::Toml));
    }
    given
        .add_source(
            config::Environment::with_prefix("SSO_BRIDGE")
                .prefix_separator("__")
                .separator("__")
                .source(Some(env.clone())),
        )
        .build()
}

/// `merged` with each key an operator set under an earlier name (in `given`: the file or the
/// environment) moved to its name now, unless that is set too (then it wins); and what to
/// warn of.
fn with_earlier_names(
    merged: config::Config,
    given: &config::Config,
) -> Result<(config::Config, Vec<String>), config::ConfigError> {
    let mut notices = Vec::new();
    let mut moved = Vec::new();
    for (earlier, key) in EARLIER_NAMES {
        let Ok(value) = given.get::<config::Value>(earlier) else {
            continue;
        };
        if given.get::<config::Value>(key).is_ok() {
            notices.push(format!(
                "{earlier} is the earlier name of {key}, which is set too: {key} is used; remove {earlier}"
            ));
        } else {
            notices.push(format!(
                "{earlier} is the earlier name of {key}: it is read as {key}; rename it"
            ));
            moved.push((key, value));
        }
    }
    if moved.is_empty() {
        return Ok((merged, notices));
    }
    let mut builder = config::Config::builder().add_source(merged);
    for (key, value) in moved {
        builder = builder.set_override(key, value)?;
    }
    Ok((builder.build()?, notices))
}

/// The table `name` of `merged` (`[active_directory.directory]`, `[active_directory.claims]`),
/// as a layer of its own whose sections are `[directory]` and `[claims]`.
fn preset(merged: &config::Config, name: &str) -> Result<config::Config, config::ConfigError> {
    let mut builder = config::Config::builder();
    for (section, values) in merged.get_table(name)? {
        builder = builder.set_override(section, values)?;
    }
    builder.build()
}

/// Turns the config crate's error into one line that names the key, in the same form as the
/// errors of the checks here: "`key`: reason".
fn describe(err: config::ConfigError) -> ConfigError {
    let one_line = |text: String| text.replace('\n', " ");
    match err {
        config::ConfigError::At {
            error,
            origin,
            key: Some(key),
        } => ConfigError::Key {
            key,
            reason: one_line(match origin {
                Some(origin) => format!("{error} (in {origin})"),
                None => error.to_string(),
            }),
        },
        config::ConfigError::Type {
            origin,
            unexpected,
            expected,
            key: Some(key),
        } => {
            let without_key = config::ConfigError::Type {
                origin,
                unexpected,
                expected,
                key: None,
            };
            ConfigError::Key {
                key,
                reason: one_line(without_key.to_string()),
            }
        }
        other => ConfigError::Invalid(one_line(other.to_string())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

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
        assert_eq!(s.tokens.access_ttl, Duration::from_secs(3600));
        assert_eq!(s.tokens.refresh_ttl, Duration::from_secs(30 * 24 * 3600));
        assert_eq!(s.tokens.code_ttl, Duration::from_secs(60));
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
    fn cookies_are_host_only_on_https_at_the_root_and_plain_elsewhere() {
        let named = |base: &str| {
            Settings::load_from(None, env(&[("SSO_BRIDGE__SERVER__BASE_URL", base)]))
                .unwrap()
                .cookie_name("sso_session")
        };
        assert_eq!(named("https://sso.example.com"), "__Host-sso_session");
        assert_eq!(named("https://sso.example.com:8443/"), "__Host-sso_session");
        assert_eq!(named("https://sso.example.com/sso/"), "sso_session");
        assert_eq!(named("http://sso.example.com/"), "sso_session");
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
    fn durations_are_read_in_the_unit_their_key_names() {
        let s = Settings::load_from(
            None,
            env(&[
                ("SSO_BRIDGE__DIRECTORY__CONNECT_TIMEOUT_MS", "250"),
                ("SSO_BRIDGE__AUDIT__RETENTION_DAYS", "2"),
                ("SSO_BRIDGE__SESSION__CONSENT_TTL_SECS", "0"),
                ("SSO_BRIDGE__OIDC__ROTATE_AFTER_DAYS", "0"),
            ]),
        )
        .unwrap();
        assert_eq!(s.directory.connect_timeout, Duration::from_millis(250));
        assert_eq!(s.audit.retention, Duration::from_secs(2 * 86_400));
        assert_eq!(s.session.consent_ttl, Duration::ZERO);
        assert_eq!(s.oidc.rotate_after, Duration::ZERO);
        for key in [
            "SSO_BRIDGE__DIRECTORY__OPERATION_TIMEOUT_MS",
            "SSO_BRIDGE__STORE__TIMEOUT_MS",
            "SSO_BRIDGE__AUDIT__RETENTION_DAYS",
            "SSO_BRIDGE__OIDC__ID_TOKEN_TTL_SECS",
        ] {
            let err = Settings::load_from(None, env(&[(key, "0")]))
                .unwrap_err()
                .to_string();
            assert!(err.contains("must be greater than 0"), "{key}: {err}");
        }
    }

    #[test]
    fn a_timeout_longer_than_a_minute_is_refused() {
        for key in [
            "SSO_BRIDGE__STORE__TIMEOUT_MS",
            "SSO_BRIDGE__DIRECTORY__CONNECT_TIMEOUT_MS",
            "SSO_BRIDGE__DIRECTORY__OPERATION_TIMEOUT_MS",
        ] {
            let s = Settings::load_from(None, env(&[(key, "60000")])).unwrap();
            let longest = [
                s.store.timeout,
                s.directory.connect_timeout,
                s.directory.operation_timeout,
            ];
            assert!(longest.contains(&Duration::from_secs(60)), "{key}");
            let err = Settings::load_from(None, env(&[(key, "60001")]))
                .unwrap_err()
                .to_string();
            assert!(err.contains("must be at most 60000"), "{key}: {err}");
            let err = Settings::load_from(None, env(&[(key, "9223372036854775807")]))
                .unwrap_err()
                .to_string();
            assert!(err.contains("must be at most 60000"), "{key}: {err}");
        }
    }

    #[test]
    fn a_lifetime_past_its_ceiling_is_refused_naming_the_key() {
        let ten_years = 10 * 365 * 86_400;
        let keys = [
            ("tokens.access_ttl_secs", ten_years),
            ("tokens.refresh_ttl_secs", ten_years),
            ("tokens.refresh_grace_secs", ten_years),
            ("tokens.code_ttl_secs", 600),
            ("session.ttl_secs", ten_years),
            ("session.request_ttl_secs", ten_years),
            ("session.consent_ttl_secs", ten_years),
            ("session.directory_recheck_secs", ten_years),
            ("admin.token_ttl_secs", ten_years),
            ("admin.session_idle_secs", ten_years),
            ("limits.window_secs", ten_years),
            ("oidc.id_token_ttl_secs", ten_years),
            ("audit.retention_days", 3650),
            ("oidc.rotate_after_days", 3650),
        ];
        for (key, max) in keys {
            let var = format!("SSO_BRIDGE__{}", key.replace('.', "__").to_uppercase());
            let longest = max.to_string();
            Settings::load_from(None, env(&[(var.as_str(), longest.as_str())]))
                .unwrap_or_else(|e| panic!("{key} = {max} is allowed: {e}"));
            for over in [(max + 1).to_string(), u64::MAX.to_string()] {
                let err = Settings::load_from(None, env(&[(var.as_str(), over.as_str())]))
                    .unwrap_err()
                    .to_string();
                assert!(err.contains(key), "{key}: {err}");
                assert!(
                    err.contains(&format!("must be at most {max} (")),
                    "{key}: {err}"
                );
            }
        }
        let err = Settings::load_from(None, env(&[("SSO_BRIDGE__TOKENS__CODE_TTL_SECS", "3600")]))
            .unwrap_err()
            .to_string();
        assert!(err.contains("RFC 6749"), "{err}");
    }

    #[test]
    fn worker_threads_are_at_most_1024() {
        let key = "SSO_BRIDGE__SERVER__WORKER_THREADS";
        let s = Settings::load_from(None, env(&[(key, "1024")])).unwrap();
        assert_eq!(s.server.workers(), 1024);
        let s = Settings::load_from(None, env(&[(key, "0")])).unwrap();
        assert!(s.server.workers() >= 1);
        let err = Settings::load_from(None, env(&[(key, "1000000")]))
            .unwrap_err()
            .to_string();
        assert!(err.contains("server.worker_threads"), "{err}");
        assert!(err.contains("must be at most 1024 ("), "{err}");
    }

    #[test]
    fn pool_sizes_are_at_most_1024() {
        for (key, name) in [
            ("SSO_BRIDGE__STORE__POOL_SIZE", "store.pool_size"),
            ("SSO_BRIDGE__DIRECTORY__POOL_SIZE", "directory.pool_size"),
        ] {
            let s = Settings::load_from(None, env(&[(key, "1024")])).unwrap();
            assert_eq!(s.store.pool_size.max(s.directory.pool_size), 1024);
            for refused in ["1025", "100000000000"] {
                let err = Settings::load_from(None, env(&[(key, refused)]))
                    .unwrap_err()
                    .to_string();
                assert!(err.contains(name), "{err}");
                assert!(err.contains("must be at most 1024 ("), "{err}");
            }
        }
    }

    #[test]
    fn every_default_says_what_it_is() {
        let mut previous = "";
        for line in DEFAULTS.lines() {
            let is_key = !line.is_empty() && !line.starts_with(['#', '[']);
            assert!(
                !is_key || previous.starts_with('#'),
                "no comment above `{line}` in config/default.toml"
            );
            previous = line;
        }
    }

    #[test]
    fn a_choice_outside_its_names_is_refused_listing_them() {
        let err = Settings::load_from(None, env(&[("SSO_BRIDGE__OIDC__SIGNING_ALG", "HS256")]))
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("`oidc.signing_alg`") && err.contains("`RS256` or `ES256`"),
            "{err}"
        );
        let s =
            Settings::load_from(None, env(&[("SSO_BRIDGE__OIDC__SIGNING_ALG", "ES256")])).unwrap();
        assert_eq!(s.oidc.signing_alg, crate::domain::SigningAlg::Es256);
    }

    #[test]
    fn logs_are_text_unless_json_is_asked_for() {
        let s = Settings::load_from(None, env(&[])).unwrap();
        assert_eq!(s.log.format, LogFormat::Text);
        let s = Settings::load_from(None, env(&[("SSO_BRIDGE__LOG__FORMAT", "json")])).unwrap();
        assert_eq!(s.log.format, LogFormat::Json);
        let err = Settings::load_from(None, env(&[("SSO_BRIDGE__LOG__FORMAT", "yaml")]))
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("`log.format`") && err.contains("`text` or `json`"),
            "{err}"
        );
    }

    #[test]
    fn metrics_are_on_the_public_listener_unless_an_address_of_their_own_is_set() {
        let s = Settings::load_from(None, env(&[])).unwrap();
        assert_eq!(s.server.metrics_listen, None);
        assert_eq!(s.server.shutdown_grace, Duration::from_secs(30));
        let s = Settings::load_from(
            None,
            env(&[("SSO_BRIDGE__SERVER__METRICS_LISTEN", "127.0.0.1:9100")]),
        )
        .unwrap();
        assert_eq!(
            s.server.metrics_listen.map(|a| a.to_string()).as_deref(),
            Some("127.0.0.1:9100")
        );
        let err = Settings::load_from(
            None,
            env(&[
                ("SSO_BRIDGE__SERVER__LISTEN", "127.0.0.1:9100"),
                ("SSO_BRIDGE__SERVER__METRICS_LISTEN", "127.0.0.1:9100"),
            ]),
        )
        .unwrap_err()
        .to_string();
        assert!(err.contains("server.metrics_listen"), "{err}");
        for (grace, says) in [("0", "greater than 0"), ("601", "at most 600")] {
            let err = Settings::load_from(
                None,
                env(&[("SSO_BRIDGE__SERVER__SHUTDOWN_GRACE_SECS", grace)]),
            )
            .unwrap_err()
            .to_string();
            assert!(err.contains("server.shutdown_grace_secs"), "{err}");
            assert!(err.contains(says), "{err}");
        }
        let longest = Settings::load_from(
            None,
            env(&[("SSO_BRIDGE__SERVER__SHUTDOWN_GRACE_SECS", "600")]),
        )
        .expect("ten minutes is allowed");
        assert_eq!(longest.server.shutdown_grace, Duration::from_secs(600));
    }

    #[test]
    fn an_unknown_key_is_refused() {
        let err = Settings::load_from(None, env(&[("SSO_BRIDGE__STORE__REDIS_ULR", "x")]))
            .unwrap_err()
            .to_string();
        assert!(err.contains("redis_ulr"), "{err}");
    }
}
