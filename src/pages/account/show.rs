//! `GET /account`: the page itself.

use super::views::{AccountPage, ActivityRow, AppRow, PasskeyRow, SessionRow, TwoStepView};
use super::{Signed, PATH};
use crate::account::{activity, apps, sessions, two_step};
use crate::mfa::passkey;
use crate::state::AppState;
use crate::web::device;
use crate::web::errors::PageError;
use crate::web::i18n::{self, Text};
use crate::web::respond;
use poem::http::StatusCode;
use poem::web::{Data, Query};
use poem::{handler, Response};
use serde::Deserialize;

/// What the page says after a change (the forms redirect here).
#[derive(Debug, Default, Deserialize)]
pub struct Done {
    /// `app_removed`, `session_ended`, `sessions_ended`, `authenticator_removed`,
    /// `authenticator_required` (a removal refused), `passkey_added`, `passkey_renamed`,
    /// `passkey_removed`, `passkey_required` (a removal refused).
    #[serde(default)]
    done: Option<String>,
    /// How many sessions ended.
    #[serde(default)]
    count: u64,
}

impl Done {
    fn notice(&self) -> Option<Text> {
        match self.done.as_deref()? {
            "app_removed" => Some(Text::new("account-app-removed")),
            "session_ended" => Some(Text::new("account-session-ended")),
            "sessions_ended" => Some(Text::new("account-sessions-ended").arg("count", self.count)),
            "authenticator_removed" => Some(Text::new("account-authenticator-removed")),
            "authenticator_required" => Some(Text::new("account-authenticator-required")),
            "passkey_added" => Some(Text::new("account-passkey-added-notice")),
            "passkey_renamed" => Some(Text::new("account-passkey-renamed")),
            "passkey_removed" => Some(Text::new("account-passkey-removed")),
            "passkey_required" => Some(Text::new("account-passkey-required")),
            "passkey_full" => Some(Text::new("passkey-full")),
            _ => None,
        }
    }
}

/// `GET /account`.
#[handler]
pub async fn show(
    Data(state): Data<&AppState>,
    Query(done): Query<Done>,
    signed: Signed,
) -> Result<Response, PageError> {
    let sub = signed.session.claims.sub();
    let apps = apps::list(state, sub).await?;
    let sessions = sessions::list(state, sub, &signed.cookie).await?;
    let two_step = two_step::status(state, &signed.session).await?;
    let activity = activity_rows(state, sub).await?;
    i18n::return_to(PATH);
    let page = AccountPage {
        user_display: signed.session.claims.get("name").unwrap_or(sub).to_owned(),
        username: sub.to_owned(),
        csrf_token: signed.csrf_token(),
        notice: done.notice(),
        others: sessions.iter().any(|s| !s.this_browser),
        apps: apps.into_iter().map(app_row).collect(),
        sessions: sessions.into_iter().map(session_row).collect(),
        two_step: TwoStepView {
            authenticator_since: two_step.authenticator_since,
            recovery_codes_left: two_step.recovery_codes_left,
            required: two_step.required,
            passkeys: two_step
                .passkeys
                .into_iter()
                .map(|p| PasskeyRow {
                    id: p.id,
                    name: p.name,
                    created_at: p.created_at,
                    last_used_at: p.last_used_at,
                })
                .collect(),
            passkeys_offered: passkey::offered(state),
        },
        activity,
    };
    respond::page(&state.templates, StatusCode::OK, &page)
}

/// The person's recent activity, apps named.
async fn activity_rows(state: &AppState, sub: &str) -> Result<Vec<ActivityRow>, PageError> {
    let events = activity::recent(state, sub).await?;
    let apps = state.store.clients().await?;
    let name_of = |id: &str| {
        apps.iter()
            .find(|a| a.client_id.as_str() == id)
            .map_or_else(|| id.to_owned(), |a| a.name.clone())
    };
    Ok(events
        .into_iter()
        .map(|e| ActivityRow {
            at: e.at,
            action: Text::new(format!("audit-action-{}", e.action.as_str())),
            app: e.client_id.as_deref().map(name_of),
            address: e.address,
            success: e.success,
        })
        .collect())
}

fn app_row(app: apps::AppEntry) -> AppRow {
    AppRow {
        client_id: app.client_id.to_string(),
        name: app.name,
        scopes: app.scopes.iter().map(|s| s.as_str().to_owned()).collect(),
        first_used: app.first_used,
        last_used: app.last_used,
    }
}

fn session_row(entry: sessions::SessionEntry) -> SessionRow {
    let described = entry.device.user_agent.as_deref().map(device::describe);
    let device = match described.unwrap_or_default() {
        (Some(browser), Some(system)) => Text::new("account-device")
            .arg("browser", browser)
            .arg("system", system),
        (Some(browser), None) => Text::new("account-device-browser").arg("browser", browser),
        (None, Some(system)) => Text::new("account-device-system").arg("system", system),
        (None, None) => Text::new("account-device-unknown"),
    };
    SessionRow {
        session: entry.sid,
        device,
        address: entry.device.address,
        signed_in: entry.signed_in,
        last_seen: entry.last_seen,
        this_browser: entry.this_browser,
    }
}
