//! One `Serialize` struct per page template: the whole of what a template may show.

use crate::web::i18n::Text;
use crate::web::render::{name, Page};
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
    pub error: Option<Text>,
    /// A link offered with the message: the help desk, or where to change a password.
    pub help: Option<HelpLink>,
    /// "Sign in with a passkey", when `mfa.passwordless` is on and passkeys are offered.
    pub passkey: Option<PasskeyPrompt>,
}

/// A link that tells someone refused at sign-in where to go next.
#[derive(Debug, Clone, Serialize)]
pub struct HelpLink {
    /// The link's words.
    pub text: Text,
    /// Its address (a setting).
    pub url: String,
}
impl Page for SignInPage {
    const TEMPLATE: &'static str = name::SIGNIN;
}

/// One scope line of the consent page.
#[derive(Debug, Clone, Serialize)]
pub struct ScopeView {
    /// Scope name (`profile`).
    pub name: String,
    /// What it releases, in plain words.
    pub description: Text,
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
    /// Link to set up a second factor by choice, for a user who has none.
    pub enrol_url: Option<String>,
}
impl Page for ConsentPage {
    const TEMPLATE: &'static str = name::CONSENT;
}

// --- second factor ------------------------------------------------------------------------

/// `second_factor.hbs`: enter a code from the authenticator app (or a recovery code).
#[derive(Debug, Clone, Serialize)]
pub struct SecondFactorPage {
    /// Name of the app asking.
    pub app_name: String,
    /// Username of the signed-in user.
    pub username: String,
    /// Form action (POST); the code goes in the `otp` input.
    pub action: String,
    /// Hidden: the pending authorize request.
    pub request_id: String,
    /// Hidden: anti-CSRF token.
    pub csrf_token: String,
    /// Message after a failed attempt.
    pub error: Option<Text>,
    /// The passkey offered first, when the person has one and passkeys are offered.
    pub passkey: Option<PasskeyPrompt>,
    /// Whether the code form is shown: the person has an authenticator app.
    pub code_form: bool,
}
impl Page for SecondFactorPage {
    const TEMPLATE: &'static str = name::SECOND_FACTOR;
}

/// A form that runs a passkey ceremony (`/assets/passkey.js`): the options the browser hands
/// the authenticator, and where its answer is posted (in the hidden `credential` input).
#[derive(Debug, Clone, Serialize)]
pub struct PasskeyPrompt {
    /// Form action (POST).
    pub action: String,
    /// The `publicKey` options, JSON.
    pub options: String,
}

/// `enrol.hbs`: set up an authenticator app, confirmed by a first code. No `Debug`: it holds
/// the TOTP secret.
#[derive(Clone, Serialize)]
pub struct EnrolPage {
    /// Name of the app asking; `None` on the account page.
    pub app_name: Option<String>,
    /// Username of the signed-in user.
    pub username: String,
    /// The QR code (an SVG data URI rendered by the service).
    pub qr: String,
    /// The secret in base32 groups, for manual entry.
    pub secret: String,
    /// Form action (POST); the first code goes in the `otp` input.
    pub action: String,
    /// Hidden: the pending authorize request; `None` on the account page and its sign-in.
    pub request_id: Option<String>,
    /// Hidden: anti-CSRF token.
    pub csrf_token: String,
    /// Message after a failed attempt.
    pub error: Option<Text>,
    /// Adding a passkey instead, where passkeys are offered.
    pub passkey: Option<PasskeyPrompt>,
}
impl Page for EnrolPage {
    const TEMPLATE: &'static str = name::ENROL;
}

/// `recovery_codes.hbs`: fresh recovery codes (shown once), or what is left after one was used.
/// No `Debug`: it holds the codes.
#[derive(Clone, Serialize)]
pub struct RecoveryCodesPage {
    /// Fresh codes to write down; empty after signing in with a recovery code.
    pub codes: Vec<String>,
    /// Codes left, after signing in with one.
    pub left: Option<u64>,
    /// Link to set up a new authenticator (after signing in with a recovery code).
    pub enrol_url: Option<String>,
    /// Form action (POST) that continues to the app.
    pub action: String,
    /// Hidden: the pending authorize request.
    pub request_id: String,
    /// Hidden: anti-CSRF token.
    pub csrf_token: String,
    /// Where a plain link continues instead of the form (the account page, which has no
    /// request to continue).
    pub back_url: Option<String>,
}
impl Page for RecoveryCodesPage {
    const TEMPLATE: &'static str = name::RECOVERY_CODES;
}

/// `logout.hbs`: the sign-out confirmation (OpenID Connect RP-Initiated Logout 1.0), or the
/// page saying it is done.
#[derive(Debug, Clone, Serialize)]
pub struct LogoutPage {
    /// True once the session has ended: the page only says so.
    pub signed_out: bool,
    /// Name of the app asking, when known.
    pub app_name: Option<String>,
    /// Form action (POST); the form submits `decision=logout`.
    pub action: String,
    /// Hidden: anti-CSRF token bound to the browser's session.
    pub csrf_token: String,
    /// Hidden: the app, when known.
    pub client_id: String,
    /// Hidden: where to go afterwards (checked again on post).
    pub post_logout_redirect_uri: String,
    /// Hidden: the app's state, returned unchanged.
    pub state: String,
}
impl Page for LogoutPage {
    const TEMPLATE: &'static str = name::LOGOUT;
}

#[cfg(test)]
mod tests;
