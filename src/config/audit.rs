//! `[audit]`: how long, and how many, audit events the store keeps.

use super::value;
use serde::Deserialize;
use std::time::Duration;

/// `[audit]` log.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AuditSettings {
    /// `audit.retention_days`: how long audit events are kept in the store.
    #[serde(rename = "retention_days", deserialize_with = "value::positive_days")]
    pub retention: Duration,
    /// How many audit events the store keeps at most (the newest); the log has every one.
    pub max_events: usize,
}
