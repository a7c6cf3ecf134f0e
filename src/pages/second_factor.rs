//! `/oauth/second-factor`: the step between password and consent for users whose policy (or
//! own choice) asks for a second factor. Verification and the shared flow plumbing live here;
//! enrolment in `enrol.rs`.

use super::consent::client_of;
use super::views::{PasskeyPrompt, RecoveryCodesPage, SecondFactorPage};
use crate::domain::{ClientRecord, Digest, Escaped};
use crate::events::Place;
use crate::mfa::enrolment::{self, Proof};
use crate::mfa::passkey::{self, PasskeyError};
use crate::mfa::{self, Due, MfaError};
use crate::oauth::issue::{issue_code, Subject};
use crate::session::pending::{self, PendingRequest};
use crate::session::{self, consent, SessionRecord, FLOW_COOKIE, SESSION_COOKIE};
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
use serde::Deserialize;
use std::net::IpAddr;

/// Path of the verification page and its form action.
pub const PATH: &str = "/oauth/second-factor";
/// Path of the form that answers the passkey ceremony of the verification page.
pub const PASSKEY_PATH: &str = "/oauth/second-factor/passkey";
/// Path of the form that continues to the app after the recovery-code pages.
pub const CONTINUE_PATH: &str = "/oauth/second-factor/continue";

/// Message for a wrong code; also used for a refused one.
const WRONG: &str = "otp-wrong";
const REPLAYED: &str = "otp-replayed";

/// A signed-in browser in the middle of an authorize request.
pub struct Flow {
    pub request_id: String,
    pub pending: PendingRequest,
    pub client: ClientRecord,
    pub session: SessionRecord,
    pub cookie: String,
}

/// `?request_id=` of the pages.
#[derive(Deserialize)]
pub struct FlowQuery {
    #[serde(default)]
    pub request_id: String,
}

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

/// Loads the flow a page or form belongs to. Forms (`csrf` given) must carry the request's CSRF
/// token; both must come from the browser that started the request and be signed in.
pub async fn open(
    state: &AppState,
    jar: &CookieJar,
    request_id: &str,
    csrf: Option<Option<&str>>,
) -> Result<Flow, PageError> {
    let flow_cookie = respond::cookie_value(&state.settings, jar, FLOW_COOKIE);
    let pending = match csrf {
        Some(csrf) => pending::resume(state, request_id, csrf, flow_cookie.as_deref()).await?,
        None => {
            let pending = pending::load(state, request_id)
                .await?
                .ok_or(PageError::Expired)?;
            if !flow_cookie.is_some_and(|f| Digest::of(&f).ct_eq(&pending.browser)) {
                return Err(PageError::Forged);
            }
            pending
        }
    };
    let oidc = &pending.request.oidc;
    i18n::for_sign_in(oidc.ui_locales.as_deref(), pending.admitted_at);
    let client = client_of(state, &pending).await?;
    let cookie = respond::cookie_value(&state.settings, jar, SESSION_COOKIE).unwrap_or_default();
    let now = state.now();
    let session = session::current(state, Some(&cookie))
        .await?
        .filter(|s| pending.accepts(&cookie, s, now))
        .ok_or(PageError::Expired)?;
    Ok(Flow {
        request_id: request_id.to_owned(),
        pending,
        client,
        session,
        cookie,
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
    let request = &pending.request;
    let sub = session.claims.sub();
    let client = client_of(state, pending).await?;
    if !client.allows(&session.claims) {
        let pending = Some((request_id, pending));
        return super::access::refuse(state, &client, request, sub, None, pending).await;
    }
    // prompt=consent asks again even when the user approved these scopes before.
    let approved = request.oidc.remembered_consent_usable()
        && consent::covers(state, sub, &request.client_id, &request.scopes).await?;
    if approved {
        if !pending::finish(state, request_id, pending).await? {
            return Err(PageError::Expired);
        }
        let subject = Subject::of(session);
        let location = issue_code(state, request, subject).await?;
        return Ok(redirect(StatusCode::SEE_OTHER, &location));
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
    let due = mfa::due(state, &flow.session.claims, &flow.session.amr, None).await?;
    match (due, location(state, due, request_id)) {
        (Due::Verify, _) => verify_page(state, &flow, None, StatusCode::OK).await,
        (_, Some(elsewhere)) => Ok(redirect(StatusCode::FOUND, &elsewhere)),
        (_, None) => proceed(state, request_id, &flow.pending, &flow.session).await,
    }
}

/// Checks the code.
#[handler]
pub async fn verify(
    jar: &CookieJar,
    client: ClientAddr,
    Data(state): Data<&AppState>,
    form: poem::Result<Form<OtpForm>>,
) -> Result<Response, PageError> {
    let Form(form) = form.map_err(|e| PageError::unreadable("verification form", e))?;
    verify_run(state, jar, client.ip(), form).await
}

async fn verify_run(
    state: &AppState,
    jar: &CookieJar,
    address: Option<IpAddr>,
    form: OtpForm,
) -> Result<Response, PageError> {
    let csrf = form.csrf_token.as_deref();
    let mut flow = open(state, jar, &form.request_id, Some(csrf)).await?;
    let sub = flow.session.claims.sub().to_owned();
    let at = Where {
        place: Place::App,
        client_id: Some(&flow.client.client_id),
        address,
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
    form: poem::Result<Form<PasskeyForm>>,
) -> Result<Response, PageError> {
    let Form(form) = form.map_err(|e| PageError::unreadable("passkey form", e))?;
    verify_passkey_run(state, jar, client.ip(), form).await
}

async fn verify_passkey_run(
    state: &AppState,
    jar: &CookieJar,
    address: Option<IpAddr>,
    form: PasskeyForm,
) -> Result<Response, PageError> {
    let csrf = form.csrf_token.as_deref();
    let mut flow = open(state, jar, &form.request_id, Some(csrf)).await?;
    let sub = flow.session.claims.sub().to_owned();
    let at = Where {
        place: Place::App,
        client_id: Some(&flow.client.client_id),
        address,
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
    jar: &CookieJar,
    Data(state): Data<&AppState>,
    form: poem::Result<Form<OtpForm>>,
) -> Result<Response, PageError> {
    let Form(form) = form.map_err(|e| PageError::unreadable("form", e))?;
    continue_run(state, jar, form).await
}

async fn continue_run(
    state: &AppState,
    jar: &CookieJar,
    form: OtpForm,
) -> Result<Response, PageError> {
    let flow = open(
        state,
        jar,
        &form.request_id,
        Some(form.csrf_token.as_deref()),
    )
    .await?;
    let due = mfa::due(state, &flow.session.claims, &flow.session.amr, None).await?;
    if let Some(elsewhere) = location(state, due, &flow.request_id) {
        return Ok(redirect(StatusCode::SEE_OTHER, &elsewhere));
    }
    proceed(state, &flow.request_id, &flow.pending, &flow.session).await
}
