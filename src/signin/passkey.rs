//! A passwordless sign-in: a passkey with user verification stands for both factors, and the
//! directory is still asked that the account exists and may sign in now, as after a password
//! (a lookup misses a disabled or expired account; a locked one is refused as locked).
//!
//! An answer names no account until it is checked, so refused answers count against the
//! client's address group alone, under the same limits as passwords: each is a failed sign-in
//! in the audit log, and without a limit one sign-in page could post them for ever.

use super::limits::{self, Kind};
use super::password::failed;
use super::{Context, Passed, Where};
use crate::directory::AccountState;
use crate::mfa::passkey::{self, PasskeyError};
use crate::mfa::MfaError;

/// Why a passwordless sign-in did not pass.
#[derive(Debug, thiserror::Error)]
pub enum PasskeySignInError {
    /// The passkey was refused, or the step could not be checked (see [`PasskeyError`]).
    #[error(transparent)]
    Passkey(#[from] PasskeyError),
    /// The directory no longer finds the account (gone, disabled or expired).
    #[error("the account is not in the directory, or disabled or expired there")]
    Gone,
    /// The directory will not let the account in now.
    #[error("{0}")]
    Unusable(AccountState),
    /// The entry has no subject attribute.
    #[error("the directory entry {0} has no subject attribute")]
    NoSubject(String),
    /// Too many refused answers from the client's address group: nothing was checked.
    #[error(transparent)]
    Locked(#[from] limits::Locked),
}

impl From<MfaError> for PasskeySignInError {
    fn from(err: MfaError) -> Self {
        match err {
            MfaError::Passkey(e) => e.into(),
            MfaError::Store(e) => PasskeyError::Store(e).into(),
            MfaError::Directory(e) => PasskeyError::Directory(e).into(),
            other => PasskeyError::Corrupt(other.to_string()).into(),
        }
    }
}

/// How a passwordless sign-in is named before its answer is checked.
const UNNAMED: &str = "(passkey)";

/// Checks `answer` to the passwordless ceremony under `key` at `at`, then the account in the
/// directory; answers the entry and claims. Refusals are published as failed sign-ins and
/// counted against the address.
pub async fn check_passwordless(
    cx: &impl Context,
    at: Where<'_>,
    key: &str,
    answer: &str,
) -> Result<(Passed, passkey::Verified), PasskeySignInError> {
    let attempt = limits::begin(cx, Kind::Passkey, UNNAMED, at.address)
        .await
        .map_err(PasskeyError::from)??;
    let verified = match passkey::finish_passwordless(cx, key, answer).await {
        Ok(verified) => {
            attempt.succeeded(cx).await.map_err(PasskeyError::from)?;
            verified
        }
        Err(e) => {
            if e.is_refusal() {
                attempt.failed(cx).await.map_err(PasskeyError::from)?;
                failed(cx, at, UNNAMED, &e.to_string()).await;
            } else {
                attempt.succeeded(cx).await.map_err(PasskeyError::from)?;
            }
            return Err(e.into());
        }
    };
    let sub = verified.sub.as_str();
    let Some(user) = cx
        .directory()
        .lookup(sub)
        .await
        .map_err(PasskeyError::from)?
    else {
        failed(
            cx,
            at,
            sub,
            "passkey of an account gone, disabled or expired",
        )
        .await;
        return Err(PasskeySignInError::Gone);
    };
    if cx.directory().locked_out(&user) {
        failed(cx, at, sub, AccountState::Locked.as_str()).await;
        return Err(PasskeySignInError::Unusable(AccountState::Locked));
    }
    let Some(claims) = cx
        .claim_mapping()
        .claims_of(&user)
        .filter(|c| c.sub() == sub)
    else {
        failed(cx, at, sub, "the directory entry has no subject attribute").await;
        return Err(PasskeySignInError::NoSubject(user.dn));
    };
    // Found by the passkey's subject: no name was typed.
    let name = claims.sub().to_owned();
    Ok((Passed { user, claims, name }, verified))
}
