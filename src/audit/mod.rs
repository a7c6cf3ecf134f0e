//! The audit log: who did what, to which app, when and from where.
//!
//! Every admin action, every sign-in (success and failure, with the reason) and every token
//! issued or revoked goes through [`record`]: it is written to the log under the tracing target
//! `audit` and kept in the store for `audit.retention_days`, indexed so that [`search`] finds
//! any of them by action, app, actor or failure. Everything arrives as
//! [`crate::events::Event`]s through [`AuditTrail`], the one writer of the log.
//! Events name users, client ids and addresses, never a password, secret, code or token:
//! [`AuditEvent`] has no field that could hold one.

mod query;
mod trail;

pub use query::{search, AuditFilter, AuditResults};
pub use trail::AuditTrail;

use crate::clock::HasClock;
use crate::config::AuditSettings;
use crate::domain::secret::random_id;
use crate::domain::Escaped;
use crate::store::HasStore;

pub use crate::domain::audit::Action;
pub use crate::store::{AuditFrom, AuditRecord};

/// What the audit log needs: the store, the clock and its settings.
pub trait Context: HasStore + HasClock + Sync {
    /// The `[audit]` settings.
    fn audit_settings(&self) -> &AuditSettings;
}

/// Longest actor name kept; longer ones are cut.
const MAX_ACTOR_CHARS: usize = 128;

/// An event to record. Build it with [`AuditEvent::new`] and the `with_*` methods.
#[derive(Debug, Clone)]
pub struct AuditEvent {
    action: Action,
    actor: Option<String>,
    client_id: Option<String>,
    address: Option<String>,
    success: bool,
    detail: Option<String>,
}

impl AuditEvent {
    /// A successful `action` by `actor` (a user id or username; `None` for an app's backend).
    pub fn new(action: Action, actor: Option<&str>) -> Self {
        Self {
            action,
            // A name as typed at a sign-in form can be anything: keep a readable prefix only.
            actor: actor.map(|a| a.chars().take(MAX_ACTOR_CHARS).collect()),
            client_id: None,
            address: None,
            success: true,
            detail: None,
        }
    }

    /// The app concerned.
    pub fn app(mut self, client_id: impl ToString) -> Self {
        self.client_id = Some(client_id.to_string());
        self
    }

    /// The address the request came from.
    pub fn from_address(mut self, address: Option<&str>) -> Self {
        self.address = address.map(str::to_owned);
        self
    }

    /// Marks the event as a failure, with its reason in plain words.
    pub fn failed(mut self, reason: impl Into<String>) -> Self {
        self.success = false;
        self.detail = Some(reason.into());
        self
    }

    /// Adds a detail in plain words (never a secret).
    pub fn detail(mut self, detail: impl Into<String>) -> Self {
        self.detail = Some(detail.into());
        self
    }
}

/// Records an event: one log line under target `audit`, and a store entry kept for
/// `audit.retention_days`. A store failure is logged, never passed on: auditing must not turn
/// a sign-in or a token request into an error.
pub async fn record(cx: &impl Context, event: AuditEvent) {
    let record = AuditRecord {
        id: random_id(9),
        at: cx.now(),
        action: event.action,
        actor: event.actor,
        client_id: event.client_id,
        address: event.address,
        success: event.success,
        detail: event.detail,
    };
    // The actor may be a name as typed, the client id and the detail may come from a
    // request: escaped, so that none of them can forge a line or a field.
    tracing::info!(
        target: "audit",
        action = record.action.as_str(),
        actor = ?Escaped(record.actor.as_deref().unwrap_or("-")),
        client_id = ?Escaped(record.client_id.as_deref().unwrap_or("-")),
        address = record.address.as_deref().unwrap_or("-"),
        success = record.success,
        detail = ?Escaped(record.detail.as_deref().unwrap_or("")),
        "audit event"
    );
    let settings = cx.audit_settings();
    let retention = settings.retention.as_secs();
    let keep = settings.max_events;
    if let Err(e) = cx.store().append_audit(&record, retention, keep).await {
        tracing::error!(error = %e, action = record.action.as_str(), "audit event not stored");
    }
}
