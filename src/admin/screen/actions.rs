//! The action buttons of an app's page: rotate the secret (shown once), disable / enable, and
//! delete after a confirmation page.

use super::apps::{not_found, see_other};
use super::page;
use super::session::Ctx;
use super::views::{AppRow, DeleteView, SecretView};
use crate::apps;
use crate::state::AppState;
use crate::web::errors::PageError;
use crate::web::i18n::{self, Text};
use poem::http::StatusCode;
use poem::web::{Data, Form, Path};
use poem::{handler, Response};
use serde::Deserialize;

/// A form that carries only the CSRF token (the action buttons).
#[derive(Debug, Deserialize)]
pub struct ButtonForm {
    #[serde(default)]
    csrf_token: Option<String>,
}

fn token(form: poem::Result<Form<ButtonForm>>) -> Option<String> {
    form.ok().and_then(|f| f.0.csrf_token)
}

/// `POST /admin/apps/:client_id/rotate`: a new secret, shown once.
#[handler]
pub async fn rotate(
    Data(state): Data<&AppState>,
    Path(id): Path<String>,
    form: poem::Result<Form<ButtonForm>>,
    ctx: Ctx,
) -> Result<Response, PageError> {
    ctx.check(token(form).as_deref())?;
    let (app, secret) = apps::manage::rotate_secret(state, ctx.actor(), &id)
        .await
        .map_err(not_found)?;
    // Shown once: the secret cannot be shown again.
    i18n::no_return();
    let view = SecretView {
        nav: ctx.nav("apps"),
        heading: Text::new("admin-secret-new").arg("app", app.name.as_str()),
        app: AppRow::new(&app, None),
        client_secret: Some(secret.expose().to_owned()),
    };
    page(state, StatusCode::OK, &view)
}

async fn set_enabled(
    state: &AppState,
    ctx: Ctx,
    id: String,
    form: poem::Result<Form<ButtonForm>>,
    enabled: bool,
) -> Result<Response, PageError> {
    ctx.check(token(form).as_deref())?;
    apps::manage::set_enabled(state, ctx.actor(), &id, enabled)
        .await
        .map_err(not_found)?;
    let done = if enabled { "enabled" } else { "disabled" };
    see_other(&format!("/admin/apps/{id}?done={done}"))
}

/// `POST /admin/apps/:client_id/disable`.
#[handler]
pub async fn disable(
    Data(state): Data<&AppState>,
    Path(id): Path<String>,
    form: poem::Result<Form<ButtonForm>>,
    ctx: Ctx,
) -> Result<Response, PageError> {
    set_enabled(state, ctx, id, form, false).await
}

/// `POST /admin/apps/:client_id/enable`.
#[handler]
pub async fn enable(
    Data(state): Data<&AppState>,
    Path(id): Path<String>,
    form: poem::Result<Form<ButtonForm>>,
    ctx: Ctx,
) -> Result<Response, PageError> {
    set_enabled(state, ctx, id, form, true).await
}

/// `GET /admin/apps/:client_id/delete`: asks for confirmation.
#[handler]
pub async fn confirm_delete(
    Data(state): Data<&AppState>,
    Path(id): Path<String>,
    ctx: Ctx,
) -> Result<Response, PageError> {
    let app = apps::manage::find(state, &id).await.map_err(not_found)?;
    let view = DeleteView {
        nav: ctx.nav("apps"),
        app: AppRow::new(&app, None),
    };
    page(state, StatusCode::OK, &view)
}

/// `POST /admin/apps/:client_id/delete`: deletes the app and revokes its tokens.
#[handler]
pub async fn delete(
    Data(state): Data<&AppState>,
    Path(id): Path<String>,
    form: poem::Result<Form<ButtonForm>>,
    ctx: Ctx,
) -> Result<Response, PageError> {
    ctx.check(token(form).as_deref())?;
    apps::manage::delete(state, ctx.actor(), &id)
        .await
        .map_err(not_found)?;
    see_other("/admin/apps?done=deleted")
}
