//! In-process store for the embedded default: one process, lost on restart.
//!
//! Everything lives in one map set behind a `std::sync::Mutex`. The lock is never held across an
//! `.await`, so every operation is atomic in the same way a Lua script is atomic in Redis. Expiry
//! follows the injected [`Clock`], and expired entries are swept now and then so that a long-running
//! process does not keep every token it ever issued.

mod lifecycle;

use super::{
    AccessRecord, CodeRecord, Issuance, Namespace, Redemption, RefreshRecord, Rotation, Store,
    StoreError, StoredCode, StoredRefresh,
};
use crate::clock::{Clock, UnixTime};
use crate::domain::{ClientId, ClientRecord, Digest};
use async_trait::async_trait;
use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex, MutexGuard};

mod mfa;

/// How often (in clock seconds) a full sweep of expired entries runs. Reads never return an
/// expired entry whatever this is; the sweep only bounds memory.
const PURGE_INTERVAL: UnixTime = 60;

/// The in-memory [`Store`].
pub struct MemoryStore {
    clock: Arc<dyn Clock>,
    state: Mutex<State>,
}

/// A value and the instant it stops existing.
struct Timed<T> {
    value: T,
    expires_at: UnixTime,
}

impl<T> Timed<T> {
    fn new(value: T, now: UnixTime, ttl: u64) -> Self {
        Self {
            value,
            expires_at: now.saturating_add(ttl),
        }
    }

    fn live(&self, now: UnixTime) -> bool {
        now < self.expires_at
    }
}

/// A refresh token with its rotation state.
struct RefreshEntry {
    record: RefreshRecord,
    rotated_at: Option<UnixTime>,
    sealed: Option<String>,
}

/// One token of a grant's index.
#[derive(Clone, PartialEq, Eq, Hash)]
enum TokenRef {
    Access(Digest),
    Refresh(Digest),
}

#[derive(Default)]
struct State {
    records: HashMap<(Namespace, String), Timed<String>>,
    clients: HashMap<ClientId, ClientRecord>,
    codes: HashMap<Digest, Timed<StoredCode>>,
    access: HashMap<Digest, Timed<AccessRecord>>,
    refresh: HashMap<Digest, Timed<RefreshEntry>>,
    grants: HashMap<String, Timed<HashSet<TokenRef>>>,
    lifecycle: lifecycle::Lifecycle,
    next_purge: UnixTime,
    mfa: mfa::MfaMaps,
    signing_keys: Option<String>,
}

/// The live entry under `key`, dropping it first if it has expired.
fn live<'m, K, T>(map: &'m mut HashMap<K, Timed<T>>, key: &K, now: UnixTime) -> Option<&'m mut T>
where
    K: std::hash::Hash + Eq,
{
    if map.get(key).is_some_and(|e| !e.live(now)) {
        map.remove(key);
    }
    map.get_mut(key).map(|e| &mut e.value)
}

impl State {
    fn purge(&mut self, now: UnixTime) {
        self.records.retain(|_, e| e.live(now));
        self.codes.retain(|_, e| e.live(now));
        self.access.retain(|_, e| e.live(now));
        self.refresh.retain(|_, e| e.live(now));
        self.grants.retain(|_, e| e.live(now));
        self.mfa.purge(now);
        // Forget index entries whose token is already gone, so a long-lived grant that is
        // refreshed often does not accumulate dead references.
        let (access, refresh) = (&self.access, &self.refresh);
        for grant in self.grants.values_mut() {
            grant.value.retain(|t| match t {
                TokenRef::Access(d) => access.contains_key(d),
                TokenRef::Refresh(d) => refresh.contains_key(d),
            });
        }
        self.purge_lifecycle(now);
    }

    /// Writes the tokens of an issuance and indexes them under their grant.
    fn issue(&mut self, issue: &Issuance, now: UnixTime) {
        let access = Timed::new(issue.access.clone(), now, issue.access_ttl);
        self.access.insert(issue.access_digest.clone(), access);
        let refresh = RefreshEntry {
            record: issue.refresh.clone(),
            rotated_at: None,
            sealed: None,
        };
        let refresh = Timed::new(refresh, now, issue.refresh_ttl);
        self.refresh.insert(issue.refresh_digest.clone(), refresh);

        let keep_until = now.saturating_add(issue.access_ttl.max(issue.refresh_ttl));
        let grant = self
            .grants
            .entry(issue.grant_id.clone())
            .or_insert_with(|| Timed::new(HashSet::new(), now, 0));
        if !grant.live(now) {
            // An expired index only names tokens that have expired too.
            grant.value.clear();
        }
        // The index must outlive every token in it; it is never shortened.
        grant.expires_at = grant.expires_at.max(keep_until);
        grant
            .value
            .insert(TokenRef::Access(issue.access_digest.clone()));
        grant
            .value
            .insert(TokenRef::Refresh(issue.refresh_digest.clone()));
        let client = issue.access.client_id.clone();
        self.index(&client, lifecycle::Issued::Grant(issue.grant_id.clone()));
    }

    fn revoke(&mut self, grant_id: &str) {
        let Some(grant) = self.grants.remove(grant_id) else {
            return;
        };
        for token in grant.value {
            match token {
                TokenRef::Access(d) => {
                    self.access.remove(&d);
                }
                TokenRef::Refresh(d) => {
                    self.refresh.remove(&d);
                }
            }
        }
    }
}

impl MemoryStore {
    /// An empty store whose entries expire according to `clock`.
    pub fn new(clock: Arc<dyn Clock>) -> Self {
        Self {
            clock,
            state: Mutex::new(State::default()),
        }
    }

    /// Locks the state and reads the clock, sweeping expired entries when one is due.
    fn lock(&self) -> (MutexGuard<'_, State>, UnixTime) {
        // A panic while the lock was held cannot leave the maps half-written in a way that
        // matters more than losing the whole store, so a poisoned lock is simply taken over.
        let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        let now = self.clock.now();
        if now >= state.next_purge {
            state.purge(now);
            state.next_purge = now.saturating_add(PURGE_INTERVAL);
        }
        (state, now)
    }
}

#[async_trait]
impl Store for MemoryStore {
    async fn ping(&self) -> Result<(), StoreError> {
        Ok(())
    }

    async fn put(&self, ns: Namespace, key: &str, value: &str, ttl: u64) -> Result<(), StoreError> {
        let (mut state, now) = self.lock();
        let entry = Timed::new(value.to_owned(), now, ttl);
        state.records.insert((ns, key.to_owned()), entry);
        Ok(())
    }

    async fn get(&self, ns: Namespace, key: &str) -> Result<Option<String>, StoreError> {
        let (mut state, now) = self.lock();
        Ok(live(&mut state.records, &(ns, key.to_owned()), now).map(|v| v.clone()))
    }

    async fn take(&self, ns: Namespace, key: &str) -> Result<Option<String>, StoreError> {
        let (mut state, now) = self.lock();
        let entry = state.records.remove(&(ns, key.to_owned()));
        Ok(entry.filter(|e| e.live(now)).map(|e| e.value))
    }

    async fn delete(&self, ns: Namespace, key: &str) -> Result<(), StoreError> {
        let (mut state, _) = self.lock();
        state.records.remove(&(ns, key.to_owned()));
        Ok(())
    }

    async fn put_client(&self, client: &ClientRecord) -> Result<(), StoreError> {
        let (mut state, _) = self.lock();
        state
            .clients
            .insert(client.client_id.clone(), client.clone());
        Ok(())
    }

    async fn client(&self, id: &ClientId) -> Result<Option<ClientRecord>, StoreError> {
        let (state, _) = self.lock();
        Ok(state.clients.get(id).cloned())
    }

    async fn clients(&self) -> Result<Vec<ClientRecord>, StoreError> {
        let (state, _) = self.lock();
        Ok(state.clients.values().cloned().collect())
    }

    async fn put_code(
        &self,
        code: &Digest,
        record: &CodeRecord,
        ttl: u64,
    ) -> Result<(), StoreError> {
        let (mut state, now) = self.lock();
        let stored = StoredCode {
            record: record.clone(),
            consumed_by: None,
        };
        state
            .codes
            .insert(code.clone(), Timed::new(stored, now, ttl));
        state.index(&record.client_id, lifecycle::Issued::Code(code.clone()));
        Ok(())
    }

    async fn code(&self, code: &Digest) -> Result<Option<StoredCode>, StoreError> {
        let (mut state, now) = self.lock();
        Ok(live(&mut state.codes, code, now).map(|c| c.clone()))
    }

    async fn redeem_code(&self, code: &Digest, issue: &Issuance) -> Result<Redemption, StoreError> {
        let (mut state, now) = self.lock();
        let Some(stored) = live(&mut state.codes, code, now) else {
            return Ok(Redemption::NotFound);
        };
        if let Some(grant) = stored.consumed_by.clone() {
            state.revoke(&grant);
            return Ok(Redemption::Replayed);
        }
        // Only the consumption mark changes: the entry keeps its expiry.
        stored.consumed_by = Some(issue.grant_id.clone());
        state.issue(issue, now);
        Ok(Redemption::Issued)
    }

    async fn access_token(&self, token: &Digest) -> Result<Option<AccessRecord>, StoreError> {
        let (mut state, now) = self.lock();
        Ok(live(&mut state.access, token, now).map(|a| a.clone()))
    }

    async fn refresh_token(&self, token: &Digest) -> Result<Option<StoredRefresh>, StoreError> {
        let (mut state, now) = self.lock();
        Ok(live(&mut state.refresh, token, now).map(|r| StoredRefresh {
            record: r.record.clone(),
            rotated_at: r.rotated_at,
        }))
    }

    async fn rotate_refresh(
        &self,
        old: &Digest,
        issue: &Issuance,
        sealed_successor: &str,
        now: UnixTime,
        grace: u64,
    ) -> Result<Rotation, StoreError> {
        let (mut state, clock_now) = self.lock();
        let Some(entry) = live(&mut state.refresh, old, clock_now) else {
            return Ok(Rotation::NotFound);
        };
        match (entry.rotated_at, entry.sealed.clone()) {
            (None, _) => {
                entry.rotated_at = Some(now);
                entry.sealed = Some(sealed_successor.to_owned());
                state.issue(issue, clock_now);
                Ok(Rotation::Rotated)
            }
            // A rotation timestamped after `now` (another node's clock running ahead) counts as
            // within the grace window rather than as theft.
            (Some(at), Some(sealed)) if now.saturating_sub(at) <= grace => {
                Ok(Rotation::Grace(sealed))
            }
            (Some(_), _) => {
                let grant = entry.record.grant_id.clone();
                state.revoke(&grant);
                state.refresh.remove(old);
                Ok(Rotation::Reused)
            }
        }
    }

    async fn revoke_grant(&self, grant_id: &str) -> Result<(), StoreError> {
        let (mut state, _) = self.lock();
        state.revoke(grant_id);
        Ok(())
    }

    // --- second factor and attempt limits (bodies in `memory/mfa.rs`) ----------------------

    async fn put_new(
        &self,
        ns: Namespace,
        key: &str,
        value: &str,
        ttl: u64,
    ) -> Result<bool, StoreError> {
        let (mut state, now) = self.lock();
        Ok(state.put_new(ns, key, value, ttl, now))
    }

    async fn add_attempt(
        &self,
        key: &str,
        id: &str,
        now: UnixTime,
        window: u64,
    ) -> Result<u64, StoreError> {
        let (mut state, _) = self.lock();
        Ok(state.add_attempt(key, id, now, window))
    }

    async fn remove_attempt(&self, key: &str, id: &str) -> Result<(), StoreError> {
        self.lock().0.remove_attempt(key, id);
        Ok(())
    }

    async fn put_second_factor(
        &self,
        sub: &str,
        record: &str,
        recovery: &[Digest],
    ) -> Result<(), StoreError> {
        self.lock().0.put_second_factor(sub, record, recovery);
        Ok(())
    }

    async fn second_factor(&self, sub: &str) -> Result<Option<String>, StoreError> {
        Ok(self.lock().0.second_factor(sub))
    }

    async fn use_recovery_code(&self, sub: &str, code: &Digest) -> Result<bool, StoreError> {
        Ok(self.lock().0.use_recovery_code(sub, code))
    }

    async fn recovery_codes_left(&self, sub: &str) -> Result<u64, StoreError> {
        Ok(self.lock().0.recovery_codes_left(sub))
    }

    async fn delete_second_factor(&self, sub: &str) -> Result<bool, StoreError> {
        Ok(self.lock().0.delete_second_factor(sub))
    }

    // --- Connected Apps lifecycle, audit log, app doctor (see `memory/lifecycle.rs`) -----------

    async fn delete_client(&self, id: &ClientId) -> Result<(), StoreError> {
        self.lock().0.clients.remove(id);
        Ok(())
    }

    async fn revoke_client(&self, id: &ClientId) -> Result<(), StoreError> {
        self.lock().0.revoke_client(id);
        Ok(())
    }

    async fn append_audit(
        &self,
        at: UnixTime,
        event: &str,
        retention: u64,
        keep: usize,
    ) -> Result<(), StoreError> {
        self.lock().0.append_audit(at, event, retention, keep);
        Ok(())
    }

    async fn audit_events(&self, offset: usize, limit: usize) -> Result<Vec<String>, StoreError> {
        Ok(self.lock().0.audit_events(offset, limit))
    }

    async fn push_failure(
        &self,
        id: &ClientId,
        event: &str,
        keep: usize,
        ttl: u64,
    ) -> Result<(), StoreError> {
        let (mut state, now) = self.lock();
        state.push_failure(id, event, keep, ttl, now);
        Ok(())
    }

    async fn failures(&self, id: &ClientId) -> Result<Vec<String>, StoreError> {
        let (mut state, now) = self.lock();
        Ok(state.failures(id, now))
    }

    // --- OpenID Connect signing keys ---------------------------------------------------------

    async fn signing_keys(&self) -> Result<Option<String>, StoreError> {
        Ok(self.lock().0.signing_keys.clone())
    }

    async fn replace_signing_keys(&self, expected: &str, keys: &str) -> Result<bool, StoreError> {
        let (mut state, _) = self.lock();
        if state.signing_keys.as_deref() != Some(expected) {
            return Ok(false);
        }
        state.signing_keys = Some(keys.to_owned());
        Ok(true)
    }

    async fn signing_keys_or_insert(&self, keys: &str) -> Result<String, StoreError> {
        Ok(self
            .lock()
            .0
            .signing_keys
            .get_or_insert_with(|| keys.to_owned())
            .clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::clock::OffsetClock;

    #[tokio::test]
    async fn expired_entries_are_swept_without_being_read_again() -> Result<(), StoreError> {
        let clock = OffsetClock::default();
        let store = MemoryStore::new(Arc::new(clock.clone()));
        store.put(Namespace::Session, "a", "{}", 5).await?;
        store.put(Namespace::Consent, "b", "{}", 5).await?;

        clock.advance(PURGE_INTERVAL as i64 + 6);
        store.get(Namespace::Session, "unrelated").await?;

        let state = store.state.lock().unwrap_or_else(|e| e.into_inner());
        assert!(state.records.is_empty());
        Ok(())
    }
}
