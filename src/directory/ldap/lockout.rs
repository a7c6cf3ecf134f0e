//! The Active Directory domain's lockout policy (`lockoutThreshold`,
//! `lockOutObservationWindow` of the domain's entry), read on first need and again once it is
//! about an hour old, so sso-bridge's attempt limits can stay under it.

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
const OBSERVATION_WINDOW: &str = "lockOutObservationWindow";
/// 100-nanosecond intervals per second: AD writes durations as negative counts of them.
const INTERVALS_PER_SEC: u64 = 10_000_000;

/// The last policy read, and when.
#[derive(Debug, Default)]
pub(super) struct PolicyCache(Mutex<Option<(Instant, LockoutPolicy)>>);

impl LdapDirectory {
    /// The domain's lockout policy; `None` for servers other than Active Directory. A read that
    /// fails keeps the last policy known, if any: the directory is then likely down anyway.
    pub(super) async fn domain_lockout(&self) -> Result<Option<LockoutPolicy>, DirectoryError> {
        if self.flavor != DirectoryFlavor::ActiveDirectory {
            return Ok(None);
        }
        // Held across the read, so sign-ins arriving together read the policy once. Waiting for
        // it has the budget of a read too: behind a directory that does not answer, each
        // sign-in waits for one read, not for every read queued before it.
        let mut cached = tokio::time::timeout(self.lookup_budget, self.lockout.0.lock())
            .await
            .map_err(|_| {
                DirectoryError::Unavailable(format!(
                    "{} did not give the domain's lockout policy within {} ms",
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
                    tracing::warn!(error = %err, "the domain's lockout policy could not be read again; keeping the last one read");
                    Ok(Some(policy))
                }
                None => Err(err),
            },
        }
    }

    async fn read_lockout(&self) -> Result<LockoutPolicy, DirectoryError> {
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
        observation_window: Duration::from_secs(intervals.div_ceil(INTERVALS_PER_SEC)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_window_is_read_from_negative_intervals_and_rounded_up() {
        let thirty_minutes = policy(5, -18_000_000_000);
        assert_eq!(thirty_minutes.threshold, 5);
        assert_eq!(thirty_minutes.observation_window, Duration::from_secs(1800));
        assert_eq!(
            policy(0, -1).observation_window,
            Duration::from_secs(1),
            "a part of a second counts as one"
        );
        assert_eq!(policy(-3, i64::MIN).threshold, 0);
    }
}
