//! `[store]`: where codes, tokens, sessions and registered apps are kept: this process, one
//! Redis server, or the Redis master that Redis Sentinel names.

use super::secret::SecretSetting;
use super::{value, ConfigError};
use secrecy::{ExposeSecret, SecretString};
use serde::Deserialize;
use std::path::PathBuf;
use std::time::Duration;

/// Which store backend.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StoreBackend {
    /// This process only: lost on restart, not shared between nodes.
    Memory,
    /// Redis: the server of `store.redis_url`, or the master Sentinel names.
    Redis,
}

impl<'de> Deserialize<'de> for StoreBackend {
    fn deserialize<D: serde::Deserializer<'de>>(de: D) -> Result<Self, D::Error> {
        value::choice(de, &[("memory", Self::Memory), ("redis", Self::Redis)])
    }
}

/// `[store]`, checked.
#[derive(Debug, Clone)]
pub struct StoreSettings {
    /// Which backend.
    pub backend: StoreBackend,
    /// `redis://` or `rediss://` URL (may carry a password; never logged). Not used when
    /// `sentinel` is set.
    pub redis_url: SecretString,
    /// `store.password`, or the first line of `store.password_file`: the password of the Redis
    /// server(s) holding the data, for a password kept out of `redis_url`, and the one the
    /// master named by Sentinel is reached with.
    pub password: Option<SecretString>,
    /// Redis through Sentinel (`store.sentinel_urls` set), in place of `redis_url`.
    pub sentinel: Option<SentinelSettings>,
    /// Prefix of every key, so several deployments can share one Redis.
    pub key_prefix: String,
    /// Connections to Redis, each shared by many requests at once.
    pub pool_size: usize,
    /// `store.timeout_ms`: timeout of one store operation, opening a connection included.
    pub timeout: Duration,
}

/// The sentinels that monitor the Redis master, and how to ask them.
#[derive(Debug, Clone)]
pub struct SentinelSettings {
    /// `store.sentinel_urls`: each sentinel, `redis://host:port` or `rediss://host:port` (port
    /// 26379 when left out), without credentials.
    pub urls: Vec<url::Url>,
    /// `store.sentinel_master`: the name the sentinels know the master by.
    pub master: String,
    /// `store.sentinel_password`, or the first line of `store.sentinel_password_file`: what the
    /// sentinels require (their `requirepass`).
    pub password: Option<SecretString>,
}

impl SentinelSettings {
    /// Whether the sentinels, and so the servers they name, are reached over TLS (`rediss://`).
    pub fn tls(&self) -> bool {
        self.urls.iter().any(|url| url.scheme() == "rediss")
    }
}

/// `[store]` as the layers give it.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct StoreKeys {
    backend: StoreBackend,
    redis_url: SecretString,
    password: Option<SecretString>,
    password_file: Option<PathBuf>,
    #[serde(deserialize_with = "value::url_list")]
    sentinel_urls: Vec<String>,
    sentinel_master: String,
    sentinel_password: Option<SecretString>,
    sentinel_password_file: Option<PathBuf>,
    key_prefix: String,
    #[serde(deserialize_with = "value::pool_size")]
    pool_size: usize,
    #[serde(deserialize_with = "value::timeout_millis")]
    timeout_ms: Duration,
}

impl StoreKeys {
    /// Checks the Redis keys and reads their secret files, when the Redis backend uses them.
    pub(super) fn check(self) -> Result<StoreSettings, ConfigError> {
        let redis = self.backend == StoreBackend::Redis;
        let password = SecretSetting {
            value: self.password,
            file: self.password_file,
        };
        let sentinel_password = SecretSetting {
            value: self.sentinel_password,
            file: self.sentinel_password_file,
        };
        let (password, sentinel) = if redis {
            let password = password.resolve("store.password")?;
            if password.is_some() && url_has_password(&self.redis_url) {
                return Err(ConfigError::key(
                    "store.password",
                    "store.redis_url carries a password too; keep it in one place",
                ));
            }
            let sentinel = sentinels(
                &self.sentinel_urls,
                self.sentinel_master,
                sentinel_password.resolve("store.sentinel_password")?,
            )?;
            (password, sentinel)
        } else {
            (None, None)
        };
        Ok(StoreSettings {
            backend: self.backend,
            redis_url: self.redis_url,
            password,
            sentinel,
            key_prefix: self.key_prefix,
            pool_size: self.pool_size,
            timeout: self.timeout_ms,
        })
    }
}

/// Whether `url` names a password (`redis://:secret@host` or `redis://user:secret@host`).
fn url_has_password(url: &SecretString) -> bool {
    url::Url::parse(url.expose_secret()).is_ok_and(|url| url.password().is_some())
}

/// The sentinel settings, when `store.sentinel_urls` names any; the master's name must be set
/// with them, and neither alone.
fn sentinels(
    urls: &[String],
    master: String,
    password: Option<SecretString>,
) -> Result<Option<SentinelSettings>, ConfigError> {
    let master = master.trim().to_owned();
    match (urls.is_empty(), master.is_empty()) {
        (true, true) => return Ok(None),
        (false, true) => {
            return Err(ConfigError::key(
                "store.sentinel_master",
                "store.sentinel_urls is set; name the master the sentinels monitor too",
            ))
        }
        (true, false) => {
            return Err(ConfigError::key(
                "store.sentinel_urls",
                "store.sentinel_master is set; list the sentinels too",
            ))
        }
        (false, false) => {}
    }
    let urls = urls
        .iter()
        .map(|item| sentinel_url(item))
        .collect::<Result<Vec<_>, _>>()?;
    if urls.iter().any(|url| url.scheme() != urls[0].scheme()) {
        return Err(ConfigError::key(
            "store.sentinel_urls",
            "mixes redis:// and rediss://; reach every sentinel the same way",
        ));
    }
    Ok(Some(SentinelSettings {
        urls,
        master,
        password,
    }))
}

/// One sentinel: `redis://` or `rediss://`, a host, an optional port, nothing else. A password
/// belongs in `store.sentinel_password`, where it can come from a file and is never printed.
fn sentinel_url(item: &str) -> Result<url::Url, ConfigError> {
    // An item that may hold a password is not repeated.
    let shown = if item.contains('@') {
        "a sentinel URL".to_owned()
    } else {
        format!("`{item}`")
    };
    let refuse = |why: &str| ConfigError::key("store.sentinel_urls", format!("{shown} {why}"));
    let url = url::Url::parse(item)
        .map_err(|_| refuse("is not a redis:// or rediss:// URL naming a host"))?;
    if !matches!(url.scheme(), "redis" | "rediss") || url.host_str().is_none_or(str::is_empty) {
        return Err(refuse("is not a redis:// or rediss:// URL naming a host"));
    }
    if !url.username().is_empty() || url.password().is_some() {
        return Err(ConfigError::key(
            "store.sentinel_urls",
            "a sentinel URL carries credentials; set store.sentinel_password instead",
        ));
    }
    if !matches!(url.path(), "" | "/") || url.query().is_some() {
        return Err(refuse("has more than a host and a port"));
    }
    Ok(url)
}

/// The secrets the Redis store needs: what it keeps outlives the process and may be copied
/// with it (backups, replicas), so nothing in it may be usable alone.
impl super::Settings {
    /// Refuses the Redis store without `mfa.encryption_key` (it encrypts second-factor
    /// secrets) or without `oidc.key_encryption_secret` (it encrypts a generated id_token
    /// signing key) unless `oidc.signing_key_file` keeps the signing key out of the store. One
    /// error names every missing key and how to make one. The memory store needs neither: it
    /// dies with the process.
    pub fn check_store_secrets(&self) -> Result<(), super::ConfigError> {
        if self.store.backend == StoreBackend::Memory {
            return Ok(());
        }
        let mut keys = Vec::new();
        let mut variables = Vec::new();
        if self.mfa.encryption_key.is_none() {
            keys.push("mfa.encryption_key (or mfa.encryption_key_file)");
            variables.push("SSO_BRIDGE__MFA__ENCRYPTION_KEY");
        }
        if self.oidc.key_encryption_secret.is_none() && self.oidc.signing_key_file.is_none() {
            keys.push("oidc.key_encryption_secret (or oidc.signing_key_file)");
            variables.push("SSO_BRIDGE__OIDC__KEY_ENCRYPTION_SECRET");
        }
        if keys.is_empty() {
            return Ok(());
        }
        Err(super::ConfigError::Invalid(format!(
            "the redis store needs {}: make each secret with `openssl rand -base64 32` and set it in the configuration file or the environment ({})",
            keys.join(" and "),
            variables.join(", ")
        )))
    }
}

#[cfg(test)]
mod tests {
    use crate::config::Settings;
    use secrecy::ExposeSecret;

    fn redis_env(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
        let mut env = vec![("SSO_BRIDGE__STORE__BACKEND", "redis")];
        env.extend_from_slice(pairs);
        env.iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    fn redis(pairs: &[(&str, &str)]) -> Settings {
        Settings::load_from(None, redis_env(pairs)).unwrap()
    }

    /// Why the Redis settings `pairs` are refused.
    fn load(pairs: &[(&str, &str)]) -> String {
        Settings::load_from(None, redis_env(pairs))
            .unwrap_err()
            .to_string()
    }

    const MFA: (&str, &str) = ("SSO_BRIDGE__MFA__ENCRYPTION_KEY", "bWZh");
    const SEAL: (&str, &str) = ("SSO_BRIDGE__OIDC__KEY_ENCRYPTION_SECRET", "c2VhbA");

    #[test]
    fn the_redis_store_names_every_missing_secret_in_one_line() {
        let err = redis(&[]).check_store_secrets().unwrap_err().to_string();
        assert!(
            err.starts_with("configuration: the redis store needs mfa.encryption_key (or mfa.encryption_key_file) and oidc.key_encryption_secret (or oidc.signing_key_file)"),
            "{err}"
        );
        assert!(
            err.contains("openssl rand -base64 32") && !err.contains('\n'),
            "{err}"
        );
        let err = redis(&[SEAL])
            .check_store_secrets()
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("mfa.encryption_key") && !err.contains("oidc."),
            "{err}"
        );
        let err = redis(&[MFA]).check_store_secrets().unwrap_err().to_string();
        assert!(
            err.contains("oidc.key_encryption_secret") && !err.contains("mfa."),
            "{err}"
        );
    }

    #[test]
    fn the_redis_store_starts_with_both_secrets_or_a_signing_key_file() {
        assert!(redis(&[MFA, SEAL]).check_store_secrets().is_ok());
        let file = (
            "SSO_BRIDGE__OIDC__SIGNING_KEY_FILE",
            "/etc/sso-bridge/key.pem",
        );
        assert!(redis(&[MFA, file]).check_store_secrets().is_ok());
    }

    #[test]
    fn sentinels_are_listed_with_commas_or_spaces_and_replace_the_redis_url() {
        let s = redis(&[
            (
                "SSO_BRIDGE__STORE__SENTINEL_URLS",
                "redis://10.0.0.1:26379, redis://10.0.0.2  redis://sentinel-3.internal:26380",
            ),
            ("SSO_BRIDGE__STORE__SENTINEL_MASTER", "sso"),
            ("SSO_BRIDGE__STORE__SENTINEL_PASSWORD", "s3ntinel"),
        ]);
        let sentinel = s.store.sentinel.unwrap();
        let hosts: Vec<_> = sentinel
            .urls
            .iter()
            .map(|u| (u.host_str().unwrap().to_owned(), u.port()))
            .collect();
        assert_eq!(
            hosts,
            [
                ("10.0.0.1".to_owned(), Some(26379)),
                ("10.0.0.2".to_owned(), None),
                ("sentinel-3.internal".to_owned(), Some(26380)),
            ]
        );
        assert_eq!(sentinel.master, "sso");
        assert!(!sentinel.tls());
        assert_eq!(sentinel.password.unwrap().expose_secret(), "s3ntinel");
        assert!(redis(&[]).store.sentinel.is_none());
    }

    #[test]
    fn sentinels_and_the_master_name_go_together() {
        let err = load(&[("SSO_BRIDGE__STORE__SENTINEL_URLS", "redis://10.0.0.1")]);
        assert!(err.contains("`store.sentinel_master`"), "{err}");
        let err = load(&[("SSO_BRIDGE__STORE__SENTINEL_MASTER", "sso")]);
        assert!(err.contains("`store.sentinel_urls`"), "{err}");
    }

    #[test]
    fn a_sentinel_url_with_credentials_or_another_scheme_is_refused_without_repeating_it() {
        for (bad, says) in [
            ("redis://:hunter2@10.0.0.1:26379", "store.sentinel_password"),
            ("redis://admin:hunter2@10.0.0.1", "store.sentinel_password"),
            ("http://10.0.0.1:26379", "is not a redis://"),
            ("redis://10.0.0.1:26379/2", "more than a host and a port"),
            ("redis://", "is not a redis://"),
            (
                "redis://10.0.0.1 rediss://10.0.0.2",
                "mixes redis:// and rediss://",
            ),
        ] {
            let err = load(&[
                ("SSO_BRIDGE__STORE__SENTINEL_URLS", bad),
                ("SSO_BRIDGE__STORE__SENTINEL_MASTER", "sso"),
            ]);
            assert!(err.contains("`store.sentinel_urls`"), "{bad}: {err}");
            assert!(err.contains(says), "{bad}: {err}");
            assert!(!err.contains("hunter2"), "{bad}: {err}");
        }
    }

    #[test]
    fn the_data_password_comes_from_a_file_or_the_url_but_not_both() {
        let mut file = tempfile::NamedTempFile::new().unwrap();
        std::io::Write::write_all(&mut file, b"from-file\n").unwrap();
        let path = file.path().to_str().unwrap();
        let s = redis(&[("SSO_BRIDGE__STORE__PASSWORD_FILE", path)]);
        assert_eq!(s.store.password.unwrap().expose_secret(), "from-file");
        let err = load(&[
            ("SSO_BRIDGE__STORE__PASSWORD", "pw"),
            (
                "SSO_BRIDGE__STORE__REDIS_URL",
                "redis://:other@127.0.0.1:6379",
            ),
        ]);
        assert!(err.contains("`store.password`"), "{err}");
        assert!(!err.contains("other"), "{err}");
    }

    #[test]
    fn the_memory_store_reads_no_redis_setting() {
        let env = [
            ("SSO_BRIDGE__STORE__SENTINEL_URLS", "redis://10.0.0.1"),
            ("SSO_BRIDGE__STORE__PASSWORD_FILE", "/nonexistent"),
        ];
        let env = env.iter().map(|(k, v)| (k.to_string(), v.to_string()));
        let s = Settings::load_from(None, env.collect::<Vec<_>>()).unwrap();
        assert!(s.store.sentinel.is_none() && s.store.password.is_none());
    }

    #[test]
    fn the_memory_store_needs_no_secret() {
        let memory = Settings::load_from(None, Vec::new()).unwrap();
        assert!(memory.check_store_secrets().is_ok());
    }
}
