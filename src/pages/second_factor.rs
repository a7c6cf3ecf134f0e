//! `/oauth/second-factor`: the step between password and consent for users whose policy (or
//! own choice) asks for a second factor. Verification, and what the steps after the password
//! share (going on to the app, the session's new methods, the forms), live here; enrolment in
//! `enrol.rs`.

use super::flow::{client_of, Flow, FlowFields, FlowForm, PageFlow, Step};
use super::views::{PasskeyPrompt, RecoveryCodesPage, SecondFactorPage};
use crate::domain::Escaped;
use crate::events::Place;
use crate::mfa::enrolment::{self, Proof};
use crate::mfa::passkey::{self, PasskeyError};
use crate::mfa::{self, Due, MfaError};
use crate::oauth::issue::{finish_with_code, Subject};
use crate::session::pending::PendingRequest;
use crate::session::{self, consent, SessionRecord, SESSION_COOKIE};
use crate::signin::{self, CodeError, Where};
use crate::state::AppState;
use crate::store::StoreError;
use crate::web::address::ClientAddr;
use crate::web::errors::PageError;
use crate::web::i18n::{self, Text};
use crate::web::messages;
use crate::web::respond::{self, redirect};
use poem::http::StatusCode;
use poem::web::cookie::CookieJar;
use poem::web::Data;
use poem::{handler, Response};
use serde::Deserialize;

/// Path of the verification page and its form action.
pub const PATH: &str = "/oauth/second-factor";
/// Path of the form that answers the passkey ceremony of the verification page.
pub const PASSKEY_PATH: &str = "/oauth/second-factor/passkey";
/// Path of the form that continues to the app after the recovery-code pages.
pub const CONTINUE_PATH: &str = "/oauth/second-factor/continue";

/// Message for a wrong code; also used for a refused one.
const WRONG: &str = "otp-wrong";
const REPLAYED: &str = "otp-replayed";

/// The form of every second-factor page. No `Debug`: it holds a code.
#[derive(Deserialize)]
pub struct OtpForm {
    #[serde(default)]
    pub request_id: String,
    #[serde(default)]
    pub csrf_token: Option<String>,
    #[serde(default)]
    pub otp: String,
}

/// The passkey form of every step of a sign-in: the ceremony (challenge) of request
/// `request_id` is kept under this key, one at a time.
#[derive(Deserialize)]
pub struct PasskeyForm {
    #[serde(default)]
    pub request_id: String,
    #[serde(default)]
    pub csrf_token: Option<String>,
    /// The authenticator's answer, JSON, put here by `/assets/passkey.js`.
    #[serde(default)]
    pub credential: String,
    /// The name of a passkey being added.
    #[serde(default)]
    pub name: String,
}

impl FlowFields for OtpForm {
    fn flow_fields(&self) -> (&str, Option<&str>) {
        (&self.request_id, self.csrf_token.as_deref())
    }
}

impl FlowFields for PasskeyForm {
    fn flow_fields(&self) -> (&str, Option<&str>) {
        (&self.request_id, self.csrf_token.as_deref())
    }
}

/// The verification page's code.
pub enum Verification {}

impl Step for Verification {
    type Form = OtpForm;
    const NAME: &'static str = "verification form";
}

/// The verification page's passkey answer.
pub enum PasskeyAnswer {}

impl Step for PasskeyAnswer {
    type Form = PasskeyForm;
    const NAME: &'static str = "passkey form";
}

/// The recovery-codes page's button on to the app.
pub enum Continue {}

impl Step for Continue {
    type Form = OtpForm;
    const NAME: &'static str = "form";
}

/// Where the passkey ceremony of sign-in request `request_id` is kept.
pub fn ceremony_key(request_id: &str) -> String {
    format!("flow:{request_id}")
}

/// The message for a passkey answer that did not pass, and its status.
pub fn passkey_refusal(err: &PasskeyError) -> Option<(&'static str, StatusCode)> {
    Some(match err {
        PasskeyError::NoCeremony => ("passkey-expired", StatusCode::BAD_REQUEST),
        PasskeyError::NoAnswer => ("passkey-no-answer", StatusCode::BAD_REQUEST),
        PasskeyError::TooLarge => ("passkey-too-large", StatusCode::BAD_REQUEST),
        PasskeyError::BadName => ("passkey-bad-name", StatusCode::BAD_REQUEST),
        PasskeyError::Duplicate => ("passkey-duplicate", StatusCode::CONFLICT),
        PasskeyError::Full => ("passkey-full", StatusCode::CONFLICT),
        PasskeyError::Malformed(_) | PasskeyError::Refused(_) | PasskeyError::NotTheirs => {
            ("passkey-refused", StatusCode::UNAUTHORIZED)
        }
        _ => return None,
    })
}

/// Where a session that still owes `due` is sent for request `request_id`.
pub fn location(state: &AppState, due: Due, request_id: &str) -> Option<String> {
    let path = match due {
        Due::Nothing => return None,
        Due::Verify => PATH,
        Due::Enrol => super::enrol::PATH,
    };
    Some(respond::url(
        &state.settings,
        &format!("{path}?request_id={request_id}"),
    ))
}

/// Once every factor is in: straight back to the app with a code when the user already
/// approved these scopes, else to the consent page.
pub async fn proceed(
    state: &AppState,
    request_id: &str,
    pending: &PendingRequest,
    session: &SessionRecord,
) -> Result<Response, PageError> {
    let approved = approved(state, pending, session.claims.sub()).await?;
    proceed_approved(state, request_id, pending, session, approved).await
}

/// Whether `sub` already approved what `pending` asks of its app; `prompt=consent` asks again
/// even when they did.
pub async fn approved(
    state: &AppState,
    pending: &PendingRequest,
    sub: &str,
) -> Result<bool, StoreError> {
    let request = &pending.request;
    Ok(request.oidc.remembered_consent_usable()
        && consent::covers(state, sub, &request.client_id, &request.scopes).await?)
}

/// [`proceed`], with whether the user approved the app read beforehand (`approved`).
pub async fn proceed_approved(
    state: &AppState,
    request_id: &str,
    pending: &PendingRequest,
    session: &SessionRecord,
    approved: bool,
) -> Result<Response, PageError> {
    let client = client_of(state, pending).await?;
    if !client.allows(&session.claims) {
        let (request, sub) = (&pending.request, session.claims.sub());
        let pending = Some((request_id, pending));
        return super::access::refuse(state, &client, request, sub, None, pending).await;
    }
    if approved {
        let subject = Subject::of(session);
        return match finish_with_code(state, request_id, pending, subject).await? {
            Some(location) => Ok(redirect(StatusCode::SEE_OTHER, &location)),
            None => Err(PageError::Expired),
        };
    }
    let consent_url = respond::url(
        &state.settings,
        &format!("{}?request_id={request_id}", super::consent::PATH),
    );
    Ok(redirect(StatusCode::SEE_OTHER, &consent_url))
}

/// Records the second factor (its `amr` `methods`) on the session, under a new id, and sets
/// the cookie.
pub async fn elevate(
    state: &AppState,
    jar: &CookieJar,
    flow: &mut Flow,
    methods: &[&str],
) -> Result<(), PageError> {
    let record = flow.session.clone();
    let (id, elevated) = session::add_methods(state, &flow.cookie, record, methods).await?;
    flow.session = elevated;
    flow.cookie = id.clone();
    let ttl = flow.session.expires_at.saturating_sub(state.now());
    jar.add(respond::cookie(
        &state.settings,
        SESSION_COOKIE,
        id,
        Some(ttl),
    ));
    Ok(())
}

/// The passkey a person with one is offered first at a second-factor step (the sign-in's and
/// the admin screen's), answered at `action`: a new challenge for each showing, kept under
/// `key`. `None` when passkeys are not offered or the person has none.
pub async fn second_factor_prompt(
    state: &AppState,
    sub: &str,
    key: &str,
    action: &str,
) -> Result<Option<PasskeyPrompt>, PageError> {
    if !passkey::offered(state) {
        return Ok(None);
    }
    let options = passkey::start_second_factor(state, sub, key)
        .await
        .map_err(MfaError::from)?;
    Ok(options.map(|options| PasskeyPrompt {
        action: respond::url(&state.settings, action),
        options,
    }))
}

async fn verify_page(
    state: &AppState,
    flow: &Flow,
    error: Option<Text>,
    status: StatusCode,
) -> Result<Response, PageError> {
    i18n::return_to(format!("{PATH}?request_id={}", flow.request_id));
    let sub = flow.session.claims.sub();
    let key = ceremony_key(&flow.request_id);
    let passkey = second_factor_prompt(state, sub, &key, PASSKEY_PATH).await?;
    let page = SecondFactorPage {
        app_name: flow.client.name.clone(),
        username: sub.to_owned(),
        action: respond::url(&state.settings, PATH),
        request_id: flow.request_id.clone(),
        csrf_token: flow.pending.csrf_token.clone(),
        error,
        code_form: passkey.is_none() || enrolment::is_enrolled(state, sub).await?,
        passkey,
    };
    let response = respond::page(&state.templates, status, &page)?;
    Ok(if page.passkey.is_some() {
        respond::with_own_scripts(response)
    } else {
        response
    })
}

/// Renders the recovery-codes page: fresh `codes`, or `left` after one was spent.
pub fn codes_page(
    state: &AppState,
    flow: &Flow,
    codes: Vec<String>,
    left: Option<u64>,
) -> Result<Response, PageError> {
    let enrol_url = left.map(|_| {
        respond::url(
            &state.settings,
            &format!("{}?request_id={}", super::enrol::PATH, flow.request_id),
        )
    });
    // Shown once: there is no address that shows these codes again.
    i18n::no_return();
    let page = RecoveryCodesPage {
        codes,
        left,
        enrol_url,
        action: respond::url(&state.settings, CONTINUE_PATH),
        request_id: flow.request_id.clone(),
        csrf_token: flow.pending.csrf_token.clone(),
        back_url: None,
    };
    respond::page(&state.templates, StatusCode::OK, &page)
}

/// Shows the code form (or sends the browser on, if nothing is owed or it must enrol first).
#[handler]
pub async fn show(
    Data(state): Data<&AppState>,
    PageFlow(flow): PageFlow,
) -> Result<Response, PageError> {
    let due = mfa::due(state, &flow.session.claims, &flow.session.amr, None).await?;
    match (due, location(state, due, &flow.request_id)) {
        (Due::Verify, _) => verify_page(state, &flow, None, StatusCode::OK).await,
        (_, Some(elsewhere)) => Ok(redirect(StatusCode::FOUND, &elsewhere)),
        (_, None) => proceed(state, &flow.request_id, &flow.pending, &flow.session).await,
    }
}

/// Checks the code.
#[handler]
pub async fn verify(
    jar: &CookieJar,
    client: ClientAddr,
    Data(state): Data<&AppState>,
    FlowForm { mut flow, form }: FlowForm<Verification>,
) -> Result<Response, PageError> {
    let sub = flow.session.claims.sub().to_owned();
    let at = Where {
        place: Place::App,
        client_id: Some(&flow.client.client_id),
        address: client.ip(),
    };
    let proof = match signin::check_code(state, at, &sub, &form.otp).await {
        Ok(proof) => proof,
        Err(CodeError::Locked) => {
            let locked = messages::locked();
            let page = verify_page(state, &flow, Some(locked), StatusCode::TOO_MANY_REQUESTS);
            return page.await;
        }
        Err(CodeError::Wrong) => {
            let page = verify_page(state, &flow, Some(WRONG.into()), StatusCode::UNAUTHORIZED);
            return page.await;
        }
        Err(CodeError::Replayed) => {
            let message = Some(REPLAYED.into());
            return verify_page(state, &flow, message, StatusCode::UNAUTHORIZED).await;
        }
        Err(CodeError::Unchecked(MfaError::NotEnrolled)) => {
            let url = respond::url(
                &state.settings,
                &format!("{}?request_id={}", super::enrol::PATH, form.request_id),
            );
            return Ok(redirect(StatusCode::SEE_OTHER, &url));
        }
        Err(CodeError::Unchecked(e)) => return Err(e.into()),
    };
    elevate(state, jar, &mut flow, &[mfa::AMR_OTP]).await?;
    tracing::info!(sub = ?Escaped(&sub), client_id = %flow.client.client_id, "second factor passed");
    match proof {
        Proof::Totp => proceed(state, &flow.request_id, &flow.pending, &flow.session).await,
        Proof::Recovery { left } => codes_page(state, &flow, Vec::new(), Some(left)),
    }
}

/// Checks the passkey answer of the verification page.
#[handler]
pub async fn verify_passkey(
    jar: &CookieJar,
    client: ClientAddr,
    Data(state): Data<&AppState>,
    FlowForm { mut flow, form }: FlowForm<PasskeyAnswer>,
) -> Result<Response, PageError> {
    let sub = flow.session.claims.sub().to_owned();
    let at = Where {
        place: Place::App,
        client_id: Some(&flow.client.client_id),
        address: client.ip(),
    };
    let key = ceremony_key(&flow.request_id);
    let verified = match signin::check_passkey(state, at, &sub, &key, &form.credential).await {
        Ok(verified) => verified,
        Err(CodeError::Locked) => {
            let locked = Some(messages::locked());
            return verify_page(state, &flow, locked, StatusCode::TOO_MANY_REQUESTS).await;
        }
        Err(CodeError::Wrong | CodeError::Replayed) => {
            let message = Some(Text::new("passkey-refused"));
            return verify_page(state, &flow, message, StatusCode::UNAUTHORIZED).await;
        }
        Err(CodeError::Unchecked(MfaError::Passkey(e))) => match passkey_refusal(&e) {
            Some((message, status)) => {
                return verify_page(state, &flow, Some(Text::new(message)), status).await
            }
            None => return Err(MfaError::Passkey(e).into()),
        },
        Err(CodeError::Unchecked(e)) => return Err(e.into()),
    };
    elevate(
        state,
        jar,
        &mut flow,
        passkey::methods(verified.user_verified),
    )
    .await?;
    tracing::info!(sub = ?Escaped(&sub), client_id = %flow.client.client_id, "second factor passed with a passkey");
    proceed(state, &flow.request_id, &flow.pending, &flow.session).await
}

/// Continues to the app after a recovery-codes page.
#[handler]
pub async fn continue_flow(
    Data(state): Data<&AppState>,
    FlowForm { flow, .. }: FlowForm<Continue>,
) -> Result<Response, PageError> {
    let due = mfa::due(state, &flow.session.claims, &flow.session.amr, None).await?;
    if let Some(elsewhere) = location(state, due, &flow.request_id) {
        return Ok(redirect(StatusCode::SEE_OTHER, &elsewhere));
    }
    proceed(state, &flow.request_id, &flow.pending, &flow.session).await
}
