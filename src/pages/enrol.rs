//! `/oauth/second-factor/enrol`: set up an authenticator app (QR code rendered here, secret as
//! text), confirmed by a first code; then the recovery codes, shown once.
//!
//! A user who already has a second factor may replace it only after passing it in this
//! session: a password alone never swaps the authenticator.

use super::second_factor::{codes_page, elevate, open, Flow, FlowQuery, OtpForm};
use super::views::EnrolPage;
use crate::events::Place;
use crate::mfa::enrolment::{self, Holder};
use crate::mfa::{MfaError, AMR_OTP};
use crate::signin::{self, CodeError, Where};
use crate::state::AppState;
use crate::web::address::ClientAddr;
use crate::web::errors::PageError;
use crate::web::i18n::{self, Text};
use crate::web::messages;
use crate::web::respond::{self, redirect};
use poem::http::StatusCode;
use poem::web::cookie::CookieJar;
use poem::web::{Data, Form, Query};
use poem::{handler, Response};
use std::net::IpAddr;

/// Path of the enrolment page and its form action.
pub const PATH: &str = "/oauth/second-factor/enrol";

/// Whether this session may set up an authenticator: no enrolment yet, or the current one
/// was just passed. Otherwise the answer is where to prove it first.
async fn allowed(state: &AppState, flow: &Flow) -> Result<Option<Response>, PageError> {
    let passed = flow.session.amr.iter().any(|m| m == AMR_OTP);
    if passed || !enrolment::is_enrolled(state, flow.session.claims.sub()).await? {
        return Ok(None);
    }
    let url = respond::url(
        &state.settings,
        &format!(
            "{}?request_id={}",
            super::second_factor::PATH,
            flow.request_id
        ),
    );
    Ok(Some(redirect(StatusCode::SEE_OTHER, &url)))
}

async fn enrol_page(
    state: &AppState,
    flow: &Flow,
    error: Option<Text>,
    status: StatusCode,
) -> Result<Response, PageError> {
    i18n::return_to(format!("{PATH}?request_id={}", flow.request_id));
    let sub = flow.session.claims.sub();
    let setup =
        enrolment::setup(state, sub, Holder::browser(flow.pending.browser.as_hex())).await?;
    let page = EnrolPage {
        app_name: flow.client.name.clone(),
        username: sub.to_owned(),
        qr: setup.qr,
        secret: setup.secret,
        action: respond::url(&state.settings, PATH),
        request_id: flow.request_id.clone(),
        csrf_token: flow.pending.csrf_token.clone(),
        error,
    };
    respond::page(&state.templates, status, &page)
}

/// Shows the set-up page.
#[handler]
pub async fn show(
    jar: &CookieJar,
    Data(state): Data<&AppState>,
    Query(q): Query<FlowQuery>,
) -> Result<Response, PageError> {
    show_run(state, jar, &q.request_id).await
}

async fn show_run(
    state: &AppState,
    jar: &CookieJar,
    request_id: &str,
) -> Result<Response, PageError> {
    let flow = open(state, jar, request_id, None).await?;
    if let Some(elsewhere) = allowed(state, &flow).await? {
        return Ok(elsewhere);
    }
    enrol_page(state, &flow, None, StatusCode::OK).await
}

/// Confirms the set-up with a first code.
#[handler]
pub async fn confirm(
    jar: &CookieJar,
    client: ClientAddr,
    Data(state): Data<&AppState>,
    form: poem::Result<Form<OtpForm>>,
) -> Result<Response, PageError> {
    let Form(form) = form.map_err(|e| PageError::unreadable("set-up form", e))?;
    confirm_run(state, jar, client.ip(), form).await
}

async fn confirm_run(
    state: &AppState,
    jar: &CookieJar,
    address: Option<IpAddr>,
    form: OtpForm,
) -> Result<Response, PageError> {
    let csrf = form.csrf_token.as_deref();
    let mut flow = open(state, jar, &form.request_id, Some(csrf)).await?;
    if let Some(elsewhere) = allowed(state, &flow).await? {
        return Ok(elsewhere);
    }
    let sub = flow.session.claims.sub().to_owned();
    let holder = Holder::browser(flow.pending.browser.as_hex());
    let at = Where {
        place: Place::App,
        client_id: Some(&flow.client.client_id),
        address,
    };
    let codes = match signin::confirm_enrolment(state, at, &sub, holder, &form.otp).await {
        Ok(codes) => codes,
        Err(CodeError::Locked) => {
            let locked = messages::locked();
            return enrol_page(state, &flow, Some(locked), StatusCode::TOO_MANY_REQUESTS).await;
        }
        Err(CodeError::Wrong | CodeError::Replayed) => {
            let message = Text::new("enrol-wrong");
            return enrol_page(state, &flow, Some(message), StatusCode::UNAUTHORIZED).await;
        }
        Err(CodeError::Unchecked(MfaError::NoSetup)) => {
            let message = Text::new("enrol-renewed");
            return enrol_page(state, &flow, Some(message), StatusCode::BAD_REQUEST).await;
        }
        Err(CodeError::Unchecked(e)) => return Err(e.into()),
    };
    elevate(state, jar, &mut flow, &[AMR_OTP]).await?;
    codes_page(state, &flow, codes, None)
}
