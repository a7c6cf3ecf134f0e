//! What the event listeners keep in the memory store: the audit log, each app's recent failed
//! requests, and last-used marks (short-lived records).

use super::{live, MemoryStore, Timed};
use crate::clock::UnixTime;
use crate::domain::ClientId;
use crate::store::namespace::{Namespace, Records};
use crate::store::{AuditRecord, AuditStore, DoctorEntry, StoreError};
use async_trait::async_trait;
use std::collections::{HashMap, VecDeque};

/// The most audit events the memory store keeps, whatever the retention: it lives in the
/// process's memory.
const MAX_AUDIT: usize = 100_000;

/// The audit log and the failure lists.
#[derive(Default)]
pub(super) struct Activity {
    /// Audit events, oldest first.
    audit: VecDeque<AuditRecord>,
    /// Recent failed requests of each client, newest first.
    failures: HashMap<ClientId, Timed<VecDeque<DoctorEntry>>>,
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
        record: &AuditRecord,
        retention: u64,
        keep: usize,
    ) -> Result<(), StoreError> {
        let (mut state, _) = self.lock();
        let audit = &mut state.audit.audit;
        let oldest = record.at.saturating_sub(retention);
        while audit.front().is_some_and(|r| r.at < oldest) {
            audit.pop_front();
        }
        audit.push_back(record.clone());
        while audit.len() > keep.min(MAX_AUDIT) {
            audit.pop_front();
        }
        Ok(())
    }

    async fn audit_events(
        &self,
        offset: usize,
        limit: usize,
    ) -> Result<Vec<AuditRecord>, StoreError> {
        let (state, _) = self.lock();
        let page = state.audit.audit.iter().rev().skip(offset).take(limit);
        Ok(page.cloned().collect())
    }

    async fn push_failure(
        &self,
        id: &ClientId,
        entry: &DoctorEntry,
        keep: usize,
        ttl: u64,
    ) -> Result<(), StoreError> {
        let (mut state, now) = self.lock();
        let list = state
            .audit
            .failures
            .entry(id.clone())
            .or_insert_with(|| Timed::new(VecDeque::new(), now, ttl));
        if !list.live(now) {
            list.value.clear();
        }
        list.expires_at = now.saturating_add(ttl);
        list.value.push_front(entry.clone());
        list.value.truncate(keep);
        Ok(())
    }

    async fn failures(&self, id: &ClientId) -> Result<Vec<DoctorEntry>, StoreError> {
        let (mut state, now) = self.lock();
        let failures = live(&mut state.audit.failures, id, now);
        Ok(failures
            .map(|f| f.iter().cloned().collect())
            .unwrap_or_default())
    }

    async fn mark_used(&self, id: &ClientId, at: UnixTime, ttl: u64) -> Result<(), StoreError> {
        self.put_text(Namespace::AppLastUsed, id.as_str(), at.to_string(), ttl)
            .await
    }

    async fn last_used(&self, id: &ClientId) -> Result<Option<UnixTime>, StoreError> {
        let mark = self.text(Namespace::AppLastUsed, id.as_str()).await?;
        Ok(mark.and_then(|t| t.parse().ok()))
    }
}
