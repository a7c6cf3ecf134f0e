//! `[limits]`: sliding-window limits on failed password and second-factor attempts.
//!
//! Every limit must allow at least one attempt in a window of at least one second, so each is
//! read as a count greater than 0.

use super::value;
use serde::Deserialize;
use std::time::Duration;

/// `[limits]` sliding-window attempt limits, shared by every node through the store.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LimitSettings {
    /// `limits.window_secs`: length of the sliding window.
    #[serde(rename = "window_secs", deserialize_with = "value::positive_secs")]
    pub window: Duration,
    /// Failed password attempts per username within the window.
    #[serde(deserialize_with = "value::positive")]
    pub password_per_account: u64,
    /// Failed second-factor attempts per account within the window.
    #[serde(deserialize_with = "value::positive")]
    pub otp_per_account: u64,
    /// Failed password or second-factor attempts per client address within the window: an
    /// IPv4 address, or an IPv6 /64 network (one host commonly holds a whole /64).
    #[serde(deserialize_with = "value::positive")]
    pub per_address: u64,
    /// Failed attempts per IPv6 /48 network (a site) within the window: looser than
    /// `per_address`, so that one site cannot spread guesses over its 65,536 /64s.
    #[serde(deserialize_with = "value::positive")]
    pub per_ipv6_48: u64,
}

#[cfg(test)]
mod tests {
    use crate::config::Settings;

    #[test]
    fn a_zero_limit_is_refused() {
        let env = [(
            "SSO_BRIDGE__LIMITS__OTP_PER_ACCOUNT".to_owned(),
            "0".to_owned(),
        )];
        let err = Settings::load_from(None, env).unwrap_err().to_string();
        assert!(err.contains("limits.otp_per_account"), "{err}");
    }
}
