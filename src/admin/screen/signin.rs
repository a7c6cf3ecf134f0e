//! `/admin/login` and `/admin/logout`: the directory sign-in of the admin screen.
//!
//! Before sign-in there is no session to hold a CSRF token, so the form's token is also set
//! as a cookie and the two must match (a cross-site form cannot read or set the cookie).

use super::views::SignInView;
use super::{page, respond, session};
use crate::admin::guard::{self, GuardError};
use crate::audit::{self, Action, AuditEvent};
use crate::domain::secret::random_id;
use crate::pages::errors::PageError;
use crate::pages::respond::{self as pages, redirect};
use crate::state::AppState;
use poem::http::StatusCode;
use poem::web::cookie::CookieJar;
use poem::web::{Data, Form};
use poem::{handler, Request, Response};
use secrecy::SecretString;
use serde::Deserialize;
use subtle::ConstantTimeEq;

/// Cookie carrying the sign-in form's CSRF token.
const LOGIN_COOKIE: &str = "sso_admin_login";

/// The sign-in form. No `Debug`: it holds a password.
#[derive(Deserialize)]
pub struct SignInForm {
    #[serde(default)]
    csrf_token: String,
    #[serde(default)]
    username: String,
    #[serde(default)]
    password: Option<SecretString>,
}

fn show(
    state: &AppState,
    jar: &CookieJar,
    username: &str,
    error: Option<&str>,
    status: StatusCode,
) -> Result<Response, PageError> {
    let token = random_id(32);
    let ttl = state.settings.session.request_ttl_secs;
    jar.add(pages::cookie(state, LOGIN_COOKIE, token.clone(), Some(ttl)));
    let idle_minutes = state.settings.admin.session_idle_secs.div_ceil(60);
    let view = SignInView {
        csrf_token: token,
        username: username.to_owned(),
        error: error.map(str::to_owned),
        notice: Some(format!(
            "For safety the admin screen signs you out after {idle_minutes} minutes without activity."
        )),
    };
    page(state, status, &view)
}

/// The sign-in form.
#[handler]
pub async fn sign_in_page(jar: &CookieJar, Data(state): Data<&AppState>) -> Response {
    respond(state, show(state, jar, "", None, StatusCode::OK))
}

/// Checks the password and the admin rule; opens the screen under a fresh session id.
#[handler]
pub async fn sign_in(
    req: &Request,
    jar: &CookieJar,
    Data(state): Data<&AppState>,
    form: poem::Result<Form<SignInForm>>,
) -> Response {
    let result = match form {
        Ok(Form(form)) => run(state, jar, form, audit::address_of(req)).await,
        Err(e) => Err(PageError::BadForm(format!(
            "The sign-in form could not be read: {e}."
        ))),
    };
    respond(state, result)
}

async fn run(
    state: &AppState,
    jar: &CookieJar,
    form: SignInForm,
    address: Option<String>,
) -> Result<Response, PageError> {
    let cookie = jar.get(LOGIN_COOKIE).map(|c| c.value_str().to_owned());
    let same: bool = cookie
        .map(|c| !c.is_empty() && bool::from(c.as_bytes().ct_eq(form.csrf_token.as_bytes())))
        .unwrap_or(false);
    if !same {
        return Err(PageError::Forged);
    }
    let username = form.username.trim();
    let Some(password) = form.password.filter(|_| !username.is_empty()) else {
        let message = "Enter your username and password.";
        return show(state, jar, username, Some(message), StatusCode::BAD_REQUEST);
    };
    let claims =
        match guard::authenticate_admin(state, username, &password, address.as_deref()).await {
            Ok(claims) => claims,
            Err(GuardError::Unauthenticated) => {
                let message = "The username or password is incorrect.";
                return show(
                    state,
                    jar,
                    username,
                    Some(message),
                    StatusCode::UNAUTHORIZED,
                );
            }
            Err(GuardError::Forbidden) => return Err(PageError::AdminForbidden),
            Err(GuardError::Directory(cause)) => return Err(PageError::Directory(cause)),
            Err(GuardError::Store(e)) => return Err(e.into()),
        };
    pages::clear_cookie(state, jar, LOGIN_COOKIE);
    session::open(state, jar, claims).await?;
    Ok(redirect(StatusCode::SEE_OTHER, "/admin/apps"))
}

/// The sign-out button's form.
#[derive(Deserialize)]
pub struct SignOutForm {
    #[serde(default)]
    csrf_token: Option<String>,
}

/// Signs out of the admin screen (and of single sign-on in this browser).
#[handler]
pub async fn logout(
    req: &Request,
    jar: &CookieJar,
    Data(state): Data<&AppState>,
    form: poem::Result<Form<SignOutForm>>,
) -> Response {
    let ctx = match super::signed_in(state, req, jar).await {
        Ok(ctx) => ctx,
        Err(response) => return response,
    };
    let result = async {
        let token = form.ok().and_then(|f| f.0.csrf_token);
        ctx.check(token.as_deref())?;
        session::close(state, jar).await?;
        let event = AuditEvent::new(Action::AdminSignOut, Some(&ctx.sub))
            .from_address(ctx.address.as_deref());
        audit::record(state, event).await;
        Ok(redirect(StatusCode::SEE_OTHER, "/admin/login"))
    };
    respond(state, result.await)
}
