//! `/admin/login` and `/admin/logout`: the directory sign-in of the admin screen, with the
//! second factor as its own step when the policy asks for one.
//!
//! Before sign-in there is no session to hold a CSRF token, so the form's token is also set
//! as a cookie and the two must match (a cross-site form cannot read or set the cookie). A
//! superadmin between password and code is remembered under the digest of that cookie.

use super::page;
use super::session::{self, Ctx};
use super::views::SignInView;
use crate::admin::guard::GuardError;
use crate::domain::secret::random_id;
use crate::domain::{Claims, Digest};
use crate::events::{Event, Place};
use crate::mfa::{Due, AMR_OTP};
use crate::signin::admin;
use crate::signin::AMR_PWD;
use crate::state::AppState;
use crate::store::HalfwaySignIn;
use crate::web::device::Browser;
use crate::web::errors::PageError;
use crate::web::i18n::{self, Text};
use crate::web::messages;
use crate::web::respond::{clear_cookie, cookie, cookie_value, redirect};
use poem::http::StatusCode;
use poem::web::cookie::CookieJar;
use poem::web::{Data, Form};
use poem::{handler, Response};
use secrecy::SecretString;
use serde::Deserialize;
use subtle::ConstantTimeEq;

/// The admin screen's sign-in form.
const SIGN_IN_PATH: &str = "/admin/login";

/// Cookie carrying the sign-in form's CSRF token.
const LOGIN_COOKIE: &str = "sso_admin_login";

const ENROL_FIRST: &str = "admin-enrol-first";
const WRONG_CODE: &str = "admin-wrong-code";

/// The sign-in form: username and password, then (second step) `otp`. No `Debug`: it holds a
/// password.
#[derive(Deserialize)]
pub struct SignInForm {
    #[serde(default)]
    csrf_token: String,
    #[serde(default)]
    username: String,
    #[serde(default)]
    password: Option<SecretString>,
    #[serde(default)]
    otp: Option<String>,
}

/// The password form under a fresh CSRF token.
fn show(
    state: &AppState,
    jar: &CookieJar,
    username: &str,
    error: Option<Text>,
    status: StatusCode,
) -> Result<Response, PageError> {
    i18n::return_to(SIGN_IN_PATH);
    let token = random_id(32);
    let ttl = state.settings.session.request_ttl.as_secs();
    jar.add(cookie(
        &state.settings,
        LOGIN_COOKIE,
        token.clone(),
        Some(ttl),
    ));
    let idle_minutes = state.settings.admin.session_idle.as_secs().div_ceil(60);
    let view = SignInView {
        csrf_token: token,
        username: username.to_owned(),
        error,
        notice: Some(Text::new("admin-signin-idle").arg("minutes", idle_minutes)),
        otp_step: false,
    };
    page(state, status, &view)
}

/// The second-factor form, under the sign-in cookie the password step used.
fn show_otp(
    state: &AppState,
    login_cookie: &str,
    username: &str,
    error: Option<Text>,
    status: StatusCode,
) -> Result<Response, PageError> {
    // The code step cannot be shown again by an address: choosing a language there would
    // start the sign-in over.
    i18n::no_return();
    let view = SignInView {
        csrf_token: login_cookie.to_owned(),
        username: username.to_owned(),
        error,
        notice: None,
        otp_step: true,
    };
    page(state, status, &view)
}

/// The sign-in form.
#[handler]
pub async fn sign_in_page(
    jar: &CookieJar,
    Data(state): Data<&AppState>,
) -> Result<Response, PageError> {
    show(state, jar, "", None, StatusCode::OK)
}

/// Checks the password and the admin rule, then the second factor when it is due; opens the
/// screen under a fresh session id.
#[handler]
pub async fn sign_in(
    jar: &CookieJar,
    browser: Browser,
    Data(state): Data<&AppState>,
    form: poem::Result<Form<SignInForm>>,
) -> Result<Response, PageError> {
    let Form(form) = form.map_err(|e| PageError::unreadable("sign-in form", e))?;
    run(state, jar, form, browser).await
}

async fn run(
    state: &AppState,
    jar: &CookieJar,
    form: SignInForm,
    browser: Browser,
) -> Result<Response, PageError> {
    let address = browser.ip;
    let cookie = cookie_value(&state.settings, jar, LOGIN_COOKIE).unwrap_or_default();
    let same =
        !cookie.is_empty() && bool::from(cookie.as_bytes().ct_eq(form.csrf_token.as_bytes()));
    if !same {
        return Err(PageError::Forged);
    }
    if let (Some(otp), None) = (form.otp.as_deref(), form.password.as_ref()) {
        return second_step(state, jar, &cookie, otp, browser).await;
    }
    let username = form.username.trim();
    let Some(password) = form.password.filter(|_| !username.is_empty()) else {
        let message = Text::new("signin-missing");
        return show(state, jar, username, Some(message), StatusCode::BAD_REQUEST);
    };
    let (claims, due) = match admin::first_factor(state, username, &password, address).await {
        Ok(passed) => passed,
        Err(e) => return refused(state, jar, username, e.into()),
    };
    match due {
        Due::Nothing => finish(state, jar, (claims, vec![AMR_PWD.to_owned()]), browser).await,
        Due::Enrol => show(
            state,
            jar,
            username,
            Some(ENROL_FIRST.into()),
            StatusCode::FORBIDDEN,
        ),
        Due::Verify => {
            let ttl = state.settings.session.request_ttl.as_secs();
            state
                .store
                .put_halfway_sign_in(
                    &Digest::of(&cookie),
                    &HalfwaySignIn {
                        claims,
                        signed_in_as: None,
                    },
                    ttl,
                )
                .await?;
            show_otp(state, &cookie, username, None, StatusCode::OK)
        }
    }
}

/// The second step: the code of a superadmin whose password was right.
async fn second_step(
    state: &AppState,
    jar: &CookieJar,
    cookie: &str,
    otp: &str,
    browser: Browser,
) -> Result<Response, PageError> {
    let address = browser.ip;
    let key = Digest::of(cookie);
    let Some(halfway) = state.store.halfway_sign_in(&key).await? else {
        let message = Text::new("signin-expired");
        return show(state, jar, "", Some(message), StatusCode::BAD_REQUEST);
    };
    let sub = halfway.claims.sub().to_owned();
    match admin::second_factor(state, &sub, otp, address)
        .await
        .map_err(GuardError::from)
    {
        Ok(()) => {
            state.store.delete_halfway_sign_in(&key).await?;
            let amr = vec![AMR_PWD.to_owned(), AMR_OTP.to_owned()];
            finish(state, jar, (halfway.claims, amr), browser).await
        }
        Err(GuardError::WrongSecondFactor) => show_otp(
            state,
            cookie,
            &sub,
            Some(WRONG_CODE.into()),
            StatusCode::UNAUTHORIZED,
        ),
        Err(e) => {
            state.store.delete_halfway_sign_in(&key).await?;
            refused(state, jar, &sub, e)
        }
    }
}

/// The page a refused sign-in shows.
fn refused(
    state: &AppState,
    jar: &CookieJar,
    username: &str,
    err: GuardError,
) -> Result<Response, PageError> {
    match err {
        GuardError::Unauthenticated => {
            let message = Text::new("signin-wrong");
            show(
                state,
                jar,
                username,
                Some(message),
                StatusCode::UNAUTHORIZED,
            )
        }
        GuardError::Locked => show(
            state,
            jar,
            username,
            Some(messages::locked()),
            StatusCode::TOO_MANY_REQUESTS,
        ),
        GuardError::EnrolmentRequired => show(
            state,
            jar,
            username,
            Some(ENROL_FIRST.into()),
            StatusCode::FORBIDDEN,
        ),
        GuardError::AccountUnusable(account) => show(
            state,
            jar,
            username,
            Some(messages::account_state(account)),
            StatusCode::FORBIDDEN,
        ),
        GuardError::Forbidden => Err(PageError::AdminForbidden),
        GuardError::Directory(cause) => Err(PageError::Directory(cause)),
        GuardError::Store(e) => Err(e.into()),
        other => Err(PageError::SecondFactor(other.to_string())),
    }
}

/// Opens the screen for a superadmin who passed every factor.
async fn finish(
    state: &AppState,
    jar: &CookieJar,
    (claims, amr): (Claims, Vec<String>),
    browser: Browser,
) -> Result<Response, PageError> {
    admin::signed_in(state, claims.sub(), browser.ip).await;
    clear_cookie(&state.settings, jar, LOGIN_COOKIE);
    session::open(state, jar, (claims, amr), browser.device).await?;
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
    jar: &CookieJar,
    Data(state): Data<&AppState>,
    form: poem::Result<Form<SignOutForm>>,
    ctx: Ctx,
) -> Result<Response, PageError> {
    let token = form.ok().and_then(|f| f.0.csrf_token);
    ctx.check(token.as_deref())?;
    session::close(state, jar).await?;
    let event = Event::SignedOut {
        sub: ctx.sub.clone(),
        place: Place::Admin,
        client_id: None,
        address: ctx.address.clone(),
    };
    state.events.publish(event).await;
    Ok(redirect(StatusCode::SEE_OTHER, "/admin/login"))
}
