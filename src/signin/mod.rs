//! Signing in: a password checked by the directory under the attempt limits (kept under the
//! directory's own lockout, [`lockout_guard`]), the account's state and its claims; a
//! second-factor code under the same limits; the start of a session; and who may administer
//! ([`admin`]). The sign-in page, the admin screen and the admin API all sign people in here,
//! and each outcome is published as an event: the audit log and the metrics listen.

pub mod admin;
mod code;
pub mod limits;
pub mod lockout_guard;
mod passkey;
mod password;

pub use code::{check_code, check_passkey, confirm_enrolment, CodeError};
pub use passkey::{check_passwordless, PasskeySignInError};
pub use password::{check_password, start_session, succeeded, Passed, PasswordError, Where};

/// The `amr` value (RFC 8176) of a password checked by the directory.
pub const AMR_PWD: &str = "pwd";

/// What signing in needs: what the second-factor rules need (the store, the directory, the
/// clock, the events, `[mfa]` and `[limits]`) and what sessions need (the claim mapping and
/// `[session]`). Anything that serves both serves this.
pub trait Context: crate::mfa::Context + crate::session::Context {}

impl<T: crate::mfa::Context + crate::session::Context> Context for T {}
