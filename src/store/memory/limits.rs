//! Attempt windows in the memory store, and lockouts already reported (short-lived records).

use super::{MemoryStore, Timed};
use crate::clock::UnixTime;
use crate::store::namespace::{Namespace, Records};
use crate::store::{LimitStore, StoreError};
use async_trait::async_trait;
use std::collections::HashMap;

/// Sliding windows: attempt id and time, the whole window expiring with its newest entry.
#[derive(Default)]
pub(super) struct Windows(HashMap<String, Timed<Vec<(UnixTime, String)>>>);

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
    ) -> Result<Vec<u64>, StoreError> {
        let (mut state, _) = self.lock();
        let mut counts = Vec::with_capacity(windows.len());
        for (key, window) in windows {
            let window = *window;
            let entry = state
                .limits
                .0
                .entry(key.clone())
                .or_insert_with(|| Timed::new(Vec::new(), now, window));
            entry
                .value
                .retain(|(at, _)| at.saturating_add(window) > now);
            entry.value.push((now, id.to_owned()));
            entry.expires_at = now.saturating_add(window);
            counts.push(entry.value.len() as u64);
        }
        Ok(counts)
    }

    async fn remove_attempt(&self, keys: &[String], id: &str) -> Result<(), StoreError> {
        let (mut state, _) = self.lock();
        for key in keys {
            if let Some(entry) = state.limits.0.get_mut(key) {
                entry.value.retain(|(_, other)| other != id);
            }
        }
        Ok(())
    }

    async fn note_lockout(&self, key: &str, ttl: u64) -> Result<bool, StoreError> {
        self.put_text_new(Namespace::Lockout, key, "1", ttl).await
    }
}
