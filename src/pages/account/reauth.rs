//! `/account/confirm`: the re-check a change to the second factor asks for when the sign-in
//! is older than [`reauth::FRESH_FOR`](crate::account::reauth::FRESH_FOR). A change's handler
//! calls [`ask`] first; when the person must prove themselves again, they are sent here with
//! the change named in `next`, and once the proof passes the change goes on from here.

use super::views::AccountReauthPage;
use super::{two_step, Signed, AUTHENTICATOR_PATH, CONFIRM_PATH};
use crate::account::reauth::{self, ReauthError, Reproof};
use crate::events::Place;
use crate::signin::Where;
use crate::state::AppState;
use crate::web::errors::PageError;
use crate::web::i18n::{self, Text};
use crate::web::messages;
use crate::web::respond::{self, redirect};
use poem::http::StatusCode;
use poem::web::{Data, Form, Query};
use poem::{handler, Response};
use secrecy::SecretString;
use serde::{Deserialize, Serialize};

/// A change that needs a fresh sign-in, by the name `next` carries.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Change {
    /// Set up or replace the authenticator app (the set-up page follows).
    Authenticator,
    /// Remove the authenticator app.
    RemoveAuthenticator,
    /// A new set of recovery codes.
    RecoveryCodes,
}

impl Change {
    fn as_str(self) -> &'static str {
        match self {
            Change::Authenticator => "authenticator",
            Change::RemoveAuthenticator => "remove_authenticator",
            Change::RecoveryCodes => "recovery_codes",
        }
    }
}

/// The re-check `signed` owes before `change`, as a redirect to it; `None` while the sign-in
/// is fresh and the change may go ahead.
pub fn ask(state: &AppState, signed: &Signed, change: Change) -> Option<Response> {
    reauth::needed(state, &signed.session)?;
    let to = format!("{CONFIRM_PATH}?next={}", change.as_str());
    Some(redirect(StatusCode::SEE_OTHER, &to))
}

/// `?next=` of the re-check page.
#[derive(Debug, Deserialize)]
pub struct NextQuery {
    next: Change,
}

/// The re-check form. No `Debug`: it holds a password.
#[derive(Deserialize)]
pub struct ConfirmForm {
    #[serde(default)]
    csrf_token: Option<String>,
    next: Change,
    #[serde(default)]
    password: Option<SecretString>,
}

fn page(
    state: &AppState,
    signed: &Signed,
    (next, proof): (Change, Reproof),
    error: Option<Text>,
    status: StatusCode,
) -> Result<Response, PageError> {
    i18n::return_to(format!("{CONFIRM_PATH}?next={}", next.as_str()));
    let page = AccountReauthPage {
        username: signed.session.claims.sub().to_owned(),
        csrf_token: signed.csrf_token(),
        next,
        password: proof == Reproof::Password,
        error,
    };
    respond::page(&state.templates, status, &page)
}

/// `GET /account/confirm`.
#[handler]
pub async fn show(
    Data(state): Data<&AppState>,
    query: poem::Result<Query<NextQuery>>,
    signed: Signed,
) -> Result<Response, PageError> {
    let Query(query) = query.map_err(|e| PageError::unreadable("address", e))?;
    // A fresh sign-in is asked all the same: the person came here to confirm.
    let proof = reauth::needed(state, &signed.session).unwrap_or(Reproof::Password);
    page(state, &signed, (query.next, proof), None, StatusCode::OK)
}

/// `POST /account/confirm`: checks the proof, then makes the change.
#[handler]
pub async fn confirm(
    Data(state): Data<&AppState>,
    form: poem::Result<Form<ConfirmForm>>,
    signed: Signed,
) -> Result<Response, PageError> {
    let Form(form) = form.map_err(|e| PageError::unreadable("form", e))?;
    signed.check(form.csrf_token.as_deref())?;
    let shown = (form.next, Reproof::Password);
    let Some(password) = form.password else {
        let missing = Some(Text::new("signin-missing"));
        return page(state, &signed, shown, missing, StatusCode::BAD_REQUEST);
    };
    let at = Where {
        place: Place::App,
        client_id: None,
        address: signed.ip,
    };
    let session = (signed.cookie.as_str(), &signed.session);
    let (message, status) = match reauth::with_password(state, at, session, &password).await {
        Ok(_) => return go_on(state, &signed, form.next).await,
        Err(ReauthError::Wrong) => (Text::new("account-reauth-wrong"), StatusCode::UNAUTHORIZED),
        Err(ReauthError::Locked) => (messages::locked(), StatusCode::TOO_MANY_REQUESTS),
        Err(ReauthError::Unusable(account)) => {
            (messages::account_state(account), StatusCode::FORBIDDEN)
        }
        Err(e) => return Err(e.into()),
    };
    page(state, &signed, shown, Some(message), status)
}

/// Makes `change` once the person proved themselves again.
async fn go_on(state: &AppState, signed: &Signed, change: Change) -> Result<Response, PageError> {
    match change {
        Change::Authenticator => Ok(redirect(StatusCode::SEE_OTHER, AUTHENTICATOR_PATH)),
        Change::RemoveAuthenticator => two_step::remove(state, signed).await,
        Change::RecoveryCodes => two_step::renew(state, signed).await,
    }
}
