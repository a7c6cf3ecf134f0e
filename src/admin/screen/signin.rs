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
use crate::domain::{Claims, Digest};
use crate::events::{Event, Place};
use crate::mfa::passkey;
use crate::mfa::{enrolment, Due, MfaError, AMR_OTP};
use crate::pages::second_factor::{passkey_refusal, second_factor_prompt};
use crate::signin::admin::{self, AdminSignInError};
use crate::signin::{CodeError, AMR_PWD};
use crate::state::AppState;
use crate::store::HalfwaySignIn;
use crate::web::device::Browser;
use crate::web::errors::PageError;
use crate::web::i18n::{self, Text};
use crate::web::login_cookie::LoginCookie;
use crate::web::messages;
use crate::web::respond::redirect;
use poem::http::StatusCode;
use poem::web::cookie::CookieJar;
use poem::web::{Data, Form};
use poem::{handler, Response};
use secrecy::SecretString;
use serde::Deserialize;

/// The admin screen's sign-in form.
const SIGN_IN_PATH: &str = "/admin/login";

/// The form that answers the passkey ceremony of the second step.
const PASSKEY_PATH: &str = "/admin/login/passkey";

/// Cookie carrying the sign-in form's CSRF token.
const LOGIN: LoginCookie = LoginCookie("sso_admin_login");

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

/// The passkey form of the second step.
#[derive(Deserialize)]
pub struct PasskeyStepForm {
    #[serde(default)]
    csrf_token: String,
    /// The authenticator's answer, JSON, put here by `/assets/passkey.js`.
    #[serde(default)]
    credential: String,
}

/// Where the passkey ceremony of the sign-in under `login_cookie` is kept: like the halfway
/// sign-in, under the cookie's digest, never the cookie itself.
fn ceremony_key(login_cookie: &str) -> String {
    format!("admin-login:{}", Digest::of(login_cookie).as_hex())
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
    let token = LOGIN.issue(&state.settings, jar);
    let idle_minutes = state.settings.admin.session_idle.as_secs().div_ceil(60);
    let view = SignInView {
        csrf_token: token,
        username: username.to_owned(),
        error,
        notice: Some(Text::new("admin-signin-idle").arg("minutes", idle_minutes)),
        otp_step: false,
        passkey: None,
        code_form: false,
    };
    page(state, status, &view)
}

/// The second-factor step, under the sign-in cookie the password step used: the person's
/// passkey offered first (the ceremony of the app sign-in's step), the code form when they have
/// an authenticator app or no passkey.
async fn show_otp(
    state: &AppState,
    login_cookie: &str,
    sub: &str,
    error: Option<Text>,
    status: StatusCode,
) -> Result<Response, PageError> {
    // The code step cannot be shown again by an address: choosing a language there would
    // start the sign-in over.
    i18n::no_return();
    let key = ceremony_key(login_cookie);
    let passkey = second_factor_prompt(state, sub, &key, PASSKEY_PATH).await?;
    let code_form = passkey.is_none() || enrolment::is_enrolled(state, sub).await?;
    let view = SignInView {
        csrf_token: login_cookie.to_owned(),
        username: sub.to_owned(),
        error,
        notice: None,
        otp_step: true,
        passkey,
        code_form,
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
    let address = browser.ip;
    let cookie = LOGIN.check(&state.settings, jar, &form.csrf_token)?;
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
            let sub = claims.sub().to_owned();
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
            show_otp(state, &cookie, &sub, None, StatusCode::OK).await
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
        Err(GuardError::WrongSecondFactor) => {
            let wrong = Some(WRONG_CODE.into());
            show_otp(state, cookie, &sub, wrong, StatusCode::UNAUTHORIZED).await
        }
        Err(e) => {
            state.store.delete_halfway_sign_in(&key).await?;
            refused(state, jar, &sub, e)
        }
    }
}

/// Checks the passkey of the second step.
#[handler]
pub async fn sign_in_passkey(
    jar: &CookieJar,
    browser: Browser,
    Data(state): Data<&AppState>,
    form: poem::Result<Form<PasskeyStepForm>>,
) -> Result<Response, PageError> {
    let Form(form) = form.map_err(|e| PageError::unreadable("passkey form", e))?;
    let address = browser.ip;
    let cookie = LOGIN.check(&state.settings, jar, &form.csrf_token)?;
    let key = Digest::of(&cookie);
    let Some(halfway) = state.store.halfway_sign_in(&key).await? else {
        let message = Text::new("signin-expired");
        return show(state, jar, "", Some(message), StatusCode::BAD_REQUEST);
    };
    let sub = halfway.claims.sub().to_owned();
    let ceremony = ceremony_key(&cookie);
    let answer = &form.credential;
    let err = match admin::second_factor_passkey(state, &sub, &ceremony, answer, address).await {
        Ok(verified) => {
            state.store.delete_halfway_sign_in(&key).await?;
            let mut amr = vec![AMR_PWD.to_owned()];
            let methods = passkey::methods(verified.user_verified);
            amr.extend(methods.iter().map(|m| (*m).to_owned()));
            return finish(state, jar, (halfway.claims, amr), browser).await;
        }
        Err(err) => err,
    };
    // An answer that did not pass (or a ceremony that expired) shows the step again, with a
    // new challenge; anything else ends this sign-in.
    let refusal = match &err {
        AdminSignInError::Code(CodeError::Wrong | CodeError::Replayed) => {
            Some(("passkey-refused", StatusCode::UNAUTHORIZED))
        }
        AdminSignInError::Code(CodeError::Unchecked(MfaError::Passkey(e))) => passkey_refusal(e),
        _ => None,
    };
    if let Some((message, status)) = refusal {
        return show_otp(state, &cookie, &sub, Some(Text::new(message)), status).await;
    }
    state.store.delete_halfway_sign_in(&key).await?;
    refused(state, jar, &sub, err.into())
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
    LOGIN.clear(&state.settings, jar);
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
