//! `[audit]`: how long, and how many, audit events the store keeps.

use super::ConfigError;
use serde::Deserialize;

/// `[audit]` log.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AuditSettings {
    /// How long audit events are kept in the store.
    pub retention_days: u64,
    /// How many audit events the store keeps at most (the newest); the log has every one.
    pub max_events: usize,
}

impl AuditSettings {
    /// Events dropped as they are recorded would leave the audit screen empty.
    pub(super) fn check(&self) -> Result<(), ConfigError> {
        if self.retention_days == 0 {
            return Err(ConfigError::key(
                "audit.retention_days",
                "must be greater than 0",
            ));
        }
        Ok(())
    }
}
