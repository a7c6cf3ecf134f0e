//! `[tokens]`: lifetimes of authorization codes, access tokens and refresh tokens.

use super::ConfigError;
use serde::Deserialize;

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

impl TokenSettings {
    /// A token that expires as it is issued is no token.
    pub(super) fn check(&self) -> Result<(), ConfigError> {
        for (name, value) in [
            ("tokens.access_ttl_secs", self.access_ttl_secs),
            ("tokens.refresh_ttl_secs", self.refresh_ttl_secs),
            ("tokens.code_ttl_secs", self.code_ttl_secs),
        ] {
            if value == 0 {
                return Err(ConfigError::key(name, "must be greater than 0"));
            }
        }
        Ok(())
    }
}
