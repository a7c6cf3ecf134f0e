//! `GET` / `POST /oauth/logout`: OpenID Connect RP-Initiated Logout 1.0 (`end_session_endpoint`).
//!
//! An app sends the browser here, ideally with the `id_token_hint` it received. A hint this
//! service signed for the signed-in user ends the session at once; otherwise the user confirms
//! on a page whose form carries a CSRF token bound to the session cookie. Afterwards the browser
//! goes to `post_logout_redirect_uri` (with `state`) only if that exact URI is registered for the
//! app; an unregistered one is refused on a page, never followed.

use super::views::LogoutPage;
use crate::domain::bounds;
use crate::domain::{ClientId, ClientRecord, Digest};
use crate::events::{Event, Place};
use crate::oauth::authorize::redirect_with;
use crate::oidc::id_token::verify_hint;
use crate::session::{self, SESSION_COOKIE};
use crate::state::AppState;
use crate::web::errors::PageError;
use crate::web::i18n::{self, Text};
use crate::web::respond::{self, redirect};
use poem::http::StatusCode;
use poem::web::cookie::CookieJar;
use poem::web::{Data, Form, Query};
use poem::{handler, Response};
use serde::Deserialize;

/// Path of the end-session endpoint.
pub const PATH: &str = "/oauth/logout";

/// Parameters of a logout request, from the query (GET) or the form (POST).
#[derive(Debug, Default, Deserialize)]
pub struct LogoutParams {
    id_token_hint: Option<String>,
    client_id: Option<String>,
    post_logout_redirect_uri: Option<String>,
    state: Option<String>,
    /// Set by the confirmation form only.
    csrf_token: Option<String>,
    /// `logout` from the confirmation form.
    decision: Option<String>,
}

/// A logout request checked against the registered apps.
struct Checked {
    client: Option<ClientRecord>,
    /// The user the app's id_token names, when a valid hint came.
    hinted_sub: Option<String>,
    /// A registered post-logout redirect URI.
    return_to: Option<String>,
}

impl Checked {
    /// The app's id, or empty when no app was named.
    fn client_id(&self) -> String {
        self.client
            .as_ref()
            .map(|c| c.client_id.to_string())
            .unwrap_or_default()
    }
}

/// The end-session endpoint, GET.
#[handler]
pub async fn start(
    jar: &CookieJar,
    Data(state): Data<&AppState>,
    params: poem::Result<Query<LogoutParams>>,
) -> Result<Response, PageError> {
    let Query(params) = params.map_err(|e| PageError::unreadable("sign-out request", e))?;
    run(state, jar, params).await
}

/// The end-session endpoint, POST (an app's form post, or the confirmation form).
#[handler]
pub async fn submit(
    jar: &CookieJar,
    Data(state): Data<&AppState>,
    params: poem::Result<Form<LogoutParams>>,
) -> Result<Response, PageError> {
    let Form(params) = params.map_err(|e| PageError::unreadable("sign-out request", e))?;
    run(state, jar, params).await
}

async fn run(
    state: &AppState,
    jar: &CookieJar,
    params: LogoutParams,
) -> Result<Response, PageError> {
    let checked = check(state, &params).await?;
    let cookie = respond::cookie_value(&state.settings, jar, SESSION_COOKIE);
    let session = session::load(state, cookie.as_deref()).await?;
    let (Some(session), Some(cookie)) = (session, cookie) else {
        // Nothing to end: the app only wants its user back.
        return finish(state, jar, &checked, params.state.as_deref(), None).await;
    };
    let csrf = csrf_token(&cookie);
    let confirmed = params.decision.as_deref() == Some("logout")
        && params
            .csrf_token
            .as_deref()
            .is_some_and(|t| Digest::of(t).ct_eq(&Digest::of(&csrf)));
    let hinted = checked.hinted_sub.as_deref() == Some(session.claims.sub());
    if params.decision.is_some() && !confirmed {
        return Err(PageError::Forged);
    }
    if confirmed || hinted {
        let event = Event::SignedOut {
            sub: session.claims.sub().to_owned(),
            place: Place::App,
            client_id: checked.client.as_ref().map(|c| c.client_id.clone()),
            address: None,
        };
        state.events.publish(event).await;
        return finish(state, jar, &checked, params.state.as_deref(), Some(&cookie)).await;
    }
    // Shown again by the same request without the decision (a hint that ended the session at
    // once would have done so already).
    let client_id = checked.client_id();
    let mut again = url::form_urlencoded::Serializer::new(String::new());
    for (name, value) in [
        ("client_id", Some(client_id.as_str())),
        ("post_logout_redirect_uri", checked.return_to.as_deref()),
        ("state", params.state.as_deref()),
    ] {
        if let Some(value) = value.filter(|v| !v.is_empty()) {
            again.append_pair(name, value);
        }
    }
    i18n::return_to(format!("{PATH}?{}", again.finish()));
    let page = LogoutPage {
        signed_out: false,
        app_name: checked.client.as_ref().map(|c| c.name.clone()),
        action: respond::url(&state.settings, PATH),
        csrf_token: csrf,
        client_id: checked.client_id(),
        post_logout_redirect_uri: checked.return_to.clone().unwrap_or_default(),
        state: params.state.unwrap_or_default(),
    };
    render(state, &page)
}

/// Ends the session (if any), then redirects to the registered URI or shows the done page.
async fn finish(
    state: &AppState,
    jar: &CookieJar,
    checked: &Checked,
    app_state: Option<&str>,
    cookie: Option<&str>,
) -> Result<Response, PageError> {
    if let Some(cookie) = cookie {
        // The apps that got tokens in the session are told (back-channel logout), the one that
        // asked included.
        session::end(state, cookie).await?;
    }
    respond::clear_cookie(&state.settings, jar, SESSION_COOKIE);
    if let Some(uri) = &checked.return_to {
        // The confirmation form posts an empty state back when the app sent none.
        let location = match app_state.filter(|s| !s.is_empty()) {
            Some(s) => redirect_with(uri, &[("state", s)]),
            None => uri.clone(),
        };
        return Ok(redirect(StatusCode::SEE_OTHER, &location));
    }
    i18n::return_to(PATH);
    let page = LogoutPage {
        signed_out: true,
        app_name: checked.client.as_ref().map(|c| c.name.clone()),
        action: respond::url(&state.settings, PATH),
        csrf_token: String::new(),
        client_id: String::new(),
        post_logout_redirect_uri: String::new(),
        state: String::new(),
    };
    render(state, &page)
}

fn render(state: &AppState, page: &LogoutPage) -> Result<Response, PageError> {
    respond::page(&state.templates, StatusCode::OK, page)
}

/// The confirmation form's token: only a page served to the holder of the session cookie
/// knows it.
fn csrf_token(session_cookie: &str) -> String {
    Digest::of(&format!("logout\n{session_cookie}"))
        .as_hex()
        .to_owned()
}

fn untrusted(message: Text) -> PageError {
    PageError::Untrusted {
        title: Text::new("error-logout-title"),
        message,
    }
}

/// Refuses a parameter over its documented maximum, before any is used or shown again.
fn within_bounds(params: &LogoutParams) -> Result<(), PageError> {
    let fields = [
        (
            "id_token_hint",
            &params.id_token_hint,
            bounds::ID_TOKEN_HINT,
        ),
        ("client_id", &params.client_id, bounds::CLIENT_ID),
        (
            "post_logout_redirect_uri",
            &params.post_logout_redirect_uri,
            bounds::REDIRECT_URI,
        ),
        ("state", &params.state, bounds::STATE),
        ("csrf_token", &params.csrf_token, bounds::TOKEN),
        ("decision", &params.decision, bounds::TOKEN),
    ];
    for (name, value, max) in fields {
        if let Some(value) = value {
            bounds::check(name, value, max)
                .map_err(|e| untrusted(Text::new("error-logout-malformed").arg("detail", e)))?;
        }
    }
    Ok(())
}

/// Identifies the app (from the hint or `client_id`) and checks the return address.
async fn check(state: &AppState, params: &LogoutParams) -> Result<Checked, PageError> {
    within_bounds(params)?;
    let non_empty = |v: &Option<String>| v.clone().filter(|s| !s.is_empty());
    let hint = match non_empty(&params.id_token_hint) {
        None => None,
        Some(token) => {
            let keys = state.keys.get(state.store.as_ref(), state.now()).await?;
            let claims = verify_hint(&keys, &state.settings.issuer(), &token);
            Some(claims.ok_or_else(|| untrusted(Text::new("error-logout-foreign-hint")))?)
        }
    };
    let client_id = match (
        hint.as_ref().map(|h| h.aud.clone()),
        non_empty(&params.client_id),
    ) {
        (Some(a), Some(b)) if a != b => {
            return Err(untrusted(Text::new("error-logout-client-mismatch")))
        }
        (a, b) => a.or(b),
    };
    let client = match client_id.as_deref().and_then(ClientId::parse) {
        // A disabled app is as good as unknown: its hint and return addresses are not followed.
        Some(id) => Some(
            state
                .store
                .client(&id)
                .await?
                .filter(|c| c.enabled)
                .ok_or_else(|| untrusted(Text::new("error-logout-unknown-app")))?,
        ),
        None => None,
    };
    let return_to = match non_empty(&params.post_logout_redirect_uri) {
        Some(uri) => Some(return_address(client.as_ref(), uri)?),
        None => None,
    };
    Ok(Checked {
        client,
        hinted_sub: hint.map(|h| h.sub),
        return_to,
    })
}

/// A post-logout redirect URI, if it is registered for the app that asks.
fn return_address(client: Option<&ClientRecord>, uri: String) -> Result<String, PageError> {
    match client {
        Some(c) if c.allows_post_logout_redirect(&uri) => Ok(uri),
        Some(_) => Err(untrusted(
            Text::new("error-logout-unregistered-return").arg("uri", uri),
        )),
        None => Err(untrusted(Text::new("error-logout-return-needs-app"))),
    }
}
