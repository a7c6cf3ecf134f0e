//! The back-channel logout queue in the memory store: each job with when it is due, and when it
//! is forgotten.

use super::MemoryStore;
use crate::clock::UnixTime;
use crate::store::{LogoutJob, LogoutQueue, StoreError};
use async_trait::async_trait;
use std::collections::HashMap;

/// A queued job.
struct Queued {
    job: LogoutJob,
    due: UnixTime,
    forget_at: UnixTime,
}

/// The jobs by id.
#[derive(Default)]
pub(super) struct Logouts(HashMap<String, Queued>);

impl Logouts {
    pub(super) fn purge(&mut self, now: UnixTime) {
        self.0.retain(|_, q| now < q.forget_at);
    }
}

#[async_trait]
impl LogoutQueue for MemoryStore {
    async fn put_logout(&self, job: &LogoutJob, due: UnixTime, ttl: u64) -> Result<(), StoreError> {
        let (mut state, now) = self.lock();
        let queued = Queued {
            job: job.clone(),
            due,
            forget_at: now.saturating_add(ttl),
        };
        state.logouts.0.insert(job.id.clone(), queued);
        Ok(())
    }

    async fn claim_logouts(
        &self,
        now: UnixTime,
        lease: u64,
        max: usize,
    ) -> Result<Vec<LogoutJob>, StoreError> {
        let (mut state, clock_now) = self.lock();
        let queue = &mut state.logouts.0;
        queue.retain(|_, q| clock_now < q.forget_at);
        let mut due: Vec<(&String, UnixTime)> = queue
            .iter()
            .filter(|(_, q)| q.due <= now)
            .map(|(id, q)| (id, q.due))
            .collect();
        due.sort_by_key(|(id, at)| (*at, (*id).clone()));
        let ids: Vec<String> = due
            .into_iter()
            .take(max)
            .map(|(id, _)| id.clone())
            .collect();
        let mut claimed = Vec::with_capacity(ids.len());
        for id in ids {
            if let Some(q) = queue.get_mut(&id) {
                q.due = now.saturating_add(lease);
                claimed.push(q.job.clone());
            }
        }
        Ok(claimed)
    }

    async fn delete_logout(&self, id: &str) -> Result<(), StoreError> {
        self.lock().0.logouts.0.remove(id);
        Ok(())
    }
}
