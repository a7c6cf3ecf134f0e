//! What the browser flows keep: SSO sessions and authorize requests waiting for sign-in or
//! consent.

use crate::clock::UnixTime;
use crate::domain::{AuthorizationRequest, Claims, Digest};
use serde::{Deserialize, Serialize};

/// A signed-in browser.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SessionRecord {
    /// The user's claims at sign-in.
    pub claims: Claims,
    /// When the password was checked.
    pub auth_time: UnixTime,
    /// Authentication methods used (RFC 8176: `pwd`, then `otp` once the second factor passed).
    pub amr: Vec<String>,
    /// When the session ends.
    pub expires_at: UnixTime,
    /// When the directory last confirmed the user (and `claims` were read). Absent in sessions
    /// written before it existed, which count as confirmed at `auth_time`.
    #[serde(default)]
    pub checked_at: Option<UnixTime>,
}

/// A stored pending request.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PendingRequest {
    /// The validated authorize request.
    pub request: AuthorizationRequest,
    /// Anti-CSRF token echoed by the forms.
    pub csrf_token: String,
    /// Digest of the flow cookie of the browser that started it.
    pub browser: Digest,
    /// Digest of the session cookie the browser held when `prompt=login` asked for a new
    /// sign-in: that session may not finish the request.
    #[serde(default)]
    pub replaced_session: Option<Digest>,
    /// The bounded groups (see [`PendingBound`]) the request counts in, so that finishing it
    /// takes it out of them. Empty in requests written before groups existed.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub groups: Vec<String>,
}

/// A group of pending requests kept to at most `max` live members (the requests of one
/// browser, or of one client address): writing one more ends the oldest.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PendingBound {
    /// The group's name, unique across kinds of group (`browser:<hex>`, `addr:<address>`).
    pub group: String,
    /// How many live requests the group keeps.
    pub max: u64,
}
