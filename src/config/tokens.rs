//! `[tokens]`: lifetimes of authorization codes, access tokens and refresh tokens.

use super::value;
use serde::Deserialize;
use std::time::Duration;

/// `[tokens]` lifetimes; the keys give them in seconds.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TokenSettings {
    /// `tokens.access_ttl_secs`: lifetime of an access token.
    #[serde(rename = "access_ttl_secs", deserialize_with = "value::positive_secs")]
    pub access_ttl: Duration,
    /// `tokens.refresh_ttl_secs`: lifetime of a refresh token.
    #[serde(rename = "refresh_ttl_secs", deserialize_with = "value::positive_secs")]
    pub refresh_ttl: Duration,
    /// `tokens.code_ttl_secs`: lifetime of an authorization code.
    #[serde(rename = "code_ttl_secs", deserialize_with = "value::code_secs")]
    pub code_ttl: Duration,
    /// `tokens.refresh_grace_secs`: a retried refresh within this window gets the same
    /// successor instead of a theft alarm; 0 allows no retry.
    #[serde(rename = "refresh_grace_secs", deserialize_with = "value::secs")]
    pub refresh_grace: Duration,
}
