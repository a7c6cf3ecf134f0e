//! Passkeys (WebAuthn): registration of a discoverable credential, its use as a second factor
//! after the password or alone (passwordless), and the person's list of them.
//!
//! The ceremonies are webauthn-rs's (its core, `webauthn-rs-core`, because the safe wrapper
//! asks every passkey for user verification and for no resident key, and this service wants
//! the opposite: a resident key, so that every passkey also signs in without a password, and
//! user verification where the authenticator has it). The checks the wrapper adds are made
//! here: the credential of another person is refused, a credential id is registered once,
//! and the signature counter is kept.
//!
//! The relying party id is the host of `server.base_url`; WebAuthn needs a domain name, so
//! where that host is an IP address no passkey is offered ([`relying_party`]).

mod authenticate;
mod ceremony;
mod manage;
mod register;

pub use authenticate::{
    finish_passwordless, finish_second_factor, start_passwordless, start_second_factor, Verified,
};
pub use manage::{count, list, remove, remove_all, rename};
pub use register::{finish_registration, start_registration};

use super::Context;
use crate::directory::DirectoryError;
use crate::store::StoreError;
use std::time::Duration;
use webauthn_rs_core::error::WebauthnError;
use webauthn_rs_core::WebauthnCore;

/// The `amr` value (RFC 8176) of a proof-of-possession key: a passkey was used.
pub const AMR_HWK: &str = "hwk";
/// The `amr` value (RFC 8176) of user presence with verification: the authenticator checked
/// its PIN or biometric.
pub const AMR_USER: &str = "user";

/// Most passkeys one person may have.
pub const MAX_PER_PERSON: usize = 10;
/// Longest passkey name, in characters.
pub const NAME_MAX: usize = 64;
/// Largest answer of an authenticator (the JSON the page's script posts), in bytes: an
/// attestation with a certificate chain stays well under it.
pub const ANSWER_MAX: usize = 16 * 1024;
/// How long a ceremony may take, from the page that starts it to the form that ends it.
pub const CEREMONY_TTL: Duration = Duration::from_secs(300);

/// Why a passkey step failed.
#[derive(Debug, thiserror::Error)]
pub enum PasskeyError {
    /// `server.base_url`'s host is no domain name: WebAuthn cannot be offered.
    #[error("passkeys are not offered: the host of server.base_url is not a domain name")]
    NotOffered,
    /// The ceremony expired, was already answered, or belongs to another step.
    #[error("the passkey request expired or was already answered")]
    NoCeremony,
    /// The authenticator's answer is larger than [`ANSWER_MAX`] bytes.
    #[error("the passkey answer is larger than {ANSWER_MAX} bytes")]
    TooLarge,
    /// The answer is not what a browser sends (not JSON of a WebAuthn credential).
    #[error("the passkey answer is unreadable: {0}")]
    Malformed(String),
    /// The browser or authenticator gave no answer (cancelled, timed out, not supported).
    #[error("no passkey answer was given")]
    NoAnswer,
    /// The library refused the answer: wrong origin or challenge, bad signature, a counter
    /// that went backwards (a cloned authenticator), no user verification where required.
    #[error("the passkey was refused: {0}")]
    Refused(WebauthnError),
    /// The passkey is not one of this person's (or of anyone's).
    #[error("the passkey is not one of this person's")]
    NotTheirs,
    /// The name given is empty, too long, or holds control characters.
    #[error(
        "the passkey name is empty, longer than {NAME_MAX} characters, or holds control characters"
    )]
    BadName,
    /// This credential is already registered.
    #[error("this passkey is already registered")]
    Duplicate,
    /// The person has [`MAX_PER_PERSON`] passkeys already.
    #[error("at most {MAX_PER_PERSON} passkeys per person")]
    Full,
    /// A stored passkey or ceremony does not decode (written by another version).
    #[error("a stored passkey is unreadable: {0}")]
    Corrupt(String),
    /// The store is down.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// The directory is down.
    #[error(transparent)]
    Directory(#[from] DirectoryError),
}

/// The relying party of `server.base_url`, or `None` where its host is no domain name (an IP
/// address), where WebAuthn cannot work.
pub fn relying_party(cx: &impl Context) -> Option<WebauthnCore> {
    let base = cx.base_url();
    let Some(url::Host::Domain(host)) = base.host() else {
        return None;
    };
    let origin = url::Url::parse(&base.origin().ascii_serialization()).ok()?;
    Some(WebauthnCore::new_unsafe_experts_only(
        &cx.mfa_settings().issuer_label,
        host,
        vec![origin],
        CEREMONY_TTL,
        None,
        None,
    ))
}

/// Whether passkeys are offered at all.
pub fn offered(cx: &impl Context) -> bool {
    relying_party(cx).is_some()
}

/// The relying party, or [`PasskeyError::NotOffered`].
fn party(cx: &impl Context) -> Result<WebauthnCore, PasskeyError> {
    relying_party(cx).ok_or(PasskeyError::NotOffered)
}

/// The `amr` values a passed passkey adds: `hwk`, and `user` when the authenticator verified
/// the person.
pub fn methods(user_verified: bool) -> &'static [&'static str] {
    if user_verified {
        &[AMR_HWK, AMR_USER]
    } else {
        &[AMR_HWK]
    }
}

/// A passkey name as given, trimmed; refused when empty, too long or holding control
/// characters.
pub fn parse_name(name: &str) -> Result<String, PasskeyError> {
    let name = name.trim();
    if name.is_empty() || name.chars().count() > NAME_MAX || name.chars().any(char::is_control) {
        return Err(PasskeyError::BadName);
    }
    Ok(name.to_owned())
}

/// Reads an authenticator's answer as posted: bounded, JSON.
fn read_answer<T: serde::de::DeserializeOwned>(answer: &str) -> Result<T, PasskeyError> {
    let answer = answer.trim();
    if answer.is_empty() {
        return Err(PasskeyError::NoAnswer);
    }
    if answer.len() > ANSWER_MAX {
        return Err(PasskeyError::TooLarge);
    }
    // Where and how it failed, never serde's message: that quotes the posted text, which would
    // then reach the audit log as the refusal's reason.
    serde_json::from_str(answer).map_err(|e| {
        PasskeyError::Malformed(format!(
            "{:?} error at line {} column {}",
            e.classify(),
            e.line(),
            e.column()
        ))
    })
}

/// Whether a refusal is a wrong answer (counted as a failed attempt) rather than a fault.
impl PasskeyError {
    /// The person's answer was refused (as opposed to an expired request or an outage).
    pub fn is_refusal(&self) -> bool {
        matches!(
            self,
            PasskeyError::Refused(_) | PasskeyError::NotTheirs | PasskeyError::Malformed(_)
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_name_is_trimmed_and_bounded() {
        assert_eq!(parse_name("  Laptop ").unwrap(), "Laptop");
        assert!(parse_name("   ").is_err());
        assert!(parse_name(&"x".repeat(NAME_MAX + 1)).is_err());
        assert!(parse_name("a\u{7}b").is_err());
        assert_eq!(
            parse_name(&"é".repeat(NAME_MAX)).unwrap().chars().count(),
            NAME_MAX
        );
    }

    #[test]
    fn an_answer_is_bounded_before_it_is_read() {
        let big = format!("\"{}\"", "a".repeat(ANSWER_MAX));
        assert!(matches!(
            read_answer::<String>(&big),
            Err(PasskeyError::TooLarge)
        ));
        assert!(matches!(
            read_answer::<String>(" "),
            Err(PasskeyError::NoAnswer)
        ));
        assert!(matches!(
            read_answer::<String>("{"),
            Err(PasskeyError::Malformed(_))
        ));
    }
}
