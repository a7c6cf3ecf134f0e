//! The OAuth 2.0 and OpenID Connect endpoints as apps meet them, and the apps that talk to them.

pub(crate) mod apache_rp;
pub(crate) mod authorize;
pub(crate) mod backchannel;
pub(crate) mod cors;
pub(crate) mod host_cookies;
pub(crate) mod id_token_algs;
pub(crate) mod interop;
pub(crate) mod logout;
pub(crate) mod oidc;
pub(crate) mod oidc_authorize;
pub(crate) mod oidc_keys;
pub(crate) mod refreshes_together;
pub(crate) mod resource_servers;
pub(crate) mod revocation;
pub(crate) mod round_trips;
pub(crate) mod token;
pub(crate) mod userinfo;
