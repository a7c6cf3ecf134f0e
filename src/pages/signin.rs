//! `POST /oauth/login`: the directory sign-in form.

use super::errors::PageError;
use super::respond::{self, html, redirect};
use super::views::SignInPage;
use crate::directory::DirectoryError;
use crate::oauth::issue::{issue_code, Subject};
use crate::session::{self, consent, pending, FLOW_COOKIE, SESSION_COOKIE};
use crate::state::AppState;
use poem::http::StatusCode;
use poem::web::cookie::CookieJar;
use poem::web::{Data, Form};
use poem::{handler, Response};
use secrecy::SecretString;
use serde::Deserialize;

/// Path of the sign-in form's action.
pub const PATH: &str = "/oauth/login";

/// The sign-in form. No `Debug`: it holds a password.
#[derive(Deserialize)]
pub struct SignInForm {
    #[serde(default)]
    request_id: String,
    #[serde(default)]
    csrf_token: Option<String>,
    #[serde(default)]
    username: String,
    #[serde(default)]
    password: Option<SecretString>,
}

/// Renders the sign-in page.
pub fn signin_page(
    state: &AppState,
    app_name: &str,
    request_id: &str,
    csrf_token: &str,
    username: &str,
    error: Option<&str>,
    status: StatusCode,
) -> Result<Response, PageError> {
    let page = SignInPage {
        app_name: app_name.to_owned(),
        action: respond::url(state, PATH),
        request_id: request_id.to_owned(),
        csrf_token: csrf_token.to_owned(),
        username: username.to_owned(),
        error: error.map(str::to_owned),
    };
    let body = state
        .templates
        .signin(&page)
        .map_err(|e| PageError::Render(e.to_string()))?;
    Ok(html(status, body))
}

/// Checks the password with the directory and starts the SSO session.
#[handler]
pub async fn login(
    jar: &CookieJar,
    Data(state): Data<&AppState>,
    form: poem::Result<Form<SignInForm>>,
) -> Response {
    let result = match form {
        Ok(Form(form)) => run(state, jar, form).await,
        Err(e) => Err(PageError::BadForm(format!(
            "The sign-in form could not be read: {e}."
        ))),
    };
    result.unwrap_or_else(|e| e.into_response(state))
}

async fn run(state: &AppState, jar: &CookieJar, form: SignInForm) -> Result<Response, PageError> {
    let flow = jar.get(FLOW_COOKIE).map(|c| c.value_str().to_owned());
    let pending = pending::resume(
        state,
        &form.request_id,
        form.csrf_token.as_deref(),
        flow.as_deref(),
    )
    .await?;
    let client = state
        .store
        .client(&pending.request.client_id)
        .await?
        .filter(|c| c.enabled)
        .ok_or_else(|| PageError::Untrusted {
            title: "Unknown application".into(),
            message: "The application is no longer registered with sign-on.".into(),
        })?;
    let username = form.username.trim();
    let again = |message: &str, status| {
        signin_page(
            state,
            &client.name,
            &form.request_id,
            &pending.csrf_token,
            username,
            Some(message),
            status,
        )
    };
    let Some(password) = form.password.filter(|_| !username.is_empty()) else {
        return again("Enter your username and password.", StatusCode::BAD_REQUEST);
    };
    let user = match state.directory.authenticate(username, &password).await {
        Ok(user) => user,
        Err(DirectoryError::InvalidCredentials) => {
            tracing::info!(client_id = %client.client_id, "sign-in refused: invalid credentials");
            return again(
                "The username or password is incorrect.",
                StatusCode::UNAUTHORIZED,
            );
        }
        Err(e) => return Err(e.into()),
    };
    let claims = state
        .settings
        .claims
        .claims(&user.attributes)
        .ok_or_else(|| {
            PageError::UnusableAccount(format!("{} has no subject attribute", user.dn))
        })?;
    tracing::info!(sub = claims.sub(), client_id = %client.client_id, "signed in");

    // A fresh session id at every sign-in: an id planted before sign-in is never promoted.
    if let Some(old) = jar.get(SESSION_COOKIE) {
        session::destroy(state, old.value_str()).await?;
    }
    let session_id = session::create(state, claims.clone()).await?;
    jar.add(respond::cookie(
        state,
        SESSION_COOKIE,
        session_id,
        Some(state.settings.session.ttl_secs),
    ));

    let request = &pending.request;
    let approved = request.oidc.remembered_consent_usable()
        && consent::covers(state, claims.sub(), &request.client_id, &request.scopes).await?;
    if approved {
        if !pending::finish(state, &form.request_id).await? {
            return Err(PageError::Expired);
        }
        let location = issue_code(
            state,
            request,
            Subject {
                claims: &claims,
                auth_time: state.now(),
                amr: &["pwd".to_owned()],
            },
        )
        .await?;
        return Ok(redirect(StatusCode::SEE_OTHER, &location));
    }
    let consent_url = respond::url(
        state,
        &format!("{}?request_id={}", super::consent::PATH, form.request_id),
    );
    Ok(redirect(StatusCode::SEE_OTHER, &consent_url))
}
