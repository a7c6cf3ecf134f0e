//! OpenID Connect around the OAuth 2.0 core: signing keys and JWKS, the id_token, the logout
//! token of back-channel logout, and the discovery documents.

pub mod discovery;
pub mod generated_keys;
pub mod id_token;
pub mod key_source;
pub mod logout_token;
pub mod signing_key;

use crate::clock::HasClock;
use crate::config::OidcSettings;
use crate::store::HasStore;

/// What OpenID Connect needs: the store and clock (generated keys live in the store), the
/// signing keys, the `[oidc]` settings and the issuer.
pub trait Context: HasStore + HasClock + Sync {
    /// The id_token signing keys.
    fn keys(&self) -> &key_source::Keys;
    /// The `[oidc]` settings.
    fn oidc_settings(&self) -> &OidcSettings;
    /// The issuer (`iss`): the public base address without a trailing slash.
    fn issuer(&self) -> String;
}
