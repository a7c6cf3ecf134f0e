//! Attempt windows in the memory store, and lockouts already reported (short-lived records).

use super::{MemoryStore, Timed};
use crate::clock::UnixTime;
use crate::store::namespace::{Namespace, Records};
use crate::store::{AttemptCount, LimitStore, StoreError, IN_FLIGHT_SECS};
use async_trait::async_trait;
use std::collections::HashMap;

/// One attempt of a window: when it began (in flight) or failed, and its id.
struct Entry {
    at: UnixTime,
    id: String,
    in_flight: bool,
}

/// Sliding windows, the whole window expiring with its newest entry.
#[derive(Default)]
pub(super) struct Windows(HashMap<String, Timed<Vec<Entry>>>);

impl Windows {
    pub(super) fn purge(&mut self, now: UnixTime) {
        self.0.retain(|_, e| e.live(now));
    }
}

#[async_trait]
impl LimitStore for MemoryStore {
    async fn add_attempt(
        &self,
        windows: &[(String, u64)],
        id: &str,
        now: UnixTime,
    ) -> Result<Vec<AttemptCount>, StoreError> {
        let (mut state, _) = self.lock();
        let mut counts = Vec::with_capacity(windows.len());
        for (key, window) in windows {
            let window = *window;
            let lifetime = window + IN_FLIGHT_SECS;
            let entry = state
                .limits
                .0
                .entry(key.clone())
                .or_insert_with(|| Timed::new(Vec::new(), now, lifetime));
            entry.value.retain(|e| {
                let length = if e.in_flight { IN_FLIGHT_SECS } else { window };
                e.at.saturating_add(length) > now
            });
            entry.value.push(Entry {
                at: now,
                id: id.to_owned(),
                in_flight: true,
            });
            entry.expires_at = now.saturating_add(lifetime);
            let in_flight = entry.value.iter().filter(|e| e.in_flight).count() as u64;
            counts.push(AttemptCount {
                failed: entry.value.len() as u64 - in_flight,
                in_flight,
            });
        }
        Ok(counts)
    }

    async fn fail_attempt(
        &self,
        keys: &[String],
        id: &str,
        now: UnixTime,
    ) -> Result<(), StoreError> {
        let (mut state, _) = self.lock();
        for key in keys {
            if let Some(window) = state.limits.0.get_mut(key) {
                for entry in window.value.iter_mut().filter(|e| e.id == id) {
                    entry.at = now;
                    entry.in_flight = false;
                }
            }
        }
        Ok(())
    }

    async fn remove_attempt(&self, keys: &[String], id: &str) -> Result<(), StoreError> {
        let (mut state, _) = self.lock();
        for key in keys {
            if let Some(entry) = state.limits.0.get_mut(key) {
                entry.value.retain(|e| e.id != id);
            }
        }
        Ok(())
    }

    async fn clear_attempts(&self, key: &str) -> Result<(), StoreError> {
        let (mut state, _) = self.lock();
        state.limits.0.remove(key);
        Ok(())
    }

    async fn note_lockout(&self, key: &str, ttl: u64) -> Result<bool, StoreError> {
        self.put_text_new(Namespace::Lockout, key, "1", ttl).await
    }
}
