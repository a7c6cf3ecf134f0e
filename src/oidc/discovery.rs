//! The discovery documents: OpenID Connect Discovery 1.0 (`/.well-known/openid-configuration`)
//! and RFC 8414 (`/.well-known/oauth-authorization-server`). One document serves both.

use crate::domain::claims::CLAIM_SCOPES;
use crate::domain::{Language, Scope, SigningAlg};

/// Paths of every endpoint, shared by the router and the documents.
pub mod paths {
    pub const AUTHORIZE: &str = "/oauth/authorize";
    pub const TOKEN: &str = "/oauth/token";
    pub const USERINFO: &str = "/oauth/userinfo";
    pub const JWKS: &str = "/oauth/jwks";
    pub const REVOKE: &str = "/oauth/revoke";
    pub const INTROSPECT: &str = "/oauth/introspect";
    pub const LOGOUT: &str = "/oauth/logout";
    pub const OPENID_CONFIGURATION: &str = "/.well-known/openid-configuration";
    pub const AUTHORIZATION_SERVER: &str = "/.well-known/oauth-authorization-server";
}

// The wire type of both discovery documents; its doc comments are the published OpenAPI
// document's descriptions.
/// Provider metadata (OpenID Connect Discovery 1.0 §3, RFC 8414 §2).
#[derive(Debug, Clone, poem_openapi::Object)]
pub struct ProviderMetadata {
    /// The issuer: `server.base_url`, the `iss` of every id_token.
    pub issuer: String,
    pub authorization_endpoint: String,
    pub token_endpoint: String,
    pub userinfo_endpoint: String,
    pub jwks_uri: String,
    pub revocation_endpoint: String,
    pub introspection_endpoint: String,
    pub end_session_endpoint: String,
    pub scopes_supported: Vec<String>,
    pub claims_supported: Vec<String>,
    pub response_types_supported: Vec<String>,
    pub response_modes_supported: Vec<String>,
    pub grant_types_supported: Vec<String>,
    pub subject_types_supported: Vec<String>,
    pub id_token_signing_alg_values_supported: Vec<String>,
    pub token_endpoint_auth_methods_supported: Vec<String>,
    pub revocation_endpoint_auth_methods_supported: Vec<String>,
    pub introspection_endpoint_auth_methods_supported: Vec<String>,
    pub code_challenge_methods_supported: Vec<String>,
    pub prompt_values_supported: Vec<String>,
    /// The languages of the pages, which `ui_locales` may ask for.
    pub ui_locales_supported: Vec<String>,
    pub claims_parameter_supported: bool,
    pub request_parameter_supported: bool,
    pub request_uri_parameter_supported: bool,
    /// RFC 9207: every authorization response carries `iss`.
    pub authorization_response_iss_parameter_supported: bool,
    /// OpenID Connect Back-Channel Logout 1.0: apps with a `backchannel_logout_uri` are told
    /// when a session ends.
    pub backchannel_logout_supported: bool,
    /// The logout token carries `sid`, as the id_tokens do.
    pub backchannel_logout_session_supported: bool,
}

fn strings(items: &[&str]) -> Vec<String> {
    items.iter().map(|s| (*s).to_owned()).collect()
}

/// Userinfo claims (docs/src/protocol.md, Claims) and the id_token's own claims.
fn claims_supported() -> Vec<String> {
    let mut claims: Vec<String> = CLAIM_SCOPES.iter().map(|(c, _)| (*c).to_owned()).collect();
    claims.extend(strings(&[
        "iss",
        "aud",
        "exp",
        "iat",
        "auth_time",
        "nonce",
        "azp",
        "at_hash",
        "amr",
        "sid",
    ]));
    claims
}

/// The document for `issuer`, announcing `algs` (the service's default first) as the id_token
/// signing algorithms.
pub fn metadata(issuer: &str, algs: &[SigningAlg]) -> ProviderMetadata {
    let at = |path: &str| format!("{issuer}{path}");
    let client_auth = ["client_secret_basic", "client_secret_post", "none"];
    ProviderMetadata {
        issuer: issuer.to_owned(),
        authorization_endpoint: at(paths::AUTHORIZE),
        token_endpoint: at(paths::TOKEN),
        userinfo_endpoint: at(paths::USERINFO),
        jwks_uri: at(paths::JWKS),
        revocation_endpoint: at(paths::REVOKE),
        introspection_endpoint: at(paths::INTROSPECT),
        end_session_endpoint: at(paths::LOGOUT),
        scopes_supported: Scope::ALL.iter().map(|s| s.as_str().to_owned()).collect(),
        claims_supported: claims_supported(),
        response_types_supported: strings(&["code"]),
        response_modes_supported: strings(&["query"]),
        grant_types_supported: strings(&["authorization_code", "refresh_token"]),
        subject_types_supported: strings(&["public"]),
        id_token_signing_alg_values_supported: algs.iter().map(|a| a.as_str().to_owned()).collect(),
        token_endpoint_auth_methods_supported: strings(&client_auth),
        revocation_endpoint_auth_methods_supported: strings(&client_auth),
        // Introspection is for confidential apps only.
        introspection_endpoint_auth_methods_supported: strings(&client_auth[..2]),
        code_challenge_methods_supported: strings(&["S256"]),
        prompt_values_supported: strings(&["none", "login", "consent"]),
        ui_locales_supported: Language::ALL.iter().map(|l| l.code().to_owned()).collect(),
        claims_parameter_supported: false,
        request_parameter_supported: false,
        request_uri_parameter_supported: false,
        authorization_response_iss_parameter_supported: true,
        backchannel_logout_supported: true,
        backchannel_logout_session_supported: true,
    }
}
