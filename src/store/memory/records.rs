//! The memory store's short-lived records: JSON text under a namespace and a key, each with its
//! own expiry, as Redis keeps them under `{prefix}<namespace prefix><key>`.

use super::{live, MemoryStore, Timed};
use crate::clock::UnixTime;
use crate::store::namespace::{Namespace, Records};
use crate::store::StoreError;
use async_trait::async_trait;
use std::collections::{HashMap, HashSet};

/// Every short-lived record, by namespace and key, and the records filed under each owner.
#[derive(Default)]
pub(super) struct RecordMap(
    HashMap<(Namespace, String), Timed<String>>,
    HashMap<String, HashSet<(Namespace, String)>>,
);

impl RecordMap {
    pub(super) fn purge(&mut self, now: UnixTime) {
        self.0.retain(|_, e| e.live(now));
        let records = &self.0;
        for keys in self.1.values_mut() {
            keys.retain(|key| records.contains_key(key));
        }
        self.1.retain(|_, keys| !keys.is_empty());
    }

    /// Whether a value is kept under the key (live or not yet swept).
    pub(super) fn contains(&self, ns: Namespace, key: &str) -> bool {
        self.0.contains_key(&(ns, key.to_owned()))
    }

    /// Whether a live value is kept under the key.
    pub(super) fn is_live(&self, ns: Namespace, key: &str, now: UnixTime) -> bool {
        self.0
            .get(&(ns, key.to_owned()))
            .is_some_and(|e| e.live(now))
    }

    #[cfg(test)]
    pub(super) fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Writes `value`, replacing whatever was there.
    pub(super) fn put(&mut self, ns: Namespace, key: &str, value: String, ttl: u64, now: UnixTime) {
        self.0
            .insert((ns, key.to_owned()), Timed::new(value, now, ttl));
    }

    /// The live value, if any.
    pub(super) fn get(&mut self, ns: Namespace, key: &str, now: UnixTime) -> Option<String> {
        live(&mut self.0, &(ns, key.to_owned()), now).map(|v| v.clone())
    }

    /// Removes a value, answering it if it was live.
    pub(super) fn take(&mut self, ns: Namespace, key: &str, now: UnixTime) -> Option<String> {
        let entry = self.0.remove(&(ns, key.to_owned()));
        entry.filter(|e| e.live(now)).map(|e| e.value)
    }

    /// Writes `value` only if nothing live is there; answers whether it wrote.
    pub(super) fn put_new(
        &mut self,
        ns: Namespace,
        key: &str,
        value: String,
        ttl: u64,
        now: UnixTime,
    ) -> bool {
        let key = (ns, key.to_owned());
        if live(&mut self.0, &key, now).is_some() {
            return false;
        }
        self.0.insert(key, Timed::new(value, now, ttl));
        true
    }
}

#[async_trait]
impl Records for MemoryStore {
    async fn put_text(
        &self,
        ns: Namespace,
        key: &str,
        value: String,
        ttl: u64,
    ) -> Result<(), StoreError> {
        let (mut state, now) = self.lock();
        state.records.put(ns, key, value, ttl, now);
        Ok(())
    }

    async fn put_text_new(
        &self,
        ns: Namespace,
        key: &str,
        value: &str,
        ttl: u64,
    ) -> Result<bool, StoreError> {
        let (mut state, now) = self.lock();
        Ok(state.records.put_new(ns, key, value.to_owned(), ttl, now))
    }

    async fn text(&self, ns: Namespace, key: &str) -> Result<Option<String>, StoreError> {
        let (mut state, now) = self.lock();
        Ok(state.records.get(ns, key, now))
    }

    async fn remove(&self, ns: Namespace, key: &str) -> Result<bool, StoreError> {
        let (mut state, now) = self.lock();
        Ok(state.records.take(ns, key, now).is_some())
    }

    async fn take_text(&self, ns: Namespace, key: &str) -> Result<Option<String>, StoreError> {
        let (mut state, now) = self.lock();
        Ok(state.records.take(ns, key, now))
    }

    async fn put_owned_text(
        &self,
        ns: Namespace,
        key: &str,
        owner: &str,
        value: String,
        ttl: u64,
    ) -> Result<(), StoreError> {
        let (mut state, now) = self.lock();
        state.records.put(ns, key, value, ttl, now);
        state
            .records
            .1
            .entry(owner.to_owned())
            .or_default()
            .insert((ns, key.to_owned()));
        Ok(())
    }

    async fn remove_owned(&self, owner: &str) -> Result<u64, StoreError> {
        let (mut state, now) = self.lock();
        let keys = state.records.1.remove(owner).unwrap_or_default();
        let ended = keys
            .into_iter()
            .filter(|(ns, key)| state.records.take(*ns, key, now).is_some())
            .count();
        Ok(ended as u64)
    }
}
