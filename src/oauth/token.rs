//! `/oauth/token`: the request typed at the edge, client authentication, then its grant.

use super::client_auth::{self, ClientCredentials};
use super::grants;
use super::{Context, OAuthError, Refused};
use crate::domain::bounds::{self, check};
use crate::domain::SecretToken;
use crate::events::Event;
use serde::{Deserialize, Serialize};

/// A token request's parameters, as received (RFC 6749 §4.1.3, §6).
#[derive(Default)]
pub struct TokenParams {
    pub grant_type: Option<String>,
    pub code: Option<SecretToken>,
    pub redirect_uri: Option<String>,
    pub code_verifier: Option<String>,
    pub refresh_token: Option<SecretToken>,
    pub scope: Option<String>,
}

/// A token request, checked for what its grant type requires.
pub enum TokenRequest {
    /// `grant_type=authorization_code` (RFC 6749 §4.1.3, RFC 7636 §4.5).
    AuthorizationCode {
        /// The one-time code.
        code: SecretToken,
        /// The redirect URI of the authorize request.
        redirect_uri: String,
        /// The PKCE verifier, when the authorize request sent a challenge.
        code_verifier: Option<String>,
    },
    /// `grant_type=refresh_token` (RFC 6749 §6).
    RefreshToken {
        /// The refresh token.
        refresh_token: SecretToken,
        /// A narrower scope, if asked for.
        scope: Option<String>,
    },
}

impl TokenRequest {
    /// Reads the parameters into the request their `grant_type` names; a value over its
    /// documented maximum is `invalid_request`.
    pub fn parse(params: TokenParams) -> Result<Self, OAuthError> {
        let required = |value: Option<String>, name: &str, max: usize| {
            let value = value
                .filter(|v| !v.is_empty())
                .ok_or_else(|| OAuthError::InvalidRequest(format!("{name} is required")))?;
            bounded(name, value, max)
        };
        let secret = |value: Option<SecretToken>, name: &str| {
            let value = value
                .filter(|v| !v.expose().is_empty())
                .ok_or_else(|| OAuthError::InvalidRequest(format!("{name} is required")))?;
            check(name, value.expose(), bounds::TOKEN).map_err(OAuthError::InvalidRequest)?;
            Ok::<_, OAuthError>(value)
        };
        let optional = |value: Option<String>, name: &str, max: usize| {
            value.map(|v| bounded(name, v, max)).transpose()
        };
        match required(params.grant_type, "grant_type", bounds::GRANT_TYPE)?.as_str() {
            "authorization_code" => Ok(Self::AuthorizationCode {
                code: secret(params.code, "code")?,
                redirect_uri: required(params.redirect_uri, "redirect_uri", bounds::REDIRECT_URI)?,
                code_verifier: optional(
                    params.code_verifier.filter(|v| !v.is_empty()),
                    "code_verifier",
                    bounds::CODE_VERIFIER,
                )?,
            }),
            "refresh_token" => Ok(Self::RefreshToken {
                refresh_token: secret(params.refresh_token, "refresh_token")?,
                scope: optional(
                    params.scope.filter(|s| !s.trim().is_empty()),
                    "scope",
                    bounds::SCOPE,
                )?,
            }),
            other => Err(OAuthError::UnsupportedGrantType(format!(
                "grant_type `{other}` is not supported; use authorization_code or refresh_token"
            ))),
        }
    }

    fn grant_type(&self) -> &'static str {
        match self {
            Self::AuthorizationCode { .. } => "authorization_code",
            Self::RefreshToken { .. } => "refresh_token",
        }
    }
}

/// `value` if it is at most `max` bytes long, else `invalid_request`.
fn bounded(name: &str, value: String, max: usize) -> Result<String, OAuthError> {
    check(name, &value, max).map_err(OAuthError::InvalidRequest)?;
    Ok(value)
}

// The wire type of the token endpoint's answer: its doc comments are the published OpenAPI
// document's descriptions (what each field means to an app: docs/src/protocol.md, Token
// endpoint). Serde encodes it only to seal a rotated refresh token's successor (`seal.rs`).
/// A successful token response (RFC 6749 §5.1).
#[derive(Clone, Serialize, Deserialize, poem_openapi::Object)]
pub struct TokenSuccess {
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
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[oai(skip_serializing_if_is_none)]
    pub id_token: Option<String>,
}

/// Reports a refused token request, so the app doctor can explain it. Outages are not the
/// app's mistake and are left out. `verified`: the request authenticated with the app's
/// secret, so it came from the app (see [`Event::TokenRefused`]).
pub async fn refused(
    cx: &impl Context,
    client_id: Option<&str>,
    via_basic: bool,
    verified: bool,
    refused: &Refused,
) {
    let error = &refused.error;
    if error.is_server_side() {
        return;
    }
    let event = Event::TokenRefused {
        client_id: client_id.map(str::to_owned),
        via_basic,
        verified,
        reason: refused.reason,
        error: error.code(),
        description: error.description(),
    };
    cx.events().publish(event).await;
}

/// Authenticates the client, then runs the grant. `address` is the caller's, for the audit log.
#[tracing::instrument(skip_all, fields(grant_type = request.grant_type()))]
pub async fn exchange(
    cx: &impl Context,
    credentials: ClientCredentials,
    request: TokenRequest,
    address: Option<String>,
) -> Result<TokenSuccess, OAuthError> {
    let (raw_id, via_basic) = (credentials.client_id.clone(), credentials.via_basic);
    let client = match client_auth::authenticate(cx, credentials).await {
        Ok(client) => client,
        Err(e) => {
            refused(cx, raw_id.as_deref(), via_basic, false, &e).await;
            return Err(e.error);
        }
    };
    tracing::Span::current().record("client_id", client.client_id.as_str());
    let result = match request {
        TokenRequest::AuthorizationCode {
            code,
            redirect_uri,
            code_verifier,
        } => {
            let presented = grants::authorization_code::Presented {
                code,
                redirect_uri,
                code_verifier,
            };
            grants::authorization_code::exchange(cx, &client, presented, address).await
        }
        TokenRequest::RefreshToken {
            refresh_token,
            scope,
        } => grants::refresh_token::exchange(cx, &client, refresh_token, scope, address).await,
    };
    if let Err(e) = &result {
        // Past client authentication a confidential app has proved itself with its secret; a
        // public app's client_id alone proves nothing.
        refused(cx, raw_id.as_deref(), via_basic, !client.is_public(), e).await;
    }
    result.map_err(|e| e.error)
}
