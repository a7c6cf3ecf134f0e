//! A password sign-in: the name read as the directory compares it, the password checked under
//! the attempt limits, the account's state, and the claims its entry gives.

use super::limits::{self, PasswordCheck};
use super::Context;
use crate::directory::{AccountState, DirectoryUser};
use crate::domain::username::{Username, UsernameError};
use crate::domain::{Claims, ClientId};
use crate::events::{Event, Place, SignInOutcome};
use crate::mfa::MfaError;
use crate::session::{self, Device, SessionRecord};
use crate::store::StoreError;
use secrecy::SecretString;
use std::net::IpAddr;

/// Where a sign-in happens, for which app and from where: what its events say.
#[derive(Debug, Clone, Copy)]
pub struct Where<'a> {
    /// The sign-in page of an app's flow, the admin side, or the API's second-factor set-up.
    pub place: Place,
    /// The app whose flow it is.
    pub client_id: Option<&'a ClientId>,
    /// The client's address.
    pub address: Option<IpAddr>,
}

/// Someone whose password the directory accepted.
#[derive(Debug, Clone)]
pub struct Passed {
    /// Their directory entry.
    pub user: DirectoryUser,
    /// The claims it gives.
    pub claims: Claims,
    /// The name it was found under, as typed (trimmed): what a later re-check of the password
    /// asks the directory under.
    pub name: String,
}

/// Why a password sign-in did not pass.
#[derive(Debug, thiserror::Error)]
pub enum PasswordError {
    /// No name, or one no directory holds: nothing was checked or counted (a name typed is
    /// published as a failed sign-in all the same).
    #[error(transparent)]
    Name(#[from] UsernameError),
    /// Unknown user or wrong password (indistinguishable on purpose); counted.
    #[error("wrong username or password")]
    Invalid,
    /// Too many failures for the account or the address: nothing was checked.
    #[error("too many attempts")]
    Locked,
    /// The directory will not let the account in now, and says why.
    #[error("{0}")]
    Unusable(AccountState),
    /// The entry has no subject attribute: the service cannot name the person.
    #[error("the directory entry {0} has no subject attribute")]
    NoSubject(String),
    /// The store or the directory did not answer.
    #[error(transparent)]
    Unavailable(#[from] MfaError),
}

impl From<StoreError> for PasswordError {
    fn from(err: StoreError) -> Self {
        PasswordError::Unavailable(err.into())
    }
}

/// Checks `username`'s password at `at` under the attempt limits, and reads the claims of the
/// entry. A refusal that checked something (a wrong password, an account the directory will not
/// let in, an entry without a subject) is published as a failed sign-in; success is published
/// by [`succeeded`] once every factor the place asks for is in.
pub async fn check_password(
    cx: &impl Context,
    at: Where<'_>,
    username: &str,
    password: &SecretString,
) -> Result<Passed, PasswordError> {
    let name = match Username::parse(username) {
        Ok(name) => name,
        // A name no directory holds is refused before anything is counted or checked, and
        // said like a wrong password (a blank form is no attempt at all).
        Err(UsernameError::Empty) => return Err(UsernameError::Empty.into()),
        Err(e) => {
            failed(cx, at, username.trim(), "wrong username or password").await;
            return Err(e.into());
        }
    };
    let user = match limits::check_password(cx, &name, password, at.address).await? {
        PasswordCheck::Passed(user) => user,
        PasswordCheck::Locked => return Err(PasswordError::Locked),
        PasswordCheck::Invalid => {
            failed(cx, at, name.as_str(), "wrong username or password").await;
            return Err(PasswordError::Invalid);
        }
        PasswordCheck::Unusable(state) => {
            failed(cx, at, name.as_str(), state.as_str()).await;
            return Err(PasswordError::Unusable(state));
        }
    };
    let Some(claims) = cx.claim_mapping().claims_of(&user) else {
        let reason = "the directory entry has no subject attribute";
        failed(cx, at, name.as_str(), reason).await;
        return Err(PasswordError::NoSubject(user.dn));
    };
    Ok(Passed {
        user,
        claims,
        name: name.as_str().to_owned(),
    })
}

/// Publishes a completed sign-in of `sub` at `at`.
pub async fn succeeded(cx: &impl Context, at: Where<'_>, sub: &str) {
    publish(cx, at, sub, SignInOutcome::Succeeded).await;
}

/// Publishes a refused sign-in of `who` (the name as typed) at `at`, for `reason`.
pub(super) async fn failed(cx: &impl Context, at: Where<'_>, who: &str, reason: &str) {
    publish(cx, at, who, SignInOutcome::Failed(reason.to_owned())).await;
}

async fn publish(cx: &impl Context, at: Where<'_>, who: &str, outcome: SignInOutcome) {
    let event = Event::SignIn {
        place: at.place,
        who: who.to_owned(),
        client_id: at.client_id.cloned(),
        address: at.address.map(|a| a.to_string()),
        outcome,
    };
    cx.events().publish(event).await;
}

/// Starts the SSO session of someone who signed in with a password, under a fresh id (an id
/// planted before sign-in is never promoted): the session the browser held before
/// (`replaced`) ends, as a sign-out when it was someone else's. Answers the new session's
/// cookie value and record.
pub async fn start_session(
    cx: &impl Context,
    replaced: Option<&str>,
    claims: Claims,
    amr: Vec<String>,
    device: Device,
    signed_in_as: Option<String>,
) -> Result<(String, SessionRecord), StoreError> {
    if let Some(old) = replaced {
        // Someone else signing in on this browser ends the session they replace as signing
        // out would: its grants are revoked and its apps told, so that an app still showing
        // the person before does not go on as them. The same person signing in again keeps
        // what their apps hold.
        let previous = session::load(cx, Some(old)).await?;
        match previous {
            Some(previous) if previous.claims.sub() != claims.sub() => {
                session::end_loaded(cx, old, Some(&previous)).await?;
            }
            _ => session::destroy(cx, old).await?,
        }
    }
    session::create(cx, claims, amr, device, signed_in_as).await
}
