//! SSO sessions, pending authorize requests and remembered consents in the memory store.

use super::MemoryStore;
use crate::domain::{ClientId, Digest, ScopeSet};
use crate::store::namespace::{consent_key, Namespace, Records};
use crate::store::{PendingRequest, SessionRecord, SessionStore, StoreError};
use async_trait::async_trait;

#[async_trait]
impl SessionStore for MemoryStore {
    async fn put_session(
        &self,
        id: &Digest,
        session: &SessionRecord,
        ttl: u64,
    ) -> Result<(), StoreError> {
        self.put_record(Namespace::Session, id.as_hex(), "session", session, ttl)
            .await
    }

    async fn session(&self, id: &Digest) -> Result<Option<SessionRecord>, StoreError> {
        self.record(Namespace::Session, id.as_hex(), "session")
            .await
    }

    async fn delete_session(&self, id: &Digest) -> Result<(), StoreError> {
        self.remove(Namespace::Session, id.as_hex()).await.map(drop)
    }

    async fn put_pending(
        &self,
        id: &str,
        pending: &PendingRequest,
        ttl: u64,
    ) -> Result<(), StoreError> {
        self.put_record(Namespace::AuthRequest, id, "pending request", pending, ttl)
            .await
    }

    async fn pending(&self, id: &str) -> Result<Option<PendingRequest>, StoreError> {
        self.record(Namespace::AuthRequest, id, "pending request")
            .await
    }

    async fn finish_pending(&self, id: &str) -> Result<bool, StoreError> {
        self.remove(Namespace::AuthRequest, id).await
    }

    async fn consent(&self, sub: &str, client: &ClientId) -> Result<Option<ScopeSet>, StoreError> {
        let key = consent_key(sub, client);
        self.record(Namespace::Consent, &key, "consent").await
    }

    async fn put_consent(
        &self,
        sub: &str,
        client: &ClientId,
        scopes: &ScopeSet,
        ttl: u64,
    ) -> Result<(), StoreError> {
        let key = consent_key(sub, client);
        self.put_record(Namespace::Consent, &key, "consent", scopes, ttl)
            .await
    }
}
