//! The lockout guard: the per-account password limit kept under the directory's own lockout
//! policy, so that guessing through sso-bridge can never lock a real account.
//!
//! Active Directory locks an account at `lockoutThreshold` wrong passwords, and forgets them
//! only after `lockOutObservationWindow` passes with no wrong password at all: its count is not
//! a sliding window. sso-bridge therefore lets at most `threshold − 2` wrong passwords per
//! account reach the directory (one more typed at a workstation still locks nothing), and counts
//! them over `limit × window` (and a minute for clocks): `limit + 1` wrong passwords, each within
//! the window of the one before, span at most `limit × window`, so they can never all reach the
//! directory; once they span more, the directory has seen a quiet spell and started afresh.
//!
//! OpenLDAP's password policy (`ppolicy`) locks at `pwdMaxFailure` and forgets a wrong password
//! `pwdFailureCountInterval` seconds after it was made (a sliding window, which the same rule
//! covers with room); with no interval it forgets them only at a correct password. sso-bridge
//! then counts an account's wrong passwords until a correct one, as the directory does.

use super::Context;
use crate::config::LimitSettings;
use crate::directory::{DirectoryError, LockoutPolicy};
use std::time::Duration;

/// Slack for the directory's clock and sso-bridge's ticking apart, and for whole seconds.
const CLOCK_MARGIN: Duration = Duration::from_secs(60);

/// How long failures are counted when the directory forgets them only at a correct password:
/// a year, longer than any account goes without one.
const UNTIL_SUCCESS: Duration = Duration::from_secs(365 * 86_400);

/// The per-account password limit in force, and the window it counts over.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PasswordLimit {
    /// Failed password attempts allowed per account within the window.
    pub per_account: u64,
    /// The window.
    pub window: Duration,
    /// Whether a correct password empties the account's window (the directory counts wrong
    /// passwords until then, whenever they were made).
    pub until_success: bool,
}

/// The limit `settings` give, lowered and lengthened to stay under the directory's `policy`.
pub fn password_limit(settings: &LimitSettings, policy: Option<LockoutPolicy>) -> PasswordLimit {
    let configured = PasswordLimit {
        per_account: settings.password_per_account,
        window: settings.window,
        until_success: false,
    };
    let Some(policy) = policy.filter(|p| p.threshold > 0) else {
        return configured;
    };
    // A threshold of 1 or 2 leaves no margin at all; one attempt is the least that lets anyone
    // sign in.
    let per_account = configured.per_account.min(allowed(policy)).max(1);
    let Some(observation_window) = policy.observation_window else {
        return PasswordLimit {
            per_account,
            window: UNTIL_SUCCESS,
            until_success: true,
        };
    };
    let spread = observation_window
        .saturating_mul(u32::try_from(per_account).unwrap_or(u32::MAX))
        .saturating_add(CLOCK_MARGIN);
    PasswordLimit {
        per_account,
        window: configured.window.max(spread),
        until_success: false,
    }
}

/// The most wrong passwords per account the policy leaves sso-bridge: two below the threshold.
fn allowed(policy: LockoutPolicy) -> u64 {
    policy.threshold.saturating_sub(2)
}

/// Reads the directory's lockout policy and says in the log what it makes of the limit,
/// warning when `limits.password_per_account` is above what the policy allows. Answers whether
/// the directory has a policy at all (when not, there is nothing to read again later).
pub async fn announce(cx: &impl Context) -> Result<bool, DirectoryError> {
    let Some(policy) = cx.directory().lockout_policy().await? else {
        return Ok(false);
    };
    let settings = cx.limit_settings();
    let limit = password_limit(settings, Some(policy));
    let threshold = policy.threshold;
    // 0: failures are forgotten only at a correct password.
    let observation_secs = policy.observation_window.map_or(0, |w| w.as_secs());
    let (per_account, window_secs) = (limit.per_account, limit.window.as_secs());
    if threshold == 0 {
        tracing::info!(
            "the directory locks no account out; limits.password_per_account applies as set"
        );
    } else if settings.password_per_account > allowed(policy) {
        tracing::warn!(
            configured = settings.password_per_account,
            threshold,
            observation_secs,
            per_account,
            window_secs,
            "limits.password_per_account is above the directory's lockout threshold minus 2: sso-bridge counts at most per_account wrong passwords per account over window_secs instead, so that guessing through it cannot lock accounts out"
        );
    } else {
        tracing::info!(
            threshold,
            observation_secs,
            per_account,
            window_secs,
            "the password limit stays under the directory's lockout policy"
        );
    }
    Ok(true)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settings(per_account: u64, window_secs: u64) -> LimitSettings {
        LimitSettings {
            window: Duration::from_secs(window_secs),
            password_per_account: per_account,
            otp_per_account: 5,
            per_address: 50,
            per_ipv6_48: 200,
        }
    }

    fn ad(threshold: u64, window_secs: u64) -> Option<LockoutPolicy> {
        Some(LockoutPolicy {
            threshold,
            observation_window: Some(Duration::from_secs(window_secs)),
        })
    }

    #[test]
    fn the_limit_stays_two_below_the_threshold_and_counts_over_limit_windows() {
        let limit = password_limit(&settings(10, 900), ad(5, 1800));
        assert_eq!(limit.per_account, 3);
        assert_eq!(limit.window, Duration::from_secs(3 * 1800 + 60));
    }

    #[test]
    fn a_directory_that_forgets_only_at_a_success_is_counted_until_one() {
        let policy = Some(LockoutPolicy {
            threshold: 5,
            observation_window: None,
        });
        let limit = password_limit(&settings(10, 900), policy);
        assert_eq!(limit.per_account, 3);
        assert!(limit.until_success);
        assert!(limit.window >= Duration::from_secs(365 * 86_400));
    }

    #[test]
    fn a_lower_configured_limit_and_a_longer_window_are_kept() {
        let limit = password_limit(&settings(2, 86_400), ad(10, 1800));
        assert_eq!(limit.per_account, 2);
        assert_eq!(limit.window, Duration::from_secs(86_400));
    }

    #[test]
    fn without_a_lockout_the_settings_apply_and_a_tiny_threshold_still_allows_one_attempt() {
        assert_eq!(
            password_limit(&settings(10, 900), None),
            password_limit(&settings(10, 900), ad(0, 1800))
        );
        assert_eq!(password_limit(&settings(10, 900), None).per_account, 10);
        assert_eq!(password_limit(&settings(10, 900), ad(2, 60)).per_account, 1);
    }

    /// Active Directory's count: a wrong password within the window of the previous one adds
    /// one, after a quiet spell it starts again at one (a success aside).
    fn directory_count(failures: &[u64], window: u64) -> u64 {
        let mut count = 0;
        let mut last: Option<u64> = None;
        let mut highest = 0;
        for &at in failures {
            count = match last {
                Some(before) if at - before <= window => count + 1,
                _ => 1,
            };
            last = Some(at);
            highest = highest.max(count);
        }
        highest
    }

    /// The attempts of `tries` (seconds) a sliding limit lets through to the directory.
    fn let_through(tries: &[u64], limit: PasswordLimit) -> Vec<u64> {
        let window = limit.window.as_secs();
        let mut passed: Vec<u64> = Vec::new();
        for &at in tries {
            let recent = passed.iter().filter(|&&p| p + window > at).count() as u64;
            if recent < limit.per_account {
                passed.push(at);
            }
        }
        passed
    }

    #[test]
    fn guesses_at_any_steady_pace_never_reach_the_threshold() {
        let (threshold, observation) = (5, 1800);
        let limit = password_limit(&settings(10, 900), ad(threshold, observation));
        for pace in [1, 59, 600, 601, 1799, 1800, 1801, 3600] {
            let tries: Vec<u64> = (0..500).map(|n| n * pace).collect();
            let reached = directory_count(&let_through(&tries, limit), observation);
            assert!(reached <= threshold - 2, "every {pace} s: {reached}");
        }
        // A window only as long as the directory's would not do: one guess every 11 minutes
        // stays under 3 per 30 minutes yet never gives the directory a quiet spell.
        let naive = PasswordLimit {
            per_account: 3,
            window: Duration::from_secs(observation),
            until_success: false,
        };
        let tries: Vec<u64> = (0..20).map(|n| n * 660).collect();
        assert!(directory_count(&let_through(&tries, naive), observation) >= threshold);
    }
}
