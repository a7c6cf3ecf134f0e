//! The account page's changes to the second factor: set up or replace the authenticator app
//! (`/account/two-step/authenticator`, the enrolment of the sign-in pages on the account
//! page), remove it, take a new set of recovery codes. Each asks for the re-check first
//! ([`reauth::ask`]) when the sign-in is not fresh.
//!
//! A replacement is a new set-up beside the current authenticator, which keeps working until
//! the new one's first code is confirmed.

use super::reauth::{self, Change};
use super::{Signed, AUTHENTICATOR_PATH, PATH};
use crate::account::{two_step, AccountError};
use crate::domain::Digest;
use crate::events::Place;
use crate::mfa::enrolment::{self, Holder};
use crate::mfa::{MfaError, AMR_OTP};
use crate::pages::views::{EnrolPage, RecoveryCodesPage};
use crate::session::{self, SESSION_COOKIE};
use crate::signin::{self, CodeError, Where};
use crate::state::AppState;
use crate::web::errors::PageError;
use crate::web::i18n::{self, Text};
use crate::web::messages;
use crate::web::respond::{self, redirect};
use poem::http::StatusCode;
use poem::web::cookie::CookieJar;
use poem::web::{Data, Form};
use poem::{handler, Response};
use serde::Deserialize;

/// A form with nothing but the page's token.
#[derive(Debug, Deserialize)]
pub struct TokenForm {
    #[serde(default)]
    csrf_token: Option<String>,
}

/// The set-up's first code. No `Debug`: it holds a code.
#[derive(Deserialize)]
pub struct CodeForm {
    #[serde(default)]
    csrf_token: Option<String>,
    #[serde(default)]
    otp: String,
}

/// The set-up slot of this browser's session: one pending authenticator per session, which a
/// reload of the page shows again.
fn slot(signed: &Signed) -> String {
    Digest::of(&format!("account-setup\n{}", signed.cookie))
        .as_hex()
        .to_owned()
}

/// The set-up page (QR code, secret, first code).
async fn setup_page(
    state: &AppState,
    signed: &Signed,
    error: Option<Text>,
    status: StatusCode,
) -> Result<Response, PageError> {
    i18n::return_to(AUTHENTICATOR_PATH);
    let sub = signed.session.claims.sub();
    let setup = enrolment::setup(state, sub, Holder::browser(&slot(signed))).await?;
    let page = EnrolPage {
        passkey: None,
        app_name: None,
        username: sub.to_owned(),
        qr: setup.qr,
        secret: setup.secret,
        action: AUTHENTICATOR_PATH.to_owned(),
        request_id: None,
        csrf_token: signed.csrf_token(),
        error,
    };
    respond::page(&state.templates, status, &page)
}

/// Fresh recovery codes, shown once, with a link back to the account page.
pub fn codes_page(state: &AppState, codes: Vec<String>) -> Result<Response, PageError> {
    // Shown once: there is no address that shows these codes again.
    i18n::no_return();
    let page = RecoveryCodesPage {
        codes,
        left: None,
        enrol_url: None,
        action: PATH.to_owned(),
        request_id: String::new(),
        csrf_token: String::new(),
        back_url: Some(PATH.to_owned()),
    };
    respond::page(&state.templates, StatusCode::OK, &page)
}

/// `GET /account/two-step/authenticator`: the set-up page.
#[handler]
pub async fn authenticator(
    Data(state): Data<&AppState>,
    signed: Signed,
) -> Result<Response, PageError> {
    if let Some(confirm_first) = reauth::ask(state, &signed, Change::Authenticator) {
        return Ok(confirm_first);
    }
    setup_page(state, &signed, None, StatusCode::OK).await
}

/// `POST /account/two-step/authenticator`: the first code confirms the set-up, which replaces
/// any earlier authenticator; the recovery codes follow. The set-up exists only if its page
/// was shown after a fresh sign-in, so the code needs no re-check of its own.
#[handler]
pub async fn confirm_authenticator(
    jar: &CookieJar,
    Data(state): Data<&AppState>,
    form: poem::Result<Form<CodeForm>>,
    signed: Signed,
) -> Result<Response, PageError> {
    let Form(form) = form.map_err(|e| PageError::unreadable("set-up form", e))?;
    signed.check(form.csrf_token.as_deref())?;
    let sub = signed.session.claims.sub().to_owned();
    let at = Where {
        place: Place::App,
        client_id: None,
        address: signed.ip,
    };
    let slot = slot(&signed);
    let (message, status) =
        match signin::confirm_enrolment(state, at, &sub, Holder::browser(&slot), &form.otp).await {
            Ok(codes) => {
                // The code just typed is a second factor passed in this session: without it
                // the page would now ask for one.
                elevate(state, jar, &signed, &[AMR_OTP]).await?;
                return codes_page(state, codes);
            }
            Err(CodeError::Locked) => (messages::locked(), StatusCode::TOO_MANY_REQUESTS),
            Err(CodeError::Wrong | CodeError::Replayed) => {
                (Text::new("enrol-wrong"), StatusCode::UNAUTHORIZED)
            }
            Err(CodeError::Unchecked(MfaError::NoSetup)) => {
                // Expired: a new set-up, which a stale sign-in must confirm first.
                if let Some(confirm_first) = reauth::ask(state, &signed, Change::Authenticator) {
                    return Ok(confirm_first);
                }
                (Text::new("enrol-renewed"), StatusCode::BAD_REQUEST)
            }
            Err(CodeError::Unchecked(e)) => return Err(e.into()),
        };
    setup_page(state, &signed, Some(message), status).await
}

/// Notes the second factor passed with `methods` on this browser's session, under a new
/// cookie.
pub(super) async fn elevate(
    state: &AppState,
    jar: &CookieJar,
    signed: &Signed,
    methods: &[&str],
) -> Result<(), PageError> {
    let record = signed.session.clone();
    let (id, elevated) = session::add_methods(state, &signed.cookie, record, methods).await?;
    let ttl = elevated.expires_at.saturating_sub(state.now());
    jar.add(respond::cookie(
        &state.settings,
        SESSION_COOKIE,
        id,
        Some(ttl),
    ));
    Ok(())
}

/// `POST /account/two-step/authenticator/remove`.
#[handler]
pub async fn remove_authenticator(
    Data(state): Data<&AppState>,
    form: poem::Result<Form<TokenForm>>,
    signed: Signed,
) -> Result<Response, PageError> {
    let Form(form) = form.map_err(|e| PageError::unreadable("form", e))?;
    signed.check(form.csrf_token.as_deref())?;
    if let Some(confirm_first) = reauth::ask(state, &signed, Change::RemoveAuthenticator) {
        return Ok(confirm_first);
    }
    remove(state, &signed).await
}

/// `POST /account/two-step/recovery-codes`.
#[handler]
pub async fn recovery_codes(
    Data(state): Data<&AppState>,
    form: poem::Result<Form<TokenForm>>,
    signed: Signed,
) -> Result<Response, PageError> {
    let Form(form) = form.map_err(|e| PageError::unreadable("form", e))?;
    signed.check(form.csrf_token.as_deref())?;
    if let Some(confirm_first) = reauth::ask(state, &signed, Change::RecoveryCodes) {
        return Ok(confirm_first);
    }
    renew(state, &signed).await
}

/// Removes the authenticator app, or says why it stays.
pub(super) async fn remove(state: &AppState, signed: &Signed) -> Result<Response, PageError> {
    let claims = &signed.session.claims;
    let done = match two_step::remove_authenticator(state, signed.person(), claims).await {
        Ok(()) => "authenticator_removed",
        Err(AccountError::Required) => "authenticator_required",
        Err(e) => return Err(e.into()),
    };
    Ok(redirect(
        StatusCode::SEE_OTHER,
        &format!("{PATH}?done={done}"),
    ))
}

/// A new set of recovery codes, shown once.
pub(super) async fn renew(state: &AppState, signed: &Signed) -> Result<Response, PageError> {
    let codes = two_step::renew_recovery_codes(state, signed.person()).await?;
    codes_page(state, codes)
}
