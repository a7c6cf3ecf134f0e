//! Someone who may not use an app (it is only for some roles or groups): a 403 page naming the
//! app, whose one link returns `access_denied` to it (with `state` and `iss`), or with
//! `prompt=none` that redirect at once. Their SSO session stays; the refusal is published, and
//! so audited.

use crate::domain::{AuthorizationRequest, ClientRecord};
use crate::events::Event;
use crate::oauth::authorize::error_redirect;
use crate::oauth::OAuthError;
use crate::session::pending::{self, PendingRequest};
use crate::state::AppState;
use crate::web::errors::PageError;
use crate::web::respond::redirect;
use poem::http::StatusCode;
use poem::Response;
use std::net::IpAddr;

/// Refuses `sub` the app `client` for `request` (the pending one `pending` names, which ends).
pub async fn refuse(
    state: &AppState,
    client: &ClientRecord,
    request: &AuthorizationRequest,
    sub: &str,
    address: Option<IpAddr>,
    pending: Option<(&str, &PendingRequest)>,
) -> Result<Response, PageError> {
    let event = Event::AccessDenied {
        sub: sub.to_owned(),
        client_id: client.client_id.clone(),
        address: address.map(|a| a.to_string()),
        at: if pending.is_some() {
            "sign-in"
        } else {
            "single sign-on"
        },
    };
    state.events.publish(event).await;
    if let Some((id, pending)) = pending {
        pending::finish(state, id, pending).await?;
    }
    let back = error_redirect(
        &state.settings.issuer(),
        &request.redirect_uri,
        request.state.as_deref(),
        &OAuthError::AccessDenied("the user may not use this application".into()),
    );
    if request.oidc.prompt_none {
        return Ok(redirect(StatusCode::FOUND, &back));
    }
    Err(PageError::NoAccess {
        app: client.name.clone(),
        back,
    })
}
