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
use crate::store::{PendingBound, StoreError};
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

/// Stores a request for `flow_cookie`'s browser, started from `address`; answers the request id
/// and its CSRF token. `session_cookie` is the browser's SSO session, which `prompt=login`
/// rules out.
///
/// Anyone can start requests without signing in, so what is outstanding is bounded, not the
/// rate: each browser and each address keeps its newest requests up to
/// `session.requests_per_browser` / `session.requests_per_address`, and an older one gives way
/// (its sign-in page then says the request expired). Finished requests leave their groups at
/// once, so any number of sign-ins a second from one address go through.
pub async fn start(
    cx: &impl Context,
    request: AuthorizationRequest,
    flow_cookie: &str,
    session_cookie: Option<&str>,
    address: Option<IpAddr>,
) -> Result<(String, PendingRequest), StoreError> {
    let replaced_session = session_cookie
        .filter(|_| request.oidc.prompt_login)
        .map(Digest::of);
    let settings = cx.session_settings();
    let browser = Digest::of(flow_cookie);
    let mut bounds = vec![PendingBound {
        group: format!("browser:{}", browser.as_hex()),
        max: settings.requests_per_browser,
    }];
    if let Some(address) = address {
        bounds.push(PendingBound {
            group: format!("addr:{}", address_group(address)),
            max: settings.requests_per_address,
        });
    }
    let id = random_id(24);
    let pending = PendingRequest {
        request,
        csrf_token: random_id(32),
        browser,
        replaced_session,
        groups: bounds.iter().map(|b| b.group.clone()).collect(),
    };
    let ttl = settings.request_ttl.as_secs();
    cx.store().put_pending(&id, &pending, ttl, &bounds).await?;
    Ok((id, pending))
}

/// The address group a request counts in: the address itself for IPv4, the /64 network for
/// IPv6, since one host commonly holds a whole /64.
fn address_group(address: IpAddr) -> String {
    match address {
        IpAddr::V4(v4) => v4.to_string(),
        IpAddr::V6(v6) => {
            let network = u128::from(v6) & !(u128::MAX >> 64);
            format!("{}/64", std::net::Ipv6Addr::from(network))
        }
    }
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

#[cfg(test)]
mod tests {
    use super::address_group;

    #[test]
    fn an_ipv6_address_counts_by_its_64_network_and_ipv4_by_itself() {
        let ip = |s: &str| s.parse().unwrap();
        assert_eq!(
            address_group(ip("2001:db8:1:2:3:4:5:6")),
            "2001:db8:1:2::/64"
        );
        assert_eq!(
            address_group(ip("2001:db8:1:2:ffff::1")),
            "2001:db8:1:2::/64"
        );
        assert_eq!(address_group(ip("192.0.2.7")), "192.0.2.7");
    }
}
