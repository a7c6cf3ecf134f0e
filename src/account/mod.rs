//! A person's own account: the apps they let in, the browsers they are signed in with, their
//! second factor, what they did lately, and what they change there. Everything here acts for
//! one person, named by the session that asks, and finds what it changes through that
//! person's own indexes: an id that is not theirs (an app they never let in, another person's
//! session) finds nothing, and nothing changes. Changes to a second factor need a fresh
//! sign-in first ([`reauth`]).

pub mod activity;
pub mod apps;
pub mod passkeys;
pub mod reauth;
pub mod sessions;
pub mod two_step;
mod uses;

pub use uses::AppUses;

use crate::domain::audit::Action;
use crate::domain::ClientId;
use crate::events::Event;
use crate::mfa::MfaError;
use crate::store::StoreError;

/// What the account flows need: what sessions need (the store, the directory, the clock, the
/// events and `[session]`), which is also what back-channel logout needs.
pub trait Context: crate::session::Context {}

impl<T: crate::session::Context> Context for T {}

/// Why a change to an account was not made.
#[derive(Debug, thiserror::Error)]
pub enum AccountError {
    /// The id names nothing of this person's (an app they never let in, a session that is not
    /// theirs, or one that ended already): nothing changed.
    #[error("no such {0} of this person")]
    NotTheirs(&'static str),
    /// The policy requires a second factor of this person: theirs stays.
    #[error("the policy requires a second factor of this person")]
    Required,
    /// A passkey name that is empty, too long or holds control characters.
    #[error("the passkey name is empty, too long, or holds control characters")]
    BadName,
    /// The store is down.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// The directory did not answer (the second-factor policy by group).
    #[error("directory unavailable: {0}")]
    Directory(String),
    /// The second factor could not be used (a secret that does not open with the key).
    #[error("second factor unusable: {0}")]
    SecondFactor(String),
}

impl From<MfaError> for AccountError {
    fn from(err: MfaError) -> Self {
        match err {
            MfaError::Store(e) => AccountError::Store(e),
            MfaError::Directory(e) => AccountError::Directory(e.to_string()),
            other => AccountError::SecondFactor(other.to_string()),
        }
    }
}

/// Who changes their account, and from where: what the audit log records.
#[derive(Debug, Clone, Copy)]
pub struct Person<'a> {
    /// The person, by subject.
    pub sub: &'a str,
    /// The client's address.
    pub address: Option<&'a str>,
}

impl Person<'_> {
    /// The event saying the person did `action` (to `client_id`), in plain words.
    fn event(&self, action: Action, client_id: Option<&ClientId>, detail: String) -> Event {
        Event::AccountChanged {
            action,
            sub: self.sub.to_owned(),
            address: self.address.map(str::to_owned),
            client_id: client_id.cloned(),
            detail,
        }
    }
}
