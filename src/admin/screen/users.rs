//! `/admin/users`: reset a user's second factor (a lost phone), by username.

use super::apps::see_other;
use super::page;
use super::session::Ctx;
use super::views::UsersView;
use crate::admin::users::reset_second_factor;
use crate::state::AppState;
use crate::web::errors::PageError;
use poem::http::StatusCode;
use poem::web::{Data, Form, Query};
use poem::{handler, Response};
use serde::Deserialize;

/// What the page says after a reset.
#[derive(Debug, Deserialize)]
pub struct UsersQuery {
    #[serde(default)]
    reset: Option<String>,
}

/// `GET /admin/users`.
#[handler]
pub async fn show(
    Data(state): Data<&AppState>,
    Query(query): Query<UsersQuery>,
    ctx: Ctx,
) -> Result<Response, PageError> {
    let view = UsersView {
        nav: ctx.nav("users"),
        username: String::new(),
        notice: query.reset.map(|user| {
            format!("Two-step verification of {user} removed: they set up a new authenticator at their next sign-in.")
        }),
        error: None,
    };
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
        Some("Enter the username whose two-step verification to remove.".to_owned())
    } else if reset_second_factor(state, ctx.actor(), &username).await? {
        let user: String = url::form_urlencoded::byte_serialize(username.as_bytes()).collect();
        return see_other(&format!("/admin/users?reset={user}"));
    } else {
        Some(format!(
            "{username} has no two-step verification set up: nothing to remove."
        ))
    };
    let view = UsersView {
        nav: ctx.nav("users"),
        username,
        notice: None,
        error,
    };
    page(state, StatusCode::UNPROCESSABLE_ENTITY, &view)
}
