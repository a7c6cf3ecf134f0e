//! `[store]`: where codes, tokens, sessions and registered apps are kept.

use super::value;
use secrecy::SecretString;
use serde::Deserialize;
use std::time::Duration;

/// Which store backend.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StoreBackend {
    /// This process only: lost on restart, not shared between nodes.
    Memory,
    /// A Redis server (`store.redis_url`).
    Redis,
}

impl<'de> Deserialize<'de> for StoreBackend {
    fn deserialize<D: serde::Deserializer<'de>>(de: D) -> Result<Self, D::Error> {
        value::choice(de, &[("memory", Self::Memory), ("redis", Self::Redis)])
    }
}

/// `[store]`
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StoreSettings {
    /// Which backend.
    pub backend: StoreBackend,
    /// `redis://` or `rediss://` URL (may carry a password; never logged).
    pub redis_url: SecretString,
    /// Prefix of every key, so several deployments can share one Redis.
    pub key_prefix: String,
    /// Connections in the Redis pool.
    #[serde(deserialize_with = "value::positive")]
    pub pool_size: usize,
    /// `store.timeout_ms`: timeout of one store operation, including waiting for a pooled
    /// connection.
    #[serde(rename = "timeout_ms", deserialize_with = "value::positive_millis")]
    pub timeout: Duration,
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

    fn redis(pairs: &[(&str, &str)]) -> Settings {
        let mut env = vec![("SSO_BRIDGE__STORE__BACKEND", "redis")];
        env.extend_from_slice(pairs);
        let env = env.iter().map(|(k, v)| (k.to_string(), v.to_string()));
        Settings::load_from(None, env.collect::<Vec<_>>()).unwrap()
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
    fn the_memory_store_needs_no_secret() {
        let memory = Settings::load_from(None, Vec::new()).unwrap();
        assert!(memory.check_store_secrets().is_ok());
    }
}
