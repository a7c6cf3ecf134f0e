//! What the web layer's modules share: the page templates and how they are rendered, redirects
//! and cookies (and the cookie token of the sign-in forms shown before a session), error
//! pages, the pages' languages, OAuth errors as HTTP answers, request body limits, the client's
//! address and browser, and the request log. `http`, `pages` and `admin` build on this; nothing
//! below the web layer uses it.

pub mod address;
pub mod body_limit;
pub mod device;
pub mod errors;
pub mod forwarded;
pub mod i18n;
pub mod login_cookie;
pub mod messages;
pub mod oauth_error;
pub mod render;
pub mod request_log;
pub mod respond;

/// An error and its sources, outermost first: `a: b: c`.
pub fn error_chain(err: &dyn std::error::Error) -> String {
    let mut text = err.to_string();
    let mut source = err.source();
    while let Some(inner) = source {
        text.push_str(": ");
        text.push_str(&inner.to_string());
        source = inner.source();
    }
    text
}
