//! Authorize requests waiting for sign-in or consent, bound to the browser that started them.
//!
//! The browser holds a random flow cookie; the pending request keeps its digest and a CSRF token.
//! A form post must carry the request id and CSRF token *and* come from the browser holding the
//! cookie, so another site can neither forge a post nor make a victim finish the attacker's flow.

use crate::clock::UnixTime;
use crate::domain::secret::random_id;
use crate::domain::{AddressGroup, Digest};
use crate::events::Event;
use crate::oauth::authorize::AuthorizationRequest;
use crate::session::Context;
use crate::session::SessionRecord;
use crate::store::{PendingBound, PendingLimits, PendingPut, StoreError};
use std::net::IpAddr;
use subtle::ConstantTimeEq;

pub use crate::store::PendingRequest;

// The record is the store's; the rule of which session may finish it is this flow's.
impl PendingRequest {
    /// Whether the session behind `cookie` may finish this request: not the one `prompt=login`
    /// replaced, and signed in recently enough for `max_age`. Checked on every page after the
    /// authorize endpoint, so an older session cannot skip the sign-in page by opening a later
    /// page of the flow.
    pub fn accepts(&self, cookie: &str, session: &SessionRecord, now: UnixTime) -> bool {
        let replaced = self
            .replaced_session
            .as_ref()
            .is_some_and(|old| old.ct_eq(&Digest::of(cookie)));
        !replaced && self.request.oidc.recent_enough(session.auth_time, now)
    }
}

/// Why a pending request could not be started, or a form post does not belong to a live one.
#[derive(Debug, thiserror::Error)]
pub enum PendingError {
    #[error("the sign-in request has expired or is unknown")]
    Expired,
    #[error("the form did not come from this browser's sign-in page")]
    Forged,
    /// The store holds as many unfinished sign-ins as it may (`session.requests_total`,
    /// `session.request_bytes_total`).
    #[error("too many unfinished sign-ins in all ({requests} requests, {bytes} bytes)")]
    Busy { requests: u64, bytes: u64 },
    /// The client's address group holds as many unfinished sign-ins as it may
    /// (`session.requests_per_address`).
    #[error("too many unfinished sign-ins from {group}")]
    TooMany { group: String },
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// Stores a request for `flow_cookie`'s browser, started from `address`; answers the request id
/// and its CSRF token. `session_cookie` is the browser's SSO session, which `prompt=login`
/// rules out.
///
/// Anyone can start requests without signing in, so what is outstanding is bounded, not the
/// rate. A browser keeps its newest requests up to `session.requests_per_browser`, its own
/// older ones giving way (their sign-in page then says the request expired). An address group
/// ([`AddressGroup::host`]) may hold `session.requests_per_address`, and the store
/// `session.requests_total` requests and `session.request_bytes_total` bytes in all: past
/// those a new request is refused ([`PendingError::TooMany`], [`PendingError::Busy`]), so
/// that no one's waiting sign-in ends for someone else's flood. Finished requests leave at
/// once, so any number of sign-ins a second from one address go through.
pub async fn start(
    cx: &impl Context,
    request: AuthorizationRequest,
    flow_cookie: &str,
    session_cookie: Option<&str>,
    address: Option<IpAddr>,
) -> Result<(String, PendingRequest), PendingError> {
    let replaced_session = session_cookie
        .filter(|_| request.oidc.prompt_login)
        .map(Digest::of);
    let settings = cx.session_settings();
    let browser = Digest::of(flow_cookie);
    let mut bounds = vec![PendingBound {
        group: format!("browser:{}", browser.as_hex()),
        max: settings.requests_per_browser,
        evicts: true,
    }];
    if let Some(address) = address {
        bounds.push(PendingBound {
            group: format!("addr:{}", AddressGroup::host(address)),
            max: settings.requests_per_address,
            evicts: false,
        });
    }
    let id = random_id(24);
    let pending = PendingRequest {
        request,
        csrf_token: random_id(32),
        browser,
        replaced_session,
        groups: bounds.iter().map(|b| b.group.clone()).collect(),
        admitted_at: Some(cx.now()),
    };
    let ttl = settings.request_ttl.as_secs();
    let limits = PendingLimits {
        requests: settings.requests_total,
        bytes: settings.request_bytes_total,
    };
    let put = cx
        .store()
        .put_pending(&id, &pending, ttl, &bounds, limits)
        .await?;
    let (load, stored) = match put {
        PendingPut::Stored(load) => (load, true),
        PendingPut::StoreFull(load) => (load, false),
        PendingPut::GroupFull(group) => return Err(PendingError::TooMany { group }),
    };
    let event = Event::PendingLoad {
        requests: load.requests,
        bytes: load.bytes,
        max_requests: limits.requests,
        max_bytes: limits.bytes,
    };
    cx.events().publish(event).await;
    if !stored {
        return Err(PendingError::Busy {
            requests: load.requests,
            bytes: load.bytes,
        });
    }
    Ok((id, pending))
}

/// Reads the request a form refers to, checking its CSRF token and browser binding.
pub async fn resume(
    cx: &impl Context,
    request_id: &str,
    csrf_token: Option<&str>,
    flow_cookie: Option<&str>,
) -> Result<PendingRequest, PendingError> {
    let pending = load(cx, request_id).await?.ok_or(PendingError::Expired)?;
    let csrf_ok: bool = csrf_token
        .map(|t| t.as_bytes().ct_eq(pending.csrf_token.as_bytes()).into())
        .unwrap_or(false);
    let browser_ok = flow_cookie.is_some_and(|c| Digest::of(c).ct_eq(&pending.browser));
    if !(csrf_ok && browser_ok) {
        return Err(PendingError::Forged);
    }
    Ok(pending)
}

/// Reads a pending request without checks (for showing a page to its own browser).
pub async fn load(
    cx: &impl Context,
    request_id: &str,
) -> Result<Option<PendingRequest>, StoreError> {
    if request_id.is_empty() || request_id.len() > 64 {
        return Ok(None);
    }
    cx.store().pending(request_id).await
}

/// Ends a pending request (once a code or an error has been sent); at most one caller wins.
pub async fn finish(
    cx: &impl Context,
    request_id: &str,
    pending: &PendingRequest,
) -> Result<bool, StoreError> {
    cx.store().finish_pending(request_id, pending).await
}
