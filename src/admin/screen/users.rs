//! `/admin/users`: reset a user's second factor (a lost phone), by username; sign a user out
//! everywhere (`/admin/users/revoke`).

use super::apps::see_other;
use super::page;
use super::session::Ctx;
use super::views::UsersView;
use crate::admin::users::{reset_second_factor, sign_out_everywhere, RevokeError};
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
}

impl UsersQuery {
    fn notice(self) -> Option<Text> {
        if let Some(user) = self.revoked {
            return Some(
                Text::new("admin-users-revoked")
                    .arg("user", user)
                    .arg("sessions", self.sessions)
                    .arg("grants", self.grants)
                    .arg("admin", self.admin),
            );
        }
        let admin = self.admin;
        self.reset.map(|user| {
            Text::new("admin-users-reset-done")
                .arg("user", user)
                .arg("admin", admin)
        })
    }
}

/// The page with nothing typed.
fn blank(ctx: &Ctx, notice: Option<Text>) -> UsersView {
    UsersView {
        nav: ctx.nav("users"),
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
    page(state, StatusCode::OK, &blank(&ctx, query.notice()))
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
