//! SSO sessions, pending authorize requests and remembered consents, written once for both
//! backends where they are short-lived records (reading a session or a pending request, ending
//! a session, every consent); what keeps a session in its user's index and a pending request in
//! its bounded groups is each backend's own ([`SessionBackend`]).

use super::namespace::{consent_key, per_app, Namespace, Records};
use super::{
    EndedSessions, PendingBound, PendingLimits, PendingPut, PendingRequest, SessionRecord,
    SessionStore, StoreError,
};
use crate::domain::{ClientId, Digest, ScopeSet};
use async_trait::async_trait;

/// How a backend keeps what needs more than a short-lived record: the methods of
/// [`SessionStore`] of the same names.
#[async_trait]
pub(super) trait SessionBackend: Send + Sync {
    async fn put_session(
        &self,
        id: &Digest,
        session: &SessionRecord,
        ttl: u64,
    ) -> Result<(), StoreError>;
    async fn end_sessions(&self, sub: &str) -> Result<EndedSessions, StoreError>;
    async fn user_sessions(&self, sub: &str) -> Result<Vec<(Digest, SessionRecord)>, StoreError>;
    async fn put_pending(
        &self,
        id: &str,
        pending: &PendingRequest,
        ttl: u64,
        bounds: &[PendingBound],
        limits: PendingLimits,
    ) -> Result<PendingPut, StoreError>;
    async fn finish_pending(&self, id: &str, pending: &PendingRequest) -> Result<bool, StoreError>;
}

#[async_trait]
impl<T: Records + SessionBackend> SessionStore for T {
    async fn put_session(
        &self,
        id: &Digest,
        session: &SessionRecord,
        ttl: u64,
    ) -> Result<(), StoreError> {
        SessionBackend::put_session(self, id, session, ttl).await
    }

    async fn end_sessions(&self, sub: &str) -> Result<EndedSessions, StoreError> {
        SessionBackend::end_sessions(self, sub).await
    }

    async fn user_sessions(&self, sub: &str) -> Result<Vec<(Digest, SessionRecord)>, StoreError> {
        SessionBackend::user_sessions(self, sub).await
    }

    async fn put_pending(
        &self,
        id: &str,
        pending: &PendingRequest,
        ttl: u64,
        bounds: &[PendingBound],
        limits: PendingLimits,
    ) -> Result<PendingPut, StoreError> {
        SessionBackend::put_pending(self, id, pending, ttl, bounds, limits).await
    }

    async fn finish_pending(&self, id: &str, pending: &PendingRequest) -> Result<bool, StoreError> {
        SessionBackend::finish_pending(self, id, pending).await
    }

    async fn session(&self, id: &Digest) -> Result<Option<SessionRecord>, StoreError> {
        self.record(Namespace::Session, id.as_hex(), "session")
            .await
    }

    async fn delete_session(&self, id: &Digest) -> Result<(), StoreError> {
        self.remove(Namespace::Session, id.as_hex()).await.map(drop)
    }

    async fn pending(&self, id: &str) -> Result<Option<PendingRequest>, StoreError> {
        self.record(Namespace::AuthRequest, id, "pending request")
            .await
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

    async fn consents(
        &self,
        sub: &str,
        clients: &[ClientId],
    ) -> Result<Vec<(ClientId, ScopeSet)>, StoreError> {
        per_app(self, Namespace::Consent, sub, clients, "consent").await
    }

    async fn delete_consent(&self, sub: &str, client: &ClientId) -> Result<bool, StoreError> {
        self.remove(Namespace::Consent, &consent_key(sub, client))
            .await
    }
}
