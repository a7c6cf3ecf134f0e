//! `[session]`: browser sign-in, single sign-on and remembered consent.

use super::ConfigError;
use serde::Deserialize;

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

impl SessionSettings {
    /// A session or request that expires at once could never be finished.
    pub(super) fn check(&self) -> Result<(), ConfigError> {
        for (name, value) in [
            ("session.ttl_secs", self.ttl_secs),
            ("session.request_ttl_secs", self.request_ttl_secs),
        ] {
            if value == 0 {
                return Err(ConfigError::key(name, "must be greater than 0"));
            }
        }
        Ok(())
    }
}
