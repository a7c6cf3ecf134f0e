//! The browser side of sign-on: SSO sessions (confirmed by the directory again as they are
//! used), pending authorize requests, remembered consents.

pub mod consent;
pub mod pending;
pub mod recheck;

use crate::backchannel;
use crate::clock::HasClock;
use crate::config::{ClaimMapping, SessionSettings};
use crate::directory::HasDirectory;
use crate::domain::secret::random_id;
use crate::domain::{Claims, Digest};
use crate::events::HasEvents;
use crate::store::{HasStore, StoreError};

pub use crate::store::{Device, SessionRecord};
pub use recheck::{current, RecheckError};

/// What the session flows need: the store, the directory and its claim mapping (to confirm a
/// signed-in user again), the clock, the event bus and the `[session]` settings.
pub trait Context: HasStore + HasDirectory + HasClock + HasEvents + Sync {
    /// The `[session]` settings.
    fn session_settings(&self) -> &SessionSettings;
    /// Which directory attribute holds which claim.
    fn claim_mapping(&self) -> &ClaimMapping;
}

/// How far apart, in seconds, a session's last use is noted at most.
pub const LAST_SEEN_EVERY: u64 = 300;

/// Name of the SSO session cookie.
pub const SESSION_COOKIE: &str = "sso_session";
/// Name of the cookie binding pending authorize requests to one browser.
pub const FLOW_COOKIE: &str = "sso_flow";

/// Starts a session under a fresh id (never reusing one the browser brought) for a user who
/// authenticated with the methods `amr` (RFC 8176: `pwd`, `otp`) in the browser `device`;
/// answers the cookie value and the session as stored, so that the caller need not read it
/// back.
pub async fn create(
    cx: &impl Context,
    claims: Claims,
    amr: Vec<String>,
    device: Device,
    signed_in_as: Option<String>,
) -> Result<(String, SessionRecord), StoreError> {
    let now = cx.now();
    let ttl = cx.session_settings().ttl.as_secs();
    let id = random_id(32);
    let record = SessionRecord {
        claims,
        auth_time: now,
        amr,
        expires_at: now + ttl,
        checked_at: Some(now),
        sid: Some(public_id()),
        device: Some(device),
        last_seen: None,
        signed_in_as,
    };
    cx.store()
        .put_session(&Digest::of(&id), &record, ttl)
        .await?;
    Ok((id, record))
}

/// A fresh public id for a session (its `sid`): 128 random bits, unrelated to the cookie.
pub fn public_id() -> String {
    random_id(16)
}

/// The live session behind a cookie value, if any, as stored: what yields a code or the admin
/// screen uses [`current`], which confirms the user with the directory.
pub async fn load(
    cx: &impl Context,
    cookie: Option<&str>,
) -> Result<Option<SessionRecord>, StoreError> {
    let Some(id) = cookie.filter(|c| !c.is_empty() && c.len() <= 128) else {
        return Ok(None);
    };
    let Some(record) = cx.store().session(&Digest::of(id)).await? else {
        return Ok(None);
    };
    Ok((record.expires_at > cx.now()).then_some(record))
}

/// Deletes a session (one replaced by a new sign-in).
pub async fn destroy(cx: &impl Context, cookie: &str) -> Result<(), StoreError> {
    cx.store().delete_session(&Digest::of(cookie)).await
}

/// Ends a session as its person signs out: deletes it, revokes the grants begun in it and
/// queues a back-channel logout for each app that got tokens in it
/// ([`backchannel::session_ended`]). Answers the session as it was, if it was live.
pub async fn end(cx: &impl Context, cookie: &str) -> Result<Option<SessionRecord>, StoreError> {
    let record = load(cx, Some(cookie)).await?;
    end_loaded(cx, cookie, record.as_ref()).await?;
    Ok(record)
}

/// [`end`] for a session already read (`record`, as [`load`] answered it for `cookie`).
pub async fn end_loaded(
    cx: &impl Context,
    cookie: &str,
    record: Option<&SessionRecord>,
) -> Result<(), StoreError> {
    destroy(cx, cookie).await?;
    if let Some(record) = record {
        if let Some(sid) = &record.sid {
            backchannel::session_ended(cx, record.claims.sub(), sid).await?;
        }
    }
    Ok(())
}

/// Notes that the person of a session proved themselves again just now (a re-check before a
/// change to their account): its auth time becomes now, under the same cookie.
pub async fn reauthenticated(
    cx: &impl Context,
    cookie: &str,
    mut record: SessionRecord,
) -> Result<SessionRecord, StoreError> {
    let now = cx.now();
    let ttl = record.expires_at.saturating_sub(now).max(1);
    record.auth_time = now;
    cx.store()
        .put_session(&Digest::of(cookie), &record, ttl)
        .await?;
    Ok(record)
}

/// Records more authentication methods (`otp`; `hwk`, `user`) on a session, under a fresh id: the old
/// cookie value stops working, so an id seen before the second factor is never promoted.
/// Answers the new cookie value and the session as stored.
pub async fn add_methods(
    cx: &impl Context,
    cookie: &str,
    mut record: SessionRecord,
    methods: &[&str],
) -> Result<(String, SessionRecord), StoreError> {
    let ttl = record.expires_at.saturating_sub(cx.now()).max(1);
    for method in methods {
        if !record.amr.iter().any(|m| m == method) {
            record.amr.push((*method).to_owned());
        }
    }
    let id = random_id(32);
    cx.store()
        .put_session(&Digest::of(&id), &record, ttl)
        .await?;
    destroy(cx, cookie).await?;
    Ok((id, record))
}
