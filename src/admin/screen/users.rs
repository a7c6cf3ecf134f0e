//! `/admin/users`: look up which second factors a user has (`?user=`), reset a user's second
//! factor (a lost phone), by username; sign a user out everywhere (`/admin/users/revoke`).

use super::apps::see_other;
use super::page;
use super::session::Ctx;
use super::views::{FactorsView, UsersView};
use crate::admin::users::{
    factors, reset_second_factor, sign_out_everywhere, LookupError, RevokeError,
};
use crate::state::AppState;
use crate::web::errors::PageError;
use crate::web::i18n::{self, Text};
use poem::http::StatusCode;
use poem::web::{Data, Form, Query};
use poem::{handler, Response};
use serde::Deserialize;

/// The users page, which shows a refused form again.
const PATH: &str = "/admin/users";

/// What the page says after a reset or a sign-out.
#[derive(Debug, Deserialize)]
pub struct UsersQuery {
    #[serde(default)]
    reset: Option<String>,
    #[serde(default)]
    revoked: Option<String>,
    #[serde(default)]
    sessions: u64,
    #[serde(default)]
    grants: u64,
    #[serde(default)]
    admin: u64,
    /// Whose second factors to show.
    #[serde(default)]
    user: Option<String>,
}

impl UsersQuery {
    fn notice(&self) -> Option<Text> {
        if let Some(user) = &self.revoked {
            return Some(
                Text::new("admin-users-revoked")
                    .arg("user", user.as_str())
                    .arg("sessions", self.sessions)
                    .arg("grants", self.grants)
                    .arg("admin", self.admin),
            );
        }
        self.reset.as_ref().map(|user| {
            Text::new("admin-users-reset-done")
                .arg("user", user.as_str())
                .arg("admin", self.admin)
        })
    }
}

/// The page with nothing typed.
fn blank(ctx: &Ctx, notice: Option<Text>) -> UsersView {
    UsersView {
        nav: ctx.nav("users"),
        lookup_username: String::new(),
        factors: None,
        username: String::new(),
        notice,
        error: None,
        revoke_username: String::new(),
        revoke_error: None,
    }
}

/// `GET /admin/users`.
#[handler]
pub async fn show(
    Data(state): Data<&AppState>,
    Query(query): Query<UsersQuery>,
    ctx: Ctx,
) -> Result<Response, PageError> {
    let mut view = blank(&ctx, query.notice());
    let name = query.user.as_deref().map(str::trim).unwrap_or_default();
    if !name.is_empty() {
        let found = match factors(state, name).await {
            Ok(found) => found,
            Err(LookupError::Store(e)) => return Err(e.into()),
            Err(LookupError::Directory(e)) => return Err(e.into()),
        };
        // The actions beside it apply to the person looked up.
        view.lookup_username = name.to_owned();
        view.username = found.sub.clone();
        view.revoke_username = found.sub.clone();
        view.factors = Some(FactorsView {
            sub: found.sub,
            authenticator_since: found.authenticator_since,
            recovery_codes_left: found.recovery_codes_left,
            passkey_count: found.passkeys.len(),
            passkeys: found.passkeys,
        });
    }
    page(state, StatusCode::OK, &view)
}

/// The reset form.
#[derive(Debug, Deserialize)]
pub struct ResetForm {
    #[serde(default)]
    csrf_token: Option<String>,
    #[serde(default)]
    username: String,
}

/// `POST /admin/users`: removes the user's authenticator and recovery codes.
#[handler]
pub async fn reset(
    Data(state): Data<&AppState>,
    form: poem::Result<Form<ResetForm>>,
    ctx: Ctx,
) -> Result<Response, PageError> {
    let Form(form) = form.map_err(|e| PageError::unreadable("form", e))?;
    ctx.check(form.csrf_token.as_deref())?;
    let username = form.username.trim().to_owned();
    let error = if username.is_empty() {
        Some(Text::new("admin-users-reset-empty"))
    } else if let Some(done) = reset_second_factor(state, ctx.actor(), &username).await? {
        let user: String = url::form_urlencoded::byte_serialize(username.as_bytes()).collect();
        return see_other(&format!(
            "/admin/users?reset={user}&admin={}",
            done.admin_sessions
        ));
    } else {
        Some(Text::new("admin-users-reset-none").arg("user", username.as_str()))
    };
    i18n::return_to(PATH);
    let view = UsersView {
        username,
        error,
        ..blank(&ctx, None)
    };
    page(state, StatusCode::UNPROCESSABLE_ENTITY, &view)
}

/// `POST /admin/users/revoke`: ends every session and revokes every code and token of a user.
#[handler]
pub async fn revoke(
    Data(state): Data<&AppState>,
    form: poem::Result<Form<ResetForm>>,
    ctx: Ctx,
) -> Result<Response, PageError> {
    let Form(form) = form.map_err(|e| PageError::unreadable("form", e))?;
    ctx.check(form.csrf_token.as_deref())?;
    let username = form.username.trim().to_owned();
    if username.is_empty() {
        i18n::return_to(PATH);
        let view = UsersView {
            revoke_error: Some(Text::new("admin-users-revoke-empty")),
            ..blank(&ctx, None)
        };
        return page(state, StatusCode::UNPROCESSABLE_ENTITY, &view);
    }
    let done = match sign_out_everywhere(state, ctx.actor(), &username).await {
        Ok(done) => done,
        Err(RevokeError::Store(e)) => return Err(e.into()),
        Err(RevokeError::Directory(e)) => return Err(e.into()),
    };
    let user: String = url::form_urlencoded::byte_serialize(done.sub.as_bytes()).collect();
    see_other(&format!(
        "/admin/users?revoked={user}&sessions={}&grants={}&admin={}",
        done.sessions, done.grants, done.admin_sessions
    ))
}
