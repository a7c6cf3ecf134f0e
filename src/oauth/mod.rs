//! The OAuth 2.0 protocol, apart from HTTP: authorize request validation, code issuance, the
//! token grants, userinfo. Handlers in `crate::http` parse requests, call these functions and map
//! their results.

pub mod authorize;
pub mod client_auth;
pub mod error;
pub mod grants;
pub mod issue;
pub mod lifecycle;
pub mod pkce;
pub mod seal;
pub mod token;
pub mod userinfo;

pub use error::OAuthError;
