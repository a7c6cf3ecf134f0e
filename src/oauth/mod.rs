//! The OAuth 2.0 protocol, apart from HTTP: authorize request validation, code issuance, the
//! token grants, userinfo. Handlers in `crate::http` parse requests, call these functions and map
//! their results. What the flows need comes through [`Context`]; what they report goes out as
//! [`crate::events::Event`]s.

pub mod authorize;
pub mod client_auth;
pub mod error;
pub mod grants;
pub mod introspection;
pub mod issue;
pub mod pkce;
mod presented_token;
pub mod revocation;
pub mod seal;
pub mod token;
pub mod userinfo;

pub use error::{OAuthError, Refused};

use crate::config::{ClaimMapping, TokenSettings};
use crate::directory::HasDirectory;
use crate::events::HasEvents;

/// What the OAuth flows need: OpenID Connect's context (store, clock, keys, issuer), the
/// directory (a refresh reads the user again), the event bus, and their settings.
pub trait Context: crate::oidc::Context + HasDirectory + HasEvents {
    /// The `[tokens]` settings.
    fn token_settings(&self) -> &TokenSettings;
    /// Which directory attribute holds which claim.
    fn claim_mapping(&self) -> &ClaimMapping;
}
