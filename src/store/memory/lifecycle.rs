//! The memory store's part of the Connected Apps lifecycle: the per-client index of codes and
//! grants (for revoking everything of an app), the audit log and each app's recent failures.

use super::{State, Timed};
use crate::clock::UnixTime;
use crate::domain::{ClientId, Digest};
use std::collections::{HashMap, HashSet, VecDeque};

/// The most audit events the memory store keeps, whatever the retention: it lives in the
/// process's memory.
const MAX_AUDIT: usize = 100_000;

/// Something issued to a client that [`State::revoke_client`] must find.
#[derive(Clone, PartialEq, Eq, Hash)]
pub(super) enum Issued {
    Code(Digest),
    Grant(String),
}

/// Lifecycle data of the memory store.
#[derive(Default)]
pub(super) struct Lifecycle {
    /// Codes and grants of each client.
    index: HashMap<ClientId, HashSet<Issued>>,
    /// Audit events, oldest first, with their time.
    audit: VecDeque<(UnixTime, String)>,
    /// Recent failed requests of each client, newest first.
    failures: HashMap<ClientId, Timed<VecDeque<String>>>,
}

impl State {
    /// Notes that `issued` belongs to `client`.
    pub(super) fn index(&mut self, client: &ClientId, issued: Issued) {
        self.lifecycle
            .index
            .entry(client.clone())
            .or_default()
            .insert(issued);
    }

    /// Deletes every code and grant of a client.
    pub(super) fn revoke_client(&mut self, client: &ClientId) {
        let Some(issued) = self.lifecycle.index.remove(client) else {
            return;
        };
        for item in issued {
            match item {
                Issued::Code(d) => {
                    self.codes.remove(&d);
                }
                Issued::Grant(g) => self.revoke(&g),
            }
        }
    }

    /// Forgets index entries whose code or grant has gone, and failure lists past their TTL.
    pub(super) fn purge_lifecycle(&mut self, now: UnixTime) {
        let (codes, grants) = (&self.codes, &self.grants);
        for issued in self.lifecycle.index.values_mut() {
            issued.retain(|i| match i {
                Issued::Code(d) => codes.contains_key(d),
                Issued::Grant(g) => grants.contains_key(g),
            });
        }
        self.lifecycle.index.retain(|_, i| !i.is_empty());
        self.lifecycle.failures.retain(|_, f| f.live(now));
    }

    pub(super) fn append_audit(&mut self, at: UnixTime, event: &str, retention: u64, keep: usize) {
        let oldest = at.saturating_sub(retention);
        while self
            .lifecycle
            .audit
            .front()
            .is_some_and(|(t, _)| *t < oldest)
        {
            self.lifecycle.audit.pop_front();
        }
        self.lifecycle.audit.push_back((at, event.to_owned()));
        while self.lifecycle.audit.len() > keep.min(MAX_AUDIT) {
            self.lifecycle.audit.pop_front();
        }
    }

    pub(super) fn audit_events(&self, offset: usize, limit: usize) -> Vec<String> {
        self.lifecycle
            .audit
            .iter()
            .rev()
            .skip(offset)
            .take(limit)
            .map(|(_, e)| e.clone())
            .collect()
    }

    pub(super) fn push_failure(
        &mut self,
        client: &ClientId,
        event: &str,
        keep: usize,
        ttl: u64,
        now: UnixTime,
    ) {
        let entry = self
            .lifecycle
            .failures
            .entry(client.clone())
            .or_insert_with(|| Timed::new(VecDeque::new(), now, ttl));
        if !entry.live(now) {
            entry.value.clear();
        }
        entry.expires_at = now.saturating_add(ttl);
        entry.value.push_front(event.to_owned());
        entry.value.truncate(keep);
    }

    pub(super) fn failures(&mut self, client: &ClientId, now: UnixTime) -> Vec<String> {
        super::live(&mut self.lifecycle.failures, client, now)
            .map(|f| f.iter().cloned().collect())
            .unwrap_or_default()
    }
}
