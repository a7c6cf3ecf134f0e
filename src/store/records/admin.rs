//! What the admin API and screen keep: admin tokens and admin screen sign-ins.

use crate::domain::Claims;
use serde::{Deserialize, Serialize};

/// An admin API token's record, kept under the digest of the token.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AdminSession {
    /// The superadmin's user id.
    pub sub: String,
    /// When the token stops working.
    pub expires_at: u64,
    /// Authentication methods used to get the token (RFC 8176: `pwd`, `otp`).
    #[serde(default)]
    pub amr: Vec<String>,
    /// When the directory last confirmed the superadmin. Absent in tokens issued before it
    /// existed, which are confirmed again at their next use.
    #[serde(default)]
    pub checked_at: Option<u64>,
}

/// An admin screen sign-in, kept under the digest of the SSO session cookie; it ends after
/// `admin.session_idle_secs` without a request.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ScreenSignIn {
    /// The superadmin's user id.
    pub sub: String,
    /// Display name, shown in the screen's navigation.
    pub user: String,
    /// CSRF token every form of the screen must echo.
    pub csrf_token: String,
}

/// A superadmin whose password was right and whose second factor is still due, kept under
/// the digest of the sign-in form's cookie.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct HalfwaySignIn {
    /// The claims the password sign-in found.
    pub claims: Claims,
    /// The name the password was checked under, kept for the session it leads to.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub signed_in_as: Option<String>,
}
