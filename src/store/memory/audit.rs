//! What the event listeners keep in the memory store: the audit log, each app's recent failed
//! requests, and last-used marks (short-lived records).

use super::{live, MemoryStore, Timed};
use crate::clock::UnixTime;
use crate::domain::ClientId;
use crate::store::usage::AuditBackend;
use crate::store::{
    AuditFrom, AuditIndex, AuditPage, AuditRecord, DoctorEntry, LoggedEvent, StoreError,
};
use async_trait::async_trait;
use std::collections::{BTreeMap, BTreeSet, HashMap, VecDeque};
use std::ops::Bound::{Excluded, Unbounded};

/// The most audit events the memory store keeps, whatever the retention: it lives in the
/// process's memory.
const MAX_AUDIT: usize = 100_000;

/// The audit log and the failure lists.
#[derive(Default)]
pub(super) struct Activity {
    /// The audit log.
    log: AuditLog,
    /// Recent failed requests of each client, newest first.
    failures: HashMap<ClientId, Timed<VecDeque<DoctorEntry>>>,
}

impl Activity {
    pub(super) fn purge(&mut self, now: UnixTime) {
        self.failures.retain(|_, f| f.live(now));
    }
}

/// Audit events by cursor (the order they were appended in), and the cursors filed under each
/// index: what Redis keeps in its sorted sets.
#[derive(Default)]
struct AuditLog {
    /// The cursor of the last event appended.
    last: i64,
    events: BTreeMap<i64, AuditRecord>,
    indexes: HashMap<AuditIndex, BTreeSet<i64>>,
}

impl AuditLog {
    fn append(&mut self, record: &AuditRecord, retention: u64, keep: usize) {
        self.last += 1;
        for index in AuditIndex::of(record) {
            self.indexes.entry(index).or_default().insert(self.last);
        }
        self.events.insert(self.last, record.clone());
        let oldest = record.at.saturating_sub(retention);
        let keep = keep.min(MAX_AUDIT);
        while let Some((&cursor, first)) = self.events.first_key_value() {
            if self.events.len() <= keep && first.at >= oldest {
                break;
            }
            if let Some(gone) = self.events.remove(&cursor) {
                self.unfile(cursor, &gone);
            }
        }
    }

    /// Takes a forgotten event out of its indexes; an index left empty goes too.
    fn unfile(&mut self, cursor: i64, record: &AuditRecord) {
        for index in AuditIndex::of(record) {
            if let Some(cursors) = self.indexes.get_mut(&index) {
                cursors.remove(&cursor);
                if cursors.is_empty() {
                    self.indexes.remove(&index);
                }
            }
        }
    }

    /// Walks the smallest index of `under` (or the whole log) and keeps the events that every
    /// other index holds too.
    fn walk(&self, under: &[AuditIndex], from: AuditFrom, limit: usize) -> AuditPage {
        let mut sets = Vec::new();
        for index in under {
            match self.indexes.get(index) {
                Some(cursors) => sets.push(cursors),
                None => return AuditPage::default(),
            }
        }
        sets.sort_by_key(|cursors| cursors.len());
        let (bounds, newer) = match from {
            AuditFrom::Newest => ((Unbounded, Unbounded), false),
            AuditFrom::Before(c) => ((Unbounded, Excluded(c)), false),
            AuditFrom::After(c) => ((Excluded(c), Unbounded), true),
        };
        let candidates: Box<dyn Iterator<Item = i64> + '_> = match (sets.first(), newer) {
            (Some(cursors), false) => Box::new(cursors.range(bounds).rev().copied()),
            (Some(cursors), true) => Box::new(cursors.range(bounds).copied()),
            (None, false) => Box::new(self.events.range(bounds).rev().map(|(c, _)| *c)),
            (None, true) => Box::new(self.events.range(bounds).map(|(c, _)| *c)),
        };
        let mut page = AuditPage::default();
        for cursor in candidates {
            if page.events.len() == limit {
                page.next = page.events.last().map(|e| e.cursor);
                break;
            }
            let everywhere = sets.iter().skip(1).all(|c| c.contains(&cursor));
            if let Some(record) = self.events.get(&cursor).filter(|_| everywhere) {
                let record = record.clone();
                page.events.push(LoggedEvent { cursor, record });
            }
        }
        page
    }
}

#[async_trait]
impl AuditBackend for MemoryStore {
    async fn append_audit(
        &self,
        record: &AuditRecord,
        retention: u64,
        keep: usize,
    ) -> Result<(), StoreError> {
        let (mut state, _) = self.lock();
        state.audit.log.append(record, retention, keep);
        Ok(())
    }

    async fn audit_events(
        &self,
        under: &[AuditIndex],
        from: AuditFrom,
        limit: usize,
    ) -> Result<AuditPage, StoreError> {
        let (state, _) = self.lock();
        Ok(state.audit.log.walk(under, from, limit))
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
}
