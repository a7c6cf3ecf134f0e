//! The directory's lockout policy, read on first need and again once it is about an hour old,
//! so sso-bridge's attempt limits can stay under it: Active Directory's domain policy
//! (`lockoutThreshold`, `lockOutObservationWindow` of the domain's entry), or the OpenLDAP
//! password policy entry `directory.password_policy_dn` names (`pwdLockout`, `pwdMaxFailure`,
//! `pwdFailureCountInterval`).

use super::LdapDirectory;
use crate::config::DirectoryFlavor;
use crate::directory::{DirectoryError, LockoutPolicy};
use ldap3::Scope;
use std::time::Duration;
use tokio::sync::Mutex;
use tokio::time::Instant;

/// How long a policy read is trusted before it is read again: a little under the hour after
/// which start-up's watch asks again, so that each hourly ask reads the domain.
const MAX_AGE: Duration = Duration::from_secs(3540);
const THRESHOLD: &str = "lockoutThreshold";
const PWD_LOCKOUT: &str = "pwdLockout";
const PWD_MAX_FAILURE: &str = "pwdMaxFailure";
const PWD_FAILURE_COUNT_INTERVAL: &str = "pwdFailureCountInterval";
const OBSERVATION_WINDOW: &str = "lockOutObservationWindow";
/// 100-nanosecond intervals per second: AD writes durations as negative counts of them.
const INTERVALS_PER_SEC: u64 = 10_000_000;

/// The last policy read, and when.
#[derive(Debug, Default)]
pub(super) struct PolicyCache(Mutex<Option<(Instant, LockoutPolicy)>>);

impl LdapDirectory {
    /// The directory's lockout policy; `None` for a generic server without
    /// `directory.password_policy_dn`. A read that fails keeps the last policy known, if any:
    /// the directory is then likely down anyway.
    pub(super) async fn read_lockout_policy(
        &self,
    ) -> Result<Option<LockoutPolicy>, DirectoryError> {
        if self.flavor != DirectoryFlavor::ActiveDirectory && self.password_policy_dn.is_none() {
            return Ok(None);
        }
        // Held across the read, so sign-ins arriving together read the policy once. Waiting for
        // it has the budget of a read too: behind a directory that does not answer, each
        // sign-in waits for one read, not for every read queued before it.
        let mut cached = tokio::time::timeout(self.lookup_budget, self.lockout.0.lock())
            .await
            .map_err(|_| {
                DirectoryError::Unavailable(format!(
                    "{} did not give its lockout policy within {} ms",
                    self.servers,
                    self.lookup_budget.as_millis()
                ))
            })?;
        if let Some((read_at, policy)) = *cached {
            if read_at.elapsed() < MAX_AGE {
                return Ok(Some(policy));
            }
        }
        match self.within(self.lookup_budget, self.read_lockout()).await {
            Ok(policy) => {
                *cached = Some((Instant::now(), policy));
                Ok(Some(policy))
            }
            Err(err) => match *cached {
                Some((_, policy)) => {
                    tracing::warn!(error = %err, "the directory's lockout policy could not be read again; keeping the last one read");
                    Ok(Some(policy))
                }
                None => Err(err),
            },
        }
    }

    async fn read_lockout(&self) -> Result<LockoutPolicy, DirectoryError> {
        match &self.password_policy_dn {
            Some(dn) if self.flavor != DirectoryFlavor::ActiveDirectory => {
                self.read_password_policy(dn).await
            }
            _ => self.read_domain_lockout().await,
        }
    }

    /// OpenLDAP's policy entry `dn`.
    async fn read_password_policy(&self, dn: &str) -> Result<LockoutPolicy, DirectoryError> {
        let wanted = [PWD_LOCKOUT, PWD_MAX_FAILURE, PWD_FAILURE_COUNT_INTERVAL].map(str::to_owned);
        let found = self
            .search_in(Scope::Base, dn, "(objectClass=pwdPolicy)", &wanted)
            .await?;
        let Some(entry) = found.first() else {
            return Err(DirectoryError::Unavailable(format!(
                "the password policy {dn} (directory.password_policy_dn) is not a pwdPolicy \
                 entry the service account can read"
            )));
        };
        let value = |name: &str| {
            entry
                .attributes
                .get(&name.to_ascii_lowercase())
                .and_then(|values| values.first())
                .map(|value| value.trim().to_owned())
        };
        Ok(password_policy(
            value(PWD_LOCKOUT).as_deref(),
            value(PWD_MAX_FAILURE).as_deref(),
            value(PWD_FAILURE_COUNT_INTERVAL).as_deref(),
        ))
    }

    /// Active Directory's domain policy.
    async fn read_domain_lockout(&self) -> Result<LockoutPolicy, DirectoryError> {
        let domain = self.naming_context().await?.to_owned();
        let wanted = [THRESHOLD.to_owned(), OBSERVATION_WINDOW.to_owned()];
        let found = self
            .search_in(Scope::Base, &domain, "(objectClass=*)", &wanted)
            .await?;
        let value = |name: &str| {
            found
                .first()
                .and_then(|entry| entry.attributes.get(&name.to_ascii_lowercase()))
                .and_then(|values| values.first())
                .and_then(|value| value.trim().parse::<i64>().ok())
        };
        let (Some(threshold), Some(window)) = (value(THRESHOLD), value(OBSERVATION_WINDOW)) else {
            return Err(DirectoryError::Unavailable(format!(
                "the domain entry {domain} shows no {THRESHOLD} and {OBSERVATION_WINDOW} to the \
                 service account"
            )));
        };
        Ok(policy(threshold, window))
    }
}

/// The policy of the raw attribute values: a threshold, and a window written as a negative
/// count of 100-nanosecond intervals (rounded up to whole seconds, erring long).
fn policy(threshold: i64, window: i64) -> LockoutPolicy {
    let intervals = window.unsigned_abs();
    LockoutPolicy {
        threshold: threshold.max(0) as u64,
        observation_window: Some(Duration::from_secs(intervals.div_ceil(INTERVALS_PER_SEC))),
    }
}

/// The policy of an OpenLDAP policy entry's values: no lockout unless `pwdLockout` is TRUE
/// (its default is FALSE); `pwdMaxFailure` absent or 0 locks no one either; an interval absent
/// or 0 forgets failures only at a correct password.
fn password_policy(
    lockout: Option<&str>,
    max_failure: Option<&str>,
    interval: Option<&str>,
) -> LockoutPolicy {
    let locks = lockout.is_some_and(|v| v.eq_ignore_ascii_case("TRUE"));
    let threshold = max_failure.and_then(|v| v.parse::<u64>().ok()).unwrap_or(0);
    let interval = interval.and_then(|v| v.parse::<u64>().ok()).unwrap_or(0);
    LockoutPolicy {
        threshold: if locks { threshold } else { 0 },
        observation_window: (interval > 0).then(|| Duration::from_secs(interval)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_window_is_read_from_negative_intervals_and_rounded_up() {
        let thirty_minutes = policy(5, -18_000_000_000);
        assert_eq!(thirty_minutes.threshold, 5);
        assert_eq!(
            thirty_minutes.observation_window,
            Some(Duration::from_secs(1800))
        );
        assert_eq!(
            policy(0, -1).observation_window,
            Some(Duration::from_secs(1)),
            "a part of a second counts as one"
        );
        assert_eq!(policy(-3, i64::MIN).threshold, 0);
    }

    #[test]
    fn an_openldap_policy_locks_only_with_pwd_lockout_and_forgets_over_its_interval() {
        let sliding = password_policy(Some("TRUE"), Some("5"), Some("600"));
        assert_eq!(sliding.threshold, 5);
        assert_eq!(sliding.observation_window, Some(Duration::from_secs(600)));
        let forever = password_policy(Some("TRUE"), Some("3"), None);
        assert_eq!((forever.threshold, forever.observation_window), (3, None));
        assert_eq!(password_policy(Some("FALSE"), Some("3"), None).threshold, 0);
        assert_eq!(password_policy(None, Some("3"), Some("60")).threshold, 0);
        assert_eq!(password_policy(Some("TRUE"), None, None).threshold, 0);
    }
}
