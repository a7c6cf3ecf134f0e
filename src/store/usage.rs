//! The marks of when apps were used, written once for both backends as short-lived records
//! (in Redis, strings with an expiry under `{p}lastused:<client id>` and
//! `{p}appuse:<sub>\n<client id>`); the audit log and each app's recent failures are each
//! backend's own ([`AuditBackend`]).

use super::namespace::{consent_key, mark_app_use, per_app, Namespace, Records};
use super::{
    AppUse, AuditFrom, AuditIndex, AuditPage, AuditRecord, AuditStore, DoctorEntry, StoreError,
};
use crate::clock::UnixTime;
use crate::domain::ClientId;
use async_trait::async_trait;

/// How a backend keeps what needs more than a short-lived record: the methods of
/// [`AuditStore`] of the same names.
#[async_trait]
pub(super) trait AuditBackend: Send + Sync {
    async fn append_audit(
        &self,
        record: &AuditRecord,
        retention: u64,
        keep: usize,
    ) -> Result<(), StoreError>;
    async fn audit_events(
        &self,
        under: &[AuditIndex],
        from: AuditFrom,
        limit: usize,
    ) -> Result<AuditPage, StoreError>;
    async fn push_failure(
        &self,
        id: &ClientId,
        entry: &DoctorEntry,
        keep: usize,
        ttl: u64,
    ) -> Result<(), StoreError>;
    async fn failures(&self, id: &ClientId) -> Result<Vec<DoctorEntry>, StoreError>;
}

#[async_trait]
impl<T: Records + AuditBackend> AuditStore for T {
    async fn append_audit(
        &self,
        record: &AuditRecord,
        retention: u64,
        keep: usize,
    ) -> Result<(), StoreError> {
        AuditBackend::append_audit(self, record, retention, keep).await
    }

    async fn audit_events(
        &self,
        under: &[AuditIndex],
        from: AuditFrom,
        limit: usize,
    ) -> Result<AuditPage, StoreError> {
        AuditBackend::audit_events(self, under, from, limit).await
    }

    async fn push_failure(
        &self,
        id: &ClientId,
        entry: &DoctorEntry,
        keep: usize,
        ttl: u64,
    ) -> Result<(), StoreError> {
        AuditBackend::push_failure(self, id, entry, keep, ttl).await
    }

    async fn failures(&self, id: &ClientId) -> Result<Vec<DoctorEntry>, StoreError> {
        AuditBackend::failures(self, id).await
    }

    async fn mark_used(&self, id: &ClientId, at: UnixTime, ttl: u64) -> Result<(), StoreError> {
        self.put_text(Namespace::AppLastUsed, id.as_str(), at.to_string(), ttl)
            .await
    }

    async fn last_used(&self, id: &ClientId) -> Result<Option<UnixTime>, StoreError> {
        let mark = self.text(Namespace::AppLastUsed, id.as_str()).await?;
        Ok(mark.and_then(|t| t.parse().ok()))
    }

    async fn mark_app_use(
        &self,
        sub: &str,
        client: &ClientId,
        at: UnixTime,
        ttl: u64,
    ) -> Result<(), StoreError> {
        mark_app_use(self, sub, client, at, ttl).await
    }

    async fn app_uses(
        &self,
        sub: &str,
        clients: &[ClientId],
    ) -> Result<Vec<(ClientId, AppUse)>, StoreError> {
        per_app(self, Namespace::AppUse, sub, clients, "app use").await
    }

    async fn forget_app_use(&self, sub: &str, client: &ClientId) -> Result<(), StoreError> {
        self.remove(Namespace::AppUse, &consent_key(sub, client))
            .await
            .map(drop)
    }
}
