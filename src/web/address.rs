//! The address a request came from, as the attempt limits, the audit log and the request log
//! see it: resolved once per request by the [`ClientAddresses`] middleware, read by handlers
//! as the [`ClientAddr`] extractor.

use super::forwarded;
use crate::config::TrustedProxies;
use poem::{Endpoint, FromRequest, Middleware, Request, RequestBody};
use std::net::IpAddr;
use std::sync::Arc;

/// The client's address: the TCP peer, or behind a trusted proxy the address it forwarded
/// (`server.trusted_proxies`). `None` when the peer has no IP address (a Unix socket).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ClientAddr(pub Option<IpAddr>);

impl ClientAddr {
    /// The address resolved for `req`; without the [`ClientAddresses`] middleware, the peer's.
    pub fn of(req: &Request) -> Self {
        req.extensions()
            .get::<Self>()
            .copied()
            .unwrap_or_else(|| Self(peer(req)))
    }

    /// The address.
    pub fn ip(self) -> Option<IpAddr> {
        self.0
    }

    /// The address as the audit log keeps it.
    pub fn shown(self) -> Option<String> {
        self.0.map(|addr| addr.to_string())
    }
}

impl<'a> FromRequest<'a> for ClientAddr {
    async fn from_request(req: &'a Request, _body: &mut RequestBody) -> poem::Result<Self> {
        Ok(Self::of(req))
    }
}

/// The TCP peer's IP address, an IPv4 peer of a dual-stack socket in its IPv4 form.
fn peer(req: &Request) -> Option<IpAddr> {
    req.remote_addr()
        .as_socket_addr()
        .map(|addr| addr.ip().to_canonical())
}

/// Resolves each request's [`ClientAddr`] once, before anything reads it.
pub struct ClientAddresses {
    trusted: Arc<TrustedProxies>,
}

impl ClientAddresses {
    /// Believes forwarding headers only from `trusted` peers.
    pub fn new(trusted: TrustedProxies) -> Self {
        Self {
            trusted: Arc::new(trusted),
        }
    }
}

impl<E: Endpoint> Middleware<E> for ClientAddresses {
    type Output = ClientAddressesEndpoint<E>;

    fn transform(&self, inner: E) -> Self::Output {
        ClientAddressesEndpoint {
            inner,
            trusted: Arc::clone(&self.trusted),
        }
    }
}

/// The endpoint [`ClientAddresses`] wraps.
pub struct ClientAddressesEndpoint<E> {
    inner: E,
    trusted: Arc<TrustedProxies>,
}

impl<E: Endpoint> Endpoint for ClientAddressesEndpoint<E> {
    type Output = E::Output;

    async fn call(&self, mut req: Request) -> poem::Result<Self::Output> {
        let client = peer(&req).map(|peer| forwarded::client(peer, req.headers(), &self.trusted));
        req.extensions_mut().insert(ClientAddr(client));
        self.inner.call(req).await
    }
}
