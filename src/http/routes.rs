//! The router: pages, APIs, docs, assets.

use super::cors::Cors;
use super::docs::ApiDocs;
use super::openapi;
use super::probes::{self, HEALTH_PATH, METRICS_PATH, READY_PATH};
use crate::oidc::discovery::paths;
use crate::pages;
use crate::state::AppState;
use crate::telemetry::http::HttpMetrics;
use crate::web::address::ClientAddresses;
use crate::web::body_limit::{Answer, BodyLimit, Limit, ADMIN_MAX, FORM_MAX};
use crate::web::errors::ErrorPages;
use crate::web::i18n::{self, RequestLanguages};
use crate::web::render::{PASSKEY_SCRIPT, PASSKEY_SCRIPT_PATH, STYLESHEET};
use crate::web::request_log::RequestLog;
use poem::http::header;
use poem::middleware::{CatchPanic, CookieJarManager, SetHeader};
use poem::{get, handler, post, Endpoint, EndpointExt, IntoResponse, Request, Response, Route};
use std::sync::Arc;

#[handler]
fn stylesheet() -> Response {
    Response::builder()
        .content_type("text/css; charset=utf-8")
        .header(header::CACHE_CONTROL, "public, max-age=3600")
        .header("x-content-type-options", "nosniff")
        .body(STYLESHEET)
}

#[handler]
fn passkey_script() -> Response {
    Response::builder()
        .content_type("text/javascript; charset=utf-8")
        .header(header::CACHE_CONTROL, "public, max-age=3600")
        .header("x-content-type-options", "nosniff")
        .body(PASSKEY_SCRIPT)
}

/// Endpoints called by apps' backends, which answer a refusal as an OAuth JSON error; the
/// most called, so they go to the API without the router (see [`ApiFirst`]).
const API_PATHS: [&str; 5] = [
    paths::TOKEN,
    paths::USERINFO,
    paths::JWKS,
    paths::REVOKE,
    paths::INTROSPECT,
];

/// The body limit of a request: the admin API and screen carry app registrations, everything
/// else small forms; the APIs refuse in JSON, the pages with a page.
fn body_limit(req: &Request) -> Limit {
    let path = req.uri().path();
    let max = if path.starts_with("/admin") {
        ADMIN_MAX
    } else {
        FORM_MAX
    };
    let api = API_PATHS.contains(&path)
        || path.starts_with("/admin/api/")
        || path.starts_with("/.well-known/");
    let answer = if api { Answer::Json } else { Answer::Page };
    Limit { max, answer }
}

/// Every route of the service, with its middleware.
pub fn routes(state: AppState) -> impl Endpoint {
    let api = openapi::service(&state.settings.issuer());
    let docs = ApiDocs::new(state.settings.issuer());
    let api = Arc::new(
        api.with(
            SetHeader::new()
                .overriding(header::CACHE_CONTROL, "no-store")
                .overriding(header::PRAGMA, "no-cache"),
        ),
    );
    // The admin screen's pages, beside the admin API it shares `/admin` with.
    let mut route = crate::admin::screen::mount(Route::new());
    // With an address of their own, the metrics are not on the public listener at all.
    if state.settings.server.metrics_listen.is_none() {
        route = route.at(METRICS_PATH, get(probes::metrics));
    }
    let route = route
        .at(
            "/oauth/authorize",
            get(pages::authorize::authorize).post(pages::authorize::authorize_post),
        )
        .at(pages::signin::PATH, post(pages::signin::login))
        .at(
            pages::signin::PASSKEY_PATH,
            post(pages::signin::login_passkey),
        )
        .at(
            pages::consent::PATH,
            get(pages::consent::show).post(pages::consent::decide),
        )
        // second factor
        .at(
            pages::second_factor::PATH,
            get(pages::second_factor::show).post(pages::second_factor::verify),
        )
        .at(
            pages::second_factor::CONTINUE_PATH,
            post(pages::second_factor::continue_flow),
        )
        .at(
            pages::second_factor::PASSKEY_PATH,
            post(pages::second_factor::verify_passkey),
        )
        .at(
            pages::enrol::PATH,
            get(pages::enrol::show).post(pages::enrol::confirm),
        )
        .at(pages::enrol::PASSKEY_PATH, post(pages::enrol::add_passkey))
        // OpenID Connect RP-initiated logout.
        .at(
            pages::logout::PATH,
            get(pages::logout::start).post(pages::logout::submit),
        )
        // The person's own account page.
        .at(pages::account::PATH, get(pages::account::show::show))
        .at(
            pages::account::SIGN_IN_PATH,
            get(pages::account::signin::sign_in_page).post(pages::account::signin::sign_in),
        )
        .at(
            pages::account::SIGN_IN_PASSKEY_PATH,
            post(pages::account::signin::passkey_step),
        )
        .at(
            pages::account::REVOKE_APP_PATH,
            post(pages::account::forms::revoke_app),
        )
        .at(
            pages::account::END_SESSION_PATH,
            post(pages::account::forms::end_session),
        )
        .at(
            pages::account::END_OTHERS_PATH,
            post(pages::account::forms::end_others),
        )
        .at(
            pages::account::CONFIRM_PATH,
            get(pages::account::reauth::show).post(pages::account::reauth::confirm),
        )
        .at(
            pages::account::AUTHENTICATOR_PATH,
            get(pages::account::two_step::authenticator)
                .post(pages::account::two_step::confirm_authenticator),
        )
        .at(
            pages::account::REMOVE_AUTHENTICATOR_PATH,
            post(pages::account::two_step::remove_authenticator),
        )
        .at(
            pages::account::RECOVERY_CODES_PATH,
            post(pages::account::two_step::recovery_codes),
        )
        .at(
            pages::account::ADD_PASSKEY_PATH,
            get(pages::account::passkeys::add_show).post(pages::account::passkeys::add),
        )
        .at(
            pages::account::RENAME_PASSKEY_PATH,
            post(pages::account::passkeys::rename_form),
        )
        .at(
            pages::account::REMOVE_PASSKEY_PATH,
            post(pages::account::passkeys::remove_form),
        )
        .at(i18n::MENU_PATH, post(pages::language::choose))
        .at("/assets/style.css", get(stylesheet))
        .at(PASSKEY_SCRIPT_PATH, get(passkey_script))
        .at(HEALTH_PATH, get(probes::health))
        .at(READY_PATH, get(probes::ready))
        .at("/openapi.json", docs.spec_endpoint())
        .at("/docs", docs.page_endpoint())
        .nest("/", Arc::clone(&api));
    ApiFirst { api, route }
        // Inside the cookie manager, which drops the cookies a handler set when it answers
        // an error: a page error becomes a page before it gets there.
        .with(ErrorPages::new(
            Arc::clone(&state.templates),
            RequestLanguages::new(&state.settings),
        ))
        // Outside the error pages, so that its 413 replaces whatever a handler answered to a
        // body cut off at the limit.
        .with(BodyLimit::new(body_limit))
        // Outside the body limit, so that a refusal of a browser app's request carries the
        // CORS headers that let the app read it.
        .with(Cors::new(Arc::clone(&state.origins)))
        .with(CookieJarManager::new())
        .with(CatchPanic::new())
        .with(HttpMetrics::new(Arc::clone(&state.metrics)))
        .with(RequestLog)
        // Outermost, so that everything inside reads the one resolved address.
        .with(ClientAddresses::new(
            state.settings.server.trusted_proxies.clone(),
        ))
        .data(state)
}

/// The router, but for the APIs apps call most ([`API_PATHS`]), which go to the API at once:
/// the router would find them in the API nested under "/", whose nesting rewrites each
/// request's address on the way in.
struct ApiFirst<A> {
    api: Arc<A>,
    route: Route,
}

impl<A: Endpoint> Endpoint for ApiFirst<A> {
    type Output = Response;

    async fn call(&self, req: Request) -> poem::Result<Response> {
        if API_PATHS.contains(&req.uri().path()) {
            self.api.call(req).await.map(IntoResponse::into_response)
        } else {
            self.route.call(req).await
        }
    }
}

/// The metrics alone, for `server.metrics_listen`.
pub fn metrics_routes(state: AppState) -> impl Endpoint {
    Route::new()
        .at(METRICS_PATH, get(probes::metrics))
        .data(state)
}
