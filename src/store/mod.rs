//! The store: everything sso-bridge remembers between requests, behind small capability traits
//! ([`ClientStore`], [`GrantStore`], ...) that [`Store`] combines.
//!
//! Backends: [`redis::RedisStore`] (production, shared by every node) and [`memory::MemoryStore`]
//! (embedded default, one process, lost on restart). Both give the same answers; the shared test
//! suite in `tests/api/store.rs` holds them to it.
//!
//! Callers hand in and get back typed records ([`records`]); only the store turns them into
//! stored text (`codec`), so a value that cannot be encoded is [`StoreError::Encoding`] and text
//! that does not decode is [`StoreError::Corrupt`]. The store names only base types (`domain`,
//! `config`, `clock`), never a flow.
//!
//! Secrets never reach the store: codes and tokens are keyed by their SHA-256
//! [`Digest`](crate::domain::Digest), client secrets are kept as digests. Every code, token,
//! session and pending request carries a TTL and disappears by itself. Operations whose outcome
//! depends on what another request did at the same moment (redeeming a code, rotating a refresh
//! token) are single atomic operations.

mod admin_sessions;
mod capabilities;
mod ceremonies;
mod codec;
pub(crate) mod decorator;
pub mod memory;
mod namespace;
pub mod records;
pub mod redis;
mod second_factor;
mod sessions;
mod usage;

pub use capabilities::*;
pub use records::*;

/// The store could not answer. Never reported to a client as a grant error: it is a 503.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// Connection refused, timed out, pool exhausted...
    #[error("store unavailable: {0}")]
    Unavailable(String),
    /// A record could not be read back (written by an incompatible version, or damaged).
    #[error("store record unreadable: {0}")]
    Corrupt(String),
    /// A value could not be encoded for writing: a fault of the writer, not of the store.
    /// Nothing was written.
    #[error("{what} could not be encoded for the store")]
    Encoding {
        /// What was being written.
        what: &'static str,
        /// The serialiser's complaint.
        #[source]
        source: serde_json::Error,
    },
}

/// A context that reaches the store: what a flow's context declares when it needs one.
pub trait HasStore {
    /// The store.
    fn store(&self) -> &dyn Store;
}

/// The store and the clock together: the whole context of a listener that keeps what it hears.
#[derive(Clone)]
pub struct WithClock {
    /// The store.
    pub store: std::sync::Arc<dyn Store>,
    /// The clock.
    pub clock: std::sync::Arc<dyn crate::clock::Clock>,
}

impl HasStore for WithClock {
    fn store(&self) -> &dyn Store {
        self.store.as_ref()
    }
}

impl crate::clock::HasClock for WithClock {
    fn clock(&self) -> &dyn crate::clock::Clock {
        self.clock.as_ref()
    }
}

/// What sso-bridge keeps between requests: every capability together, as each backend
/// provides it. Anything implementing all of them is a `Store`.
pub trait Store:
    Ping
    + ClientStore
    + GrantStore
    + SessionStore
    + AdminSessionStore
    + SecondFactorStore
    + PasskeyStore
    + CeremonyStore
    + LimitStore
    + AuditStore
    + KeyStore
    + LogoutQueue
    + 'static
{
}

impl<T> Store for T where
    T: Ping
        + ClientStore
        + GrantStore
        + SessionStore
        + AdminSessionStore
        + SecondFactorStore
        + PasskeyStore
        + CeremonyStore
        + LimitStore
        + AuditStore
        + KeyStore
        + LogoutQueue
        + 'static
{
}
