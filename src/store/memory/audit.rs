//! What the event listeners keep in the memory store: the audit log and each app's recent
//! failed requests.

use super::{live, MemoryStore, Timed};
use crate::clock::UnixTime;
use crate::domain::ClientId;
use crate::store::{AuditStore, StoreError};
use async_trait::async_trait;
use std::collections::{HashMap, VecDeque};

/// The most audit events the memory store keeps, whatever the retention: it lives in the
/// process's memory.
const MAX_AUDIT: usize = 100_000;

/// The audit log and the failure lists.
#[derive(Default)]
pub(super) struct Activity {
    /// Audit events, oldest first, with their time.
    audit: VecDeque<(UnixTime, String)>,
    /// Recent failed requests of each client, newest first.
    failures: HashMap<ClientId, Timed<VecDeque<String>>>,
}

impl Activity {
    pub(super) fn purge(&mut self, now: UnixTime) {
        self.failures.retain(|_, f| f.live(now));
    }
}

#[async_trait]
impl AuditStore for MemoryStore {
    async fn append_audit(
        &self,
        at: UnixTime,
        event: &str,
        retention: u64,
        keep: usize,
    ) -> Result<(), StoreError> {
        let (mut state, _) = self.lock();
        let audit = &mut state.audit.audit;
        let oldest = at.saturating_sub(retention);
        while audit.front().is_some_and(|(t, _)| *t < oldest) {
            audit.pop_front();
        }
        audit.push_back((at, event.to_owned()));
        while audit.len() > keep.min(MAX_AUDIT) {
            audit.pop_front();
        }
        Ok(())
    }

    async fn audit_events(&self, offset: usize, limit: usize) -> Result<Vec<String>, StoreError> {
        let (state, _) = self.lock();
        let audit = &state.audit.audit;
        let page = audit.iter().rev().skip(offset).take(limit);
        Ok(page.map(|(_, e)| e.clone()).collect())
    }

    async fn push_failure(
        &self,
        id: &ClientId,
        event: &str,
        keep: usize,
        ttl: u64,
    ) -> Result<(), StoreError> {
        let (mut state, now) = self.lock();
        let entry = state
            .audit
            .failures
            .entry(id.clone())
            .or_insert_with(|| Timed::new(VecDeque::new(), now, ttl));
        if !entry.live(now) {
            entry.value.clear();
        }
        entry.expires_at = now.saturating_add(ttl);
        entry.value.push_front(event.to_owned());
        entry.value.truncate(keep);
        Ok(())
    }

    async fn failures(&self, id: &ClientId) -> Result<Vec<String>, StoreError> {
        let (mut state, now) = self.lock();
        let failures = live(&mut state.audit.failures, id, now);
        Ok(failures
            .map(|f| f.iter().cloned().collect())
            .unwrap_or_default())
    }
}
