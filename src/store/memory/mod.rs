//! In-process store for the embedded default: one process, lost on restart.
//!
//! Everything lives in one set of maps behind a `std::sync::Mutex`, each capability's maps and
//! trait implementation in its own file. The lock is never held across an `.await`, so every
//! operation is atomic in the same way a Lua script is atomic in Redis. Expiry follows the
//! injected [`Clock`], and expired entries are swept now and then so that a long-running process
//! does not keep every token it ever issued.

mod audit;
mod clients;
mod grants;
mod keys;
mod limits;
mod logout;
mod passkeys;
mod records;
mod second_factor;
mod sessions;

use super::{Ping, StoreError};
use crate::clock::{Clock, UnixTime};
use crate::domain::{ClientId, ClientRecord};
use async_trait::async_trait;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard};

/// How often (in clock seconds) a full sweep of expired entries runs. Reads never return an
/// expired entry whatever this is; the sweep only bounds memory.
const PURGE_INTERVAL: UnixTime = 60;

/// The in-memory [`super::Store`].
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

/// Every map of the store.
#[derive(Default)]
struct State {
    records: records::RecordMap,
    sessions: sessions::SessionIndex,
    pending_groups: sessions::PendingGroups,
    clients: HashMap<ClientId, ClientRecord>,
    grants: grants::Grants,
    second_factor: second_factor::Enrolments,
    passkeys: passkeys::Passkeys,
    limits: limits::Windows,
    audit: audit::Activity,
    logouts: logout::Logouts,
    signing_keys: Option<String>,
    next_purge: UnixTime,
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
        self.records.purge(now);
        self.sessions.purge(&self.records);
        self.pending_groups.purge(&self.records, now);
        self.grants.purge(now);
        self.limits.purge(now);
        self.audit.purge(now);
        self.logouts.purge(now);
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
impl Ping for MemoryStore {
    async fn ping(&self) -> Result<(), StoreError> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::clock::OffsetClock;
    use crate::store::SecondFactorStore;

    #[tokio::test]
    async fn expired_entries_are_swept_without_being_read_again() -> Result<(), StoreError> {
        let clock = OffsetClock::default();
        let store = MemoryStore::new(Arc::new(clock.clone()));
        store.put_setup("ada", "browser", "sealed", 5).await?;
        store.spend_otp_step("ada", "tag", 1, 5).await?;

        clock.advance(PURGE_INTERVAL as i64 + 6);
        store.setup("unrelated", "browser").await?;

        let state = store.state.lock().unwrap_or_else(|e| e.into_inner());
        assert!(state.records.is_empty());
        Ok(())
    }
}
