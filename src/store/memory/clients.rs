//! Registered apps in the memory store.

use super::MemoryStore;
use crate::domain::{ClientId, ClientRecord};
use crate::store::{ClientStore, Replaced, StoreError};
use async_trait::async_trait;

#[async_trait]
impl ClientStore for MemoryStore {
    async fn put_client(&self, client: &ClientRecord) -> Result<(), StoreError> {
        let (mut state, _) = self.lock();
        state
            .clients
            .insert(client.client_id.clone(), client.clone());
        Ok(())
    }

    async fn replace_client(&self, client: &ClientRecord) -> Result<Replaced, StoreError> {
        let (mut state, _) = self.lock();
        let Some(stored) = state.clients.get_mut(&client.client_id) else {
            return Ok(Replaced::Gone);
        };
        if stored.revision.saturating_add(1) != client.revision {
            return Ok(Replaced::Stale(Box::new(stored.clone())));
        }
        *stored = client.clone();
        Ok(Replaced::Done)
    }

    async fn client(&self, id: &ClientId) -> Result<Option<ClientRecord>, StoreError> {
        let (state, _) = self.lock();
        Ok(state.clients.get(id).cloned())
    }

    async fn clients(&self) -> Result<Vec<ClientRecord>, StoreError> {
        let (state, _) = self.lock();
        Ok(state.clients.values().cloned().collect())
    }

    async fn delete_client(&self, id: &ClientId) -> Result<(), StoreError> {
        self.lock().0.clients.remove(id);
        Ok(())
    }
}
