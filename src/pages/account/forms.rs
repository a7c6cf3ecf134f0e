//! The account page's forms: take an app back, end a session, end every other session. Each
//! answers with a redirect to the page (303), which says what was done.

use super::{Signed, PATH};
use crate::account::{apps, sessions};
use crate::pages::logout;
use crate::session::SESSION_COOKIE;
use crate::state::AppState;
use crate::web::errors::PageError;
use crate::web::respond::{self, redirect};
use poem::http::StatusCode;
use poem::web::cookie::CookieJar;
use poem::web::{Data, Form};
use poem::{handler, Response};
use serde::Deserialize;

/// `POST /account/apps/revoke`.
#[derive(Debug, Deserialize)]
pub struct RevokeAppForm {
    #[serde(default)]
    csrf_token: Option<String>,
    #[serde(default)]
    client_id: String,
}

/// `POST /account/sessions/end` and `/account/sessions/end-all` (which sends no `session`).
#[derive(Debug, Deserialize)]
pub struct EndSessionForm {
    #[serde(default)]
    csrf_token: Option<String>,
    #[serde(default)]
    session: String,
}

fn back(query: &str) -> Response {
    redirect(StatusCode::SEE_OTHER, &format!("{PATH}?{query}"))
}

/// Takes an app back: its tokens revoked, its approval forgotten, the app told.
#[handler]
pub async fn revoke_app(
    Data(state): Data<&AppState>,
    form: poem::Result<Form<RevokeAppForm>>,
    signed: Signed,
) -> Result<Response, PageError> {
    let Form(form) = form.map_err(|e| PageError::unreadable("form", e))?;
    signed.check(form.csrf_token.as_deref())?;
    apps::remove(state, signed.person(), &form.client_id).await?;
    Ok(back("done=app_removed"))
}

/// Ends one session; ending this browser's signs it out.
#[handler]
pub async fn end_session(
    jar: &CookieJar,
    Data(state): Data<&AppState>,
    form: poem::Result<Form<EndSessionForm>>,
    signed: Signed,
) -> Result<Response, PageError> {
    let Form(form) = form.map_err(|e| PageError::unreadable("form", e))?;
    signed.check(form.csrf_token.as_deref())?;
    let sid = form.session.trim();
    let this_browser = sessions::end(state, signed.person(), &signed.cookie, sid).await?;
    if this_browser {
        respond::clear_cookie(&state.settings, jar, SESSION_COOKIE);
        // With no session left, the sign-out endpoint only says the browser is signed out.
        return Ok(redirect(StatusCode::SEE_OTHER, logout::PATH));
    }
    Ok(back("done=session_ended"))
}

/// Ends every session but this browser's.
#[handler]
pub async fn end_others(
    Data(state): Data<&AppState>,
    form: poem::Result<Form<EndSessionForm>>,
    signed: Signed,
) -> Result<Response, PageError> {
    let Form(form) = form.map_err(|e| PageError::unreadable("form", e))?;
    signed.check(form.csrf_token.as_deref())?;
    let ended = sessions::end_others(state, signed.person(), &signed.cookie).await?;
    Ok(back(&format!("done=sessions_ended&count={ended}")))
}
