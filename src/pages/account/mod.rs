//! `/account`: a person's own account page, for anyone signed in (sign-in, and the second
//! factor the policy asks for, at `/account/login` when not): the apps they let in, the
//! browsers they are signed in with, and the forms that take either back; their second factor,
//! and the forms that change it (after a re-check when the sign-in is not fresh).
//!
//! Every form carries a CSRF token derived from the session cookie, which only a page served to
//! the holder of that cookie knows (as the sign-out confirmation's).

pub mod forms;
pub mod passkeys;
pub mod reauth;
pub mod show;
pub mod signin;
pub mod two_step;
pub mod views;

use crate::account::Person;
use crate::domain::Digest;
use crate::mfa::{self, Due};
use crate::session::{self, SessionRecord, SESSION_COOKIE};
use crate::state::AppState;
use crate::web::address::ClientAddr;
use crate::web::errors::PageError;
use crate::web::respond;
use poem::web::Data;
use poem::{FromRequest, Request, RequestBody};
use std::net::IpAddr;

/// The account page.
pub const PATH: &str = "/account";
/// Its sign-in.
pub const SIGN_IN_PATH: &str = "/account/login";
/// Its second step answered with a passkey.
pub const SIGN_IN_PASSKEY_PATH: &str = "/account/login/passkey";
/// Takes an app back (`client_id`).
pub const REVOKE_APP_PATH: &str = "/account/apps/revoke";
/// Ends one session (`session`, its public id).
pub const END_SESSION_PATH: &str = "/account/sessions/end";
/// Ends every session but this browser's.
pub const END_OTHERS_PATH: &str = "/account/sessions/end-all";
/// The re-check before a change to the second factor (`next`: the change).
pub const CONFIRM_PATH: &str = "/account/confirm";
/// Sets up (or replaces) the authenticator app: the set-up page, and its first code.
pub const AUTHENTICATOR_PATH: &str = "/account/two-step/authenticator";
/// Removes the authenticator app.
pub const REMOVE_AUTHENTICATOR_PATH: &str = "/account/two-step/authenticator/remove";
/// Adds a passkey: the ceremony's page, and its answer with the name.
pub const ADD_PASSKEY_PATH: &str = "/account/passkeys/add";
/// Renames a passkey (`passkey`, `name`).
pub const RENAME_PASSKEY_PATH: &str = "/account/passkeys/rename";
/// Removes a passkey (`passkey`).
pub const REMOVE_PASSKEY_PATH: &str = "/account/passkeys/remove";
/// A new set of recovery codes.
pub const RECOVERY_CODES_PATH: &str = "/account/two-step/recovery-codes";

/// The person of this request: a live SSO session that owes no second factor. Anyone else is
/// sent to the account sign-in.
pub struct Signed {
    /// The session's cookie value.
    pub cookie: String,
    /// The session, confirmed by the directory as single sign-on confirms it.
    pub session: SessionRecord,
    /// The client's address, as the page shows it.
    pub address: Option<String>,
    /// The client's address, as the attempt limits take it.
    pub ip: Option<IpAddr>,
}

impl Signed {
    /// The person, as the account flows take them.
    pub fn person(&self) -> Person<'_> {
        Person {
            sub: self.session.claims.sub(),
            address: self.address.as_deref(),
        }
    }

    /// The token every form of the page must echo.
    pub fn csrf_token(&self) -> String {
        csrf_token(&self.cookie)
    }

    /// Checks a form's token, in constant time.
    pub fn check(&self, presented: Option<&str>) -> Result<(), PageError> {
        let ok = presented.is_some_and(|t| Digest::of(t).ct_eq(&Digest::of(&self.csrf_token())));
        ok.then_some(()).ok_or(PageError::Forged)
    }
}

impl<'a> FromRequest<'a> for Signed {
    async fn from_request(req: &'a Request, _body: &mut RequestBody) -> poem::Result<Self> {
        let Data(state) = <Data<&AppState>>::from_request_without_body(req).await?;
        let client = ClientAddr::of(req);
        match signed(state, req.cookie(), client).await {
            Ok(Some(signed)) => Ok(signed),
            Ok(None) => Err(PageError::SignInFirst(SIGN_IN_PATH).into()),
            Err(e) => Err(e.into()),
        }
    }
}

/// The signed-in person behind the browser's session cookie, if there is one and it owes no
/// second factor (a session half-way through an app's sign-in owes one).
async fn signed(
    state: &AppState,
    jar: &poem::web::cookie::CookieJar,
    client: ClientAddr,
) -> Result<Option<Signed>, PageError> {
    let cookie = respond::cookie_value(&state.settings, jar, SESSION_COOKIE);
    let Some(session) = session::current(state, cookie.as_deref()).await? else {
        return Ok(None);
    };
    let Some(cookie) = cookie else {
        return Ok(None);
    };
    if mfa::due(state, &session.claims, &session.amr, None).await? != Due::Nothing {
        return Ok(None);
    }
    Ok(Some(Signed {
        cookie,
        session,
        address: client.shown(),
        ip: client.ip(),
    }))
}

/// The forms' token for the session cookie `cookie`.
fn csrf_token(cookie: &str) -> String {
    Digest::of(&format!("account\n{cookie}"))
        .as_hex()
        .to_owned()
}

#[cfg(test)]
mod tests;
