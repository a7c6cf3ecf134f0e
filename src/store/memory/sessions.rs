//! SSO sessions, pending authorize requests and remembered consents in the memory store, the
//! index of each user's sessions and the bounded groups of pending requests.

use super::records::RecordMap;
use super::MemoryStore;
use crate::clock::UnixTime;
use crate::domain::Digest;
use crate::store::codec::{decode, encode};
use crate::store::namespace::Namespace;
use crate::store::sessions::SessionBackend;
use crate::store::{
    EndedSessions, PendingBound, PendingLimits, PendingLoad, PendingPut, PendingRequest,
    SessionRecord, StoreError,
};
use async_trait::async_trait;
use std::collections::{BTreeMap, HashMap, HashSet, VecDeque};

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

/// The ids of each bounded group's pending requests, oldest first, and what all pending
/// requests keep.
#[derive(Default)]
pub(super) struct PendingGroups {
    groups: HashMap<String, VecDeque<String>>,
    /// Every pending request by expiry, with its size in bytes.
    expiring: BTreeMap<(UnixTime, String), u64>,
    /// When each pending request expires.
    expiry: HashMap<String, UnixTime>,
    load: PendingLoad,
}

impl PendingGroups {
    /// Forgets requests that are gone, and groups left empty.
    pub(super) fn purge(&mut self, records: &RecordMap, now: UnixTime) {
        for ids in self.groups.values_mut() {
            ids.retain(|id| records.is_live(Namespace::AuthRequest, id, now));
        }
        self.groups.retain(|_, ids| !ids.is_empty());
        self.settle(now);
    }

    /// Takes expired requests out of the load.
    fn settle(&mut self, now: UnixTime) {
        while let Some(entry) = self.expiring.first_entry() {
            if entry.key().0 > now {
                break;
            }
            let ((_, id), size) = entry.remove_entry();
            self.expiry.remove(&id);
            self.load.requests = self.load.requests.saturating_sub(1);
            self.load.bytes = self.load.bytes.saturating_sub(size);
        }
    }

    /// Takes `id` out of the load, if it is counted there.
    fn unload(&mut self, id: &str) {
        if let Some(expires_at) = self.expiry.remove(id) {
            if let Some(size) = self.expiring.remove(&(expires_at, id.to_owned())) {
                self.load.requests = self.load.requests.saturating_sub(1);
                self.load.bytes = self.load.bytes.saturating_sub(size);
            }
        }
    }

    /// Whether `bounds` and `limits` leave room for a request of `size` bytes: `None` if so,
    /// else what refuses it.
    fn refusal(
        &mut self,
        records: &RecordMap,
        bounds: &[PendingBound],
        limits: PendingLimits,
        size: u64,
        now: UnixTime,
    ) -> Option<PendingPut> {
        self.settle(now);
        if self.load.requests + 1 > limits.requests || self.load.bytes + size > limits.bytes {
            return Some(PendingPut::StoreFull(self.load));
        }
        bounds
            .iter()
            .filter(|bound| !bound.evicts)
            .find(|bound| {
                let live = self.groups.get(&bound.group).map_or(0, |ids| {
                    ids.iter()
                        .filter(|id| records.is_live(Namespace::AuthRequest, id, now))
                        .count()
                });
                live as u64 >= bound.max
            })
            .map(|bound| PendingPut::GroupFull(bound.group.clone()))
    }

    /// Counts `id` (`size` bytes, expiring at `expires_at`) in the load and in each group of
    /// `bounds`, ending the oldest requests of an evicting group over its maximum.
    fn add(
        &mut self,
        records: &mut RecordMap,
        id: &str,
        (size, expires_at): (u64, UnixTime),
        bounds: &[PendingBound],
        now: UnixTime,
    ) {
        self.expiring.insert((expires_at, id.to_owned()), size);
        self.expiry.insert(id.to_owned(), expires_at);
        self.load.requests += 1;
        self.load.bytes += size;
        for bound in bounds {
            let ids = self.groups.entry(bound.group.clone()).or_default();
            ids.retain(|id| records.is_live(Namespace::AuthRequest, id, now));
            ids.push_back(id.to_owned());
            let max = usize::try_from(bound.max).unwrap_or(usize::MAX);
            let mut ended = Vec::new();
            while bound.evicts && ids.len() > max {
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
                self.unload(&old);
            }
        }
    }

    /// Takes `id` out of `groups`.
    fn remove(&mut self, id: &str, groups: &[String]) {
        for group in groups {
            if let Some(ids) = self.groups.get_mut(group) {
                ids.retain(|member| member != id);
                if ids.is_empty() {
                    self.groups.remove(group);
                }
            }
        }
    }
}

/// The session text `json`, if it belongs to `sub`.
fn of_user(json: &str, sub: &str) -> Option<SessionRecord> {
    decode::<SessionRecord>("session", json)
        .ok()
        .filter(|s| s.claims.sub() == sub)
}

/// Ends the sessions of `sub` that `index` names; answers those that were live.
fn end(
    index: &mut SessionIndex,
    records: &mut RecordMap,
    sub: &str,
    now: UnixTime,
) -> EndedSessions {
    let mut ended = EndedSessions::default();
    let Some(ids) = index.0.remove(sub) else {
        return ended;
    };
    for id in ids {
        // A session id is written again only for its own user; should one name someone else
        // now, it is left alone all the same.
        let Some(json) = records.get(Namespace::Session, &id, now) else {
            continue;
        };
        if let Some(session) = of_user(&json, sub) {
            records.take(Namespace::Session, &id, now);
            ended.count += 1;
            ended.sids.extend(session.sid);
        }
    }
    ended
}

#[async_trait]
impl SessionBackend for MemoryStore {
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

    async fn end_sessions(&self, sub: &str) -> Result<EndedSessions, StoreError> {
        let (mut state, now) = self.lock();
        let state = &mut *state;
        Ok(end(&mut state.sessions, &mut state.records, sub, now))
    }

    async fn user_sessions(&self, sub: &str) -> Result<Vec<(Digest, SessionRecord)>, StoreError> {
        let (mut state, now) = self.lock();
        let state = &mut *state;
        let ids: Vec<String> = state
            .sessions
            .0
            .get(sub)
            .map(|ids| ids.iter().cloned().collect())
            .unwrap_or_default();
        Ok(ids
            .into_iter()
            .filter_map(|id| {
                let json = state.records.get(Namespace::Session, &id, now)?;
                Some((Digest::from_hex(id), of_user(&json, sub)?))
            })
            .collect())
    }

    async fn put_pending(
        &self,
        id: &str,
        pending: &PendingRequest,
        ttl: u64,
        bounds: &[PendingBound],
        limits: PendingLimits,
    ) -> Result<PendingPut, StoreError> {
        let json = encode("pending request", pending)?;
        let size = json.len() as u64;
        let (mut state, now) = self.lock();
        let state = &mut *state;
        let groups = &mut state.pending_groups;
        if let Some(refused) = groups.refusal(&state.records, bounds, limits, size, now) {
            return Ok(refused);
        }
        state
            .records
            .put(Namespace::AuthRequest, id, json, ttl, now);
        let expires_at = now.saturating_add(ttl);
        groups.add(&mut state.records, id, (size, expires_at), bounds, now);
        Ok(PendingPut::Stored(groups.load))
    }

    async fn finish_pending(&self, id: &str, pending: &PendingRequest) -> Result<bool, StoreError> {
        let (mut state, now) = self.lock();
        let state = &mut *state;
        state.pending_groups.remove(id, &pending.groups);
        state.pending_groups.unload(id);
        Ok(state
            .records
            .take(Namespace::AuthRequest, id, now)
            .is_some())
    }
}
