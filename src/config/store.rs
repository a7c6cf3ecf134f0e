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
