//! The browser side of sign-on: SSO sessions, pending authorize requests, remembered consents.

pub mod consent;
pub mod pending;

use crate::clock::UnixTime;
use crate::domain::secret::random_id;
use crate::domain::{Claims, Digest};
use crate::state::AppState;
use crate::store::{Namespace, StoreError};
use serde::{Deserialize, Serialize};

/// Name of the SSO session cookie.
pub const SESSION_COOKIE: &str = "sso_session";
/// Name of the cookie binding pending authorize requests to one browser.
pub const FLOW_COOKIE: &str = "sso_flow";

/// A signed-in browser.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct SessionRecord {
    /// The user's claims at sign-in.
    pub claims: Claims,
    /// When the password was checked.
    pub auth_time: UnixTime,
    /// Authentication methods used (RFC 8176: `pwd`, then `otp` once the second factor passed).
    pub amr: Vec<String>,
    /// When the session ends.
    pub expires_at: UnixTime,
}

/// Starts a session under a fresh id (never reusing one the browser brought) for a user who
/// authenticated with the methods `amr` (RFC 8176: `pwd`, `otp`); answers the cookie value.
pub async fn create(
    state: &AppState,
    claims: Claims,
    amr: Vec<String>,
) -> Result<String, StoreError> {
    let now = state.now();
    let ttl = state.settings.session.ttl_secs;
    let id = random_id(32);
    let record = SessionRecord {
        claims,
        auth_time: now,
        amr,
        expires_at: now + ttl,
    };
    let json = serde_json::to_string(&record).map_err(|e| StoreError::Corrupt(e.to_string()))?;
    state
        .store
        .put(Namespace::Session, Digest::of(&id).as_hex(), &json, ttl)
        .await?;
    Ok(id)
}

/// The live session behind a cookie value, if any.
pub async fn load(
    state: &AppState,
    cookie: Option<&str>,
) -> Result<Option<SessionRecord>, StoreError> {
    let Some(id) = cookie.filter(|c| !c.is_empty() && c.len() <= 128) else {
        return Ok(None);
    };
    let Some(json) = state
        .store
        .get(Namespace::Session, Digest::of(id).as_hex())
        .await?
    else {
        return Ok(None);
    };
    let record: SessionRecord =
        serde_json::from_str(&json).map_err(|e| StoreError::Corrupt(e.to_string()))?;
    Ok((record.expires_at > state.now()).then_some(record))
}

/// Ends a session.
pub async fn destroy(state: &AppState, cookie: &str) -> Result<(), StoreError> {
    state
        .store
        .delete(Namespace::Session, Digest::of(cookie).as_hex())
        .await
}

/// Records one more authentication method (`otp`) on a session, under a fresh id: the old
/// cookie value stops working, so an id seen before the second factor is never promoted.
/// Answers the new cookie value.
pub async fn add_method(
    state: &AppState,
    cookie: &str,
    mut record: SessionRecord,
    method: &str,
) -> Result<String, StoreError> {
    let ttl = record.expires_at.saturating_sub(state.now()).max(1);
    if !record.amr.iter().any(|m| m == method) {
        record.amr.push(method.to_owned());
    }
    let id = random_id(32);
    let json = serde_json::to_string(&record).map_err(|e| StoreError::Corrupt(e.to_string()))?;
    state
        .store
        .put(Namespace::Session, Digest::of(&id).as_hex(), &json, ttl)
        .await?;
    destroy(state, cookie).await?;
    Ok(id)
}
