//! `/account/login`: the sign-in of the account page for a browser not signed in, with the
//! second factor (a passkey first, or a code; [`with_passkey`]) as its own step when the policy (or the person's own enrolment) asks for one,
//! and for a person the policy puts under a second factor who has none yet, the set-up of an
//! authenticator app (the sign-in pages' enrolment) and their recovery codes; then back to the
//! page, signed in to single sign-on.
//!
//! Before sign-in there is no session to hold a CSRF token, so the form's token is also set as
//! a cookie and the two must match (a cross-site form can neither read nor set the cookie). A
//! person between password and code is remembered under the digest of that cookie.

mod with_passkey;

use super::two_step;
use super::views::AccountSignInPage;
use super::{PATH, SIGN_IN_PASSKEY_PATH, SIGN_IN_PATH};
use crate::domain::{Claims, Digest};
use crate::events::Place;
use crate::mfa::enrolment::{self, Holder};
use crate::mfa::{self, passkey, Due, MfaError, AMR_OTP};
use crate::pages::second_factor::second_factor_prompt;
use crate::pages::views::EnrolPage;
use crate::pages::views::PasskeyPrompt;
use crate::session::SESSION_COOKIE;
use crate::signin::{self, CodeError, PasswordError, Where, AMR_PWD};
use crate::state::AppState;
use crate::store::HalfwaySignIn;
use crate::web::device::Browser;
use crate::web::errors::PageError;
use crate::web::i18n::{self, Text};
use crate::web::login_cookie::LoginCookie;
use crate::web::messages;
use crate::web::respond::{self, cookie, cookie_value, redirect};
use poem::http::StatusCode;
use poem::web::cookie::CookieJar;
use poem::web::{Data, Form};
use poem::{handler, Response};
use secrecy::SecretString;
use serde::Deserialize;

/// Cookie carrying the sign-in form's CSRF token.
const LOGIN: LoginCookie = LoginCookie("sso_account_login");

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

use with_passkey::passkey_key;
pub use with_passkey::passkey_step;

/// The password form under a fresh CSRF token, with "Sign in with a passkey" beside it when
/// `mfa.passwordless` is on.
async fn show(
    state: &AppState,
    jar: &CookieJar,
    username: &str,
    error: Option<Text>,
    status: StatusCode,
) -> Result<Response, PageError> {
    i18n::return_to(SIGN_IN_PATH);
    let token = LOGIN.issue(&state.settings, jar);
    let passkey = match state.settings.mfa.passwordless && passkey::offered(state) {
        true => {
            let options = passkey::start_passwordless(state, &passkey_key(&token))
                .await
                .map_err(MfaError::from)?;
            Some(PasskeyPrompt {
                action: respond::url(&state.settings, SIGN_IN_PASSKEY_PATH),
                options,
            })
        }
        false => None,
    };
    let page = AccountSignInPage {
        csrf_token: token,
        username: username.to_owned(),
        error,
        otp_step: false,
        passkey,
        code_form: false,
    };
    let response = respond::page(&state.templates, status, &page)?;
    Ok(match page.passkey {
        Some(_) => respond::with_own_scripts(response),
        None => response,
    })
}

/// The second step under the cookie the password step used: the person's passkey first when
/// they have one (the sign-in pages' second-factor ceremony), and the code form when they have
/// an authenticator app.
async fn show_otp(
    state: &AppState,
    (login_cookie, sub): (&str, &str),
    error: Option<Text>,
    status: StatusCode,
) -> Result<Response, PageError> {
    // Choosing a language at the code step would start the sign-in over.
    i18n::no_return();
    let key = passkey_key(login_cookie);
    let passkey = second_factor_prompt(state, sub, &key, SIGN_IN_PASSKEY_PATH).await?;
    let page = AccountSignInPage {
        csrf_token: login_cookie.to_owned(),
        username: String::new(),
        error,
        otp_step: true,
        code_form: passkey.is_none() || enrolment::is_enrolled(state, sub).await?,
        passkey,
    };
    let response = respond::page(&state.templates, status, &page)?;
    Ok(match page.passkey {
        Some(_) => respond::with_own_scripts(response),
        None => response,
    })
}

/// `GET /account/login`.
#[handler]
pub async fn sign_in_page(
    jar: &CookieJar,
    Data(state): Data<&AppState>,
) -> Result<Response, PageError> {
    show(state, jar, "", None, StatusCode::OK).await
}

/// `POST /account/login`: the password, or the code of the second step.
#[handler]
pub async fn sign_in(
    jar: &CookieJar,
    browser: Browser,
    Data(state): Data<&AppState>,
    form: poem::Result<Form<SignInForm>>,
) -> Result<Response, PageError> {
    let Form(form) = form.map_err(|e| PageError::unreadable("sign-in form", e))?;
    let login = LOGIN.check(&state.settings, jar, &form.csrf_token)?;
    let at = Where {
        place: Place::App,
        client_id: None,
        address: browser.ip,
    };
    if let (Some(otp), None) = (form.otp.as_deref(), form.password.as_ref()) {
        return second_step(state, jar, (&login, otp), at, browser).await;
    }
    let username = form.username.trim();
    let Some(password) = form.password.filter(|_| !username.is_empty()) else {
        let missing = Some(Text::new("signin-missing"));
        return show(state, jar, username, missing, StatusCode::BAD_REQUEST).await;
    };
    let passed = match signin::check_password(state, at, username, &password).await {
        Ok(passed) => passed,
        Err(e) => return refused(state, jar, username, e).await,
    };
    let amr = [AMR_PWD.to_owned()];
    match mfa::due(state, &passed.claims, &amr, Some(&passed.user)).await? {
        Due::Nothing => {
            let signed_in = (passed.claims, amr.to_vec(), Some(passed.name));
            finish(state, jar, signed_in, at, browser).await
        }
        due @ (Due::Enrol | Due::Verify) => {
            let ttl = state.settings.session.request_ttl.as_secs();
            let sub = passed.claims.sub().to_owned();
            let halfway = HalfwaySignIn {
                claims: passed.claims,
                signed_in_as: Some(passed.name),
            };
            state
                .store
                .put_halfway_sign_in(&Digest::of(&login), &halfway, ttl)
                .await?;
            if due == Due::Enrol {
                return show_enrol(state, (&login, &sub), None, StatusCode::OK).await;
            }
            show_otp(state, (&login, &sub), None, StatusCode::OK).await
        }
    }
}

/// The set-up slot of this sign-in: one pending authenticator per sign-in form, which a
/// reload shows again.
fn setup_slot(login: &str) -> String {
    Digest::of(&format!("account-login-setup\n{login}"))
        .as_hex()
        .to_owned()
}

/// The set-up of an authenticator app, for a person whose password was right and whom the
/// policy puts under a second factor they do not have yet; its first code is the second step.
async fn show_enrol(
    state: &AppState,
    (login, sub): (&str, &str),
    error: Option<Text>,
    status: StatusCode,
) -> Result<Response, PageError> {
    // Choosing a language here would start the sign-in over.
    i18n::no_return();
    let setup = enrolment::setup(state, sub, Holder::browser(&setup_slot(login))).await?;
    let page = EnrolPage {
        passkey: None,
        app_name: None,
        username: sub.to_owned(),
        qr: setup.qr,
        secret: setup.secret,
        action: SIGN_IN_PATH.to_owned(),
        request_id: None,
        csrf_token: login.to_owned(),
        error,
    };
    respond::page(&state.templates, status, &page)
}

/// The second step of a person with no second factor yet: the first code of the authenticator
/// being set up; then the recovery codes, shown once, and on to the page.
async fn enrol_step(
    state: &AppState,
    jar: &CookieJar,
    (login, otp): (&str, &str),
    (halfway, at): (HalfwaySignIn, Where<'_>),
    browser: Browser,
) -> Result<Response, PageError> {
    let sub = halfway.claims.sub().to_owned();
    let slot = setup_slot(login);
    let holder = Holder::browser(&slot);
    let (message, status) = match signin::confirm_enrolment(state, at, &sub, holder, otp).await {
        Ok(codes) => {
            state
                .store
                .delete_halfway_sign_in(&Digest::of(login))
                .await?;
            let amr = vec![AMR_PWD.to_owned(), AMR_OTP.to_owned()];
            let signed_in = (halfway.claims, amr, halfway.signed_in_as);
            start(state, jar, signed_in, at, browser).await?;
            return two_step::codes_page(state, codes);
        }
        Err(CodeError::Wrong | CodeError::Replayed) => {
            (Text::new("enrol-wrong"), StatusCode::UNAUTHORIZED)
        }
        Err(CodeError::Unchecked(MfaError::NoSetup)) => {
            (Text::new("enrol-renewed"), StatusCode::BAD_REQUEST)
        }
        Err(CodeError::Locked) => {
            state
                .store
                .delete_halfway_sign_in(&Digest::of(login))
                .await?;
            let locked = Some(messages::locked());
            return show(state, jar, &sub, locked, StatusCode::TOO_MANY_REQUESTS).await;
        }
        Err(CodeError::Unchecked(e)) => return Err(e.into()),
    };
    show_enrol(state, (login, &sub), Some(message), status).await
}

/// The second step: the code of a person whose password was right.
async fn second_step(
    state: &AppState,
    jar: &CookieJar,
    (login, otp): (&str, &str),
    at: Where<'_>,
    browser: Browser,
) -> Result<Response, PageError> {
    let key = Digest::of(login);
    let Some(halfway) = state.store.halfway_sign_in(&key).await? else {
        let message = Some(Text::new("signin-expired"));
        return show(state, jar, "", message, StatusCode::BAD_REQUEST).await;
    };
    let sub = halfway.claims.sub().to_owned();
    // No second factor at all after a right password: the policy asked for a set-up.
    if !mfa::has_second_factor(state, &sub).await? {
        return enrol_step(state, jar, (login, otp), (halfway, at), browser).await;
    }
    match signin::check_code(state, at, &sub, otp.trim()).await {
        Ok(_) => {
            state.store.delete_halfway_sign_in(&key).await?;
            let amr = vec![AMR_PWD.to_owned(), AMR_OTP.to_owned()];
            let signed_in = (halfway.claims, amr, halfway.signed_in_as);
            finish(state, jar, signed_in, at, browser).await
        }
        Err(CodeError::Wrong | CodeError::Replayed) => {
            let message = Some(Text::new("account-wrong-code"));
            show_otp(state, (login, &sub), message, StatusCode::UNAUTHORIZED).await
        }
        Err(CodeError::Locked) => {
            state.store.delete_halfway_sign_in(&key).await?;
            show(
                state,
                jar,
                &sub,
                Some(messages::locked()),
                StatusCode::TOO_MANY_REQUESTS,
            )
            .await
        }
        Err(CodeError::Unchecked(e)) => Err(e.into()),
    }
}

/// The page a refused password shows.
async fn refused(
    state: &AppState,
    jar: &CookieJar,
    username: &str,
    err: PasswordError,
) -> Result<Response, PageError> {
    let (message, status) = match err {
        PasswordError::Name(_) | PasswordError::Invalid => {
            (Text::new("signin-wrong"), StatusCode::UNAUTHORIZED)
        }
        PasswordError::Locked => (messages::locked(), StatusCode::TOO_MANY_REQUESTS),
        PasswordError::Unusable(account) => {
            (messages::account_state(account), StatusCode::FORBIDDEN)
        }
        PasswordError::NoSubject(dn) => {
            return Err(PageError::UnusableAccount(format!(
                "{dn} has no subject attribute"
            )))
        }
        PasswordError::Unavailable(e) => return Err(e.into()),
    };
    show(state, jar, username, Some(message), status).await
}

/// Who passed every factor: their claims, the methods, and the name the password was checked
/// under.
type SignedIn = (Claims, Vec<String>, Option<String>);

/// Starts the session of a person who passed every factor and goes back to the account page.
async fn finish(
    state: &AppState,
    jar: &CookieJar,
    signed_in: SignedIn,
    at: Where<'_>,
    browser: Browser,
) -> Result<Response, PageError> {
    start(state, jar, signed_in, at, browser).await?;
    Ok(redirect(StatusCode::SEE_OTHER, PATH))
}

/// Starts the session of a person who passed every factor (the one the browser held before
/// ends) and sets its cookie.
async fn start(
    state: &AppState,
    jar: &CookieJar,
    (claims, amr, name): SignedIn,
    at: Where<'_>,
    browser: Browser,
) -> Result<(), PageError> {
    signin::succeeded(state, at, claims.sub()).await;
    LOGIN.clear(&state.settings, jar);
    let replaced = cookie_value(&state.settings, jar, SESSION_COOKIE);
    let device = browser.device;
    let (id, _) =
        signin::start_session(state, replaced.as_deref(), claims, amr, device, name).await?;
    let ttl = state.settings.session.ttl.as_secs();
    jar.add(cookie(&state.settings, SESSION_COOKIE, id, Some(ttl)));
    Ok(())
}
