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
    /// The session's public id: the `sid` of the id_tokens issued in it and of the logout
    /// tokens sent when it ends. Random, and unrelated to the cookie. Absent in sessions written
    /// before it existed, which are given one when next used.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sid: Option<String>,
    /// Where the person signed in from, for their account page. Absent in sessions written
    /// before it was kept.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub device: Option<Device>,
    /// When the session was last used, to within a few minutes (it is written again only
    /// when the last note is that old). Absent until then: the sign-in is the last use.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_seen: Option<UnixTime>,
}

/// The browser a session was signed in from, as its person sees it on their account page.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Device {
    /// The `User-Agent` header at sign-in, cut to a bounded length.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub user_agent: Option<String>,
    /// The client's address at sign-in.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub address: Option<String>,
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
    /// When the request was written (Unix seconds), which the store's count of all pending
    /// requests files it under. Absent in requests written before that count existed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub admitted_at: Option<UnixTime>,
}

/// A group of pending requests kept to at most `max` live members (the requests of one
/// browser, or of one client address).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PendingBound {
    /// The group's name, unique across kinds of group (`browser:<hex>`, `addr:<address>`).
    pub group: String,
    /// How many live requests the group keeps.
    pub max: u64,
    /// What one more does to a full group: end its oldest member (`true`: the group is one
    /// browser's, whose own oldest request gives way), or be refused (`false`: a group shared
    /// by several people, where no one's request may end for someone else's).
    pub evicts: bool,
}

/// How much the store may hold of pending requests, all groups together.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PendingLimits {
    /// Live requests.
    pub requests: u64,
    /// Bytes of their records.
    pub bytes: u64,
}

/// What the store holds of pending requests, all groups together.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct PendingLoad {
    /// Live requests.
    pub requests: u64,
    /// Bytes of their records.
    pub bytes: u64,
}

/// How writing a pending request went.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PendingPut {
    /// Written; what the store holds with it.
    Stored(PendingLoad),
    /// Not written: this group, one that refuses rather than evicts, is full.
    GroupFull(String),
    /// Not written: the store holds as many pending requests, or bytes, as it may.
    StoreFull(PendingLoad),
}
