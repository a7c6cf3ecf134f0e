//! Every way a page of the sign-in flow or the admin screen can fail, and the page each one
//! shows. The one place that turns flow errors into HTML.
//!
//! Page handlers answer `Result<Response, PageError>`; the [`ErrorPages`] middleware renders
//! the error with the templates it holds, so no handler needs the app state to fail.

use super::i18n::{self, RequestLanguages, Text};
use super::render::{name, Page, RenderError, Templates};
use super::respond::{html, redirect, with_language};
use crate::directory::DirectoryError;
use crate::domain::secret::random_id;
use crate::domain::Escaped;
use crate::session::pending::PendingError;
use crate::store::StoreError;
use poem::error::ResponseError;
use poem::http::StatusCode;
use poem::{Endpoint, IntoResponse, Middleware, PathPattern, Request, Response};
use serde::Serialize;
use std::sync::Arc;

/// Shown when even the error page cannot be rendered.
const BARE_ERROR: &str =
    "<!doctype html><title>Error</title><p>Sign-on failed. Please try again.</p>";

/// What a refusal for load tells a client to wait, in seconds.
const RETRY_AFTER_SECS: u32 = 60;

/// `error.hbs`: a failure the user can only read about (never a redirect).
#[derive(Debug, Clone, Serialize)]
pub struct ErrorPage {
    /// HTTP status, shown small.
    pub status: u16,
    /// Short title ("Unknown application").
    pub title: Text,
    /// What happened and what to do, in plain words.
    pub message: Text,
    /// Opaque id to quote to the help desk; matches the log line.
    pub request_id: Option<String>,
    /// The one way on, when there is one.
    pub back: Option<BackLink>,
}

/// A link out of an error page.
#[derive(Debug, Clone, Serialize)]
pub struct BackLink {
    /// What it says.
    pub text: Text,
    /// Where it goes.
    pub url: String,
}

impl Page for ErrorPage {
    const TEMPLATE: &'static str = name::ERROR;
}

/// A page failure: of the sign-in flow, or of the admin screen.
#[derive(Debug, thiserror::Error)]
pub enum PageError {
    /// A request that cannot be trusted enough to redirect (unknown app, unregistered URI).
    #[error("{title}: {message}")]
    Untrusted { title: Text, message: Text },
    /// The pending request expired or never existed.
    #[error("sign-in request expired")]
    Expired,
    /// A form post that did not come from this browser's page (CSRF).
    #[error("forged or stale form post")]
    Forged,
    /// A form post with a field missing or out of range: what it shows, and the detail for
    /// the log.
    #[error("bad form: {1}")]
    BadForm(Text, String),
    /// The store keeps as many unfinished sign-ins as it may: a new one must wait.
    #[error("{0}")]
    Busy(String),
    /// The client's address group has as many unfinished sign-ins as it may.
    #[error("{0}")]
    TooManyWaiting(String),
    /// The person may not use the app `app`; `back` returns `access_denied` to it.
    #[error("no access to {app}")]
    NoAccess { app: String, back: String },
    /// The store is down.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// The directory is down or slow.
    #[error("directory unavailable: {0}")]
    Directory(String),
    /// A directory entry the service cannot use (no subject attribute).
    #[error("directory entry unusable: {0}")]
    UnusableAccount(String),
    /// A page failed to render.
    #[error("render failed: {0}")]
    Render(String),
    /// The second factor cannot be checked (the stored secret does not open with the key).
    #[error("second factor unusable: {0}")]
    SecondFactor(String),
    /// A page that needs a sign-in this browser has not done (or that went idle): answered
    /// with a redirect to the sign-in form at this path, not with an error page.
    #[error("sign-in required")]
    SignInFirst(&'static str),
    // --- admin screen ---
    /// Signed in, but not allowed to use the admin screen.
    #[error("admin screen refused: not a superadmin")]
    AdminForbidden,
    /// No such app on the admin screen.
    #[error("admin screen: {0}")]
    AdminNotFound(Text),
    // --- account page ---
    /// An id the person's account page was sent that names nothing of theirs.
    #[error("account page: {0}")]
    NotTheirs(String),
}

impl From<crate::account::AccountError> for PageError {
    fn from(err: crate::account::AccountError) -> Self {
        use crate::account::AccountError;
        match err {
            not_theirs @ AccountError::NotTheirs(_) => PageError::NotTheirs(not_theirs.to_string()),
            AccountError::Store(e) => PageError::Store(e),
            AccountError::Directory(cause) => PageError::Directory(cause),
            AccountError::SecondFactor(cause) => PageError::SecondFactor(cause),
            bad @ AccountError::BadName => {
                PageError::BadForm(Text::new("passkey-bad-name"), bad.to_string())
            }
            // The page checks the policy before offering the change; a post past it is stale.
            required @ AccountError::Required => PageError::BadForm(
                Text::new("account-authenticator-required"),
                required.to_string(),
            ),
        }
    }
}

impl From<crate::account::reauth::ReauthError> for PageError {
    fn from(err: crate::account::reauth::ReauthError) -> Self {
        use crate::account::reauth::ReauthError;
        match err {
            ReauthError::Unavailable(e) => e.into(),
            // The page answers these itself, with the form again.
            refused => PageError::BadForm(Text::new("account-reauth-wrong"), refused.to_string()),
        }
    }
}

impl From<crate::mfa::MfaError> for PageError {
    fn from(err: crate::mfa::MfaError) -> Self {
        use crate::mfa::MfaError;
        match err {
            MfaError::Store(e) => PageError::Store(e),
            MfaError::Directory(cause) => cause.into(),
            MfaError::NotEnrolled | MfaError::NoSetup => PageError::Expired,
            MfaError::Passkey(e) => e.into(),
            other => PageError::SecondFactor(other.to_string()),
        }
    }
}

impl From<crate::mfa::passkey::PasskeyError> for PageError {
    fn from(err: crate::mfa::passkey::PasskeyError) -> Self {
        use crate::mfa::passkey::PasskeyError;
        match err {
            PasskeyError::Store(e) => PageError::Store(e),
            PasskeyError::Directory(cause) => cause.into(),
            PasskeyError::NoCeremony => PageError::Expired,
            other => PageError::SecondFactor(other.to_string()),
        }
    }
}

impl From<RenderError> for PageError {
    fn from(err: RenderError) -> Self {
        PageError::Render(err.to_string())
    }
}

impl From<PendingError> for PageError {
    fn from(err: PendingError) -> Self {
        match err {
            PendingError::Expired => PageError::Expired,
            PendingError::Forged => PageError::Forged,
            busy @ PendingError::Busy { .. } => PageError::Busy(busy.to_string()),
            many @ PendingError::TooMany { .. } => PageError::TooManyWaiting(many.to_string()),
            PendingError::Store(e) => PageError::Store(e),
        }
    }
}

impl From<crate::session::RecheckError> for PageError {
    fn from(err: crate::session::RecheckError) -> Self {
        match err {
            crate::session::RecheckError::Store(e) => PageError::Store(e),
            crate::session::RecheckError::Directory(cause) => PageError::Directory(cause),
        }
    }
}

impl From<DirectoryError> for PageError {
    fn from(err: DirectoryError) -> Self {
        match err {
            // Callers handle InvalidCredentials themselves; reaching here is a directory fault.
            DirectoryError::InvalidCredentials | DirectoryError::AccountUnusable(_) => {
                PageError::Directory("credentials refused".into())
            }
            DirectoryError::Unavailable(cause) => PageError::Directory(cause),
        }
    }
}

impl From<crate::oidc::signing_key::KeyError> for PageError {
    fn from(err: crate::oidc::signing_key::KeyError) -> Self {
        match err {
            crate::oidc::signing_key::KeyError::Store(e) => PageError::Store(e),
            other => PageError::Render(format!("signing keys: {other}")),
        }
    }
}

impl PageError {
    /// A form or request body that could not be parsed: `what` names it ("sign-in form").
    pub fn unreadable(what: &str, err: impl std::fmt::Display) -> Self {
        PageError::BadForm(
            Text::new("error-form-unreadable"),
            format!("The {what} could not be read: {err}."),
        )
    }

    /// The status and the error page's title and message.
    fn page(&self) -> (StatusCode, Text, Text) {
        let (status, title, message) = match self {
            PageError::Untrusted { title, message } => {
                return (StatusCode::BAD_REQUEST, title.clone(), message.clone())
            }
            PageError::BadForm(message, _) => {
                return (
                    StatusCode::BAD_REQUEST,
                    Text::new("error-bad-form-title"),
                    message.clone(),
                )
            }
            PageError::NoAccess { app, .. } => {
                return (
                    StatusCode::FORBIDDEN,
                    Text::new("error-no-access-title").arg("app", app.as_str()),
                    Text::new("error-no-access-message").arg("app", app.as_str()),
                )
            }
            PageError::AdminNotFound(message) => {
                return (
                    StatusCode::NOT_FOUND,
                    Text::new("error-not-found-title"),
                    message.clone(),
                )
            }
            PageError::SignInFirst(_) => (
                StatusCode::SEE_OTHER,
                "error-sign-in-first-title",
                "error-sign-in-first-message",
            ),
            PageError::Expired => (
                StatusCode::BAD_REQUEST,
                "error-expired-title",
                "error-expired-message",
            ),
            PageError::Forged => (
                StatusCode::FORBIDDEN,
                "error-forged-title",
                "error-forged-message",
            ),
            PageError::Busy(_) => (
                StatusCode::SERVICE_UNAVAILABLE,
                "error-busy-title",
                "error-busy-message",
            ),
            PageError::TooManyWaiting(_) => (
                StatusCode::TOO_MANY_REQUESTS,
                "error-too-many-waiting-title",
                "error-too-many-waiting-message",
            ),
            PageError::Store(_) => (
                StatusCode::SERVICE_UNAVAILABLE,
                "error-store-title",
                "error-store-message",
            ),
            PageError::Directory(_) => (
                StatusCode::SERVICE_UNAVAILABLE,
                "error-directory-title",
                "error-directory-message",
            ),
            PageError::UnusableAccount(_) => (
                StatusCode::FORBIDDEN,
                "error-unusable-account-title",
                "error-unusable-account-message",
            ),
            PageError::SecondFactor(_) => (
                StatusCode::INTERNAL_SERVER_ERROR,
                "error-second-factor-title",
                "error-second-factor-message",
            ),
            PageError::AdminForbidden => (
                StatusCode::FORBIDDEN,
                "error-admin-forbidden-title",
                "error-admin-forbidden-message",
            ),
            PageError::NotTheirs(_) => (
                StatusCode::NOT_FOUND,
                "account-not-theirs-title",
                "account-not-theirs-message",
            ),
            PageError::Render(_) => (
                StatusCode::INTERNAL_SERVER_ERROR,
                "error-render-title",
                "error-render-message",
            ),
        };
        (status, Text::new(title), Text::new(message))
    }

    /// The error page (or the sign-in redirect); the cause is logged under a request id the
    /// page shows.
    fn render(self, templates: &Templates) -> Response {
        if let PageError::SignInFirst(path) = self {
            return redirect(StatusCode::SEE_OTHER, path);
        }
        let request_id = random_id(9);
        let (status, title, message) = self.page();
        let retry_later = matches!(self, PageError::Busy(_) | PageError::TooManyWaiting(_));
        let back = match &self {
            PageError::NoAccess { app, back } => Some(BackLink {
                text: Text::new("error-no-access-back").arg("app", app.as_str()),
                url: back.clone(),
            }),
            _ => None,
        };
        // The text may quote the request (an unregistered redirect_uri): escaped.
        let error = self.to_string();
        if status.is_server_error() {
            tracing::error!(%request_id, error = ?Escaped(&error), "browser flow failed");
        } else {
            tracing::info!(%request_id, error = ?Escaped(&error), "browser flow refused");
        }
        // An error page is final: no form, not even the language menu (it is shown in the
        // language the request was to be answered in).
        i18n::no_return();
        let page = ErrorPage {
            status: status.as_u16(),
            title,
            message,
            request_id: Some(request_id),
            back,
        };
        let mut response = match templates.page(&page) {
            Ok(body) => with_language(html(status, body)),
            Err(e) => {
                tracing::error!(error = %e, "error page failed to render");
                html(status, BARE_ERROR.into())
            }
        };
        if retry_later {
            response
                .headers_mut()
                .insert(poem::http::header::RETRY_AFTER, RETRY_AFTER_SECS.into());
        }
        response
    }
}

/// What a `PageError` answers where no [`ErrorPages`] is in place to render it: the status and
/// a bare page, never the error's text (it may name internal causes).
impl ResponseError for PageError {
    fn status(&self) -> StatusCode {
        self.page().0
    }

    fn as_response(&self) -> Response {
        if let PageError::SignInFirst(path) = self {
            return redirect(StatusCode::SEE_OTHER, path);
        }
        let error = self.to_string();
        tracing::error!(error = ?Escaped(&error), "page error answered without its error page");
        html(self.status(), BARE_ERROR.into())
    }
}

/// Middleware showing a handler's [`PageError`] as its error page. Every other error passes
/// through untouched: the APIs answer their own.
pub struct ErrorPages {
    templates: Arc<Templates>,
    languages: RequestLanguages,
}

impl ErrorPages {
    /// Renders error pages with `templates`, in the language `languages` work out for each
    /// request (which the pages of the handlers inside are rendered in too).
    pub fn new(templates: Arc<Templates>, languages: RequestLanguages) -> Self {
        Self {
            templates,
            languages,
        }
    }
}

impl<E: Endpoint> Middleware<E> for ErrorPages {
    type Output = ErrorPagesEndpoint<E>;

    fn transform(&self, inner: E) -> Self::Output {
        ErrorPagesEndpoint {
            inner,
            templates: Arc::clone(&self.templates),
            languages: self.languages.clone(),
        }
    }
}

/// An endpoint wrapped by [`ErrorPages`].
pub struct ErrorPagesEndpoint<E> {
    inner: E,
    templates: Arc<Templates>,
    languages: RequestLanguages,
}

impl<E: Endpoint> Endpoint for ErrorPagesEndpoint<E> {
    type Output = Response;

    async fn call(&self, req: Request) -> poem::Result<Response> {
        let context = self.languages.context(&req);
        i18n::scope(context, async {
            // Boxed: every middleware outside this one holds its request's future by value,
            // and poem moves the whole chain's future onto the heap once more per request;
            // kept behind a pointer, the router's part is moved once.
            match Box::pin(self.inner.call(req)).await {
                Ok(output) => Ok(output.into_response()),
                Err(err) => {
                    // The route the router matched stays with the answer, for the metrics.
                    let pattern = err.data::<PathPattern>().cloned();
                    match err.downcast::<PageError>() {
                        Ok(error) => {
                            let mut page = error.render(&self.templates);
                            if let Some(pattern) = pattern {
                                page.set_data(pattern);
                            }
                            Ok(page)
                        }
                        Err(other) => Err(other),
                    }
                }
            }
        })
        .await
    }
}

#[cfg(test)]
mod tests;
