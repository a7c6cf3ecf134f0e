//! Decorators of the store: a type that holds another store and does something around each of
//! its operations (times it for the metrics, `crate::telemetry::store`) implements every
//! capability with [`decorate!`], which hands each call on to the store it holds. The list of
//! operations is written here once: a capability method added to the store is added to this list
//! and every decorator hands it on (a method with a default body must be listed all the same, or
//! the default answers instead of the store).

/// Implements [`Ping`](crate::store::Ping) and every capability trait of the store for
/// `$decorator`, a type with a field `inner: Arc<dyn Store>` and a method
/// `async fn $around<T>(&self, operation: &'static str, call: impl Future<Output = Result<T,
/// StoreError>>) -> Result<T, StoreError>`: each operation is the same operation of `inner`,
/// run through `$around` under its own name.
macro_rules! decorate {
    ($decorator:ty, $around:ident) => {
        // A block of its own, so that the names the operations use need no import where the
        // decorator is declared.
        const _: () = {
        use $crate::clock::UnixTime;
        use $crate::domain::{ClientId, ClientRecord, Digest, ScopeSet};
        use $crate::store::*;

        #[async_trait::async_trait]
        impl $crate::store::Ping for $decorator {
            async fn ping(&self) -> Result<(), $crate::store::StoreError> {
                self.$around("ping", self.inner.ping()).await
            }

            fn pool(&self) -> Option<$crate::domain::PoolUsage> {
                self.inner.pool()
            }
        }

        $crate::store::decorator::capability!($decorator, $around, ClientStore {
            fn put_client(client: &ClientRecord) -> ();
            fn replace_client(client: &ClientRecord) -> Replaced;
            fn client(id: &ClientId) -> Option<ClientRecord>;
            fn clients() -> Vec<ClientRecord>;
            fn delete_client(id: &ClientId) -> ();
        });

        $crate::store::decorator::capability!($decorator, $around, GrantStore {
            fn put_code(code: &Digest, record: &CodeRecord, ttl: u64) -> ();
            fn put_code_finishing(
                code: &Digest,
                record: &CodeRecord,
                ttl: u64,
                id: &str,
                pending: &PendingRequest
            ) -> bool;
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
            fn revoke_user_codes(sub: &str, client: &ClientId) -> u64;
            fn revoke_session(sid: &str) -> Vec<ClientId>;
            fn user_grants(sub: &str) -> Vec<UserGrant>;
        });

        $crate::store::decorator::capability!($decorator, $around, SessionStore {
            fn put_session(id: &Digest, session: &SessionRecord, ttl: u64) -> ();
            fn session(id: &Digest) -> Option<SessionRecord>;
            fn delete_session(id: &Digest) -> ();
            fn end_sessions(sub: &str) -> EndedSessions;
            fn user_sessions(sub: &str) -> Vec<(Digest, SessionRecord)>;
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
            fn consents(sub: &str, clients: &[ClientId]) -> Vec<(ClientId, ScopeSet)>;
            fn delete_consent(sub: &str, client: &ClientId) -> bool;
        });

        $crate::store::decorator::capability!($decorator, $around, AdminSessionStore {
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

        $crate::store::decorator::capability!($decorator, $around, SecondFactorStore {
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

        $crate::store::decorator::capability!($decorator, $around, PasskeyStore {
            fn add_passkey(sub: &str, record: &PasskeyRecord, max: usize) -> PasskeyAdded;
            fn passkeys(sub: &str) -> Vec<PasskeyRecord>;
            fn passkey_owner(id: &str) -> Option<String>;
            fn update_passkey(sub: &str, record: &PasskeyRecord) -> bool;
            fn delete_passkey(sub: &str, id: &str) -> bool;
            fn delete_passkeys(sub: &str) -> u64;
        });

        $crate::store::decorator::capability!($decorator, $around, CeremonyStore {
            fn put_ceremony(key: &str, state: &str, ttl: u64) -> ();
            fn take_ceremony(key: &str) -> Option<String>;
        });

        $crate::store::decorator::capability!($decorator, $around, LimitStore {
            fn add_attempt(windows: &[(String, u64)], id: &str, now: UnixTime) -> Vec<AttemptCount>;
            fn fail_attempt(keys: &[String], id: &str, now: UnixTime) -> ();
            fn remove_attempt(keys: &[String], id: &str) -> ();
            fn clear_attempts(key: &str) -> ();
            fn note_lockout(key: &str, ttl: u64) -> bool;
        });

        $crate::store::decorator::capability!($decorator, $around, AuditStore {
            fn append_audit(record: &AuditRecord, retention: u64, keep: usize) -> ();
            fn audit_events(under: &[AuditIndex], from: AuditFrom, limit: usize) -> AuditPage;
            fn push_failure(id: &ClientId, entry: &DoctorEntry, keep: usize, ttl: u64) -> ();
            fn failures(id: &ClientId) -> Vec<DoctorEntry>;
            fn mark_used(id: &ClientId, at: UnixTime, ttl: u64) -> ();
            fn last_used(id: &ClientId) -> Option<UnixTime>;
            fn mark_app_use(sub: &str, client: &ClientId, at: UnixTime, ttl: u64) -> ();
            fn app_uses(sub: &str, clients: &[ClientId]) -> Vec<(ClientId, AppUse)>;
            fn forget_app_use(sub: &str, client: &ClientId) -> ();
        });

        $crate::store::decorator::capability!($decorator, $around, LogoutQueue {
            fn put_logout(job: &LogoutJob, due: UnixTime, ttl: u64) -> ();
            fn claim_logouts(now: UnixTime, lease: u64, max: usize) -> Vec<LogoutJob>;
            fn delete_logout(id: &str) -> ();
        });

        $crate::store::decorator::capability!($decorator, $around, KeyStore {
            fn signing_keys() -> Option<String>;
            fn signing_keys_or_insert(keys: &str) -> String;
            fn replace_signing_keys(expected: &str, keys: &str) -> bool;
        });
        };
    };
}

/// One capability trait of [`decorate!`]: each method runs the same method of `self.inner`
/// through `$around`.
macro_rules! capability {
    ($decorator:ty, $around:ident, $capability:ident {
        $(fn $op:ident($($arg:ident: $ty:ty),*) -> $out:ty;)*
    }) => {
        #[async_trait::async_trait]
        impl $crate::store::$capability for $decorator {
            $(
                async fn $op(&self, $($arg: $ty),*) -> Result<$out, $crate::store::StoreError> {
                    self.$around(stringify!($op), self.inner.$op($($arg),*)).await
                }
            )*
        }
    };
}

pub(crate) use capability;
pub(crate) use decorate;
