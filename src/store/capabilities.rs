//! The capability traits: one per kind of thing the store keeps, so that a caller can ask for
//! exactly what it uses and a backend implements each in its own file.
//!
//! TTLs are in seconds and always greater than zero. `now` arguments are Unix seconds from the
//! application clock.

use super::{
    AccessRecord, AdminSession, AppUse, AuditFrom, AuditIndex, AuditPage, AuditRecord, CodeRecord,
    DoctorEntry, EndedSessions, EnrolmentRecord, HalfwaySignIn, Issuance, LogoutJob, PasskeyAdded,
    PasskeyRecord, PendingBound, PendingLimits, PendingPut, PendingRequest, Redemption,
    RefreshRecord, Rotation, ScreenSignIn, SessionRecord, StoreError, StoredCode, StoredRefresh,
    UserGrant,
};
use crate::clock::UnixTime;
use crate::domain::{ClientId, ClientRecord, Digest, PoolUsage, ScopeSet};
use async_trait::async_trait;

/// Whether the store can be reached at all, and how busy its connections are.
#[async_trait]
pub trait Ping: Send + Sync {
    /// Answers whether the store is reachable (readiness probe).
    async fn ping(&self) -> Result<(), StoreError>;
    /// Its connection pool now; `None` for a store without one (memory).
    fn pool(&self) -> Option<PoolUsage> {
        None
    }
}

/// Registered apps. Clients never expire.
#[async_trait]
pub trait ClientStore: Send + Sync {
    /// Inserts or replaces a client.
    async fn put_client(&self, client: &ClientRecord) -> Result<(), StoreError>;
    /// Writes a change to a client, made from its revision `client.revision - 1`: only if
    /// that is still the stored one (compare and set), else answers what is stored now. One
    /// atomic step, shared by every node.
    async fn replace_client(&self, client: &ClientRecord) -> Result<Replaced, StoreError>;
    /// Reads a client.
    async fn client(&self, id: &ClientId) -> Result<Option<ClientRecord>, StoreError>;
    /// Every client, in no particular order.
    async fn clients(&self) -> Result<Vec<ClientRecord>, StoreError>;
    /// Deletes a client record; deleting an absent client is not an error. Its codes and
    /// tokens are left to [`GrantStore::revoke_client`].
    async fn delete_client(&self, id: &ClientId) -> Result<(), StoreError>;
}

/// How a change to a client went.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Replaced {
    /// Written.
    Done,
    /// Not written: the client changed since the revision the change was made from; this is
    /// it now.
    Stale(Box<ClientRecord>),
    /// Not written: the client is gone.
    Gone,
}

/// Authorization codes, access and refresh tokens, the grants (token families) they form, and
/// their revocation.
///
/// `put_code`, `redeem_code` and `rotate_refresh` also index what they write under the client
/// (`CodeRecord::client_id`, `AccessRecord::client_id`), under the user (the `sub` of
/// `CodeRecord::claims`, `RefreshRecord::sub`) and under the SSO session it came from
/// (`CodeRecord::sid`, `RefreshRecord::sid`, when set), in the same atomic step, so that
/// `revoke_client` finds every live code and token of an app, `revoke_user` every live code
/// and token of a person and `revoke_session` every code and grant of a session.
#[async_trait]
pub trait GrantStore: Send + Sync {
    /// Stores a fresh, unconsumed code under its digest, expiring after `ttl` seconds.
    async fn put_code(
        &self,
        code: &Digest,
        record: &CodeRecord,
        ttl: u64,
    ) -> Result<(), StoreError>;
    /// Ends pending request `id` as [`SessionStore::finish_pending`] does and, in the same
    /// atomic step, stores the code that answers it as [`GrantStore::put_code`] does, only if
    /// the request was still there: of concurrent calls for one request, at most one stores
    /// its code and gets `true`.
    async fn put_code_finishing(
        &self,
        code: &Digest,
        record: &CodeRecord,
        ttl: u64,
        id: &str,
        pending: &PendingRequest,
    ) -> Result<bool, StoreError>;
    /// Reads a code without consuming it; `None` if absent or expired.
    async fn code(&self, code: &Digest) -> Result<Option<StoredCode>, StoreError>;
    /// A code, for an exchange: whether it is still unconsumed and live is for
    /// [`GrantStore::redeem_code`] to say, in its atomic step. So a backend may answer from a
    /// copy of what it issued, as not consumed; `None` means no such code.
    async fn code_to_redeem(&self, code: &Digest) -> Result<Option<StoredCode>, StoreError> {
        self.code(code).await
    }
    /// Redeems a code atomically.
    ///
    /// - absent or expired: [`Redemption::NotFound`], nothing written;
    /// - already consumed: the grant it issued is revoked ([`GrantStore::revoke_grant`]
    ///   semantics) and [`Redemption::Replayed`] returned, nothing else written;
    /// - otherwise: the code is marked consumed by `issue.grant_id` *keeping its remaining TTL*
    ///   (so a later replay can still find the grant), `issue` is written, and
    ///   [`Redemption::Issued`] returned.
    ///
    /// Of any number of concurrent calls for one code, at most one gets `Issued`.
    async fn redeem_code(&self, code: &Digest, issue: &Issuance) -> Result<Redemption, StoreError>;
    /// Reads an access token; `None` if absent, expired or revoked. One store round trip.
    async fn access_token(&self, token: &Digest) -> Result<Option<AccessRecord>, StoreError>;
    /// Reads a refresh token and its rotation state without changing it.
    async fn refresh_token(&self, token: &Digest) -> Result<Option<StoredRefresh>, StoreError>;
    /// The record a refresh token was issued with, for a refresh: whether the token is still
    /// live is for [`GrantStore::rotate_refresh`] to say, in its atomic step. So a backend may
    /// answer from a copy of what it issued; `None` means no such token.
    async fn refresh_record(&self, token: &Digest) -> Result<Option<RefreshRecord>, StoreError> {
        Ok(self.refresh_token(token).await?.map(|stored| stored.record))
    }
    /// Rotates a refresh token atomically.
    ///
    /// - absent, expired or revoked: [`Rotation::NotFound`];
    /// - active: marked rotated at `now` with `sealed_successor` kept beside it (the old
    ///   record keeps its remaining TTL), `issue` written, [`Rotation::Rotated`];
    /// - rotated at most `grace` seconds before `now`: nothing written,
    ///   [`Rotation::Grace`] with the sealed successor stored by the rotation;
    /// - rotated longer ago: the whole grant (`old`'s family) is revoked, [`Rotation::Reused`].
    async fn rotate_refresh(
        &self,
        old: &Digest,
        issue: &Issuance,
        sealed_successor: &str,
        now: UnixTime,
        grace: u64,
    ) -> Result<Rotation, StoreError>;
    /// Deletes every access and refresh token issued under a grant. Idempotent.
    async fn revoke_grant(&self, grant_id: &str) -> Result<(), StoreError>;
    /// Deletes every code and every access and refresh token issued to a client. Idempotent.
    async fn revoke_client(&self, id: &ClientId) -> Result<(), StoreError>;
    /// Deletes every code and every access and refresh token issued to the user `sub`, for
    /// every app; answers how many grants (token families) were still live. Idempotent.
    async fn revoke_user(&self, sub: &str) -> Result<u64, StoreError>;
    /// Deletes every code issued to the user `sub` for the app `client` and not exchanged yet,
    /// leaving their tokens alone; answers how many. Idempotent.
    async fn revoke_user_codes(&self, sub: &str, client: &ClientId) -> Result<u64, StoreError>;
    /// Deletes every token of the grants begun in the SSO session `sid` and its codes not yet
    /// redeemed, and forgets the session's index; answers the apps that got tokens in it, each
    /// once, in no particular order. One atomic step: of concurrent calls for one session, one
    /// answers the apps and the others none.
    async fn revoke_session(&self, sid: &str) -> Result<Vec<ClientId>, StoreError>;
    /// The live grants of the user `sub`, for every app, each with its newest refresh token
    /// still kept, found through the user's index (grants begun before it existed are not).
    /// In no particular order.
    async fn user_grants(&self, sub: &str) -> Result<Vec<UserGrant>, StoreError>;
}

/// The browser side of sign-on: SSO sessions, authorize requests waiting for sign-in or
/// consent, and remembered consents. Everything here expires by itself.
#[async_trait]
pub trait SessionStore: Send + Sync {
    /// Writes a session under the digest of its cookie value, replacing any previous one,
    /// expiring after `ttl` seconds, and indexes it under its user (the `sub` of its claims) in
    /// the same atomic step, for [`SessionStore::end_sessions`].
    async fn put_session(
        &self,
        id: &Digest,
        session: &SessionRecord,
        ttl: u64,
    ) -> Result<(), StoreError>;
    /// Reads a session; `None` if absent or expired.
    async fn session(&self, id: &Digest) -> Result<Option<SessionRecord>, StoreError>;
    /// Ends a session; ending an absent one is not an error.
    async fn delete_session(&self, id: &Digest) -> Result<(), StoreError>;
    /// Ends every live session of the user `sub`; answers how many there were, and their
    /// public ids. Idempotent.
    async fn end_sessions(&self, sub: &str) -> Result<EndedSessions, StoreError>;
    /// Every live session of the user `sub`, with the digest it is kept under, found through
    /// the user's index: only sessions whose claims name `sub`. In no particular order.
    async fn user_sessions(&self, sub: &str) -> Result<Vec<(Digest, SessionRecord)>, StoreError>;
    /// Writes a pending authorize request under its id, expiring after `ttl` seconds, as a
    /// member of each group of `bounds`, unless the store already holds `limits` of pending
    /// requests ([`PendingPut::StoreFull`]) or a refusing group is full
    /// ([`PendingPut::GroupFull`]); an evicting group then over its maximum loses its oldest
    /// members, which end as if finished. One atomic step, so concurrent writes cannot push a
    /// group or the store past its bound. The load counts every live request written with
    /// `admitted_at`, filed by the minute it names.
    async fn put_pending(
        &self,
        id: &str,
        pending: &PendingRequest,
        ttl: u64,
        bounds: &[PendingBound],
        limits: PendingLimits,
    ) -> Result<PendingPut, StoreError>;
    /// Reads a pending request; `None` if absent, expired or finished.
    async fn pending(&self, id: &str) -> Result<Option<PendingRequest>, StoreError>;
    /// Ends a pending request, taking it out of its groups (`pending.groups`), and answers
    /// whether it was still there: of concurrent calls for one request, at most one gets `true`.
    async fn finish_pending(&self, id: &str, pending: &PendingRequest) -> Result<bool, StoreError>;
    /// The scopes `sub` approved for `client`, if the approval is remembered.
    async fn consent(&self, sub: &str, client: &ClientId) -> Result<Option<ScopeSet>, StoreError>;
    /// Remembers that `sub` approved `scopes` for `client`, replacing what was remembered,
    /// for `ttl` seconds.
    async fn put_consent(
        &self,
        sub: &str,
        client: &ClientId,
        scopes: &ScopeSet,
        ttl: u64,
    ) -> Result<(), StoreError>;
    /// The remembered approvals of `sub` for any of `clients`, in one step; an approval that
    /// does not read back is left out.
    async fn consents(
        &self,
        sub: &str,
        clients: &[ClientId],
    ) -> Result<Vec<(ClientId, ScopeSet)>, StoreError>;
    /// Forgets that `sub` approved `client`; answers whether an approval was remembered.
    async fn delete_consent(&self, sub: &str, client: &ClientId) -> Result<bool, StoreError>;
}

/// What the admin API and screen keep: admin API tokens, admin screen sign-ins and sign-ins
/// waiting for their second factor. Everything here expires by itself.
#[async_trait]
pub trait AdminSessionStore: Send + Sync {
    /// Writes an admin API token's record under the token's digest, expiring after `ttl`
    /// seconds.
    async fn put_admin_token(
        &self,
        token: &Digest,
        session: &AdminSession,
        ttl: u64,
    ) -> Result<(), StoreError>;
    /// Reads an admin API token's record; `None` if absent or expired.
    async fn admin_token(&self, token: &Digest) -> Result<Option<AdminSession>, StoreError>;
    /// Ends an admin API token; ending an absent one is not an error.
    async fn delete_admin_token(&self, token: &Digest) -> Result<(), StoreError>;
    /// Writes an admin screen sign-in under the digest of the SSO session cookie, replacing
    /// any previous one, expiring after `ttl` seconds (written again on each request, so that
    /// it ends after `ttl` idle seconds).
    async fn put_screen_sign_in(
        &self,
        session: &Digest,
        sign_in: &ScreenSignIn,
        ttl: u64,
    ) -> Result<(), StoreError>;
    /// Reads an admin screen sign-in; `None` if absent or idle too long.
    async fn screen_sign_in(&self, session: &Digest) -> Result<Option<ScreenSignIn>, StoreError>;
    /// Ends an admin screen sign-in; ending an absent one is not an error.
    async fn delete_screen_sign_in(&self, session: &Digest) -> Result<(), StoreError>;
    /// Writes a sign-in whose second factor is due under the digest of the sign-in form's
    /// cookie, expiring after `ttl` seconds.
    async fn put_halfway_sign_in(
        &self,
        login: &Digest,
        sign_in: &HalfwaySignIn,
        ttl: u64,
    ) -> Result<(), StoreError>;
    /// Reads a sign-in waiting for its second factor; `None` if absent or expired.
    async fn halfway_sign_in(&self, login: &Digest) -> Result<Option<HalfwaySignIn>, StoreError>;
    /// Forgets a sign-in waiting for its second factor; forgetting an absent one is not an
    /// error.
    async fn delete_halfway_sign_in(&self, login: &Digest) -> Result<(), StoreError>;
    /// Ends every admin API token, admin screen sign-in and sign-in waiting for its second
    /// factor of the superadmin `sub`; answers how many were live.
    async fn end_admin_sessions(&self, sub: &str) -> Result<u64, StoreError>;
}

/// The second factor: enrolments with their recovery codes, authenticators being set up, and
/// the TOTP time steps already accepted.
#[async_trait]
pub trait SecondFactorStore: Send + Sync {
    /// Writes a user's enrolment (its secret already sealed) with the digests of its recovery
    /// codes, replacing any previous enrolment and codes in one step. Enrolments do not expire.
    async fn put_second_factor(
        &self,
        sub: &str,
        record: &EnrolmentRecord,
        recovery: &[Digest],
    ) -> Result<(), StoreError>;
    /// Reads a user's enrolment, `None` when the user has none.
    async fn second_factor(&self, sub: &str) -> Result<Option<EnrolmentRecord>, StoreError>;
    /// Spends a recovery code: `true` once per code, `false` for an unknown or spent one.
    async fn use_recovery_code(&self, sub: &str, code: &Digest) -> Result<bool, StoreError>;
    /// How many unspent recovery codes a user has.
    async fn recovery_codes_left(&self, sub: &str) -> Result<u64, StoreError>;
    /// Deletes a user's enrolment and recovery codes; answers whether there was one.
    async fn delete_second_factor(&self, sub: &str) -> Result<bool, StoreError>;
    /// Keeps the sealed secret of an authenticator `holder` is setting up for `sub`,
    /// replacing any earlier one of the same holder, for `ttl` seconds.
    async fn put_setup(
        &self,
        sub: &str,
        holder: &str,
        sealed_secret: &str,
        ttl: u64,
    ) -> Result<(), StoreError>;
    /// The sealed secret of `holder`'s set-up for `sub`; `None` if absent or expired.
    async fn setup(&self, sub: &str, holder: &str) -> Result<Option<String>, StoreError>;
    /// Forgets `holder`'s set-up for `sub`; forgetting an absent one is not an error.
    async fn delete_setup(&self, sub: &str, holder: &str) -> Result<(), StoreError>;
    /// Marks TOTP time `step` of `sub`'s authenticator (told apart by the short tag
    /// `authenticator`) as used for `ttl` seconds; answers whether it was still unused. Of
    /// concurrent calls for one step, at most one gets `true`.
    async fn spend_otp_step(
        &self,
        sub: &str,
        authenticator: &str,
        step: u64,
        ttl: u64,
    ) -> Result<bool, StoreError>;
}

/// People's passkeys: kept until removed, each filed under its person and found by its
/// credential id, which no two passkeys share.
#[async_trait]
pub trait PasskeyStore: Send + Sync {
    /// Adds `record` to `sub`'s passkeys unless its credential id is already a passkey of
    /// anyone's ([`PasskeyAdded::Taken`]) or `sub` has `max` already ([`PasskeyAdded::Full`]).
    /// One atomic step, shared by every node.
    async fn add_passkey(
        &self,
        sub: &str,
        record: &PasskeyRecord,
        max: usize,
    ) -> Result<PasskeyAdded, StoreError>;
    /// `sub`'s passkeys, oldest first.
    async fn passkeys(&self, sub: &str) -> Result<Vec<PasskeyRecord>, StoreError>;
    /// Whose passkey credential `id` (base64url) is.
    async fn passkey_owner(&self, id: &str) -> Result<Option<String>, StoreError>;
    /// Writes a change to `sub`'s passkey `record.id` (its counter, last use or name);
    /// answers `false`, writing nothing, when `sub` has no such passkey (any longer).
    async fn update_passkey(&self, sub: &str, record: &PasskeyRecord) -> Result<bool, StoreError>;
    /// Removes `sub`'s passkey `id`; answers `false` when `sub` has none such: another
    /// person's passkey is never touched.
    async fn delete_passkey(&self, sub: &str, id: &str) -> Result<bool, StoreError>;
    /// Removes every passkey of `sub`; answers how many there were.
    async fn delete_passkeys(&self, sub: &str) -> Result<u64, StoreError>;
}

/// The state of a passkey ceremony (its challenge) between the page that starts it and the
/// form that finishes it: short-lived and single use.
#[async_trait]
pub trait CeremonyStore: Send + Sync {
    /// Keeps `state` under `key` for `ttl` seconds, replacing any earlier state there.
    async fn put_ceremony(&self, key: &str, state: &str, ttl: u64) -> Result<(), StoreError>;
    /// Takes the state under `key`: answers it and forgets it. Of concurrent calls for one
    /// key, at most one gets it.
    async fn take_ceremony(&self, key: &str) -> Result<Option<String>, StoreError>;
}

/// What a sliding window of attempts holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct AttemptCount {
    /// Attempts that failed less than the window's length ago.
    pub failed: u64,
    /// Attempts begun and not yet ended as failed or taken back, this one included; one begun
    /// more than [`IN_FLIGHT_SECS`] ago is no longer counted (its node stopped on the way).
    pub in_flight: u64,
}

impl AttemptCount {
    /// Every attempt the window counts.
    pub fn total(self) -> u64 {
        self.failed + self.in_flight
    }
}

/// How long an attempt may stay in flight, longest: past any directory's timeouts.
pub const IN_FLIGHT_SECS: u64 = 120;

/// Sliding windows of password and code attempts, shared by every node.
#[async_trait]
pub trait LimitStore: Send + Sync {
    /// Adds attempt `id`, begun at `now`, to each sliding window of `windows` (its key and its
    /// length in seconds) as in flight, and answers what each holds, in the order given;
    /// failures older than the window are dropped, at once or on a later call. One atomic step,
    /// shared by every node.
    async fn add_attempt(
        &self,
        windows: &[(String, u64)],
        id: &str,
        now: UnixTime,
    ) -> Result<Vec<AttemptCount>, StoreError>;
    /// Ends attempt `id` as failed at `now` in the windows under `keys`: it counts as a failure
    /// from then on, for the window's length.
    async fn fail_attempt(
        &self,
        keys: &[String],
        id: &str,
        now: UnixTime,
    ) -> Result<(), StoreError>;
    /// Removes attempt `id` from the windows under `keys` (it succeeded, or was never checked).
    async fn remove_attempt(&self, keys: &[String], id: &str) -> Result<(), StoreError>;
    /// Empties the window under `key` (a directory that forgets failures only at a success).
    async fn clear_attempts(&self, key: &str) -> Result<(), StoreError>;
    /// Notes that the window under `key` is over its limit, for `ttl` seconds; answers whether
    /// this is the first note (so a lockout is reported once, not on every refused attempt).
    /// Of concurrent calls for one key, at most one gets `true`.
    async fn note_lockout(&self, key: &str, ttl: u64) -> Result<bool, StoreError>;
}

/// What the event listeners keep: the audit log, each app's recent failed requests (for the
/// app doctor) and when each app last obtained tokens.
#[async_trait]
pub trait AuditStore: Send + Sync {
    /// Appends an audit event (events are told apart by their id) after every event already
    /// in the log, files it under each of its indexes ([`AuditIndex::of`]), and forgets events
    /// stamped before `record.at - retention` and all but the `keep` newest, oldest first,
    /// from the log and every index alike: one atomic step.
    async fn append_audit(
        &self,
        record: &AuditRecord,
        retention: u64,
        keep: usize,
    ) -> Result<(), StoreError>;
    /// One step of a walk through the audit log: the events filed under every index of
    /// `under` (every event when it is empty) beyond `from`, in its direction (newest first
    /// from [`AuditFrom::Newest`] and [`AuditFrom::Before`], oldest first from
    /// [`AuditFrom::After`]), at most `limit`. A step looks at a bounded number of events, so
    /// it may answer fewer than `limit` and still go on ([`AuditPage::next`]): walking on
    /// until `next` is `None` finds every such event, whatever the size of the log.
    async fn audit_events(
        &self,
        under: &[AuditIndex],
        from: AuditFrom,
        limit: usize,
    ) -> Result<AuditPage, StoreError>;
    /// Records a failed request of a client, keeping the `keep` newest for `ttl` seconds
    /// after the last one.
    async fn push_failure(
        &self,
        id: &ClientId,
        entry: &DoctorEntry,
        keep: usize,
        ttl: u64,
    ) -> Result<(), StoreError>;
    /// A client's recent failed requests, newest first. An entry that does not read back is
    /// skipped rather than failing the list: the list only explains, it decides nothing.
    async fn failures(&self, id: &ClientId) -> Result<Vec<DoctorEntry>, StoreError>;
    /// Notes that a client obtained tokens at `at`, remembered for `ttl` seconds.
    async fn mark_used(&self, id: &ClientId, at: UnixTime, ttl: u64) -> Result<(), StoreError>;
    /// When a client last obtained tokens, if noted within the mark's TTL. A mark that does
    /// not read back counts as none, like a missing one: it only feeds a column of a list.
    async fn last_used(&self, id: &ClientId) -> Result<Option<UnixTime>, StoreError>;
    /// Notes that `client` obtained tokens for `sub` at `at`, keeping the first time noted;
    /// remembered for `ttl` seconds after the last.
    async fn mark_app_use(
        &self,
        sub: &str,
        client: &ClientId,
        at: UnixTime,
        ttl: u64,
    ) -> Result<(), StoreError>;
    /// When each of `clients` first and last obtained tokens for `sub`, for those noted, in
    /// one step. A mark that does not read back counts as none.
    async fn app_uses(
        &self,
        sub: &str,
        clients: &[ClientId],
    ) -> Result<Vec<(ClientId, AppUse)>, StoreError>;
    /// Forgets when `client` was used for `sub`.
    async fn forget_app_use(&self, sub: &str, client: &ClientId) -> Result<(), StoreError>;
}

/// Back-channel logouts waiting to be delivered, shared by every node: each is claimed by one
/// node at a time, and one whose node stopped on the way is claimed again later.
#[async_trait]
pub trait LogoutQueue: Send + Sync {
    /// Queues `job` (or puts it back, replacing what is kept under its id), to be claimed from
    /// `due` on; it is forgotten after `ttl` seconds whatever happens.
    async fn put_logout(&self, job: &LogoutJob, due: UnixTime, ttl: u64) -> Result<(), StoreError>;
    /// Claims at most `max` jobs due at `now`, earliest first: each is hidden from every other
    /// claim until `now + lease`, when it is due again unless it was put back or deleted
    /// meanwhile. One atomic step: of concurrent claims, each job goes to one.
    async fn claim_logouts(
        &self,
        now: UnixTime,
        lease: u64,
        max: usize,
    ) -> Result<Vec<LogoutJob>, StoreError>;
    /// Forgets a job (delivered, refused, or given up); forgetting an absent one is not an
    /// error.
    async fn delete_logout(&self, id: &str) -> Result<(), StoreError>;
}

/// The generated OpenID Connect signing key set (never expires). It stays the JSON text that
/// `oidc::generated_keys` writes: compare-and-set compares exactly that text.
#[async_trait]
pub trait KeyStore: Send + Sync {
    /// The generated id_token signing key set (JSON), if one has been stored.
    async fn signing_keys(&self) -> Result<Option<String>, StoreError>;
    /// Stores `keys` unless a key set is stored already, atomically, and answers the stored one:
    /// of several nodes starting together with no key, all end up signing with the same key.
    async fn signing_keys_or_insert(&self, keys: &str) -> Result<String, StoreError>;
    /// Replaces the stored key set only if it still equals `expected` (compare-and-set) and
    /// answers whether it did: of two nodes rotating at once, one wins and the other re-reads.
    async fn replace_signing_keys(&self, expected: &str, keys: &str) -> Result<bool, StoreError>;
}
