//! `GET` / `POST /oauth/consent`: the user approves or denies the app's access.

use super::flow::{FlowFields, FlowForm, PageFlow, Resumed, Step};
use super::signin::signin_page;
use super::views::{ConsentPage, ScopeView};
use crate::domain::{ClientRecord, Escaped, Scope};
use crate::oauth::authorize::error_redirect;
use crate::oauth::issue::{finish_with_code, Subject};
use crate::oauth::OAuthError;
use crate::session::pending::{self, PendingRequest};
use crate::session::{consent, SessionRecord};
use crate::state::AppState;
use crate::web::errors::PageError;
use crate::web::i18n::{self, Text};
use crate::web::respond::{self, redirect};
use poem::http::StatusCode;
use poem::web::cookie::CookieJar;
use poem::web::Data;
use poem::{handler, Response};
use serde::Deserialize;

/// Path of the consent page and its form action.
pub const PATH: &str = "/oauth/consent";

fn describe(scope: Scope) -> Text {
    Text::new(match scope {
        Scope::Openid => "scope-openid",
        Scope::Profile => "scope-profile",
        Scope::Email => "scope-email",
        Scope::Role => "scope-role",
        Scope::Groups => "scope-groups",
    })
}

/// Renders the consent page for a pending request.
pub fn consent_page(
    state: &AppState,
    client: &ClientRecord,
    session: &SessionRecord,
    request_id: &str,
    pending: &PendingRequest,
) -> Result<Response, PageError> {
    let redirect_host = url::Url::parse(&pending.request.redirect_uri)
        .ok()
        .and_then(|u| {
            u.host_str()
                .map(str::to_owned)
                .or_else(|| Some(u.scheme().to_owned()))
        })
        .unwrap_or_default();
    i18n::return_to(format!("{PATH}?request_id={request_id}"));
    let page = ConsentPage {
        app_name: client.name.clone(),
        redirect_host,
        user_display: session
            .claims
            .get("name")
            .unwrap_or(session.claims.sub())
            .to_owned(),
        username: session.claims.sub().to_owned(),
        scopes: pending
            .request
            .scopes
            .iter()
            .map(|s| ScopeView {
                name: s.as_str().to_owned(),
                description: describe(s),
            })
            .collect(),
        action: respond::url(&state.settings, PATH),
        request_id: request_id.to_owned(),
        csrf_token: pending.csrf_token.clone(),
        // A session that reached consent without `otp` belongs to a user with no second factor.
        enrol_url: (!session.amr.iter().any(|m| m == crate::mfa::AMR_OTP)).then(|| {
            respond::url(
                &state.settings,
                &format!("{}?request_id={request_id}", super::enrol::PATH),
            )
        }),
    };
    respond::page(&state.templates, StatusCode::OK, &page)
}

/// Shows the consent page (after sign-in).
#[handler]
pub async fn show(
    jar: &CookieJar,
    Data(state): Data<&AppState>,
    PageFlow(flow): PageFlow<Resumed>,
) -> Result<Response, PageError> {
    let Resumed {
        request_id,
        pending,
        client,
    } = &flow;
    match flow.session(state, jar).await? {
        Some((_, session)) => {
            if let Some(next) = second_factor_owed(state, &session, request_id).await? {
                return Ok(redirect(StatusCode::FOUND, &next));
            }
            if !client.allows(&session.claims) {
                let sub = session.claims.sub();
                let request = &pending.request;
                let pending = Some((request_id.as_str(), pending));
                return super::access::refuse(state, client, request, sub, None, pending).await;
            }
            consent_page(state, client, &session, request_id, pending)
        }
        None => {
            signin_page(
                state,
                &client.name,
                request_id,
                &pending.csrf_token,
                "",
                None,
                StatusCode::OK,
            )
            .await
        }
    }
}

/// The consent form.
#[derive(Deserialize)]
pub struct ConsentForm {
    #[serde(default)]
    request_id: String,
    #[serde(default)]
    csrf_token: Option<String>,
    #[serde(default)]
    decision: String,
}

impl FlowFields for ConsentForm {
    fn flow_fields(&self) -> (&str, Option<&str>) {
        (&self.request_id, self.csrf_token.as_deref())
    }
}

impl Step for ConsentForm {
    type Form = Self;
    const NAME: &'static str = "consent form";
}

/// Records the decision and sends the browser back to the app.
#[handler]
pub async fn decide(
    jar: &CookieJar,
    Data(state): Data<&AppState>,
    FlowForm { flow, form }: FlowForm<ConsentForm, Resumed>,
) -> Result<Response, PageError> {
    let Resumed {
        request_id,
        pending,
        client,
    } = &flow;
    let Some((_, session)) = flow.session(state, jar).await? else {
        return signin_page(
            state,
            &client.name,
            request_id,
            &pending.csrf_token,
            "",
            Some(Text::new("signin-expired")),
            StatusCode::OK,
        )
        .await;
    };
    if let Some(next) = second_factor_owed(state, &session, request_id).await? {
        return Ok(redirect(StatusCode::SEE_OTHER, &next));
    }
    let request = &pending.request;
    if !client.allows(&session.claims) {
        let (sub, pending) = (session.claims.sub(), Some((request_id.as_str(), pending)));
        return super::access::refuse(state, client, request, sub, None, pending).await;
    }
    let approve = match form.decision.as_str() {
        "approve" => true,
        "deny" => false,
        _ => {
            return Err(PageError::BadForm(
                Text::new("error-decision"),
                "The form must submit decision=approve or decision=deny.".into(),
            ))
        }
    };
    let sub = session.claims.sub();
    if !approve {
        if !pending::finish(state, request_id, pending).await? {
            return Err(PageError::Expired);
        }
        tracing::info!(sub = ?Escaped(sub), client_id = %client.client_id, "access denied by user");
        let location = error_redirect(
            &state.settings.issuer(),
            &request.redirect_uri,
            request.state.as_deref(),
            &OAuthError::AccessDenied("the user denied access".into()),
        );
        return Ok(redirect(StatusCode::SEE_OTHER, &location));
    }
    // Remembered first: the code then goes out with the request's end, in one step. Two posts
    // of the form at once both remember the same approval; one of them gets the code.
    consent::remember(state, sub, &client.client_id, &request.scopes).await?;
    let subject = Subject::of(&session);
    let Some(location) = finish_with_code(state, request_id, pending, subject).await? else {
        return Err(PageError::Expired);
    };
    tracing::info!(sub = ?Escaped(sub), client_id = %client.client_id, scopes = %request.scopes, "access approved");
    Ok(redirect(StatusCode::SEE_OTHER, &location))
}

/// Where to send a session that still owes a second factor (no consent before it).
async fn second_factor_owed(
    state: &AppState,
    session: &SessionRecord,
    request_id: &str,
) -> Result<Option<String>, PageError> {
    let due = crate::mfa::due(state, &session.claims, &session.amr, None).await?;
    Ok(super::second_factor::location(state, due, request_id))
}
