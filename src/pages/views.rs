//! One `Serialize` struct per page template: the whole of what a template may show.

use serde::Serialize;

/// `signin.hbs`: the directory sign-in form of an authorize request.
#[derive(Debug, Clone, Serialize)]
pub struct SignInPage {
    /// Name of the app asking (shown as "to continue to …").
    pub app_name: String,
    /// Form action (POST).
    pub action: String,
    /// Hidden: the pending authorize request.
    pub request_id: String,
    /// Hidden: anti-CSRF token.
    pub csrf_token: String,
    /// Username to prefill after a failed attempt.
    pub username: String,
    /// Message after a failed attempt (never says whether the account exists).
    pub error: Option<String>,
}

/// One scope line of the consent page.
#[derive(Debug, Clone, Serialize)]
pub struct ScopeView {
    /// Scope name (`profile`).
    pub name: String,
    /// What it releases, in plain words.
    pub description: String,
}

/// `consent.hbs`: approve or deny an app's access.
#[derive(Debug, Clone, Serialize)]
pub struct ConsentPage {
    /// Name of the app asking.
    pub app_name: String,
    /// Host the browser will be sent to (from the redirect URI).
    pub redirect_host: String,
    /// Display name of the signed-in user (name claim, else username).
    pub user_display: String,
    /// Username of the signed-in user.
    pub username: String,
    /// What the app will be able to read.
    pub scopes: Vec<ScopeView>,
    /// Form action (POST); the form submits `decision=approve` or `decision=deny`.
    pub action: String,
    /// Hidden: the pending authorize request.
    pub request_id: String,
    /// Hidden: anti-CSRF token.
    pub csrf_token: String,
}

/// `error.hbs`: a failure the user can only read about (never a redirect).
#[derive(Debug, Clone, Serialize)]
pub struct ErrorPage {
    /// HTTP status, shown small.
    pub status: u16,
    /// Short title ("Unknown application").
    pub title: String,
    /// What happened and what to do, in plain words.
    pub message: String,
    /// Opaque id to quote to the help desk; matches the log line.
    pub request_id: Option<String>,
}
