//! Authorize requests waiting for sign-in or consent, bound to the browser that started them.
//!
//! The browser holds a random flow cookie; the pending request keeps its digest and a CSRF token.
//! A form post must carry the request id and CSRF token *and* come from the browser holding the
//! cookie, so another site can neither forge a post nor make a victim finish the attacker's flow.

use crate::clock::UnixTime;
use crate::domain::secret::random_id;
use crate::domain::Digest;
use crate::oauth::authorize::AuthorizationRequest;
use crate::session::Context;
use crate::session::SessionRecord;
use crate::store::StoreError;
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

/// Why a form post does not belong to a live pending request.
#[derive(Debug, thiserror::Error)]
pub enum PendingError {
    #[error("the sign-in request has expired or is unknown")]
    Expired,
    #[error("the form did not come from this browser's sign-in page")]
    Forged,
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// Stores a request for `flow_cookie`'s browser; answers the request id and its CSRF token.
/// `session_cookie` is the browser's SSO session, which `prompt=login` rules out.
pub async fn start(
    cx: &impl Context,
    request: AuthorizationRequest,
    flow_cookie: &str,
    session_cookie: Option<&str>,
) -> Result<(String, PendingRequest), StoreError> {
    let replaced_session = session_cookie
        .filter(|_| request.oidc.prompt_login)
        .map(Digest::of);
    let id = random_id(24);
    let pending = PendingRequest {
        request,
        csrf_token: random_id(32),
        browser: Digest::of(flow_cookie),
        replaced_session,
    };
    let ttl = cx.session_settings().request_ttl.as_secs();
    cx.store().put_pending(&id, &pending, ttl).await?;
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
pub async fn finish(cx: &impl Context, request_id: &str) -> Result<bool, StoreError> {
    cx.store().finish_pending(request_id).await
}
