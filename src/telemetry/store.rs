//! The store, timed: a decorator that records each operation's latency and failure in
//! [`Metrics`] under the name of its method, and otherwise hands everything to the store it
//! wraps. The backends stay free of metrics; a capability method added to the store has to be
//! added here too (the compiler says so, unless it has a default body: then it must be handed
//! on here all the same, or the default answers instead of the store).

use super::Metrics;
use crate::clock::UnixTime;
use crate::domain::{ClientId, ClientRecord, Digest, PoolUsage, ScopeSet};
use crate::store::{
    AccessRecord, AdminSession, AdminSessionStore, AttemptCount, AuditFrom, AuditIndex, AuditPage,
    AuditRecord, AuditStore, ClientStore, CodeRecord, DoctorEntry, EndedSessions, EnrolmentRecord,
    GrantStore, HalfwaySignIn, Issuance, KeyStore, LimitStore, LogoutJob, LogoutQueue,
    PendingBound, PendingLimits, PendingPut, PendingRequest, Ping, Redemption, RefreshRecord,
    Replaced, Rotation, ScreenSignIn, SecondFactorStore, SessionRecord, SessionStore, Store,
    StoreError, StoredCode, StoredRefresh,
};
use async_trait::async_trait;
use std::future::Future;
use std::sync::Arc;
use std::time::Instant;

/// A store whose every operation is timed.
pub struct MeteredStore {
    inner: Arc<dyn Store>,
    metrics: Arc<Metrics>,
}

impl MeteredStore {
    /// Times the operations of `inner` into `metrics`.
    pub fn new(inner: Arc<dyn Store>, metrics: Arc<Metrics>) -> Self {
        Self { inner, metrics }
    }

    async fn timed<T>(
        &self,
        operation: &'static str,
        call: impl Future<Output = Result<T, StoreError>>,
    ) -> Result<T, StoreError> {
        let started = Instant::now();
        let result = call.await;
        self.metrics
            .store_operation(operation, started.elapsed(), result.is_err());
        result
    }
}

/// Implements a capability trait for [`MeteredStore`]: each method times the same method of
/// the wrapped store under its own name.
macro_rules! timed {
    ($capability:ident { $(fn $op:ident($($arg:ident: $ty:ty),*) -> $out:ty;)* }) => {
        #[async_trait]
        impl $capability for MeteredStore {
            $(
                async fn $op(&self, $($arg: $ty),*) -> Result<$out, StoreError> {
                    self.timed(stringify!($op), self.inner.$op($($arg),*)).await
                }
            )*
        }
    };
}

#[async_trait]
impl Ping for MeteredStore {
    async fn ping(&self) -> Result<(), StoreError> {
        self.timed("ping", self.inner.ping()).await
    }

    fn pool(&self) -> Option<PoolUsage> {
        self.inner.pool()
    }
}

timed!(ClientStore {
    fn put_client(client: &ClientRecord) -> ();
    fn replace_client(client: &ClientRecord) -> Replaced;
    fn client(id: &ClientId) -> Option<ClientRecord>;
    fn clients() -> Vec<ClientRecord>;
    fn delete_client(id: &ClientId) -> ();
});

timed!(GrantStore {
    fn put_code(code: &Digest, record: &CodeRecord, ttl: u64) -> ();
    fn code(code: &Digest) -> Option<StoredCode>;
    fn code_to_redeem(code: &Digest) -> Option<StoredCode>;
    fn redeem_code(code: &Digest, issue: &Issuance) -> Redemption;
    fn access_token(token: &Digest) -> Option<AccessRecord>;
    fn refresh_token(token: &Digest) -> Option<StoredRefresh>;
    fn refresh_record(token: &Digest) -> Option<RefreshRecord>;
    fn rotate_refresh(
        old: &Digest,
        issue: &Issuance,
        sealed_successor: &str,
        now: UnixTime,
        grace: u64
    ) -> Rotation;
    fn revoke_grant(grant_id: &str) -> ();
    fn revoke_client(id: &ClientId) -> ();
    fn revoke_user(sub: &str) -> u64;
    fn revoke_session(sid: &str) -> Vec<ClientId>;
});

timed!(SessionStore {
    fn put_session(id: &Digest, session: &SessionRecord, ttl: u64) -> ();
    fn session(id: &Digest) -> Option<SessionRecord>;
    fn delete_session(id: &Digest) -> ();
    fn end_sessions(sub: &str) -> EndedSessions;
    fn put_pending(
        id: &str,
        pending: &PendingRequest,
        ttl: u64,
        bounds: &[PendingBound],
        limits: PendingLimits
    ) -> PendingPut;
    fn pending(id: &str) -> Option<PendingRequest>;
    fn finish_pending(id: &str, pending: &PendingRequest) -> bool;
    fn consent(sub: &str, client: &ClientId) -> Option<ScopeSet>;
    fn put_consent(sub: &str, client: &ClientId, scopes: &ScopeSet, ttl: u64) -> ();
});

timed!(AdminSessionStore {
    fn put_admin_token(token: &Digest, session: &AdminSession, ttl: u64) -> ();
    fn admin_token(token: &Digest) -> Option<AdminSession>;
    fn delete_admin_token(token: &Digest) -> ();
    fn put_screen_sign_in(session: &Digest, sign_in: &ScreenSignIn, ttl: u64) -> ();
    fn screen_sign_in(session: &Digest) -> Option<ScreenSignIn>;
    fn delete_screen_sign_in(session: &Digest) -> ();
    fn put_halfway_sign_in(login: &Digest, sign_in: &HalfwaySignIn, ttl: u64) -> ();
    fn halfway_sign_in(login: &Digest) -> Option<HalfwaySignIn>;
    fn delete_halfway_sign_in(login: &Digest) -> ();
    fn end_admin_sessions(sub: &str) -> u64;
});

timed!(SecondFactorStore {
    fn put_second_factor(sub: &str, record: &EnrolmentRecord, recovery: &[Digest]) -> ();
    fn second_factor(sub: &str) -> Option<EnrolmentRecord>;
    fn use_recovery_code(sub: &str, code: &Digest) -> bool;
    fn recovery_codes_left(sub: &str) -> u64;
    fn delete_second_factor(sub: &str) -> bool;
    fn put_setup(sub: &str, holder: &str, sealed_secret: &str, ttl: u64) -> ();
    fn setup(sub: &str, holder: &str) -> Option<String>;
    fn delete_setup(sub: &str, holder: &str) -> ();
    fn spend_otp_step(sub: &str, authenticator: &str, step: u64, ttl: u64) -> bool;
});

timed!(LimitStore {
    fn add_attempt(windows: &[(String, u64)], id: &str, now: UnixTime) -> Vec<AttemptCount>;
    fn fail_attempt(keys: &[String], id: &str, now: UnixTime) -> ();
    fn remove_attempt(keys: &[String], id: &str) -> ();
    fn clear_attempts(key: &str) -> ();
    fn note_lockout(key: &str, ttl: u64) -> bool;
});

timed!(AuditStore {
    fn append_audit(record: &AuditRecord, retention: u64, keep: usize) -> ();
    fn audit_events(under: &[AuditIndex], from: AuditFrom, limit: usize) -> AuditPage;
    fn push_failure(id: &ClientId, entry: &DoctorEntry, keep: usize, ttl: u64) -> ();
    fn failures(id: &ClientId) -> Vec<DoctorEntry>;
    fn mark_used(id: &ClientId, at: UnixTime, ttl: u64) -> ();
    fn last_used(id: &ClientId) -> Option<UnixTime>;
});

timed!(LogoutQueue {
    fn put_logout(job: &LogoutJob, due: UnixTime, ttl: u64) -> ();
    fn claim_logouts(now: UnixTime, lease: u64, max: usize) -> Vec<LogoutJob>;
    fn delete_logout(id: &str) -> ();
});

timed!(KeyStore {
    fn signing_keys() -> Option<String>;
    fn signing_keys_or_insert(keys: &str) -> String;
    fn replace_signing_keys(expected: &str, keys: &str) -> bool;
});
