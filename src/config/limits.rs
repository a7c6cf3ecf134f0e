//! `[limits]`: sliding-window limits on failed password and second-factor attempts.

use super::ConfigError;
use serde::Deserialize;

/// `[limits]` sliding-window attempt limits, shared by every node through the store.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LimitSettings {
    /// Length of the sliding window.
    pub window_secs: u64,
    /// Failed password attempts per username within the window.
    pub password_per_account: u64,
    /// Failed second-factor attempts per account within the window.
    pub otp_per_account: u64,
    /// Failed password or second-factor attempts per client address within the window.
    pub per_address: u64,
}

impl LimitSettings {
    /// Every limit must allow at least one attempt in a window of at least one second.
    pub(super) fn check(&self) -> Result<(), ConfigError> {
        for (name, value) in [
            ("limits.window_secs", self.window_secs),
            ("limits.password_per_account", self.password_per_account),
            ("limits.otp_per_account", self.otp_per_account),
            ("limits.per_address", self.per_address),
        ] {
            if value == 0 {
                return Err(ConfigError::key(name, "must be greater than 0"));
            }
        }
        Ok(())
    }
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
