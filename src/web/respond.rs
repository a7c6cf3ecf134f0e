//! Building page responses: HTML with the page security headers, redirects, flow cookies and
//! the service's own URLs.
//!
//! Cookies and URLs take the settings, not the app state: the state holds this layer's page
//! templates, so depending on it here would make a cycle.

use super::errors::PageError;
use super::render::{Page, Templates};
use crate::config::Settings;
use poem::http::{header, StatusCode};
use poem::web::cookie::{Cookie, CookieJar, SameSite};
use poem::Response;
use std::time::Duration;

/// Headers every page carries: not cacheable, not frameable, no referrer, no inline script.
pub const PAGE_HEADERS: [(&str, &str); 6] = [
    ("cache-control", "no-store"),
    ("pragma", "no-cache"),
    (
        "content-security-policy",
        "default-src 'none'; style-src 'self'; img-src 'self' data:; frame-ancestors 'none'; base-uri 'none'",
    ),
    ("x-frame-options", "DENY"),
    ("referrer-policy", "no-referrer"),
    ("x-content-type-options", "nosniff"),
];

/// The page CSP of a page that runs a passkey ceremony: [`PAGE_HEADERS`]'s, plus scripts from
/// this service only (`/assets/passkey.js`). Inline script stays forbidden.
pub const PASSKEY_PAGE_CSP: &str = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; frame-ancestors 'none'; base-uri 'none'";

/// `response` allowed to run this service's own scripts (a passkey ceremony's page).
pub fn with_own_scripts(mut response: Response) -> Response {
    response.headers_mut().insert(
        header::CONTENT_SECURITY_POLICY,
        poem::http::HeaderValue::from_static(PASSKEY_PAGE_CSP),
    );
    response
}

/// An HTML page.
pub fn html(status: StatusCode, body: String) -> Response {
    let mut builder = Response::builder()
        .status(status)
        .content_type("text/html; charset=utf-8");
    for (name, value) in PAGE_HEADERS {
        builder = builder.header(name, value);
    }
    builder.body(body)
}

/// `page` rendered with its own template, as HTML with `status`, in the language of the
/// request being answered (see [`i18n`](super::i18n)).
pub fn page<P: Page>(
    templates: &Templates,
    status: StatusCode,
    page: &P,
) -> Result<Response, PageError> {
    Ok(with_language(html(status, templates.page(page)?)))
}

/// `response` saying it is in the language of the request being answered
/// (`Content-Language`), the language its page was rendered in.
pub fn with_language(mut response: Response) -> Response {
    response.headers_mut().insert(
        header::CONTENT_LANGUAGE,
        poem::http::HeaderValue::from_static(super::i18n::current().code()),
    );
    response
}

/// A redirect: 302 from a GET, 303 after a form post (never 307, which would re-post the
/// password to the app).
pub fn redirect(status: StatusCode, location: &str) -> Response {
    let mut builder = Response::builder()
        .status(status)
        .header(header::LOCATION, location);
    for (name, value) in PAGE_HEADERS {
        builder = builder.header(name, value);
    }
    builder.finish()
}

/// A cookie with the flags every sso-bridge cookie carries, under the name
/// [`Settings::cookie_name`] gives `name`.
pub fn cookie(settings: &Settings, name: &str, value: String, max_age: Option<u64>) -> Cookie {
    let mut c = Cookie::new_with_str(settings.cookie_name(name), value);
    c.set_http_only(true);
    c.set_same_site(SameSite::Lax);
    c.set_secure(settings.secure_cookies());
    c.set_path(cookie_path(settings));
    if let Some(secs) = max_age {
        c.set_max_age(Duration::from_secs(secs));
    }
    c
}

/// The value of the browser's cookie `name`, under the name [`Settings::cookie_name`] gives it.
pub fn cookie_value(settings: &Settings, jar: &CookieJar, name: &str) -> Option<String> {
    jar.get(&settings.cookie_name(name))
        .map(|c| c.value_str().to_owned())
}

/// Removes a cookie from the browser.
pub fn clear_cookie(settings: &Settings, jar: &CookieJar, name: &str) {
    let mut c = cookie(settings, name, String::new(), Some(0));
    c.make_removal();
    jar.add(c);
}

fn cookie_path(settings: &Settings) -> String {
    let base = settings.base_url();
    let path = base.path().trim_end_matches('/');
    if path.is_empty() {
        "/".into()
    } else {
        path.to_owned()
    }
}

/// An absolute URL of one of the service's own paths.
pub fn url(settings: &Settings, path: &str) -> String {
    format!("{}{}", settings.issuer(), path)
}
