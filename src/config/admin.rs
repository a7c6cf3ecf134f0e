//! `[admin]`: the admin API's tokens and the admin screen's idle timeout.

use super::value;
use serde::Deserialize;
use std::time::Duration;

/// `[admin]` API and screen; the keys give the durations in seconds.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AdminSettings {
    /// `admin.token_ttl_secs`: lifetime of an admin API token.
    #[serde(rename = "token_ttl_secs", deserialize_with = "value::positive_secs")]
    pub token_ttl: Duration,
    /// `admin.session_idle_secs`: the admin screen signs out after this long without a request.
    #[serde(
        rename = "session_idle_secs",
        deserialize_with = "value::positive_secs"
    )]
    pub session_idle: Duration,
}
