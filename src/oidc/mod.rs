//! OpenID Connect around the OAuth 2.0 core: signing keys and JWKS, the id_token, and the
//! discovery documents.

pub mod authorize;
pub mod discovery;
pub mod id_token;
pub mod keys;
pub mod keyset;
pub mod stored_keys;
