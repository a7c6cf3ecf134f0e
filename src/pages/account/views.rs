//! The page structs of the account page and its sign-in.

use super::reauth::Change;
use crate::web::i18n::Text;
use crate::web::render::{name, Page};
use serde::Serialize;

/// `account.hbs`: what a person let in and where they are signed in.
#[derive(Debug, Clone, Serialize)]
pub struct AccountPage {
    /// Display name (name claim, else username).
    pub user_display: String,
    /// Username.
    pub username: String,
    /// Hidden in every form: anti-CSRF token bound to the session cookie.
    pub csrf_token: String,
    /// What the last change did.
    pub notice: Option<Text>,
    /// The apps, by name.
    pub apps: Vec<AppRow>,
    /// The sessions, this browser's first.
    pub sessions: Vec<SessionRow>,
    /// Whether there is a session to end besides this browser's.
    pub others: bool,
    /// The second factor.
    pub two_step: TwoStepView,
    /// The person's recent activity, newest first.
    pub activity: Vec<ActivityRow>,
}

/// The two-step verification section (`account_two_step.hbs`).
#[derive(Debug, Clone, Serialize)]
pub struct TwoStepView {
    /// When the authenticator app was set up (Unix seconds); `None`: not set up.
    pub authenticator_since: Option<u64>,
    /// Recovery codes left.
    pub recovery_codes_left: u64,
    /// Whether the policy requires a second factor.
    pub required: bool,
    /// The person's passkeys, oldest first.
    pub passkeys: Vec<PasskeyRow>,
    /// Whether a passkey can be added here (passkeys are offered at this address).
    pub passkeys_offered: bool,
}

/// One passkey of the two-step section.
#[derive(Debug, Clone, Serialize)]
pub struct PasskeyRow {
    /// Its id, which the rename and remove forms post.
    pub id: String,
    /// The name its owner gave it.
    pub name: String,
    /// When it was added (Unix seconds).
    pub created_at: u64,
    /// When it last signed in (Unix seconds); `None`: never.
    pub last_used_at: Option<u64>,
}

/// One event of the recent activity.
#[derive(Debug, Clone, Serialize)]
pub struct ActivityRow {
    /// Unix seconds.
    pub at: u64,
    /// What happened, in words.
    pub action: Text,
    /// The app's name (or its id, when it is gone).
    pub app: Option<String>,
    /// The address it came from.
    pub address: Option<String>,
    /// Whether it succeeded.
    pub success: bool,
}
impl Page for AccountPage {
    const TEMPLATE: &'static str = name::ACCOUNT;
}

/// One app of the account page.
#[derive(Debug, Clone, Serialize)]
pub struct AppRow {
    /// Hidden in its form: `client_id`.
    pub client_id: String,
    /// Its name.
    pub name: String,
    /// The scopes granted, by name.
    pub scopes: Vec<String>,
    /// Unix seconds; `None` when not noted.
    pub first_used: Option<u64>,
    /// Unix seconds; `None` when not noted.
    pub last_used: Option<u64>,
}

/// One session of the account page.
#[derive(Debug, Clone, Serialize)]
pub struct SessionRow {
    /// Hidden in its form: `session`, the public id.
    pub session: String,
    /// Browser and system, coarsely.
    pub device: Text,
    /// The address signed in from.
    pub address: Option<String>,
    /// Unix seconds.
    pub signed_in: u64,
    /// Unix seconds.
    pub last_seen: u64,
    /// The browser asking.
    pub this_browser: bool,
}

/// `account_signin.hbs`: the sign-in of the account page; password, then (second step) the
/// code of the authenticator app.
#[derive(Debug, Clone, Serialize)]
pub struct AccountSignInPage {
    /// Hidden: anti-CSRF token, also set as a cookie.
    pub csrf_token: String,
    /// Username to prefill.
    pub username: String,
    /// Message after a failed attempt.
    pub error: Option<Text>,
    /// The second step: ask for the code (`otp`), or a passkey.
    pub otp_step: bool,
    /// At the second step, the person's passkey, offered first when they have one.
    pub passkey: Option<crate::pages::views::PasskeyPrompt>,
    /// At the second step, whether the code form is shown (the person has an authenticator
    /// app, or no passkey is offered).
    pub code_form: bool,
}
impl Page for AccountSignInPage {
    const TEMPLATE: &'static str = name::ACCOUNT_SIGNIN;
}

/// `account_reauth.hbs`: the re-check before a change to the second factor.
#[derive(Debug, Clone, Serialize)]
pub struct AccountReauthPage {
    /// Who is asked (shown; the password is checked for this person).
    pub username: String,
    /// Hidden: the account page's CSRF token.
    pub csrf_token: String,
    /// Hidden: the change that follows.
    pub next: Change,
    /// Hidden: the passkey the change is about, if any.
    pub passkey_id: String,
    /// Hidden: the passkey's new name, for a rename.
    pub passkey_name: String,
    /// Hidden: the signature of the two above, for this session.
    pub sig: String,
    /// Ask for the password.
    pub password: bool,
    /// Ask for a passkey instead (after a passwordless sign-in).
    pub passkey: Option<crate::pages::views::PasskeyPrompt>,
    /// Message after a failed attempt.
    pub error: Option<Text>,
}
impl Page for AccountReauthPage {
    const TEMPLATE: &'static str = name::ACCOUNT_REAUTH;
}

/// `account_passkey_add.hbs`: the ceremony that adds a passkey, with its name.
#[derive(Debug, Clone, Serialize)]
pub struct AccountPasskeyAddPage {
    /// Who adds it.
    pub username: String,
    /// Hidden: the account page's CSRF token.
    pub csrf_token: String,
    /// The ceremony's options and where its answer goes.
    pub passkey: crate::pages::views::PasskeyPrompt,
    /// Message after a failed attempt.
    pub error: Option<Text>,
}
impl Page for AccountPasskeyAddPage {
    const TEMPLATE: &'static str = name::ACCOUNT_PASSKEY_ADD;
}
