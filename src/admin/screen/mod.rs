//! The admin screen at `/admin`: Identity & SSO › Connected Apps, Users (second-factor reset,
//! sign-out everywhere) and the audit log.
//!
//! Server-rendered pages (handlebars, no script) over the same functions the admin API uses.
//! Every page needs a superadmin signed in through the directory sign-in: its handler takes the
//! [`session::Ctx`] extractor, which answers anyone else with the sign-in form or the 403 page.
//! Every form carries the screen's CSRF token; pages carry the same security headers as the
//! sign-in pages (no framing, no caching, no script).

mod actions;
mod apps;
mod audit_log;
pub mod session;
mod signin;
mod users;
pub mod views;

#[cfg(test)]
mod tests;

use crate::state::AppState;
use crate::web::errors::PageError;
use crate::web::render::Page;
use crate::web::respond::{self, redirect};
use poem::http::StatusCode;
use poem::{get, handler, post, Response, Route};

/// Adds the admin screen's routes (beside the admin API under `/admin/api`).
pub fn mount(route: Route) -> Route {
    route
        .at("/admin", get(home))
        .at(
            "/admin/login",
            get(signin::sign_in_page).post(signin::sign_in),
        )
        .at("/admin/login/passkey", post(signin::sign_in_passkey))
        .at("/admin/logout", post(signin::logout))
        .at("/admin/apps", get(apps::list).post(apps::create))
        .at("/admin/apps/new", get(apps::new_form))
        .at("/admin/apps/:client_id", get(apps::show).post(apps::edit))
        .at("/admin/apps/:client_id/rotate", post(actions::rotate))
        .at("/admin/apps/:client_id/disable", post(actions::disable))
        .at("/admin/apps/:client_id/enable", post(actions::enable))
        .at(
            "/admin/apps/:client_id/delete",
            get(actions::confirm_delete).post(actions::delete),
        )
        .at("/admin/users", get(users::show).post(users::reset))
        .at("/admin/users/revoke", post(users::revoke))
        .at("/admin/audit", get(audit_log::show))
        .at("/admin/assets/copy.js", get(copy_script))
}

/// The admin screen's one script: the secret's Copy button, a progressive enhancement.
const COPY_SCRIPT: &str = include_str!("../../../templates/admin/copy.js");

/// The page CSP of the admin screen: the sign-in pages' policy, plus scripts from this
/// service only (the Copy button). Inline script stays forbidden.
const ADMIN_CSP: &str = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; frame-ancestors 'none'; base-uri 'none'; form-action 'self'";

#[handler]
fn copy_script() -> Response {
    Response::builder()
        .content_type("text/javascript; charset=utf-8")
        .header(poem::http::header::CACHE_CONTROL, "public, max-age=3600")
        .header("x-content-type-options", "nosniff")
        .body(COPY_SCRIPT)
}

#[handler]
fn home() -> Response {
    redirect(StatusCode::SEE_OTHER, "/admin/apps")
}

/// Renders an admin page with `status`.
fn page<P: Page>(state: &AppState, status: StatusCode, view: &P) -> Result<Response, PageError> {
    let mut response = respond::page(&state.templates, status, view)?;
    response.headers_mut().insert(
        poem::http::header::CONTENT_SECURITY_POLICY,
        poem::http::HeaderValue::from_static(ADMIN_CSP),
    );
    Ok(response)
}
