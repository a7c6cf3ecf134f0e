//! `[session]`: browser sign-in, single sign-on and remembered consent.

use super::value;
use serde::Deserialize;
use std::time::Duration;

/// `[session]` browser sign-in; the keys give the durations in seconds.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SessionSettings {
    /// `session.ttl_secs`: how long a sign-in lasts for single sign-on.
    #[serde(rename = "ttl_secs", deserialize_with = "value::positive_secs")]
    pub ttl: Duration,
    /// `session.request_ttl_secs`: how long an unfinished authorize request (sign-in, consent)
    /// waits.
    #[serde(rename = "request_ttl_secs", deserialize_with = "value::positive_secs")]
    pub request_ttl: Duration,
    /// `session.consent_ttl_secs`: how long an approval is remembered; 0 asks every time.
    #[serde(rename = "consent_ttl_secs", deserialize_with = "value::secs")]
    pub consent_ttl: Duration,
    /// `session.directory_recheck_secs`: how old the directory's confirmation of a signed-in
    /// user may be before a single sign-on (or the admin screen or API) asks the directory
    /// again; 0 asks every time.
    #[serde(rename = "directory_recheck_secs", deserialize_with = "value::secs")]
    pub directory_recheck: Duration,
    /// `session.requests_per_browser`: how many unfinished authorize requests one browser (its
    /// flow cookie) may have; a newer one ends the oldest.
    #[serde(deserialize_with = "value::positive")]
    pub requests_per_browser: u64,
    /// `session.requests_per_address`: how many unfinished authorize requests one client
    /// address (an IPv6 address by its /64 network) may have; past it, a newer one is refused.
    #[serde(deserialize_with = "value::positive")]
    pub requests_per_address: u64,
    /// `session.requests_total`: how many unfinished authorize requests the store keeps in
    /// all; past it, a newer one is refused.
    #[serde(deserialize_with = "value::positive")]
    pub requests_total: u64,
    /// `session.request_bytes_total`: how many bytes of unfinished authorize requests the
    /// store keeps in all; past it, a newer one is refused.
    #[serde(deserialize_with = "value::positive")]
    pub request_bytes_total: u64,
}
