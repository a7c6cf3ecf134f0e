//! Attempt limiting: failed password and second-factor attempts counted per account and per
//! client address over a sliding window kept in the store, so every node sees the same counts.
//!
//! An attempt enters the window *before* it is checked (one atomic step), so parallel guesses
//! cannot slip past the limit together; a success, or a refusal that checked nothing, takes its
//! entry out again. Accounts are keyed by the name as typed, so an unknown account locks out
//! exactly like a real one: same message, same (short) time. Password attempts stay under the
//! directory's own lockout ([`super::lockout_guard`]).

use super::lockout_guard::{password_limit, PasswordLimit};
use super::Context;
use crate::directory::{AccountState, DirectoryError};
use crate::domain::bounds;
use crate::domain::secret::random_id;
use crate::domain::Username;
use crate::events::Event;
use crate::store::StoreError;
use secrecy::ExposeSecret;
use std::net::IpAddr;

/// What is being guessed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A directory password.
    Password,
    /// A second-factor code (TOTP or recovery code).
    Otp,
}

impl Kind {
    fn as_str(self) -> &'static str {
        match self {
            Kind::Password => "password",
            Kind::Otp => "otp",
        }
    }
}

/// An attempt inside the limits, counted until [`Attempt::succeeded`] takes it back.
#[must_use = "a successful attempt must be taken back with `succeeded`"]
pub struct Attempt {
    id: String,
    keys: Vec<String>,
}

/// Too many failed attempts in the window.
#[derive(Debug, thiserror::Error)]
#[error("too many attempts; try again later")]
pub struct Locked;

/// Counts an attempt at `account` from `address`; [`Locked`] when either is over its limit.
/// Passwords are counted as [`check_password`] does, under the directory's lockout policy.
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
        },
    };
    begin_within(cx, kind, account, address, limit).await
}

/// Like [`begin`], with the account's limit and window given.
async fn begin_within(
    cx: &impl Context,
    kind: Kind,
    account: &str,
    address: Option<IpAddr>,
    limit: PasswordLimit,
) -> Result<Result<Attempt, Locked>, StoreError> {
    let limits = cx.limit_settings();
    let account_key = format!("{}:{}", kind.as_str(), account_id(account));
    let mut checks = vec![(account_key, limit.per_account, limit.window)];
    if let Some(address) = address {
        checks.push((format!("addr:{address}"), limits.per_address, limits.window));
    }
    let attempt = Attempt {
        id: random_id(12),
        keys: checks.iter().map(|(k, _, _)| k.clone()).collect(),
    };
    let windows: Vec<(String, u64)> = checks
        .iter()
        .map(|(key, _, window)| (key.clone(), window.as_secs()))
        .collect();
    let counts = cx
        .store()
        .add_attempt(&windows, &attempt.id, cx.now())
        .await?;
    let over: Vec<_> = checks
        .iter()
        .zip(counts)
        .filter(|((_, limit, _), count)| count > limit)
        .map(|((key, _, window), _)| (key.as_str(), window))
        .collect();
    if over.is_empty() {
        return Ok(Ok(attempt));
    }
    // Nothing was checked: this refusal must not lengthen the lockout.
    attempt.forget(cx).await?;
    for (key, window) in over {
        // One audit event per lockout, not per refused attempt: a client hammering a locked
        // account must not be able to flood the audit log.
        let first = cx.store().note_lockout(key, window.as_secs()).await?;
        if first {
            let event = Event::Lockout {
                account: account.to_owned(),
                address: address.map(|a| a.to_string()),
                counter: key.to_owned(),
            };
            cx.events().publish(event).await;
        }
    }
    Ok(Err(Locked))
}

/// How an account name is counted: as typed, case and surrounding spaces aside; a name too
/// long to be real is counted by its digest, so no one can make arbitrarily long keys.
fn account_id(account: &str) -> String {
    let name = account.trim().to_lowercase();
    if name.len() <= 128 {
        name
    } else {
        format!("sha256-{}", crate::domain::Digest::of(&name).as_hex())
    }
}

impl Attempt {
    /// The attempt succeeded: it no longer counts against the account or the address.
    pub async fn succeeded(self, cx: &impl Context) -> Result<(), StoreError> {
        self.forget(cx).await
    }

    /// The attempt failed: it stays in the window (this only documents the outcome).
    pub fn failed(self) {}

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
) -> Result<PasswordCheck, super::MfaError> {
    // Counted by the account, not the spelling: on Active Directory `jdoe@corp.example` and
    // `CORP\jdoe` must not each buy a fresh set of guesses against `jdoe`.
    let account = cx.directory().account_name(username.as_str()).await?;
    // Below the directory's own lockout, so guessing here cannot lock the account there.
    let limit = password_limit(cx.limit_settings(), cx.directory().lockout_policy().await?);
    let Ok(attempt) = begin_within(cx, Kind::Password, &account, address, limit).await? else {
        return Ok(PasswordCheck::Locked);
    };
    if password.expose_secret().len() > bounds::PASSWORD {
        attempt.failed();
        return Ok(PasswordCheck::Invalid);
    }
    match cx.directory().authenticate(&account, password).await {
        Ok(user) => {
            attempt.succeeded(cx).await?;
            Ok(PasswordCheck::Passed(user))
        }
        Err(DirectoryError::InvalidCredentials) => {
            attempt.failed();
            Ok(PasswordCheck::Invalid)
        }
        Err(DirectoryError::AccountUnusable(state)) => {
            if state == AccountState::Locked {
                attempt.failed();
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
