//! Attempt limiting: failed password and second-factor attempts counted per account and per
//! client address group over a sliding window kept in the store, so every node sees the same
//! counts.
//!
//! An attempt enters the window *before* it is checked (one atomic step), so parallel guesses
//! cannot slip past the limit together; a success, or a refusal that checked nothing, takes its
//! entry out again. An attempt that finds its window full may be held up by attempts still in
//! flight rather than by failures: it waits for them a little and tries again before it is
//! refused, so correct sign-ins at the same moment never lock each other out. Accounts are keyed
//! by the name as the directory compares it, so an unknown account locks out exactly like a real
//! one: same message, same (short) time. An IPv6 client counts by its /64 and, more loosely, its
//! /48 ([`AddressGroup`]). Password attempts stay under the directory's own lockout
//! ([`super::lockout_guard`]).

use super::lockout_guard::{password_limit, PasswordLimit};
use super::Context;
use crate::directory::{AccountState, DirectoryError};
use crate::domain::bounds;
use crate::domain::secret::random_id;
use crate::domain::{AddressGroup, Username};
use crate::events::Event;
use crate::mfa::MfaError;
use crate::store::{AttemptCount, StoreError};
use secrecy::ExposeSecret;
use std::net::IpAddr;
use std::time::Duration;

pub use crate::events::Guess as Kind;

/// The pauses of an attempt that finds its window full only with attempts in flight, before
/// each try again: about a second in all, past a directory's usual answer.
const IN_FLIGHT_PAUSES: [Duration; 4] = [
    Duration::from_millis(25),
    Duration::from_millis(75),
    Duration::from_millis(200),
    Duration::from_millis(600),
];

/// An attempt inside the limits, counted until [`Attempt::succeeded`] takes it back.
#[must_use = "a successful attempt must be taken back with `succeeded`"]
pub struct Attempt {
    id: String,
    kind: Kind,
    keys: Vec<String>,
    /// The label of each counter, in the order of `keys`.
    counters: Vec<&'static str>,
    /// The account's window, emptied by a success when the directory forgets failures only
    /// then.
    clear_on_success: Option<String>,
}

/// Too many failed attempts in the window.
#[derive(Debug, thiserror::Error)]
#[error("too many attempts; try again later")]
pub struct Locked;

/// One counter an attempt is counted in.
struct Counter {
    key: String,
    label: &'static str,
    limit: u64,
    window: Duration,
}

/// Counts an attempt at `account` from `address`; [`Locked`] when either is over its limit.
/// Passwords are counted as [`check_password`] does, under the directory's lockout policy. A
/// passkey's answer at a passwordless sign-in names no account until it is checked: it counts
/// against the address alone, and `account` only names it in a lockout's event.
pub async fn begin(
    cx: &impl Context,
    kind: Kind,
    account: &str,
    address: Option<IpAddr>,
) -> Result<Result<Attempt, Locked>, StoreError> {
    let limits = cx.limit_settings();
    let limit = match kind {
        Kind::Password => password_limit(limits, None),
        Kind::Otp => PasswordLimit {
            per_account: limits.otp_per_account,
            window: limits.window,
            until_success: false,
        },
        Kind::Passkey => {
            let counters = address_counters(cx, address);
            return count_in(cx, kind, account, address, counters, None).await;
        }
    };
    begin_within(cx, kind, account, address, limit).await
}

/// The counters of an attempt at `account` from `address`: the account's, then the address's
/// ([`address_counters`]).
fn counters(
    cx: &impl Context,
    kind: Kind,
    account: &str,
    address: Option<IpAddr>,
    limit: PasswordLimit,
) -> Vec<Counter> {
    let mut counters = vec![Counter {
        key: format!("{}:{}", kind.as_str(), account_id(account)),
        label: "account",
        limit: limit.per_account,
        window: limit.window,
    }];
    counters.extend(address_counters(cx, address));
    counters
}

/// The counters of an attempt from `address`: its own (an IPv6 address by its /64) and, for
/// IPv6, the looser one of its /48. None without an address.
fn address_counters(cx: &impl Context, address: Option<IpAddr>) -> Vec<Counter> {
    let limits = cx.limit_settings();
    let mut counters = Vec::new();
    if let Some(address) = address {
        let host = AddressGroup::host(address);
        counters.push(Counter {
            key: format!("addr:{host}"),
            label: host.kind(),
            limit: limits.per_address,
            window: limits.window,
        });
        if let Some(site) = AddressGroup::site(address) {
            counters.push(Counter {
                key: format!("addr:{site}"),
                label: site.kind(),
                limit: limits.per_ipv6_48,
                window: limits.window,
            });
        }
    }
    counters
}

/// Like [`begin`], with the account's limit and window given.
async fn begin_within(
    cx: &impl Context,
    kind: Kind,
    account: &str,
    address: Option<IpAddr>,
    limit: PasswordLimit,
) -> Result<Result<Attempt, Locked>, StoreError> {
    let counters = counters(cx, kind, account, address, limit);
    let clear_on_success = limit.until_success.then(|| counters[0].key.clone());
    count_in(cx, kind, account, address, counters, clear_on_success).await
}

/// Counts an attempt in `counters`; [`Locked`] when any is over its limit.
async fn count_in(
    cx: &impl Context,
    kind: Kind,
    account: &str,
    address: Option<IpAddr>,
    counters: Vec<Counter>,
    clear_on_success: Option<String>,
) -> Result<Result<Attempt, Locked>, StoreError> {
    let windows: Vec<(String, u64)> = counters
        .iter()
        .map(|c| (c.key.clone(), c.window.as_secs()))
        .collect();
    let mut pauses = IN_FLIGHT_PAUSES.iter();
    let over = loop {
        let attempt = Attempt {
            id: random_id(12),
            kind,
            keys: windows.iter().map(|(key, _)| key.clone()).collect(),
            counters: counters.iter().map(|c| c.label).collect(),
            clear_on_success: clear_on_success.clone(),
        };
        let counts = cx
            .store()
            .add_attempt(&windows, &attempt.id, cx.now())
            .await?;
        let full: Vec<(&Counter, AttemptCount)> = counters
            .iter()
            .zip(counts)
            .filter(|(counter, count)| count.total() > counter.limit)
            .collect();
        if full.is_empty() {
            return Ok(Ok(attempt));
        }
        // Nothing was checked: this refusal must not lengthen the lockout.
        attempt.forget(cx).await?;
        // A window full of failures refuses at once; one full only with attempts in flight
        // may have room once they end (correct ones leave it), so wait for them a little.
        let failed = full.iter().any(|(c, count)| count.failed >= c.limit);
        match pauses.next() {
            Some(pause) if !failed => tokio::time::sleep(*pause).await,
            _ => break full,
        }
    };
    for (counter, _) in over {
        // One audit event per lockout, not per refused attempt: a client hammering a locked
        // account must not be able to flood the audit log.
        let first = cx
            .store()
            .note_lockout(&counter.key, counter.window.as_secs())
            .await?;
        if first {
            if counter.label != "account" {
                tracing::warn!(
                    group = counter.key.trim_start_matches("addr:"),
                    kind = counter.label,
                    limit = counter.limit,
                    window_secs = counter.window.as_secs(),
                    "attempts from an address group throttled: too many failures in the window"
                );
            }
            let event = Event::Lockout {
                account: account.to_owned(),
                address: address.map(|a| a.to_string()),
                counter: counter.key.clone(),
                group: counter.label,
            };
            cx.events().publish(event).await;
        }
    }
    Ok(Err(Locked))
}

/// How an account name is counted: as an LDAP server compares names
/// ([`crate::domain::username::fold`]: case and insignificant spaces aside); a name too long to
/// be real is counted by its digest, so no one can make arbitrarily long keys.
fn account_id(account: &str) -> String {
    let name = crate::domain::username::fold(account);
    if name.len() <= 128 {
        name
    } else {
        format!("sha256-{}", crate::domain::Digest::of(&name).as_hex())
    }
}

impl Attempt {
    /// The attempt succeeded: it no longer counts against the account or the address.
    pub async fn succeeded(self, cx: &impl Context) -> Result<(), StoreError> {
        self.forget(cx).await?;
        match &self.clear_on_success {
            Some(account) => cx.store().clear_attempts(account).await,
            None => Ok(()),
        }
    }

    /// The attempt failed: it counts as a failure for the window's length, and the metrics
    /// hear of it.
    pub async fn failed(self, cx: &impl Context) -> Result<(), StoreError> {
        cx.store()
            .fail_attempt(&self.keys, &self.id, cx.now())
            .await?;
        let event = Event::AttemptFailed {
            guess: self.kind,
            counters: self.counters,
        };
        cx.events().publish(event).await;
        Ok(())
    }

    async fn forget(&self, cx: &impl Context) -> Result<(), StoreError> {
        cx.store().remove_attempt(&self.keys, &self.id).await
    }
}

/// A password check under the limits.
pub enum PasswordCheck {
    /// The password is right: the user's entry.
    Passed(crate::directory::DirectoryUser),
    /// Unknown user or wrong password (indistinguishable on purpose); counted.
    Invalid,
    /// The directory will not let the account in now, and says why: the password was right
    /// (not counted), or the account is locked there (counted: that answer comes whatever the
    /// password).
    Unusable(AccountState),
    /// Too many failures for the account or the address: nothing was checked.
    Locked,
}

/// Checks `username`'s password with the directory under the attempt limits: a failure counts
/// against the account and the address; a success, a right password on an account the
/// directory will not let in, or a directory outage does not. The name is
/// the normalised one, and the directory's own name for the account where it has several, so
/// every spelling of an account shares its counter. A password longer
/// than [`bounds::PASSWORD`] is a failure without asking the directory.
pub async fn check_password(
    cx: &impl Context,
    username: &Username,
    password: &secrecy::SecretString,
    address: Option<IpAddr>,
) -> Result<PasswordCheck, MfaError> {
    // Counted by the account, not the spelling: on Active Directory `jdoe@corp.example` and
    // `CORP\jdoe` must not each buy a fresh set of guesses against `jdoe`.
    let account = cx.directory().account_name(username.as_str()).await?;
    // Below the directory's own lockout, so guessing here cannot lock the account there.
    let limit = password_limit(cx.limit_settings(), cx.directory().lockout_policy().await?);
    let Ok(attempt) = begin_within(cx, Kind::Password, &account, address, limit).await? else {
        return Ok(PasswordCheck::Locked);
    };
    if password.expose_secret().len() > bounds::PASSWORD {
        attempt.failed(cx).await?;
        return Ok(PasswordCheck::Invalid);
    }
    match cx.directory().authenticate(&account, password).await {
        Ok(user) => {
            attempt.succeeded(cx).await?;
            Ok(PasswordCheck::Passed(user))
        }
        Err(DirectoryError::InvalidCredentials) => {
            attempt.failed(cx).await?;
            Ok(PasswordCheck::Invalid)
        }
        Err(DirectoryError::AccountUnusable(state)) => {
            if state == AccountState::Locked {
                attempt.failed(cx).await?;
            } else {
                // The directory checked the password and found it right: not a guess.
                attempt.succeeded(cx).await?;
            }
            Ok(PasswordCheck::Unusable(state))
        }
        Err(e) => {
            attempt.succeeded(cx).await?;
            Err(e.into())
        }
    }
}
