//! The re-check before a change to how a person signs in. A session's sign-in (its auth time)
//! older than [`FRESH_FOR`] proves itself again first: someone who finds an unlocked browser
//! may look at the account page, but not swap its second factor. A passed re-check renews the
//! session's auth time, so the next change within the window does not ask again.
//!
//! Every change of a second factor goes through [`needed`] and one of the proofs of
//! [`Reproof`]; a new kind of proof is a new variant there and a new function here.

use crate::directory::AccountState;
use crate::mfa::passkey::PasskeyError;
use crate::mfa::MfaError;
use crate::session::{self, SessionRecord};
use crate::signin::{self, CodeError, PasswordError, Where};
use crate::store::StoreError;
use secrecy::SecretString;

/// Seconds after a sign-in (or a re-check) during which changes need no re-check.
pub const FRESH_FOR: u64 = 300;

/// How a person proves themselves again.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reproof {
    /// Their directory password, under the sign-in's attempt limits.
    Password,
    /// One of their passkeys, after a sign-in that had no password (passwordless): such a
    /// person may not know it, and a passkey is the stronger proof anyway.
    Passkey,
}

/// What the session must prove before a change, if anything: `None` while its sign-in is
/// fresh.
pub fn needed(cx: &impl crate::clock::HasClock, session: &SessionRecord) -> Option<Reproof> {
    let age = cx.now().saturating_sub(session.auth_time);
    (age >= FRESH_FOR).then(|| how(session))
}

/// The proof a session re-proves itself with: what it signed in with. A session without
/// `pwd` in its methods signed in with a passkey alone.
pub fn how(session: &SessionRecord) -> Reproof {
    if session.amr.iter().any(|m| m == signin::AMR_PWD) {
        Reproof::Password
    } else {
        Reproof::Passkey
    }
}

/// Why a re-check did not pass.
#[derive(Debug, thiserror::Error)]
pub enum ReauthError {
    /// Not the person's password, or not one of their passkeys; counted, and audited as a
    /// refused sign-in.
    #[error("wrong password or passkey")]
    Wrong,
    /// No passkey answer could be checked: the request expired or was answered already, or the
    /// answer was missing or too large. Nothing was checked.
    #[error("the passkey answer was not checked: {0}")]
    Unchecked(PasskeyError),
    /// Too many attempts for the account or the address: nothing was checked.
    #[error("too many attempts")]
    Locked,
    /// The directory will not let the account in now.
    #[error("{0}")]
    Unusable(AccountState),
    /// The store or the directory did not answer, or the entry cannot be used.
    #[error(transparent)]
    Unavailable(#[from] MfaError),
}

impl From<StoreError> for ReauthError {
    fn from(err: StoreError) -> Self {
        ReauthError::Unavailable(err.into())
    }
}

/// Checks the password of the person of `session` (signed in with the cookie `cookie`) at
/// `at`, as the sign-in does, and renews the session's auth time. The person is named as they
/// were at the session's password sign-in; a session that kept no name (the admin screen's,
/// or one older than the name) by its subject, the name they sign in with under the built-in
/// claim mappings.
pub async fn with_password(
    cx: &impl signin::Context,
    at: Where<'_>,
    (cookie, session): (&str, &SessionRecord),
    password: &SecretString,
) -> Result<SessionRecord, ReauthError> {
    let sub = session.claims.sub();
    let name = session.signed_in_as.as_deref().unwrap_or(sub);
    let passed = match signin::check_password(cx, at, name, password).await {
        Ok(passed) => passed,
        Err(PasswordError::Name(_) | PasswordError::Invalid) => return Err(ReauthError::Wrong),
        Err(PasswordError::Locked) => return Err(ReauthError::Locked),
        Err(PasswordError::Unusable(state)) => return Err(ReauthError::Unusable(state)),
        Err(PasswordError::NoSubject(_)) => return Err(ReauthError::Wrong),
        Err(PasswordError::Unavailable(e)) => return Err(e.into()),
    };
    // A password that opens another entry (a name shared by two spellings) proves nothing.
    if passed.claims.sub() != sub {
        return Err(ReauthError::Wrong);
    }
    Ok(session::reauthenticated(cx, cookie, session.clone()).await?)
}

/// Checks the passkey `answer` of the person of `session` to the ceremony under `key` (the
/// second-factor check, under the same attempt limits), and renews the session's auth time.
pub async fn with_passkey(
    cx: &impl signin::Context,
    at: Where<'_>,
    (cookie, session): (&str, &SessionRecord),
    (key, answer): (&str, &str),
) -> Result<SessionRecord, ReauthError> {
    let sub = session.claims.sub();
    match signin::check_passkey(cx, at, sub, key, answer).await {
        Ok(_) => {}
        Err(CodeError::Locked) => return Err(ReauthError::Locked),
        Err(CodeError::Wrong | CodeError::Replayed) => return Err(ReauthError::Wrong),
        Err(CodeError::Unchecked(MfaError::Passkey(e))) if e.is_refusal() => {
            return Err(ReauthError::Wrong)
        }
        Err(CodeError::Unchecked(MfaError::Passkey(
            e @ (PasskeyError::NoCeremony | PasskeyError::NoAnswer | PasskeyError::TooLarge),
        ))) => return Err(ReauthError::Unchecked(e)),
        Err(CodeError::Unchecked(e)) => return Err(e.into()),
    }
    Ok(session::reauthenticated(cx, cookie, session.clone()).await?)
}
