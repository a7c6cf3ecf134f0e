//! The audit log's vocabulary: what can happen, by the name it is stored and filtered under.

use serde::{Deserialize, Serialize};

/// What happened.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Action {
    /// A user signed in (or failed to) at the authorize sign-in page, or gave a wrong password
    /// to the admin API's second-factor set-up.
    SignIn,
    /// A superadmin signed in (or failed to) to the admin screen or API.
    AdminSignIn,
    /// A superadmin signed out of the admin screen.
    AdminSignOut,
    /// An app was registered.
    AppCreated,
    /// An app's name, redirect URIs or PKCE rule changed.
    AppUpdated,
    /// An app got a new secret; the old one stopped working.
    SecretRotated,
    /// An app was disabled; its codes and tokens were revoked.
    AppDisabled,
    /// An app was enabled again.
    AppEnabled,
    /// An app was deleted; its codes and tokens were revoked.
    AppDeleted,
    /// Tokens were issued for an authorization code.
    TokenIssued,
    /// A refresh token was exchanged for a new pair.
    TokenRefreshed,
    /// Tokens were revoked (code replay, refresh reuse, user gone, app disabled or deleted).
    TokenRevoked,
    /// A user set up a second factor (authenticator app and recovery codes).
    SecondFactorEnrolled,
    /// A second-factor code was refused (wrong, or already used).
    SecondFactorFailed,
    /// A user signed in with one of their recovery codes.
    RecoveryCodeUsed,
    /// A superadmin removed a user's second factor.
    SecondFactorReset,
    /// Password or code attempts were refused: too many failures for the account or address.
    Lockout,
    /// A user signed out of single sign-on (OpenID Connect logout).
    SignOut,
    /// A superadmin signed a user out everywhere: every SSO session ended, every code and token
    /// of every app revoked.
    UserRevoked,
    /// A person was refused an app that only some roles or groups may use.
    AccessDenied,
    /// An app was sent a back-channel logout: delivered, refused, failed (and tried again), or
    /// given up.
    BackchannelLogout,
    /// A person added a passkey.
    PasskeyAdded,
    /// A person removed one of their passkeys.
    PasskeyRemoved,
    /// A person renamed one of their passkeys on their account page.
    PasskeyRenamed,
    /// A person took an app back on their account page: its tokens revoked, its approval
    /// forgotten.
    AppRemoved,
    /// A person ended one of their sessions, or every other one, on their account page.
    SessionEnded,
    /// A person removed their own authenticator app (and its recovery codes) on their account
    /// page.
    SecondFactorRemoved,
    /// A person took a new set of recovery codes on their account page; the old set stopped
    /// working.
    RecoveryCodesRenewed,
}

impl Action {
    /// Every action, for the filter of the audit page.
    pub const ALL: [Action; 28] = [
        Action::SignIn,
        Action::AdminSignIn,
        Action::AdminSignOut,
        Action::AppCreated,
        Action::AppUpdated,
        Action::SecretRotated,
        Action::AppDisabled,
        Action::AppEnabled,
        Action::AppDeleted,
        Action::TokenIssued,
        Action::TokenRefreshed,
        Action::TokenRevoked,
        Action::SecondFactorEnrolled,
        Action::SecondFactorFailed,
        Action::RecoveryCodeUsed,
        Action::SecondFactorReset,
        Action::Lockout,
        Action::SignOut,
        Action::UserRevoked,
        Action::AccessDenied,
        Action::BackchannelLogout,
        Action::PasskeyAdded,
        Action::PasskeyRemoved,
        Action::AppRemoved,
        Action::SessionEnded,
        Action::SecondFactorRemoved,
        Action::RecoveryCodesRenewed,
        Action::PasskeyRenamed,
    ];

    /// The snake_case name, as stored and filtered by.
    pub fn as_str(self) -> &'static str {
        match self {
            Action::SignIn => "sign_in",
            Action::AdminSignIn => "admin_sign_in",
            Action::AdminSignOut => "admin_sign_out",
            Action::AppCreated => "app_created",
            Action::AppUpdated => "app_updated",
            Action::SecretRotated => "secret_rotated",
            Action::AppDisabled => "app_disabled",
            Action::AppEnabled => "app_enabled",
            Action::AppDeleted => "app_deleted",
            Action::TokenIssued => "token_issued",
            Action::TokenRefreshed => "token_refreshed",
            Action::TokenRevoked => "token_revoked",
            Action::SecondFactorEnrolled => "second_factor_enrolled",
            Action::SecondFactorFailed => "second_factor_failed",
            Action::RecoveryCodeUsed => "recovery_code_used",
            Action::SecondFactorReset => "second_factor_reset",
            Action::Lockout => "lockout",
            Action::SignOut => "sign_out",
            Action::UserRevoked => "user_revoked",
            Action::AccessDenied => "access_denied",
            Action::BackchannelLogout => "backchannel_logout",
            Action::PasskeyAdded => "passkey_added",
            Action::PasskeyRemoved => "passkey_removed",
            Action::AppRemoved => "app_removed",
            Action::SessionEnded => "session_ended",
            Action::SecondFactorRemoved => "second_factor_removed",
            Action::RecoveryCodesRenewed => "recovery_codes_renewed",
            Action::PasskeyRenamed => "passkey_renamed",
        }
    }
}
