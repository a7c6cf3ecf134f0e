//! `/oauth/second-factor/enrol`: set up an authenticator app (QR code rendered here, secret as
//! text), confirmed by a first code; then the recovery codes, shown once.
//!
//! A user who already has a second factor may replace it only after passing it in this
//! session: a password alone never swaps the authenticator.

use super::flow::{Flow, FlowForm, PageFlow, Step};
use super::second_factor::{
    ceremony_key, codes_page, elevate, passkey_refusal, proceed, OtpForm, PasskeyForm,
};
use super::views::{EnrolPage, PasskeyPrompt};
use crate::events::Place;
use crate::mfa::enrolment::{self, Holder};
use crate::mfa::passkey;
use crate::mfa::{self, MfaError, AMR_OTP};
use crate::signin::{self, CodeError, Where};
use crate::state::AppState;
use crate::web::address::ClientAddr;
use crate::web::errors::PageError;
use crate::web::i18n::{self, Text};
use crate::web::messages;
use crate::web::respond::{self, redirect};
use poem::http::StatusCode;
use poem::web::cookie::CookieJar;
use poem::web::Data;
use poem::{handler, Response};

/// Path of the enrolment page and its form action.
pub const PATH: &str = "/oauth/second-factor/enrol";
/// Path of the form that adds a passkey instead.
pub const PASSKEY_PATH: &str = "/oauth/second-factor/enrol/passkey";

/// The set-up page's first code.
pub enum SetUp {}

impl Step for SetUp {
    type Form = OtpForm;
    const NAME: &'static str = "set-up form";
}

/// The set-up page's new passkey.
pub enum PasskeySetUp {}

impl Step for PasskeySetUp {
    type Form = PasskeyForm;
    const NAME: &'static str = "passkey set-up form";
}

/// Whether this session may set up an authenticator: no enrolment yet, or the current one
/// was just passed. Otherwise the answer is where to prove it first.
async fn allowed(state: &AppState, flow: &Flow) -> Result<Option<Response>, PageError> {
    let passed = mfa::passed(&flow.session.amr);
    if passed || !mfa::has_second_factor(state, flow.session.claims.sub()).await? {
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
    // A passkey is offered beside the app, with a new challenge for each showing.
    let passkey = match passkey::offered(state) {
        true => {
            let key = ceremony_key(&flow.request_id);
            let display = flow.session.claims.get("name").unwrap_or(sub);
            match passkey::start_registration(state, sub, display, &key).await {
                Ok(options) => Some(PasskeyPrompt {
                    action: respond::url(&state.settings, PASSKEY_PATH),
                    options,
                }),
                Err(passkey::PasskeyError::Full) => None,
                Err(e) => return Err(MfaError::from(e).into()),
            }
        }
        false => None,
    };
    let page = EnrolPage {
        passkey,
        app_name: Some(flow.client.name.clone()),
        username: sub.to_owned(),
        qr: setup.qr,
        secret: setup.secret,
        action: respond::url(&state.settings, PATH),
        request_id: Some(flow.request_id.clone()),
        csrf_token: flow.pending.csrf_token.clone(),
        error,
    };
    let response = respond::page(&state.templates, status, &page)?;
    Ok(match page.passkey {
        Some(_) => respond::with_own_scripts(response),
        None => response,
    })
}

/// Shows the set-up page.
#[handler]
pub async fn show(
    Data(state): Data<&AppState>,
    PageFlow(flow): PageFlow,
) -> Result<Response, PageError> {
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
    FlowForm { mut flow, form }: FlowForm<SetUp>,
) -> Result<Response, PageError> {
    if let Some(elsewhere) = allowed(state, &flow).await? {
        return Ok(elsewhere);
    }
    let sub = flow.session.claims.sub().to_owned();
    let holder = Holder::browser(flow.pending.browser.as_hex());
    let at = Where {
        place: Place::App,
        client_id: Some(&flow.client.client_id),
        address: client.ip(),
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

/// Adds a passkey as the second factor.
#[handler]
pub async fn add_passkey(
    jar: &CookieJar,
    Data(state): Data<&AppState>,
    FlowForm { mut flow, form }: FlowForm<PasskeySetUp>,
) -> Result<Response, PageError> {
    if let Some(elsewhere) = allowed(state, &flow).await? {
        return Ok(elsewhere);
    }
    let sub = flow.session.claims.sub().to_owned();
    let key = ceremony_key(&flow.request_id);
    let added = match passkey::parse_name(&form.name) {
        Ok(name) => passkey::finish_registration(state, &sub, &key, &name, &form.credential).await,
        Err(e) => Err(e),
    };
    let user_verified = match added {
        Ok((_, user_verified)) => user_verified,
        Err(e) => match passkey_refusal(&e) {
            Some((message, status)) => {
                return enrol_page(state, &flow, Some(Text::new(message)), status).await
            }
            None => return Err(MfaError::from(e).into()),
        },
    };
    // The new key was just used to sign its registration: the second factor is passed.
    elevate(state, jar, &mut flow, passkey::methods(user_verified)).await?;
    proceed(state, &flow.request_id, &flow.pending, &flow.session).await
}
