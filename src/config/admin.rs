//! `[admin]`: the admin API's tokens and the admin screen's idle timeout.

use super::ConfigError;
use serde::Deserialize;

/// `[admin]` API.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AdminSettings {
    /// Lifetime of an admin API token.
    pub token_ttl_secs: u64,
    /// The admin screen signs out after this long without a request.
    pub session_idle_secs: u64,
}

impl AdminSettings {
    /// A token or screen session that expires at once could never be used.
    pub(super) fn check(&self) -> Result<(), ConfigError> {
        for (name, value) in [
            ("admin.token_ttl_secs", self.token_ttl_secs),
            ("admin.session_idle_secs", self.session_idle_secs),
        ] {
            if value == 0 {
                return Err(ConfigError::key(name, "must be greater than 0"));
            }
        }
        Ok(())
    }
}
