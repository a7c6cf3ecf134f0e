//! OpenID Connect around the OAuth 2.0 core: signing keys and JWKS, the id_token, and the
//! discovery documents.

pub mod discovery;
pub mod id_token;
pub mod keys;
pub mod keyset;
pub mod stored_keys;

use crate::clock::HasClock;
use crate::config::OidcSettings;
use crate::store::HasStore;

/// What OpenID Connect needs: the store and clock (generated keys live in the store), the
/// signing keys, the `[oidc]` settings and the issuer.
pub trait Context: HasStore + HasClock + Sync {
    /// The id_token signing keys.
    fn keys(&self) -> &keyset::Keys;
    /// The `[oidc]` settings.
    fn oidc_settings(&self) -> &OidcSettings;
    /// The issuer (`iss`): the public base address without a trailing slash.
    fn issuer(&self) -> String;
}
