//! Passkeys in the memory store: each person's in a map of their own, and the owner of each
//! credential id beside them, changed together under the store's one lock.

use super::MemoryStore;
use crate::store::{PasskeyAdded, PasskeyRecord, PasskeyStore, StoreError};
use async_trait::async_trait;
use std::collections::HashMap;

/// Every person's passkeys and the owner of each credential id.
#[derive(Default)]
pub(super) struct Passkeys {
    by_person: HashMap<String, Vec<PasskeyRecord>>,
    owners: HashMap<String, String>,
}

#[async_trait]
impl PasskeyStore for MemoryStore {
    async fn add_passkey(
        &self,
        sub: &str,
        record: &PasskeyRecord,
        max: usize,
    ) -> Result<PasskeyAdded, StoreError> {
        let (mut state, _) = self.lock();
        let passkeys = &mut state.passkeys;
        if passkeys.owners.contains_key(&record.id) {
            return Ok(PasskeyAdded::Taken);
        }
        let own = passkeys.by_person.entry(sub.to_owned()).or_default();
        if own.len() >= max {
            return Ok(PasskeyAdded::Full);
        }
        own.push(record.clone());
        passkeys.owners.insert(record.id.clone(), sub.to_owned());
        Ok(PasskeyAdded::Added)
    }

    async fn passkeys(&self, sub: &str) -> Result<Vec<PasskeyRecord>, StoreError> {
        let (state, _) = self.lock();
        let mut records = state
            .passkeys
            .by_person
            .get(sub)
            .cloned()
            .unwrap_or_default();
        records.sort_by(|a, b| a.created_at.cmp(&b.created_at).then(a.id.cmp(&b.id)));
        Ok(records)
    }

    async fn passkey_owner(&self, id: &str) -> Result<Option<String>, StoreError> {
        let (state, _) = self.lock();
        Ok(state.passkeys.owners.get(id).cloned())
    }

    async fn update_passkey(&self, sub: &str, record: &PasskeyRecord) -> Result<bool, StoreError> {
        let (mut state, _) = self.lock();
        let own = state.passkeys.by_person.get_mut(sub);
        let Some(stored) = own.and_then(|own| own.iter_mut().find(|p| p.id == record.id)) else {
            return Ok(false);
        };
        *stored = record.clone();
        Ok(true)
    }

    async fn delete_passkey(&self, sub: &str, id: &str) -> Result<bool, StoreError> {
        let (mut state, _) = self.lock();
        let passkeys = &mut state.passkeys;
        let Some(own) = passkeys.by_person.get_mut(sub) else {
            return Ok(false);
        };
        let before = own.len();
        own.retain(|p| p.id != id);
        if own.len() == before {
            return Ok(false);
        }
        if own.is_empty() {
            passkeys.by_person.remove(sub);
        }
        passkeys.owners.remove(id);
        Ok(true)
    }

    async fn delete_passkeys(&self, sub: &str) -> Result<u64, StoreError> {
        let (mut state, _) = self.lock();
        let passkeys = &mut state.passkeys;
        let own = passkeys.by_person.remove(sub).unwrap_or_default();
        for record in &own {
            passkeys.owners.remove(&record.id);
        }
        Ok(own.len() as u64)
    }
}
