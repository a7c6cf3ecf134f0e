//! SSO sessions, pending authorize requests and remembered consents in the memory store, the
//! index of each user's sessions and the bounded groups of pending requests.

use super::records::RecordMap;
use super::MemoryStore;
use crate::clock::UnixTime;
use crate::domain::{ClientId, Digest, ScopeSet};
use crate::store::codec::{decode, encode};
use crate::store::namespace::{consent_key, Namespace, Records};
use crate::store::{PendingBound, PendingRequest, SessionRecord, SessionStore, StoreError};
use async_trait::async_trait;
use std::collections::{HashMap, HashSet, VecDeque};

/// The keys (digests in hex) of each user's sessions, by `sub`.
#[derive(Default)]
pub(super) struct SessionIndex(HashMap<String, HashSet<String>>);

impl SessionIndex {
    /// Forgets sessions that are gone.
    pub(super) fn purge(&mut self, records: &RecordMap) {
        for ids in self.0.values_mut() {
            ids.retain(|id| records.contains(Namespace::Session, id));
        }
        self.0.retain(|_, ids| !ids.is_empty());
    }
}

/// The ids of each bounded group's pending requests, oldest first.
#[derive(Default)]
pub(super) struct PendingGroups(HashMap<String, VecDeque<String>>);

impl PendingGroups {
    /// Forgets requests that are gone, and groups left empty.
    pub(super) fn purge(&mut self, records: &RecordMap, now: UnixTime) {
        for ids in self.0.values_mut() {
            ids.retain(|id| records.is_live(Namespace::AuthRequest, id, now));
        }
        self.0.retain(|_, ids| !ids.is_empty());
    }

    /// Counts `id` in each group of `bounds`, ending the oldest requests of a group over its
    /// maximum.
    fn add(&mut self, records: &mut RecordMap, id: &str, bounds: &[PendingBound], now: UnixTime) {
        for bound in bounds {
            let ids = self.0.entry(bound.group.clone()).or_default();
            ids.retain(|id| records.is_live(Namespace::AuthRequest, id, now));
            ids.push_back(id.to_owned());
            let max = usize::try_from(bound.max).unwrap_or(usize::MAX);
            let mut ended = Vec::new();
            while ids.len() > max {
                if let Some(old) = ids.pop_front() {
                    if let Some(json) = records.take(Namespace::AuthRequest, &old, now) {
                        ended.push((old, json));
                    }
                }
            }
            // An ended request leaves its other groups too (its record names them), so that
            // no group outlives its requests.
            for (old, json) in ended {
                let groups = decode::<PendingRequest>("pending request", &json)
                    .map(|p| p.groups)
                    .unwrap_or_default();
                let others: Vec<String> =
                    groups.into_iter().filter(|g| *g != bound.group).collect();
                self.remove(&old, &others);
            }
        }
    }

    /// Takes `id` out of `groups`.
    fn remove(&mut self, id: &str, groups: &[String]) {
        for group in groups {
            if let Some(ids) = self.0.get_mut(group) {
                ids.retain(|member| member != id);
                if ids.is_empty() {
                    self.0.remove(group);
                }
            }
        }
    }
}

/// Whether the session text `json` belongs to `sub`.
fn belongs_to(json: &str, sub: &str) -> bool {
    decode::<SessionRecord>("session", json).is_ok_and(|s| s.claims.sub() == sub)
}

/// Ends the sessions of `sub` that `index` names; answers how many were live.
fn end(index: &mut SessionIndex, records: &mut RecordMap, sub: &str, now: UnixTime) -> u64 {
    let Some(ids) = index.0.remove(sub) else {
        return 0;
    };
    let mut ended = 0;
    for id in ids {
        // A session id is written again only for its own user; should one name someone else
        // now, it is left alone all the same.
        let Some(json) = records.get(Namespace::Session, &id, now) else {
            continue;
        };
        if belongs_to(&json, sub) {
            records.take(Namespace::Session, &id, now);
            ended += 1;
        }
    }
    ended
}

#[async_trait]
impl SessionStore for MemoryStore {
    async fn put_session(
        &self,
        id: &Digest,
        session: &SessionRecord,
        ttl: u64,
    ) -> Result<(), StoreError> {
        let json = encode("session", session)?;
        let (mut state, now) = self.lock();
        let state = &mut *state;
        state
            .records
            .put(Namespace::Session, id.as_hex(), json, ttl, now);
        state
            .sessions
            .0
            .entry(session.claims.sub().to_owned())
            .or_default()
            .insert(id.as_hex().to_owned());
        Ok(())
    }

    async fn session(&self, id: &Digest) -> Result<Option<SessionRecord>, StoreError> {
        self.record(Namespace::Session, id.as_hex(), "session")
            .await
    }

    async fn delete_session(&self, id: &Digest) -> Result<(), StoreError> {
        self.remove(Namespace::Session, id.as_hex()).await.map(drop)
    }

    async fn end_sessions(&self, sub: &str) -> Result<u64, StoreError> {
        let (mut state, now) = self.lock();
        let state = &mut *state;
        Ok(end(&mut state.sessions, &mut state.records, sub, now))
    }

    async fn put_pending(
        &self,
        id: &str,
        pending: &PendingRequest,
        ttl: u64,
        bounds: &[PendingBound],
    ) -> Result<(), StoreError> {
        let json = encode("pending request", pending)?;
        let (mut state, now) = self.lock();
        let state = &mut *state;
        state
            .records
            .put(Namespace::AuthRequest, id, json, ttl, now);
        state
            .pending_groups
            .add(&mut state.records, id, bounds, now);
        Ok(())
    }

    async fn pending(&self, id: &str) -> Result<Option<PendingRequest>, StoreError> {
        self.record(Namespace::AuthRequest, id, "pending request")
            .await
    }

    async fn finish_pending(&self, id: &str, pending: &PendingRequest) -> Result<bool, StoreError> {
        let (mut state, now) = self.lock();
        let state = &mut *state;
        state.pending_groups.remove(id, &pending.groups);
        Ok(state
            .records
            .take(Namespace::AuthRequest, id, now)
            .is_some())
    }

    async fn consent(&self, sub: &str, client: &ClientId) -> Result<Option<ScopeSet>, StoreError> {
        let key = consent_key(sub, client);
        self.record(Namespace::Consent, &key, "consent").await
    }

    async fn put_consent(
        &self,
        sub: &str,
        client: &ClientId,
        scopes: &ScopeSet,
        ttl: u64,
    ) -> Result<(), StoreError> {
        let key = consent_key(sub, client);
        self.put_record(Namespace::Consent, &key, "consent", scopes, ttl)
            .await
    }
}
