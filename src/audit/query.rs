//! Reading the audit log back, newest first, filtered.

use super::{Action, AuditRecord};
use crate::store::HasStore;
use crate::store::StoreError;

/// How many stored events one search looks through at most: a filter that matches nothing
/// costs a bounded amount of work.
const SCAN_LIMIT: usize = 10_000;
/// Events read per store round trip.
const PAGE: usize = 500;

/// What to look for; every set field must match.
#[derive(Debug, Clone, Default)]
pub struct AuditFilter {
    /// Exactly this action.
    pub action: Option<Action>,
    /// Exactly this app.
    pub client_id: Option<String>,
    /// The actor contains this text (case-insensitive).
    pub actor: Option<String>,
    /// Only failures.
    pub failures_only: bool,
}

impl AuditFilter {
    /// Builds a filter from query parameters; blank values mean "any". An unknown action is
    /// refused with a message listing the known ones.
    pub fn parse(
        action: Option<&str>,
        client_id: Option<&str>,
        actor: Option<&str>,
        failures_only: bool,
    ) -> Result<Self, String> {
        let blank = |v: Option<&str>| {
            v.map(str::trim)
                .filter(|v| !v.is_empty())
                .map(str::to_owned)
        };
        let action = match blank(action) {
            None => None,
            Some(name) => Some(
                Action::ALL
                    .into_iter()
                    .find(|a| a.as_str() == name)
                    .ok_or_else(|| {
                        let known: Vec<&str> = Action::ALL.iter().map(|a| a.as_str()).collect();
                        format!(
                            "unknown action `{name}`; known actions: {}",
                            known.join(", ")
                        )
                    })?,
            ),
        };
        Ok(Self {
            action,
            client_id: blank(client_id),
            actor: blank(actor),
            failures_only,
        })
    }

    fn matches(&self, r: &AuditRecord) -> bool {
        let actor_ok = self.actor.as_deref().is_none_or(|want| {
            r.actor
                .as_deref()
                .is_some_and(|a| a.to_lowercase().contains(&want.to_lowercase()))
        });
        self.action.is_none_or(|a| a == r.action)
            && self
                .client_id
                .as_deref()
                .is_none_or(|c| r.client_id.as_deref() == Some(c))
            && actor_ok
            && (!self.failures_only || !r.success)
    }
}

/// The newest `limit` events matching `filter`, among the newest [`SCAN_LIMIT`] stored.
pub async fn search(
    cx: &impl HasStore,
    filter: &AuditFilter,
    limit: usize,
) -> Result<Vec<AuditRecord>, StoreError> {
    let mut found = Vec::new();
    let mut offset = 0;
    while found.len() < limit && offset < SCAN_LIMIT {
        let page = cx.store().audit_events(offset, PAGE).await?;
        offset += PAGE;
        let done = page.len() < PAGE;
        for record in page {
            if filter.matches(&record) {
                found.push(record);
                if found.len() == limit {
                    break;
                }
            }
        }
        if done {
            break;
        }
    }
    Ok(found)
}
