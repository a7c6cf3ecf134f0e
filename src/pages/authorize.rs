//! `GET` / `POST /oauth/authorize`: validate, then sign-in page, consent page, or straight back
//! with a code when the browser is signed in and the app already approved (single sign-on).

use super::consent::consent_page;
use super::signin::signin_page;
use crate::domain::secret::random_id;
use crate::mfa::Due;
use crate::oauth::authorize::{
    error_redirect, validate, AuthorizationRequest, AuthorizeError, Untrusted,
};
use crate::oauth::issue::{issue_code, Subject};
use crate::oauth::OAuthError;
use crate::session::{self, consent, pending, SessionRecord, FLOW_COOKIE, SESSION_COOKIE};
use crate::state::AppState;
use crate::web::address::ClientAddr;
use crate::web::errors::PageError;
use crate::web::i18n::{self, Text};
use crate::web::respond::{self, redirect};
use poem::http::StatusCode;
use poem::web::cookie::CookieJar;
use poem::web::Data;
use poem::{handler, Request, Response};

/// The authorize endpoint (RFC 6749 §4.1.1; docs/src/protocol.md, Authorization endpoint).
#[handler]
pub async fn authorize(
    req: &Request,
    jar: &CookieJar,
    from: ClientAddr,
    Data(state): Data<&AppState>,
) -> Result<Response, PageError> {
    run(state, req.uri().query().unwrap_or(""), jar, from).await
}

/// The authorize endpoint by POST, with the parameters form-encoded in the body (OpenID Connect
/// Core §3.1.2.1 requires both methods).
#[handler]
pub async fn authorize_post(
    jar: &CookieJar,
    from: ClientAddr,
    Data(state): Data<&AppState>,
    body: poem::Body,
) -> Result<Response, PageError> {
    let bytes = body
        .into_bytes_limit(crate::web::body_limit::FORM_MAX)
        .await
        .map_err(|e| PageError::unreadable("request", e))?;
    let form = std::str::from_utf8(&bytes).map_err(|_| {
        PageError::BadForm(
            Text::new("error-not-utf8"),
            "The request is not valid UTF-8.".into(),
        )
    })?;
    run(state, form, jar, from).await
}

async fn run(
    state: &AppState,
    query: &str,
    jar: &CookieJar,
    from: ClientAddr,
) -> Result<Response, PageError> {
    let (client, request) = match validate(state.store.as_ref(), query).await {
        Ok(ok) => ok,
        Err(AuthorizeError::Untrusted(why)) => {
            crate::oauth::authorize::refused(state, query, None).await;
            return Err(untrusted(why));
        }
        Err(AuthorizeError::Redirect {
            redirect_uri,
            state: app_state,
            error,
            reason,
        }) => {
            tracing::info!(error = error.code(), "authorize request refused");
            crate::oauth::authorize::refused(state, query, Some((reason, &error))).await;
            let issuer = state.settings.issuer();
            let location = error_redirect(&issuer, &redirect_uri, app_state.as_deref(), &error);
            return Ok(redirect(StatusCode::FOUND, &location));
        }
        Err(AuthorizeError::Store(e)) => return Err(e.into()),
    };

    let session_cookie = respond::cookie_value(&state.settings, jar, SESSION_COOKIE);
    // prompt=login and max_age make an existing sign-in not good enough: ask for the password.
    let now = state.now();
    // The pages of this sign-in speak the language the app asks for.
    i18n::for_sign_in(request.oidc.ui_locales.as_deref(), Some(now));
    // A user the directory no longer finds is signed out here (sign-in page); an unanswered
    // directory is the directory-unavailable page, never a sign-out.
    let session = session::current(state, session_cookie.as_deref())
        .await?
        .filter(|s| request.oidc.session_usable(s.auth_time, now));
    // A session that still owes a second factor (the user came under the policy since, or
    // stopped half-way) cannot skip to a code: it goes through the second-factor page first.
    // Whether the user approved the app before is read at the same time, so that single
    // sign-on waits for one round trip to the store instead of two.
    let (due, approved) = match &session {
        Some(s) => {
            let due = async {
                Ok::<_, PageError>(crate::mfa::due(state, &s.claims, &s.amr, None).await?)
            };
            let approved = async {
                let usable = request.oidc.remembered_consent_usable();
                Ok::<_, PageError>(
                    usable
                        && consent::covers(
                            state,
                            s.claims.sub(),
                            &client.client_id,
                            &request.scopes,
                        )
                        .await?,
                )
            };
            tokio::try_join!(due, approved)?
        }
        None => (Due::Nothing, false),
    };
    // Someone known (signed in, every factor in) whom the app is not for: refused here, before
    // any consent page or code.
    if let Some(s) = session.as_ref().filter(|_| due == Due::Nothing) {
        if !client.allows(&s.claims) {
            let sub = s.claims.sub().to_owned();
            return super::access::refuse(state, &client, &request, &sub, from.ip(), None).await;
        }
    }
    let signed_on = session.as_ref().filter(|_| due == Due::Nothing && approved);
    if let Some(location) = without_pages(state, &request, session.as_ref(), due, signed_on).await?
    {
        return Ok(redirect(StatusCode::FOUND, &location));
    }

    let flow = match respond::cookie_value(&state.settings, jar, FLOW_COOKIE) {
        Some(value) if !value.is_empty() => value,
        _ => {
            let value = random_id(32);
            jar.add(respond::cookie(
                &state.settings,
                FLOW_COOKIE,
                value.clone(),
                None,
            ));
            value
        }
    };
    let (request_id, pending) =
        pending::start(state, request, &flow, session_cookie.as_deref(), from.ip()).await?;
    if let Some(next) = super::second_factor::location(state, due, &request_id) {
        return Ok(redirect(StatusCode::FOUND, &next));
    }
    match session {
        Some(session) => consent_page(state, &client, &session, &request_id, &pending),
        None => {
            signin_page(
                state,
                &client.name,
                &request_id,
                &pending.csrf_token,
                pending.request.oidc.login_hint.as_deref().unwrap_or(""),
                None,
                StatusCode::OK,
            )
            .await
        }
    }
}

/// Where the browser goes when no page needs to be shown: a code for a signed-in user who
/// approved the app before (single sign-on, `approved`: the session, when it owes no second
/// factor and the app's approval is remembered), or, for `prompt=none`, the error saying which
/// page would have been needed (OpenID Connect Core §3.1.2.6).
async fn without_pages(
    state: &AppState,
    request: &AuthorizationRequest,
    session: Option<&SessionRecord>,
    due: Due,
    approved: Option<&SessionRecord>,
) -> Result<Option<String>, PageError> {
    if let Some(session) = approved {
        let subject = Subject::of(session);
        return Ok(Some(issue_code(state, request, subject).await?));
    }
    if !request.oidc.prompt_none {
        return Ok(None);
    }
    let error = match session {
        None => OAuthError::LoginRequired("the user is not signed in".into()),
        Some(_) if due != Due::Nothing => {
            OAuthError::LoginRequired("the user must pass a second factor".into())
        }
        Some(_) => OAuthError::ConsentRequired("the user has not approved this application".into()),
    };
    let issuer = state.settings.issuer();
    let state_param = request.state.as_deref();
    Ok(Some(error_redirect(
        &issuer,
        &request.redirect_uri,
        state_param,
        &error,
    )))
}

/// The error page of a request that cannot be trusted enough to redirect.
fn untrusted(why: Untrusted) -> PageError {
    let invalid = || Text::new("error-invalid-request-title");
    let (title, message) = match why {
        Untrusted::TooLong { max } => (
            invalid(),
            // A byte count for developers: plain digits, as the error says it everywhere.
            Text::new("error-request-too-long").arg("max", max.to_string()),
        ),
        Untrusted::Malformed(detail) => (
            invalid(),
            Text::new("error-request-malformed").arg("detail", detail),
        ),
        Untrusted::NoClient => (invalid(), Text::new("error-no-client-id")),
        Untrusted::NoRedirectUri => (invalid(), Text::new("error-no-redirect-uri")),
        Untrusted::UnknownClient => (
            Text::new("error-unknown-app-title"),
            Text::new("error-unknown-app-message"),
        ),
        Untrusted::UnregisteredRedirectUri { received } => (
            Text::new("error-unregistered-redirect-title"),
            Text::new("error-unregistered-redirect-message").arg("uri", received),
        ),
    };
    PageError::Untrusted { title, message }
}
