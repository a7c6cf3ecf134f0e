//! SSO sessions, pending authorize requests and remembered consents in Redis: strings with an
//! expiry under `{p}sess:<session digest>`, `{p}authreq:<request id>` and
//! `{p}consent:<sub>\n<client id>`; `{p}user-sessions:<sub>`, a sorted set (EXPIRE) of the full
//! keys of a user's sessions by expiry, written by a script together with each session (earlier
//! versions kept a plain set, `{p}usersess:<sub>`, which ending the sessions reads too); and
//! `{p}pendby:<group>`, a sorted set (EXPIRE) of the full keys of a group's pending requests
//! scored by their expiry in microseconds, written by a script together with each request.

use super::{Keys, RedisStore, Request};
use crate::domain::{ClientId, Digest, ScopeSet};
use crate::store::codec::encode;
use crate::store::namespace::{consent_key, Namespace, Records};
use crate::store::{PendingBound, PendingRequest, SessionRecord, SessionStore, StoreError};
use async_trait::async_trait;

impl Keys {
    /// Index of a user's sessions.
    fn user_sessions(&self, sub: &str) -> String {
        format!("{}user-sessions:{sub}", self.prefix)
    }

    /// What earlier versions kept as [`Keys::user_sessions`].
    fn earlier_user_sessions(&self, sub: &str) -> String {
        format!("{}usersess:{sub}", self.prefix)
    }

    /// A bounded group of pending requests.
    fn pending_group(&self, group: &str) -> String {
        format!("{}pendby:{group}", self.prefix)
    }
}

#[async_trait]
impl SessionStore for RedisStore {
    async fn put_session(
        &self,
        id: &Digest,
        session: &SessionRecord,
        ttl: u64,
    ) -> Result<(), StoreError> {
        // One script, so no session is ever live outside its user's index.
        let key = self.keys.record(Namespace::Session, id.as_hex());
        let mut call = self.scripts.put_session.key(key);
        call.key(self.keys.user_sessions(session.claims.sub()))
            .arg(encode("session", session)?)
            .arg(ttl);
        let _: i64 = self.call(Request::Script(&call)).await?;
        Ok(())
    }

    async fn session(&self, id: &Digest) -> Result<Option<SessionRecord>, StoreError> {
        self.record(Namespace::Session, id.as_hex(), "session")
            .await
    }

    async fn delete_session(&self, id: &Digest) -> Result<(), StoreError> {
        self.remove(Namespace::Session, id.as_hex()).await.map(drop)
    }

    async fn end_sessions(&self, sub: &str) -> Result<u64, StoreError> {
        let mut call = self.scripts.end_sessions.key(self.keys.user_sessions(sub));
        call.key(self.keys.earlier_user_sessions(sub)).arg(sub);
        self.call(Request::Script(&call)).await
    }

    async fn put_pending(
        &self,
        id: &str,
        pending: &PendingRequest,
        ttl: u64,
        bounds: &[PendingBound],
    ) -> Result<(), StoreError> {
        let mut call = self
            .scripts
            .put_pending
            .key(self.keys.record(Namespace::AuthRequest, id));
        for bound in bounds {
            call.key(self.keys.pending_group(&bound.group));
        }
        call.arg(encode("pending request", pending)?).arg(ttl);
        for bound in bounds {
            call.arg(bound.max);
        }
        call.arg(self.keys.pending_group(""));
        let _: i64 = self.call(Request::Script(&call)).await?;
        Ok(())
    }

    async fn pending(&self, id: &str) -> Result<Option<PendingRequest>, StoreError> {
        self.record(Namespace::AuthRequest, id, "pending request")
            .await
    }

    async fn finish_pending(&self, id: &str, pending: &PendingRequest) -> Result<bool, StoreError> {
        let mut call = self
            .scripts
            .finish_pending
            .key(self.keys.record(Namespace::AuthRequest, id));
        for group in &pending.groups {
            call.key(self.keys.pending_group(group));
        }
        let deleted: i64 = self.call(Request::Script(&call)).await?;
        Ok(deleted > 0)
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
