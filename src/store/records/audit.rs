//! What the event listeners keep: audit log events, how they are indexed and walked, and each
//! app's recent failed requests.

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

/// A dimension the audit log is indexed by: each finds every event it holds, however many
/// others came after it.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum AuditIndex {
    /// Events whose actor is this name, lowercased (see [`AuditIndex::actor`]).
    Actor(String),
    /// Events of this app (client id).
    App(String),
    /// Events of this action.
    Action(Action),
    /// Failures.
    Failures,
}

impl AuditIndex {
    /// The index of the events of the actor `name`, compared without regard to case.
    pub fn actor(name: &str) -> Self {
        Self::Actor(name.to_lowercase())
    }

    /// Every index `record` is filed under.
    pub fn of(record: &AuditRecord) -> Vec<Self> {
        let mut indexes = vec![Self::Action(record.action)];
        if let Some(actor) = &record.actor {
            indexes.push(Self::actor(actor));
        }
        if let Some(app) = &record.client_id {
            indexes.push(Self::App(app.clone()));
        }
        if !record.success {
            indexes.push(Self::Failures);
        }
        indexes
    }
}

/// Where a walk through the audit log starts, and which way it goes. Cursors are the places
/// of events in the log ([`LoggedEvent::cursor`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AuditFrom {
    /// From the newest event, towards older ones.
    Newest,
    /// Towards older events, from the one just older than this cursor.
    Before(i64),
    /// Towards newer events, from the one just newer than this cursor.
    After(i64),
}

impl AuditFrom {
    /// The same direction, from `cursor` on.
    pub fn on_from(self, cursor: i64) -> Self {
        match self {
            Self::Newest | Self::Before(_) => Self::Before(cursor),
            Self::After(_) => Self::After(cursor),
        }
    }
}

/// An audit event and its place in the log.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LoggedEvent {
    /// Where it is in the log: events appended later have greater cursors. Opaque otherwise
    /// (events moved from an earlier version's log sit below zero).
    pub cursor: i64,
    /// The event.
    pub record: AuditRecord,
}

/// One step of a walk through the audit log.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct AuditPage {
    /// The events found, in the order of the walk.
    pub events: Vec<LoggedEvent>,
    /// Where the walk goes on (the cursor to continue from, same direction); `None` when
    /// nothing is left that way.
    pub next: Option<i64>,
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

/// When a person's app first and last obtained tokens for them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct AppUse {
    /// The first time, Unix seconds (as far back as the mark is kept).
    pub first: UnixTime,
    /// The last time, Unix seconds.
    pub last: UnixTime,
}
