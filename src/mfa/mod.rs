//! Second factor by policy: who needs one, TOTP enrolment and verification, recovery codes,
//! and the encryption of enrolment secrets. The limits on password and code guessing are the
//! sign-in flow's (`crate::signin`).
//!
//! The browser pages live in `crate::pages::second_factor`; this module holds the rules, so the
//! admin API sign-in applies exactly the same ones.

pub mod enrolment;
pub mod key;
pub mod passkey;
pub mod policy;
pub mod recovery;
pub mod totp;

pub use key::MfaKey;

use crate::clock::HasClock;
use crate::config::{LimitSettings, MfaSettings};
use crate::directory::{DirectoryError, DirectoryUser, HasDirectory};
use crate::domain::Claims;
use crate::events::HasEvents;
use crate::store::{HasStore, StoreError};

/// What the second-factor flows need: the store, the directory (policy by group), the clock,
/// the event bus, the key that seals enrolment secrets, and their settings.
pub trait Context: HasStore + HasDirectory + HasClock + HasEvents + Sync {
    /// The `[mfa]` settings.
    fn mfa_settings(&self) -> &MfaSettings;
    /// The `[limits]` settings.
    fn limit_settings(&self) -> &LimitSettings;
    /// The key sealing enrolment secrets.
    fn mfa_key(&self) -> &MfaKey;
    /// How long an authenticator set-up waits for its first code.
    fn setup_ttl(&self) -> std::time::Duration;
    /// The public base address (`server.base_url`): its host is the passkeys' relying party.
    fn base_url(&self) -> url::Url;
}

/// The `amr` value (RFC 8176) a session gets once the second factor is passed.
pub const AMR_OTP: &str = "otp";

/// Why a second-factor step failed.
#[derive(Debug, thiserror::Error)]
pub enum MfaError {
    /// The user has no enrolment to verify against.
    #[error("no second factor is enrolled")]
    NotEnrolled,
    /// The set-up being confirmed expired or never started.
    #[error("the authenticator set-up expired")]
    NoSetup,
    /// Neither a current TOTP code nor an unspent recovery code.
    #[error("wrong code")]
    WrongCode,
    /// A TOTP code whose time step was already accepted once.
    #[error("code already used")]
    Replayed,
    /// The stored secret does not open with the configured key (the key was changed).
    #[error("the enrolment secret cannot be decrypted with mfa.encryption_key")]
    Undecryptable,
    /// A new authenticator secret could not be sealed, shown or used (a fault here, not in
    /// the store or the user's input).
    #[error("the authenticator secret cannot be used: {0}")]
    Unusable(&'static str),
    /// The store is down.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// The directory is down (group or attribute lookup).
    #[error(transparent)]
    Directory(#[from] DirectoryError),
    /// A passkey step failed.
    #[error(transparent)]
    Passkey(#[from] passkey::PasskeyError),
}

/// What a signed-in session still has to do before a code may be issued.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Due {
    /// Nothing: no second factor needed, or already passed.
    Nothing,
    /// Pass an enrolled second factor: a passkey, or a code from the enrolled authenticator
    /// (or a recovery code).
    Verify,
    /// Set up an authenticator first (under policy, not enrolled).
    Enrol,
}

/// Whether the methods `amr` include a second factor (an authenticator code or a passkey).
pub fn passed(amr: &[String]) -> bool {
    amr.iter().any(|m| m == AMR_OTP || m == passkey::AMR_HWK)
}

/// Whether `sub` has a second factor they can use here: an authenticator app, or a passkey
/// where passkeys are offered.
pub async fn has_second_factor(cx: &impl Context, sub: &str) -> Result<bool, MfaError> {
    if enrolment::is_enrolled(cx, sub).await? {
        return Ok(true);
    }
    Ok(passkey::offered(cx) && !cx.store().passkeys(sub).await?.is_empty())
}

/// Decides what a session with methods `amr` still owes. `user` is the directory entry when
/// the caller has it (right after the password); otherwise it is looked up only if the policy
/// needs more than the role claim. An enrolled user is always asked, policy or not.
pub async fn due(
    cx: &impl Context,
    claims: &Claims,
    amr: &[String],
    user: Option<&DirectoryUser>,
) -> Result<Due, MfaError> {
    if passed(amr) {
        return Ok(Due::Nothing);
    }
    if has_second_factor(cx, claims.sub()).await? {
        return Ok(Due::Verify);
    }
    if policy::applies(cx, claims, user).await? {
        return Ok(Due::Enrol);
    }
    Ok(Due::Nothing)
}
