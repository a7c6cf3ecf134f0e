//! What the event listeners keep: audit log events and each app's recent failed requests.

use crate::clock::UnixTime;
use crate::domain::audit::Action;
use serde::{Deserialize, Serialize};

/// An event as stored and shown.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AuditRecord {
    /// Random id: keeps two identical events in the same second apart.
    pub id: String,
    /// When, Unix seconds.
    pub at: UnixTime,
    /// What.
    pub action: Action,
    /// Who (user id or username), if a person did it.
    pub actor: Option<String>,
    /// Which app.
    pub client_id: Option<String>,
    /// From which address.
    pub address: Option<String>,
    /// Whether it succeeded.
    pub success: bool,
    /// Reason of a failure, or what changed.
    pub detail: Option<String>,
}

/// One failed request.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DoctorEntry {
    /// When, Unix seconds.
    pub at: u64,
    /// `authorize` or `token`.
    pub endpoint: String,
    /// What went wrong; text the request sent appears only quoted.
    pub problem: String,
    /// What the app should change: our own words, never text the request sent.
    pub fix: Option<String>,
    /// Whether the request proved it came from the app (it authenticated with the app's
    /// secret). Anyone can send the others, naming any client id. Entries kept before this
    /// was recorded read as unverified.
    #[serde(default)]
    pub verified: bool,
}
