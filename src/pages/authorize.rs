//! `GET /oauth/authorize`: validate, then sign-in page, consent page, or straight back with a
//! code when the browser is signed in and the app already approved (single sign-on).

use super::consent::consent_page;
use super::errors::PageError;
use super::respond::{self, redirect};
use super::signin::signin_page;
use crate::domain::secret::random_id;
use crate::oauth::authorize::{error_redirect, validate, AuthorizeError};
use crate::oauth::issue::{issue_code, Subject};
use crate::session::{self, consent, pending, FLOW_COOKIE, SESSION_COOKIE};
use crate::state::AppState;
use poem::http::StatusCode;
use poem::web::cookie::CookieJar;
use poem::web::Data;
use poem::{handler, Request, Response};

/// The authorize endpoint (SPEC 4.1).
#[handler]
pub async fn authorize(req: &Request, jar: &CookieJar, Data(state): Data<&AppState>) -> Response {
    run(state, req.uri().query().unwrap_or(""), jar)
        .await
        .unwrap_or_else(|e| e.into_response(state))
}

async fn run(state: &AppState, query: &str, jar: &CookieJar) -> Result<Response, PageError> {
    let (client, request) = match validate(state.store.as_ref(), query).await {
        Ok(ok) => ok,
        Err(AuthorizeError::Untrusted { title, message }) => {
            crate::admin::doctor::authorize_refused(state, query, None).await;
            return Err(PageError::Untrusted {
                title: title.into(),
                message,
            });
        }
        Err(AuthorizeError::Redirect {
            redirect_uri,
            state: app_state,
            error,
        }) => {
            tracing::info!(error = error.code(), "authorize request refused");
            crate::admin::doctor::authorize_refused(state, query, Some(&error)).await;
            let location = error_redirect(&redirect_uri, app_state.as_deref(), &error);
            return Ok(redirect(StatusCode::FOUND, &location));
        }
        Err(AuthorizeError::Store(e)) => return Err(e.into()),
    };

    let session_cookie = jar.get(SESSION_COOKIE).map(|c| c.value_str().to_owned());
    let session = session::load(state, session_cookie.as_deref()).await?;
    // A session that still owes a second factor (the user came under the policy since, or
    // stopped half-way) cannot skip to a code: it goes through the second-factor page first.
    let due = match &session {
        Some(s) => crate::mfa::due(state, &s.claims, &s.amr, None).await?,
        None => crate::mfa::Due::Nothing,
    };
    if let Some(session) = session.as_ref().filter(|_| due == crate::mfa::Due::Nothing) {
        let sub = session.claims.sub();
        if consent::covers(state, sub, &client.client_id, &request.scopes).await? {
            let location = issue_code(
                state,
                &request,
                Subject {
                    claims: &session.claims,
                    auth_time: session.auth_time,
                },
            )
            .await?;
            return Ok(redirect(StatusCode::FOUND, &location));
        }
    }

    let flow = match jar.get(FLOW_COOKIE) {
        Some(c) if !c.value_str().is_empty() => c.value_str().to_owned(),
        _ => {
            let value = random_id(32);
            jar.add(respond::cookie(state, FLOW_COOKIE, value.clone(), None));
            value
        }
    };
    let (request_id, pending) = pending::start(state, request, &flow).await?;
    if let Some(next) = super::second_factor::location(state, due, &request_id) {
        return Ok(redirect(StatusCode::FOUND, &next));
    }
    match session {
        Some(session) => consent_page(state, &client, &session, &request_id, &pending),
        None => signin_page(
            state,
            &client.name,
            &request_id,
            &pending.csrf_token,
            "",
            None,
            StatusCode::OK,
        ),
    }
}
