//! The JSON answers of the OAuth and OpenID Connect API as the OpenAPI document describes them:
//! the web layer's copies of what the flows return, so the flows stay free of poem.

use poem_openapi::Object;

/// A successful token response (RFC 6749 §5.1).
#[derive(Object)]
#[oai(rename = "TokenSuccess")]
pub struct TokenBody {
    /// Opaque access token, sent as `Authorization: Bearer`.
    pub access_token: String,
    /// Always `Bearer`.
    pub token_type: String,
    /// Seconds the access token stays valid (3600 by default).
    pub expires_in: u64,
    /// Refresh token (valid 30 days by default; rotated on every use).
    pub refresh_token: String,
    /// Space-separated scopes granted to the access token.
    pub scope: String,
    /// OpenID Connect id_token (a signed JWT), issued whenever `openid` is granted: on code
    /// exchange and on refresh.
    #[oai(skip_serializing_if_is_none)]
    pub id_token: Option<String>,
}

impl From<crate::oauth::token::TokenSuccess> for TokenBody {
    fn from(value: crate::oauth::token::TokenSuccess) -> Self {
        Self {
            access_token: value.access_token,
            token_type: value.token_type,
            expires_in: value.expires_in,
            refresh_token: value.refresh_token,
            scope: value.scope,
            id_token: value.id_token,
        }
    }
}

/// An introspection answer (RFC 7662 §2.2); only `active` when the token is not.
#[derive(Object)]
#[oai(rename = "Introspection")]
pub struct IntrospectionBody {
    /// Whether the token is currently valid.
    pub active: bool,
    /// Space-separated scopes of the token.
    #[oai(skip_serializing_if_is_none)]
    pub scope: Option<String>,
    /// The app the token was issued to.
    #[oai(skip_serializing_if_is_none)]
    pub client_id: Option<String>,
    /// The user.
    #[oai(skip_serializing_if_is_none)]
    pub sub: Option<String>,
    /// `Bearer` for access tokens, `refresh_token` for refresh tokens.
    #[oai(skip_serializing_if_is_none)]
    pub token_type: Option<String>,
    /// Expiry, Unix seconds.
    #[oai(skip_serializing_if_is_none)]
    pub exp: Option<u64>,
    /// The issuer.
    #[oai(skip_serializing_if_is_none)]
    pub iss: Option<String>,
    /// The audience: the app the token was issued to.
    #[oai(skip_serializing_if_is_none)]
    pub aud: Option<String>,
}

impl From<crate::oauth::introspection::Introspection> for IntrospectionBody {
    fn from(value: crate::oauth::introspection::Introspection) -> Self {
        Self {
            active: value.active,
            scope: value.scope,
            client_id: value.client_id,
            sub: value.sub,
            token_type: value.token_type,
            exp: value.exp,
            iss: value.iss,
            aud: value.aud,
        }
    }
}

/// A public key as published at `jwks_uri` (RFC 7517 §4, RFC 7518 §6).
#[derive(Object)]
#[oai(rename = "Jwk")]
pub struct JwkBody {
    /// `RSA` or `EC`.
    pub kty: String,
    /// Key id: the RFC 7638 thumbprint, also in each id_token's header.
    pub kid: String,
    /// Always `sig`.
    #[oai(rename = "use")]
    pub use_: String,
    /// `RS256` or `ES256`.
    pub alg: String,
    /// RSA modulus (base64url).
    #[oai(skip_serializing_if_is_none)]
    pub n: Option<String>,
    /// RSA public exponent (base64url).
    #[oai(skip_serializing_if_is_none)]
    pub e: Option<String>,
    /// EC curve: `P-256`.
    #[oai(skip_serializing_if_is_none)]
    pub crv: Option<String>,
    /// EC x coordinate (base64url).
    #[oai(skip_serializing_if_is_none)]
    pub x: Option<String>,
    /// EC y coordinate (base64url).
    #[oai(skip_serializing_if_is_none)]
    pub y: Option<String>,
}

impl From<crate::oidc::signing_key::Jwk> for JwkBody {
    fn from(value: crate::oidc::signing_key::Jwk) -> Self {
        Self {
            kty: value.kty,
            kid: value.kid,
            use_: value.use_,
            alg: value.alg,
            n: value.n,
            e: value.e,
            crv: value.crv,
            x: value.x,
            y: value.y,
        }
    }
}

/// Provider metadata (OpenID Connect Discovery 1.0 §3, RFC 8414 §2).
#[derive(Object)]
#[oai(rename = "ProviderMetadata")]
pub struct MetadataBody {
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

impl From<crate::oidc::discovery::ProviderMetadata> for MetadataBody {
    fn from(value: crate::oidc::discovery::ProviderMetadata) -> Self {
        Self {
            issuer: value.issuer,
            authorization_endpoint: value.authorization_endpoint,
            token_endpoint: value.token_endpoint,
            userinfo_endpoint: value.userinfo_endpoint,
            jwks_uri: value.jwks_uri,
            revocation_endpoint: value.revocation_endpoint,
            introspection_endpoint: value.introspection_endpoint,
            end_session_endpoint: value.end_session_endpoint,
            scopes_supported: value.scopes_supported,
            claims_supported: value.claims_supported,
            response_types_supported: value.response_types_supported,
            response_modes_supported: value.response_modes_supported,
            grant_types_supported: value.grant_types_supported,
            subject_types_supported: value.subject_types_supported,
            id_token_signing_alg_values_supported: value.id_token_signing_alg_values_supported,
            token_endpoint_auth_methods_supported: value.token_endpoint_auth_methods_supported,
            revocation_endpoint_auth_methods_supported: value
                .revocation_endpoint_auth_methods_supported,
            introspection_endpoint_auth_methods_supported: value
                .introspection_endpoint_auth_methods_supported,
            code_challenge_methods_supported: value.code_challenge_methods_supported,
            prompt_values_supported: value.prompt_values_supported,
            ui_locales_supported: value.ui_locales_supported,
            claims_parameter_supported: value.claims_parameter_supported,
            request_parameter_supported: value.request_parameter_supported,
            request_uri_parameter_supported: value.request_uri_parameter_supported,
            authorization_response_iss_parameter_supported: value
                .authorization_response_iss_parameter_supported,
            backchannel_logout_supported: value.backchannel_logout_supported,
            backchannel_logout_session_supported: value.backchannel_logout_session_supported,
        }
    }
}
