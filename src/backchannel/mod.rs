//! OpenID Connect Back-Channel Logout 1.0: apps are told, server to server, when a person's
//! session with them ends, so that they end their own.
//!
//! - When an SSO session ends ([`session_ended`]: RP-initiated logout, sign-out at the pages, a
//!   superadmin's `users revoke`, a leaver found by a directory re-check), the grants begun in
//!   it are revoked, and every app that got tokens in it and has a `backchannel_logout_uri` is
//!   queued a logout naming the person (`sub`) and the session (`sid`).
//! - When a person's grant for an app ends without their session ending (a refresh refused, an
//!   app's access removed, a person signed out everywhere after the session had ended),
//!   [`grant_ended`] queues that app a logout naming the session the grant came from.
//!
//! Queuing is a store write; the request that caused it never waits for the app. The queue is
//! kept in the store, so any node, or this one after a restart, delivers it: [`deliver`] is
//! the worker every node runs.

pub mod deliver;

use crate::clock::HasClock;
use crate::domain::secret::random_id;
use crate::domain::ClientId;
use crate::events::{Event, HasEvents, LogoutOutcome};
use crate::store::{EndedSessions, HasStore, LogoutJob, StoreError};

/// What queuing a logout needs: the store, the clock and the event bus (a queued logout is
/// counted).
pub trait Context: HasStore + HasClock + HasEvents + Sync {}

impl<T: HasStore + HasClock + HasEvents + Sync> Context for T {}

/// How long a queued logout is kept at most, delivered or not: well past its retries.
pub const JOB_TTL: u64 = 3600;

/// The SSO session `sid` of `sub` has ended: revokes every grant begun in it (and its codes not
/// yet redeemed), and queues a logout for each app that got tokens in it and has a back-channel
/// logout URI. Answers the apps that got tokens in it. Of several calls for one session (two
/// nodes ending it at once), one does it.
pub async fn session_ended(
    cx: &impl Context,
    sub: &str,
    sid: &str,
) -> Result<Vec<ClientId>, StoreError> {
    let apps = cx.store().revoke_session(sid).await?;
    for app in &apps {
        queue(cx, app, sub, Some(sid)).await?;
    }
    Ok(apps)
}

/// Ends every SSO session of `sub` ([`crate::store::SessionStore::end_sessions`]), and for each
/// what [`session_ended`] does.
pub async fn end_sessions(cx: &impl Context, sub: &str) -> Result<EndedSessions, StoreError> {
    let ended = cx.store().end_sessions(sub).await?;
    for sid in &ended.sids {
        session_ended(cx, sub, sid).await?;
    }
    Ok(ended)
}

/// A grant of `sub` for the app `client_id` ended while its session did not (a refresh refused,
/// the app's access removed): queues the app a logout naming `sub` and `sid`, the session the
/// grant came from (absent for a grant begun before sessions had a public id), if the app has
/// a back-channel logout URI. Answers whether one was queued.
pub async fn grant_ended(
    cx: &impl Context,
    client_id: &ClientId,
    sub: &str,
    sid: Option<&str>,
) -> Result<bool, StoreError> {
    queue(cx, client_id, sub, sid).await
}

/// Queues a logout for `client_id`, if it is registered with a back-channel logout URI.
async fn queue(
    cx: &impl Context,
    client_id: &ClientId,
    sub: &str,
    sid: Option<&str>,
) -> Result<bool, StoreError> {
    let told = cx
        .store()
        .client(client_id)
        .await?
        .is_some_and(|app| app.backchannel_logout_uri.is_some());
    if !told {
        return Ok(false);
    }
    let now = cx.now();
    let job = LogoutJob {
        id: random_id(16),
        client_id: client_id.clone(),
        sub: sub.to_owned(),
        sid: sid.map(str::to_owned),
        queued_at: now,
        attempts: 0,
    };
    cx.store().put_logout(&job, now, JOB_TTL).await?;
    let event = Event::BackchannelLogout {
        client_id: client_id.clone(),
        sub: sub.to_owned(),
        outcome: LogoutOutcome::Queued,
    };
    cx.events().publish(event).await;
    Ok(true)
}
