//! Short-lived records: JSON text under a namespace and a key, with its own TTL. Sessions,
//! pending requests, consents, admin sign-ins, set-ups and one-time marks are all kept this
//! way, so each backend stores them with one mechanism ([`Records`]) and the capability traits
//! type them on top.

use super::codec::{decode, encode};
use super::{AppUse, StoreError};
use crate::clock::UnixTime;
use crate::domain::{ClientId, Digest};
use async_trait::async_trait;
use serde::de::DeserializeOwned;
use serde::Serialize;

/// What a short-lived record is, naming its key prefix (after the store-wide one in Redis).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(super) enum Namespace {
    /// A pending `/oauth/authorize` request between sign-in and consent (`authreq:`).
    AuthRequest,
    /// A browser SSO session, keyed by the digest of the cookie value (`sess:`).
    Session,
    /// A remembered consent, keyed by `<sub>\n<client_id>` (`consent:`).
    Consent,
    /// An admin API token, keyed by its digest (`admtok:`).
    AdminToken,
    // --- second factor ---
    /// A TOTP time step already accepted for a user and authenticator, keyed by
    /// `<sub>\n<authenticator tag>\n<step>` (`otpused:`).
    OtpUsed,
    /// An authenticator being set up, keyed by `<sub>\n<holder>` (`mfasetup:`).
    MfaSetup,
    /// The state of a passkey ceremony, keyed by what it is bound to (`pkcer:`).
    PasskeyCeremony,
    /// A lockout already audited in the current window, keyed like its attempt window
    /// (`lockout:`).
    Lockout,
    // --- admin screen and app lifecycle ---
    /// An admin screen sign-in (idle timeout, CSRF token), keyed by the digest of the SSO
    /// session cookie; and a sign-in between password and second factor, keyed by
    /// `halfway:<digest of the sign-in form's cookie>` (`admscr:`).
    AdminScreen,
    /// When an app last obtained tokens, keyed by client id (`lastused:`).
    AppLastUsed,
    /// When an app first and last obtained tokens for a person, keyed by
    /// `<sub>\n<client_id>` (`appuse:`).
    AppUse,
}

impl Namespace {
    /// The key prefix of the namespace, without the store-wide prefix.
    pub(super) fn prefix(self) -> &'static str {
        match self {
            Namespace::AuthRequest => "authreq:",
            Namespace::Session => "sess:",
            Namespace::Consent => "consent:",
            Namespace::AdminToken => "admtok:",
            Namespace::OtpUsed => "otpused:",
            Namespace::MfaSetup => "mfasetup:",
            Namespace::PasskeyCeremony => "pkcer:",
            Namespace::Lockout => "lockout:",
            Namespace::AdminScreen => "admscr:",
            Namespace::AppLastUsed => "lastused:",
            Namespace::AppUse => "appuse:",
        }
    }
}

/// How a backend keeps short-lived records; the typed capability methods are built on it.
#[async_trait]
pub(super) trait Records: Send + Sync {
    /// Writes `value` under `ns` + `key`, replacing any previous value, expiring after `ttl`
    /// seconds.
    async fn put_text(
        &self,
        ns: Namespace,
        key: &str,
        value: String,
        ttl: u64,
    ) -> Result<(), StoreError>;
    /// Writes `value` under `ns` + `key` only if nothing live is there; answers whether it
    /// wrote. Of concurrent calls for one key, at most one gets `true`.
    async fn put_text_new(
        &self,
        ns: Namespace,
        key: &str,
        value: &str,
        ttl: u64,
    ) -> Result<bool, StoreError>;
    /// The live value under `ns` + `key`, if any.
    async fn text(&self, ns: Namespace, key: &str) -> Result<Option<String>, StoreError>;
    /// The live values under `ns` + each of `keys`, in their order: one round trip where the
    /// backend can.
    async fn texts(
        &self,
        ns: Namespace,
        keys: &[String],
    ) -> Result<Vec<Option<String>>, StoreError> {
        let mut values = Vec::with_capacity(keys.len());
        for key in keys {
            values.push(self.text(ns, key).await?);
        }
        Ok(values)
    }
    /// Deletes the value under `ns` + `key` and answers whether one was live: of concurrent
    /// calls for one key, at most one gets `true`.
    async fn remove(&self, ns: Namespace, key: &str) -> Result<bool, StoreError>;
    /// Deletes the value under `ns` + `key` and answers it if it was live, in one step: of
    /// concurrent calls for one key, at most one gets it.
    async fn take_text(&self, ns: Namespace, key: &str) -> Result<Option<String>, StoreError>;
    /// Writes as [`Records::put_text`] does, and files the record under `owner`, so that
    /// [`Records::remove_owned`] ends it with the owner's others.
    async fn put_owned_text(
        &self,
        ns: Namespace,
        key: &str,
        owner: &str,
        value: String,
        ttl: u64,
    ) -> Result<(), StoreError>;
    /// Deletes every record filed under `owner`; answers how many were live.
    async fn remove_owned(&self, owner: &str) -> Result<u64, StoreError>;

    /// Encodes a `what` and writes it as [`Records::put_owned_text`] does.
    async fn put_owned_record<T: Serialize + Sync>(
        &self,
        (ns, key): (Namespace, &str),
        owner: &str,
        what: &'static str,
        value: &T,
        ttl: u64,
    ) -> Result<(), StoreError> {
        let json = encode(what, value)?;
        self.put_owned_text(ns, key, owner, json, ttl).await
    }

    /// Encodes a `what` and writes it as [`Records::put_text`] does.
    async fn put_record<T: Serialize + Sync>(
        &self,
        ns: Namespace,
        key: &str,
        what: &'static str,
        value: &T,
        ttl: u64,
    ) -> Result<(), StoreError> {
        let json = encode(what, value)?;
        self.put_text(ns, key, json, ttl).await
    }

    /// Reads and decodes a `what` written by [`Records::put_record`].
    async fn record<T: DeserializeOwned>(
        &self,
        ns: Namespace,
        key: &str,
        what: &'static str,
    ) -> Result<Option<T>, StoreError> {
        let text = self.text(ns, key).await?;
        text.map(|json| decode(what, &json)).transpose()
    }
}

/// The key of a remembered consent.
pub(super) fn consent_key(sub: &str, client: &ClientId) -> String {
    format!("{sub}\n{}", client.as_str())
}

/// The records of `sub` with each of `clients` under `ns` (keyed like consents), read in one
/// step, with the clients that have one. A record that does not read back is left out: these
/// lists only show what a person has.
pub(super) async fn per_app<T: DeserializeOwned>(
    records: &impl Records,
    ns: Namespace,
    sub: &str,
    clients: &[ClientId],
    what: &'static str,
) -> Result<Vec<(ClientId, T)>, StoreError> {
    let keys: Vec<String> = clients.iter().map(|c| consent_key(sub, c)).collect();
    let texts = records.texts(ns, &keys).await?;
    Ok(clients
        .iter()
        .zip(texts)
        .filter_map(|(client, text)| {
            let value = decode(what, &text?).ok()?;
            Some((client.clone(), value))
        })
        .collect())
}

/// Notes that `client` obtained tokens for `sub` at `at`, keeping the first time noted.
pub(super) async fn mark_app_use(
    records: &impl Records,
    sub: &str,
    client: &ClientId,
    at: UnixTime,
    ttl: u64,
) -> Result<(), StoreError> {
    let key = consent_key(sub, client);
    // Two nodes marking at once may each keep their own first time: seconds apart.
    let before: Option<AppUse> = match records.record(Namespace::AppUse, &key, "app use").await {
        Ok(before) => before,
        Err(StoreError::Corrupt(_)) => None,
        Err(e) => return Err(e),
    };
    let first = before.map_or(at, |b| b.first.min(at));
    let mark = AppUse { first, last: at };
    records
        .put_record(Namespace::AppUse, &key, "app use", &mark, ttl)
        .await
}

/// The key of a sign-in waiting for its second factor, beside the screen sign-ins.
pub(super) fn halfway_key(login: &Digest) -> String {
    format!("halfway:{}", login.as_hex())
}

/// The key of an authenticator set-up: per user *and* per holder.
pub(super) fn setup_key(sub: &str, holder: &str) -> String {
    format!("{sub}\n{holder}")
}

/// The key of a TOTP time step already accepted.
pub(super) fn otp_step_key(sub: &str, authenticator: &str, step: u64) -> String {
    format!("{sub}\n{authenticator}\n{step}")
}
