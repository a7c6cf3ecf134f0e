//! The generated OpenID Connect signing key set in the memory store.

use super::MemoryStore;
use crate::store::{KeyStore, StoreError};
use async_trait::async_trait;

#[async_trait]
impl KeyStore for MemoryStore {
    async fn signing_keys(&self) -> Result<Option<String>, StoreError> {
        Ok(self.lock().0.signing_keys.clone())
    }

    async fn signing_keys_or_insert(&self, keys: &str) -> Result<String, StoreError> {
        Ok(self
            .lock()
            .0
            .signing_keys
            .get_or_insert_with(|| keys.to_owned())
            .clone())
    }

    async fn replace_signing_keys(&self, expected: &str, keys: &str) -> Result<bool, StoreError> {
        let (mut state, _) = self.lock();
        if state.signing_keys.as_deref() != Some(expected) {
            return Ok(false);
        }
        state.signing_keys = Some(keys.to_owned());
        Ok(true)
    }
}
