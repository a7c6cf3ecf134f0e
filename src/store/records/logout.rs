//! What the back-channel logout queue keeps: one logout token to deliver to one app.

use crate::clock::UnixTime;
use crate::domain::ClientId;
use serde::{Deserialize, Serialize};

/// A back-channel logout (OpenID Connect Back-Channel Logout 1.0) waiting to be delivered. Its
/// logout token is signed when it is sent, so the job holds nothing secret.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LogoutJob {
    /// Random id, unique in the queue.
    pub id: String,
    /// The app to tell.
    pub client_id: ClientId,
    /// The person signed out (`sub`).
    pub sub: String,
    /// The SSO session that ended, or that the ended grant came from (`sid`), if known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sid: Option<String>,
    /// When it was queued: retries stop a while after.
    pub queued_at: UnixTime,
    /// Deliveries tried so far.
    #[serde(default)]
    pub attempts: u32,
}

/// The SSO sessions [`crate::store::SessionStore::end_sessions`] ended.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct EndedSessions {
    /// How many were live.
    pub count: u64,
    /// The public ids of those that had one (sessions written before public ids had none).
    pub sids: Vec<String>,
}

impl EndedSessions {
    /// Whether the session with the public id `sid` was among them (its apps were told).
    pub fn includes(&self, sid: &str) -> bool {
        self.sids.iter().any(|ended| ended == sid)
    }
}
