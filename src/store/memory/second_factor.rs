//! The second factor in the memory store: enrolments with their recovery codes in a map of
//! their own (set-ups and used time steps are short-lived records, `store/second_factor.rs`).

use super::MemoryStore;
use crate::domain::Digest;
use crate::store::second_factor::EnrolmentBackend;
use crate::store::{EnrolmentRecord, StoreError};
use async_trait::async_trait;
use std::collections::{HashMap, HashSet};

/// A user's enrolment and unspent recovery-code digests.
struct Enrolment {
    record: EnrolmentRecord,
    recovery: HashSet<Digest>,
}

/// Every user's enrolment; enrolments do not expire.
#[derive(Default)]
pub(super) struct Enrolments(HashMap<String, Enrolment>);

#[async_trait]
impl EnrolmentBackend for MemoryStore {
    async fn put_second_factor(
        &self,
        sub: &str,
        record: &EnrolmentRecord,
        recovery: &[Digest],
    ) -> Result<(), StoreError> {
        let enrolment = Enrolment {
            record: record.clone(),
            recovery: recovery.iter().cloned().collect(),
        };
        self.lock()
            .0
            .second_factor
            .0
            .insert(sub.to_owned(), enrolment);
        Ok(())
    }

    async fn second_factor(&self, sub: &str) -> Result<Option<EnrolmentRecord>, StoreError> {
        let (state, _) = self.lock();
        Ok(state.second_factor.0.get(sub).map(|e| e.record.clone()))
    }

    async fn use_recovery_code(&self, sub: &str, code: &Digest) -> Result<bool, StoreError> {
        let (mut state, _) = self.lock();
        let enrolment = state.second_factor.0.get_mut(sub);
        Ok(enrolment.is_some_and(|e| e.recovery.remove(code)))
    }

    async fn recovery_codes_left(&self, sub: &str) -> Result<u64, StoreError> {
        let (state, _) = self.lock();
        let enrolment = state.second_factor.0.get(sub);
        Ok(enrolment.map_or(0, |e| e.recovery.len() as u64))
    }

    async fn delete_second_factor(&self, sub: &str) -> Result<bool, StoreError> {
        Ok(self.lock().0.second_factor.0.remove(sub).is_some())
    }
}
